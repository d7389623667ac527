# Strict JSON string reading (serde_json's rules): the escapes JSON allows, \u escapes with
# surrogates in pairs, no raw control characters. Used where a value must decode, not just parse
# leniently: a call's name, a member's key.

cdef inline int jt_put_utf8(ByteBuf* out, unsigned int cp) except -1:
    cdef unsigned char b[4]
    if cp < 0x80:
        bb_push(out, <unsigned char>cp)
    elif cp < 0x800:
        b[0] = 0xC0 | (cp >> 6)
        b[1] = 0x80 | (cp & 0x3F)
        bb_append(out, b, 2)
    elif cp < 0x10000:
        b[0] = 0xE0 | (cp >> 12)
        b[1] = 0x80 | ((cp >> 6) & 0x3F)
        b[2] = 0x80 | (cp & 0x3F)
        bb_append(out, b, 3)
    else:
        b[0] = 0xF0 | (cp >> 18)
        b[1] = 0x80 | ((cp >> 12) & 0x3F)
        b[2] = 0x80 | ((cp >> 6) & 0x3F)
        b[3] = 0x80 | (cp & 0x3F)
        bb_append(out, b, 4)
    return 0


cdef inline int jt_hex4(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """The value of 4 hex digits at p, or -1."""
    cdef int v = 0, i, h
    if n < 4:
        return -1
    for i in range(4):
        h = jp_hex(p[i])
        if h < 0:
            return -1
        v = v * 16 + h
    return v


cdef int jt_decode_string(const unsigned char* p, Py_ssize_t n, ByteBuf* out) except -2:
    """Decodes the body of a JSON string (the bytes between its quotes) into out as UTF-8.
    0 when it is valid JSON, -1 when it is not (out then holds a partial decoding)."""
    cdef Py_ssize_t i = 0, start
    cdef int cp, low
    cdef unsigned char c
    while i < n:
        start = i
        while i < n and p[i] != 92 and p[i] >= 0x20 and p[i] != 34:
            i += 1
        bb_append(out, p + start, i - start)
        if i == n:
            return 0
        c = p[i]
        if c != 92:
            return -1            # a raw control character or an unescaped quote
        if i + 1 >= n:
            return -1
        c = p[i + 1]
        i += 2
        if c == 34 or c == 92 or c == 47:
            bb_push(out, c)
        elif c == 98:
            bb_push(out, 8)
        elif c == 102:
            bb_push(out, 12)
        elif c == 110:
            bb_push(out, 10)
        elif c == 114:
            bb_push(out, 13)
        elif c == 116:
            bb_push(out, 9)
        elif c == 117:
            cp = jt_hex4(p + i, n - i)
            if cp < 0:
                return -1
            i += 4
            if 0xDC00 <= cp <= 0xDFFF:
                return -1
            if 0xD800 <= cp <= 0xDBFF:
                if i + 6 > n or p[i] != 92 or p[i + 1] != 117:
                    return -1
                low = jt_hex4(p + i + 2, n - i - 2)
                if low < 0xDC00 or low > 0xDFFF:
                    return -1
                i += 6
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
            jt_put_utf8(out, cp)
        else:
            return -1
    return 0


cdef Py_ssize_t jt_next_key(const unsigned char* p, Py_ssize_t n, Py_ssize_t at, Py_ssize_t* key_end) noexcept:
    """The next of the own keys (not a nested value's) of p[0:n], one whole strict JSON object, from
    `at` on (0 for the first, then one past the last key's closing quote): the offset of the key's
    first byte after its quote, its closing quote's offset in key_end[0]; -1 when none is left."""
    cdef int depth = 1 if at else 0
    cdef bint key_next = False
    cdef Py_ssize_t i = at, j
    cdef unsigned char c
    while i < n:
        c = p[i]
        if c == QUOTE:
            j = i + 1
            while j < n and p[j] != QUOTE:
                j += 2 if p[j] == BACKSLASH else 1
            if depth == 1 and key_next:
                key_end[0] = j
                return i + 1
            i = j + 1
            continue
        if c == LBRACE or c == LBRACKET:
            depth += 1
            key_next = depth == 1
        elif c == RBRACE or c == RBRACKET:
            depth -= 1
        elif c == COMMA and depth == 1:
            key_next = True
        i += 1
    return -1
