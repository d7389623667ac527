# Where the engine and the call assemblers put their events during one feed. Each event is a
# record of offsets into an arena of bytes, counted by the stream's Ledger the moment it is pushed
# (every push happens in output order); Python event objects are built once, when the feed
# returns. Adjacent Content (or Reasoning) records of one feed merge (SPEC §1.4), and so do
# adjacent Dropped (Malformed) records of one reason: one event per run, not per piece. The Sink only
# records: what a byte becomes is the engine's and the assemblers' decision. It numbers calls in
# the order they start (SPEC §2.4: a call's index is the number of calls started before it).
#
# How runs join is the Sink's, like the merging above: whitespace wrapping (Dropped{Wrapper})
# that follows a Malformed run is part of the next Malformed run when one comes next, and
# wrapping otherwise (a marker, other text, a call, the end). Until the next record decides, that
# whitespace is a record held back from the feed's events (a gap), so no cut changes what it
# becomes. The engine may hold records too, while what they are is undecided (a call region that
# has not yet started a call): held records are built only once released, and a held stretch that
# turns out to be text is relabelled (its Dropped records Malformed). Held records keep their bytes
# counted as held (`undecided_at`), so the buffer limit sees them.
#
# An assembler may hold a stretch of its own inside that (`hold_stretch`, `hold_call`): a call
# that is a call only once it is whole (a pythonic call, read when its `)` closes it), and the list
# around it. When it turns out not to be one, its records are relabelled Malformed and its bytes
# join into runs (`refuse_call`), and the call numbers nothing: the next takes its index.
#
# The engine holds a call's opener in its block the same way (`hold_opener`): the call starting
# releases it (Dropped, the template's), and a call that ends having reported bytes it could not
# read and never started takes the opener into that Malformed text (`opener_unused`), so what the
# model wrote reads with its head. Until then what follows the opener waits with it, as a region's
# events wait for its decision.
#
# Where the engine gives it the request's tools to check names against (`refuse_undeclared`, the
# parser's option undeclared="malformed"), a call that starts with a name no tool declares is no
# call: the Sink records it as Malformed{UnknownTool}, every byte the call's assembler reports
# from its start to its end (the start's, the fragments', the end's, and whatever else it reports
# in between), and numbers no call for it. The assembler reads on as it would (it holds the index
# REFUSED_CALL), so every syntax refuses alike, and the next call takes the index this one did not.

cdef enum EventKind:
    EV_CONTENT = 0
    EV_REASONING_START = 1
    EV_REASONING = 2
    EV_REASONING_END = 3
    EV_CALL_START = 4
    EV_CALL_ARGUMENTS = 5
    EV_CALL_END = 6
    EV_DROPPED = 7
    EV_MALFORMED = 8
    EV_FINISH = 9


cdef struct sk_record:
    int kind
    int why              # DropWhy or MalformedWhy
    int other            # OtherText, when why is MW_OTHER
    uint32_t index
    Py_ssize_t text_at   # text, or a call event's source, in the arena
    Py_ssize_t text_len
    Py_ssize_t aux_at    # a fragment's JSON or a start's name; aux_len -1: the same bytes as text
    Py_ssize_t aux_len
    Py_ssize_t id_len    # a start's id, the model's own, right after its name in the arena (0: `call_<index>`)
    int64_t tokens       # -1: uncounted


cdef struct sk_whole:
    fd_text visible          # Content, Malformed, fragments of calls that never started
    fd_text thought
    ByteBuf joined           # the fragments of each call that has more than one, joined
    Py_ssize_t* started      # by call index: its CallStart record, or -1
    Py_ssize_t* pieces       # ... how many fragments it has
    Py_ssize_t* arguments_at # ... where its arguments are: in the arena (one fragment) or `joined`
    Py_ssize_t* arguments_len
    Py_ssize_t slots         # calls in the arrays
    Py_ssize_t malformed     # Malformed bytes
    int64_t tokens
    bint counted
    bint any_count


cdef void wh_free(sk_whole* g) noexcept:
    bb_free(&g.visible.joined)
    bb_free(&g.thought.joined)
    bb_free(&g.joined)
    free(g.started)          # the four arrays are one block


cdef enum:
    SK_FIRST = 4         # records a Sink holds in itself
    SK_EXPECT_MAX = 1 << 18   # the most arena a whole parse reserves up front
    SK_AHEAD = 2048           # records that make a feed build their events ahead


cdef uint32_t REFUSED_CALL = 0xFFFFFFFF     # the index call_start gives a call it refuses (no event carries it)

cdef list _CALL_IDS = [f"call_{i}" for i in range(256)]
cdef tuple _COUNTS = tuple(range(64))     # an event's token count as an int object, without a call


cdef inline object sk_tokens(int64_t tokens):
    """A record's token count as the event's `tokens` (None: uncounted)."""
    if tokens < 0:
        return None
    if tokens < 64:
        return <object>PyTuple_GET_ITEM(_COUNTS, tokens)
    return tokens


cdef inline str sk_call_id(uint32_t index):
    if index < 256:
        return <str>_CALL_IDS[index]
    return sk_call_id_written(index)


cdef str sk_call_id_written(uint32_t index):
    """`call_{index}`, its digits written here (no int object, no formatting)."""
    cdef char text[16]
    cdef int n = sk_call_id_text(index, text)
    return PyUnicode_DecodeASCII(text, n, NULL)


cdef int sk_call_id_text(uint32_t index, char* text) noexcept:
    """Writes `call_{index}` (at most 15 bytes) to text; returns its length."""
    cdef int n = 5
    cdef uint32_t k
    memcpy(text, b"call_", 5)
    k = 1
    while index // k >= 10:
        k *= 10
    while k:
        text[n] = <char>(48 + index // k % 10)
        n += 1
        k //= 10
    return n


cdef inline const unsigned char* sk_id_bytes(uint32_t index, const unsigned char* id, Py_ssize_t* id_n,
                                             char* text) noexcept:
    """A call's id as bytes: `id` (id_n[0] of them), the model's own, or where that is NULL
    `call_<index>`, written to `text` (16 bytes), id_n[0] set to its length."""
    if id != NULL:
        return id
    id_n[0] = sk_call_id_text(index, text)
    return <const unsigned char*>text


cdef bint sk_id_taken(ByteBuf* given, const unsigned char* id, Py_ssize_t n) noexcept:
    """Whether an id the model wrote cannot be its call's: an earlier call of the stream was given
    it (`given`: each written id given so far, after its length), or it has the form
    `call_<digits>` of the ids symphony gives (kept for those, so no later `call_<index>` meets it)."""
    cdef Py_ssize_t at = 5, m
    if n > 5 and memcmp(id, b"call_", 5) == 0:
        while at < n and DIGIT_0 <= id[at] <= DIGIT_9:
            at += 1
        if at == n:
            return True
    at = 0
    while at < given.len:
        memcpy(&m, given.data + at, sizeof(Py_ssize_t))
        at += sizeof(Py_ssize_t)
        if m == n and memcmp(given.data + at, id, n) == 0:
            return True
        at += m
    return False


cdef inline const unsigned char* sk_written_id(sk_record* r, const unsigned char* arena) noexcept:
    """Where a start record's id is in the arena (r.id_len bytes), when the model wrote one in
    the call's head; else NULL (the call's id is `call_<index>`)."""
    if r.id_len == 0:
        return NULL
    return arena + r.aux_at + r.aux_len


cdef inline (Py_ssize_t, Py_ssize_t) sk_fragment(sk_record* r) noexcept:
    """Where an arguments record's JSON is in the arena: (offset, length)."""
    if r.aux_len < 0:
        return r.text_at, r.text_len
    return r.aux_at, r.aux_len


cdef inline bint sk_joinable(sk_record* a, sk_record* b) noexcept:
    """Whether record b, right after record a, joins it as it would have had it been pushed then:
    a run of the same kind (text, reasoning, Dropped or Malformed of one reason), its bytes right
    after a's."""
    if a.kind != b.kind or a.why != b.why or a.text_at + a.text_len != b.text_at:
        return False
    if a.kind == EV_MALFORMED:
        return a.other == b.other
    return a.kind == EV_CONTENT or a.kind == EV_REASONING or a.kind == EV_DROPPED


cdef inline void sk_join(sk_record* a, sk_record* b) noexcept:
    a.text_len += b.text_len
    a.tokens = -1 if (a.tokens < 0 or b.tokens < 0) else a.tokens + b.tokens
    if a.kind == EV_DROPPED:
        a.other = OT_NONE       # a joined marker's text is no longer the table's str


@cython.freelist(8)
@cython.final
@cython.no_gc
cdef class Sink:
    """Records of one feed's events, their bytes, the stream's Ledger and its reasoning tally."""
    cdef sk_record* records          # `first`, until more records are pushed than it holds
    cdef Py_ssize_t count
    cdef Py_ssize_t cap
    cdef sk_record first[SK_FIRST]   # in the object: most feeds and short parses allocate no records
    cdef ByteBuf arena
    cdef ByteBuf given_ids           # the written ids calls of the stream were given (sk_id_taken)
    cdef Ledger ledger
    cdef int64_t reasoning_tokens
    cdef readonly uint32_t calls     # calls started in the stream
    cdef int64_t open_call           # the index of the call started and not ended, or -1
    cdef object names                # the request's tools (Declared) a call's name must be one of, or None
    cdef bint refusing               # a call to a tool they do not declare is open: its bytes are Malformed
    cdef object finish_reason        # set by finish(): the Finish event goes last
    cdef tuple marker_texts          # the table's markers as str, handed out for dropped markers
    cdef tuple marker_events         # an uncounted stream's Dropped of each marker (the table's)
    cdef list built                  # events of this feed built ahead (flush), or None
    cdef Py_ssize_t fresh_from       # records before this one take no more Malformed bytes (0: any may)
    cdef int kept_thought            # records a failed fields() kept: whether a thought was open
                                     # before them (1/0), or -1 (none kept)
    cdef int64_t last_index          # the call index last built into an event (-1: none) ...
    cdef object last_index_object    # ... and its int
    cdef Content last_content        # the Content and Dropped last built, handed out again (events
    cdef Dropped last_dropped        # are immutable) for the same str, count and reason: a call's
    cdef int64_t last_content_tokens # closing wrapper and the newline after it come once a call
    cdef int64_t last_dropped_tokens
    cdef int last_dropped_why
    cdef bint after_malformed        # the last record pushed is Malformed: whitespace after it waits
    cdef bint gap                    # the last record is that whitespace, still undecided (held)
    cdef int64_t gap_at              # ... the output offset of its first byte
    cdef Py_ssize_t held_from        # records from this one on are held for the engine, or -1
    cdef int64_t held_at             # ... the output offset of their first byte
    cdef Py_ssize_t stretch_from     # records from this one on are held for an assembler, or -1
    cdef bint stretch_owns           # ... and the hold (held_from) is the stretch's, not the engine's
    cdef Py_ssize_t call_from        # the held call's first record, or -1
    cdef bint call_flawed            # a Malformed record was pushed since call_from
    cdef bint opener_held            # the stretch is the engine's: a call's opener, until the call starts

    def __cinit__(self):
        self.open_call = -1
        self.last_index = -1
        self.kept_thought = -1
        self.records = self.first
        self.cap = SK_FIRST
        self.held_from = -1
        self.stretch_from = -1
        self.call_from = -1

    @staticmethod
    cdef Sink of(Ledger ledger, tuple marker_texts, tuple marker_events):
        """A Sink counting with `ledger`, for a table's markers and their shared Dropped events
        (made without a Python-level call: one per parser)."""
        cdef Sink sink = Sink.__new__(Sink)
        sink.ledger = ledger
        sink.marker_texts = marker_texts
        sink.marker_events = marker_events
        return sink

    def __dealloc__(self):
        if self.records != self.first:
            free(self.records)
        bb_free(&self.arena)
        bb_free(&self.given_ids)

    cdef sk_record* add(self, int kind, Py_ssize_t room=0) except NULL:
        """A new record, with `room` bytes of arena reserved for it: once it is added, nothing
        about it can fail (an error leaves no half-made record behind)."""
        cdef sk_record* grown
        cdef sk_record* r
        cdef Py_ssize_t cap
        bb_reserve(&self.arena, room)
        if self.count == self.cap:
            if self.records == self.first:
                cap = 16
                grown = <sk_record*>malloc(cap * sizeof(sk_record))
                if grown != NULL:
                    memcpy(grown, self.first, self.count * sizeof(sk_record))
            else:
                cap = self.cap * 2
                grown = <sk_record*>realloc(self.records, cap * sizeof(sk_record))
            if grown == NULL:
                raise MemoryError()
            self.records = grown
            self.cap = cap
        r = &self.records[self.count]
        self.count += 1
        r.kind = kind
        r.why = 0
        r.other = OT_NONE
        r.index = 0
        r.text_at = self.arena.len      # (records' bytes lie in the arena in record order)
        r.text_len = 0
        r.aux_at = self.arena.len
        r.aux_len = -1
        r.id_len = 0
        r.tokens = 0
        self.after_malformed = False    # a record after the gap decides it: it stays wrapping
        self.gap = False
        return r

    cdef inline int expect(self, Py_ssize_t n) except -1:
        """Arena room for a whole output of n bytes (its events' text, with room to spare for their
        JSON and names) in one allocation, not grown by doubling from empty; bounded, since a long
        parse builds its events ahead and reuses the arena."""
        bb_reserve(&self.arena, min(n + n // 4 + 64, <Py_ssize_t>SK_EXPECT_MAX))
        return 0

    cdef inline int text_record(self, sk_record* r, const unsigned char* p, Py_ssize_t n) except -1:
        r.text_at = self.arena.len
        r.text_len = n
        bb_append(&self.arena, p, n)
        r.tokens = self.ledger.count(n)
        return 0

    cdef inline sk_record* mergeable(self, int kind, int why, int other) noexcept:
        """The last record, when it is of this kind (and, for Dropped/Malformed, this reason) and
        its bytes end the arena (so more can be appended to it), else NULL."""
        cdef sk_record* last
        if self.count == 0 or self.holds_from(self.count):
            return NULL         # (the first held record does not join the last one built)
        if kind == EV_MALFORMED and (why == MW_UNTERMINATED or self.count <= self.fresh_from):
            return NULL         # relabel_unterminated and relabel_cut must find these bytes in their own records
        last = &self.records[self.count - 1]
        if (last.kind != kind or last.why != why or last.text_at + last.text_len != self.arena.len
                or (kind == EV_MALFORMED and last.other != other)):
            return NULL
        return last

    cdef inline int64_t extend(self, sk_record* last, const unsigned char* p, Py_ssize_t n) except? -2:
        """Appends p[0:n] to the last record (arena room reserved by the caller); returns the
        tokens that started in them (-1 uncounted)."""
        cdef int64_t tokens = self.ledger.count(n)
        bb_append(&self.arena, p, n)
        last.text_len += n
        last.tokens = -1 if (last.tokens < 0 or tokens < 0) else last.tokens + tokens
        if last.kind == EV_DROPPED:
            last.other = OT_NONE        # a merged marker's text is no longer the table's str
        return tokens

    cdef Py_ssize_t fresh(self) noexcept:
        """Malformed bytes pushed from here on start records of their own (relabel_cut relabels
        them, whatever a record before them said); returns where they start."""
        self.fresh_from = self.count
        return self.count

    cdef int run(self, int kind, const unsigned char* p, Py_ssize_t n) except -1:
        """Content or Reasoning text; merges into the previous record of the same kind."""
        cdef sk_record* r
        cdef int64_t tokens
        if n <= 0:
            return 0
        if self.refusing:
            return self.malformed(MW_UNKNOWN_TOOL, OT_NONE, p, n)
        bb_reserve(&self.arena, n)
        r = self.mergeable(kind, 0, OT_NONE)
        if r != NULL:
            tokens = self.extend(r, p, n)
        else:
            r = self.add(kind, n)
            self.text_record(r, p, n)
            tokens = r.tokens
        if kind == EV_REASONING and tokens > 0:
            self.reasoning_tokens += tokens
        return 0

    cdef inline int content(self, const unsigned char* p, Py_ssize_t n) except -1:
        return self.run(EV_CONTENT, p, n)

    cdef inline int reasoning(self, const unsigned char* p, Py_ssize_t n) except -1:
        return self.run(EV_REASONING, p, n)

    cdef int mark(self, int kind) except -1:
        """ReasoningStart or ReasoningEnd."""
        self.add(kind)
        return 0

    cdef int dropped(self, int why, const unsigned char* p, Py_ssize_t n) except -1:
        cdef sk_record* r
        cdef bint spaces
        if n <= 0:
            return 0
        if self.refusing and why != DR_CONTROL_TOKEN:
            return self.malformed(MW_UNKNOWN_TOOL, OT_NONE, p, n)    # (a control token is shown nowhere, in a call or out)
        bb_reserve(&self.arena, n)
        if self.gap or self.after_malformed:
            spaces = why == DR_WRAPPER and u8_all_space(p, n)
            if self.gap and not spaces:
                self.gap = False        # other wrapping after the gap: the gap stays wrapping
            elif spaces and not self.gap:
                r = self.add(EV_DROPPED, n)
                r.why = why
                self.gap_at = self.ledger.emitted
                self.gap = True
                return self.text_record(r, p, n)
        r = self.mergeable(EV_DROPPED, why, OT_NONE)
        if r != NULL:
            self.extend(r, p, n)
            return 0
        r = self.add(EV_DROPPED, n)
        r.why = why
        return self.text_record(r, p, n)

    cdef int dropped_marker(self, int marker, const unsigned char* p, Py_ssize_t n) except -1:
        """A marker consumed by a transition (Dropped{Wrapper}); alone, its text is the table's
        own str."""
        cdef sk_record* r
        if self.refusing:
            return self.malformed(MW_UNKNOWN_TOOL, OT_NONE, p, n)
        bb_reserve(&self.arena, n)
        self.gap = False                # a marker after the gap: the gap stays wrapping
        r = self.mergeable(EV_DROPPED, DR_WRAPPER, OT_NONE)
        if r != NULL:
            self.extend(r, p, n)
            return 0
        r = self.add(EV_DROPPED, n)
        r.why = DR_WRAPPER
        self.text_record(r, p, n)
        r.other = marker
        return 0

    cdef int malformed(self, int why, int other, const unsigned char* p, Py_ssize_t n) except -1:
        cdef sk_record* r
        if n <= 0:
            return 0
        if self.refusing:
            why = MW_UNKNOWN_TOOL       # (the refused call's bytes, whatever the assembler made of them)
            other = OT_NONE
        bb_reserve(&self.arena, n)
        if self.gap:
            self.join_gap(why, other)
        r = self.mergeable(EV_MALFORMED, why, other)
        if r != NULL:
            self.extend(r, p, n)
        else:
            r = self.add(EV_MALFORMED, n)
            r.why = why
            r.other = other
            self.text_record(r, p, n)
        self.after_malformed = True
        if self.call_from >= 0:
            self.call_flawed = True
        return 0

    cdef void join_gap(self, int why, int other) noexcept:
        """The held whitespace (the last record) lies between two Malformed runs: it is
        Malformed{why/other} like the run that follows it, joined to the one before when that one
        has the same reason."""
        cdef sk_record* r = &self.records[self.count - 1]
        cdef sk_record* before
        r.kind = EV_MALFORMED
        r.why = why
        r.other = other
        self.gap = False
        if (self.count < 2 or self.holds_from(self.count - 1) or self.count - 1 <= self.fresh_from
                or why == MW_UNTERMINATED):
            return
        before = &self.records[self.count - 2]
        if sk_joinable(before, r):
            sk_join(before, r)
            self.count -= 1

    cdef int wrapping(self, const unsigned char* p, Py_ssize_t n, int other) except -1:
        """Text where the format only wraps: whitespace runs Dropped, other runs Malformed."""
        cdef Py_ssize_t at = 0, start
        while at < n:
            start = at
            at += u8_space_run(p + at, n - at)
            if at > start:
                self.dropped(DR_WRAPPER, p + start, at - start)
            else:
                at += u8_text_run(p + at, n - at)
                self.malformed(MW_OTHER, other, p + start, at - start)
        return 0

    cdef int64_t call_start(self, const unsigned char* name, Py_ssize_t name_len,
                            const unsigned char* p, Py_ssize_t n,
                            const unsigned char* id=NULL, Py_ssize_t id_len=0) except -1:
        """A call starts; returns its index (the calls started before it). `id`: the id the model
        wrote in the call's head, or NULL; the call's id is `call_<index>` where there is none or
        it cannot be this call's (sk_id_taken): the ids of one stream are unique. A call whose
        name the tools checked against (`names`) do not declare is refused: its bytes p[0:n] are
        Malformed{UnknownTool}, as is all the call reports until its end, and the index returned
        is REFUSED_CALL."""
        cdef sk_record* r
        if self.names is not None and vt_undeclared(self.names, name, name_len):
            if self.opener_held:
                self.opener_held = False
                self.relabel_stretch_as(MW_UNKNOWN_TOOL, OT_NONE)     # (the refused call's opener is its)
            self.malformed(MW_UNKNOWN_TOOL, OT_NONE, p, n)
            self.refusing = True
            return REFUSED_CALL
        if self.opener_held:
            self.opener_held = False
            self.release_stretch()
        if id != NULL and (id_len <= 0 or sk_id_taken(&self.given_ids, id, id_len)):
            id = NULL
            id_len = 0
        if id != NULL:
            bb_reserve(&self.given_ids, sizeof(Py_ssize_t) + id_len)    # (nothing fails once added)
        r = self.add(EV_CALL_START, n + name_len + id_len)
        r.index = self.calls
        self.text_record(r, p, n)
        r.aux_at = self.arena.len
        r.aux_len = name_len
        bb_append(&self.arena, name, name_len)
        if id != NULL:
            r.id_len = id_len
            bb_append(&self.arena, id, id_len)
            memcpy(self.given_ids.data + self.given_ids.len, &id_len, sizeof(Py_ssize_t))
            self.given_ids.len += sizeof(Py_ssize_t)
            bb_append(&self.given_ids, id, id_len)
        self.open_call = self.calls
        self.calls += 1
        return r.index

    cdef int refuse_undeclared(self, object names) noexcept:
        """From the next call on, a call whose name `names` (a Declared that declares a name)
        does not declare is refused (call_start)."""
        self.names = names
        return 0

    cdef int call_arguments(self, uint32_t index, const unsigned char* json, Py_ssize_t json_len,
                            const unsigned char* p, Py_ssize_t n) except -1:
        """A fragment; json NULL means the fragment is the source bytes themselves."""
        cdef sk_record* r
        if index == REFUSED_CALL:
            return self.malformed(MW_UNKNOWN_TOOL, OT_NONE, p, n)
        r = self.add(EV_CALL_ARGUMENTS, n + (json_len if json != NULL else 0))
        r.index = index
        self.text_record(r, p, n)
        if json != NULL:
            r.aux_at = self.arena.len
            r.aux_len = json_len
            bb_append(&self.arena, json, json_len)
        return 0

    cdef int call_end(self, uint32_t index, const unsigned char* p, Py_ssize_t n) except -1:
        cdef sk_record* r
        if index == REFUSED_CALL:
            self.malformed(MW_UNKNOWN_TOOL, OT_NONE, p, n)
            self.refusing = False       # the refused call's last bytes: what follows is read as it is
            return 0
        r = self.add(EV_CALL_END, n)
        r.index = index
        if self.open_call == index:
            self.open_call = -1
        return self.text_record(r, p, n)

    cdef int relabel_unterminated(self, Py_ssize_t since, int other) except -1:
        """Records pushed since record `since` that say Malformed{UnterminatedRegion} say
        Malformed{Other(other)} instead."""
        cdef Py_ssize_t i
        for i in range(since, self.count):
            if self.records[i].kind == EV_MALFORMED and self.records[i].why == MW_UNTERMINATED:
                self.records[i].why = MW_OTHER
                self.records[i].other = other
        return 0

    cdef int relabel_cut(self, Py_ssize_t since) except -1:
        """Records pushed since record `since` that say Malformed{Other} say UnterminatedRegion
        (bytes an assembler reports as a marker's cut were cut by the end of the stream)."""
        cdef Py_ssize_t i
        for i in range(since, self.count):
            if self.records[i].kind == EV_MALFORMED and self.records[i].why == MW_OTHER:
                self.records[i].why = MW_UNTERMINATED
                self.records[i].other = OT_NONE
        self.fresh_from = 0
        self.rejoin(since)      # (one reason: one record again)
        return 0

    cdef void hold(self) noexcept:
        """Records from the next one on (and the gap, when one is held) are held, not built, until
        `release` or `relabel_held`: what they are is not decided yet."""
        if self.held_from >= 0:
            return
        if self.gap:
            self.held_from = self.count - 1
            self.held_at = self.gap_at
        else:
            self.held_from = self.count
            self.held_at = self.ledger.emitted

    cdef void release(self) noexcept:
        """The held records are what they say: built with the feed's other events (the first of
        them joined to the record before it, as it would have been had it not been held)."""
        cdef Py_ssize_t held = self.held_from
        self.held_from = -1
        if not self.gap:
            self.rejoin(held)

    cdef void rejoin(self, Py_ssize_t i) noexcept:
        """Record i, the first of a hold that ended, joins the record before it as it would have
        had it not been held (sk_joinable), unless another hold starts with it."""
        if 0 < i < self.count and not self.holds_from(i) and sk_joinable(&self.records[i - 1], &self.records[i]):
            sk_join(&self.records[i - 1], &self.records[i])
            memmove(&self.records[i], &self.records[i + 1], (self.count - i - 1) * sizeof(sk_record))
            self.count -= 1

    cdef inline int relabel_held(self, int other) except -1:
        """The held records turned out to be text: each Dropped one says Malformed{Other(other)},
        and adjacent Malformed records of one reason (the record before the held ones included)
        join; then they are released. (Nothing is held when a call's stretch that held them
        released them first.)"""
        return self.relabel_held_as(MW_OTHER, other)

    cdef int relabel_held_as(self, int why, int other) except -1:
        """relabel_held, the Dropped records saying Malformed{why/other}."""
        if self.held_from < 0:
            return 0
        self.relabel_dropped(self.held_from, self.count, why, other)
        self.join_from(self.held_from - 1 if self.held_from > 0 else 0)
        self.held_from = -1
        self.gap = False            # (a gap held with them is text now too)
        return 0

    cdef void relabel_dropped(self, Py_ssize_t since, Py_ssize_t until, int why, int other) noexcept:
        """Records since record `since` and before record `until` that say Dropped say
        Malformed{why/other} (a control token's too, as the text of what held no call, but in a
        refused call's: shown nowhere, as `dropped` keeps it while refusing)."""
        cdef Py_ssize_t i
        cdef sk_record* r
        for i in range(since, until):
            r = &self.records[i]
            if r.kind == EV_DROPPED and not (why == MW_UNKNOWN_TOOL and r.why == DR_CONTROL_TOKEN):
                r.kind = EV_MALFORMED
                r.why = why
                r.other = other

    cdef void join_from(self, Py_ssize_t start) noexcept:
        """Joins the adjacent records of one run from record `start` on (sk_joinable)."""
        self.join_between(start, self.count - 1)
        self.after_malformed = self.count > 0 and self.records[self.count - 1].kind == EV_MALFORMED

    # -- an assembler's holds ---------------------------------------------------------------------

    cdef inline void shift_holds(self, Py_ssize_t removed) noexcept:
        """`removed` records before the holds went: each hold's first record moves up by as many."""
        if self.held_from >= 0:
            self.held_from -= removed
        if self.stretch_from >= 0:
            self.stretch_from -= removed
        if self.call_from >= 0:
            self.call_from -= removed

    cdef inline bint holds_from(self, Py_ssize_t i) noexcept:
        """Whether record i is the first of a hold (it joins no record before it while held)."""
        return i == self.held_from or i == self.stretch_from or i == self.call_from

    cdef void hold_stretch(self) noexcept:
        """Records from the next one on (and a gap waiting) are held for the assembler until
        `release_stretch` (or `relabel_stretch`); inside the engine's hold when one is on."""
        if self.stretch_from >= 0:
            return
        if self.held_from < 0:
            self.hold()
            self.stretch_owns = True
            self.stretch_from = self.held_from
        else:
            self.stretch_from = self.count - 1 if self.gap else self.count

    cdef void hold_call(self) noexcept:
        """A call starts with the next record: it is held (in the stretch) until the assembler
        releases it or refuses it (`refuse_call`)."""
        self.hold_stretch()
        self.call_from = self.count - 1 if self.gap else self.count
        if self.call_from < self.stretch_from:
            self.call_from = self.stretch_from
        self.call_flawed = False

    cdef void release_stretch(self) noexcept:
        """What the stretch holds is what it says (its call, if one is held, is one)."""
        cdef Py_ssize_t since = self.stretch_from
        if since < 0:
            return
        self.call_from = -1
        self.stretch_from = -1
        if self.stretch_owns:
            self.stretch_owns = False
            self.release()
        elif not self.gap:
            self.rejoin(since)

    cdef inline int relabel_stretch(self, int other) except -1:
        """The stretch held no call: its Dropped records say Malformed{Other(other)}; released."""
        return self.relabel_stretch_as(MW_OTHER, other)

    cdef int relabel_stretch_as(self, int why, int other) except -1:
        """The stretch's Dropped records say Malformed{why/other}, and adjacent Malformed records of
        one reason join; released."""
        cdef Py_ssize_t since = self.stretch_from
        if since < 0:
            return 0
        self.call_from = -1
        self.stretch_from = -1
        if self.stretch_owns:
            self.stretch_owns = False
            return self.relabel_held_as(why, other)
        self.relabel_dropped(since, self.count, why, other)
        self.join_from(since)
        self.gap = False
        return 0

    # -- a call's opener --------------------------------------------------------------------------

    cdef void hold_opener(self) noexcept:
        """A call's opener marker in its block is the next record: held (the stretch) until the
        call starts (call_start releases it) or ends having started none (`opener_unused`)."""
        if self.stretch_from < 0:
            self.hold_stretch()
            self.opener_held = True

    cdef int opener_unused(self) except -1:
        """The call the held opener opened ended and never started. Where it reported bytes it could
        not read, the opener is shown with them: the stretch's Dropped records before the first
        Malformed one say what it says (whitespace the hold took after an earlier Malformed run
        with them) and join it, and what follows keeps its own fate; where it reported nothing,
        the opener wrapped. Released either way. (Decided at the call's end, not sooner: a list's
        assembler may report text and then start a call.)"""
        cdef Py_ssize_t i, since = self.stretch_from
        if not self.opener_held:
            return 0
        self.opener_held = False
        if since < 0:
            return 0
        for i in range(since, self.count):
            if self.records[i].kind == EV_MALFORMED:
                self.relabel_dropped(since, i, self.records[i].why, self.records[i].other)
                self.join_between(since, i)
                break
        self.release_stretch()
        return 0

    cdef void join_between(self, Py_ssize_t start, Py_ssize_t end) noexcept:
        """Joins the adjacent records of one run among records start through end (sk_joinable);
        those after them move up."""
        cdef Py_ssize_t i, w = start
        for i in range(start + 1, end + 1):
            if sk_joinable(&self.records[w], &self.records[i]):
                sk_join(&self.records[w], &self.records[i])
            else:
                w += 1
                self.records[w] = self.records[i]
        if w < end:
            memmove(&self.records[w + 1], &self.records[end + 1], (self.count - end - 1) * sizeof(sk_record))
            self.count -= end - w

    cdef int refuse_call(self, int why, int other) except -1:
        """The held call is no call: each of its records (but the Malformed ones, which keep their
        reasons) says Malformed{why/other}, its bytes only (the name and JSON go), and adjacent ones
        of one reason join; it numbers no call. The stretch goes on."""
        cdef Py_ssize_t i, w, cursor, start = self.call_from
        cdef sk_record* r
        if self.call_from < 0:
            return 0
        cursor = self.records[self.call_from].text_at if self.call_from < self.count else self.arena.len
        w = self.call_from
        for i in range(self.call_from, self.count):
            r = &self.records[i]
            if r.kind == EV_CALL_START:
                self.calls -= 1
                if self.open_call == r.index:
                    self.open_call = -1
                if r.id_len:
                    self.given_ids.len -= <Py_ssize_t>sizeof(Py_ssize_t) + r.id_len    # (the last given)
            if r.kind != EV_MALFORMED:
                r.kind = EV_MALFORMED
                r.why = why
                r.other = other
            memmove(self.arena.data + cursor, self.arena.data + r.text_at, r.text_len)
            r.text_at = cursor
            r.aux_at = cursor
            r.aux_len = -1
            r.id_len = 0
            cursor += r.text_len
            if r.text_len == 0 and r.kind == EV_MALFORMED:
                if w > start and r.tokens > 0:
                    sk_join(&self.records[w - 1], r)
                continue        # (a record of no bytes is no event)
            self.records[w] = r[0]
            w += 1
        self.arena.len = cursor
        self.count = w
        self.call_from = -1
        self.gap = False
        if start < self.count:
            self.join_from(start)
        return 0

    cdef inline int64_t undecided_at(self) noexcept:
        """The output offset of the first byte a held record carries, or -1 when none is held."""
        if self.held_from >= 0:
            return self.held_at
        return self.gap_at if self.gap else -1

    cdef int finish(self, object reason) except -1:
        """Trailing tokens with no bytes as one Dropped{ControlToken}, then Finish."""
        cdef int64_t left = self.ledger.take_pending()
        cdef sk_record* r
        if left:
            r = self.add(EV_DROPPED)
            r.why = DR_CONTROL_TOKEN
            r.text_at = self.arena.len
            r.tokens = left
        self.add(EV_FINISH)
        self.finish_reason = reason
        return 0

    cdef inline object decode(self, Py_ssize_t at, Py_ssize_t n, object whole, const unsigned char* wp,
                              Py_ssize_t wn):
        if n == 0:
            return ""
        if n == wn and memcmp(self.arena.data + at, wp, n) == 0:
            return whole
        return ss_decode(self.arena.data + at, n)

    cdef int gather(self, sk_whole* g, FieldRoutes routes, bint thought) except -1:
        """What the records say as a whole into `g` (zeroed by the caller, freed by wh_free), each
        record where `routes` sends it (`thought`: whether a thought is open before the first):
        visible text is what goes to the content, with the fragments of a call that never
        started; each call's fragments joined (a call of one fragment keeps it where it is, in
        the arena); tokens unknown when any record was uncounted or none counted. By
        MESSAGE_ROUTES this is symphony.adapt.fold's whole."""
        cdef sk_record* r
        cdef Py_ssize_t i, at, n, joined = 0
        cdef int field
        cdef bint rest = False, first_thought = thought
        if self.calls:
            g.started = <Py_ssize_t*>malloc(4 * self.calls * sizeof(Py_ssize_t))
            if g.started == NULL:
                raise MemoryError()
            g.pieces = g.started + self.calls
            g.arguments_at = g.pieces + self.calls
            g.arguments_len = g.arguments_at + self.calls
            g.slots = self.calls
            for i in range(self.calls):
                g.started[i] = -1
                g.pieces[i] = 0
                g.arguments_len[i] = 0
        g.counted = True
        for i in range(self.count):
            r = &self.records[i]
            field = fd_next(routes, self.records, i, self.count, &thought, &rest)
            if r.kind == EV_REASONING_START or r.kind == EV_REASONING_END or r.kind == EV_FINISH:
                continue
            if r.tokens < 0:
                g.counted = False
            else:
                g.tokens += r.tokens
                g.any_count = True
            if r.kind == EV_MALFORMED:
                g.malformed += r.text_len
            if field == FIELD_CONTENT:
                fd_add(&g.visible, self.arena.data + r.text_at, r.text_len)
            elif field == FIELD_REASONING:
                fd_add(&g.thought, self.arena.data + r.text_at, r.text_len)
            elif field != FIELD_CALL:
                continue
            elif r.kind == EV_CALL_START:
                g.started[r.index] = i
            else:
                at, n = sk_fragment(r)
                if r.index >= g.slots or g.started[r.index] < 0:
                    fd_add(&g.visible, self.arena.data + at, n)
                else:
                    g.pieces[r.index] += 1
                    g.arguments_at[r.index] = at
                    g.arguments_len[r.index] += n
                    if g.pieces[r.index] == 2:
                        joined += 1
        if joined:
            self.join_fragments(g, routes, first_thought)
        return 0

    cdef int join_fragments(self, sk_whole* g, FieldRoutes routes, bint thought) except -1:
        """The fragments of each call that has more than one, copied one after another into
        `g.joined` (room made once), and its arguments pointed there: gather's fragments, the
        records routed again as gather routed them (from `thought`, as gather began)."""
        cdef sk_record* r
        cdef Py_ssize_t i, at, n, size = 0
        cdef bint rest = False
        for i in range(g.slots):
            if g.pieces[i] > 1:
                g.arguments_at[i] = size
                size += g.arguments_len[i]
                g.arguments_len[i] = 0
        bb_reserve(&g.joined, size)
        for i in range(self.count):
            r = &self.records[i]
            if fd_next(routes, self.records, i, self.count, &thought, &rest) != FIELD_CALL:
                continue
            if r.kind == EV_CALL_ARGUMENTS and r.index < g.slots and g.pieces[r.index] > 1 \
                    and 0 <= g.started[r.index] < i:
                at, n = sk_fragment(r)
                if n:
                    memcpy(g.joined.data + g.arguments_at[r.index] + g.arguments_len[r.index], self.arena.data + at, n)
                    g.arguments_len[r.index] += n
        g.joined.len = size
        return 0

    cdef inline object whole_tokens(self, sk_whole* g):
        """The output tokens the records account for, or None (uncounted)."""
        return g.tokens if g.counted and g.any_count else None

    cdef inline object whole_reasoning_tokens(self, object output_tokens):
        return None if output_tokens is None else (0 if self.ledger.uncounted else self.reasoning_tokens)

    cdef void clear(self) noexcept:
        self.count = 0
        self.kept_thought = -1
        self.fresh_from = 0
        self.arena.len = 0
        self.forget_holds()

    cdef inline void forget_holds(self) noexcept:
        """Nothing is held any more: every record is what it says (the parse ended or failed; a
        refused call left open ends with it)."""
        self.held_from = -1
        self.stretch_from = -1
        self.stretch_owns = False
        self.call_from = -1
        self.opener_held = False
        self.gap = False
        self.after_malformed = False
        self.refusing = False

    cdef void clear_feed(self, Py_ssize_t keep) noexcept:
        """Between two feeds: forgets records[0:keep], whose events were made; the held ones after
        them stay for a later feed. What a large feed took is given back."""
        self.fresh_from = 0
        if keep < self.count:
            self.retain(keep)
            return
        if self.held_from >= 0:
            self.held_from = 0          # (a hold with no record yet: from the next one on)
        if self.stretch_from >= 0:
            self.stretch_from = 0
        if self.call_from >= 0:
            self.call_from = 0
        self.count = 0
        self.kept_thought = -1
        self.arena.len = 0
        bb_shrink(&self.arena)
        if self.cap > 4096:
            free(self.records)
            self.records = self.first
            self.cap = SK_FIRST

    cdef inline sk_record* whole_call(self, sk_whole* g, Py_ssize_t i, const unsigned char** arguments) noexcept:
        """Slot i's gathered call: its start record, and its arguments' bytes (g.arguments_len[i]
        of them; NULL when none) put in `arguments`; NULL when no call started in the slot."""
        if g.started[i] < 0:
            return NULL
        arguments[0] = NULL
        if g.arguments_len[i]:
            arguments[0] = (g.joined.data if g.pieces[i] > 1 else self.arena.data) + g.arguments_at[i]
        return &self.records[g.started[i]]

    cdef list whole_calls(self, sk_whole* g):
        """The gathered calls in start order: [(id, name, arguments)]."""
        cdef sk_record* r
        cdef const unsigned char* arguments
        cdef Py_ssize_t i
        cdef list calls = []
        for i in range(g.slots):
            r = self.whole_call(g, i, &arguments)
            if r != NULL:
                calls.append((self.call_id(r), self.decode(r.aux_at, r.aux_len, None, NULL, -1),
                              "" if arguments == NULL else PyUnicode_DecodeUTF8(<const char*>arguments,
                                                                                g.arguments_len[i], NULL)))
        return calls

    cdef tuple summary(self, FieldRoutes routes, bint thought, object whole, const unsigned char* wp, Py_ssize_t wn):
        """`summary_row`, and the records cleared."""
        try:
            return self.summary_row(routes, thought, whole, wp, wn)
        finally:
            self.clear()

    cdef tuple summaries(self, FieldRoutes routes, FieldRoutes more, bint thought, object whole,
                         const unsigned char* wp, Py_ssize_t wn):
        """(`summary_row` by routes, `summary_row` by more), and the records cleared."""
        try:
            return self.summary_row(routes, thought, whole, wp, wn), self.summary_row(more, thought, whole, wp, wn)
        finally:
            self.clear()

    cdef tuple summary_row(self, FieldRoutes routes, bint thought, object whole, const unsigned char* wp,
                           Py_ssize_t wn):
        """What the records say as a whole, by chat.message's rules with each record where
        `routes` sends it (gather): a row (content, or None when blank;
        reasoning, or None when empty; [(id, name, arguments)], or None when no call started;
        finish_reason, "tool_calls" for a plain stop with calls; output tokens; reasoning tokens;
        calls started; malformed bytes; None, the error slot). Flat, so rows cross processes
        cheaply; `choice_of` makes the message dict of one. `whole` (the output's str, bytes
        wp[0:wn], or None) is handed back as the content or reasoning that is all of it."""
        cdef sk_whole g
        cdef list calls
        cdef object content = None
        cdef const unsigned char* visible
        cdef Py_ssize_t n
        memset(&g, 0, sizeof(sk_whole))
        try:
            self.gather(&g, routes, thought)
            calls = self.whole_calls(&g)
            visible = fd_bytes(&g.visible, &n)
            if not u8_all_space(visible, n):
                content = fd_str(&g.visible, whole, wp, wn)
            reasoning = fd_str(&g.thought, whole, wp, wn)
            output_tokens = self.whole_tokens(&g)
            return (content, reasoning, calls or None, rs_finish_text(self.finish_reason, self.calls),
                    output_tokens, self.whole_reasoning_tokens(output_tokens), self.calls, g.malformed, None)
        finally:
            wh_free(&g)

    cdef int summary_into(self, SummaryRows rows, bint thought) except -1:
        """`summary`'s row by MESSAGE_ROUTES written into `rows`: the texts as the bytes they are
        here, no object made for any of them; the records cleared."""
        cdef sk_whole g
        cdef sk_record* r
        cdef const unsigned char* arguments
        cdef const unsigned char* visible
        cdef const unsigned char* thought_p
        cdef Py_ssize_t i, visible_n, thought_n
        memset(&g, 0, sizeof(sk_whole))
        try:
            self.gather(&g, _MESSAGE_ROUTES, thought)
            output_tokens = self.whole_tokens(&g)
            rows.begin_row(rs_finish_text(self.finish_reason, self.calls))
            for i in range(g.slots):
                r = self.whole_call(&g, i, &arguments)
                if r != NULL:
                    rows.call(r.index, sk_written_id(r, self.arena.data), r.id_len, self.arena.data + r.aux_at,
                              r.aux_len, arguments, g.arguments_len[i])
            visible = fd_bytes(&g.visible, &visible_n)
            thought_p = fd_bytes(&g.thought, &thought_n)
            rows.row(NULL if u8_all_space(visible, visible_n) else visible, visible_n, thought_p, thought_n,
                     output_tokens, self.whole_reasoning_tokens(output_tokens), g.malformed)
            return 0
        finally:
            wh_free(&g)
            self.clear()

    cdef inline object marker_dropped(self, int marker, object tokens):
        """The Dropped{Wrapper} of a marker; uncounted, the table's one shared (immutable) event."""
        if tokens is None:
            return self.marker_events[marker]
        return ev_dropped(self.marker_texts[marker], tokens, _DROP_REASONS[DR_WRAPPER])

    cdef int flush(self) except -1:
        """Builds the events of the records before the held ones, but the last of them (which
        may still grow), the runs a relabelling left apart joined first (the engine's build_ahead
        says when)."""
        cdef Py_ssize_t i, keep = self.joined_runs(self.unheld()) - 1
        if keep < 1:
            return 0
        if self.built is None:
            self.built = []
        for i in range(keep):
            self.built.append(self.build(&self.records[i], None, NULL, -1))
        self.retain(keep)
        return 0

    cdef void retain(self, Py_ssize_t keep) noexcept:
        """Forgets records[0:keep] (built): the rest move to the front, their bytes to the
        arena's start."""
        cdef Py_ssize_t i, lo = self.records[keep].text_at if keep < self.count else self.arena.len
        cdef sk_record* r
        if keep == 0 and lo == 0:
            return                  # every record held (a held region's): none moves, each feed
        memmove(self.arena.data, self.arena.data + lo, self.arena.len - lo)
        self.arena.len -= lo
        for i in range(keep, self.count):
            r = &self.records[i]
            r.text_at -= lo
            r.aux_at -= lo
            self.records[i - keep] = r[0]
        self.count -= keep
        self.shift_holds(keep)

    cdef object build(self, sk_record* r, object whole, const unsigned char* wp, Py_ssize_t wn):
        """The event of one record."""
        cdef object tokens = sk_tokens(r.tokens)
        cdef object text, aux
        if r.kind == EV_CONTENT:
            text = self.decode(r.text_at, r.text_len, whole, wp, wn)
            if self.last_content is None or self.last_content.text is not text \
                    or self.last_content_tokens != r.tokens:
                self.last_content = ev_content(text, tokens)
                self.last_content_tokens = r.tokens
            return self.last_content
        if r.kind == EV_REASONING:
            return ev_reasoning(self.decode(r.text_at, r.text_len, whole, wp, wn), tokens)
        if r.kind == EV_REASONING_START:
            return _REASONING_START
        if r.kind == EV_REASONING_END:
            return _REASONING_END
        if r.kind == EV_DROPPED:
            if r.other >= 0:
                return self.marker_dropped(r.other, tokens)
            text = self.decode(r.text_at, r.text_len, whole, wp, wn)
            if self.last_dropped is None or self.last_dropped._text is not text \
                    or self.last_dropped_tokens != r.tokens or self.last_dropped_why != r.why:
                self.last_dropped = ev_dropped(text, tokens, _DROP_REASONS[r.why])
                self.last_dropped_tokens = r.tokens
                self.last_dropped_why = r.why
            return self.last_dropped
        if r.kind == EV_MALFORMED:
            return ev_malformed(self.decode(r.text_at, r.text_len, whole, wp, wn), tokens,
                                rs_malformed(r.why, r.other))
        if r.kind == EV_FINISH:
            return ev_finish(self.finish_reason, self.calls, 0 if self.ledger.uncounted else self.reasoning_tokens)
        text = self.decode(r.text_at, r.text_len, whole, wp, wn)
        if r.kind == EV_CALL_START:
            return ev_call_start(self.index_object(r.index), self.decode(r.aux_at, r.aux_len, None, NULL, -1),
                                 text, tokens, self.written_id(r))
        if r.kind == EV_CALL_ARGUMENTS:
            aux = text if r.aux_len < 0 else self.decode(r.aux_at, r.aux_len, None, NULL, -1)
            return ev_call_arguments(self.index_object(r.index), aux, text, tokens)
        return ev_call_end(self.index_object(r.index), text, tokens)

    cdef inline object written_id(self, sk_record* r):
        """A start record's id as the model wrote it in the call's head, or None (none written)."""
        if r.id_len == 0:
            return None
        return ss_decode(sk_written_id(r, self.arena.data), r.id_len)

    cdef inline str call_id(self, sk_record* r):
        """A start record's call id: the one the model wrote in the call's head, else `call_<index>`."""
        cdef object written = self.written_id(r)
        return sk_call_id(r.index) if written is None else <str>written

    cdef inline object index_object(self, uint32_t index):
        """A call event's index as an int: the one made for the call's previous event (a call's
        events come one after another; indexes past 256 are no cached small ints)."""
        if index != self.last_index:
            self.last_index_object = index
            self.last_index = index
        return self.last_index_object

    cdef inline Py_ssize_t unheld(self) noexcept:
        """The records before the first held one (the engine's hold, or a gap waiting)."""
        if self.held_from >= 0:
            return self.held_from
        return self.count - 1 if self.gap else self.count

    cdef Py_ssize_t joined_runs(self, Py_ssize_t upto) noexcept:
        """Joins the adjacent Malformed records of one reason in records[0:upto] that a relabelling
        left apart (a feed's adjacent Malformed of one reason are one event); returns the new upto,
        the records after it moved up behind it."""
        cdef Py_ssize_t i, w = 0, removed
        if upto < 2:
            return upto
        for i in range(1, upto):
            if self.records[i].kind == EV_MALFORMED and sk_joinable(&self.records[w], &self.records[i]):
                sk_join(&self.records[w], &self.records[i])
            else:
                w += 1
                if w != i:
                    self.records[w] = self.records[i]
        removed = upto - (w + 1)
        if removed:
            memmove(&self.records[w + 1], &self.records[upto], (self.count - upto) * sizeof(sk_record))
            self.count -= removed
            self.shift_holds(removed)
        return w + 1

    cdef list take(self, object whole, const unsigned char* wp, Py_ssize_t wn):
        """Builds this feed's events and clears the records, but the held ones (kept for a later
        feed). `whole` (the delta's str, bytes wp[0:wn]) is handed back as is where an event's text
        is exactly the delta's text."""
        cdef Py_ssize_t i, keep = self.joined_runs(self.unheld())
        cdef list out
        cdef object event
        out = PyList_New(keep)     # filled in place: one allocation
        for i in range(keep):
            event = self.build(&self.records[i], whole, wp, wn)
            Py_INCREF(event)
            PyList_SET_ITEM(out, i, event)
        if self.built is not None:
            self.built.extend(out)
            out = self.built
            self.built = None
        self.clear_feed(keep)
        return out

    cdef object fields(self, FieldRoutes routes, bint thought, object whole, const unsigned char* wp,
                       Py_ssize_t wn, const unsigned char* held, Py_ssize_t held_n, bint* rest):
        """This feed's records folded by `routes` into an engine's delta fields, and cleared:
        (content, reasoning, calls), a field None where nothing goes, calls a list of (index,
        name, arguments, id) per call the records touch, in the order touched (the name and id
        where the call starts, else None; arguments "" when none came), or None when nothing shows.
        `thought`: whether a thought is open before the first record. `whole` (the delta's str,
        bytes wp[0:wn]) is handed back as the content or reasoning that is exactly its text. At a
        FIELD_REST route (or from an earlier feed: `rest` set already) every record's text from
        there on and `held` (the bytes the parser holds, in no record yet) are content, and
        `rest` is set. The records must not be built ahead (a folded feed's are not). Should the
        fold fail (out of memory), the records stay, to be folded with the next feed's, and
        `rest` is left as it was."""
        cdef fd_text content, reasoning
        cdef fd_call first[FD_CALLS]
        cdef fd_call* calls = first
        cdef Py_ssize_t ncalls = 0, i, k, at, n, before = -1, keep = self.unheld()
        cdef sk_record* r
        cdef fd_call* call
        cdef int field
        cdef bint met = rest[0], done = False, first_thought
        cdef list touched = None
        cdef object out = None, shown_content, shown_reasoning
        memset(&content, 0, sizeof(fd_text))
        memset(&reasoning, 0, sizeof(fd_text))
        if self.kept_thought >= 0:
            thought = self.kept_thought
        first_thought = thought
        try:
            i = 0
            while i < keep or (met and i < self.count):      # (past the rest's start, held text is content too)
                r = &self.records[i]
                field = fd_next(routes, self.records, i, self.count if met else keep, &thought, &met)
                if field == FIELD_CONTENT:
                    fd_add(&content, self.arena.data + r.text_at, r.text_len)
                elif field == FIELD_REASONING:
                    fd_add(&reasoning, self.arena.data + r.text_at, r.text_len)
                elif field == FIELD_CALL:
                    call = NULL
                    if r.kind == EV_CALL_START:
                        call = fd_push_call(&calls, &ncalls, first, r.index, i)
                    else:
                        for k in range(ncalls):
                            if calls[k].index == r.index:
                                call = &calls[k]
                                break
                        if call == NULL:
                            if before < 0:
                                before = self.calls_before()
                            if r.index < before:           # it started in an earlier feed
                                call = fd_push_call(&calls, &ncalls, first, r.index, -1)
                        at, n = sk_fragment(r)
                        fd_add(&content if call == NULL else &call.arguments, self.arena.data + at, n)
                i += 1
            if met:
                keep = self.count
                fd_add(&content, held, held_n)
            shown_content = fd_str(&content, whole, wp, wn)
            shown_reasoning = fd_str(&reasoning, whole, wp, wn)
            if ncalls:
                touched = PyList_New(ncalls)
                for k in range(ncalls):
                    call = &calls[k]
                    r = &self.records[call.start] if call.start >= 0 else NULL
                    made = (call.index, None if r == NULL else ss_decode(self.arena.data + r.aux_at, r.aux_len),
                            fd_str(&call.arguments, None, NULL, -1) or "", None if r == NULL else self.call_id(r))
                    Py_INCREF(made)
                    PyList_SET_ITEM(touched, k, made)
            if touched is not None or shown_content is not None or shown_reasoning is not None:
                out = (shown_content, shown_reasoning, touched)
            done = True
        finally:
            for k in range(ncalls):
                bb_free(&calls[k].arguments.joined)
            if calls != first:
                free(calls)
            bb_free(&content.joined)
            bb_free(&reasoning.joined)
            if done:
                rest[0] = met
                if keep < self.count:
                    self.kept_thought = thought     # (where the held records start)
                self.clear_feed(keep)
            else:
                self.kept_thought = first_thought
        return out

    cdef Py_ssize_t calls_before(self) noexcept:
        """The calls started before this feed's records."""
        cdef Py_ssize_t i, n = self.calls
        for i in range(self.count):
            if self.records[i].kind == EV_CALL_START:
                n -= 1
        return n


cdef dict choice_of(tuple summary, object choice):
    """The Chat Completions choice (chat.message's dict) of a Sink.summary row."""
    cdef list calls = None
    if summary[2] is not None:
        calls = [{"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}
                 for id, name, arguments in <list>summary[2]]
    return {"index": choice,
            "message": {"role": "assistant", "content": summary[0], "reasoning_content": summary[1],
                        "tool_calls": calls},
            "finish_reason": summary[3]}
