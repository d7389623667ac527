"""The Gemma assembler through `gemma4`: Gemma's object notation converted to JSON as it is read
(structure byte by byte, strings streamed, bare scalars whole and typed by the declared tools),
the call ending with its object's `}`, a string written without its opening quote read up to its
closing one, the first byte the notation cannot take and the rest of the call
Malformed{InvalidArguments}, a marker closing what is open; each output at every chunking.
"""
import pytest

from symphony import Delta, End, parser

from tests.wire import (END_THOUGHT, NO_CALL, START_THOUGHT, arguments, arguments_of, check, check_tokens, content,
                        dropped, end, finish, malformed, parsed, reasoning, start)

Q = '<|"|>'
CALL, CALL_END = "<|tool_call>", "<tool_call|>"
THOUGHT, THOUGHT_END = "<|channel>thought", "<channel|>"
CUT = "an argument the call's end cut short"
NAME = "text where the call's name should be"
TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {
    "s": {"type": "string"}, "n": {"type": "integer"}, "l": {"type": "array", "items": {"type": "string"}},
    "o": {"type": "object", "properties": {"k": {"type": "integer"}}}}}}}]


def test_a_thought_then_a_call_then_content():
    output = (THOUGHT + "\nplan\n" + THOUGHT_END + CALL + "call:get_weather{city:" + Q + "Paris" + Q
              + ",days:3}" + CALL_END + "Checking.")
    check("gemma4", output, [
        dropped(THOUGHT), START_THOUGHT, reasoning("\nplan\n"), dropped(THOUGHT_END), END_THOUGHT,
        dropped(CALL),
        start(0, "get_weather", "call:get_weather"),
        arguments(0, '{"city": "Paris", "days": 3}', "{city:" + Q + "Paris" + Q + ",days:3}"),
        end(0),
        dropped(CALL_END),
        content("Checking."),
        finish(tool_calls=1),
    ])


def test_strings_stream_as_they_come():
    """Each piece goes out when it arrives; a quote's start waits until it is one or is text."""
    got = []
    p = parser("gemma4")
    for piece in (CALL + "call:f{a:" + Q + "Pa", "ris <|", '"x', "|>" + Q + "}", CALL_END):
        got += [e.to_dict() for e in p.feed(Delta(piece))]
    got += [e.to_dict() for e in p.feed(End("stop"))]
    assert [e["json"] for e in got if e["kind"] == "tool_call_arguments"] == [
        '{"a": "Pa', "ris ", '<|\\"x', '|>"}']


def check_call_f(output, want):
    """`output` is one call of `f` (`call:f` after CALL), its arguments `want`, their source the
    bytes from the head to CALL_END."""
    check("gemma4", output, [
        dropped(CALL), start(0, "f", "call:f"), arguments(0, want, output[len(CALL) + 6:-len(CALL_END)]), end(0),
        dropped(CALL_END), finish(tool_calls=1),
    ], tools=TOOLS)


def test_values_are_typed_where_they_stand():
    output = CALL + "call:f{s:5,n:007,l:[x,5],o:{k:+3,z:True},u:None,w:hello world}" + CALL_END
    check_call_f(output,
                 '{"s": "5", "n": 7, "l": ["x", "5"], "o": {"k": 3, "z": true}, "u": null, "w": "hello world"}')


@pytest.mark.parametrize("body,want,bad", [
    ("{a:,b:1}", '{}', "a:,b:1}"),
    ("{a:[1}}", '{"a": [1]}', "}}"),
    ("{a b}", "{}", "a b}"),
    ("{a" + Q + ":1}", "{}", "a" + Q + ":1}"),     # a quote in a bare key (a quoted key is read: below)
    ("{a:" + Q + "x" + Q + "y,b:1}", '{"a": "x"}', "y,b:1}"),
    ("{a:1[2]}", "{}", "a:1[2]}"),
    # a scalar an object's `,` ended is one, and what follows its `,` no key, as ever
    ("{a:x, y}", '{"a": "x"}', ", y}"),
    ("{a:x, y, z:1}", '{"a": "x"}', ", y, z:1}"),
    ("{a:x,,b:1}", '{"a": "x"}', ",,b:1}"),
])
def test_the_first_byte_the_notation_cannot_take_and_the_rest_are_invalid(body, want, bad):
    events = parsed("gemma4", CALL + "call:f" + body + CALL_END)
    assert arguments_of(events) == {0: want}
    assert "".join(e["text"]["text"] for e in events if e["kind"] == "malformed") == bad
    assert all(e["why"] == "invalid_arguments" for e in events if e["kind"] == "malformed")
    assert events[-2:] == [dropped(CALL_END), finish(tool_calls=1)]


def test_a_string_without_its_opening_quote_runs_to_its_closing_one():
    """A bare value that a quote closes before the value's end is a string (docs/recovery.md): in an
    object its commas are its own text, in a list a comma ends a value."""
    output = CALL + "call:f{n:5, s:Paris, France" + Q + ",l:[a,b" + Q + "],o:{k:1,z:c" + Q + "}}" + CALL_END
    check_call_f(output, '{"n": 5, "s": "Paris, France", "l": ["a", "b"], "o": {"k": 1, "z": "c"}}')
    check_tokens("gemma4", output, tools=TOOLS)


def test_a_key_between_quotes_is_the_key():
    """A quote where a key starts opens a quoted key, its text up to the next quote, then on to
    its `:` as a bare key (docs/recovery.md); after a held scalar's `,` too."""
    output = f"{CALL}call:f{{{Q}a{Q}:1,{Q}b{Q} :{Q}x{Q},c:{{{Q}d{Q}:2}}}}{CALL_END}"
    check_call_f(output, '{"a": 1, "b": "x", "c": {"d": 2}}')
    check_tokens("gemma4", output, tools=TOOLS)


def test_arguments_between_parentheses_close_at_their_parenthesis():
    """`call:NAME(…)`: the `(` opens the arguments object and the `)` at its depth closes it, as
    the object's `}` does; a `)` in a string is its text, as is one in a `{…}` call's bare value."""
    output = f"{CALL}call:f(a:1,b:{Q}x (y){Q},c:{{d:2}}){CALL_END}"
    check_call_f(output, '{"a": 1, "b": "x (y)", "c": {"d": 2}}')
    check_tokens("gemma4", output, tools=TOOLS)
    assert arguments_of(parsed("gemma4", CALL + "call:f()" + CALL_END)) == {0: "{}"}
    assert arguments_of(parsed("gemma4", CALL + "call:f{a:1)}" + CALL_END)) == {0: '{"a": "1)"}'}


def test_a_scalar_an_objects_comma_ends_waits_for_the_next_key():
    """It goes out at the next key's `:` (or as a string's text at a quote), never at its `,`."""
    got = []
    p = parser("gemma4")
    for piece in (CALL + "call:f{n:5,", " s:Paris,", " France" + Q, ", m:1,", " k:2}" + CALL_END):
        got.append([e.to_dict()["json"] for e in p.feed(Delta(piece)) if e.to_dict()["kind"] == "tool_call_arguments"])
    assert got == [["{"], ['"n": 5'], [', "s": "Paris, France"'], [], [', "m": 1, "k": 2}']]


def test_a_marker_closes_what_is_open_and_reports_what_it_cut():
    """A bare scalar the marker ends is whole, as the `}` would end it; a key it cuts is reported."""
    check("gemma4", CALL + "call:f{a:{b:[1,2" + CALL_END, [
        dropped(CALL),
        start(0, "f", "call:f"),
        arguments(0, '{"a": {"b": [1', "{a:{b:[1"),
        arguments(0, ", 2]}}", ",2"),
        end(0),
        dropped(CALL_END),
        finish(tool_calls=1),
    ])
    check("gemma4", CALL + "call:f{a:{b:[1,2],c" + CALL_END, [
        dropped(CALL),
        start(0, "f", "call:f"),
        arguments(0, '{"a": {"b": [1, 2]', "{a:{b:[1,2]"),
        malformed(",c", CUT),
        arguments(0, "}}", ""),
        end(0),
        dropped(CALL_END),
        finish(tool_calls=1),
    ])
    check("gemma4", CALL + "call:f{a:" + Q + "Par" + CALL_END, [
        dropped(CALL), start(0, "f", "call:f"), arguments(0, '{"a": "Par', "{a:" + Q + "Par"),
        arguments(0, '"}', ""), end(0), dropped(CALL_END), finish(tool_calls=1),
    ])


def test_a_cut_closes_what_is_open_unless_the_stream_was_stopped_for_its_length():
    check("gemma4", CALL + "call:f{a:" + Q + "Par", [
        dropped(CALL), start(0, "f", "call:f"), arguments(0, '{"a": "Par', "{a:" + Q + "Par"), arguments(0, '"}', ""),
        end(0), finish(tool_calls=1),
    ])
    check("gemma4", CALL + "call:f{a:1", [
        dropped(CALL), start(0, "f", "call:f"), arguments(0, "{"), malformed("a:1", "unterminated_region"),
        arguments(0, "}", ""), end(0), finish(tool_calls=1),
    ])
    check("gemma4", CALL + "call:f{a:" + Q + "Par", [
        dropped(CALL), start(0, "f", "call:f"), arguments(0, '{"a": "Par', "{a:" + Q + "Par"), end(0),
        finish("length", tool_calls=1),
    ], finish="length")
    check("gemma4", CALL + "call:f{a:1", [
        dropped(CALL), start(0, "f", "call:f"), arguments(0, "{"), malformed("a:1", "unterminated_region"), end(0),
        finish("length", tool_calls=1),
    ], finish="length")


def test_heads_that_name_no_call():
    # a region that starts no call is the text the model wrote, its markers included
    check("gemma4", CALL + "junk" + CALL_END, [
        malformed(CALL, NO_CALL), malformed("junk", "a tool-call block that closed without a complete call"),
        malformed(CALL_END, NO_CALL), finish(),
    ])
    check("gemma4", CALL + "call:get weather{a:1}" + CALL_END, [
        malformed(CALL, NO_CALL), malformed("call:get weather{a:1}", NAME), malformed(CALL_END, NO_CALL), finish(),
    ])
    check("gemma4", CALL + "get_weather{}" + CALL_END, [
        dropped(CALL), start(0, "get_weather", "get_weather"), arguments(0, "{}"), end(0), dropped(CALL_END),
        finish(tool_calls=1),
    ])
    check("gemma4", CALL + ":{}" + CALL_END, [
        malformed(CALL, NO_CALL), malformed(":{}", NAME), malformed(CALL_END, NO_CALL), finish(),
    ])


@pytest.mark.parametrize("head, name", [
    ("call:get_weather", "get_weather"), (":get_weather", "get_weather"), ("get_weather", "get_weather"),
    (" call : get_weather ", "get_weather"), ("\n:get_weather", "get_weather"), ("call:call:f", "call:f"),
    ("::f", ":f"), ("call", "call"), ("call:call", "call"), ("callback", "callback"), ("caller:f", "caller:f"),
    ("Call:f", "Call:f"),
])
def test_the_heads_call_prefix_may_be_missing_whole_or_its_word_only(head, name):
    """`call:NAME`, `:NAME` (vLLM's gemma4 reads it) and `NAME` name the same call; `call` that no
    `:` follows is the name's own text; the head is the call's start's source."""
    check("gemma4", CALL + head + "{}" + CALL_END, [
        dropped(CALL), start(0, name, head), arguments(0, "{}"), end(0), dropped(CALL_END), finish(tool_calls=1),
    ])


def test_text_after_the_object_is_the_engines():
    check("gemma4", CALL + "call:f{} x" + CALL_END, [
        dropped(CALL), start(0, "f", "call:f"), arguments(0, "{}"), end(0), dropped(" "),
        malformed("x", "text between a call's object and its closing marker"), dropped(CALL_END),
        finish(tool_calls=1),
    ])


def test_nesting_stops_where_the_prefix_validator_does():
    deepest = "call:f{" + "a:{" * 31 + "a:1" + "}" * 32
    assert arguments_of(parsed("gemma4", CALL + deepest + CALL_END)) == {0: '{"a": ' * 32 + "1" + "}" * 32}
    too_deep = parsed("gemma4", CALL + "call:f{" + "a:{" * 32 + "a:1" + "}" * 33 + CALL_END)
    assert [e["why"] for e in too_deep if e["kind"] == "malformed"] == ["invalid_arguments"]
