# The pythonic assembler (SPEC §5.9, Olmo 3, LFM2.5): the calls of one block written as Python
# calls with keyword arguments, one per line (`f(a=1)\ng(b='x')`) or in a list
# (`[f(a=1), g()]`). Read byte by byte: between calls, whitespace and the list's `[` `]` `,` are
# the template's; a name runs to its `(`; each `key=value` argument ends at a `,` or `)` outside
# quotes and brackets, and its value is written whole: the JSON of the Python literal it spells
# when it is one that reads back, else value typing with no declaration. Values are never
# streamed. Positional arguments and anything else out of place are reported with their reasons.
#
# A bare syntax (`leading`: Llama 4, vLLM's `pythonic`) reads the whole output, which is either
# a call list or content: the list opens only where the output starts (after whitespace) with
# `[`, a name and its `(`, so content that merely starts with `[` ("[1, 2] are…", "[see
# below]", a Markdown link) stays content, every byte. Until that is decided the bytes are held;
# once it is, they are read again as a list or released as content. After the list's `]`
# whitespace is the template's and anything else is "text after the list's end".

cdef enum PythonicStage:
    PY_BETWEEN = 0           # between calls
    PY_NAME = 1              # a call's name, up to its `(`
    PY_ARGUMENTS = 2         # inside the parentheses, between arguments
    PY_KEY = 3               # an argument's key, up to its `=`
    PY_VALUE = 4             # an argument's value, up to a `,` or `)` at its own level
    PY_DECIDING = 5          # bare: only whitespace so far
    PY_OPENING = 6           # bare: `[`, whitespace and a name so far; a call list if `(` follows
    PY_CONTENT = 7           # bare: the output is no call list: all content
    PY_AFTER = 8             # bare: after the list's `]`


cdef inline bint py_word_char(const unsigned char* p, Py_ssize_t n) noexcept:
    """A letter, a digit or `_` (Unicode letters and digits too)."""
    cdef unsigned char c = p[0]
    if c < 0x80:
        return (48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122) or c == UNDERSCORE
    return Py_UNICODE_ISALNUM(xm_code_point(p, n))


@cython.final
@cython.no_gc
cdef class PythonicCall(TagCall):
    """Assembles the calls of one pythonic block."""
    cdef int stage
    cdef bint spaced             # whitespace came after the name or key
    cdef unsigned char quote     # the quote a value is inside, or 0
    cdef bint escaped            # the value's last byte was a backslash inside a quote
    cdef int depth               # the value's open brackets
    cdef bint leading            # bare: the output is a leading call list or content

    def __cinit__(self):
        self.stage = PY_BETWEEN

    cdef int on_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef Py_ssize_t i = 0, w
        cdef unsigned char c
        while i < n:
            c = p[i]
            w = u8_char_len(c)
            if w > n - i:
                w = n - i
            if self.stage == PY_VALUE:
                i += self.value_bytes(p + i, n - i)
                continue
            if self.stage >= PY_DECIDING:
                i += self.bare_bytes(p + i, n - i)
                continue
            if self.stage == PY_BETWEEN and self.leading and c == RBRACKET:
                self.carry(p + i, 1)
                self.drop_carried()
                self.stage = PY_AFTER
                i += 1
            elif self.stage == PY_BETWEEN:
                if u8_space_len(p + i, n - i) or c == LBRACKET or c == RBRACKET or c == COMMA:
                    if u8_space_len(p + i, n - i):
                        w = u8_space_len(p + i, n - i)
                    self.carry(p + i, w)
                elif py_word_char(p + i, n - i):
                    self.sink.build_ahead()
                    self.drop_carried()
                    self.name.len = 0
                    self.spaced = False
                    self.stage = PY_NAME
                    continue
                else:
                    self.drop_carried()
                    self.sink.malformed(MW_OTHER, OT_NOT_A_CALL_START, p + i, w)
                i += w
            elif self.stage == PY_NAME or self.stage == PY_KEY:
                if u8_space_len(p + i, n - i):
                    w = u8_space_len(p + i, n - i)
                    self.spaced = True
                    self.carry(p + i, w)
                elif not self.spaced and (py_word_char(p + i, n - i)
                                          or (self.stage == PY_NAME and (c == DOT or c == MINUS))):
                    bb_append(&self.name if self.stage == PY_NAME else &self.key, p + i, w)
                    self.carry(p + i, w)
                elif self.stage == PY_NAME and c == LPAREN:
                    self.carry(p + i, 1)
                    self.start_call(self.carried.text.len)
                    self.members = 0
                    self.stage = PY_ARGUMENTS
                elif self.stage == PY_KEY and c == EQUALS:
                    self.carry(p + i, 1)
                    self.open_value_as(KIND_NONE)
                    self.quote = 0
                    self.escaped = False
                    self.depth = 0
                    self.stage = PY_VALUE
                else:
                    # not what a name or key may be followed by: it is reported, the byte read again
                    if self.stage == PY_NAME:
                        self.report_carried(MW_OTHER, OT_NAME_WITHOUT_CALL)
                        self.stage = PY_BETWEEN
                    else:
                        self.report_carried(MW_OTHER, OT_KEY_WITHOUT_VALUE)
                        self.stage = PY_ARGUMENTS
                    continue
                i += w
            else:  # PY_ARGUMENTS
                if u8_space_len(p + i, n - i):
                    w = u8_space_len(p + i, n - i)
                    self.carry(p + i, w)
                elif c == RPAREN:
                    self.end_of_call(p + i)
                    w = 1
                elif py_word_char(p + i, n - i):
                    self.key.len = 0
                    self.spaced = False
                    self.stage = PY_KEY
                    continue
                else:
                    self.drop_carried()
                    self.sink.malformed(MW_OTHER, OT_NOT_AN_ARGUMENT_START, p + i, w)
                i += w
        return 0

    cdef Py_ssize_t bare_bytes(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Reads a bare output's bytes before its call list is decided, as content, or after the
        list; returns the bytes read (all of them, or none when the list was just decided)."""
        cdef Py_ssize_t i = 0, w
        cdef unsigned char c
        cdef bytes held
        if self.stage == PY_CONTENT:
            self.sink.content(p, n)
            return n
        while i < n:
            c = p[i]
            w = u8_space_len(p + i, n - i)
            if self.stage == PY_AFTER:
                # run by run, so that no cut changes what is reported
                if w:
                    self.sink.dropped(DR_WRAPPER, p + i, w)
                    i += w
                    continue
                w = i
                while w < n and not u8_space_len(p + w, n - w):
                    w += u8_char_len(p[w])
                if w > n:
                    w = n
                self.sink.malformed(MW_OTHER, OT_TEXT_AFTER_LIST, p + i, w - i)
                i = w
                continue
            if w:
                self.spaced = self.name.len > 0
                self.carry(p + i, w)
                i += w
                continue
            w = u8_char_len(c)
            if w > n - i:
                w = n - i
            if self.stage == PY_DECIDING and c == LBRACKET:
                self.stage = PY_OPENING
            elif (self.stage == PY_OPENING and not self.spaced
                  and ((py_word_char(p + i, n - i) and (self.name.len > 0 or not (DIGIT_0 <= c <= DIGIT_9)))
                       or (self.name.len > 0 and (c == DOT or c == MINUS)))):
                bb_append(&self.name, p + i, w)
            elif self.stage == PY_OPENING and self.name.len > 0 and c == LPAREN:
                # a call list: what is held is read again as its start
                held = PyBytes_FromStringAndSize(<const char*>self.carried.text.data, self.carried.text.len)
                hb_clear(&self.carried)
                self.stage = PY_BETWEEN
                self.on_text(<const unsigned char*><char*>held, len(held))
                return i
            else:
                self.release_as_content()
                self.sink.content(p + i, n - i)
                return n
            self.carry(p + i, w)
            i += w
        return n

    cdef int release_as_content(self) except -1:
        """The bare output is no call list: what is held is content, and so is all that follows."""
        if self.carried.text.len:
            self.sink.content(self.carried.text.data, self.carried.text.len)
        hb_clear(&self.carried)
        self.stage = PY_CONTENT
        return 0

    cdef int finish(self, Sink sink, bint complete) except -1:
        if self.stage == PY_DECIDING or self.stage == PY_OPENING or self.stage == PY_CONTENT:
            self.sink = sink
            self.take_scanner_held()
            self.release_as_content()
            self.done = True
            return 0
        return TagCall.finish(self, sink, complete)

    cdef Py_ssize_t value_bytes(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Reads a value up to the `,` or `)` that ends it (outside quotes and brackets); returns
        the bytes read (the ending byte is taken too)."""
        cdef Py_ssize_t i = 0
        cdef unsigned char c
        while i < n:
            c = p[i]
            if self.quote:
                if self.escaped:
                    self.escaped = False
                elif c == BACKSLASH:
                    self.escaped = True
                elif c == self.quote:
                    self.quote = 0
            elif c == QUOTE or c == APOSTROPHE:
                self.quote = c
            elif c == LPAREN or c == LBRACKET or c == LBRACE:
                self.depth += 1
            elif (c == RPAREN or c == RBRACKET or c == RBRACE) and self.depth > 0:
                self.depth -= 1
            elif (c == COMMA or c == RPAREN) and self.depth == 0:
                self.value_text(p, i)
                self.write_value()
                if c == COMMA:
                    self.carry(p + i, 1)
                    self.stage = PY_ARGUMENTS
                else:
                    self.end_of_call(p + i)
                return i + 1
            i += 1
        self.value_text(p, n)
        return n

    cdef int write_value(self) except -1:
        """The value is whole: `{"key": ` and its JSON, the source what is carried."""
        cdef Py_ssize_t start = vt_trim_start(self.value.data, self.value.len)
        cdef Py_ssize_t end = vt_trim_end(self.value.data, start, self.value.len)
        cdef Py_ssize_t mark
        self.begin_member()
        mark = self.fragment.len
        if (vt_python_literal(self.value.data + start, end - start, &self.fragment) != 0
                or not vt_reads_back(self.fragment.data + mark, self.fragment.len - mark, self.value_depth())):
            self.fragment.len = mark
            vt_json(self.value.data + start, end - start, KIND_NONE, &self.fragment, self.value_depth())
        self.mode = VM_NONE
        self.value.len = 0
        return self.push()

    cdef int end_of_call(self, const unsigned char* paren) except -1:
        """`)` ends the call: the object closes (its source what is carried) and the `)` is the
        call's end."""
        self.close_object()
        self.end_call(paren, 1)
        self.index = -1
        self.function = None
        self.stage = PY_BETWEEN
        return 0

    cdef int close_block(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        # the block's marker is never a call's end
        if self.stage == PY_DECIDING or self.stage == PY_OPENING or self.stage == PY_CONTENT:
            self.release_as_content()
        elif self.stage == PY_BETWEEN or self.stage == PY_AFTER:
            self.drop_carried()
        elif self.stage == PY_NAME:
            self.report_carried(MW_OTHER, OT_NAME_WITHOUT_CALL)
        else:
            if self.stage == PY_KEY:
                self.report_carried(MW_OTHER, OT_KEY_WITHOUT_VALUE)
            elif self.stage == PY_VALUE:
                self.report_carried(MW_OTHER, OT_ARGUMENT_CUT_SHORT)
            self.mode = VM_NONE
            self.close_object()
            self.end_call(NULL, 0)
        return 0


@cython.final
@cython.no_gc
cdef class PythonicSyntax(Syntax):
    """Python call lists: `name(key=value, ...)`, one per line or in `[...]`; `leading`: the
    region is a call list that starts it, or content."""
    cdef readonly bint leading

    def __init__(self, ends=(), bint leading=False):
        Syntax.__init__(self, ends)
        self.leading = leading

    cdef Assembler open(self, object declared):
        cdef PythonicCall call = PythonicCall.__new__(PythonicCall)
        if self.leading:
            call.leading = True
            call.stage = PY_DECIDING
        return tc_opened(call, _NO_TAGS, None)
