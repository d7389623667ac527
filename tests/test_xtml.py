"""The XTML assembler (SPEC §5.7) through `kimi_k3`: the call tag with the model's index (ignored),
arguments typed by their own `type` attribute, the call close as ToolCallEnd, content only inside
the response region, stray text in the message region Malformed, every reason text; each output
at every chunking.
"""
import pytest

from tests.wire import (END_THOUGHT, NO_CALL, START_THOUGHT, arguments, arguments_of, check, content, dropped, end,
                        finish, malformed, parsed, reasoning, start)

SEP = "<|sep|>"
THINK_END = "<|close|>think<|sep|>"
RESPONSE, RESPONSE_END = "<|open|>response<|sep|>", "<|close|>response<|sep|>"
TOOLS, TOOLS_END = "<|open|>tools<|sep|>", "<|close|>tools<|sep|>"
CALL, CALL_END = '<|open|>call tool="', "<|close|>call<|sep|>"
MESSAGE_END = "<|close|>message<|sep|>"
ARG, ARG_END = '<|open|>argument key="', "<|close|>argument<|sep|>"
PROMPT = '<|open|>message role="assistant"<|sep|><|open|>think<|sep|>'
AFTER_NAME = "text after a tag's name"
CUT = "a tag that another tag cut short"
OUT_OF_PLACE = "a tag where the call's syntax has none"
CLOSED_EARLY = "a call that closed before its function name closed"
BETWEEN_BLOCK = "text between a block's calls"


def arg(key, value, kind="string"):
    return f'{ARG}{key}" type="{kind}"{SEP}{value}{ARG_END}'


def call(name, *args, index=1):
    return f'{CALL}{name}" index="{index}"{SEP}' + "".join(args) + CALL_END


def test_a_turn_with_a_thought_content_and_a_call():
    output = ("plan" + THINK_END + RESPONSE + "Checking." + RESPONSE_END + TOOLS
              + call("get_weather", arg("city", "Paris"), arg("n", "12", "number")) + TOOLS_END + MESSAGE_END)
    check("kimi_k3", output, [
        START_THOUGHT, reasoning("plan"), dropped(THINK_END), END_THOUGHT,
        dropped(RESPONSE), content("Checking."), dropped(RESPONSE_END), dropped(TOOLS), dropped(CALL),
        start(0, "get_weather", 'get_weather" index="1"' + SEP),
        arguments(0, '{"city": "', ARG + 'city" type="string"' + SEP),
        arguments(0, "Paris"),
        arguments(0, '"', ARG_END),
        arguments(0, ', "n": 12', ARG + 'n" type="number"' + SEP + "12" + ARG_END),
        arguments(0, "}", ""),
        end(0, CALL_END),
        dropped(TOOLS_END), dropped(MESSAGE_END),
        finish(tool_calls=1),
    ], prompt=PROMPT)


@pytest.mark.parametrize("kind,text,json", [
    ("string", " 12 ", '" 12 "'), ("number", "1.50", "1.50"), ("boolean", "true", "true"),
    ("null", "null", "null"), ("array", "['a', 1]", '["a", 1]'), ("object", '{"a": {"b": [1]}}', '{"a": {"b": [1]}}'),
    ("number", "x", '"x"')])
def test_arguments_are_typed_by_their_type_attribute(kind, text, json):
    output = TOOLS + call("f", arg("a", text, kind)) + TOOLS_END
    events = parsed("kimi_k3", output)
    assert arguments_of(events) == {0: '{"a": ' + json + "}"}


def test_the_models_index_is_ignored_and_other_attributes_are_reported():
    output = TOOLS + call("f", index=7) + f'{CALL}g" x="1"{SEP}{CALL_END}' + TOOLS_END
    check("kimi_k3", output, [
        dropped(TOOLS), dropped(CALL), start(0, "f", 'f" index="7"' + SEP), arguments(0, "{}", ""), end(0, CALL_END),
        dropped(CALL), start(1, "g", 'g"'), malformed(' x="1"', AFTER_NAME), arguments(1, "{}", SEP),
        end(1, CALL_END), dropped(TOOLS_END), finish(tool_calls=2),
    ])


def test_a_type_the_template_does_not_write_reads_the_value_whole():
    # JSON Schema's `integer` (the template writes `number`), or any other type but `string`: the
    # value typed with no declaration, as the incumbents JSON-decode every non-string type
    output = TOOLS + call("f", arg("a", "1", "integer"), arg("b", "x", "word"), arg("c", "[1]", "")) + TOOLS_END
    events = parsed("kimi_k3", output)
    assert arguments_of(events) == {0: '{"a": 1, "b": "x", "c": [1]}'}
    check("kimi_k3", output, events)


def test_an_argument_with_no_type_is_its_text():
    output = TOOLS + call("f", f'{ARG}a"{SEP} 12 {ARG_END}') + TOOLS_END
    events = parsed("kimi_k3", output)
    assert arguments_of(events) == {0: '{"a": " 12 "}'}
    check("kimi_k3", output, events)


@pytest.mark.parametrize("attributes", [' kind="number"', ' type="a"b"', ' type=number'])
def test_other_attributes_leave_the_argument_reported(attributes):
    output = TOOLS + call("f", f'{ARG}a"{attributes}{SEP}1{ARG_END}', arg("b", "x")) + TOOLS_END
    events = parsed("kimi_k3", output)
    assert malformed(ARG + 'a"' + attributes + SEP, AFTER_NAME) in events
    assert arguments_of(events) == {0: '{"b": "x"}'}
    check("kimi_k3", output, events)


def test_stray_text_in_the_message_region_is_malformed():
    output = "x" + RESPONSE + "hi" + RESPONSE_END + " stray " + MESSAGE_END
    check("kimi_k3", output, [
        malformed("x", BETWEEN_BLOCK), dropped(RESPONSE), content("hi"), dropped(RESPONSE_END),
        dropped(" "), malformed("stray", BETWEEN_BLOCK), dropped(" "), dropped(MESSAGE_END), finish(),
    ])


def test_a_response_close_with_no_response_open_is_dropped():
    # the serving layer wrote the response's opener (a prefill, a forced tool choice); the model closes it
    output = "OK" + RESPONSE_END + TOOLS + call("calc", arg("x", "1", "number")) + TOOLS_END
    events = parsed("kimi_k3", output)
    assert events[:2] == [malformed("OK", BETWEEN_BLOCK), dropped(RESPONSE_END + TOOLS + CALL)]
    assert arguments_of(events) == {0: '{"x": 1}'}
    check("kimi_k3", output, events)


def test_a_separator_split_across_deltas_and_a_tag_cut_short():
    output = TOOLS + CALL + 'f" index="1"' + SEP + ARG + 'a" ty' + arg("b", "v") + CALL_END + TOOLS_END
    events = parsed("kimi_k3", output)
    assert malformed(ARG + 'a" ty', CUT) in events
    assert arguments_of(events) == {0: '{"b": "v"}'}
    check("kimi_k3", output, events)


def test_a_call_closed_before_its_name_took_the_marker_that_ended_it():
    output = TOOLS + CALL + "get_wea" + TOOLS_END
    # the block holds no call: its markers are text as written, the call's opener with its call
    check("kimi_k3", output, [
        malformed(TOOLS, NO_CALL), malformed(CALL + "get_wea" + TOOLS_END, CLOSED_EARLY), finish()])


def test_the_message_close_cuts_a_call_and_a_string_short():
    output = TOOLS + CALL + 'f"' + SEP + ARG + 'a" type="string"' + SEP + "Par" + MESSAGE_END
    check("kimi_k3", output, [
        dropped(TOOLS), dropped(CALL), start(0, "f", 'f"' + SEP),
        arguments(0, '{"a": "', ARG + 'a" type="string"' + SEP), arguments(0, "Par"), arguments(0, '"', ""),
        arguments(0, "}", ""), end(0), dropped(MESSAGE_END), finish(tool_calls=1),
    ])


def test_inside_a_value_only_its_close_tag_is_a_tag():
    # (an argument tag of a key the call has written is the value's text; a new key's is the next
    # argument, the value's close missing)
    output = TOOLS + call("f", arg("code", ARG + 'code" type="string"' + SEP + SEP)) + TOOLS_END
    events = parsed("kimi_k3", output)
    assert arguments_of(events) == {0: '{"code": "' + (ARG + 'code" type="string"' + SEP + SEP).replace('"', '\\"')
                                    + '"}'}
    check("kimi_k3", output, events)
    new_key = TOOLS + call("f", arg("code", ARG + 'x" type="string"' + SEP + "1")) + TOOLS_END
    events = parsed("kimi_k3", new_key)
    assert arguments_of(events) == {0: '{"code": "", "x": "1"}'}
    check("kimi_k3", new_key, events)
