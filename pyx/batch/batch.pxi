# The batch loop (symphony.batch): many whole outputs, each parsed on a fresh Engine and folded
# straight into a flat summary row (Sink.summary), or written into a SummaryRows (Arrow's buffers,
# JSON lines: Sink.summary_into), with no event object and no Python-level step per output; the
# rows become chat messages where they are wanted (in a worker's parent, say).


cdef inline double bt_now() noexcept nogil:
    """The monotonic clock, in seconds."""
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + t.tv_nsec * 1e-9


def fold_summaries(list tables, list tools, list prompts, object texts, list finishes, object spans=None,
                   object offsets=None, object on_error=None, SummaryRows into=None, str undeclared="call"):
    """One Sink.summary row per output, in order: output i = texts[i] parsed whole with
    tables[i], tools[i] (None, a tool list or a Declared), prompts[i] and finishes[i] (every
    Engine's `undeclared` option the one given). `texts` is
    a list of str or a Utf8Texts (each output parsed from its bytes where they lie). With
    `spans` (an (n, 4) int64 array of every output's tokens) output i is the Delta of its rows
    spans[offsets[i]:offsets[i + 1]], so it is counted. An output whose parse raises an
    Exception propagates it, or, with `on_error`, is the row of only on_error(error) (its last
    field; the counts 0, the rest None). With `into` (a SummaryRows), the rows are written there
    instead (an output that failed as its `failed` row), and `into` is returned. Other threads
    get the GIL between two outputs every YIELD_INTERVALS switch intervals (nogil.pxd): a
    caller's feeder thread handing work to a process, or a server's event loop, waits that long,
    not for the whole batch; so does a signal's Python handler (SIGTERM's, KeyboardInterrupt)."""
    cdef Py_ssize_t i, n = len(texts), size
    cdef const unsigned char* p
    cdef Utf8Texts column = None
    cdef double every = YIELD_INTERVALS * sys.getswitchinterval(), last = bt_now(), now
    cdef list out = PyList_New(n) if into is None else None
    cdef object row, whole, own
    cdef Engine engine
    if type(texts) is Utf8Texts:
        column = <Utf8Texts>texts
    elif type(texts) is not list:
        raise TypeError(f"fold_summaries: texts must be a list of str or a Utf8Texts, not {type(texts).__name__}")
    if not len(tables) == len(tools) == len(prompts) == len(finishes) == n:
        raise ValueError("fold_summaries: tables, tools, prompts, texts and finishes are one per output")
    for i in range(n):
        try:
            now = bt_now()
            if now - last >= every:
                last = now
                with nogil:
                    pass                      # (waiting threads take the GIL here)
                PyErr_CheckSignals()          # (and in the main thread, signal handlers run)
            engine = Engine.__new__(Engine, <Table?>tables[i], tools[i], DEFAULT_BUFFER_LIMIT, undeclared)
            if column is not None and spans is None:
                p = column.text_at(i, &size)
                row = engine.whole_utf8(p, size, prompts[i], finishes[i], WH_SUMMARY if into is None else WH_ROWS,
                                        into)
            else:
                whole = texts[i]
                if spans is not None:
                    own = spans[offsets[i]:offsets[i + 1]]
                    whole = Delta(whole, own[:, 0], own)
                row = engine.whole(whole, prompts[i], finishes[i], WH_SUMMARY if into is None else WH_ROWS, into,
                                   _MESSAGE_ROUTES)
        except Exception as error:
            if on_error is None:
                raise
            if into is not None:
                into.failed(on_error(error))
                continue
            row = (None, None, None, None, None, None, 0, 0, on_error(error))
        if into is None:
            Py_INCREF(row)
            PyList_SET_ITEM(out, i, row)
    return out if into is None else into


def summary_messages(list rows, type result=tuple):
    """The `result` (a tuple type of six) of each summary row: (chat message, output tokens,
    reasoning tokens, calls started, malformed bytes, None), or (None, None, None, 0, 0, error)
    for a row that failed."""
    cdef Py_ssize_t i, n = len(rows)
    cdef list out = PyList_New(n)
    cdef tuple row
    cdef object made
    if not issubclass(result, tuple):
        raise TypeError("summary_messages: result must be a tuple type")
    for i in range(n):
        row = <tuple?>rows[i]
        if row[8] is None:
            made = (choice_of(row, 0), row[4], row[5], row[6], row[7], None)
        else:
            made = (None, None, None, 0, 0, row[8])
        if result is not tuple:
            made = tuple.__new__(result, made)
        Py_INCREF(made)
        PyList_SET_ITEM(out, i, made)
    return out
