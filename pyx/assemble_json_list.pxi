# The JSON list assembler (SPEC §4.5, xLAM): the whole output is either a JSON list of call
# objects or content. It sees every output byte: whitespace and commas between objects are
# carried and dropped as wrapping, each object goes to a JsonCallAssembler. A `[` opens a list of
# calls only when what follows it (after whitespace) is an object's `{` or the list's `]`: a
# list of anything else ("[1, 2] are the numbers I picked.") is content, every byte, bracket
# included. The `[` waits (carried) until that byte decides.
#
# xLAM also writes its list in a ```json (or ```) fence: a fence that opens the output, followed
# by the list, is wrapping, and so is the closing ``` after the list's `]` (whitespace around
# either too). A fence followed by anything else is content like any other text, fence included.
#
# A syntax may give the region another way to hold a call (`otherwise`, a JSON syntax): when the
# region does not open with a list, it is one call of that syntax (Mistral's `[TOOL_CALLS]`
# region holds a list, or since v11 one `NAME{..}` call), and what follows the call's object is
# text after it.
#
# A bare list (`bare`) has no `[` of its own: the region is the list, its objects separated by `,`
# or `;` or whitespace (Llama 3's `{..}; {..}`, MiniMax M1's one object per line, Phi-4-mini's
# `functools[` marker that holds the bracket); what it carries when the region ends is wrapping. A
# `[` may still open it (a model that writes the list whole in a bare region), as it opens any list.

cdef const char* JL_FENCE = "```json"
cdef enum:
    JL_FENCE_LEN = 7
    JL_FENCE_TICKS = 3

cdef enum JlStage:
    JL_DECIDING = 0     # only whitespace so far
    JL_CONTENT = 1      # the output is not a list: all content
    JL_BETWEEN = 2      # inside the list, between objects
    JL_OBJECT = 3       # inside an object
    JL_AFTER = 4        # after the list's `]`
    JL_SINGLE = 5       # inside the one call of the `otherwise` syntax
    JL_AFTER_CALL = 6   # after that call's object
    JL_OPENING = 7      # a `[` (and whitespace) read: a list of calls if `{` or `]` follows


@cython.final
@cython.no_gc
cdef class JsonListAssembler(Assembler):
    """Assembles a bare JSON list of calls, or passes content through."""
    cdef int stage
    cdef Held carried          # whitespace and commas between objects, and separators among them
    cdef JsonCallAssembler call
    cdef int keys              # what the objects are (OlKeys)
    cdef int fence             # how much of the fence (JL_FENCE) was read, opening or closing
    cdef bint fenced           # the output opened with a fence that is still open
    cdef JsonSyntax otherwise  # the syntax of a region that holds no list, or None (content)
    cdef bint bare             # the region is the list: no `[` opens it

    def __cinit__(self):
        hb_init(&self.carried)
        self.stage = JL_DECIDING

    def __dealloc__(self):
        hb_free(&self.carried)

    cdef int report_run(self, Sink sink, int kind, int other, const unsigned char* p, Py_ssize_t n) except -1:
        if n <= 0:
            return 0
        if kind == EV_CONTENT:
            return sink.content(p, n)
        if kind == EV_MALFORMED:
            return sink.malformed(MW_UNTERMINATED if other == OT_NONE else MW_OTHER, other, p, n)
        return sink.dropped(DR_WRAPPER, p, n)

    cdef int flush_carried(self, Sink sink, int kind=EV_DROPPED, int other=OT_NONE) except -1:
        """Reports the carried bytes as `kind` (Dropped{Wrapper}, Content, or Malformed: of
        `other`, or UnterminatedRegion); separators among them stay Dropped, in place."""
        cdef Py_ssize_t at = 0, mark_at, n
        cdef const unsigned char* text = self.carried.text.data
        cdef const unsigned char* mark
        while True:
            mark_at = hb_next_mark(&self.carried, &mark, &n)
            if mark_at < 0:
                break
            self.report_run(sink, kind, other, text + at, mark_at - at)
            at = mark_at
            sink.dropped(DR_WRAPPER, mark, n)
        self.report_run(sink, kind, other, text + at, self.carried.text.len - at)
        hb_clear(&self.carried)
        return 0

    cdef int ignored(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if self.stage == JL_OBJECT or self.stage == JL_SINGLE:
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
                if self.fenced:
                    i += self.closing_fence(p + i, n - i, sink)
                    continue
                sink.malformed(MW_OTHER, OT_TEXT_AFTER_LIST, p + i, n - i)
                return n
            if self.stage == JL_OBJECT or self.stage == JL_SINGLE:
                i += self.call.feed(p + i, n - i, sink)
                if self.call.done:
                    self.call = None
                    self.stage = JL_AFTER_CALL if self.stage == JL_SINGLE else JL_BETWEEN
                continue
            if self.stage == JL_AFTER_CALL:
                sink.malformed(MW_OTHER, OT_TEXT_AFTER_OBJECT, p + i, n - i)
                return n
            c = p[i]
            w = u8_space_len(p + i, n - i)
            if self.stage == JL_DECIDING:
                if w and (self.fenced or self.fence == 0 or self.fence == JL_FENCE_TICKS):
                    self.fenced = self.fence > 0
                    hb_append(&self.carried, p + i, w)
                    i += w
                elif self.bare and (c == LBRACE or c == RBRACKET) and not self.fence:
                    self.flush_carried(sink)
                    self.stage = JL_BETWEEN
                elif c == LBRACKET and (self.fenced or self.fence == 0 or self.fence == JL_FENCE_TICKS):
                    self.fenced = self.fence > 0
                    self.fence = 0
                    hb_append(&self.carried, p + i, 1)
                    self.stage = JL_OPENING
                    i += 1
                elif not self.fenced and not w and self.fence < JL_FENCE_LEN and c == JL_FENCE[self.fence]:
                    hb_append(&self.carried, p + i, 1)
                    self.fence += 1
                    self.fenced = self.fence == JL_FENCE_LEN
                    i += 1
                elif self.otherwise is not None and not self.fence:
                    self.flush_carried(sink)
                    self.call = <JsonCallAssembler>self.otherwise.open(None)
                    self.stage = JL_SINGLE
                else:
                    self.flush_carried(sink, EV_CONTENT)
                    self.stage = JL_CONTENT
                continue
            if self.stage == JL_OPENING:
                if w:
                    hb_append(&self.carried, p + i, w)
                    i += w
                    continue
                if c == LBRACE or c == RBRACKET:
                    self.flush_carried(sink)        # a list of calls: its `[` is the template's
                    self.stage = JL_BETWEEN
                else:
                    self.flush_carried(sink, EV_CONTENT)
                    self.stage = JL_CONTENT
                continue
            # JL_BETWEEN
            if w or c == COMMA or (c == SEMICOLON and self.bare):
                cl = w if w else 1
                hb_append(&self.carried, p + i, cl)
                i += cl
            elif c == LBRACE:
                sink.build_ahead()
                self.flush_carried(sink)
                self.call = aj_opened(self.keys, None, None)
                self.stage = JL_OBJECT
            elif c == RBRACKET:
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

    cdef Py_ssize_t closing_fence(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """After a fenced list's `]`: carries whitespace and the closing fence's backticks, drops
        them once the fence is whole; what is neither ends the fence (the carried bytes, and all
        that follows, are text after the list). Returns how many bytes it took."""
        cdef Py_ssize_t i = 0, w
        while i < n:
            w = u8_space_len(p + i, n - i)
            if w and self.fence == 0:
                hb_append(&self.carried, p + i, w)
                i += w
            elif p[i] == BACKTICK:
                hb_append(&self.carried, p + i, 1)
                i += 1
                self.fence += 1
                if self.fence == JL_FENCE_TICKS:
                    self.flush_carried(sink)
                    self.fenced = False
                    return i
            else:
                self.flush_carried(sink, EV_MALFORMED, OT_TEXT_AFTER_LIST)
                self.fenced = False
                return i
        return i

    cdef int close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        self.finish(sink, True)
        return 0

    cdef int finish(self, Sink sink, bint complete) except -1:
        if self.stage == JL_OBJECT or self.stage == JL_SINGLE:
            self.flush_carried(sink)
            self.call.finish(sink, complete)
            self.call = None
        elif self.stage == JL_BETWEEN or self.stage == JL_AFTER:
            # (after the list, only a closing fence being read is carried; a bare list's region
            # ends the list, so what it carries then is wrapping)
            self.flush_carried(sink, EV_DROPPED if self.bare and self.stage == JL_BETWEEN else EV_MALFORMED)
        else:
            self.flush_carried(sink, EV_CONTENT)
        self.stage = JL_AFTER
        return 0


@cython.final
@cython.no_gc
cdef class JsonListSyntax(Syntax):
    """A bare JSON list of call objects, or content (SPEC §4.5, xLAM); `keys` (an OlKeys other
    than the arguments object) says what the objects are; `otherwise` (a JsonSyntax, or None for
    content) what a region that holds no list holds; `bare`: the region is the list (no `[`)."""
    cdef readonly int keys
    cdef readonly JsonSyntax otherwise
    cdef readonly bint bare

    def __init__(self, ends=(), int keys=OL_KEYS_CALL, JsonSyntax otherwise=None, bint bare=False):
        Syntax.__init__(self, ends)
        if not OL_KEYS_CALL <= keys <= OL_KEYS_NAMED:
            raise ValueError(f"json list syntax: no object kind {keys}")
        self.keys = keys
        self.otherwise = otherwise
        self.bare = bare

    cdef Assembler open(self, object declared):
        cdef JsonListAssembler assembler = JsonListAssembler()
        assembler.keys = self.keys
        assembler.otherwise = self.otherwise
        assembler.bare = self.bare
        return assembler
