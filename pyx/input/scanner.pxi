# The Scanner (SPEC §2.3): finds a table's markers in streamed text. At each position: hold the
# rest back if more may come and the WHOLE rest is a proper prefix of some marker; else take the
# longest marker starting here (ties: the first listed); else move on. Marker first bytes are
# UTF-8 lead bytes, so looking only at positions whose byte can start a marker never splits a
# character, and what is held back is always less than the longest marker.

cdef enum ScanPiece:
    SC_HOLD = -3      # (sc_search) the rest of the window may still become a marker
    SC_DONE = -2
    SC_TEXT = -1      # >= 0: the index of the marker found


cdef struct ms_table:
    const unsigned char** ptrs
    Py_ssize_t* lens
    uint64_t first[256]
    uint64_t second[256]   # the markers whose second byte each byte can be (one-byte markers: any)
    int only_first         # the one byte every marker starts with, or -1


cdef extern from *:
    int sc_lowest "__builtin_ctzll"(unsigned long long bits) noexcept nogil   # the lowest set bit's index (bits != 0)


cdef inline Py_ssize_t sc_candidate(const ms_table* t, const unsigned char* w, Py_ssize_t at,
                                    Py_ssize_t stop) noexcept nogil:
    """The first position in [at, stop) whose byte can start a marker, or stop when none can."""
    cdef const unsigned char* hit
    if t.only_first >= 0:
        hit = <const unsigned char*>memchr(w + at, t.only_first, stop - at)
        return stop if hit == NULL else hit - w
    while at < stop and t.first[w[at]] == 0:
        at += 1
    return at


cdef int sc_search(const ms_table* t, const unsigned char* w, Py_ssize_t at, Py_ssize_t stop, Py_ssize_t n,
                   bint more, Py_ssize_t* where, Py_ssize_t* length) noexcept nogil:
    """Of the window w[0:n], the first position in [at, stop) where a marker starts (its index;
    where/length: its place and length) or, with `more`, where the whole rest is a proper prefix
    of a marker (SC_HOLD; where: its start); SC_TEXT when there is neither. At one position a
    possible longer marker is held back before a whole one is taken; ties go to the first listed.
    Touches no Python object: a long stretch is searched with the GIL released."""
    cdef Py_ssize_t rest, best_len, m_len
    cdef uint64_t mask, bit
    cdef int i, best
    while at < stop:
        at = sc_candidate(t, w, at, stop)
        if at == stop:
            return SC_TEXT
        mask = t.first[w[at]]
        rest = n - at
        if rest >= 2:
            mask &= t.second[w[at + 1]]    # a marker (or the start of one) matches 2 bytes here
        if more:
            bit = mask
            while bit:
                i = sc_lowest(bit)
                bit &= bit - 1
                m_len = t.lens[i]
                if m_len > rest and memcmp(w + at, t.ptrs[i], rest) == 0:
                    where[0] = at
                    return SC_HOLD
        best = -1
        best_len = 0
        bit = mask
        while bit:
            i = sc_lowest(bit)
            bit &= bit - 1
            m_len = t.lens[i]
            if m_len <= rest and m_len > best_len and memcmp(w + at, t.ptrs[i], m_len) == 0:
                best = i
                best_len = m_len
        if best >= 0:
            where[0] = at
            length[0] = best_len
            return best
        at += 1
    return SC_TEXT


@cython.final
@cython.no_gc
cdef class MarkerSet:
    """The markers of a table, compiled once: bytes, lengths, and which markers each byte can start."""
    cdef readonly tuple texts
    cdef readonly tuple dropped     # each marker's uncounted Dropped{Wrapper}, shared by every parser
    cdef list encoded           # the markers' UTF-8, which t.ptrs point into
    cdef ms_table t
    cdef readonly int size
    cdef readonly Py_ssize_t longest

    def __cinit__(self, markers):
        cdef int i, b
        cdef bytes raw
        self.texts = tuple(markers)
        if len(self.texts) > 64:
            raise ValueError("a table can have at most 64 markers")
        self.size = len(self.texts)
        self.encoded = []
        self.t.ptrs = <const unsigned char**>malloc((self.size + 1) * sizeof(unsigned char*))
        self.t.lens = <Py_ssize_t*>malloc((self.size + 1) * sizeof(Py_ssize_t))
        if self.t.ptrs == NULL or self.t.lens == NULL:
            raise MemoryError()
        memset(self.t.first, 0, sizeof(self.t.first))
        memset(self.t.second, 0, sizeof(self.t.second))
        self.longest = 0
        self.t.only_first = -2
        for i, text in enumerate(self.texts):
            if type(text) is not str:
                raise TypeError(f"marker {i} must be a str, not {type(text).__name__}")
            raw = (<str>text).encode("utf-8")
            self.encoded.append(raw)
            self.t.ptrs[i] = <const unsigned char*>(<char*>raw)
            self.t.lens[i] = len(raw)
            if len(raw) == 0:
                continue
            self.t.first[self.t.ptrs[i][0]] |= (<uint64_t>1) << i
            if len(raw) == 1:
                for b in range(256):
                    self.t.second[b] |= (<uint64_t>1) << i
            else:
                self.t.second[self.t.ptrs[i][1]] |= (<uint64_t>1) << i
            if len(raw) > self.longest:
                self.longest = len(raw)
            if self.t.only_first == -2:
                self.t.only_first = self.t.ptrs[i][0]
            elif self.t.only_first != self.t.ptrs[i][0]:
                self.t.only_first = -1
        self.dropped = tuple([ev_dropped(text, None, _DROP_REASONS[DR_WRAPPER]) for text in self.texts])

    def __dealloc__(self):
        free(self.t.ptrs)
        free(self.t.lens)


cdef MarkerSet _NO_MARKERS = MarkerSet(())


@cython.freelist(32)
@cython.final
@cython.no_gc
cdef class Scanner:
    """Splits a stream of text into text pieces and marker pieces (see the module comment)."""
    cdef readonly MarkerSet markers
    cdef ByteBuf held
    cdef ByteBuf window_buf
    cdef const unsigned char* w       # the window being scanned: held bytes, then the new ones
    cdef Py_ssize_t wn
    cdef Py_ssize_t pos               # where unreleased text starts
    cdef bint more
    cdef int pending                  # a marker found right after the text piece just returned
    cdef Py_ssize_t pending_at

    def __cinit__(self, markers=None):
        if markers is None:
            markers = _NO_MARKERS        # (the core sets its own with Scanner.of)
        self.markers = markers if type(markers) is MarkerSet else MarkerSet(markers)
        self.pending = SC_DONE

    @staticmethod
    cdef Scanner of(MarkerSet markers):
        """A Scanner of `markers`, made without an argument tuple (one per call a syntax opens)."""
        cdef Scanner scanner = Scanner.__new__(Scanner)
        scanner.markers = markers
        return scanner

    def __dealloc__(self):
        bb_free(&self.held)
        bb_free(&self.window_buf)

    cdef inline void shrink(self) noexcept:
        """After a feed: the window a large delta was copied into is given back."""
        self.window_buf.len = 0
        bb_shrink(&self.window_buf)

    cdef inline int begin(self, const unsigned char* p, Py_ssize_t n, bint more) except -1:
        """Starts scanning held bytes + p[0:n]; `more`: whether more text may follow."""
        if self.held.len:
            self.join_held(p, n)
        else:
            self.w = p
            self.wn = n
        self.pos = 0
        self.more = more
        self.pending = SC_DONE
        return 0

    cdef inline bint take_plain(self, const unsigned char* p, Py_ssize_t n) noexcept:
        """When nothing is held and no byte of p[0:n] can start a marker, the window p[0:n] is one
        text piece and nothing else (what begin and next would find): it is taken as used up and
        True returned, for the caller to handle p[0:n] as text. False (nothing changed) else.
        Long windows always go through next, which scans them without the GIL."""
        if self.held.len or n > NOGIL_FROM or sc_candidate(&self.markers.t, p, 0, n) < n:
            return False
        self.w = p
        self.wn = n
        self.pos = n
        self.pending = SC_DONE
        return True

    cdef int join_held(self, const unsigned char* p, Py_ssize_t n) except -1:
        """The window is the held bytes then p[0:n], copied together (off begin's usual path, so
        that one keeps no registers for it)."""
        self.window_buf.len = 0
        bb_append(&self.window_buf, self.held.data, self.held.len)
        bb_append(&self.window_buf, p, n)
        self.held.len = 0
        self.w = self.window_buf.data
        self.wn = self.window_buf.len
        return 0

    cdef inline int next(self, Py_ssize_t* start, Py_ssize_t* end) except? -3:
        """The next piece of the window: SC_TEXT with its [start, end), a marker index with the
        marker's [start, end), or SC_DONE (the rest, if any, is held back)."""
        if self.pending == SC_DONE and self.pos >= self.wn:
            return SC_DONE      # the window is used up (most feeds end here): no call
        return self.find(start, end)

    cdef int find(self, Py_ssize_t* start, Py_ssize_t* end) except? -3:
        """next(), past its check for a used-up window."""
        cdef MarkerSet ms = self.markers
        cdef Py_ssize_t at = self.pos, n = self.wn, length = 0, stop
        cdef int found
        if self.pending != SC_DONE:
            found = self.pending
            self.pending = SC_DONE
            start[0] = self.pending_at
            end[0] = self.pending_at + ms.t.lens[found]
            self.pos = end[0]
            return found
        # the next NOGIL_FROM bytes with the GIL (a marker is usually near), the rest without
        stop = n if n - at <= NOGIL_FROM else at + NOGIL_FROM
        found = sc_search(&ms.t, self.w, at, stop, n, self.more, &at, &length)
        if found == SC_TEXT and stop < n:
            with nogil:
                found = sc_search(&ms.t, self.w, stop, n, n, self.more, &at, &length)
        if found == SC_HOLD:
            bb_append(&self.held, self.w + at, n - at)
            self.wn = at
            if at > self.pos:
                start[0] = self.pos
                end[0] = at
                self.pos = at
                return SC_TEXT
            self.pos = at
            return SC_DONE
        if found >= 0:
            if at > self.pos:
                start[0] = self.pos
                end[0] = at
                self.pending = found
                self.pending_at = at
                self.pos = at
                return SC_TEXT
            start[0] = at
            end[0] = at + length
            self.pos = at + length
            return found
        if self.pos < n:
            start[0] = self.pos
            end[0] = n
            self.pos = n
            return SC_TEXT
        return SC_DONE

    cdef inline const unsigned char* window(self) noexcept:
        return self.w

    # Python-visible driving, for tests and tools: pieces are ("text", str) or ("marker", index).

    cdef list _pieces(self):
        cdef list out = []
        cdef Py_ssize_t s = 0, e = 0
        cdef int k
        while True:
            k = self.next(&s, &e)
            if k == SC_DONE:
                return out
            if k == SC_TEXT:
                out.append(("text", PyUnicode_DecodeUTF8(<const char*>self.w + s, e - s, NULL)))
            else:
                out.append(("marker", k))

    def feed(self, str text):
        cdef Py_ssize_t n
        cdef const unsigned char* p = utf8_of(text, &n, "text")
        self.begin(p, n, True)
        return self._pieces()

    def finish(self):
        self.begin(NULL, 0, False)
        return self._pieces()

    @property
    def held(self):
        return PyUnicode_DecodeUTF8(<const char*>self.held.data, self.held.len, NULL)

    def marker(self, int i):
        return self.markers.texts[i]
