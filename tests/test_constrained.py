"""Constrained outputs (SPEC §6): a forced function's whole output as its arguments, and the JSON
list of calls a required tool_choice makes the engine write: exact events, every reason, token
counting, the finish reason kept, tool_choice read from OpenAI and Anthropic shapes; and both
shapes' corpora under the contract (conservation, every chunking the same, well formed, tokens).
"""
import json
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import symphony
from symphony import Delta, End, Prompt
from symphony.events import Dropped, Reasoning
from symphony.reasons import DropReason
from symphony.replay import chunkings as every_chunking
from symphony.tool_choice import REQUIRED, for_tool_choice
from tests import tiers
from tests.common import (carries_text, check_conservation, check_well_formed, chunkings, counted_deltas,
                          expected_token_counts, replay, said, synthetic_token_bounds, tokens_of)
from tests.wire import arguments, arguments_of, dropped, end, finish, malformed, start

AFTER = "bytes after the arguments"


def forced(output, function="get_weather", finish_reason="stop"):
    return [e.to_dict() for e in symphony.constrained(function).parse(output, finish=finish_reason)]


def required(output):
    return [e.to_dict() for e in symphony.constrained().parse(output)]


def test_a_forced_function_takes_the_whole_output_as_its_arguments():
    assert forced(' \n{"city": "Paris"}\t') == [
        dropped(" \n", "whitespace"), start(0, "get_weather", ""), arguments(0, '{"city": "Paris"}'),
        dropped("\t", "whitespace"), end(0), finish(tool_calls=1)]


@pytest.mark.parametrize("output,want", [
    # arguments no JSON reader takes, or cut short, end as one whole value for the client
    ("@ not json", [start(0, "get_weather", ""), malformed("@ not json", "invalid_arguments"),
                    arguments(0, "{}", ""), end(0)]),
    ("12abc", [start(0, "get_weather", ""), arguments(0, "12"), malformed("abc", AFTER), end(0)]),
    ('{} x y', [start(0, "get_weather", ""), arguments(0, "{}"), dropped(" ", "whitespace"),
                malformed("x y", AFTER), end(0)]),
    ('{"a": 1}{"b": 2}', [start(0, "get_weather", ""), arguments(0, '{"a": 1}'), malformed('{"b": 2}', AFTER), end(0)]),
    ('{"city": "Par', [start(0, "get_weather", ""), arguments(0, '{"city": "Par'), arguments(0, '"}', ""), end(0)]),
    ('{"city": "Paris", "days', [start(0, "get_weather", ""), arguments(0, '{"city": "Paris"'),
                                 malformed(', "days', "unterminated_region"), arguments(0, "}", ""), end(0)]),
    ('"just a string"', [start(0, "get_weather", ""), arguments(0, '"just a string"'), end(0)]),
    ("hello world", [start(0, "get_weather", ""), malformed("hello world", "invalid_arguments"),
                     arguments(0, "{}", ""), end(0)]),
])
def test_forced_function_shapes(output, want):
    calls = 1 if want else 0
    assert forced(output) == want + [finish(tool_calls=calls)]


@pytest.mark.parametrize("output", ["", "  \n\t", "\r\n"])
def test_an_empty_or_blank_output_makes_no_call(output):
    events = forced(output)
    assert events[-1] == finish(tool_calls=0)
    assert not any(e["kind"] == "tool_call_start" for e in events)


def test_the_finish_reason_is_kept():
    assert forced('{"a": 1', finish_reason="length")[-1] == finish("length", tool_calls=1)
    assert forced("", finish_reason="abort")[-1] == finish("abort")


def test_a_required_list_streams_each_call_and_drops_the_list_syntax():
    assert required('[{"name": "f", "parameters": {"a": 1}}, {"name": "g", "arguments": {}}]') == [
        dropped("["), start(0, "f", '{"name": "f", "parameters": '), arguments(0, '{"a": 1}'), end(0, "}"),
        dropped(","), dropped(" ", "whitespace"),
        start(1, "g", '{"name": "g", "arguments": '), arguments(1, "{}"), end(1, "}"),
        dropped("]"), finish(tool_calls=2)]


@pytest.mark.parametrize("output,reason,calls", [
    ("x", "the output is not a list of calls", 0),
    ("[1, 2]", "bytes where a call or the list's end should be", 0),
    ("[,{}]", "bytes where a call or the list's end should be", 0),
    ('[{"name": "f"},]', "bytes where a call should be", 1),
    ('[{"name": "f"},,]', "bytes where a call should be", 1),
    ('[{"name": "f"}{"name": "g"}]', "bytes where a comma or the list's end should be", 1),
    ("[] x", "bytes after the list", 0),
])
def test_a_violation_is_malformed_from_its_first_byte_to_the_end(output, reason, calls):
    events = required(output)
    bad = [e for e in events if e["kind"] == "malformed"]
    assert len(bad) == 1 and bad[0]["why"] == {"other": reason}
    assert output.endswith(bad[0]["text"]["text"])
    assert events[-1] == finish(tool_calls=calls)


def test_a_list_cut_short_ends_with_what_arrived_and_a_nameless_object_makes_no_call():
    events = required('[{"arguments": {}}, {"name": "h", "parameters": {"x": [1')
    assert [e["name"] for e in events if e["kind"] == "tool_call_start"] == ["h"]
    assert start(0, "h", '{"name": "h", "parameters": ') in events
    assert malformed('{"arguments": {}}', "a tool call without a name") in events
    assert events[-2:] == [end(0), finish(tool_calls=1)]


@pytest.mark.parametrize("choice,want", [
    (None, None), ("auto", None), ("none", None), ("required", REQUIRED),
    ({"type": "function", "function": {"name": "f"}}, "f"), ({"type": "function", "name": "f"}, "f"),
    ({"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": []}}, REQUIRED),
    ({"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": []}}, None),
    ({"type": "any"}, REQUIRED), ({"type": "tool", "name": "f"}, "f"), ({"type": "auto"}, None),
])
def test_tool_choice_values(choice, want):
    assert for_tool_choice(choice) == want


@pytest.mark.parametrize("choice", ["always", {"type": "function"}, {"type": "function", "function": {}}, 5,
                                    {"type": "allowed_tools", "allowed_tools": {"mode": "x"}}])
def test_a_tool_choice_that_is_none_of_these_is_refused(choice):
    with pytest.raises(ValueError, match="tool_choice"):
        symphony.parser("qwen3", tool_choice=choice)


def test_parser_picks_the_constrained_parser_from_tool_choice():
    output = '{"city": "Paris"}'
    forced_events = symphony.parse("qwen3", output, tool_choice={"type": "function", "function": {"name": "get_weather"}})
    assert [e.to_dict() for e in forced_events] == forced(output)
    assert symphony.parse("qwen3", output, tool_choice="auto")[0].kind == "content"
    assert symphony.parser("glm", tool_choice="required").format == "constrained"


def test_lifecycle_and_the_prompt_is_accepted_first_and_ignored():
    p = symphony.constrained("f")
    events = p.feed(Prompt("<|im_start|>assistant\n<think>\n"))
    assert events == []
    with pytest.raises(symphony.LifecycleError):
        p.feed(Prompt("again"))
    events += p.feed(Delta('{"a": ')) + p.feed(Delta("1}")) + p.feed(End())
    assert "".join(e.json for e in events if e.kind == "tool_call_arguments") == '{"a": 1}'
    with pytest.raises(symphony.LifecycleError, match="delta after end"):
        p.feed(Delta("x"))


# --- the contract over both shapes' corpora --------------------------------------------------

FORCED_CORPUS = [
    "", " ", "\n\t \r\n", '{"city": "Paris"}', ' {"city": "Paris"} ', '{"a": [1, 2.5, true, null], "b": {"c": "d"}}',
    '{"text": "h\\u00e9llo \\ud83c\\udf89 \\"q\\" \\\\"}', '{"t": "\\ud83c"}', '{"t": "\\udf89"}', "[1, 2, 3]",
    '"a string"', "42", "-1.5e+3", "true", "null", "12abc", "truex", "tru", "@ not json", "{} junk",
    '{"a": 1}\n\n{"b": 2}', '{"a": 1} \n x \n', '{"city": "Par', '{"a": [1}', "[1, 2}", '{"a": }', '{,}',
    '{"a": 1,}', "日本語", '{"日本": "語 🎉"}', "{" * 40 + "}" * 40, '{"a":\u3000"b"}', "\u00a0{}",
    '{"cmd": "ls\n-la\t\x01"}', '{"v": [NaN, -Infinity, Infinity]} ', "-Infinity", '{"v": -Inf', '{"v": NaNx}',
]
REQUIRED_CORPUS = [
    "", "[]", " [ ] ", '[{"name": "f", "parameters": {"a": 1}}]',
    '[{"name": "f", "parameters": {"a": 1}}, {"name": "g", "arguments": {}}]',
    '\n[\n  {"name": "f", "parameters": {}} ,\n  {"tool_name": "g", "parameters": {"x": [1, {"y": null}]}}\n]\n',
    "x", "[1, 2]", "[,{}]", '[{"name": "f"},]', '[{"name": "f"},,]', '[{"name": "f"}{"name": "g"}]', "[] x",
    "[", '[{"name": "f", "parameters": {"a": ', '[{"arguments": {}}, {"name": "h"}]', '[{"parameters": {}, "name": "late"}]',
    '[{"name": 5}]', '[{"name": "f", "parameters": {"t": "\\ud83c"}}]', '[{"name": "f", "parameters": 12abc}]',
    '[{"name": "f"}] ]', '[[{"name": "f"}]]', '["f"]', '[{"name": "f", "parameters": {}}, ]', "{}",
    '[{"name": "日本", "parameters": {"é": "🎉"}}]', '  x [{"name": "f"}]', '[{"name": "f"} junk]',
    '[{"name": "f", "parameters": {"c": "a\nb", "v": NaN}}, {"name": "g", "parameters": [-Infinity]}]',
]
CORPORA = [("forced", case) for case in FORCED_CORPUS] + [("required", case) for case in REQUIRED_CORPUS]


def new(shape):
    return symphony.constrained("get_weather" if shape == "forced" else None)


def test_each_corpus_has_at_least_25_outputs():
    assert len(FORCED_CORPUS) >= 25 and len(REQUIRED_CORPUS) >= 25


@pytest.mark.parametrize("shape,output", CORPORA)
def test_every_chunking_conserves_and_agrees(shape, output):
    whole = None
    for plan, pieces in chunkings(output):
        events = replay(new(shape), pieces, "<|im_start|>assistant\n")
        check_conservation(events, output)
        check_well_formed(events)
        assert not any(type(e) is Reasoning for e in events)
        if whole is None:
            whole = said(events)
        else:
            assert said(events) == whole, f"{shape} {output!r} {plan}"
    assert said(replay(new(shape), [output], None, empty_between=True)) == whole


@pytest.mark.parametrize("shape,output", CORPORA)
def test_token_identity(shape, output):
    trailing = 1 + len(output) % 3
    bounds = synthetic_token_bounds(output, trailing)
    starts = [len(output[:t0].encode()) for t0, t1 in bounds if t1 > t0]
    for plan, pieces in chunkings(output, every_split_up_to=60, seeds=5):
        p = new(shape)
        events = []
        for delta in counted_deltas(pieces, bounds):
            events += p.feed(delta)
        events += p.feed(End("stop"))
        check_conservation(events, output)
        trailer = events[-2]
        assert type(trailer) is Dropped and trailer.why == DropReason.CONTROL_TOKEN and trailer.text.tokens == trailing
        body = events[:-2]
        for e, want in zip(body, expected_token_counts(body, output, starts)):
            if carries_text(e):
                assert tokens_of(e) == want, f"{plan}: {e!r}"
        assert events[-1].reasoning_tokens == 0


# --- the JSON recoveries under a forced tool_choice (issue 37) --------------------------------
# A raw control character inside a string of the arguments is the string's (the arguments' JSON
# writes its escape), NaN, Infinity and -Infinity are the JSON string of their text, and a trailing
# comma and a Python dict are written as JSON (docs/recovery.md), under a
# tool_choice that forces a function (the whole output is the arguments) or requires a call (each
# object of the list), as in the model's own markup: the arguments load with a strict reader, to
# what the unforced path gives for the same object, whole, at every chunking and per token.

FUNCTION = {"type": "function", "function": {"name": "bash"}}
RECOVERED = [
    '{"cmd": "ls\n-la"}', '{"cmd": "a\tb"}', '{"cmd": "a\x01b"}', '{"x": NaN, "y": 2}', '{"x": Infinity}',
    '{"x": -Infinity, "y": [1, NaN]}', '{"k\n": ["\x1f", {"v": -Infinity}], "w": NaN}',
    '{"code": "for f in *; do\n\techo \\"$f\\"\r\ndone", "v": [NaN, -Infinity, Infinity], "n": 1}',
    '{"a": 1,}', '{"a": [1, 2 ,\n], "b": {"c": [],},\n}', "{'q': 'it\\'s \"x\"', 'n': None, 'b': True}",
    "{'a': ['x', {'b': False},],}",
]


def strict_loads(text):
    """json.loads as a strict reader reads: no NaN, Infinity or -Infinity."""
    def refuse(word):
        raise ValueError(f"not JSON: {word}")
    return json.loads(text, parse_constant=refuse)


def unforced(written, finish_reason="stop"):
    """The arguments the model's own markup (qwen2_5's `<tool_call>`) gives for `written`, the
    call closed (or, cut, left open as the stream left it)."""
    output = '<tool_call>\n{"name": "bash", "arguments": ' + written
    if finish_reason == "stop" and written.endswith("}"):
        output += "}\n</tool_call>"
    events = symphony.parse("qwen2_5", output, finish=finish_reason)
    return arguments_of(events)[0]


def under(choice, written):
    """(the output the engine writes under `choice` for a call to bash with `written`, the
    request's tool_choice)."""
    if choice == "function":
        return written, FUNCTION
    return '[{"name": "bash", "arguments": ' + written + "}]", "required"


def check_every_way(output, tool_choice, finish_reason="stop"):
    """Whole, at every chunking and per token (counted), the output is conserved, well formed and
    says what the whole parse says; returns the whole parse's events."""
    whole = symphony.parse("qwen2_5", output, tool_choice=tool_choice, finish=finish_reason)
    for plan, pieces in every_chunking(output):
        events = replay(symphony.parser("qwen2_5", tool_choice=tool_choice), pieces, None, finish_reason)
        check_conservation(events, output)
        check_well_formed(events)
        assert said(events) == said(whole), f"{output!r} {plan}"
    bounds = synthetic_token_bounds(output, trailing=0)
    parser = symphony.parser("qwen2_5", tool_choice=tool_choice)
    events = []
    for delta in counted_deltas([output[a:b] for a, b in bounds], bounds):
        events += parser.feed(delta)
    events += parser.feed(End(finish_reason))
    check_conservation(events, output)
    check_well_formed(events)
    assert said(events) == said(whole), f"{output!r} per token"
    return [e.to_dict() for e in whole]


@pytest.mark.parametrize("choice", ["function", "required"])
@pytest.mark.parametrize("written", RECOVERED)
def test_the_json_recoveries_hold_under_a_forced_tool_choice(choice, written):
    output, tool_choice = under(choice, written)
    events = check_every_way(output, tool_choice)
    assert [e["name"] for e in events if e["kind"] == "tool_call_start"] == ["bash"]
    assert not [e for e in events if e["kind"] == "malformed"]
    got = arguments_of(events)[0]
    assert got == unforced(written)
    strict_loads(got)
    sources = "".join(e["source"]["text"] for e in events if e["kind"] == "tool_call_arguments")
    assert written in sources                               # the bytes as the model wrote them


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_a_forced_function_whose_whole_output_is_a_word(word):
    """The arguments a forced function's output is may be the word alone: the string of its text
    (JSON a strict reader loads), as where a value begins anywhere."""
    for finish_reason, want in (("stop", f'"{word}"'), ("length", f'"{word}"')):
        events = check_every_way(f" {word}\n", FUNCTION, finish_reason)
        assert arguments_of(events)[0] == want


@pytest.mark.parametrize("finish_reason", ["stop", "length"])
def test_cut_anywhere_a_forced_function_says_what_the_unforced_path_says(finish_reason):
    """Every prefix of arguments with raw control characters and the words, the stream stopped
    there or cut for its length: the forced function's arguments are the unforced path's."""
    written = '{"c": "a\n\tb\x01", "v": [NaN, -Infinity], "w": Infinity, "n": -1.5}'
    for cut in range(1, len(written) + 1):
        events = [e.to_dict() for e in symphony.parse("qwen2_5", written[:cut], tool_choice=FUNCTION,
                                                      finish=finish_reason)]
        got = arguments_of(events)[0]
        assert got == unforced(written[:cut], finish_reason), written[:cut]
        if finish_reason == "stop":
            strict_loads(got)
    check_every_way(written[:23], FUNCTION, finish_reason)


FLOATS_PYTHON_WRITES = st.sampled_from([float("nan"), float("inf"), -float("inf")])
DUMPED = st.recursive(FLOATS_PYTHON_WRITES | st.integers(-5, 5) | st.text(st.sampled_from('a\n\t\x00\x1f"\\é'), max_size=4)
                      | st.sampled_from(["NaN", True, None]),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("ab\n"), inner,
                                                                                    max_size=3),
                      max_leaves=8)


def raw(value):
    """`value` as a model writes it with real control characters: json.dumps (a float nan or inf
    as its word), each control character's escape undone inside strings."""
    text = json.dumps(value, ensure_ascii=False)
    return "".join(chr(int(m[2:], 16)) if m.startswith("\\u") else {"\\n": "\n", "\\t": "\t"}.get(m, m)
                   for m in _escapes(text))


def _escapes(text):
    return re.findall(r'\\u00[01][0-9a-f]|\\[nt]|\\.|[^\\]', text)


@settings(max_examples=tiers.examples("constrained", settings.default.max_examples))
@given(st.dictionaries(st.sampled_from("xyz"), DUMPED, min_size=1, max_size=3), st.sampled_from(["function", "required"]))
@example({"x": [float("nan"), {"a": "\n\t"}]}, "function")
def test_any_dumped_arguments_under_a_forced_tool_choice(value, choice):
    """Arguments with raw control characters in strings and the words, whole: under a forced
    tool_choice they are the unforced path's, load strictly, and every chunking agrees."""
    written = raw(value)
    output, tool_choice = under(choice, written)
    events = check_every_way(output, tool_choice)
    got = arguments_of(events)[0]
    assert got == unforced(written)
    strict_loads(got)
