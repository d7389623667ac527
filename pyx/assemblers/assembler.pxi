# What every call assembler offers the engine: the bytes of one call region in, call events out.
# An assembler starts its calls through the Sink, which numbers them (a call's index is the
# number of calls started before it), and must end every call it started, whichever way the
# region ends: `close` when a marker of the table ends it, `finish` when the stream does. A call a
# marker or the end of the stream cuts short ends with arguments a client can load (one whole
# JSON value), unless the engine stopped the stream for its length: then they stay as far as they
# were written.


cdef struct HeldMarker:
    # a marker of the table an assembler held among the bytes it gives back (give_back_opener), for
    # the engine to read again as that marker
    Py_ssize_t at           # where its bytes start among those given back
    Py_ssize_t len
    int terminal


cdef inline int held_marker(ByteBuf* marks, Py_ssize_t at, int terminal, Py_ssize_t n) except -1:
    """Records a marker held at `at` among the bytes to give back (a HeldMarker in `marks`)."""
    cdef HeldMarker marker
    marker.at = at
    marker.len = n
    marker.terminal = terminal
    return bb_append(marks, <const unsigned char*>&marker, sizeof(HeldMarker))


@cython.no_gc
cdef class Assembler:
    """Base of the call assemblers (one kind per call syntax); the engine holds one per open region."""

    cdef Py_ssize_t feed(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """Takes the bytes it reads as part of the region; returns how many (the rest is not the
        region's: the engine treats it as wrapping)."""
        return 0

    cdef int close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """The table's terminal number `terminal` (bytes p[0:n]) ended the region: end the call
        for the client (SPEC §2.4 per syntax). Returns 1 when the terminal's bytes became the
        call's end (or another event of the call), else 0 (the engine drops them)."""
        return 0

    cdef int open_with(self, const unsigned char* p, Py_ssize_t n, Sink sink, bint region) except -1:
        """The marker p[0:n] that opened the call is the call's own first tag (its syntax lists
        it as a start): read it as such, in a region it opened (`region`, no block did) or as a
        call's first bytes in its block."""
        self.feed(p, n, sink)
        return 0

    cdef int hold_marker(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """A marker of the table that would open the next call, p[0:n], arrived: 1 when the
        assembler keeps its bytes (inside a value that may still be closed by its own tag, which
        then decides whether it was the value's text), else 0 (the engine follows the row)."""
        return 0

    cdef int hold_close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """A marker of the table that would close the region, p[0:n], arrived: 1 when the
        assembler keeps its bytes (inside a value, closing a call opener it holds there as the
        value's text), else 0 (the engine follows the row)."""
        return 0

    cdef bint holds_opener(self) noexcept:
        """Whether a marker that would open the next call (or close this one) is held inside a
        value (hold_marker, hold_close), to be read again by the engine when a terminal or the
        stream's end comes first."""
        return False

    cdef int hold_more(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """(holds_opener) The table's terminal `terminal`, p[0:n], came: 1 when the assembler holds
        it too, among the bytes it holds (the value it may belong to is still open), else 0 (the
        engine has it give back what it holds, then reads the terminal)."""
        return 0

    cdef Py_ssize_t give_back_opener(self, ByteBuf* into, ByteBuf* marks, int* marker, Py_ssize_t* marker_len,
                                     Sink sink) except -1:
        """The held marker was the next call's (or this one's close): the value it was held in ends
        before it, and its bytes and all held after them go to `into` (the marker's terminal in
        `marker`, its length in `marker_len`; the markers held after it (hold_more) as HeldMarker
        records in `marks`) for the engine to read again. Returns how many bytes went."""
        return 0

    cdef int finish(self, Sink sink, bint complete) except -1:
        """The stream ended inside the region: report what is held (UnterminatedRegion); a started
        call's arguments are closed into one whole value when `complete` (the stream was not
        stopped for its length), else left as they were written."""
        return 0

    cdef int ignored(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """An ignored terminal (a separator) arrived inside the region; an assembler holding
        bytes keeps it in its place among them."""
        return sink.dropped(DR_WRAPPER, p, n)

    cdef bint holds_bytes(self) noexcept:
        """Whether the assembler holds bytes it has read and reported in no event yet (a marker
        the engine drops now would go out before them)."""
        return False

    cdef Py_ssize_t given_back(self, const unsigned char** p) noexcept:
        """After `feed` took fewer bytes than it was given because the call returned: bytes of
        earlier pieces the assembler held that turned out not to be the call's, for the engine
        to read before the rest (p set to them, valid until the next feed); their count."""
        return 0
