"""The pythonic assembler (SPEC §5.9) through `olmo3` (one call per line), `lfm2_5` (a Python
list) and `pythonic` (prose with call lists in it): names, keyword arguments, values through the
Python-literal reader as Python reads a call's arguments, positional arguments and other shapes
reported with their reasons, `close()` against `finish()`; a call held until its `)` and no
call when anything in it does not read (or it is cut short); call lists in prose; LFM2's slips
and JSON call objects. Each output whole, at every chunking and per token; a recovery's test says
what the incumbents (vLLM's and SGLang's parsers) read.
"""
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests import tiers
from tests.common import runs
from tests.wire import (NO_CALL, arguments, arguments_of, check, check_per_token, content, dropped, end, finish,
                        malformed, parsed, shown_and_calls, start)

NOT_A_CALL = "text where a call should begin"
NO_CALL = "a name without a call"
NOT_AN_ARGUMENT = "text where an argument should begin"
NO_VALUE = "a key without a value"
CUT = "an argument the call's end cut short"
LFM, LFM_END = "<|tool_call_start|>", "<|tool_call_end|>"
OLMO, OLMO_END = "<function_calls>", "</function_calls>"
NO_ONE_READING = "a string that no one reading closes"
NOT_A_DICT = "an unpacked argument that is no dict"
NOT_A_LITERAL = "an argument whose value is no literal"
REGION = "a tool-call region that held no call"
INVALID = "invalid_arguments"
CUT_OFF = "unterminated_region"


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
    ("{'a': 1, 2: 'b'}", '{"a": 1, "2": "b"}'), ("1_000", "1000"), ("-1.5e3", "-1.5e3"), ("'a, b)'", '"a, b)"'),
    ("  7 ", "7"), ('{"deep": [1, 2.5, true, null]}', '{"deep": [1, 2.5, true, null]}'), ("true", "true"),
    ("null", "null")])
def test_values_through_the_python_literal_reader(text, json):
    output = OLMO + f"f(v={text})" + OLMO_END
    events = parsed("olmo3", output)
    assert arguments_of(events) == {0: '{"v": ' + json + "}"}
    check("olmo3", output, events)


@pytest.mark.parametrize("value", ["1e400", "os.getcwd()", "x[1]", "b'z'", "Tokyo", "", "1]", "1 + 2", "07"])
def test_a_value_that_is_no_literal_makes_its_call_no_call(value):
    """A value that is no literal with a JSON value (a name, an expression, bytes, a number JSON
    cannot carry, brackets that do not pair, nothing; `07` but in LFM2's table) makes its call no
    call, as Python refuses it: the call's bytes are Malformed, shown as content, and the calls
    after it are read (vLLM's pythonic and olmo3 parsers and SGLang's pythonic and lfm2 detectors
    skip the call too: test_bad_sibling_call_does_not_drop_good_calls, test_non_finite_argument_*,
    test_bytes_argument_skips_only_that_call). Nothing of it was streamed: a pythonic call is held
    from its `(` to its `)`."""
    for table, output in (("olmo3", OLMO + f"f(v={value})\ng(n=1)" + OLMO_END),
                          ("pythonic", f"[f(v={value}), g(n=1)]")):
        events = parsed(table, output)
        assert runs(events)[1:4] == [malformed("f(", INVALID), malformed(f"v={value}", NOT_A_LITERAL),
                                     malformed(")", INVALID)]
        assert shown_and_calls(table, output) == (f"f(v={value})", [("g", '{"n": 1}')])
        check(table, output, events)


def test_positional_arguments_and_other_shapes_are_reported():
    """Each with its reason; the call they are in is no call (SGLang's pythonic and lfm2 skip a
    call with positional arguments)."""
    output = OLMO + "f(1, *args, b=2)" + OLMO_END
    events = parsed("olmo3", output)
    assert malformed("1", NO_VALUE) in events
    # (the space between two Malformed runs is theirs)
    assert malformed(", *", NOT_AN_ARGUMENT) in events and malformed("args", NO_VALUE) in events
    assert shown_and_calls("olmo3", output) == (output, [])
    check("olmo3", output, events)


def test_text_where_a_call_should_begin_and_a_name_without_a_call():
    output = OLMO + "- f(a=1)\nnot a call\n" + OLMO_END
    events = parsed("olmo3", output)
    assert malformed("-", NOT_A_CALL) in events
    assert malformed("not a call\n", NO_CALL) in runs(events)
    assert arguments_of(events) == {0: '{"a": 1}'}
    check("olmo3", output, events)


def test_the_block_closing_cuts_a_call_short():
    """A call the block's end cuts short is no call: its text is shown as written."""
    for body, reason in (("f(a=1, b='x", CUT), ("f(a=1, b", NO_VALUE), ("f(a=1, ", None), ("g", NO_CALL)):
        output = OLMO + body + OLMO_END
        events = parsed("olmo3", output)
        if reason:
            assert reason in [e["why"]["other"] for e in events if e["kind"] == "malformed"], body
        assert shown_and_calls("olmo3", output) == (output, [])
        check("olmo3", output, events)


def test_a_stream_cut_inside_a_call_leaves_its_text():
    """The stream's end inside a call, whatever the finish: the call never was one (docs/recovery.md,
    cut-off calls), so no client meets arguments cut short; SGLang's pythonic detector shows none."""
    for reason in ("length", "stop"):
        check("olmo3", OLMO + "f(a=1, b=[1, 2", [
            malformed(OLMO, REGION), malformed("f(a=1, b=[1, 2", CUT_OFF), finish(reason),
        ], finish=reason)
    check("pythonic", "Hello! [search(query=", [
        content("Hello! "), malformed("[", REGION), malformed("search(query=", CUT_OFF), finish(),
    ])


def test_a_thought_before_the_calls():
    output = "<think>plan</think>" + LFM + "[f()]" + LFM_END + "done"
    events = parsed("lfm2_5", output)
    assert arguments_of(events) == {0: "{}"} and content("done") in events
    check("lfm2_5", output, events)
    assert parsed("lfm2.5", output) == events


# --- call lists in prose (`pythonic`: Llama 3.2, Llama 4) -------------------------------------

def test_a_list_is_read_and_what_follows_it_is_prose():
    output = " [get_weather(city='LA'), ping()] \nok"
    check("pythonic", output, [
        content(" "), dropped("["), start(0, "get_weather", "get_weather("), arguments(0, '{"city": "LA"', "city='LA'"),
        arguments(0, "}", ""), end(0, ")"), dropped(", "),
        start(1, "ping", "ping("), arguments(1, "{}", ""), end(1, ")"),
        dropped("]"), content(" \nok"), finish(tool_calls=2),
    ])
    check_per_token("pythonic", output)


@pytest.mark.parametrize("output,text,calls", [
    ("Searching. [search(query='hello')] Done.", "Searching.  Done.", [("search", '{"query": "hello"}')]),
    ("[search(query='one')][search(query='two')] Done.", " Done.",
     [("search", '{"query": "one"}'), ("search", '{"query": "two"}')]),
    ("[get_weather(location='Berlin')] and [search(query='restaurants')]", " and ",
     [("get_weather", '{"location": "Berlin"}'), ("search", '{"query": "restaurants"}')]),
    ("Here's a call: [get_weather(location='Tokyo', data=[1, 2, 3])]", "Here's a call: ",
     [("get_weather", '{"location": "Tokyo", "data": [1, 2, 3]}')]),
    ("[O'Reilly] docs [search(query=\"]\")] Done.", "[O'Reilly] docs  Done.", [("search", '{"query": "]"}')]),
    ("[search(query='unfinished]')] Done.", " Done.", [("search", '{"query": "unfinished]"}')]),
    ("[[f(a=1)]]", "[]", [("f", '{"a": 1}')]),
])
def test_call_lists_in_prose(output, text, calls):
    """A call list opens wherever `[`, a name and its `(` are written, and prose before, between
    and after lists is content, every byte (SGLang's pythonic detector reads these lists and gives
    the same content: its test_pythonic_streaming and TestPythonicDetector; vLLM's `pythonic`
    reads a list only where it is the whole output)."""
    assert shown_and_calls("pythonic", output) == (text, calls)


@pytest.mark.parametrize("output", [
    "[1, 2] are the first two primes.", "[see below]", "[link](http://x.org)", "[O'Reilly] docs", "[don't panic] done",
    "[1] and []", "[1f(a=1)]", "[ f g(a=1)]", " \n[", "[get_wea", "", "Let's try this: [",
    "Use `[f(a=1)]` to call it.", "```python\n[f(a=1)]\n```", "``[f(a=1)]``", "A list:\n```\n[f(a=1), g(b=2)]\n```\nok",
])
def test_prose_that_opens_no_list_is_content(output):
    """Text that opens no list with `[`, a name and its `(` is content, every byte, held only until
    that is decided; so is a list written in Markdown code, inline or fenced: an example, not a
    call (SGLang's test_bracketed_prose_with_apostrophes_is_not_a_call; it keeps a lone `[` back,
    where symphony gives every byte back)."""
    events = parsed("pythonic", output)
    assert not [e for e in events if e["kind"] == "tool_call_start"]
    assert "".join(e["text"] for e in events if e["kind"] == "content") == output
    check("pythonic", output, events)
    check_per_token("pythonic", output)


def test_code_ends_where_its_backticks_close_it():
    """An inline code span ends at its closing run or its line's end; a fenced block at a fence at
    least as long: lists after either are read."""
    assert shown_and_calls("pythonic", "`x` [f(a=1)]") == ("`x` ", [("f", '{"a": 1}')])
    assert shown_and_calls("pythonic", "a `stray\n[f(a=1)]") == ("a `stray\n", [("f", '{"a": 1}')])
    assert shown_and_calls("pythonic", "````\n[f(a=1)]\n```\n````\n[g(b=2)]") == (
        "````\n[f(a=1)]\n```\n````\n", [("g", '{"b": 2}')])


def test_llama4_python_region():
    """Prose, a `<|python_start|>` region, prose again, each may hold lists (SGLang's
    test_detect_and_parse_with_python_start_and_end_token: the same calls and content)."""
    output = "Checking. <|python_start|>[f(a=1)]<|python_end|> Done. [g()]"
    check("llama4_pythonic", output, [
        content("Checking. "), dropped("<|python_start|>["), start(0, "f", "f("),
        arguments(0, '{"a": 1', "a=1"), arguments(0, "}", ""), end(0, ")"), dropped("]<|python_end|>"),
        content(" Done. "), dropped("["), start(1, "g", "g("), arguments(1, "{}", ""), end(1, ")"), dropped("]"),
        finish(tool_calls=2),
    ])
    check_per_token("llama4_pythonic", output)


@pytest.mark.parametrize("table,output,text,calls", [
    ("lfm2_5", LFM + "[f(a=1)] [g(b=2)]" + LFM_END, "", [("f", '{"a": 1}'), ("g", '{"b": 2}')]),
    ("lfm2_5", LFM + "[f(a=1)]" + LFM_END + " Some text " + LFM + "[g(b=2)]" + LFM_END, " Some text ",
     [("f", '{"a": 1}'), ("g", '{"b": 2}')]),
    ("lfm2_5", LFM + "Let me check. [f(a=1)]" + LFM_END, "Let me check.", [("f", '{"a": 1}')]),
    ("olmo3", OLMO + "[f(a=1)]\n[g(b=2)]" + OLMO_END, "", [("f", '{"a": 1}'), ("g", '{"b": 2}')]),
])
def test_lists_in_a_block(table, output, text, calls):
    """In LFM2's and Olmo's blocks a list after text, and more than one list, are read (SGLang's
    lfm2 test_detect_and_parse_multiple_blocks; vLLM's olmo3 reads one call per line only)."""
    shown, read = shown_and_calls(table, output)
    assert read == calls and shown.replace(" ", "") == text.replace(" ", "")


def test_a_list_outside_lfm2_block_is_content():
    """LFM2's calls are read in its blocks alone, as vLLM's and SGLang's lfm2 read them: outside a
    block a list is content (LFM2 echoes its call list after the block now and then, which must not
    run twice; vLLM drops the echo, here it is shown)."""
    output = "Searching. [search(query='x')] Done."
    assert shown_and_calls("lfm2_5", output) == (output, [])
    assert shown_and_calls("lfm2_5", LFM + "[f(a=1)]" + LFM_END + "[f(a=1)]" + LFM_END)[1] == [("f", '{"a": 1}')]


# --- a call's argument as Python reads it (every pythonic table) -----------------------------

@pytest.mark.parametrize("value,json", [
    ("{'urgent', 'bug'}", '["urgent", "bug"]'), ("f'hello'", '"hello"'), ("+7", "7"), ("-0.5", "-0.5"), (".5", "0.5"),
    ("'a' 'b'", '"ab"'), ("r'\\d+'", '"\\\\d+"'), ("(800, 600)", "[800, 600]"),
])
def test_values_as_python_reads_a_call(value, json):
    """Sets as lists, constant f-strings, signed numbers, joined strings and raw strings are read
    as vLLM's pythonic parsers read them (its get_parameter_value: sets, f-strings and +/- too)."""
    for table, output in (("olmo3", OLMO + f"f(v={value})" + OLMO_END), ("pythonic", f"[f(v={value})]")):
        assert shown_and_calls(table, output)[1] == [("f", '{"v": ' + json + "}")]


@pytest.mark.parametrize("value,json", [
    ('"""line1\nline2"""', '"line1\\nline2"'), ("'''it's'''", '"it\'s"'), ('"""say "hi" now"""', '"say \\"hi\\" now"'),
    ("'''a '' b'''", '"a \'\' b"'), ("''''a'''", '"\'a"'), ("'''a\\''''", '"a\'"'), ("r'''\\d'''", '"\\\\d"'),
    ("'''a''' 'b'", '"ab"'), ("['''x, y''', '']", '["x, y", ""]'), ("{'''k''': '''v)'''}", '{"k": "v)"}'),
    ("''", '""'), ("'' 'x'", '"x"'),
])
def test_triple_quoted_strings(value, json):
    """A triple-quoted string, in every pythonic table: its line breaks and lone quotes are its text
    and three quotes close it (SGLang's pythonic detector and vLLM's pythonic and olmo3 parsers
    read them, through Python's ast; LFM2's table read `\"\"\"a\nb\"\"\"` before as three joined
    strings, one with a raw line break, and `'''it's'''` not at all)."""
    for table, output in (("olmo3", OLMO + f"f(v={value}, n=1)" + OLMO_END), ("pythonic", f"[f(v={value}, n=1)]"),
                          ("lfm2_5", LFM + f"[f(v={value}, n=1)]" + LFM_END)):
        assert shown_and_calls(table, output)[1] == [("f", '{"v": ' + json + ', "n": 1}')]


def test_a_triple_quoted_string_cut_off():
    """The region's end inside a triple-quoted string cuts its call short: no call."""
    output = OLMO + "f(a=1, b='''x\n'' y)"
    check("olmo3", output, [malformed(OLMO, REGION), malformed("f(a=1, b='''x\n'' y)", CUT_OFF), finish()])


def test_a_dict_unpacked_joins_the_arguments():
    """`**{...}` puts its members among the arguments, later ones after earlier ones (SGLang's lfm2
    merges a dict literal, later binding winning: a JSON reader keeps the last of a repeated key);
    `**` of anything else is Malformed and its call no call (SGLang drops it too)."""
    assert shown_and_calls("pythonic", "[f(a=1, **{'b': 2, 'c': [3]}, d=4)]") == (
        "", [("f", '{"a": 1, "b": 2, "c": [3], "d": 4}')])
    assert shown_and_calls("pythonic", "[f(**{'a': 1}, **{}, b=2)]") == ("", [("f", '{"a": 1, "b": 2}')])
    assert shown_and_calls("pythonic", "[f(**{})]") == ("", [("f", "{}")])
    output = LFM + "[f(a=1, **opts, *rest)]" + LFM_END
    events = parsed("lfm2_5", output)
    assert malformed("**opts", NOT_A_DICT) in events and malformed("*", NOT_AN_ARGUMENT) in events
    assert arguments_of(events) == {}
    check("lfm2_5", output, events)


# --- LFM2's slips -----------------------------------------------------------------------------

def lfm2(body):
    return shown_and_calls("lfm2_5", LFM + body + LFM_END)


@pytest.mark.parametrize("body,calls", [
    ("[search(query='line one\nline two')]", [("search", '{"query": "line one\\nline two"}')]),
    ("[exec(command='cat > f.py << EOF\nimport csv\r\nprint(1)\nEOF')]",
     [("exec", '{"command": "cat > f.py << EOF\\nimport csv\\r\\nprint(1)\\nEOF"}')]),
    ("[set_date(month=07, day=05, year=2024)]", [("set_date", '{"month": 7, "day": 5, "year": 2024}')]),
    ("[f(n=-007, m=00, x=007.50)]", [("f", '{"n": -7, "m": 0, "x": 7.50}')]),
])
def test_lfm2_line_breaks_and_zero_padded_integers(body, calls):
    """A raw line break in a string is the string's, a zero-padded integer its number (vLLM's lfm2
    and SGLang's lfm2 read both; Olmo's and Llama's tables do not: there `07` is the string "07")."""
    assert lfm2(body) == ("", calls)


@pytest.mark.parametrize("body,calls", [
    ("[search(query='sed -n '360,450p' f.py')]", [("search", '{"query": "sed -n \'360,450p\' f.py"}')]),
    ("[bash(command='cd /testbed && python3 -c \"from sympy import latex\nprint(latex(3*x, mul_symbol='\\,'))\"')]",
     [("bash", '{"command": "cd /testbed && python3 -c \\"from sympy import latex\\nprint(latex(3*x, '
               'mul_symbol=\'\\\\,\'))\\""}')]),
    ("[search(query='x 'y'), get_weather(city='p 'q')]",
     [("search", '{"query": "x \'y"}'), ("get_weather", '{"city": "p \'q"}')]),
    ("[f(a='it's', b=1), g(c='you're here')]", [("f", '{"a": "it\'s", "b": 1}'), ("g", '{"c": "you\'re here"}')]),
    ("[f(cmds=['echo 'a' b'], n=2)]", [("f", '{"cmds": ["echo \'a\' b"], "n": 2}')]),
    ("[f(**{'a': 'x 'y'})]", [("f", '{"a": "x \'y"}')]),
    ("[f(a='a' f'b{{')]", [("f", '{"a": "ab{"}')]),
])
def test_lfm2_unescaped_quotes_where_one_reading_closes_the_call(body, calls):
    """A quote of a string's kind left unescaped: where one reading closes the call, the string is
    read so (vLLM's and SGLang's lfm2: test_nested_quotes_recovered, nested_python_c, and a reading
    that swallows the sibling call rejected: test_swallowing_reading_rejected)."""
    assert lfm2(body) == ("", calls)


@pytest.mark.parametrize("body,failed,calls", [
    ("[get_weather(city='echo 'hi', unit='celsius')]", "city='echo 'hi', unit='celsius'", []),
    ("[search(query='ok'), get_weather(city='x 'y', unit='c')]", "city='x 'y', unit='c'",
     [("search", '{"query": "ok"}')]),
    ("[f(a='x 'y' 'z), g(b=1)]", "a='x 'y' 'z", [("g", '{"b": 1}')]),
    ("[f(a=1, b='x'.upper()), g()]", ", b='x'.upper()", [("g", "{}")]),
    ("[f(b=['x 'y'', 'z'])]", "b=['x 'y'', 'z']", []),
])
def test_lfm2_unescaped_quotes_without_one_reading_fail_closed(body, failed, calls):
    """Several readings close the call, or none: that argument is Malformed, and its call no call
    (shown as content); the calls after it are read (SGLang's lfm2 drops the call alike:
    test_ambiguous_nested_quotes_not_guessed, test_good_call_survives_unparsable_block)."""
    output = LFM + body + LFM_END
    events = parsed("lfm2_5", output)
    assert malformed(failed, NO_ONE_READING) in events
    assert lfm2(body)[1] == calls


def test_lfm2_a_call_cut_off_while_its_string_is_in_question():
    output = LFM + "[f(a=1, b='x 'y, c=2"
    check("lfm2_5", output, [malformed(LFM + "[", REGION), malformed("f(a=1, b='x 'y, c=2", CUT_OFF), finish()])
    check("lfm2_5", output + LFM_END, [
        malformed(LFM + "[", REGION), malformed("f(a=1, b='x 'y, c=2", CUT), malformed(LFM_END, REGION), finish(),
    ])


@pytest.mark.parametrize("body,calls", [
    ('[{"name": "get_weather", "arguments": {"city": "Berlin"}}]', [("get_weather", '{"city": "Berlin"}')]),
    ('[{"name": "a", "arguments": {"x": 1}}, {"name": "b", "parameters": {"y": 2}}]',
     [("a", '{"x": 1}'), ("b", '{"y": 2}')]),
    ('{"name": "get_weather", "arguments": {"city": "Amsterdam"}}', [("get_weather", '{"city": "Amsterdam"}')]),
    ('[f(a=1), {"name": "g", "arguments": {}}]', [("f", '{"a": 1}'), ("g", "{}")]),
])
def test_lfm2_json_call_objects(body, calls):
    """LFM2 also writes JSON call objects in its block, listed or alone, `parameters` for
    `arguments` (SGLang's lfm2: test_detect_and_parse_json_*, test_streaming_json_normal_text_before_tool_call)."""
    assert lfm2(body) == ("", calls)
    assert shown_and_calls("lfm2_5", "I'll check. " + LFM + body + LFM_END) == ("I'll check. ", calls)


# --- generated: quotes, brackets and prose at every chunking ---------------------------------

PIECES = ["'", '"', "(", ")", "[", "]", "{", "}", ",", "=", " ", "\n", "\\", "x", "f(", "g(a=", "b=", "**", "*",
          ":", "07", "f'", "'a'", "'it's'", "[f(", ")]", "`", "```", LFM, LFM_END, "<|python_start|>", "<|python_end|>",
          '{"name": "f", "arguments": ', "é", "Done. "]


@settings(max_examples=tiers.examples("lfm2_5", settings.default.max_examples))
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join), st.sampled_from(["lfm2_5", "pythonic", "olmo3"]))
@example(LFM + "[f(a='x 'y), g(b='p')]", "lfm2_5")
@example(LFM + "[f(a='x ')y'), g()]" + LFM_END, "lfm2_5")
@example("[f(a='it's', **{'b': 'c 'd'}), g(c=07)]", "pythonic")
def test_any_pythonic_text_at_every_chunking(body, table):
    """Whatever the quotes, brackets and markers, every chunking conserves the output, is well
    formed and says what the whole parse says (the held string's decision, the prose's lists)."""
    output = (LFM + body if table == "lfm2_5" and not body.startswith(LFM) else body)
    check(table, output, parsed(table, output), every_split_up_to=40)
    check_per_token(table, output)
