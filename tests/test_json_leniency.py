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
                        dropped, end, finish, malformed, parsed, reasoning, shown_and_calls, start)

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


@pytest.mark.parametrize("written, want", [
    ('"{\'a\': \'it\\\\\'s\', \'b\': True}"', {"a": "it's", "b": True}),     # a Python dict's repr
    (r'"{\"a\": [1, 2,],}"', {"a": [1, 2]}),                                  # trailing commas
])
def test_a_string_holding_an_object_read_as_the_arguments_read_one(written, want):
    """The slips the arguments' validator reads (a Python dict, trailing commas) are read in a
    string holding the arguments too, written as JSON."""
    events = parsed("qwen2_5", call(written))
    assert strict_loads(arguments_of(events)[0]) == want
    assert not [e for e in events if e["kind"] == "malformed"]
    check("qwen2_5", call(written), events)


@pytest.mark.parametrize("written", [
    '"hello"',                   # known at its first character
    '"  [1, 2]"',                # a list is no object
    r'"{\"a\": 1"',              # never a whole object
    r'"{\"a\": 1} x"',           # text after the object
    r'"{\"a\": 1,,}"',           # not JSON, nor a slip read (docs/recovery.md)
    r'"{a: 1}"',
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
                                    f"```python\n[{OBJECT}]\n```", f"Use `[{OBJECT}]`.", f"``[{OBJECT}]``"])
def test_xlam_text_that_holds_no_list_of_calls(output):
    """A list opens where its first object's first key names a call or its arguments; a list of
    anything else, a fence before anything else and a list in Markdown code are text, every byte
    (vLLM's xlam: content too, but it reads a list in any fence and garbles none of these)."""
    check_all("xlam", output, [content(output), finish()] if output else [finish()])


NO_CALL_HERE = "a tool-call region that held no call"


def test_xlam_list_between_tool_call_tags():
    """`<tool_call>` and `</tool_call>` around a list of calls are dropped (a recovery: vLLM's xlam
    reads the list in the tags, test_extract_tool_calls[single_tool_with_tool_call_xml_tags], its
    content `I'll help you check the weather.`); what else the tags hold is read as prose is."""
    check_all("xlam", f"Sure.<tool_call>[{OBJECT}]</tool_call> done", [
        content("Sure."), dropped("<tool_call>["), *XLAM_CALL, dropped("]</tool_call>"), content(" done"),
        finish(tool_calls=1),
    ])
    check_all("xlam", f"<tool_call>\n[{OBJECT}]\n</tool_call>", [
        dropped("<tool_call>"), content("\n"), dropped("["), *XLAM_CALL, dropped("]"), content("\n"),
        dropped("</tool_call>"), finish(tool_calls=1),
    ])


@pytest.mark.parametrize("inside", [f"\n{OBJECT}\n", " [1, 2] ", ""])
def test_xlam_tool_call_tags_around_no_list_of_calls_are_text(inside):
    """Tags that hold no list of calls are the text the model wrote, tags included (docs/recovery.md:
    a call region that holds no call): xLAM writes them in its answers (the llama-xlam-2-8b-fc-r
    fixture content-with-marker-in-code-fence, a call object in the tags, in a code block); a close
    with no region open is text too (vLLM's xlam: content, every byte)."""
    before, after = "The syntax is:\n\n```\n", "\n```\n\nThat is all. </tool_call>"
    check_all("xlam", f"{before}<tool_call>{inside}</tool_call>{after}", [
        content(before), malformed("<tool_call>", NO_CALL_HERE), *([content(inside)] if inside else []),
        malformed("</tool_call>", NO_CALL_HERE), content(after), finish(),
    ])


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
    (f"I'll help you check the weather.<tool_call>[{OBJECT}]</tool_call>", "I'll help you check the weather.",
     [("f", '{"a": 1}')]),
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


# objects that name a call and write no arguments member (a reply that is JSON with a `name`)
NAME_ONLY = ['{"name": "f"}', '{"name": "Alice", "age": 30}', '{"type": "function", "function": {"name": "f"}}',
             '{ "name" : "f" , "id": {"a": [1]} }', '{"name": "f" oops} and more', '{"name": "f", "ag']


@pytest.mark.parametrize("output", NAME_ONLY)
@pytest.mark.parametrize("table", ["llama3_json", "xlam"])
def test_an_object_with_a_name_and_no_arguments_in_prose_is_text(output, table):
    """In prose (no marker opens the calls) an object is a call only once its arguments member
    begins: one that ends first, at its `}`, at a byte that cannot go on reading it or at the end
    of the stream, is the text the model wrote, and the list or fence it opened with it (vLLM's
    llama3_json: test_extract_tool_calls_missing_parameters_and_arguments_key; SGLang's llama3 reads
    the call `f` with `{}`). Whole, at every chunking and per token."""
    written = "[" + output + "]" if table == "xlam" and output.endswith("}") else output
    for text in (written, "Here: " + written, "```json\n" + written + "\n```\nDone."):
        assert shown_and_calls(table, text) == (text, [])     # (checked at every chunking, per token)


@pytest.mark.parametrize("table, output, text, calls", [
    ("llama3_json", '{"name": "f"}; {"name": "g", "arguments": {"a": 1}}', '{"name": "f"}; ', [("g", '{"a": 1}')]),
    ("llama3_json", '{"name": "f" {"name": "g", "arguments": {}}', '{"name": "f" ', [("g", "{}")]),
    ("llama3_json", '[{"name": "f"}, {"name": "g", "parameters": {}}]', '[{"name": "f"}, ]', [("g", "{}")]),
    ("llama3_json", '<|python_tag|>{"name": "f"}', '<|python_tag|>{"name": "f"}', []),
    ("llama3_json", '{"name": "f", "arguments": {}}', "", [("f", "{}")]),
    ("llama3_json", '{"name": "f", "parameters": {}, "x": 1}', "", [("f", "{}")]),
    ("xlam", '[{"name": "f", "arguments": {}}, {"name": "g"}]', "", [("f", "{}"), ("g", "{}")]),
    ("xlam", '```json\n[{"name": "f"}]\n``` [{"name": "g", "arguments": {}}]', '```json\n[{"name": "f"}]\n``` ',
     [("g", "{}")]),
    ("qwen2_5", '<tool_call>\n{"name": "f"}\n</tool_call>', "", [("f", "{}")]),
])
def test_a_call_in_prose_begins_with_its_arguments(table, output, text, calls):
    """What follows an object that is no call is read as prose again; an object whose arguments
    began is a call (even empty, a member after them); a list of calls goes on as one, so a later
    object with no arguments in it is a call with `{}`, as it is in a marker's region (Qwen's
    `<tool_call>`: vLLM's hermes reads no call whole, SGLang's qwen25 the call `f` with `{}`)."""
    assert shown_and_calls(table, output) == (text, calls)


PROSE_PIECES = ["[", "]", "{", "}", "[{", '{"name": "f", ', '{"name": "f"}', '"arguments": {"a": [1, "]"]}', '"name"', '"nam', ":", ",",
                ";", " ", "\n", "`", "```", "```json\n", "json", "x", "1", '"', "\\", "<think>", "</think>",
                "[TOOL_CALLS]", "<|python_tag|>", "é", "Done. "]


@settings(max_examples=tiers.examples("xlam", settings.default.max_examples))
@given(st.lists(st.sampled_from(PROSE_PIECES), max_size=30).map("".join), st.sampled_from(["xlam", "llama3_json"]))
@example('```json\n[{"name": "f", "arguments": {}}]\n``` [{"nam', "xlam")
@example('{"name": "f", "parameters": {}}; x {"a": 1} `{"name": "g"}`', "llama3_json")
@example('```json\n[{"name": "f", x {"name": "f", "arguments": {}}]\n```', "llama3_json")
@example('[{"name": "f"}, {"name": "f", "arguments": {"a": [1, "]"]}}] {"name": "f", ', "xlam")
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


# --- NaN, Infinity and -Infinity where a value may begin in the arguments ---------------------
# Python's json.dumps writes a float nan or inf as these words, and json.loads reads them back as
# floats: vLLM's and SGLang's JSON call parsers load the call with json.loads and write its
# arguments again with json.dumps, so they pass `NaN` through in the arguments string (JSON that
# a strict client, JSON.parse or the Anthropic SDK, cannot load). symphony writes each as the JSON
# string of its text, as value typing writes a tagged parameter whose text is `NaN`.

def strict_loads(text):
    """json.loads as a strict reader reads: no NaN, Infinity or -Infinity."""
    def refuse(word):
        raise ValueError(f"not JSON: {word}")
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("table", sorted(CONTROL_CALLS))
def test_nan_and_infinity_are_strings_of_their_text(table):
    """Each word is a value: the arguments' JSON writes it as a string, the source keeps the
    word, and the arguments after it go on (they used to be lost to Malformed from the word on)."""
    written = '{"x": NaN, "y": 2, "z": -Infinity, "w": Infinity}'
    output = control_call(table, written)
    shown, calls = shown_and_calls(table, output)
    assert [name for name, _ in calls] == ["bash"] and shown == ""
    assert strict_loads(calls[0][1]) == {"x": "NaN", "y": 2, "z": "-Infinity", "w": "Infinity"}
    sources = "".join(e["source"]["text"] for e in parsed(table, output) if e["kind"] == "tool_call_arguments")
    assert written in sources                               # the words as the model wrote them


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_each_word_in_a_list_and_as_the_last_member(word):
    """json.loads reads [1, NaN] as [1, nan] and {"v": NaN} as {"v": nan}; the incumbents write
    `NaN` back into the arguments string."""
    for written, value in [('{"v": [1, ' + word + ', ' + word + ']}', {"v": [1, word, word]}),
                           ('{"a": "b", "v": ' + word + '}', {"a": "b", "v": word}),
                           ('{"v": {"w": ' + word + '}}', {"v": {"w": word}}),
                           ('[' + word + ']', [word])]:
        output = control_call("qwen2_5", written)
        events = parsed("qwen2_5", output)
        assert strict_loads(arguments_of(events)[0]) == value
        assert not [e for e in events if e["kind"] == "malformed"]
        check("qwen2_5", output, events)
        check_per_token("qwen2_5", output)


@pytest.mark.parametrize("cut, as_written", [("Na", '"Na'), ("-Inf", '"-Inf'), ("-", "-"), ("tru", "tru")])
def test_a_word_cut_by_the_stream(cut, as_written):
    """A stream that ends inside a word is a cut `tru`: at "stop" the arguments close without the
    member it began (Malformed{UnterminatedRegion}); at "length" they stay as written, the word's
    prefix as the prefix of the string it begins (a cut `tru` as the prefix of `true`)."""
    output = OPEN + '{"name": "f", "arguments": {"a": 1, "v": ' + cut
    events = parsed("qwen2_5", output)
    assert json.loads(arguments_of(events)[0]) == {"a": 1}
    assert [e["text"]["text"] for e in events if e["kind"] == "malformed"] == [', "v": ' + cut]
    check("qwen2_5", output, events)
    cut_short = parsed("qwen2_5", output, finish="length")
    assert arguments_of(cut_short)[0] == '{"a": 1, "v": ' + as_written
    check("qwen2_5", output, cut_short, finish="length")


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_a_whole_word_the_stream_ends_in_is_a_value(word):
    """A word spelled out when the stream ends is whole, as `true` is there."""
    output = OPEN + '{"name": "f", "arguments": {"v": ' + word
    for how, want in [("stop", '{"v": "' + word + '"}'), ("length", '{"v": "' + word + '"')]:
        events = parsed("qwen2_5", output, finish=how)
        assert arguments_of(events)[0] == want
        check("qwen2_5", output, events, finish=how)


@pytest.mark.parametrize("written", ['{"x": NaNx, "y": 2}', '{"x": nan, "y": 2}', '{"x": -Inf, "y": 2}',
                                     '{"x": inf, "y": 2}', '{"x": Infinityy, "y": 2}', '{"x": -NaN, "y": 2}',
                                     '{"x": +Infinity, "y": 2}', '{NaN: 1, "y": 2}', '{"x": 1 NaN, "y": 2}'])
def test_other_spellings_and_places_are_refused_as_before(written):
    """Only the three words, as Python writes them, where a value begins: `nan`, `inf`, `NaNx`, a
    cut `-Inf` are no JSON and no Python spelling of a float (json.loads refuses them too), and a
    word as a key (which json.loads refuses) ends the arguments there, as before."""
    output = control_call("qwen2_5", written)
    events = parsed("qwen2_5", output)
    arguments_json = arguments_of(events)[0]
    assert "NaN" not in arguments_json and "nf" not in arguments_json and '"y"' not in arguments_json
    assert [e["text"]["text"] for e in events if e["kind"] == "malformed"][0].endswith(', "y": 2}')
    check("qwen2_5", output, events)


# --- Python's True, False and None in Llama 3's call objects -----------------------------------
# Llama 3.2 models sometimes write a value as Python's word (`{"x": True, "y": None}`). SGLang's
# llama3 detector reads such an object (ast.literal_eval of the brace-balanced object, after
# json.loads refuses it); vLLM's llama3_json does not (json). Only llama3_json's syntax reads them
# (CallSyntax.json_list(python_literals=True)): JSON's literal in the arguments, the word in the source.

@pytest.mark.parametrize("output", [
    '<|python_tag|>{"name": "f", "parameters": {"x": True, "y": None, "z": [False, None], "w": "True", "n": NaN}}',
    '{"name": "f", "parameters": {"x": True, "y": None, "z": [False, None], "w": "True", "n": NaN}}',
])
def test_llama3_python_words_are_json_literals(output):
    assert shown_and_calls("llama3_json", output) == (
        "", [("f", '{"x": true, "y": null, "z": [false, null], "w": "True", "n": "NaN"}')])


def test_llama3_python_words_in_objects_separated_by_semicolons():
    output = '{"name": "a", "parameters": {"x": True}}; {"name": "b", "parameters": {"y": None, "z": False}}'
    assert shown_and_calls("llama3_json", output) == (
        "", [("a", '{"x": true}'), ("b", '{"y": null, "z": false}')])


@pytest.mark.parametrize("cut, as_written", [("Tr", "tr"), ("Fals", "fals"), ("No", "nu"), ("True", "true")])
def test_llama3_a_python_word_cut_by_the_stream(cut, as_written):
    """As a cut `tru`: at "stop" the member it began is cut (Malformed{UnterminatedRegion}, the
    whole word a value); at "length" the arguments stay as written, the word as as many letters
    of JSON's literal."""
    output = '{"name": "f", "parameters": {"a": 1, "v": ' + cut
    events = parsed("llama3_json", output)
    want = {"a": 1, "v": True} if cut == "True" else {"a": 1}
    assert json.loads(arguments_of(events)[0]) == want
    check("llama3_json", output, events)
    cut_short = parsed("llama3_json", output, finish="length")
    assert arguments_of(cut_short)[0] == '{"a": 1, "v": ' + as_written
    check("llama3_json", output, cut_short, finish="length")


@pytest.mark.parametrize("written", ['{"x": Truex, "y": 2}', '{"x": TRUE, "y": 2}', '{"x": Nonesuch, "y": 2}',
                                     '{True: 1, "y": 2}', '{"x": Nan, "y": 2}'])
def test_llama3_other_words_are_refused_as_before(written):
    output = '{"name": "f", "parameters": ' + written + "}"
    events = parsed("llama3_json", output)
    assert '"y"' not in arguments_of(events)[0]
    assert [e["text"]["text"] for e in events if e["kind"] == "malformed"][0].endswith(', "y": 2}')
    check("llama3_json", output, events)


# --- Llama 3's call objects written as Python dicts ------------------------------------------
# `{'name': 'search', 'parameters': {'query': 'x'}}`: SGLang's llama3 detector reads the object
# (ast.literal_eval once json.loads refuses it; streamed, its own quote rewrite); vLLM's
# llama3_json does not. In llama3_json (CallSyntax.json_list(python_literals=True)) a key or a
# string may be single-quoted: the arguments' JSON writes it as a JSON string, the source keeps it.

@pytest.mark.parametrize("output, want", [
    ("{'name': 'f', 'parameters': {'q': 'x'}}", ("f", '{"q": "x"}')),
    ("<|python_tag|>{'name': 'f', 'arguments': {'q': 'it\\'s', 'r': 'say \"hi\"'}}",
     ("f", '{"q": "it\'s", "r": "say \\"hi\\""}')),
    ("{\"name\": \"f\", \"parameters\": {'q': ['a', {'b': 'c\\n'}], \"n\": 1}}",
     ("f", '{"q": ["a", {"b": "c\\n"}], "n": 1}')),
    ("{'name': 'f', 'parameters': {'k\\'s': '\u00e9\\u00e9 \\\\ \\t'}}", ("f", '{"k\'s": "\u00e9\\u00e9 \\\\ \\t"}')),
    ("{'type': 'function', 'name': 'f', 'parameters': {}}", ("f", "{}")),
    ("{'name': 'f\\'s', 'parameters': {}}", ("f's", "{}")),
])
def test_llama3_python_dicts_are_json(output, want):
    assert shown_and_calls("llama3_json", output) == ("", [want])
    check("llama3_json", output, parsed("llama3_json", output))


def test_llama3_python_dicts_in_prose():
    """A first key single-quoted (`{'name'`) opens a list in prose as `{"name"` does; other
    objects and quotes stay prose."""
    output = "I'd say {'a': 'b'} then {'name': 'f', 'parameters': {'q': 'x'}}; {'name': 'g', 'parameters': {}}"
    assert shown_and_calls("llama3_json", output) == ("I'd say {'a': 'b'} then ", [("f", '{"q": "x"}'), ("g", "{}")])
    check("llama3_json", output, parsed("llama3_json", output))


@pytest.mark.parametrize("written, loaded", [
    ("{'a': 'x\\/y', 'b': 2}", {"a": "x"}),        # Python reads `\/` as two characters: refused there
    ("{'a': 'x\\qy', 'b': 2}", {"a": "x"}),        # as any escape JSON has not
    ("{'a': 'x', 'b\": 2}", {"a": "x"}),            # a key closes at its own quote
])
def test_llama3_python_strings_refused_where_json_and_python_differ(written, loaded):
    output = "{'name': 'f', 'parameters': " + written + "}"
    events = parsed("llama3_json", output)
    assert json.loads(arguments_of(events)[0]) == loaded
    check("llama3_json", output, events)


@pytest.mark.parametrize("cut, stopped, as_written", [
    ("'x", {"a": 1, "b": "x"}, '{"a": 1, "b": "x'),
    ("'x\\", {"a": 1, "b": "x"}, '{"a": 1, "b": "x\\'),
    ("'it\\'", {"a": 1, "b": "it'"}, '{"a": 1, "b": "it\''),
    ("'x'", {"a": 1, "b": "x"}, '{"a": 1, "b": "x"'),
])
def test_llama3_a_python_string_cut_by_the_stream(cut, stopped, as_written):
    """As a JSON string cut: at "stop" closed (`"`), at "length" as written, its quotes JSON's."""
    output = "{'name': 'f', 'parameters': {'a': 1, 'b': " + cut
    events = parsed("llama3_json", output)
    assert json.loads(arguments_of(events)[0]) == stopped
    check("llama3_json", output, events)
    cut_short = parsed("llama3_json", output, finish="length")
    assert arguments_of(cut_short)[0] == as_written
    check("llama3_json", output, cut_short, finish="length")


PYTHON_DICT_TABLES = sorted(set(CONTROL_CALLS) - {"xlam"})       # (xLAM's prose: JSON only)


@pytest.mark.parametrize("table", PYTHON_DICT_TABLES)
def test_every_json_table_reads_a_python_dict(table):
    """A call object or arguments written as a Python dict, in a table's call region (Kimi K2,
    DeepSeek, Mistral and Qwen models write one at times): read as in llama3_json. vLLM's kimi_k2
    and deepseek_v31 parsers and SGLang's detectors pass such arguments through as written, which
    no client loads; their hermes, mistral and gigachat3 parsers refuse the call (all content)."""
    written = "{'q': 'it\\'s', 'r': 'say \"hi\"', 'n': [1, None], 'b': True}"
    shown, calls = shown_and_calls(table, control_call(table, written))
    assert shown == "" and [name for name, _ in calls] == ["bash"]
    assert strict_loads(calls[0][1]) == {"q": "it's", "r": 'say "hi"', "n": [1, None], "b": True}


TYPED_TOOL = {"type": "function", "function": {"name": "lookup", "parameters": {"type": "object", "properties": {
    "limit": {"type": "integer"}, "on": {"type": "boolean"}, "q": {"type": "string"}}}}}


@pytest.mark.parametrize("arguments, want", [
    ("{'limit': '7', 'on': 'true', 'q': '5'}", {"limit": 7, "on": True, "q": "5"}),
    ("{'limit': 'seven', \"on\": 'no', 'x': '1'}", {"limit": "seven", "on": "no", "x": "1"}),
    ("{'limit': '7\"', 'on': 'tr\\'ue'}", {"limit": '7"', "on": "tr'ue"}),    # rewritten inside: as written
    ("{'q': 'a', 'limit': ' 7 '}", {"q": "a", "limit": 7}),
])
def test_a_typed_member_single_quoted(arguments, want):
    """K2-Horizon's `json` form types its members' strings by the request's tools: a Python
    dict's single-quoted string is such a string, read alike."""
    output = '<ifm|tool_calls><ifm|tool_call>{"name": "lookup", "arguments": ' + arguments + "}</ifm|tool_call>"
    shown, calls = shown_and_calls("k2_horizon", output, tools=[TYPED_TOOL])
    assert shown == "" and [name for name, _ in calls] == ["lookup"]
    assert strict_loads(calls[0][1]) == want


def test_a_typed_member_single_quoted_cut_by_the_stream():
    output = "<ifm|tool_calls><ifm|tool_call>{'name': 'lookup', 'arguments': {'q': 'x', 'limit': '7"
    events = parsed("k2_horizon", output, tools=[TYPED_TOOL])
    assert strict_loads(arguments_of(events)[0]) == {"q": "x"}
    check("k2_horizon", output, events, tools=[TYPED_TOOL])
    check("k2_horizon", output, parsed("k2_horizon", output, tools=[TYPED_TOOL], finish="length"),
          tools=[TYPED_TOOL], finish="length")


@pytest.mark.parametrize("output, call", [
    ("<tool_call>\n{'name': 'f', 'arguments': {'a': 'x'}}\n</tool_call>", ("f", '{"a": "x"}')),
    ("[TOOL_CALLS][{'name': 'f', 'arguments': {'a': False}}]", ("f", '{"a": false}')),
    ("function call<|role_sep|>{'name': 'f', 'arguments': None}", ("f", "{}")),
])
def test_a_call_object_written_as_a_python_dict(output, call):
    table = {"<": "qwen2_5", "[": "mistral", "f": "gigachat3"}[output[0]]
    assert shown_and_calls(table, output) == ("", [call])


def test_prose_reads_no_python_dict_but_in_llama3_json():
    """In prose only llama3_json's objects may be Python dicts (its models write them; a `{'name'`
    opens a list there); xLAM's lists are JSON, as before."""
    assert shown_and_calls("xlam", "[{'name': 'f', 'arguments': {}}]") == ("[{'name': 'f', 'arguments': {}}]", [])
    assert shown_and_calls("xlam", '[{"name": "f", "arguments": {\'a\': None}}]') == \
        ("'a': None}", [("f", "{}")])


# --- A trailing comma in JSON arguments ------------------------------------------------------
# `{"a": 1,}`, `[1, 2,]`: a container's last `,` with its closer next is no JSON, but models write
# it and lenient readers take it. The arguments' JSON leaves it out; the source keeps it. vLLM's
# and SGLang's kimi_k2 and deepseek parsers pass it through as written (JSON no client loads);
# their hermes and llama3_json parsers refuse the call.

@pytest.mark.parametrize("table", sorted(CONTROL_CALLS))
@pytest.mark.parametrize("written, want", [
    ('{"a": 1,}', {"a": 1}),
    ('{"a": [1, 2 ,\n]\t,\n}', {"a": [1, 2]}),
    ('{"a": {"b": [],}, "c": [{}, [3,],],}', {"a": {"b": []}, "c": [{}, [3]]}),
])
def test_a_trailing_comma_is_left_out_of_the_arguments(table, written, want):
    output = control_call(table, written)
    shown, calls = shown_and_calls(table, output)
    assert shown == "" and [name for name, _ in calls] == ["bash"]
    assert strict_loads(calls[0][1]) == want
    sources = "".join(e["source"]["text"] for e in parsed(table, output) if e["kind"] == "tool_call_arguments")
    assert written in sources                               # the bytes as the model wrote them


@pytest.mark.parametrize("written, loaded", [
    ('{"a": 1,,}', {"a": 1}),           # one comma, no more
    ('{,}', {}),                        # a comma after nothing
    ('{"a": [,]}', {"a": []}),
    ('{"a": 1, "b",}', {"a": 1}),       # a key with no value
    ('{"a": 1,', {"a": 1}),             # the stream ends after it: an undecided member
])
def test_a_comma_that_is_not_a_trailing_one_is_refused_as_before(written, loaded):
    output = control_call("qwen2_5", written)
    events = parsed("qwen2_5", output)
    assert strict_loads(arguments_of(events)[0]) == loaded
    check("qwen2_5", output, events)


def test_a_trailing_comma_cut_by_the_stream():
    """Held until its closer: a stream that ends after it leaves it undecided (Malformed), and
    one stopped for its length gives the arguments as far as the model wrote them."""
    output = '<tool_call>\n{"name": "f", "arguments": {"a": [1,'
    assert arguments_of(parsed("qwen2_5", output))[0] == '{"a": [1]}'
    assert arguments_of(parsed("qwen2_5", output, finish="length"))[0] == '{"a": [1,'
    check("qwen2_5", output, parsed("qwen2_5", output, finish="length"), finish="length")


PYTHON_TEXT = st.text(st.sampled_from(["a", " ", "'", '"', "\\", "\n", "\t", "é", "日", "🎉", "{", "}", ":", ","]),
                      max_size=6)
PYTHON_VALUES = st.recursive(PYTHON_TEXT | st.integers(-5, 5) | st.sampled_from([True, False, None]),
                             lambda inner: st.lists(inner, max_size=3) | st.dictionaries(PYTHON_TEXT, inner,
                                                                                           max_size=3),
                             max_leaves=8)


@settings(max_examples=tiers.examples("llama3_json", settings.default.max_examples))
@given(st.dictionaries(PYTHON_TEXT, PYTHON_VALUES, max_size=3), st.integers(0, 80))
@example({"it's": ['say "hi"', "a\\'b"], "x": {"y": None}}, 23)
def test_llama3_python_dict_arguments(value, cut):
    """Arguments Python's repr wrote (single or double quotes as it picks, its escapes, True,
    False, None): they load as the value; cut anywhere, every chunking says what the whole parse
    says."""
    output = "{'name': 'f', 'parameters': " + repr(value) + "}"
    events = parsed("llama3_json", output)
    assert strict_loads(arguments_of(events)[0]) == value
    check("llama3_json", output, events, every_split_up_to=40)
    for how in ("stop", "length"):
        check("llama3_json", output[:cut], parsed("llama3_json", output[:cut], finish=how), finish=how,
              every_split_up_to=20)


def python_dict_with_trailing_commas(value):
    """repr(value) with a trailing comma in each container that holds something."""
    if isinstance(value, dict):
        return "{" + "".join(f"{k!r}: {python_dict_with_trailing_commas(v)}, " for k, v in value.items()) + "}" \
            if value else "{}"
    if isinstance(value, list):
        return "[" + "".join(python_dict_with_trailing_commas(v) + ", " for v in value) + "]" if value else "[]"
    return repr(value)


@settings(max_examples=tiers.examples("json_slips", settings.default.max_examples))
@given(st.sampled_from(PYTHON_DICT_TABLES), st.dictionaries(PYTHON_TEXT, PYTHON_VALUES, max_size=3),
       st.integers(0, 80))
@example("llama3_json", {'"': "'}", "": []}, 0)
def test_every_json_table_reads_python_dicts_with_trailing_commas(table, value, cut):
    """Arguments written as a Python dict with a trailing comma in each container, in every JSON
    table: they load as the value; cut anywhere, every chunking says what the whole parse says."""
    written = python_dict_with_trailing_commas(value)
    output = control_call(table, written)
    events = parsed(table, output)
    assert strict_loads(arguments_of(events)[0]) == value
    check(table, output, events, every_split_up_to=40)
    cut_at = output.index(written) + min(cut, len(written))     # (inside the arguments)
    for how in ("stop", "length"):
        check(table, output[:cut_at], parsed(table, output[:cut_at], finish=how), finish=how, every_split_up_to=20)


def test_words_and_raw_control_characters_in_long_arguments():
    """Words and raw newlines among each other, in arguments long enough to be let go of while
    they stream: each keeps its place at every chunking."""
    rows = "".join(f'[{i}, NaN, "a\tb\n", -Infinity], ' for i in range(600))
    output = control_call("qwen2_5", '{"rows": [' + rows + 'Infinity]}')
    want = {"rows": [[i, "NaN", "a\tb\n", "-Infinity"] for i in range(600)] + ["Infinity"]}
    for pieces in ([output], [output[i:i + 7] for i in range(0, len(output), 7)],
                   [output[i:i + 5000] for i in range(0, len(output), 5000)]):
        events = replay(symphony.parser("qwen2_5"), pieces)
        check_conservation(events, output)
        check_well_formed(events)
        assert strict_loads(arguments_of([e.to_dict() for e in events])[0]) == want


WORD_PIECES = ["NaN", "Infinity", "-Infinity", "Na", "-Inf", "-", "nan", "N", "1", "true", "tru", '"s"', '"NaN"',
               ", ", "[", "]", "{", "}", '"k": ', "x", " "]


@settings(max_examples=tiers.examples("qwen2_5", settings.default.max_examples))
@given(st.lists(st.sampled_from(WORD_PIECES), max_size=14).map("".join), st.sampled_from(sorted(CONTROL_CALLS)),
       st.sampled_from(["stop", "length"]))
@example('{"k": [NaN, -Infinity, Infinity]}', "qwen2_5", "stop")
@example('{"k": -Inf', "qwen2_5", "length")
@example('[NaN', "xlam", "length")
def test_any_arguments_with_the_words(written, table, how):
    """Whatever the arguments hold of these words, their prefixes and near misses, whole or cut
    (the call left open), every chunking says what the whole parse says."""
    output = control_call(table, written) if how == "stop" else CONTROL_CALLS[table].split("{}")[0] + written
    check(table, output, parsed(table, output, finish=how), finish=how, every_split_up_to=40)


FLOATS_PYTHON_WRITES = st.sampled_from([float("nan"), float("inf"), -float("inf")])
DUMPED = st.recursive(FLOATS_PYTHON_WRITES | st.integers(-5, 5) | st.sampled_from(["s", "NaN", True, None]),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("abc"), inner,
                                                                                    max_size=3),
                      max_leaves=8)


def words_as_strings(value):
    """`value` with each float json.dumps writes as a word (nan, inf, -inf) the string of that word."""
    if isinstance(value, float):
        return json.dumps(value)
    if isinstance(value, list):
        return [words_as_strings(v) for v in value]
    if isinstance(value, dict):
        return {k: words_as_strings(v) for k, v in value.items()}
    return value


@settings(max_examples=tiers.examples("qwen2_5", settings.default.max_examples))
@given(st.dictionaries(st.sampled_from("xyz"), DUMPED, min_size=1, max_size=3), st.sampled_from(sorted(CONTROL_CALLS)),
       st.integers(0, 60))
@example({"x": [float("nan"), {"a": -float("inf")}]}, "qwen2_5", 13)
def test_arguments_python_dumped_load_strictly(value, table, cut):
    """Arguments Python's json.dumps wrote (a float nan or inf as its word): the call's arguments
    load with a strict reader, each word the string of its text, where Python's reader reads the
    float; cut anywhere, every chunking says what the whole parse says."""
    written = json.dumps(value)
    output = control_call(table, written)
    events = parsed(table, output)
    assert strict_loads(arguments_of(events)[0]) == words_as_strings(value)
    check(table, output, events, every_split_up_to=40)
    cut_output = CONTROL_CALLS[table].split("{}")[0] + written[:cut]
    for how in ("stop", "length"):
        check(table, cut_output, parsed(table, cut_output, finish=how), finish=how, every_split_up_to=20)


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
@example(OPEN + '\n``json\n{"name": "f", "arguments": {"a": 1}}' + CLOSE)
@example(OPEN + '\n```python\n{"name": "f", "arguments": {"a": 1}}' + CLOSE)
def test_what_opens_no_list_reads_as_one_call_object(text):
    """A region that opens no list of call objects reads, event for event, as the plain JSON
    syntax reads it (SPEC §4.2's shape: the whitespace before the object is the start's)."""
    output = OPEN + text
    if re.search(r"<tool_call>[ \n]*(```(json)?[ \n]*)?\[[ \n]*[{\]]", output):
        return                                  # a list of calls (in a fence too)
    if re.search(r"\}[ \n]*\{", output) or re.search(r"<tool_call>[ \n]*```(json[ \n]*|[ \n]+)\{", output):
        return                                  # (maybe) an object after the call's, or in a fence (below)
    assert parsed("qwen2_5", output) == parsed(PLAIN_QWEN, output)
    check("qwen2_5", output, parsed("qwen2_5", output), every_split_up_to=40)


@pytest.mark.parametrize("table", ["qwen2_5", "qwen3", "trinity"])
def test_several_call_objects_in_one_tool_call(table):
    """`<tool_call>{..}\n{..}</tool_call>`: Qwen models write several call objects in one block
    at times; each is a call, the whitespace between them wrapping (vLLM's hermes parser and
    SGLang's qwen25 detector read no call there: the block is content)."""
    output = OPEN + '\n{"name": "a", "arguments": {"x": 1}}\n{"name": "b", "arguments": {}} {"name": "c", ' \
        '"arguments": {"y"\n' + CLOSE
    check_all(table, output, [
        dropped(OPEN), start(0, "a", '\n{"name": "a", "arguments": '), arguments(0, '{"x": 1}'), end(0, "}"),
        dropped("\n"), start(1, "b", '{"name": "b", "arguments": '), arguments(1, "{}"), end(1, "}"),
        dropped(" "), start(2, "c", '{"name": "c", "arguments": '), arguments(2, "{"),
        malformed('"y"\n', "a tool-call block that closed without a complete call"), arguments(2, "}", ""),
        end(2, ""), dropped(CLOSE),
        finish(tool_calls=3),
    ])


@pytest.mark.parametrize("between, shown", [
    (" x ", 'x {"name": "b", "arguments": {}}'),         # text first: the rest is the block's text
    (", ", ', {"name": "b", "arguments": {}}'),
])
def test_only_whitespace_between_call_objects_opens_the_next(between, shown):
    output = OPEN + '{"name": "a", "arguments": {}}' + between + '{"name": "b", "arguments": {}}' + CLOSE
    assert shown_and_calls("qwen2_5", output) == (shown, [("a", "{}")])


@pytest.mark.parametrize("table", ["qwen2_5", "qwen3", "trinity"])
def test_call_objects_in_a_fence_in_one_tool_call(table):
    """`<tool_call>\n```json\n{..}\n```\n</tool_call>`: the fence around the block's call objects
    is wrapping (vLLM's hermes parser and SGLang's qwen25 detector read no call there)."""
    output = OPEN + '\n```json\n{"name": "a", "arguments": {}}\n{"name": "b", "arguments": {}}\n```\n' + CLOSE
    check_all(table, output, [
        dropped(OPEN + "\n```json\n"), start(0, "a", '{"name": "a", "arguments": '), arguments(0, "{}"), end(0, "}"),
        dropped("\n"), start(1, "b", '{"name": "b", "arguments": '), arguments(1, "{}"), end(1, "}"),
        dropped("\n```\n" + CLOSE), finish(tool_calls=2),
    ])


def test_a_list_of_calls_in_a_fence_in_one_tool_call():
    output = OPEN + '\n```json\n[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]\n```\n' + CLOSE
    check_all("qwen2_5", output, [
        dropped(OPEN + "\n```json\n["), start(0, "a", '{"name": "a", "arguments": '), arguments(0, "{}"),
        end(0, "}"), dropped(", "), start(1, "b", '{"name": "b", "arguments": '), arguments(1, "{}"), end(1, "}"),
        dropped("]\n```\n" + CLOSE), finish(tool_calls=2),
    ])


@pytest.mark.parametrize("output, shown, calls", [
    (OPEN + '```{"name": "a", "arguments": {}}```' + CLOSE, OPEN + '```{"name": "a", "arguments": {}}```' + CLOSE,
     []),
    (OPEN + '```\n{"name": "a", "arguments": {}}\n`` x' + CLOSE, "`` x", [("a", "{}")]),
    (OPEN + '```json\n{"a": 1}\n```' + CLOSE, OPEN + '```json\n{"a": 1}\n```' + CLOSE, []),
    (OPEN + '```python\n{"name": "a", "arguments": {}}\n```' + CLOSE,
     OPEN + '```python\n{"name": "a", "arguments": {}}\n```' + CLOSE, []),
])
def test_a_fence_in_one_tool_call_that_holds_no_call_object(output, shown, calls):
    """Only ```json, or ``` and whitespace, then `{` is a fence around call objects: any other
    start reads as before (the one-object syntax's text), and backticks after the object that do
    not close the fence are the block's text after the call."""
    assert shown_and_calls("qwen2_5", output) == (shown, calls)


# --- call objects wrapped as OpenAI's API writes them -------------------------------------------

TYPED = '{"type": "function", "name": "get_weather", "parameters": '
WRAPPED = '{"type": "function", "function": {"name": "f", "arguments": '


def test_llama3_a_type_member_before_the_name():
    """Llama 3.1/3.2 often write `"type": "function"` first: the object is still a call, the member
    part of its start (vLLM's llama3_json reads the call, whole and streaming)."""
    output = TYPED + '{"city": "Paris"}}'
    check_all("llama3_json", output, [
        start(0, "get_weather", TYPED), arguments(0, '{"city": "Paris"}'), end(0, "}"), finish(tool_calls=1),
    ])


@pytest.mark.parametrize("table,opened,closed", [
    ("llama3_json", "", ""),
    ("qwen2_5", OPEN, CLOSE),
    ("k2_horizon", "<ifm|tool_calls><ifm|tool_call>", "</ifm|tool_call></ifm|tool_calls>"),
])
def test_the_function_member_holds_the_call(table, opened, closed):
    """`{"type": "function", "function": {"name", "arguments"}}`: the `function` member's object is
    the call, the wrapper's members and braces around it its start and end (SGLang's k2_horizon
    reads the call; vLLM's hermes reads none whole and a garbled one streaming)."""
    output = opened + WRAPPED + '{"a": 1}}}' + closed
    want = [start(0, "f", WRAPPED), arguments(0, '{"a": 1}'), end(0, "}}"), finish(tool_calls=1)]
    check_all(table, output, ([dropped(opened)] if opened else []) + want[:3]
              + ([dropped(closed)] if closed else []) + want[3:])


def test_wrapped_arguments_written_as_a_string_are_its_object():
    """OpenAI writes `arguments` as a JSON string: a string whose text is an object is that object,
    as anywhere (the string's bytes its source)."""
    written = json.dumps(json.dumps({"a": 1}))
    check_all("qwen2_5", OPEN + WRAPPED + written + "}}" + CLOSE, [
        dropped(OPEN), start(0, "f", WRAPPED), arguments(0, '{"a": 1}', written), end(0, "}}"), dropped(CLOSE),
        finish(tool_calls=1),
    ])


def test_wrapped_members_after_the_call_object_are_its_end():
    output = '{"type": "function", "function": {"name": "f", "arguments": {}}, "id": "x"} then'
    check_all("llama3_json", output, [
        start(0, "f", '{"type": "function", "function": {"name": "f", "arguments": '), arguments(0, "{}"),
        end(0, '}, "id": "x"}'), content(" then"), finish(tool_calls=1),
    ])


@pytest.mark.parametrize("output", [
    '{"type": "object", "name": "f", "parameters": {}}',
    '{"type": "function"}',
    '{"type": "function", "type": "function", "name": "f"}',
    '{"function": "f", "parameters": {}}',
    '{"type": "functions", "name": "f", "parameters": {}}',
    'A schema: {"type": "object", "properties": {}}',
])
def test_llama3_objects_that_are_no_wrapped_call_stay_text(output):
    """In prose only `"type": "function"` (that very string) and a `function` key holding an object
    are read on before the key that names the call: other objects stay content, every byte."""
    assert shown_and_calls("llama3_json", output) == (output, [])


@pytest.mark.parametrize("output", [
    WRAPPED + '{"a": 1}}}',
    '{"function": {"type": "function", "name": "f", "arguments": {"a": [1, "}"]}}}',
    '{"type": "function", "function": {"arguments": {"a": 1}, "name": "f"}}',
    '{"type": "function", "function": {"name": "f", "arguments": {"a": 1}}',
    '{"type": "function", "function": {"name": "f", "arguments": {"a": 1}}, "function": {"name": "g"}}',
])
@pytest.mark.parametrize("table", ["llama3_json", "xlam", "qwen2_5"])
def test_any_wrapped_call_at_every_chunking(output, table):
    output = ("[" + output + "]" if table == "xlam" else OPEN + output + CLOSE if table == "qwen2_5" else output)
    whole = said(symphony.parse(table, output))
    assert [call[2] for call in whole.calls] == ["f"]
    check(table, output, parsed(table, output), every_split_up_to=40)
    check_per_token(table, output)
