# The Scanner (SPEC §2.3): finds a table's markers in streamed text. At each position: hold the
# rest back if more may come and the WHOLE rest is a proper prefix of some marker; else take the
# longest marker starting here (ties: the first listed); else move on. Marker first bytes are
# UTF-8 lead bytes, so looking only at positions whose byte can start a marker never splits a
# character, and what is held back is always less than the longest marker.

cdef enum ScanPiece:
    SC_DONE = -2
    SC_TEXT = -1      # >= 0: the index of the marker found


@cython.final
@cython.no_gc
cdef class MarkerSet:
    """The markers of a table, compiled once: bytes, lengths, and which markers each byte can start."""
    cdef readonly tuple texts
    cdef readonly tuple dropped     # each marker's uncounted Dropped{Wrapper}, shared by every parser
    cdef list encoded
    cdef const unsigned char** ptrs
    cdef Py_ssize_t* lens
    cdef readonly int size
    cdef uint64_t first[256]
    cdef uint64_t second[256]   # the markers whose second byte each byte can be (one-byte markers: any)
    cdef readonly Py_ssize_t longest
    cdef int only_first      # the one byte every marker starts with, or -1

    def __cinit__(self, markers):
        cdef int i, b
        cdef bytes raw
        self.texts = tuple(markers)
        if len(self.texts) > 64:
            raise ValueError("a table can have at most 64 markers")
        self.size = len(self.texts)
        self.encoded = []
        self.ptrs = <const unsigned char**>malloc((self.size + 1) * sizeof(unsigned char*))
        self.lens = <Py_ssize_t*>malloc((self.size + 1) * sizeof(Py_ssize_t))
        if self.ptrs == NULL or self.lens == NULL:
            raise MemoryError()
        memset(self.first, 0, sizeof(self.first))
        memset(self.second, 0, sizeof(self.second))
        self.longest = 0
        self.only_first = -2
        for i, text in enumerate(self.texts):
            if type(text) is not str:
                raise TypeError(f"marker {i} must be a str, not {type(text).__name__}")
            raw = (<str>text).encode("utf-8")
            self.encoded.append(raw)
            self.ptrs[i] = <const unsigned char*>(<char*>raw)
            self.lens[i] = len(raw)
            if len(raw) == 0:
                continue
            self.first[self.ptrs[i][0]] |= (<uint64_t>1) << i
            if len(raw) == 1:
                for b in range(256):
                    self.second[b] |= (<uint64_t>1) << i
            else:
                self.second[self.ptrs[i][1]] |= (<uint64_t>1) << i
            if len(raw) > self.longest:
                self.longest = len(raw)
            if self.only_first == -2:
                self.only_first = self.ptrs[i][0]
            elif self.only_first != self.ptrs[i][0]:
                self.only_first = -1
        self.dropped = tuple([ev_dropped(ev_text(text, None), _DROP_REASONS[DR_WRAPPER]) for text in self.texts])

    def __dealloc__(self):
        free(self.ptrs)
        free(self.lens)


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

    def __cinit__(self, markers):
        self.markers = markers if type(markers) is MarkerSet else MarkerSet(markers)
        self.pending = SC_DONE

    def __dealloc__(self):
        bb_free(&self.held)
        bb_free(&self.window_buf)

    cdef inline void shrink(self) noexcept:
        """After a feed: the window a large delta was copied into is given back."""
        self.window_buf.len = 0
        bb_shrink(&self.window_buf)

    cdef int begin(self, const unsigned char* p, Py_ssize_t n, bint more) except -1:
        """Starts scanning held bytes + p[0:n]; `more`: whether more text may follow."""
        if self.held.len:
            self.window_buf.len = 0
            bb_append(&self.window_buf, self.held.data, self.held.len)
            bb_append(&self.window_buf, p, n)
            self.held.len = 0
            self.w = self.window_buf.data
            self.wn = self.window_buf.len
        else:
            self.w = p
            self.wn = n
        self.pos = 0
        self.more = more
        self.pending = SC_DONE
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
        cdef const unsigned char* w = self.w
        cdef Py_ssize_t n = self.wn
        cdef Py_ssize_t at, rest, best_len, m_len
        cdef const unsigned char* hit
        cdef uint64_t mask, bit
        cdef int i, best
        if self.pending != SC_DONE:
            best = self.pending
            self.pending = SC_DONE
            start[0] = self.pending_at
            end[0] = self.pending_at + ms.lens[best]
            self.pos = end[0]
            return best
        at = self.pos
        while at < n:
            if ms.only_first >= 0:
                hit = <const unsigned char*>memchr(w + at, ms.only_first, n - at)
                if hit == NULL:
                    break
                at = hit - w
            else:
                while at < n and ms.first[w[at]] == 0:
                    at += 1
                if at == n:
                    break
            mask = ms.first[w[at]]
            rest = n - at
            if rest >= 2:
                mask &= ms.second[w[at + 1]]    # a marker (or the start of one) matches 2 bytes here
            if self.more:
                i = 0
                bit = mask
                while bit:
                    if bit & 1:
                        m_len = ms.lens[i]
                        if m_len > rest and memcmp(w + at, ms.ptrs[i], rest) == 0:
                            # the whole rest may still become this marker: hold it back
                            bb_append(&self.held, w + at, rest)
                            self.wn = at
                            if at > self.pos:
                                start[0] = self.pos
                                end[0] = at
                                self.pos = at
                                return SC_TEXT
                            self.pos = at
                            return SC_DONE
                    bit >>= 1
                    i += 1
            best = -1
            best_len = 0
            i = 0
            bit = mask
            while bit:
                if bit & 1:
                    m_len = ms.lens[i]
                    if m_len <= rest and m_len > best_len and memcmp(w + at, ms.ptrs[i], m_len) == 0:
                        best = i
                        best_len = m_len
                bit >>= 1
                i += 1
            if best >= 0:
                if at > self.pos:
                    start[0] = self.pos
                    end[0] = at
                    self.pending = best
                    self.pending_at = at
                    self.pos = at
                    return SC_TEXT
                start[0] = at
                end[0] = at + best_len
                self.pos = at + best_len
                return best
            at += 1
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
