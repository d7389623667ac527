"""OpenAI Responses API shapes from events (SPEC §7.2): the output items of a whole response, the
stream events a server sends for them (`Stream`), usage and the `Response` object around them.

A stream cannot reorder items it has sent, so the whole form is the fold of the stream: `Items`
turns events into item lifecycle steps (begin, delta, end) with one item open at a time, and both
`output` and `Stream` run it. For reasoning, then text, then calls this is SPEC §7.2's fold.
"""
import json

from symphony.adapt.fold import fold
from symphony.events import (
    Content,
    Finish,
    Malformed,
    Reasoning,
    ReasoningEnd,
    ToolCallArguments,
    ToolCallEnd,
    ToolCallStart,
)
from symphony.reasons import FinishReason, Other
from symphony.text import is_blank

REASONING, MESSAGE, CALL = "reasoning", "message", "function_call"
BEGIN, DELTA, END = "begin", "delta", "end"
ID_PREFIX = {REASONING: "rs", MESSAGE: "msg"}
# What ends a stream, by the response status; an incomplete, cancelled or unfinished response
# ends as incomplete (the Responses API has no terminal event for the last two).
TERMINAL = {"completed": "response.completed", "failed": "response.failed"}
BEGUN = {"output": [], "status": "in_progress", "incomplete_details": None}


class Item:
    """One output item as it grows: its type, id, output index, and for a call its name and index."""
    __slots__ = ("type", "id", "position", "name", "call", "_parts")

    def __init__(self, type, id, position, name=None, call=None):
        self.type = type
        self.id = id
        self.position = position
        self.name = name
        self.call = call
        self._parts = []

    @property
    def text(self):
        return "".join(self._parts)


class Items:
    """The item state machine both forms share. `add(event)` records in `steps` the (step, item,
    text) changes the event makes: an item begins where its first visible text, reasoning or call
    start arrives, beginning one ends the open one, ReasoningEnd and a call's ToolCallEnd end their
    item; whitespace-only text waits for a message to begin (and is dropped when a reasoning or call
    item begins first); arguments for a call whose item is not the open one show as text."""
    __slots__ = ("response_id", "items", "finish", "steps", "_open", "_held", "_made")

    def __init__(self, response_id):
        self.response_id = response_id
        self.items = []
        self.finish = None
        self.steps = []
        self._open = None
        self._held = ""
        self._made = {REASONING: 0, MESSAGE: 0}

    def add(self, event):
        kind = type(event)
        opened = self._open
        if kind is Content:
            self._text(event.text)
        elif kind is Malformed:
            self._text(event.text.text)
        elif kind is Reasoning:
            if event.text:
                if opened is None or opened.type is not REASONING:
                    opened = self._begin(REASONING)
                self._delta(opened, event.text)
        elif kind is ToolCallArguments:
            if opened is not None and opened.type is CALL and opened.call == event.index:
                if event.json:
                    self._delta(opened, event.json)
            else:
                self._text(event.json)
        elif kind is ToolCallStart:
            self._begin(CALL, event.id, event.name, event.index)
        elif kind is ToolCallEnd:
            if opened is not None and opened.type is CALL and opened.call == event.index:
                self._end()
        elif kind is ReasoningEnd:
            if opened is not None and opened.type is REASONING:
                self._end()
        elif kind is Finish:
            self.finish = event

    def close(self):
        """Ends the open item; whitespace still waiting for a message is not shown."""
        if self._open is not None:
            self._end()
        self._held = ""

    def output(self):
        """What `output` returns for the events added so far (items as they are now)."""
        status, details = response_status(self.finish)
        return {"output": [item_dict(item, item_status(item, status)) for item in self.items],
                "status": status, "incomplete_details": details}

    def _text(self, text):
        if not text:
            return
        opened = self._open
        if opened is None or opened.type is not MESSAGE:
            if is_blank(text):
                self._held += text
                return
            opened = self._begin(MESSAGE)
            text = self._held + text
            self._held = ""
        self._delta(opened, text)

    def _begin(self, type, id=None, name=None, call=None):
        if self._open is not None:
            self._end()
        if id is None:
            made = self._made[type]
            self._made[type] = made + 1
            id = f"{ID_PREFIX[type]}_{self.response_id}" + (f"_{made}" if made else "")
        if type is not MESSAGE:
            self._held = ""
        item = Item(type, id, len(self.items), name, call)
        self.items.append(item)
        self._open = item
        self.steps.append((BEGIN, item, None))
        return item

    def _delta(self, item, text):
        item._parts.append(text)
        self.steps.append((DELTA, item, text))

    def _end(self):
        self.steps.append((END, self._open, None))
        self._open = None


def response_status(finish):
    """(status, incomplete_details) of a response from its Finish (None: still in progress)."""
    if finish is None:
        return "in_progress", None
    reason = finish.reason
    if type(reason) is Other:
        return ("failed" if reason.text in ("failed", "error") else "completed"), None
    if reason == FinishReason.LENGTH:
        return "incomplete", {"reason": "max_output_tokens"}
    if reason == FinishReason.ABORT:
        return "cancelled", None
    return "completed", None


def is_whole_json(text):
    """The arguments are empty or one whole JSON value."""
    if not text:
        return True
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def item_status(item, status):
    """An item's status in a response whose status is `status`."""
    if status == "in_progress" or status == "failed":
        return "in_progress"
    if item.type is CALL and not is_whole_json(item.text):
        return "incomplete"
    return "completed"


def _part(item, text):
    if item.type is REASONING:
        return {"type": "reasoning_text", "text": text}
    return {"type": "output_text", "text": text, "annotations": []}


def item_dict(item, status, whole=True):
    """The item as `output` shows it, or (whole False) as it begins: no content, no arguments."""
    if item.type is CALL:
        return {"type": CALL, "id": item.id, "call_id": item.id, "name": item.name,
                "arguments": item.text if whole else "", "status": status}
    content = [_part(item, item.text)] if whole else []
    if item.type is REASONING:
        return {"type": REASONING, "id": item.id, "summary": [], "content": content, "status": status}
    return {"type": MESSAGE, "id": item.id, "role": "assistant", "content": content, "status": status}


def output(events, response_id):
    """The Responses output of a run of events: {"output": [items], "status", "incomplete_details"}."""
    items = Items(response_id)
    for e in events:
        items.add(e)
    items.close()
    return items.output()


def usage(events, input_tokens):
    """The `usage` of a response whose events are `events`, or None when they were uncounted (no
    token spans): the counts are left out, never guessed."""
    f = fold(events)
    if f.output_tokens is None:
        return None
    return {"input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
            "output_tokens": f.output_tokens,
            "output_tokens_details": {"reasoning_tokens": f.reasoning_tokens or 0},
            "total_tokens": input_tokens + f.output_tokens}


def response(output, id, created_at, model, usage=None):
    """A whole `Response` object around `output` (the dict `output()` returns), with neutral
    values for the request's settings."""
    return {"id": id, "object": "response", "created_at": created_at, "model": model,
            "status": output["status"], "error": None, "incomplete_details": output["incomplete_details"],
            "instructions": None, "output": list(output["output"]), "parallel_tool_calls": True,
            "tool_choice": "auto", "tools": [], "usage": usage}


class Stream:
    """The Responses stream events of one response, fed event by event: `start()`, `feed(event)`
    for each event, `close(usage)`; every event carries the next sequence_number from 0."""
    __slots__ = ("_items", "_id", "_created_at", "_model", "_sequence")

    def __init__(self, response_id, created_at, model):
        self._items = Items(response_id)
        self._id = response_id
        self._created_at = created_at
        self._model = model
        self._sequence = 0

    def start(self):
        """response.created, then response.in_progress."""
        return [self._event(type, response=response(BEGUN, self._id, self._created_at, self._model))
                for type in ("response.created", "response.in_progress")]

    def feed(self, event):
        """The stream events one symphony event shows as (none for many)."""
        self._items.add(event)
        # an item that ends before the Finish says how it ends if the response completes
        return self._show("completed")

    def close(self, usage=None):
        """Ends the open item, then the terminal event carrying the whole `Response`."""
        items = self._items
        items.close()
        whole = items.output()
        out = self._show(whole["status"])
        body = response(whole, self._id, self._created_at, self._model, usage)
        out.append(self._event(TERMINAL.get(whole["status"], "response.incomplete"), response=body))
        return out

    def _event(self, type, **fields):
        event = {"type": type}
        event.update(fields)
        event["sequence_number"] = self._sequence
        self._sequence += 1
        return event

    def _show(self, status):
        out = []
        for step, item, text in self._items.steps:
            at = {"item_id": item.id, "output_index": item.position}
            if step is DELTA:
                if item.type is CALL:
                    out.append(self._event("response.function_call_arguments.delta", delta=text, **at))
                elif item.type is REASONING:
                    out.append(self._event("response.reasoning_text.delta", content_index=0, delta=text, **at))
                else:
                    out.append(self._event("response.output_text.delta", content_index=0, delta=text,
                                           logprobs=[], **at))
            elif step is BEGIN:
                out.append(self._event("response.output_item.added", output_index=item.position,
                                       item=item_dict(item, "in_progress", whole=False)))
                if item.type is not CALL:
                    out.append(self._event("response.content_part.added", content_index=0,
                                           part=_part(item, ""), **at))
            else:
                whole = item.text
                if item.type is CALL:
                    out.append(self._event("response.function_call_arguments.done", arguments=whole, **at))
                else:
                    if item.type is REASONING:
                        out.append(self._event("response.reasoning_text.done", content_index=0, text=whole, **at))
                    else:
                        out.append(self._event("response.output_text.done", content_index=0, text=whole,
                                               logprobs=[], **at))
                    out.append(self._event("response.content_part.done", content_index=0,
                                           part=_part(item, whole), **at))
                out.append(self._event("response.output_item.done", output_index=item.position,
                                       item=item_dict(item, item_status(item, status))))
        self._items.steps.clear()
        return out
