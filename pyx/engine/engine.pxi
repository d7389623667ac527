# The Engine (SPEC §2.4): one per generated stream. Runs a compiled table over the scanner's
# pieces: text goes where the current state says, a marker with a row moves the state (its
# bytes Dropped, or the call's end when the assembler takes them), a marker without one is text
# (a family's control token without one is Dropped{ControlToken}, outside a call).
# Lifecycle (SPEC §1.6) is input: Prompt (optional, first), Delta..., End.
#
# The engine owns every decision about the stream (the Sink only records, the Ledger only
# counts). An error in the middle of a feed (a memory error, an internal error, an assembler
# failing) fails the parser for good, never half-fed: the error carries the events pushed before
# it and the output offset where it struck; every later Delta is refused; End reports the bytes
# no event accounted for as Malformed, ends what was open, and finishes. To have those bytes at
# hand, the engine keeps a copy of the output that no event has accounted for yet (usually empty:
# only what the scanner or an assembler holds between feeds). A buffer limit caps those bytes: a
# feed that leaves more held fails the parser that way (BufferOverflowError), and End reports them.
# Records the Sink holds back while what they are is undecided count as held too.
#
# A state that emits EM_DAMAGED_MARKER holds a damaged marker: entered on a terminal that is the
# family's mark alone (`<｜DSML｜` where no marker of the table starts), it holds the mark and its
# tag, which runs to its `>` or the end of its line within DAMAGED_TAG_MAX bytes, then whitespace.
# A row into a call or a block (a state that emits arguments or wraps calls) drops what it holds
# (the model's damaged opener of that call); anything else shows it as the text of the state the
# mark was written in, from which the engine reads on: other text after the tag, a tag longer
# than that, a terminal with no such row, the end of the stream. Decided at the byte or marker
# that decides it, whatever the chunking.
# A state that holds a name (Table.holds_name: Muse's ` to=` in a message, its `<|eom|>` left out)
# holds its mark and then a name, a run of the bytes the table gives, in place of a tag: a row
# into a call or a block once at least one name byte came drops it all (the mark and the name are
# that row's header: ` to=time.now<|message|>`); any other byte, a name that runs to
# DAMAGED_TAG_MAX bytes, a terminal with no such row or the end shows it as above.
# A state that closes a block (Table.closes: DSML's `</｜DSML｜toolcalls>` after the calls) holds a
# damaged close tag: ended by its `>` or by the end of the stream after a call was read in the
# block, it is dropped as the block's close; ended otherwise, or before any call, it shows as above.
#
# A separator (an ignored terminal the template writes before every tag: MiniMax M3's) in a
# state that shows text is held until what follows decides: a marker with a row from there (the
# tag it was written before) drops it; text, a marker with no row, or the end of the stream shows
# it as the text it is, so prose that holds it reads as written. ASCII whitespace written after
# it is held with it (SGLang's minimax_m3 drops `]<]minimax[>[\n<tool_call>`'s newline with the
# separator): dropped with it right before the tag, shown with it otherwise (another separator
# after the whitespace shows what was held).
#
# A call region (the states a marker opens from the content or the thought to hold calls: a
# call's arguments, a block of calls) is text until a call starts in it: its events are held
# from the marker that opened it until a call starts (then they go out as they are) or the region
# ends, by a marker back out or by the end of the stream, with no call (then they are the text
# the model wrote: every Dropped byte of the region, its markers and whitespace, is Malformed and
# shown). So a family's opener followed by no call reads as written, at every chunking. A region
# opened from its own state (a marker back to the first state, which holds the calls) and left
# from it for a text or a thought was a message's header, not a call region (Inkling's
# `<|message_model|><|content_thinking|>`): what it held goes out as it is. A region with no call
# left for the prose after calls written without their block (Table.prose_after_calls) leaves for
# the state it was opened from: its tag was text there, as what follows it is.
#
# A call's assembler may hold a marker that would open the next call (or close this one) inside a
# value whose close may still come (Assembler.hold_marker, hold_close: the value's text if that
# close comes first). A terminal or the end of the stream coming first makes it the next call's
# (or the call's close): the assembler ends the value before it and gives it back with the text
# after it, which the engine reads again (reread_opener) before what came. An assembler may hold
# such a terminal too, while the value is still open (hold_more): it is given back as a marker.
#
# A block that reads JSON call objects (Table.objects: dots, whose models write
# `{"name": .., "arguments": ..}` in a `<dots_function_call>` block as well as invokes) opens a
# call at a `{` written where a call may begin in it: after the marker that entered the block or
# after a call, whitespace aside. The object is read by the JSON call assembler in the arguments
# state the table names, which returns to the block once the object closes (after_call); text
# written first (anything but whitespace) leaves the rest of that stretch the block's wrapping.

cdef enum Stage:
    ST_FRESH = 0
    ST_STREAMING = 1
    ST_ENDED = 2
    ST_FAILED = 3       # an error struck mid-feed: only End is accepted

cdef enum WholeShape:     # what a whole parse returns
    WH_EVENTS = 0
    WH_MESSAGE = 1
    WH_SUMMARY = 2
    WH_ROWS = 3           # the summary written into a SummaryRows (the `choice` argument)
    WH_SUMMARIES = 4      # two summary rows of one parse, by `routes` and by the `choice` argument's

DEFAULT_BUFFER_LIMIT = 64 << 20     # bytes an Engine may hold between feeds unless told otherwise

cdef enum:
    SEED_KEPT_LENGTH = 256   # the longest prompt tail (characters) whose seeded state a table keeps
    DAMAGED_TAG_MAX = 128    # the longest damaged tag (bytes, its mark included): a longer run is prose

cdef dict _FINISH_REASONS = {"stop": FinishReason.STOP, "length": FinishReason.LENGTH,
                             "abort": FinishReason.ABORT}
cdef object _LENGTH = FinishReason.LENGTH   # the one finish that leaves a call cut short as written


cdef inline bint en_ascii_blank(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """Whether p[0:n] (n > 0) is ASCII whitespace only."""
    cdef Py_ssize_t i
    for i in range(n):
        if not u8_ascii_space(p[i]):
            return False
    return n > 0


cdef object finish_reason(str finish):
    """The Finish reason an End's text maps to: stop, length, abort, or Other(text)."""
    reason = _FINISH_REASONS.get(finish)
    return Other(finish) if reason is None else reason


@cython.freelist(8)
@cython.final
cdef class Engine:
    """A parser for one stream: `feed(Prompt | Delta | End) -> list of events`."""
    cdef readonly Table table
    cdef Scanner scanner
    cdef Ledger ledger
    cdef Sink sink
    cdef int state
    cdef int stage
    cdef Assembler call             # the open call region's assembler, or None
    cdef readonly object tools
    cdef object declared            # the tools compiled for value typing, on first need
    cdef ByteBuf unsettled          # output[settled:received]: bytes no event accounts for yet
    cdef Py_ssize_t unsettled_start # where that copy starts in the buffer
    cdef int64_t settled
    cdef int64_t piece_at           # output offset of the piece being handled (for errors)
    cdef str failed_text            # the delta an error struck in, whose bytes from
    cdef Py_ssize_t failed_from     # failed_from on no event accounts for (not copied)
    cdef bint busy                  # a feed or parse is running (re-entry is refused)
    cdef bint folding               # this feed's records are folded, not built into events
    cdef int64_t limit              # the most bytes held after a feed, or -1 for no limit
    cdef ByteBuf damaged            # a damaged marker held (see the top), and the whitespace after it
    cdef int damaged_origin         # the state its mark was written in
    cdef Py_ssize_t damaged_tag     # bytes of its tag read so far, or -1 once the tag ended
    cdef Py_ssize_t damaged_mark    # the length of its last mark (a name follows it)
    cdef ByteBuf separators         # separators held in a text state (see the top)
    cdef int separator_marker       # ... the one held, or -1 when more than one is
    cdef bint region_undecided      # a call region is open and no call has started in it yet
    cdef uint32_t region_calls      # ... the calls started before it opened
    cdef int region_from            # ... the state it was opened from
    cdef int region_opener          # ... the terminal that opened it, or -1
    cdef bint region_wrote          # ... and text other than whitespace was written in it
    cdef bint end_again             # a call just ended by the tag its assembler reads as its end
                                    # (Table.end_tag), with only whitespace since ...
    cdef ByteBuf end_held           # ... and the start of that tag written again, held
    cdef int closer_again           # the marker that closed a call, or its block or region right
                                    # after it, while only whitespace followed it; else -1
    cdef bint call_may_begin        # only whitespace since the current state was entered (a block
                                    # reading JSON call objects opens one at a `{` then; the block's
                                    # opener written again then is its wrapping; so is a call's)
    cdef int entered_by             # the terminal whose row entered the current state, or -1
    cdef bint refuses_undeclared    # undeclared="malformed": a call to a tool the request does not
                                    # declare is Malformed{UnknownTool} (its tools go to the Sink
                                    # when the first call region opens, then this is cleared)
    cdef readonly str undeclared    # "call" or "malformed": what a call to an undeclared tool is

    def __cinit__(self, Table table, tools=None, buffer_limit=DEFAULT_BUFFER_LIMIT, str undeclared="call"):
        if undeclared != "call" and undeclared != "malformed":
            raise ValueError(f'undeclared must be "call" or "malformed", not {undeclared!r}')
        if buffer_limit is None:
            self.limit = -1
        elif isinstance(buffer_limit, int) and not isinstance(buffer_limit, bool) and buffer_limit >= 0:
            self.limit = min(buffer_limit, 1 << 62)
        else:
            raise ValueError(f"buffer_limit must be None or an int >= 0, not {buffer_limit!r}")
        self.table = table
        self.tools = tools
        self.scanner = Scanner(table.markers)
        self.ledger = Ledger.__new__(Ledger)
        self.sink = Sink.of(self.ledger, table.markers.texts, table.markers.dropped)
        self.state = 0
        self.closer_again = -1
        self.entered_by = -1
        self.stage = ST_FRESH
        self.undeclared = undeclared
        self.refuses_undeclared = undeclared == "malformed"
        if table.emits[0] == EM_ARGUMENTS:
            self.call = self.open_call(0)

    def __dealloc__(self):
        bb_free(&self.unsettled)
        bb_free(&self.damaged)
        bb_free(&self.separators)
        bb_free(&self.end_held)

    @property
    def format(self):
        return self.table.name

    @property
    def counting(self):
        """Whether the stream is still counted: every delta so far came with spans that lay out
        its text (SPEC §1.5). False for good once one did not (no spans, spans in character
        offsets, gaps): text events then carry `tokens` None."""
        return not self.ledger.uncounted

    @property
    def buffer_limit(self):
        """The most output bytes this parser holds between feeds (None: no limit)."""
        return None if self.limit < 0 else self.limit

    @property
    def held(self):
        """How many output bytes no event has accounted for yet (held for a marker, a call's
        name, an undecided value, a call region that has not started a call...)."""
        return self.held_bytes()

    cdef inline int64_t held_bytes(self) noexcept:
        cdef int64_t since = self.sink.undecided_at()
        return self.ledger.received - (self.ledger.emitted if since < 0 else since)

    @property
    def failed(self):
        """Whether an error struck mid-feed (only End is accepted then)."""
        return self.stage == ST_FAILED

    @cython.binding(False)      # a plain METH_O method: the per-token call parses no arguments
    def feed(self, input):
        """Feeds one input; returns the events it completes (adjacent content merged)."""
        cdef type kind = type(input)
        self.begin_feed()
        try:
            if kind is Delta:
                return self.piece(<Delta>input, (<Delta>input).text)
            if kind is End:
                return self.end(<End>input)
            if kind is Prompt:
                return self.prompt(<Prompt>input)
            raise TypeError(f"feed takes a Prompt, a Delta or an End, not {kind.__name__}")
        finally:
            self.busy = False

    @cython.binding(False)
    def feed_token(self, text, token_id):
        """Feeds one decoded token: its text (a str, possibly empty: a token that leaves a
        character unfinished) and its id. The same as `feed(Delta(text, [token_id],
        [TokenSpan(token_id, 0, <text's UTF-8 length>)]))`, events and counts alike, without
        making the Delta: the call a worker that streams one token at a time makes."""
        cdef str piece = <str>text if type(text) is str else text_of(text, "feed_token: text")
        token_id_of(token_id, "feed_token: token_id")     # checked; the ledger keeps where tokens start
        self.begin_feed()
        try:
            return self.piece(None, piece)
        finally:
            self.busy = False

    cdef inline int begin_feed(self) except -1:
        """Marks a feed as running; refuses one while another runs (its records would be taken
        twice: a finalizer or callback that feeds this parser from inside a feed, or a second
        thread)."""
        if self.busy:
            raise ConcurrentUseError("a feed while this parser is still feeding (from a finalizer, a "
                                     "callback or another thread); one parser serves one stream on one "
                                     "thread at a time")
        self.busy = True
        self.folding = False
        return 0

    def parse(self, output, prompt=None, str finish="stop"):
        """The events of a whole output on a fresh parser, as one list: the prompt (when given)
        seeds it, the output (a str: one uncounted delta; or a Delta, counted by its spans) is
        fed, then the stream ends with `finish`. An error is final: it carries every event, what
        no event accounted for reported as Malformed and the stream finished."""
        return self.whole(output, prompt, finish, WH_EVENTS, None, _MESSAGE_ROUTES)

    def message(self, output, prompt=None, str finish="stop", choice=0):
        """`parse`, but the Chat Completions choice `chat.message(events, choice)` gives, built
        without the events (the batch path): (choice, output tokens, reasoning tokens, calls
        started, malformed bytes). An error is raised as `parse` raises it, with the events."""
        return self.whole(output, prompt, finish, WH_MESSAGE, choice, _MESSAGE_ROUTES)

    def summary(self, output, prompt=None, str finish="stop", FieldRoutes routes not None=MESSAGE_ROUTES):
        """`parse`, folded in the core into the batch's summary row with each record where
        `routes` sends it (by MESSAGE_ROUTES, what `chat.message` says): (content, or None when
        blank; reasoning, or None; [(id, name, arguments)], or None; finish_reason; output
        tokens; reasoning tokens; calls started; malformed bytes; None). An error is raised as
        `parse` raises it, with the events."""
        return self.whole(output, prompt, finish, WH_SUMMARY, None, routes)

    def summaries(self, output, prompt=None, str finish="stop", FieldRoutes routes not None=MESSAGE_ROUTES,
                  FieldRoutes more not None=MESSAGE_ROUTES):
        """`summary` twice of one parse: (the row by `routes`, the row by `more`). An engine's two
        roles read one output this way (what the reasoning role passes on, and what the tool role
        would read of it)."""
        return self.whole(output, prompt, finish, WH_SUMMARIES, more, routes)

    cdef object whole(self, object output, object prompt, str finish, int shape, object choice,
                      FieldRoutes routes):
        cdef object reason = finish_reason(finish)
        cdef Py_ssize_t n
        cdef const unsigned char* p
        cdef Delta delta = None
        self.check_fresh(prompt)
        if type(output) is Delta:
            delta = <Delta>output
            output = delta.text
        elif not isinstance(output, str):
            raise TypeError(f"parse: output must be a str or a Delta, not {type(output).__name__}")
        p = utf8_of(<str>output, &n, "output")
        return self.whole_of(delta, <str>output, p, n, prompt, reason, shape, choice, routes)

    cdef object whole_utf8(self, const unsigned char* p, Py_ssize_t n, object prompt, str finish, int shape,
                           object choice):
        """`whole` of an output given as its UTF-8 bytes p[0:n] (the batch loop over a Utf8Texts),
        folded (shape WH_SUMMARY or WH_ROWS) by MESSAGE_ROUTES: no str is made of it unless the
        parse fails."""
        cdef object reason = finish_reason(finish)
        self.check_fresh(prompt)
        return self.whole_of(None, None, p, n, prompt, reason, shape, choice, _MESSAGE_ROUTES)

    cdef int check_fresh(self, object prompt) except -1:
        if self.stage != ST_FRESH:
            raise LifecycleError("parse takes a fresh parser")
        if prompt is not None and type(prompt) is not str:
            raise TypeError(f"parse: prompt must be a str, not {type(prompt).__name__}")
        return 0

    cdef object whole_of(self, Delta delta, str output, const unsigned char* p, Py_ssize_t n, object prompt,
                         object reason, int shape, object choice, FieldRoutes routes):
        """The whole parse of output (p[0:n] its UTF-8; the str None for a folded shape), a folded
        shape's records routed by `routes`."""
        cdef bint thought = self.in_thought()
        self.begin_feed()
        self.folding = shape != WH_EVENTS
        try:
            self.parse_fresh(delta, output, p, n, prompt, reason)
            if shape == WH_SUMMARY:
                return self.sink.summary(routes, thought, output, p, n)
            if shape == WH_SUMMARIES:
                return self.sink.summaries(routes, <FieldRoutes?>choice, thought, output, p, n)
            if shape == WH_ROWS:
                return self.sink.summary_into(<SummaryRows?>choice, thought)
            if shape == WH_MESSAGE:
                summary = self.sink.summary(routes, thought, output, p, n)
                return (choice_of(summary, choice),) + summary[4:8]
            return self.sink.take(output, p, n)     # the output's own str where an event's text is all of it
        finally:
            self.busy = False

    cdef int parse_fresh(self, Delta delta, str output, const unsigned char* p, Py_ssize_t n, object prompt,
                         object reason) except -1:
        """Prompt, the output p[0:n] (a Delta, or uncounted when delta is None), End, into the
        sink. `output` is p's str, or None: then it is made only should the parse fail."""
        cdef bint fed = False
        self.stage = ST_STREAMING
        try:
            self.sink.expect(n)
            if prompt is not None:
                self.seed(<str>prompt)
            fed = True
            self.feed_text(delta, p, n)
            self.stage = ST_ENDED
            self.finish_stream(reason)
        except BaseException as error:
            if not fed:
                self.ledger.note_plain(n)
            if output is None:
                try:
                    output = PyUnicode_DecodeUTF8(<const char*>p, n, "surrogateescape")
                except BaseException:      # (out of memory: those bytes are not reported then)
                    pass
            self.fail(error, output, n)
            self.stage = ST_ENDED
            try:
                self.end_failed(reason)
            finally:
                self.attach_events(error, output, p, n)
            raise
        return 0

    cdef list piece(self, Delta delta, str text):
        """A piece of output fed, and its events: a Delta, or (delta None) one token whose text
        is `text`, counted as a span over all of it."""
        cdef Py_ssize_t n
        cdef const unsigned char* p = self.read_piece(delta, text, &n)
        return self.sink.take(text, p, n)

    cdef const unsigned char* read_piece(self, Delta delta, str text, Py_ssize_t* size) except NULL:
        """`piece` up to its records (the sink holds them): returns the piece's UTF-8 bytes, their
        length in `size`."""
        cdef Py_ssize_t n
        cdef const unsigned char* p
        if self.stage >= ST_ENDED:
            self.refuse_delta()
        p = utf8_of(text, &n, "feed_token: text") if delta is None else delta.bytes_of(&n)
        self.stage = ST_STREAMING
        try:
            if delta is None:
                self.ledger.note_token(n)
            else:
                self.ledger.note(delta, p, n)
            self.scan(p, n)
        except BaseException as error:
            self.fail(error, text, n)
            self.attach_events(error, text, p, n)
            raise
        size[0] = n
        return p

    cdef inline bint in_thought(self) noexcept:
        """Whether the stream is inside a thought: its state emits reasoning, or it holds a damaged
        marker written in such a state (the records' own ReasoningStart and ReasoningEnd mark
        exactly where that changes)."""
        cdef int state = self.damaged_origin if self.table.emits[self.state] == EM_DAMAGED_MARKER else self.state
        return self.table.emits[state] == EM_REASONING

    cdef object piece_fields(self, str text, FieldRoutes routes, bint* rest):
        """A delta's text fed as `feed_token` feeds one token, and its records folded into an
        engine's delta fields by `routes` (Sink.fields; `rest` is its FIELD_REST flag) instead of
        built into events."""
        cdef Py_ssize_t n
        cdef const unsigned char* p
        cdef bint thought = self.in_thought()
        self.begin_feed()
        try:
            self.folding = True
            p = self.read_piece(None, text, &n)
            return self.sink.fields(routes, thought, text, p, n, self.unsettled.data + self.unsettled_start,
                                    self.unsettled.len - self.unsettled_start, rest)
        finally:
            self.busy = False

    cdef object end_fields(self, str finish, FieldRoutes routes, bint* rest):
        """The end of the stream (`feed(End(finish))`), its records folded as `piece_fields` folds."""
        cdef bint thought = self.in_thought()
        self.begin_feed()
        try:
            self.folding = True
            self.read_end(finish_reason(finish))
            return self.sink.fields(routes, thought, None, NULL, -1, NULL, 0, rest)
        finally:
            self.busy = False

    cdef int refuse_delta(self) except -1:
        """A delta after End or after an error (off delta's path, which then keeps no registers
        for building the error)."""
        if self.stage == ST_FAILED:
            raise LifecycleError("delta after a parse error; only end is accepted")
        raise LifecycleError("delta after end")

    cdef int feed_text(self, Delta delta, const unsigned char* p, Py_ssize_t n) except -1:
        """One delta's bytes p[0:n] (delta None: an uncounted piece of output)."""
        if delta is None:
            self.ledger.note_plain(n)
        else:
            self.ledger.note(delta, p, n)
        return self.scan(p, n)

    cdef inline int scan(self, const unsigned char* p, Py_ssize_t n) except -1:
        """The bytes p[0:n], just noted in the ledger, read: what the scanner and the current
        state make of them, then what is left unaccounted for kept."""
        if self.scanner.take_plain(p, n):       # no marker can start in it: one text piece
            self.piece_at = self.ledger.received - n
            if self.separators.len and n and en_ascii_blank(p, n):
                self.hold_after_separator(p, n)
            else:
                if self.separators.len and n:
                    self.settle_separators(False)
                self.text(p, n)
        else:
            self.scanner.begin(p, n, True)
            self.run(self.ledger.received - self.scanner.wn)
            self.scanner.shrink()
        if 0 <= self.limit < self.held_bytes():
            self.piece_at = self.ledger.emitted
            raise BufferOverflowError(self.limit)
        return self.settle(p, n)

    cdef void attach_events(self, BaseException error, str whole, const unsigned char* p, Py_ssize_t n) noexcept:
        """Hands the events pushed before `error` to the caller on the error. Should building
        them fail too, they stay recorded, and End returns them first."""
        try:
            error.events = self.sink.take(whole, p, n)
        except BaseException:
            try:
                error.events = []
            except BaseException:
                pass

    cdef list end(self, End end):
        self.read_end(finish_reason(end.finish))
        return self.sink.take(None, NULL, -1)

    cdef int read_end(self, object reason) except -1:
        """`end` up to its records (the sink holds them)."""
        if self.stage == ST_ENDED:
            raise LifecycleError("end after end")
        if self.stage == ST_FAILED:
            self.stage = ST_ENDED
            return self.end_failed(reason)
        self.stage = ST_ENDED
        try:
            self.finish_stream(reason)
        except BaseException as error:
            # End's error is final: the held bytes come back and the stream finishes first
            self.fail(error, None, 0)
            self.stage = ST_ENDED
            try:
                self.end_failed(reason)
            finally:
                self.attach_events(error, None, NULL, -1)
            raise
        return 0

    cdef int finish_stream(self, object reason) except -1:
        """The stream ends: what the scanner holds is read, what is open is closed, Finish."""
        self.scanner.begin(NULL, 0, False)
        self.run(self.ledger.received - self.scanner.wn)
        if self.separators.len:
            self.settle_separators(False)
        if self.end_again:
            self.end_tag_decided()
        self.close_state(reason is not _LENGTH)
        return self.sink.finish(reason)

    cdef int close_state(self, bint complete) except -1:
        """What the current state leaves open at the end of the stream (a call cut short gets
        arguments a client can load when `complete`: the engine did not stop it for its length)."""
        cdef int emits = self.table.emits[self.state]
        if emits == EM_REASONING:
            self.sink.mark(EV_REASONING_END)
        elif emits == EM_ARGUMENTS:
            if self.call.holds_opener():
                self.reread_opener()
                return self.close_state(complete)   # (what the state the opener led to leaves open)
            self.close_call(-1, NULL, 0, complete)
        elif emits == EM_DAMAGED_MARKER:
            if self.damaged_tag >= 0 and self.table.closes[self.state] >= 0 and not self.region_undecided:
                self.drop_damaged_close()          # (the block's close, cut short)
            else:
                self.show_damaged()
            return self.close_state(complete)      # (what the state it was written in leaves open)
        self.close_region()
        self.state = 0
        return 0

    cdef list prompt(self, Prompt prompt):
        if self.stage != ST_FRESH:
            raise LifecycleError("prompt after output began")
        self.stage = ST_STREAMING
        try:
            self.seed(prompt.text)
        except BaseException as error:
            self.fail(error, None, 0)
            self.attach_events(error, None, NULL, -1)
            raise
        return self.sink.take(None, NULL, -1)

    cdef int seed(self, str text) except -1:
        """Seeds the state from the prompt's last turn: where the generation prompt left off
        (only its markers' transitions count; its text is no output). The table keeps the last
        short turn it replayed (the generation prompt: the same for every request of a model),
        and the last short prompt as it was given, which many parsers of one model are given
        whole (a registry's prompt tail), so that one costs a comparison, not a search."""
        cdef int replay
        cdef Table table = self.table
        if text is table.seed_prompt or (table.seed_prompt is not None and text == table.seed_prompt):
            replay = table.seed_prompt_state
        else:
            replay = self.replayed_turn(text)
            if len(text) <= SEED_KEPT_LENGTH:
                table.seed_prompt_state = replay
                table.seed_prompt = text
        if table.emits[replay] != EM_ARGUMENTS:
            self.enter(replay)
        return 0

    cdef int replayed_turn(self, str text) except -1:
        """The state the prompt's last turn (from the table's turn opener on) leads to; the table
        keeps the last short turn and its state."""
        cdef Py_ssize_t at
        cdef int replay
        cdef Table table = self.table
        if table.opener is not None:
            at = text.rfind(table.opener)
            if at >= 0:
                text = text[at:]
        if table.seed_text is not None and text == table.seed_text:
            return table.seed_state
        replay = self.replay(text)
        if len(text) <= SEED_KEPT_LENGTH:
            table.seed_state = replay
            table.seed_text = text
        return replay

    cdef int replay(self, str text) except -1:
        """The state the markers of `text` lead to from the first state."""
        cdef Py_ssize_t n, s = 0, e = 0
        cdef const unsigned char* p
        cdef int replay = 0, k, nxt
        p = utf8_of(text, &n, "Prompt.text")
        self.scanner.begin(p, n, False)
        while True:
            k = self.scanner.next(&s, &e)
            if k == SC_DONE:
                break
            if k >= 0:
                nxt = self.table.next(replay, k)
                if nxt >= 0 and self.table.emits[nxt] != EM_DAMAGED_MARKER:     # (no output to show or drop)
                    replay = nxt
        return replay

    cdef int run(self, int64_t window_at) except -1:
        """Handles the scanner's pieces of the window that starts at output offset window_at. A
        marker with no row from the current state is text there (but a control token, a marker
        in a call that returns, or the open region's opener: terminal() decides): it joins the
        text around it, and the run is read at once (pieces of one window are contiguous, and
        reading text moves no state but a damaged marker's, whose terminals are each handled on
        their own)."""
        cdef Py_ssize_t s = 0, e = 0, run_at = 0, run_end = -1
        cdef int k, nxt
        while True:
            k = self.scanner.next(&s, &e)
            if k == SC_DONE:
                if run_end >= 0:
                    self.run_text(window_at, run_at, run_end)
                return 0
            if k == SC_TEXT:
                nxt = -1
            elif (self.table.ignored[k] or self.table.control[k] or self.table.after_call[self.state] >= 0
                  or self.table.emits[self.state] == EM_DAMAGED_MARKER):
                nxt = -2                # (terminal decides: a marker with no row may still be no text)
            else:
                nxt = self.table.next(self.state, k)
                if nxt == -1 and (k == self.closer_again or self.region_undecided and k == self.region_opener
                                  or k == self.entered_by and self.call_may_begin):
                    nxt = -2            # (the region's opener or closer, or a call's opener, again:
                                        # terminal decides)
            if nxt == -1 and self.separators.len and en_ascii_blank(self.scanner.w + s, e - s):
                self.hold_after_separator(self.scanner.w + s, e - s)
                continue
            if self.separators.len and (nxt == -1 or (nxt == -2 and self.table.ignored[k] != IG_SEPARATOR
                                                   and self.table.next(self.state, k) < 0)):
                self.settle_separators(False)   # (before a row, row() drops them)
            if nxt == -1:
                if run_end < 0:
                    run_at = s
                run_end = e
                continue
            if run_end >= 0:
                self.run_text(window_at, run_at, run_end)
                run_end = -1
            self.piece_at = window_at + s
            if self.end_again:
                self.end_tag_decided()      # (a marker: no end tag written again)
            if nxt >= 0:
                self.row(k, nxt, self.scanner.w + s, e - s)
            else:
                self.terminal(k, self.scanner.w + s, e - s)
            self.build_ahead()

    cdef inline int run_text(self, int64_t window_at, Py_ssize_t at, Py_ssize_t end) except -1:
        """The window's text [at, end)."""
        self.piece_at = window_at + at
        self.text(self.scanner.w + at, end - at)
        return self.build_ahead()

    cdef inline int build_ahead(self) except -1:
        """Between two pieces of a feed whose records become events: once they are many, their
        events are built ahead (Sink.flush), while they are fresh in cache, so a long feed costs
        no more per byte than a short one. A folded feed's records are folded whole at its end."""
        if self.sink.count >= SK_AHEAD and not self.folding:
            return self.sink.flush()
        return 0

    cdef inline int text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef int emits = self.table.emits[self.state]
        cdef Py_ssize_t taken
        if self.region_undecided and not self.region_wrote:
            self.region_wrote = u8_space_run(p, n) < n
        if self.closer_again >= 0 and u8_space_run(p, n) < n:
            self.closer_again = -1
        if emits == EM_CONTENT:
            return self.sink.content(p, n)
        if emits == EM_REASONING:
            return self.sink.reasoning(p, n)
        if emits == EM_ARGUMENTS:
            if self.call_may_begin and u8_space_run(p, n) < n:
                self.call_may_begin = False
            taken = self.call.feed(p, n, self.sink)
            if self.region_undecided:
                self.region_decided()
            if taken < n:
                if self.table.after_call[self.state] >= 0:
                    return self.call_returned(-1, p + taken, n - taken)
                self.wrapping_given_back()
                self.sink.wrapping(p + taken, n - taken, OT_TEXT_AFTER_OBJECT)
            return 0
        if emits == EM_HIDDEN:
            return self.sink.dropped(DR_WRAPPER, p, n)
        if emits == EM_DAMAGED_MARKER:
            return self.damaged_text(p, n)
        if self.end_again:
            return self.end_tag_again(p, n)
        if self.call_may_begin and self.table.objects[self.state] >= 0:
            return self.block_text(p, n)
        if self.call_may_begin:
            self.call_may_begin = u8_space_run(p, n) == n
        return self.sink.wrapping(p, n, OT_TEXT_BETWEEN_BLOCK_CALLS)

    cdef int end_tag_again(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Block text right after a call ended by the tag its assembler reads as its end, one no
        marker spells (Qwen3-Coder's `</function>`): whitespace is the block's wrapping, and that
        tag written again, held until its bytes decide, is one with it: Dropped. From the first
        byte that is neither, the text is the block's, as ever (end_tag_decided)."""
        cdef const unsigned char* tag = self.table.end_tag
        cdef Py_ssize_t m = len(self.table.end_tag), at, k
        while n > 0:
            if self.end_held.len == 0:
                at = u8_space_run(p, n)
                if at:
                    self.sink.dropped(DR_WRAPPER, p, at)
                p += at
                n -= at
                if n == 0:
                    return 0
            k = min(m - self.end_held.len, n)
            if memcmp(p, tag + self.end_held.len, k) != 0:
                self.end_tag_decided()
                return self.text(p, n)
            bb_append(&self.end_held, p, k)
            p += k
            n -= k
            if self.end_held.len == m:
                self.end_held.len = 0
                self.sink.dropped(DR_WRAPPER, self.end_held.data, m)
        return 0

    cdef int end_tag_decided(self) except -1:
        """Something other than whitespace or the call's end tag follows that tag: what was held
        of it is the block's text, as written."""
        cdef Py_ssize_t n = self.end_held.len
        self.end_again = False
        self.end_held.len = 0           # (its bytes stay where they are until the next append)
        return self.text(self.end_held.data, n) if n else 0

    cdef int block_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Text in a block that reads JSON call objects, where a call may begin (see the top):
        whitespace is the block's wrapping, a `{` opens a call read as a JSON call object, which
        returns here once it closes (one loop, however many objects the piece holds); anything else
        is wrapping to the stretch's end."""
        cdef Py_ssize_t at, taken
        while n > 0:
            at = u8_space_run(p, n)
            if at:
                self.sink.wrapping(p, at, OT_TEXT_BETWEEN_BLOCK_CALLS)
            if at == n:
                return 0
            if p[at] != LBRACE:
                self.call_may_begin = False
                return self.sink.wrapping(p + at, n - at, OT_TEXT_BETWEEN_BLOCK_CALLS)
            self.enter(self.table.objects[self.state])
            p += at
            n -= at
            taken = self.call.feed(p, n, self.sink)
            if self.region_undecided:
                self.region_decided()
            if taken == n:
                return 0
            self.return_from_call()
            p += taken
            n -= taken
        return 0

    cdef int terminal(self, int i, const unsigned char* p, Py_ssize_t n) except -1:
        """The table's terminal i (bytes p[0:n]) in the current state."""
        cdef int nxt
        cdef int emits = self.table.emits[self.state]
        if emits == EM_DAMAGED_MARKER:
            return self.damaged_terminal(i, p, n)
        if emits == EM_ARGUMENTS and self.call.holds_opener():
            return self.after_reread(i, p, n)
        if self.table.ignored[i]:
            if emits == EM_ARGUMENTS:
                return self.call.ignored(p, n, self.sink)
            if self.table.ignored[i] == IG_SEPARATOR and (emits == EM_CONTENT or emits == EM_REASONING):
                if self.separators.len and u8_ascii_space(self.separators.data[self.separators.len - 1]):
                    self.settle_separators(False)    # (whitespace no tag followed: text, as it was)
                self.separator_marker = -1 if self.separators.len else i
                return bb_append(&self.separators, p, n)
            return self.sink.dropped_marker(i, p, n)
        nxt = self.table.next(self.state, i)
        if nxt < 0 and emits == EM_WRAPPER and i == self.region_opener and self.region_undecided:
            return self.opener_in_block(i, p, n)
        if nxt < 0:
            if emits == EM_ARGUMENTS and i == self.entered_by and self.call_may_begin:
                # a call's opener twice in a row, whitespace aside: one, the second a separator in
                # the call (in the source of the bytes around it, whitespace the call may hold)
                return self.call.ignored(p, n, self.sink)
            if self.table.control[i] and emits != EM_ARGUMENTS:
                # a control token no row reads: no text a reader is shown (a call reads it as text)
                return self.sink.dropped(DR_CONTROL_TOKEN, p, n)
            if self.table.after_call[self.state] >= 0:
                return self.marker_in_returning_call(i, p, n)
            if i == self.closer_again:
                return self.sink.dropped_marker(i, p, n)    # (a close after a call twice in a row: one)
            return self.text(p, n)
        return self.row(i, nxt, p, n)

    cdef int row(self, int i, int nxt, const unsigned char* p, Py_ssize_t n) except -1:
        """The row on terminal i from the current state (not a damaged marker's) to state nxt."""
        cdef bint taken = False
        cdef bint opening, after_call
        cdef int64_t calls
        if self.table.emits[self.state] == EM_ARGUMENTS and self.call.holds_opener():
            return self.after_reread(i, p, n)
        if self.table.emits[nxt] == EM_DAMAGED_MARKER:
            if self.separators.len:
                self.settle_separators(False)
            return self.enter_damaged(nxt, p, n)
        if self.table.emits[self.state] == EM_ARGUMENTS and (
                self.call.hold_marker(i, p, n, self.sink) if self.table.syntax.is_opener(i)
                else self.call.hold_close(i, p, n, self.sink)):
            return 0            # the open value's text, unless what follows says otherwise
        after_call = self.closer_again >= 0
        self.closer_again = -1
        if self.opener_again(i):
            return self.reopen_region(i, p, n)
        if self.opener_after_text(i, nxt):
            return self.text(p, n)
        opening = self.opens_region(i, nxt)
        if opening and self.opener_twice_to_first_state(i, nxt) and not (self.call is not None
                                                                        and self.call.holds_bytes()):
            return self.sink.dropped_marker(i, p, n)    # (a call holding bytes closes first: the row)
        if opening:
            if self.region_undecided and nxt == 0:
                self.close_region()     # (a marker back to the first state: it opens the next one)
            self.open_region()          # the marker is the region's first byte
            self.region_opener = i
        if self.separators.len:
            self.settle_separators(True)   # (written before the marker: in its region, if it opens one)
        if self.table.emits[self.state] == EM_ARGUMENTS:
            calls = self.sink.calls
            after_call = after_call or self.sink.open_call >= 0
            taken = self.close_call(i, p, n, True)
            after_call = after_call or self.sink.calls != calls     # (a call its close completes)
        if not taken and self.table.emits[nxt] == EM_ARGUMENTS and self.table.syntax.is_start(i):
            # the call's own first tag opens the call: its bytes are the call's, read as a region of
            # their own where they open one, else as the first bytes of a call in its block
            self.enter(nxt)
            return self.call.open_with(p, n, self.sink, opening)
        if not taken:
            if (self.table.emits[nxt] == EM_ARGUMENTS and not opening and self.table.in_region[self.state]
                    and self.table.in_region[nxt] and not self.table.syntax.holds_its_calls):
                self.sink.hold_opener()     # a call's opener in its block: the call's, if none starts
            self.sink.dropped_marker(i, p, n)
        if self.closes_after_call(nxt, after_call):
            self.closer_again = i
        self.enter(nxt)
        self.entered_by = i
        return 0

    cdef int marker_in_returning_call(self, int i, const unsigned char* p, Py_ssize_t n) except -1:
        """A marker with no row, in an arguments state its call returns from: the call's text,
        unless the call has ended; then the marker is read where the call returned to."""
        cdef Py_ssize_t taken = self.call.feed(p, n, self.sink)
        if taken < n:
            return self.call_returned(i if taken == 0 else -1, p + taken, n - taken)
        return 0

    cdef int reread_opener(self) except -1:
        """A terminal or the stream's end came while the open call held a marker inside a value
        (Assembler.hold_marker, hold_close): it was the next call's (or the call's close), so it
        and what was held after it are read again here, as they would have been had the value
        been closed: the text as text, the markers the call held after it (hold_more) as markers.
        Read into buffers of its own: reading them again may hold and give back anew."""
        cdef int marker = -1
        cdef Py_ssize_t m = 0, n, at, k
        cdef ByteBuf again, marks
        cdef const HeldMarker* held
        memset(&again, 0, sizeof(ByteBuf))
        memset(&marks, 0, sizeof(ByteBuf))
        try:
            n = self.call.give_back_opener(&again, &marks, &marker, &m, self.sink)
            if n == 0:
                return 0
            self.terminal(marker, again.data, m)
            at = m
            held = <const HeldMarker*>marks.data
            for k in range(marks.len // <Py_ssize_t>sizeof(HeldMarker)):
                if held[k].at > at:
                    self.text(again.data + at, held[k].at - at)
                self.terminal(held[k].terminal, again.data + held[k].at, held[k].len)
                at = held[k].at + held[k].len
            if n > at:
                self.text(again.data + at, n - at)
        finally:
            bb_free(&again)
            bb_free(&marks)
        return 0

    cdef int after_reread(self, int i, const unsigned char* p, Py_ssize_t n) except -1:
        """Terminal i came while the open call held a marker in a value: held with it where the
        call still may read it as the value's (Assembler.hold_more; never a separator), else the
        held marker is read again first, then i, in the state that leads to."""
        if not self.table.ignored[i] and self.call.hold_more(i, p, n, self.sink):
            return 0
        self.reread_opener()
        return self.terminal(i, p, n)

    cdef int wrapping_given_back(self) except -1:
        """Bytes of earlier pieces the call gave back where the state does not return: wrapping."""
        cdef const unsigned char* q
        cdef Py_ssize_t m = self.call.given_back(&q)
        return self.sink.wrapping(q, m, OT_TEXT_AFTER_OBJECT) if m else 0

    cdef int call_returned(self, int marker, const unsigned char* p, Py_ssize_t n) except -1:
        """The open call ended by its own end tag, in a state with somewhere to return to: the
        state returns there (return_from_call), and what follows (p[0:n]: the marker `marker`, or
        text when -1) is read in that state."""
        self.return_from_call()
        if marker >= 0:
            return self.terminal(marker, p, n)
        return self.text(p, n)

    cdef int return_from_call(self) except -1:
        """The open call ended by its own end tag: the state returns where the table says (a
        return out of the region closes it there; if no call started in the region, the tag that
        opened it was text, and the state is the one it was opened from), and the bytes the call
        gave back are read there."""
        cdef int back = self.table.after_call[self.state]
        cdef Assembler call = self.call   # (holds the bytes given back until they are read)
        cdef const unsigned char* q
        cdef Py_ssize_t m = call.given_back(&q)
        if self.region_undecided and not self.table.in_region[back]:
            back = self.region_from     # no call started: the tag that opened it was text
        self.call = None
        self.sink.opener_unused()
        self.enter(back)
        self.end_again = len(self.table.end_tag) > 0 and self.table.emits[back] == EM_WRAPPER
        if m:
            self.text(q, m)
        return 0

    # -- a damaged marker (see the top) ----------------------------------------------------------

    cdef int enter_damaged(self, int nxt, const unsigned char* p, Py_ssize_t n) except -1:
        """A mark p[0:n] leads from the current state into the damaged-marker state nxt."""
        self.damaged_origin = self.state
        self.state = nxt
        return self.hold_damaged(p, n)

    cdef int hold_damaged(self, const unsigned char* p, Py_ssize_t n) except -1:
        """A mark p[0:n] begins a damaged tag (or a name), held."""
        self.damaged_tag = n
        self.damaged_mark = n
        return bb_append(&self.damaged, p, n)

    cdef int damaged_terminal(self, int i, const unsigned char* p, Py_ssize_t n) except -1:
        """A terminal while a damaged marker is held: another mark is held too; a row into a call or
        a block drops what is held; anything else shows it and is read from where the mark was."""
        cdef int nxt = -1 if self.table.ignored[i] else self.table.next(self.state, i)
        cdef int after = self.table.emits[nxt] if nxt >= 0 else -1
        if after == EM_DAMAGED_MARKER:
            return self.hold_damaged(p, n)
        if (after == EM_ARGUMENTS or after == EM_WRAPPER) and not (self.table.holds_name[self.state]
                                                                   and self.damaged_tag == self.damaged_mark):
            self.state = self.damaged_origin
            self.call_may_begin = True  # (what it drops stands for a marker: a block's close or opener)
            if self.opens_region(i, nxt):
                self.open_region()      # (what it drops is the region's: text if no call starts)
            self.sink.dropped(DR_WRAPPER, self.damaged.data, self.damaged.len)
            self.damaged.len = 0
            return self.row(i, nxt, p, n)
        self.show_damaged()
        return self.terminal(i, p, n)

    cdef int damaged_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Text while a damaged marker is held: the rest of its tag and whitespace after it are held
        too; from the first byte that is neither (or a tag grown too long) it is shown."""
        cdef Py_ssize_t at = 0, k, w, room
        cdef const unsigned char* name
        if self.table.holds_name[self.state]:
            name = self.table.name_bytes + self.state * 256
            k = 0
            while k < n and name[p[k]]:
                k += 1
            if k == n and n < DAMAGED_TAG_MAX - self.damaged_tag:
                self.damaged_tag += n
                return bb_append(&self.damaged, p, n)
            self.show_damaged()
            return self.text(p, n)
        if self.damaged_tag >= 0:
            room = DAMAGED_TAG_MAX - self.damaged_tag
            k = 0
            while k < n and k < room and p[k] != GREATER and p[k] != LF:
                k += 1
            if k == n and n < room:
                self.damaged_tag += n
                return bb_append(&self.damaged, p, n)
            if k >= room:
                at = -1                 # no end within DAMAGED_TAG_MAX: prose
            elif p[k] == GREATER and self.table.closes[self.state] >= 0:
                return self.damaged_close(p, k + 1, n)
            else:
                self.damaged_tag = -1
                at = k + 1
        while 0 <= at < n:
            w = u8_space_len(p + at, n - at)
            if w == 0:
                break
            at += w
        if at == n:
            return bb_append(&self.damaged, p, n)
        if at < 0:
            at = 0
        bb_append(&self.damaged, p, at)
        self.show_damaged()
        return self.text(p + at, n - at)

    cdef int damaged_close(self, const unsigned char* p, Py_ssize_t k, Py_ssize_t n) except -1:
        """A damaged close tag held, ended by its `>` (p[k - 1]): after a call was read in its block,
        it is the block's close (Dropped; the stream goes on where that close leads), else the
        block's text. The rest, p[k:n], is read there."""
        bb_append(&self.damaged, p, k)
        if self.region_undecided:
            self.show_damaged()
        else:
            self.drop_damaged_close()
        return self.text(p + k, n - k)

    cdef int drop_damaged_close(self) except -1:
        """The damaged close tag held is the block's close: Dropped, and the stream goes on where
        that close leads."""
        cdef int nxt = self.table.closes[self.state]
        self.state = self.damaged_origin
        self.sink.dropped(DR_WRAPPER, self.damaged.data, self.damaged.len)
        self.damaged.len = 0
        return self.enter(nxt)

    cdef int hold_after_separator(self, const unsigned char* p, Py_ssize_t n) except -1:
        """ASCII whitespace p[0:n] after a held separator: held with it (no longer one marker)."""
        self.separator_marker = -1
        return bb_append(&self.separators, p, n)

    cdef int settle_separators(self, bint dropped) except -1:
        """The separators held in a text state are decided: dropped (a marker with a row follows
        them) or shown as the state's text."""
        cdef Py_ssize_t n = self.separators.len
        self.separators.len = 0          # (its bytes stay where they are until the next append)
        if not dropped:
            return self.text(self.separators.data, n)
        if self.separator_marker >= 0:
            return self.sink.dropped_marker(self.separator_marker, self.separators.data, n)
        return self.sink.dropped(DR_WRAPPER, self.separators.data, n)

    cdef int show_damaged(self) except -1:
        """What is held is the text of the state the mark was written in, which reads on."""
        cdef Py_ssize_t n = self.damaged.len
        self.state = self.damaged_origin
        self.damaged.len = 0            # (its bytes stay where they are until the next append)
        return self.text(self.damaged.data, n)

    cdef int enter(self, int nxt) except -1:
        cdef int before = self.table.emits[self.state]
        cdef int after = self.table.emits[nxt]
        if (self.region_undecided and not self.table.in_region[nxt]
                and not self.opens_region(-1, nxt)):
            if self.state == self.region_from and nxt != self.region_from and (after == EM_CONTENT or
                                                                               after == EM_REASONING):
                # no call region: a message's header that opens its text or thought (Inkling's
                # `<|message_model|><|content_thinking|>`): its markers are the template's
                self.region_undecided = False
                self.sink.release()
            else:
                self.close_region()     # the marker that left it was its last byte
                if self.table.prose_after_calls[nxt]:
                    nxt = self.region_from      # no call read: the tag was text where it was written
                    after = self.table.emits[nxt]
        elif self.opens_region(-1, nxt):
            self.open_region()          # (entered by the prompt: no marker)
        if before == EM_REASONING and after != EM_REASONING:
            self.sink.mark(EV_REASONING_END)
        elif after == EM_REASONING and before != EM_REASONING:
            self.sink.mark(EV_REASONING_START)
        if after == EM_ARGUMENTS:
            self.call = self.open_call(nxt)
        self.state = nxt
        self.call_may_begin = True
        self.entered_by = -1
        return 0

    cdef inline bint opens_region(self, int i, int nxt) noexcept:
        """Whether terminal i (-1: none), moving to state `nxt`, opens a call region: it enters a
        region's state from outside one, it is a marker that leads a table whose first state holds
        the calls back to it (xLAM's `[TOOL_CALLS]`, Llama 3's `<|python_tag|>`: a call opener
        too), or an opener the list did not hold (next_list: Granite 3's `<|tool_call|>` outside
        the list)."""
        cdef Syntax syntax = self.table.syntax
        if syntax is not None and syntax.openers_open_regions and syntax.is_opener(i):
            return True
        if self.table.in_region[nxt]:
            return not self.table.in_region[self.state]
        return nxt == 0 and self.state == 0 and self.table.emits[0] == EM_ARGUMENTS

    cdef inline bint opener_again(self, int i) noexcept:
        """Whether terminal i is the marker that opened the region, written again in it after
        text and before a call started (`Use <tool_call> tags: <tool_call>{...}`; the opener
        written twice in a row is one)."""
        return (self.region_undecided and self.region_wrote and i == self.region_opener
                and self.table.in_region[self.state])

    cdef inline bint closes_after_call(self, int nxt, bint after_call) noexcept:
        """Whether a row to nxt, out of a call region's state, is a close after a call: the call's
        own end tag (`</invoke>`; after_call: the row ends an open call), a close right after such
        a one, whitespace aside (after_call too: `</atem:function_calls>` after `</atem:invoke>`),
        or the region's close back to text once a call started in it (or to the prose a first
        state holds calls in: Llama 4's `<|python_end|>`). Written again right after, whitespace
        aside, where no row reads it, its marker is that close twice: one."""
        cdef int after = self.table.emits[nxt]
        if not self.table.in_region[self.state] or (self.table.in_region[nxt] and after == EM_ARGUMENTS):
            return False        # (not a close, or the next call's opener)
        return after_call or (not self.table.in_region[nxt] and self.sink.calls != self.region_calls
                              and (after == EM_CONTENT or after == EM_REASONING or after == EM_ARGUMENTS))

    cdef inline bint opener_twice_to_first_state(self, int i, int nxt) noexcept:
        """Whether terminal i, back to the first state that holds the calls (`<|python_tag|>`), is
        the marker that opened the region written again with only whitespace since: one with it,
        dropped with the region's wrapping (after text it ends the region and opens the next)."""
        return self.region_undecided and nxt == 0 and i == self.region_opener and not self.region_wrote

    cdef inline bint opener_after_text(self, int i, int nxt) noexcept:
        """Whether terminal i, on a row that keeps the block it is written in (the table reads the
        block's opener written again there: shapes.opener_again_in_block), is that opener written
        after text in the block since its last call (`</invoke>\nsee <minimax:tool_call> x`): the
        block's text, as written. Right after a call or the block's opener, whitespace aside, the
        row drops it, the block going on."""
        return (nxt == self.state and i == self.region_opener and not self.call_may_begin
                and self.table.emits[nxt] == EM_WRAPPER)

    cdef int reopen_region(self, int i, const unsigned char* p, Py_ssize_t n) except -1:
        """The region's opener again before a call started in it: the region was text the model
        wrote, and the marker opens the next one where the first was written."""
        if self.call is not None:
            self.close_call(-1, NULL, 0, True)
        self.close_region()
        self.enter(self.region_from)
        return self.terminal(i, p, n)

    cdef int opener_in_block(self, int i, const unsigned char* p, Py_ssize_t n) except -1:
        """The block's opener again, before a call started in it, where the block has no row for
        it (Kimi K2's, Step 3's): after text it opens the next block (reopen_region); written
        twice in a row it is one, the second dropped with the block's wrapping. (A block with a row
        for it, shapes.opener_again_in_block, reads it so in row().)"""
        if self.region_wrote:
            return self.reopen_region(i, p, n)
        return self.sink.dropped_marker(i, p, n)

    cdef inline void open_region(self) noexcept:
        """A call region opens: its events are held until a call starts or it ends."""
        if not self.region_undecided:
            self.region_undecided = True
            self.region_opener = -1
            self.region_wrote = False
            self.region_calls = self.sink.calls
            self.region_from = self.state
            self.sink.hold()

    cdef inline void region_decided(self) noexcept:
        """A call started in the open region (and its assembler holds it no longer): what it held
        goes out as it is."""
        if self.sink.calls != self.region_calls and self.sink.stretch_from < 0:
            self.region_undecided = False
            self.sink.release()

    cdef int close_region(self) except -1:
        """The region ends; if no call started in it, it was text the model wrote. (A region
        opened while a call's stretch held the records holds none of its own: the stretch's are
        the call's to decide.)"""
        if self.region_undecided:
            self.region_undecided = False
            if not self.sink.stretch_owns:
                self.sink.relabel_held(OT_REGION_WITHOUT_CALL)
        return 0

    cdef Assembler open_call(self, int state):
        """A fresh assembler for a call in `state`: a JSON call object's where a block opens one
        there (Table.objects), else one of the table's syntax."""
        cdef Syntax syntax = self.table.syntax
        if self.refuses_undeclared:
            self.give_names()
        if self.table.object_call[state]:
            return aj_opened(OL_KEYS_CALL, None, None)
        return syntax.open(self.declared_tools() if syntax.reads_types else None)

    cdef int give_names(self) except -1:
        """undeclared="malformed", before the first call: the Sink refuses calls to tools the
        request does not declare, when it declares any (with no tool named, nothing is checked)."""
        cdef object declared
        self.refuses_undeclared = False
        declared = self.declared_tools()
        if declared is not None and (<Declared>declared).declares_any():
            self.sink.refuse_undeclared(declared)
        return 0

    cdef object declared_tools(self):
        """The request's tools compiled for value typing (once per parser, when first needed).
        `tools` may be a Declared already, to share one compile across parsers, or a callable of
        no arguments that gives them (a tool list, a Declared or None) when first needed: a
        server that keeps one Declared per distinct tool list looks it up only for a parse that
        types a value."""
        cdef object tools = self.tools
        if self.declared is None and tools is not None:
            if callable(tools):
                tools = tools()
            if tools is not None:
                self.declared = tools if type(tools) is Declared else Declared.of(tools)
        return self.declared

    cdef int close_call(self, int terminal, const unsigned char* p, Py_ssize_t n, bint complete) except -1:
        """Ends the open region's call: by the table's terminal number `terminal` (bytes p[0:n]),
        or by the end of the stream (terminal -1; `complete`: a call cut short gets arguments a
        client can load). 1 when the terminal became part of the call.
        A block a marker closes is not cut short: what the assembler calls unterminated there is
        "a tool-call block that closed without a complete call" (SPEC §2.4)."""
        cdef Assembler call = self.call
        cdef Py_ssize_t since = self.sink.count     # (no event is built ahead while a call closes)
        cdef int taken = 0
        self.call = None
        if terminal < 0:
            call.finish(self.sink, complete)
        else:
            taken = call.close(terminal, p, n, self.sink)
            self.sink.relabel_unterminated(since, OT_BLOCK_CLOSED_WITHOUT_CALL)
        self.sink.opener_unused()
        if self.region_undecided:
            self.region_decided()
        return taken

    # -- failure -------------------------------------------------------------------------------

    cdef int settle(self, const unsigned char* p, Py_ssize_t n) except -1:
        """After a feed of p[0:n]: keeps output[emitted:received], the bytes no event accounts
        for yet (held by the scanner or an assembler), so a failure can still report them."""
        cdef int64_t emitted = self.ledger.emitted
        cdef int64_t fed_at = self.ledger.received - n
        cdef ByteBuf* kept = &self.unsettled
        if emitted == self.ledger.received and self.unsettled_start == 0 and kept.cap <= 65536:
            kept.len = 0                # everything is accounted for (most feeds)
            self.settled = emitted
            return 0
        if emitted >= fed_at:
            kept.len = 0
            self.unsettled_start = 0
            bb_append(kept, p + (emitted - fed_at), n - (emitted - fed_at))
        else:
            self.unsettled_start += emitted - self.settled
            if self.unsettled_start > (kept.len >> 1):
                kept.len -= self.unsettled_start
                memmove(kept.data, kept.data + self.unsettled_start, kept.len)
                self.unsettled_start = 0
            bb_append(kept, p, n)
        self.settled = emitted
        if self.unsettled_start == 0:
            bb_shrink(kept)
        return 0

    cdef void fail(self, BaseException error, str text, Py_ssize_t n) noexcept:
        """An error struck while `text` (n UTF-8 bytes, the last fed; None at End or in the
        prompt) was being fed: the parser remembers what no event accounted for, without copying
        it, and refuses everything but End from now on."""
        cdef int64_t emitted = self.ledger.emitted
        cdef int64_t fed_at = self.ledger.received - n
        self.stage = ST_FAILED
        self.call = None
        if self.table.emits[self.state] == EM_DAMAGED_MARKER:
            self.state = self.damaged_origin    # what it held is in what no event accounts for
            self.damaged.len = 0
        self.region_undecided = False
        self.sink.forget_holds()        # what is recorded goes out as it is
        if emitted >= fed_at:
            self.unsettled.len = 0
            self.unsettled_start = 0
            self.failed_from = emitted - fed_at
        else:
            self.unsettled_start += emitted - self.settled
            self.failed_from = 0
        self.settled = emitted
        self.failed_text = text if n else None
        try:
            error.offset = self.piece_at
        except BaseException:
            pass

    cdef int end_failed(self, object reason) except -1:
        """End after a failure: the unaccounted bytes as Malformed, the open call and thought
        ended, the stream finished."""
        cdef ByteBuf* kept = &self.unsettled
        cdef const unsigned char* p
        cdef Py_ssize_t n
        self.separators.len = 0          # (unaccounted: among the bytes reported here)
        self.end_held.len = 0
        self.end_again = False
        self.sink.malformed(MW_OTHER, OT_HELD_AT_FAILURE, kept.data + self.unsettled_start,
                            kept.len - self.unsettled_start)
        kept.len = 0
        self.unsettled_start = 0
        if self.failed_text is not None:
            p = utf8_of(self.failed_text, &n, "Delta.text")
            self.sink.malformed(MW_OTHER, OT_HELD_AT_FAILURE, p + self.failed_from, n - self.failed_from)
            self.failed_text = None
        if self.sink.open_call >= 0:
            self.sink.call_end(<uint32_t>self.sink.open_call, NULL, 0)
        if self.in_thought():
            self.sink.mark(EV_REASONING_END)
        self.damaged.len = 0            # (unaccounted: among the bytes reported above)
        self.state = 0
        self.sink.finish(reason)
        return 0
