"""The pythonic assembler (SPEC §5.9) through `olmo3` (one call per line) and `lfm2_5` (a Python
list): names, keyword arguments, values through the Python-literal reader, positional arguments
and other shapes reported with their reasons, `close()` against `finish()`; each output at every
chunking.
"""
import pytest

from tests.common import runs
from tests.wire import NO_CALL, arguments, arguments_of, check, content, dropped, end, finish, malformed, parsed, start

NOT_A_CALL = "text where a call should begin"
NO_CALL = "a name without a call"
NOT_AN_ARGUMENT = "text where an argument should begin"
NO_VALUE = "a key without a value"
CUT = "an argument the call's end cut short"
LFM, LFM_END = "<|tool_call_start|>", "<|tool_call_end|>"
OLMO, OLMO_END = "<function_calls>", "</function_calls>"


def test_a_list_of_calls_fragment_by_fragment():
    output = LFM + "[get_weather(city='Paris', days=3), ping()]" + LFM_END
    check("lfm2_5", output, [
        dropped(LFM), dropped("["),
        start(0, "get_weather", "get_weather("),
        arguments(0, '{"city": "Paris"', "city='Paris'"),
        arguments(0, ', "days": 3', ", days=3"),
        arguments(0, "}", ""),
        end(0, ")"),
        dropped(", "),
        start(1, "ping", "ping("), arguments(1, "{}", ""), end(1, ")"),
        dropped("]"), dropped(LFM_END),
        finish(tool_calls=2),
    ])


def test_one_call_per_line():
    output = OLMO + 'get_weather(city="Paris")\nget_time(zone = "UTC" , precise=True)\n' + OLMO_END
    events = parsed("olmo3", output)
    assert arguments_of(events) == {0: '{"city": "Paris"}', 1: '{"zone": "UTC", "precise": true}'}
    check("olmo3", output, events)


@pytest.mark.parametrize("text,json", [
    ("'x'", '"x"'), ('"a\\nb"', '"a\\nb"'), ("None", "null"), ("True", "true"), ("[1, (2, 3)]", "[1, [2, 3]]"),
    ("{'a': 1, 2: 'b'}", '{"a": 1, "2": "b"}'), ("1_000", "1000"), ("-1.5e3", "-1.5e3"), ("1e400", '"1e400"'),
    ("os.getcwd()", '"os.getcwd()"'), ("'a, b)'", '"a, b)"'), ("x[1]", '"x[1]"'), ("  7 ", "7"),
    ('{"deep": [1, 2.5, true, null]}', '{"deep": [1, 2.5, true, null]}')])
def test_values_through_the_python_literal_reader(text, json):
    output = OLMO + f"f(v={text})" + OLMO_END
    events = parsed("olmo3", output)
    assert arguments_of(events) == {0: '{"v": ' + json + "}"}
    check("olmo3", output, events)


def test_positional_arguments_and_other_shapes_are_reported():
    output = OLMO + "f(1, *args, b=2)" + OLMO_END
    events = parsed("olmo3", output)
    assert malformed("1", NO_VALUE) in events
    # (the space between two Malformed runs is theirs)
    assert malformed(", *", NOT_AN_ARGUMENT) in events and malformed("args", NO_VALUE) in events
    assert arguments_of(events) == {0: '{"b": 2}'}
    check("olmo3", output, events)


def test_text_where_a_call_should_begin_and_a_name_without_a_call():
    output = OLMO + "- f(a=1)\nnot a call\n" + OLMO_END
    events = parsed("olmo3", output)
    assert malformed("-", NOT_A_CALL) in events
    assert malformed("not a call\n", NO_CALL) in runs(events)
    assert arguments_of(events) == {0: '{"a": 1}'}
    check("olmo3", output, events)


def test_the_block_closing_cuts_a_call_short():
    for body, reason in (("f(a=1, b='x", CUT), ("f(a=1, b", NO_VALUE), ("f(a=1, ", None), ("g", NO_CALL)):
        output = OLMO + body + OLMO_END
        events = parsed("olmo3", output)
        if reason:
            assert reason in [e["why"]["other"] for e in events if e["kind"] == "malformed"], body
        if body.startswith("f"):
            assert arguments_of(events) == {0: '{"a": 1}'} and end(0) in events
        check("olmo3", output, events)


def test_a_stream_cut_inside_a_call_still_ends_it():
    check("olmo3", OLMO + "f(a=1, b=[1, 2", [
        dropped(OLMO), start(0, "f", "f("), arguments(0, '{"a": 1', "a=1"),
        malformed(", b=[1, 2", "unterminated_region"), end(0), finish("length", tool_calls=1),
    ], finish="length")


def test_a_thought_before_the_calls():
    output = "<think>plan</think>" + LFM + "[f()]" + LFM_END + "done"
    events = parsed("lfm2_5", output)
    assert arguments_of(events) == {0: "{}"} and content("done") in events
    check("lfm2_5", output, events)
    assert parsed("lfm2.5", output) == events


# --- a leading call list (`pythonic`, Llama 4; issue 11) --------------------------------------

def test_a_leading_list_is_read_and_what_follows_it_reported():
    output = " [get_weather(city='LA'), ping()] \nok"
    check("pythonic", output, [
        dropped(" ["), start(0, "get_weather", "get_weather("), arguments(0, '{"city": "LA"', "city='LA'"),
        arguments(0, "}", ""), end(0, ")"), dropped(", "),
        start(1, "ping", "ping("), arguments(1, "{}", ""), end(1, ")"),
        dropped("] \n"), malformed("ok", "text after the list's end"), finish(tool_calls=2),
    ])


@pytest.mark.parametrize("output", [
    "[1, 2] are the first two primes.", "[see below]", "[link](http://x.org)", "Sure: [f(a=1)]",
    "[[f(a=1)]]", "[1f(a=1)]", "[ f g(a=1)]", " \n[", "[get_wea", "",
])
def test_content_that_starts_like_a_list_stays_content(output):
    """The list opens only where the output starts with `[`, a name and its `(`: anything else is
    content, every byte, held until that is decided."""
    events = parsed("pythonic", output)
    assert not [e for e in events if e["kind"] == "tool_call_start"]
    assert "".join(e["text"] for e in events if e["kind"] == "content") == output
    check("pythonic", output, events)


def test_llama4_python_region():
    output = "Checking. <|python_start|>[f(a=1)]<|python_end|> Done."
    check("llama4_pythonic", output, [
        content("Checking. "), dropped("<|python_start|>"), dropped("["), start(0, "f", "f("),
        arguments(0, '{"a": 1', "a=1"), arguments(0, "}", ""), end(0, ")"), dropped("]"),
        dropped("<|python_end|>"), content(" Done."), finish(tool_calls=1),
    ])
