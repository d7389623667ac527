# The Arrow columns of a batch's messages (symphony.batch, as_arrow): each output's summary row
# (Sink.summary_into) written straight into the buffers of Arrow's layout, its texts as the
# UTF-8 bytes they are in the parser, with no Python object per field or per call; `columns()`
# copies each buffer once into a bytes object, which symphony.batch's arrays then wrap as it is.
# Offsets are written as int64 and validity one byte per row (the caller makes Arrow's 32-bit
# offsets and bitmaps of them). Once a column's bytes pass `seal_bytes` (1 GiB unless told) the
# rows so far are sealed as one batch and the next rows start new buffers, so every batch's
# strings fit Arrow's 32-bit offsets, however many rows are written.
#
# The same buffers carry rows between processes (symphony.batch: a worker's rows, read back by
# summary_rows_of in its parent). There a finish reason is kept as given, lone surrogates too
# (its surrogatepass bytes), so that a batch's messages do not depend on where they were parsed;
# an Arrow table holds UTF-8 only, so there such a finish is that row's error.


cdef struct ar_strings:
    ByteBuf data
    ByteBuf offsets           # int64, one more than the rows (or calls)
    ByteBuf valid             # uint8 per row


cdef struct ar_ints:
    ByteBuf values            # int64
    ByteBuf valid


cdef inline int ar_offset(ByteBuf* offsets, int64_t at) except -1:
    bb_reserve(offsets, sizeof(int64_t))
    memcpy(offsets.data + offsets.len, &at, sizeof(int64_t))
    offsets.len += sizeof(int64_t)
    return 0


cdef inline int ar_push(ar_strings* s, const unsigned char* p, Py_ssize_t n, bint valid=True) except -1:
    """One string (valid), or a null: its offset, its bytes, its validity."""
    if valid:
        bb_append(&s.data, p, n)
    ar_offset(&s.offsets, s.data.len)
    return bb_push(&s.valid, valid)


cdef inline int ar_push_int(ar_ints* s, int64_t value, bint valid=True) except -1:
    ar_offset(&s.values, value if valid else 0)
    return bb_push(&s.valid, valid)


cdef inline object ar_bytes(ByteBuf* b):
    return PyBytes_FromStringAndSize(<const char*>b.data, b.len) if b.len else b""


cdef enum:
    AR_CONTENT = 0
    AR_REASONING = 1
    AR_FINISH = 2
    AR_ERROR = 3
    AR_IDS = 4                # a string per call, of every row
    AR_NAMES = 5
    AR_ARGUMENTS = 6
    AR_STRINGS = 7
    AR_OUTPUT_TOKENS = 0
    AR_REASONING_TOKENS = 1
    AR_MALFORMED = 2
    AR_INTS = 3


@cython.final
@cython.no_gc
cdef class ArrowRows(SummaryRows):
    """The columns of `symphony.batch.arrow_schema()` being written, a row per output: the
    message's content, reasoning, tool calls (id, name, arguments) and finish reason, its output
    and reasoning tokens (null when uncounted), its malformed bytes and, for an output that
    failed, only its error. `crossing`: rows for summary_rows_of, not an Arrow table (a finish
    reason with lone surrogates written as its surrogatepass bytes rather than refused)."""
    cdef readonly Py_ssize_t rows              # in the batch being written
    cdef ar_strings strings[AR_STRINGS]
    cdef ar_ints ints[AR_INTS]
    cdef ByteBuf call_offsets                   # int64 per row + 1: its calls among all of them
    cdef ByteBuf calls_valid                    # uint8 per row: any call started
    cdef Py_ssize_t seal_bytes
    cdef list sealed                            # the batches sealed so far, as `columns` gives them
    cdef object finish                          # the row being written's finish reason (its owner)
    cdef const unsigned char* finish_utf8       # (NULL: null)
    cdef Py_ssize_t finish_n
    cdef bint crossing

    def __cinit__(self, Py_ssize_t seal_bytes=1 << 30, bint crossing=False):
        cdef int k
        self.seal_bytes = seal_bytes
        self.crossing = crossing
        self.sealed = []
        for k in range(AR_STRINGS):
            ar_offset(&self.strings[k].offsets, 0)
        ar_offset(&self.call_offsets, 0)

    def __dealloc__(self):
        cdef int k
        for k in range(AR_STRINGS):
            bb_free(&self.strings[k].data)
            bb_free(&self.strings[k].offsets)
            bb_free(&self.strings[k].valid)
        for k in range(AR_INTS):
            bb_free(&self.ints[k].values)
            bb_free(&self.ints[k].valid)
        bb_free(&self.call_offsets)
        bb_free(&self.calls_valid)

    cdef int begin_row(self, object finish) except -1:
        """(Then, once a column's bytes have passed seal_bytes, the batch so far is sealed (copied
        out; nothing changes when that fails) and the buffers start over, emptied in place and
        then shrunk, which cannot fail.)"""
        cdef int k
        self.finish_utf8 = NULL
        self.finish_n = 0
        self.finish = finish
        if finish is not None:
            self.finish_utf8 = self.crossing_text(finish, &self.finish_n) if self.crossing else \
                utf8_of(finish, &self.finish_n, "finish_reason")
        for k in range(AR_STRINGS):
            if self.strings[k].data.len > self.seal_bytes:
                break
        else:
            return 0
        self.sealed.append(self.batch())
        self.rows = 0
        for k in range(AR_STRINGS):
            self.strings[k].data.len = self.strings[k].valid.len = 0
            self.strings[k].offsets.len = 0
            ar_offset(&self.strings[k].offsets, 0)       # (into room it already has)
        for k in range(AR_INTS):
            self.ints[k].values.len = self.ints[k].valid.len = 0
        self.calls_valid.len = self.call_offsets.len = 0
        ar_offset(&self.call_offsets, 0)
        for k in range(AR_STRINGS):
            bb_shrink(&self.strings[k].data)
            bb_shrink(&self.strings[k].offsets)
            bb_shrink(&self.strings[k].valid)
        for k in range(AR_INTS):
            bb_shrink(&self.ints[k].values)
            bb_shrink(&self.ints[k].valid)
        bb_shrink(&self.call_offsets)
        bb_shrink(&self.calls_valid)
        return 0

    cdef const unsigned char* crossing_text(self, str text, Py_ssize_t* n) except NULL:
        """The bytes of a text in rows that cross: its UTF-8, or its surrogatepass bytes when it
        has none (held as the row's `finish`)."""
        if not PyUnicode_IS_COMPACT_ASCII(text) and PyUnicode_UTF8_cached(text, n) == NULL:
            PyErr_Clear()
            self.finish = text.encode("utf-8", "surrogatepass")
            n[0] = len(<bytes>self.finish)
            return <const unsigned char*>(<const char*>(<bytes>self.finish))
        return utf8_of(text, n, "finish_reason")

    cdef inline int64_t calls(self) noexcept:
        return self.strings[AR_IDS].offsets.len // <Py_ssize_t>sizeof(int64_t) - 1

    cdef inline int64_t calls_before(self) noexcept:
        """The calls of every row before the one being written."""
        cdef int64_t at
        memcpy(&at, self.call_offsets.data + self.call_offsets.len - sizeof(int64_t), sizeof(int64_t))
        return at

    cdef int room(self, Py_ssize_t content_n, Py_ssize_t reasoning_n, Py_ssize_t finish_n,
                  Py_ssize_t error_n) except -1:
        """Room in every column for one more row with texts this long, made before any of it is
        written: a row that cannot be written leaves the columns as they were."""
        cdef Py_ssize_t* lengths = [content_n, reasoning_n, finish_n, error_n]
        cdef int k
        for k in range(AR_IDS):
            bb_reserve(&self.strings[k].data, lengths[k])
            bb_reserve(&self.strings[k].offsets, sizeof(int64_t))
            bb_reserve(&self.strings[k].valid, 1)
        for k in range(AR_INTS):
            bb_reserve(&self.ints[k].values, sizeof(int64_t))
            bb_reserve(&self.ints[k].valid, 1)
        bb_reserve(&self.call_offsets, sizeof(int64_t))
        return bb_reserve(&self.calls_valid, 1)

    cdef int call(self, uint32_t index, const unsigned char* id, Py_ssize_t id_n, const unsigned char* name,
                  Py_ssize_t name_n, const unsigned char* arguments, Py_ssize_t arguments_n) except -1:
        """(Room for all three of its strings made before any is written.)"""
        cdef char id_text[16]
        cdef Py_ssize_t lengths[3]
        cdef int k
        id = sk_id_bytes(index, id, &id_n, id_text)
        lengths[0], lengths[1], lengths[2] = id_n, name_n, arguments_n
        for k in range(3):
            bb_reserve(&self.strings[AR_IDS + k].data, lengths[k])
            bb_reserve(&self.strings[AR_IDS + k].offsets, sizeof(int64_t))
            bb_reserve(&self.strings[AR_IDS + k].valid, 1)
        ar_push(&self.strings[AR_IDS], id, id_n)
        ar_push(&self.strings[AR_NAMES], name, name_n)
        return ar_push(&self.strings[AR_ARGUMENTS], arguments, arguments_n)

    cdef int row(self, const unsigned char* content, Py_ssize_t content_n, const unsigned char* reasoning,
                 Py_ssize_t reasoning_n, object output_tokens, object reasoning_tokens,
                 Py_ssize_t malformed) except -1:
        cdef int64_t calls, output_n, reasoning_tokens_n
        calls = self.calls()
        output_n = 0 if output_tokens is None else output_tokens
        reasoning_tokens_n = 0 if reasoning_tokens is None else reasoning_tokens
        self.room(content_n, reasoning_n, self.finish_n, 0)
        ar_push(&self.strings[AR_CONTENT], content, content_n, content != NULL)
        ar_push(&self.strings[AR_REASONING], reasoning, reasoning_n, reasoning != NULL)
        bb_push(&self.calls_valid, calls > self.calls_before())
        ar_offset(&self.call_offsets, calls)
        ar_push(&self.strings[AR_FINISH], self.finish_utf8, self.finish_n, self.finish_utf8 != NULL)
        ar_push_int(&self.ints[AR_OUTPUT_TOKENS], output_n, output_tokens is not None)
        ar_push_int(&self.ints[AR_REASONING_TOKENS], reasoning_tokens_n, reasoning_tokens is not None)
        ar_push_int(&self.ints[AR_MALFORMED], malformed)
        ar_push(&self.strings[AR_ERROR], NULL, 0, False)
        self.rows += 1
        return 0

    cdef int failed(self, str error) except -1:
        """(A call written for it before it failed stays under its null list.)"""
        cdef Py_ssize_t n
        cdef const unsigned char* text = utf8_of(error, &n, "error")
        cdef int k
        self.begin_row(None)
        self.room(0, 0, 0, n)
        for k in (AR_CONTENT, AR_REASONING, AR_FINISH):
            ar_push(&self.strings[k], NULL, 0, False)
        bb_push(&self.calls_valid, False)
        ar_offset(&self.call_offsets, self.calls())
        for k in range(AR_INTS):
            ar_push_int(&self.ints[k], 0, False)
        ar_push(&self.strings[AR_ERROR], text, n)
        self.rows += 1
        return 0

    cdef tuple batch(self):
        """The batch being written, as bytes: (rows, strings, ints, call_offsets, calls_valid).
        `strings` are content, reasoning, finish, error, and per call id, name, arguments, each
        (data, int64 offsets, uint8 validity); `ints` output tokens, reasoning tokens, malformed
        bytes, each (int64 values, uint8 validity); call_offsets int64, calls_valid uint8."""
        cdef int k
        strings = tuple([(ar_bytes(&self.strings[k].data), ar_bytes(&self.strings[k].offsets),
                          ar_bytes(&self.strings[k].valid)) for k in range(AR_STRINGS)])
        ints = tuple([(ar_bytes(&self.ints[k].values), ar_bytes(&self.ints[k].valid)) for k in range(AR_INTS)])
        return self.rows, strings, ints, ar_bytes(&self.call_offsets), ar_bytes(&self.calls_valid)

    def columns(self):
        """Every batch written, in order: the sealed ones, then the one being written (see batch)."""
        return self.sealed + [self.batch()]


cdef struct ar_view:          # one column of a batch as `ArrowRows.columns()` gives it, read back
    const unsigned char* data
    const unsigned char* offsets    # count + 1 int64
    const unsigned char* valid      # count bytes
    Py_ssize_t count


cdef inline int64_t ar_offset_at(const unsigned char* offsets, Py_ssize_t i) noexcept:
    cdef int64_t at
    memcpy(&at, offsets + i * sizeof(int64_t), sizeof(int64_t))
    return at


cdef Py_ssize_t offsets_out_of_order(const unsigned char* offsets, Py_ssize_t count, int64_t high) noexcept:
    """The first of `count` int64 offsets that is below 0, below the one before it or above
    `high`, or -1 when none is: what makes reading the texts between them safe (Utf8Texts, a
    batch's columns read back)."""
    cdef Py_ssize_t i
    cdef int64_t at, last = 0
    for i in range(count):
        at = ar_offset_at(offsets, i)
        if at < last or at > high:
            return i
        last = at
    return -1


cdef int ar_view_of(ar_view* v, tuple column, Py_ssize_t count) except -1:
    """`column` (data, offsets, valid: bytes) of `count` strings, checked once so that reading it
    cannot go past its bytes: offsets non-decreasing from 0 to at most the data's length."""
    cdef bytes data = column[0], offsets = column[1], valid = column[2]
    if len(offsets) < (count + 1) * <Py_ssize_t>sizeof(int64_t) or len(valid) < count:
        raise ValueError("summary_rows_of: a column ends before its rows do")
    v.data = <const unsigned char*>(<const char*>data)
    v.offsets = <const unsigned char*>(<const char*>offsets)
    v.valid = <const unsigned char*>(<const char*>valid)
    v.count = count
    if ar_offset_at(v.offsets, 0) != 0 or offsets_out_of_order(v.offsets, count + 1, len(data)) >= 0:
        raise ValueError("summary_rows_of: a string's offsets fall outside its column's bytes")
    return 0


cdef inline object ar_view_str(ar_view* v, Py_ssize_t i, bint shared):
    """String i: a str (`shared`: a short one handed out again, ss_decode), or None where null."""
    cdef int64_t start
    if not v.valid[i]:
        return None
    start = ar_offset_at(v.offsets, i)
    if shared:
        return ss_decode(v.data + start, ar_offset_at(v.offsets, i + 1) - start)
    return PyUnicode_DecodeUTF8(<const char*>v.data + start, ar_offset_at(v.offsets, i + 1) - start, NULL)


cdef object ar_view_finish(ar_view* v, Py_ssize_t i):
    """Finish reason i as a row that crossed holds it: its lone surrogates (surrogatepass bytes) too."""
    cdef int64_t start
    try:
        return ar_view_str(v, i, True)
    except UnicodeDecodeError:
        start = ar_offset_at(v.offsets, i)
        return PyUnicode_DecodeUTF8(<const char*>v.data + start, ar_offset_at(v.offsets, i + 1) - start,
                                    "surrogatepass")


cdef inline object ar_view_int(tuple column, Py_ssize_t i):
    """Integer i of a (values, valid) column checked by `summary_rows_of`: an int, or None."""
    if not (<const unsigned char*>(<const char*>(<bytes>column[1])))[i]:
        return None
    return ar_offset_at(<const unsigned char*>(<const char*>(<bytes>column[0])), i)


def summary_rows_of(tuple batch):
    """The summary rows fold_summaries gives (without `into`) of one batch of an ArrowRows'
    columns (`columns()`): how rows a worker wrote into buffers, which cross processes as a few
    bytes objects, become rows where the messages are made. A batch that does not hold together
    (offsets past its bytes, columns shorter than its rows) is a ValueError."""
    cdef Py_ssize_t rows = batch[0], calls_n, i, j, first, last
    cdef tuple strings = batch[1], ints = batch[2], column
    cdef bytes call_offsets = batch[3], calls_valid = batch[4]
    cdef const unsigned char* call_at
    cdef ar_view views[AR_STRINGS]
    cdef list out, calls
    cdef object row
    cdef int k
    if rows < 0 or len(strings) != AR_STRINGS or len(ints) != AR_INTS:
        raise ValueError(f"summary_rows_of: not a batch of ArrowRows' columns ({rows} rows)")
    if len(call_offsets) < (rows + 1) * <Py_ssize_t>sizeof(int64_t) or len(calls_valid) < rows:
        raise ValueError("summary_rows_of: a column ends before its rows do")
    call_at = <const unsigned char*>(<const char*>call_offsets)
    calls_n = ar_offset_at(call_at, rows)
    if offsets_out_of_order(call_at, rows + 1, calls_n) >= 0:
        raise ValueError("summary_rows_of: a row's calls run backwards")
    for k in range(AR_STRINGS):
        ar_view_of(&views[k], <tuple>strings[k], calls_n if k >= AR_IDS else rows)
    for k in range(AR_INTS):
        column = <tuple>ints[k]
        if len(<bytes>column[0]) < rows * <Py_ssize_t>sizeof(int64_t) or len(<bytes>column[1]) < rows:
            raise ValueError("summary_rows_of: a column ends before its rows do")
    out = PyList_New(rows)
    for i in range(rows):
        if views[AR_ERROR].valid[i]:
            row = (None, None, None, None, None, None, 0, 0, ar_view_str(&views[AR_ERROR], i, False))
        else:
            calls = None
            if (<const unsigned char*>(<const char*>calls_valid))[i]:
                first, last = ar_offset_at(call_at, i), ar_offset_at(call_at, i + 1)
                calls = PyList_New(last - first)
                for j in range(first, last):
                    call = (ar_view_str(&views[AR_IDS], j, True), ar_view_str(&views[AR_NAMES], j, True),
                            ar_view_str(&views[AR_ARGUMENTS], j, False))
                    Py_INCREF(call)
                    PyList_SET_ITEM(calls, j - first, call)
            row = (ar_view_str(&views[AR_CONTENT], i, False), ar_view_str(&views[AR_REASONING], i, False), calls,
                   ar_view_finish(&views[AR_FINISH], i), ar_view_int(<tuple>ints[AR_OUTPUT_TOKENS], i),
                   ar_view_int(<tuple>ints[AR_REASONING_TOKENS], i), 0 if calls is None else len(calls),
                   ar_offset_at(<const unsigned char*>(<const char*>(<bytes>(<tuple>ints[AR_MALFORMED])[0])), i), None)
        Py_INCREF(row)
        PyList_SET_ITEM(out, i, row)
    return out
