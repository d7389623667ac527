"""The invoke syntax with tool-typed parameters (`CallSyntax.invoke`) through
`minimax_m2` (values directly between the tags) and `dots3` (values on their own line): values
typed by the request's tools, the invoke close as ToolCallEnd, a parameter attribute reported
whole, names' attributes written loosely (`name='f'`, `name=f`, `name = "f"`); each output at every
chunking and a token at a time.
"""
import json

from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import Placement
import pytest

from tests.wire import (END_THOUGHT, START_THOUGHT, arguments, arguments_of, check, check_tokens, content, dropped,
                        end, finish, malformed, parsed, reasoning, shown_and_calls, start)

M2_CALLS, M2_CALLS_END = "<minimax:tool_call>", "</minimax:tool_call>"
DOTS_CALLS, DOTS_CALLS_END = "<dots_function_call>", "</dots_function_call>"
INVOKE, INVOKE_END = '<invoke name="', "</invoke>"
PARAM, PARAM_END = '<parameter name="', "</parameter>"
TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {
    "n": {"type": "integer"}, "s": {"type": "string"}, "o": {"type": "object"}}}}}]


def param(key, value, newline=""):
    return f'{PARAM}{key}">{newline}{value}{newline}{PARAM_END}'


def test_minimax_m2_fragments_typed_by_the_tools():
    output = ("thought\n</think>\n\n" + M2_CALLS + "\n" + INVOKE + 'f">\n' + param("s", "12") + "\n"
              + param("n", "007") + "\n" + INVOKE_END + "\n" + M2_CALLS_END)
    check("minimax_m2", output, [
        START_THOUGHT, reasoning("thought\n"), dropped("</think>"), END_THOUGHT, content("\n\n"),
        dropped(M2_CALLS), dropped("\n"), dropped(INVOKE),
        start(0, "f", 'f">'),
        arguments(0, '{"s": "', "\n" + PARAM + 's">'),
        arguments(0, "12", "12"),
        arguments(0, '"', PARAM_END),
        arguments(0, ', "n": 7', "\n" + PARAM + 'n">007' + PARAM_END),
        arguments(0, "}", "\n"),
        end(0, INVOKE_END),
        dropped("\n"), dropped(M2_CALLS_END),
        finish(tool_calls=1),
    ], tools=TOOLS, prompt="]~b]ai\n<think>\n")


def test_undeclared_values_are_inferred():
    output = M2_CALLS + INVOKE + 'g">' + param("a", "5") + param("b", "x y") + param("c", '{"k": [1]}') + INVOKE_END
    events = parsed("minimax_m2", output, tools=TOOLS)
    assert arguments_of(events) == {0: '{"a": 5, "b": "x y", "c": {"k": [1]}}'}
    check("minimax_m2", output, events, tools=TOOLS)


def test_dots_values_on_their_own_line():
    output = (DOTS_CALLS + "\n" + INVOKE + 'f">\n' + param("s", "Line one\nLine two \\", "\n") + "\n"
              + param("o", '{"a": 1}', "\n") + "\n" + param("n", "\n3\n", "\n") + "\n" + INVOKE_END + "\n"
              + DOTS_CALLS_END)
    events = parsed("dots3", output, tools=TOOLS)
    assert arguments_of(events) == {0: '{"s": "Line one\\nLine two \\\\", "o": {"a": 1}, "n": 3}'}
    check("dots3", output, events, tools=TOOLS)


def test_a_parameter_attribute_is_reported_whole():
    output = M2_CALLS + INVOKE + 'f">' + PARAM + 'n" string="true">1' + PARAM_END + INVOKE_END + M2_CALLS_END
    check("minimax_m2", output, [
        dropped(M2_CALLS), dropped(INVOKE), start(0, "f", 'f">'),
        malformed(PARAM + 'n" string="true">', "text after a tag's name"),
        malformed("1", "text between a call's tags"),
        malformed(PARAM_END, "a tag where the call's syntax has none"),
        arguments(0, "{}", ""), end(0, INVOKE_END), dropped(M2_CALLS_END), finish(tool_calls=1),
    ], tools=TOOLS)


def test_a_block_ends_the_thought_and_content_follows():
    output = "plan" + DOTS_CALLS + INVOKE + 'f">' + INVOKE_END + DOTS_CALLS_END + "done"
    check("dots3", output, [
        START_THOUGHT, reasoning("plan"), dropped(DOTS_CALLS), END_THOUGHT, dropped(INVOKE),
        start(0, "f", 'f">'), arguments(0, "{}", ""), end(0, INVOKE_END),
        dropped(DOTS_CALLS_END), content("done"), finish(tool_calls=1),
    ], prompt="<think>\n")


def test_minimax_m2_names_written_loosely():
    """A name's attribute single-quoted, unquoted, or with whitespace around its `=` and before the
    tag's end: the invoke opener spelled up to `name` is the call's first bytes (its start's
    source), the parameter tag's spelling its value's. vLLM's minimax_m2 reads `name='f'` and
    `name=f` in the invoke and any of these in a parameter; SGLang's minimax-m2 none (no call)."""
    output = (M2_CALLS + "\n<invoke name='f'>\n<parameter name = 'n' >7" + PARAM_END + "\n<parameter name=s>a b"
              + PARAM_END + "\n" + INVOKE_END + M2_CALLS_END)
    check("minimax_m2", output, [
        dropped(M2_CALLS), dropped("\n"), start(0, "f", "<invoke name='f'>"),
        arguments(0, '{"n": 7', "\n<parameter name = 'n' >7" + PARAM_END),
        arguments(0, ', "s": "', "\n<parameter name=s>"), arguments(0, "a b", "a b"), arguments(0, '"', PARAM_END),
        arguments(0, "}", "\n"), end(0, INVOKE_END), dropped(M2_CALLS_END), finish(tool_calls=1),
    ], tools=TOOLS)
    check_tokens("minimax_m2", output, tools=TOOLS)


@pytest.mark.parametrize("tag, name", [
    ("<invoke name=f>", "f"),
    ('<invoke name = "f" >', "f"),
    ("<invoke name=\tf\n>", "f"),
    ('<invoke name="f" >', "f"),           # the canonical opener, whitespace before the end
    ("<invoke name='a b'>", "a b"),        # quoted: to its quote
    ("<invoke name='f\">", None),          # no closing quote before the next tags: cut short
    ("<invoke name=>", None),              # no name
    ("<invoke named='f'>", None),          # no `=` after the attribute's name
])
def test_minimax_m2_invoke_tags_written_loosely(tag, name):
    output = M2_CALLS + tag + param("n", "1") + INVOKE_END + M2_CALLS_END
    events = parsed("minimax_m2", output, tools=TOOLS)
    assert [e["name"] for e in events if e["kind"] == "tool_call_start"] == ([name] if name else [])
    check("minimax_m2", output, events, tools=TOOLS)
    check_tokens("minimax_m2", output, tools=TOOLS)


def test_a_parameter_tag_without_its_equals_sign_has_no_name():
    output = M2_CALLS + INVOKE + 'f"><parameter named="n">1' + PARAM_END + INVOKE_END + M2_CALLS_END
    check("minimax_m2", output, [
        dropped(M2_CALLS), dropped(INVOKE), start(0, "f", 'f">'),
        malformed('<parameter named="n">', "a tag without a name"),
        malformed("1", "text between a call's tags"),
        malformed(PARAM_END, "a tag where the call's syntax has none"),
        arguments(0, "{}", ""), end(0, INVOKE_END), dropped(M2_CALLS_END), finish(tool_calls=1),
    ], tools=TOOLS)


def test_minimax_m2_invoke_without_its_block():
    """An invoke in the content is read in the prose (vLLM's minimax_m2 reads it, content `Hi`;
    SGLang's shows it all as content): the text after it, its space included, is the prose's, as
    the text before it is (vLLM drops it)."""
    output = "Hi " + "<invoke name=f>" + param("n", "1") + INVOKE_END + " bye"
    check("minimax_m2", output, [
        content("Hi "), start(0, "f", "<invoke name=f>"), arguments(0, '{"n": 1', param("n", "1")),
        arguments(0, "}", ""), end(0, INVOKE_END), content(" bye"), finish(tool_calls=1),
    ], tools=TOOLS)
    check_tokens("minimax_m2", output, tools=TOOLS)
    # the tag in prose with no name, no call: the text as written (vLLM's: content)
    output = "Write <invoke name> or <invoke name=> to call."
    events = parsed("minimax_m2", output, tools=TOOLS)
    assert not [e for e in events if e["kind"] == "tool_call_start"]
    check("minimax_m2", output, events, tools=TOOLS)


def test_dots_names_written_loosely():
    """dots' incumbent reads `name\\s*=\\s*` with the value quoted either way or not."""
    output = (DOTS_CALLS + "\n<invoke name = 'f'>\n<parameter name=n>\n3\n" + PARAM_END + "\n" + INVOKE_END + "\n"
              + DOTS_CALLS_END)
    events = parsed("dots3", output, tools=TOOLS)
    assert arguments_of(events) == {0: '{"n": 3}'}
    check("dots3", output, events, tools=TOOLS)
    check_tokens("dots3", output, tools=TOOLS)


def test_dots_a_missing_value_close_ends_at_the_next_parameter_tag():
    """Own-line: a parameter tag right after the value's last newline ends a value whose close
    tag is missing (the newline is the template's); written after other text, or after the
    opening newline alone, the tag ends it only when its key is new (one the call has not written
    and the schema names). (vLLM's and SGLang's dots parsers read the tag and the rest as the
    first value's text.)"""
    missing = DOTS_CALLS + INVOKE + 'f">\n' + PARAM + 's">\nx\n' + param("n", "3", "\n") + INVOKE_END + DOTS_CALLS_END
    events = parsed("dots3", missing, tools=TOOLS)
    assert arguments_of(events) == {0: '{"s": "x", "n": 3}'}
    check("dots3", missing, events, tools=TOOLS)
    check_tokens("dots3", missing, tools=TOOLS)
    # a value held whole (an integer) and one the tools do not type end the same way
    held = DOTS_CALLS + INVOKE + 'f">\n' + PARAM + 'n">\n3\n' + PARAM + 'u">\n\n' + param("s", "y", "\n") + INVOKE_END
    events = parsed("dots3", held, tools=TOOLS)
    assert arguments_of(events) == {0: '{"n": 3, "u": "", "s": "y"}'}
    check("dots3", held, events, tools=TOOLS)
    inline = DOTS_CALLS + INVOKE + 'f">\n' + PARAM + 's">\nx' + param("n", "3", "\n") + INVOKE_END
    events = parsed("dots3", inline, tools=TOOLS)
    assert arguments_of(events) == {0: '{"s": "x", "n": 3}'}
    check("dots3", inline, events, tools=TOOLS)
    again = DOTS_CALLS + INVOKE + 'f">\n' + PARAM + 's">\nx' + param("s", "3", "\n") + INVOKE_END
    events = parsed("dots3", again, tools=TOOLS)
    assert arguments_of(events) == {0: '{"s": "x' + PARAM.replace('"', '\\"') + 's\\">\\n3"}'}
    check("dots3", again, events, tools=TOOLS)



def test_minimax_m2_a_missing_value_close_ends_at_a_parameter_tag_after_a_newline():
    """Values written directly between the tags: a parameter tag right after a newline in a value
    ends it when its close tag is missing, the newline staying the value's (vLLM's minimax_m2
    parser reads `{"city": "Paris\\n", "days": 3}`); right after other text it ends it only when its
    key is new, as vLLM's minimax_m2 reads it."""
    missing = (M2_CALLS + "\n" + INVOKE + 'f">\n' + PARAM + 's">Paris\n' + param("n", "3") + "\n" + INVOKE_END
               + "\n" + M2_CALLS_END)
    events = parsed("minimax_m2", missing, tools=TOOLS)
    assert arguments_of(events) == {0: '{"s": "Paris\\n", "n": 3}'}
    assert not [e for e in events if e["kind"] == "malformed"]
    check("minimax_m2", missing, events, tools=TOOLS)
    check_tokens("minimax_m2", missing, tools=TOOLS)
    # a value held whole (an integer) ends the same way, and so does the last before the invoke close
    held = M2_CALLS + INVOKE + 'f">' + PARAM + 'n">3\n' + PARAM + 's">x\n' + INVOKE_END + M2_CALLS_END
    events = parsed("minimax_m2", held, tools=TOOLS)
    assert arguments_of(events) == {0: '{"n": 3, "s": "x\\n"}'}
    check("minimax_m2", held, events, tools=TOOLS)
    check_tokens("minimax_m2", held, tools=TOOLS)
    inline = M2_CALLS + INVOKE + 'f">' + PARAM + 's">x' + param("n", "3") + INVOKE_END + M2_CALLS_END
    events = parsed("minimax_m2", inline, tools=TOOLS)
    assert arguments_of(events) == {0: '{"s": "x", "n": 3}'}
    check("minimax_m2", inline, events, tools=TOOLS)
    undeclared = M2_CALLS + INVOKE + 'f">' + PARAM + 's">x' + param("q", "3") + INVOKE_END + M2_CALLS_END
    events = parsed("minimax_m2", undeclared, tools=TOOLS)
    assert arguments_of(events) == {0: '{"s": "x' + PARAM.replace('"', '\\"') + 'q\\">3"}'}
    check("minimax_m2", undeclared, events, tools=TOOLS)


def test_a_misspelled_value_close_before_the_next_parameter_is_its_close():
    """A value's close misspelled (`</parameter1>`) or cut short (`</parameter`), with only whitespace
    between it and a parameter tag that ends the value or the invoke close, is the value's close:
    its bytes and that whitespace are the closing fragment's source; any text after it, another
    tag or the stream's end leave it the value's text."""
    output = (M2_CALLS + "\n" + INVOKE + 'f">\n' + PARAM + 's">Paris</parameter1>\n' + param("n", "3") + "\n"
              + INVOKE_END + "\n" + M2_CALLS_END)
    check("minimax_m2", output, [
        dropped(M2_CALLS), dropped("\n"), dropped(INVOKE),
        start(0, "f", 'f">'),
        arguments(0, '{"s": "', "\n" + PARAM + 's">'),
        arguments(0, "Paris", "Paris"),
        arguments(0, '"', "</parameter1>\n"),
        arguments(0, ', "n": 3', PARAM + 'n">3' + PARAM_END),
        arguments(0, "}", "\n"),
        end(0, INVOKE_END),
        dropped("\n"), dropped(M2_CALLS_END),
        finish(tool_calls=1),
    ], tools=TOOLS)
    check_tokens("minimax_m2", output, tools=TOOLS)
    for close, value in (("</parameter", '"Paris"'), ("</parameter_invoke>", '"Paris"'), ("</parameter >", '"Paris"'),
                         ("</parameter > x", '"Paris</parameter > x\\n"'),
                         ("</parameter1>x", '"Paris</parameter1>x\\n"'), ("</param>", '"Paris</param>\\n"')):
        cut = M2_CALLS + INVOKE + 'f">' + PARAM + 's">Paris' + close + "\n" + INVOKE_END + M2_CALLS_END
        events = parsed("minimax_m2", cut, tools=TOOLS)
        assert arguments_of(events) == {0: '{"s": ' + value + '}'}, close
        check("minimax_m2", cut, events, tools=TOOLS)
    held = M2_CALLS + INVOKE + 'f">' + PARAM + 'n">3</parameter1>\n' + INVOKE_END + M2_CALLS_END
    events = parsed("minimax_m2", held, tools=TOOLS)
    assert arguments_of(events) == {0: '{"n": 3}'}      # (a value held whole closes the same way)
    check("minimax_m2", held, events, tools=TOOLS)
    at_end = M2_CALLS + INVOKE + 'f">' + PARAM + 's">Paris</parameter1>\n'
    events = parsed("minimax_m2", at_end, tools=TOOLS)
    assert arguments_of(events) == {0: '{"s": "Paris</parameter1>\\n"}'}
    check("minimax_m2", at_end, events, tools=TOOLS)


HEAD = "<|channel|>analysis <|constrain|>xml<|message|>"
RFL, RFL_END = '<rfl:parameter name="', "</rfl:parameter>"
NAMED_BY_HEADER = (Format("named_by_header")
                   .terminal("recipient", " to=").terminal("call", "<|call|>")
                   .state("between", Emits.CONTENT).state("call", Emits.ARGUMENTS)
                   .transition("between", "recipient", "call").transition("call", "call", "between")
                   .calls(CallSyntax.invoke(Placement.OWN_LINE, parameter=RFL, parameter_close=RFL_END,
                                            invoke_close="<|call|>", head_end=HEAD)))


def test_a_call_named_in_a_header():
    """`head_end`: the region starts with the call's name, unquoted, and the head tag ends it
    (Beam's ` to=NAME<|channel|>analysis <|constrain|>xml<|message|>`); parameter tags still end
    at `>`, and the head tag anywhere else is a value's text or a tag out of place."""
    output = " to=f" + HEAD + RFL + 's">\nx' + HEAD + "\n" + RFL_END + HEAD + "<|call|>"
    check(NAMED_BY_HEADER, output, [
        dropped(" to="), start(0, "f", "f" + HEAD),
        arguments(0, '{"s": "', RFL + 's">'), arguments(0, "x", "\nx"), arguments(0, HEAD, HEAD),
        arguments(0, '"', "\n" + RFL_END),
        malformed(HEAD, "a tag where the call's syntax has none"),
        arguments(0, "}", ""), end(0, "<|call|>"), finish(tool_calls=1),
    ], tools=TOOLS)
    check_tokens(NAMED_BY_HEADER, output, tools=TOOLS)
    # the name runs to whitespace: what follows it in the header is text after it
    spaced = " to=f g" + HEAD + "<|call|>"
    check(NAMED_BY_HEADER, spaced, [
        dropped(" to="), start(0, "f", "f"), malformed(" g", "text after a tag's name"),
        arguments(0, "{}", HEAD), end(0, "<|call|>"), finish(tool_calls=1),
    ])
    # a header with no name, or none at all, starts no call
    for cut in (" to=" + HEAD + "<|call|>", " to=f<|call|>"):
        events = parsed(NAMED_BY_HEADER, cut)
        assert not [e for e in events if type(e).__name__ == "ToolCallStart"]
        check(NAMED_BY_HEADER, cut, events)


def test_the_syntax_value():
    assert CallSyntax.invoke(Placement.OWN_LINE) == CallSyntax.invoke("own_line")
    assert CallSyntax.invoke() != CallSyntax.invoke(Placement.OWN_LINE)
    assert CallSyntax.invoke().invoke_close == INVOKE_END
    assert CallSyntax.invoke(loose=True) != CallSyntax.invoke()
    assert CallSyntax.invoke(head_end=HEAD) != CallSyntax.invoke()
    with pytest.raises(ValueError):
        CallSyntax.invoke(head_end="")
    with pytest.raises(ValueError):
        CallSyntax.invoke(head_end=HEAD, loose=True)
    with pytest.raises(ValueError):
        CallSyntax.invoke(parameter="<p>", loose=True)


@pytest.mark.parametrize("table,value,read", [
    # the opener in a value its close ends: the value's text (vLLM's minimax_m2 and deepseek_v32 too)
    ("minimax_m2", "s = '<invoke name=\"g\">'\n", "s = '<invoke name=\"g\">'\n"),
    ("deepseek_v3_2", "a <｜DSML｜invoke name=\"g\"> b", "a <｜DSML｜invoke name=\"g\"> b"),
    # tags that open no parameter after it are text: a misspelled close, another spelling
    ("minimax_m2", "html = '<invoke name=\"g\"></parameters>'", "html = '<invoke name=\"g\"></parameters>'"),
    # a parameter tag whose key the opener cuts off is the value's text, and the opener with it
    ("minimax_m2", "a <parameter name=\"ci<invoke name=\"g\"> b", "a <parameter name=\"ci<invoke name=\"g\"> b"),
])
def test_a_call_opener_in_a_value_its_close_ends(table, value, read):
    head = {"minimax_m2": ('<minimax:tool_call>\n<invoke name="f">\n<parameter name="a">', "</parameter>\n</invoke>\n"
                                                                                          "</minimax:tool_call>"),
            "deepseek_v3_2": ('<｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="a" '
                              'string="true">', "</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>")}
    opened, closed = head[table]
    shown, calls = shown_and_calls(table, opened + value + closed)
    assert (shown, [(name, json.loads(args)) for name, args in calls]) == ("", [("f", {"a": read})])


def test_a_call_opener_in_a_value_whose_close_is_missing_is_the_next_call():
    output = ('<minimax:tool_call>\n<invoke name="f">\n<parameter name="a">x\n<invoke name="g">\n'
              '<parameter name="b">1</parameter>\n</invoke>\n</minimax:tool_call>')
    shown, calls = shown_and_calls("minimax_m2", output)
    assert (shown, [(name, json.loads(args)) for name, args in calls]) == ("", [("f", {"a": "x\n"}), ("g", {"b": 1})])
