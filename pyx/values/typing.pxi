# Value typing for the tagged call syntaxes (SPEC §5.1, §5.2): the text of one argument value
# becomes JSON, typed by the Kind the tool's schema declares for its parameter. A declared string
# is its text, every byte; a declared integer is its digits; anything else is inferred: the text
# itself when it is JSON the client can read back (values/strings.pxi), else the JSON of the
# Python literal it spells (values/python_literal.pxi), else the string of the text. Where the
# schema declares a number or a container, a value the model wrapped in a string is read inside
# it (a quoted number, a double-encoded or escaped array or object), so one odd value never costs
# a call its other arguments. The caller has already taken away the newlines a template writes
# around a value; nothing else is taken from it here. The Python views at the end are for tests
# and tools.

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


# ---- A JSON word the schema does not admit, where it admits a string
#
# DSML marks a value `string="false"` (JSON) or `string="true"` (text); a model sometimes marks a
# declared string's text `string="false"` (`null` or `true` for a parameter whose schema is
# `{"type": "string"}`). Where the schema admits a string and not the JSON word the text is
# (`null`, `true`, `false`), the value is the word as a string (`"null"`), as vLLM's deepseek_v32
# reads it. A word the schema admits (`null` under `["string", "null"]`), a number, an array and
# an object stay as written (SGLang's deepseekv4 keeps `12345e-3` a number under a declared string).

cdef enum:
    VT_WORD_NULL = 1
    VT_WORD_BOOLEAN = 2


cdef inline int vt_word_of(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """The VT_WORD_* bit of the JSON value p[0:n] (one that reads back), 0 for anything but a word."""
    if n == 0:
        return 0
    if p[0] == LOWER_N:
        return VT_WORD_NULL
    if p[0] == c't' or p[0] == c'f':
        return VT_WORD_BOOLEAN
    return 0


cdef int vt_word_as_text(ByteBuf* out, Py_ssize_t at, const unsigned char* p, Py_ssize_t n, int words) except -1:
    """out[at:] is the JSON vt_json wrote for the text p[0:n] read with no declaration: where it
    is a word among `words` (FunctionKinds.text_words), it becomes the string of the text as
    written, without the whitespace around it."""
    cdef Py_ssize_t start, end
    if words == 0 or not (vt_word_of(out.data + at, out.len - at) & words):
        return 0
    out.len = at
    start = vt_trim_start(p, n)
    end = vt_trim_end(p, start, n)
    return vt_quoted(p + start, end - start, out)


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

cdef enum:
    VT_AS_BOOLEAN = 100      # (no Kind: the schema admits a boolean, and nothing but null besides)


cdef bint vt_inside_as_declared(const unsigned char* p, Py_ssize_t n, int kind, ByteBuf* out,
                                int max_depth) except -1:
    """Appends the JSON of p[0:n] (the text inside a string layer) when it is a value of the
    declared `kind`: a JSON number (an integer as vt_integer reads it) under a number or an
    integer, an array or object (JSON, or a Python literal) under an array or object, `true` or
    `false` in any case under VT_AS_BOOLEAN; True then, else False with out unchanged."""
    cdef Py_ssize_t start = vt_trim_start(p, n), end, mark = out.len
    cdef unsigned char opener
    end = vt_trim_end(p, start, n)
    p += start
    n = end - start
    if n == 0:
        return False
    if kind == VT_AS_BOOLEAN:
        if n == 4 and ascii_iequal(p, "true", 4):
            bb_append(out, <const unsigned char*>"true", 4)
            return True
        if n == 5 and ascii_iequal(p, "false", 5):
            bb_append(out, <const unsigned char*>"false", 5)
            return True
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


# A JSON call object's member written as a string, where the schema declares something else
# (K2-Horizon's `json` form, `{"limit": "5", "enabled": "true"}`): the string's text is read as the
# value of its declared number, integer, array or object, as a tag-written value's string is
# (above), and as a boolean where the schema admits a boolean and no string (`"true"`, `"False"`).

cdef inline bint vt_string_read_as(const unsigned char* body, Py_ssize_t n, int as_kind, ByteBuf* out) except -1:
    """When the body of a JSON string (between its quotes) holds a value of `as_kind` (a Kind
    vt_string_as_declared reads, or VT_AS_BOOLEAN), appends that value's JSON and returns True;
    else False, out unchanged."""
    return vt_body_as_declared(body, n, as_kind, out, VT_READ_DEPTH)


cdef bint vt_escaped_container(const unsigned char* p, Py_ssize_t n, int kind, ByteBuf* out,
                               int max_depth) except -1:
    """Under a declared array or object, text that is neither JSON nor a Python literal but is the
    body of a JSON string holding a value of that kind (escaped JSON, the string's quotes left
    off): appends that value and returns True; else False, out unchanged. Text without a
    backslash is its own body, so only escaped text is read this way."""
    if (kind != KIND_ARRAY and kind != KIND_OBJECT) or n <= 0 or memchr(p, BACKSLASH, n) == NULL:
        return False
    return vt_body_as_declared(p, n, kind, out, max_depth)


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
