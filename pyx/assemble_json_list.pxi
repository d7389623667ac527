# The JSON list assembler (SPEC §4.5, xLAM): the whole output is either a JSON list of call
# objects or content. It sees every output byte: whitespace and commas between objects are
# carried and dropped as wrapping, each object goes to a JsonCallAssembler. A syntax without
# brackets (MiniMax M1's `<tool_calls>` region of one object per line) reads its region as the
# inside of a list: objects, whitespace and commas, and no `]`.

cdef enum JlStage:
    JL_DECIDING = 0     # only whitespace so far
    JL_CONTENT = 1      # the output is not a list: all content
    JL_BETWEEN = 2      # inside the list, between objects
    JL_OBJECT = 3       # inside an object
    JL_AFTER = 4        # after the list's `]`


@cython.final
@cython.no_gc
cdef class JsonListAssembler(Assembler):
    """Assembles a bare JSON list of calls, or passes content through."""
    cdef int stage
    cdef Held carried          # whitespace and commas between objects, and separators among them
    cdef JsonCallAssembler call
    cdef int keys              # what the objects are (OlKeys)
    cdef bint bare             # objects with no list brackets around them

    def __cinit__(self):
        hb_init(&self.carried)
        self.stage = JL_DECIDING

    def __dealloc__(self):
        hb_free(&self.carried)

    cdef int report_run(self, Sink sink, int kind, const unsigned char* p, Py_ssize_t n) except -1:
        if n <= 0:
            return 0
        if kind == EV_CONTENT:
            return sink.content(p, n)
        if kind == EV_MALFORMED:
            return sink.malformed(MW_UNTERMINATED, OT_NONE, p, n)
        return sink.dropped(DR_WRAPPER, p, n)

    cdef int flush_carried(self, Sink sink, int kind=EV_DROPPED) except -1:
        """Reports the carried bytes as `kind` (Dropped{Wrapper}, Content, or
        Malformed{UnterminatedRegion}); separators among them stay Dropped, in place."""
        cdef Py_ssize_t at = 0, mark_at, n
        cdef const unsigned char* text = self.carried.text.data
        cdef const unsigned char* mark
        while True:
            mark_at = hb_next_mark(&self.carried, &mark, &n)
            if mark_at < 0:
                break
            self.report_run(sink, kind, text + at, mark_at - at)
            at = mark_at
            sink.dropped(DR_WRAPPER, mark, n)
        self.report_run(sink, kind, text + at, self.carried.text.len - at)
        hb_clear(&self.carried)
        return 0

    cdef int ignored(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if self.stage == JL_OBJECT:
            return self.call.ignored(p, n, sink)
        if not self.carried.text.len:
            return sink.dropped(DR_WRAPPER, p, n)
        return hb_separator(&self.carried, p, n)

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
                    self.call = None
                    self.stage = JL_BETWEEN
                continue
            c = p[i]
            w = u8_space_len(p + i, n - i)
            if self.stage == JL_DECIDING:
                if w:
                    hb_append(&self.carried, p + i, w)
                    i += w
                elif c == LBRACKET:
                    hb_append(&self.carried, p + i, 1)
                    self.flush_carried(sink)
                    self.stage = JL_BETWEEN
                    i += 1
                else:
                    self.flush_carried(sink, EV_CONTENT)
                    self.stage = JL_CONTENT
                continue
            # JL_BETWEEN
            if w or c == COMMA:
                cl = w if w else 1
                hb_append(&self.carried, p + i, cl)
                i += cl
            elif c == LBRACE:
                self.flush_carried(sink)
                self.call = aj_opened(self.keys, None, None)
                self.stage = JL_OBJECT
            elif c == RBRACKET and not self.bare:
                hb_append(&self.carried, p + i, 1)
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

    cdef int close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        self.finish(sink)
        return 0

    cdef int finish(self, Sink sink) except -1:
        if self.stage == JL_OBJECT:
            self.flush_carried(sink)
            self.call.finish(sink)
            self.call = None
        elif self.stage == JL_BETWEEN:
            self.flush_carried(sink, EV_DROPPED if self.bare else EV_MALFORMED)
        else:
            self.flush_carried(sink, EV_CONTENT)
        self.stage = JL_AFTER
        return 0


@cython.final
@cython.no_gc
cdef class JsonListSyntax(Syntax):
    """A bare JSON list of call objects, or content (SPEC §4.5, xLAM); `keys` (an OlKeys other
    than the arguments object) says what the objects are; `brackets` False: the region holds the
    objects with no list around them."""
    cdef readonly int keys
    cdef readonly bint brackets

    def __init__(self, ends=(), int keys=OL_KEYS_CALL, bint brackets=True):
        Syntax.__init__(self, ends)
        if not OL_KEYS_CALL <= keys <= OL_KEYS_NAMED:
            raise ValueError(f"json list syntax: no object kind {keys}")
        self.keys = keys
        self.brackets = brackets

    cdef Assembler open(self, object declared):
        cdef JsonListAssembler assembler = JsonListAssembler()
        assembler.keys = self.keys
        if not self.brackets:
            assembler.bare = True
            assembler.stage = JL_BETWEEN
        return assembler
