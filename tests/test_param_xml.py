"""The param-XML assembler (MiniCPM5) through `minicpm5`: bare `<function name="…">` calls in the
content, `<param name="…">` values typed by the request's tools (Python literals read), CDATA
sections as text, `</function>` as the call's end; each output at every chunking.
"""
import json

import pytest

from tests.wire import (END_THOUGHT, NO_CALL, START_THOUGHT, arguments, arguments_of, check, check_tokens, content,
                        dropped, end, finish, malformed, parsed, reasoning, shown_and_calls, start)

FUNCTION, FUNCTION_END = '<function name="', "</function>"
TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {
    "s": {"type": "string"}, "n": {"type": "integer"}, "l": {"type": "array"}}}}}]


def param(key, value):
    return f'<param name="{key}">{value}</param>'


def test_a_thought_content_and_a_call_typed_by_the_tools():
    output = ("<think>\nplan\n</think>\n\nChecking.\n" + FUNCTION + 'f">' + param("s", "12")
              + param("n", "007") + param("l", "['a', None]") + FUNCTION_END)
    check("minicpm5", output, [
        dropped("<think>"), START_THOUGHT, reasoning("\nplan\n"), dropped("</think>"), END_THOUGHT,
        content("\n\nChecking.\n"), dropped(FUNCTION),
        start(0, "f", 'f">'),
        arguments(0, '{"s": "', '<param name="s">'),
        arguments(0, "12"),
        arguments(0, '"', "</param>"),
        arguments(0, ', "n": 7', param("n", "007")),
        arguments(0, ', "l": ["a", null]', param("l", "['a', None]")),
        arguments(0, "}", ""),
        end(0, FUNCTION_END),
        finish(tool_calls=1),
    ], tools=TOOLS)


def test_cdata_is_text_and_holds_tags():
    output = FUNCTION + 'f">' + param("s", '<![CDATA[a "b" </param>]]]>') + FUNCTION_END
    check("minicpm5", output, [
        dropped(FUNCTION),
        start(0, "f", 'f">'),
        arguments(0, '{"s": "', '<param name="s">'),
        arguments(0, 'a \\"b\\" ', '<![CDATA[a "b" '),
        arguments(0, "</param>"),
        arguments(0, "]"),
        arguments(0, '"', "]]></param>"),
        arguments(0, "}", ""),
        end(0, FUNCTION_END),
        finish(tool_calls=1),
    ], tools=TOOLS)
    # CDATA in the middle of a value, and undeclared values inferred
    assert arguments_of(parsed("minicpm5", FUNCTION + 'g">' + param("a", "x<![CDATA[<b>]]>y") + param("b", "True")
                               + FUNCTION_END)) == {0: '{"a": "x<b>y", "b": true}'}


def test_an_arguments_element_around_the_parameters_is_the_calls_markup():
    """`<arguments>…</arguments>` around the parameters (vLLM's and SGLang's minicpm5 read the
    parameters in it): its tags between parameters are carried into the next event's source;
    inside a value they are its text; before the call's name they are no call's."""
    output = FUNCTION + 'f">\n<arguments>' + param("s", "a<arguments>") + param("n", "1") + "</arguments>\n" + FUNCTION_END
    check("minicpm5", output, [
        dropped(FUNCTION),
        start(0, "f", 'f">'),
        arguments(0, '{"s": "', '\n<arguments><param name="s">'),
        arguments(0, "a"),
        arguments(0, "<arguments>"),
        arguments(0, '"', "</param>"),
        arguments(0, ', "n": 1', param("n", "1")),
        arguments(0, "}", "</arguments>\n"),
        end(0, FUNCTION_END),
        finish(tool_calls=1),
    ], tools=TOOLS)
    assert arguments_of(parsed("minicpm5", FUNCTION + 'f"><arguments></arguments>' + FUNCTION_END)) == {0: "{}"}


def test_a_value_outside_cdata_is_xml_text():
    """MiniCPM5's template writes a string holding `<` or `&` in CDATA, so outside CDATA a
    character reference is the model's XML escape: its character in the value, before typing, its
    bytes the source; in CDATA, and an `&` that starts no reference, the text as written."""
    output = FUNCTION + 'f">' + param("s", "a &amp;&amp; b") + FUNCTION_END
    check("minicpm5", output, [
        dropped(FUNCTION),
        start(0, "f", 'f">'),
        arguments(0, '{"s": "', '<param name="s">'),
        arguments(0, "a "),
        arguments(0, "&", "&amp;"),
        arguments(0, "&", "&amp;"),
        arguments(0, " b"),
        arguments(0, '"', "</param>"),
        arguments(0, "}", ""),
        end(0, FUNCTION_END),
        finish(tool_calls=1),
    ], tools=TOOLS)
    output = (FUNCTION + 'f">' + param("s", "&lt;<![CDATA[&amp;]]>&#x41;&#66;&apos;&bogus; & &#0; &#1114112; &amp")
              + param("n", "&#52;2") + param("l", "[&quot;a&quot;]") + FUNCTION_END)
    events = parsed("minicpm5", output, tools=TOOLS)
    assert arguments_of(events) == {0: '{"s": "<&amp;AB\'&bogus; & &#0; &#1114112; &amp", "n": 42, "l": ["a"]}'}
    check("minicpm5", output, events, tools=TOOLS)
    # a reference the stream cut short is the text it is, whether the stream stopped or was cut
    for finish_reason in ("stop", "length"):
        cut = FUNCTION + 'f">' + '<param name="s">x &am'
        assert arguments_of(parsed("minicpm5", cut, tools=TOOLS, finish=finish_reason))[0].startswith('{"s": "x &am')
        check("minicpm5", cut, parsed("minicpm5", cut, tools=TOOLS, finish=finish_reason), tools=TOOLS,
              finish=finish_reason)


def test_a_param_tag_without_a_name_is_reported_and_the_call_keeps_the_rest():
    events = parsed("minicpm5", FUNCTION + 'f"><param>x</param>' + param("s", "y") + FUNCTION_END, tools=TOOLS)
    assert arguments_of(events) == {0: '{"s": "y"}'}
    assert [e for e in events if e["kind"] == "malformed"] == [
        malformed("<param>x", "text between a call's tags"), malformed("</param>", "a tag where the call's syntax has none")]


@pytest.mark.parametrize("tag, key", [
    ("<function name='f'>", "<param name='s'>"),       # vLLM's and SGLang's minicpm5 read these
    ("<function name='f' >", "<param name=s>"),
    ('<function name="f">', "<param name = 's' >"),
])
def test_names_written_loosely(tag, key):
    """A name's attribute single-quoted, or in a parameter tag also unquoted or spaced around its
    `=` (as a loose invoke's): vLLM's and SGLang's minicpm5 parsers read `name='…'`
    (`name=['"]…['"]`), and no unquoted or spaced one. The opener spelled with `'` is the call's
    first bytes."""
    output = "Checking. " + tag + key + "Paris</param>" + param("n", "3") + FUNCTION_END
    events = parsed("minicpm5", output, tools=TOOLS)
    assert [e["name"] for e in events if e["kind"] == "tool_call_start"] == ["f"]
    assert json.loads(arguments_of(events)[0]) == {"s": "Paris", "n": 3}
    check("minicpm5", output, events, tools=TOOLS)
    check_tokens("minicpm5", output, tools=TOOLS)


@pytest.mark.parametrize("output", ["<function name is a tag> here", "<function named='f'>x</function>",
                                    "a <function name= that is cut", "<function name=f>x</function>",
                                    "<function name='f' x</function>"])
def test_a_loose_opener_that_names_nothing_is_the_text_written(output):
    """What names no call (no opener, or one whose tag never closes) is shown, every byte."""
    events = parsed("minicpm5", output, tools=TOOLS)
    assert not [e for e in events if e["kind"] == "tool_call_start"]
    shown = "".join(e["text"] if e["kind"] == "content" else e["text"]["text"] for e in events
                    if e["kind"] in ("content", "malformed"))
    assert shown == output
    check("minicpm5", output, events, tools=TOOLS)


def test_a_cut_closes_the_string_unless_the_stream_was_stopped_for_its_length():
    check("minicpm5", FUNCTION + 'f">' + param("s", "Par")[:-8], [
        dropped(FUNCTION), start(0, "f", 'f">'), arguments(0, '{"s": "', '<param name="s">'), arguments(0, "Par"),
        end(0), finish("length", tool_calls=1),
    ], tools=TOOLS, finish="length")
    check("minicpm5", FUNCTION + 'f">' + param("s", "Par")[:-8], [
        dropped(FUNCTION), start(0, "f", 'f">'), arguments(0, '{"s": "', '<param name="s">'), arguments(0, "Par"),
        arguments(0, '"', ""), arguments(0, "}", ""), end(0), finish(tool_calls=1),
    ], tools=TOOLS)
    check("minicpm5", FUNCTION + 'f">' + param("s", "Par")[:-8] + FUNCTION_END, [
        dropped(FUNCTION), start(0, "f", 'f">'), arguments(0, '{"s": "', '<param name="s">'), arguments(0, "Par"),
        arguments(0, '"', ""), arguments(0, "}", ""), end(0, FUNCTION_END), finish(tool_calls=1),
    ], tools=TOOLS)


# -- Muse Glimmer: the same assembler under `atem:` tags, calls in messages ------------------------

NEXT = "<|eom|><|start|>assistant"
INVOKE, INVOKE_END = '<atem:invoke name="', "</atem:invoke>"
CALLS, CALLS_END = "<atem:function_calls>", "</atem:function_calls>"


def test_muse_messages_a_thought_a_call_and_the_answer():
    output = (" to=self<|message|>plan" + NEXT + " to=get_weather<|message|>" + CALLS + "\n" + INVOKE
              + 'get_weather">\n<atem:parameter name="city">Paris</atem:parameter>\n' + INVOKE_END + "\n"
              + CALLS_END + NEXT + " to=user<|message|>Done.")
    check("muse_glimmer", output, [
        dropped(" to=self<|message|>"), START_THOUGHT, reasoning("plan"), dropped("<|eom|>"), END_THOUGHT,
        dropped("<|start|>assistant"),
        # the tool's recipient header is the template's: dropped, and it takes no call index
        dropped(" to="), dropped("get_weather"), dropped("<|message|>"),
        dropped(CALLS), dropped("\n"), dropped(INVOKE),
        start(0, "get_weather", 'get_weather">'),
        arguments(0, '{"city": "', '\n<atem:parameter name="city">'),
        arguments(0, "Paris"),
        arguments(0, '"', "</atem:parameter>"),
        arguments(0, "}", "\n"),
        end(0, INVOKE_END),
        dropped("\n"), dropped(CALLS_END), dropped("<|eom|>"), dropped("<|start|>assistant"),
        dropped(" to=user<|message|>"), content("Done."),
        finish(tool_calls=1),
    ], tools=TOOLS + [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}}}}])


def test_muse_a_header_cut_short_or_a_message_of_text():
    # a tool's message that holds no call is the text the model wrote, its header included
    check("muse_glimmer", " to=get_wea", [
        malformed(" to=", NO_CALL), malformed("get_wea", "unterminated_region"), finish(),
    ])
    check("muse_glimmer", " to=get_weather<|message|>hello", [
        malformed(" to=get_weather<|message|>", NO_CALL),
        malformed("hello", "text between a block's calls"), finish(),
    ])


@pytest.mark.parametrize("value", [
    "a <function name=\"g\"> b",                       # vLLM's and SGLang's minicpm5 read it so
    "x = '<function name=\"g\"></parameter>'",         # a close of another spelling after it: text
    "a <function name=\"g\"> ]]> b",                   # a CDATA close with no section open: text
])
def test_a_call_opener_in_a_value_its_close_ends(value):
    output = f'<function name="f"><param name="a">{value}</param></function>'
    shown, calls = shown_and_calls("minicpm5", output)
    assert (shown, [(name, json.loads(args)) for name, args in calls]) == ("", [("f", {"a": value})])
