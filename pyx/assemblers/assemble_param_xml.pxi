# The param-XML assembler (MiniCPM5; Muse Glimmer with `atem:` tags): one call, after the table's
# `<function name="` (`<atem:invoke name="`),
#     NAME"><param name="KEY">value</param><param name="K2"><![CDATA[a "text" <b>]]></param>
# the attribute-written shape (attribute_call.pxi) with no attributes beyond the names, the
# parameter tags the syntax's own: values are typed by the Kind the request's tools declare (a
# declared string streams its text; anything else is written whole, its Python literal read when
# it is not JSON). A CDATA section in a value is text (its `<![CDATA[` and `]]>` are the value's
# source, not its text), and inside one every tag, and every table marker, is text until its
# `]]>` (hold_marker, hold_close). The table's
# `</function>` (`</atem:invoke>`) is the call's own end. A table may also open the syntax on a
# message's recipient header (Muse Glimmer's ` to=NAME<|message|>`): a region that a header end
# closes before any call started was the template's header, and is dropped. A syntax may also read
# a name written twice around a dot, `X.X`, as the tool `X` the request declares (Muse's template
# writes a bare tool name's recipient `X.*`, and the model then names its invoke `X.X`), and
# other spellings of the parameter's open tag, each read as it is (MiniCPM5's `<paramname="`),
# and names' attributes written loosely (`loose`: MiniCPM5's `<function name='f'>`, `<param name='k'>`,
# which vLLM's and SGLang's minicpm5 parsers read), as a loose invoke syntax reads them. A syntax
# may also read a wrapper element around the parameters (`wrapper`: MiniCPM5's models write
# `<arguments><param …>…</param></arguments>`, which vLLM's and SGLang's minicpm5 parsers read as
# the parameters): its open and close tags between parameters are the call's markup, carried into
# the next event's source as whitespace there is; inside a value they are its text. A syntax may
# also read a value as XML text (`references`: MiniCPM5's template writes a string holding `<` or
# `&` in a CDATA section, so a reference outside one is the model's XML escape, which vLLM's and
# SGLang's minicpm5 parsers read): outside a CDATA section each character reference
# (attribute_call.pxi's at_reference_end: `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;`,
# `&#xH;`) is its character in the value's text, before the value is typed; its bytes are the
# source. A reference a piece cuts short waits, carried, for the text that decides it; a tag, the
# block's end or the stream's ends it as text.

cdef enum ParamXmlTag:
    PX_CDATA_OPEN = 2        # after AT_PARAMETER and AT_PARAMETER_CLOSE
    PX_CDATA_CLOSE = 3
    PX_PARAMETER_SPELLINGS = 4   # other spellings of the parameter's open tag, from here on

PARAM_XML_CDATA = ("<![CDATA[", "]]>")


@cython.final
@cython.no_gc
cdef class ParamXmlCall(AttributeCall):
    """Assembles one MiniCPM5 function call."""
    cdef bint in_cdata           # inside a value's CDATA section
    cdef ParamXmlSyntax params   # for the table terminals that end a recipient header
    cdef ByteBuf reference       # a value's character reference cut short by a piece (carried)

    def __dealloc__(self):
        bb_free(&self.reference)

    cdef int parameter_kind(self, const unsigned char* p, Py_ssize_t n) except -2:
        if not self.no_attributes(p, n):
            return -1
        return KIND_NONE if self.function is None else self.function.kind(self.key.data, self.key.len)

    cdef int closed_early(self) noexcept:
        return OT_CALL_CLOSED_EARLY

    cdef int start_call(self, Py_ssize_t upto) except -1:
        if self.params.doubled_names and self.declared is not None:
            self.name.len = px_undoubled(<Declared>self.declared, self.name.data, self.name.len)
        return TagCall.start_call(self, upto)

    # -- a value's character references (references) ---------------------------------------------

    cdef int value_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef Py_ssize_t i, end, before
        cdef const unsigned char* amp
        cdef int cp = 0
        if not self.params.references or self.in_cdata:
            return TagCall.value_text(self, p, n)
        if self.reference.len:
            # a reference the last piece cut short: this piece decides it
            before = self.reference.len
            bb_append(&self.reference, p, min(n, AT_LONGEST_REFERENCE + 2 - before))
            end = at_reference_end(self.reference.data, self.reference.len, &cp)
            self.reference.len = before
            if end == AT_CUT_REFERENCE:
                bb_append(&self.reference, p, n)
                return self.carry(p, n)
            if end < 0:
                self.reference_as_text()
            else:
                self.carry(p, end - before)
                self.reference.len = 0
                self.referenced(cp)
                p += end - before
                n -= end - before
        while n > 0:
            amp = <const unsigned char*>memchr(p, AMPERSAND, n)
            i = n if amp == NULL else amp - p
            if i:
                TagCall.value_text(self, p, i)
            if i == n:
                return 0
            end = at_reference_end(p + i, n - i, &cp)
            if end == AT_CUT_REFERENCE:
                bb_append(&self.reference, p + i, n - i)
                return self.carry(p + i, n - i)
            if end < 0:
                end = 1
                TagCall.value_text(self, p + i, 1)      # an `&` that starts no reference
            else:
                self.carry(p + i, end)
                self.referenced(cp)
            p += i + end
            n -= i + end
        return 0

    cdef int referenced(self, int cp) except -1:
        """A reference's character joins the value (its bytes are carried)."""
        cdef unsigned char utf8[4]
        cdef ByteBuf encoded
        encoded.data = utf8
        encoded.cap = 4
        encoded.len = 0
        jt_put_utf8(&encoded, <unsigned int>cp)
        return self.value_written(utf8, encoded.len)

    cdef int reference_as_text(self) except -1:
        """A reference cut short that turned out none (or that the value's end cut off): its bytes
        (carried) are the value's text as written."""
        if self.reference.len:
            self.value_written(self.reference.data, self.reference.len)
            self.reference.len = 0
        return 0

    # -- tags and endings -------------------------------------------------------------------------

    cdef int on_tag(self, int tag, const unsigned char* p, Py_ssize_t n) except -1:
        if self.opener_held_at >= 0 and not self.tag_after_opener(tag == AT_PARAMETER_CLOSE, tag == AT_PARAMETER,
                                                                  p, n):
            return 0
        self.reference_as_text()
        self.release_held_tag()         # (before a CDATA tag is read as the value's)
        if tag == self.close_stem:
            if self.stage == AS_VALUE and self.in_cdata:
                return self.value_text(p, n)
            return AttributeCall.on_tag(self, tag, p, n)
        if self.params.wrapper_at >= 0 and tag >= self.params.wrapper_at:
            if self.stage == AS_BETWEEN:
                return self.carry(p, n)     # the parameters' wrapper element: the call's markup
            # (elsewhere a tag none of the stages reads: a value's text, or out of place)
        elif tag >= PX_PARAMETER_SPELLINGS and tag != self.loose_parameter:
            tag = AT_PARAMETER
        if self.stage == AS_VALUE:
            if tag == (PX_CDATA_CLOSE if self.in_cdata else PX_CDATA_OPEN):
                self.release_held_close()
                self.in_cdata = not self.in_cdata
                return self.carry(p, n)
            if self.in_cdata:
                return self.value_text(p, n)
        return AttributeCall.on_tag(self, tag, p, n)

    cdef int hold_marker(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        return self.marker_in_cdata(p, n, sink) or self.hold_opener(terminal, p, n, sink)

    cdef int hold_close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        return self.marker_in_cdata(p, n, sink)

    cdef int marker_in_cdata(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """A table's marker inside a value's CDATA section (`<![CDATA[<x></function></x>]]>`) is
        the value's text, as everything there is (1); elsewhere the engine follows its row (0)."""
        if self.done or self.stage != AS_VALUE or not self.in_cdata:
            return 0
        self.flush_scanner(sink)
        if self.in_cdata:               # (what the scanner held may have closed the section)
            self.value_text(p, n)
            return 1
        return 0

    cdef int finish(self, Sink sink, bint complete) except -1:
        if not self.done:
            self.sink = sink
            self.reference_as_text()
        return AttributeCall.finish(self, sink, complete)

    cdef int close_block(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        self.reference_as_text()
        if not self.started() and self.params.is_header_end(terminal):
            self.take_scanner_held()
            self.drop_carried()
            return 0
        return AttributeCall.close_block(self, terminal, p, n)


cdef Py_ssize_t px_undoubled(Declared declared, const unsigned char* name, Py_ssize_t n) except -1:
    """How much of name[0:n] names the call: the first half of a name written `X.X` when the
    request declares `X` and not `X.X`, else all of it."""
    cdef Py_ssize_t half = n >> 1
    if not (n & 1) or n < 3 or name[half] != DOT or memcmp(name, name + half + 1, half) != 0:
        return n
    if declared.find(name, n) >= 0 or declared.find(name, half) < 0:
        return n
    return half


@cython.final
@cython.no_gc
cdef class ParamXmlSyntax(Syntax):
    """Calls of `<param name=…>` values typed by the tools (MiniCPM5's `<function name=…>`, Muse
    Glimmer's `atem:` spelling); `tags` are the parameter's open tag (up to the key) and close tag,
    `header_ends` the table terminals that end a recipient header; `doubled_names`: a call named
    `X.X` is the declared tool `X` (px_undoubled); `param_spellings` other spellings of the
    parameter's open tag (MiniCPM5's collapsed `<paramname="`); `loose`: names' attributes may be
    written single-quoted, unquoted or spaced around their `=`, as in a loose invoke syntax
    (attribute_call.pxi; the table's `starts`: its call opener spelled up to the attribute's name);
    `wrapper`: the open and close tag of an element that may wrap the parameters (MiniCPM5's
    `<arguments>`), read as the call's markup between parameters; `references`: a value outside
    a CDATA section is XML text, its character references read."""
    cdef MarkerSet tags
    cdef uint64_t header_ends
    cdef bint doubled_names
    cdef readonly bint loose
    cdef int loose_parameter     # the tag of the parameter tag spelled up to its attribute's name, or -1
    cdef int wrapper_at          # the wrapper's tags' place in `tags`, or -1
    cdef int close_stem          # the close tag's stem's place in `tags`, or -1
    cdef readonly bint references

    def __init__(self, tags, ends=(), header_ends=(), doubled_names=False, param_spellings=(), starts=(),
                 bint loose=False, wrapper=(), bint references=False, openers=()):
        cdef int terminal
        Syntax.__init__(self, ends, starts, openers)
        self.reads_types = True
        if len(tags) != 2:
            raise ValueError("param-XML syntax: tags are the parameter's open and close tag")
        if not all(isinstance(text, str) and text for text in param_spellings):
            raise ValueError("param-XML syntax: a parameter tag's spellings are non-empty strs")
        if loose and not tags[0].endswith('="'):
            raise ValueError("param-XML syntax: a loose parameter tag runs to its attribute's `=\"`")
        wrapper = tuple(wrapper)
        if wrapper and (len(wrapper) != 2 or not all(isinstance(text, str) and text for text in wrapper)):
            raise ValueError(f"param-XML syntax: a wrapper is an open and a close tag with text, got {wrapper!r}")
        self.loose = loose
        self.references = references
        self.loose_parameter = PX_PARAMETER_SPELLINGS + len(param_spellings) if loose else -1
        self.wrapper_at = PX_PARAMETER_SPELLINGS + len(param_spellings) + (1 if loose else 0) if wrapper else -1
        tags = (tuple(tags) + PARAM_XML_CDATA + tuple(param_spellings)
                + ((tags[0][:-2],) if loose else ()) + wrapper)
        stems = tc_close_stems(tags[1:2])      # (the last tag)
        self.close_stem = len(tags) if stems else -1
        self.tags = MarkerSet(tags + stems)
        self.header_ends = Syntax(header_ends).ends
        self.doubled_names = bool(doubled_names)

    cdef inline bint is_header_end(self, int terminal) noexcept:
        return terminal >= 0 and (self.header_ends >> terminal) & 1

    cdef Assembler open(self, object declared):
        cdef ParamXmlCall call = ParamXmlCall.__new__(ParamXmlCall)
        call.syntax = self
        call.params = self
        call.loose = self.loose
        call.loose_parameter = self.loose_parameter
        call.close_stem = self.close_stem
        return tc_opened(call, self.tags, declared)
