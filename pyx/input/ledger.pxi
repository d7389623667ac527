# The Ledger (SPEC §1.7): which tokens start where, so every text event can say how many tokens
# it holds. Offsets are absolute UTF-8 byte offsets in the output; a token counts in the event
# that carries its first byte, a zero-width token in the run holding the next byte.
#
# Tokens that start at one offset are one entry and a count (a run of empty tokens, zero-width
# spans): the ledger holds at most one entry per byte held plus one, so what the buffer limit
# bounds (bytes held) bounds it too, however many empty tokens come.


cdef struct lg_starts:
    int64_t at          # the offset these tokens start at
    int64_t tokens      # how many start there

cdef bint lg_spans_partition(Delta delta, const unsigned char* p, Py_ssize_t n) noexcept:
    """Whether the delta's spans lay out p[0:n]: ordered, contiguous from 0 to n, char-aligned ends."""
    cdef Py_ssize_t at = 0, i, count, start, end
    cdef TokenSpan span
    if delta.form == SPANS_NONE:
        return n == 0
    if delta.form == SPANS_ONE:
        return delta.one.start == 0 and delta.one.end == n
    if delta.form == SPANS_OBJECTS:
        for item in <tuple>delta.given_spans:
            span = <TokenSpan>item
            if span.start != at or span.end < span.start or span.end > n:
                return False
            if not u8_is_boundary(p, n, span.end):
                return False
            at = span.end
        return at == n
    count = delta.nrows
    for i in range(count):
        start = <Py_ssize_t>delta.row(i, 1)
        end = <Py_ssize_t>delta.row(i, 2)
        if start != at or end < start or end > n or not u8_is_boundary(p, n, end):
            return False
        at = end
    return at == n


@cython.freelist(8)
@cython.final
cdef class Ledger:
    """Token starts not yet counted, bytes received, bytes emitted, and whether counting still holds."""
    cdef lg_starts* starts      # starts[head:tail]: strictly increasing offsets
    cdef Py_ssize_t head
    cdef Py_ssize_t tail
    cdef Py_ssize_t cap
    cdef readonly int64_t received
    cdef readonly int64_t emitted
    cdef readonly bint uncounted

    def __dealloc__(self):
        free(self.starts)

    cdef inline int push_start(self, int64_t at) except -1:
        """A token starts at `at` (never before the last start noted)."""
        if self.tail > self.head and self.starts[self.tail - 1].at == at:
            self.starts[self.tail - 1].tokens += 1
            return 0
        if self.tail == self.cap:
            self.make_room()
        self.starts[self.tail].at = at
        self.starts[self.tail].tokens = 1
        self.tail += 1
        return 0

    cdef int make_room(self) except -1:
        """The array is full: the live starts move to the front, or it grows."""
        cdef lg_starts* grown
        cdef Py_ssize_t live = self.tail - self.head, cap
        if self.head and live <= self.cap // 2:
            memmove(self.starts, self.starts + self.head, live * sizeof(lg_starts))
        else:
            cap = self.cap * 2 if self.cap else 16
            grown = <lg_starts*>realloc(self.starts, cap * sizeof(lg_starts))
            if grown == NULL:
                raise MemoryError()
            self.starts = grown
            self.cap = cap
            if self.head:
                memmove(self.starts, self.starts + self.head, live * sizeof(lg_starts))
        self.head = 0
        self.tail = live
        return 0

    cdef void turn_uncounted(self) noexcept:
        self.uncounted = True
        self.head = 0
        self.tail = 0

    cdef inline int note(self, Delta delta, const unsigned char* p, Py_ssize_t n) except -1:
        """Before a delta is parsed: remembers where its tokens start, or turns the stream uncounted
        (the spans are checked as they are read; a layout that fails takes back what it noted).
        A streamed token (one span, the whole text) is noted here; other layouts in note_spans."""
        cdef int64_t at = self.received
        cdef TokenSpan span
        self.received += n
        if self.uncounted:
            return 0
        if delta.form != SPANS_ONE:
            return self.note_spans(delta, p, n, at)
        span = delta.one
        if span.start != 0 or span.end != n:
            return self.refuse(self.tail)
        if not span.continued:
            self.push_start(at)
        return 0

    cdef inline int note_token(self, Py_ssize_t n) except -1:
        """note() of one token whose text is the next n bytes (Engine.feed_token): it starts
        at their first byte."""
        cdef int64_t at = self.received
        self.received += n
        if not self.uncounted:
            self.push_start(at)
        return 0

    cdef int note_spans(self, Delta delta, const unsigned char* p, Py_ssize_t n, int64_t at) except -1:
        """note() of a delta with no spans, several, or an array of them (its text at output
        offset `at`)."""
        cdef Py_ssize_t i, end = 0, tail = self.tail
        cdef TokenSpan span
        if delta.form == SPANS_OBJECTS:
            for item in <tuple>delta.given_spans:
                span = <TokenSpan>item
                if span.start != end or span.end < span.start or span.end > n or not u8_is_boundary(p, n, span.end):
                    return self.refuse(tail)
                end = span.end
                if not span.continued:
                    self.push_start(at + span.start)
            if end != n:
                return self.refuse(tail)
        elif not lg_spans_partition(delta, p, n):
            self.turn_uncounted()
        elif delta.form == SPANS_ARRAY:
            for i in range(delta.nrows):
                if delta.row(i, 3) == 0:
                    self.push_start(at + delta.row(i, 1))
        return 0

    cdef inline void note_plain(self, Py_ssize_t n) noexcept:
        """A piece of n bytes with no spans: the stream is uncounted from here (unless empty)."""
        self.received += n
        if n and not self.uncounted:
            self.turn_uncounted()

    cdef int refuse(self, Py_ssize_t tail) except -1:
        """The delta's spans do not lay out its text: the stream turns uncounted."""
        self.tail = tail
        self.turn_uncounted()
        return 0

    cdef int64_t count(self, Py_ssize_t n) noexcept:
        """Emits the next n bytes: the number of tokens starting in them, -1 when uncounted."""
        cdef int64_t end = self.emitted + n
        cdef int64_t counted = 0
        self.emitted = end
        if self.uncounted:
            return -1
        while self.head < self.tail and self.starts[self.head].at < end:
            counted += self.starts[self.head].tokens
            self.head += 1
        return counted

    cdef int64_t pending(self) noexcept:
        """Tokens noted whose bytes never came (trailing specials, held stop strings): 0 when uncounted."""
        cdef int64_t left = 0
        cdef Py_ssize_t i
        if self.uncounted:
            return 0
        for i in range(self.head, self.tail):
            left += self.starts[i].tokens
        return left

    cdef int64_t take_pending(self) noexcept:
        """pending(), and those tokens are counted (they go into one trailing event)."""
        cdef int64_t left = self.pending()
        self.head = self.tail
        return left

    # Python-visible views, for tests and callers that drive a Ledger by hand.
    def note_delta(self, Delta delta):
        cdef Py_ssize_t n
        cdef const unsigned char* p = delta.bytes_of(&n)
        self.note(delta, p, n)

    def text(self, Py_ssize_t n):
        """Counts n emitted bytes; None when the stream is uncounted."""
        cdef int64_t counted = self.count(n)
        return None if counted < 0 else counted

    def finish(self):
        """Tokens left with no following bytes (0 when uncounted)."""
        return self.take_pending()

    def counting(self):
        return not self.uncounted
