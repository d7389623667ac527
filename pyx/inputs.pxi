# What a parser is fed (SPEC §1.5): Prompt, Delta, End, and TokenSpan with BYTE offsets.
# Types are checked here, when an input is built; whether spans partition the text is the
# Ledger's question (a stream whose spans do not fit turns uncounted, it does not fail).

cdef extern from "Python.h":
    const char* PyUnicode_UTF8_cached "PyUnicode_AsUTF8AndSize"(object text, Py_ssize_t* size)


cdef inline const unsigned char* utf8_of(str text, Py_ssize_t* n, str field) except NULL:
    """The UTF-8 bytes of `text` (CPython caches them on the str); ValueError naming the field
    when the text cannot be UTF-8 (a lone surrogate)."""
    cdef const char* p = PyUnicode_UTF8_cached(text, n)
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


@cython.freelist(64)
@cython.final
@cython.no_gc
cdef class TokenSpan:
    """One token's bytes in a delta's UTF-8 text: [start, end), `continued` if released late."""
    cdef readonly object token_id
    cdef readonly Py_ssize_t start
    cdef readonly Py_ssize_t end
    cdef readonly bint continued

    def __init__(self, token_id, Py_ssize_t start, Py_ssize_t end, bint continued=False):
        if not isinstance(token_id, int) or isinstance(token_id, bool):
            raise TypeError(f"TokenSpan: token_id must be an int, not {type(token_id).__name__}")
        if start < 0 or end < start:
            raise ValueError(f"TokenSpan: need 0 <= start <= end, got start={start}, end={end}")
        self.token_id = token_id
        self.start = start
        self.end = end
        self.continued = continued

    @staticmethod
    def partitions(spans, text):
        """Whether `spans` lay out `text` (str or UTF-8 bytes) exactly: ordered, contiguous from 0
        to its length, every end on a character boundary. `continued` is not looked at."""
        cdef bytes raw = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        cdef Delta probe = Delta("", (), spans)
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


@cython.freelist(8)
@cython.final
cdef class Prompt:
    """The prompt the engine was given (text decoded with special tokens kept). Optional, first."""
    cdef readonly str text
    cdef readonly object token_ids

    def __init__(self, text="", token_ids=()):
        cdef Py_ssize_t n
        self.text = _check_str(text, "Prompt.text")
        utf8_of(self.text, &n, "Prompt.text")
        self.token_ids = token_ids

    def __repr__(self):
        return f"Prompt({self.text!r})"


@cython.freelist(64)
@cython.final
cdef class Delta:
    """One decoded piece of output: its text, the token ids that produced it, and their spans."""
    cdef readonly str text
    cdef readonly object token_ids
    cdef readonly object spans
    cdef SpanForm form
    cdef object array          # the int64 (n, 4) array when form == SPANS_ARRAY
    cdef const int64_t[:, :] rows

    def __init__(self, text, token_ids=(), spans=()):
        cdef Py_ssize_t n
        if type(text) is not str:
            self.text = _check_str(text, "Delta.text")
        else:
            self.text = text
        utf8_of(self.text, &n, "Delta.text")
        self.token_ids = token_ids
        self.spans = spans
        cdef type kind = type(spans)
        cdef tuple items
        if kind is tuple or kind is list:
            items = <tuple>spans if kind is tuple else PyList_AsTuple(spans)
            if not items:
                self.form = SPANS_NONE
                return
            for span in items:
                if type(span) is not TokenSpan:
                    raise TypeError(f"Delta.spans: expected TokenSpan items, got {type(span).__name__}")
            self.spans = items
            self.form = SPANS_OBJECTS
        elif spans is None:
            self.form = SPANS_NONE
        else:
            self._take_array(spans)

    cdef int _take_array(self, object spans) except -1:
        np = _numpy()
        try:
            array = np.asarray(spans)
        except Exception:
            raise TypeError(f"Delta.spans: expected TokenSpans or an (n, 4) integer array, "
                            f"not {type(spans).__name__}") from None
        if array.ndim != 2 or array.shape[1] != 4:
            raise ValueError(f"Delta.spans: expected an (n, 4) integer array, got shape {array.shape}")
        if array.dtype.kind not in "iu":
            raise TypeError(f"Delta.spans: expected an integer array, got dtype {array.dtype}")
        if array.shape[0] == 0:
            self.form = SPANS_NONE
            return 0
        if array.dtype != np.int64:
            array = array.astype(np.int64)
        self.array = array
        self.rows = array
        self.form = SPANS_ARRAY
        return 0

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
            self.finish = _check_str(finish, "End.finish")

    def __repr__(self):
        return f"End({self.finish!r})"


cdef object _numpy_module = None

cdef object _numpy():
    global _numpy_module
    if _numpy_module is None:
        import numpy
        _numpy_module = numpy
    return _numpy_module
