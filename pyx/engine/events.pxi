# The ten event types and Text (SPEC §1.1, §1.3): immutable cdef classes, cheap to build from C.
# Each has to_dict() giving the exact wire JSON; symphony.events.from_dict reads it back. They hold
# only str, int, Text and reason values, so they can never be part of a reference cycle: the
# garbage collector does not track them (its passes would otherwise grow with every event kept).
# A call event, Dropped and Malformed keep their Text's two fields and make the Text when it is
# asked for, and ToolCallStart its id when it is the core's `call_<index>`: a long output's
# events then take a third less memory, so fewer fresh pages (each a page fault, costly on a VM).

cdef object _check_count(object value, str field):
    """A u32 field of the wire form: an int in [0, 2**32)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{field} must be an int, not {type(value).__name__}")
    if value < 0 or value > 0xFFFFFFFF:
        raise ValueError(f"{field} must be in [0, 2**32), got {value}")
    return int(value)


cdef object _check_tokens(object tokens):
    if tokens is None:
        return None
    return _check_count(tokens, "tokens")


cdef str _check_str(object value, str field):
    if type(value) is not str:
        if isinstance(value, str):
            return str(value)
        raise TypeError(f"{field} must be a str, not {type(value).__name__}")
    return <str>value


cdef object _check_index(object index):
    return _check_count(index, "index")


@cython.freelist(64)
@cython.final
@cython.no_gc
cdef class Text:
    """A run of output text and how many tokens started in it (None: the stream is uncounted)."""
    cdef readonly str text
    cdef readonly object tokens

    def __init__(self, text, tokens=None):
        self.text = _check_str(text, "text")
        self.tokens = _check_tokens(tokens)

    @staticmethod
    def uncounted(text):
        return Text(text, None)

    def is_nothing(self):
        """Empty text carrying no token (SPEC §1.1): Text("", 1) is not nothing."""
        return not self.text and not self.tokens

    def to_dict(self):
        return {"text": self.text, "tokens": self.tokens}

    def __eq__(self, other):
        return type(other) is Text and (<Text>other).text == self.text and (<Text>other).tokens == self.tokens

    def __hash__(self):
        return hash((self.text, self.tokens))

    def __repr__(self):
        return f"Text({self.text!r}, tokens={self.tokens!r})"

    def __reduce__(self):
        return (Text, (self.text, self.tokens))


cdef inline Text ev_text(str text, object tokens):
    cdef Text t = Text.__new__(Text)
    t.text = text
    t.tokens = tokens
    return t


cdef Text _as_text(object value, str field):
    if type(value) is Text:
        return <Text>value
    if isinstance(value, str):
        return ev_text(str(value), None)
    raise TypeError(f"{field} must be a Text, not {type(value).__name__}")


cdef class Event:
    """Base of the ten event types. Events are immutable and compare by value."""

    cdef tuple _fields(self):
        return ()

    def to_dict(self):
        raise NotImplementedError

    def __eq__(self, other):
        return type(other) is type(self) and (<Event>other)._fields() == self._fields()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((type(self).__name__,) + self._fields())

    def __repr__(self):
        return f"{type(self).__name__}{self._fields()!r}"


@cython.final
@cython.no_gc
cdef class Content(Event):
    """Visible text."""
    cdef readonly str text
    cdef readonly object tokens
    kind = "content"

    def __init__(self, text, tokens=None):
        self.text = _check_str(text, "text")
        self.tokens = _check_tokens(tokens)

    cdef tuple _fields(self):
        return (self.text, self.tokens)

    def to_dict(self):
        return {"kind": "content", "text": self.text, "tokens": self.tokens}

    def __repr__(self):
        return f"Content({self.text!r}, tokens={self.tokens!r})"

    def __reduce__(self):
        return (Content, (self.text, self.tokens))


@cython.final
@cython.no_gc
cdef class Reasoning(Event):
    """Text of a thought."""
    cdef readonly str text
    cdef readonly object tokens
    kind = "reasoning"

    def __init__(self, text, tokens=None):
        self.text = _check_str(text, "text")
        self.tokens = _check_tokens(tokens)

    cdef tuple _fields(self):
        return (self.text, self.tokens)

    def to_dict(self):
        return {"kind": "reasoning", "text": self.text, "tokens": self.tokens}

    def __repr__(self):
        return f"Reasoning({self.text!r}, tokens={self.tokens!r})"

    def __reduce__(self):
        return (Reasoning, (self.text, self.tokens))


@cython.final
@cython.no_gc
cdef class ReasoningStart(Event):
    """A thought opens (accounts for no bytes)."""
    kind = "reasoning_start"

    def to_dict(self):
        return {"kind": "reasoning_start"}

    def __repr__(self):
        return "ReasoningStart()"

    def __reduce__(self):
        return (ReasoningStart, ())


@cython.final
@cython.no_gc
cdef class ReasoningEnd(Event):
    """A thought closes (accounts for no bytes)."""
    kind = "reasoning_end"

    def to_dict(self):
        return {"kind": "reasoning_end"}

    def __repr__(self):
        return "ReasoningEnd()"

    def __reduce__(self):
        return (ReasoningEnd, ())


@cython.final
@cython.no_gc
cdef class ToolCallStart(Event):
    """A call begins: its index, id (the one the model wrote in the call's head, where the
    family's syntax writes one, else `call_<index>`), name, and the opening bytes as written."""
    cdef readonly object index
    cdef str _id                # None: the core's `call_<index>`, made when asked for
    cdef readonly str name
    cdef str _text              # the source Text's fields (its Text is made when asked for)
    cdef object _tokens
    kind = "tool_call_start"

    def __init__(self, index, id, name, source):
        cdef Text t = _as_text(source, "source")
        self.index = _check_index(index)
        self._id = _check_str(id, "id")
        self.name = _check_str(name, "name")
        self._text, self._tokens = t.text, t.tokens

    @property
    def id(self):
        return self._id if self._id is not None else sk_call_id(<uint32_t>self.index)

    @property
    def source(self):
        return ev_text(self._text, self._tokens)

    cdef tuple _fields(self):
        return (self.index, self.id, self.name, self.source)

    def to_dict(self):
        return {"kind": "tool_call_start", "index": self.index, "id": self.id, "name": self.name,
                "source": self.source.to_dict()}

    def __reduce__(self):
        return (ToolCallStart, (self.index, self.id, self.name, self.source))


@cython.final
@cython.no_gc
cdef class ToolCallArguments(Event):
    """A fragment of a call's JSON arguments and the model's bytes it came from."""
    cdef readonly object index
    cdef readonly str json
    cdef str _text
    cdef object _tokens
    kind = "tool_call_arguments"

    def __init__(self, index, json, source):
        cdef Text t = _as_text(source, "source")
        self.index = _check_index(index)
        self.json = _check_str(json, "json")
        self._text, self._tokens = t.text, t.tokens

    @property
    def source(self):
        return ev_text(self._text, self._tokens)

    cdef tuple _fields(self):
        return (self.index, self.json, self.source)

    def to_dict(self):
        return {"kind": "tool_call_arguments", "index": self.index, "json": self.json,
                "source": self.source.to_dict()}

    def __reduce__(self):
        return (ToolCallArguments, (self.index, self.json, self.source))


@cython.final
@cython.no_gc
cdef class ToolCallEnd(Event):
    """A call ends: the closing bytes (may be empty)."""
    cdef readonly object index
    cdef str _text
    cdef object _tokens
    kind = "tool_call_end"

    def __init__(self, index, source):
        cdef Text t = _as_text(source, "source")
        self.index = _check_index(index)
        self._text, self._tokens = t.text, t.tokens

    @property
    def source(self):
        return ev_text(self._text, self._tokens)

    cdef tuple _fields(self):
        return (self.index, self.source)

    def to_dict(self):
        return {"kind": "tool_call_end", "index": self.index, "source": self.source.to_dict()}

    def __reduce__(self):
        return (ToolCallEnd, (self.index, self.source))


@cython.final
@cython.no_gc
cdef class Dropped(Event):
    """Bytes that carry no meaning for the client (markers, wrapping), with why."""
    cdef str _text
    cdef object _tokens
    cdef readonly object why
    kind = "dropped"

    def __init__(self, text, why):
        cdef Text t = _as_text(text, "text")
        self._text, self._tokens = t.text, t.tokens
        self.why = DropReason(why)

    @property
    def text(self):
        return ev_text(self._text, self._tokens)

    cdef tuple _fields(self):
        return (self.text, self.why)

    def to_dict(self):
        return {"kind": "dropped", "text": self.text.to_dict(), "why": reason_to_wire(self.why)}

    def __reduce__(self):
        return (Dropped, (self.text, self.why))


@cython.final
@cython.no_gc
cdef class Malformed(Event):
    """Bytes that could not be parsed as what their place called for, with why."""
    cdef str _text
    cdef object _tokens
    cdef readonly object why
    kind = "malformed"

    def __init__(self, text, why):
        cdef Text t = _as_text(text, "text")
        self._text, self._tokens = t.text, t.tokens
        self.why = why if type(why) is Other else MalformedReason(why)

    @property
    def text(self):
        return ev_text(self._text, self._tokens)

    cdef tuple _fields(self):
        return (self.text, self.why)

    def to_dict(self):
        return {"kind": "malformed", "text": self.text.to_dict(), "why": reason_to_wire(self.why)}

    def __reduce__(self):
        return (Malformed, (self.text, self.why))


@cython.final
@cython.no_gc
cdef class Finish(Event):
    """The stream ended: why, how many calls started, how many tokens the reasoning took."""
    cdef readonly object reason
    cdef readonly object tool_calls
    cdef readonly object reasoning_tokens
    kind = "finish"

    def __init__(self, reason, tool_calls=0, reasoning_tokens=0):
        self.reason = reason if type(reason) is Other else FinishReason(reason)
        self.tool_calls = _check_count(tool_calls, "tool_calls")
        self.reasoning_tokens = _check_count(reasoning_tokens, "reasoning_tokens")

    cdef tuple _fields(self):
        return (self.reason, self.tool_calls, self.reasoning_tokens)

    def to_dict(self):
        return {"kind": "finish", "reason": reason_to_wire(self.reason), "tool_calls": self.tool_calls,
                "reasoning_tokens": self.reasoning_tokens}

    def __reduce__(self):
        return (Finish, (self.reason, self.tool_calls, self.reasoning_tokens))


# Builders used by the core: no argument checks, one allocation each (made cheap by the object
# pools, object_pool.h, and by Text's freelist).

cdef ReasoningStart _REASONING_START = ReasoningStart.__new__(ReasoningStart)
cdef ReasoningEnd _REASONING_END = ReasoningEnd.__new__(ReasoningEnd)


cdef inline Content ev_content(str text, object tokens):
    cdef Content e = Content.__new__(Content)
    e.text = text
    e.tokens = tokens
    return e


cdef inline Reasoning ev_reasoning(str text, object tokens):
    cdef Reasoning e = Reasoning.__new__(Reasoning)
    e.text = text
    e.tokens = tokens
    return e


cdef inline Dropped ev_dropped(str text, object tokens, object why):
    cdef Dropped e = Dropped.__new__(Dropped)
    e._text = text
    e._tokens = tokens
    e.why = why
    return e


cdef inline Malformed ev_malformed(str text, object tokens, object why):
    cdef Malformed e = Malformed.__new__(Malformed)
    e._text = text
    e._tokens = tokens
    e.why = why
    return e


cdef inline ToolCallStart ev_call_start(object index_object, str name, str text, object tokens, str id=None):
    """(`id` None: the call's id is `call_<index>`.)"""
    cdef ToolCallStart e = ToolCallStart.__new__(ToolCallStart)
    e.index = index_object
    e._id = id
    e.name = name
    e._text = text
    e._tokens = tokens
    return e


cdef inline ToolCallArguments ev_call_arguments(object index, str json, str text, object tokens):
    cdef ToolCallArguments e = ToolCallArguments.__new__(ToolCallArguments)
    e.index = index
    e.json = json
    e._text = text
    e._tokens = tokens
    return e


cdef inline ToolCallEnd ev_call_end(object index, str text, object tokens):
    cdef ToolCallEnd e = ToolCallEnd.__new__(ToolCallEnd)
    e.index = index
    e._text = text
    e._tokens = tokens
    return e


cdef inline Finish ev_finish(object reason, uint32_t tool_calls, int64_t reasoning_tokens):
    cdef Finish e = Finish.__new__(Finish)
    e.reason = reason
    e.tool_calls = tool_calls
    e.reasoning_tokens = reasoning_tokens
    return e
