# The fields an inference engine's parser interface takes for a delta (content, reasoning, call
# deltas), and where each record goes among them: a FieldRoutes per serving role, data the role
# chooses (symphony.integrations.stream). The Sink folds a feed's records (Sink.fields) or a
# whole parse's (Sink.summary, the batch's fold) by a FieldRoutes, so no event is made for them.


cpdef enum Field:
    FIELD_NONE = 0        # shown nowhere
    FIELD_CONTENT = 1     # the record's text (a call event's: its source text) joins the content
    FIELD_REASONING = 2   # the record's text joins the reasoning
    FIELD_CALL = 3        # a call's start (its name) or an arguments fragment (its JSON): a call delta
    FIELD_REST = 4        # the thought is over here: this record's text, every later record's and
                          # what the parser still holds are content, and the routing is done

cdef enum:
    FD_KINDS = 10         # the EventKind values
    FD_CALLS = 8          # call deltas a feed's fold keeps in itself before it allocates


cdef dict _EVENT_KINDS = {Content: EV_CONTENT, ReasoningStart: EV_REASONING_START, Reasoning: EV_REASONING,
                          ReasoningEnd: EV_REASONING_END, ToolCallStart: EV_CALL_START,
                          ToolCallArguments: EV_CALL_ARGUMENTS, ToolCallEnd: EV_CALL_END, Dropped: EV_DROPPED,
                          Malformed: EV_MALFORMED, Finish: EV_FINISH}


cdef int fd_pair(object value, unsigned char* pair) except -1:
    """A route's Fields outside and inside a thought (pair[0], pair[1]), from one Field (both)
    or a pair."""
    if isinstance(value, tuple):
        if len(<tuple>value) != 2:
            raise ValueError(f"a route is one Field or a pair (outside a thought, inside one), not {value!r}")
        pair[0] = fd_one(value[0])
        pair[1] = fd_one(value[1])
    else:
        pair[0] = pair[1] = fd_one(value)
    return 0


cdef int fd_kind(object event_class) except -1:
    """The EventKind of an event class's records."""
    kind = _EVENT_KINDS.get(event_class)
    if kind is None:
        raise TypeError(f"routes are keyed by event classes, not {event_class!r}")
    return kind


cdef int fd_one(object value) except -1:
    if isinstance(value, int) and not isinstance(value, bool) and FIELD_NONE <= value <= FIELD_REST:
        return value
    raise ValueError(f"a route's field is a Field, not {value!r}")


@cython.final
@cython.no_gc
cdef class FieldRoutes:
    """Where the records of each event kind go among the delta fields: a Field outside a thought
    and one inside it. Inside a thought are its ReasoningStart and ReasoningEnd, its Reasoning,
    what comes between them, and the Dropped marker that opens it. `routes` maps event classes
    to a Field, or to a pair (outside, inside); a kind not named goes to `otherwise`. Only
    ToolCallStart and ToolCallArguments go to FIELD_CALL; an arguments fragment of a call that
    never started goes to the content (its JSON), as chat.message shows it."""
    cdef unsigned char to[FD_KINDS][2]

    def __cinit__(self, dict routes, otherwise=FIELD_NONE):
        cdef int kind
        cdef unsigned char pair[2]
        fd_pair(otherwise, pair)
        for kind in range(FD_KINDS):
            self.to[kind][0] = pair[0]
            self.to[kind][1] = pair[1]
        for event_class, field in routes.items():
            fd_pair(field, self.to[fd_kind(event_class)])
        for kind in range(FD_KINDS):
            if kind != EV_CALL_START and kind != EV_CALL_ARGUMENTS and (self.to[kind][0] == FIELD_CALL
                                                                        or self.to[kind][1] == FIELD_CALL):
                raise ValueError("only ToolCallStart and ToolCallArguments go to FIELD_CALL")

    def route(self, event_class):
        """(the Field outside a thought, the Field inside one) of an event class's records."""
        cdef int kind = fd_kind(event_class)
        return Field(self.to[kind][0]), Field(self.to[kind][1])


# What a message holds, symphony's one definition of it: Content and Malformed are content,
# Reasoning is reasoning, calls are calls, markers nothing. The batch rows, the engines' plugins
# and chat.message (symphony.adapt.fold reads its text fields from here) fold by these.
MESSAGE_ROUTES = FieldRoutes({Content: FIELD_CONTENT, Malformed: FIELD_CONTENT, Reasoning: FIELD_REASONING,
                              ToolCallStart: FIELD_CALL, ToolCallArguments: FIELD_CALL})
cdef FieldRoutes _MESSAGE_ROUTES = MESSAGE_ROUTES


cdef inline int fd_field(FieldRoutes routes, sk_record* records, Py_ssize_t i, Py_ssize_t count,
                         bint* thought) noexcept:
    """The Field record i of `count` goes to; `thought` (whether a thought is open before it) is
    moved past it."""
    cdef int kind = records[i].kind
    cdef bint inside
    if kind == EV_REASONING_START:
        thought[0] = True
        inside = True
    elif kind == EV_REASONING_END:
        thought[0] = False
        inside = True
    elif kind == EV_REASONING:
        inside = True
    else:
        inside = thought[0] or (kind == EV_DROPPED and i + 1 < count and records[i + 1].kind == EV_REASONING_START)
    return routes.to[kind][inside]


cdef inline int fd_next(FieldRoutes routes, sk_record* records, Py_ssize_t i, Py_ssize_t count, bint* thought,
                        bint* rest) noexcept:
    """fd_field, and once a FIELD_REST route is met (`rest` set), that record and every later one
    go to the content."""
    cdef int field = fd_field(routes, records, i, count, thought)
    if rest[0]:
        return FIELD_CONTENT
    if field == FIELD_REST:
        rest[0] = True
        return FIELD_CONTENT
    return field


cdef struct fd_text:
    const unsigned char* p    # the one run of bytes so far (in place), or NULL
    Py_ssize_t n
    ByteBuf joined            # the runs copied one after another, once there are two
    bint many


cdef inline int fd_add(fd_text* t, const unsigned char* p, Py_ssize_t n) except -1:
    """One more run of a field's bytes (kept in place while it is the only one)."""
    if n <= 0:
        return 0
    if t.many:
        return bb_append(&t.joined, p, n)
    if t.p == NULL:
        t.p = p
        t.n = n
        return 0
    t.many = True
    bb_append(&t.joined, t.p, t.n)
    return bb_append(&t.joined, p, n)


cdef inline object fd_str(fd_text* t, object whole, const unsigned char* wp, Py_ssize_t wn):
    """The field's str, or None when it has no bytes; `whole` (the str of the text fed, bytes
    wp[0:wn], or None) itself when the field is exactly that text."""
    if t.many:
        return PyUnicode_DecodeUTF8(<const char*>t.joined.data, t.joined.len, NULL)
    if t.p == NULL:
        return None
    if whole is not None and t.n == wn and (t.p == wp or memcmp(t.p, wp, wn) == 0):
        return whole
    return ss_decode(t.p, t.n)


cdef inline const unsigned char* fd_bytes(fd_text* t, Py_ssize_t* n) noexcept:
    """The field's bytes (their length in n; NULL and 0 when it has none)."""
    if t.many:
        n[0] = t.joined.len
        return t.joined.data
    n[0] = t.n
    return t.p


cdef struct fd_call:
    uint32_t index
    Py_ssize_t start          # its ToolCallStart record in the feed, or -1 (it started before)
    fd_text arguments


cdef fd_call* fd_push_call(fd_call** calls, Py_ssize_t* n, fd_call* first, uint32_t index,
                           Py_ssize_t start) except NULL:
    """A new call delta at the end of `calls` (kept in `first` while FD_CALLS hold them)."""
    cdef fd_call* grown
    cdef fd_call* call
    if n[0] >= FD_CALLS and (n[0] & (n[0] - 1)) == 0:         # full at FD_CALLS, 16, 32, ...: doubled
        grown = <fd_call*>malloc(2 * n[0] * sizeof(fd_call))
        if grown == NULL:
            raise MemoryError()
        memcpy(grown, calls[0], n[0] * sizeof(fd_call))
        if calls[0] != first:
            free(calls[0])
        calls[0] = grown
    call = &calls[0][n[0]]
    n[0] += 1
    memset(call, 0, sizeof(fd_call))
    call.index = index
    call.start = start
    return call
