"""Where real models stray from the JSON tables' call objects, and the rules that read them:
arguments written as one JSON string whose text is a JSON object are that object (the string's
bytes its source; a string that is no object streams as written), in every JSON syntax; and the
lists xLAM and Llama 3 write in their prose: after text, in a ```json fence, several, after a
thought or `[TOOL_CALLS]`, objects separated by `;`, while a list of no call and a list in
Markdown code stay text. Each output whole, at every chunking and per token; a recovery's test
says what vLLM's xlam and llama3_json parsers read.
"""
import json
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import symphony
from symphony.formats.shapes import calls_only
from symphony.replay import said
from tests import tiers
from tests.common import check_conservation, check_well_formed, replay
from tests.wire import (END_THOUGHT, START_THOUGHT, arguments, arguments_of, check, check_per_token, content,
                        dropped, end, finish, parsed, reasoning, shown_and_calls, start)

OPEN, CLOSE = "<tool_call>", "</tool_call>"
HEAD = '{"name": "f", "arguments": '


def call(arguments_text):
    return OPEN + HEAD + arguments_text + "}" + CLOSE


def test_a_string_holding_an_object_is_the_object():
    written = json.dumps(json.dumps({"param": "max_connections", "n": [1, 2.5]}))
    check("qwen2_5", call(written), [
        dropped(OPEN), start(0, "f", HEAD),
        arguments(0, '{"param": "max_connections", "n": [1, 2.5]}', written),
        end(0, "}"), dropped(CLOSE), finish(tool_calls=1),
    ])


def test_escapes_and_spaces_in_the_string_decode():
    written = r'" {\"a\": \"\u00e9\\n\", \"b\": {\"c\": null}}\n"'
    events = parsed("qwen2_5", call(written))
    assert json.loads(arguments_of(events)[0]) == {"a": "é\n", "b": {"c": None}}
    check("qwen2_5", call(written), events)


@pytest.mark.parametrize("written", [
    '"hello"',                   # known at its first character
    '"  [1, 2]"',                # a list is no object
    r'"{\"a\": 1"',              # never a whole object
    r'"{\"a\": 1} x"',           # text after the object
    r'"{\"a\": 1,}"',            # not strict JSON
    r'"{\"a\": \"\\ud800\"}"',  # a lone surrogate in the object's string
    r'"{\"a\": 1\u0000}"',       # a control character after the object
    '""',
])
def test_a_string_that_is_no_object_streams_as_written(written):
    check("qwen2_5", call(written), [
        dropped(OPEN), start(0, "f", HEAD), arguments(0, written), end(0, "}"), dropped(CLOSE),
        finish(tool_calls=1),
    ])


def test_a_string_cut_off_is_the_string():
    written = r'"{\"a\": 1}'
    # the string, closed for the client (the stream was cut short) ...
    check("qwen2_5", OPEN + HEAD + written, [
        dropped(OPEN), start(0, "f", HEAD), arguments(0, written), arguments(0, '"', ""), end(0, ""),
        finish(tool_calls=1),
    ])
    # ... or as far as it was written (stopped for its length)
    check("qwen2_5", OPEN + HEAD + written, [
        dropped(OPEN), start(0, "f", HEAD), arguments(0, written), end(0, ""), finish("length", tool_calls=1),
    ], finish="length")


def test_every_json_syntax_reads_it():
    written = json.dumps(json.dumps({"x": 42}))
    events = parsed("xlam", '[{"name": "a", "arguments": ' + written + "}]")
    assert arguments_of(events) == {0: '{"x": 42}'}
    events = parsed("apertus", '<|tools_prefix|>[{"f": ' + written + "}]<|tools_suffix|>")
    assert arguments_of(events) == {0: '{"x": 42}'}


def test_a_string_member_that_is_not_the_arguments_is_left_alone():
    output = OPEN + '{"name": "f", "note": "{\\"a\\": 1}", "arguments": {"b": 2}}' + CLOSE
    assert arguments_of(parsed("qwen2_5", output)) == {0: '{"b": 2}'}


# --- lists in xLAM's and Llama 3's prose -----------------------------------------------------

OBJECT = '{"name": "f", "arguments": {"a": 1}}'
XLAM_CALL = [start(0, "f", '{"name": "f", "arguments": '), arguments(0, '{"a": 1}'), end(0, "}")]


def check_all(table, output, want):
    check(table, output, want)
    check_per_token(table, output)


@pytest.mark.parametrize("fence", ["```json", "```"])
def test_xlam_fenced_list(fence):
    """A fence around the list, and the fence after it, are wrapping (vLLM's xlam reads a list in a
    fence: test_extract_tool_calls_streaming_incremental[single_tool_with_json_code_block])."""
    check_all("xlam", f"{fence}\n[{OBJECT}]\n```\n", [
        dropped(f"{fence}\n["), *XLAM_CALL, dropped("]\n```"), content("\n"), finish(tool_calls=1),
    ])


@pytest.mark.parametrize("output", ["```json\nnot a list\n```", "```js\n[]", "``[]", "````json\n[]", "`x`",
                                    "[]", "[1, 2] are the numbers I picked.", '[{"a": 1}] is data', "[ {", "",
                                    f"```python\n[{OBJECT}]\n```", f"Use `[{OBJECT}]`.", f"``[{OBJECT}]``",
                                    f"The syntax is:\n\n```\n<tool_call>\n{OBJECT}\n</tool_call>\n```\n\nThat is all."])
def test_xlam_text_that_holds_no_list_of_calls(output):
    """A list opens where its first object's first key names a call or its arguments; a list of
    anything else, a fence before anything else and a list in Markdown code are text, every byte
    (vLLM's xlam: content too, but it reads a list in any fence and garbles none of these)."""
    check_all("xlam", output, [content(output), finish()] if output else [finish()])


def test_xlam_fence_left_open_or_followed_by_text():
    check_all("xlam", f"```json\n[{OBJECT}]\n``", [
        dropped("```json\n["), *XLAM_CALL, dropped("]"), content("\n``"), finish(tool_calls=1),
    ])
    check_all("xlam", f"```json\n[{OBJECT}] x\n```\n[{OBJECT}]", [
        dropped("```json\n["), *XLAM_CALL, dropped("]"), content(" x\n```\n"), dropped("["),
        start(1, "f", '{"name": "f", "arguments": '), arguments(1, '{"a": 1}'), end(1, "}"), dropped("]"),
        finish(tool_calls=2),
    ])


@pytest.mark.parametrize("output,text,calls", [
    (f"I'll check the weather. [{OBJECT}] Done.", "I'll check the weather.  Done.", [("f", '{"a": 1}')]),
    (f"Here:\n```json\n[{OBJECT}]\n```\nDone.", "Here:\n\nDone.", [("f", '{"a": 1}')]),
    (f"[{OBJECT}] and [{OBJECT}]", " and ", [("f", '{"a": 1}'), ("f", '{"a": 1}')]),
    (f"[{OBJECT}; {OBJECT}]", "", [("f", '{"a": 1}'), ("f", '{"a": 1}')]),
    ('Sure.[ { "arguments": {}, "name": "g"}]', "Sure.", [("g", "{}")]),
    (f"I'll help you check the weather.<tool_call>[{OBJECT}]</tool_call>", "I'll help you check the weather."
     "<tool_call></tool_call>", [("f", '{"a": 1}')]),
])
def test_xlam_lists_in_prose(output, text, calls):
    """A list after prose, several, in a fence after prose, `;` between its objects: read, and the
    prose around them content (vLLM's xlam reads a list in a fence or in `<tool_call>` tags after
    prose, and drops the tags; a bare list only as the whole output)."""
    assert shown_and_calls("xlam", output) == (text, calls)


def test_xlam_list_after_a_thought():
    check_all("xlam", f"<think>plan</think>[{OBJECT}]", [
        dropped("<think>"), START_THOUGHT, reasoning("plan"), dropped("</think>"), END_THOUGHT,
        dropped("["), *XLAM_CALL, dropped("]"), finish(tool_calls=1),
    ])


def test_xlam_list_after_tool_calls_marker():
    check_all("xlam", f"Sure.[TOOL_CALLS][{OBJECT}]", [
        content("Sure."), dropped("[TOOL_CALLS]"), dropped("["), *XLAM_CALL, dropped("]"), finish(tool_calls=1),
    ])


def test_xlam_prompt_that_leaves_a_thought_open():
    check("xlam", f"plan</think>[{OBJECT}]", [
        START_THOUGHT, reasoning("plan"), dropped("</think>"), END_THOUGHT, dropped("["), *XLAM_CALL, dropped("]"),
        finish(tool_calls=1, reasoning_tokens=0),
    ], prompt="<|im_start|>assistant\n<think>\n")


LLAMA = '{"name": "searchTool", "parameters": {"query": "test1"}}'
LLAMA_CALL = ("searchTool", '{"query": "test1"}')


@pytest.mark.parametrize("output,text,calls", [
    (f"Here is the result: {LLAMA} Would you like to know more?", "Here is the result:  Would you like to know more?",
     [LLAMA_CALL]),
    (f"{LLAMA}; {LLAMA} and then", " and then", [LLAMA_CALL, LLAMA_CALL]),
    (f"Sure: [{LLAMA}, {LLAMA}]", "Sure: ", [LLAMA_CALL, LLAMA_CALL]),
    (f"```json\n{LLAMA}\n```", "", [LLAMA_CALL]),
    (f"{LLAMA} The arguments I passed were {{\"query\": \"test1\"}}", ' The arguments I passed were {"query": "test1"}',
     [LLAMA_CALL]),
    ("[1, 2] are the numbers I picked.", "[1, 2] are the numbers I picked.", []),
    ('{"parameters": {}}', '{"parameters": {}}', []),
    (f"The syntax is:\n\n```\n<tool_call>\n{LLAMA}\n</tool_call>\n```\n\nThat is all.",
     f"The syntax is:\n\n```\n<tool_call>\n{LLAMA}\n</tool_call>\n```\n\nThat is all.", []),
])
def test_llama3_calls_in_prose(output, text, calls):
    """Llama 3's `;`-separated objects, or a `[` list, after prose or in a fence: read, the prose
    around them content, and an object whose first key names no call, or any call in Markdown code,
    is text (vLLM's llama3_json reads every object in the text with a name, and drops the prose:
    test_extract_tool_calls_simple; SGLang's llama3 reads objects only at the start or after
    `<|python_tag|>`)."""
    assert shown_and_calls("llama3_json", output) == (text, calls)


PROSE_PIECES = ["[", "]", "{", "}", "[{", '{"name": "f", ', '"arguments": {"a": [1, "]"]}', '"name"', '"nam', ":", ",",
                ";", " ", "\n", "`", "```", "```json\n", "json", "x", "1", '"', "\\", "<think>", "</think>",
                "[TOOL_CALLS]", "<|python_tag|>", "é", "Done. "]


@settings(max_examples=tiers.examples("xlam", settings.default.max_examples))
@given(st.lists(st.sampled_from(PROSE_PIECES), max_size=30).map("".join), st.sampled_from(["xlam", "llama3_json"]))
@example('```json\n[{"name": "f", "arguments": {}}]\n``` [{"nam', "xlam")
@example('{"name": "f", "parameters": {}}; x {"a": 1} `{"name": "g"}`', "llama3_json")
def test_any_prose_at_every_chunking(output, table):
    """Whatever lists, fences and backticks the prose holds, every chunking conserves the output,
    is well formed and says what the whole parse says; text with no `{` is content, every byte."""
    check(table, output, parsed(table, output), every_split_up_to=40)
    whole = said(symphony.parse(table, output))
    if "{" not in output and "<think>" not in output and "</think>" not in output and "[TOOL_CALLS]" not in output \
            and "<|python_tag|>" not in output:
        assert whole.content == output and not whole.calls


# --- raw control characters inside a string of the arguments --------------------------------

K2 = ("<|tool_calls_section_begin|><|tool_call_begin|>functions.bash:0<|tool_call_argument_begin|>",
      "<|tool_call_end|><|tool_calls_section_end|>")
# each JSON-call table's form of one call to `bash` with arguments ARGS (a format string's {})
CONTROL_CALLS = {
    "qwen2_5": OPEN + '\n{"name": "bash", "arguments": {}}\n' + CLOSE,
    "kimi_k2": K2[0] + "{}" + K2[1],
    "llama3_json": '{"name": "bash", "parameters": {}}',
    "xlam": '[{"name": "bash", "arguments": {}}]',
    "mistral": '[TOOL_CALLS]bash{}',
    "deepseek_v3_1": "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>bash<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    "gigachat3": 'function call<|role_sep|>{"name": "bash", "arguments": {}}',
}


def control_call(table, arguments_text):
    return CONTROL_CALLS[table].replace("{}", arguments_text, 1) if table != "qwen2_5" else \
        OPEN + '\n{"name": "bash", "arguments": ' + arguments_text + "}\n" + CLOSE


@pytest.mark.parametrize("table", sorted(CONTROL_CALLS))
def test_a_raw_newline_or_tab_in_a_string_is_the_strings(table):
    """A real newline or tab written inside an argument's string (code, mostly) is the string's:
    the arguments' JSON writes it as its escape, the source keeps the byte. kimi_k2's and
    gigachat3's incumbents read it (`json.loads(strict=False)`), and vLLM's deepseek_v31 and
    mistral parsers pass it through as written (JSON a strict client cannot load)."""
    written = '{"cmd": "for f in *; do\n\techo \\"$f\\"\r\ndone", "n": 1}'
    output = control_call(table, written)
    shown, calls = shown_and_calls(table, output)
    assert [name for name, _ in calls] == ["bash"] and shown == ""
    assert json.loads(calls[0][1]) == {"cmd": 'for f in *; do\n\techo "$f"\r\ndone', "n": 1}
    assert "\n\t" not in calls[0][1]
    sources = "".join(e["source"]["text"] for e in parsed(table, output) if e["kind"] == "tool_call_arguments")
    assert written in sources                               # the bytes as the model wrote them


@pytest.mark.parametrize("byte", [chr(c) for c in range(0x20)])
def test_every_control_character_is_escaped_as_json_writes_it(byte):
    written = '{"k' + byte + '": "a' + byte + 'b"}'
    events = parsed("qwen2_5", control_call("qwen2_5", written))
    assert arguments_of(events)[0] == json.dumps({"k" + byte: "a" + byte + "b"})
    check("qwen2_5", control_call("qwen2_5", written), events)


def test_a_control_character_outside_a_string_is_refused():
    """Between tokens only JSON's whitespace is taken: \\x01 there is no JSON, as before."""
    output = control_call("qwen2_5", '{"a": 1,\x01 "b": 2}')
    events = parsed("qwen2_5", output)
    assert arguments_of(events)[0] == '{"a": 1}'
    assert [e["text"]["text"] for e in events if e["kind"] == "malformed"] == [',\x01 "b": 2}']
    check("qwen2_5", output, events)


def test_a_string_cut_after_a_raw_newline_is_closed():
    output = OPEN + '{"name": "bash", "arguments": {"cmd": "ls\n-'
    events = parsed("qwen2_5", output)
    assert json.loads(arguments_of(events)[0]) == {"cmd": "ls\n-"}
    check("qwen2_5", output, events)
    assert arguments_of(parsed("qwen2_5", output, finish="length"))[0] == '{"cmd": "ls\\n-'


def test_long_code_with_raw_newlines_streams_escaped():
    """Arguments long enough to be let go of while they stream (the reported bytes are dropped
    from the call's buffer) keep every raw newline's place."""
    code = "".join(f"line {i}:\tx = {i}\n" for i in range(2000))
    output = control_call("qwen2_5", json.dumps({"path": "a.py"})[:-1] + ', "code": "' + code + '"}')
    for pieces in ([output], [output[i:i + 7] for i in range(0, len(output), 7)],
                   [output[i:i + 5000] for i in range(0, len(output), 5000)]):
        events = replay(symphony.parser("qwen2_5"), pieces)
        check_conservation(events, output)
        check_well_formed(events)
        assert json.loads(arguments_of([e.to_dict() for e in events])[0]) == {"path": "a.py", "code": code}


@settings(max_examples=tiers.examples("qwen2_5", settings.default.max_examples))
@given(st.text(st.sampled_from('ab\n\t\r\x00\x1f"\\é '), max_size=12), st.sampled_from(sorted(CONTROL_CALLS)))
def test_any_string_with_control_characters(value, table):
    """Whatever a value's string holds, every chunking says what the whole parse says, and the
    arguments load to what a lenient reader takes from the source."""
    written = '{"v": "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"}'
    output = control_call(table, written)
    events = parsed(table, output)
    assert json.loads(arguments_of(events)[0]) == {"v": value}
    check(table, output, events, every_split_up_to=40)


# --- a JSON list of calls in one Qwen `<tool_call>` ------------------------------------------

PLAIN_QWEN = calls_only("plain_qwen", (OPEN, CLOSE), symphony.CallSyntax.json())


@pytest.mark.parametrize("table", ["qwen2_5", "qwen3", "trinity"])
def test_a_list_of_calls_in_one_tool_call(table):
    """`<tool_call>[{..}, {..}]</tool_call>`: both calls, the list's brackets and commas wrapping
    (SGLang's qwen25 detector reads each object of a list it loads; vLLM's hermes parser reads no
    call there)."""
    output = OPEN + '\n[{"name": "a", "arguments": {"x": 1}},\n {"name": "b", "arguments": {}}]\n' + CLOSE
    check_all(table, output, [
        dropped(OPEN + "\n["), start(0, "a", '{"name": "a", "arguments": '), arguments(0, '{"x": 1}'), end(0, "}"),
        dropped(",\n "), start(1, "b", '{"name": "b", "arguments": '), arguments(1, "{}"), end(1, "}"),
        dropped("]\n" + CLOSE), finish(tool_calls=2),
    ])


REGION_PIECES = ["[", "]", "{", "}", '{"name": "f", ', '"arguments": {"a": 1}', ", ", " ", "\n", "1", "x", '"',
                 "```json", OPEN, CLOSE]


@settings(max_examples=tiers.examples("qwen2_5", settings.default.max_examples))
@given(st.lists(st.sampled_from(REGION_PIECES), max_size=16).map("".join))
@example(OPEN + " " + CLOSE + OPEN + "x" + CLOSE + OPEN + " ")
@example(OPEN + "[1, 2]" + CLOSE)
@example('\n{"name": "f", "arguments": {"a": 1}}\n x\n' + CLOSE + " after")
@example(OPEN + '\n```json\n{"name": "f", "arguments": {"a": 1}}' + CLOSE)
def test_what_opens_no_list_reads_as_one_call_object(text):
    """A region that opens no list of call objects reads, event for event, as the plain JSON
    syntax reads it (SPEC §4.2's shape: the whitespace before the object is the start's)."""
    output = OPEN + text
    if re.search(r"<tool_call>[ \n]*\[[ \n]*[{\]]", output):
        return                                  # a list of calls
    assert parsed("qwen2_5", output) == parsed(PLAIN_QWEN, output)
    check("qwen2_5", output, parsed("qwen2_5", output), every_split_up_to=40)
