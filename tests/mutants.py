"""A small mutation check of the core: one-line changes of pyx/ that the suite must catch.

Each mutant is (file, the exact original line, its replacement, the test files that must kill
it). They are applied one at a time to a copy of the repository (pyx/, symphony/, tests/ and the
build files, in a temporary directory), the copy's extension is rebuilt in place, the mutant's
tests run with `-x -q`, and the report says which mutants were killed and which survived. A
surviving mutant is a line the listed tests do not pin: add a test that fails on it.

    python3 -m tests.mutants                      # every mutant
    python3 -m tests.mutants control-token-count  # some, by name
    python3 -m tests.mutants --without tests/test_pinned_events.py   # what the rest of the suite misses

Exit status 0 when every mutant run was killed, 1 when one survived, 2 when a mutant no longer
applies (its line changed: update it) or the unmutated copy fails its own tests.
"""
import argparse
import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COPIED = ("pyx", "symphony", "tests", "setup.py", "pyproject.toml", "MANIFEST.in", "README.md")
PINNED = "tests/test_pinned_events.py"


@dataclasses.dataclass(frozen=True)
class Mutant:
    name: str
    file: str
    original: str     # the whole line, stripped of its indentation
    replacement: str  # the same, mutated (the original's indentation is kept)
    tests: tuple


MUTANTS = [
    # the three changes that once survived the whole suite
    Mutant("control-token-count", "pyx/engine/sink.pxi",
           "r.tokens = left", "r.tokens = 1",
           (PINNED, "tests/test_ledger.py")),
    # (End closes like a marker once an earlier region's call has ended; regions without markers,
    # the xLAM list's, excepted: its End-cut-after-a-call case is pinned in test_engine already)
    Mutant("end-cut-after-a-closed-region-says-block-closed", "pyx/engine/engine.pxi",
           "if terminal < 0:",
           "if terminal < 0 and self.sink.open_call + 1 == self.sink.calls or self.table.emits[0] == EM_ARGUMENTS:",
           (PINNED, "tests/test_engine.py")),
    Mutant("separator-before-object-held", "pyx/assemblers/assemble_json.pxi",
           "if self.done or self.reported == self.text.text.len:", "if self.done:",
           (PINNED, "tests/test_format.py")),
    # plausible slips elsewhere
    Mutant("scanner-holds-one-byte-short", "pyx/input/scanner.pxi",
           "if m_len > rest and memcmp(w + at, ms.ptrs[i], rest) == 0:",
           "if m_len > rest + 1 and memcmp(w + at, ms.ptrs[i], rest) == 0:",
           ("tests/test_scanner.py", "tests/test_engine.py")),
    Mutant("ledger-counts-a-boundary-token-early", "pyx/input/ledger.pxi",
           "while self.head < self.tail and self.starts[self.head] < end:",
           "while self.head < self.tail and self.starts[self.head] <= end:",
           ("tests/test_ledger.py",)),
    Mutant("reasoning-tokens-skip-single-token-runs", "pyx/engine/sink.pxi",
           "if kind == EV_REASONING and tokens > 0:", "if kind == EV_REASONING and tokens > 1:",
           ("tests/test_ledger.py",)),
    Mutant("nameless-cut-call-reason-swapped", "pyx/assemblers/assemble_json.pxi",
           "self.report(sink, AJ_MALFORMED, 0, length, MW_UNTERMINATED)",
           "self.report(sink, AJ_MALFORMED, 0, length, MW_OTHER, OT_CALL_WITHOUT_NAME)",
           ("tests/test_engine.py", PINNED)),
    Mutant("block-closed-reason-swapped", "pyx/engine/engine.pxi",
           "self.sink.relabel_unterminated(since, OT_BLOCK_CLOSED_WITHOUT_CALL)",
           "self.sink.relabel_unterminated(since, OT_TEXT_AFTER_OBJECT)",
           ("tests/test_engine.py", PINNED)),
    Mutant("trailing-separator-left-out-of-the-last-source", "pyx/input/held.pxi",
           "b += 1             # separators that arrived after the last byte belong here too",
           "pass",
           (PINNED, "tests/test_format.py")),
    Mutant("wrapper-whitespace-dropped-as-whitespace", "pyx/engine/sink.pxi",
           "self.dropped(DR_WRAPPER, p + start, at - start)", "self.dropped(DR_WHITESPACE, p + start, at - start)",
           ("tests/test_engine.py", "tests/test_format.py")),
]


def copy_repository(into):
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.c", "*.html", ".hypothesis")
    for name in COPIED:
        source = os.path.join(ROOT, name)
        if os.path.isdir(source):
            shutil.copytree(source, os.path.join(into, name), ignore=ignore)
        elif os.path.exists(source):
            shutil.copy2(source, os.path.join(into, name))


def mutate(text, mutant):
    """`text` with the mutant's line replaced, or None when the line is not there exactly once."""
    lines = text.split("\n")
    found = [i for i, line in enumerate(lines) if line.strip() == mutant.original]
    if len(found) != 1:
        return None
    i = found[0]
    lines[i] = lines[i][:len(lines[i]) - len(lines[i].lstrip())] + mutant.replacement
    return "\n".join(lines)


def run(command, cwd, log):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    with open(log, "w") as out:
        return subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env).returncode


def build(copy, log):
    return run([sys.executable, "setup.py", "build_ext", "--inplace"], copy, log) == 0


def tests_pass(copy, tests, log):
    return run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests], copy, log) == 0


def check(mutants, without, keep):
    work = tempfile.mkdtemp(prefix="symphony-mutants-")
    copy = os.path.join(work, "repo")
    os.mkdir(copy)
    copy_repository(copy)
    selections = {m.name: [t for t in m.tests if t not in without] for m in mutants}
    everything = sorted({t for tests in selections.values() for t in tests})
    print(f"copy in {copy}; building it unmutated", flush=True)
    if not build(copy, os.path.join(work, "baseline-build.log")) or \
            not tests_pass(copy, everything, os.path.join(work, "baseline-tests.log")):
        print(f"the unmutated copy does not build or pass {everything}: see {work}/baseline-*.log")
        return 2
    verdicts = []
    for m in mutants:
        path = os.path.join(copy, m.file)
        with open(path) as f:
            original = f.read()
        mutated = mutate(original, m)
        started = time.monotonic()
        if mutated is None:
            verdict = "NOT APPLIED (line not found exactly once)"
        elif not selections[m.name]:
            verdict = "NO TESTS LEFT"
        else:
            with open(path, "w") as f:
                f.write(mutated)
            try:
                if not build(copy, os.path.join(work, f"{m.name}-build.log")):
                    verdict = "build failed"
                elif tests_pass(copy, selections[m.name], os.path.join(work, f"{m.name}-tests.log")):
                    verdict = "SURVIVED"
                else:
                    verdict = "killed"
            finally:
                with open(path, "w") as f:
                    f.write(original)
        verdicts.append((m, verdict))
        print(f"{verdict:>9}  {m.name}  ({m.file}; {' '.join(selections[m.name])}; "
              f"{time.monotonic() - started:.0f} s)", flush=True)
    if keep:
        print(f"logs and copy kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    survived = [m.name for m, v in verdicts if v == "SURVIVED"]
    broken = [m.name for m, v in verdicts if v not in ("killed", "SURVIVED")]
    print(f"{len(verdicts)} mutants: {len(verdicts) - len(survived) - len(broken)} killed, "
          f"{len(survived)} survived{': ' + ', '.join(survived) if survived else ''}"
          f"{'; not run: ' + ', '.join(broken) if broken else ''}")
    return 2 if broken else 1 if survived else 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m tests.mutants", description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="mutants to run (default: all)")
    parser.add_argument("--without", action="append", default=[], metavar="TEST_FILE",
                        help="leave this test file out of every selection (to see what it alone catches)")
    parser.add_argument("--keep", action="store_true", help="keep the copy and the build/test logs")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = parser.parse_args(argv)
    if args.list:
        for m in MUTANTS:
            print(f"{m.name}: {m.file}: {m.original!r} -> {m.replacement!r}")
        return 0
    by_name = {m.name: m for m in MUTANTS}
    unknown = [n for n in args.names if n not in by_name]
    if unknown:
        parser.error(f"no mutant named {', '.join(unknown)} (see --list)")
    return check([by_name[n] for n in args.names] if args.names else MUTANTS, set(args.without), args.keep)


if __name__ == "__main__":
    sys.exit(main())
