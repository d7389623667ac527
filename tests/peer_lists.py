"""Keeps the lists of peer cases that symphony reads otherwise than the incumbents' tests
(tests/data/peer_listed_*.jsonl, one record per case: id, cause, reason, pinned message).

    python3 -m tests.peer_lists prune                     # drop the listed cases that now agree
    python3 -m tests.peer_lists list CAUSE REASON TEST…   # list the differing cases of these tests
    python3 -m tests.peer_lists repin TEST…               # pin what symphony gives now

A TEST is a case id or a test's name (`tests.peer.group_by_test`: the id up to its parameters),
as the test modules print them. `list` and `repin` touch only cases that differ; a pin is only
changed on purpose, after reading why the message changed.
"""
import argparse
import dataclasses
import importlib
import sys

from tests import peer

# The modules that run peer cases, each with LISTED_FILES ({engine: path}), RUN_CASES,
# engine_of(case), parse(case) -> (message, summary), problems_of(case, summary) and CAUSES.
MODULES = ("tests.test_peer_cases", "tests.test_peer_reasoning")


def _suites():
    for name in MODULES:
        module = importlib.import_module(name)
        for engine, path in module.LISTED_FILES.items():
            cases = [c for c in module.RUN_CASES if module.engine_of(c) == engine]
            yield module, path, cases


def _selected(cases, selectors):
    tests = peer.group_by_test(cases)
    chosen = {}
    for selector in selectors:
        for case in tests.get(selector, ()):
            chosen[case["id"]] = case
        chosen.update({c["id"]: c for c in cases if c["id"] == selector})
    return chosen


def _said_and_problems(module, case):
    said = module.parse(case)[1]
    return said, module.problems_of(case, said)


def prune():
    for module, path, cases in _suites():
        listed = peer.load_listed(path, module.CAUSES)
        by_id = {c["id"]: c for c in cases}
        kept = [e for e in listed.values() if e.id not in by_id or _said_and_problems(module, by_id[e.id])[1]]
        for entry in listed.values():
            if entry not in kept:
                print(f"now agrees, unlisted: {entry.id}")
        peer.write_listed(path, kept)


def add(cause, reason, selectors):
    found = False
    for module, path, cases in _suites():
        chosen = _selected(cases, selectors)
        if not chosen:
            continue
        found = True
        if cause not in module.CAUSES:
            sys.exit(f"{module.__name__}: no cause {cause!r}; the causes are {', '.join(module.CAUSES)}")
        listed = peer.load_listed(path, module.CAUSES)
        added = []
        for case in chosen.values():
            said, problems = _said_and_problems(module, case)
            if problems and case["id"] not in listed:
                listed[case["id"]] = peer.Listed(case["id"], cause, reason, peer.pin(said))
                added.append(case)
        for test, cases_of_test in peer.group_by_test(added).items():
            print(f"listed ({cause}): {test}: {len(cases_of_test)} case(s)")
        peer.write_listed(path, listed.values())
    if not found:
        sys.exit(f"no case or test {selectors}")


def repin(selectors):
    for module, path, cases in _suites():
        chosen = _selected(cases, selectors)
        listed = peer.load_listed(path, module.CAUSES)
        for case_id, case in chosen.items():
            if case_id in listed:
                said, _ = _said_and_problems(module, case)
                listed[case_id] = dataclasses.replace(listed[case_id], pinned=peer.pin(said))
                print(f"pinned: {case_id}")
        peer.write_listed(path, listed.values())


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m tests.peer_lists", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("prune")
    listing = commands.add_parser("list")
    listing.add_argument("cause")
    listing.add_argument("reason")
    listing.add_argument("tests", nargs="+")
    commands.add_parser("repin").add_argument("tests", nargs="+")
    args = parser.parse_args(argv)
    if args.command == "prune":
        prune()
    elif args.command == "list":
        add(args.cause, args.reason, args.tests)
    else:
        repin(args.tests)


if __name__ == "__main__":
    main()
