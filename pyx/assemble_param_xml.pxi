# The param-XML assembler (MiniCPM5): one call, after the table's `<function name="`,
#     NAME"><param name="KEY">value</param><param name="K2"><![CDATA[a "text" <b>]]></param>
# the attribute-written shape (attribute_call.pxi) with no attributes beyond the names: values are
# typed by the Kind the request's tools declare (a declared string streams its text; anything
# else is written whole, its Python literal read when it is not JSON). A CDATA section in a value
# is text (its `<![CDATA[` and `]]>` are the value's source, not its text), and inside one every
# tag is text until its `]]>`. `</function>` is the call's own end.

cdef enum ParamXmlTag:
    PX_CDATA_OPEN = 2        # after AT_PARAMETER and AT_PARAMETER_CLOSE
    PX_CDATA_CLOSE = 3

PARAM_XML_TAGS = ("<param name=\"", "</param>", "<![CDATA[", "]]>")


@cython.final
@cython.no_gc
cdef class ParamXmlCall(AttributeCall):
    """Assembles one MiniCPM5 function call."""
    cdef bint in_cdata           # inside a value's CDATA section

    cdef int parameter_kind(self, const unsigned char* p, Py_ssize_t n) except -2:
        if n:
            return -1
        return KIND_NONE if self.function is None else self.function.kind(self.key.data, self.key.len)

    cdef int closed_early(self) noexcept:
        return OT_CALL_CLOSED_EARLY

    cdef int on_tag(self, int tag, const unsigned char* p, Py_ssize_t n) except -1:
        if self.stage == AS_VALUE:
            if tag == (PX_CDATA_CLOSE if self.in_cdata else PX_CDATA_OPEN):
                self.in_cdata = not self.in_cdata
                return self.carry(p, n)
            if self.in_cdata:
                return self.value_text(p, n)
        return AttributeCall.on_tag(self, tag, p, n)


@cython.final
@cython.no_gc
cdef class ParamXmlSyntax(Syntax):
    """MiniCPM5's `<function name=…>` calls of `<param name=…>` values, typed by the tools."""
    cdef MarkerSet tags

    def __init__(self, ends=()):
        Syntax.__init__(self, ends)
        self.reads_types = True
        self.tags = MarkerSet(PARAM_XML_TAGS)

    cdef Assembler open(self, object declared):
        cdef ParamXmlCall call = ParamXmlCall.__new__(ParamXmlCall)
        call.syntax = self
        return tc_opened(call, self.tags, declared)
