# Strict JSON arguments with stretches written anew (json_prefix.pxi's `rewrites`): what the
# assemblers that stream a model's JSON as a call's arguments share (the JSON call assembler, the
# forced tool_choice's). A strict validator with `rewrites` set pauses at a raw control character
# inside a string, at the words NaN, Infinity and -Infinity where a value may begin and at a
# closer after a trailing comma; jr_feed feeds it past each pause, recording the stretch (its
# validator offsets: from the arguments' first byte), and jr_write gives the JSON of arguments about to be reported with each stretch in
# them written as its kind says: a control character as its escape (`\n`, `\u0001`), a word as the
# JSON string of its text (`"NaN"`), a trailing comma as nothing, Python's True, False or None
# (python) as JSON's literal, and a single-quoted string's quotes as `"`, a `"` in it as `\"`, its
# `\'` as `'` (python).
# A caller that reads top-level members' strings by their declared types (the validator's
# `members`) gets those pauses back from jr_feed, and records a string it reads as a value of its
# type (`"5"` under an integer) as a stretch written as that value (JR_TYPED, its `as_kind`).
# The event's source keeps the model's bytes. Where nothing was
# rewritten, reporting costs one length check (jr_any).

cdef enum JrKind:            # how a stretch the validator paused at is written in the arguments' JSON
    JR_ESCAPE = 0            # a raw control character in a string: its escape
    JR_STRING = 1            # a word (NaN, Infinity, -Infinity): the JSON string of its text
    JR_OPEN_STRING = 2       # such a word cut by a stream stopped for its length: that string, still open
    JR_LITERAL = 3           # Python's True, False or None (python), whole or cut for length: as
                             # many letters of the JSON literal (`true`, `false`, `null`)
    JR_QUOTE = 4             # the `'` that opens or closes a single-quoted string (python): `"`
    JR_UNESCAPE = 5          # the escape `\'` in one: `'`
    JR_TYPED = 6             # a member's string, quotes and all: the value of its declared type it
                             # holds (vt_string_read_as, `as_kind`)
    JR_TRAILING_COMMA = 7    # a trailing comma up to the closer after it: that stretch without the comma

cdef struct jr_stretch:      # a stretch of the arguments written anew
    Py_ssize_t at            # its validator offset
    int length
    int kind                 # JrKind
    int as_kind              # JR_TYPED: what the string is read as (vt_string_read_as)

cdef struct jr_rewrites:     # the stretches not yet reported, in order
    ByteBuf stretches        # jr_stretch records
    Py_ssize_t next          # the first one not yet reported


cdef inline bint jr_any(jr_rewrites* r) noexcept:
    """Whether any stretch is left to write anew (else the arguments' JSON is their bytes)."""
    return r.stretches.len != 0


cdef inline void jr_free(jr_rewrites* r) noexcept:
    bb_free(&r.stretches)


cdef int jr_record(jr_rewrites* r, Py_ssize_t at, Py_ssize_t length, int kind, int as_kind=0) except -1:
    cdef jr_stretch s
    s.at = at
    s.length = <int>length
    s.kind = kind
    s.as_kind = as_kind
    return bb_append(&r.stretches, <const unsigned char*>&s, sizeof(jr_stretch))


cdef Py_ssize_t jr_feed(jp_state* s, jr_rewrites* r, const unsigned char* p, Py_ssize_t n) except -2:
    """Feeds the validator p[0:n] (the bytes after what it read): -1 while it accepts them, else
    its refusal offset. Each stretch it pauses at is recorded and read past; a member's string
    (JPP_MEMBER_OPEN, JPP_MEMBER_CLOSE) is the caller's: its offset is returned, as a refusal's."""
    cdef Py_ssize_t start = s.seen, found
    while True:
        found = jp_feed_long(s, p + (s.seen - start), n - (s.seen - start))
        if found < 0 or s.st == JP_REFUSED or s.pause >= JPP_MEMBER_OPEN:
            return found
        jr_record(r, found, s.seen - found, jr_kind(s))


cdef inline int jr_kind(jp_state* s) noexcept:
    """How the stretch the validator paused at is written (a JrKind)."""
    if s.pause == JPP_WORD:
        return JR_LITERAL if jp_python_word(s.word) else JR_STRING
    if s.pause == JPP_QUOTE:
        return JR_QUOTE
    if s.pause == JPP_QUOTE_ESCAPE:
        return JR_UNESCAPE
    if s.pause == JPP_TRAILING_COMMA:
        return JR_TRAILING_COMMA
    return JR_ESCAPE            # a raw control character, or a `"` in a single-quoted string


cdef int jr_cut(jp_state* s, jr_rewrites* r) except -1:
    """The stream was stopped for its length where the validator is: a word it is inside of, not
    yet spelled out (`Na`), goes out as the string it begins, left open."""
    if jp_in_rewritten_word(s):
        jr_record(r, s.word_at, s.seen - s.word_at, JR_LITERAL if jp_python_word(s.word) else JR_OPEN_STRING)
    return 0


cdef int jr_literal(const unsigned char* word, Py_ssize_t length, ByteBuf* out) except -1:
    """Appends the first `length` letters of the JSON literal of Python's word at word[0]."""
    cdef const char* literal = "true" if word[0] == UPPER_T else ("false" if word[0] == UPPER_F else "null")
    return bb_append(out, <const unsigned char*>literal, length)


cdef bint jr_write(jr_rewrites* r, const unsigned char* p, Py_ssize_t a, Py_ssize_t b, ByteBuf* out) except -1:
    """Whether the arguments p[0:b - a], validator offsets a to b, hold stretches to write anew; if
    so, `out` holds their JSON with each written as its kind says (and those stretches are done
    with: arguments are reported in order). A stretch before `a` went out in no arguments (a word
    refused after its pause, as Malformed) and is passed over."""
    cdef const jr_stretch* s = <const jr_stretch*>r.stretches.data
    cdef Py_ssize_t count = r.stretches.len // sizeof(jr_stretch), k = r.next, at = a
    while k < count and s[k].at < a:
        k += 1
    if k == count or s[k].at >= b:
        r.next = k
        return False
    out.len = 0
    while k < count and s[k].at < b:
        bb_append(out, p + (at - a), s[k].at - at)
        if s[k].kind == JR_LITERAL:
            jr_literal(p + (s[k].at - a), s[k].length, out)
        elif s[k].kind == JR_QUOTE:
            bb_push(out, QUOTE)
        elif s[k].kind == JR_UNESCAPE:
            bb_push(out, APOSTROPHE)
        elif s[k].kind == JR_TYPED:
            vt_string_read_as(p + (s[k].at - a) + 1, s[k].length - 2, s[k].as_kind, out)
        elif s[k].kind == JR_TRAILING_COMMA:
            bb_append(out, p + (s[k].at - a) + 1, s[k].length - 1)
        if s[k].kind >= JR_LITERAL:
            at = s[k].at + s[k].length
            k += 1
            continue
        if s[k].kind != JR_ESCAPE:
            bb_push(out, QUOTE)
        vt_string(p + (s[k].at - a), s[k].length, out)
        if s[k].kind == JR_STRING:
            bb_push(out, QUOTE)
        at = s[k].at + s[k].length
        k += 1
    bb_append(out, p + (at - a), b - at)
    if k == count:
        r.stretches.len = 0
        k = 0
    r.next = k
    return True
