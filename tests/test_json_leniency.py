"""Where real models stray from the JSON tables' call objects (issue 11), and the rules that read
them: arguments written as one JSON string whose text is a JSON object are that object (the
string's bytes its source; a string that is no object streams as written), in every JSON syntax;
each output at every chunking.
"""
import json

import pytest

from tests.wire import arguments, arguments_of, check, dropped, end, finish, parsed, start

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
    check("qwen2_5", OPEN + HEAD + written, [
        dropped(OPEN), start(0, "f", HEAD), arguments(0, written), end(0, ""), finish(tool_calls=1),
    ])


def test_every_json_syntax_reads_it():
    written = json.dumps(json.dumps({"x": 42}))
    events = parsed("xlam", '[{"name": "a", "arguments": ' + written + "}]")
    assert arguments_of(events) == {0: '{"x": 42}'}
    events = parsed("apertus", '<|tools_prefix|>[{"f": ' + written + "}]<|tools_suffix|>")
    assert arguments_of(events) == {0: '{"x": 42}'}


def test_a_string_member_that_is_not_the_arguments_is_left_alone():
    output = OPEN + '{"name": "f", "note": "{\\"a\\": 1}", "arguments": {"b": 2}}' + CLOSE
    assert arguments_of(parsed("qwen2_5", output)) == {0: '{"b": 2}'}
