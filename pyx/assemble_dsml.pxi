# The DSML assembler (SPEC §5.6, DeepSeek V4.1): one invoke, after the table's
# `<｜DSML｜ invoke name="` marker,
#     NAME">
#     <｜DSML｜ parameter name="KEY" string="true">text</｜DSML｜ parameter>
#     <｜DSML｜ parameter name="KEY" string="false">json</｜DSML｜ parameter>
# Tags end with `>`; an invoke tag carries no attributes (any are "text after a tag's name");
# `string="true"` streams the value as its text, `string="false"` reads it whole (value typing
# with no declaration), any other attribute leaves the parameter reported whole.

DSML_TAGS = ("<｜DSML｜ parameter name=\"", "</｜DSML｜ parameter>")

cdef const char* DSML_STRING_TRUE = ' string="true"'
cdef const char* DSML_STRING_FALSE = ' string="false"'


@cython.final
@cython.no_gc
cdef class DsmlCall(AttributeCall):
    """Assembles one DSML invoke."""

    cdef int parameter_kind(self, const unsigned char* p, Py_ssize_t n) except -2:
        if n == 14 and memcmp(p, DSML_STRING_TRUE, 14) == 0:
            return KIND_STRING
        if n == 15 and memcmp(p, DSML_STRING_FALSE, 15) == 0:
            return KIND_NONE
        return -1


@cython.final
@cython.no_gc
cdef class DsmlSyntax(Syntax):
    """DeepSeek's DSML invokes: parameters typed by their own `string` attribute."""
    cdef MarkerSet tags

    def __init__(self, ends=()):
        Syntax.__init__(self, ends)
        self.tags = MarkerSet(DSML_TAGS)

    cdef Assembler open(self, object declared):
        cdef DsmlCall call = DsmlCall.__new__(DsmlCall)
        call.syntax = self
        return tc_opened(call, self.tags, None)
