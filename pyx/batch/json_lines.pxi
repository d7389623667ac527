# The JSON lines of `symphony parse`'s JSONL output, one per output, written by the core from the
# parser's UTF-8 bytes (Sink.summary_into) with no Python object per field or per call:
#     {"line": N, "message": {"role": "assistant", "content": C, "reasoning_content": R,
#      "tool_calls": [{"id": I, "type": "function", "function": {"name": F, "arguments": A}}]},
#      "finish_reason": E}
# byte for byte what json.dumps(line, ensure_ascii=False) writes of chat.message's dict (its
# strings escaped as Python's json escapes them, vt_quoted; null where the dict holds None), and
# {"line": N, "error": E} for an output that failed.

import json as _json

cdef object _jl_encode = _json.JSONEncoder(ensure_ascii=False).encode


cdef bytes _jl_json(object value):
    """json.dumps(value, ensure_ascii=False) as UTF-8, a lone surrogate (which UTF-8 cannot hold)
    as its JSON escape: what the few Python values of a line (an error, a finish reason) become."""
    return _jl_encode(value).encode("utf-8", "backslashreplace")


cdef inline int jl_text(ByteBuf* out, const char* text) except -1:
    """Appends a C string of JSON text as it is."""
    return bb_append(out, <const unsigned char*>text, strlen(text))


cdef inline int jl_quoted_or_null(ByteBuf* out, const unsigned char* p, Py_ssize_t n) except -1:
    if p == NULL:
        return jl_text(out, "null")
    return vt_quoted(p, n, out)


@cython.final
@cython.no_gc
cdef class JsonLines(SummaryRows):
    """The JSON lines of many outputs, a line per output in order, the i-th with line number
    numbers[i]; the calls and malformed bytes of them all counted, and the outputs that failed
    listed (`failures`: (row, error))."""
    cdef ByteBuf out
    cdef ByteBuf starts                  # int64 per line, where it starts in `out`
    cdef ByteBuf calls_json              # the calls of the row being written, ", "-joined
    cdef list numbers
    cdef dict finishes                   # finish reason -> its JSON (UTF-8 bytes), as met
    cdef bytes finish                    # the row being written's finish reason's JSON
    cdef Py_ssize_t row_at               # where the row being written starts in `out`; -1: none
    cdef int64_t row_calls
    cdef readonly Py_ssize_t rows
    cdef readonly int64_t calls, malformed
    cdef readonly list failures

    def __cinit__(self, list numbers):
        self.numbers = numbers
        self.finishes = {}
        self.failures = []
        self.row_at = -1

    def __dealloc__(self):
        bb_free(&self.out)
        bb_free(&self.starts)
        bb_free(&self.calls_json)

    cdef int open_line(self) except -1:
        """`{"line": N, ` of the next row; where it starts noted."""
        cdef int64_t number
        cdef char digits[24]
        cdef int n
        if self.rows >= len(self.numbers):
            raise IndexError(f"JsonLines: a line number for row {self.rows}, of {len(self.numbers)} given")
        number = self.numbers[self.rows]
        n = snprintf(digits, sizeof(digits), "%lld", <long long>number)
        ar_offset(&self.starts, self.out.len)
        jl_text(&self.out, '{"line": ')
        bb_append(&self.out, <const unsigned char*>digits, n)
        return jl_text(&self.out, ", ")

    cdef int begin_row(self, object finish) except -1:
        """(A finish reason that is not UTF-8 text is written with its lone surrogates as JSON
        escapes, as json.dumps writes them.)"""
        cdef bytes found = self.finishes.get(finish)
        if found is None:
            found = _jl_json(finish)
            if len(self.finishes) < 64:
                self.finishes[finish] = found
        self.finish = found
        self.row_at = self.out.len
        self.calls_json.len = 0
        self.row_calls = 0
        return 0

    cdef int call(self, uint32_t index, const unsigned char* id, Py_ssize_t id_n, const unsigned char* name,
                  Py_ssize_t name_n, const unsigned char* arguments, Py_ssize_t arguments_n) except -1:
        cdef char id_text[16]
        cdef ByteBuf* out = &self.calls_json
        id = sk_id_bytes(index, id, &id_n, id_text)
        if self.row_calls:
            jl_text(out, ", ")
        jl_text(out, '{"id": ')
        vt_quoted(id, id_n, out)
        jl_text(out, ', "type": "function", "function": {"name": ')
        vt_quoted(name, name_n, out)
        jl_text(out, ', "arguments": ')
        vt_quoted(arguments, arguments_n, out)
        jl_text(out, "}}")
        self.row_calls += 1
        return 0

    cdef int row(self, const unsigned char* content, Py_ssize_t content_n, const unsigned char* reasoning,
                 Py_ssize_t reasoning_n, object output_tokens, object reasoning_tokens,
                 Py_ssize_t malformed) except -1:
        cdef ByteBuf* out = &self.out
        self.open_line()
        jl_text(out, '"message": {"role": "assistant", "content": ')
        jl_quoted_or_null(out, content, content_n)
        jl_text(out, ', "reasoning_content": ')
        jl_quoted_or_null(out, reasoning, reasoning_n)
        jl_text(out, ', "tool_calls": ')
        if self.row_calls:
            bb_push(out, c'[')
            bb_append(out, self.calls_json.data, self.calls_json.len)
            bb_push(out, c']')
        else:
            jl_text(out, "null")
        jl_text(out, '}, "finish_reason": ')
        bb_append(out, <const unsigned char*>self.finish, len(self.finish))
        jl_text(out, "}\n")
        self.calls += self.row_calls
        self.malformed += malformed
        self.rows += 1
        self.row_at = -1
        return 0

    cdef int failed(self, str error) except -1:
        cdef bytes text = _jl_json(error)
        if self.row_at >= 0:                 # what was written of the row goes
            self.out.len = self.row_at
            self.row_at = -1
        self.starts.len = self.rows * <Py_ssize_t>sizeof(int64_t)
        bb_reserve(&self.out, len(text) + 64)          # the whole line's room first: written whole or not
        bb_reserve(&self.starts, sizeof(int64_t))
        self.open_line()
        jl_text(&self.out, '"error": ')
        bb_append(&self.out, <const unsigned char*>text, len(text))
        jl_text(&self.out, "}\n")
        self.failures.append((self.rows, error))
        self.rows += 1
        return 0

    def lines(self):
        """(the lines' UTF-8 bytes, where each line starts in them: int64 bytes, one per line)."""
        return ar_bytes(&self.out), ar_bytes(&self.starts)
