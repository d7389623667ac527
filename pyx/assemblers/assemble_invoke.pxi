# The invoke assembler: one invoke after the table's marker that opens it (`<｜DSML｜ invoke name="`,
# `<invoke name="`), then parameter tags of the syntax's spelling, e.g.
#     NAME">
#     <｜DSML｜ parameter name="KEY" string="true">text</｜DSML｜ parameter>     DeepSeek V4.1 (SPEC §5.6)
#     <parameter name="KEY">value</parameter>                                MiniMax M2, dots
# Tags end with `>`; an invoke tag carries no attributes (any are "text after a tag's name").
# DSML types a value by its own `string` attribute (`string="true"` streams the text,
# `string="false"` reads it whole with no declaration, no attribute at all types it by the
# request's tools as the other spellings do, anything else leaves the parameter reported whole),
# except that a value marked a string whose declared schema admits no string is
# read by its declaration, as a quoted value of a declared type is (`string="true">42` under
# `integer` is 42), and a value marked JSON that is a word (`null`, `true`, `false`) its declared
# schema does not admit, where it admits a string, is its text (`string="false">null` under
# `string` is "null", vt_word_as_text); the other spellings carry no attribute and type values by the request's tools,
# as the tagged syntaxes do, with their values directly between the tags or on their own line.
# DSML's body may also be a JSON object instead of its parameters (`json_body`, attribute_call.pxi),
# and its invoke tag may close itself (`NAME"/>`, V4's shape for a call with no arguments): the call
# ends there with `{}`, `/>` its ToolCallEnd.
# MiniMax M2's and dots' names may be written loosely (`loose`, attribute_call.pxi): `name='f'`,
# `name=f`, `name = "f"`, in the invoke tag and in the parameter tags. DSML's tags may be written
# spaced (`spaced`, attribute_call.pxi): `<｜DSML｜invoke  name="f" >`, `<｜DSML｜parameter
# name="k"\n string="true" >`, whitespace runs where the template writes one space or none.
# A syntax may name its call in a header instead of an invoke tag (`head_end`: Beam's
#     NAME<|channel|>analysis <|constrain|>xml<|message|><rfl:parameter name="KEY">…
# after the table's ` to=`): the call tag is the region's first bytes, its name unquoted (up to
# whitespace), and it ends at the syntax's head tag, which ends only the call tag (a parameter tag
# still ends at `>`; anywhere else the head tag is a value's text or a tag out of place).

DSML_TAGS = ("<｜DSML｜ parameter name=\"", "</｜DSML｜ parameter>")

cdef const char* DSML_STRING_TRUE = ' string="true"'
cdef const char* DSML_STRING_FALSE = ' string="false"'


cdef inline bint dsml_attribute_is(const unsigned char* p, Py_ssize_t n, const char* attribute, Py_ssize_t m,
                                   bint spaced) noexcept:
    """Whether a parameter tag's attributes p[0:n] are `attribute` (m bytes, with its one space
    before it), in any case; spaced: with any run of whitespace before it and any after it."""
    cdef Py_ssize_t k
    if not spaced:
        return n == m and ascii_iequal(p, attribute, m)
    k = u8_space_run(p, n)
    if k == 0 or n - k < m - 1 or not ascii_iequal(p + k, attribute + 1, m - 1):
        return False
    return u8_all_space(p + k + m - 1, n - k - m + 1)


@cython.final
@cython.no_gc
cdef class InvokeCall(AttributeCall):
    """Assembles one invoke."""
    cdef bint typed_by_attribute     # DSML's `string` attribute types values, not the tools
    cdef int head_tag                # the tag that ends the call tag (head_end), or -1: its `>` does

    cdef int tag_end(self) noexcept:
        return self.head_tag if as_call_tag(self.stage) else -1

    cdef int parameter_kind(self, const unsigned char* p, Py_ssize_t n) except -2:
        self.text_words = 0
        if not self.typed_by_attribute:
            if not self.no_attributes(p, n):
                return -1
            if self.function is None:
                return KIND_NONE
            return self.function.kind(self.key.data, self.key.len)
        # (the attribute's value in any case: `string="True"` is a slip, not another type)
        if dsml_attribute_is(p, n, DSML_STRING_TRUE, 14, self.spaced):
            if self.function is None or self.function.admits_text(self.key.data, self.key.len):
                return KIND_STRING
            return self.function.kind(self.key.data, self.key.len)
        if dsml_attribute_is(p, n, DSML_STRING_FALSE, 15, self.spaced):
            # JSON; a word the declaration does not admit where it admits a string is its text
            if self.function is not None:
                self.text_words = self.function.text_words(self.key.data, self.key.len)
            return KIND_NONE
        if self.no_attributes(p, n):
            # no `string` attribute, which DeepSeek models sometimes leave out: typed by the tools
            return KIND_NONE if self.function is None else self.function.kind(self.key.data, self.key.len)
        return -1


@cython.final
@cython.no_gc
cdef class InvokeSyntax(Syntax):
    """Invokes of parameter tags (`tags`: the parameter tag up to its key's quote, and its close
    tag): typed by DSML's `string` attribute (typed_by_attribute) or by the request's tools, the
    latter with values on their own line (own_line) or directly between the tags; `json_body`: a
    JSON object may stand for the parameters (DSML); `loose`: names' attributes may be written
    single-quoted, unquoted or spaced around their `=` (the table's `starts`: its invoke opener
    spelled up to the attribute's name); `spaced`: tags may hold runs of whitespace between their
    name and attributes, between attributes and before their end (the table's `starts`: its invoke
    opener also spelled up to the tag's name and one whitespace byte); `head_end`: the tag that ends
    a call tag holding only the call's name, unquoted (None: `">` does)."""
    cdef MarkerSet tags
    cdef readonly bint typed_by_attribute
    cdef readonly bint own_line
    cdef readonly bint json_body
    cdef readonly bint loose
    cdef readonly bint spaced
    cdef int spaced_parameter
    cdef int head_tag
    cdef int close_stem

    def __init__(self, tags=DSML_TAGS, bint typed_by_attribute=True, bint own_line=False, ends=(),
                 bint json_body=False, starts=(), bint loose=False, head_end=None, bint spaced=False,
                 openers=()):
        Syntax.__init__(self, ends, starts, openers)
        if len(tags) != 2 or not all(isinstance(tag, str) and tag for tag in tags):
            raise ValueError("invoke syntax: tags are the parameter tag and its close tag, both non-empty")
        if loose and not tags[0].endswith('="'):
            raise ValueError("invoke syntax: a loose parameter tag runs to its attribute's `=\"`")
        # loose: the parameter tag also spelled up to its attribute's name (AT_LOOSE_PARAMETER)
        if head_end is not None and (not isinstance(head_end, str) or not head_end):
            raise ValueError("invoke syntax: head_end is a non-empty str or None")
        if spaced and not tags[0].endswith(' name="'):
            raise ValueError("invoke syntax: a spaced parameter tag runs to ` name=\"`")
        tags = tuple(tags) + ((tags[0][:-2],) if loose else ())
        # spaced: the parameter tag also spelled up to its tag name and one whitespace byte
        self.spaced_parameter = len(tags) if spaced else -1
        if spaced:
            tags += tuple(tags[0][:-len(' name="')] + space for space in AT_SPACES)
        self.head_tag = len(tags) if head_end is not None else -1
        # head_end: the tag after the others (head_tag)
        tags += (head_end,) if head_end is not None else ()
        stems = tc_close_stems(tags[1:2])      # (the last tag)
        self.close_stem = len(tags) if stems else -1
        self.tags = MarkerSet(tags + stems)
        self.typed_by_attribute = typed_by_attribute
        self.own_line = own_line
        self.json_body = json_body
        self.loose = loose
        self.spaced = spaced
        self.reads_types = True        # (DSML: only where a value's attribute and its declaration disagree)

    cdef Assembler open(self, object declared):
        cdef InvokeCall call = InvokeCall.__new__(InvokeCall)
        call.syntax = self
        call.typed_by_attribute = self.typed_by_attribute
        call.own_line = self.own_line
        call.newline_ends_value = True
        call.self_closing = self.typed_by_attribute     # DSML's `<｜DSML｜invoke name="f"/>` (V4, no arguments)
        call.json_body = self.json_body
        call.loose = self.loose
        call.loose_parameter = AT_LOOSE_PARAMETER if self.loose else -1
        call.spaced = self.spaced
        call.spaced_parameter = self.spaced_parameter
        call.head_tag = self.head_tag
        call.close_stem = self.close_stem
        if self.head_tag >= 0:
            call.quote = 0          # the name is unquoted, up to the head tag
        return tc_opened(call, self.tags, declared)
