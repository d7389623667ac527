"""Where real models stray from the JSON tables' call objects (issue 11), and the rules that read
them: arguments written as one JSON string whose text is a JSON object are that object (the
string's bytes its source; a string that is no object streams as written), in every JSON syntax;
and xLAM's list after a thought, in a fence or after `[TOOL_CALLS]` (`<tool_call>` stays text).
Each output at every chunking.
"""
import json

import pytest

from tests.wire import (END_THOUGHT, START_THOUGHT, arguments, arguments_of, check, content, dropped, end,
                        finish, malformed, parsed, reasoning, start)

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


# --- xLAM's ways in --------------------------------------------------------------------------

OBJECT = '{"name": "f", "arguments": {"a": 1}}'
XLAM_CALL = [start(0, "f", '{"name": "f", "arguments": '), arguments(0, '{"a": 1}'), end(0, "}")]


@pytest.mark.parametrize("fence", ["```json", "```"])
def test_xlam_fenced_list(fence):
    check("xlam", f"{fence}\n[{OBJECT}]\n```\n", [
        dropped(f"{fence}\n["), *XLAM_CALL, dropped("]\n```"), malformed("\n", "text after the list's end"),
        finish(tool_calls=1),
    ])


@pytest.mark.parametrize("output", ["```json\nnot a list\n```", "```js\n[]", "``[]", "````json\n[]", "`x`"])
def test_xlam_a_fence_before_anything_else_is_content(output):
    check("xlam", output, [content(output), finish()])


def test_xlam_fence_left_open_or_followed_by_text():
    check("xlam", f"```json\n[{OBJECT}]\n``", [
        dropped("```json\n["), *XLAM_CALL, dropped("]"), malformed("\n``", "unterminated_region"),
        finish(tool_calls=1),
    ])
    check("xlam", f"```json\n[{OBJECT}] x", [
        dropped("```json\n["), *XLAM_CALL, dropped("]"), malformed(" x", "text after the list's end"),
        finish(tool_calls=1),
    ])


def test_xlam_list_after_a_thought():
    check("xlam", f"<think>plan</think>[{OBJECT}]", [
        dropped("<think>"), START_THOUGHT, reasoning("plan"), dropped("</think>"), END_THOUGHT,
        dropped("["), *XLAM_CALL, dropped("]"), finish(tool_calls=1),
    ])


def test_xlam_list_after_tool_calls_marker():
    check("xlam", f"Sure.[TOOL_CALLS][{OBJECT}]", [
        content("Sure."), dropped("[TOOL_CALLS]"), dropped("["), *XLAM_CALL, dropped("]"), finish(tool_calls=1),
    ])


def test_xlam_tool_call_tags_are_text():
    output = f"Sure.<tool_call>[{OBJECT}]</tool_call> done"
    check("xlam", output, [content(output), finish()])


def test_xlam_prompt_that_leaves_a_thought_open():
    check("xlam", f"plan</think>[{OBJECT}]", [
        START_THOUGHT, reasoning("plan"), dropped("</think>"), END_THOUGHT, dropped("["), *XLAM_CALL, dropped("]"),
        finish(tool_calls=1, reasoning_tokens=0),
    ], prompt="<|im_start|>assistant\n<think>\n")
