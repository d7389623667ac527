"""Anthropic Messages shapes from events (SPEC §7.3): the content-block stream (`Stream`), the whole
message, the envelope events a server sends around the blocks, and usage.

A stream cannot take back a block it has sent, so the whole form is the fold of the stream
(`output` runs a `Stream` and folds its blocks): what a client SDK accumulates from the stream is
the whole message. A tool_use block's input is read the way the SDK reads its input_json: the
object, or of a cut object the members written in full. Arguments that are not a JSON object
cannot be a tool input and show as text, like the fragments of a call whose block is not open;
so do arguments from the first byte a strict JSON reader refuses (the model's trailing comma,
`{"a": 1,}`: the SDK's reader would raise on the whole stream), the rest of that call with them,
and from the first byte of a number a JSON decoder cannot keep (`1e999` reads as infinity, which
no JSON encoder writes; an integer of more than 4,300 digits makes Python's int() and the SDK's
reader raise). Bytes the reader may yet refuse (a word, an escape or a number being read) wait
until it has judged them, so what was sent as input_json is never taken back.
"""
import json

from symphony._native import JsonPrefix

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

THINKING = "thinking"       # keys of the open block; a tool_use block's key is its call index
TEXT = "text"
JSON_WHITESPACE = " \t\n\r"
UNCOUNTED = "an uncounted stream has no usage: the caller must give its own token counts"


def tool_use_id(call_id):
    """`call_<suffix>` -> `toolu_<suffix>`; other ids unchanged."""
    return "toolu_" + call_id[5:] if call_id.startswith("call_") else call_id


def stop_reason(finish):
    """The stop_reason of a Finish event (None when there is none)."""
    if finish is None:
        return None
    reason = finish.reason
    if type(reason) is not Other and reason == FinishReason.LENGTH:
        return "max_tokens"
    if type(reason) is not Other and reason == FinishReason.TOOL_CALLS or finish.tool_calls > 0:
        return "tool_use"
    return "end_turn"


class Stream:
    """The content-block state machine: `feed(event)` returns the content_block_start / _delta /
    _stop events it shows as; one block is open at a time, indexes count from 0. Whitespace-only
    text before a text block is held (sent with the text that follows, dropped at the end)."""
    __slots__ = ("_open", "_index", "_held", "_lead", "_input", "_sent", "_unsent", "stop_reason")

    def __init__(self):
        self._open = None          # THINKING, TEXT, a call index, or None
        self._index = 0
        self._held = ""
        self._lead = ""            # leading whitespace of the open call's arguments, not yet sent
        self._input = None         # the open call's arguments began with "{": their strict reader
        self._sent = 0             # UTF-8 bytes of them sent as input_json
        self._unsent = b""         # the bytes after those, not yet committed by the reader
        self.stop_reason = None

    def feed(self, event):
        out = []
        kind = type(event)
        if kind is Content:
            self._text(event.text, out)
        elif kind is Malformed:
            self._text(event.text.text, out)
        elif kind is Reasoning:
            if event.text:
                self._start(THINKING, {"type": "thinking", "thinking": "", "signature": ""}, out)
                self._delta({"type": "thinking_delta", "thinking": event.text}, out)
        elif kind is ReasoningEnd:
            if self._open == THINKING:
                self._stop(out)
        elif kind is ToolCallStart:
            self._start(event.index, {"type": "tool_use", "id": tool_use_id(event.id), "name": event.name,
                                      "input": {}}, out)
        elif kind is ToolCallArguments:
            if event.json:
                self._arguments(event.index, event.json, out)
        elif kind is ToolCallEnd:
            if self._open == event.index:
                self._stop(out)
        elif kind is Finish:
            out += self.close()
            self.stop_reason = stop_reason(event)
        return out

    def close(self):
        """The events that end the stream: the open block stops, held whitespace is dropped."""
        out = []
        self._stop(out)
        self._stop(out)         # the text block a call's last bytes opened
        self._held = ""
        return out

    def _text(self, text, out):
        if not text:
            return
        if self._open != TEXT and is_blank(text):
            self._held += text
            return
        self._start(TEXT, {"type": "text", "text": ""}, out)
        self._delta({"type": "text_delta", "text": self._held + text}, out)
        self._held = ""

    def _arguments(self, index, fragment, out):
        if self._open != index:
            self._text(fragment, out)
        elif self._input is not None:
            self._input_json(fragment, out)
        else:
            written = self._lead + fragment
            body = written.lstrip(JSON_WHITESPACE)
            if not body:
                self._lead = written
            elif body[0] == "{":
                self._input = JsonPrefix(strict=True, bounded=True)
                self._lead = ""
                self._input_json(written, out)
            else:
                self._text(written, out)

    def _input_json(self, fragment, out):
        """The open call's arguments as input_json up to what the strict reader has committed;
        from the first byte it refuses, text (what it had not committed, then the rest)."""
        if self._input.refused_at is not None:
            self._text(fragment, out)
            return
        earlier = len(self._unsent)
        self._unsent += fragment.encode("utf-8")
        refused = self._input.feed(fragment)
        cut = self._send(self._input.committed if refused is None else refused, out)
        if refused is not None:
            rest, self._unsent = self._unsent, b""
            # held whitespace came after the bytes of earlier fragments, before this one's
            self._text_before_held(rest[:max(earlier - cut, 0)].decode("utf-8"), out)
            self._text(rest[max(earlier - cut, 0):].decode("utf-8"), out)

    def _send(self, end, out):
        """Sends the unsent bytes up to the reader's offset `end` as input_json; returns how many."""
        cut = end - self._sent
        if cut > 0:
            self._delta({"type": "input_json_delta", "partial_json": self._unsent[:cut].decode("utf-8")}, out)
            self._unsent = self._unsent[cut:]
            self._sent = end
        return max(cut, 0)

    def _settle(self, out):
        """The arguments end here: their unsent bytes are input_json, but from a number no decoder
        keeps (the reader's judgement at the end), which is returned to be shown as text."""
        refused = self._input.end()
        self._send(self._sent + len(self._unsent) if refused is None else refused, out)
        rest, self._unsent = self._unsent, b""
        return rest.decode("utf-8")

    def _text_before_held(self, text, out):
        """Text that came before the held whitespace."""
        held, self._held = self._held, ""
        self._text(text, out)
        self._held += held

    def _start(self, key, block, out):
        if self._open == key:
            return
        if key != TEXT:
            self._held = ""
        self._stop(out)
        if self._open == key:
            return              # the stopped call's last bytes opened the text block
        self._stop(out)
        out.append({"type": "content_block_start", "index": self._index, "content_block": block})
        self._open = key

    def _stop(self, out):
        """Stops the open block; a call's unsent bytes go first, as input or as text (a text
        block then open)."""
        if self._open is None:
            return
        rest = self._settle(out) if self._input is not None and self._unsent else ""
        out.append({"type": "content_block_stop", "index": self._index})
        self._index += 1
        self._open = None
        self._lead = ""
        self._input = None
        self._sent = 0
        if rest:
            self._text_before_held(rest, out)

    def _delta(self, delta, out):
        out.append({"type": "content_block_delta", "index": self._index, "delta": delta})


def blocks(stream_events):
    """The content blocks a run of content_block events builds, as a client accumulates them."""
    content = []
    inputs = {}
    for e in stream_events:
        kind = e["type"]
        if kind == "content_block_start":
            content.append(dict(e["content_block"]))
        elif kind == "content_block_delta":
            delta = e["delta"]
            block = content[e["index"]]
            if delta["type"] == "text_delta":
                block["text"] += delta["text"]
            elif delta["type"] == "thinking_delta":
                block["thinking"] += delta["thinking"]
            else:
                inputs[e["index"]] = inputs.get(e["index"], "") + delta["partial_json"]
    for index, arguments in inputs.items():
        content[index]["input"] = tool_input(arguments)
    return content


def output(events):
    """The whole message's {"content": [blocks], "stop_reason"}: the fold of the stream."""
    stream = Stream()
    shown = []
    for e in events:
        shown += stream.feed(e)
    shown += stream.close()
    return {"content": blocks(shown), "stop_reason": stream.stop_reason}


def tool_input(arguments):
    """The object an input_json reads as: the whole object, or of a cut one (a JSON prefix) the
    members written in full with its containers closed; {} when it is no object."""
    try:
        value = json.loads(arguments)
    except ValueError:
        try:
            value = json.loads(closed_prefix(arguments))
        except ValueError:
            return {}
    return value if type(value) is dict else {}


def closed_prefix(prefix):
    """A JSON prefix cut after its last value written in full (a string, number or literal that
    the end of the prefix cuts is left out, with its key), its open containers closed. A closer
    of an outer container also closes the inner ones (`{"a": [1}`), as the prefix parser reads it."""
    written = []               # the prefix in pieces, with the closers it leaves implicit
    closers = []
    cut, cut_closers = 0, ""
    previous = ""              # the last structural character, "key", or "v" after a value
    at, n = 0, len(prefix)
    while at < n:
        c = prefix[at]
        end = at + 1
        if c in JSON_WHITESPACE:
            written.append(c)
            at = end
            continue
        if c == "{" or c == "[":
            closers.append("}" if c == "{" else "]")
        elif c == "}" or c == "]":
            while closers[-1] != c:
                written.append(closers.pop())
            closers.pop()
        elif c == "," or c == ":":
            previous = c
            written.append(c)
            at = end
            continue
        elif c == '"':
            end = _string_end(prefix, at)
            if end < 0:
                break
            if closers and closers[-1] == "}" and previous in ("{", ","):
                previous = "key"
                written.append(prefix[at:end])
                at = end
                continue
        else:
            while end < n and prefix[end] not in JSON_WHITESPACE and prefix[end] not in ",:]}":
                end += 1
            if end == n and not _whole_scalar(prefix[at:end]):
                break
        written.append(prefix[at:end])
        at = end
        previous = c if c in "{[" else "v"
        cut, cut_closers = len(written), "".join(reversed(closers))
        if not closers:
            break              # the value is whole
    return "".join(written[:cut]) + cut_closers


def _string_end(text, at):
    """The index after the closing quote of the string opening at `at`, or -1 if it is cut."""
    at += 1
    while True:
        quote = text.find('"', at)
        if quote < 0:
            return -1
        backslashes = quote
        while text[backslashes - 1] == "\\":
            backslashes -= 1
        if (quote - backslashes) % 2 == 0:
            return quote + 1
        at = quote + 1


def _whole_scalar(text):
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def usage(events, input_tokens):
    """{"input_tokens", "output_tokens"} for the events, or None when they were uncounted."""
    output_tokens = fold(events).output_tokens
    if output_tokens is None:
        return None
    return {"input_tokens": input_tokens, "output_tokens": output_tokens}


def message(output, id, model, usage):
    """A whole Message from `output(events)`; `usage` (from `usage`) is required by the schema."""
    if usage is None:
        raise ValueError(UNCOUNTED)
    return {"id": id, "type": "message", "role": "assistant", "model": model, "content": output["content"],
            "stop_reason": output["stop_reason"], "stop_sequence": None, "usage": usage}


def message_start(id, model, input_tokens):
    """The first stream event: an empty assistant message (output_tokens 0: nothing is out yet)."""
    return {"type": "message_start", "message": message(
        {"content": [], "stop_reason": None}, id, model, {"input_tokens": input_tokens, "output_tokens": 0})}


def message_delta(stop_reason, output_tokens):
    """The stream event after the last block: the stop_reason and the cumulative output tokens."""
    if output_tokens is None:
        raise ValueError(UNCOUNTED)
    return {"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": output_tokens}}


def message_stop():
    """The last stream event."""
    return {"type": "message_stop"}
