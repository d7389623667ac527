# Where the batch loop writes each output's summary row without making its message
# (Sink.summary_into, fold_summaries(into=...)): a SummaryRows is told of a row's start, each of
# its started calls, then the row itself, or that its output failed. ArrowRows writes Arrow's
# buffers; JsonLines writes the JSON lines of `symphony parse`.


@cython.no_gc
cdef class SummaryRows:
    """The rows of many outputs' summaries being written, one per output, in order."""

    cdef int begin_row(self, object finish) except -1:
        """Before a row and its calls (nothing of the row is written yet): its finish reason, a
        str (or None), which an ArrowRows refuses here when it is not UTF-8 text."""
        return 0

    cdef int call(self, uint32_t index, const unsigned char* id, Py_ssize_t id_n, const unsigned char* name,
                  Py_ssize_t name_n, const unsigned char* arguments, Py_ssize_t arguments_n) except -1:
        """One started call of the row being written (after `begin_row`, before `row`): its id
        the model's own (id[0:id_n]), or `call_<index>` where `id` is NULL."""
        raise NotImplementedError

    cdef int row(self, const unsigned char* content, Py_ssize_t content_n, const unsigned char* reasoning,
                 Py_ssize_t reasoning_n, object output_tokens, object reasoning_tokens,
                 Py_ssize_t malformed) except -1:
        """The row of an output that parsed (begun with `begin_row`, its calls written before it):
        content and reasoning NULL where null, token counts None where uncounted."""
        raise NotImplementedError

    cdef int failed(self, str error) except -1:
        """The row of an output that failed, in place of what was begun of it: only its error."""
        raise NotImplementedError
