# The constrained outputs (SPEC §6): what an engine writes when the request's tool_choice forces
# a function (the whole output is that function's arguments, a JSON value) or requires a call
# (the whole output is a JSON list of `{"name", "parameters"}` objects), under a JSON-schema
# constraint and so without any marker. Each is the assembler of a one-state table, so the
# engine gives it the same lifecycle, token counting and failed state as every table.
#
# Whitespace here is JSON's (space, tab, LF, CR). Forced: whitespace before the value is
# Dropped{Whitespace}; the call starts at the value's first byte (its source empty: no byte of the
# output names it); its bytes go out as arguments while the prefix validator accepts them (bytes
# it could still refuse wait, as in the JSON call assembler), from its first refusal on they are
# Malformed{InvalidArguments}; after a whole value, whitespace is dropped and everything from the
# first other byte on is "bytes after the arguments". Required: the list's syntax as JSON has it;
# brackets and commas in place are Dropped{Wrapper}, each object goes to a JSON call assembler,
# and the first byte the syntax does not allow makes everything to the end Malformed with a reason
# naming what was expected there. The validator is strict (what a client's JSON reader takes), and
# a value the stream cuts short is closed into one whole value, as the JSON call assembler does.
# Both take what the JSON call assembler recovers (json_rewrites.pxi): a raw control character in
# a string goes out in the arguments' JSON as its escape, and NaN, Infinity and -Infinity where a
# value may begin as the JSON string of their text, the model's bytes in the source.

cdef enum ForcedStage:
    FC_BEFORE = 0            # whitespace before the value
    FC_VALUE = 1             # the value, validated as it comes
    FC_INVALID = 2           # the validator refused: the rest is invalid arguments
    FC_AFTER = 3             # the value is whole: whitespace after it
    FC_JUNK = 4              # bytes after the value: everything from the first one on

cdef enum RequiredPhase:
    RL_BEFORE = 0            # before the list's `[`
    RL_OPENED = 1            # after `[`: a call or `]`
    RL_OBJECT = 2            # inside a call object
    RL_AFTER_CALL = 3        # after a call: `,` or `]`
    RL_AFTER_COMMA = 4       # after `,`: a call
    RL_CLOSED = 5            # after `]`: only whitespace
    RL_BROKEN = 6            # the syntax was broken: everything to the end is reported


cdef inline Py_ssize_t cn_json_space(const unsigned char* p, Py_ssize_t n) noexcept:
    """The length of the run of JSON whitespace p starts with."""
    cdef Py_ssize_t i = 0
    while i < n and (p[i] == SPACE or p[i] == TAB or p[i] == LF or p[i] == CR):
        i += 1
    return i


@cython.final
@cython.no_gc
cdef class ForcedCall(Assembler):
    """The whole output as one forced function's arguments."""
    cdef bytes name
    cdef int stage
    cdef jp_state prefix
    cdef Held pending          # value bytes read but not yet out (a word or escape being read)
    cdef ByteBuf scratch       # a source with the separators that arrived among it put back
    cdef jr_rewrites rewrites  # stretches of the value to write anew, not yet out
    cdef ByteBuf rewritten     # scratch: value bytes going out with stretches written anew
    cdef int64_t emitted       # value bytes out
    cdef int64_t index

    def __cinit__(self, bytes name):
        self.name = name
        self.index = -1
        jp_init_strict(&self.prefix)
        self.prefix.rewrites = self.prefix.python = True     # (read as the model's own markup's)
        hb_init(&self.pending)

    def __dealloc__(self):
        hb_free(&self.pending)
        bb_free(&self.scratch)
        jr_free(&self.rewrites)
        bb_free(&self.rewritten)

    cdef int ignored(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """A separator among held value bytes keeps its place among them."""
        if self.pending.text.len:
            return hb_separator(&self.pending, p, n)
        return sink.dropped(DR_WRAPPER, p, n)

    cdef Py_ssize_t feed(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        cdef Py_ssize_t i = 0, w, refused
        while i < n:
            if self.stage == FC_BEFORE or self.stage == FC_AFTER:
                w = cn_json_space(p + i, n - i)
                if w:
                    sink.dropped(DR_WHITESPACE, p + i, w)
                    i += w
                    continue
                if self.stage == FC_AFTER:
                    self.stage = FC_JUNK
                    continue
                self.index = sink.call_start(<const unsigned char*>(<char*>self.name), len(self.name), NULL, 0)
                self.stage = FC_VALUE
            elif self.stage == FC_JUNK:
                sink.malformed(MW_OTHER, OT_AFTER_ARGUMENTS, p + i, n - i)
                return n
            elif self.stage == FC_INVALID:
                sink.malformed(MW_INVALID_ARGUMENTS, OT_NONE, p + i, n - i)
                return n
            else:
                refused = jr_feed(&self.prefix, &self.rewrites, p + i, n - i)
                hb_append(&self.pending, p + i, n - i)
                if refused < 0 and self.prefix.st != JP_DONE:
                    self.send(sink, jp_committed(&self.prefix))
                    return n
                if refused < 0 or self.prefix.refused_after_value:
                    # the value is whole: it ends before the whitespace after it, and the bytes
                    # after it are read again; a separator that arrived between the value and them
                    # (all of them came in this piece) goes out before them
                    self.send(sink, self.value_end(self.emitted + self.pending.text.len if refused < 0 else refused))
                    i = n - self.pending.text.len
                    self.drop_separators(sink)
                    self.stage = FC_AFTER
                else:
                    # the first refused byte: it was never JSON (the refusal may reach back into
                    # bytes held from an earlier piece: a word, an escape, a member whose value had
                    # not begun)
                    self.send(sink, jp_end_commit(&self.prefix))
                    self.report_pending(sink, MW_INVALID_ARGUMENTS)
                    self.stage = FC_INVALID
                    i = n
                hb_clear(&self.pending)
        return n

    cdef int64_t value_end(self, int64_t upto) noexcept:
        """Where a whole value that the validator read up to `upto` ends: before the JSON
        whitespace after it (held, so in `pending`)."""
        while upto > self.emitted and cn_json_space(self.pending.text.data + (upto - 1 - self.emitted), 1):
            upto -= 1
        return upto

    cdef int send(self, Sink sink, int64_t upto) except -1:
        """The value's bytes up to `upto` go out as arguments (with the separators among them),
        the stretches among them the validator paused at written anew."""
        cdef Py_ssize_t k = upto - self.emitted, m
        cdef const unsigned char* src
        cdef const unsigned char* value = self.pending.text.data
        if k <= 0:
            return 0
        hb_source(&self.pending, 0, k, &self.scratch, &src, &m)
        if jr_any(&self.rewrites) and jr_write(&self.rewrites, value, self.emitted, upto, &self.rewritten):
            sink.call_arguments(<uint32_t>self.index, self.rewritten.data, self.rewritten.len, src, m)
        else:
            sink.call_arguments(<uint32_t>self.index, NULL if src == value else value, k, src, m)
        hb_drop_front(&self.pending, k)
        self.emitted = upto
        return 0

    cdef int drop_separators(self, Sink sink) except -1:
        """The separators still held, each as Dropped{Wrapper}."""
        cdef const unsigned char* q
        cdef Py_ssize_t m
        while hb_next_mark(&self.pending, &q, &m) >= 0:
            sink.dropped(DR_WRAPPER, q, m)
        return 0

    cdef int report_pending(self, Sink sink, int why) except -1:
        """Every held byte (and separator among them) as Malformed{why}."""
        cdef Py_ssize_t m
        cdef const unsigned char* src
        if self.pending.text.len or hb_has_marks(&self.pending):
            hb_source(&self.pending, 0, self.pending.text.len, &self.scratch, &src, &m)
            sink.malformed(why, OT_NONE, src, m)
        hb_clear(&self.pending)
        return 0

    cdef int close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """A marker ends the region (a user-built table's): the call ends as at the stream's end;
        the marker is the engine's to drop."""
        self.finish(sink, True)
        return 0

    cdef int finish(self, Sink sink, bint complete) except -1:
        cdef ByteBuf* closing = &self.scratch
        if self.stage == FC_VALUE and not complete:
            # stopped for its length: what the validator accepted so far goes out as it stands
            # (a word being spelled as the string it begins)
            jr_cut(&self.prefix, &self.rewrites)
            self.send(sink, self.emitted + self.pending.text.len)
        elif self.stage == FC_VALUE:
            self.send(sink, jp_end_commit(&self.prefix))
            self.report_pending(sink, MW_UNTERMINATED)
        if self.index >= 0 and complete and (self.stage == FC_VALUE or self.stage == FC_INVALID):
            # the value, cut or refused, closed into one whole value (`{}` when none began)
            closing.len = 0
            if self.emitted == 0:
                bb_append(closing, b"{}", 2)
            else:
                jp_closing(&self.prefix, closing)
            if closing.len:
                sink.call_arguments(<uint32_t>self.index, closing.data, closing.len, NULL, 0)
        if self.index >= 0:
            sink.call_end(<uint32_t>self.index, NULL, 0)
        return 0


@cython.final
@cython.no_gc
cdef class RequiredList(Assembler):
    """The whole output as a JSON list of calls."""
    cdef int phase
    cdef int broken            # the reason the syntax broke (an OtherText)
    cdef JsonCallAssembler call

    cdef int brake(self, Sink sink, int reason, const unsigned char* p, Py_ssize_t n) except -1:
        self.phase = RL_BROKEN
        self.broken = reason
        return sink.malformed(MW_OTHER, reason, p, n)

    cdef Py_ssize_t feed(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        cdef Py_ssize_t i = 0, w
        cdef unsigned char c
        while i < n:
            if self.phase == RL_BROKEN:
                sink.malformed(MW_OTHER, self.broken, p + i, n - i)
                return n
            if self.phase == RL_OBJECT:
                i += self.call.feed(p + i, n - i, sink)
                if self.call.done:
                    self.call = None
                    self.phase = RL_AFTER_CALL
                continue
            w = cn_json_space(p + i, n - i)
            if w:
                sink.dropped(DR_WHITESPACE, p + i, w)
                i += w
                continue
            c = p[i]
            if self.phase == RL_BEFORE:
                if c != LBRACKET:
                    self.brake(sink, OT_NOT_A_LIST, p + i, n - i)
                    return n
                self.phase = RL_OPENED
            elif self.phase == RL_OPENED or self.phase == RL_AFTER_COMMA:
                if c == LBRACE:
                    self.call = aj_opened(OL_KEYS_CALL, None, None)
                    self.phase = RL_OBJECT
                    continue
                if c != RBRACKET or self.phase == RL_AFTER_COMMA:
                    self.brake(sink, OT_WHERE_A_CALL_OR_END if self.phase == RL_OPENED else OT_WHERE_A_CALL,
                               p + i, n - i)
                    return n
                self.phase = RL_CLOSED
            elif self.phase == RL_AFTER_CALL:
                if c == COMMA:
                    self.phase = RL_AFTER_COMMA
                elif c == RBRACKET:
                    self.phase = RL_CLOSED
                else:
                    self.brake(sink, OT_WHERE_A_COMMA_OR_END, p + i, n - i)
                    return n
            else:  # RL_CLOSED
                self.brake(sink, OT_AFTER_LIST, p + i, n - i)
                return n
            sink.dropped(DR_WRAPPER, p + i, 1)
            i += 1
        return n

    cdef int ignored(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if self.phase == RL_OBJECT:
            return self.call.ignored(p, n, sink)
        return sink.dropped(DR_WRAPPER, p, n)

    cdef int close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """A marker ends the region (a user-built table's): the open call ends as at the stream's end."""
        self.finish(sink, True)
        return 0

    cdef int finish(self, Sink sink, bint complete) except -1:
        if self.phase == RL_OBJECT:
            self.call.finish(sink, complete)
            self.call = None
        return 0


@cython.final
@cython.no_gc
cdef class ForcedSyntax(Syntax):
    """tool_choice naming one function: the whole output is its arguments."""
    cdef readonly str function

    def __init__(self, str function, ends=()):
        Syntax.__init__(self, ends)
        self.function = function

    cdef Assembler open(self, object declared):
        return ForcedCall(self.function.encode("utf-8", "surrogatepass"))


@cython.final
@cython.no_gc
cdef class RequiredSyntax(Syntax):
    """tool_choice "required": the whole output is a JSON list of calls."""

    cdef Assembler open(self, object declared):
        return RequiredList()
