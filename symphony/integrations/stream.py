"""One request's symphony parser in the two roles a serving engine splits parsing into.

vLLM and SGLang run a reasoning parser first and hand what follows the thought to a tool-call
parser. Each role here keeps one symphony parser for the request and is fed each delta once;
nothing accumulated is parsed again.

- `ThoughtStream` (the reasoning role) starts where the generation prompt leaves the output and
  reads until the thought is over: reasoning text, then the raw text after the thought (that
  delta's rest and any marker start held back), which the engine hands to the tool role.
- `CallStream` (the tool role) reads content and calls from there on: content text, call deltas
  and, for a thought the model writes later, reasoning. With `thought_as_content` (an engine
  configured with no reasoning parser) a thought and its markers are shown as content, verbatim,
  as the engines do then.

Both give `Step`s; the engine modules only translate them into their own message types.
"""
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
    bytes_of,
)
from symphony.inputs import Delta, End, Prompt
from symphony.parser import parser as _parser


class Step:
    """What one feed shows: `content` and `reasoning` text, and `calls`, one `[index, name,
    arguments]` per call the feed touched (name set only in the feed that started the call)."""
    __slots__ = ("content", "reasoning", "calls")

    def __init__(self, content="", reasoning="", calls=()):
        self.content = content
        self.reasoning = reasoning
        self.calls = calls

    def __bool__(self):
        return bool(self.content or self.reasoning or self.calls)

    def __repr__(self):
        return f"Step(content={self.content!r}, reasoning={self.reasoning!r}, calls={self.calls!r})"


def _starts_thought(events):
    return any(type(e) is ReasoningStart for e in events)


class _Role:
    """What both roles share: whether a thought is open, kept across feeds, and the one walk over
    a feed's events that reads and updates it."""
    __slots__ = ("_in_thought",)

    def _walk(self, events):
        """Each event as (event, its type, whether it is of a thought): Reasoning, a thought's
        ReasoningStart and ReasoningEnd and what comes between them, and the Dropped marker that
        opens a thought (just before its ReasoningStart). The state is updated as each event is
        yielded, so a caller may stop at any event. Callers skip it for a feed of no events (a
        third or more of all feeds), where making the generator would cost more than the feed."""
        after = 0                        # index of the event after this one (no enumerate per feed)
        for event in events:
            after += 1
            kind = type(event)
            if kind is ReasoningStart:
                self._in_thought = True
            elif kind is ReasoningEnd:
                self._in_thought = False
            elif kind is not Reasoning:
                yield event, kind, self._in_thought or (
                    kind is Dropped and after < len(events) and type(events[after]) is ReasoningStart)
                continue
            yield event, kind, True


class CallStream(_Role):
    """The tool role: one parser from the content state (no thought open) for a request."""
    __slots__ = ("_parser", "_thought_as_content")

    def __init__(self, table, tools=None, tool_choice=None, thought_as_content=False):
        self._parser = _parser(table, tools, tool_choice)
        self._thought_as_content = thought_as_content
        self._in_thought = False

    def feed(self, text):
        """The Step of one delta's text."""
        return self._show(self._parser.feed(Delta(text)))

    def end(self, finish="stop"):
        """The Step of the end of the stream (what the parser still held)."""
        return self._show(self._parser.feed(End(finish)))

    def parse(self, output):
        """A whole output: (content, [(name, arguments)]) with every call's arguments joined."""
        step = self._show(self._parser.parse(output))
        calls = {}
        for index, name, arguments in step.calls:
            if index in calls:
                calls[index][1] += arguments
            else:
                calls[index] = [name, arguments]
        return step.content, [tuple(call) for call in calls.values()]

    def _show(self, events):
        if len(events) == 1 and type(events[0]) is Content:       # most deltas: one run of content
            return Step(events[0].text)
        content, reasoning, calls = [], [], []
        by_index = {}
        plain = self._thought_as_content
        for event, kind, thought in (self._walk(events) if events else ()):
            if kind is Content:
                content.append(event.text)
            elif kind is Malformed:
                content.append(event.text.text)
            elif kind is Reasoning:
                (content if plain else reasoning).append(event.text)
            elif kind is Dropped:
                if plain and thought:
                    content.append(event.text.text)
            elif kind is ToolCallStart:
                call = [event.index, event.name, ""]
                by_index[event.index] = call
                calls.append(call)
            elif kind is ToolCallArguments:
                call = by_index.get(event.index)
                if call is None:
                    call = by_index[event.index] = [event.index, None, ""]
                    calls.append(call)
                call[2] += event.json
        return Step("".join(content), "".join(reasoning), calls)


class ThoughtStream(_Role):
    """The reasoning role: one parser from where the generation prompt leaves the output.

    `until_thought_ends` (vLLM: the engine switches to the tool role once the thought is over)
    reads until the thought is over; `ended` then says so, and that feed's Step.content is the
    raw text after the thought (what the parser held back included), for the tool role. Without
    it (SGLang: the reasoning role sees every delta) every thought anywhere is reasoning and
    everything else is passed on as the raw text the tool role reads; with `clean` as well (no
    tool role follows) what is passed on is what a client is shown: content, and a call as the
    text it was written as.
    """
    __slots__ = ("_parser", "ended", "_pending", "_until_end", "_clean")

    def __init__(self, table, tools=None, prompt=None, until_thought_ends=True, clean=False):
        self._parser = _parser(table, tools)
        self._in_thought = False
        self.ended = False
        self._pending = ""
        self._until_end = until_thought_ends
        self._clean = clean
        if prompt:
            self._in_thought = _starts_thought(self._parser.feed(Prompt(prompt)))

    @staticmethod
    def prompt_opens_thought(table, prompt):
        """Whether a generation prompt leaves the output inside a thought of the table."""
        return bool(prompt) and _starts_thought(_parser(table).feed(Prompt(prompt)))

    def feed(self, text):
        """The reasoning of one delta, and what is passed on (see the class)."""
        if self.ended:
            return Step(content=text)
        if not self._until_end:
            return self._filter(self._parser.feed(Delta(text)))
        self._pending += text
        return self._read(self._parser.feed(Delta(text)))

    def end(self, finish="stop"):
        if self.ended:
            return Step()
        events = self._parser.feed(End(finish))
        return self._read(events) if self._until_end else self._filter(events)

    def _read(self, events):
        reasoning = []
        over = False
        used = 0                         # characters of the pending text the events account for
        for event, kind, thought in (self._walk(events) if events else ()):
            if kind is Reasoning:
                reasoning.append(event.text)
                used += len(event.text)
            elif kind is ReasoningEnd or not thought:    # the rest starts after it (a ReasoningEnd
                over = True                              # accounts for no text) or at it
                break
            else:
                used += len(bytes_of(event))
        if not over:
            self._pending = self._pending[used:]
            return Step(reasoning="".join(reasoning))
        self.ended = True
        rest = self._pending[used:]
        self._pending = ""
        return Step(content=rest, reasoning="".join(reasoning))

    def _filter(self, events):
        reasoning, rest = [], []
        clean = self._clean
        for event, kind, thought in (self._walk(events) if events else ()):
            if kind is Reasoning:
                reasoning.append(event.text)
            elif thought:
                continue
            elif kind is Content:                        # bytes_of, without its two calls
                rest.append(event.text)
            elif not clean or (kind is not Dropped and kind is not Finish):
                rest.append(bytes_of(event))
        return Step(content="".join(rest), reasoning="".join(reasoning))

    @staticmethod
    def split(table, output, tools=None, prompt=None, clean=False):
        """A whole output: (reasoning, the output without its thoughts and their markers; with
        `clean`, without any markup: content and calls as written)."""
        stream = ThoughtStream(table, tools, None, until_thought_ends=False, clean=clean)
        step = stream._filter(stream._parser.parse(output, prompt))
        return step.reasoning, step.content
