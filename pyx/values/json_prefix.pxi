# The incremental JSON prefix validator (SPEC §4.3, §4.4): reads a growing JSON text piece by
# piece, in O(n) overall, and says where it stops being an acceptable prefix. It accepts what the
# reference's lenient prefix parser accepts: a missing value (`{"a": }`, `[,,]`), trailing commas,
# a key without `:`, unknown escapes (`\q`), a short `\u`, any number-like run (`-`, `1.`, `1e+`),
# a literal's prefix at the end, Unicode whitespace between tokens, and a closing bracket of the
# wrong kind when an outer container can take it (`{"a": [1}` is whole). It refuses a word that is
# no literal (at the word's first letter), a bracket nothing can take, a surrogate escape without
# its partner (at the escape's backslash), a container opened at depth 32, and any character, even
# whitespace, after a complete top-level value. Input comes in whole UTF-8 characters.
#
# A strict validator (jp_init_strict) accepts only prefixes of RFC 8259 JSON, what a strict reader
# such as the Anthropic SDK's takes: none of the leniencies above, no control character inside a
# string, only the four JSON whitespace bytes, numbers by the JSON grammar. It refuses at the byte
# that no strict continuation could take (a number that ends early, `1.}`, at the `}`), and takes
# whitespace after the complete value.
#
# A strict validator with `rewrites` set takes two things a strict reader refuses but models write
# and lenient readers take, for its caller (which writes the JSON out) to write anew: a raw control
# character (U+0000 to U+001F) inside a string (a real newline or tab in code, which
# `json.loads(strict=False)` takes), and, where a value may begin, the words `NaN`, `Infinity` and
# `-Infinity` exactly (as Python's `json.dumps` writes a float nan or inf, and `json.loads` reads
# them). It also takes a trailing comma, a container's `,` with its closer next (`[1, 2,]`): held
# as any member's comma is, it pauses at the closer (JPP_TRAILING_COMMA, offset the comma's), for
# the caller to write the stretch without the comma. jp_feed pauses at each: it returns its offset
# as for a refusal but the validator not refused (st is not JP_REFUSED), having read it (`seen` is
# where it ends: a control character is one byte; a word pauses at its last letter, in JP_WORD,
# and is a value like a literal: undecided until a byte that is no letter follows, refused at its
# first letter if one does); the caller writes it there (the control character's escape, the
# word's JSON string) and feeds on from `seen`. A word's prefix (`Na`, `-Inf`) is a literal being
# read, as `tru` is. With `python` also set (the JSON call assembler's: models write a call object
# as a Python dict at times), Python's `True`, `False` and `None` are such words (`N` begins NaN or None: the second letter says which),
# for the caller to write as JSON's literals, and a key or a string value may be single-quoted
# (`'it\'s'`): it pauses at each byte the caller writes anew (`pause` says which): the quotes that
# open and close it (JSON's `"`), a `"` inside it (`\"`) and the escape `\'` (`'`). Its other
# escapes are JSON's (`\/`, which Python reads as two characters, is refused), so what it writes is
# the string Python reads.
#
# A strict validator with `rewrites` and `members` set also pauses where a string value of the
# top-level object's member opens (at its `"`, python: or `'`: JPP_MEMBER_OPEN, in place of the
# quote's own pause), the member left undecided, for its caller to say whether it reads that string
# by the member's declared type: if so it sets `member_as` to that reading (and keeps the member
# undecided), and the validator pauses again at the string's closing quote (JPP_MEMBER_CLOSE, in
# place of its own), where the caller clears it and decides the member; else it decides it at once.
#
# A bounded strict validator (jp_init_bounded) also refuses, at its first byte, a number a JSON
# decoder cannot keep: one with a fraction or an exponent whose value rounds beyond the largest
# double (a decoder reads infinity, which no JSON encoder writes back), or one whose integer part
# has more than 4,300 digits (Python's int() and the Anthropic SDK's reader raise on it; a shorter
# integer is read exactly). A number's value is known only at its end: while one is being read it
# is not committed, and jp_end judges one the text ends in.
#
# A strict validator also says how far what it read commits (jp_committed, jp_end_commit): not the
# stretch that is still undecided, which starts at a member's comma (or an object's first key) and
# lasts until the member's value begins a way it can be closed (a string's quote, a container's
# bracket, a number's whole digits, a literal's last letter), nor a number's tail that is not whole
# yet (`-`, `1.`, `1e+`), a literal being read or an escape. What it commits closes into one whole
# value by appending only quotes and brackets (jp_closing): a string its `"`, each container its
# closer; nothing is invented (no member, digit or letter), so a prefix cut anywhere becomes the
# members written in full and the string being written, loadable by any JSON reader.

cdef enum:
    JP_MAX_DEPTH = 32
    JP_MAX_INT_DIGITS = 4300      # bounded: Python's default int() limit, and the SDK reader's

# bounded: 2**1024 - 2**970, the least decimal that rounds to infinity as a double (ties to even:
# the largest double's mantissa is odd), as a 309-digit integer; its digits and their count
cdef const char* JP_DOUBLE_OVERFLOW = (
    b"17976931348623158079372897140530341507993413271003782693617377898044496829276475094664901797"
    b"75872070963302864166928879109465555478519404026306574886715058206819089020007083836762738548"
    b"45817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711"
    b"559699508093042880177904174497792")
cdef enum:
    JP_DOUBLE_OVERFLOW_DIGITS = 309
cdef long long JP_EXPONENT_CAP = 100000000000000000   # an exponent's magnitude stops growing here

cdef enum JpState:
    JP_EXPECT_VALUE = 0   # a value (or, by the container, a closer or comma standing for a missing one)
    JP_OBJECT_KEY = 1     # a key, `}` or a lenient `,`
    JP_AFTER_KEY = 2      # `:` (or `,`/`}`: the key's value is missing)
    JP_AFTER_VALUE = 3    # `,` or a closer
    JP_STRING = 4
    JP_ESCAPE = 5
    JP_UNICODE = 6        # the hex digits of a \u escape
    JP_PAIR_BACKSLASH = 7 # a high surrogate was read: its partner's `\`
    JP_PAIR_U = 8         # ... its `u`
    JP_PAIR_HEX = 9       # ... its hex digits
    JP_NUMBER = 10
    JP_WORD = 11
    JP_DONE = 12          # the top-level value is complete: nothing may follow
    JP_REFUSED = 13

cdef enum JpPause:        # what a validator with `rewrites` paused at, for its caller to write anew
    JPP_CONTROL = 0       # a raw control character inside a string
    JPP_WORD = 1          # a word (NaN, Infinity, -Infinity; python: True, False, None)
    JPP_QUOTE = 2         # python: the `'` that opens or closes a string
    JPP_INNER_QUOTE = 3   # python: a `"` inside a single-quoted string
    JPP_QUOTE_ESCAPE = 4  # python: the escape `\'`
    JPP_TRAILING_COMMA = 5  # a container's last `,` (the stretch from it to the closer it is before)
    JPP_MEMBER_OPEN = 6   # members: the quote that opens a top-level member's string value
    JPP_MEMBER_CLOSE = 7  # members: the quote that closes it, the caller having held it (member_as)

cdef enum JpNumber:       # where a strict validator is in a number
    JN_SIGN = 0           # after `-`: a digit
    JN_ZERO = 1           # a leading 0: `.`, `e` or the end
    JN_INT = 2
    JN_DOT = 3            # after `.`: a digit
    JN_FRAC = 4
    JN_E = 5              # after `e`: a sign or a digit
    JN_ESIGN = 6          # after the exponent's sign: a digit
    JN_EXP = 7


cdef struct jp_bounds:
    # A bounded validator's number being read (it starts at word_at): its integer digits, the zeros
    # after its point before its first significant digit, how many significant digits it has and
    # how they compare (-1, 0, 1) with JP_DOUBLE_OVERFLOW's, its exponent's magnitude and sign.
    # Held apart from jp_state, which every JSON call assembler carries (and which its object pool
    # keeps within 512 bytes).
    Py_ssize_t int_digits
    Py_ssize_t frac_zeros
    Py_ssize_t significant
    int versus_overflow
    long long exponent
    bint exponent_negative

cdef struct jp_state:
    int st
    int depth
    unsigned char stack[JP_MAX_DEPTH]   # '{' or '['
    bint in_key
    unsigned char quote                 # the quote the string being read closes at (`"`, or python `'`)
    unsigned char pause                 # rewrites: what the validator paused at last (a JpPause)
    unsigned char members               # rewrites: pause at a top-level member's string value
    unsigned char member_as             # members: in such a string, held by the caller: its reading
                                        # (nonzero, the caller's code; the caller clears it)
    Py_ssize_t seen                     # bytes read so far (offsets below are in this count)
    Py_ssize_t escape_at                # the backslash of the \u escape being read
    Py_ssize_t word_at                  # (also, paused at a trailing comma: that comma)
    const char* word                    # the literal the current word must spell
    int word_len
    int hex_count
    unsigned int hex_value
    Py_ssize_t refused_at               # -1 while acceptable
    bint refused_after_value            # the refusal came after a complete top-level value
    bint strict                         # RFC 8259 prefixes only (see the top of this file)
    bint fresh                          # strict: the innermost container was just opened
    int number                          # strict: a JpNumber while in JP_NUMBER
    jp_bounds* bounds                   # strict, bounded (see the top of this file); NULL: unbounded
    Py_ssize_t hold_at                  # strict: where what is still undecided starts, or -1
    bint hold_in_string                 # ... that is an escape inside a value string
    bint refused_in_string              # strict: the refusal came inside a value string
    bint rewrites                       # strict: pause at what the caller writes anew (the top)
    bint python                         # rewrites: also Python's True, False, None and '…' strings


# The bytes a string's plain run stops at: its quote and `\`, and in a strict one a control
# character; a single-quoted one (python) also stops at a `"`, which it writes escaped.
cdef enum:
    JS_LENIENT = 0
    JS_STRICT = 1
    JS_SINGLE_QUOTED = 2
cdef unsigned char JP_STRING_STOPS[3][256]


cdef void jp_build_tables() noexcept:
    cdef int c, k
    memset(JP_STRING_STOPS, 0, sizeof(JP_STRING_STOPS))
    for k in range(3):
        JP_STRING_STOPS[k][QUOTE] = JP_STRING_STOPS[k][BACKSLASH] = 1
        if k != JS_LENIENT:
            for c in range(0x20):
                JP_STRING_STOPS[k][c] = 1
    JP_STRING_STOPS[JS_SINGLE_QUOTED][APOSTROPHE] = 1


jp_build_tables()


cdef inline void jp_init(jp_state* s) noexcept nogil:
    s.st = JP_EXPECT_VALUE
    s.depth = 0
    s.in_key = False
    s.seen = 0
    s.escape_at = 0
    s.word_at = 0
    s.word = NULL
    s.word_len = 0
    s.hex_count = 0
    s.hex_value = 0
    s.refused_at = -1
    s.refused_after_value = False
    s.strict = False
    s.fresh = False
    s.number = JN_INT
    s.bounds = NULL
    s.hold_at = -1
    s.hold_in_string = False
    s.refused_in_string = False
    s.rewrites = False
    s.python = False
    s.quote = QUOTE
    s.pause = JPP_CONTROL
    s.members = False
    s.member_as = 0


cdef inline void jp_init_strict(jp_state* s) noexcept nogil:
    jp_init(s)
    s.strict = True


cdef inline void jp_init_bounded(jp_state* s, jp_bounds* bounds) noexcept nogil:
    """A bounded strict validator; `bounds` lives as long as it does."""
    jp_init_strict(s)
    s.bounds = bounds


cdef inline int jp_number_step(int phase, unsigned char c) noexcept nogil:
    """A strict number's next phase after byte c, or -1 when the JSON grammar has no place for it."""
    cdef bint digit = 48 <= c <= 57
    if phase == JN_SIGN:
        return JN_ZERO if c == 48 else (JN_INT if digit else -1)
    if phase == JN_ZERO or phase == JN_INT:
        if digit:
            return JN_INT if phase == JN_INT else -1
        if c == 46:
            return JN_DOT
        return JN_E if c == 101 or c == 69 else -1
    if phase == JN_DOT or phase == JN_FRAC:
        if digit:
            return JN_FRAC
        return JN_E if phase == JN_FRAC and (c == 101 or c == 69) else -1
    if phase == JN_E:
        return JN_EXP if digit else (JN_ESIGN if c == 43 or c == 45 else -1)
    return JN_EXP if digit else -1      # JN_ESIGN, JN_EXP


cdef inline bint jp_number_whole(int phase) noexcept nogil:
    return phase == JN_ZERO or phase == JN_INT or phase == JN_FRAC or phase == JN_EXP


cdef inline void jp_number_begin(jp_bounds* b) noexcept nogil:
    b.int_digits = 0
    b.frac_zeros = 0
    b.significant = 0
    b.versus_overflow = 0
    b.exponent = 0
    b.exponent_negative = False


cdef inline bint jp_number_track(jp_bounds* b, int phase, unsigned char c) noexcept nogil:
    """A bounded number's byte c, read into `phase`: False once its integer part is too long."""
    cdef int digit = c - 48
    if phase == JN_EXP:
        if b.exponent < JP_EXPONENT_CAP:
            b.exponent = b.exponent * 10 + digit
        return True
    if phase == JN_ESIGN:
        b.exponent_negative = c == 45
        return True
    if phase == JN_INT:
        b.int_digits += 1
    elif phase != JN_FRAC:
        return True                      # a sign, a leading zero, the point or the `e`
    elif b.significant == 0 and digit == 0:
        b.frac_zeros += 1
        return True
    if b.versus_overflow == 0:
        if b.significant < JP_DOUBLE_OVERFLOW_DIGITS:
            digit -= JP_DOUBLE_OVERFLOW[b.significant] - 48
            b.versus_overflow = (digit > 0) - (digit < 0)
        elif digit:
            b.versus_overflow = 1
    b.significant += 1
    return b.int_digits <= JP_MAX_INT_DIGITS


cdef inline bint jp_number_kept(jp_state* s) noexcept nogil:
    """Whether a decoder keeps the bounded number read: an integer (read exactly; its digits were
    counted as they came), or a double that rounds to a finite one: its value is 0.DIGITS times
    ten to `at`, and overflows past at == 309, or at 309 from JP_DOUBLE_OVERFLOW's digits on."""
    cdef jp_bounds* b = s.bounds
    cdef long long at
    if s.number == JN_INT or s.number == JN_ZERO or b.significant == 0:
        return True                      # an integer, or zero
    at = b.int_digits if b.int_digits else -b.frac_zeros
    at += -b.exponent if b.exponent_negative else b.exponent
    if at != JP_DOUBLE_OVERFLOW_DIGITS:
        return at < JP_DOUBLE_OVERFLOW_DIGITS
    return b.versus_overflow < 0 or (b.versus_overflow == 0 and b.significant < JP_DOUBLE_OVERFLOW_DIGITS)


cdef inline bint jp_strict_space(unsigned char c) noexcept nogil:
    return c == 32 or c == 10 or c == 13 or c == 9


cdef inline bint jp_strict_escape(unsigned char c) noexcept nogil:
    return c == 34 or c == 92 or c == 47 or c == 98 or c == 102 or c == 110 or c == 114 or c == 116


cdef inline int jp_hex(unsigned char c) noexcept nogil:
    if 48 <= c <= 57:
        return c - 48
    if 97 <= c <= 102:
        return c - 87
    if 65 <= c <= 70:
        return c - 55
    return -1


cdef inline bint jp_number_byte(unsigned char c) noexcept nogil:
    return (48 <= c <= 57) or c == 45 or c == 43 or c == 46 or c == 101 or c == 69


cdef inline bint jp_letter(unsigned char c) noexcept nogil:
    return (65 <= c <= 90) or (97 <= c <= 122)


cdef inline void jp_refuse(jp_state* s, Py_ssize_t at) noexcept nogil:
    s.st = JP_REFUSED
    s.refused_at = at


cdef inline void jp_refuse_in_string(jp_state* s, Py_ssize_t at) noexcept nogil:
    """A refusal inside a string (a control character, a bad or lone escape)."""
    s.refused_in_string = not s.in_key
    jp_refuse(s, at)


cdef inline void jp_hold(jp_state* s, Py_ssize_t at) noexcept nogil:
    """Strict: what is read from `at` on is undecided (unless an earlier stretch already is)."""
    if s.hold_at < 0:
        s.hold_at = at


cdef inline void jp_decided(jp_state* s) noexcept nogil:
    """Strict: a value began a way it can be closed, or completed: nothing is undecided."""
    s.hold_at = -1
    s.hold_in_string = False


cdef inline int jp_after_value(jp_state* s) noexcept nogil:
    """The state after a complete value: nothing more at the top level, else `,` or a closer."""
    return JP_DONE if s.depth == 0 else JP_AFTER_VALUE


cdef inline void jp_value_done(jp_state* s) noexcept nogil:
    s.st = jp_after_value(s)


cdef inline void jp_close(jp_state* s, unsigned char opener, Py_ssize_t at) noexcept nogil:
    """A closing bracket: closes the innermost container of its kind and every one inside it."""
    cdef int level = s.depth - 1
    while level >= 0 and s.stack[level] != opener:
        level -= 1
    if level < 0:
        jp_refuse(s, at)
        return
    s.depth = level
    jp_value_done(s)
    jp_decided(s)


cdef inline void jp_open(jp_state* s, unsigned char opener, Py_ssize_t at) noexcept nogil:
    if s.depth >= JP_MAX_DEPTH:
        jp_refuse(s, at)
        return
    s.stack[s.depth] = opener
    s.depth += 1
    s.fresh = True
    s.st = JP_OBJECT_KEY if opener == 123 else JP_EXPECT_VALUE
    jp_decided(s)


cdef inline bint jp_start_scalar(jp_state* s, unsigned char c, Py_ssize_t at) noexcept nogil:
    """The first byte of a value that is no container: a string, a number or a literal. Returns
    whether the validator pauses at it (python: a single-quoted string's opening quote; members:
    a top-level member's string value, the member still undecided)."""
    if c == 34 or (c == APOSTROPHE and s.python):
        s.st = JP_STRING
        s.in_key = False
        s.quote = c
        if s.members and s.depth == 1 and s.stack[0] == 123:
            s.pause = JPP_MEMBER_OPEN
            return True
        jp_decided(s)
        return jp_paused_at_quote(s, c)
    elif c == 45 or (48 <= c <= 57):
        s.st = JP_NUMBER
        s.number = JN_SIGN if c == 45 else (JN_ZERO if c == 48 else JN_INT)
        s.word_at = at
        if s.bounds != NULL:
            jp_number_begin(s.bounds)
            jp_number_track(s.bounds, s.number, c)
        if s.bounds != NULL:
            jp_decided(s)           # (bounded: what led to the number is decided, the number only
            jp_hold(s, at)          # at its end)
        elif c == 45:
            jp_hold(s, at)
        else:
            jp_decided(s)
    elif c == 116 or c == 102 or c == 110 or (s.rewrites and (c == UPPER_N or c == UPPER_I)) \
            or (s.python and (c == UPPER_T or c == UPPER_F)):
        s.st = JP_WORD
        s.word = "true" if c == 116 else ("false" if c == 102 else ("null" if c == 110 else
                                                                    ("NaN" if c == UPPER_N else
                                                                     ("Infinity" if c == UPPER_I else
                                                                      ("True" if c == UPPER_T else "False")))))
        s.word_len = 1
        s.word_at = at
        jp_hold(s, at)
    else:
        jp_refuse(s, at)
    return False


cdef inline bint jp_paused_at_quote(jp_state* s, unsigned char c) noexcept nogil:
    """Whether the quote c that opens or closes a string is one the caller writes anew (python's
    `'`: JSON's `"`)."""
    if c != APOSTROPHE:
        return False
    s.pause = JPP_QUOTE
    return True


cdef inline bint jp_rewritten(const char* word) noexcept nogil:
    """Whether a word is one the caller writes anew (`NaN`, `Infinity`, `-Infinity`, and with
    python `True`, `False`, `None`; the literals are lower case)."""
    return word[0] == UPPER_N or word[0] == UPPER_I or word[0] == MINUS or word[0] == UPPER_T or word[0] == UPPER_F


cdef inline bint jp_python_word(const char* word) noexcept nogil:
    """Whether a rewritten word is Python's (`True`, `False`, `None`): the JSON literal of the same
    length (`true`, `false`, `null`), not a string."""
    return word[0] == UPPER_T or word[0] == UPPER_F or (word[0] == UPPER_N and word[1] == c'o')


cdef inline bint jp_in_rewritten_word(jp_state* s) noexcept nogil:
    """Whether the validator stopped inside such a word, not yet spelled out (`Na`, `-Inf`)."""
    return s.st == JP_WORD and jp_rewritten(s.word) and s.word[s.word_len] != 0


cdef inline bint jp_trailing_comma(jp_state* s, unsigned char opener, Py_ssize_t at) noexcept nogil:
    """A closer right after a container's `,` (whitespace aside; rewrites): the comma is no JSON,
    but a slip models make and lenient readers take. Closes the container and pauses, for the
    caller to write the stretch from the comma (held since it came: `hold_at`, kept in `word_at`)
    to the closer without the comma."""
    if s.hold_at < 0:           # (no comma held: none was read)
        jp_refuse(s, at)
        return False
    s.word_at = s.hold_at
    jp_close(s, opener, at)
    s.pause = JPP_TRAILING_COMMA
    return True


cdef bint jp_feed_strict_token(jp_state* s, unsigned char c, Py_ssize_t at) noexcept nogil:
    """A strict validator's byte between tokens (whitespace already skipped): only what RFC 8259
    lets come next; a closer closes its own kind only, and only an empty container or after a value.
    Returns whether the validator pauses at it (python: a single-quoted string's opening quote;
    rewrites: a closer after a trailing comma)."""
    cdef unsigned char top = s.stack[s.depth - 1] if s.depth else 0
    if s.st == JP_EXPECT_VALUE:
        if c == 123 or c == 91:
            jp_open(s, c, at)
        elif c == 93 and top == 91 and s.fresh:
            jp_close(s, 91, at)
        elif c == 93 and top == 91 and s.rewrites:
            return jp_trailing_comma(s, 91, at)
        else:
            return jp_start_scalar(s, c, at)
    elif s.st == JP_OBJECT_KEY:
        if c == 34 or (c == APOSTROPHE and s.python):
            s.st = JP_STRING
            s.in_key = True
            s.quote = c
            jp_hold(s, at)          # a member is undecided until its value begins
            return jp_paused_at_quote(s, c)
        elif c == 125 and s.fresh:
            jp_close(s, 123, at)
        elif c == 125 and s.rewrites:
            return jp_trailing_comma(s, 123, at)
        else:
            jp_refuse(s, at)
    elif s.st == JP_AFTER_KEY:
        if c == 58:
            s.st = JP_EXPECT_VALUE
        else:
            jp_refuse(s, at)
    else:  # JP_AFTER_VALUE
        if c == 44:
            s.fresh = False
            s.st = JP_OBJECT_KEY if top == 123 else JP_EXPECT_VALUE
            jp_hold(s, at)          # ... and so is the comma before it
        elif (c == 125 and top == 123) or (c == 93 and top == 91):
            jp_close(s, c - 2, at)
        else:
            jp_refuse(s, at)
    return False


cdef Py_ssize_t jp_feed(jp_state* s, const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """Reads p[0:n]; returns -1 while everything read is acceptable, else the refusal offset
    (counted from the first byte ever fed), or with `rewrites` the offset of what it read and paused
    at for the caller to write anew (the top of this file). A refused validator stays refused. The state lives
    in `st` while reading (written back before a helper that reads or changes it, and at the end)."""
    cdef Py_ssize_t i = 0, w
    cdef unsigned char c, top, quote
    cdef const unsigned char* stops
    cdef int h
    cdef int st = s.st
    if st == JP_REFUSED:
        return s.refused_at
    while i < n:
        c = p[i]
        if st > JP_AFTER_VALUE:     # inside a token, or after the value
            if st == JP_STRING:
                # a string's plain bytes at once (a strict one stops at a control character too)
                quote = s.quote
                stops = JP_STRING_STOPS[JS_SINGLE_QUOTED if quote == APOSTROPHE else
                                        (JS_STRICT if s.strict else JS_LENIENT)]
                while not stops[c]:
                    i += 1
                    if i == n:
                        s.st = st
                        s.seen += n
                        return -1
                    c = p[i]
                if c == quote:
                    if s.in_key:
                        s.in_key = False
                        st = JP_AFTER_KEY
                    else:
                        st = jp_after_value(s)
                        if s.member_as:       # members: the caller decides the member it held
                            s.quote = QUOTE
                            s.pause = JPP_MEMBER_CLOSE
                            s.st = st
                            s.seen += i + 1
                            return s.seen - 1
                    if quote == APOSTROPHE:  # python: the closing `'`, for the caller to write as `"`
                        s.quote = QUOTE
                        s.pause = JPP_QUOTE
                        s.st = st
                        s.seen += i + 1
                        return s.seen - 1
                elif c == 34:             # python: a `"` in a single-quoted string, written escaped
                    s.pause = JPP_INNER_QUOTE
                    s.st = st
                    s.seen += i + 1
                    return s.seen - 1
                elif c == 92:
                    st = JP_ESCAPE
                    s.escape_at = s.seen + i
                    if s.strict and s.hold_at < 0:
                        s.hold_at = s.escape_at     # (in a value string: a key's member holds already)
                        s.hold_in_string = True
                elif s.rewrites:          # taken as the string's, for the caller to escape
                    s.pause = JPP_CONTROL
                    s.st = st
                    s.seen += i + 1
                    return s.seen - 1
                else:                     # a control character in a strict string
                    jp_refuse_in_string(s, s.seen + i)
                    return s.refused_at
                i += 1
                continue
            if st == JP_ESCAPE:
                if c == 117:
                    st = JP_UNICODE
                    s.hex_count = 0
                    s.hex_value = 0
                elif s.quote == APOSTROPHE and (c == APOSTROPHE or c == SLASH):
                    if c == SLASH:              # Python reads `\/` as two characters, JSON as one
                        jp_refuse_in_string(s, s.escape_at)
                        return s.refused_at
                    st = JP_STRING              # `\'`, for the caller to write as `'`
                    if s.hold_in_string:
                        jp_decided(s)
                    s.pause = JPP_QUOTE_ESCAPE
                    s.st = st
                    s.seen += i + 1
                    return s.escape_at
                elif s.strict and not jp_strict_escape(c):
                    jp_refuse_in_string(s, s.escape_at)
                    return s.refused_at
                else:
                    st = JP_STRING
                    if s.hold_in_string:
                        jp_decided(s)
                i += 1
                continue
            if st == JP_UNICODE:
                h = jp_hex(c)
                if h < 0:
                    if s.strict:
                        jp_refuse_in_string(s, s.escape_at)
                        return s.refused_at
                    st = JP_STRING   # a short \u stands for U+FFFD; this byte is read as string text
                    continue
                s.hex_value = s.hex_value * 16 + h
                s.hex_count += 1
                i += 1
                if s.hex_count == 4:
                    if 0xD800 <= s.hex_value <= 0xDBFF:
                        st = JP_PAIR_BACKSLASH
                    elif 0xDC00 <= s.hex_value <= 0xDFFF:
                        jp_refuse_in_string(s, s.escape_at)
                        return s.refused_at
                    else:
                        st = JP_STRING
                        if s.hold_in_string:
                            jp_decided(s)
                continue
            if st == JP_PAIR_BACKSLASH or st == JP_PAIR_U:
                if (st == JP_PAIR_BACKSLASH and c == 92) or (st == JP_PAIR_U and c == 117):
                    st = JP_PAIR_U if st == JP_PAIR_BACKSLASH else JP_PAIR_HEX
                    s.hex_count = 0
                    s.hex_value = 0
                    i += 1
                    continue
                jp_refuse_in_string(s, s.escape_at)
                return s.refused_at
            if st == JP_PAIR_HEX:
                h = jp_hex(c)
                if h < 0:
                    jp_refuse_in_string(s, s.escape_at)
                    return s.refused_at
                s.hex_value = s.hex_value * 16 + h
                s.hex_count += 1
                i += 1
                if s.hex_count == 4:
                    if 0xDC00 <= s.hex_value <= 0xDFFF:
                        st = JP_STRING
                        if s.hold_in_string:
                            jp_decided(s)
                    else:
                        jp_refuse_in_string(s, s.escape_at)
                        return s.refused_at
                continue
            if st == JP_NUMBER:
                if jp_number_byte(c):
                    if s.strict:
                        h = jp_number_step(s.number, c)
                        if h < 0:
                            jp_refuse(s, s.seen + i)
                            return s.refused_at
                        s.number = h
                        if s.bounds != NULL and not jp_number_track(s.bounds, h, c):
                            jp_refuse(s, s.word_at)
                            return s.refused_at
                        if jp_number_whole(h) and s.bounds == NULL:
                            jp_decided(s)
                        else:
                            jp_hold(s, s.seen + i)
                    i += 1
                    continue
                if s.strict:
                    if not jp_number_whole(s.number):
                        if s.number == JN_SIGN and c == UPPER_I and s.rewrites:
                            st = JP_WORD                # `-I`: the word -Infinity, held from its `-`
                            s.word = "-Infinity"
                            s.word_len = 2
                            i += 1
                            continue
                        jp_refuse(s, s.seen + i)
                        return s.refused_at
                    if s.bounds != NULL and not jp_number_kept(s):
                        jp_refuse(s, s.word_at)
                        return s.refused_at
                    jp_decided(s)
                st = jp_after_value(s)   # this byte is read in the new state
                continue
            if st == JP_WORD:
                if jp_letter(c):
                    if s.python and s.word_len == 1 and s.word[0] == UPPER_N and c == c'o':
                        s.word = "None"                 # `N` began NaN or None: the second letter says
                    if s.word[s.word_len] != c:        # (a letter past the word meets its NUL)
                        jp_refuse(s, s.word_at)
                        return s.refused_at
                    s.word_len += 1
                    i += 1
                    if s.rewrites and s.word[s.word_len] == 0 and jp_rewritten(s.word):
                        s.pause = JPP_WORD
                        s.st = st                       # a word the caller writes as a string
                        s.seen += i
                        return s.word_at
                    continue
                if s.word[s.word_len] != 0:
                    jp_refuse(s, s.word_at)
                    return s.refused_at
                st = jp_after_value(s)
                jp_decided(s)
                continue
            if st == JP_DONE:
                if s.strict and jp_strict_space(c):
                    i += 1
                    continue
                jp_refuse(s, s.seen + i)
                s.refused_after_value = True
                return s.refused_at
        # Between tokens: whitespace, then what the state expects.
        if s.strict:
            if jp_strict_space(c):
                i += 1
                continue
            s.st = st
            if jp_feed_strict_token(s, c, s.seen + i):
                s.seen += i + 1             # (paused at a string's opening quote, or a trailing comma)
                return s.word_at if s.pause == JPP_TRAILING_COMMA else s.seen - 1
            st = s.st
            if st == JP_REFUSED:
                return s.refused_at
            i += 1
            continue
        w = u8_ascii_space(c) if c < 0x80 else u8_space_len(p + i, n - i)
        if w:
            i += w
            continue
        top = s.stack[s.depth - 1] if s.depth else 0
        if st == JP_EXPECT_VALUE:
            if c == 34:
                st = JP_STRING
                s.in_key = False
            elif c == 45 or (48 <= c <= 57):
                st = JP_NUMBER
            elif c == 123 or c == 91:
                jp_open(s, c, s.seen + i)
                st = s.st
            elif c == 116 or c == 102 or c == 110:
                st = JP_WORD
                s.word = "true" if c == 116 else ("false" if c == 102 else "null")
                s.word_len = 1
                s.word_at = s.seen + i
            elif c == 44 and top == 91:
                pass                          # a missing array element
            elif c == 44 and top == 123:
                st = JP_OBJECT_KEY            # a missing member value
            elif (c == 125 or c == 93) and top:
                jp_close(s, 123 if c == 125 else 91, s.seen + i)
                st = s.st
            else:
                jp_refuse(s, s.seen + i)
                return s.refused_at
        elif st == JP_OBJECT_KEY:
            if c == 34:
                st = JP_STRING
                s.in_key = True
            elif c == 44:
                pass                          # a lenient extra comma
            elif c == 125 or c == 93:
                jp_close(s, 123 if c == 125 else 91, s.seen + i)
                st = s.st
            else:
                jp_refuse(s, s.seen + i)
                return s.refused_at
        elif st == JP_AFTER_KEY:
            if c == 58:
                st = JP_EXPECT_VALUE
            elif c == 44:
                st = JP_OBJECT_KEY            # a key without `:` is a key with a missing value
            elif c == 125 or c == 93:
                jp_close(s, 123 if c == 125 else 91, s.seen + i)
                st = s.st
            else:
                jp_refuse(s, s.seen + i)
                return s.refused_at
        else:  # JP_AFTER_VALUE
            if c == 44:
                st = JP_OBJECT_KEY if top == 123 else JP_EXPECT_VALUE
            elif c == 125 or c == 93:
                jp_close(s, 123 if c == 125 else 91, s.seen + i)
                st = s.st
            else:
                jp_refuse(s, s.seen + i)
                return s.refused_at
        if st == JP_REFUSED:
            return s.refused_at
        i += 1
    s.st = st
    s.seen += n
    return -1


cdef inline Py_ssize_t jp_feed_long(jp_state* s, const unsigned char* p, Py_ssize_t n) noexcept:
    """jp_feed, with the GIL released over a long run (nogil.pxd)."""
    cdef Py_ssize_t refused
    if n < NOGIL_FROM:
        return jp_feed(s, p, n)
    with nogil:
        refused = jp_feed(s, p, n)
    return refused


cdef inline Py_ssize_t jp_committed(jp_state* s) noexcept nogil:
    """How much of what was read can no longer be refused by what follows: all of it, except a
    word being read (a refusal rolls back to its first letter) or an escape being read (a lone
    surrogate is refused at its backslash, a high surrogate's at the high one's). A strict
    validator commits nothing undecided either (see the top of this file)."""
    if s.strict:
        return jp_end_commit(s) if s.st == JP_REFUSED else (s.hold_at if s.hold_at >= 0 else s.seen)
    if s.st == JP_REFUSED:
        return s.refused_at
    if s.st == JP_WORD or (s.st == JP_NUMBER and s.bounds != NULL):
        return s.word_at
    if s.st == JP_ESCAPE or s.st == JP_UNICODE or s.st == JP_PAIR_BACKSLASH or s.st == JP_PAIR_U \
            or s.st == JP_PAIR_HEX:
        return s.escape_at
    return s.seen


cdef inline Py_ssize_t jp_end_commit(jp_state* s) noexcept nogil:
    """Strict: how much of what was read commits should the input end here (or where it was
    refused): all of it but what is undecided; a literal spelled out or a whole number at the end
    is decided by the end."""
    if s.st == JP_REFUSED:
        return s.hold_at if s.hold_at >= 0 else s.refused_at
    if s.st == JP_WORD and s.word[s.word_len] == 0:
        return s.seen
    return s.hold_at if s.hold_at >= 0 else s.seen


cdef int jp_closing(jp_state* s, ByteBuf* out) except -1:
    """Strict: appends to `out` what closes what jp_end_commit commits into one whole value: `"`
    inside a value string, then each open container's closer, innermost first (nothing when it
    is whole; nothing for nothing committed either: no value began)."""
    cdef bint in_string
    cdef int level
    if s.st == JP_REFUSED and s.hold_at < 0:
        in_string = s.refused_in_string
    elif s.hold_at >= 0:
        in_string = s.hold_in_string and not (s.st == JP_WORD and s.word[s.word_len] == 0)
    else:
        in_string = JP_STRING <= s.st <= JP_PAIR_HEX and not s.in_key
    if in_string:
        bb_push(out, 34)
    for level in range(s.depth - 1, -1, -1):
        bb_push(out, 125 if s.stack[level] == 123 else 93)
    return 0


cdef inline bint jp_whole(jp_state* s) noexcept nogil:
    """Whether the text read so far holds one complete top-level value (a number or a literal
    reaching the end counts: nothing can follow it but more of the same token)."""
    if s.depth != 0:
        return s.st == JP_DONE
    return (s.st == JP_DONE or (s.st == JP_NUMBER and (not s.strict or jp_number_whole(s.number))
                                and (s.bounds == NULL or jp_number_kept(s)))
            or (s.st == JP_WORD and s.word[s.word_len] == 0))


cdef inline Py_ssize_t jp_end(jp_state* s) noexcept nogil:
    """The text ends here: a bounded validator refuses the whole number it ends in if no decoder
    keeps it. Returns the refusal offset, or -1."""
    if s.st == JP_NUMBER and s.bounds != NULL and jp_number_whole(s.number) and not jp_number_kept(s):
        jp_refuse(s, s.word_at)
    return s.refused_at


cdef Py_ssize_t jp_whole_chars(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """The length of p[0:n] without a character cut off at its end."""
    cdef Py_ssize_t k = n - 1
    while k >= 0 and n - k <= 4 and (p[k] & 0xC0) == 0x80:
        k -= 1
    if k >= 0 and n - k <= 4 and k + u8_char_len(p[k]) > n:
        return k
    return n


@cython.final
cdef class JsonPrefix:
    """Python view of the validator: feed pieces (str, or bytes cut anywhere: a character cut off
    at a piece's end waits for the next), get None while acceptable, else the refusal offset (in
    UTF-8 bytes). `strict=True`: RFC 8259 prefixes only (what a strict JSON reader takes);
    `bounded=True` (strict only): and no number a decoder cannot keep (the top of json_prefix.pxi),
    judged at its end or at `end()`."""
    cdef jp_state state
    cdef jp_bounds bounds
    cdef bytes pending

    def __cinit__(self, bint strict=False, bint bounded=False):
        if bounded and not strict:
            raise ValueError("JsonPrefix: bounded=True bounds a strict validator's numbers (strict=True)")
        if bounded:
            jp_init_bounded(&self.state, &self.bounds)
        elif strict:
            jp_init_strict(&self.state)
        else:
            jp_init(&self.state)
        self.pending = b""

    def feed(self, piece):
        cdef bytes raw = self.pending + (piece.encode("utf-8") if isinstance(piece, str) else bytes(piece))
        cdef const unsigned char* p = <const unsigned char*>(<char*>raw)
        cdef Py_ssize_t whole = jp_whole_chars(p, len(raw))
        cdef Py_ssize_t r = jp_feed(&self.state, p, whole)
        self.pending = raw[whole:]
        return None if r < 0 else r

    def end(self):
        """The text ends here: None while all of it is acceptable, else the refusal offset (a
        bounded validator judges the number the text ends in)."""
        cdef Py_ssize_t r = jp_end(&self.state)
        return None if r < 0 else r

    @property
    def refused_at(self):
        return None if self.state.refused_at < 0 else self.state.refused_at

    @property
    def whole(self):
        return jp_whole(&self.state)

    @property
    def committed(self):
        """Bytes read that no later input can make the validator refuse (strict: nor leave
        undecided)."""
        return jp_committed(&self.state)

    def ending(self):
        """Strict: should the input end here, (how many bytes of it commit, the text that closes
        them into one whole value)."""
        cdef ByteBuf closing
        if not self.state.strict:
            raise ValueError("ending: a strict validator's")
        memset(&closing, 0, sizeof(ByteBuf))
        try:
            jp_closing(&self.state, &closing)
            return jp_end_commit(&self.state), PyUnicode_DecodeUTF8(<const char*>closing.data, closing.len, NULL)
        finally:
            bb_free(&closing)


def json_prefix_end(text):
    """Where the validator refuses `text` (str or UTF-8 bytes), or its length when it accepts all."""
    cdef bytes raw = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    cdef jp_state s
    jp_init(&s)
    cdef Py_ssize_t r = jp_feed(&s, <const unsigned char*>(<char*>raw), len(raw))
    return len(raw) if r < 0 else r
