"""Token counting (SPEC §1.7) and the inputs that feed it (§1.5): the Ledger driven by hand,
`TokenSpan.partitions`, `Delta`'s span forms (TokenSpans or an (n, 4) integer array), and the
SPEC's qwen3 example driven through a parser."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symphony
from symphony import Delta, DropReason, End, FinishReason, TokenSpan
from symphony._native import Ledger
from symphony.events import Content, Dropped, Finish, Reasoning, ReasoningEnd, ReasoningStart, bytes_of
from tests.common import (
    counted_deltas,
    expected_token_counts,
    seeded_cuts,
    split_at,
    synthetic_token_bounds,
    tokens_of,
)


def T(token_id, start, end, continued=False):
    return TokenSpan(token_id, start, end, continued)


def whole_spans(text, *cuts):
    """Non-continued spans cutting `text` at the given byte offsets."""
    bounds = [0, *cuts, len(text.encode())]
    return [T(100 + i, a, b) for i, (a, b) in enumerate(zip(bounds, bounds[1:]))]


# ---- the Ledger by hand

def test_a_fresh_ledger_counts():
    ledger = Ledger()
    assert (ledger.received, ledger.emitted, ledger.uncounted) == (0, 0, False)
    assert ledger.counting()
    assert ledger.text(0) == 0
    assert ledger.finish() == 0


def test_a_token_counts_in_the_run_holding_its_first_byte():
    ledger = Ledger()
    ledger.note_delta(Delta("abcd", [1, 2], [T(1, 0, 1), T(2, 1, 4)]))
    assert ledger.received == 4 and ledger.emitted == 0
    assert ledger.text(1) == 1
    assert ledger.text(1) == 1      # "b": token 2 starts here
    assert ledger.text(2) == 0      # "cd": token 2 already counted
    assert ledger.emitted == 4
    assert ledger.finish() == 0


def test_offsets_are_absolute_across_deltas():
    ledger = Ledger()
    ledger.note_delta(Delta("ab", [1], [T(1, 0, 2)]))
    ledger.note_delta(Delta("cd", [2, 3], [T(2, 0, 1), T(3, 1, 2)]))
    assert ledger.received == 4
    assert ledger.text(3) == 2      # tokens at 0 and 2
    assert ledger.text(1) == 1      # token at 3
    assert ledger.finish() == 0


def test_offsets_are_bytes():
    ledger = Ledger()
    text = "é😀x"
    ledger.note_delta(Delta(text, [1, 2, 3], [T(1, 0, 2), T(2, 2, 6), T(3, 6, 7)]))
    assert ledger.received == 7
    assert ledger.text(2) == 1
    assert ledger.text(4) == 1
    assert ledger.text(1) == 1


def test_a_zero_width_token_counts_into_the_run_holding_the_next_byte():
    ledger = Ledger()
    ledger.note_delta(Delta("ab", [1, 2, 3], [T(1, 0, 1), T(2, 1, 1), T(3, 1, 2)]))
    assert ledger.text(1) == 1
    assert ledger.text(1) == 2
    ledger = Ledger()
    ledger.note_delta(Delta("ab", [1, 2], [T(1, 0, 0), T(2, 0, 2)]))
    assert ledger.text(1) == 2


def test_a_zero_width_token_at_the_end_is_left_for_finish():
    ledger = Ledger()
    ledger.note_delta(Delta("ab", [1, 2], [T(1, 0, 2), T(2, 2, 2)]))
    assert ledger.text(2) == 1
    assert ledger.finish() == 1
    assert ledger.finish() == 0, "finish hands out what is left once"
    ledger = Ledger()
    ledger.note_delta(Delta("", [7, 8], [T(7, 0, 0), T(8, 0, 0)]))
    assert ledger.received == 0
    assert ledger.finish() == 2


def test_continued_spans_are_never_counted():
    # a token whose bytes the decoder held: zero-width where it was produced, released later
    ledger = Ledger()
    ledger.note_delta(Delta("x", [1, 2], [T(1, 0, 1), T(2, 1, 1)]))
    ledger.note_delta(Delta("yz", [], [T(2, 0, 1, continued=True), T(2, 1, 2, continued=True)]))
    assert ledger.text(1) == 1
    assert ledger.text(1) == 1      # token 2 counted once, at its zero-width start
    assert ledger.text(1) == 0
    assert ledger.finish() == 0


def test_held_halves_of_a_character_count_into_the_characters_run():
    # token 2 made half of `é` (held: zero-width), token 3 completed it and owns it
    ledger = Ledger()
    ledger.note_delta(Delta("x", [1, 2], [T(1, 0, 1), T(2, 1, 1)]))
    ledger.note_delta(Delta("é", [3], [T(3, 0, 2)]))
    assert ledger.text(1) == 1
    assert ledger.text(2) == 2


def test_empty_runs_count_nothing_but_move_nothing():
    ledger = Ledger()
    ledger.note_delta(Delta("ab", [1, 2], [T(1, 0, 1), T(2, 1, 2)]))
    assert ledger.text(0) == 0
    assert ledger.text(1) == 1
    assert ledger.text(0) == 0
    assert ledger.text(1) == 1


def test_an_empty_delta_without_spans_keeps_counting():
    ledger = Ledger()
    ledger.note_delta(Delta(""))
    assert ledger.counting()
    ledger.note_delta(Delta("ab", [1], [T(1, 0, 2)]))
    assert ledger.text(2) == 1


def test_text_without_spans_turns_the_stream_uncounted_for_good():
    ledger = Ledger()
    ledger.note_delta(Delta("ab", [1, 2, 3], [T(1, 0, 1), T(2, 1, 2, continued=False), T(3, 2, 2)]))
    ledger.note_delta(Delta("cd"))
    assert ledger.uncounted and not ledger.counting()
    assert ledger.received == 4
    assert ledger.text(1) is None
    ledger.note_delta(Delta("ef", [4], [T(4, 0, 2)]))
    assert ledger.received == 6
    assert ledger.uncounted
    assert ledger.text(5) is None
    assert ledger.emitted == 6
    assert ledger.finish() == 0, "the queue is cleared when counting stops"


@pytest.mark.parametrize("text, spans", [
    ("abc", [T(1, 0, 1), T(2, 2, 3)]),                       # a gap
    ("abc", [T(1, 0, 2), T(2, 1, 3)]),                       # an overlap
    ("abc", [T(1, 1, 3)]),                                   # not from 0
    ("abc", [T(1, 0, 2)]),                                   # not to the end
    ("abc", [T(1, 0, 4)]),                                   # past the end
    ("abc", [T(2, 1, 3), T(1, 0, 1)]),                       # out of order
    ("é", [T(1, 0, 1), T(2, 1, 2)]),                         # an end inside a character
    ("aé", [T(1, 0, 2), T(2, 2, 3)]),
    ("abc", [T(1, 0, 0)]),                                   # zero-width only, text left over
    ("", [T(1, 0, 1)]),
])
def test_spans_that_do_not_partition_turn_the_stream_uncounted(text, spans):
    ledger = Ledger()
    ledger.note_delta(Delta("x", [9], [T(9, 0, 1)]))
    ledger.note_delta(Delta(text, [s.token_id for s in spans], spans))
    assert ledger.uncounted
    assert ledger.text(1) is None
    assert ledger.finish() == 0


def test_numpy_spans_count_like_token_spans():
    for dtype in (np.int32, np.int64):
        ledger = Ledger()
        rows = np.array([[1, 0, 1, 0], [2, 1, 1, 0], [3, 1, 3, 0], [3, 3, 4, 1]], dtype=dtype)
        ledger.note_delta(Delta("abcd", np.array([1, 2, 3], dtype=dtype), rows))
        assert ledger.counting()
        assert ledger.text(1) == 1
        assert ledger.text(3) == 2
        assert ledger.finish() == 0
        ledger = Ledger()
        ledger.note_delta(Delta("abcd", [1], np.array([[1, 0, 3, 0]], dtype=dtype)))
        assert ledger.uncounted


def test_numpy_spans_need_not_be_contiguous_or_writable():
    transposed = np.array([[1, 2], [0, 1], [1, 2], [0, 0]], dtype=np.int64).T
    strided = np.array([[1, 0, 1, 0], [9, 9, 9, 9], [2, 1, 2, 0]], dtype=np.int64)[::2]
    frozen = np.array([[1, 0, 1, 0], [2, 1, 2, 0]], dtype=np.int32)
    frozen.setflags(write=False)
    for rows in (transposed, strided, frozen):
        ledger = Ledger()
        ledger.note_delta(Delta("ab", (1, 2), rows))
        assert ledger.counting()
        assert (ledger.text(1), ledger.text(1)) == (1, 1)


def test_a_long_stream_of_tokens():
    ledger = Ledger()
    total = 0
    for k in range(3000):
        ledger.note_delta(Delta("ab", [k], [T(k, 0, 1), T(k, 1, 2, continued=True)]))
        total += ledger.text(1) + ledger.text(1)
    assert total == 3000
    assert ledger.received == ledger.emitted == 6000
    # a queue that grows long before it is drained
    ledger = Ledger()
    for k in range(5000):
        ledger.note_delta(Delta("x", [k, k + 1], [T(k, 0, 1), T(k + 1, 1, 1)]))
    assert ledger.text(2500) == 5000 - 1
    assert ledger.text(2500) == 5000
    assert ledger.finish() == 1


# ---- TokenSpan.partitions (SPEC §1.5)

@pytest.mark.parametrize("spans, text", [
    ([], ""),
    ([T(1, 0, 0)], ""),
    ([T(1, 0, 0), T(2, 0, 0)], ""),
    ([T(1, 0, 3)], "abc"),
    ([T(1, 0, 0), T(2, 0, 1), T(3, 1, 1), T(4, 1, 3), T(5, 3, 3)], "abc"),
    ([T(1, 0, 2), T(2, 2, 6)], "é😀"),
    ([T(1, 0, 2, continued=True)], "é"),
    ((T(1, 0, 1), T(2, 1, 2)), "ab"),
])
def test_spans_that_partition(spans, text):
    assert TokenSpan.partitions(spans, text) is True
    assert TokenSpan.partitions(spans, text.encode()) is True


@pytest.mark.parametrize("spans, text", [
    ([], "a"),
    ([T(1, 0, 0)], "a"),
    ([T(1, 0, 1)], ""),
    ([T(1, 1, 2)], "ab"),
    ([T(1, 0, 1), T(2, 2, 3)], "abc"),
    ([T(1, 0, 2), T(2, 1, 3)], "abc"),
    ([T(2, 1, 2), T(1, 0, 1)], "ab"),
    ([T(1, 0, 3)], "ab"),
    ([T(1, 0, 1)], "é"),
    ([T(1, 0, 1), T(2, 1, 2)], "é"),
    ([T(1, 0, 3), T(2, 3, 6)], "😀😀"[:1] + "ab"),
    ([T(1, 0, 2), T(2, 2, 2), T(3, 1, 3)], "abc"),
])
def test_spans_that_do_not_partition(spans, text):
    assert TokenSpan.partitions(spans, text) is False


def test_partitions_reads_numpy_rows():
    assert TokenSpan.partitions(np.array([[1, 0, 2, 0], [2, 2, 2, 1]], dtype=np.int32), "é")
    assert not TokenSpan.partitions(np.array([[1, 0, 1, 0]], dtype=np.int64), "é")


# ---- TokenSpan and Delta as inputs

def test_token_span_fields_and_checks():
    span = TokenSpan(5, 1, 3, continued=True)
    assert (span.token_id, span.start, span.end, span.continued) == (5, 1, 3, True)
    assert TokenSpan(5, 1, 3) == TokenSpan(5, 1, 3, False) != span
    assert hash(TokenSpan(5, 1, 3)) == hash(TokenSpan(5, 1, 3))
    with pytest.raises(ValueError):
        TokenSpan(1, -1, 0)
    with pytest.raises(ValueError):
        TokenSpan(1, 3, 2)
    with pytest.raises(TypeError):
        TokenSpan(True, 0, 1)
    with pytest.raises(TypeError):
        TokenSpan("1", 0, 1)
    with pytest.raises(AttributeError):
        span.start = 0


def test_delta_takes_spans_as_a_list_or_tuple_of_token_spans():
    spans = [T(1, 0, 1), T(2, 1, 2)]
    assert Delta("ab", [1, 2], spans).spans == tuple(spans)
    assert Delta("ab", (1, 2), tuple(spans)).spans == tuple(spans)
    assert Delta("ab").spans == ()
    with pytest.raises(TypeError, match="spans"):
        Delta("ab", [1], [T(1, 0, 1), (2, 1, 2, 0)])
    with pytest.raises(TypeError):
        Delta(b"ab")
    with pytest.raises(TypeError):
        Delta(None)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.int16])
def test_delta_takes_spans_as_an_integer_array(dtype):
    rows = np.array([[1, 0, 1, 0], [2, 1, 2, 1]], dtype=dtype)
    delta = Delta("ab", np.array([1], dtype=dtype), rows)
    assert isinstance(delta.token_ids, np.ndarray)
    ledger = Ledger()
    ledger.note_delta(delta)
    assert ledger.counting()
    assert ledger.text(2) == 1


@pytest.mark.parametrize("shape", [(4,), (2, 3), (2, 5), (1, 4, 1), (4, 1)])
def test_delta_refuses_arrays_of_other_shapes(shape):
    with pytest.raises(ValueError, match="spans"):
        Delta("ab", (), np.zeros(shape, dtype=np.int64))


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0,)])
def test_delta_refuses_empty_arrays_of_other_shapes(shape):
    with pytest.raises(ValueError, match="spans"):
        Delta("", (), np.zeros(shape, dtype=np.int64))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.bool_, object, np.complex128])
def test_delta_refuses_arrays_of_non_integer_dtype(dtype):
    with pytest.raises(TypeError, match="spans"):
        Delta("ab", (), np.array([[1, 0, 2, 0]], dtype=dtype))


def test_delta_takes_token_ids_as_a_list_or_array():
    assert Delta("a", [1, 2]).token_ids == [1, 2]
    assert list(Delta("a", np.array([1, 2], dtype=np.int64)).token_ids) == [1, 2]
    assert Delta("a").token_ids == ()


# ---- through a parser: the SPEC's qwen3 example

QWEN3_TOKENS = ["<think>", "\nplan", "\n</think>", "\n\nHi"]


def test_the_spec_example_in_one_delta():
    text = "".join(QWEN3_TOKENS)
    bounds = [0]
    for t in QWEN3_TOKENS:
        bounds.append(bounds[-1] + len(t.encode()))
    spans = [T(i, a, b) for i, (a, b) in enumerate(zip(bounds, bounds[1:]))]
    p = symphony.parser("qwen3")
    events = p.feed(Delta(text, list(range(4)), spans)) + p.feed(End("stop"))
    assert events == [
        Dropped(symphony.Text("<think>", 1), DropReason.WRAPPER),
        ReasoningStart(),
        Reasoning("\nplan\n", 2),
        Dropped(symphony.Text("</think>", 0), DropReason.WRAPPER),
        ReasoningEnd(),
        Content("\n\nHi", 1),
        Finish(FinishReason.STOP, 0, 2),
    ]


def test_the_spec_example_a_token_per_delta():
    p = symphony.parser("qwen3")
    events = []
    for i, t in enumerate(QWEN3_TOKENS):
        events += p.feed(Delta(t, [i], [T(i, 0, len(t.encode()))]))
    events += p.feed(End("stop"))
    dropped = [(e.text.text, e.text.tokens) for e in events if type(e) is Dropped]
    assert dropped == [("<think>", 1), ("</think>", 0)]
    reasoning = [e for e in events if type(e) is Reasoning]
    assert "".join(e.text for e in reasoning) == "\nplan\n"
    assert sum(e.tokens for e in reasoning) == 2
    assert [(e.text, e.tokens) for e in events if type(e) is Content] == [("\n\nHi", 1)]
    assert events[-1] == Finish(FinishReason.STOP, 0, 2)


def test_a_trailing_zero_width_token_is_a_control_token_drop():
    p = symphony.parser("qwen3")
    events = p.feed(Delta("Hi", [1, 2], [T(1, 0, 2), T(2, 2, 2)])) + p.feed(End("stop"))
    assert events == [Content("Hi", 1), Dropped(symphony.Text("", 1), DropReason.CONTROL_TOKEN),
                      Finish(FinishReason.STOP, 0, 0)]


def test_an_uncounted_stream_has_no_counts_and_zero_reasoning_tokens():
    p = symphony.parser("qwen3")
    first = p.feed(Delta("<think>ab", [1, 2], [T(1, 0, 7), T(2, 7, 9)]))
    assert [tokens_of(e) for e in first] == [1, None, 1]
    later = p.feed(Delta("c</think>d")) + p.feed(End("length"))
    assert later[-1] == Finish(FinishReason.LENGTH, 0, 0)
    assert [tokens_of(e) for e in later[:-1]] == [None, None, None, None]


CORPUS = st.lists(st.sampled_from(["<think>", "</think>", "\nplan", "é😀", "<tool_call>", "</tool_call>",
                                   '\n{"name": "f", "arguments": {"a": 1}}\n', "Hi", " ", "<thi", "x"]),
                  max_size=10).map("".join)


@settings(max_examples=200, deadline=None)
@given(CORPUS, st.integers(1, 30))
def test_every_event_counts_the_tokens_starting_in_its_bytes(output, seed):
    pieces = split_at(output, seeded_cuts(len(output), seed)) if output else [""]
    trailing = 1 + seed % 3
    bounds = synthetic_token_bounds(output, trailing)
    p = symphony.parser("qwen3")
    events = []
    for delta in counted_deltas(pieces, bounds):
        events += p.feed(delta)
    events += p.feed(End("stop"))
    assert "".join(bytes_of(e) for e in events) == output
    starts = [len(output[:a].encode()) for a, b in bounds]
    texts = [e for e in events if type(e) not in (ReasoningStart, ReasoningEnd, Finish)]
    assert texts[-1] == Dropped(symphony.Text("", trailing), DropReason.CONTROL_TOKEN)
    want = expected_token_counts(texts[:-1], output, starts[:-trailing])
    assert [tokens_of(e) for e in texts[:-1]] == want
    assert sum(tokens_of(e) for e in texts) == len(bounds)
    assert events[-1].reasoning_tokens == sum(e.tokens for e in events if type(e) is Reasoning)
