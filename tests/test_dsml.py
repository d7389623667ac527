"""The DSML assembler (SPEC §5.6) through `deepseek_v4_1`: the worked fragments, values typed by
their own `string` attribute (tools not consulted), the invoke close as ToolCallEnd, a calls block
ending the thought, tags cut mid-attribute, every reason text; each output at every chunking.
"""
import pytest

from tests.wire import (END_THOUGHT, NO_CALL, START_THOUGHT, arguments, arguments_of, check, content, dropped, end,
                        finish, malformed, parsed, reasoning, start)

CALLS, CALLS_END = "<｜DSML｜ calls>", "</｜DSML｜ calls>"
INVOKE, INVOKE_END = '<｜DSML｜ invoke name="', "</｜DSML｜ invoke>"
PARAM, PARAM_END = '<｜DSML｜ parameter name="', "</｜DSML｜ parameter>"
AFTER_NAME = "text after a tag's name"
NO_NAME = "a tag without a name"
CUT = "a tag that another tag cut short"
OUT_OF_PLACE = "a tag where the call's syntax has none"
CLOSED_EARLY = "an invoke that closed before its function name closed"
BETWEEN = "text between a call's tags"


def param(key, value, string=True):
    return f'{PARAM}{key}" string="{"true" if string else "false"}">{value}{PARAM_END}'


def invoke(name, *params):
    return INVOKE + name + '">\n' + "\n".join(params) + "\n" + INVOKE_END


def test_the_worked_fragments():
    output = CALLS + "\n" + invoke("get_weather", param("city", "Paris"), param("n", "12", False)) + "\n" + CALLS_END
    check("deepseek_v4_1", output, [
        dropped(CALLS), dropped("\n"), dropped(INVOKE),
        start(0, "get_weather", 'get_weather">'),
        arguments(0, '{"city": "', "\n" + PARAM + 'city" string="true">'),
        arguments(0, "Paris", "Paris"),
        arguments(0, '"', PARAM_END),
        arguments(0, ', "n": 12', "\n" + PARAM + 'n" string="false">12' + PARAM_END),
        arguments(0, "}", "\n"),
        end(0, INVOKE_END),
        dropped("\n"), dropped(CALLS_END),
        finish(tool_calls=1),
    ])


def test_values_follow_their_own_attribute_not_the_tools():
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {
        "a": {"type": "integer"}, "b": {"type": "string"}}}}}]
    output = CALLS + invoke("f", param("a", "007"), param("b", "[1, 2]", False), param("c", "True", False),
                            param("d", " x \n")) + CALLS_END
    events = parsed("deepseek_v4_1", output, tools=tools)
    assert arguments_of(events) == {0: '{"a": "007", "b": [1, 2], "c": true, "d": " x \\n"}'}
    check("deepseek_v4_1", output, events, tools=tools)


def test_a_calls_block_ends_the_thought():
    output = "plan" + CALLS + invoke("f") + CALLS_END + "done"
    check("deepseek_v4_1", output, [
        START_THOUGHT, reasoning("plan"), dropped(CALLS), END_THOUGHT, dropped(INVOKE),
        start(0, "f", 'f">'), arguments(0, "{}", "\n\n"), end(0, INVOKE_END),
        dropped(CALLS_END), content("done"), finish(tool_calls=1),
    ], prompt="<｜Assistant｜><think>")


def test_two_invokes_and_an_invoke_cut_off_by_the_next():
    output = CALLS + INVOKE + 'f">' + param("a", "x") + INVOKE + 'g">' + INVOKE_END + CALLS_END
    events = parsed("deepseek_v4_1", output)
    assert arguments_of(events) == {0: '{"a": "x"}', 1: "{}"}
    assert end(0, "") in events and end(1, INVOKE_END) in events
    check("deepseek_v4_1", output, events)


def test_text_after_the_name_and_an_empty_name():
    output = CALLS + INVOKE + 'f" x="1">' + INVOKE_END + INVOKE + '">' + INVOKE_END + CALLS_END
    check("deepseek_v4_1", output, [
        dropped(CALLS), dropped(INVOKE),
        start(0, "f", 'f"'), malformed(' x="1"', AFTER_NAME), arguments(0, "{}", ">"), end(0, INVOKE_END),
        dropped(INVOKE), malformed('">', NO_NAME), malformed(INVOKE_END, CLOSED_EARLY),
        dropped(CALLS_END), finish(tool_calls=1),
    ])


@pytest.mark.parametrize("attributes", [' string="maybe"', "", ' type="string"', ' string="true" x'])
def test_a_parameter_without_a_known_string_attribute_is_reported_whole(attributes):
    output = CALLS + INVOKE + 'f">' + PARAM + 'a"' + attributes + ">1" + PARAM_END + INVOKE_END + CALLS_END
    events = parsed("deepseek_v4_1", output)
    assert malformed(PARAM + 'a"' + attributes + ">", AFTER_NAME) in events
    assert malformed("1", BETWEEN) in events and malformed(PARAM_END, OUT_OF_PLACE) in events
    assert arguments_of(events) == {0: "{}"}
    check("deepseek_v4_1", output, events)


def test_a_parameter_tag_before_the_name_closed_starts_no_call():
    output = CALLS + INVOKE + "f>\n" + param("a", "x") + INVOKE_END + CALLS_END
    events = parsed("deepseek_v4_1", output)
    assert not any(e["kind"] == "tool_call_start" for e in events)
    assert malformed("f>\n", CUT) in events
    assert malformed(PARAM, OUT_OF_PLACE) in events
    check("deepseek_v4_1", output, events)


def test_a_parameter_tag_cut_mid_attribute():
    output = CALLS + INVOKE + 'f">' + PARAM + 'a" stri' + param("b", "1", False) + INVOKE_END + CALLS_END
    events = parsed("deepseek_v4_1", output)
    assert malformed(PARAM + 'a" stri', CUT) in events
    assert arguments_of(events) == {0: '{"b": 1}'}
    check("deepseek_v4_1", output, events)


def test_an_invoke_closed_inside_its_name_takes_the_marker_it_ends_with():
    output = CALLS + INVOKE + "get_wea" + CALLS_END + "after"
    # the block holds no call: its markers are text as written
    check("deepseek_v4_1", output, [
        malformed(CALLS + INVOKE, NO_CALL), malformed("get_wea" + CALLS_END, CLOSED_EARLY), content("after"),
        finish(),
    ])


def test_the_block_closing_inside_a_string_closes_it_for_the_client():
    output = CALLS + INVOKE + 'f">' + PARAM + 'a" string="true">Par' + CALLS_END
    check("deepseek_v4_1", output, [
        dropped(CALLS), dropped(INVOKE), start(0, "f", 'f">'),
        arguments(0, '{"a": "', PARAM + 'a" string="true">'), arguments(0, "Par"),
        arguments(0, '"', ""), arguments(0, "}", ""), end(0), dropped(CALLS_END), finish(tool_calls=1),
    ])


def test_a_stream_cut_inside_an_invoke_still_ends_the_call():
    output = CALLS + INVOKE + 'f">' + PARAM + 'a" string="false">[1, 2'
    check("deepseek_v4_1", output, [
        dropped(CALLS), dropped(INVOKE), start(0, "f", 'f">'),
        malformed(PARAM + 'a" string="false">[1, 2', "unterminated_region"), end(0),
        finish("length", tool_calls=1),
    ], finish="length")


def test_inside_a_value_only_its_close_tag_is_a_tag():
    output = CALLS + INVOKE + 'f">' + param("code", PARAM + 'x" string="true">') + INVOKE_END + CALLS_END
    events = parsed("deepseek_v4_1", output)
    assert arguments_of(events) == {0: '{"code": "' + PARAM.replace('"', '\\"') + 'x\\" string=\\"true\\">"}'}
    check("deepseek_v4_1", output, events)


def test_the_table_answers_to_both_spellings():
    assert parsed("deepseek_v4.1", "hi") == parsed("deepseek_v4_1", "hi")


def test_v3_2_spells_the_tags_without_the_space():
    """`deepseek_v3_2` (issue 11): the same assembler with V3.2's spelling, `CallSyntax.dsml(DSML_V3_2)`;
    V4.1's spelling is text there, and the invoke close is the call's end."""
    calls, calls_end = "<｜DSML｜function_calls>", "</｜DSML｜function_calls>"
    inv, inv_end = '<｜DSML｜invoke name="', "</｜DSML｜invoke>"
    par, par_end = '<｜DSML｜parameter name="', "</｜DSML｜parameter>"
    output = (calls + "\n" + inv + 'f">\n' + par + 'a" string="true">x' + par_end + "\n" + par + 'n" string="false">5'
              + par_end + "\n" + inv_end + "\n" + calls_end)
    check("deepseek_v3_2", output, [
        dropped(calls), dropped("\n"), dropped(inv), start(0, "f", 'f">'),
        arguments(0, '{"a": "', "\n" + par + 'a" string="true">'), arguments(0, "x", "x"), arguments(0, '"', par_end),
        arguments(0, ', "n": 5', "\n" + par + 'n" string="false">5' + par_end), arguments(0, "}", "\n"),
        end(0, inv_end), dropped("\n"), dropped(calls_end), finish(tool_calls=1),
    ])
    v4_1 = calls + inv + 'f">' + param("a", "x") + inv_end + calls_end
    assert arguments_of(parsed("deepseek_v3_2", v4_1)) == {0: "{}"}


def test_dsml_spellings():
    from symphony.format import CallSyntax
    from symphony.syntax import DSML_V3_2, DSML_V4_1
    assert CallSyntax.dsml(DSML_V4_1) == CallSyntax.dsml()
    assert CallSyntax.dsml(DSML_V3_2).dsml_tags() == ('<｜DSML｜parameter name="', "</｜DSML｜parameter>",
                                                     "</｜DSML｜invoke>")
    with pytest.raises(ValueError):
        CallSyntax.dsml("｜dsml｜")
