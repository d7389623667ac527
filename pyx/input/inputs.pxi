# What a parser is fed (SPEC §1.5): Prompt, Delta, End, and TokenSpan with BYTE offsets.
# Types are checked here, when an input is built, and so is what the inputs say about tokens:
# ids are 0 <= id < 2**32, and a delta's non-continued spans name its token_ids in order. Whether
# spans partition the text is the Ledger's question (a stream whose spans do not fit turns
# uncounted, it does not fail; `Engine.counting` tells).

cdef extern from "Python.h":
    const char* PyUnicode_UTF8_cached "PyUnicode_AsUTF8AndSize"(object text, Py_ssize_t* size)
    bint PyUnicode_IS_COMPACT_ASCII(object text)
    void* PyUnicode_DATA(object text)
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    long long PyLong_AsLongLongAndOverflow(object value, int* overflow) except? -1
    object PyUnicode_FromObject(object value)
    bint PyObject_CheckBuffer(object value)
    object PyNumber_Index(object value)
    ctypedef struct PyObject
    Py_ssize_t PySequence_Fast_GET_SIZE(object seq)
    PyObject* PySequence_Fast_GET_ITEM(object seq, Py_ssize_t i)
    PyObject* PyList_GET_ITEM(object list, Py_ssize_t i)       # borrowed
    PyObject* PyTuple_GET_ITEM(object tuple, Py_ssize_t i)     # borrowed

from sys import modules as sys_modules

cdef int64_t TOKEN_ID_END = 1LL << 32    # token ids are 0 <= id < 2**32
cdef str IDS_ARE = "a list or tuple of ints or a 1-D integer numpy array"
cdef str SPANS_ARE = "a list or tuple of TokenSpan or an (n, 4) integer array"


cdef inline const unsigned char* utf8_of(str text, Py_ssize_t* n, str field) except NULL:
    """The UTF-8 bytes of `text` (CPython caches them on the str); ValueError naming the field
    when the text cannot be UTF-8 (a lone surrogate). An ASCII str's characters are its UTF-8."""
    cdef const char* p
    if PyUnicode_IS_COMPACT_ASCII(text):
        n[0] = PyUnicode_GET_LENGTH(text)
        return <const unsigned char*>PyUnicode_DATA(text)
    p = PyUnicode_UTF8_cached(text, n)
    if p == NULL:
        return utf8_refused(text, field)
    return <const unsigned char*>p


cdef const unsigned char* utf8_refused(str text, str field) except NULL:
    """The error of a text with no UTF-8 form (a lone surrogate), as a ValueError naming the
    field (the fast path left the encoder's error set: it is read again here, off the hot path)."""
    cdef Py_ssize_t n
    PyErr_Clear()
    try:
        PyUnicode_AsUTF8AndSize(text, &n)
    except UnicodeEncodeError as e:
        raise ValueError(f"{field}: not UTF-8 text ({e.reason} at character {e.start})") from None
    raise InternalError(f"{field}: no UTF-8 form")


cdef enum SpanForm:
    SPANS_NONE = 0       # no spans given
    SPANS_OBJECTS = 1    # a tuple of TokenSpan
    SPANS_ARRAY = 2      # an (n, 4) int64 array: token_id, start, end, continued
    SPANS_ONE = 3        # one TokenSpan (Delta.one): a streamed token, no tuple made for it


cdef str text_of(object value, str field):
    """`value` as an exact str: a str subclass gives its own characters (a copy; its __str__,
    which may say anything, is not called); TypeError naming the field for anything else."""
    if type(value) is str:
        return <str>value
    if isinstance(value, str):
        return PyUnicode_FromObject(value)
    raise TypeError(f"{field} must be a str, not {type(value).__name__}")


cdef inline int64_t token_id_of(object value, str field) except -1:
    """A token id as a C integer: an int (or a numpy integer scalar, anything with __index__ but
    bool) with 0 <= id < 2**32; TypeError/ValueError naming the field otherwise."""
    cdef int overflow = 0
    cdef long long v
    if type(value) is not int:
        return token_id_refused(value, field)
    v = PyLong_AsLongLongAndOverflow(value, &overflow)
    if overflow or v < 0 or v >= TOKEN_ID_END:
        return token_id_refused(value, field)
    return v


cdef int64_t token_id_refused(object value, str field) except -1:
    """token_id_of off its fast path: an integer that is not an exact int, or the error."""
    if isinstance(value, bool):
        raise TypeError(f"{field}: a token id is an int, not {type(value).__name__}")
    if type(value) is not int:
        try:
            value = PyNumber_Index(value)
        except TypeError:
            raise TypeError(f"{field}: a token id is an int, not {type(value).__name__}") from None
        return token_id_of(value, field)
    raise ValueError(f"{field}: a token id is 0 <= id < 2**32, got {value}")


cdef inline int64_t id_in_range(int64_t v, str field) except -1:
    if v < 0 or v >= TOKEN_ID_END:
        raise ValueError(f"{field}: a token id is 0 <= id < 2**32, got {v}")
    return v


cdef object array_of(object value, str field, str rule):
    """`value` as a numpy array, for a field that takes an array (the rule says what else it
    takes): only array-likes (an ndarray, a buffer, anything with __array__) are read as arrays,
    so a generator, a set or a single object is a TypeError, not a 0-d array; a masked array is
    refused (its mask would be ignored)."""
    masked = sys_modules.get("numpy.ma")
    if masked is not None and isinstance(value, masked.MaskedArray):
        raise TypeError(f"{field}: a masked array's mask would be ignored; pass a plain array "
                        f"(e.g. .compressed() or .filled())")
    if not (PyObject_CheckBuffer(value) or hasattr(value, "__array__")
            or hasattr(value, "__array_interface__")) or isinstance(value, (str, bytes)):
        raise TypeError(f"{field}: expected {rule}, not {type(value).__name__}")
    np = _numpy()
    try:
        return np.asarray(value)
    except Exception:
        raise TypeError(f"{field}: expected {rule}, not {type(value).__name__}") from None


cdef object id_column(object ids, str field):
    """token_ids given as an array: a C-contiguous int64 copy (or the array itself), checked 1-D
    and of an integer dtype."""
    array = array_of(ids, field, IDS_ARE)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{field}: expected integer token ids, got dtype {array.dtype}")
    if array.ndim != 1:
        raise ValueError(f"{field}: expected a 1-D array of token ids, got shape {array.shape}")
    if array.dtype.kind == "u" and array.dtype.itemsize == 8 and array.size and array.max() >= TOKEN_ID_END:
        raise ValueError(f"{field}: a token id is 0 <= id < 2**32, got {array.max()}")
    return _numpy().ascontiguousarray(array, dtype=_numpy().int64)


cdef int check_token_ids(object ids, str field, Delta delta) except -1:
    """Checks token ids (a list or tuple of ints, or a 1-D integer array; 0 <= id < 2**32) and,
    for a delta with spans, that its non-continued spans name exactly these ids in order (SPEC
    §1.5)."""
    if type(ids) is list or type(ids) is tuple or isinstance(ids, (list, tuple)):
        return check_ids(ids, NULL, -1, field, delta)
    return check_id_array(ids, field, delta)


cdef int check_id_array(object ids, str field, Delta delta) except -1:
    cdef const int64_t[::1] column = id_column(ids, field)
    cdef Py_ssize_t n = column.shape[0]
    return check_ids(None, &column[0] if n else NULL, n, field, delta)


cdef int check_ids(object ids, const int64_t* data, Py_ssize_t n, str field, Delta delta) except -1:
    """check_token_ids on the ids of a list or tuple (ids, n -1) or of an int64 column data[0:n]."""
    cdef Py_ssize_t j = 0, i
    cdef TokenSpan span
    if delta is None or delta.form == SPANS_NONE:
        while id_at(ids, data, n, j, field) >= 0:
            j += 1
        return 0
    if delta.form == SPANS_ONE:
        if not delta.one.continued:
            match_id(ids, data, n, 0, delta.one.token_id, field)
            j = 1
    elif delta.form == SPANS_OBJECTS:
        for item in <tuple>delta.given_spans:
            span = <TokenSpan>item
            if not span.continued:
                match_id(ids, data, n, j, span.token_id, field)
                j += 1
    else:
        for i in range(delta.nrows):
            id_in_range(delta.row(i, 0), "Delta.spans")
            if delta.row(i, 3) == 0:
                match_id(ids, data, n, j, delta.row(i, 0), field)
                j += 1
    if id_at(ids, data, n, j, field) >= 0:
        raise ValueError(f"{field}: has more ids than the delta's non-continued spans name ({j}); "
                         f"the spans must name exactly these ids, in order")
    return 0


cdef inline int64_t id_at(object ids, const int64_t* data, Py_ssize_t n, Py_ssize_t j, str field) except -2:
    """Token id j, checked, of a list or tuple (ids; its size read afresh, an item's __index__ may
    change it) or of an int64 column data[0:n]; -1 past the end."""
    cdef object item
    if n >= 0:
        return id_in_range(data[j], field) if j < n else -1
    if j >= PySequence_Fast_GET_SIZE(ids):
        return -1
    item = <object>PySequence_Fast_GET_ITEM(ids, j)
    return token_id_of(item, field)


cdef inline int match_id(object ids, const int64_t* data, Py_ssize_t n, Py_ssize_t j, int64_t named,
                         str field) except -1:
    """The delta's j-th non-continued span names token `named`: token_ids[j] must be it."""
    cdef int64_t given = id_at(ids, data, n, j, field)
    if given != named:
        return ids_differ(j, named, given, field)
    return 0


cdef int ids_differ(Py_ssize_t j, int64_t named, int64_t given, str field) except -1:
    said = "nothing (it is shorter)" if given < 0 else str(given)
    raise ValueError(f"{field}: non-continued span {j} names token {named}, token_ids[{j}] is "
                     f"{said}; the spans must name exactly these ids, in order")


@cython.freelist(64)
@cython.final
@cython.no_gc
cdef class TokenSpan:
    """One token's bytes in a delta's UTF-8 text: [start, end), `continued` if released late."""
    cdef readonly uint32_t token_id
    cdef readonly Py_ssize_t start
    cdef readonly Py_ssize_t end
    cdef readonly bint continued

    def __init__(self, token_id, Py_ssize_t start, Py_ssize_t end, bint continued=False):
        self.token_id = <uint32_t>token_id_of(token_id, "TokenSpan.token_id")
        if start < 0 or end < start:
            raise ValueError(f"TokenSpan: need 0 <= start <= end, got start={start}, end={end}")
        self.start = start
        self.end = end
        self.continued = continued

    @staticmethod
    def partitions(spans, text):
        """Whether `spans` lay out `text` (str or UTF-8 bytes) exactly: ordered, contiguous from 0
        to its length, every end on a character boundary. `continued` is not looked at."""
        cdef bytes raw = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        cdef Delta probe = Delta.__new__(Delta)
        probe.take_spans(spans)
        return lg_spans_partition(probe, <const unsigned char*>raw, len(raw))

    def __eq__(self, other):
        return (type(other) is TokenSpan and (<TokenSpan>other).token_id == self.token_id
                and (<TokenSpan>other).start == self.start and (<TokenSpan>other).end == self.end
                and (<TokenSpan>other).continued == self.continued)

    def __hash__(self):
        return hash((self.token_id, self.start, self.end, self.continued))

    def __repr__(self):
        return f"TokenSpan({self.token_id!r}, {self.start}, {self.end}, continued={self.continued!r})"

    def __reduce__(self):
        return (TokenSpan, (self.token_id, self.start, self.end, self.continued))


cdef inline TokenSpan span_item(object item):
    """An item of Delta.spans given as a list or tuple: a TokenSpan, or TypeError."""
    if type(item) is not TokenSpan:
        raise TypeError(f"Delta.spans: expected TokenSpan items, got {type(item).__name__}")
    return <TokenSpan>item


@cython.freelist(8)
@cython.final
cdef class Prompt:
    """The prompt the engine was given (text decoded with special tokens kept). Optional, first."""
    cdef readonly str text
    cdef readonly object token_ids

    def __init__(self, text="", token_ids=()):
        cdef Py_ssize_t n
        self.text = text_of(text, "Prompt.text")
        utf8_of(self.text, &n, "Prompt.text")
        check_token_ids(token_ids, "Prompt.token_ids", None)
        self.token_ids = token_ids

    def __repr__(self):
        return f"Prompt({self.text!r})"


@cython.freelist(64)
@cython.final
cdef class Delta:
    """One decoded piece of output: its text, the token ids that produced it, and their spans."""
    cdef readonly str text
    cdef readonly object token_ids
    cdef object given_spans    # what `spans` reads: a tuple of TokenSpan, an array, or None for
                               # SPANS_ONE made from a list (the tuple is made only when asked)
    cdef TokenSpan one         # the span when form == SPANS_ONE
    cdef SpanForm form
    cdef object array          # the C-contiguous int64 (n, 4) array when form == SPANS_ARRAY,
    cdef const int64_t* rows   # its data and its number of rows: a pointer, not a typed view,
    cdef Py_ssize_t nrows      # whose struct every Delta would clear and release (row() reads it)
    cdef const unsigned char* utf8     # the text's UTF-8 (cached on the str, which this holds)
    cdef Py_ssize_t size               # its length in bytes

    def __init__(self, text, token_ids=(), spans=()):
        self.utf8 = NULL                # not the bytes of an earlier text, should this fail
        self.text = <str>text if type(text) is str else text_of(text, "Delta.text")
        self.utf8 = utf8_of(self.text, &self.size, "Delta.text")
        if type(spans) is tuple and type(token_ids) is tuple and not <tuple>spans and not <tuple>token_ids:
            self.given_spans = spans    # no token data (most uncounted deltas): nothing to check
            self.form = SPANS_NONE
        elif not self.take_one_token(token_ids, spans):
            self.take_spans(spans)
            check_token_ids(token_ids, "Delta.token_ids", self)
        self.token_ids = token_ids

    cdef inline bint take_one_token(self, object ids, object spans) noexcept:
        """A streamed token's fast path: one TokenSpan, not continued, and one exact int that is
        its id, each in a list or tuple of one; it is taken as SPANS_ONE. False for anything else,
        which the general path takes (and names what is wrong with it)."""
        cdef bint spans_list = type(spans) is list, ids_list = type(ids) is list
        cdef PyObject* span
        cdef PyObject* item
        cdef long long value
        if not ((spans_list or type(spans) is tuple) and (ids_list or type(ids) is tuple)):
            return False
        if Py_SIZE(spans) != 1 or Py_SIZE(ids) != 1:      # a list's or a tuple's length
            return False
        # borrowed: the lists hold them (nothing below runs Python code)
        span = PyList_GET_ITEM(spans, 0) if spans_list else PyTuple_GET_ITEM(spans, 0)
        item = PyList_GET_ITEM(ids, 0) if ids_list else PyTuple_GET_ITEM(ids, 0)
        if type(<object>span) is not TokenSpan or (<TokenSpan><object>span).continued:
            return False
        if type(<object>item) is not int or not si_small(<object>item, &value):
            return False
        if value != (<TokenSpan><object>span).token_id:
            return False
        self.one = <TokenSpan><object>span
        self.given_spans = spans if not spans_list else None
        self.form = SPANS_ONE
        return True

    @property
    def spans(self):
        """The spans as given: a tuple of TokenSpan (a list is read as its tuple), the (n, 4)
        array, () or None."""
        if self.form == SPANS_ONE and self.given_spans is None:
            return (self.one,)
        return self.given_spans

    def __reduce__(self):
        # by what it was made of: Cython's own pickling of the typed fields read an unset view
        return (Delta, (self.text, self.token_ids, self.spans))

    cdef int take_spans(self, object spans) except -1:
        cdef type kind = type(spans)
        cdef tuple items
        cdef object first
        self.given_spans = spans
        if kind is tuple or kind is list:
            if PySequence_Fast_GET_SIZE(spans) == 1:
                first = <object>PySequence_Fast_GET_ITEM(spans, 0)
                self.one = span_item(first)
                self.given_spans = spans if kind is tuple else None
                self.form = SPANS_ONE
                return 0
            items = <tuple>spans if kind is tuple else PyList_AsTuple(spans)
            if not items:
                self.given_spans = items
                self.form = SPANS_NONE
                return 0
            for span in items:
                span_item(span)
            self.given_spans = items
            self.form = SPANS_OBJECTS
        elif spans is None:
            self.form = SPANS_NONE
        else:
            self._take_array(spans)
        return 0

    cdef int _take_array(self, object spans) except -1:
        cdef const int64_t[:, ::1] view
        np = _numpy()
        array = array_of(spans, "Delta.spans", SPANS_ARE)
        if array.ndim != 2 or array.shape[1] != 4:
            raise ValueError(f"Delta.spans: expected an (n, 4) integer array, got shape {array.shape}")
        if array.dtype.kind not in "iu":
            raise TypeError(f"Delta.spans: expected an integer array, got dtype {array.dtype}")
        if array.shape[0] == 0:
            self.form = SPANS_NONE
            return 0
        array = np.ascontiguousarray(array, dtype=np.int64)
        view = array
        self.array = array         # keeps the data the pointer reads alive
        self.rows = &view[0, 0]
        self.nrows = view.shape[0]
        self.form = SPANS_ARRAY
        return 0

    cdef inline int64_t row(self, Py_ssize_t i, int column) noexcept:
        """Column `column` (token_id, start, end, continued) of span row i < nrows."""
        return self.rows[4 * i + column]

    cdef inline const unsigned char* bytes_of(self, Py_ssize_t* n) except NULL:
        """The text's UTF-8 bytes and their length (a Delta made without __init__ reads them now)."""
        if self.utf8 == NULL:
            return utf8_of(self.text, n, "Delta.text")
        n[0] = self.size
        return self.utf8

    def __repr__(self):
        return f"Delta({self.text!r}, token_ids={self.token_ids!r}, spans={self.spans!r})"


@cython.freelist(8)
@cython.final
cdef class End:
    """The end of the stream and why the engine stopped: "stop", "length", "abort" or any other text."""
    cdef readonly str finish

    def __init__(self, finish="stop"):
        if type(finish) is str:
            self.finish = finish
        elif isinstance(finish, FinishReason):
            self.finish = finish.value
        else:
            self.finish = text_of(finish, "End.finish")

    def __repr__(self):
        return f"End({self.finish!r})"


cdef object _numpy_module = None

cdef object _numpy():
    global _numpy_module
    if _numpy_module is None:
        import numpy
        _numpy_module = numpy
    return _numpy_module
