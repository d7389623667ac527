"""The buffer limit: a parser holds at most `buffer_limit` output bytes between feeds;
a feed that leaves more fails it with BufferOverflowError, and End returns the held bytes as
Malformed, every byte still in one event. Long streamed arguments are let go of as they go out."""
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symphony
from symphony import BufferOverflowError, Delta, End, Malformed, TokenSpan, ToolCallArguments
from symphony.reasons import DropReason
from tests.common import check_conservation, check_well_formed, tokens_of
from tests.strategies import cut_plans, outputs

HEAD = '<tool_call>\n{"arguments": {"a": "'


def test_the_default_and_no_limit():
    assert symphony.DEFAULT_BUFFER_LIMIT == 64 << 20
    assert symphony.parser("qwen3").buffer_limit == symphony.DEFAULT_BUFFER_LIMIT
    assert symphony.parser("qwen3", buffer_limit=None).buffer_limit is None
    assert symphony.parser("qwen3", tool_choice="required", buffer_limit=7).buffer_limit == 7
    for bad in (-1, 1.5, "10", True):
        with pytest.raises(ValueError, match="buffer_limit must be None or an int >= 0"):
            symphony.parser("qwen3", buffer_limit=bad)


def test_a_feed_that_leaves_too_much_held_fails_and_end_returns_it():
    p = symphony.parser("qwen3", buffer_limit=100)
    before = p.feed(Delta("hi " + HEAD))
    # the call region's opener is held too, until a call starts in it (or none does)
    assert p.held == len(HEAD)
    with pytest.raises(BufferOverflowError, match="^buffered output exceeded 100 bytes$") as caught:
        p.feed(Delta("x" * 200))
    assert caught.value.limit == 100 and caught.value.offset == len("hi <tool_call>")
    # what was recorded goes out as it is: the opener, Dropped
    assert caught.value.events == [symphony.Dropped("<tool_call>", DropReason.WRAPPER)] and p.failed
    with pytest.raises(symphony.LifecycleError):
        p.feed(Delta("more"))
    after = p.feed(End("stop"))
    held = HEAD[len("<tool_call>"):] + "x" * 200
    assert [type(e) for e in after] == [Malformed, symphony.Finish]
    assert after[0].text.text == held
    check_conservation(before + caught.value.events + after, "hi " + HEAD + "x" * 200)


def test_a_whole_parse_past_the_limit_carries_every_event():
    output = "text " + HEAD + "y" * 500
    with pytest.raises(BufferOverflowError) as caught:
        symphony.parse("qwen3", output, buffer_limit=64)
    check_conservation(caught.value.events, output)
    assert symphony.parse("qwen3", output, buffer_limit=None)[-1].tool_calls == 0


def test_the_limit_counts_held_bytes_not_what_streams():
    # a call's arguments go out as they come: a 2 MB string under a 64 KB limit never overflows,
    # and the call lets go of what it sent
    p = symphony.parser("qwen3", buffer_limit=64 << 10)
    events = p.feed(Delta('<tool_call>\n{"name": "f", "arguments": {"a": "'))
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for _ in range(2000):
            events += p.feed(Delta("z" * 1000))
            assert p.held < 64 << 10
        grown = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    events += p.feed(Delta('"}}\n</tool_call>')) + p.feed(End("stop"))
    joined = "".join(e.json for e in events if type(e) is ToolCallArguments)
    assert joined == '{"a": "' + "z" * 2_000_000 + '"}'
    assert grown < 2_000_000 * 3, "the events themselves, not a copy held by the parser"


def test_a_counted_stream_keeps_its_tokens_through_the_failure():
    text = HEAD + "abcdefgh"
    spans = [TokenSpan(i, i, i + 1) for i in range(len(text))]
    p = symphony.parser("qwen3", buffer_limit=10)
    with pytest.raises(BufferOverflowError) as caught:
        p.feed(Delta(text, list(range(len(text))), spans))
    events = caught.value.events + p.feed(End("stop"))
    check_conservation(events, text)
    assert sum(tokens_of(e) or 0 for e in events) == len(text)


def test_buffers_are_given_back_after_a_large_delta():
    p = symphony.parser("qwen3", buffer_limit=None)
    p.feed(Delta("<"))                   # held: the big delta is copied behind it to be scanned
    p.feed(Delta("a" * (8 << 20)))
    tracemalloc.start()
    try:
        p.feed(Delta("b"))
        assert tracemalloc.get_traced_memory()[0] < 1 << 20
    finally:
        tracemalloc.stop()


@settings(max_examples=settings.default.max_examples, deadline=None)
@given(st.sampled_from(symphony.formats()), st.data(), st.integers(0, 40))
def test_every_table_past_any_limit_still_accounts_for_every_byte(table, data, limit):
    output = data.draw(outputs(table))
    pieces = data.draw(cut_plans(output))
    p = symphony.parser(table, buffer_limit=limit)
    events, fed = [], ""
    for piece in pieces:
        fed += piece
        try:
            events += p.feed(Delta(piece))
        except BufferOverflowError as error:
            assert error.limit == limit
            events += error.events
            break
        assert p.held <= limit
    events += p.feed(End("stop"))
    check_conservation(events, fed)
    check_well_formed(events)
