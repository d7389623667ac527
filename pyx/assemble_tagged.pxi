# The Qwen tagged assembler (SPEC §5.4): one call written
#     <function=NAME>
#     <parameter=KEY>
#     value
#     </parameter>
#     ...
#     </function>
# between a table's call markers (Qwen 3.5+, Qwen3-Coder, MiMo, Step-3.5, Nanbeige, Nemotron-3;
# Seed-OSS with values placed directly between the tags). Names and keys run to the `>` after
# their tag and are not validated; `</function>` ends the call (its bytes are ToolCallEnd's) and
# what follows it goes back to the engine. Out-of-place tags, names cut short by a tag, and a
# block that closes early are reported with their reasons.

cdef enum TaggedTag:
    TT_FUNCTION = 0          # <function=
    TT_PARAMETER = 1         # <parameter=
    TT_PARAMETER_CLOSE = 2   # </parameter>
    TT_FUNCTION_CLOSE = 3    # </function>

TAGGED_TAGS = ("<function=", "<parameter=", "</parameter>", "</function>")

cdef enum TaggedStage:
    TG_OPENING = 0           # before the function tag
    TG_FUNCTION_NAME = 1     # after `<function=`, up to `>`
    TG_BETWEEN = 2           # between parameters
    TG_PARAMETER_NAME = 3    # after `<parameter=`, up to `>`
    TG_VALUE = 4             # a parameter's value, up to `</parameter>`


@cython.final
@cython.no_gc
cdef class TaggedCall(TagCall):
    """Assembles one `<function=NAME>` call of parameter tags."""
    cdef int stage
    cdef Py_ssize_t tag_at       # where in carried the tag being read began

    def __cinit__(self):
        self.stage = TG_OPENING

    cdef inline int stage_after_tag(self) noexcept:
        return TG_BETWEEN if self.started() else TG_OPENING

    cdef int on_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef Py_ssize_t k
        while n > 0:
            if self.stage == TG_VALUE:
                return self.value_text(p, n)
            if self.stage == TG_OPENING or self.stage == TG_BETWEEN:
                return self.text_between(p, n)
            # a name or a key, up to its `>`
            k = self.read_until(p, n, GREATER, &self.name if self.stage == TG_FUNCTION_NAME else &self.key)
            if k == n:
                return 0
            if self.stage == TG_FUNCTION_NAME:
                self.function_tag_done()
            else:
                self.parameter_tag_done()
            p += k + 1
            n -= k + 1
        return 0

    cdef int on_tag(self, int tag, const unsigned char* p, Py_ssize_t n) except -1:
        if self.stage == TG_VALUE:
            if tag == TT_PARAMETER_CLOSE:
                self.close_value(p, n)
                self.stage = TG_BETWEEN
                return 0
            return self.value_text(p, n)
        if self.stage == TG_FUNCTION_NAME or self.stage == TG_PARAMETER_NAME:
            # a tag inside a name: what was read is reported, the tag read again
            self.report_from(self.tag_at, OT_TAG_CUT_SHORT)
            self.stage = self.stage_after_tag()
        if tag == TT_FUNCTION:
            return self.begin_tag(p, n, TG_FUNCTION_NAME)
        if tag == TT_FUNCTION_CLOSE:
            if not self.started():
                self.carry(p, n)
                self.report_carried(MW_OTHER, OT_CALL_WITHOUT_FUNCTION_TAG)
            else:
                self.close_object()
                self.end_call(p, n)
            self.done = True
            return 0
        if tag == TT_PARAMETER and self.stage == TG_BETWEEN:
            return self.begin_tag(p, n, TG_PARAMETER_NAME)
        return self.tag_out_of_place(p, n)

    cdef int begin_tag(self, const unsigned char* p, Py_ssize_t n, int stage) except -1:
        self.tag_at = self.carried.text.len
        self.carry(p, n)
        if stage == TG_FUNCTION_NAME:
            self.name.len = 0
        else:
            self.key.len = 0
        self.stage = stage
        return 0

    cdef int function_tag_done(self) except -1:
        if self.name.len == 0:
            self.report_from(self.tag_at, OT_TAG_WITHOUT_NAME)
        elif self.started():
            self.report_from(self.tag_at, OT_SECOND_FUNCTION_TAG)
        else:
            self.start_call(self.carried.text.len)
        self.stage = self.stage_after_tag()
        return 0

    cdef int parameter_tag_done(self) except -1:
        if self.key.len == 0:
            self.report_from(self.tag_at, OT_TAG_WITHOUT_NAME)
            self.stage = TG_BETWEEN
            return 0
        self.stage = TG_VALUE
        return self.open_value()

    cdef int close_block(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        # the block's marker is never the call's: it is dropped whatever happens here
        if not self.started():
            self.take_scanner_held()
            self.report_carried(MW_OTHER, OT_CALL_WITHOUT_FUNCTION_TAG if self.stage == TG_OPENING
                                else OT_CLOSED_BEFORE_FUNCTION_TAG)
            return 0
        self.close_started(self.stage == TG_BETWEEN, OT_CLOSED_BEFORE_FUNCTION_TAG, NULL, 0)
        return 0


@cython.final
@cython.no_gc
cdef class TaggedSyntax(Syntax):
    """`<function=NAME>` calls of `<parameter=KEY>` tags; values on their own line (own_line)
    or placed directly between the tags."""
    cdef MarkerSet tags
    cdef readonly bint own_line

    def __init__(self, bint own_line=True, ends=(), starts=(), openers=()):
        Syntax.__init__(self, ends, starts, openers)
        self.tags = MarkerSet(TAGGED_TAGS)
        self.own_line = own_line
        self.reads_types = True

    cdef Assembler open(self, object declared):
        cdef TaggedCall call = TaggedCall.__new__(TaggedCall)
        call.own_line = self.own_line
        return tc_opened(call, self.tags, declared)
