"""The Qwen tagged assembler (SPEC §5.3, §5.4) through its tables, `qwen3_tagged` (values on
their own line) and `seed_oss` (values placed directly): the worked example fragment by
fragment, streamed and whole values typed by the declared tools, the newline contract, every
reason text, `close()` against `finish()`; each output at every chunking.
"""
import pytest

import symphony
from tests.wire import NO_CALL, arguments, arguments_of, check, content, dropped, end, finish, malformed, parsed, start

CLOSED_EARLY = "a tool-call block that closed before its function tag closed"
NO_FUNCTION_TAG = "a tool call without a function tag"
BETWEEN = "text between a call's tags"
NO_NAME = "a tag without a name"
OUT_OF_PLACE = "a tag where the call's syntax has none"
CUT = "a tag that another tag cut short"


def tool(name, **properties):
    return {"type": "function", "function": {"name": name, "parameters": {
        "type": "object", "properties": properties}}}


STRING = {"type": "string"}
INTEGER = {"type": "integer"}
NULLABLE = {"anyOf": [{"type": "string"}, {"type": "null"}]}
TOOLS = [tool("f", city=STRING, limit=INTEGER, note=NULLABLE, code=STRING, tags={"type": "array"})]


def block(body):
    return f"<tool_call>{body}</tool_call>"


def test_the_worked_example_fragment_by_fragment():
    body = "\n<function=f>\n<parameter=city>\nParis\n</parameter>\n<parameter=limit>\n5\n</parameter>\n</function>\n"
    check("qwen3_tagged", block(body), [
        dropped("<tool_call>"),
        start(0, "f", "\n<function=f>"),
        arguments(0, '{"city": "', "\n<parameter=city>"),
        arguments(0, "Paris", "\nParis"),
        arguments(0, '"', "\n</parameter>"),
        arguments(0, ', "limit": 5', "\n<parameter=limit>\n5\n</parameter>"),
        arguments(0, "}", "\n"),
        end(0, "</function>"),
        dropped("\n"),
        dropped("</tool_call>"),
        finish(tool_calls=1),
    ], tools=TOOLS)


def test_a_block_the_marker_closes_inside_a_string_closes_it_for_the_client():
    output = block("\n<function=f>\n<parameter=city>\nPar")
    events = parsed("qwen3_tagged", output, tools=TOOLS)
    assert arguments_of(events) == {0: '{"city": "Par"}'}
    assert not any(e["kind"] == "malformed" for e in events)
    check("qwen3_tagged", output, events, tools=TOOLS)


def test_a_stream_cut_inside_a_string_closes_nothing():
    output = "<tool_call>\n<function=f>\n<parameter=city>\nPar"
    check("qwen3_tagged", output, [
        dropped("<tool_call>"),
        start(0, "f", "\n<function=f>"),
        arguments(0, '{"city": "', "\n<parameter=city>"),
        arguments(0, "Par", "\nPar"),
        end(0),
        finish("length", tool_calls=1),
    ], tools=TOOLS, finish="length")


def test_a_stream_cut_inside_a_whole_value_reports_it_unterminated():
    output = "<tool_call>\n<function=f>\n<parameter=limit>\n12"
    # the value was held, not written: the call closes without it, for the client to load
    check("qwen3_tagged", output, [
        dropped("<tool_call>"),
        start(0, "f", "\n<function=f>"),
        malformed("\n<parameter=limit>\n12", "unterminated_region"),
        arguments(0, "{}", ""),
        end(0),
        finish(tool_calls=1),
    ], tools=TOOLS)
    # stopped for its length, the call closes nothing
    check("qwen3_tagged", output, [
        dropped("<tool_call>"),
        start(0, "f", "\n<function=f>"),
        malformed("\n<parameter=limit>\n12", "unterminated_region"),
        end(0),
        finish("length", tool_calls=1),
    ], tools=TOOLS, finish="length")


def test_the_block_closing_a_whole_value_ends_it_and_closes_the_object():
    # its close tag and the function's missing: the block's close ends the value, what arrived
    output = block("\n<function=f>\n<parameter=limit>\n12")
    check("qwen3_tagged", output, [
        dropped("<tool_call>"),
        start(0, "f", "\n<function=f>"),
        arguments(0, '{"limit": 12', "\n<parameter=limit>\n12"),
        arguments(0, "}", ""),
        end(0),
        dropped("</tool_call>"),
        finish(tool_calls=1),
    ], tools=TOOLS)


@pytest.mark.parametrize("text,json", [
    ("None", "null"), ("null", "null"), ("Nonesuch", '"Nonesuch"'), ("nu", '"nu"'), ("", '""'),
    ("null\nnull", '"null\\nnull"'), ("12345", '"12345"'), ("true", '"true"')])
def test_a_nullable_string_waits_until_it_cannot_be_null(text, json):
    output = block(f"\n<function=f>\n<parameter=note>\n{text}\n</parameter>\n</function>\n")
    events = parsed("qwen3_tagged", output, tools=TOOLS)
    assert arguments_of(events) == {0: '{"note": ' + json + "}"}
    check("qwen3_tagged", output, events, tools=TOOLS)


@pytest.mark.parametrize("text,json", [
    ("5", "5"), ("True", "true"), ("None", "null"), ("[1, 2.5]", "[1, 2.5]"), ("{'a': (1,)}", '{"a": [1]}'),
    ("hello", '"hello"'), (" 7 ", "7"), ("9007199254740993", "9007199254740993"), ("1e400", '"1e400"'),
    ("\"quoted\"", '"quoted"'), ("", '""')])
def test_values_of_an_undeclared_function_are_inferred(text, json):
    output = block(f"\n<function=g>\n<parameter=x>\n{text}\n</parameter>\n</function>\n")
    events = parsed("qwen3_tagged", output, tools=TOOLS)
    assert arguments_of(events) == {0: '{"x": ' + json + "}"}


def test_declared_kinds_type_values_and_undeclared_parameters_are_inferred():
    body = ("\n<function=f>\n<parameter=city>\n12\n</parameter>\n<parameter=limit>\n+007\n</parameter>\n"
            "<parameter=tags>\n['a', 'b']\n</parameter>\n<parameter=other>\nFalse\n</parameter>\n</function>\n")
    events = parsed("qwen3_tagged", block(body), tools=TOOLS)
    assert arguments_of(events) == {0: '{"city": "12", "limit": 7, "tags": ["a", "b"], "other": false}'}


def test_the_newline_contract_strips_one_newline_on_each_side_only():
    body = "\n<function=f>\n<parameter=code>\n\n  indented\n\n</parameter>\n<parameter=x>\n\n5\n\n</parameter>\n</function>"
    events = parsed("qwen3_tagged", block(body), tools=TOOLS)
    assert arguments_of(events) == {0: '{"code": "\\n  indented\\n", "x": 5}'}  # x is inferred from its trimmed text
    check("qwen3_tagged", block(body), events, tools=TOOLS)


def test_a_value_without_its_template_newlines_loses_nothing():
    body = "<function=f><parameter=code>x\ny</parameter><parameter=limit>3</parameter></function>"
    assert arguments_of(parsed("qwen3_tagged", block(body), tools=TOOLS)) == {0: '{"code": "x\\ny", "limit": 3}'}


def test_seed_oss_places_values_directly_and_keeps_a_trailing_newline():
    tools = [tool("apply", patch=STRING, n=INTEGER)]
    body = "\n<function=apply>\n<parameter=patch>line 1\nline 2\n</parameter>\n<parameter=n>2</parameter>\n</function>\n"
    output = f"<seed:tool_call>{body}</seed:tool_call>"
    events = parsed("seed_oss", output, tools=tools)
    assert arguments_of(events) == {0: '{"patch": "line 1\\nline 2\\n", "n": 2}'}
    check("seed_oss", output, events, tools=tools)
    # a plain <tool_call> is text for Seed-OSS
    assert parsed("seed_oss", "<tool_call>x</tool_call>") == [content("<tool_call>x</tool_call>"), finish()]


def test_tags_inside_a_value_its_close_tag_ends_are_its_text():
    body = "\n<function=f>\n<parameter=code>\n<function=x><tool_call></function>\n</parameter>\n</function>\n"
    events = parsed("qwen3_tagged", block(body), tools=TOOLS)
    assert arguments_of(events) == {0: '{"code": "<function=x><tool_call></function>"}'}
    check("qwen3_tagged", block(body), events, tools=TOOLS)


def test_keys_and_values_are_escaped_like_serde_json():
    body = '\n<function=f>\n<parameter=code>\na"b\\c\td\x01é/\n</parameter>\n<parameter=k"\\>\n1\n</parameter>\n</function>'
    events = parsed("qwen3_tagged", block(body), tools=TOOLS)
    assert arguments_of(events) == {0: '{"code": "a\\"b\\\\c\\td\\u0001é/", "k\\"\\\\": 1}'}


def test_duplicate_keys_are_written_as_they_come():
    body = "\n<function=g>\n<parameter=a>\n1\n</parameter>\n<parameter=a>\n2\n</parameter>\n</function>"
    assert arguments_of(parsed("qwen3_tagged", block(body))) == {0: '{"a": 1, "a": 2}'}


def test_a_function_tag_without_a_name():
    check("qwen3_tagged", block("\n<function=>\n<function=f>\n</function>"), [
        dropped("<tool_call>"),
        dropped("\n"),
        malformed("<function=>", NO_NAME),
        start(0, "f", "\n<function=f>"),
        arguments(0, "{}", "\n"),
        end(0, "</function>"),
        dropped("</tool_call>"),
        finish(tool_calls=1),
    ])


def test_a_second_function_tag_inside_a_call_ends_it_and_starts_the_next():
    check("qwen3_tagged", block("<function=f>\n<function=g>\n</function>"), [
        dropped("<tool_call>"),
        start(0, "f", "<function=f>"),
        arguments(0, "{}", "\n"),
        end(0),
        start(1, "g", "<function=g>"),
        arguments(1, "{}", "\n"),
        end(1, "</function>"),
        dropped("</tool_call>"),
        finish(tool_calls=2),
    ])


def test_a_function_close_before_any_function_tag_is_reported_and_the_block_goes_on():
    # the block holds no call: every byte of it is text, its markers included (what follows the
    # close is the block's, where a next function tag would open a call)
    check("qwen3_tagged", block("\n</function>\nx\n"), [
        malformed("<tool_call>", NO_CALL),
        malformed("\n</function>", NO_FUNCTION_TAG),
        malformed("\nx", "text between a block's calls"),
        malformed("\n</tool_call>", NO_CALL),
        finish(),
    ])


def test_tags_out_of_place_and_text_between_tags():
    body = "\n<parameter=a>\n<function=f>\n</parameter> junk \n<parameter=b>\n1\n</parameter>\n</function>"
    check("qwen3_tagged", block(body), [
        dropped("<tool_call>"),
        dropped("\n"),
        malformed("<parameter=", OUT_OF_PLACE),
        malformed("a>", BETWEEN),
        start(0, "f", "\n<function=f>"),
        dropped("\n"),
        malformed("</parameter>", OUT_OF_PLACE),
        malformed(" junk", BETWEEN),            # whitespace between two Malformed runs is theirs
        arguments(0, '{"b": 1', " \n<parameter=b>\n1\n</parameter>"),
        arguments(0, "}", "\n"),
        end(0, "</function>"),
        dropped("</tool_call>"),
        finish(tool_calls=1),
    ])


def test_a_tag_inside_a_name_cuts_it_short_and_is_read_again():
    check("qwen3_tagged", block("\n<function=get_<function=f>\n<parameter=a<parameter=b>\n1\n</parameter>\n</function>"), [
        dropped("<tool_call>"),
        dropped("\n"),
        malformed("<function=get_", CUT),
        start(0, "f", "<function=f>"),
        dropped("\n"),
        malformed("<parameter=a", CUT),
        arguments(0, '{"b": 1', "<parameter=b>\n1\n</parameter>"),
        arguments(0, "}", "\n"),
        end(0, "</function>"),
        dropped("</tool_call>"),
        finish(tool_calls=1),
    ])


def test_an_empty_key():
    events = parsed("qwen3_tagged", block("<function=f><parameter=>\n1\n</parameter></function>"))
    assert malformed("<parameter=>", NO_NAME) in events
    assert arguments_of(events) == {0: "{}"}


@pytest.mark.parametrize("body,reason", [
    ("", None), ("\n", NO_FUNCTION_TAG), ("junk", None), ("\n<function=ge", CLOSED_EARLY)])
def test_a_block_closed_before_the_call_started(body, reason):
    events = parsed("qwen3_tagged", block(body))
    assert not any(e["kind"] == "tool_call_start" for e in events)
    whys = [e["why"] for e in events if e["kind"] == "malformed"]
    if reason:
        assert whys[-2] == {"other": reason}
    # the block holds no call: its markers are text too
    assert whys[0] == whys[-1] == {"other": NO_CALL} and not any(e["kind"] == "dropped" for e in events)
    check("qwen3_tagged", block(body), events)


def test_a_call_closed_between_parameters_closes_the_object_with_the_whitespace():
    output = block("\n<function=f>\n<parameter=limit>\n1\n</parameter>\n")
    check("qwen3_tagged", output, [
        dropped("<tool_call>"),
        start(0, "f", "\n<function=f>"),
        arguments(0, '{"limit": 1', "\n<parameter=limit>\n1\n</parameter>"),
        arguments(0, "}", "\n"),
        end(0),
        dropped("</tool_call>"),
        finish(tool_calls=1),
    ], tools=TOOLS)


def test_a_cut_close_tag_is_reported_when_the_block_closes():
    output = block("\n<function=f>\n<parameter=city>\nParis\n</param")
    events = parsed("qwen3_tagged", output, tools=TOOLS)
    assert arguments_of(events) == {0: '{"city": "Paris"}'}
    assert malformed("</param", CLOSED_EARLY) in events
    check("qwen3_tagged", output, events, tools=TOOLS)


def test_two_blocks_two_calls_and_a_thought():
    tools = [tool("get_weather", city=STRING)]
    one = "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>"
    output = "<think>\nplan\n</think>\n\n" + one + "\n" + one.replace("Paris", "Rome")
    events = symphony.parse("qwen3_tagged", output, tools=tools)
    assert arguments_of(events) == {0: '{"city": "Paris"}', 1: '{"city": "Rome"}'}
    check("qwen3_tagged", output, [e.to_dict() for e in events], tools=tools)


def test_a_json_call_under_the_tagged_table_is_no_call():
    output = block('\n{"name": "f", "arguments": {"a": 1}}\n')
    events = parsed("qwen3_tagged", output)
    assert not any(e["kind"] == "tool_call_start" for e in events)
    assert events[-1] == finish()
