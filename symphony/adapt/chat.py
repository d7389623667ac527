"""Chat Completions shapes from events (SPEC §7.1): the whole choice, and stream chunk choices.

Malformed text is shown as content (the client sees what the model wrote); whitespace-only content
is omitted from the whole message; `finish_reason` turns a plain stop with calls into "tool_calls".
"""
from symphony.events import (
    Content,
    Finish,
    Malformed,
    Reasoning,
    ToolCallArguments,
    ToolCallStart,
)
from symphony.reasons import FinishReason, Other
from symphony.text import is_blank


def finish_reason(finish):
    """The Chat Completions finish_reason of a Finish event (None when there is none)."""
    if finish is None:
        return None
    reason = finish.reason
    if type(reason) is Other:
        return reason.text
    if reason == FinishReason.STOP:
        return "tool_calls" if finish.tool_calls > 0 else "stop"
    return reason.value


def message(events, choice=0):
    """A Chat Completions choice: {"index", "message": {"role", "content", "reasoning_content",
    "tool_calls"}, "finish_reason"}."""
    content = []
    reasoning = []
    calls = {}
    finish = None
    for e in events:
        kind = type(e)
        if kind is Content:
            content.append(e.text)
        elif kind is Malformed:
            content.append(e.text.text)
        elif kind is Reasoning:
            reasoning.append(e.text)
        elif kind is ToolCallStart:
            calls[e.index] = {"id": e.id, "type": "function", "function": {"name": e.name, "arguments": ""}}
        elif kind is ToolCallArguments:
            call = calls.get(e.index)
            if call is None:
                content.append(e.json)
            else:
                call["function"]["arguments"] += e.json
        elif kind is Finish:
            finish = e
    text = "".join(content)
    thought = "".join(reasoning)
    return {
        "index": choice,
        "message": {
            "role": "assistant",
            "content": None if is_blank(text) else text,
            "reasoning_content": thought or None,
            "tool_calls": list(calls.values()) or None,
        },
        "finish_reason": finish_reason(finish),
    }


def delta(event, choice=0):
    """The stream chunk choice one event shows as, or None when it shows as nothing."""
    kind = type(event)
    if kind is Content or kind is Malformed:
        text = event.text if kind is Content else event.text.text
        if not text:
            return None
        body = {"role": "assistant", "content": text, "reasoning_content": None}
    elif kind is Reasoning:
        if not event.text:
            return None
        body = {"role": "assistant", "reasoning_content": event.text}
    elif kind is ToolCallStart:
        body = {"role": "assistant", "tool_calls": [
            {"index": event.index, "id": event.id, "type": "function", "function": {"name": event.name}}],
            "reasoning_content": None}
    elif kind is ToolCallArguments:
        if not event.json:
            return None
        body = {"role": "assistant", "tool_calls": [{"index": event.index, "function": {"arguments": event.json}}],
                "reasoning_content": None}
    elif kind is Finish:
        return {"index": choice, "delta": {"reasoning_content": None}, "logprobs": None,
                "finish_reason": finish_reason(event)}
    else:
        return None
    return {"index": choice, "delta": body, "logprobs": None, "finish_reason": None}


def deltas(events, choice=0):
    """The stream chunk choices of a run of events, one per event that shows."""
    out = []
    for e in events:
        d = delta(e, choice)
        if d is not None:
            out.append(d)
    return out
