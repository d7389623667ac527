# The pythonic assembler (SPEC §5.9, Olmo 3, LFM2.5, Llama 4): calls written as Python calls with
# keyword arguments, one per line (`f(a=1)\ng(b='x')`) or in a list (`[f(a=1), g()]`). Read byte
# by byte: between calls, whitespace and the list's `[` `]` `,` are the template's; a name runs to
# its `(`; each `key=value` argument ends at a `,` or `)` outside quotes and brackets, and its
# value is written whole: the JSON of the Python literal it spells, read as Python reads a call's
# argument (sets as lists, string prefixes, joined strings, `+7`, `--1`, `0x1F`;
# values/python_literal.pxi LIT_ARGUMENT) when it reads back, else the model's own JSON (`true`,
# `null`). `**{...}` puts the dict's members among the arguments. Values are never streamed.
# Positional arguments and anything else out of place are reported with their reasons.
#
# A call is a call once its `)` reads it whole: its events are held from its `(` (Sink.hold_call)
# and, when anything in it was Malformed (a value that is no literal, a positional argument, a
# string with no one reading) or it was cut short, the Sink relabels them Malformed and the call
# numbers nothing (refuse_call), as Python would refuse it; the calls after it are read as ever.
#
# Prose (`prose`: Llama 4, vLLM's and SGLang's `pythonic`): the region is text in which a call
# list opens wherever `[`, a name and its `(` are written (outside code, prose.pxi), and after the
# list's `]` it is text again (a list in which no call read is the text it is: its events are
# held from the `[` until a call in it reads); so prose before, between and after lists is
# content, every byte, and so is text that merely starts like a list ("[1, 2] are…", "[see
# below]", "[O'Reilly]").
# Until the `(` decides it, the `[` and the name are held; then they are read again as the list's
# start or released as content.
#
# A syntax may read a JSON call object where a call should begin (`objects`: LFM2 also writes
# `[{"name": …, "arguments": …}]` in its block): it goes to a JSON call assembler.
#
# Slips (`slips`, LFM2): what the model writes that Python refuses is read as meant. A raw line
# break in a string and a zero-padded integer are the reader's (LIT_SLIPS). A quote of a string's
# own kind left unescaped (`command='sed -n '1,5p' f.py'`) is decided by the call: a string whose
# closing quote, as Python reads it, is followed (after whitespace) by neither what may follow a
# literal (`, ) ] } :`) nor another string is held from its opening quote to the call's end,
# found by counting brackets from there on without regard to quotes (so no reading lets the
# string swallow a sibling call). Each later quote of its kind followed by such a byte, or by the
# call's end, is a reading: the string closes there, the quotes before it are the string's, and
# the rest of the call must read as literal arguments up to that end. Exactly one reading: the
# value is written as it reads. None or several: that argument fails closed, its text Malformed,
# and so does its call; the calls after it are read as ever. The decision is
# made on held bytes at a point no cut of the output moves, and the bytes held after the decided
# value are read again, in a loop (never a recursion).

cdef enum PythonicStage:
    PY_BETWEEN = 0           # between calls
    PY_NAME = 1              # a call's name, up to its `(`
    PY_ARGUMENTS = 2         # inside the parentheses, between arguments
    PY_KEY = 3               # an argument's key, up to its `=`
    PY_VALUE = 4             # an argument's value, up to a `,` or `)` at its own level
    PY_PROSE = 5             # prose: content, where a call list may open
    PY_OPENING = 6           # prose: a `[`, whitespace and a name held; a call list if `(` follows
    PY_STARS = 7             # a `*` where an argument should begin: `**` unpacks a dict
    PY_OBJECT = 8            # a JSON call object (objects)
    PY_HELD = 9              # slips: a string with a quote of its kind unescaped, held to the call's end

cdef enum:
    PY_MOST_READINGS = 32    # the readings of one string tried; beyond, it has no one reading


cdef inline bint py_word_char(const unsigned char* p, Py_ssize_t n) noexcept:
    """A letter, a digit or `_` (Unicode letters and digits too)."""
    cdef unsigned char c = p[0]
    if c < 0x80:
        return (48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122) or c == UNDERSCORE
    return Py_UNICODE_ISALNUM(xm_code_point(p, n))


cdef inline bint py_follows_literal(unsigned char c) noexcept nogil:
    """A byte that may follow a literal inside a call: a separator or a closer."""
    return c == COMMA or c == RPAREN or c == RBRACKET or c == RBRACE or c == COLON


cdef struct py_quoting:      # where a value's text is among its strings, read byte by byte
    unsigned char quote      # the quote of the string it is inside, or 0
    bint escaped             # the last byte was a backslash inside it
    bint triple              # the string is triple-quoted
    int run                  # its quotes just read: 1 its opening quote, 2 `''` (empty, or a triple's
                             # opening); in a triple-quoted string, the closing quotes read


cdef inline void py_open_string(py_quoting* q, unsigned char quote) noexcept nogil:
    q.quote = quote
    q.escaped = False
    q.triple = False
    q.run = 1


cdef inline int py_string_byte(py_quoting* q, unsigned char c) noexcept nogil:
    """Reads c inside the string q is in (q.quote set, Python's reading, triple quotes too): 1 when
    c is the string's, 0 when c closes it, -1 when it closed before c (`''`: c is read outside)."""
    if q.triple:
        pass
    elif q.run == 1:
        q.run = 2 if c == q.quote else 0
        if q.run:
            return 1
    elif q.run == 2:
        q.run = 0
        if c == q.quote:
            q.triple = True
            return 1
        q.quote = 0
        return -1
    if q.escaped:
        q.escaped = False
    elif c == BACKSLASH:
        q.escaped = True
    elif c == q.quote:
        if not q.triple:
            q.quote = 0
            return 0
        q.run += 1
        if q.run == 3:
            q.quote = 0
            return 0
        return 1
    q.run = 0
    return 1


cdef inline bint py_string_open(py_quoting* q) noexcept nogil:
    """Whether a string is still open (an empty `''` read last is closed)."""
    return q.quote != 0 and not (q.run == 2 and not q.triple)


cdef Py_ssize_t py_extent_end(const unsigned char* t, Py_ssize_t at, Py_ssize_t end, int depth) noexcept nogil:
    """Reads a value's text from t[at] (inside `depth` brackets) up to the `,` that ends it at its
    own level, or `end`: that offset; -1 when a `)` at its level (the call's end) comes first, or
    `end` finds a string or bracket open."""
    cdef unsigned char c
    cdef py_quoting q
    q.quote = 0
    while at < end:
        c = t[at]
        if q.quote and py_string_byte(&q, c) >= 0:
            pass
        elif c == QUOTE or c == APOSTROPHE:
            py_open_string(&q, c)
        elif c == LPAREN or c == LBRACKET or c == LBRACE:
            depth += 1
        elif c == RPAREN and depth == 0:
            return -1
        elif (c == RPAREN or c == RBRACKET or c == RBRACE) and depth > 0:
            depth -= 1
        elif c == COMMA and depth == 0:
            return at
        at += 1
    return end if not py_string_open(&q) and depth == 0 else -1


cdef inline bint py_string_prefix(unsigned char c) noexcept nogil:
    """A letter that may prefix a Python string (r, f, u, b, either case)."""
    c |= 0x20
    return c == c'r' or c == c'f' or c == c'u' or c == c'b'


@cython.final
@cython.no_gc
cdef class PythonicCall(TagCall):
    """Assembles the calls of one pythonic region."""
    cdef int stage
    cdef bint spaced             # whitespace came after the name or key
    cdef py_quoting q            # the string a value is inside
    cdef int depth               # the value's open brackets
    cdef bint prose              # the region is prose in which call lists open (PY_PROSE)
    cdef bint list_read          # prose: a call of the open list was read
    cdef pr_code code            # prose: the code span it is in
    cdef Py_ssize_t name_at      # prose: where the held name starts in what is carried
    cdef int literal             # the LiteralSyntax values are read in
    cdef int keys                # objects: the OlKeys of a JSON call object, or -1 (none is read)
    cdef JsonCallAssembler object   # the JSON call object being read
    cdef int stars               # the `*` read where an argument should begin
    cdef bint unpacking          # the value is a `**` dict whose members join the arguments
    cdef int after_quote         # slips: 1 after a string's closing quote (and whitespace), 2 or 3
                                 # after one or two letters that may prefix another string; else 0
    cdef Py_ssize_t opened_at    # slips: where the value's last string opened in it
    cdef int opened_depth        # ... the value's brackets open there
    cdef Py_ssize_t string_at    # slips: where the held string opens in the value
    cdef int string_depth        # ... the value's brackets open there
    cdef int raw_depth           # ... the brackets open since the call's `(`, quotes regardless; -1: unbalanced
    cdef ByteBuf pending         # bytes to read again before the rest of the feed
    cdef ByteBuf replaying       # the pending bytes being read again
    cdef ByteBuf repaired        # a held value's text as one reading has it

    def __cinit__(self):
        self.stage = PY_BETWEEN
        self.literal = LIT_ARGUMENT
        self.keys = -1

    def __dealloc__(self):
        bb_free(&self.pending)
        bb_free(&self.replaying)
        bb_free(&self.repaired)

    cdef int on_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef Py_ssize_t i = 0
        while True:
            if self.pending.len:
                self.read_pending()
            if i >= n:
                return 0
            i += self.read_bytes(p + i, n - i)

    cdef int read_pending(self) except -1:
        """Reads the pending bytes (held bytes a decision hands back), and what they hand back in
        turn, before the rest of the feed: a loop, never a recursion."""
        cdef ByteBuf swap
        cdef Py_ssize_t k
        while self.pending.len:
            swap = self.replaying
            self.replaying = self.pending
            self.pending = swap
            self.pending.len = 0
            k = 0
            while k < self.replaying.len and not self.pending.len:
                k += self.read_bytes(self.replaying.data + k, self.replaying.len - k)
            bb_append(&self.pending, self.replaying.data + k, self.replaying.len - k)
            self.replaying.len = 0
        return 0

    cdef Py_ssize_t read_bytes(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Reads p[0:n] by stage; returns the bytes read (fewer when a decision left bytes pending,
        which are read first)."""
        cdef Py_ssize_t i = 0, w
        cdef unsigned char c
        while i < n:
            if self.pending.len:
                return i
            if self.stage == PY_VALUE:
                i += self.value_bytes(p + i, n - i)
                continue
            if self.stage == PY_HELD:
                i += self.held_bytes(p + i, n - i)
                continue
            if self.stage == PY_PROSE or self.stage == PY_OPENING:
                i += self.prose_bytes(p + i, n - i)
                continue
            if self.stage == PY_OBJECT:
                i += self.object.feed(p + i, n - i, self.sink)
                if self.object.done:
                    self.object = None
                    self.stage = PY_BETWEEN
                continue
            c = p[i]
            w = u8_char_len(c)
            if w > n - i:
                w = n - i
            if self.stage == PY_BETWEEN:
                if self.prose and c == RBRACKET:
                    # the list's end: prose again
                    self.carry(p + i, 1)
                    self.drop_carried()
                    self.end_stretch()
                    self.stage = PY_PROSE
                elif u8_space_len(p + i, n - i) or c == COMMA or (not self.prose and (c == LBRACKET or c == RBRACKET)):
                    if u8_space_len(p + i, n - i):
                        w = u8_space_len(p + i, n - i)
                    self.carry(p + i, w)
                elif py_word_char(p + i, n - i):
                    self.drop_carried()
                    self.name.len = 0
                    self.spaced = False
                    self.stage = PY_NAME
                    continue
                elif c == LBRACE and self.keys >= 0:
                    self.drop_carried()
                    self.object = aj_opened(self.keys, None, None)
                    self.stage = PY_OBJECT
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
                    self.sink.hold_call()
                    self.start_call(self.carried.text.len)
                    self.members = 0
                    self.stage = PY_ARGUMENTS
                elif self.stage == PY_KEY and c == EQUALS:
                    self.carry(p + i, 1)
                    self.begin_value()
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
            elif self.stage == PY_STARS:
                if c == ASTERISK and self.stars == 1:
                    self.carry(p + i, 1)
                    self.unpacking = True
                    self.begin_value()
                    i += 1
                else:
                    # one `*` (a positional unpacking), or three: no argument
                    self.report_carried(MW_OTHER, OT_NOT_AN_ARGUMENT_START)
                    self.stage = PY_ARGUMENTS
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
                elif c == ASTERISK:
                    self.drop_carried()
                    self.carry(p + i, 1)
                    self.stars = 1
                    self.stage = PY_STARS
                else:
                    self.drop_carried()
                    self.sink.malformed(MW_OTHER, OT_NOT_AN_ARGUMENT_START, p + i, w)
                i += w
        return n

    cdef int begin_value(self) except -1:
        """A value begins (after `key=` or `**`): held whole until its end."""
        self.open_value_as(KIND_NONE)
        self.q.quote = 0
        self.depth = 0
        self.after_quote = 0
        self.stage = PY_VALUE
        return 0

    # -- prose -----------------------------------------------------------------------------------

    cdef Py_ssize_t prose_bytes(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Reads prose, or the held start of a list in it; returns the bytes read (fewer when a
        list just opened: the held bytes are pending, then the `(`)."""
        cdef Py_ssize_t i = 0, w, k
        cdef unsigned char c
        while i < n:
            if self.stage == PY_PROSE:
                k = pr_text(&self.code, p + i, n - i, PR_OPENS_LIST, False)
                if k:
                    self.sink.content(p + i, k)
                i += k
                if i < n:
                    # a `[` outside code: held until a name and its `(` decide it
                    self.carry(p + i, 1)
                    self.name.len = 0
                    self.spaced = False
                    self.stage = PY_OPENING
                    i += 1
                continue
            c = p[i]
            w = u8_space_len(p + i, n - i)
            if w:
                self.spaced = self.name.len > 0
                self.carry(p + i, w)
                i += w
                continue
            w = u8_char_len(c)
            if w > n - i:
                w = n - i
            if not self.spaced and ((py_word_char(p + i, n - i) and (self.name.len > 0 or not (DIGIT_0 <= c <= DIGIT_9)))
                                    or (self.name.len > 0 and (c == DOT or c == MINUS))):
                if self.name.len == 0:
                    self.name_at = self.carried.text.len
                bb_append(&self.name, p + i, w)
                self.carry(p + i, w)
                i += w
            elif self.name.len > 0 and c == LPAREN:
                # a call list: its `[` is the template's, the name is read again, then the `(`; what
                # the list holds waits until a call in it is read
                self.sink.hold_stretch()
                self.list_read = False
                self.report_upto(self.name_at, EV_DROPPED)
                bb_append(&self.pending, self.carried.text.data, self.carried.text.len)
                hb_clear(&self.carried)
                self.stage = PY_BETWEEN
                return i
            else:
                # no call list: what is held is prose, and the byte is read again as prose
                self.release_as_content()
        return n

    cdef int report_upto(self, Py_ssize_t upto, int kind, int other=OT_NONE) except -1:
        """Carried bytes before `upto` as one event of `kind`: Dropped{Wrapper}, Content, or
        Malformed(other); the separators that arrived before the byte at `upto` go in its source."""
        cdef const unsigned char* src
        cdef Py_ssize_t n
        if upto > 0 or (upto == self.carried.text.len and hb_has_marks(&self.carried)):
            hb_source_before(&self.carried, 0, upto, upto + 1, &self.scratch, &src, &n)
            if kind == EV_DROPPED:
                self.sink.dropped(DR_WRAPPER, src, n)
            elif kind == EV_CONTENT:
                self.sink.content(src, n)
            else:
                self.sink.malformed(MW_OTHER, other, src, n)
            hb_drop_front(&self.carried, upto)
        return 0

    cdef int release_as_content(self) except -1:
        """The held start of a list is no list: it is prose (content)."""
        self.report_upto(self.carried.text.len, EV_CONTENT)
        hb_clear(&self.carried)
        self.stage = PY_PROSE
        return 0

    # -- values ----------------------------------------------------------------------------------

    cdef Py_ssize_t value_bytes(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Reads a value up to the `,` or `)` that ends it (outside quotes and brackets); returns
        the bytes read (the ending byte is taken too). With slips, a string whose closing quote is
        followed by what cannot follow a literal is held to the call's end (PY_HELD)."""
        cdef Py_ssize_t i = 0
        cdef unsigned char c
        cdef bint slips = (self.literal & LIT_SLIPS) != 0
        cdef int closed
        while i < n:
            c = p[i]
            if self.q.quote:
                closed = py_string_byte(&self.q, c)
                if closed <= 0:
                    self.after_quote = 1 if slips else 0
                if closed >= 0:
                    i += 1
                    continue
            if self.after_quote:
                if self.after_quote == 1 and vt_is_ascii_space(c):
                    i += 1
                    continue
                if c == QUOTE or c == APOSTROPHE or (self.after_quote == 1 and py_follows_literal(c)):
                    self.after_quote = 0
                elif self.after_quote < 3 and py_string_prefix(c):
                    self.after_quote += 1
                    i += 1
                    continue
                else:
                    self.value_text(p, i)
                    if self.hold_from_string():
                        return i
                    self.after_quote = 0
            if c == QUOTE or c == APOSTROPHE:
                py_open_string(&self.q, c)
                self.opened_at = self.value.len + i
                self.opened_depth = self.depth
            elif c == LPAREN or c == LBRACKET or c == LBRACE:
                self.depth += 1
            elif (c == RPAREN or c == RBRACKET or c == RBRACE) and self.depth > 0:
                self.depth -= 1
            elif (c == COMMA or c == RPAREN) and self.depth == 0:
                self.value_text(p, i)
                self.write_value(self.value.data, self.value.len, self.carried.text.len)
                if c == COMMA:
                    self.carry(p + i, 1)
                    self.stage = PY_ARGUMENTS
                else:
                    self.end_of_call(p + i)
                return i + 1
            i += 1
        self.value_text(p, n)
        return n

    cdef int write_value(self, const unsigned char* text, Py_ssize_t length, Py_ssize_t upto) except -1:
        """The value whose text is text[0:length] is whole: `{"key": ` and its JSON, the source
        carried[0:upto]; an unpacked dict's members instead."""
        cdef Py_ssize_t start = vt_trim_start(text, length)
        cdef Py_ssize_t end = vt_trim_end(text, start, length)
        cdef Py_ssize_t mark, written
        if self.unpacking:
            self.unpack(text + start, end - start, upto)
        else:
            mark = self.fragment.len
            self.begin_member()
            written = self.fragment.len
            if (vt_python_literal(text + start, end - start, &self.fragment, self.literal) == 0
                    and vt_reads_back(self.fragment.data + written, self.fragment.len - written, self.value_depth())):
                pass
            elif vt_reads_back(text + start, end - start, self.value_depth()):
                # the model's own JSON (`true`, `null`)
                self.fragment.len = written
                bb_append(&self.fragment, text + start, end - start)
            else:
                # no value: a name, an expression, bytes, a number JSON cannot carry, brackets that
                # do not pair, nothing; the call it is in is no call (end_of_call)
                self.fragment.len = mark
                self.members -= 1
                self.report_upto(upto, EV_MALFORMED, OT_NOT_A_LITERAL)
                self.mode = VM_NONE
                self.value.len = 0
                return 0
            self.push_upto(upto)
        self.mode = VM_NONE
        self.value.len = 0
        return 0

    cdef int unpack(self, const unsigned char* text, Py_ssize_t length, Py_ssize_t upto) except -1:
        """`**` and the value text[0:length]: a dict literal's members join the arguments (an
        empty one writes nothing: its source goes with what follows); anything else is Malformed."""
        cdef unsigned char* out
        self.unpacking = False
        if (vt_python_literal(text, length, &self.fragment, self.literal) != 0 or self.fragment.data[0] != LBRACE
                or not vt_reads_back(self.fragment.data, self.fragment.len, self.value_depth())):
            self.fragment.len = 0
            return self.report_upto(upto, EV_MALFORMED, OT_UNPACKED_NOT_A_DICT)
        if self.fragment.len == 2:
            self.fragment.len = 0
            return 0
        self.fragment.len -= 1                 # its `}`: the arguments object goes on
        if self.members:
            # `, ` instead of its `{`
            bb_reserve(&self.fragment, 1)
            out = self.fragment.data
            memmove(out + 2, out + 1, self.fragment.len - 1)
            out[0] = COMMA
            out[1] = SPACE
            self.fragment.len += 1
        self.members += 1
        return self.push_upto(upto)

    cdef int end_of_call(self, const unsigned char* paren) except -1:
        """`)` ends the call: the object closes (its source what is carried) and the `)` is the
        call's end. The call, held since its `(`, is one if all it holds was read, else its bytes
        are Malformed{InvalidArguments} (the arguments' own reasons kept), as Python would refuse
        it; either way the calls after it are read as ever."""
        self.close_object()
        self.end_call(paren, 1)
        self.forget_call()
        self.stage = PY_BETWEEN
        if self.sink.call_flawed:
            self.sink.refuse_call(MW_INVALID_ARGUMENTS, OT_NONE)
        else:
            self.list_read = True
        if self.list_read or not self.prose:
            self.sink.release_stretch()     # (a prose list that holds no call yet stays held)
        return 0

    cdef int end_stretch(self) except -1:
        """The list (prose) or the region ended: what is held goes out, as the text it is where a
        prose list held no call."""
        if self.prose and not self.list_read:
            self.sink.relabel_stretch(OT_REGION_WITHOUT_CALL)
        else:
            self.sink.release_stretch()
        return 0

    cdef int refuse_cut(self, int why, int other) except -1:
        """The block or the stream ended inside a call: the call, cut short, is no call."""
        self.mode = VM_NONE
        self.close_object()
        self.end_call(NULL, 0)
        self.forget_call()
        self.sink.refuse_call(why, other)
        return self.end_stretch()

    # -- slips: a string whose quotes of its kind were left unescaped ---------------------------

    cdef bint hold_from_string(self) except -1:
        """The value's last string closed where Python's reading closes it, and what follows
        cannot follow a literal: the value is held from that string on, to the call's end by
        counting brackets (when that end is among the held bytes already, the string is decided).
        False when separators are held among the bytes (nothing is held then)."""
        cdef Py_ssize_t call_end
        if hb_has_marks(&self.carried):
            return False
        self.string_at = self.opened_at
        self.string_depth = self.opened_depth
        self.raw_depth = self.opened_depth + 1   # the call's `(` and the value's brackets open there
        self.stage = PY_HELD
        call_end = self.count_brackets(self.value.data + self.string_at + 1, self.value.len - self.string_at - 1)
        if call_end >= 0:
            self.decide_quotes(self.string_at + call_end)
        return True

    cdef Py_ssize_t held_bytes(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Holds the bytes of a call whose string is in question up to the `)` that closes the
        call, then decides the string; returns the bytes read (none after that `)`)."""
        cdef Py_ssize_t k = self.count_brackets(p, n)
        cdef Py_ssize_t taken = n if k < 0 else k
        bb_append(&self.value, p, taken)
        self.carry(p, taken)
        if k >= 0:
            self.decide_quotes(self.value.len - 1)
        return taken

    cdef Py_ssize_t count_brackets(self, const unsigned char* p, Py_ssize_t n) noexcept:
        """Counts the brackets of p[0:n], quotes regardless, into raw_depth: the offset after the
        `)` that closes the call, or -1. Brackets that close the call other than by a `)` leave
        it held to the region's end."""
        cdef Py_ssize_t i = 0
        cdef unsigned char c
        while i < n and self.raw_depth > 0:
            c = p[i]
            i += 1
            if c == LPAREN or c == LBRACKET or c == LBRACE:
                self.raw_depth += 1
            elif c == RPAREN or c == RBRACKET or c == RBRACE:
                self.raw_depth -= 1
                if self.raw_depth == 0 and c == RPAREN:
                    return i
                if self.raw_depth == 0:
                    self.raw_depth = -1
        return -1

    cdef int decide_quotes(self, Py_ssize_t call_end) except -1:
        """The held value and the call after it are whole up to value[call_end], the call's `)`:
        the string is read as its one reading has it, or the argument fails closed; the bytes held
        after what was decided are read again."""
        cdef const unsigned char* t = self.value.data
        cdef Py_ssize_t held = self.value.len    # (write_value empties the value, not its bytes)
        cdef Py_ssize_t j = self.string_at + 1, k, end, chosen = -1, readings = 0, tried = 0
        cdef unsigned char quote = t[self.string_at]
        cdef bint accepted
        while j < call_end and tried < PY_MOST_READINGS and readings < 2:
            if t[j] == BACKSLASH:
                j += 2
                continue
            if t[j] == quote:
                k = vt_skip_ascii_space(t, call_end, j + 1)
                if k == call_end or py_follows_literal(t[k]):
                    tried += 1
                    if self.reading_end(j, call_end) >= 0:
                        readings += 1
                        chosen = j
            j += 1
        accepted = readings == 1 and tried < PY_MOST_READINGS
        end = self.reading_end(chosen, call_end) if accepted else call_end     # (its repaired text, again)
        if accepted:
            self.write_value(self.repaired.data, self.repaired.len, self.carried.text.len - (held - end))
        else:
            self.report_upto(self.carried.text.len - (held - end), EV_MALFORMED, OT_STRING_WITHOUT_ONE_READING)
            self.unpacking = False
            self.mode = VM_NONE
        hb_clear(&self.carried)                  # (the bytes after `end`: read again below)
        if end < call_end:
            self.carry(t + end, 1)               # the value's `,`, as if it had ended there
            end += 1
        bb_append(&self.pending, t + end, held - end)
        self.value.len = 0
        self.stage = PY_ARGUMENTS
        return 0

    cdef Py_ssize_t reading_end(self, Py_ssize_t close, Py_ssize_t call_end) except -2:
        """The reading that closes the held string at value[close]: its value's text, with the
        quotes of its kind before `close` escaped, goes to `repaired`; the offset where that value
        ends (its `,`, or call_end), or -1 when the reading is no call: the value is no literal,
        or the rest up to call_end is not literal keyword arguments."""
        cdef const unsigned char* t = self.value.data
        cdef Py_ssize_t at = self.string_at + 1, end
        cdef unsigned char quote = t[self.string_at]
        end = py_extent_end(t, close + 1, call_end, self.string_depth)
        if end < 0:
            return -1
        self.repaired.len = 0
        bb_append(&self.repaired, t, at)
        while at < close:
            if t[at] == BACKSLASH and at + 1 < close:
                bb_append(&self.repaired, t + at, 2)
                at += 2
                continue
            if t[at] == quote:
                bb_push(&self.repaired, BACKSLASH)
            bb_push(&self.repaired, t[at])
            at += 1
        bb_append(&self.repaired, t + close, end - close)
        if not self.is_literal(self.repaired.data, self.repaired.len, self.unpacking):
            return -1
        if not self.are_arguments(end, call_end):
            return -1
        return end

    cdef bint is_literal(self, const unsigned char* text, Py_ssize_t length, bint a_dict) except -1:
        """Whether text[0:length] (trimmed) is a literal that reads back (a dict, when a_dict)."""
        cdef Py_ssize_t start = vt_trim_start(text, length)
        cdef Py_ssize_t end = vt_trim_end(text, start, length)
        cdef Py_ssize_t mark = self.fragment.len
        cdef bint read
        read = (vt_python_literal(text + start, end - start, &self.fragment, self.literal) == 0
                and (not a_dict or self.fragment.data[mark] == LBRACE)
                and vt_reads_back(self.fragment.data + mark, self.fragment.len - mark, self.value_depth()))
        self.fragment.len = mark
        return read

    cdef bint are_arguments(self, Py_ssize_t at, Py_ssize_t end) except -1:
        """Whether value[at:end] is `, key=literal` arguments (or `, **dict`), a trailing comma
        and whitespace allowed."""
        cdef const unsigned char* t = self.value.data
        cdef Py_ssize_t value_at, value_end
        cdef bint a_dict
        while True:
            at = vt_skip_ascii_space(t, end, at)
            if at >= end:
                return True
            if t[at] != COMMA:
                return False
            at = vt_skip_ascii_space(t, end, at + 1)
            if at >= end:
                return True
            a_dict = at + 1 < end and t[at] == ASTERISK and t[at + 1] == ASTERISK
            if a_dict:
                at += 2
            else:
                if not py_word_char(t + at, end - at) or DIGIT_0 <= t[at] <= DIGIT_9:
                    return False
                while at < end and py_word_char(t + at, end - at):
                    at += u8_char_len(t[at])
                at = vt_skip_ascii_space(t, end, at)
                if at >= end or t[at] != EQUALS:
                    return False
                at += 1
            value_at = at
            value_end = py_extent_end(t, at, end, 0)
            if value_end < 0 or not self.is_literal(t + value_at, value_end - value_at, a_dict):
                return False
            at = value_end

    # -- the region's end -----------------------------------------------------------------------

    cdef int ignored(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        # (prose) a separator after the held start of a list's name began is no part of a name: the
        # held start is no list, prose, and the separator is dropped after it
        if self.stage == PY_OPENING and self.name.len:
            self.sink = sink
            self.release_as_content()
        return TagCall.ignored(self, p, n, sink)

    cdef int finish(self, Sink sink, bint complete) except -1:
        cdef bint started
        self.sink = sink
        if self.stage == PY_OBJECT:
            self.object.finish(sink, complete)
            self.object = None
            self.stage = PY_BETWEEN
        elif self.stage == PY_OPENING:
            self.take_scanner_held()
            self.release_as_content()
        elif self.stage == PY_BETWEEN:
            # between calls the end ends the block as its marker does (close_block): the list's
            # `]`, `,` and whitespace held there are the template's
            self.drop_carried()
        started = self.started()
        # the end cuts a started call short, whether or not the engine stopped it: TagCall's plain
        # ending (the held bytes Unterminated, the call ended), and then the call is no call
        TagCall.finish(self, sink, False)
        if started:
            self.forget_call()
            self.sink.refuse_call(MW_UNTERMINATED, OT_NONE)
        return self.end_stretch()

    cdef int close_block(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        # the block's marker is never a call's end
        if self.stage == PY_OBJECT:
            self.object.finish(self.sink, True)
            self.object = None
        elif self.stage == PY_OPENING:
            self.release_as_content()
        elif self.stage == PY_BETWEEN or self.stage == PY_PROSE:
            self.drop_carried()
        elif self.stage == PY_NAME:
            self.report_carried(MW_OTHER, OT_NAME_WITHOUT_CALL)
        else:
            if self.stage == PY_KEY:
                self.report_carried(MW_OTHER, OT_KEY_WITHOUT_VALUE)
            elif self.stage == PY_STARS:
                self.report_carried(MW_OTHER, OT_NOT_AN_ARGUMENT_START)
            elif self.stage == PY_VALUE or self.stage == PY_HELD:
                self.report_carried(MW_OTHER, OT_ARGUMENT_CUT_SHORT)
            return self.refuse_cut(MW_OTHER, OT_ARGUMENT_CUT_SHORT)
        return self.end_stretch()


@cython.final
@cython.no_gc
cdef class PythonicSyntax(Syntax):
    """Python calls: `name(key=value, ...)`, one per line or in `[...]`. `prose`: the region is
    prose in which call lists open; `literal`: the LiteralSyntax values are read in (with
    LIT_SLIPS, also the unescaped quotes a call's end decides); `keys`: the OlKeys of a JSON call
    object read where a call should begin, or -1."""
    cdef readonly bint prose
    cdef readonly int literal
    cdef readonly int keys

    def __init__(self, ends=(), bint prose=False, int literal=LIT_ARGUMENT, int keys=-1):
        Syntax.__init__(self, ends)
        self.holds_its_calls = True
        if not LIT_ARGUMENT <= literal <= (LIT_ARGUMENT | LIT_SLIPS) or not literal & LIT_ARGUMENT:
            raise ValueError(f"pythonic syntax: no argument literal syntax {literal}")
        if not -1 <= keys <= OL_KEYS_NAMED:
            raise ValueError(f"pythonic syntax: no object kind {keys}")
        self.prose = prose
        self.literal = literal
        self.keys = keys

    cdef Assembler open(self, object declared):
        cdef PythonicCall call = PythonicCall.__new__(PythonicCall)
        call.literal = self.literal
        call.keys = self.keys
        if self.prose:
            call.prose = True
            call.stage = PY_PROSE
        return tc_opened(call, _NO_TAGS, None)
