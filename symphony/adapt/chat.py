"""Chat Completions shapes from events (SPEC §7.1): the whole choice and the stream chunk choices,
the `chat.completion` / `chat.completion.chunk` envelopes a server sends around them, and usage.

Malformed text is shown as content (the client sees what the model wrote); whitespace-only content
is omitted from the whole message; `finish_reason` turns a plain stop with calls into "tool_calls".
A server may ask for content that is never empty (`force_nonempty_content`, the rule vLLM's
nemotron_v3 and granite_thinking parsers apply when a request sets `force_nonempty_content` or
turns thinking off): where the content would be blank, the thought is shown as the content; the
events say where each byte was, unchanged. A server may also show the thought the prompt opened in
the content, as the model wrote it (`thought_in_content`, what vLLM's minimax_m2_append_think and
SGLang's minimax-append-think reasoning parsers do: MiniMax asks clients to send M2's thought back
in the conversation's history, `<think>` and `</think>` included).
"""
from symphony.adapt.fold import fold
from symphony.events import (
    Content,
    Dropped,
    Finish,
    Malformed,
    Reasoning,
    ReasoningEnd,
    ReasoningStart,
    ToolCallArguments,
    ToolCallStart,
)
from symphony.reasons import FinishReason, Other
from symphony.text import is_blank


def finish_reason(finish):
    """The Chat Completions finish_reason of a Finish event (None when there is none)."""
    if finish is None:
        return None
    return _finish_text(finish.reason, finish.tool_calls)


def _finish_text(reason, tool_calls):
    if type(reason) is Other:
        return reason.text
    if reason == FinishReason.STOP:
        return "tool_calls" if tool_calls > 0 else "stop"
    return reason.value


class ThoughtInContent:
    """Shows the thought the prompt opened as content: where the output starts in a thought, what
    the model wrote in it, its close as written included, after `opener` (the text the prompt
    opened it with, `<think>`), which goes out with the thought's first byte (an output that
    writes nothing shows nothing). A thought the output opens later stays reasoning. `feed` turns
    one event into the events shown in its place."""
    __slots__ = ("opener", "_inside", "_begun")

    def __init__(self, opener):
        self.opener = opener
        self._inside = False           # in the thought the prompt opened
        self._begun = False            # past the output's start: a byte, or that thought

    def feed(self, event):
        kind = type(event)
        if self._inside:
            if kind is ReasoningEnd:
                self._inside = False
                return []
            if kind is Reasoning:
                return self._shown(event.text, event.tokens)
            if kind is Dropped:
                return self._shown(event.text.text, event.text.tokens)
            return [event]
        if kind is ReasoningStart and not self._begun:
            self._inside = self._begun = True
            return []
        if kind is not ReasoningEnd:
            self._begun = True
        return [event]

    def _shown(self, text, tokens):
        if not text:
            return []
        if self.opener is not None:
            text, self.opener = self.opener + text, None
        return [Content(text, tokens)]


def message(events, choice=0, force_nonempty_content=False, thought_in_content=None):
    """A Chat Completions choice: {"index", "message": {"role", "content", "reasoning_content",
    "tool_calls"}, "finish_reason"}. `force_nonempty_content`: where the content is blank, the
    reasoning is the content (and reasoning_content none). `thought_in_content`: the text the
    prompt opened the thought with (`"<think>"`); the thought the output starts in is shown in the
    content after it, as written (ThoughtInContent)."""
    if thought_in_content is not None:
        shown = ThoughtInContent(thought_in_content)
        events = [e for event in events for e in shown.feed(event)]
    f = fold(events)
    text, reasoning = f.content, f.reasoning
    if force_nonempty_content and is_blank(text) and reasoning:
        text, reasoning = reasoning, None
    return _message(choice, text, reasoning, [(c.id, c.name, c.arguments) for c in f.calls.values()],
                    finish_reason(f.finish))


def _message(choice, text, reasoning, calls, finish):
    return {
        "index": choice,
        "message": {
            "role": "assistant",
            "content": None if is_blank(text) else text,
            "reasoning_content": reasoning or None,
            "tool_calls": [{"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}
                           for id, name, arguments in calls] or None,
        },
        "finish_reason": finish,
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


def usage(*runs, prompt_tokens):
    """The `usage` object for the choices whose events are `runs` (one run per choice), or None
    when any of them was uncounted (no token spans): the fields are left out, never guessed."""
    completion = reasoning = 0
    for events in runs:
        f = fold(events)
        if f.output_tokens is None:
            return None
        completion += f.output_tokens
        reasoning += f.reasoning_tokens or 0
    return {"prompt_tokens": prompt_tokens, "completion_tokens": completion,
            "total_tokens": prompt_tokens + completion,
            "completion_tokens_details": {"reasoning_tokens": reasoning}}


def chunk(choices, id, created, model, usage=None):
    """A `chat.completion.chunk`: stream choices (from `delta`/`deltas`, any choice indexes) in the
    envelope; `usage` (from `usage`) goes on the chunk that carries it, usually a last one with
    no choices."""
    out = {"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
           "choices": list(choices)}
    if usage is not None:
        out["usage"] = usage
    return out


def completion(choices, id, created, model, usage=None):
    """A `chat.completion`: whole choices (from `message`, one per choice index) in the envelope."""
    out = {"id": id, "object": "chat.completion", "created": created, "model": model,
           "choices": list(choices)}
    if usage is not None:
        out["usage"] = usage
    return out


class Stream:
    """The stream chunk choices of one choice as OpenAI's own server sends them, so a client that
    accumulates the chunks (the openai SDK's stream helpers) rebuilds exactly `message`: the role
    only on the first delta, a call's first delta with `"arguments": ""`, and whitespace-only
    content held until visible text follows (dropped if none does, as `message` leaves blank
    content out); a stream that shows nothing before its Finish gets the role there. `delta`/`deltas`
    stay the stateless per-event shapes of SPEC §7.1. `force_nonempty_content`: a stream that
    showed no content before its Finish gets its reasoning, whole, as content there (the reasoning
    was streamed already, as vLLM's nemotron_v3 streams it). `thought_in_content`: as `message`'s."""
    __slots__ = ("choice", "_role_sent", "_held", "_shown", "_thought", "_thought_shown")

    def __init__(self, choice=0, force_nonempty_content=False, thought_in_content=None):
        self.choice = choice
        self._role_sent = False
        self._held = ""
        self._shown = False
        self._thought = [] if force_nonempty_content else None   # the reasoning streamed, to show at the end
        self._thought_shown = None if thought_in_content is None else ThoughtInContent(thought_in_content)

    def start(self):
        """The opening choice carrying only the role, as OpenAI sends first for each choice (with
        n > 1 a client needs every choice's first chunk in index order)."""
        self._role_sent = True
        return [{"index": self.choice, "delta": {"role": "assistant"}, "logprobs": None, "finish_reason": None}]

    def feed(self, event):
        """The stream choices (zero or one) one event shows as."""
        if self._thought_shown is not None:
            return [choice for shown in self._thought_shown.feed(event) for choice in self._feed(shown)]
        return self._feed(event)

    def _feed(self, event):
        kind = type(event)
        if kind is Content or kind is Malformed:
            text = event.text if kind is Content else event.text.text
            if not self._shown:
                if is_blank(text):
                    self._held += text
                    return []
                text, self._held, self._shown = self._held + text, "", True
            if not text:
                return []
            return [self._choice({"content": text, "reasoning_content": None})]
        d = delta(event, self.choice)
        if d is None:
            return []
        if kind is Reasoning and self._thought is not None:
            self._thought.append(event.text)
        if kind is Finish:
            self._held = ""
            forced = []
            if self._thought and not self._shown:
                self._shown = True
                forced = [self._choice({"content": "".join(self._thought), "reasoning_content": None})]
            if not self._role_sent:
                self._role_sent = True
                d["delta"] = {"role": "assistant", **d["delta"]}
            return forced + [d]
        body = d["delta"]
        del body["role"]
        if kind is ToolCallStart:
            body["tool_calls"][0]["function"]["arguments"] = ""
        return [self._choice(body)]

    def _choice(self, body):
        if not self._role_sent:
            self._role_sent = True
            body = {"role": "assistant", **body}
        return {"index": self.choice, "delta": body, "logprobs": None, "finish_reason": None}
