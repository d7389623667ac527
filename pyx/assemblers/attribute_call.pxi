# What the assemblers of attribute-written calls share (invokes: DSML, SPEC §5.6, MiniMax M2,
# dots; XTML, SPEC §5.7): after the table's marker that opens a call, the call's name runs to its
# `"` and the call tag to its end (a `>` or the syntax's separator tag), anything between them
# being the tag's attributes; each parameter is an open tag whose key runs to its `"` and whose
# attributes may type the value, then the value, then the parameter's close tag. The syntax says
# which attributes a call tag may carry and what a parameter's attributes (or, for a syntax whose
# parameters carry none — MiniCPM's, dots', MiniMax M2's — the request's tools) make its value. The table marker that is the
# call's own end becomes ToolCallEnd's source; a call that never started takes whatever marker
# ends it into what it reports, but one that opens the next call (the syntax's openers and
# starts), which is that call's. Where the syntax's template writes attribute text XML-escaped
# (Kimi K3's `&amp;`, `&quot;`), the name and the key are read with their character references
# replaced; where a template writes them raw (DSML, MiniMax M2, dots, Step 3, MiniCPM, Muse) a
# reference is text like any other. A name and a key are read less the ASCII whitespace around
# them (`name=" get_weather "`, `name="\ncity"`), as the tagged syntax reads them.
#
# A syntax may find its parameter close tag's stem (the tag less its `>`, `close_stem`: the invoke
# and param-XML syntaxes) as a tag: inside a value it is a close misspelled or cut short, held
# until what follows decides (tag_call.pxi's top); anywhere else it is text, as it would be
# without it.
#
# A syntax may also read its names' attributes loosely (`loose`: MiniMax M2's, dots' and
# MiniCPM5's models, whose incumbents read them so): the value single-quoted (`name='f'`) or
# unquoted (`name=f`, running to whitespace or the tag's end), and whitespace around the `=`. The
# table then spells the call tag's opener also up to the attribute's name (`<invoke name`), or with
# the value's other quote (`<function name='`: where the canonical opener is what a grammar's
# trigger is, a shorter spelling would be a prefix of it), a marker that is the call's first
# bytes (open_with); and the syntax its parameter tag (`<parameter name`, tag
# `loose_parameter`); after either, whitespace, the `=`, whitespace and a quote (or none) are read
# before the value, and whitespace before the tag's end is no attribute. The canonical spelling
# (`name="f"`) is the longer marker, so it is read as ever. A tag whose name is followed by
# anything but `=` is a tag without a name.
#
# A syntax may also read its tags spaced (`spaced`: DeepSeek's DSML and GigaChat 3.5's GCML, whose
# incumbents read `<｜DSML｜invoke\s+name="f"\s*>` and
# `<｜DSML｜parameter\s+name="k"\s+string="true"\s*>`; dots' loose ones): a run of whitespace, not
# only one space, between a tag's name and its first attribute, between attributes, and before the
# tag's end (`>`, or a self-closing call tag's `/>`). The table then spells the call tag's opener
# also up to its tag name and one whitespace byte (`<｜DSML｜invoke ` and the same with a tab, a
# newline or a carriage return: shapes.spaced_invokes), a marker that is the call's first bytes
# (open_with); and the syntax its parameter tag likewise (tags from `spaced_parameter`); after
# either, more whitespace and the attribute's name (`name="`, loose `name`, then read as above) are
# read before the value. Anything else there leaves the tag without a name. A spaced parameter tag
# is the value's text inside a value (only the canonical one ends a value whose close tag is
# missing), so a grammar's values need not exclude it.
#
# A syntax may also take a JSON object as the call's body instead of parameters (`json_body`:
# DSML, whose models write `NAME">{"city": "SF"}</｜DSML｜invoke>`): when the first byte after the
# call tag that is not whitespace is `{`, the body is read as the JSON call assembler reads
# arguments, through the strict prefix validator (what a client's JSON reader takes), with its
# recoveries (json_rewrites.pxi: a raw control character in a string escaped, NaN, Infinity and
# -Infinity as the string of their text): its bytes go out as the arguments as the validator
# accepts them (what is still undecided, a member whose value has not begun, a word or an escape
# being read, waits), from its first refusal inside the object on the rest is
# Malformed{InvalidArguments}; after the whole object whitespace is the call's and anything else
# is text or tags out of place. Tags inside the object are its text. When the region ends in the
# object (or after a refusal), what was sent is closed into one whole value, as the JSON call
# assembler closes it (what was undecided there Malformed{UnterminatedRegion}); a stream stopped
# for its length leaves the arguments as far as they were written.

cdef enum AttributeTag:
    AT_PARAMETER = 0         # a parameter's open tag, up to the key
    AT_PARAMETER_CLOSE = 1   # a parameter's close tag
    AT_LOOSE_PARAMETER = 2   # loose: a parameter's open tag up to its attribute's name (`<parameter name`)

# spaced: the whitespace bytes a tag's name is also spelled with, as a marker (the tag name and
# one of them); more whitespace after it is the assembler's
AT_SPACES = (" ", "\t", "\n", "\r")
cdef const char* AT_NAME_ATTRIBUTE = 'name="'   # what a spaced tag's attributes start with
cdef enum:
    AT_SPACE_COUNT = 4              # len(AT_SPACES)
    AT_NAME_ATTRIBUTE_LEN = 6       # (loose: its first 4 bytes, `name`, then read loosely)

cdef enum:
    AT_LONGEST_REFERENCE = 10    # bytes between `&` and `;` at most (`#x0010FFFF`): longer is text
    AT_NO_REFERENCE = -1         # at_reference_end: the `&` starts no reference (it is text)
    AT_CUT_REFERENCE = -2        # at_reference_end: the bytes so far may be a reference cut short


cdef bint[256] _AT_IN_REFERENCE     # the bytes a reference's name may hold (letters, digits, `#`)
_AT_IN_REFERENCE[:] = [chr(c).isascii() and (chr(c).isalnum() or c == HASH) for c in range(256)]


cdef int at_reference(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """The code point the XML character reference p[0:n] (what stands between `&` and `;`)
    names: `amp`, `lt`, `gt`, `quot`, `apos`, `#` and decimal digits or `#x` (`#X`) and hex
    digits naming a Unicode scalar value other than U+0000; -1 for anything else."""
    cdef long cp = 0
    cdef Py_ssize_t i
    cdef int h
    if n == 3 and memcmp(p, b"amp", 3) == 0:
        return AMPERSAND
    if n == 2 and p[1] == c't' and (p[0] == c'l' or p[0] == c'g'):
        return LESS if p[0] == c'l' else GREATER
    if n == 4 and memcmp(p, b"quot", 4) == 0:
        return QUOTE
    if n == 4 and memcmp(p, b"apos", 4) == 0:
        return APOSTROPHE
    if n < 2 or p[0] != HASH:
        return -1
    if p[1] == LOWER_X or p[1] == c'X':
        if n == 2:
            return -1
        for i in range(2, n):
            h = jp_hex(p[i])
            if h < 0:
                return -1
            cp = cp * 16 + h
            if cp > 0x10FFFF:
                return -1
    else:
        for i in range(1, n):
            if not DIGIT_0 <= p[i] <= DIGIT_9:
                return -1
            cp = cp * 10 + (p[i] - DIGIT_0)
            if cp > 0x10FFFF:
                return -1
    if cp == 0 or 0xD800 <= cp <= 0xDFFF:
        return -1
    return <int>cp


cdef Py_ssize_t at_reference_end(const unsigned char* p, Py_ssize_t n, int* cp) noexcept nogil:
    """p[0] is an `&`: the length of the character reference p[0:n] starts (`&`, its name, `;`),
    its code point in cp[0] (at_reference); AT_NO_REFERENCE when it starts none (the `&` is text);
    AT_CUT_REFERENCE when all of p[0:n] may be the start of one (a name's bytes, no `;` yet, no
    longer than the longest reference): the text that follows decides."""
    cdef Py_ssize_t end = 1
    while end < n and end <= AT_LONGEST_REFERENCE and _AT_IN_REFERENCE[p[end]]:
        end += 1
    if end == n and end <= AT_LONGEST_REFERENCE + 1:
        return AT_CUT_REFERENCE
    if p[end] != SEMICOLON:
        return AT_NO_REFERENCE
    cp[0] = at_reference(p + 1, end - 1)
    return end + 1 if cp[0] >= 0 else AT_NO_REFERENCE


cdef int at_unescape(ByteBuf* text) except -1:
    """Replaces in place each character reference in `text` (at_reference_end) by its character's
    UTF-8; an `&` that starts none stays as written. A reference is longer than its character's
    UTF-8, so the text only shrinks and nothing is allocated."""
    cdef unsigned char* p = text.data
    cdef Py_ssize_t n = text.len, i = 0, w = 0, end
    cdef ByteBuf encoded
    cdef unsigned char utf8[4]
    cdef int cp
    if n == 0 or memchr(p, AMPERSAND, n) == NULL:
        return 0
    encoded.data = utf8
    encoded.cap = 4
    while i < n:
        if p[i] == AMPERSAND:
            end = at_reference_end(p + i, n - i, &cp)
            if end > 0:
                encoded.len = 0
                jt_put_utf8(&encoded, <unsigned int>cp)
                memcpy(p + w, utf8, encoded.len)
                w += encoded.len
                i += end
                continue
        p[w] = p[i]
        w += 1
        i += 1
    text.len = w
    return 0


cdef enum AttributeStage:
    AS_NAME = 0              # the call's name, up to its `"`
    AS_NAME_TAIL = 1         # the call tag's attributes, up to the tag's end
    AS_UNNAMED = 2           # the call tag was cut short: the block starts no call
    AS_BETWEEN = 3           # between parameters
    AS_KEY = 4               # a parameter's key, up to its `"`
    AS_KEY_TAIL = 5          # the parameter tag's attributes, up to the tag's end
    AS_VALUE = 6             # the parameter's value, up to its close tag
    AS_NAME_EQUALS = 7       # loose: after the call tag's attribute name, up to its `=`
    AS_NAME_QUOTE = 8        # loose: after that `=`, up to the value's quote or first byte
    AS_KEY_EQUALS = 9        # loose: after a parameter tag's attribute name, up to its `=`
    AS_KEY_QUOTE = 10        # loose: after that `=`, up to the value's quote or first byte
    AS_NAME_SPACE = 11       # spaced: after the call tag's name, whitespace then its attribute's name
    AS_KEY_SPACE = 12        # spaced: after a parameter tag's name, whitespace then its attribute's name
    AS_BODY = 13             # a JSON object as the call's body (json_body)
    AS_AFTER_BODY = 14       # after the whole object
    AS_BODY_REFUSED = 15     # the validator refused a byte of the object: the rest is invalid
    AS_BODY_ENDED = 16       # the region ended in the object (or after a refusal): it was closed


cdef inline bint as_call_tag(int stage) noexcept:
    """Whether the stage reads the call tag (before its end)."""
    return (stage == AS_NAME or stage == AS_NAME_TAIL or stage == AS_NAME_EQUALS or stage == AS_NAME_QUOTE
            or stage == AS_NAME_SPACE)


cdef inline bint as_parameter_tag(int stage) noexcept:
    """Whether the stage reads a parameter tag (before its end)."""
    return (stage == AS_KEY or stage == AS_KEY_TAIL or stage == AS_KEY_EQUALS or stage == AS_KEY_QUOTE
            or stage == AS_KEY_SPACE)


@cython.no_gc
cdef class AttributeCall(TagCall):
    """Base of the attribute-written call assemblers; subclasses say how a tag ends and what its
    attributes may be."""
    cdef int stage
    cdef Syntax syntax           # for the table terminal that is the call's own end
    cdef Py_ssize_t tag_at       # where in carried the parameter tag being read began
    cdef Py_ssize_t tail_at      # where in carried the tag's attributes (after the name) began
    cdef bint json_body          # the syntax takes a JSON object as the body
    cdef bint body_may_open      # nothing but whitespace since the call tag: a `{` opens the body
    cdef jp_state body           # the body's validator
    cdef jr_rewrites rewrites    # stretches of the body to write anew, not yet sent
    cdef Py_ssize_t body_fed     # the body's bytes read (carried from body_sent on)
    cdef Py_ssize_t body_sent    # the body's bytes sent as arguments
    cdef bint loose              # names' attributes may be written loosely (see the top)
    cdef int loose_parameter     # the tag of the parameter tag spelled up to its attribute's name, or -1
    cdef bint spaced             # tags may hold whitespace runs (see the top)
    cdef int spaced_parameter    # the first of the parameter tags spelled up to one whitespace byte, or -1
    cdef unsigned char attribute_read   # spaced: bytes of the attribute's name read so far
    cdef unsigned char quote     # the byte that ends the name or key being read; 0: unquoted
    cdef bint self_closing       # a `/` just before the call tag's `>` closes the call, no parameters
    cdef int close_stem          # the tag of the parameter's close less its `>` (misspelled), or -1

    def __cinit__(self):
        self.stage = AS_NAME
        self.loose_parameter = -1
        self.spaced_parameter = -1
        self.close_stem = -1
        self.quote = QUOTE

    def __dealloc__(self):
        jr_free(&self.rewrites)

    # -- what a syntax says ---------------------------------------------------------------------

    cdef int tag_end(self) noexcept:
        """The syntax's tag that ends a call or parameter tag, or -1: the byte `>` does."""
        return -1

    cdef inline bint no_attributes(self, const unsigned char* p, Py_ssize_t n) noexcept:
        """Whether a tag's p[0:n], between its name and its end, holds no attribute: nothing, or
        (loose, spaced) only whitespace."""
        return n == 0 or ((self.loose or self.spaced) and u8_space_run(p, n) == n)

    cdef inline bint opens_parameter(self, int tag) noexcept:
        """Whether the syntax's tag is a parameter's open tag in any spelling."""
        return (tag == AT_PARAMETER or tag == self.loose_parameter or
                (self.spaced_parameter >= 0 and self.spaced_parameter <= tag < self.spaced_parameter + AT_SPACE_COUNT))

    cdef bint call_attributes_ok(self, const unsigned char* p, Py_ssize_t n) noexcept:
        """Whether a call tag may carry these attributes (p[0:n], between the name and the end)."""
        return self.no_attributes(p, n)

    cdef int parameter_kind(self, const unsigned char* p, Py_ssize_t n) except -2:
        """The Kind a parameter's attributes give its value (a syntax typing by the request's
        tools looks up the parameter's `key`), or -1 when they give none."""
        return -1

    cdef int closed_early(self) noexcept:
        """The reason for a block that closed before the call's name did."""
        return OT_INVOKE_CLOSED_EARLY

    cdef bint escaped_attributes(self) noexcept:
        """Whether the template writes a name and a key XML-escaped (read through at_unescape)."""
        return False

    # -- reading --------------------------------------------------------------------------------

    cdef int hold_marker(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        return self.hold_opener(terminal, p, n, sink)

    cdef void value_ended(self) noexcept:
        self.stage = AS_BETWEEN

    cdef int on_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef Py_ssize_t k
        if self.opener_held_at >= 0:
            return self.carry(p, n)
        while n > 0:
            if self.stage == AS_VALUE and self.tag_held_at >= 0:
                k = self.held_key_until_quote(p, n)
                p += k
                n -= k
                continue
            if self.stage == AS_VALUE and self.close_held_at >= 0:
                k = self.held_close_text(p, n)
                p += k
                n -= k
                continue
            if self.stage == AS_VALUE:
                return self.value_text(p, n)
            if self.stage >= AS_BODY:
                return self.body_text(p, n)
            if self.stage == AS_BETWEEN and self.body_may_open:
                return self.maybe_body(p, n)
            if self.stage == AS_BETWEEN or self.stage == AS_UNNAMED:
                return self.text_between(p, n)
            if self.stage == AS_NAME_SPACE or self.stage == AS_KEY_SPACE:
                k = self.before_attribute(p, n)
                p += k
                n -= k
                continue
            if self.stage >= AS_NAME_EQUALS:
                k = self.before_value(p, n)
                p += k
                n -= k
                continue
            if self.stage == AS_NAME or self.stage == AS_KEY:
                k = self.read_value(p, n, &self.name if self.stage == AS_NAME else &self.key)
                if k == n:
                    return 0
                self.tail_at = self.carried.text.len
                self.stage = AS_NAME_TAIL if self.stage == AS_NAME else AS_KEY_TAIL
                if self.quote == 0:
                    p += k          # (an unquoted value's end is the tail's first byte)
                    n -= k
                    continue
            elif self.tag_end() >= 0:
                return self.carry(p, n)
            else:
                k = self.read_until(p, n, GREATER, NULL)
                if k == n:
                    return 0
                self.tag_done(1)
                if self.done:
                    # a self-closing call tag: what follows is not the call's
                    self.left = n - k - 1
                    return 0
            p += k + 1
            n -= k + 1
        return 0

    cdef Py_ssize_t held_key_until_quote(self, const unsigned char* p, Py_ssize_t n) except -1:
        """The key of a parameter tag held inside a value, up to its quote, where it decides
        (key_decides); text that makes it no key makes all that was held the value's text. Returns
        how many bytes of p[0:n] were read."""
        cdef const unsigned char* at = <const unsigned char*>memchr(p, QUOTE, n)
        cdef Py_ssize_t k = (at - p) if at != NULL else n
        if not self.held_key_text(p, k):
            self.release_held_tag()
            return 0
        if at == NULL:
            return n
        self.carry(p + k, 1)
        self.key_decides()
        return k + 1

    cdef int key_decides(self) except -1:
        """The held tag's key is whole: a new key (tag_call.pxi's top) ends the open value, whose
        close tag is missing, where the tag begins, and the tag goes on as the next parameter's;
        any other key leaves all that was held the value's text."""
        cdef ByteBuf key
        cdef bint new
        memset(&key, 0, sizeof(ByteBuf))
        try:
            bb_append(&key, self.held_key.data, self.held_key.len)
            tg_trim_name(&key, NULL, 0, False)
            if self.escaped_attributes():
                at_unescape(&key)
            new = self.new_key(key.data, key.len)
        finally:
            bb_free(&key)
        if not new:
            return self.release_held_tag()
        self.tag_at = self.held_tag_opens_parameter()
        self.tail_at = self.carried.text.len
        self.quote = QUOTE
        self.stage = AS_KEY_TAIL
        return 0

    cdef Py_ssize_t read_value(self, const unsigned char* p, Py_ssize_t n, ByteBuf* into) except -1:
        """A name or key up to its quote (read_until), or, unquoted, up to whitespace or the tag's
        end (`>`; a syntax's end tag arrives as a tag), which it leaves unread. Returns where its
        end is in p[0:n], or n."""
        cdef Py_ssize_t k
        cdef const unsigned char* end
        if self.quote:
            return self.read_until(p, n, self.quote, into)
        k = u8_text_run(p, n)
        end = <const unsigned char*>memchr(p, GREATER, k) if self.tag_end() < 0 else NULL
        if end != NULL:
            k = end - p
        bb_append(into, p, k)
        self.carry(p, k)
        return k

    cdef Py_ssize_t before_value(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Loose: the bytes between an attribute's name and its value (whitespace, the `=`,
        whitespace, a quote), carried; once the value begins the stage reads it (AS_NAME, AS_KEY).
        Anything but `=` after the name leaves the tag without one (its tail). Returns how many
        bytes of p[0:n] were read."""
        cdef Py_ssize_t k = u8_space_run(p, n)
        cdef bint call = self.stage == AS_NAME_EQUALS or self.stage == AS_NAME_QUOTE
        self.carry(p, k)
        if k == n:
            return n
        if self.stage == AS_NAME_EQUALS or self.stage == AS_KEY_EQUALS:
            if p[k] != EQUALS:
                self.tail_at = self.carried.text.len
                self.stage = AS_NAME_TAIL if call else AS_KEY_TAIL
                return k
            self.stage = AS_NAME_QUOTE if call else AS_KEY_QUOTE
            self.carry(p + k, 1)
            return k + 1
        self.stage = AS_NAME if call else AS_KEY
        if p[k] == QUOTE or p[k] == APOSTROPHE:
            self.quote = p[k]
            self.carry(p + k, 1)
            return k + 1
        self.quote = 0
        return k

    cdef Py_ssize_t before_attribute(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Spaced: the bytes between a tag's name and its attribute's value (whitespace, then
        `name="`; loose: `name`, and what before_value reads), carried; once they are read the stage
        reads the value (AS_NAME, AS_KEY) or what stands before it (AS_NAME_EQUALS, AS_KEY_EQUALS).
        A byte that is not theirs leaves the tag without a name (its tail). Returns how many bytes
        of p[0:n] were read."""
        cdef bint call = self.stage == AS_NAME_SPACE
        cdef Py_ssize_t k = u8_space_run(p, n) if self.attribute_read == 0 else 0
        cdef unsigned char want = 4 if self.loose else AT_NAME_ATTRIBUTE_LEN
        while k < n and self.attribute_read < want:
            if p[k] != <unsigned char>AT_NAME_ATTRIBUTE[self.attribute_read]:
                self.carry(p, k)
                self.tail_at = self.carried.text.len
                self.stage = AS_NAME_TAIL if call else AS_KEY_TAIL
                return k
            self.attribute_read += 1
            k += 1
        self.carry(p, k)
        if self.attribute_read == want:
            if self.loose:
                self.stage = AS_NAME_EQUALS if call else AS_KEY_EQUALS
            else:
                self.stage = AS_NAME if call else AS_KEY
        return k

    cdef int on_tag(self, int tag, const unsigned char* p, Py_ssize_t n) except -1:
        self.body_may_open = False
        if self.stage == AS_BODY or self.stage == AS_BODY_REFUSED:
            return self.body_text(p, n)
        if self.opener_held_at >= 0 and not self.tag_after_opener(tag == AT_PARAMETER_CLOSE, tag == AT_PARAMETER,
                                                                  p, n):
            return 0
        self.release_held_tag()         # (a tag cuts a held tag's key off: it was no key)
        if tag == self.close_stem:
            if self.stage == AS_VALUE:
                return self.hold_close_stem(p, n)
            return self.on_text(p, n)   # (outside a value the stem is text, as it was before it was a tag)
        if self.stage == AS_VALUE:
            if tag == AT_PARAMETER_CLOSE:
                self.release_held_close()
                self.close_value(p, n)
                self.stage = AS_BETWEEN
                return 0
            if not ((tag == AT_PARAMETER or tag == self.loose_parameter) and self.value_line_ended()):
                if tag != AT_PARAMETER:
                    self.release_held_close()
                    return self.value_text(p, n)
                # the parameter tag anywhere else in a value: its key decides (tag_call.pxi's top)
                return self.hold_parameter_tag(p, n)
            # a parameter tag right after the value's last newline (own-line: the template's;
            # invokes written directly between the tags: the value's) ends a value whose close
            # tag is missing, and opens the next parameter, whatever its key
            self.close_value_upto(self.carried.text.len)
            self.stage = AS_BETWEEN
        if tag == self.tag_end() and self.quote == 0 and (self.stage == AS_NAME or self.stage == AS_KEY):
            # an unquoted value ends at the tag's end
            self.tail_at = self.carried.text.len
            self.stage = AS_NAME_TAIL if self.stage == AS_NAME else AS_KEY_TAIL
        if tag == self.tag_end() and (self.stage == AS_NAME_TAIL or self.stage == AS_KEY_TAIL):
            self.carry(p, n)
            return self.tag_done(n)
        if as_call_tag(self.stage):
            # the call tag is not whole: it starts no call
            self.report_carried(MW_OTHER, OT_TAG_CUT_SHORT)
            self.stage = AS_UNNAMED
        elif as_parameter_tag(self.stage):
            self.report_from(self.tag_at, OT_TAG_CUT_SHORT)
            self.stage = AS_BETWEEN
        if self.opens_parameter(tag) and self.stage == AS_BETWEEN:
            self.tag_at = self.carried.text.len
            self.carry(p, n)
            self.key.len = 0
            self.quote = QUOTE
            self.attribute_read = 0
            self.stage = (AS_KEY if tag == AT_PARAMETER else AS_KEY_EQUALS if tag == self.loose_parameter
                          else AS_KEY_SPACE)
            return 0
        return self.tag_out_of_place(p, n)

    cdef int open_with(self, const unsigned char* p, Py_ssize_t n, Sink sink, bint region) except -1:
        """Loose: the table's opener spelled otherwise (up to the call tag's attribute name,
        `<invoke name`, or with the value's other quote, `<function name='`) opened the call;
        spaced: spelled up to its tag name and one whitespace byte (`<｜DSML｜invoke `): its bytes
        are the call tag's, and the attribute goes on from where they end."""
        self.sink = sink
        if self.spaced and u8_ascii_space(p[n - 1]):
            self.attribute_read = 0
            self.stage = AS_NAME_SPACE
        elif p[n - 1] == APOSTROPHE:
            self.quote = APOSTROPHE
            self.stage = AS_NAME
        else:
            self.stage = AS_NAME_QUOTE if p[n - 1] == EQUALS else AS_NAME_EQUALS
        return self.carry(p, n)

    cdef int tag_done(self, Py_ssize_t end_len) except -1:
        """The call or parameter tag ended (its last end_len carried bytes are its end)."""
        cdef Py_ssize_t tail = self.carried.text.len - end_len - self.tail_at
        cdef const unsigned char* attributes = self.carried.text.data + self.tail_at
        cdef int kind
        if self.stage == AS_NAME_TAIL:
            tg_trim_name(&self.name, NULL, 0, False)
            if self.name.len == 0:
                self.report_carried(MW_OTHER, OT_TAG_WITHOUT_NAME)
                self.stage = AS_UNNAMED
                return 0
            if self.escaped_attributes():
                at_unescape(&self.name)
            if self.self_closing and tail >= 1 and attributes[tail - 1] == SLASH and self.no_attributes(attributes,
                                                                                                     tail - 1):
                # `NAME"/>`: the call, with no parameters, ends with its tag (`/>` its end)
                self.start_call(self.tail_at)
                self.close_object_upto(0)
                self.carried_end()
                self.done = True
                return 0
            if self.call_attributes_ok(attributes, tail):
                self.start_call(self.carried.text.len)
            else:
                self.start_call(self.tail_at)
                self.report_upto(tail, OT_TEXT_AFTER_NAME)
            self.stage = AS_BETWEEN
            self.body_may_open = self.json_body
            return 0
        tg_trim_name(&self.key, NULL, 0, False)
        kind = self.parameter_kind(attributes, tail)
        if self.key.len == 0:
            self.report_from(self.tag_at, OT_TAG_WITHOUT_NAME)
            self.stage = AS_BETWEEN
        elif kind < 0:
            self.report_from(self.tag_at, OT_TEXT_AFTER_NAME)
            self.stage = AS_BETWEEN
        else:
            if self.escaped_attributes():
                at_unescape(&self.key)
            self.stage = AS_VALUE
            self.open_value_as(kind, True)
        return 0

    cdef int carried_end(self) except -1:
        """ToolCallEnd, its source every carried byte."""
        cdef const unsigned char* src
        cdef Py_ssize_t length
        hb_source(&self.carried, 0, self.carried.text.len, &self.scratch, &src, &length)
        self.end_call(src, length)
        return hb_drop_front(&self.carried, self.carried.text.len)

    cdef int report_upto(self, Py_ssize_t n, int other) except -1:
        """The first n carried bytes as Malformed(other); the rest stays carried."""
        cdef const unsigned char* src
        cdef Py_ssize_t length
        hb_source(&self.carried, 0, n, &self.scratch, &src, &length)
        self.sink.malformed(MW_OTHER, other, src, length)
        return hb_drop_front(&self.carried, n)

    # -- a JSON object as the body (see the top) ------------------------------------------------

    cdef int maybe_body(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Text after the call tag, before anything but whitespace: a `{` opens a JSON body."""
        cdef Py_ssize_t at = u8_space_run(p, n)
        self.carry(p, at)
        if at == n:
            return 0
        self.body_may_open = False
        if p[at] != LBRACE:
            return self.text_between(p + at, n - at)
        self.stage = AS_BODY
        jp_init_strict(&self.body)
        self.body.rewrites = self.body.python = True     # (a Python dict too, as any JSON call's)
        return self.body_text(p + at, n - at)

    cdef int body_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Bytes of the JSON body, or after it."""
        cdef Py_ssize_t refused, k
        if self.stage == AS_AFTER_BODY:
            return self.text_between(p, n)
        if n == 0:
            return 0
        if self.stage >= AS_BODY_REFUSED:
            return self.sink.malformed(MW_INVALID_ARGUMENTS, OT_NONE, p, n)
        refused = jr_feed(&self.body, &self.rewrites, p, n)
        if refused < 0 and self.body.st != JP_DONE:
            self.carry(p, n)
            self.body_fed += n
            return self.send_body(jp_committed(&self.body))
        k = n if refused < 0 else max(refused - self.body_fed, 0)
        if refused < 0 or self.body.refused_after_value:
            # the object is whole: it ends before the whitespace after it (which the validator
            # takes, all of it in this piece: the object closed in it), the rest is text after it
            while k > 0 and jp_strict_space(p[k - 1]):
                k -= 1
            self.carry(p, k)
            self.body_fed += k
            self.send_body(self.body_fed)
            self.stage = AS_AFTER_BODY
            return self.text_between(p + k, n - k)
        # refused inside the object (the refusal may reach back into bytes held from an earlier
        # piece: a word, an escape); what was undecided before it goes with it
        self.carry(p, k)
        self.body_fed += k
        self.send_body(jp_end_commit(&self.body))
        self.stage = AS_BODY_REFUSED
        self.report_carried(MW_INVALID_ARGUMENTS, OT_NONE)
        return self.sink.malformed(MW_INVALID_ARGUMENTS, OT_NONE, p + k, n - k)

    cdef int send_body(self, Py_ssize_t upto) except -1:
        """The body's bytes up to `upto` as arguments (the stretches among them the validator
        paused at written anew); their source the carried bytes up to there (whitespace before the
        body included)."""
        cdef Py_ssize_t k = upto - self.body_sent
        cdef Py_ssize_t unsent = self.body_fed - self.body_sent
        cdef const unsigned char* body = self.carried.text.data + self.carried.text.len - unsent
        if k <= 0:
            return 0
        if not (jr_any(&self.rewrites) and jr_write(&self.rewrites, body, self.body_sent, upto, &self.fragment)):
            self.fragment.len = 0
            bb_append(&self.fragment, body, k)
        self.body_sent = upto
        return self.push_upto(self.carried.text.len - unsent + k)

    cdef int body_ends(self, bint complete) except -1:
        """The region ends in the body or after it: bytes the tag scanner holds are the body's,
        and what was sent is closed into one whole value (the object cut or refused); stopped for
        its length (not `complete`), what the validator accepted goes out as it stands."""
        cdef Py_ssize_t held = self.tags.held.len
        self.tags.held.len = 0
        self.body_text(self.tags.held.data, held)
        if self.stage == AS_BODY and not complete:
            jr_cut(&self.body, &self.rewrites)          # `Na`: written as the string it begins
            self.send_body(self.body_fed)
        elif self.stage == AS_BODY:
            self.send_body(jp_end_commit(&self.body))
            self.report_carried(MW_UNTERMINATED, OT_NONE)
        if complete and (self.stage == AS_BODY or self.stage == AS_BODY_REFUSED):
            self.fragment.len = 0
            jp_closing(&self.body, &self.fragment)
            if self.fragment.len:
                self.push_upto(0)
        if self.stage != AS_AFTER_BODY:
            self.stage = AS_BODY_ENDED
        return 0

    cdef int finish(self, Sink sink, bint complete) except -1:
        if not self.done and self.stage >= AS_BODY:
            self.sink = sink
            self.body_ends(complete)
        return TagCall.finish(self, sink, complete)

    cdef int close_block(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        cdef bint own_end = self.syntax is not None and self.syntax.is_end(terminal)
        self.release_held_tag()
        if terminal < 0:
            self.release_held_close()   # (the stream's end: a held close was the value's text)
        if self.stage >= AS_BODY:
            self.body_ends(True)
            self.drop_carried()
            if not own_end:
                self.end_call(NULL, 0)
                return 0
            self.end_call(p, n)
            return 1
        if not self.started():
            # the marker that ends a call that never started is part of what it reports, unless it
            # is the next call's first bytes (a loose opener) or opens the next call
            self.take_scanner_held()
            if self.syntax is not None and (self.syntax.is_start(terminal) or self.syntax.is_opener(terminal)):
                self.report_carried(MW_OTHER, self.closed_early())
                return 0
            if self.stage == AS_NAME and self.carried.text.len == 0 and not hb_has_marks(&self.carried):
                self.carry(p, n)
                self.report_carried(MW_OTHER, OT_TAG_WITHOUT_NAME)
            else:
                self.carry(p, n)
                self.report_carried(MW_OTHER, self.closed_early())
            return 1
        if not own_end:
            p = NULL
            n = 0
        if terminal >= 0:
            if self.stage == AS_VALUE:
                self.hold_scanner_stem(self.close_stem, self.close_stem + 1)
            self.value_cut_by_close()
        self.close_started(self.stage == AS_BETWEEN, OT_TAG_CUT_SHORT, p, n)
        return own_end
