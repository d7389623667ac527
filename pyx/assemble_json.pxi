# The JSON call assembler (SPEC §4.2): one `{"name": ..., "arguments": ...}` object, streamed.
# The start waits for a whole name (arguments written before it are held and then sent at once);
# arguments go out as the model's own bytes up to the first byte the prefix validator refuses,
# the rest as Malformed{InvalidArguments}. Bytes the validator could still refuse (a word or an
# escape being read) wait until they are decided, the value completes, or the stream ends, so
# where the output is cut never changes what is sent. Bytes after the object's `}` are not taken.

@cython.final
cdef class JsonCallAssembler(Assembler):
    """Assembles one JSON call object."""
    cdef ByteBuf text          # the object so far (cut at its `}` once it closes)
    cdef ol_state outline
    cdef jp_state prefix
    cdef readonly bint done
    cdef Py_ssize_t validated  # the validator has read the arguments up to here (an offset in text)
    cdef Py_ssize_t emitted    # the arguments are reported up to here
    cdef bint invalid

    def __cinit__(self, uint32_t first_index=0):
        self.first_index = first_index
        ol_init(&self.outline)
        jp_init(&self.prefix)

    def __dealloc__(self):
        bb_free(&self.text)
        bb_free(&self.outline.name)

    cdef Py_ssize_t feed(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        cdef Py_ssize_t before = self.text.len, taken = n
        if self.done:
            return 0
        bb_append(&self.text, p, n)
        ol_advance(&self.outline, self.text.data, self.text.len)
        if self.outline.close >= 0:
            taken = self.outline.close - before
            self.text.len = self.outline.close
        self.progress(sink)
        return taken

    cdef int progress(self, Sink sink) except -1:
        cdef ol_state* o = &self.outline
        cdef Py_ssize_t head_end, end_at
        if not self.started:
            if not o.has_name:
                if o.close >= 0:
                    sink.malformed(MW_OTHER, OT_CALL_WITHOUT_NAME, self.text.data, o.close)
                    self.done = True
                return 0
            if o.arguments_at >= 0:
                head_end = o.arguments_at
            elif o.close >= 0:
                head_end = o.close
            else:
                return 0
            sink.call_start(self.first_index, o.name.data, o.name.len, self.text.data, head_end)
            self.started = 1
            self.emitted = head_end
            self.validated = head_end
        if o.arguments_at >= 0:
            if o.arguments_end >= 0:
                self.stream_arguments(sink, o.arguments_end, True)
            else:
                self.stream_arguments(sink, self.text.len, False)
        if o.close >= 0:
            end_at = o.arguments_end if o.arguments_end >= 0 else o.close
            sink.call_end(self.first_index, self.text.data + end_at, o.close - end_at)
            self.done = True
        return 0

    cdef int stream_arguments(self, Sink sink, Py_ssize_t until, bint settled) except -1:
        """Reports the arguments' bytes up to `until`; bytes still undecided wait unless `settled`
        (the value is complete, or the stream ended: the validator accepts them as a prefix)."""
        cdef Py_ssize_t refused, end
        cdef Py_ssize_t base = self.outline.arguments_at
        if self.invalid:
            if until > self.emitted:
                sink.malformed(MW_INVALID_ARGUMENTS, 0, self.text.data + self.emitted, until - self.emitted)
                self.emitted = until
            return 0
        if until > self.validated:
            refused = jp_feed(&self.prefix, self.text.data + self.validated, until - self.validated)
            self.validated = until
            if refused >= 0:
                # nothing undecided was sent, so the refusal is never before what was sent
                end = base + refused
                if end > self.emitted:
                    sink.call_arguments(self.first_index, NULL, 0, self.text.data + self.emitted,
                                        end - self.emitted)
                    self.emitted = end
                self.invalid = True
                return self.stream_arguments(sink, until, settled)
        end = until if settled else base + jp_committed(&self.prefix)
        if end > self.emitted:
            sink.call_arguments(self.first_index, NULL, 0, self.text.data + self.emitted, end - self.emitted)
            self.emitted = end
        return 0

    cdef int close(self, const unsigned char* terminal, Py_ssize_t tn, Sink sink) except -1:
        self.finish(sink)
        return 0

    cdef int finish(self, Sink sink) except -1:
        cdef ol_state* o = &self.outline
        if self.done:
            return 0
        self.done = True
        if self.started:
            if o.arguments_end < 0:
                self.stream_arguments(sink, self.text.len, True)
            elif self.text.len > o.arguments_end:
                sink.malformed(MW_UNTERMINATED, 0, self.text.data + o.arguments_end,
                               self.text.len - o.arguments_end)
            sink.call_end(self.first_index, NULL, 0)
        else:
            sink.malformed(MW_UNTERMINATED, 0, self.text.data, self.text.len)
        return 0
