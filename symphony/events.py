"""The event types (SPEC §1.3) and their JSON wire shape: `event.to_dict()` and `from_dict(d)`.

The classes are compiled (symphony._native); this module re-exports them, reads the wire form
back, and names the bytes each event accounts for.
"""
from symphony._native import (
    Content,
    Dropped,
    Finish,
    Malformed,
    Reasoning,
    ReasoningEnd,
    ReasoningStart,
    Text,
    ToolCallArguments,
    ToolCallEnd,
    ToolCallStart,
)
from symphony.reasons import DropReason, FinishReason, MalformedReason, Other, reason_from_wire

EVENT_TYPES = (Content, ReasoningStart, Reasoning, ReasoningEnd, ToolCallStart, ToolCallArguments,
               ToolCallEnd, Dropped, Malformed, Finish)


def _text(d):
    if not isinstance(d, dict) or set(d) != {"text", "tokens"}:
        raise ValueError(f"not a Text: {d!r}")
    return Text(d["text"], d["tokens"])


def _fields(d, kind, *names):
    if set(d) != {"kind", *names}:
        raise ValueError(f"a {kind} event has the fields {sorted(names)}, got {sorted(set(d) - {'kind'})}")


def from_dict(d):
    """The event whose wire form is `d` (the inverse of `to_dict()`); ValueError if it is none."""
    try:
        return _from_dict(d)
    except TypeError as e:
        raise ValueError(f"not an event: {e}") from None


def _from_dict(d):
    if not isinstance(d, dict) or "kind" not in d:
        raise ValueError(f"not an event: {d!r}")
    kind = d["kind"]
    if kind in ("content", "reasoning"):
        _fields(d, kind, "text", "tokens")
        return (Content if kind == "content" else Reasoning)(d["text"], d["tokens"])
    if kind in ("reasoning_start", "reasoning_end"):
        _fields(d, kind)
        return ReasoningStart() if kind == "reasoning_start" else ReasoningEnd()
    if kind == "tool_call_start":
        _fields(d, kind, "index", "id", "name", "source")
        return ToolCallStart(d["index"], d["id"], d["name"], _text(d["source"]))
    if kind == "tool_call_arguments":
        _fields(d, kind, "index", "json", "source")
        return ToolCallArguments(d["index"], d["json"], _text(d["source"]))
    if kind == "tool_call_end":
        _fields(d, kind, "index", "source")
        return ToolCallEnd(d["index"], _text(d["source"]))
    if kind == "dropped":
        _fields(d, kind, "text", "why")
        return Dropped(_text(d["text"]), reason_from_wire(d["why"], DropReason))
    if kind == "malformed":
        _fields(d, kind, "text", "why")
        return Malformed(_text(d["text"]), reason_from_wire(d["why"], MalformedReason))
    if kind == "finish":
        _fields(d, kind, "reason", "tool_calls", "reasoning_tokens")
        return Finish(reason_from_wire(d["reason"], FinishReason), d["tool_calls"], d["reasoning_tokens"])
    raise ValueError(f"unknown event kind {kind!r}")


def text_run(event):
    """The Text-like run of output an event accounts for (`.text`, `.tokens`), or None when it
    accounts for no bytes (ReasoningStart/End, Finish)."""
    kind = type(event)
    if kind is Content or kind is Reasoning:
        return event
    if kind is Dropped or kind is Malformed:
        return event.text
    if kind is ToolCallStart or kind is ToolCallArguments or kind is ToolCallEnd:
        return event.source
    return None


def bytes_of(event):
    """The output text an event accounts for (conservation: these, joined, are the output)."""
    run = text_run(event)
    return "" if run is None else run.text


def tokens_of(event):
    """How many tokens started in the bytes an event accounts for (None when uncounted or when
    it accounts for none)."""
    run = text_run(event)
    return None if run is None else run.tokens


def text_of(events):
    """All the output bytes the events account for, in order (SPEC §1.4 `text()`)."""
    return "".join(bytes_of(e) for e in events)


__all__ = [t.__name__ for t in EVENT_TYPES] + [
    "Text", "DropReason", "MalformedReason", "FinishReason", "Other", "from_dict", "bytes_of", "tokens_of",
    "text_of", "text_run",
    "EVENT_TYPES"]
