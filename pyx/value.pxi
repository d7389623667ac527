# Value typing for the tagged call syntaxes (SPEC §5.1, §5.2): the text of one argument value
# becomes JSON, typed by the Kind the tool's schema declares for its parameter. A declared string
# is its text, every byte; a declared integer is its digits; anything else is inferred: the text
# itself when it is JSON the client can read back, else the JSON of the Python literal it spells
# (True, None, ('a', 1), ...), else the string of the text. Where the schema declares a number or
# a container, a value the model wrapped in a string is read inside it (a quoted number, a
# double-encoded or escaped array or object). "Reads back" is serde_json reading the value inside
# the arguments object (the adapters' reader), so one odd value never costs a call its other
# arguments. The caller has already taken away the newlines a template writes around a value;
# nothing else is taken from it here.

cpdef enum Kind:
    KIND_NONE = 0              # no declaration: the value is inferred
    KIND_STRING = 1
    KIND_NULLABLE_STRING = 2
    KIND_INTEGER = 3
    KIND_ARRAY = 4
    KIND_OBJECT = 5
    KIND_NUMBER = 6            # the last Kind (value_json checks codes against it)

cdef enum:
    VT_READ_DEPTH = 126        # serde_json's recursion limit (128) leaves 127 levels for the whole
                               # arguments document; the value sits one level inside it
    VT_LITERAL_DEPTH = 128     # the Python-literal reader's own nesting limit
    VT_SCHEMA_DEPTH = 64       # anyOf/oneOf nesting read in a schema; deeper declares nothing
    VT_SHORT_NUMBER = 64       # number texts up to this length are checked on the stack

# The texts a nullable string reads as null (vt_is_null_word checks the same two).
NULL_WORDS = ("null", "None")

cdef extern from "Python.h":
    ctypedef struct PyObject
    double PyOS_string_to_double(const char* s, char** endptr, PyObject* overflow_exception) except? -1.0


# ---- JSON string bodies, escaped as serde_json writes them

# 0: the byte stands for itself in a JSON string; else the letter of its two-character escape
# (`\n`, `\"`, ...), or `u` for the six-character `\u00xx`.
cdef unsigned char vt_escape_of[256]
cdef const char* VT_HEX = "0123456789abcdef"


cdef void vt_build_tables() noexcept:
    cdef int c
    memset(vt_escape_of, 0, sizeof(vt_escape_of))
    for c in range(0x20):
        vt_escape_of[c] = c'u'
    vt_escape_of[BACKSPACE] = c'b'
    vt_escape_of[TAB] = c't'
    vt_escape_of[LF] = c'n'
    vt_escape_of[FF] = c'f'
    vt_escape_of[CR] = c'r'
    vt_escape_of[QUOTE] = QUOTE
    vt_escape_of[BACKSLASH] = BACKSLASH


vt_build_tables()


cdef int vt_string(const unsigned char* p, Py_ssize_t n, ByteBuf* out) except -1:
    """Appends the JSON string body (no quotes) of p[0:n]. Escaping is per byte, so the pieces of
    any split of a text give, end to end, the body of the whole."""
    cdef Py_ssize_t i = 0, start
    cdef unsigned char e, c
    cdef unsigned char esc[6]
    while True:
        start = i
        while i < n and vt_escape_of[p[i]] == 0:
            i += 1
        bb_append(out, p + start, i - start)
        if i >= n:
            return 0
        c = p[i]
        e = vt_escape_of[c]
        esc[0] = BACKSLASH
        if e == c'u':
            esc[1] = c'u'
            esc[2] = DIGIT_0
            esc[3] = DIGIT_0
            esc[4] = VT_HEX[c >> 4]
            esc[5] = VT_HEX[c & 15]
            bb_append(out, esc, 6)
        else:
            esc[1] = e
            bb_append(out, esc, 2)
        i += 1


cdef inline int vt_quoted(const unsigned char* p, Py_ssize_t n, ByteBuf* out) except -1:
    """Appends the JSON string of p[0:n]."""
    bb_push(out, QUOTE)
    vt_string(p, n, out)
    bb_push(out, QUOTE)
    return 0


cdef int vt_code_point(ByteBuf* out, unsigned int cp) except -1:
    """Appends code point `cp` as JSON string text: escaped below U+0080 where JSON needs it,
    else its UTF-8."""
    cdef unsigned char b
    if cp < 0x80:
        b = <unsigned char>cp
        return vt_string(&b, 1, out)
    return jt_put_utf8(out, cp)


# ---- Whitespace

cdef inline bint vt_is_digit(unsigned char c) noexcept nogil:
    return DIGIT_0 <= c <= DIGIT_9


cdef inline bint vt_is_alnum(unsigned char c) noexcept nogil:
    return vt_is_digit(c) or (65 <= c <= 90) or (97 <= c <= 122)


cdef inline bint vt_is_json_space(unsigned char c) noexcept nogil:
    return c == SPACE or c == TAB or c == LF or c == CR


cdef inline bint vt_is_ascii_space(unsigned char c) noexcept nogil:
    """The Python-literal reader's whitespace: space, \\t, \\n, \\r, \\x0b, \\x0c."""
    return c == SPACE or (TAB <= c <= CR)


cdef inline Py_ssize_t vt_skip_json_space(const unsigned char* p, Py_ssize_t n, Py_ssize_t i) noexcept nogil:
    while i < n and vt_is_json_space(p[i]):
        i += 1
    return i


cdef inline Py_ssize_t vt_skip_ascii_space(const unsigned char* p, Py_ssize_t n, Py_ssize_t i) noexcept nogil:
    while i < n and vt_is_ascii_space(p[i]):
        i += 1
    return i


cdef Py_ssize_t vt_trim_start(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """Where p[0:n] starts without its leading Unicode White_Space (Rust `str::trim_start`)."""
    cdef Py_ssize_t i = 0, w
    while i < n:
        w = u8_space_len(p + i, n - i)
        if w == 0:
            break
        i += w
    return i


cdef Py_ssize_t vt_trim_end(const unsigned char* p, Py_ssize_t start, Py_ssize_t n) noexcept nogil:
    """Where p[start:n] ends without its trailing Unicode White_Space (Rust `str::trim_end`)."""
    cdef Py_ssize_t end = n, k
    while end > start:
        k = end - 1
        while k > start and (p[k] & 0xC0) == 0x80 and end - k < 4:
            k -= 1
        if u8_space_len(p + k, end - k) != end - k:
            break
        end = k
    return end


# ---- Reading back: strict JSON as serde_json reads it into a value

cdef Py_ssize_t vt_number_end(const unsigned char* p, Py_ssize_t n, Py_ssize_t i) noexcept nogil:
    """The end of the JSON number (JSON's grammar) that starts at p[i], or -1 when none does."""
    if i < n and p[i] == MINUS:
        i += 1
    if i >= n or not vt_is_digit(p[i]):
        return -1
    if p[i] == DIGIT_0:
        i += 1
    else:
        while i < n and vt_is_digit(p[i]):
            i += 1
    if i < n and p[i] == DOT:
        i += 1
        if i >= n or not vt_is_digit(p[i]):
            return -1
        while i < n and vt_is_digit(p[i]):
            i += 1
    if i < n and (p[i] == LOWER_E or p[i] == UPPER_E):
        i += 1
        if i < n and (p[i] == PLUS or p[i] == MINUS):
            i += 1
        if i >= n or not vt_is_digit(p[i]):
            return -1
        while i < n and vt_is_digit(p[i]):
            i += 1
    return i


cdef bint vt_number_is_finite(const unsigned char* p, Py_ssize_t n) except -1:
    """Whether the JSON number p[0:n] is finite as a double (serde_json reads an integer beyond
    64 bits, and every fraction, as an f64 and refuses one that overflows)."""
    cdef Py_ssize_t i = 0, integer_digits = 0
    cdef char small[VT_SHORT_NUMBER + 1]
    cdef char* text
    cdef double value
    if p[0] == MINUS:
        i = 1
    while i < n and vt_is_digit(p[i]):
        i += 1
        integer_digits += 1
    if memchr(p, LOWER_E, n) == NULL and memchr(p, UPPER_E, n) == NULL and integer_digits <= 308:
        return True          # below 10**308 without an exponent: always finite
    if n <= VT_SHORT_NUMBER:
        text = &small[0]
    else:
        text = <char*>malloc(n + 1)
        if text == NULL:
            raise MemoryError()
    try:
        memcpy(text, p, n)
        text[n] = 0
        value = PyOS_string_to_double(text, NULL, NULL)    # locale-independent, correctly rounded
    finally:
        if text != &small[0]:
            free(text)
    return isfinite(value)


cdef Py_ssize_t vt_string_end(const unsigned char* p, Py_ssize_t n, Py_ssize_t i) noexcept nogil:
    """The end of the JSON string whose body starts at p[i] (after its opening quote), or -1 when
    serde_json would refuse it: a raw control character, an unknown escape, a short \\u, or a
    surrogate escape out of its pair."""
    cdef unsigned char c
    cdef int cp, low
    while True:
        while i < n and vt_escape_of[p[i]] == 0:
            i += 1
        if i >= n:
            return -1
        c = p[i]
        if c == QUOTE:
            return i + 1
        if c != BACKSLASH or i + 1 >= n:
            return -1
        c = p[i + 1]
        i += 2
        if c == QUOTE or c == BACKSLASH or c == SLASH or c == c'b' or c == c'f' \
                or c == c'n' or c == c'r' or c == c't':
            continue
        if c != c'u':
            return -1
        cp = jt_hex4(p + i, n - i)
        if cp < 0 or 0xDC00 <= cp <= 0xDFFF:
            return -1
        i += 4
        if 0xD800 <= cp <= 0xDBFF:
            if i + 6 > n or p[i] != BACKSLASH or p[i + 1] != c'u':
                return -1
            low = jt_hex4(p + i + 2, n - i - 2)
            if low < 0xDC00 or low > 0xDFFF:
                return -1
            i += 6


cdef inline Py_ssize_t vt_word_end(const unsigned char* p, Py_ssize_t n, Py_ssize_t i,
                                   const char* word, Py_ssize_t length) noexcept nogil:
    """i + length when `word` is spelled at p[i], else -1."""
    if n - i >= length and memcmp(p + i, word, length) == 0:
        return i + length
    return -1


cdef inline Py_ssize_t vt_member_colon(const unsigned char* p, Py_ssize_t n, Py_ssize_t i) noexcept nogil:
    """Reads an object member's key and its `:` from p[i] (whitespace first); the offset after
    the `:`, or -1."""
    i = vt_skip_json_space(p, n, i)
    if i >= n or p[i] != QUOTE:
        return -1
    i = vt_string_end(p, n, i + 1)
    if i < 0:
        return -1
    i = vt_skip_json_space(p, n, i)
    if i >= n or p[i] != COLON:
        return -1
    return i + 1


cdef bint vt_reads_back(const unsigned char* p, Py_ssize_t n, int max_depth=VT_READ_DEPTH) except -1:
    """Whether p[0:n] is one JSON value that serde_json reads back from inside the arguments
    object: JSON whitespace around it only, strict strings, finite numbers, nesting at most
    max_depth (at most VT_READ_DEPTH) deep."""
    cdef unsigned char stack[VT_READ_DEPTH]     # the open containers' openers
    cdef int depth = 0
    cdef Py_ssize_t i = 0, end
    cdef bint want_value = True
    cdef unsigned char c, closer
    while True:
        i = vt_skip_json_space(p, n, i)
        if want_value:
            if i >= n:
                return False
            c = p[i]
            if c == LBRACE or c == LBRACKET:
                if depth >= max_depth or depth == VT_READ_DEPTH:
                    return False
                stack[depth] = c
                depth += 1
                closer = RBRACE if c == LBRACE else RBRACKET
                i = vt_skip_json_space(p, n, i + 1)
                if i < n and p[i] == closer:
                    depth -= 1
                    i += 1
                    want_value = False
                elif c == LBRACE:
                    i = vt_member_colon(p, n, i)
                    if i < 0:
                        return False
                continue
            if c == QUOTE:
                end = vt_string_end(p, n, i + 1)
            elif c == MINUS or vt_is_digit(c):
                end = vt_number_end(p, n, i)
                if end >= 0 and not vt_number_is_finite(p + i, end - i):
                    return False
            elif c == c't':
                end = vt_word_end(p, n, i, "true", 4)
            elif c == c'f':
                end = vt_word_end(p, n, i, "false", 5)
            elif c == c'n':
                end = vt_word_end(p, n, i, "null", 4)
            else:
                return False
            if end < 0:
                return False
            i = end
            want_value = False
        else:
            if depth == 0:
                return i == n
            if i >= n:
                return False
            c = p[i]
            if c == COMMA:
                if stack[depth - 1] == LBRACE:
                    i = vt_member_colon(p, n, i + 1)
                    if i < 0:
                        return False
                else:
                    i += 1
                want_value = True
            elif c == (RBRACE if stack[depth - 1] == LBRACE else RBRACKET):
                depth -= 1
                i += 1
            else:
                return False


# ---- The Python-literal reader

cpdef enum LiteralSyntax:
    # Which Python-literal syntax the reader takes (flags; symphony.value.LiteralSyntax names them).
    LIT_VALUE = 0          # value typing's fallback: literals as written in a value's text
    LIT_ARGUMENT = 1       # a pythonic call's argument as Python reads it: also sets (as lists), the
                           # r, u and f prefixes (an f-string without placeholders), adjacent strings
                           # joined, a `+` sign and Python's own number forms (`.5`, `5.`, `007.5`, `00`)
    LIT_SLIPS = 2          # also what a model writes that Python refuses: a raw line break in a
                           # string, a zero-padded integer (`07`)

cdef enum:
    VT_RAW = 4             # (a string's form, beside the LIT_ flags) r prefix: a backslash is text
    VT_FORMAT = 8          # f prefix: `{{` and `}}` are braces, any other brace a placeholder
    VT_BYTES = -2          # (vt_string_form) a bytes literal: no JSON value


cdef struct vt_level:
    unsigned char opener       # `[`, `(` or `{`
    bint key_next              # a dict: the next value read is a key
    bint key_is_string
    bint has_item              # an item was read since the opener or the last comma
    bint is_tuple              # a `(` that met a comma: its `[` was put in at out_at
    bint is_set                # a `{` whose first item met a comma or its `}`: written as a list
    Py_ssize_t commas
    Py_ssize_t out_at          # where this container's JSON starts in out
    Py_ssize_t key_at          # where the current key's JSON starts in out


cdef inline unsigned char vt_closer(unsigned char opener) noexcept nogil:
    if opener == LBRACKET:
        return RBRACKET
    if opener == LPAREN:
        return RPAREN
    return RBRACE


cdef inline bint vt_items_are_values(vt_level* top) noexcept nogil:
    """Whether the next item read in `top` is a value (not a dict's value after its key)."""
    return top.opener != LBRACE or top.key_next or top.is_set


cdef int vt_hex_value(const unsigned char* p, Py_ssize_t n, Py_ssize_t i, int digits) noexcept nogil:
    """The value of exactly `digits` (<= 8) hex digits at p[i], or -1 (also above U+10FFFF)."""
    cdef unsigned int value = 0
    cdef int k, h
    if n - i < digits:
        return -1
    for k in range(digits):
        h = jp_hex(p[i + k])
        if h < 0:
            return -1
        value = value * 16 + <unsigned int>h
    if value > 0x10FFFF:
        return -1
    return <int>value


cdef int vt_string_form(const unsigned char* p, Py_ssize_t n, Py_ssize_t i, int flags, Py_ssize_t* prefix) noexcept nogil:
    """Whether a string literal starts at p[i]: its form (the LIT_ flags, with VT_RAW / VT_FORMAT
    for its prefix letters, whose count goes to prefix[0]), VT_BYTES for a bytes literal, or -1.
    Prefixes are read only as a call's argument (LIT_ARGUMENT)."""
    cdef int form = flags
    cdef Py_ssize_t k = i
    cdef unsigned char c
    cdef bint raw = False, fmt = False, uni = False, data = False
    while k < n and k - i < 3:
        c = p[k] | 0x20            # (ASCII letters' lower case; other bytes stop below)
        if p[k] == QUOTE or p[k] == APOSTROPHE:
            break
        if not (flags & LIT_ARGUMENT) or not (65 <= p[k] <= 90 or 97 <= p[k] <= 122):
            return -1
        if c == c'r' and not raw and not uni:
            raw = True
        elif c == c'f' and not fmt and not uni and not data:
            fmt = True
        elif c == c'b' and not data and not uni and not fmt:
            data = True
        elif c == c'u' and k == i:
            uni = True
        else:
            return -1
        k += 1
    if k >= n or not (p[k] == QUOTE or p[k] == APOSTROPHE):
        return -1
    prefix[0] = k - i
    if data:
        return VT_BYTES
    if raw:
        form |= VT_RAW
    if fmt:
        form |= VT_FORMAT
    return form


cdef Py_ssize_t vt_string_body(const unsigned char* p, Py_ssize_t n, Py_ssize_t i, int form, ByteBuf* out) except -2:
    """Reads the string literal whose quote is at p[i], written in `form` (vt_string_form),
    appending its JSON string body (no quotes); the offset after its closing quote, or -1 when it
    is none (unterminated, a raw line break but under LIT_SLIPS, a bad \\x \\u \\U escape, a
    surrogate, an f-string placeholder)."""
    cdef unsigned char quote = p[i], c
    cdef Py_ssize_t start
    cdef int cp, digits
    i += 1
    while True:
        start = i
        while i < n:
            c = p[i]
            if c == quote or c == BACKSLASH or c == LF or c == CR \
                    or ((form & VT_FORMAT) and (c == LBRACE or c == RBRACE)):
                break
            i += 1
        vt_string(p + start, i - start, out)
        if i >= n:
            return -1
        c = p[i]
        if c == quote:
            return i + 1
        if c == LF or c == CR:
            if not (form & LIT_SLIPS):
                return -1
            vt_string(p + i, 1, out)       # the line break is the string's text
            i += 1
            continue
        if c != BACKSLASH:
            # an f-string's brace: doubled it is the brace, alone it opens a placeholder
            if i + 1 < n and p[i + 1] == c:
                vt_string(p + i, 1, out)
                i += 2
                continue
            return -1
        i += 1                     # the backslash
        if i >= n:
            return -1
        c = p[i]
        if form & VT_RAW:
            # a raw string keeps the backslash and the byte after it, which ends nothing
            vt_string(p + i - 1, 2, out)
            i += 1
            continue
        i += 1
        cp = -1
        if c == c'n':
            cp = LF
        elif c == c't':
            cp = TAB
        elif c == c'r':
            cp = CR
        elif c == c'a':
            cp = BELL
        elif c == c'b':
            cp = BACKSPACE
        elif c == c'f':
            cp = FF
        elif c == c'v':
            cp = VTAB
        elif c == BACKSLASH or c == APOSTROPHE or c == QUOTE:
            cp = c
        elif c == LF:
            continue               # a line continuation: nothing
        elif c == CR:
            if i < n and p[i] == LF:
                i += 1
            continue
        elif DIGIT_0 <= c <= DIGIT_7:
            cp = c - DIGIT_0
            digits = 1
            while digits < 3 and i < n and DIGIT_0 <= p[i] <= DIGIT_7:
                cp = cp * 8 + (p[i] - DIGIT_0)
                i += 1
                digits += 1
        elif c == c'x' or c == c'u' or c == UPPER_U:
            digits = 2 if c == c'x' else (4 if c == c'u' else 8)
            cp = vt_hex_value(p, n, i, digits)
            if cp < 0 or 0xD800 <= cp <= 0xDFFF:
                return -1
            i += digits
        else:
            # An unknown escape keeps its backslash; the byte after it is read as text again.
            bb_append(out, <const unsigned char*>"\\\\", 2)
            i -= 1
            continue
        vt_code_point(out, <unsigned int>cp)


cdef Py_ssize_t vt_literal_string(const unsigned char* p, Py_ssize_t n, Py_ssize_t i, int form, Py_ssize_t prefix,
                                  int flags, ByteBuf* out) except -2:
    """Reads the string literal at p[i] (its prefix letters first, then its quote; `form` from
    vt_string_form), and as a call's argument the strings written right after it, which Python
    joins; appends the JSON string. The offset after the last closing quote, or -1."""
    bb_push(out, QUOTE)
    while True:
        i = vt_string_body(p, n, i + prefix, form, out)
        if i < 0 or not (flags & LIT_ARGUMENT):
            break
        form = vt_string_form(p, n, vt_skip_ascii_space(p, n, i), flags, &prefix)
        if form == VT_BYTES:
            return -1
        if form < 0:
            break
        i = vt_skip_ascii_space(p, n, i)
    if i < 0:
        return -1
    bb_push(out, QUOTE)
    return i


cdef bint vt_python_number(ByteBuf* out, Py_ssize_t at, int flags) except -1:
    """out[at:] holds a Python decimal number's digits, dot and exponent (no sign, no
    underscores); rewrites it as the JSON number of its value: the integer part without leading
    zeros (`0` when empty), a digit after a dot (`5.` is `5.0`), the exponent kept. True when
    done, False when it is no decimal number Python reads (a zero-padded integer is one under
    LIT_SLIPS)."""
    cdef const unsigned char* t = out.data + at
    cdef Py_ssize_t n = out.len - at, i = 0, int_start, int_end, frac_start = -1, frac_end = -1, exp_at
    cdef bint is_float
    cdef ByteBuf number
    while i < n and vt_is_digit(t[i]):
        i += 1
    int_end = i
    if i < n and t[i] == DOT:
        i += 1
        frac_start = i
        while i < n and vt_is_digit(t[i]):
            i += 1
        frac_end = i
    if int_end == 0 and frac_end - frac_start <= 0:
        return False               # no digit before or after the dot
    exp_at = i
    if i < n and (t[i] == LOWER_E or t[i] == UPPER_E):
        i += 1
        if i < n and (t[i] == PLUS or t[i] == MINUS):
            i += 1
        if i >= n or not vt_is_digit(t[i]):
            return False
        while i < n and vt_is_digit(t[i]):
            i += 1
    if i != n:
        return False
    is_float = frac_start >= 0 or exp_at < n
    int_start = 0
    while int_start < int_end - 1 and t[int_start] == DIGIT_0:
        int_start += 1
    if not is_float and int_start > 0 and t[int_start] != DIGIT_0 and not (flags & LIT_SLIPS):
        return False               # `07`: Python refuses leading zeros on a non-zero integer
    number.data = NULL
    number.len = 0
    number.cap = 0
    try:
        if int_end == 0:
            bb_push(&number, DIGIT_0)
        else:
            bb_append(&number, t + int_start, int_end - int_start)
        if frac_start >= 0:
            bb_push(&number, DOT)
            if frac_end > frac_start:
                bb_append(&number, t + frac_start, frac_end - frac_start)
            else:
                bb_push(&number, DIGIT_0)
        bb_append(&number, t + exp_at, n - exp_at)
        out.len = at
        bb_append(out, number.data, number.len)
    finally:
        bb_free(&number)
    return True


cdef Py_ssize_t vt_literal_number(const unsigned char* p, Py_ssize_t n, Py_ssize_t i, int flags,
                                  ByteBuf* out) except -2:
    """Reads a Python number at p[i] (`-`, as a call's argument also `+`, spaces, then a run of
    ASCII letters, digits, `.`, `_` and a sign right after `e`/`E`) and appends it without its
    underscores; the offset after it, or -1 when what is left is not a JSON number (as a call's
    argument: no number Python reads, vt_python_number)."""
    cdef Py_ssize_t mark = out.len, start, run, digits_at
    cdef unsigned char c
    if p[i] == MINUS or p[i] == PLUS:
        if p[i] == MINUS:
            bb_push(out, MINUS)
        i = vt_skip_ascii_space(p, n, i + 1)
    digits_at = out.len
    start = i
    run = i
    while i < n:
        c = p[i]
        if vt_is_alnum(c) or c == DOT:
            i += 1
        elif (c == PLUS or c == MINUS) and i > start and (p[i - 1] == LOWER_E or p[i - 1] == UPPER_E):
            i += 1
        elif c == UNDERSCORE:
            bb_append(out, p + run, i - run)
            i += 1
            run = i
        else:
            break
    bb_append(out, p + run, i - run)
    if i == start:
        return -1
    if vt_number_end(out.data, out.len, mark) != out.len \
            and (not (flags & LIT_ARGUMENT) or not vt_python_number(out, digits_at, flags)):
        return -1
    return i


cdef Py_ssize_t vt_literal_word(const unsigned char* p, Py_ssize_t n, Py_ssize_t i, ByteBuf* out) except -2:
    """Reads None/True/False (or JSON's null/true/false) at p[i], not followed by a letter, digit
    or `_`, appending its JSON; the offset after it, or -1."""
    cdef Py_ssize_t end = i
    while end < n and (vt_is_alnum(p[end]) or p[end] == UNDERSCORE):
        end += 1
    if vt_word_end(p, end, i, "None", 4) == end or vt_word_end(p, end, i, "null", 4) == end:
        bb_append(out, <const unsigned char*>"null", 4)
    elif vt_word_end(p, end, i, "True", 4) == end or vt_word_end(p, end, i, "true", 4) == end:
        bb_append(out, <const unsigned char*>"true", 4)
    elif vt_word_end(p, end, i, "False", 5) == end or vt_word_end(p, end, i, "false", 5) == end:
        bb_append(out, <const unsigned char*>"false", 5)
    else:
        return -1
    return end


cdef int vt_key_to_string(ByteBuf* out, Py_ssize_t at) except -1:
    """Turns the JSON written from out[at] (a dict key that is not a string) into the JSON
    string of that text."""
    cdef ByteBuf key
    key.data = NULL
    key.len = 0
    key.cap = 0
    try:
        bb_append(&key, out.data + at, out.len - at)
        out.len = at
        vt_quoted(key.data, key.len, out)
    finally:
        bb_free(&key)
    return 0


cdef int vt_open_tuple(ByteBuf* out, Py_ssize_t at) except -1:
    """Puts the `[` of a tuple in at out[at], before its first item."""
    bb_reserve(out, 1)
    memmove(out.data + at + 1, out.data + at, out.len - at)
    out.data[at] = LBRACKET
    out.len += 1
    return 0


cdef int vt_python_literal(const unsigned char* p, Py_ssize_t n, ByteBuf* out, int flags=LIT_VALUE) except -2:
    """Appends the JSON of the Python literal p[0:n] and returns 0; -1 when p[0:n] is not one
    whole literal (out may then hold a partial output: the caller resets its length). Lists and
    tuples are arrays, `(x)` is x, a dict key that is not a string is the string of its JSON;
    separators are `, ` and `: `; ASCII whitespace; at most VT_LITERAL_DEPTH levels. `flags`
    (LiteralSyntax) widens the syntax read."""
    cdef vt_level stack[VT_LITERAL_DEPTH]
    cdef vt_level* top = NULL
    cdef int depth = 0, form
    cdef Py_ssize_t i = 0, prefix = 0
    cdef bint want_value = True
    cdef unsigned char c
    while True:
        i = vt_skip_ascii_space(p, n, i)
        if want_value:
            if i >= n:
                return -1
            c = p[i]
            if top != NULL and c == vt_closer(top.opener) and vt_items_are_values(top):
                want_value = False         # an empty container, or a trailing comma: close below
            else:
                form = vt_string_form(p, n, i, flags, &prefix)
                if top != NULL and vt_items_are_values(top):
                    if top.commas:
                        bb_append(out, <const unsigned char*>", ", 2)
                    if top.opener == LBRACE and not top.is_set:
                        top.key_at = out.len
                        top.key_is_string = form >= 0
                if c == LBRACKET or c == LPAREN or c == LBRACE:
                    if depth == VT_LITERAL_DEPTH:
                        return -1
                    top = &stack[depth]
                    depth += 1
                    top.opener = c
                    top.key_next = c == LBRACE
                    top.key_is_string = False
                    top.has_item = False
                    top.is_tuple = False
                    top.is_set = False
                    top.commas = 0
                    top.out_at = out.len
                    top.key_at = out.len
                    if c != LPAREN:
                        bb_push(out, c)     # `(` writes nothing until a comma makes it a tuple
                    i += 1
                    continue
                if form >= 0:
                    i = vt_literal_string(p, n, i, form, prefix, flags, out)
                elif form == VT_BYTES:
                    return -1
                elif c == MINUS or vt_is_digit(c) or ((flags & LIT_ARGUMENT) and (c == PLUS or c == DOT)):
                    i = vt_literal_number(p, n, i, flags, out)
                elif vt_is_alnum(c):
                    i = vt_literal_word(p, n, i, out)
                else:
                    return -1
                if i < 0:
                    return -1
                if top != NULL:
                    top.has_item = True
                want_value = False
                continue
        # A value has just been read (or a container is closing at p[i]).
        if top == NULL:
            return 0 if i == n else -1
        if top.opener == LBRACE and top.key_next and top.has_item:
            if (flags & LIT_ARGUMENT) and top.commas == 0 and i < n and (p[i] == COMMA or p[i] == RBRACE):
                # a set: its first item met a comma or the `}`, so it is no dict's key
                out.data[top.out_at] = LBRACKET
                top.is_set = True
                top.key_next = False
            else:
                if i >= n or p[i] != COLON:
                    return -1
                if not top.key_is_string:
                    vt_key_to_string(out, top.key_at)
                bb_append(out, <const unsigned char*>": ", 2)
                top.key_next = False
                top.has_item = False
                want_value = True
                i += 1
                continue
        if i >= n:
            return -1
        c = p[i]
        if c == COMMA and top.has_item:
            top.commas += 1
            top.has_item = False
            if top.opener == LPAREN and not top.is_tuple:
                vt_open_tuple(out, top.out_at)
                top.is_tuple = True
            elif top.opener == LBRACE and not top.is_set:
                top.key_next = True
            want_value = True
            i += 1
            continue
        if c != vt_closer(top.opener):
            return -1
        if top.is_set:
            bb_push(out, RBRACKET)
        elif top.opener != LPAREN:
            bb_push(out, c)
        elif top.is_tuple:
            bb_push(out, RBRACKET)
        elif not top.has_item:
            bb_append(out, <const unsigned char*>"[]", 2)
        # else `(x)`: x alone
        depth -= 1
        top = &stack[depth - 1] if depth else NULL
        if top != NULL:
            top.has_item = True
        i += 1


# ---- One value's text to JSON

cdef inline bint vt_is_null_word(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """Whether p[0:n] is exactly one of NULL_WORDS."""
    return n == 4 and (memcmp(p, b"null", 4) == 0 or memcmp(p, b"None", 4) == 0)


cdef bint vt_integer(const unsigned char* p, Py_ssize_t n, ByteBuf* out) except -1:
    """Appends the integer p[0:n] spells (a sign, then ASCII digits) without its `+` and leading
    zeros, every digit kept, and returns True when it reads back; else False, out unchanged."""
    cdef Py_ssize_t i = 0, j, mark = out.len
    cdef bint negative = False
    if n and (p[0] == MINUS or p[0] == PLUS):
        negative = p[0] == MINUS
        i = 1
    if i == n:
        return False
    for j in range(i, n):
        if not vt_is_digit(p[j]):
            return False
    while i < n - 1 and p[i] == DIGIT_0:
        i += 1
    if negative:
        bb_push(out, MINUS)
    bb_append(out, p + i, n - i)
    if vt_reads_back(out.data + mark, out.len - mark):
        return True
    out.len = mark
    return False


cdef int vt_json(const unsigned char* p, Py_ssize_t n, int kind, ByteBuf* out,
                 int max_depth=VT_READ_DEPTH) except -1:
    """Appends the JSON of one value's text p[0:n] under `kind` (SPEC §5.2). The text is the
    value's own: the caller has removed the newline a template writes after the opening tag and
    the one before the closing tag, and nothing else. The result always reads back, and nests at
    most max_depth deep (a caller writing into a streamed arguments object passes what the prefix
    validator leaves it: deeper JSON is the string of its text)."""
    cdef Py_ssize_t start, end, mark = out.len
    if kind == KIND_STRING:
        return vt_quoted(p, n, out)
    if kind == KIND_NULLABLE_STRING:
        if vt_is_null_word(p, n):
            bb_append(out, <const unsigned char*>"null", 4)
            return 0
        return vt_quoted(p, n, out)
    start = vt_trim_start(p, n)
    end = vt_trim_end(p, start, n)
    if kind == KIND_INTEGER and vt_integer(p + start, end - start, out):
        return 0
    # Inference: the model's own JSON, byte for byte; else the literal's JSON; else the string.
    # A string where the schema declares a number or a container is read inside (below).
    if vt_reads_back(p + start, end - start, max_depth):
        bb_append(out, p + start, end - start)
    elif (vt_python_literal(p + start, end - start, out) == 0
            and vt_reads_back(out.data + mark, out.len - mark, max_depth)):
        pass
    else:
        out.len = mark
        if not vt_escaped_container(p + start, end - start, kind, out, max_depth):
            vt_quoted(p, n, out)
        return 0
    if out.data[mark] == QUOTE:
        vt_string_as_declared(out, mark, kind, max_depth)
    return 0


# ---- Values the model wrapped in a string, read where the schema says what is inside
#
# A model sometimes writes a number or a container as a string: `"5"` for a declared number,
# `"[1, 2]"` or `"{'key': 'value'}"` (a JSON string, or a Python one, around the value) or
# `[{\"id\": \"1\"}]` (the value's JSON escaped as a string's body, the quotes left off) for a
# declared array or object. Where the tool's schema declares a number, an integer, an array or an
# object, the text inside one string layer is read as that value's text would be: a number for
# a number or an integer (an integer as vt_integer reads it), an array or an object of the
# declared kind for a container. Anything else keeps what inference gave: a string stays a string
# where nothing is declared, and so does one whose inside is not the declared kind (never a guess).

cdef bint vt_inside_as_declared(const unsigned char* p, Py_ssize_t n, int kind, ByteBuf* out,
                                int max_depth) except -1:
    """Appends the JSON of p[0:n] (the text inside a string layer) when it is a value of the
    declared `kind`: a JSON number (an integer as vt_integer reads it) under a number or an
    integer, an array or object (JSON, or a Python literal) under an array or object; True then,
    else False with out unchanged."""
    cdef Py_ssize_t start = vt_trim_start(p, n), end, mark = out.len
    cdef unsigned char opener
    end = vt_trim_end(p, start, n)
    p += start
    n = end - start
    if n == 0:
        return False
    if kind == KIND_INTEGER or kind == KIND_NUMBER:
        if kind == KIND_INTEGER and vt_integer(p, n, out):
            return True
        if (p[0] == MINUS or vt_is_digit(p[0])) and vt_reads_back(p, n, max_depth):
            bb_append(out, p, n)
            return True
        return False
    opener = LBRACKET if kind == KIND_ARRAY else LBRACE
    if p[0] == opener and vt_reads_back(p, n, max_depth):
        bb_append(out, p, n)
        return True
    if (vt_python_literal(p, n, out) == 0 and out.len > mark and out.data[mark] == opener
            and vt_reads_back(out.data + mark, out.len - mark, max_depth)):
        return True
    out.len = mark
    return False


cdef bint vt_body_as_declared(const unsigned char* p, Py_ssize_t n, int kind, ByteBuf* out,
                              int max_depth) except -1:
    """When p[0:n] is the body of a JSON string (serde's escapes, no raw quote or control
    character) whose text is a value of the declared `kind` (vt_inside_as_declared), appends that
    value and returns True; else False, out unchanged. p may point into out: it is decoded whole
    before out grows."""
    cdef ByteBuf inside
    cdef bint found = False
    inside.data = NULL
    inside.len = 0
    inside.cap = 0
    try:
        if jt_decode_string(p, n, &inside) == 0:
            found = vt_inside_as_declared(inside.data, inside.len, kind, out, max_depth)
    finally:
        bb_free(&inside)
    return found


cdef int vt_string_as_declared(ByteBuf* out, Py_ssize_t at, int kind, int max_depth) except -1:
    """out[at:] is the JSON string inference gave a value: under a declared number, integer,
    array or object it becomes the value inside the string, when that is of the declared kind."""
    cdef Py_ssize_t end = out.len
    if kind != KIND_INTEGER and kind != KIND_NUMBER and kind != KIND_ARRAY and kind != KIND_OBJECT:
        return 0
    if vt_body_as_declared(out.data + at + 1, end - at - 2, kind, out, max_depth):
        memmove(out.data + at, out.data + end, out.len - end)
        out.len -= end - at
    return 0


cdef bint vt_escaped_container(const unsigned char* p, Py_ssize_t n, int kind, ByteBuf* out,
                               int max_depth) except -1:
    """Under a declared array or object, text that is neither JSON nor a Python literal but is the
    body of a JSON string holding a value of that kind (escaped JSON, the string's quotes left
    off): appends that value and returns True; else False, out unchanged. Text without a
    backslash is its own body, so only escaped text is read this way."""
    if (kind != KIND_ARRAY and kind != KIND_OBJECT) or n <= 0 or memchr(p, BACKSLASH, n) == NULL:
        return False
    return vt_body_as_declared(p, n, kind, out, max_depth)


# ---- Declared: the Kinds a request's tools declare

cdef object _VT_UNKNOWN_TYPE = object()     # a `type` entry that is not a string


cdef object vt_admitted(object schema):
    """The set of type names `schema` admits (SPEC §5.1): its `type`, the admitted types of its
    anyOf/oneOf members, and, without a `type`, `string` (and `null`) for an enum of strings.
    None when the members nest deeper than VT_SCHEMA_DEPTH or form a cycle: such a schema
    declares nothing. A non-dict admits nothing. Never raises on the schema's shape.

    A walk with an explicit stack. A dict shared by several members is read again only where it
    sits deeper than where it was read before (that is where it could be too deep), so the walk
    stays linear in the schema's size times the depth limit."""
    cdef set admitted = set()
    cdef set open_ids = set()     # the dicts on the path being walked (a cycle comes back to one)
    cdef dict read_at = {}        # id of a dict read whole -> the deepest level it was read at
    cdef list work = [(schema, 0, False)]
    cdef int depth
    cdef bint leaving, has_string, only_strings
    while work:
        node, depth, leaving = work.pop()
        if leaving:
            open_ids.discard(id(node))
            read_at[id(node)] = depth
            continue
        if not isinstance(node, dict):
            continue
        if id(node) in open_ids or depth > VT_SCHEMA_DEPTH:
            return None
        if read_at.get(id(node), -1) >= depth:
            continue
        open_ids.add(id(node))
        work.append((node, depth, True))
        if dict.__contains__(node, "type"):
            declared = dict.get(node, "type")
            if isinstance(declared, str):
                admitted.add(declared)
            elif isinstance(declared, (list, tuple)):
                for name in declared:
                    admitted.add(name if isinstance(name, str) else _VT_UNKNOWN_TYPE)
            else:
                admitted.add(_VT_UNKNOWN_TYPE)
        else:
            values = dict.get(node, "enum")
            if isinstance(values, (list, tuple)):
                has_string = False
                only_strings = True
                for value in values:
                    if isinstance(value, str):
                        has_string = True
                    elif value is not None:
                        only_strings = False
                        break
                if has_string and only_strings:
                    admitted.add("string")
                    if None in values:
                        admitted.add("null")
        for members in (dict.get(node, "oneOf"), dict.get(node, "anyOf")):   # anyOf is read first
            if isinstance(members, (list, tuple)):
                for member in reversed(members):
                    work.append((member, depth + 1, False))
    return admitted


# (codes as plain ints: a Kind member here would cost an enum conversion per lookup)
cdef dict _VT_TYPE_KINDS = {"string": <int>KIND_STRING, "integer": <int>KIND_INTEGER,
                            "number": <int>KIND_NUMBER, "array": <int>KIND_ARRAY, "object": <int>KIND_OBJECT}


cdef int vt_kind_of(object schema) except -1:
    """The Kind a parameter's schema declares (SPEC §5.1)."""
    if not isinstance(schema, dict):
        return KIND_NONE             # (a non-dict admits nothing)
    type_name = (<dict>schema).get("type")
    if isinstance(type_name, str) and "anyOf" not in <dict>schema and "oneOf" not in <dict>schema:
        # one type name and no members: most schemas (no walk needed)
        found = _VT_TYPE_KINDS.get(type_name)
        return KIND_NONE if found is None else <int>found
    admitted = vt_admitted(schema)
    if admitted is None:
        return KIND_NONE
    if "string" in admitted:
        return KIND_NULLABLE_STRING if "null" in admitted else KIND_STRING
    if len(admitted) == 1:
        if "integer" in admitted:
            return KIND_INTEGER
        if "number" in admitted:
            return KIND_NUMBER
        if "array" in admitted:
            return KIND_ARRAY
        if "object" in admitted:
            return KIND_OBJECT
    if len(admitted) == 2 and "integer" in admitted and "number" in admitted:
        return KIND_NUMBER           # (an integer is a number)
    return KIND_NONE


cdef object vt_member_search(object schema, str key, object segment):
    """Where a path step from `schema` lands: its `items` (segment None) or its
    `properties[segment]`, found in the schema itself or, outermost first, in its anyOf then
    oneOf members; a dict, or None when there is none. `$ref` is not followed."""
    cdef list level, below
    cdef set seen
    cdef int depth = 0
    if isinstance(schema, dict):      # found in the schema itself (most steps): no walk
        found = (<dict>schema).get(key)
        if segment is not None:
            found = (<dict>found).get(segment) if isinstance(found, dict) else None
        if isinstance(found, dict):
            return found
    level, seen = [schema], set()
    while level and depth <= VT_SCHEMA_DEPTH:
        below = []
        for node in level:
            if not isinstance(node, dict) or id(node) in seen:
                continue
            seen.add(id(node))
            found = dict.get(node, key)
            if segment is not None:
                found = dict.get(found, segment) if isinstance(found, dict) else None
            if isinstance(found, dict):
                return found
            for members in (dict.get(node, "anyOf"), dict.get(node, "oneOf")):
                if isinstance(members, (list, tuple)):
                    below.extend(members)
        level = below
        depth += 1
    return None


cdef object vt_schema_step(object schema, str segment):
    """One step of a path below a schema (SPEC §5.1 kind_at): under a schema that admits `array`
    to its `items`, whatever the segment; else to `properties[segment]`. None: nowhere."""
    cdef bint array
    type_name = (<dict>schema).get("type") if isinstance(schema, dict) else None
    if isinstance(type_name, str) and "anyOf" not in <dict>schema and "oneOf" not in <dict>schema:
        array = type_name == "array"           # one type name and no members (as vt_kind_of)
    else:
        admitted = vt_admitted(schema)
        array = admitted is not None and "array" in admitted
    if array:
        return vt_member_search(schema, "items", None)
    return vt_member_search(schema, "properties", segment)


cdef object vt_tool_function(object tool):
    """A tool's function dict (`tool["function"]`, or the tool itself when it has none), or None
    when either is no dict."""
    if not isinstance(tool, dict):
        return None
    function = dict.get(tool, "function", tool)
    return function if isinstance(function, dict) else None


# where a tool's function gives its parameters schema, in the order they are looked for: OpenAI's,
# Anthropic's, MCP's (symphony.grammar reads tools by the same keys)
TOOL_SCHEMA_KEYS = ("parameters", "input_schema", "inputSchema")


cdef object vt_tool_parameters(dict function):
    """A function's parameters schema: the first of TOOL_SCHEMA_KEYS present and not None."""
    for key in TOOL_SCHEMA_KEYS:
        schema = dict.get(function, key)
        if schema is not None:
            return schema
    return None


cdef inline bytes vt_name_bytes(str name):
    """The UTF-8 of a declared or looked-up name (a lone surrogate kept, so it matches nothing
    the model writes)."""
    return name.encode("utf-8", "surrogatepass")


cdef object vt_kind_object(int kind):
    """A Kind code as symphony.value.Kind (None for KIND_NONE), the names the Python API uses."""
    from symphony.value import Kind as PublicKind     # (imported here: symphony.value imports us)
    return None if kind == KIND_NONE else PublicKind(kind)


cdef object vt_utf8_owner(str name, const char** utf8, Py_ssize_t* n):
    """What holds a declared name's UTF-8 (utf8[0:n]): the str itself, or for a name with a lone
    surrogate its surrogatepass bytes, which nothing the model writes can match."""
    utf8[0] = PyUnicode_UTF8_cached(name, n)
    if utf8[0] != NULL:
        return name
    PyErr_Clear()
    cdef bytes raw = vt_name_bytes(name)
    utf8[0] = <const char*>raw
    n[0] = len(raw)
    return raw


cdef inline Py_ssize_t vt_name_index(const char** names, const Py_ssize_t* lens, Py_ssize_t count,
                                     const unsigned char* name, Py_ssize_t n) noexcept:
    """The first of `count` UTF-8 names that is name[0:n], or -1."""
    cdef Py_ssize_t i
    for i in range(count):
        if lens[i] == n and memcmp(names[i], name, n) == 0:
            return i
    return -1


cdef enum:
    FK_SMALL = 32       # a schema of at most this many properties is read into C arrays


@cython.final
@cython.internal
cdef class FunctionKinds:
    """One declared function: its parameters schema, and the Kind of each parameter looked up so
    far (read from the schema the first time a call names it). A schema of few properties keeps
    their names' UTF-8 in C arrays, compared where they are (a lookup makes no object); a larger
    one is looked up by name in a dict."""
    cdef object parameters
    cdef object properties       # parameters["properties"] when it is a dict, else None
    cdef Py_ssize_t count        # the properties in the arrays below, or -1: too many (the dict)
    cdef const char* name_at[FK_SMALL]
    cdef Py_ssize_t name_len[FK_SMALL]
    cdef int kind_of[FK_SMALL]   # each one's Kind code, -1 until a call writes it
    cdef list held               # each one's name (the owner of the UTF-8)
    cdef list schemas            # and its schema
    cdef dict kinds              # (more properties) UTF-8 of a parameter name -> its Kind code

    @staticmethod
    cdef FunctionKinds of(object parameters):
        """The function whose parameters schema is `parameters` (made without an argument tuple)."""
        cdef FunctionKinds function = FunctionKinds.__new__(FunctionKinds)
        function.parameters = parameters
        if isinstance(parameters, dict):
            properties = dict.get(parameters, "properties")
            if isinstance(properties, dict):
                function.properties = properties
                if len(<dict>properties) <= FK_SMALL:
                    function.read_small(<dict>properties)
                else:
                    function.count = -1
                    function.kinds = {}
        return function

    cdef int read_small(self, dict properties) except -1:
        cdef const char* utf8
        cdef Py_ssize_t n
        self.held = []
        self.schemas = []
        for name, schema in properties.items():
            if not isinstance(name, str):
                continue                # (no text the model writes is such a key)
            self.held.append(vt_utf8_owner(name, &utf8, &n))
            self.schemas.append(schema)
            self.name_at[self.count] = utf8
            self.name_len[self.count] = n
            self.kind_of[self.count] = -1
            self.count += 1
        return 0

    cdef int kind(self, const unsigned char* key, Py_ssize_t n) except -1:
        """The Kind declared for parameter p[0:n] (KIND_NONE when none is)."""
        cdef Py_ssize_t i
        if self.count >= 0:
            i = vt_name_index(self.name_at, self.name_len, self.count, key, n)
            if i < 0:
                return KIND_NONE
            if self.kind_of[i] < 0:
                self.kind_of[i] = vt_kind_of(self.schemas[i])
            return self.kind_of[i]
        cdef bytes name = PyBytes_FromStringAndSize(<const char*>key, n)
        found = self.kinds.get(name)
        if found is not None:
            return <int>found
        kind = vt_kind_of(dict.get(self.properties, PyUnicode_DecodeUTF8(<const char*>key, n, "surrogatepass")))
        self.kinds[name] = kind
        return kind


    cdef bint declares(self, const unsigned char* key, Py_ssize_t n) except -1:
        """Whether the schema's properties name the parameter p[0:n]."""
        if self.count >= 0:
            return vt_name_index(self.name_at, self.name_len, self.count, key, n) >= 0
        return PyUnicode_DecodeUTF8(<const char*>key, n, "surrogatepass") in self.properties


cdef inline object vt_tool_list(object tools):
    """The tools as a Declared reads them: a list or tuple as given, anything else as none."""
    return tools if isinstance(tools, (list, tuple)) else ()


@cython.final
cdef class Declared:
    """The parameter Kinds a request's tools declare, by function name (SPEC §5.1), from
    OpenAI-style tools (`{"type": "function", "function": {"name", "parameters"}}`, or the inner
    `{"name", "parameters"}` itself, as the Responses API writes it), Anthropic's
    `{"name", "input_schema"}` or MCP's `{"name", "inputSchema"}`; the first tool of a name wins;
    anything malformed is skipped and never raises. Read lazily: the tools' names when a call
    first names a function (each name's UTF-8 kept in a C array, compared where it is: a call's
    lookup makes no object), a function's parameters when a call first names it, a parameter's
    Kind when a call first writes it, so a parse pays only for what its calls use."""
    cdef object tools            # the tools as given (a list or tuple), or ()
    cdef bint compiled           # the names below are read
    cdef Py_ssize_t count
    cdef const char** name_at    # count UTF-8 names, in the tools' order (pointing into `held`)
    cdef Py_ssize_t* name_len
    cdef list held               # per name: its UTF-8 owner (the str, or its surrogatepass bytes)
    cdef list functions          # per name: its function dict
    cdef list kinds              # per name: its FunctionKinds once a call named it, else None

    def __cinit__(self, tools=None):
        self.tools = vt_tool_list(tools)
        self.name_at = NULL
        self.name_len = NULL

    @staticmethod
    cdef Declared of(object tools):
        """Declared(tools), made without an argument tuple (one per parser that opens a call)."""
        cdef Declared declared = Declared.__new__(Declared)
        declared.tools = vt_tool_list(tools)
        return declared

    def __dealloc__(self):
        free(self.name_at)
        free(self.name_len)

    cdef int compile(self) except -1:
        """Reads every tool's name (a tool without a str name is skipped). The arrays are filled
        aside and put in place last, in C: Python code the reading may run (a tools list's own
        __iter__, a name's own encode) cannot see, or free, half-made arrays."""
        cdef tuple tools = tuple(self.tools)
        cdef Py_ssize_t size = max(1, len(tools)), count = 0
        cdef const char** name_at = <const char**>malloc(size * sizeof(const char*))
        cdef Py_ssize_t* name_len = <Py_ssize_t*>malloc(size * sizeof(Py_ssize_t))
        cdef list held = [], functions = []
        try:
            if name_at == NULL or name_len == NULL:
                raise MemoryError()
            for tool in tools:
                function = vt_tool_function(tool)
                if function is None:
                    continue
                name = dict.get(function, "name")
                if not isinstance(name, str):
                    continue
                held.append(vt_utf8_owner(name, &name_at[count], &name_len[count]))
                functions.append(function)
                count += 1
        except BaseException:
            free(name_at)
            free(name_len)
            raise
        free(self.name_at)
        free(self.name_len)
        self.name_at = name_at
        self.name_len = name_len
        self.held = held
        self.functions = functions
        self.kinds = [None] * count
        self.count = count
        self.compiled = True
        return 0

    cdef Py_ssize_t find(self, const unsigned char* name, Py_ssize_t n) except -2:
        """The index of the first tool named name[0:n], or -1."""
        if not self.compiled:
            self.compile()
        return vt_name_index(self.name_at, self.name_len, self.count, name, n)

    cdef bint only_name(self, const unsigned char** name, Py_ssize_t* n) except -1:
        """Whether the request declares exactly one function (however many tools carry its
        name); if so, name[0][0:n[0]] is its name's UTF-8."""
        cdef Py_ssize_t i
        if not self.compiled:
            self.compile()
        if self.count == 0:
            return False
        for i in range(1, self.count):
            if self.name_len[i] != self.name_len[0] or memcmp(self.name_at[i], self.name_at[0], self.name_len[0]):
                return False
        name[0] = <const unsigned char*>self.name_at[0]
        n[0] = self.name_len[0]
        return True

    cdef FunctionKinds function(self, const unsigned char* name, Py_ssize_t n):
        """The declared function named p[0:n], or None (its values are then all inferred)."""
        cdef Py_ssize_t i = self.find(name, n)
        if i < 0:
            return None
        kinds = self.kinds[i]
        if kinds is None:
            kinds = FunctionKinds.of(vt_tool_parameters(self.functions[i]))
            self.kinds[i] = kinds
        return kinds

    cdef FunctionKinds lookup(self, bytes name):
        return self.function(<const unsigned char*>(<char*>name), len(name))

    def kind(self, str function not None, str param not None):
        """The Kind declared for `param` of `function`, or None when none is."""
        cdef bytes key = vt_name_bytes(param)
        found = self.lookup(vt_name_bytes(function))
        if found is None:
            return None
        return vt_kind_object((<FunctionKinds>found).kind(<const unsigned char*>(<char*>key), len(key)))

    def kind_at(self, str function not None, path):
        """The Kind declared at a path of keys below `function`'s parameters (SPEC §5.1): under a
        schema that admits `array` a step goes to `items` whatever its key, else to
        `properties[key]`. None when nothing is declared there or the path leads nowhere; the
        empty path gives the parameters schema's own Kind."""
        found = self.lookup(vt_name_bytes(function))
        if found is None:
            return None
        schema = (<FunctionKinds>found).parameters
        for segment in path:
            if not isinstance(segment, str):
                raise TypeError(f"a path holds str keys, not {type(segment).__name__}")
            schema = vt_schema_step(schema, segment)
            if schema is None:
                return None
        return vt_kind_object(vt_kind_of(schema))

    def kind_code(self, bytes function not None, bytes param not None):
        """The C-level lookup the call assemblers make, on the UTF-8 of the names: the Kind's
        code, KIND_NONE (0) for an undeclared function or parameter."""
        found = self.function(<const unsigned char*>(<char*>function), len(function))
        if found is None:
            return KIND_NONE
        return (<FunctionKinds>found).kind(<const unsigned char*>(<char*>param), len(param))

    cdef dict names(self):
        """Every declared name's UTF-8, the first function of each."""
        cdef dict first = {}
        cdef Py_ssize_t i
        if not self.compiled:
            self.compile()
        for i in range(self.count):
            key = PyBytes_FromStringAndSize(self.name_at[i], self.name_len[i])
            if key not in first:
                first[key] = self.functions[i]
        return first

    def __contains__(self, function):
        return isinstance(function, str) and vt_name_bytes(function) in self.names()

    def __len__(self):
        return len(self.names())

    def __repr__(self):
        names = [name.decode("utf-8", "surrogatepass") for name in self.names()]
        return f"Declared({names!r})"


# ---- Python views, for tests and tools

cdef inline const unsigned char* vt_utf8(str text, Py_ssize_t* n) except NULL:
    return <const unsigned char*>PyUnicode_AsUTF8AndSize(text, n)


cdef inline str vt_decoded(ByteBuf* out):
    return PyUnicode_DecodeUTF8(<const char*>out.data, out.len, NULL)


def value_json(str text not None, kind=None):
    """The JSON of one value's text under `kind` (a Kind, or None: inferred)."""
    cdef Py_ssize_t n
    cdef const unsigned char* p = vt_utf8(text, &n)
    cdef int k = KIND_NONE if kind is None else int(kind)
    cdef ByteBuf out
    if k < 0 or k > <int>KIND_NUMBER:       # (a chained comparison would read k as the unsigned enum)
        raise ValueError(f"not a Kind: {kind!r}")
    out.data = NULL
    out.len = 0
    out.cap = 0
    try:
        vt_json(p, n, k, &out)
        return vt_decoded(&out)
    finally:
        bb_free(&out)


def python_literal(str text not None, int syntax=LIT_VALUE):
    """The JSON of the Python literal `text` spells (in the LiteralSyntax `syntax`), or None when
    it is not one whole literal (whether the JSON reads back is not checked here)."""
    cdef Py_ssize_t n
    cdef const unsigned char* p = vt_utf8(text, &n)
    cdef ByteBuf out
    out.data = NULL
    out.len = 0
    out.cap = 0
    try:
        if vt_python_literal(p, n, &out, syntax) != 0:
            return None
        return vt_decoded(&out)
    finally:
        bb_free(&out)


def reads_back(str text not None):
    """Whether `text` is one JSON value serde_json reads back from inside the arguments object."""
    cdef Py_ssize_t n
    cdef const unsigned char* p = vt_utf8(text, &n)
    return vt_reads_back(p, n)


def json_string_body(text):
    """The JSON string body (no quotes) of `text`, escaped as serde_json does: str for a str,
    bytes for bytes (any bytes: escaping is per byte)."""
    cdef Py_ssize_t n
    cdef const unsigned char* p
    cdef bytes raw
    cdef ByteBuf out
    if isinstance(text, str):
        p = vt_utf8(text, &n)
    else:
        raw = bytes(text)
        p = <const unsigned char*>(<char*>raw)
        n = len(raw)
    out.data = NULL
    out.len = 0
    out.cap = 0
    try:
        vt_string(p, n, &out)
        if isinstance(text, str):
            return vt_decoded(&out)
        return PyBytes_FromStringAndSize(<const char*>out.data, out.len)
    finally:
        bb_free(&out)
