"""bench/RESULTS.md: one section per bench, each written by its bench (`--markdown FILE`) and
replaced in place by the bench's next run, never appended to. A section is its bench's latest run:
a heading, the date and the machine it ran on, the command, and what the bench reports.

A section lies between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` lines; everything outside
a bench's own section (the head of the file, the other benches' sections) is left as it is.
"""
import os
import platform
import re
import shlex
import sys
import tempfile
import time

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md")

HEAD = """# Benchmark results

Each section is the latest run of one bench, written by the bench itself (`--markdown
bench/RESULTS.md`) and replaced by its next run, with the date and the machine it ran on. Read the
ratios, not the absolute times, which vary with the machine, and compare sides within one section
only. How the benches measure is in `docs/benchmarks.md`.
"""

_NAME = re.compile(r"[a-z0-9_-]+")


def machine():
    """What a run ran on: CPU model, cores, Python."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def command(script, argv=None, python="python3"):
    """The command line a bench ran with, as one would type it from the repository's root
    (`argv` None: this process's arguments)."""
    args = sys.argv[1:] if argv is None else list(argv)
    return " ".join([python, script] + [shlex.quote(a) for a in args])


def _markers(name):
    if not _NAME.fullmatch(name):
        raise ValueError(f"a section name is lowercase letters, digits, '-' and '_', not {name!r}")
    return f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"


def section(name, title, body, run, date=None, on=None):
    """The text of bench `name`'s section: `title`, the line saying when, where and how it ran
    (`run`: the command), then `body` (Markdown)."""
    begin, end = _markers(name)
    date = date or time.strftime("%Y-%m-%d")
    on = on or machine()
    return f"{begin}\n## {title}\n\nRun {date} on {on}: `{run}`\n\n{body.strip()}\n{end}\n"


def replace_section(text, name, new):
    """`text` with bench `name`'s section replaced by `new` where it stands, or `new` added at the
    end when the text has no such section; everything else unchanged."""
    begin, end = _markers(name)
    found = re.search(rf"^{re.escape(begin)}\n.*?^{re.escape(end)}\n?", text, re.S | re.M)
    if found:
        return text[:found.start()] + new + text[found.end():]
    return text.rstrip("\n") + "\n\n" + new


def write_section(name, title, body, run, path=RESULTS, date=None, on=None):
    """Replace bench `name`'s section of the results file at `path` (made with its head when it is
    not there yet) by this run's; the file is replaced whole, never left half written."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        text = HEAD
    text = replace_section(text, name, section(name, title, body, run, date, on))
    directory = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=directory, delete=False, suffix=".tmp") as f:
        f.write(text)
    os.replace(f.name, path)
    return path


def fenced(lines):
    """Plain report lines as a Markdown code block (the benches that print aligned columns)."""
    return "```text\n" + "\n".join(lines) + "\n```"
