"""What a run of events says as a whole, the one fold every adapter's whole form is built from
(SPEC §7.1–7.3): visible text (Content and Malformed, in order), reasoning text, the calls in the
order they started with their joined argument fragments, the Finish, and how many output tokens
the events account for.

An arguments fragment for an index that never started joins the visible text (the client sees
what the model wrote). Token counts are known only when every event that accounts for bytes was
counted; one uncounted event, or no event that carries a count at all, makes the whole count
unknown (None) rather than a guess.
"""
from symphony._native import MESSAGE_ROUTES, Field
from symphony.events import (
    Content,
    Dropped,
    Finish,
    Malformed,
    Reasoning,
    ToolCallArguments,
    ToolCallEnd,
    ToolCallStart,
)


def _text_fields():
    """Which field of a message each kind of text event shows in: symphony's one definition of
    what a message holds is the core's MESSAGE_ROUTES (the batch rows and the engines' plugins
    fold by it too); a message routes no text by whether a thought is open."""
    fields = {}
    for kind in (Content, Malformed, Reasoning):
        outside, inside = MESSAGE_ROUTES.route(kind)
        if outside != inside or outside not in (Field.FIELD_CONTENT, Field.FIELD_REASONING):
            raise ImportError(f"MESSAGE_ROUTES sends {kind.__name__} where a message has no field for it")
        fields[kind] = outside
    return fields


_TEXT_FIELDS = _text_fields()
_CONTENT = Field.FIELD_CONTENT


class Call:
    """One started call: its index, id, name and the arguments fragments joined so far."""
    __slots__ = ("index", "id", "name", "_fragments")

    def __init__(self, index, id, name):
        self.index = index
        self.id = id
        self.name = name
        self._fragments = []

    @property
    def arguments(self):
        return "".join(self._fragments)


class Fold:
    """The whole of a run of events; `add` takes them one at a time, `fold(events)` all at once."""
    __slots__ = ("_content", "_reasoning", "calls", "finish", "_tokens", "_counted")

    def __init__(self):
        self._content = []
        self._reasoning = []
        self.calls = {}          # index -> Call, in start order
        self.finish = None
        self._tokens = None
        self._counted = True

    @property
    def content(self):
        return "".join(self._content)

    @property
    def reasoning(self):
        return "".join(self._reasoning)

    @property
    def output_tokens(self):
        """Tokens the events account for (None when any of them was uncounted)."""
        return self._tokens if self._counted else None

    @property
    def reasoning_tokens(self):
        """The Finish's reasoning token count (None when uncounted or there is no Finish)."""
        if self.output_tokens is None or self.finish is None:
            return None
        return self.finish.reasoning_tokens

    def _count(self, run):
        tokens = run.tokens
        if tokens is None:
            self._counted = False
        else:
            self._tokens = (self._tokens or 0) + tokens

    def add(self, event):
        kind = type(event)
        field = _TEXT_FIELDS.get(kind)
        if field is not None:
            run = event.text if kind is Malformed else event       # (what carries the text and its count)
            (self._content if field == _CONTENT else self._reasoning).append(run.text)
            self._count(run)
        elif kind is ToolCallArguments:
            call = self.calls.get(event.index)
            if call is None:
                self._content.append(event.json)
            else:
                call._fragments.append(event.json)
            self._count(event.source)
        elif kind is ToolCallStart:
            self.calls[event.index] = Call(event.index, event.id, event.name)
            self._count(event.source)
        elif kind is ToolCallEnd:
            self._count(event.source)
        elif kind is Dropped:
            self._count(event.text)
        elif kind is Finish:
            self.finish = event


def fold(events):
    """The Fold of a whole run of events."""
    f = Fold()
    for e in events:
        f.add(e)
    return f
