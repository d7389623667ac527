"""The keyed assembler (SPEC §5.5) through its tables (`glm`, `ling`, `iquest`, `hy4`,
`k2_horizon`, whose JSON call objects are typed by the schema too): the name rules, typed values,
the call's closing marker as ToolCallEnd's source, nameless blocks that start no call and take no
index however many pairs they hold, every reason text, a started call always ending; each output
at every chunking.
"""
import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests import tiers
from tests.wire import (NO_CALL, arguments, arguments_of, check, content, dropped, end, finish, malformed, parsed,
                        shown_and_calls, start)

NOT_A_NAME = "text where the call's name should be"
OUT_OF_PLACE = "a tag where the call's syntax has none"
NO_KEY = "a key with no text"
NAMELESS = "a call block without a name"
CUT = "a tag that another tag cut short"
BETWEEN = "text between a call's tags"


def tool(name, **properties):
    return {"type": "function", "function": {"name": name, "parameters": {
        "type": "object", "properties": properties}}}


TOOLS = [tool("get_weather", city={"type": "string"}, days={"type": "integer"},
              note={"type": ["string", "null"]}, drink_id={"type": "string"})]


def pair(key, value, tags=("<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>")):
    return f"{tags[0]}{key}{tags[1]}{tags[2]}{value}{tags[3]}"


def test_glm_call_fragment_by_fragment():
    output = "Let me check.<tool_call>get_weather" + pair("city", "Paris") + pair("days", "3") + "</tool_call>"
    check("glm", output, [
        content("Let me check."),
        dropped("<tool_call>"),
        start(0, "get_weather", "get_weather"),
        arguments(0, '{"city": "', "<arg_key>city</arg_key><arg_value>"),
        arguments(0, "Paris", "Paris"),
        arguments(0, '"', "</arg_value>"),
        arguments(0, ', "days": 3', "<arg_key>days</arg_key><arg_value>3</arg_value>"),
        arguments(0, "}", ""),
        end(0, "</tool_call>"),
        finish(tool_calls=1),
    ], tools=TOOLS)


def test_ling_spacing_goes_into_the_sources():
    output = "<tool_call>get_weather\n" + pair("city", "Paris").replace("</arg_key>", "</arg_key>\n") + "\n</tool_call>"
    check("ling", output, [
        dropped("<tool_call>"),
        start(0, "get_weather", "get_weather"),
        arguments(0, '{"city": "', "\n<arg_key>city</arg_key>\n<arg_value>"),
        arguments(0, "Paris", "Paris"),
        arguments(0, '"', "</arg_value>"),
        arguments(0, "}", "\n"),
        end(0, "</tool_call>"),
        finish(tool_calls=1),
    ], tools=TOOLS)


def test_the_whitespace_around_a_name_is_the_templates():
    check("glm", "<tool_call> \n f \n" + pair("a", "1") + "</tool_call>", [
        dropped("<tool_call>"),
        start(0, "f", " \n f"),
        arguments(0, '{"a": 1', " \n<arg_key>a</arg_key><arg_value>1</arg_value>"),
        arguments(0, "}", ""),
        end(0, "</tool_call>"),
        finish(tool_calls=1),
    ])


def test_a_call_without_arguments_is_named_at_its_end():
    check("glm", "<tool_call>get_stock_price</tool_call>", [
        dropped("<tool_call>"),
        start(0, "get_stock_price", "get_stock_price"),
        arguments(0, "{}", ""),
        end(0, "</tool_call>"),
        finish(tool_calls=1),
    ])


def test_a_nameless_block_with_two_pairs_starts_no_call_and_takes_no_index():
    output = "<tool_call>" + pair("a", "1") + pair("b", "2") + "</tool_call><tool_call>f" + pair("c", "3") + "</tool_call>"
    check("glm", output, [
        malformed("<tool_call>", NO_CALL),       # a region that held no call: text as written
        malformed("<arg_key>", OUT_OF_PLACE),
        malformed("a", BETWEEN),
        malformed("</arg_key>", OUT_OF_PLACE),
        malformed("<arg_value>", OUT_OF_PLACE),
        malformed("1", BETWEEN),
        malformed("</arg_value>", OUT_OF_PLACE),
        malformed("<arg_key>", OUT_OF_PLACE),
        malformed("b", BETWEEN),
        malformed("</arg_key>", OUT_OF_PLACE),
        malformed("<arg_value>", OUT_OF_PLACE),
        malformed("2", BETWEEN),
        malformed("</arg_value>", OUT_OF_PLACE),
        malformed("</tool_call>", NAMELESS),
        dropped("<tool_call>"),
        start(0, "f", "f"),
        arguments(0, '{"c": 3', "<arg_key>c</arg_key><arg_value>3</arg_value>"),
        arguments(0, "}", ""),
        end(0, "</tool_call>"),
        finish(tool_calls=1),
    ])


@pytest.mark.parametrize("body", [" ", "\n \n", ""])
def test_an_empty_block_is_reported_with_its_marker(body):
    check("glm", f"<tool_call>{body}</tool_call>", [
        malformed("<tool_call>", NO_CALL), malformed(body + "</tool_call>", NAMELESS), finish()])


@pytest.mark.parametrize("name", ['{"name": "f"}', "get weather", "f'", "a<b", "x>", '"f"'])
def test_text_that_cannot_be_a_name_starts_no_call(name):
    output = f"<tool_call>{name}" + pair("a", "1") + "</tool_call>"
    events = parsed("glm", output)
    assert not any(e["kind"] == "tool_call_start" for e in events)
    assert {"other": NOT_A_NAME} in [e.get("why") for e in events]
    check("glm", output, events)


def test_a_fenced_json_call_is_no_call_under_a_keyed_table():
    output = 'The syntax is:\n\n```\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n```'
    events = parsed("glm", output)
    assert events[-1] == finish()
    assert malformed('\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n', NOT_A_NAME) in events
    assert malformed("</tool_call>", NAMELESS) in events
    check("glm", output, events)


def test_an_empty_key_and_a_key_cut_by_a_tag():
    output = "<tool_call>f<arg_key></arg_key><arg_value>1</arg_value><arg_key>ci<arg_value>2</arg_value></tool_call>"
    check("glm", output, [
        dropped("<tool_call>"),
        start(0, "f", "f"),
        malformed("<arg_key></arg_key>", NO_KEY),
        malformed("<arg_value>", OUT_OF_PLACE),
        malformed("1", BETWEEN),
        malformed("</arg_value>", OUT_OF_PLACE),
        malformed("<arg_key>ci", CUT),
        malformed("<arg_value>", OUT_OF_PLACE),
        malformed("2", BETWEEN),
        malformed("</arg_value>", OUT_OF_PLACE),
        arguments(0, "{}", ""),
        end(0, "</tool_call>"),
        finish(tool_calls=1),
    ])


def test_a_key_is_its_text_less_the_whitespace_around_it():
    """The ASCII whitespace around a key is the model's spacing: the key is trimmed (vLLM's and
    SGLang's keyed parsers strip it), so a declared key finds its type, and the spaces stay in the
    source; a key of whitespace alone is a key with no text. Other whitespace is the key's (the
    grammar writes no key it would cut, and its character classes are ASCII)."""
    output = ("<tool_call>get_weather<arg_key> city\n</arg_key><arg_value>Paris</arg_value>"
              "<arg_key>\tdays \x0c</arg_key><arg_value>007</arg_value><arg_key> </arg_key><arg_value>1</arg_value>"
              "<arg_key> my key </arg_key><arg_value>x</arg_value><arg_key>\u3000k</arg_key><arg_value>y</arg_value>"
              "</tool_call>")
    check("glm", output, [
        dropped("<tool_call>"),
        start(0, "get_weather", "get_weather"),
        arguments(0, '{"city": "', "<arg_key> city\n</arg_key><arg_value>"),
        arguments(0, "Paris", "Paris"),
        arguments(0, '"', "</arg_value>"),
        arguments(0, ', "days": 7', "<arg_key>\tdays \x0c</arg_key><arg_value>007</arg_value>"),
        malformed("<arg_key> </arg_key>", NO_KEY),
        malformed("<arg_value>", OUT_OF_PLACE),
        malformed("1", BETWEEN),
        malformed("</arg_value>", OUT_OF_PLACE),
        arguments(0, ', "my key": "x"', "<arg_key> my key </arg_key><arg_value>x</arg_value>"),
        arguments(0, ', "\u3000k": "y"', "<arg_key>\u3000k</arg_key><arg_value>y</arg_value>"),
        arguments(0, "}", ""),
        end(0, "</tool_call>"),
        finish(tool_calls=1),
    ], tools=TOOLS)


def test_text_where_a_value_tag_belongs_cuts_the_key_short():
    output = "<tool_call>f<arg_key>a</arg_key> x <arg_value>1</arg_value></tool_call>"
    events = parsed("glm", output)
    assert malformed("<arg_key>a</arg_key> ", CUT) in events
    assert malformed("x", BETWEEN) in events
    check("glm", output, events)


def test_a_declared_string_keeps_digits_and_a_nullable_string_reads_null():
    output = "<tool_call>get_weather" + pair("drink_id", "123") + pair("note", "null") + pair("days", "007") + "</tool_call>"
    events = parsed("glm", output, tools=TOOLS)
    assert arguments_of(events) == {0: '{"drink_id": "123", "note": null, "days": 7}'}
    check("glm", output, events, tools=TOOLS)


def test_values_are_not_stripped():
    output = "<tool_call>get_weather" + pair("city", " Paris\n") + pair("x", " 5 ") + "</tool_call>"
    assert arguments_of(parsed("glm", output, tools=TOOLS)) == {0: '{"city": " Paris\\n", "x": 5}'}


def test_inside_a_value_only_its_close_tag_is_a_tag():
    output = "<tool_call>get_weather" + pair("city", "<arg_key>x</arg_key><arg_value>") + "</tool_call>"
    events = parsed("glm", output, tools=TOOLS)
    assert arguments_of(events) == {0: '{"city": "<arg_key>x</arg_key><arg_value>"}'}
    check("glm", output, events, tools=TOOLS)


def test_escapes_in_keys_and_values():
    output = '<tool_call>f<arg_key>k"\\</arg_key><arg_value>a\tb</arg_value></tool_call>'
    assert arguments_of(parsed("glm", output)) == {0: '{"k\\"\\\\": "a\\tb"}'}


def test_a_marker_closing_a_streamed_string_closes_it_and_reports_a_cut_tag():
    output = "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Pa <</tool_call>"
    check("glm", output, [
        dropped("<tool_call>"),
        start(0, "get_weather", "get_weather"),
        arguments(0, '{"city": "', "<arg_key>city</arg_key><arg_value>"),
        arguments(0, "Pa", "Pa"),
        arguments(0, ' "', " "),    # (trailing whitespace waits: a missing close may follow it)
        malformed("<", CUT),
        arguments(0, "}", ""),
        end(0, "</tool_call>"),
        finish(tool_calls=1),
    ], tools=TOOLS)


def test_a_marker_closing_a_whole_value_ends_it():
    # the value's close tag is missing: the call's end ends the value, which is what arrived
    check("glm", "<tool_call>get_weather<arg_key>days</arg_key><arg_value>3</tool_call>", [
        dropped("<tool_call>"),
        start(0, "get_weather", "get_weather"),
        arguments(0, '{"days": 3', "<arg_key>days</arg_key><arg_value>3"),
        arguments(0, "}", ""),
        end(0, "</tool_call>"),
        finish(tool_calls=1),
    ], tools=TOOLS)


def test_a_marker_closing_a_whole_value_that_holds_a_close_tag_reports_it():
    # `3</arg_valu>`: a misspelled close and what follows it are no value the call's end can end
    check("glm", "<tool_call>get_weather<arg_key>days</arg_key><arg_value>3</arg_valu></tool_call>", [
        dropped("<tool_call>"),
        start(0, "get_weather", "get_weather"),
        malformed("<arg_key>days</arg_key><arg_value>3</arg_valu>", CUT),
        arguments(0, "{}", ""),
        end(0, "</tool_call>"),
        finish(tool_calls=1),
    ], tools=TOOLS)


def test_a_misspelled_value_close_before_the_call_close_is_its_close():
    # `3</arg_value1>`: the value's close tag's stem, a tail and its `>` right before the call's end
    # (whitespace aside) close the value; the close's bytes are the closing fragment's source
    check("glm", "<tool_call>get_weather<arg_key>days</arg_key><arg_value>3</arg_value1>\n</tool_call>", [
        dropped("<tool_call>"),
        start(0, "get_weather", "get_weather"),
        arguments(0, '{"days": 3', "<arg_key>days</arg_key><arg_value>3</arg_value1>\n"),
        arguments(0, "}", ""),
        end(0, "</tool_call>"),
        finish(tool_calls=1),
    ], tools=TOOLS)


def test_a_marker_closing_a_key_reports_it():
    for body, cut in (("<arg_key>da", "<arg_key>da"), ("<arg_key>days</arg_key>", "<arg_key>days</arg_key>")):
        output = f"<tool_call>get_weather{body}</tool_call>"
        check("glm", output, [
            dropped("<tool_call>"),
            start(0, "get_weather", "get_weather"),
            malformed(cut, CUT),
            arguments(0, "{}", ""),
            end(0, "</tool_call>"),
            finish(tool_calls=1),
        ], tools=TOOLS)


def test_a_stream_cut_inside_a_call_still_ends_it():
    output = "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Pa"
    check("glm", output, [
        dropped("<tool_call>"),
        start(0, "get_weather", "get_weather"),
        arguments(0, '{"city": "', "<arg_key>city</arg_key><arg_value>"),
        arguments(0, "Pa", "Pa"),
        end(0),
        finish("length", tool_calls=1),
    ], tools=TOOLS, finish="length")
    # an undeclared value is held until it closes: cut, it is no part of the arguments
    check("glm", "<tool_call>f<arg_key>a</arg_key><arg_value>1", [
        dropped("<tool_call>"),
        start(0, "f", "f"),
        malformed("<arg_key>a</arg_key><arg_value>1", "unterminated_region"),
        arguments(0, "{}", ""),
        end(0),
        finish(tool_calls=1),
    ])


def test_a_stream_that_ends_after_the_name_is_a_call_with_no_arguments():
    # (docs/recovery.md, Calls cut short) as the block's close there makes it; for its length, none
    check("glm", "<tool_call>get_time", [dropped("<tool_call>"), start(0, "get_time", "get_time"),
                                         arguments(0, "{}", ""), end(0), finish(tool_calls=1)])
    check("glm", "<tool_call>get_wea", [malformed("<tool_call>", NO_CALL), malformed("get_wea", "unterminated_region"),
                                        finish("length")], finish="length")


def test_a_new_call_opener_cuts_the_call_off_and_is_dropped():
    output = "<tool_call>f" + pair("a", "1") + "<tool_call>g</tool_call>"
    check("glm", output, [
        dropped("<tool_call>"),
        start(0, "f", "f"),
        arguments(0, '{"a": 1', "<arg_key>a</arg_key><arg_value>1</arg_value>"),
        arguments(0, "}", ""),
        end(0),
        dropped("<tool_call>"),
        start(1, "g", "g"),
        arguments(1, "{}", ""),
        end(1, "</tool_call>"),
        finish(tool_calls=2),
    ])


def test_iquest_markers_and_thought():
    output = "plan</think><iquest_tool_call>f" + pair("a", "x") + "</iquest_tool_call>"
    events = parsed("iquest", output, prompt="<think>\n")
    assert arguments_of(events) == {0: '{"a": "x"}'}
    assert end(0, "</iquest_tool_call>") in events
    check("iquest", output, events, prompt="<think>\n")


def test_hy4_block_of_calls():
    tags = ("<arg_key:opensource>", "</arg_key:opensource>", "<arg_value:opensource>", "</arg_value:opensource>")
    call = "<tool_call:opensource>get_weather" + pair("city", "Paris", tags) + "</tool_call:opensource>"
    output = "</think:opensource>Checking.<tool_calls:opensource>" + call + "\n" + call + "</tool_calls:opensource>"
    events = parsed("hy4", output, prompt="<think:opensource>\n", tools=TOOLS)
    assert arguments_of(events) == {0: '{"city": "Paris"}', 1: '{"city": "Paris"}'}
    assert end(1, "</tool_call:opensource>") in events and dropped("\n<tool_call:opensource>") in events
    check("hy4", output, events, prompt="<think:opensource>\n", tools=TOOLS)
    # a call marker outside the calls block is content
    assert parsed("hy4", call)[0]["kind"] == "content"


def test_pairs_spaced_any_way_parse_the_same():
    plain = "<tool_call>f" + pair("a", "1") + pair("b", "x") + "</tool_call>"
    spaced = "<tool_call>f\n" + pair("a", "1").replace("</arg_key>", "</arg_key>\n") + "\n" \
        + pair("b", "x").replace("</arg_key>", "</arg_key>\n") + "\n</tool_call>"
    for table in ("glm", "ling"):
        assert arguments_of(parsed(table, plain)) == arguments_of(parsed(table, spaced)) == {0: '{"a": 1, "b": "x"}'}


def test_k2_horizon_json_members_read_by_their_declared_types():
    # a member's string holding a value of its declared type goes out as that value, its source the
    # model's bytes; a string that holds none (or under a declared string) goes out as written
    tools = [tool("lookup", limit={"type": "integer"}, enabled={"type": "boolean"}, query={"type": "string"})]
    output = ('<ifm|tool_calls><ifm|tool_call>{"name": "lookup", "arguments": {"limit": "5", "query": "7", '
              '"enabled": "no"}}</ifm|tool_call></ifm|tool_calls>')
    check("k2_horizon", output, [
        dropped("<ifm|tool_calls><ifm|tool_call>"),
        start(0, "lookup", '{"name": "lookup", "arguments": '),
        arguments(0, '{"limit": 5, "query": "7", "enabled": "no"}', '{"limit": "5", "query": "7", "enabled": "no"}'),
        end(0, "}"),
        dropped("</ifm|tool_call></ifm|tool_calls>"),
        finish("stop", 1),
    ], tools=tools, prompt="")


# pieces of a K2-Horizon JSON call's arguments: typed members' strings, escapes, raw control
# characters, cuts and markers
TYPED_PIECES = ['"limit": ', '"enabled": ', '"tags": ', '"query": ', '"li\\u006dit": ', '"', '"5', '"007"', '" true "',
                '"False"', '"[1, 2]"', '"x"', "\\", "\\u0030", "\n", ", ", "}", "{", "[", "]", "1", "true", " ",
                "</ifm|tool_call>", "é"]
K2_TYPED_TOOLS = [tool("lookup", limit={"type": "integer"}, enabled={"type": ["boolean", "null"]},
                       tags={"type": "array"}, query={"type": "string"})]
K2_JSON_HEAD = '<ifm|tool_calls><ifm|tool_call>{"name": "lookup", "arguments": {'


@settings(max_examples=tiers.examples("k2_horizon", settings.default.max_examples))
@given(st.lists(st.sampled_from(TYPED_PIECES), max_size=24).map("".join))
@example('"limit": "5", "enabled": " true ", "tags": "[1, 2]"}}</ifm|tool_call>')
@example('"limit": "5\\u0030", "query": "5"')
@example('"limit": "5\n", "enabled": "x"}}')
def test_k2_horizon_typed_members_at_every_chunking(body):
    """Whatever follows the arguments' `{`, every chunking conserves the output, is well formed and
    says what the whole parse says, and each call's arguments load."""
    output = K2_JSON_HEAD + body
    events = parsed("k2_horizon", output, "", "stop", K2_TYPED_TOOLS)
    check("k2_horizon", output, events, prompt="", tools=K2_TYPED_TOOLS, every_split_up_to=40)
    for call in arguments_of(events).values():
        json.loads(call)


def test_a_call_opener_in_a_value_its_close_ends_is_the_values_text():
    # `<tool_call>` inside a value, whose own close comes next: the value's text (vLLM's and
    # SGLang's glm47 read it so); it waited from the opener to the close
    check("glm", "<tool_call>get_weather<arg_key>city</arg_key><arg_value>a <tool_call> b</arg_value></tool_call>", [
        dropped("<tool_call>"),
        start(0, "get_weather", "get_weather"),
        arguments(0, '{"city": "', "<arg_key>city</arg_key><arg_value>"),
        arguments(0, "a", "a"),
        arguments(0, " <tool_call> b", " <tool_call> b"),
        arguments(0, '"', "</arg_value>"),
        arguments(0, "}", ""),
        end(0, "</tool_call>"),
        finish(tool_calls=1),
    ], tools=TOOLS)


def test_a_call_opener_in_a_value_the_call_goes_on_after_is_the_next_call():
    # the marker is the next call's when a terminal (here the call's close) or the end comes
    # before the value's close: the value ends before it, its close missing
    check("glm", "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris<tool_call>get_time</tool_call>", [
        dropped("<tool_call>"),
        start(0, "get_weather", "get_weather"),
        arguments(0, '{"city": "', "<arg_key>city</arg_key><arg_value>"),
        arguments(0, "Paris", "Paris"),
        arguments(0, '"', ""),
        arguments(0, "}", ""),
        end(0, ""),
        dropped("<tool_call>"),
        start(1, "get_time", "get_time"),
        arguments(1, "{}", ""),
        end(1, "</tool_call>"),
        finish(tool_calls=2),
    ], tools=TOOLS)


@pytest.mark.parametrize("value,arguments_read", [
    # a tag of the syntax after the opener: the value's close after it is that call's
    ("Paris<tool_call>get_time<arg_key>zone</arg_key><arg_value>UTC</arg_value></tool_call>",
     [("get_weather", {"city": "Paris"}), ("get_time", {"zone": "UTC"})]),
    ("line1\n<tool_call>\nline3</arg_value></tool_call>", [("get_weather", {"city": "line1\n<tool_call>\nline3"})]),
    ("x <tool_call>y</tool_call> z</arg_value></tool_call>", [("get_weather", {"city": "x "}), ("y", {})]),
])
def test_a_call_opener_in_a_value_at_every_chunking(value, arguments_read):
    output = f"<tool_call>get_weather<arg_key>city</arg_key><arg_value>{value}"
    shown, calls = shown_and_calls("glm", output, TOOLS)
    assert [(name, json.loads(args)) for name, args in calls] == arguments_read


@pytest.mark.parametrize("table,value,read", [
    # text, not tags, after the opener: a Ling escaped newline, a misspelled close
    ("ling", "printf '<tool_call>\\n'", "printf '<tool_call>\\n'"),
    ("glm", "a <tool_call> c </arg_value1> d", "a <tool_call> c </arg_value1> d"),
    # a key tag the opener cuts off is the value's text, and the opener with it
    ("glm", "a <arg_key>b<tool_call> c", "a <arg_key>b<tool_call> c"),
])
def test_a_call_opener_then_text_that_is_no_parameter_tag(table, value, read):
    output = f"<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>{value}</arg_value>\n</tool_call>"
    shown, calls = shown_and_calls(table, output, TOOLS)
    assert (shown, [(name, json.loads(args)) for name, args in calls]) == ("", [("get_weather", {"city": read})])
