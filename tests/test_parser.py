"""The entry points (DESIGN §1): `symphony.formats()`, `symphony.parser()` for every way of naming
a table, `symphony.parse()`, input type checks that name the field, End's finish mapping, and
token spans given as TokenSpan lists or numpy arrays (SPEC §1.5, §1.7).
"""
import numpy as np
import pytest

import symphony
from symphony import Delta, End, Prompt, TokenSpan
from symphony.events import Content, Finish, Reasoning, ReasoningStart, text_of
from symphony.format import Emits, Format
from symphony.formats import TABLES
from symphony.formats import table as format_table
from symphony.reasons import FinishReason, Other
from tests.common import carries_text, said, tokens_of

QWEN3_OUTPUT = ('<think>\nplan é 🎉\n</think>\n\nHi\n<tool_call>\n{"name": "get_weather", "arguments": '
                '{"city": "Paris"}}\n</tool_call>')


def feed_all(parser, inputs):
    events = []
    for item in inputs:
        events += parser.feed(item)
    return events


def char_bounds(text, step):
    """Byte offsets cutting `text` every `step` characters (so on character boundaries)."""
    offsets = [0]
    for ch in text:
        offsets.append(offsets[-1] + len(ch.encode()))
    cuts = offsets[::step]
    if cuts[-1] != offsets[-1]:
        cuts.append(offsets[-1])
    return list(zip(cuts, cuts[1:]))


# --- formats() and parser() --------------------------------------------------------------------

def test_formats_sorted():
    names = symphony.formats()
    assert names == sorted(names) == sorted(TABLES)
    assert {"plain", "qwen2_5", "qwen3", "xlam"} <= set(names)
    assert symphony.formats() is not names or names == symphony.formats()


@pytest.mark.parametrize("name", symphony.formats())
def test_parser_for_every_table(name):
    p = symphony.parser(name)
    assert isinstance(p, symphony.Engine)
    assert p.format == format_table(name).name == name
    events = feed_all(p, [Delta("hello"), End()])
    assert text_of(events) == "hello" and type(events[-1]) is Finish
    # the table's Format and its compiled table make the same parser
    fmt = format_table(name)
    for other in (symphony.parser(fmt), symphony.parser(fmt.compile())):
        assert other.format == name
        assert feed_all(other, [Delta("hello"), End()]) == events
    assert symphony.parser(fmt.compile()).table is fmt.compile()


def test_alias_names_the_same_table():
    p = symphony.parser("qwen2.5")
    assert p.format == "qwen2_5"
    assert p.table is symphony.parser("qwen2_5").table
    out = '<think>x</think><tool_call>{"name": "f", "arguments": {}}</tool_call>'
    assert symphony.parse("qwen2.5", out) == symphony.parse("qwen2_5", out)
    assert "qwen2.5" not in symphony.formats()


def test_tools_are_kept_and_not_checked():
    tools = [{"type": "function", "function": {"name": "other", "parameters": {}}}]
    p = symphony.parser("qwen3", tools=tools)
    assert p.tools is tools
    events = feed_all(p, [Delta('<tool_call>{"name": "f", "arguments": {}}</tool_call>'), End()])
    assert [e.name for e in events if type(e) is symphony.ToolCallStart] == ["f"]


@pytest.mark.parametrize("name", ["nope", "Qwen3", "qwen3 ", "", "qwen2.5.0", 3, None, ("qwen3",)])
def test_unknown_names_raise_key_error_naming_the_known_formats(name):
    with pytest.raises(KeyError) as caught:
        symphony.parser(name)
    message = caught.value.args[0]
    assert repr(name) in message
    for known in symphony.formats():
        assert known in message
    with pytest.raises(KeyError):
        symphony.parse(name, "x")


@pytest.mark.parametrize("model, table", [("Qwen/Qwen3-8B", "qwen3"), ("Qwen/Qwen3-8B-FP8", "qwen3"),
                                          ("zai-org/GLM-4.6", "ling")])
def test_a_checkpoint_id_for_a_format_points_to_for_model(model, table):
    with pytest.raises(KeyError) as caught:
        symphony.parser(model)
    message = caught.value.args[0]
    assert "known formats" in message and f"its table is {table!r}" in message
    assert f"symphony.for_model({model!r}).parser(tools)" in message


def test_parser_is_one_per_stream():
    a, b = symphony.parser("qwen3"), symphony.parser("qwen3")
    a.feed(Delta("<think>x"))
    assert b.feed(Delta("y")) == [Content("y")]


def test_an_own_format_needs_no_registration():
    f = Format("own").terminal("o", "<o>").state("c", Emits.CONTENT).state("r", Emits.REASONING) \
        .transition("c", "o", "r")
    events = symphony.parse(f, "a<o>b")
    assert events[-2] == symphony.ReasoningEnd() and Reasoning("b") in events
    assert "own" not in symphony.formats()


# --- parse() -----------------------------------------------------------------------------------

@pytest.mark.parametrize("prompt", [None, "", "<|im_start|>assistant\n<think>\n", "<think>\n\n</think>\n\n"])
@pytest.mark.parametrize("finish", ["stop", "length", "abort", "content_filter"])
def test_parse_is_prompt_delta_end(prompt, finish):
    output = "plan</think>\n\n" + QWEN3_OUTPUT
    inputs = ([] if prompt is None else [Prompt(prompt)]) + [Delta(output), End(finish)]
    want = feed_all(symphony.parser("qwen3"), inputs)
    got = symphony.parse("qwen3", output, prompt=prompt, finish=finish)
    assert got == want
    assert [e.to_dict() for e in got] == [e.to_dict() for e in want]
    assert text_of(got) == output


def test_parse_defaults_and_tools():
    assert symphony.parse("plain", "x") == [Content("x"), Finish("stop", 0, 0)]
    assert symphony.parse("plain", "") == [Finish("stop", 0, 0)]
    tools = [{"type": "function", "function": {"name": "get_weather"}}]
    assert symphony.parse("qwen3", QWEN3_OUTPUT, tools) == symphony.parse("qwen3", QWEN3_OUTPUT, tools=tools)


def test_parse_with_a_prompt_opening_the_thought():
    events = symphony.parse("qwen3", "a</think>b", prompt="<|im_start|>assistant\n<think>\n")
    assert events[0] == ReasoningStart()
    assert Reasoning("a") in events and Content("b") in events


# --- input types -------------------------------------------------------------------------------

@pytest.mark.parametrize("wrong", ["text", b"text", None, 3, {"text": "x"}, Delta, [Delta("x")],
                                   TokenSpan(1, 0, 1), symphony.FinishReason.STOP])
def test_feed_with_a_wrong_type(wrong):
    p = symphony.parser("qwen3")
    with pytest.raises(TypeError) as caught:
        p.feed(wrong)
    message = str(caught.value)
    for accepted in ("Prompt", "Delta", "End"):
        assert accepted in message
    # the parser is not spoiled by it
    assert feed_all(p, [Delta("x"), End()]) == [Content("x"), Finish("stop", 0, 0)]


@pytest.mark.parametrize("make,field", [
    (lambda: Delta(b"x"), "Delta.text"),
    (lambda: Delta(None), "Delta.text"),
    (lambda: Delta(3), "Delta.text"),
    (lambda: Delta("x", [], [(1, 0, 1, False)]), "Delta.spans"),
    (lambda: Delta("x", [], [TokenSpan(1, 0, 1), "span"]), "Delta.spans"),
    (lambda: Delta("x", [], np.zeros((1, 4), dtype=np.float64)), "Delta.spans"),
    (lambda: Prompt(b"x"), "Prompt.text"),
    (lambda: Prompt(None), "Prompt.text"),
    (lambda: End(None), "End.finish"),
    (lambda: End(3), "End.finish"),
])
def test_input_type_errors_name_the_field(make, field):
    with pytest.raises(TypeError, match=field.replace(".", r"\.")):
        make()


@pytest.mark.parametrize("spans", [np.zeros((2, 3), dtype=np.int64), np.zeros(4, dtype=np.int64),
                                   np.zeros((1, 4, 1), dtype=np.int64), "abcd",
                                   object(), 3])
def test_span_arrays_of_the_wrong_shape_name_the_field(spans):
    with pytest.raises((TypeError, ValueError), match=r"Delta\.spans"):
        Delta("x", [], spans)


def test_a_str_subclass_is_text():
    class S(str):
        pass
    assert feed_all(symphony.parser("plain"), [Delta(S("ab")), End()]) == [Content("ab"), Finish("stop", 0, 0)]


# --- End's finish ------------------------------------------------------------------------------

@pytest.mark.parametrize("finish,reason", [
    ("stop", FinishReason.STOP), ("length", FinishReason.LENGTH), ("abort", FinishReason.ABORT),
    ("content_filter", Other("content_filter")), ("tool_calls", Other("tool_calls")),
    ("Stop", Other("Stop")), ("", Other("")), ("stop ", Other("stop ")), ("日本", Other("日本")),
])
def test_end_finish_strings_map_to_finish_reasons(finish, reason):
    events = feed_all(symphony.parser("qwen3"), [Delta("x"), End(finish)])
    assert events[-1] == Finish(reason, 0, 0)
    assert type(events[-1].reason) is type(reason)
    # a stop with calls stays a stop: the engine does not refine it (the adapters do)
    events = symphony.parse("qwen3", '<tool_call>{"name": "f", "arguments": {}}</tool_call>', finish=finish)
    assert events[-1] == Finish(reason, 1, 0)


def test_end_takes_a_finish_reason_too():
    assert End(FinishReason.LENGTH).finish == "length"
    assert feed_all(symphony.parser("plain"), [End(FinishReason.ABORT)]) == [Finish("abort", 0, 0)]
    assert End().finish == "stop"


# --- token ids and spans -----------------------------------------------------------------------

def spans_for(text, step=2, first_id=100):
    return [TokenSpan(first_id + k, a, b) for k, (a, b) in enumerate(char_bounds(text, step))]


def counted(events):
    return [(type(e).__name__, tokens_of(e)) for e in events]


def test_numpy_token_ids_are_kept_as_given():
    ids = np.arange(100, 105, dtype=np.int32)
    d = Delta("hello", ids, spans_for("hello", 1))
    assert d.token_ids is ids
    ids64 = np.arange(3, dtype=np.int64)
    assert Prompt("x", ids64).token_ids is ids64
    events = feed_all(symphony.parser("plain"), [Prompt("x", ids64), d, End()])
    assert events == [Content("hello", 5), Finish("stop", 0, 0)]


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.int16])
@pytest.mark.parametrize("step", [1, 2, 5])
def test_span_arrays_count_like_token_span_lists(dtype, step):
    text = QWEN3_OUTPUT
    spans = spans_for(text, step)
    listed = feed_all(symphony.parser("qwen3"), [Delta(text, [s.token_id for s in spans], spans), End()])
    array = np.array([[s.token_id, s.start, s.end, int(s.continued)] for s in spans], dtype=dtype)
    arrayed = feed_all(symphony.parser("qwen3"), [Delta(text, array[:, 0], array), End()])
    assert arrayed == listed
    assert counted(arrayed) == counted(listed)
    assert sum(tokens_of(e) or 0 for e in listed) == len(spans)
    assert listed[-1].reasoning_tokens == sum(e.tokens for e in listed if type(e) is Reasoning) > 0
    # a non-contiguous (strided) array counts the same
    wide = np.zeros((len(spans), 8), dtype=dtype)
    wide[:, ::2] = array
    assert feed_all(symphony.parser("qwen3"), [Delta(text, array[:, 0], wide[:, ::2]), End()]) == listed
    fortran = np.asfortranarray(array)
    assert feed_all(symphony.parser("qwen3"), [Delta(text, array[:, 0], fortran), End()]) == listed


def test_spans_across_deltas_list_and_array():
    # "é" is held over a delta boundary: a continued span in the next delta
    pieces = ["ab\u00e9", "cd"]
    listed = [Delta(pieces[0], [1, 2], [TokenSpan(1, 0, 2), TokenSpan(2, 2, 4)]),
              Delta(pieces[1], [3], [TokenSpan(2, 0, 1, True), TokenSpan(3, 1, 2)])]
    arrays = [Delta(pieces[0], [1, 2], np.array([[1, 0, 2, 0], [2, 2, 4, 0]], dtype=np.int64)),
              Delta(pieces[1], [3], np.array([[2, 0, 1, 1], [3, 1, 2, 0]], dtype=np.int32))]
    a = feed_all(symphony.parser("plain"), listed + [End()])
    b = feed_all(symphony.parser("plain"), arrays + [End()])
    assert a == b
    assert sum(tokens_of(e) or 0 for e in a) == 3


def test_an_empty_span_array_is_no_spans():
    d = Delta("", [], np.zeros((0, 4), dtype=np.int64))
    assert feed_all(symphony.parser("plain"), [d, End()]) == [Finish("stop", 0, 0)]
    # for non-empty text, no spans means uncounted
    events = feed_all(symphony.parser("plain"), [Delta("ab", [], np.zeros((0, 4), dtype=np.int32)), End()])
    assert events == [Content("ab", None), Finish("stop", 0, 0)]


NOT_PARTITIONS = {
    "gap": [(0, 2), (3, 6)],
    "overlap": [(0, 3), (2, 6)],
    "short": [(0, 2), (2, 5)],
    "past the end": [(0, 2), (2, 7)],
    "not from 0": [(1, 2), (2, 6)],
    "out of order": [(2, 6), (0, 2)],
    "mid-character": [(0, 5), (5, 6)],        # "é" is bytes 4..6
}


@pytest.mark.parametrize("layout", list(NOT_PARTITIONS), ids=list(NOT_PARTITIONS))
@pytest.mark.parametrize("form", ["list", "array"])
def test_spans_that_do_not_partition_turn_the_stream_uncounted(layout, form):
    text = "abcd\u00e9"
    assert len(text.encode()) == 6
    rows = NOT_PARTITIONS[layout]
    if form == "list":
        spans = [TokenSpan(10 + i, a, b) for i, (a, b) in enumerate(rows)]
    else:
        spans = np.array([[10 + i, a, b, 0] for i, (a, b) in enumerate(rows)], dtype=np.int64)
    p = symphony.parser("qwen3")
    events = p.feed(Prompt("<think>\n"))
    events += p.feed(Delta(text, [10 + i for i in range(len(rows))], spans))
    # later deltas with good spans stay uncounted: the stream turned uncounted for good
    events += p.feed(Delta("x</think>y", [1, 2, 3], [TokenSpan(1, 0, 1), TokenSpan(2, 1, 9), TokenSpan(3, 9, 10)]))
    events += p.feed(End())
    assert [e for e in events if carries_text(e) and tokens_of(e) is not None] == []
    assert said(events).reasoning == ("abcd\u00e9x",)
    assert events[-1] == Finish("stop", 0, 0)
    assert text_of(events) == text + "x</think>y"


@pytest.mark.parametrize("rows", [
    [[1, -1, 6, 0]], [[1, 0, -3, 0]], [[1, 4, 2, 0], [2, 2, 6, 0]], [[1, 0, 2**40, 0]],
    [[1, 0, 6, 0], [2, 2**62, 2**62, 0]], [[5, 0, 6, -1]],
])
def test_span_arrays_with_wild_numbers_turn_uncounted_or_count(rows):
    text = "abcd\u00e9"
    p = symphony.parser("plain")
    ids = [row[0] for row in rows if row[3] == 0]
    events = feed_all(p, [Delta(text, ids, np.array(rows, dtype=np.int64)), End()])
    assert text_of(events) == text
    assert events[-1] == Finish("stop", 0, 0)


def test_unsigned_span_arrays_beyond_int64():
    events = feed_all(symphony.parser("plain"),
                      [Delta("abcd\u00e9", [1], np.array([[1, 0, 2**64 - 1, 0]], dtype=np.uint64)), End()])
    assert events == [Content("abcd\u00e9", None), Finish("stop", 0, 0)]


def test_token_span_checks_its_own_fields():
    with pytest.raises(ValueError):
        TokenSpan(1, 3, 2)
    with pytest.raises(TypeError, match="token_id"):
        TokenSpan("1", 0, 1)
    assert TokenSpan.partitions([TokenSpan(1, 0, 2), TokenSpan(2, 2, 2), TokenSpan(3, 2, 6)], "abcd\u00e9")
    assert not TokenSpan.partitions([TokenSpan(1, 0, 5), TokenSpan(2, 5, 6)], "abcd\u00e9")
    assert TokenSpan.partitions([], "")
    assert not TokenSpan.partitions([], "a")


def test_uncounted_finish_has_zero_reasoning_tokens():
    events = symphony.parse("qwen3", "<think>a b c</think>d")
    assert events[-1] == Finish("stop", 0, 0)
    assert all(tokens_of(e) is None for e in events if type(e) in (Reasoning, Content))


# --- the registry ------------------------------------------------------------------------------

def test_for_model_is_exported():
    assert "for_model" in symphony.__all__
    m = symphony.for_model("Qwen/Qwen3-8B")
    assert m.format == "qwen3"
    events = feed_all(m.parser(), [Delta("<think>x</think>y"), End()])
    assert Reasoning("x") in events and Content("y") in events
    with pytest.raises(KeyError):
        symphony.for_model("no/such-model")


def test_public_names():
    for name in ("formats", "parser", "parse", "for_model", "Format", "Emits", "CallSyntax", "FormatError",
                 "Prompt", "Delta", "End", "TokenSpan", "Engine", "ParseError", "LifecycleError"):
        assert name in symphony.__all__ and hasattr(symphony, name), name
    assert symphony._native.__file__.endswith((".so", ".pyd"))
