# The JSON list assembler (SPEC §4.5, xLAM): the whole output is either a JSON list of call
# objects or content. It sees every output byte: whitespace and commas between objects are
# carried and dropped as wrapping, each object goes to a JsonCallAssembler.

cdef enum JlStage:
    JL_DECIDING = 0     # only whitespace so far
    JL_CONTENT = 1      # the output is not a list: all content
    JL_BETWEEN = 2      # inside the list, between objects
    JL_OBJECT = 3       # inside an object
    JL_AFTER = 4        # after the list's `]`


@cython.final
cdef class JsonListAssembler(Assembler):
    """Assembles a bare JSON list of calls, or passes content through."""
    cdef int stage
    cdef ByteBuf carried
    cdef list separators       # [(offset in carried, bytes)]: ignored terminals among carried bytes
    cdef JsonCallAssembler call

    def __cinit__(self, uint32_t first_index=0):
        self.first_index = first_index
        self.stage = JL_DECIDING

    def __dealloc__(self):
        bb_free(&self.carried)

    cdef int flush_carried(self, Sink sink, int kind=EV_DROPPED) except -1:
        """Reports the carried bytes as `kind` (Dropped{Wrapper}, Content, or
        Malformed{UnterminatedRegion}); separators among them stay Dropped, in place."""
        cdef Py_ssize_t at = 0, upto
        while at < self.carried.len or self.separators:
            if self.separators:
                offset, separator = self.separators[0]
                upto = offset
            else:
                upto = self.carried.len
            if upto > at:
                if kind == EV_CONTENT:
                    sink.content(self.carried.data + at, upto - at)
                elif kind == EV_MALFORMED:
                    sink.malformed(MW_UNTERMINATED, 0, self.carried.data + at, upto - at)
                else:
                    sink.dropped(DR_WRAPPER, self.carried.data + at, upto - at)
                at = upto
            if self.separators:
                offset, separator = self.separators.pop(0)
                sink.dropped(DR_WRAPPER, <const unsigned char*>(<char*>separator), len(separator))
        self.carried.len = 0
        return 0

    cdef int ignored(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if self.stage == JL_OBJECT:
            return self.call.ignored(p, n, sink)
        if not self.carried.len:
            return sink.dropped(DR_WRAPPER, p, n)
        if self.separators is None:
            self.separators = []
        self.separators.append((self.carried.len, PyBytes_FromStringAndSize(<const char*>p, n)))
        return 0

    cdef Py_ssize_t feed(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        cdef Py_ssize_t i = 0, w, cl
        cdef unsigned char c
        while i < n:
            if self.stage == JL_CONTENT:
                sink.content(p + i, n - i)
                return n
            if self.stage == JL_AFTER:
                sink.malformed(MW_OTHER, OT_TEXT_AFTER_LIST, p + i, n - i)
                return n
            if self.stage == JL_OBJECT:
                i += self.call.feed(p + i, n - i, sink)
                if self.call.done:
                    self.started += self.call.started
                    self.call = None
                    self.stage = JL_BETWEEN
                continue
            c = p[i]
            w = u8_space_len(p + i, n - i)
            if self.stage == JL_DECIDING:
                if w:
                    bb_append(&self.carried, p + i, w)
                    i += w
                elif c == 91:
                    bb_push(&self.carried, c)
                    self.flush_carried(sink)
                    self.stage = JL_BETWEEN
                    i += 1
                else:
                    self.flush_carried(sink, EV_CONTENT)
                    self.stage = JL_CONTENT
                continue
            # JL_BETWEEN
            if w or c == 44:
                cl = w if w else 1
                bb_append(&self.carried, p + i, cl)
                i += cl
            elif c == 123:
                self.flush_carried(sink)
                self.call = JsonCallAssembler(self.first_index + self.started)
                self.stage = JL_OBJECT
            elif c == 93:
                bb_push(&self.carried, c)
                self.flush_carried(sink)
                self.stage = JL_AFTER
                i += 1
            else:
                self.flush_carried(sink)
                cl = u8_char_len(c)
                if i + cl > n:
                    cl = n - i
                sink.malformed(MW_OTHER, OT_TEXT_BETWEEN_LIST_CALLS, p + i, cl)
                i += cl
        return n

    cdef int close(self, const unsigned char* terminal, Py_ssize_t tn, Sink sink) except -1:
        self.finish(sink)
        return 0

    cdef int finish(self, Sink sink) except -1:
        if self.stage == JL_OBJECT:
            self.flush_carried(sink)
            self.call.finish(sink)
            self.started += self.call.started
            self.call = None
        elif self.stage == JL_BETWEEN:
            self.flush_carried(sink, EV_MALFORMED)
        else:
            self.flush_carried(sink, EV_CONTENT)
        self.stage = JL_AFTER
        return 0
