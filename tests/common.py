"""Shared test machinery (SPEC §9.1, §9.2): cut plans, replays, the chunking-invariant summary of
a parse (`Said`), the well-formedness and conservation checks, and synthetic token spans.
"""
import dataclasses

import symphony
from symphony import Delta, End, Prompt, TokenSpan
from symphony.events import (
    Content,
    Dropped,
    Finish,
    Malformed,
    Reasoning,
    ReasoningEnd,
    ReasoningStart,
    ToolCallArguments,
    ToolCallEnd,
    ToolCallStart,
    bytes_of,
)
from symphony.reasons import reason_to_wire

MASK64 = (1 << 64) - 1


def seeded_cuts(n_chars, seed):
    """Character indexes of one seeded plan of 1-8 character pieces (SPEC §9.1's generator)."""
    state = (seed * 0x9E3779B97F4A7C15 | 1) & MASK64
    at = 0
    cuts = []
    while True:
        state = (state * 6364136223846793005 + 1442695040888963407) & MASK64
        at += 1 + (state >> 33) % 8
        if at >= n_chars:
            return cuts
        cuts.append(at)


def split_at(text, cuts):
    """The pieces of `text` cut at the given character indexes."""
    pieces = []
    last = 0
    for cut in cuts:
        pieces.append(text[last:cut])
        last = cut
    pieces.append(text[last:])
    return pieces


def chunkings(text, every_split_up_to=None, seeds=30):
    """Named cut plans of `text`: whole, every two-way split (when len <= every_split_up_to, or
    always when it is None), character by character, and `seeds` seeded plans."""
    plans = [("whole", [text])]
    if every_split_up_to is None or len(text) <= every_split_up_to:
        plans += [(f"split-{i}", [text[:i], text[i:]]) for i in range(1, len(text))]
    plans.append(("character by character", list(text) if text else [""]))
    plans += [(f"seeded-{seed}", split_at(text, seeded_cuts(len(text), seed))) for seed in range(1, seeds + 1)]
    return plans


def replay(parser, pieces, prompt=None, finish="stop", empty_between=False):
    """Feeds Prompt (when given), one uncounted Delta per piece (optionally an empty delta before
    each piece and after the last), End. Returns all events."""
    events = []
    if prompt is not None:
        events += parser.feed(Prompt(prompt))
    for piece in pieces:
        if empty_between:
            events += parser.feed(Delta(""))
        events += parser.feed(Delta(piece))
    if empty_between:
        events += parser.feed(Delta(""))
    events += parser.feed(End(finish))
    return events


@dataclasses.dataclass(frozen=True)
class Said:
    """What a parse said, in a form every chunking of the same output must agree on."""
    content: str
    reasoning: tuple       # one string per reasoning region
    dropped: tuple         # (reason, joined text) sorted by reason
    malformed: tuple
    calls: tuple           # (index, id, name)
    arguments: tuple       # (index, joined json)
    ended: tuple           # indexes ended
    finish: tuple          # (reason, tool_calls, reasoning_tokens)


def said(events):
    content = []
    regions = []
    open_region = None
    dropped = {}
    malformed = {}
    calls = []
    arguments = {}
    ended = []
    finish = None
    for e in events:
        kind = type(e)
        if kind is Content:
            content.append(e.text)
        elif kind is ReasoningStart:
            open_region = []
            regions.append(open_region)
        elif kind is Reasoning:
            if open_region is None:
                open_region = []
                regions.append(open_region)
            open_region.append(e.text)
        elif kind is ReasoningEnd:
            open_region = None
        elif kind is Dropped:
            key = str(reason_to_wire(e.why))
            dropped[key] = dropped.get(key, "") + e.text.text
        elif kind is Malformed:
            key = repr(reason_to_wire(e.why))
            malformed[key] = malformed.get(key, "") + e.text.text
        elif kind is ToolCallStart:
            calls.append((e.index, e.id, e.name))
            arguments.setdefault(e.index, "")
        elif kind is ToolCallArguments:
            arguments[e.index] = arguments.get(e.index, "") + e.json
        elif kind is ToolCallEnd:
            ended.append(e.index)
        elif kind is Finish:
            finish = (str(reason_to_wire(e.reason)), e.tool_calls, e.reasoning_tokens)
    return Said(
        content="".join(content),
        reasoning=tuple("".join(r) for r in regions),
        dropped=tuple(sorted(dropped.items())),
        malformed=tuple(sorted(malformed.items())),
        calls=tuple(calls),
        arguments=tuple(sorted(arguments.items())),
        ended=tuple(ended),
        finish=finish,
    )


def check_conservation(events, output):
    joined = "".join(bytes_of(e) for e in events)
    assert joined == output, f"bytes not conserved:\n  output {output!r}\n  events {joined!r}"
    assert events and type(events[-1]) is Finish, "Finish must come last"


def check_well_formed(events):
    """SPEC §9.2 well-formedness and order."""
    from tests.oracles.json_prefix import prefix_end

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
            assert e.id == f"call_{e.index}", f"id {e.id!r} for index {e.index}"
            next_index += 1
            started[e.index] = ""
        elif kind is ToolCallArguments:
            assert e.index in started and e.index not in ended, f"arguments outside call {e.index}: {e!r}"
            started[e.index] += e.json
            joined = started[e.index]
            assert prefix_end(joined) == len(joined.encode()), f"arguments not a valid prefix: {joined!r}"
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


def synthetic_token_bounds(text):
    """Character ranges of synthetic tokens of 1-3 characters (SPEC §9.2's xorshift), plus one
    zero-width token at the end."""
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
    bounds.append((len(text), len(text)))
    return bounds


def counted_deltas(pieces, token_bounds, token_ids=None):
    """Deltas carrying spans for tokens given as character ranges over the joined pieces; a token
    cut by a delta boundary continues there with continued=True; a zero-width token sits in the
    delta where its offset falls (the last delta for the end)."""
    deltas = []
    offset = 0
    tokens = list(enumerate(token_bounds))
    t = 0
    for k, piece in enumerate(pieces):
        end = offset + len(piece)
        last = k == len(pieces) - 1
        spans = []
        ids = []
        while t < len(tokens):
            i, (t0, t1) = tokens[t]
            token_id = token_ids[i] if token_ids is not None else 1000 + i
            if t1 == t0:
                if t0 < end or (t0 == end and last):
                    b = len(piece[: t0 - offset].encode())
                    spans.append(TokenSpan(token_id, b, b))
                    ids.append(token_id)
                    t += 1
                    continue
                break
            lo, hi = max(t0, offset), min(t1, end)
            if lo >= hi:
                break
            b0 = len(piece[: lo - offset].encode())
            b1 = len(piece[: hi - offset].encode())
            spans.append(TokenSpan(token_id, b0, b1, continued=t0 < offset))
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
        text = bytes_of(e)
        n = len(text.encode())
        counts.append(sum(1 for s in starts if at <= s < at + n))
        at += n
    return counts


def tokens_of(event):
    kind = type(event)
    if kind is Content or kind is Reasoning:
        return event.tokens
    if kind is Dropped or kind is Malformed:
        return event.text.tokens
    if kind is ToolCallStart or kind is ToolCallArguments or kind is ToolCallEnd:
        return event.source.tokens
    return None


def carries_text(event):
    return type(event) not in (ReasoningStart, ReasoningEnd, Finish)


def new_parser(table, tools=None):
    return symphony.parser(table, tools)
