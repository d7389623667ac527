# The Python-literal reader (SPEC §5.2, §5.9): the JSON of the Python literal a text spells
# (True, None, ('a', 1), ...). Which syntax it takes is a flag set (LiteralSyntax): VALUE, value
# typing's fallback, or ARGUMENT, a pythonic call's argument as Python reads it.

# ---- The Python-literal reader

cpdef enum LiteralSyntax:
    # Which Python-literal syntax the reader takes (flags; symphony.value.LiteralSyntax names them).
    LIT_VALUE = 0          # value typing's fallback: literals as written in a value's text
    LIT_ARGUMENT = 1       # a pythonic call's argument as Python reads it: also sets (as lists), the
                           # r, u and f prefixes (an f-string without placeholders), adjacent strings
                           # joined, signs as Python applies them (`+7`, `--1`, `-(1)`) and Python's own
                           # number forms (`.5`, `5.`, `007.5`, `00`, `0x1F`, `0o17`, `0b_101`)
    LIT_SLIPS = 2          # also what a model writes that Python refuses: a raw line break in a
                           # string, a zero-padded integer (`07`)

cdef enum:
    VT_MOST_DIGITS = 4300  # the longest integer Python writes in decimal (sys.int_max_str_digits)
    VT_LIMB = 1000000000   # a based integer's decimal is worked out in limbs of nine digits
    VT_MOST_LIMBS = 478    # limbs enough for VT_MOST_DIGITS
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
    unsigned char sign         # a `(` signs stood before (PLUS or MINUS, what they come to), or 0: its
                               # one item is a number, negated by MINUS
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
    surrogate, an f-string placeholder). As a call's argument (LIT_ARGUMENT) a string may be
    triple-quoted (three quotes of either kind open it): its line breaks and lone quotes are its
    text, and three quotes close it."""
    cdef unsigned char quote = p[i], c
    cdef Py_ssize_t start
    cdef int cp, digits
    cdef bint triple = (form & LIT_ARGUMENT) != 0 and i + 2 < n and p[i + 1] == quote and p[i + 2] == quote
    i += 3 if triple else 1
    while True:
        start = i
        while i < n:
            c = p[i]
            if c == quote or c == BACKSLASH or ((c == LF or c == CR) and not triple) \
                    or ((form & VT_FORMAT) and (c == LBRACE or c == RBRACE)):
                break
            i += 1
        vt_string(p + start, i - start, out)
        if i >= n:
            return -1
        c = p[i]
        if c == quote:
            if not triple:
                return i + 1
            if i + 2 < n and p[i + 1] == quote and p[i + 2] == quote:
                return i + 3
            vt_string(p + i, 1, out)       # a lone quote in a triple-quoted string is its text
            i += 1
            continue
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


cdef int vt_digit_value(unsigned char c) noexcept nogil:
    """The value of c as a digit (0-9, then a-f and A-F as 10-15), or 99."""
    if vt_is_digit(c):
        return c - DIGIT_0
    c |= 0x20
    if c'a' <= c <= c'f':
        return c - c'a' + 10
    return 99


cdef int vt_number_base(const unsigned char* t, Py_ssize_t n) noexcept nogil:
    """The base a number's text t[0:n] is written in: 16, 8 or 2 after its prefix (`0x`, `0o`,
    `0b`, either case), else 10."""
    cdef unsigned char c
    if n < 2 or t[0] != DIGIT_0:
        return 10
    c = t[1] | 0x20
    return 16 if c == c'x' else 8 if c == c'o' else 2 if c == c'b' else 10


cdef bint vt_based_underscores_placed(const unsigned char* t, Py_ssize_t n, int base) noexcept nogil:
    """Whether each `_` of a based integer's text t[0:n] (`0x_ff`, its prefix first) stands where
    Python reads one: before a digit of its base, and after one or right after the prefix (not
    `0x__f`, `0xf_`)."""
    cdef Py_ssize_t k
    for k in range(2, n):
        if t[k] == UNDERSCORE and (k + 1 >= n or vt_digit_value(t[k + 1]) >= base
                                   or (k > 2 and vt_digit_value(t[k - 1]) >= base)):
            return False
    return True


cdef Py_ssize_t vt_signs(const unsigned char* p, Py_ssize_t n, Py_ssize_t i, int flags, bint* negative) noexcept nogil:
    """Reads the signs at p[i] and the ASCII spaces after each: one `-`, or as a call's argument
    any run of `-` and `+` (`--1`, `+ -1`), whose `-` negate in turn (negative[0]); the offset
    after them."""
    negative[0] = False
    while i < n and (p[i] == MINUS or (p[i] == PLUS and (flags & LIT_ARGUMENT))):
        if p[i] == MINUS:
            negative[0] = not negative[0]
        i = vt_skip_ascii_space(p, n, i + 1)
        if not (flags & LIT_ARGUMENT):
            break
    return i


cdef Py_ssize_t vt_write_limbs(const uint32_t* limbs, Py_ssize_t count, ByteBuf* out) except -1:
    """Appends the decimal of the integer limbs[0:count] (least significant first, VT_LIMB each);
    the digits written."""
    cdef char digits[10]
    cdef Py_ssize_t k, d, written = 0
    cdef uint32_t limb
    if count == 0:
        bb_push(out, DIGIT_0)
        return 1
    for k in range(count - 1, -1, -1):
        limb = limbs[k]
        for d in range(8, -1, -1):
            digits[d] = <char>(DIGIT_0 + limb % 10)
            limb //= 10
        d = 0
        if k == count - 1:
            while d < 8 and digits[d] == DIGIT_0:
                d += 1     # (the leading limb without its leading zeros)
        bb_append(out, <const unsigned char*>digits + d, 9 - d)
        written += 9 - d
    return written


cdef bint vt_based_integer(ByteBuf* out, Py_ssize_t at, int base) except -1:
    """out[at:] holds a Python integer written in `base` (16, 8 or 2: `0x1F`, no underscores);
    rewrites it as its decimal. False when it is none (no digit, a digit beyond its base) or its
    decimal is longer than Python writes one (VT_MOST_DIGITS)."""
    cdef const unsigned char* t = out.data + at
    cdef Py_ssize_t n = out.len - at, k, count = 0, i
    cdef int digit
    cdef uint32_t limbs[VT_MOST_LIMBS]
    cdef uint64_t carry
    cdef ByteBuf number
    if n < 3:
        return False
    for i in range(2, n):
        digit = vt_digit_value(t[i])
        if digit >= base:
            return False
        carry = <uint64_t>digit
        for k in range(count):
            carry += <uint64_t>limbs[k] * <uint64_t>base
            limbs[k] = <uint32_t>(carry % VT_LIMB)
            carry //= VT_LIMB
        if carry:
            if count == VT_MOST_LIMBS:
                return False
            limbs[count] = <uint32_t>carry
            count += 1
    number.data = NULL
    number.len = 0
    number.cap = 0
    try:
        if vt_write_limbs(limbs, count, &number) > VT_MOST_DIGITS:
            return False
        out.len = at
        bb_append(out, number.data, number.len)
    finally:
        bb_free(&number)
    return True


cdef Py_ssize_t vt_literal_number(const unsigned char* p, Py_ssize_t n, Py_ssize_t i, int flags,
                                  ByteBuf* out) except -2:
    """Reads a Python number at p[i] (its signs, vt_signs, then a run of ASCII letters, digits,
    `.`, `_` and a sign right after `e`/`E`) and appends it without its underscores; the offset
    after it, or -1 when what is left is not a JSON number (as a call's argument: no number Python
    reads: vt_python_number, vt_based_integer)."""
    cdef Py_ssize_t mark = out.len, start, run, digits_at
    cdef int base
    cdef bint negative, placed
    cdef unsigned char c
    i = vt_signs(p, n, i, flags, &negative)
    if negative:
        bb_push(out, MINUS)
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
    if not (flags & LIT_ARGUMENT):
        return i if vt_number_end(out.data, out.len, mark) == out.len else -1
    base = vt_number_base(p + start, i - start)
    if base != 10:
        placed = vt_based_underscores_placed(p + start, i - start, base)
        return i if placed and vt_based_integer(out, digits_at, base) else -1
    if vt_number_end(out.data, out.len, mark) == out.len or vt_python_number(out, digits_at, flags):
        return i
    return -1


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


cdef int vt_insert_byte(ByteBuf* out, Py_ssize_t at, unsigned char c) except -1:
    """Puts c in at out[at] (a tuple's `[` before its first item, a sign before a number)."""
    bb_reserve(out, 1)
    memmove(out.data + at + 1, out.data + at, out.len - at)
    out.data[at] = c
    out.len += 1
    return 0


cdef bint vt_sign_item(ByteBuf* out, vt_level* level) except -1:
    """The signed `(` level closed: its JSON, from out[level.out_at], must be one number, which
    a MINUS negates (`-(1)` is -1, `-(-1)` 1); False when it is no number (a tuple, a string, a
    word: Python's sign applies to numbers alone)."""
    cdef Py_ssize_t at = level.out_at
    if at >= out.len or not (out.data[at] == MINUS or vt_is_digit(out.data[at])):
        return False
    if level.sign != MINUS:
        return True
    if out.data[at] != MINUS:
        return vt_insert_byte(out, at, MINUS) == 0
    memmove(out.data + at, out.data + at + 1, out.len - at - 1)
    out.len -= 1
    return True


cdef int vt_python_literal(const unsigned char* p, Py_ssize_t n, ByteBuf* out, int flags=LIT_VALUE) except -2:
    """Appends the JSON of the Python literal p[0:n] and returns 0; -1 when p[0:n] is not one
    whole literal (out may then hold a partial output: the caller resets its length). Lists and
    tuples are arrays, `(x)` is x, a dict key that is not a string is the string of its JSON;
    separators are `, ` and `: `; ASCII whitespace; at most VT_LITERAL_DEPTH levels. `flags`
    (LiteralSyntax) widens the syntax read."""
    cdef vt_level stack[VT_LITERAL_DEPTH]
    cdef vt_level* top = NULL
    cdef int depth = 0, form
    cdef Py_ssize_t i = 0, prefix = 0, signed_at
    cdef bint want_value = True, negative
    cdef unsigned char c, sign
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
                sign = 0
                if (flags & LIT_ARGUMENT) and (c == MINUS or c == PLUS):
                    signed_at = vt_signs(p, n, i, flags, &negative)
                    if signed_at < n and p[signed_at] == LPAREN:
                        sign = MINUS if negative else PLUS      # a sign before a `(`: applied at its `)`
                        i = signed_at
                        c = LPAREN
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
                    top.sign = sign
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
                vt_insert_byte(out, top.out_at, LBRACKET)
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
        if top.sign and not vt_sign_item(out, top):
            return -1
        depth -= 1
        top = &stack[depth - 1] if depth else NULL
        if top != NULL:
            top.has_item = True
        i += 1
