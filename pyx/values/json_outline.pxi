# The outline reader (SPEC §4.1): where a call object's name and arguments are, read
# incrementally as the object grows (each byte is looked at once). Members are read in order;
# `name`/`tool_name` give the name (only once complete and a valid JSON string), `arguments`/
# `parameters` the arguments span; the first member of each kind counts. A `,` where a key is
# expected is skipped; a value that starts with `,` `}` `]` or `:`, or anything unreadable where
# a key or `:` belongs, stops the reading for good (no close ever comes). A syntax may read other
# objects (`keys`): `args` as arguments too (Inkling); the first member's key as the name and its
# value as the arguments (`{"NAME": {...}}`, Apertus; but a first member a call object writes,
# `{"name": "f", …}` or OpenAI's `{"type": "function", "function": {…}}`, makes it a call object:
# ol_named_first); or the object itself as the arguments, the name given by the caller (DeepSeek
# V3/V3.1, where the name is written before it).
# A call object may be wrapped the way OpenAI's API writes a call (`{"type": "function",
# "function": {"name": .., "arguments": ..}}`): the first `function` member whose value is an
# object, before any name or arguments member, is the call object: its members are read as the
# call's, and the outer object's members around it (its `"type": "function"`) are wrapping, the
# outer `}` the call's close.
# A `tool_call_id` member whose value is a string written without escapes (Cohere's call objects)
# is the id the model gave the call: the first one, once complete, where it comes before the
# arguments value (the call starts where that begins, so it has its id then at every chunking).
# With `python` (every call object, which models write as a Python dict at times) a key or a string
# may be single-quoted (`{'name': 'search', …}`), its `\'` an escape; a name so written is read as
# Python reads it (json_prefix.pxi validates and rewrites the arguments).
# With `list_object` (an object of a list, whose objects a `;` or whitespace separates) a `;`
# outside the object's strings ends the object where it stands, at any depth: no JSON holds one
# there, so it is the list's separator written before the object's `}` (or its arguments' closers)
# were. So does a `{` at the object's top level, where a `,` or the `}` belongs after a member's
# value (whitespace between or none), once the arguments' value is whole: the list's next object
# (a `{` nested in a value is the value's), and so does a `]` there, the list's end. The object
# closes before the byte (`close` is its offset, the byte not the object's), and arguments cut by
# a `;` end there too (`arguments_end`: their closers are the assembler's to write, as for any cut
# call). A `,` there may be the object's (a key follows) or the list's, written before the object's
# `}` was (a `{` or `]` follows): reading waits at it (OL_COMMA_HELD, `pos` its offset) until the
# list's reader, which holds it and the whitespace after it, sees the byte that decides
# (ol_comma_is_member, or ol_cut at it).

cdef enum OlState:
    OL_BEFORE = 0           # before the object's `{`
    OL_MEMBER = 1           # a key, `}`, or a lenient `,`
    OL_KEY = 2
    OL_KEY_ESCAPE = 3
    OL_COLON = 4
    OL_VALUE_START = 5
    OL_STRING = 6
    OL_STRING_ESCAPE = 7
    OL_NESTED = 8           # inside an object or array value, counting brackets
    OL_NESTED_STRING = 9
    OL_NESTED_ESCAPE = 10
    OL_SCALAR = 11
    OL_CLOSED = 12
    OL_STOPPED = 13
    OL_COMMA_HELD = 14      # (list_object) at a `,` that may be the list's (see the top)
    OL_FENCE = 15           # (the arguments object) a Markdown fence before it: its backticks (in
                            # `depth`), then its info word (its length in `key_len`)

cdef enum:
    OL_FENCE_INFO = 16      # the longest info word of a fence before the arguments (`json`)


cpdef enum OlKeys:
    OL_KEYS_CALL = 0        # {"name": .., "arguments": ..}
    OL_KEYS_ARGS = 1        # the same, `args` also the arguments
    OL_KEYS_NAMED = 2       # {"NAME": arguments}
    OL_KEYS_ARGUMENTS = 3   # the object is the arguments

cdef enum OlMember:
    OL_OTHER = 0
    OL_NAME = 1
    OL_ARGUMENTS = 2
    OL_FUNCTION = 3          # the call object, wrapped (`{"function": {..}}`)
    OL_ID = 4                # the id the model gave the call (`tool_call_id`)
    OL_NAMED_FIRST = 5       # OL_KEYS_NAMED: the first member, decided at its value (ol_named_first)


cdef struct ol_state:
    int st
    int keys                 # OlKeys
    Py_ssize_t pos           # next byte to read
    Py_ssize_t key_at        # first byte of the key being read (after its quote)
    Py_ssize_t key_len       # the length of the last key read
    bint key_escaped
    int member               # the kind of the member whose value is being read
    Py_ssize_t value_at
    int depth
    unsigned char name_seen  # (bints, packed with depth)
    unsigned char arguments_seen
    unsigned char function_seen
    unsigned char wrapped    # reading the members of the `function` member's object
    unsigned char list_object       # a `;`, a next `{` or a `]` ends the object (a list's; packed)
    unsigned char after_value       # OL_MEMBER after a member's value (a bint, packed)
    bint has_name
    ByteBuf name             # the decoded name, once has_name
    Py_ssize_t id_at         # the `tool_call_id` is text[id_at:id_at + id_len] (id_len 0: none)
    Py_ssize_t id_len
    bint has_arguments       # the arguments value began
    unsigned char python     # keys and strings may be single-quoted (the top; a bint, packed with quote)
    unsigned char quote      # the quote the string being read closes at
    unsigned char id_seen    # (a bint, packed with them)
    unsigned char needs_arguments   # an object with no arguments member is no call (a bint, packed too)
    unsigned char fenced     # (the arguments object) a fence was read before it (a bint)
    Py_ssize_t arguments_at  # where (it may be < 0 once the text before it was let go of)
    Py_ssize_t arguments_end # -1 until it is complete
    Py_ssize_t close         # one past the object's `}` (or the offset of the `;`, `{`, `]` or `,`
                             # that ended it), -1 until then


# The bytes a nested value's run stops at: a string's quote (python, bit 1: `'` too), the
# brackets and (list_object, bit 2) a `;`.
cdef unsigned char OL_NESTED_STOPS[4][256]


cdef void ol_build_tables() noexcept:
    cdef int k
    memset(OL_NESTED_STOPS, 0, sizeof(OL_NESTED_STOPS))
    for k in range(4):
        for c in b'"{}[]':
            OL_NESTED_STOPS[k][c] = 1
        if k & 1:
            OL_NESTED_STOPS[k][APOSTROPHE] = 1
        if k & 2:
            OL_NESTED_STOPS[k][SEMICOLON] = 1


ol_build_tables()


cdef inline void ol_init(ol_state* s) noexcept:
    s.st = OL_BEFORE
    s.keys = OL_KEYS_CALL
    s.pos = 0
    s.key_at = 0
    s.key_len = 0
    s.key_escaped = False
    s.member = OL_OTHER
    s.value_at = 0
    s.depth = 0
    s.name_seen = False
    s.arguments_seen = False
    s.function_seen = False
    s.wrapped = False
    s.list_object = False
    s.after_value = False
    s.python = False
    s.fenced = False
    s.quote = QUOTE
    s.has_name = False
    s.name.data = NULL
    s.name.len = 0
    s.name.cap = 0
    s.id_seen = False
    s.id_at = 0
    s.id_len = 0
    s.has_arguments = False
    s.arguments_at = -1
    s.arguments_end = -1
    s.close = -1


cdef inline void ol_shift(ol_state* s, Py_ssize_t d) noexcept:
    """The text the outline reads lost its first d bytes (all read): its offsets move back.
    Only while the arguments value is being read: offsets before it are never read again."""
    s.pos -= d
    s.key_at -= d
    s.value_at -= d
    s.arguments_at -= d


cdef inline bint ol_key_is(const unsigned char* key, Py_ssize_t n, const char* word, Py_ssize_t wn) noexcept:
    return n == wn and memcmp(key, word, n) == 0


cdef int ol_member_kind(ol_state* s, const unsigned char* key, Py_ssize_t n) except -1:
    cdef ByteBuf decoded
    cdef int kind = OL_OTHER
    decoded.data = NULL
    decoded.len = 0
    decoded.cap = 0
    if s.keys == OL_KEYS_NAMED:
        # the first member: its key is the name and its value the arguments, or it begins a call
        # object: its value's first byte decides (ol_named_first)
        return OL_OTHER if s.name_seen else OL_NAMED_FIRST
    if s.key_escaped:
        try:
            if ol_decode_string(key, n, s.quote, &decoded) != 0:
                return OL_OTHER
            key = decoded.data
            n = decoded.len
            kind = ol_plain_kind(key, n, s.keys == OL_KEYS_ARGS)
        finally:
            bb_free(&decoded)
    else:
        kind = ol_plain_kind(key, n, s.keys == OL_KEYS_ARGS)
    if kind == OL_NAME:
        if s.name_seen:
            return OL_OTHER
        s.name_seen = True
    elif kind == OL_ARGUMENTS:
        if s.arguments_seen:
            return OL_OTHER
        s.arguments_seen = True
    elif kind == OL_FUNCTION:
        if s.function_seen or s.wrapped or s.name_seen or s.arguments_seen:
            return OL_OTHER
        s.function_seen = True
    elif kind == OL_ID:
        # only before the arguments begin (the call starts there, whatever arrives with them)
        if s.id_seen or s.has_arguments:
            return OL_OTHER
        s.id_seen = True
    return kind


cdef int ol_named_first(ol_state* s, const unsigned char* text, unsigned char c) except -1:
    """OL_KEYS_NAMED: the first member's value begins with c. Its key names the call and its value
    is the arguments (`{"NAME": {...}}`), unless the key is one a call object writes first: a name's
    (`name`, `tool_name`), OpenAI's `type` or `id` with a value that is no object or list, or a
    `function` whose value is an object (the wrapped call object). Then (`{"name": "f", …}`,
    `{"type": "function", "function": {…}}`) the object is a call object after all, read as one
    from this member on. Returns the member's kind."""
    cdef const unsigned char* key = text + s.key_at
    cdef Py_ssize_t n = s.key_len
    cdef int kind = OL_OTHER if s.key_escaped else ol_plain_kind(key, n, False)
    cdef bint call_object
    if c == LBRACE or c == LBRACKET:
        call_object = kind == OL_FUNCTION and c == LBRACE
    else:
        call_object = kind == OL_NAME or (not s.key_escaped and (ol_key_is(key, n, "type", 4)
                                                                 or ol_key_is(key, n, "id", 2)))
    if call_object:
        s.keys = OL_KEYS_CALL
        return ol_member_kind(s, key, n)
    s.name_seen = s.arguments_seen = True
    s.name.len = 0
    if not s.key_escaped:
        bb_append(&s.name, key, n)
    elif jt_decode_string(key, n, &s.name) != 0:
        return OL_ARGUMENTS
    s.has_name = True
    return OL_ARGUMENTS


cdef inline int ol_plain_kind(const unsigned char* key, Py_ssize_t n, bint args) noexcept:
    if ol_key_is(key, n, "name", 4) or ol_key_is(key, n, "tool_name", 9):
        return OL_NAME
    if ol_key_is(key, n, "arguments", 9) or ol_key_is(key, n, "parameters", 10):
        return OL_ARGUMENTS
    if args and ol_key_is(key, n, "args", 4):
        return OL_ARGUMENTS
    if ol_key_is(key, n, "function", 8):
        return OL_FUNCTION
    if ol_key_is(key, n, "tool_call_id", 12):
        return OL_ID
    return OL_OTHER


cdef int ol_value_done(ol_state* s, const unsigned char* text, Py_ssize_t end) except -1:
    """The member's value is text[value_at:end]; returns the state reading goes on in."""
    if s.member == OL_NAME:
        if text[s.value_at] == QUOTE or text[s.value_at] == APOSTROPHE:
            s.name.len = 0
            if ol_decode_string(text + s.value_at + 1, end - s.value_at - 2, text[s.value_at], &s.name) == 0:
                s.has_name = True
    elif s.member == OL_ID:
        # a string written without escapes: the id is the model's own bytes, as a head's is
        if text[s.value_at] == 34 and memchr(text + s.value_at + 1, 92, end - s.value_at - 2) == NULL:
            s.id_at = s.value_at + 1
            s.id_len = end - s.value_at - 2
    elif s.member == OL_ARGUMENTS:
        s.arguments_end = end
        if s.keys == OL_KEYS_ARGUMENTS:
            s.close = end
            return OL_CLOSED
    s.after_value = True
    return OL_MEMBER


cdef inline int ol_cut(ol_state* s, Py_ssize_t at) noexcept:
    """(list_object) A `;`, `{`, `]` or `,` at `at` ends the object before it, and arguments still
    being read there; returns the state reading ends in."""
    if s.has_arguments and s.arguments_end < 0:
        s.arguments_end = at
    s.close = at
    return OL_CLOSED


cdef inline bint ol_next_object(ol_state* s) noexcept:
    """(list_object) A `{` where a `,` or the `}` belongs opens the list's next object, a `]` there
    is the list's end, and a `,` there may be the list's: after a member's value, the arguments'
    value whole."""
    return s.list_object and s.after_value and s.arguments_end >= 0


cdef inline void ol_comma_is_member(ol_state* s) noexcept:
    """(OL_COMMA_HELD) The `,` reading waits at is the object's own (a key or other text follows
    it): reading goes on from it, as a member's `,`."""
    s.st = OL_MEMBER
    s.after_value = False


cdef inline int ol_fence(ol_state* s, unsigned char c) noexcept:
    """(OL_FENCE) The state after byte c of a fence before the arguments object (```json, or ```,
    then whitespace): OL_FENCE while c is the fence's (taken), OL_BEFORE at the whitespace that ends
    it (not taken: read as whitespace before the object), else OL_STOPPED."""
    if c == BACKTICK and s.depth < 3 and s.key_len == 0:
        s.depth += 1
        return OL_FENCE
    if s.depth == 3 and s.key_len < OL_FENCE_INFO and ((65 <= c <= 90) or (97 <= c <= 122)):
        s.key_len += 1
        return OL_FENCE
    if s.depth == 3 and u8_ascii_space(c):
        s.depth = s.key_len = 0
        s.fenced = True
        return OL_BEFORE
    return OL_STOPPED


cdef int ol_advance(ol_state* s, const unsigned char* text, Py_ssize_t n) except -1:
    """Reads text[s.pos:n] (the object so far); stops at the object's close or where reading stops.
    The state lives in `st` while reading (written back at the end)."""
    cdef Py_ssize_t i = s.pos, w, need
    cdef unsigned char c, quote
    cdef unsigned char other_quote = APOSTROPHE if s.python else QUOTE     # (a string's other opener)
    cdef const unsigned char* nested_stops = OL_NESTED_STOPS[(1 if s.python else 0)
                                                             | (2 if s.list_object else 0)]
    cdef int st = s.st
    while i < n and st != OL_CLOSED and st != OL_STOPPED and st != OL_COMMA_HELD:
        c = text[i]
        if st == OL_FENCE:
            st = ol_fence(s, c)
            if st == OL_FENCE:
                i += 1
            continue
        if st == OL_NESTED:
            # inside a nested value only quotes and brackets matter
            while not nested_stops[c]:
                i += 1
                if i == n:
                    break
                c = text[i]
            if i == n:
                break
            if c == SEMICOLON:
                st = ol_cut(s, i)
                break
            i += 1
            if c == 34 or c == other_quote:
                st = OL_NESTED_STRING
                s.quote = c
            elif c == 123 or c == 91:
                s.depth += 1
            else:
                s.depth -= 1
                if s.depth == 0:
                    st = ol_value_done(s, text, i)
            continue
        if st == OL_STRING or st == OL_NESTED_STRING or st == OL_KEY:
            # inside a string only its quote or a backslash matters
            quote = s.quote
            while c != quote and c != 92:
                i += 1
                if i == n:
                    break
                c = text[i]
            if i == n:
                break
            i += 1
            if c == 92:
                if st == OL_KEY:
                    s.key_escaped = True
                st = OL_STRING_ESCAPE if st == OL_STRING else (OL_NESTED_ESCAPE if st == OL_NESTED_STRING else OL_KEY_ESCAPE)
            elif st == OL_NESTED_STRING:
                st = OL_NESTED
            elif st == OL_STRING:
                st = ol_value_done(s, text, i)
            else:
                s.key_len = i - 1 - s.key_at
                s.member = ol_member_kind(s, text + s.key_at, s.key_len)
                st = OL_COLON
            continue
        if st == OL_STRING_ESCAPE or st == OL_NESTED_ESCAPE or st == OL_KEY_ESCAPE:
            st = OL_STRING if st == OL_STRING_ESCAPE else (OL_NESTED_STRING if st == OL_NESTED_ESCAPE else OL_KEY)
            i += 1
            continue
        if st == OL_SCALAR:
            if c == 44 or c == 125 or c == 93 or ((c == SEMICOLON or c == LBRACE) and s.list_object):
                st = ol_value_done(s, text, i)       # the byte is read again as a member separator
                continue
            if c >= 0x80:
                need = u8_char_len(c)
                if i + need > n:
                    break                       # wait for the whole character
                if u8_space_len(text + i, n - i):
                    st = ol_value_done(s, text, i)
                    continue
                i += need
            elif c == 0x20 or (0x09 <= c <= 0x0D):
                st = ol_value_done(s, text, i)
            else:
                i += 1
            continue
        # between tokens: whitespace first
        if c < 0x80:
            w = u8_ascii_space(c)
        elif i + u8_char_len(c) > n:
            break
        else:
            w = u8_space_len(text + i, n - i)
        if w:
            i += w
            continue
        if c == SEMICOLON and s.list_object and st != OL_BEFORE:
            st = ol_cut(s, i)
            break
        if st == OL_BEFORE:
            if c == BACKTICK and s.keys == OL_KEYS_ARGUMENTS and not s.fenced:
                st = OL_FENCE
                s.depth = s.key_len = 0
                continue
            if c == QUOTE and s.keys == OL_KEYS_ARGUMENTS:
                # the arguments written as a JSON string (the assembler reads an object in it)
                s.member = OL_ARGUMENTS
                s.value_at = s.arguments_at = i
                s.has_arguments = True
                s.quote = c
                st = OL_STRING
                i += 1
                continue
            if c != 123:
                st = OL_STOPPED
                break
            st = OL_MEMBER
            if s.keys == OL_KEYS_ARGUMENTS:
                s.member = OL_ARGUMENTS
                s.value_at = s.arguments_at = i
                s.has_arguments = True
                st = OL_NESTED
                s.depth = 1
        elif st == OL_MEMBER:
            if (c == LBRACE or c == RBRACKET) and ol_next_object(s):
                st = ol_cut(s, i)
                break
            if c == COMMA and ol_next_object(s):
                st = OL_COMMA_HELD
                break
            s.after_value = False
            if c == 125 and s.wrapped:
                s.wrapped = False       # the call object closed: the wrapper's members go on
                s.after_value = True
            elif c == 125:
                s.close = i + 1
                st = OL_CLOSED
            elif c == 34 or c == other_quote:
                st = OL_KEY
                s.quote = c
                s.key_at = i + 1
                s.key_escaped = False
            elif c != 44:
                st = OL_STOPPED
                break
        elif st == OL_COLON:
            if c != 58:
                st = OL_STOPPED
                break
            st = OL_VALUE_START
        else:  # OL_VALUE_START
            if c == 44 or c == 125 or c == 93 or c == 58:
                st = OL_STOPPED
                break
            s.value_at = i
            if s.member == OL_NAMED_FIRST:
                s.member = ol_named_first(s, text, c)
            if s.member == OL_FUNCTION and c == 123:
                s.wrapped = True        # the wrapped call object: its members are the call's
                st = OL_MEMBER
                i += 1
                continue
            if s.member == OL_ARGUMENTS:
                s.arguments_at = i
                s.has_arguments = True
            if c == 34 or c == other_quote:
                st = OL_STRING
                s.quote = c
            elif c == 123 or c == 91:
                st = OL_NESTED
                s.depth = 1
            else:
                st = OL_SCALAR
        i += 1
    s.st = st
    s.pos = i
    return 0


cdef int ol_decode_string(const unsigned char* body, Py_ssize_t n, unsigned char quote, ByteBuf* out) except -2:
    """Decodes a string's body (between its quotes) into `out` as jt_decode_string does: 0, or
    non-zero when it is no string. A single-quoted one (python) is read as json_prefix.pxi reads it:
    its `\'` is `'`, a `"` in it is the character, `\/` is refused, other escapes are JSON's."""
    cdef ByteBuf body_json
    cdef Py_ssize_t i = 0
    if quote == QUOTE:
        return jt_decode_string(body, n, out)
    body_json.data = NULL
    body_json.len = 0
    body_json.cap = 0
    try:
        while i < n:
            if body[i] == BACKSLASH and i + 1 < n and (body[i + 1] == APOSTROPHE or body[i + 1] == SLASH):
                if body[i + 1] == SLASH:
                    return 1
                bb_push(&body_json, APOSTROPHE)
                i += 2
                continue
            if body[i] == BACKSLASH and i + 1 < n:
                bb_append(&body_json, body + i, 2)
                i += 2
                continue
            if body[i] == QUOTE:
                bb_push(&body_json, BACKSLASH)
            bb_push(&body_json, body[i])
            i += 1
        return jt_decode_string(body_json.data, body_json.len, out)
    finally:
        bb_free(&body_json)


def json_outline(text):
    """Python view of the outline of `text` (str or UTF-8 bytes), all offsets in bytes:
    {"name": str | None, "arguments": (start, end | None) | None, "close": int | None}."""
    cdef bytes raw = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    cdef ol_state s
    ol_init(&s)
    try:
        ol_advance(&s, <const unsigned char*>(<char*>raw), len(raw))
        return {
            "name": PyUnicode_DecodeUTF8(<const char*>s.name.data, s.name.len, NULL) if s.has_name else None,
            "arguments": None if not s.has_arguments else
                         (s.arguments_at, None if s.arguments_end < 0 else s.arguments_end),
            "close": None if s.close < 0 else s.close,
        }
    finally:
        bb_free(&s.name)


def json_string_decode(body):
    """Strict JSON decoding of a string's body (the bytes between its quotes): str, or None when
    it is not valid JSON (serde_json's rules)."""
    cdef bytes raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    cdef ByteBuf out
    out.data = NULL
    out.len = 0
    out.cap = 0
    try:
        if jt_decode_string(<const unsigned char*>(<char*>raw), len(raw), &out) != 0:
            return None
        return PyUnicode_DecodeUTF8(<const char*>out.data, out.len, "surrogatepass")
    finally:
        bb_free(&out)
