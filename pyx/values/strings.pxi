# The JSON text value typing writes and reads (SPEC §5.2): JSON string bodies escaped as
# serde_json writes them, the whitespace classes, and "reads back": whether a text is strict JSON
# that serde_json reads into a value inside the arguments object (the adapters' reader).

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


cdef void vt_trim_ascii_space(ByteBuf* text) noexcept nogil:
    """Takes the leading and trailing ASCII whitespace (vt_is_ascii_space) off `text`, in place."""
    cdef Py_ssize_t start = 0, end = text.len
    while start < end and vt_is_ascii_space(text.data[start]):
        start += 1
    while end > start and vt_is_ascii_space(text.data[end - 1]):
        end -= 1
    if start:
        memmove(text.data, text.data + start, end - start)
    text.len = end - start


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
