"""The DSML assembler (SPEC §5.6) through `deepseek_v4_1`: the worked fragments, values typed by
their own `string` attribute (tools not consulted), the invoke close as ToolCallEnd, a calls block
ending the thought, tags cut mid-attribute, every reason text; each output at every chunking.
"""
import json

import pytest

import symphony
from symphony import Delta, End, Prompt
from symphony._native import FieldStream
from symphony.integrations.stream import TOOL_THOUGHT_AS_CONTENT
from tests.wire import (END_THOUGHT, NO_CALL, START_THOUGHT, arguments, arguments_of, check, check_tokens, content,
                        dropped, end, finish, malformed, parsed, reasoning, start)

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


def test_values_follow_their_own_attribute_unless_the_declaration_admits_no_string():
    """`string="true"` is the text, except where the parameter's schema admits no string: then the
    declaration reads it (vLLM's DSML parsers coerce it alike); `string="false"` is JSON as written."""
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {
        "a": {"type": "integer"}, "b": {"type": "string"}, "e": {"type": "boolean"}, "t": {"description": "any"},
        "w": {"anyOf": [{"type": "object"}, {"type": "null"}]}, "s": {"type": ["string", "integer"]},
        "n": {"type": "number"}}}}}]
    output = CALLS + invoke("f", param("a", "007"), param("b", "[1, 2]", False), param("c", "True", False),
                            param("d", " x \n"), param("e", "true"), param("t", "5"), param("w", '{"k": 1}'),
                            param("s", "5"), param("n", "many")) + CALLS_END
    events = parsed("deepseek_v4_1", output, tools=tools)
    assert arguments_of(events) == {0: '{"a": 7, "b": [1, 2], "c": true, "d": " x \\n", "e": true, "t": "5", '
                                       '"w": {"k": 1}, "s": "5", "n": "many"}'}
    check("deepseek_v4_1", output, events, tools=tools)
    assert arguments_of(parsed("deepseek_v4_1", output)) == {0: '{"a": "007", "b": [1, 2], "c": true, "d": " x \\n", '
                                                                '"e": "true", "t": "5", "w": "{\\"k\\": 1}", "s": "5", '
                                                                '"n": "many"}'}


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
        malformed(INVOKE + '">', NO_NAME), malformed(INVOKE_END, CLOSED_EARLY),
        dropped(CALLS_END), finish(tool_calls=1),
    ])


@pytest.mark.parametrize("attributes", [' string="maybe"', ' type="string"', ' string="true" x', ' string ="true"',
                                        'string="true"'])
def test_a_parameter_without_a_known_string_attribute_is_reported_whole(attributes):
    output = CALLS + INVOKE + 'f">' + PARAM + 'a"' + attributes + ">1" + PARAM_END + INVOKE_END + CALLS_END
    events = parsed("deepseek_v4_1", output)
    assert malformed(PARAM + 'a"' + attributes + ">", AFTER_NAME) in events
    assert malformed("1", BETWEEN) in events and malformed(PARAM_END, OUT_OF_PLACE) in events
    assert arguments_of(events) == {0: "{}"}
    check("deepseek_v4_1", output, events)


def test_a_parameter_without_its_string_attribute_is_typed_by_the_tools():
    # DeepSeek models sometimes leave the attribute out; vLLM's deepseek_v32 / v4 parsers read the
    # value as JSON then (`"Paris"` stays text, `3` is 3), SGLang's detectors skip the parameter
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {
        "city": {"type": "string"}, "days": {"type": "integer"}, "code": {"type": "string"}}}}}]
    body = 'f">' + PARAM + 'city">Paris' + PARAM_END + PARAM + 'days">3' + PARAM_END + PARAM + 'code">42' + PARAM_END \
        + PARAM + 'other">[1, 2]' + PARAM_END + INVOKE_END
    v4 = (INVOKE + body).replace("｜ ", "｜")
    for table, output in (("deepseek_v4_1", CALLS + INVOKE + body + CALLS_END),
                          ("deepseek_v3_2", "<｜DSML｜function_calls>" + v4 + "</｜DSML｜function_calls>"),
                          ("deepseek_v4", "<｜DSML｜tool_calls>" + v4 + V4_CALLS_END)):
        assert json.loads(arguments_of(parsed(table, output, tools=tools))[0]) == {
            "city": "Paris", "days": 3, "code": "42", "other": [1, 2]}
        assert json.loads(arguments_of(parsed(table, output))[0]) == {
            "city": "Paris", "days": 3, "code": 42, "other": [1, 2]}
        check(table, output, parsed(table, output, tools=tools), tools=tools)


def test_a_parameter_tag_before_the_name_closed_starts_no_call():
    output = CALLS + INVOKE + "f>\n" + param("a", "x") + INVOKE_END + CALLS_END
    events = parsed("deepseek_v4_1", output)
    assert not any(e["kind"] == "tool_call_start" for e in events)
    assert malformed(INVOKE + "f>\n", CUT) in events      # (the opener of a call that never started is its)
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
    # the block holds no call: its markers are text as written, the invoke's opener with its call
    check("deepseek_v4_1", output, [
        malformed(CALLS, NO_CALL), malformed(INVOKE + "get_wea" + CALLS_END, CLOSED_EARLY), content("after"),
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
    # (a parameter tag of a key the call has written is the value's text; a new key's is the next
    # parameter, the value's close missing)
    output = CALLS + INVOKE + 'f">' + param("code", PARAM + 'code" string="true">') + INVOKE_END + CALLS_END
    events = parsed("deepseek_v4_1", output)
    assert arguments_of(events) == {0: '{"code": "' + PARAM.replace('"', '\\"') + 'code\\" string=\\"true\\">"}'}
    check("deepseek_v4_1", output, events)
    new_key = CALLS + INVOKE + 'f">' + param("code", PARAM + 'x" string="true">') + INVOKE_END + CALLS_END
    events = parsed("deepseek_v4_1", new_key)
    assert arguments_of(events) == {0: '{"code": "", "x": ""}'}
    check("deepseek_v4_1", new_key, events)



@pytest.mark.parametrize("table", ["deepseek_v4_1", "deepseek_v4", "deepseek_v3_2"])
def test_a_missing_value_close_ends_at_a_parameter_tag_after_a_newline(table):
    """A parameter tag right after a newline in a value ends it when its close tag is missing,
    the newline staying the value's, as vLLM's deepseek_v32/v4 parsers read it
    (`{"city": "Paris\\n", "days": 3}`)."""
    block = {"deepseek_v4_1": " calls", "deepseek_v4": "tool_calls", "deepseek_v3_2": "function_calls"}[table]
    output = (CALLS + "\n" + INVOKE + 'get_weather">\n' + PARAM + 'city" string="true">Paris\n'
              + param("days", "3", False) + "\n" + INVOKE_END + "\n" + CALLS_END).replace(" calls>", block + ">")
    if table != "deepseek_v4_1":
        output = output.replace("｜ ", "｜")
    events = parsed(table, output)
    assert arguments_of(events) == {0: '{"city": "Paris\\n", "days": 3}'}
    assert not [e for e in events if e["kind"] == "malformed"]
    check(table, output, events)
    check_tokens(table, output)



def test_a_self_closing_invoke_is_a_call_without_arguments():
    """`<｜DSML｜invoke name="f"/>`, the shape V4 writes for a tool with no arguments: the call,
    `{}`, its tag's `/>` the call's end (SGLang's deepseek_v4 detector reads `get_weather {}`);
    the block and a next invoke read on as after any invoke."""
    output = CALLS + "\n" + INVOKE + 'get_weather"/>\n' + invoke("f", param("city", "Paris")) + "\n" + CALLS_END
    check("deepseek_v4_1", output, [
        dropped(CALLS), dropped("\n"), dropped(INVOKE),
        start(0, "get_weather", 'get_weather"'), arguments(0, "{}", ""), end(0, "/>"),
        dropped("\n"), dropped(INVOKE), start(1, "f", 'f">'),
        arguments(1, '{"city": "', "\n" + PARAM + 'city" string="true">'), arguments(1, "Paris", "Paris"),
        arguments(1, '"', PARAM_END), arguments(1, "}", "\n"), end(1, INVOKE_END),
        dropped("\n"), dropped(CALLS_END), finish(tool_calls=2),
    ])
    check_tokens("deepseek_v4_1", output)
    v4 = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_weather"/>\n</｜DSML｜tool_calls>'
    events = parsed("deepseek_v4", v4)
    assert arguments_of(events) == {0: "{}"}
    assert not [e for e in events if e["kind"] in ("malformed", "content")]
    check("deepseek_v4", v4, events)
    check_tokens("deepseek_v4", v4)


def test_the_table_answers_to_both_spellings():
    assert parsed("deepseek_v4.1", "hi") == parsed("deepseek_v4_1", "hi")


def test_v3_2_spells_the_tags_without_the_space():
    """`deepseek_v3_2`: the same assembler with V3.2's spelling, `CallSyntax.dsml(DSML_V3_2)`;
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


# --- a call without its block -------------------------------------------------------------------
# DeepSeek V3.2, V4 and V4.1 sometimes write an invoke without the block's opener, straight after
# prose. Every DSML table reads it as the call, read in the prose (shapes.calls_without_block): the
# invoke's close returns to the prose, where the block's close the model may still write is dropped,
# and the text around the invoke, whitespace included, is the prose's (no block was written). The
# incumbents read the call too: vLLM's deepseek_v32/v4/v41 parsers have a row from content on the
# invoke's prefix, SGLang's deepseekv32/v4 detectors take a bare invoke whole and streamed.

V4_INVOKE, V4_INVOKE_END = '<｜DSML｜invoke name="', "</｜DSML｜invoke>"
V4_PARAM, V4_PARAM_END = '<｜DSML｜parameter name="', "</｜DSML｜parameter>"
V4_CALLS_END = "</｜DSML｜tool_calls>"


def v4_invoke(name, **strings):
    return (V4_INVOKE + name + '">' + "".join(f'{V4_PARAM}{k}" string="true">{v}{V4_PARAM_END}'
                                              for k, v in strings.items()) + V4_INVOKE_END)


def every_way(table, output, want, prompt=None):
    """The parse is `want`, whole and at every chunking, and a token at a time."""
    check(table, output, want, prompt=prompt)
    check_tokens(table, output, prompt=prompt)


@pytest.mark.parametrize("table", ["deepseek_v3_2", "deepseek_v4"])
def test_an_invoke_after_prose_without_its_block_is_the_call(table):
    # SGLang's test_prose_and_bare_invoke_in_one_delta: calls [get_weather({"city": "Beijing"})], content the prose
    output = "Let me look up the weather in Beijing for you." + v4_invoke("get_weather", city="Beijing")
    every_way(table, output, [
        content("Let me look up the weather in Beijing for you."), dropped(V4_INVOKE),
        start(0, "get_weather", 'get_weather">'),
        arguments(0, '{"city": "', V4_PARAM + 'city" string="true">'), arguments(0, "Beijing"),
        arguments(0, '"', V4_PARAM_END), arguments(0, "}", ""), end(0, V4_INVOKE_END),
        finish(tool_calls=1),
    ])


def test_the_block_close_after_invokes_without_their_block_is_dropped():
    # vLLM's test_missing_tool_calls_wrapper_is_recovered: the calls, no content (the newlines are
    # blank content); the stray close is the block's (dropped), the text around it the prose's
    output = v4_invoke("search", query="vllm") + "\n" + v4_invoke("f") + "\n" + V4_CALLS_END + "\nDone."
    events = parsed("deepseek_v4", output)
    assert arguments_of(events) == {0: '{"query": "vllm"}', 1: "{}"}
    assert events[-4:] == [content("\n"), dropped(V4_CALLS_END), content("\nDone."), finish(tool_calls=2)]
    every_way("deepseek_v4", output, events)


def test_text_after_an_invoke_without_its_block_is_the_prose():
    # no block was written: the newline after the invoke is the prose's, as the one before it is
    # (SGLang's deepseekv4 detector streamed shows `Checking.\n\nno more`; vLLM's parser, and
    # SGLang's whole, drop all after the call)
    output = "Checking.\n" + v4_invoke("f") + "\nno more"
    every_way("deepseek_v4", output, [
        content("Checking.\n"), dropped(V4_INVOKE), start(0, "f", 'f">'), arguments(0, "{}", ""),
        end(0, V4_INVOKE_END), content("\nno more"), finish(tool_calls=1),
    ])


def test_v4_1_and_gigachat_3_5_read_an_invoke_without_its_block():
    output = "Checking.\n\n" + invoke("get_weather", param("city", "SF"))
    events = parsed("deepseek_v4_1", output, prompt="<｜Assistant｜></think>")
    assert arguments_of(events) == {0: '{"city": "SF"}'} and events[0] == content("Checking.\n\n")
    every_way("deepseek_v4_1", output, events, prompt="<｜Assistant｜></think>")
    gcml = ('Ищу.<｜GCML｜invoke name="f"><｜GCML｜parameter name="a" string="false">[1]</｜GCML｜parameter>'
            "</｜GCML｜invoke><|message_sep|>")
    events = parsed("gigachat35", gcml)
    assert arguments_of(events) == {0: '{"a": [1]}'} and events[0] == content("Ищу.")
    every_way("gigachat35", gcml, events)


def test_an_invoke_in_the_thought_is_the_thought():
    """Only content reads an invoke without its block: in a thought it is the thought's text (the
    block's opener ends a thought; an invoke alone does not), as vLLM's deepseek_v4 reads it."""
    output = "plan " + invoke("f") + " more</think>ok"
    every_way("deepseek_v4_1", output, [
        START_THOUGHT, reasoning("plan " + invoke("f") + " more"), dropped("</think>"), END_THOUGHT, content("ok"),
        finish(),
    ], prompt="<｜Assistant｜><think>")


def test_the_grammar_writes_the_block():
    from symphony.formats import table
    for name in ("deepseek_v3_2", "deepseek_v4", "deepseek_v4_1", "gigachat35"):
        fmt = table(name)
        assert ("content", "invoke_open", "bare_invoke") in fmt.transitions
        written = fmt.written()
        assert not [row for row in written.transitions if "bare_invoke" in row]
        assert [state for state, _ in written.states] == [state for state, _ in fmt.states if "bare" not in state
                                                            and not state.startswith("damaged_")]


# --- a damaged block opener before the real block -----------------------------------------------
# DeepSeek V4 writes damaged block tags before its real block or invoke. `<｜DSML｜` where no marker
# of the table starts is a damaged tag, running to its `>` or its line's end (within 128 bytes);
# damaged tags followed by nothing but whitespace and then the block's opener or an invoke are
# Dropped with that whitespace (shapes.damaged_openers), else shown as written. SGLang's deepseekv4
# detector drops everything from a DSML mark to the call; vLLM's deepseek_v4 parser reads
# `<｜DSML｜toolcalls>` and `<｜DSML｜tool>` as the block's opener wherever they stand.

DAMAGED = ["<｜DSML｜toolcalls>\n\n", "<｜DSML｜tool_calls\n", "<｜DSML｜tool_calls<tool_calls>\n\n",
           "<｜DSML｜ SugarPanel>\n", "<｜DSML｜tool_calls...\n\n", "<｜DSML｜tool_calls-ok Let's scan the outputs.\n",
           "<｜DSML｜toolcalls>\n<｜DSML｜tool>\n", "<｜DSML｜function_calls>\n"]


@pytest.mark.parametrize("block", [True, False], ids=["block", "bare-invoke"])
@pytest.mark.parametrize("damaged", DAMAGED)
def test_a_damaged_block_opener_before_the_call_is_dropped(damaged, block):
    # SGLang's test_damaged_wrappers_do_not_become_assistant_preamble: the call, and content.strip()
    # the prose before the damaged tags
    call = v4_invoke("get_weather", city="SF")
    if block:
        call = "<｜DSML｜tool_calls>\n" + call + "\n" + V4_CALLS_END
    output = "Checking files.\n\n" + damaged + call
    events = parsed("deepseek_v4", output)
    assert arguments_of(events) == {0: '{"city": "SF"}'}
    assert events[:2] == [content("Checking files.\n\n"),
                          dropped(damaged + ("<｜DSML｜tool_calls>\n" if block else "") + V4_INVOKE)]
    every_way("deepseek_v4", output, events)


@pytest.mark.parametrize("output,shown", [
    ("Use <｜DSML｜toolcalls> here.", None), ("<｜DSML｜toolcalls>\n\nNo call after all.", None),
    ("Cut: <｜DSML｜toolcalls>", None), ("<｜DSML｜toolcalls>\n</｜DSML｜tool_calls>", None),
    ("<｜DSML｜toolcalls> then <｜DSML｜tool_calls>", "<｜DSML｜toolcalls> then "),
    ("<｜DSML｜" + "x" * 130 + "\n<｜DSML｜tool_calls>", "<｜DSML｜" + "x" * 130 + "\n"),
])
def test_a_damaged_tag_not_followed_by_a_call_is_shown_as_written(output, shown):
    events = parsed("deepseek_v4", output)
    assert events[0] == content(output if shown is None else shown)
    every_way("deepseek_v4", output, events)


def test_a_damaged_block_opener_ends_the_thought_as_the_block_opener_does():
    """In a thought the block's opener ends it (SPEC §3); so does its damaged form before a block
    or an invoke, dropped (vLLM's deepseek_v4 reads `<｜DSML｜toolcalls>` there as the block's
    opener). An invoke alone in a thought is the thought's text, and so is a damaged tag that no
    call follows."""
    prompt = "<｜Assistant｜><think>"
    output = "plan<｜DSML｜toolcalls>\n" + v4_invoke("f") + "\n" + V4_CALLS_END + "ok"
    every_way("deepseek_v4", output, [
        START_THOUGHT, reasoning("plan"), dropped("<｜DSML｜toolcalls>\n" + V4_INVOKE), END_THOUGHT,
        start(0, "f", 'f">'), arguments(0, "{}", ""), end(0, V4_INVOKE_END), dropped("\n" + V4_CALLS_END),
        content("ok"), finish(tool_calls=1),
    ], prompt=prompt)
    shown = "plan <｜DSML｜toolcalls> or not\n</think>x"
    every_way("deepseek_v4", shown, [
        START_THOUGHT, reasoning("plan <｜DSML｜toolcalls> or not\n"), dropped("</think>"), END_THOUGHT, content("x"),
        finish(),
    ], prompt=prompt)


def test_the_v3_2_block_in_v4():
    """V3.2's `<｜DSML｜function_calls>` is a damaged opener to deepseek_v4: dropped, the invoke read
    (as vLLM 0.33's test_function_calls_wrapper_is_not_recognized reads it; its older
    test_function_calls_block_is_not_accepted reads no call); V3.2's close after the call is a
    damaged close of the block, dropped, as vLLM drops it (shapes.damaged_closers)."""
    output = "<｜DSML｜function_calls>\n" + v4_invoke("search", query="vllm") + "\n</｜DSML｜function_calls>"
    events = parsed("deepseek_v4", output)
    assert events[0] == dropped("<｜DSML｜function_calls>\n" + V4_INVOKE)
    assert arguments_of(events) == {0: '{"query": "vllm"}'}
    assert events[-2] == dropped("\n</｜DSML｜function_calls>")
    every_way("deepseek_v4", output, events)


def test_every_dsml_table_drops_its_damaged_openers():
    for table, output in [
        ("deepseek_v4_1", "ok\n<｜DSML｜calls>\n" + CALLS + invoke("f") + CALLS_END),
        ("deepseek_v3_2", "ok\n<｜DSML｜functioncalls>\n" + v4_invoke("f")),
        ("gigachat35", 'ok\n<｜GCML｜toolcalls>\n<｜GCML｜tool_calls><｜GCML｜invoke name="f"></｜GCML｜invoke>'
                       "</｜GCML｜tool_calls>"),
    ]:
        events = parsed(table, output)
        assert events[0] == content("ok\n") and events[1]["kind"] == "dropped", table
        assert arguments_of(events) == {0: "{}"}, table
        every_way(table, output, events)


# --- a JSON object as an invoke's body ------------------------------------------------------------
# DeepSeek's DSML models sometimes write the arguments as a JSON object instead of parameter tags:
# when the first byte after the invoke tag that is not whitespace is `{`, the body is read as a
# JSON call's arguments (the model's bytes, as the prefix validator accepts them). SGLang's
# deepseekv32/v4 detectors read a body that starts with `{` as the arguments (json.loads, an object,
# else the invoke is dropped); vLLM's deepseek_v32/v4/v41 parsers read only parameter tags and give `{}`.

def test_a_json_body_is_the_arguments():
    # SGLang's test_optional_schema_validation_keeps_valid_arguments_unchanged: {"city": "SF"}
    output = ("<｜DSML｜tool_calls>\n" + V4_INVOKE + 'get_weather">\n{"city": "SF"}\n' + V4_INVOKE_END + "\n"
              + V4_CALLS_END)
    every_way("deepseek_v4", output, [
        dropped("<｜DSML｜tool_calls>\n" + V4_INVOKE), start(0, "get_weather", 'get_weather">'),
        arguments(0, '{"city": "SF"}', '\n{"city": "SF"}'), dropped("\n"), end(0, V4_INVOKE_END),
        dropped("\n" + V4_CALLS_END), finish(tool_calls=1),
    ])


@pytest.mark.parametrize("body", [
    "{}", '{"q": "日本 \\"x\\" \\\\ \\u00e9", "n": [1, 2.5e3, {"deep": [true, false, null]}]}',
    '{"code": "<｜DSML｜parameter name=\\"a\\" string=\\"true\\">x</｜DSML｜parameter>"}',
])
def test_a_json_body_streams_as_written(body):
    output = V4_INVOKE + 'f">\n' + body + "\n" + V4_INVOKE_END
    events = parsed("deepseek_v4", output)
    assert arguments_of(events) == {0: body}
    assert not [e for e in events if e["kind"] == "malformed"]
    every_way("deepseek_v4", output, events)


@pytest.mark.parametrize("body, want", [
    ("{'q': 'it\\'s', 'n': None, 'b': [True,],}", '{"q": "it\'s", "n": null, "b": [true]}'),
    ('{"a": 1,\n}', '{"a": 1\n}'),
])
def test_a_json_body_written_as_a_python_dict_or_with_a_trailing_comma(body, want):
    """As any JSON call's arguments (docs/recovery.md): written as JSON, the source as written."""
    output = V4_INVOKE + 'f">\n' + body + "\n" + V4_INVOKE_END
    events = parsed("deepseek_v4", output)
    assert arguments_of(events) == {0: want}
    assert not [e for e in events if e["kind"] == "malformed"]
    every_way("deepseek_v4", output, events)


def test_a_json_body_the_validator_refuses_is_invalid_from_there():
    """The validator is strict: the member whose value it refuses is undecided until then, and goes
    with the refusal; what was sent closes into one whole value."""
    output = V4_INVOKE + 'f">{"a": tru, "b": 1}' + V4_INVOKE_END
    every_way("deepseek_v4", output, [
        dropped(V4_INVOKE), start(0, "f", 'f">'), arguments(0, '{'),
        malformed('"a": tru, "b": 1}', "invalid_arguments"), arguments(0, "}", ""), end(0, V4_INVOKE_END),
        finish(tool_calls=1),
    ])


def test_after_a_json_body_only_whitespace_is_the_calls():
    output = V4_INVOKE + 'f">{"a": 1} then' + V4_PARAM + 'b" string="true">x' + V4_PARAM_END + "\n" + V4_INVOKE_END
    every_way("deepseek_v4", output, [
        dropped(V4_INVOKE), start(0, "f", 'f">'), arguments(0, '{"a": 1}'), dropped(" "),
        malformed("then", BETWEEN), malformed(V4_PARAM, OUT_OF_PLACE), malformed('b" string="true">x', BETWEEN),
        malformed(V4_PARAM_END, OUT_OF_PLACE),
        dropped("\n"), end(0, V4_INVOKE_END), finish(tool_calls=1),
    ])


@pytest.mark.parametrize("body", ['x {"a": 1}', '[{"a": 1}]'])
def test_only_an_object_first_is_a_json_body(body):
    output = V4_INVOKE + 'f">' + body + V4_INVOKE_END
    events = parsed("deepseek_v4", output)
    assert arguments_of(events) == {0: "{}"}
    assert "".join(e["text"]["text"] for e in events if e["kind"] == "malformed") == body
    every_way("deepseek_v4", output, events)


def test_a_json_body_after_a_parameter_is_text():
    output = V4_INVOKE + 'f">' + V4_PARAM + 'a" string="true">x' + V4_PARAM_END + '{"b": 1}' + V4_INVOKE_END
    events = parsed("deepseek_v4", output)
    assert arguments_of(events) == {0: '{"a": "x"}'} and malformed('{"b": 1}', BETWEEN) in events
    every_way("deepseek_v4", output, events)


@pytest.mark.parametrize("finish_reason", ["stop", "length"])
def test_a_json_body_cut_short_is_closed_unless_stopped_for_its_length(finish_reason):
    output = V4_INVOKE + 'f">\n{"a": "Par'
    closing = [arguments(0, '"}', "")] if finish_reason == "stop" else []
    check("deepseek_v4", output, [
        dropped(V4_INVOKE), start(0, "f", 'f">'), arguments(0, '{"a": "Par', '\n{"a": "Par'), *closing, end(0),
        finish(finish_reason, tool_calls=1),
    ], finish=finish_reason)
    closed = output + V4_CALLS_END + "ok"
    every_way("deepseek_v4", closed, [
        dropped(V4_INVOKE), start(0, "f", 'f">'), arguments(0, '{"a": "Par', '\n{"a": "Par'), arguments(0, '"}', ""),
        end(0), dropped(V4_CALLS_END), content("ok"), finish(tool_calls=1),
    ])


# A JSON body's arguments load in every client (issue 37: one whole strict JSON value in every
# message, the finish reason not `length`): the body is read as the JSON call assembler reads
# arguments, with its recoveries. It was read by the lenient validator and never closed: a raw
# newline went out unescaped, `{"a": 1,}` and `{"a": }` as written, `NaN` ended the arguments at
# `{"a": `, and a body a marker closed early (`{\n` then the invoke's end, a fast-tier failure of
# test_arguments_load_deepseek_v4_1) went out as `{\n`.

def strict_loads(text):
    def refuse(word):
        raise ValueError(f"not JSON: {word}")
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("table", ["deepseek_v3_2", "deepseek_v4", "deepseek_v4_1"])
@pytest.mark.parametrize("body,want", [
    ('{"cmd": "ls\n-la\t\x01"}', {"cmd": "ls\n-la\t\x01"}),
    ('{"x": NaN, "y": [Infinity, -Infinity], "z": 2}', {"x": "NaN", "y": ["Infinity", "-Infinity"], "z": 2}),
    ('{\n', {}),
    ('{"a": 1,}', {"a": 1}),
    ('{"a": }', {}),
    ('{"a": "\\q", "b": 2}', {"a": ""}),
    ('{"a": [1, {"b": "c', {"a": [1, {"b": "c"}]}),
    ('{"a": 1}  \n', {"a": 1}),
])
def test_a_json_body_loads_strictly(table, body, want):
    invoke = {"deepseek_v3_2": '<｜DSML｜invoke name="', "deepseek_v4": V4_INVOKE,
              "deepseek_v4_1": '<｜DSML｜ invoke name="'}[table]
    end_tag = {"deepseek_v3_2": "</｜DSML｜invoke>", "deepseek_v4": V4_INVOKE_END,
               "deepseek_v4_1": "</｜DSML｜ invoke>"}[table]
    output = invoke + 'bash">' + body + end_tag
    events = parsed(table, output)
    assert [e["name"] for e in events if e["kind"] == "tool_call_start"] == ["bash"]
    assert strict_loads(arguments_of(events)[0]) == want
    if "\n-la" in body or "NaN" in body:
        assert not [e for e in events if e["kind"] == "malformed"]
        assert body in "".join(e["source"]["text"] for e in events if e["kind"] == "tool_call_arguments")
    every_way(table, output, events)


@pytest.mark.parametrize("finish_reason", ["stop", "length"])
def test_a_json_body_with_the_recoveries_cut_anywhere(finish_reason):
    """Every prefix of a body with raw control characters and the words, the stream ending there:
    its arguments are what the JSON call assembler gives for the same prefix (closed, but for
    `length`), at every chunking."""
    body = '{"c": "a\n\tb", "v": [NaN, -Infinity], "n": -1.5}'
    for cut in range(1, len(body) + 1):
        output = V4_INVOKE + 'f">' + body[:cut]
        got = arguments_of(parsed("deepseek_v4", output, finish=finish_reason))[0]
        json_call = '<tool_call>\n{"name": "f", "arguments": ' + body[:cut]
        assert got == arguments_of(parsed("qwen2_5", json_call, finish=finish_reason))[0], body[:cut]
        check("deepseek_v4", output, parsed("deepseek_v4", output, finish=finish_reason), finish=finish_reason,
              every_split_up_to=20)


def test_every_dsml_table_reads_a_json_body():
    for table, output in [
        ("deepseek_v4_1", CALLS + INVOKE + 'f">\n{"a": [1]}\n' + INVOKE_END + CALLS_END),
        ("deepseek_v3_2", V4_INVOKE + 'f">{"a": [1]}' + V4_INVOKE_END),
        ("gigachat35", '<｜GCML｜tool_calls><｜GCML｜invoke name="f">{"a": [1]}</｜GCML｜invoke></｜GCML｜tool_calls>'),
    ]:
        events = parsed(table, output)
        assert arguments_of(events) == {0: '{"a": [1]}'}, table
        every_way(table, output, events)


def test_a_damaged_opener_held_in_a_thought_leaves_the_thought_open():
    """While a damaged tag written in the thought is held, the thought is still open: a fold of
    the next feed routes what it drops as the thought's, and a parser that fails then ends the
    thought."""
    damaged = "<｜DSML｜tool_calls-\n\n"
    output = "plan " + damaged + "<｜DSML｜tool_calls>\n" + v4_invoke("f") + "\n" + V4_CALLS_END
    engine = symphony.parser("deepseek_v4")
    engine.feed(Prompt("<｜Assistant｜><think>"))
    fields = FieldStream(engine, TOOL_THOUGHT_AS_CONTENT)
    shown = [fields.feed(c) for c in output] + [fields.end()]
    assert "".join(s[0] for s in shown if s and s[0]) == "plan " + damaged + "<｜DSML｜tool_calls>"
    failing = symphony.parser("deepseek_v4", buffer_limit=len(damaged) - 1)
    failing.feed(Prompt("<｜Assistant｜><think>"))
    with pytest.raises(symphony.BufferOverflowError):
        failing.feed(Delta("plan " + damaged))
    assert [type(e).__name__ for e in failing.feed(End("stop"))] == ["Malformed", "ReasoningEnd", "Finish"]


def test_spaced_tags_read_as_their_template_writes_them():
    # SGLang's DSML detectors read `<｜DSML｜invoke\s+name="…"\s*>` and `\s+string="…"\s*>`: a
    # whitespace-only tail is no attribute (typed by the tools), a tag name followed by anything
    # but whitespace and `name="` is no call tag
    v4 = "<｜DSML｜tool_calls>"
    output = (v4 + '<｜DSML｜invoke \n name="f"\t>' + '<｜DSML｜parameter  name="a" \n>1</｜DSML｜parameter>'
              + '<｜DSML｜parameter\rname="b"\r\nstring="true"\r\n>x</｜DSML｜parameter></｜DSML｜invoke>' + "</｜DSML｜tool_calls>")
    events = parsed("deepseek_v4", output)
    assert json.loads(arguments_of(events)[0]) == {"a": 1, "b": "x"}
    check("deepseek_v4", output, events)
    damaged = '<｜DSML｜invokes name="f">'
    events = parsed("deepseek_v4", "Hi " + damaged)
    assert arguments_of(events) == {}
    check("deepseek_v4", "Hi " + damaged, events)
