"""Shared test machinery (SPEC §9.1, §9.2): cut plans, replays, the chunking-invariant summary of
a parse (`Said`), the well-formedness and conservation checks, and synthetic token spans.
"""
import bisect
import functools
import itertools

import symphony
from symphony import Delta, TokenSpan
from symphony.events import (
    Finish,
    Reasoning,
    ReasoningEnd,
    ReasoningStart,
    ToolCallArguments,
    ToolCallEnd,
    ToolCallStart,
    bytes_of,
)
# The cut plans, the replay and the chunking-invariant summary are the product's own (symphony
# verify runs them on recorded outputs); the tests share them rather than keep a second copy. The
# plans a test replays are the tier's (tests/tiers.py: all of them, or a seeded sample).
from symphony.replay import Said, replay_text, said, seeded_cuts, split_at, tokens_of  # noqa: F401
from recorded.pieces import streamed_pieces  # noqa: F401
from tests.tiers import chunkings  # noqa: F401

MASK64 = (1 << 64) - 1


def replay(parser, pieces, prompt=None, finish="stop", empty_between=False):
    """Feeds Prompt (when given), one uncounted Delta per piece (optionally an empty delta before
    each piece and after the last), End. Returns all events."""
    return replay_text(parser, pieces, prompt, finish, empty_between)


def runs(events):
    """Events as wire dicts with adjacent Dropped (Malformed) of one reason joined into one: the
    parser joins them within a feed (as it joins Content), so a test that pins what each byte
    becomes compares runs, not how a feed happened to cut them."""
    out = []
    for e in events:
        d = e if isinstance(e, dict) else e.to_dict()
        last = out[-1] if out else None
        if last and d["kind"] in ("dropped", "malformed") and last["kind"] == d["kind"] and last["why"] == d["why"]:
            a, b = last["text"]["tokens"], d["text"]["tokens"]
            tokens = None if a is None or b is None else a + b
            out[-1] = {**last, "text": {"text": last["text"]["text"] + d["text"]["text"], "tokens": tokens}}
        else:
            out.append(d)
    return out


def check_conservation(events, output):
    joined = "".join(bytes_of(e) for e in events)
    assert joined == output, f"bytes not conserved:\n  output {output!r}\n  events {joined!r}"
    assert events and type(events[-1]) is Finish, "Finish must come last"


@functools.lru_cache(maxsize=1 << 16)
def is_json_prefix(text):
    """The oracle accepts all of `text` as a JSON prefix (remembered: every cut plan of one output
    joins the same argument prefixes again)."""
    from tests.oracles.json_prefix import prefix_end
    return prefix_end(text) == len(text.encode())


def check_well_formed(events):
    """SPEC §9.2 well-formedness and order."""
    started = {}
    ended = set()
    in_reasoning = False
    finishes = 0
    next_index = 0
    for position, e in enumerate(events):
        kind = type(e)
        assert finishes == 0, f"event after Finish: {e!r}"
        if kind is ToolCallStart:
            assert e.index not in started, f"second start for index {e.index}"
            assert e.index == next_index, f"calls must be numbered in order: got {e.index}, want {next_index}"
            # the id the model wrote in the call's head, where it wrote one, else call_<index>
            assert e.id == f"call_{e.index}" or (e.id and e.id in e.source.text), f"id {e.id!r} for index {e.index}"
            next_index += 1
            started[e.index] = ""
        elif kind is ToolCallArguments:
            assert e.index in started and e.index not in ended, f"arguments outside call {e.index}: {e!r}"
            started[e.index] += e.json
            joined = started[e.index]
            assert is_json_prefix(joined), f"arguments not a valid prefix: {joined!r}"
        elif kind is ToolCallEnd:
            assert e.index in started and e.index not in ended, f"end outside call {e.index}"
            ended.add(e.index)
        elif kind is ReasoningStart:
            assert not in_reasoning, "nested ReasoningStart"
            in_reasoning = True
        elif kind is ReasoningEnd:
            assert in_reasoning, "ReasoningEnd with no thought open"
            in_reasoning = False
        elif kind is Reasoning:
            assert in_reasoning, f"Reasoning outside a thought: {e!r}"
        elif kind is Finish:
            finishes += 1
            assert e.tool_calls == len(started), f"Finish.tool_calls {e.tool_calls} != {len(started)} starts"
    assert finishes == 1, f"{finishes} Finish events"
    assert not in_reasoning, "a thought left open"
    assert set(started) == ended, f"calls not ended: {set(started) - ended}"


def synthetic_token_bounds(text, trailing=1):
    """Character ranges of synthetic tokens of 1-3 characters (SPEC §9.2's xorshift), plus
    `trailing` zero-width tokens at the end."""
    s = 0x2545F4914F6CDD1D
    bounds = []
    at = 0
    while at < len(text):
        s ^= (s << 13) & MASK64
        s ^= s >> 7
        s ^= (s << 17) & MASK64
        step = 1 + s % 3
        bounds.append((at, min(at + step, len(text))))
        at += step
    bounds += [(len(text), len(text))] * trailing
    return bounds


def counted_deltas(pieces, token_bounds, token_ids=None):
    """Deltas carrying spans for tokens given as character ranges over the joined pieces; a token
    cut by a delta boundary continues there with continued=True; a zero-width token sits in the
    delta where its offset falls (the last delta for the end)."""
    # byte offset of every character of the joined pieces (a span's bytes are differences of two)
    text = "".join(pieces)
    byte_at = range(len(text) + 1) if text.isascii() else \
        list(itertools.accumulate((len(ch.encode()) for ch in text), initial=0))
    ids_of = token_ids if token_ids is not None else range(1000, 1000 + len(token_bounds))
    n_tokens = len(token_bounds)
    last = len(pieces) - 1
    deltas = []
    offset = 0
    t = 0
    for k, piece in enumerate(pieces):
        end = offset + len(piece)
        base = byte_at[offset]
        spans = []
        ids = []
        while t < n_tokens:
            t0, t1 = token_bounds[t]
            token_id = ids_of[t]
            if t1 == t0:
                if t0 < end or (t0 == end and k == last):
                    b = byte_at[t0] - base
                    spans.append(TokenSpan(token_id, b, b))
                    ids.append(token_id)
                    t += 1
                    continue
                break
            lo = t0 if t0 > offset else offset
            hi = t1 if t1 < end else end
            if lo >= hi:
                break
            spans.append(TokenSpan(token_id, byte_at[lo] - base, byte_at[hi] - base, t0 < offset))
            if t0 >= offset:
                ids.append(token_id)
            if t1 <= end:
                t += 1
            else:
                break
        deltas.append(Delta(piece, ids, spans))
        offset = end
    return deltas


def expected_token_counts(events, output, token_starts_bytes):
    """For each text-carrying event, the number of token starts inside its byte range."""
    counts = []
    at = 0
    starts = sorted(token_starts_bytes)
    for e in events:
        n = len(bytes_of(e).encode())
        counts.append(bisect.bisect_left(starts, at + n) - bisect.bisect_left(starts, at))
        at += n
    return counts


def carries_text(event):
    return type(event) not in (ReasoningStart, ReasoningEnd, Finish)


def new_parser(table, tools=None):
    return symphony.parser(table, tools)

