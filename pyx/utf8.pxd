# Header-only: UTF-8 character helpers, well-formedness, and the whitespace classes of SPEC §10.
from libc.stdint cimport uint64_t
from libc.string cimport memcpy


cdef inline Py_ssize_t u8_char_len(unsigned char lead) noexcept nogil:
    """Byte length of the character a lead byte starts (1 for a stray continuation byte)."""
    if lead < 0x80:
        return 1
    if lead >= 0xF0:
        return 4
    if lead >= 0xE0:
        return 3
    if lead >= 0xC0:
        return 2
    return 1


cdef inline bint u8_is_boundary(const unsigned char* p, Py_ssize_t n, Py_ssize_t at) noexcept nogil:
    """Whether byte offset `at` of p[0:n] falls on a character boundary."""
    if at <= 0 or at >= n:
        return at == 0 or at == n
    return (p[at] & 0xC0) != 0x80


cdef inline bint u8_ascii_space(unsigned char b) noexcept nogil:
    """Whether an ASCII byte is White_Space (tab to carriage return, space): small enough for the
    compiler to inline anywhere, where u8_space_len may not be."""
    return b == 0x20 or (0x09 <= b <= 0x0D)


cdef inline Py_ssize_t u8_ascii_space_end(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """Where p[0:n] ends less the ASCII whitespace (u8_ascii_space) it ends with."""
    while n > 0 and u8_ascii_space(p[n - 1]):
        n -= 1
    return n


cdef inline Py_ssize_t u8_space_len(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """Length of the Unicode White_Space character (Rust char::is_whitespace) at p, or 0.

    0 also when the character is cut off by the end of the buffer. Hot loops test an ASCII byte
    with u8_ascii_space first.
    """
    cdef unsigned char b
    if n <= 0:
        return 0
    b = p[0]
    if b < 0x80:
        return u8_ascii_space(b)
    if b == 0xC2:
        # U+0085, U+00A0
        return 2 if n >= 2 and (p[1] == 0x85 or p[1] == 0xA0) else 0
    if b == 0xE1:
        # U+1680
        return 3 if n >= 3 and p[1] == 0x9A and p[2] == 0x80 else 0
    if b == 0xE2:
        if n < 3:
            return 0
        if p[1] == 0x80:
            # U+2000..U+200A, U+2028, U+2029, U+202F
            if (0x80 <= p[2] <= 0x8A) or p[2] == 0xA8 or p[2] == 0xA9 or p[2] == 0xAF:
                return 3
            return 0
        # U+205F
        return 3 if p[1] == 0x81 and p[2] == 0x9F else 0
    if b == 0xE3:
        # U+3000
        return 3 if n >= 3 and p[1] == 0x80 and p[2] == 0x80 else 0
    return 0


cdef inline Py_ssize_t u8_space_run(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """The length of the Unicode White_Space that p[0:n] starts with."""
    cdef Py_ssize_t at = 0, w
    while at < n:
        w = u8_space_len(p + at, n - at)
        if w == 0:
            break
        at += w
    return at


cdef inline Py_ssize_t u8_text_run(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """The length of the run of characters other than Unicode White_Space that p[0:n] starts
    with (at most n: a character cut off at the end counts as far as it goes)."""
    cdef Py_ssize_t at = 0
    while at < n and u8_space_len(p + at, n - at) == 0:
        at += u8_char_len(p[at])
    return at if at < n else n


cdef inline bint u8_all_space(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """Whether p[0:n] is nothing but Unicode White_Space (True when empty): Python's
    symphony.text.is_blank."""
    return u8_space_run(p, n) == n


cdef inline Py_ssize_t u8_invalid_at(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """Offset of the first character of p[0:n] that is not well-formed UTF-8 (Unicode's Table
    3-7: no overlong form, no surrogate, nothing past U+10FFFF, nothing cut off), or -1 when all
    of it is. ASCII is passed over eight bytes at a time."""
    cdef Py_ssize_t i = 0, k, width
    cdef uint64_t word
    cdef unsigned char b, lo, hi
    while i < n:
        if i + 8 <= n:
            memcpy(&word, p + i, 8)
            if (word & 0x8080808080808080ULL) == 0:
                i += 8
                continue
        b = p[i]
        if b < 0x80:
            i += 1
            continue
        if b < 0xC2 or b > 0xF4:
            return i
        width = 2 if b < 0xE0 else (3 if b < 0xF0 else 4)
        if i + width > n:
            return i
        lo, hi = 0x80, 0xBF            # the second byte's range, narrower after four leads
        if b == 0xE0:
            lo = 0xA0
        elif b == 0xED:
            hi = 0x9F
        elif b == 0xF0:
            lo = 0x90
        elif b == 0xF4:
            hi = 0x8F
        if not lo <= p[i + 1] <= hi:
            return i
        for k in range(2, width):
            if (p[i + k] & 0xC0) != 0x80:
                return i
        i += width
    return -1
