"""What the tests of the incumbents' own unit-test cases share (tests/test_peer_cases.py for vLLM's
tool parsers and SGLang's detectors, tests/test_peer_reasoning.py for vLLM's reasoning parsers):
the cases and the test each comes from, the judge of a message against a case's expectation (the
rules of ../shared/peer-cases/README.md), the listed differences and their pins (JSONL under
tests/data/), the verdict, the replays, and the agreement table per table, per test and per case.

A test is one test function of the incumbent run with one parser name: a test parametrized over
every split point of one output is many cases and one test, and it agrees when all its cases do.
"""
import ast
import collections
import dataclasses
import functools
import hashlib
import json
import re

import symphony
from symphony.adapt import chat
from symphony.format import Emits
from symphony.formats import table as format_table
from recorded.peer_cases import load_jsonl
from tests.common import check_conservation, check_well_formed, replay

ANY = "ANY"


def summary(message):
    """What a chat message says: content, reasoning, (name, arguments) per call, finish, and the
    calls' ids (judged, not pinned)."""
    m = message["message"]
    return {"content": m["content"], "reasoning": m["reasoning_content"],
            "calls": [[c["function"]["name"], c["function"]["arguments"]] for c in m["tool_calls"] or ()],
            "finish": message["finish_reason"], "ids": [c["id"] for c in m["tool_calls"] or ()]}


def pin(said):
    """`said` as a listed case pins it: texts over 200 characters by their length and digest."""
    def short(text):
        if isinstance(text, str) and len(text) > 200:
            return f"<{len(text)} chars, sha256 {hashlib.sha256(text.encode()).hexdigest()[:16]}>"
        return text
    return {"content": short(said["content"]), "reasoning": short(said["reasoning"]),
            "calls": [[name, short(raw)] for name, raw in said["calls"]], "finish": said["finish"]}


# --- the test a case comes from --------------------------------------------------------------

def function_of(case):
    """The case's test function: its id up to the first parameter bracket."""
    return case["id"].split("[", 1)[0]


def group_by_test(cases):
    """{test name: its cases}, in the order of first appearance. A test is a test function with one
    parser name; its name is the function's, with `[parser]` after it where the function runs
    with more than one parser."""
    parsers = collections.defaultdict(set)
    for case in cases:
        parsers[function_of(case)].add(case["parser"])
    tests = {}
    for case in cases:
        function = function_of(case)
        name = function if len(parsers[function]) == 1 else f"{function}[{case['parser']}]"
        tests.setdefault(name, []).append(case)
    return tests


# --- judging a message against the incumbent's expectation -----------------------------------

# What the notes say about how much of `expect` a test asserts, and the exact arguments strings
# (Python-quoted) that some of them list.
SUBSET_NOTE = re.compile(r"ARGS_SUBSET|key[ -]by[ -]key|only args\[|only json\.loads\(arguments\)\[")
COUNT_FREE_NOTE = re.compile(r"count (?:is )?not asserted|does not assert the total number of calls"
                             r"|ONLY the first tool call")
NAMES_FREE_NOTE = re.compile(r"(?<!first )\bnames? (?:and [a-z ]+ )?not asserted|names/arguments not asserted"
                             r"|name shown for reference only")
_QUOTED = r"'(?:[^'\\]|\\.)*'"
STRINGS_NOTE = re.compile(rf"arguments strings: ({_QUOTED}(?:; {_QUOTED})*)")
# A streaming test whose parser has an end-of-stream flush (vLLM's dots) asserts the content of
# the deltas and, apart, what the flush gives back: the message's content is the two together.
FLUSH_NOTE = re.compile(rf"flush_pending_normal_text\(\) must return ({_QUOTED})")

# Keys that say what a test checks of the stream as it goes (per delta), not of the message: the
# README's rule is to judge what `expect` states, and symphony's streams are checked by the
# replays (every chunking gives the whole parse's message) and by its own streaming tests.
STREAM_KEYS = ("per_chunk_expect", "streamed_arguments", "streamed_arguments_startswith")


def _same(got, want):
    """JSON values equal, `ANY` matching anything; booleans are not numbers."""
    if want == ANY:
        return True
    if isinstance(want, bool) or isinstance(got, bool):
        return type(got) is type(want) and got == want
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        return got == want
    if isinstance(want, dict):
        return isinstance(got, dict) and set(got) == set(want) and all(_same(got[k], v) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_same, got, want))
    return type(got) is type(want) and got == want


def _json(text):
    try:
        return True, json.loads(text)
    except ValueError:
        return False, None


def _arguments_problem(want, raw, subset, raw_text):
    if want == ANY:
        return None
    if isinstance(want, str):
        parses, value = _json(want)
        if raw_text or not parses:
            if raw == want or (not raw_text and _json(raw) == (True, want)):
                return None      # the text itself, or (not raw text) the JSON string of it
            return f"arguments {raw!r}, want the text {want!r}"
        want = value
    parses, got = _json(raw)
    if not parses:
        return f"arguments {raw!r} are not JSON, want {json.dumps(want, ensure_ascii=False)}"
    if subset and isinstance(want, dict) and isinstance(got, dict):
        bad = [k for k, v in want.items() if k not in got or not _same(got[k], v)]
    else:
        bad = [] if _same(got, want) else ["(whole value)"]
    if bad:
        return (f"arguments {json.dumps(got, ensure_ascii=False)} differ at {bad} from "
                f"{json.dumps(want, ensure_ascii=False)}")
    return None


def _noted_strings(notes):
    found = STRINGS_NOTE.search(notes)
    return [ast.literal_eval(s) for s in re.findall(_QUOTED, found.group(1))] if found else None


def asserted(case, noted=None):
    """The case's checks: `expect` with the README's keys, and what the notes add (`noted`: the
    checks a test makes that only its notes spell out, in the README's vocabulary)."""
    notes = case.get("notes", "")
    extra = noted or {}

    def field(name):
        return list(case.get(name) or ()) + list(extra.get(name) or ())

    return {
        "subset": case.get("args_match") == "subset" or bool(SUBSET_NOTE.search(notes)),
        "count": case.get("tool_count_asserted", True) is not False and not COUNT_FREE_NOTE.search(notes),
        "names": not NAMES_FREE_NOTE.search(notes),
        "content_contains": field("content_contains"),
        "content_not_contains": field("content_not_contains"),
        "reasoning_contains": field("reasoning_contains"),
        "reasoning_not_contains": field("reasoning_not_contains"),
        "forbidden_tool_names": field("forbidden_tool_names"),
        "arguments_string_contains": field("arguments_string_contains"),
        "arguments_string_not_contains": field("arguments_string_not_contains"),
        "arguments_strings": extra.get("arguments_strings") or _noted_strings(notes),
        "must_include_calls": field("must_include_calls"),
        "expects_error": "EXPECTS_ERROR" in notes,
    }


def _trimmed(text):
    return (text or "").strip()


def _calls_problems(expected, calls, checks, ids):
    problems = []
    if checks["count"] and len(calls) != len(expected):
        problems.append(f"{len(calls)} calls {[name for name, _ in calls]}, want {len(expected)}")
    elif len(calls) < len(expected):
        problems.append(f"{len(calls)} calls, want at least {len(expected)}")
    strings = checks["arguments_strings"] or [None] * len(expected)
    for i, (w, (name, raw), string) in enumerate(zip(expected, calls, strings)):
        if checks["names"] and w.get("name", ANY) != ANY and name != w["name"]:
            problems.append(f"call {i} named {name!r}, want {w['name']!r}")
        if w.get("id", ANY) != ANY and ids[i] != w["id"]:
            problems.append(f"call {i} id {ids[i]!r}, want {w['id']!r} (a call's id is the model's own where its "
                            "head writes one, else call_<index>)")
        problem = _arguments_problem(w.get("arguments", ANY), raw, checks["subset"], w.get("arguments_is_raw_text"))
        if problem:
            problems.append(f"call {i}: {problem}")
        string = w.get("arguments_string", string)
        if string not in (None, ANY) and raw != string:
            problems.append(f"call {i} arguments string {raw!r}, want exactly {string!r}")
    return problems


def judge(case, said, noted=None, view=None, thought=None):
    """Where the message `said` (a `summary`) differs from the incumbent's expectation: [] when it
    agrees. Content is compared whitespace-trimmed (None == ""), arguments as JSON values.

    `view` is for a reasoning parser's case (`tool_view`): that parser hands the text after the
    thought to its tool parser whole, calls and all, so the message's content and calls are
    compared with what the table reads of the expected content. `thought` is for a tool parser's
    case (`thought_view`): a test that feeds its tool parser the thought too (which the server's
    reasoning parser takes before the tool parser sees the text) expects the thought, markers and
    all, in the content; the message's content and reasoning are compared with what the table
    reads of that expected content, and a text it expects the content to hold may be in the
    thought (the reasoning, or a marker of it, where the message has reasoning). Likewise a
    reasoning parser's case may expect in the content a text of what follows the thought (markup
    its tool parser reads, which the table reads as calls)."""
    want = case["expect"]
    checks = asserted(case, noted)
    problems = []
    if checks["expects_error"]:
        problems.append("the incumbent's test expects its parser to raise; symphony never raises on model "
                        "output (SPEC §1.6: only lifecycle misuse raises)")
    content = said["content"] or ""
    expected_content = want.get("content", ANY)
    flushed = FLUSH_NOTE.search(case.get("notes", ""))
    if flushed and expected_content != ANY:
        expected_content = (expected_content or "") + ast.literal_eval(flushed.group(1))
    if expected_content != ANY:
        if view is not None:
            read, calls = view(expected_content or "")
            if (_trimmed(content), said["calls"]) != (_trimmed(read), calls):
                problems.append(f"content {said['content']!r}" + (f" and calls {said['calls']}" if said["calls"] else "")
                                + f", want {expected_content!r}"
                                + (f", which the table reads as {read!r} and calls {calls}" if calls else ""))
        elif thought is not None and thought(expected_content or "") is not None:
            read, read_reasoning = thought(expected_content or "")
            if (_trimmed(content), _trimmed(said["reasoning"] or "")) != (_trimmed(read), _trimmed(read_reasoning)):
                problems.append(f"content {said['content']!r} and reasoning {said['reasoning']!r}, want "
                                f"{expected_content!r}, which the table reads as {read!r} and reasoning "
                                f"{read_reasoning!r}")
        elif _trimmed(content) != _trimmed(expected_content):
            problems.append(f"content {said['content']!r}, want {expected_content!r}")
    if "content_stripped" in case and content.strip() != case["content_stripped"]:
        problems.append(f"content {said['content']!r}, want {case['content_stripped']!r} stripped")
    if "content_startswith" in case and not content.startswith(case["content_startswith"]):
        problems.append(f"content {said['content']!r} does not start with {case['content_startswith']!r}")
    reasoning = said["reasoning"] or ""

    def in_content(s):
        if s in content:
            return True
        if view is not None:
            # a reasoning parser's content is all it hands on past the thought, markup and all,
            # which the table reads itself (calls and all)
            output = case["output"]
            return s in (output[output.find(reasoning) + len(reasoning):] if reasoning else output)
        # a tool parser fed the thought sees it, markers and all, as content
        return thought is not None and bool(reasoning) and (s in reasoning or s in thought.markers)

    problems += [f"content {said['content']!r} lacks {s!r}" for s in checks["content_contains"] if not in_content(s)]
    problems += [f"content {said['content']!r} holds {s!r}" for s in checks["content_not_contains"] if s in content]
    if want.get("reasoning", ANY) != ANY and _trimmed(reasoning) != _trimmed(want["reasoning"]):
        problems.append(f"reasoning {said['reasoning']!r}, want {want['reasoning']!r}")
    problems += [f"reasoning {said['reasoning']!r} lacks {s!r}" for s in checks["reasoning_contains"]
                 if s not in reasoning]
    problems += [f"reasoning holds {s!r}" for s in checks["reasoning_not_contains"] if s in reasoning]
    calls = said["calls"]
    problems += [f"a call named {name!r}" for name, _ in calls if name in checks["forbidden_tool_names"]]
    raws = [raw for _, raw in calls]
    for s in checks["arguments_string_contains"]:
        if not any(s in raw for raw in raws):
            problems.append(f"no call's arguments hold {s!r}: {raws}")
    problems += [f"arguments {raw!r} hold {s!r}" for s in checks["arguments_string_not_contains"] for raw in raws
                 if s in raw]
    for w in checks["must_include_calls"]:
        if not any(name == w["name"] and _arguments_problem(w["arguments"], raw, False, False) is None
                   for name, raw in calls):
            problems.append(f"no call {w['name']!r} with arguments {json.dumps(w['arguments'])}: {calls}")
    expected = want.get("tool_calls", ANY)
    if expected != ANY:
        problems += _calls_problems(expected, calls, checks, said["ids"])
    return problems


@functools.lru_cache(maxsize=None)
def call_markers(table):
    """The texts of a table's markers that lead into its calls (a state whose text is a call's, or
    the wrapper of a block of them)."""
    fmt = format_table(table)
    calls = {state for state, emits in fmt.states if emits in (Emits.ARGUMENTS, Emits.WRAPPER)}
    texts = dict(fmt.terminals)
    return tuple(sorted({texts[terminal] for _, terminal, to in fmt.transitions if to in calls}))


@functools.lru_cache(maxsize=None)
def thought_markers(table, closing=False):
    """The texts of a table's markers that open its thought (they lead into a reasoning state),
    or (`closing`) that close it (they lead out of one)."""
    fmt = format_table(table)
    thought = {state for state, emits in fmt.states if emits == Emits.REASONING}
    texts = dict(fmt.terminals)
    return tuple(sorted({texts[terminal] for state, terminal, to in fmt.transitions
                         if (state in thought) == closing and (to in thought) != closing}))


class ThoughtView:
    """What `table` reads of a tool parser's expected content, (content, reasoning), where that
    content holds an opener of the table's thought; None where it holds none. `markers`: the
    thought's openers and closers, which such a test finds in its parser's content."""

    def __init__(self, table):
        self.table = table
        self.markers = thought_markers(table) + thought_markers(table, closing=True)

    def __call__(self, content):
        if not any(marker in content for marker in thought_markers(self.table)):
            return None
        said = summary(chat.message(symphony.parse(self.table, content)))
        return said["content"] or "", said["reasoning"] or ""


def thought_view(table):
    return ThoughtView(table)


def tool_view(table):
    """What `table` reads of a reasoning parser's content, (content, calls): the table's parse
    where the content holds a marker of the table's calls, else the content and no call."""
    def view(content):
        if not any(marker in content for marker in call_markers(table)):
            return content, []
        said = summary(chat.message(symphony.parse(table, content)))
        return said["content"] or "", said["calls"]
    return view


# --- listed differences ----------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Listed:
    """A case where symphony reads the output otherwise than the incumbent's test, and why: its
    `cause` (one of the test module's causes), the `reason` for this case, and the message
    symphony gives for it (`pin`), which must not change unnoticed."""
    id: str
    cause: str
    reason: str
    pinned: dict


def load_listed(path, causes):
    """{case id: Listed} from a JSONL file of records {id, cause, reason, pinned}; ValueError on
    a record with another shape, an unknown cause or an id listed twice."""
    listed = {}
    for record in load_jsonl(path):
        if set(record) != {"id", "cause", "reason", "pinned"}:
            raise ValueError(f"{path}: a listed case has the fields {sorted(record)}: {record.get('id')}")
        if record["cause"] not in causes:
            raise ValueError(f"{path}: {record['id']} has the unknown cause {record['cause']!r}")
        if record["id"] in listed:
            raise ValueError(f"{path}: {record['id']} is listed twice")
        listed[record["id"]] = Listed(**record)
    return listed


def write_listed(path, listed):
    """Writes `listed` (Listed records) as JSONL, grouped by cause, then in id order."""
    with open(path, "w", encoding="utf-8") as f:
        for entry in sorted(listed, key=lambda e: (e.cause, e.id)):
            f.write(json.dumps(dataclasses.asdict(entry), ensure_ascii=False) + "\n")


def verdict(case, problems, said, listed, engine):
    """What is wrong with the case's verdict, or None: `problems` (its judge) is empty, or the case
    is listed and symphony gives exactly its pin. A listed case that agrees is wrong too: take it
    off the list."""
    entry = listed.get(case["id"])
    if entry is None:
        if problems:
            return (f"{case['id']} ({case['parser']}) differs from {engine}:\n    " + "\n    ".join(problems)
                    + f"\n    symphony says {said}")
        return None
    if not problems:
        return f"{case['id']} is listed ({entry.cause}) but now agrees with {engine}: take it off the list"
    if pin(said) != entry.pinned:
        return f"{case['id']}: symphony's message changed from its pin:\n    {pin(said)}\n    pinned {entry.pinned}"
    return None


def check_verdicts(verdicts):
    """Fails with every wrong verdict of a test (`verdict`'s messages; None for the right ones)."""
    wrong = [v for v in verdicts if v is not None]
    assert not wrong, f"{len(wrong)} case(s):\n  " + "\n  ".join(wrong)


def check_verdict(case, problems, said, listed, engine):
    check_verdicts([verdict(case, problems, said, listed, engine)])


# --- replays ---------------------------------------------------------------------------------

def own_chunks(case):
    """The case's literal deltas as a cut plan, when it has them."""
    if case.get("chunks") is None:
        return []
    assert "".join(case["chunks"]) == case["output"], f"{case['id']}: the case's chunks do not join to its output"
    return [("the case's chunks", case["chunks"])]


def check_replays(case, new_parser, whole, plans, prompt=None, message=chat.message):
    """Every replay of the case's output at `plans` ((name, pieces): `own_chunks`, the tier's
    `chunkings`) on a parser from `new_parser()` conserves the output, is well formed and gives
    the message `whole` (made by `message` from the events)."""
    for plan, pieces in plans:
        events = replay(new_parser(), pieces, prompt=prompt)
        check_conservation(events, case["output"])
        check_well_formed(events)
        assert message(events) == whole, f"{case['id']}: {plan} gives another message"


# --- the agreement table ---------------------------------------------------------------------

def agreement(cases, problems_of, listed):
    """Per case id: "agree", "listed" or "unlisted" (a difference no list names)."""
    out = {}
    for case in cases:
        if not problems_of(case):
            out[case["id"]] = "agree"
        else:
            out[case["id"]] = "listed" if case["id"] in listed else "unlisted"
    return out


def agreement_table(cases, problems_of, listed, table_of, label):
    """Per table, and per parser name where a table has more than one: tests and cases that agree,
    that are listed (a test is listed when each of its cases agrees or is listed, and one is),
    and the listed tests by cause; a difference no list names says UNLISTED. `problems_of(case)`
    judges the whole parse, `table_of(case)` names its table."""
    verdicts = agreement(cases, problems_of, listed)
    rows = collections.defaultdict(lambda: {"tests": 0, "tests_agree": 0, "tests_listed": 0, "cases": 0,
                                            "cases_agree": 0, "cases_listed": 0, "unlisted": 0,
                                            "causes": collections.Counter()})
    for cases_of_test in group_by_test(cases).values():
        first = cases_of_test[0]
        table = table_of(first)
        states = [verdicts[c["id"]] for c in cases_of_test]
        causes = {listed[c["id"]].cause for c in cases_of_test if verdicts[c["id"]] == "listed"}
        for key in ((table, None), (table, first["parser"])):
            row = rows[key]
            row["tests"] += 1
            row["cases"] += len(states)
            row["cases_agree"] += states.count("agree")
            row["cases_listed"] += states.count("listed")
            row["unlisted"] += states.count("unlisted")
            if all(s == "agree" for s in states):
                row["tests_agree"] += 1
            elif "unlisted" not in states:
                row["tests_listed"] += 1
                row["causes"].update(causes)
    names = collections.defaultdict(list)
    for table, parser in rows:
        if parser is not None:
            names[table].append(parser)
    width = max([len(label)] + [len(f"{t} ({p[0]})") if len(p) == 1 else max(len(t), *(2 + len(n) for n in p))
                                for t, p in names.items()])

    def line(name, row):
        causes = ", ".join(f"{cause} {n}" for cause, n in sorted(row["causes"].items()))
        unlisted = f"  UNLISTED DIFFERENCES {row['unlisted']}" if row["unlisted"] else ""
        return (f"{name:{width}} {row['tests']:>5} {row['tests_agree']:>5} {row['tests_listed']:>6}   "
                f"{row['cases']:>5} {row['cases_agree']:>5} {row['cases_listed']:>6}  {causes}{unlisted}")

    header = (f"{label:{width}} {'tests':>5} {'agree':>5} {'listed':>6}   {'cases':>5} {'agree':>5} {'listed':>6}"
              f"  listed tests by cause")
    lines = [header, "-" * len(header)]
    total = {"tests": 0, "tests_agree": 0, "tests_listed": 0, "cases": 0, "cases_agree": 0, "cases_listed": 0,
             "unlisted": 0, "causes": collections.Counter()}
    for table in sorted(names):
        parsers = sorted(names[table])
        row = rows[(table, None)]
        if len(parsers) == 1:
            lines.append(line(f"{table} ({parsers[0]})", row))
        else:
            lines.append(line(table, row))
            lines += [line(f"  {parser}", rows[(table, parser)]) for parser in parsers]
        for key, value in row.items():
            total[key] += value
    lines.append(line("total", total))
    share = 100 * total["tests_agree"] / total["tests"] if total["tests"] else 100
    lines.append(f"tests agreeing {total['tests_agree']} of {total['tests']} ({share:.1f}%), "
                 f"cases agreeing {total['cases_agree']} of {total['cases']}")
    return "\n".join(lines)
