"""The guided-decoding grammars against xgrammar (issue 9): every payload compiles, and each
fixture case that carries tool calls is ACCEPTED whole by its table's grammar, built with the
case's tools and prompt (`reasoning_open` where the prompt opens the thought); mutants are
REJECTED: the called function left undeclared (renamed in the tools), a key the schema requires
missing from the output (a required property added to the called tool), and the output cut inside
its last call's closing marker. Listed cases (below) are the ones the grammar rejects on purpose.

xgrammar needs torch and transformers, so it runs where they are installed (CI's optional step,
or the peers venv) with the repository on PYTHONPATH:

    SYMPHONY_FIXTURES=../shared/fixtures/bellwether PYTHONPATH=. \\
        bench/.peers-venv/bin/python -m tests.grammar_acceptance [--json]

It prints one line per table (accepted/total cases with calls, mutants rejected/made) and exits
non-zero on any unlisted failure. tests/test_grammar.py runs it (in process, or through
SYMPHONY_XGRAMMAR_PYTHON).
"""
import copy
import json
import os
import sys

import symphony
from symphony.events import ToolCallStart
from symphony.grammar import _Table
from symphony.models import for_model
from symphony.replay import opens_thought
from symphony.verify import load_cases

# Cases the grammar rejects on purpose, by case name (every checkpoint's), and why.
LISTED = {
    "call-empty-arguments": "the corpus calls get_stock_price with {} though its schema requires "
                            "`ticker`: the output breaks its own tool schema, which the grammar enforces",
}

# Cases without calls the grammar rejects on purpose, by case name, and why.
LISTED_NO_CALLS = {
    # (only where the quoted marker is the table's own call opener)
    "content-with-marker-in-code-fence": "the content quotes a JSON call in `<tool_call>` inside a code fence; "
                                         "under the grammar the call opener always opens a call in the table's "
                                         "syntax (triggered tags), so where that syntax is not JSON the quote "
                                         "is rejected (the parser reads no call there either)",
}


def fixture_cases(directory, with_calls=True):
    """(slug, case, Model) for every fixture case that carries tool calls (or, `with_calls`
    False, none) and has a table."""
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".jsonl"):
            continue
        for case in load_cases(os.path.join(directory, name)):
            if bool(case["reference"]["message"].get("tool_calls")) != with_calls:
                continue
            try:
                model = for_model(case["model"], case.get("request", {}).get("chat_template_kwargs"))
            except KeyError:
                continue
            yield name[: -len(".jsonl")], case, model


def accepts(xgr, payload, text):
    from xgrammar.testing import _is_grammar_accept_string
    return _is_grammar_accept_string(xgr.Grammar.from_structural_tag(json.dumps(payload)), text)


def _called(case):
    return case["reference"]["message"]["tool_calls"][0]["function"]["name"]


def _renamed(tools, name):
    tools = copy.deepcopy(tools)
    for tool in tools:
        function = tool.get("function", tool)
        if function.get("name") == name:
            function["name"] = name + "_undeclared"
    return tools


def _requiring(tools, name):
    tools = copy.deepcopy(tools)
    for tool in tools:
        function = tool.get("function", tool)
        if function.get("name") == name:
            parameters = function.setdefault("parameters", {"type": "object"})
            parameters.setdefault("properties", {})["zz_missing"] = {"type": "string"}
            parameters["required"] = list(parameters.get("required") or ()) + ["zz_missing"]
    return tools


def _requiring_nothing(tools):
    tools = copy.deepcopy(tools)
    for tool in tools:
        tool.get("function", tool).get("parameters", {}).pop("required", None)
    return tools


def _openers(table):
    """The texts that open a call or a block of calls in `table` (the grammar's triggers)."""
    read = _Table(table)
    block = read.block()
    return block[0] if block is not None else [opener for opener, _ in read.call_region()[0]]


def _cut(table, text):
    """The output cut in the middle of its last call's closing marker (None: none found)."""
    closes = [close for _, close in _Table(table).call_region()[0]]
    at = max((text.rfind(close), close) for close in closes) if closes else (-1, "")
    return None if at[0] < 0 else text[: at[0] + max(1, len(at[1]) // 2)]


def _row(report, name):
    return report.setdefault(name, {"cases": 0, "accepted": 0, "mutants": 0, "rejected": 0, "no_calls": 0,
                                    "no_calls_ok": 0, "failures": [], "none": False})


def check(directory):
    """{table: {"cases", "accepted", "mutants", "rejected", "failures": [..]}}."""
    import xgrammar as xgr
    report = {}
    for slug, case, model in fixture_cases(directory):
        table = model.table()
        tools = case.get("request", {}).get("tools") or case.get("tools") or []
        reasoning_open = opens_thought(table, model.thought_tail)
        row = _row(report, model.format)
        payload = table.grammar(tools, reasoning_open=reasoning_open)
        if payload is None:
            row["none"] = True
            continue
        row["cases"] += 1
        text = case["reference"]["text"]
        name = _called(case)
        listed = case["id"].split("/parse/", 1)[-1] in LISTED
        if listed:
            row["listed"] = row.get("listed", 0) + 1
            # rejected for its reason only: accepted once the schema requires nothing
            if accepts(xgr, payload, text):
                row["failures"].append(f"{case['id']}: listed as rejected, but accepted: take it off LISTED")
            elif not accepts(xgr, table.grammar(_requiring_nothing(tools), reasoning_open=reasoning_open), text):
                row["failures"].append(f"{case['id']}: rejected even with no key required")
            continue
        if not accepts(xgr, payload, text):
            row["failures"].append(f"{case['id']}: rejected (reasoning_open={reasoning_open})")
            continue
        # xgrammar's at_least_one wants the first call at once (no content before it)
        calls_only = not (case["reference"]["message"].get("content") or "").strip()
        if calls_only and not accepts(xgr, table.grammar(tools, at_least_one=True, reasoning_open=reasoning_open),
                                      text):
            row["failures"].append(f"{case['id']}: rejected with at_least_one")
            continue
        row["accepted"] += 1
        mutants = [("undeclared function", table.grammar(_renamed(tools, name), reasoning_open=reasoning_open),
                    text),
                   ("missing required key", table.grammar(_requiring(tools, name), reasoning_open=reasoning_open),
                    text),
                   ("cut closing marker", payload, _cut(table, text))]
        for what, mutant_payload, mutant_text in mutants:
            if mutant_payload is None or mutant_text is None:
                row["failures"].append(f"{case['id']}: no {what} mutant")
                continue
            row["mutants"] += 1
            if accepts(xgr, mutant_payload, mutant_text):
                row["failures"].append(f"{case['id']}: {what} mutant accepted")
            else:
                row["rejected"] += 1
    for slug, case, model in fixture_cases(directory, with_calls=False):
        table = model.table()
        tools = case.get("request", {}).get("tools") or case.get("tools") or []
        reasoning_open = opens_thought(table, model.thought_tail)
        payload = table.grammar(tools, reasoning_open=reasoning_open)
        if payload is None:
            continue
        row = _row(report, model.format)
        row["no_calls"] += 1
        text = case["reference"]["text"]
        quoted = any(opener in text for opener in _openers(table))
        listed = LISTED_NO_CALLS.get(case["id"].split("/parse/", 1)[-1]) if quoted else None
        # a call the parser reads where the reference has none (a listed policy probe, SPEC §9.3)
        # is a call to the grammar too
        read = sum(type(e) is ToolCallStart for e in symphony.parse(table, text, tools, prompt=model.thought_tail))
        if accepts(xgr, payload, text) == bool(listed and not read):
            row["failures"].append(f"{case['id']} (no calls): " + (
                "accepted: take it off LISTED_NO_CALLS" if listed and not read else "rejected"))
        elif accepts(xgr, table.grammar(tools, at_least_one=True, reasoning_open=reasoning_open), text) != bool(read):
            row["failures"].append(f"{case['id']} (no calls): at_least_one disagrees with the parser's {read} calls")
        else:
            row["no_calls_ok"] += 1
    return report


def main(argv):
    directory = os.environ.get("SYMPHONY_FIXTURES")
    if not directory:
        print("SYMPHONY_FIXTURES is not set", file=sys.stderr)
        return 2
    report = check(directory)
    if "--json" in argv:
        print(json.dumps(report, indent=1, sort_keys=True))
    else:
        for name, row in sorted(report.items()):
            if row["none"]:
                print(f"{name:15s} no grammar (None)")
                continue
            listed = row.get("listed", 0)
            print(f"{name:15s} accepted {row['accepted']}/{row['cases']} (listed {listed})  mutants rejected "
                  f"{row['rejected']}/{row['mutants']}  no-call cases as expected "
                  f"{row['no_calls_ok']}/{row['no_calls']}")
            for failure in row["failures"]:
                print(f"    {failure}")
    return 1 if any(row["failures"] for row in report.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
