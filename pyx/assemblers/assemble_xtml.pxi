# The XTML assembler (SPEC §5.7, Kimi K3): one call, after the table's `<|open|>call tool="`,
#     NAME" index="N"<|sep|>
#     <|open|>argument key="KEY" type="T"<|sep|>value<|close|>argument<|sep|>
# Tags end with the separator `<|sep|>` (a tag of its own, so it may arrive split). A call tag
# may carry the model's `index` (ignored: the parser numbers calls itself); `type` string streams
# the value as its text, and an argument with no `type` is text too; any other type
# (number/boolean/null/array/object, the ones the template writes, or another, as JSON Schema's
# `integer`) reads it whole (value typing with no declaration). `<|close|>call<|sep|>` is the
# call's own end. The template writes attribute text XML-escaped (`&` as `&amp;`, `"` as
# `&quot;`): the call's name and an argument's key are read unescaped.
#
# A syntax may also read the tags spaced (`spaced`), as a detokenizer writes them when it decodes
# with spaces between special tokens (`<|open|>`, `<|close|>` and `<|sep|>` are each one):
#     NAME" index="N" <|sep|> <|open|> argument key="KEY" type="T" <|sep|> value <|close|> argument <|sep|>
# The argument's tags spelled so (XTML_SPACED_TAGS) are its tags, and whitespace ending a tag's
# attributes is none; the table spells the call's opener and close so (shapes.spaced_special_tokens).
# The spaces beside a value are its text, as no reader can tell them from the model's.

cdef enum XtmlTag:
    XT_SEPARATOR = 2         # <|sep|>, after AT_PARAMETER and AT_PARAMETER_CLOSE
    XT_SPACED = 3            # spaced: AT_PARAMETER and AT_PARAMETER_CLOSE spelled spaced, from here on

XTML_TAGS = ("<|open|>argument key=\"", "<|close|>argument<|sep|>", "<|sep|>")
XTML_SPACED_TAGS = ("<|open|> argument key=\"", "<|close|> argument <|sep|>")

cdef const char* XTML_INDEX = ' index="'
cdef const char* XTML_TYPE = ' type="'
cdef const char* XTML_STRING = 'string'


@cython.final
@cython.no_gc
cdef class XtmlCall(AttributeCall):
    """Assembles one XTML call."""

    cdef int tag_end(self) noexcept:
        return XT_SEPARATOR

    cdef int hold_marker(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        return 0            # (a marker inside a value ends it, as before: XTML's tags are markers)

    cdef int on_tag(self, int tag, const unsigned char* p, Py_ssize_t n) except -1:
        if tag >= XT_SPACED:
            tag -= XT_SPACED        # (AT_PARAMETER, AT_PARAMETER_CLOSE)
        return AttributeCall.on_tag(self, tag, p, n)

    cdef inline Py_ssize_t attributes_len(self, const unsigned char* p, Py_ssize_t n) noexcept:
        """How much of a tag's attributes p[0:n] are attributes: spaced, not the whitespace they
        end with."""
        return u8_ascii_space_end(p, n) if self.spaced else n

    cdef bint call_attributes_ok(self, const unsigned char* p, Py_ssize_t n) noexcept:
        """None, or the model's ` index="N"` (N digits)."""
        cdef Py_ssize_t i
        n = self.attributes_len(p, n)
        if n == 0:
            return True
        if n < 10 or memcmp(p, XTML_INDEX, 8) != 0 or p[n - 1] != QUOTE:
            return False
        for i in range(8, n - 1):
            if not DIGIT_0 <= p[i] <= DIGIT_9:
                return False
        return True

    cdef int parameter_kind(self, const unsigned char* p, Py_ssize_t n) except -2:
        """None: text; ` type="string"`: text; ` type="T"`, any other T: JSON; else -1."""
        n = self.attributes_len(p, n)
        if n == 0:
            return KIND_STRING
        if n < 8 or memcmp(p, XTML_TYPE, 7) != 0 or p[n - 1] != QUOTE:
            return -1
        if memchr(p + 7, QUOTE, n - 8) != NULL:
            return -1
        if n - 8 == 6 and memcmp(p + 7, XTML_STRING, 6) == 0:
            return KIND_STRING
        return KIND_NONE

    cdef int closed_early(self) noexcept:
        return OT_CALL_CLOSED_EARLY

    cdef bint escaped_attributes(self) noexcept:
        return True


@cython.final
@cython.no_gc
cdef class XtmlSyntax(Syntax):
    """Kimi K3's XTML calls: arguments typed by their own `type` attribute; `spaced`: their tags
    also read spaced (see the top)."""
    cdef MarkerSet tags
    cdef bint spaced

    def __init__(self, ends=(), bint spaced=False, openers=()):
        Syntax.__init__(self, ends, (), openers)
        self.tags = MarkerSet(XTML_TAGS + (XTML_SPACED_TAGS if spaced else ()))
        self.spaced = spaced

    cdef Assembler open(self, object declared):
        cdef XtmlCall call = XtmlCall.__new__(XtmlCall)
        call.syntax = self
        call.spaced = self.spaced
        return tc_opened(call, self.tags, None)
