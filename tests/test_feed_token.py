"""Engine.feed_token(text, token_id): one decoded token fed without a Delta. It is exactly
feed(Delta(text, [token_id], [TokenSpan(token_id, 0, <text's UTF-8 length>)])): the same events
and token counts, the same checks, the same lifecycle, the same failure and buffer limit. The
property over every table and token layout is in tests/test_properties.py (token_by_token)."""
import gc
import os

import pytest

import symphony
from symphony import BufferOverflowError, ConcurrentUseError, Delta, End, LifecycleError, Malformed, Prompt, TokenSpan
from tests.common import carries_text, check_conservation, check_well_formed, tokens_of
from tests.test_reentry import TOOLS, TEXT, feeding_from_the_collector

OUTPUT = ("<think>\nplan é 🎉</think>Hi <tool_call>\n"
          '{"name": "get_weather", "arguments": {"city": "Paris", "n": 2}}\n</tool_call> done')


def tokens(text, size=3):
    """The text cut into tokens of `size` characters, ids from 100, and a zero-width last one."""
    pieces = [text[i:i + size] for i in range(0, len(text), size)] + [""]
    return [(piece, 100 + i) for i, piece in enumerate(pieces)]


def by_delta(parser, steps):
    return [parser.feed(Delta(t, [i], [TokenSpan(i, 0, len(t.encode("utf-8")))])) for t, i in steps]


def by_token(parser, steps):
    return [parser.feed_token(t, i) for t, i in steps]


@pytest.mark.parametrize("table", ["qwen3", "qwen3_tagged", "glm", "deepseek_v3_1", "gpt_oss"])
@pytest.mark.parametrize("size", [1, 2, 5])
def test_each_feed_gives_what_the_delta_of_that_token_gives(table, size):
    steps = tokens(OUTPUT, size)
    a, b = symphony.parser(table), symphony.parser(table)
    assert by_token(a, steps) == by_delta(b, steps)
    assert a.feed(End("stop")) == b.feed(End("stop"))
    assert a.counting and b.counting


def test_the_tokens_are_counted():
    steps = tokens(OUTPUT, 4)
    p = symphony.parser("qwen3")
    events = p.feed(Prompt("<|im_start|>assistant\n"))
    for feed in by_token(p, steps):
        events += feed
    events += p.feed(End("stop"))
    check_conservation(events, OUTPUT)
    check_well_formed(events)
    assert sum(tokens_of(e) for e in events if carries_text(e)) == len(steps)
    assert events[-1].reasoning_tokens == sum(e.tokens for e in events if type(e) is symphony.Reasoning)


def test_mixed_with_deltas_and_after_an_uncounted_delta():
    p, q = symphony.parser("qwen3"), symphony.parser("qwen3")
    assert p.feed_token("Hi", 1) == q.feed(Delta("Hi", [1], [TokenSpan(1, 0, 2)]))
    assert p.feed(Delta(" there")) == q.feed(Delta(" there"))        # no spans: uncounted from here
    assert not p.counting
    assert p.feed_token(" you", 2) == q.feed(Delta(" you", [2], [TokenSpan(2, 0, 4)]))
    assert p.feed_token(" you", 2)[0].tokens is None
    assert not p.counting


def test_the_text_and_the_id_are_checked_as_a_delta_checks_them():
    p = symphony.parser("qwen3")
    with pytest.raises(TypeError, match="feed_token: text must be a str, not bytes"):
        p.feed_token(b"x", 1)
    with pytest.raises(ValueError, match=r"feed_token: token_id: a token id is 0 <= id < 2\*\*32, got -1"):
        p.feed_token("x", -1)
    with pytest.raises(ValueError, match="feed_token: token_id"):
        p.feed_token("x", 1 << 32)
    with pytest.raises(TypeError, match="feed_token: token_id: a token id is an int, not bool"):
        p.feed_token("x", True)
    with pytest.raises(TypeError, match="feed_token: token_id: a token id is an int, not str"):
        p.feed_token("x", "1")
    with pytest.raises(ValueError, match="feed_token: text: not UTF-8 text"):
        p.feed_token("\ud800", 1)
    # a refused input changes nothing: the parser goes on as if it had not been given
    assert not p.failed and p.feed_token("ok", (1 << 32) - 1) == [symphony.Content("ok", 1)]
    import numpy
    assert p.feed_token(StrLike("!"), numpy.int64(7)) == [symphony.Content("!", 1)]


class StrLike(str):
    def __str__(self):
        return "not this"


def test_keywords_and_the_lifecycle():
    p = symphony.parser("qwen3")
    assert p.feed_token(text="a", token_id=1) == [symphony.Content("a", 1)]
    p.feed(End("stop"))
    with pytest.raises(LifecycleError, match="delta after end"):
        p.feed_token("b", 2)


def test_a_failure_is_final_and_end_returns_what_was_held():
    head = '<tool_call>\n{"arguments": {"a": "'
    p = symphony.parser("qwen3", buffer_limit=50)
    before = by_token(p, [("hi ", 1), (head, 2)])
    with pytest.raises(BufferOverflowError) as caught:
        p.feed_token("x" * 100, 3)
    # the region's opener, held until a call starts, goes out as it was recorded
    assert caught.value.events == [symphony.Dropped(symphony.Text("<tool_call>", 1), symphony.DropReason.WRAPPER)]
    assert p.failed
    with pytest.raises(LifecycleError, match="delta after a parse error"):
        p.feed_token("more", 4)
    after = p.feed(End("stop"))
    assert [type(e) for e in after] == [Malformed, symphony.Finish]
    check_conservation([e for feed in before for e in feed] + caught.value.events + after, "hi " + head + "x" * 100)


def test_a_feed_token_from_inside_a_feed_token_is_refused():
    p = symphony.parser("qwen3_tagged", TOOLS)
    inner = Delta("x")
    seen, got = feeding_from_the_collector(p, lambda: p.feed_token(TEXT, 9), inner)
    assert seen and all(type(s) is ConcurrentUseError for s in seen), seen
    events = got + p.feed(End("stop"))
    check_conservation(events, TEXT)
    gc.collect()


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
@pytest.mark.parametrize("way", ["feed_token", "delta"])
def test_a_run_of_empty_tokens_takes_constant_memory(way):
    # each empty token counts into the event holding the next byte; however many come, the parser
    # keeps them as one count per offset (held: 0, so the buffer limit has nothing to stop)
    parser = symphony.parser("qwen3", buffer_limit=1024)
    empty = Delta("", [7], [TokenSpan(7, 0, 0)])
    feed = (lambda: parser.feed_token("", 7)) if way == "feed_token" else (lambda: parser.feed(empty))
    runs = 2_000_000
    before = resident_bytes()
    for _ in range(runs):
        feed()
    assert resident_bytes() - before < 5 << 20       # the starts of 2M tokens would be 16 MB
    assert parser.held == 0
    assert parser.feed_token("Hi <tool", 8) == [symphony.Content("Hi ", tokens=runs + 1)]
    for _ in range(runs):
        feed()
    assert resident_bytes() - before < 5 << 20 and parser.held == 5
    assert parser.feed_token("x", 9) == [symphony.Content("<toolx", tokens=runs + 1)]
    for _ in range(3):
        feed()
    assert parser.feed(End("stop"))[0].text == symphony.Text("", tokens=3)     # trailing: a control token drop
