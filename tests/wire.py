"""Events in their wire shape (SPEC §1.3), for tests that pin a parse exactly: builders of each
event's `to_dict()`, and `check`, which compares the whole parse with a list of them and makes
every chunking of the output say the same thing.
"""
import symphony
from symphony.formats import table as format_table
from symphony.replay import replay_tokens
from tests.common import (carries_text, check_conservation, check_well_formed, chunkings, counted_deltas, replay, runs,
                          said, synthetic_token_bounds, tokens_of)


def _text(text, tokens=None):
    return {"text": text, "tokens": tokens}


def content(text, tokens=None):
    return {"kind": "content", "text": text, "tokens": tokens}


def reasoning(text, tokens=None):
    return {"kind": "reasoning", "text": text, "tokens": tokens}


# The Malformed reason of a call region's bytes where no call started (docs/recovery.md).
NO_CALL = "a tool-call region that held no call"

START_THOUGHT = {"kind": "reasoning_start"}
END_THOUGHT = {"kind": "reasoning_end"}


def dropped(text, why="wrapper", tokens=None):
    return {"kind": "dropped", "text": _text(text, tokens), "why": why}


def malformed(text, why, tokens=None):
    """`why`: a unit reason's wire string, or the text of an Other reason."""
    if why not in ("unterminated_region", "invalid_arguments", "unknown_tool") and not isinstance(why, dict):
        why = {"other": why}
    return {"kind": "malformed", "text": _text(text, tokens), "why": why}


def start(index, name, source, tokens=None, id=None):
    """`id`: the id the model wrote in the call's head (None: `call_<index>`)."""
    return {"kind": "tool_call_start", "index": index, "id": f"call_{index}" if id is None else id, "name": name,
            "source": _text(source, tokens)}


def arguments(index, json, source=None, tokens=None):
    """A fragment; its source is its JSON unless given (the JSON syntaxes send the model's bytes)."""
    return {"kind": "tool_call_arguments", "index": index, "json": json,
            "source": _text(json if source is None else source, tokens)}


def end(index, source="", tokens=None):
    return {"kind": "tool_call_end", "index": index, "source": _text(source, tokens)}


def finish(reason="stop", tool_calls=0, reasoning_tokens=0):
    return {"kind": "finish", "reason": reason, "tool_calls": tool_calls, "reasoning_tokens": reasoning_tokens}


def parsed(table, output, prompt=None, finish="stop", tools=None):
    return [e.to_dict() for e in symphony.parse(table, output, tools=tools, prompt=prompt, finish=finish)]


def check(table, output, want, prompt=None, finish="stop", tools=None, every_split_up_to=80, seeds=5):
    """The whole parse gives exactly `want` (up to how adjacent Dropped/Malformed of one reason
    are joined: `runs`); every chunking conserves the output, is well formed
    and says the same."""
    assert runs(parsed(table, output, prompt, finish, tools)) == runs(want)
    whole = said(symphony.parse(table, output, tools=tools, prompt=prompt, finish=finish))
    for plan, pieces in chunkings(output, every_split_up_to=every_split_up_to, seeds=seeds):
        events = replay(symphony.parser(table, tools), pieces, prompt, finish)
        check_conservation(events, output)
        check_well_formed(events)
        assert said(events) == whole, f"{table} {output!r} {plan}"


def tokens(table, output):
    """`output` cut as a tokenizer cuts it: each of the table's markers one token, the text between
    them in synthetic tokens of 1-3 characters."""
    fmt = format_table(table) if isinstance(table, str) else table
    markers = sorted({text for _, text in fmt.terminals}, key=len, reverse=True)
    pieces, at, text_from = [], 0, 0
    while at <= len(output):
        marker = next((m for m in markers if output.startswith(m, at)), None) if at < len(output) else ""
        if marker is None:
            at += 1
            continue
        between = output[text_from:at]
        pieces += [between[a:b] for a, b in synthetic_token_bounds(between, 0)]
        if marker:
            pieces.append(marker)
        at += len(marker) or 1
        text_from = at
    return pieces


def check_tokens(table, output, prompt=None, finish="stop", tools=None):
    """Streamed a token at a time (`tokens`), each a counted Delta: the output is conserved, every
    token counted once, and the parse says what the whole parse says."""
    pieces = tokens(table, output)
    assert "".join(pieces) == output
    events = replay_tokens(symphony.parser(table, tools), pieces, list(range(len(pieces))), [1] * len(pieces),
                           prompt, finish)
    check_conservation(events, output)
    check_well_formed(events)
    assert sum(tokens_of(e) for e in events if carries_text(e)) == len(pieces)
    got, whole = said(events), said(symphony.parse(table, output, tools=tools, prompt=prompt, finish=finish))
    for field in ("content", "reasoning", "dropped", "malformed", "calls", "arguments", "ended"):
        assert getattr(got, field) == getattr(whole, field), f"{table} {output!r} a token at a time: {field}"


def arguments_of(events):
    """The joined arguments of each started call, by index."""
    joined = {}
    for e in events:
        d = e if isinstance(e, dict) else e.to_dict()
        if d["kind"] == "tool_call_start":
            joined[d["index"]] = ""
        elif d["kind"] == "tool_call_arguments":
            joined[d["index"]] += d["json"]
    return joined


def check_per_token(table, output, tools=None):
    """Fed one synthetic token (1-3 characters, counted) per delta, the output conserves its bytes,
    is well formed and says what its whole parse, counted alike, says."""
    bounds = synthetic_token_bounds(output, trailing=0)
    parser = symphony.parser(table, tools)
    events = []
    for delta in counted_deltas([output[a:b] for a, b in bounds], bounds):
        events += parser.feed(delta)
    events += parser.feed(symphony.End("stop"))
    check_conservation(events, output)
    check_well_formed(events)
    assert said(events) == said(symphony.parse(table, counted_deltas([output], bounds)[0], tools=tools)), output


def shown_and_calls(table, output, tools=None):
    """(the text a chat message shows: content and Malformed joined, [(name, joined arguments)])
    of the whole parse, checked at every chunking and per token."""
    events = parsed(table, output, tools=tools)
    check(table, output, events, tools=tools)
    check_per_token(table, output, tools)
    names = {e["index"]: e["name"] for e in events if e["kind"] == "tool_call_start"}
    shown = "".join(e["text"] if e["kind"] == "content" else e["text"]["text"] if e["kind"] == "malformed" else ""
                    for e in events)
    return shown, [(names[i], a) for i, a in sorted(arguments_of(events).items())]
