"""The guided-decoding grammars against xgrammar: every payload compiles, and each
fixture case that carries tool calls is ACCEPTED whole by its table's grammar, built with the
case's tools and prompt (`reasoning_open` where the prompt opens the thought); mutants are
REJECTED: the called function left undeclared (renamed in the tools), a key the schema requires
missing from the output (a required property added to the called tool), and the output cut inside
its last call's closing marker. Listed cases (below) are the ones the grammar rejects on purpose.
Beyond the fixtures: every one of vLLM's unit-test outputs (`../shared/peer-cases/`) that the
parser reads cleanly is accepted for the functions it calls, but those listed as leniency of the
parser's; and the gpt-oss outputs recorded/harmony.py renders with `openai-harmony` (also
with their call headers written channel first) are accepted.

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
from symphony.events import Malformed, ToolCallEnd, ToolCallStart, text_of
from symphony.formats import TABLES
from symphony.grammar import _Table
from symphony.models import for_model
from symphony.replay import opens_thought
from symphony.verify import load_cases

# The tools of the golden payloads (tests/test_grammar.py): every value kind, a tool with no
# parameters, and one with no name (ignored).
TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"},
                                         "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
        "required": ["city"]}}},
    {"type": "function", "function": {"name": "save_note", "parameters": {
        "type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}},
                                         "pinned": {"type": "boolean"}, "stars": {"type": "integer"},
                                         "meta": {"type": "object"}, "extra": {}},
        "required": ["tags"]}}},
    {"type": "function", "function": {"name": "ping"}},
    {"type": "function", "function": {"name": "", "parameters": {}}},
]
VARIANTS = {"plain": {}, "reasoning_open": {"reasoning_open": True}, "at_least_one": {"at_least_one": True}}

# Constrained outputs (SPEC §6) with TOOLS: (tool_choice, output, accepted).
CONSTRAINED = [
    ("required", '[{"name": "get_weather", "parameters": {"city": "Paris"}}]', True),
    ("required", '[{"name": "ping", "parameters": {}}, {"name": "save_note", "parameters": {"tags": ["a"]}}]', True),
    ("required", '[{"name": "nope", "parameters": {}}]', False),
    ("required", '[{"name": "get_weather", "parameters": {}}]', False),
    ("required", "[]", False),
    ("get_weather", '{"city": "Paris", "unit": "celsius"}', True),
    ("get_weather", '{"unit": "celsius"}', False),
    ("get_weather", '{"city": "Paris"', False),
]

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


def _edited(tools, edit, name):
    """A copy of `tools` with `edit(function)` applied to the function named `name`."""
    tools = copy.deepcopy(tools)
    for tool in tools:
        function = tool.get("function", tool)
        if function.get("name") == name:
            edit(function)
    return tools


def _rename(function):
    function["name"] += "_undeclared"


def _require_missing_key(function):
    parameters = function.setdefault("parameters", {"type": "object"})
    parameters.setdefault("properties", {})["zz_missing"] = {"type": "string"}
    parameters["required"] = list(parameters.get("required") or ()) + ["zz_missing"]


def _require_nothing(function):
    function.get("parameters", {}).pop("required", None)


def _openers(table):
    """The texts that open a call or a block of calls in `table` (the grammar's triggers)."""
    read = _Table(table)
    block = read.block()
    return block[0] if block is not None else [opener for opener, _ in read.call_region()[0]]


def _call_closes(read):
    """The texts that close a call of the table `read` (a `_Table`) back to where it opened."""
    return [close for _, close in read.call_region()[0]]


def _cut(table, text):
    """The output cut in the middle of its last call's closing marker (None: none found)."""
    closes = _call_closes(_Table(table))
    at = max((text.rfind(close), close) for close in closes) if closes else (-1, "")
    return None if at[0] < 0 else text[: at[0] + max(1, len(at[1]) // 2)]


def _row(report, name):
    return report.setdefault(name, {"cases": 0, "accepted": 0, "listed": 0, "mutants": 0, "rejected": 0,
                                    "no_calls": 0, "no_calls_ok": 0, "failures": [], "none": False})


def check_payloads(xgr):
    """Every table's payload for TOOLS (each variant) compiles; the constrained ones accept and
    reject CONSTRAINED's outputs. Returns the failures."""
    failures = []
    for name, table in sorted(TABLES.items()):
        for variant, flags in VARIANTS.items():
            payload = symphony.grammar(table, TOOLS, **flags)
            if payload is not None:
                try:
                    xgr.Grammar.from_structural_tag(json.dumps(payload))
                except Exception as e:     # noqa: BLE001  (xgrammar's own error types)
                    failures.append(f"{name} {variant}: does not compile: {e}")
    for choice, output, want in CONSTRAINED:
        tool_choice = choice if choice == "required" else {"type": "function", "function": {"name": choice}}
        if accepts(xgr, symphony.grammar(None, TOOLS, tool_choice=tool_choice), output) != want:
            failures.append(f"constrained {choice}: {output!r} should be {'accepted' if want else 'rejected'}")
    return failures


def check(directory):
    """{table: {"cases", "accepted", "mutants", "rejected", "failures": [..]}}; the payload
    checks' failures under "(payloads)"."""
    import xgrammar as xgr
    report = {"(payloads)": dict(_row({}, "(payloads)"), failures=check_payloads(xgr))}
    accepted, checked, listed, failures = check_peer_cases(xgr)
    report["(peer cases)"] = dict(_row({}, "(peer cases)"), cases=checked, accepted=accepted, listed=listed,
                                  failures=failures)
    accepted, checked, failures = check_harmony(xgr)
    report["(gpt_oss renderings)"] = dict(_row({}, "(gpt_oss renderings)"), cases=checked, accepted=accepted,
                                          failures=failures)
    for slug, case, model in fixture_cases(directory):
        table = model.table()
        tools = case.get("request", {}).get("tools") or case.get("tools") or []
        reasoning_open = opens_thought(table, model.thought_tail)
        row = _row(report, model.format)
        payload = symphony.grammar(table, tools, reasoning_open=reasoning_open)
        if payload is None:
            row["none"] = True
            continue
        row["cases"] += 1
        text, name = case["reference"]["text"], _called(case)

        def grammar(edit=None, at_least_one=False):
            edited = tools if edit is None else _edited(tools, edit, name)
            return symphony.grammar(table, edited, at_least_one=at_least_one, reasoning_open=reasoning_open)

        if case["id"].split("/parse/", 1)[-1] in LISTED:
            row["listed"] += 1
            # rejected for its reason only: accepted once the schema requires nothing
            if accepts(xgr, payload, text):
                row["failures"].append(f"{case['id']}: listed as rejected, but accepted: take it off LISTED")
            elif not accepts(xgr, grammar(_require_nothing), text):
                row["failures"].append(f"{case['id']}: rejected even with no key required")
            continue
        if not accepts(xgr, payload, text) or not accepts(xgr, grammar(at_least_one=True), text):
            row["failures"].append(f"{case['id']}: rejected (reasoning_open={reasoning_open})")
            continue
        row["accepted"] += 1
        mutants = [("undeclared function", grammar(_rename), text),
                   ("missing required key", grammar(_require_missing_key), text),
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
        payload = symphony.grammar(table, tools, reasoning_open=reasoning_open)
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
        elif accepts(xgr, symphony.grammar(table, tools, at_least_one=True, reasoning_open=reasoning_open), text) != bool(read):
            row["failures"].append(f"{case['id']} (no calls): at_least_one disagrees with the parser's {read} calls")
        else:
            row["no_calls_ok"] += 1
    return report


# vLLM's unit-test outputs the parser reads leniently and the grammar, which has the model write
# the canonical form, rejects on purpose: by the end of the case id, why.
_STRING_ARGUMENTS = "the arguments written as a JSON string: the parser reads the object in it, " \
                    "the grammar has the model write the object"
LISTED_PEER = {
    "test_hermes_parser_non_streaming_serialized_arguments[granite4]": _STRING_ARGUMENTS,
    "test_hermes_parser_non_streaming_bare_string_arguments[llama]": _STRING_ARGUMENTS,
    "test_hermes_parser_non_streaming_bare_string_arguments[granite4]": _STRING_ARGUMENTS,
    "test_hermes_streaming_serialized_arguments_with_stream_interval[2]": _STRING_ARGUMENTS,
    "test_hermes_streaming_serialized_arguments_with_stream_interval[3]": _STRING_ARGUMENTS,
    "test_hermes_streaming_serialized_arguments_with_stream_interval[5]": _STRING_ARGUMENTS,
    "test_hermes_streaming_bare_string_arguments_with_stream_interval[3]": _STRING_ARGUMENTS,
    "test_tool_call_parser_complex[1-1]": _STRING_ARGUMENTS,
    "test_multi_typed_schema": "a `string=\"false\"` DSML value that is no JSON (`hello`): the parser keeps the "
                               "text, the grammar has the model write JSON there",
    "test_streaming_matches_non_streaming_conversion_fallbacks[streaming]": "the same: `string=\"false\"` values "
                                                                             "`hello`, `abc`",
    "test_extract_tool_calls[no_functions_prefix]": "a Kimi K2 call id without `functions.`: the parser names the "
                                                    "call all the same, the grammar writes the prefix",
    "test_strict_returns_raw_content[missing_tool_calls_end]": "Hy4's calls block never closed: the parser "
                                                               "reads the call, the grammar closes the block",
    "test_strict_returns_raw_content[unbalanced_tool_call]": "a Hy4 call closed by the block's close with no "
                                                             "`</tool_call:opensource>`: read, not written",
    "test_lenient_still_reports_unpairable_tags": "the same output as unbalanced_tool_call",
    "test_whitespace_handling": "Qwen2.5-Coder's call object spaced out inside (`{  \"name\"  :  ...`): the "
                                "parser reads it, the grammar has the model write the template's spacing",
    "test_malformed_call_missing_value_end_is_skipped": "an IQuest value whose `</arg_value>` is missing, "
                                                        "ended by the block's close: the parser reads the value, "
                                                        "the grammar writes the close",
    "test_extract_tool_calls_missing_closing_parameter_tag[xml]": "a value whose `</parameter>` is missing, "
                                                                  "ended by the next parameter tag: the parser "
                                                                  "recovers it, the grammar writes the close",
    "test_extract_tool_calls_missing_closing_parameter_tag[coder]": "the same output",
    "test_extract_tool_calls_streaming_missing_closing_tag[coder]": "the same output",
    "test_extract_tool_calls_missing_closing_parameter_tag": "the same output (Step-3.5)",
    "test_extract_tool_calls_streaming_missing_closing_tag": "the same output (Step-3.5)",
    "test_extract_tool_calls_unescapes_attributes": "Kimi K3's name and key written with character references "
                                                    "(`&amp;`): the parser reads them replaced, the grammar "
                                                    "writes the declared name and key as they are",
    "test_missing_tool_calls_wrapper_is_recovered[#whole]": "a DeepSeek V4 invoke written without its block's "
                                                            "opener: the parser reads the call, the grammar "
                                                            "writes the block",
    "test_missing_tool_calls_wrapper_is_recovered[#streaming]": "the same output",
    **{test: "V3.2's `<｜DSML｜function_calls>` block in a DeepSeek V4 output: to V4 both its tags are damaged "
             "block tags, dropped (shapes.damaged_openers, damaged_closers): the parser reads the call, the "
             "grammar writes V4's block"
       for test in ("test_function_calls_block_is_not_accepted", "test_function_calls_wrapper_is_not_recognized")},
    **{test: "MiniCPM5's opener spelled otherwise (collapsed `<functionname=\"`, or with the byte-level "
             "tokenizer's `Ġ`): the parser reads the call, the grammar writes the template's spelling and keeps the "
             "others out of the text it writes"
       for test in ("test_tokenizer_space_marker", "test_extract_tool_calls_streaming_tokenizer_space_marker",
                    "test_extract_tool_calls_streaming_collapsed_tags_weather", "test_collapsed_tags_current_weather")},
    "test_streaming_split_markers_do_not_leak": "Kimi K3's tools region opened inside the response region and "
                                                "never closed (the output ends after the call): the parser reads "
                                                "the call, the grammar closes the response and the region",
    **{f"{test}[{flavour}]": "a tagged value holding tool-call markup (`<parameter=…>`, `<tool_call>`, a "
                             "`</parameter>` with text after it): the parser reads it as the value's text while "
                             "the call goes on, the grammar keeps those openers out of the text a value may hold"
       for test in ("test_content_with_xml_structural_tags_nonstreaming", "test_content_with_param_like_lines_nonstreaming",
                    "test_content_with_param_like_lines_streaming", "test_content_with_real_param_name_literal_nonstreaming",
                    "test_content_with_real_param_name_literal_streaming", "test_content_with_full_nested_tool_call_streaming",
                    "test_two_tools_second_with_out_of_schema_nested_literal_nonstreaming")
       for flavour in ("xml", "coder")},
    **{case: "K2-Horizon's `json` or `xml_typed` call form (the request's `tool_call_format`): the parser reads "
             "it, the grammar has the model write the default keyed form"
       for case in ("test_request_level_format_overrides[json]", "test_request_level_format_overrides[xml_typed]",
                    "test_mismatched_formats_fail_closed[0]", "test_mismatched_formats_fail_closed[2]",
                    "test_auto_required_and_named_use_ifm_parser[0]", "test_auto_required_and_named_use_ifm_parser[1]",
                    "test_auto_required_and_named_use_ifm_parser[2]", "test_unknown_or_wrong_named_tool_fails_closed[unknown]",
                    "test_unknown_or_wrong_named_tool_fails_closed[wrong_named]")},
    **{case: "a dots call written in its `<dots_function_call>` block as a JSON call object: the parser reads "
             "it (shapes.objects_in_block), the grammar has the model write the template's invokes"
       for case in ("test_non_stream_supports_multiple_invokes_and_json_fallback",
                    "test_streaming_emits_complete_json_before_end_marker_without_duplication")},
}


def open_tools(names):
    """A tool per name whose parameters may be any object (the syntax checked, not the typing)."""
    return [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}} for name in names]


def peer_cases():
    """(case, table name) for each of vLLM's unit-test cases (`../shared/peer-cases/`) whose
    parser has a table; [] where the file is not there."""
    from recorded.peer_cases import VLLM_TABLES, vllm_cases
    return [(case, VLLM_TABLES[case["parser"]]) for case in vllm_cases()]


def check_peer_cases(xgr):
    """Every peer case the parser reads cleanly (calls, each ended by its table's markup, no
    Malformed byte) is accepted by its table's grammar for the functions it calls (open schemas:
    this checks the syntax, the fixtures check the typing), but those LISTED_PEER names.
    Returns (accepted, checked, listed, failures)."""
    checked, listed, failures = 0, 0, []
    for case, name in peer_cases():
        table = TABLES[name]
        events = symphony.parse(table, case["output"])
        called = list(dict.fromkeys(e.name for e in events if type(e) is ToolCallStart))
        if not called or _cut_by_the_end(table, case["output"], events) or any(type(e) is Malformed for e in events):
            continue
        tools = open_tools(called)
        payload = symphony.grammar(table, tools)
        if payload is None:
            continue
        checked += 1
        accepted = accepts(xgr, payload, case["output"])
        if case["id"].split("::")[-1] in LISTED_PEER:
            listed += 1
            if accepted:
                failures.append(f"{case['id']} ({name}): listed as rejected, but accepted: take it off LISTED_PEER")
        elif not accepted:
            failures.append(f"{case['id']} ({name}): read cleanly by the parser, rejected by the grammar")
    return checked - listed - len(failures), checked, listed, failures


def _cut_by_the_end(table, output, events):
    """Whether the output ends inside its last call or its call region: the call ended by the
    stream's end, or no close of the region after it (Qwen2.5-Coder's `<tools>{...}` with no
    `</tools>`: the object ends the call, the grammar has the model close the region)."""
    if any(type(e) is ToolCallEnd and not e.source.text for e in events):
        return True
    read = _Table(table)
    closes = _call_closes(read)
    block = read.block()
    closes += [block[1]] if block is not None else []
    ends = [k for k, e in enumerate(events) if type(e) is ToolCallEnd]
    after = len(text_of(events[: ends[-1]]))    # where the last call's end starts
    return not any(close in output[after:] for close in closes)


def check_harmony(xgr):
    """gpt-oss has no fixture: the outputs recorded/harmony.py renders with `openai-harmony`
    (and their call headers written channel first), those symphony reads as their messages (not
    the ones listed as differing, nor those read by a recovery the grammar does not write), are
    accepted by the gpt_oss grammar for the functions they call, and by the `at_least_one` grammar
    exactly when they call one. Returns (accepted, checked, failures)."""
    from recorded.harmony import expected, outputs, rendered
    cases = [(case, variant) for case, variant in outputs() if not case.differs and not case.unwritten]
    failures = []
    for case, variant in cases:
        output, calls = rendered(case.name, variant).text, expected(case.messages)[2]
        tools = open_tools(list(dict.fromkeys(name for name, _ in calls)) or ["get_weather"])
        name = case.name + (f" ({variant})" if variant else "")
        if not accepts(xgr, symphony.grammar("gpt_oss", tools), output):
            failures.append(f"gpt_oss {name}: rejected")
        elif accepts(xgr, symphony.grammar("gpt_oss", tools, at_least_one=True), output) != bool(calls):
            failures.append(f"gpt_oss {name}: at_least_one disagrees with its calls")
    return len(cases) - len(failures), len(cases), failures


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
            if name == "(payloads)":
                print(f"every payload compiles, constrained outputs as expected: {not row['failures']}")
            elif name.startswith("("):
                print(f"{name}: accepted {row['accepted']}/{row['cases']} (listed {row['listed']})")
            if name.startswith("("):
                for failure in row["failures"]:
                    print(f"    {failure}")
                continue
            if row["none"]:
                print(f"{name:15s} no grammar (None)")
                continue
            print(f"{name:15s} accepted {row['accepted']}/{row['cases']} (listed {row['listed']})  mutants rejected "
                  f"{row['rejected']}/{row['mutants']}  no-call cases as expected "
                  f"{row['no_calls_ok']}/{row['no_calls']}")
            for failure in row["failures"]:
                print(f"    {failure}")
    return 1 if any(row["failures"] for row in report.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
