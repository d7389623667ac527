# The Engine (SPEC §2.4): one per generated stream. Runs a compiled table over the scanner's
# pieces: text goes where the current state says, a marker with a row moves the state (its
# bytes Dropped, or the call's end when the assembler takes them), a marker without one is text.
# Lifecycle (SPEC §1.6) is input: Prompt (optional, first), Delta..., End.

cdef enum Stage:
    ST_FRESH = 0
    ST_STREAMING = 1
    ST_ENDED = 2

cdef dict _FINISH_REASONS = {"stop": FinishReason.STOP, "length": FinishReason.LENGTH,
                             "abort": FinishReason.ABORT}


@cython.final
cdef class Engine:
    """A parser for one stream: `feed(Prompt | Delta | End) -> list of events`."""
    cdef readonly Table table
    cdef Scanner scanner
    cdef Sink sink
    cdef int state
    cdef int stage
    cdef Assembler call             # the open call region's assembler, or None
    cdef uint32_t calls_started
    cdef readonly object tools

    def __cinit__(self, Table table, tools=None):
        self.table = table
        self.tools = tools
        self.scanner = Scanner(table.markers)
        self.sink = Sink(table.markers.texts)
        self.state = 0
        self.stage = ST_FRESH
        if table.emits[0] == EM_ARGUMENTS:
            self.call = table.open_call(0, tools)

    @property
    def format(self):
        return self.table.name

    def feed(self, input):
        """Feeds one input; returns the events it completes (adjacent content merged)."""
        cdef type kind = type(input)
        if kind is Delta:
            return self.delta(<Delta>input)
        if kind is End:
            return self.end(<End>input)
        if kind is Prompt:
            return self.prompt(<Prompt>input)
        raise TypeError(f"feed takes a Prompt, a Delta or an End, not {kind.__name__}")

    cdef list delta(self, Delta delta):
        cdef Py_ssize_t n
        cdef const unsigned char* p
        if self.stage == ST_ENDED:
            raise LifecycleError("delta after end")
        self.stage = ST_STREAMING
        p = utf8_of(delta.text, &n, "Delta.text")
        self.sink.ledger.note(delta, p, n)
        self.scanner.begin(p, n, True)
        try:
            self.run()
        except BaseException as error:
            # the events already pushed are final: the caller gets them with the error
            error.events = self.sink.take(delta.text, p, n)
            raise
        return self.sink.take(delta.text, p, n)

    def parse(self, str output, prompt=None, str finish="stop"):
        """The events of a whole output on a fresh parser: Prompt (when given), one uncounted
        Delta, End, as one list."""
        events = self.prompt(Prompt(prompt)) if prompt is not None else []
        events += self.delta(Delta(output))
        events += self.end(End(finish))
        return events

    cdef list end(self, End end):
        cdef int emits
        if self.stage == ST_ENDED:
            raise LifecycleError("end after end")
        self.stage = ST_ENDED
        self.scanner.begin(NULL, 0, False)
        try:
            self.run()
        except BaseException as error:
            error.events = self.sink.take(None, NULL, -1)
            raise
        emits = self.table.emits[self.state]
        if emits == EM_REASONING:
            self.sink.mark(EV_REASONING_END)
        elif emits == EM_ARGUMENTS:
            self.close_call(False, NULL, 0)
        self.state = 0
        reason = _FINISH_REASONS.get(end.finish)
        if reason is None:
            reason = Other(end.finish)
        self.sink.finish(reason, self.calls_started)
        return self.sink.take(None, NULL, -1)

    cdef list prompt(self, Prompt prompt):
        """Seeds the state from the prompt's last turn: where the generation prompt left off."""
        cdef str text = prompt.text
        cdef Py_ssize_t n, s = 0, e = 0, at
        cdef const unsigned char* p
        cdef int replay = 0, k, nxt
        if self.stage != ST_FRESH:
            raise LifecycleError("prompt after output began")
        self.stage = ST_STREAMING
        opener = self.table.opener
        if opener:
            at = text.rfind(opener)
            if at >= 0:
                text = text[at:]
        p = utf8_of(text, &n, "Prompt.text")
        self.scanner.begin(p, n, False)
        while True:
            k = self.scanner.next(&s, &e)
            if k == SC_DONE:
                break
            if k >= 0:
                nxt = self.table.next(replay, k)
                if nxt >= 0:
                    replay = nxt
        if self.table.emits[replay] != EM_ARGUMENTS:
            self.enter(replay)
        return self.sink.take(None, NULL, -1)

    cdef int run(self) except -1:
        cdef Py_ssize_t s = 0, e = 0
        cdef int k
        cdef const unsigned char* w
        while True:
            k = self.scanner.next(&s, &e)
            if k == SC_DONE:
                return 0
            w = self.scanner.w
            if k == SC_TEXT:
                self.text(w + s, e - s)
            else:
                self.terminal(k, w + s, e - s)

    cdef int text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef int emits = self.table.emits[self.state]
        cdef Py_ssize_t taken
        if emits == EM_CONTENT:
            return self.sink.content(p, n)
        if emits == EM_REASONING:
            return self.sink.reasoning(p, n)
        if emits == EM_ARGUMENTS:
            taken = self.call.feed(p, n, self.sink)
            if taken < n:
                self.sink.wrapping(p + taken, n - taken, OT_TEXT_AFTER_OBJECT)
            return 0
        return self.sink.wrapping(p, n, OT_TEXT_BETWEEN_BLOCK_CALLS)

    cdef int terminal(self, int i, const unsigned char* p, Py_ssize_t n) except -1:
        cdef int nxt
        if self.table.ignored[i]:
            if self.table.emits[self.state] == EM_ARGUMENTS:
                return self.call.ignored(p, n, self.sink)
            return self.sink.dropped_marker(i, n)
        nxt = self.table.next(self.state, i)
        if nxt < 0:
            return self.text(p, n)
        if self.table.emits[self.state] != EM_ARGUMENTS or not self.close_call(True, p, n):
            self.sink.dropped_marker(i, n)
        return self.enter(nxt)

    cdef int enter(self, int nxt) except -1:
        cdef int before = self.table.emits[self.state]
        cdef int after = self.table.emits[nxt]
        if before == EM_REASONING and after != EM_REASONING:
            self.sink.mark(EV_REASONING_END)
        elif after == EM_REASONING and before != EM_REASONING:
            self.sink.mark(EV_REASONING_START)
        self.state = nxt
        if after == EM_ARGUMENTS:
            self.call = self.table.open_call(self.calls_started, self.tools)
        return 0

    cdef int close_call(self, bint by_marker, const unsigned char* terminal, Py_ssize_t tn) except -1:
        """Ends the open region's call; 1 when the terminal became the call's end."""
        cdef int taken = 0
        cdef Assembler call = self.call
        self.call = None
        if by_marker:
            self.sink.rewrite_unterminated = True
            try:
                taken = call.close(terminal, tn, self.sink)
            finally:
                self.sink.rewrite_unterminated = False
        else:
            call.finish(self.sink)
        self.calls_started += call.started
        return taken
