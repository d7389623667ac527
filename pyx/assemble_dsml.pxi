# The DSML assembler (SPEC §5.6, DeepSeek V4.1): one invoke, after the table's
# `<｜DSML｜ invoke name="` marker,
#     NAME">
#     <｜DSML｜ parameter name="KEY" string="true">text</｜DSML｜ parameter>
#     <｜DSML｜ parameter name="KEY" string="false">json</｜DSML｜ parameter>
# The name runs to its `"` and the tag to its `>` (anything between them is "text after a tag's
# name"); the call starts there, its source `NAME">`. Each parameter says its own type: a string
# streams as its text, anything else is read whole (value typing without a declaration); the
# request's tools are not consulted and nothing is stripped. The invoke's close marker is the
# call's end; an invoke that never started takes whatever marker ends it into what it reports.

cdef enum DsmlTag:
    DT_PARAMETER = 0         # <｜DSML｜ parameter name="
    DT_PARAMETER_CLOSE = 1   # </｜DSML｜ parameter>

DSML_TAGS = ("<｜DSML｜ parameter name=\"", "</｜DSML｜ parameter>")

cdef enum DsmlStage:
    DS_NAME = 0              # the function name, up to its `"`
    DS_NAME_TAIL = 1         # after the name's `"`, up to the tag's `>`
    DS_UNNAMED = 2           # the invoke tag was cut short: the invoke starts no call
    DS_BETWEEN = 3           # between parameters
    DS_KEY = 4               # a parameter's name, up to its `"`
    DS_KEY_TAIL = 5          # the parameter tag's attributes, up to its `>`
    DS_VALUE = 6             # the parameter's value, up to its close tag

cdef const char* DSML_STRING_TRUE = ' string="true"'
cdef const char* DSML_STRING_FALSE = ' string="false"'


@cython.final
cdef class DsmlCall(TagCall):
    """Assembles one DSML invoke."""
    cdef int stage
    cdef Syntax syntax           # for the table terminal that is the invoke's end
    cdef Py_ssize_t tag_at       # where in carried the parameter tag being read began
    cdef Py_ssize_t tail_at      # where in carried the tag's attributes (after the name) began

    def __cinit__(self, MarkerSet tags, declared=None, Syntax syntax=None):
        self.syntax = syntax
        self.stage = DS_NAME

    cdef int on_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef Py_ssize_t k
        while n > 0:
            if self.stage == DS_VALUE:
                return self.value_text(p, n)
            if self.stage == DS_BETWEEN or self.stage == DS_UNNAMED:
                return self.text_between(p, n)
            if self.stage == DS_NAME or self.stage == DS_KEY:
                k = self.read_until(p, n, QUOTE, &self.name if self.stage == DS_NAME else &self.key)
                if k == n:
                    return 0
                self.tail_at = self.carried.text.len
                self.stage = DS_NAME_TAIL if self.stage == DS_NAME else DS_KEY_TAIL
            else:
                k = self.read_until(p, n, GREATER, NULL)
                if k == n:
                    return 0
                if self.stage == DS_NAME_TAIL:
                    self.invoke_tag_done()
                else:
                    self.parameter_tag_done()
            p += k + 1
            n -= k + 1
        return 0

    cdef int invoke_tag_done(self) except -1:
        """`>` ended the invoke tag (it is the last carried byte)."""
        cdef Py_ssize_t tail_end = self.carried.text.len - 1
        if self.name.len == 0:
            self.report_carried(MW_OTHER, OT_TAG_WITHOUT_NAME)
            self.stage = DS_UNNAMED
            return 0
        if tail_end == self.tail_at:
            self.start_call(self.carried.text.len)
        else:
            self.start_call(self.tail_at)
            self.report_upto(tail_end - self.tail_at, OT_TEXT_AFTER_NAME)
        self.stage = DS_BETWEEN
        return 0

    cdef int parameter_tag_done(self) except -1:
        """`>` ended a parameter tag: its attributes say the value's type."""
        cdef Py_ssize_t tail = self.carried.text.len - 1 - self.tail_at
        cdef const unsigned char* attributes = self.carried.text.data + self.tail_at
        if self.key.len == 0:
            self.report_from(self.tag_at, OT_TAG_WITHOUT_NAME)
            self.stage = DS_BETWEEN
        elif tail == 14 and memcmp(attributes, DSML_STRING_TRUE, 14) == 0:
            self.stage = DS_VALUE
            self.open_value_as(KIND_STRING)
        elif tail == 15 and memcmp(attributes, DSML_STRING_FALSE, 15) == 0:
            self.stage = DS_VALUE
            self.open_value_as(KIND_NONE)
        else:
            self.report_from(self.tag_at, OT_TEXT_AFTER_NAME)
            self.stage = DS_BETWEEN
        return 0

    cdef int report_upto(self, Py_ssize_t n, int other) except -1:
        """The first n carried bytes as Malformed(other); the rest stays carried."""
        cdef const unsigned char* src
        cdef Py_ssize_t length
        hb_source(&self.carried, 0, n, &self.scratch, &src, &length)
        self.sink.malformed(MW_OTHER, other, src, length)
        return hb_drop_front(&self.carried, n)

    cdef int on_tag(self, int tag, const unsigned char* p, Py_ssize_t n) except -1:
        if self.stage == DS_VALUE:
            if tag == DT_PARAMETER_CLOSE:
                self.close_value(p, n)
                self.stage = DS_BETWEEN
                return 0
            return self.value_text(p, n)
        if self.stage == DS_NAME or self.stage == DS_NAME_TAIL:
            # the invoke tag is not whole: it starts no call
            self.report_carried(MW_OTHER, OT_TAG_CUT_SHORT)
            self.stage = DS_UNNAMED
        elif self.stage == DS_KEY or self.stage == DS_KEY_TAIL:
            self.report_from(self.tag_at, OT_TAG_CUT_SHORT)
            self.stage = DS_BETWEEN
        if tag == DT_PARAMETER and self.stage == DS_BETWEEN:
            self.tag_at = self.carried.text.len
            self.carry(p, n)
            self.key.len = 0
            self.stage = DS_KEY
            return 0
        return self.tag_out_of_place(p, n)

    cdef int close_block(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        cdef bint own_end = self.syntax is not None and self.syntax.is_end(terminal)
        if not self.started():
            # the marker that ends an invoke that never started is part of what it reports
            self.take_scanner_held()
            if self.stage == DS_NAME and self.carried.text.len == 0 and not hb_has_marks(&self.carried):
                self.carry(p, n)
                self.report_carried(MW_OTHER, OT_TAG_WITHOUT_NAME)
            else:
                self.carry(p, n)
                self.report_carried(MW_OTHER, OT_INVOKE_CLOSED_EARLY)
            return 1
        if not own_end:
            p = NULL
            n = 0
        self.close_started(self.stage == DS_BETWEEN, OT_TAG_CUT_SHORT, p, n)
        return own_end


@cython.final
cdef class DsmlSyntax(Syntax):
    """DeepSeek's DSML invokes: parameters typed by their own `string` attribute."""
    cdef MarkerSet tags

    def __init__(self, ends=()):
        Syntax.__init__(self, ends)
        self.tags = MarkerSet(DSML_TAGS)

    cdef Assembler open(self, object declared):
        return DsmlCall(self.tags, None, self)
