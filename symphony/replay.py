"""Replaying an output the way an engine streams it (SPEC §9.1, §9.3): the cut plans (whole,
every two-way split, character by character, seeded plans), text and token replays, the
chunking-invariant summary of what a parse said (`Said`), and the checks every replay of a
recorded case must pass (conservation, agreement, call numbering, token identity).

`symphony verify` judges recorded outputs with these; the contract tests replay with them too.
"""
import dataclasses
import json

import symphony
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
    tokens_of,
)
from symphony.format import Emits
from symphony.models import thought_markers
from symphony.reasons import reason_to_wire

MASK64 = (1 << 64) - 1
SEEDED_PLANS = 30
TWO_WAY_SPLIT_LIMIT = 2000     # characters; longer outputs skip the every-split plans

# --- cut plans -------------------------------------------------------------------------------

def seeded_cuts(n_chars, seed):
    """Character indexes of one seeded plan of 1-8 character pieces (SPEC §9.1)."""
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
    edges = [0, *cuts, len(text)]
    return [text[a:b] for a, b in zip(edges, edges[1:])]


def chunkings(text, every_split_up_to=None, seeds=SEEDED_PLANS):
    """Named cut plans of `text` (SPEC §9.1): whole, every two-way split (when the text has at
    most `every_split_up_to` characters, always when None), per character, seeded plans."""
    plans = [("whole", [text])]
    if every_split_up_to is None or len(text) <= every_split_up_to:
        plans += [(f"split-{i}", [text[:i], text[i:]]) for i in range(1, len(text))]
    plans.append(("character by character", list(text) if text else [""]))
    plans += [(f"seeded-{seed}", split_at(text, seeded_cuts(len(text), seed)))
              for seed in range(1, seeds + 1)]
    return plans


# --- what a parse said -----------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Said:
    """What a parse said, in a form every chunking of the same output must agree on (SPEC §9.2)."""
    content: str
    reasoning: tuple       # one string per reasoning region
    dropped: tuple         # (reason, joined text), sorted by reason
    malformed: tuple
    calls: tuple           # (index, id, name)
    arguments: tuple       # (index, joined json)
    ended: tuple           # indexes, in the order they ended
    finish: tuple          # (reason, tool_calls, reasoning_tokens)


def said(events):
    content, regions, calls, ended = [], [], [], []
    dropped, malformed, arguments = {}, {}, {}
    region = None
    finish = None
    for e in events:
        kind = type(e)
        if kind is Content:
            content.append(e.text)
        elif kind is ReasoningStart:
            region = []
            regions.append(region)
        elif kind is Reasoning:
            if region is None:
                region = []
                regions.append(region)
            region.append(e.text)
        elif kind is ReasoningEnd:
            region = None
        elif kind is Dropped:
            key = str(reason_to_wire(e.why))
            dropped[key] = dropped.get(key, "") + e.text.text
        elif kind is Malformed:
            key = json.dumps(reason_to_wire(e.why))
            malformed[key] = malformed.get(key, "") + e.text.text
        elif kind is ToolCallStart:
            calls.append((e.index, e.id, e.name))
            arguments.setdefault(e.index, "")
        elif kind is ToolCallArguments:
            arguments[e.index] = arguments.get(e.index, "") + e.json
        elif kind is ToolCallEnd:
            ended.append(e.index)
        elif kind is Finish:
            finish = (json.dumps(reason_to_wire(e.reason)), e.tool_calls, e.reasoning_tokens)
    return Said("".join(content), tuple("".join(r) for r in regions), tuple(sorted(dropped.items())),
                tuple(sorted(malformed.items())), tuple(calls), tuple(sorted(arguments.items())),
                tuple(ended), finish)


# --- replays ---------------------------------------------------------------------------------

def replay_text(engine, pieces, prompt, finish, empty_between=False):
    """Prompt, one uncounted Delta per piece (optionally an empty one around each), End."""
    events = list(engine.feed(symphony.Prompt(prompt))) if prompt is not None else []
    empty = symphony.Delta("")
    for piece in pieces:
        if empty_between:
            events += engine.feed(empty)
        events += engine.feed(symphony.Delta(piece))
    if empty_between:
        events += engine.feed(empty)
    events += engine.feed(symphony.End(finish))
    return events


def replay_tokens(engine, pieces, ids, sizes, prompt, finish):
    """Prompt, one counted Delta per chunk of tokens (spans from the pieces), End."""
    events = list(engine.feed(symphony.Prompt(prompt))) if prompt is not None else []
    at = 0
    for size in sizes:
        chunk = pieces[at:at + size]
        chunk_ids = ids[at:at + size]
        spans = []
        offset = 0
        for token_id, piece in zip(chunk_ids, chunk):
            width = len(piece.encode("utf-8"))
            spans.append(symphony.TokenSpan(token_id, offset, offset + width))
            offset += width
        events += engine.feed(symphony.Delta("".join(chunk), chunk_ids, spans))
        at += size
    events += engine.feed(symphony.End(finish))
    return events


def _thought_region(text, open_marker, close_marker, starts_inside):
    """Byte range of the first thought: after the first opener (or from 0 when the prompt opened
    it) to the next closer (or the end)."""
    raw = text.encode("utf-8")
    if starts_inside:
        start = 0
    else:
        at = raw.find(open_marker.encode("utf-8")) if open_marker else -1
        if at < 0:
            return None
        start = at + len(open_marker.encode("utf-8"))
    end = raw.find(close_marker.encode("utf-8"), start) if close_marker else -1
    return start, (len(raw) if end < 0 else end)


def _check_token_replay(events, pieces, ids, region):
    """Token identity of one token replay: per-event counts equal the piece starts in the
    event's bytes, every token counted once, reasoning tokens those starting in the thought."""
    starts = []
    offset = 0
    for piece in pieces:
        starts.append(offset)
        offset += len(piece.encode("utf-8"))
    problems = []
    at = 0
    total = 0
    reasoning_sum = 0
    finish = None
    for e in events:
        if type(e) is Finish:
            finish = e
            continue
        width = len(bytes_of(e).encode("utf-8"))
        got = tokens_of(e)
        if type(e) in (ReasoningStart, ReasoningEnd):
            continue
        if type(e) is Dropped and width == 0 and at == offset:
            want = sum(1 for s in starts if s >= offset)      # trailing zero-width tokens
        else:
            want = sum(1 for s in starts if at <= s < at + width)
        if got != want:
            problems.append(f"{e!r} carries {got} tokens, {want} start in its bytes")
        total += got or 0
        if type(e) is Reasoning:
            reasoning_sum += got or 0
        at += width
    if total != len(ids):
        problems.append(f"{total} tokens counted, the output has {len(ids)}")
    if finish is not None:
        if finish.reasoning_tokens != reasoning_sum:
            problems.append(f"Finish.reasoning_tokens {finish.reasoning_tokens} != {reasoning_sum}")
        if region is not None:
            want = sum(1 for s in starts if region[0] <= s < region[1])
            if finish.reasoning_tokens != want:
                problems.append(f"reasoning_tokens {finish.reasoning_tokens}, {want} tokens start in the thought")
    return problems


def opens_thought(table, prompt):
    """Whether a prompt leaves an output of `table` (a Format or compiled table) inside a thought."""
    return any(type(e) is ReasoningStart for e in symphony.parser(table).feed(symphony.Prompt(prompt)))


def replay_case(case, model, format_table, every_split_up_to=TWO_WAY_SPLIT_LIMIT):
    """Every replay of one case; returns (whole-output events, failures, replay count)."""
    text = case["reference"]["text"]
    tools = case.get("request", {}).get("tools") or case.get("tools") or None
    finish = "length" if case["reference"].get("finish_reason") == "length" else "stop"
    prompt = model.thought_tail
    table = format_table.compile()
    failures = []
    baseline = None
    whole_events = None
    count = 0

    def check(name, events):
        nonlocal baseline, count
        count += 1
        joined = "".join(bytes_of(e) for e in events)
        if joined != text:
            failures.append(f"{name}: bytes not conserved: {joined!r}")
        if not events or type(events[-1]) is not Finish:
            failures.append(f"{name}: Finish is not last")
        s = said(events)
        # a call's id is the one the model wrote in the call's head (so in the output), else call_<index>
        if any(id != f"call_{i}" and not (id and id in text) for i, (_, id, _) in enumerate(s.calls)) \
                or [c[0] for c in s.calls] != list(range(len(s.calls))):
            failures.append(f"{name}: calls not numbered 0.. with call_<i> ids (or ids the model wrote): {s.calls}")
        # what counting adds (reasoning_tokens, the empty Dropped{ControlToken} of tokens that
        # brought no bytes) is not what the replays must agree on
        comparable = dataclasses.replace(s, finish=s.finish[:2] if s.finish else None,
                                         dropped=tuple(d for d in s.dropped if d[1]))
        if baseline is None:
            baseline = (name, comparable)
        elif comparable != baseline[1]:
            failures.append(f"{name}: says {comparable} but {baseline[0]} says {baseline[1]}")

    for name, pieces in chunkings(text, every_split_up_to):
        events = replay_text(symphony.parser(table, tools), pieces, prompt, finish)
        if whole_events is None:
            whole_events = events
        check(name, events)
        if name in ("whole", "character by character"):
            check(name + " with empty deltas",
                  replay_text(symphony.parser(table, tools), pieces, prompt, finish, empty_between=True))
    pieces = case.get("output_pieces")
    ids = case.get("output_ids") or []
    if pieces is not None:
        if "".join(pieces) != text:
            failures.append("output_pieces do not join to reference.text")
        else:
            open_marker, close_marker = thought_markers(format_table)
            starts_inside = opens_thought(table, prompt)
            has_thought = any(e == Emits.REASONING for _, e in format_table.states)
            region = _thought_region(text, open_marker, close_marker, starts_inside) if has_thought else None
            for plan_name, plan in sorted((case.get("chunk_plans") or {"whole": None}).items()):
                if plan is None:
                    sizes = [len(ids)] if plan_name == "whole" else [1] * len(ids)
                else:
                    sizes = list(plan)
                if sum(sizes) != len(ids):
                    failures.append(f"token plan {plan_name}: sizes add up to {sum(sizes)}, not {len(ids)}")
                    continue
                events = replay_tokens(symphony.parser(table, tools), pieces, ids, sizes, prompt, finish)
                check(f"tokens {plan_name}", events)
                failures.extend(f"tokens {plan_name}: {p}"
                                for p in _check_token_replay(events, pieces, ids, region))
    return whole_events, failures, count
