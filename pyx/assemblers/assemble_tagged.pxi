# The Qwen tagged assembler (SPEC §5.4): one call written
#     <function=NAME>
#     <parameter=KEY>
#     value
#     </parameter>
#     ...
#     </function>
# between a table's call markers (Qwen 3.5+, Qwen3-Coder, MiMo, Step-3.5, Nanbeige, Nemotron-3;
# Seed-OSS with values placed directly between the tags). Names and keys run to the `>` after
# their tag and are not validated; `</function>` ends the call (its bytes are ToolCallEnd's) and
# what follows it goes back to the engine (whose table reads a next function there: the block goes
# on after a call, shapes.functions_in_block). Out-of-place tags, names cut short by a tag, and a
# block that closes early are reported with their reasons.
#
# What models write otherwise is read too, each rule decided by bytes held until it is, so that
# no cut changes it:
# - A region the function tag itself opened (the table's start: Qwen3-Coder and Step-3.5 leave
#   the block out) is a call only once a tag follows that function tag (after whitespace), or a
#   marker closes it; text there, or the end of the stream, makes the region content, every byte
#   (prose that shows a tag). So does a tag inside its name (the tag's `>` never written), which
#   is read again where the region was opened: a function tag there opens the next such call.
# - Markup written inside a value is the value's text when the value's own structure goes on
#   after it; a tag is the call's only when the call's structure holds from it on. Inside a value
#   a parameter tag, a function tag or a table marker that opens a call is held, with all that
#   follows, and its matching close nests with it. A `</parameter>` with no parameter tag held open
#   is the value's close once the call goes on after it as a call does (whitespace, then a
#   parameter tag, `</function>`, a function tag, the block's marker or the end): all that was
#   held is then the value's text (a coding agent's `printf '<tool_call>'`, a file that shows a
#   whole call). Text after it is held too: a later close, or a tag other than `</function>`
#   or a parameter tag, makes the first close the value's text; `</function>`, the block's marker
#   or the end instead confirms it, the text standing between the call's tags. A parameter tag
#   after it (text or not between them) whose
#   key the call already wrote, or a declared function's schema does not name, is held with its
#   value: the call going on after that value's close makes both tags the call's, text makes all
#   of it the outer value's. A declared key not yet written decides at once.
# - A value whose close is missing ends at the first held tag when the call's close (with no
#   opener held open), the block's close or the stream's end comes while a parameter tag is held
#   (or, for a function tag, a function close or a call opener held, at the block's close or the
#   end): what was held is read again as the call's. A close misspelled or cut short right there
#   (`</parameter1>`, `</parameter_function>`, `</parameter`) is then the value's close.
# - A function tag inside a call ends that call and starts the next.
# - A function name cut by `</function>` (or, a declared one, by the block's close) ends there:
#   `<function=get_time</function>` is a call without arguments.
# - A name or key is its text less the ASCII whitespace around it (`<function= get_weather >`,
#   `<parameter=\ncity\n>`), as a keyed call's key is.
# - Step-3.5's broken tags, where the syntax reads them (`broken_tags`, the step3p5 table's): a
#   name or key ends at a newline as well as at `>`; a function tag without its `=` (`<function
#   bash>`, `<functionbash>`) is read when what follows names a tool the request declares (else it
#   is reported); a tag's own name written again after it (`<parameter=parameter=KEY>`) counts
#   once. Without them a name runs to its `>`, and `<function bash>` is no tag.

cdef enum TaggedTag:
    TT_FUNCTION = 0            # <function=
    TT_PARAMETER = 1           # <parameter=
    TT_PARAMETER_CLOSE = 2     # </parameter>
    TT_FUNCTION_CLOSE = 3      # </function>
    TT_CLOSE_MISSPELLED = 4    # </parameter  a value's close spelled otherwise or cut short
    TT_FUNCTION_UNEQUAL = 5    # <function   a function tag without its `=` (broken tags only)

TAGGED_TAGS = ("<function=", "<parameter=", "</parameter>", "</function>")     # the syntax's own
TAGGED_READ_TAGS = TAGGED_TAGS + ("</parameter",)                               # and a close misspelled
TAGGED_BROKEN_TAGS = TAGGED_READ_TAGS + ("<function",)                          # and Step-3.5's broken tag

cdef enum:
    TG_CLOSE_STEM = 11         # len("</parameter")

cdef enum TaggedStage:
    TG_OPENING = 0             # before the function tag
    TG_FUNCTION_NAME = 1       # after `<function=`, up to `>`
    TG_BETWEEN = 2             # between parameters
    TG_PARAMETER_NAME = 3      # after `<parameter=`, up to `>`
    TG_VALUE = 4               # a parameter's value, up to `</parameter>`
    TG_NAMED = 5               # a region its function tag opened: the tag read, no tag after it yet
    TG_AFTER_CALL = 6          # held bytes read again after a call's `</function>`


cdef struct tg_held:           # a tag or a table marker held inside a value
    Py_ssize_t at              # where it begins in `carried`
    Py_ssize_t len
    int tag                    # a TaggedTag, or TG_OPENER / TG_CLOSER: the table's marker number `marker`
    int marker


cdef enum:
    TG_OPENER = -1             # a table marker that opens the next call (`<tool_call>`)
    TG_CLOSER = -2             # a table marker that closes the block (`</tool_call>`)


cdef enum TaggedNest:          # an opener held inside a value, until its close
    NEST_PARAMETER = 1
    NEST_FUNCTION = 2
    NEST_BLOCK = 3


cdef enum TaggedPending:       # a value's close that what follows it has still to confirm
    PD_NONE = 0
    PD_CLOSE = 1               # a `</parameter>` with no parameter tag held open (and whitespace)
    PD_KEY = 2                 # then `<parameter=`: its key being read
    PD_INNER = 3               # then that key's value (a key written already or not declared)
    PD_INNER_CLOSE = 4         # and its `</parameter>` (and whitespace)
    PD_CLOSE_TEXT = 5          # a candidate close, then text (and what follows it, held)


cdef inline Py_ssize_t tg_misspelled_close_len(const unsigned char* p, Py_ssize_t n) noexcept:
    """How long the misspelled close at p[0:n] is: `</parameter`, then up to and with its `>`,
    which whitespace may come before (a `<`, or whitespace then another byte, ends it before
    them)."""
    cdef Py_ssize_t k = TG_CLOSE_STEM, tail
    while k < n and p[k] != GREATER and p[k] != LESS and not u8_ascii_space(p[k]):
        k += 1
    tail = k
    while k < n and u8_ascii_space(p[k]):
        k += 1
    if k < n and p[k] == GREATER:
        return k + 1
    return tail


cdef inline Py_ssize_t tg_name_at(const unsigned char* p, Py_ssize_t n, const char* tag_name,
                                   Py_ssize_t t, bint repeats) noexcept:
    """Where the name in p[0:n] begins: after the whitespace before it and, with `repeats` (Step-3.5's
    broken tags), the tag's own name and `=` written again (`tag_name`, t bytes), however often."""
    cdef Py_ssize_t at = 0
    while True:
        while at < n and u8_ascii_space(p[at]):
            at += 1
        if not repeats or n - at <= t or memcmp(p + at, tag_name, t) != 0:
            return at
        at += t


cdef inline Py_ssize_t tg_name_span(const unsigned char* p, Py_ssize_t n, const char* tag_name, Py_ssize_t t,
                                     bint repeats, Py_ssize_t* at) noexcept:
    """The name in p[0:n] as written: p[at:at + length], length returned (tg_name_at, and before
    the whitespace after it)."""
    at[0] = tg_name_at(p, n, tag_name, t, repeats)
    return u8_ascii_space_end(p + at[0], n - at[0])


cdef inline void tg_trim_name(ByteBuf* name, const char* tag_name, Py_ssize_t t, bint repeats) noexcept:
    """The name in place, as tg_name_span reads it: without the whitespace around it (and, with
    `repeats`, the tag's own name written again)."""
    cdef Py_ssize_t at
    cdef Py_ssize_t n = tg_name_span(name.data, name.len, tag_name, t, repeats, &at)
    if at:
        memmove(name.data, name.data + at, n)
    name.len = n


@cython.final
@cython.no_gc
cdef class TaggedCall(TagCall):
    """Assembles the `<function=NAME>` calls of parameter tags of one region."""
    cdef int stage
    cdef Py_ssize_t tag_at       # where in carried the tag being read began
    cdef Py_ssize_t named_at     # TG_NAMED: where the function tag ended in carried
    cdef Py_ssize_t held_at      # where in carried the first tag held inside the value begins, or -1
    cdef ByteBuf held_tags       # the tags and markers held inside the value (tg_held records)
    cdef ByteBuf nest            # the openers held open inside the value (TaggedNest), innermost last
    cdef bint nested_parameter   # a parameter tag was held inside the value
    cdef int pending             # TaggedPending
    cdef Py_ssize_t close_at     # pending: where the candidate close begins in carried
    cdef Py_ssize_t inner_base   # PD_INNER: the nest's depth outside the inner key's value
    cdef ByteBuf inner_key       # PD_KEY: the key being read after a candidate close
    cdef bint unequal            # the function tag being read has no `=`
    cdef bint broken_tags        # Step-3.5's broken tags are read (the syntax's option)
    cdef bint bare               # the region was opened by its function tag, and no call started yet
    cdef bint rereading

    def __cinit__(self):
        self.stage = TG_OPENING
        self.held_at = -1

    def __dealloc__(self):
        bb_free(&self.held_tags)
        bb_free(&self.nest)
        bb_free(&self.inner_key)

    cdef inline int stage_after_tag(self) noexcept:
        return TG_BETWEEN if self.started() else TG_OPENING

    cdef int open_with(self, const unsigned char* p, Py_ssize_t n, Sink sink, bint region) except -1:
        self.bare = region
        self.feed(p, n, sink)
        return 0

    cdef int on_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef Py_ssize_t k
        cdef bint bare
        while n > 0:
            if self.stage == TG_VALUE:
                if self.pending == PD_NONE or self.pending == PD_INNER:
                    if self.held_at >= 0:
                        return self.carry(p, n)
                    return self.value_text(p, n)
                if self.pending == PD_KEY:
                    k = self.read_name(p, n, &self.inner_key)
                    if k == n:
                        return 0
                    self.inner_key_read()
                    p += k + 1
                    n -= k + 1
                    continue
                if self.pending == PD_CLOSE_TEXT:
                    return self.carry(p, n)
                # after a candidate close: whitespace waits; text after a close of the value waits
                # for a later close (then the close was the value's text) or the call's end (then
                # the text stood between the call's tags); after an inner key's, it was the value's
                k = 0
                while k < n and u8_space_len(p + k, n - k):
                    k += u8_space_len(p + k, n - k)
                self.carry(p, k)
                if k == n:
                    return 0
                if self.pending == PD_CLOSE:
                    self.pending = PD_CLOSE_TEXT
                    return self.carry(p + k, n - k)
                self.close_was_text()
                p += k
                n -= k
                continue
            if self.stage == TG_OPENING or self.stage == TG_BETWEEN:
                return self.text_runs(p, n, OT_TEXT_BETWEEN_TAGS)
            if self.stage == TG_AFTER_CALL:
                return self.text_runs(p, n, OT_TEXT_AFTER_OBJECT)
            if self.stage == TG_NAMED:
                k = 0
                while k < n and u8_space_len(p + k, n - k):
                    k += u8_space_len(p + k, n - k)
                self.carry(p, k)
                if k < n:
                    # text after the function tag: the region held no call, and the text is
                    # read where the region was opened
                    self.not_a_call()
                    self.left = n - k
                return 0
            # a name or a key, up to its `>` (or the end of its line)
            k = self.read_name(p, n, &self.name if self.stage == TG_FUNCTION_NAME else &self.key)
            if k == n:
                return 0
            if self.stage == TG_FUNCTION_NAME:
                bare = self.bare
                self.function_tag_done()
                if bare and self.done:
                    # the region turned out to hold no call: the rest is read where it was opened
                    # (only a bare region's tag can say so: a block's close that reads held bytes
                    # again has made the call done already, and the rest is still the call's)
                    self.left = n - k - 1
                    return 0
            else:
                self.parameter_tag_done()
            p += k + 1
            n -= k + 1
        return 0

    cdef Py_ssize_t read_name(self, const unsigned char* p, Py_ssize_t n, ByteBuf* into) except -1:
        """A name or key up to the `>` that ends it, or, reading broken tags, the newline that
        does where the name so far is one the request declares (whitespace around it aside):
        the bytes before it go to `into` and with the end to what is carried. Returns where
        the end is in p[0:n], or n when it is not there yet."""
        cdef Py_ssize_t k = 0, start = 0
        cdef unsigned char other_end = LF if self.broken_tags else GREATER     # what ends a name besides `>`
        while True:
            while k < n and p[k] != GREATER and p[k] != other_end:
                k += 1
            bb_append(into, p + start, k - start)
            if k == n or p[k] == GREATER:
                break
            if self.is_declared(into.data, into.len):
                break
            bb_push(into, LF)        # a name the tools do not know: the newline is the name's
            k += 1
            start = k
        self.carry(p, k + 1 if k < n else n)
        return k

    cdef bint is_declared(self, const unsigned char* name, Py_ssize_t n) except -1:
        """Whether the function name (or key) being read, name[0:n] as written, is a tool the
        request declares (or a parameter the call's declared function has)."""
        cdef Py_ssize_t at
        if self.stage == TG_FUNCTION_NAME:
            n = tg_name_span(name, n, b"function=", 9, self.broken_tags, &at)
            return self.declared is not None and n > 0 and (<Declared>self.declared).find(name + at, n) >= 0
        n = tg_name_span(name, n, b"parameter=", 10, self.broken_tags, &at)
        return self.function is not None and n > 0 and self.function.declares(name + at, n)

    cdef int trim_name(self, ByteBuf* name, const char* tag_name, Py_ssize_t t) except -1:
        """The name without the whitespace around it and, reading broken tags, the tag's own name
        written again."""
        tg_trim_name(name, tag_name, t, self.broken_tags)
        return 0

    cdef int on_tag(self, int tag, const unsigned char* p, Py_ssize_t n) except -1:
        if self.stage == TG_VALUE:
            return self.tag_in_value(tag, p, n)
        if tag == TT_FUNCTION_CLOSE and self.name_cut_by_close(True):
            self.function_tag_done()
        if self.stage == TG_NAMED:
            self.start_named()
        if self.stage == TG_FUNCTION_NAME or self.stage == TG_PARAMETER_NAME:
            # a tag inside a name: what was read is reported, the tag read again (a region its
            # function tag opened held no call: the tag is read where the region was opened, so
            # a function tag there opens the next call)
            if self.bare:
                self.not_a_call()
                self.left = n
                return 0
            self.report_from(self.tag_at, OT_TAG_CUT_SHORT)
            self.stage = self.stage_after_tag()
        if tag == TT_FUNCTION or tag == TT_FUNCTION_UNEQUAL:
            return self.begin_tag(p, n, TG_FUNCTION_NAME, tag == TT_FUNCTION_UNEQUAL)
        if self.stage == TG_AFTER_CALL:
            return self.tag_out_of_place(p, n)
        if tag == TT_FUNCTION_CLOSE:
            if not self.started():
                self.carry(p, n)
                self.report_carried(MW_OTHER, OT_CALL_WITHOUT_FUNCTION_TAG)
            else:
                self.close_object()
                self.end_call(p, n)
                self.forget_call()
            return self.call_over()
        if tag == TT_PARAMETER and self.stage == TG_BETWEEN:
            return self.begin_tag(p, n, TG_PARAMETER_NAME, False)
        return self.tag_out_of_place(p, n)

    cdef bint name_cut_by_close(self, bint own) except -1:
        """Whether a close arriving now ends a function name that its `>` never ended
        (`<function=get_time</function>`): in a block, with a name read on the tag's own line
        (one that ran past a newline, a name the tools do not declare, stays a tag cut short, as
        vLLM filters `<function=bad_func_no_gt\n</function>`). `own`: the close is `</function>`;
        the block's close ends only a name the request declares (any other is a function tag the
        block closed early, as before)."""
        if self.stage != TG_FUNCTION_NAME or self.bare or self.tags.held.len or self.name.len == 0:
            return False
        if memchr(self.name.data, LF, self.name.len) != NULL:
            return False
        return own or self.is_declared(self.name.data, self.name.len)

    cdef int call_over(self) except -1:
        """The call's own end was read: the region is over, unless held bytes after it are being
        read again (they are the region's already)."""
        if self.rereading:
            self.stage = TG_AFTER_CALL
        else:
            self.done = True
        return 0

    cdef int begin_tag(self, const unsigned char* p, Py_ssize_t n, int stage, bint unequal) except -1:
        self.tag_at = self.carried.text.len
        self.carry(p, n)
        if stage == TG_FUNCTION_NAME:
            self.name.len = 0
            self.unequal = unequal
        else:
            self.key.len = 0
        self.stage = stage
        return 0

    cdef int function_tag_done(self) except -1:
        if self.unequal and not self.is_declared(self.name.data, self.name.len):
            # `<function NAME>`: a call only where NAME is a declared tool
            self.report_from(self.tag_at, OT_TAG_OUT_OF_PLACE)
            self.stage = self.stage_after_tag()
            return 0
        self.trim_name(&self.name, b"function=", 9)
        if self.name.len == 0:
            if self.bare:
                return self.not_a_call()
            self.report_from(self.tag_at, OT_TAG_WITHOUT_NAME)
        elif self.started():
            # the next call's function tag: the open call ends where that tag begins
            self.end_before(self.tag_at)
            self.start_call(self.carried.text.len)
        elif self.bare:
            self.named_at = self.carried.text.len
            self.stage = TG_NAMED
            return 0
        else:
            self.start_call(self.carried.text.len)
        self.stage = self.stage_after_tag()
        return 0

    cdef int parameter_tag_done(self) except -1:
        self.trim_name(&self.key, b"parameter=", 10)
        if self.key.len == 0:
            self.report_from(self.tag_at, OT_TAG_WITHOUT_NAME)
            self.stage = TG_BETWEEN
            return 0
        self.stage = TG_VALUE
        self.clear_held()
        return self.open_value()

    cdef int start_named(self) except -1:
        """A region its function tag opened is a call: it starts, its source that tag."""
        self.bare = False
        self.start_call(self.named_at)
        self.stage = TG_BETWEEN
        return 0

    cdef int not_a_call(self) except -1:
        """A region its function tag opened holds no call: what it read is content, and the rest
        of the region is the engine's."""
        self.bare = False
        self.carried_as_content()
        self.done = True
        return 0

    cdef int end_before(self, Py_ssize_t at) except -1:
        """The open call ends where the next call's tag begins (carried[at:]): `}`, its source what
        is carried before that, and a ToolCallEnd of no bytes."""
        self.close_object_upto(at)
        self.end_call(NULL, 0)
        return self.forget_call()

    # -- a value and the tags written inside it (the rules at the top) ---------------------------
    # While anything is held, every tag and marker is recorded (tg_held) with its offset in
    # `carried`, so that what was held can be read again, as the value's text or as the call's.
    # `nest` keeps the openers held open; `pending` a candidate close and what follows it.

    cdef int clear_held(self) except -1:
        self.held_at = -1
        self.held_tags.len = 0
        self.nest.len = 0
        self.nested_parameter = False
        self.pending = PD_NONE
        return 0

    cdef bint unnest(self, int kind, Py_ssize_t base) noexcept:
        """A close of `kind`: the innermost opener of its kind held open (above depth `base`) and
        every opener inside it are closed; False when none is open."""
        cdef Py_ssize_t i = self.nest.len
        while i > base:
            i -= 1
            if self.nest.data[i] == kind:
                self.nest.len = i
                return True
        return False

    cdef int tag_in_value(self, int tag, const unsigned char* p, Py_ssize_t n) except -1:
        # the openers inside the inner key's value (past its own tag), or inside the value
        cdef Py_ssize_t base = self.inner_base + 1 if self.pending == PD_INNER else 0
        if self.pending == PD_CLOSE_TEXT:
            if tag == TT_FUNCTION_CLOSE and self.nest.len == 0:
                # the call ends with no close after the text: the candidate close was the value's
                self.confirm_close()
                return self.on_tag(tag, p, n)
            if tag != TT_PARAMETER:
                self.close_was_text()
                return self.tag_in_value(tag, p, n)
        if self.pending == PD_CLOSE or self.pending == PD_INNER_CLOSE or self.pending == PD_CLOSE_TEXT:
            if tag == TT_PARAMETER and self.pending != PD_INNER_CLOSE:
                # its key decides
                self.inner_key.len = 0
                self.pending = PD_KEY
                return self.hold(tag, 0, p, n)
            if tag == TT_PARAMETER_CLOSE or tag == TT_CLOSE_MISSPELLED:
                # a close again: the one before it was the value's text
                self.close_was_text()
                return self.tag_in_value(tag, p, n)
            self.confirm_close()
            return self.on_tag(tag, p, n)
        if self.pending == PD_KEY:
            # a tag inside the key: that was no parameter tag, and the close before it was text
            self.close_was_text()
            return self.tag_in_value(tag, p, n)
        if tag == TT_PARAMETER_CLOSE:
            if self.unnest(NEST_PARAMETER, self.nest_base()):
                self.hold(tag, 0, p, n)
                if self.pending == PD_INNER and self.nest.len == self.inner_base:
                    self.pending = PD_INNER_CLOSE
                return 0
            self.hold(tag, 0, p, n)
            self.close_at = self.carried.text.len - n
            self.pending = PD_CLOSE
            return 0
        if tag == TT_PARAMETER:
            bb_push(&self.nest, NEST_PARAMETER)
            if self.pending == PD_NONE:
                self.nested_parameter = True
            return self.hold(tag, 0, p, n)
        if tag == TT_FUNCTION or tag == TT_FUNCTION_UNEQUAL:
            bb_push(&self.nest, NEST_FUNCTION)
            return self.hold(tag, 0, p, n)
        if tag == TT_FUNCTION_CLOSE and not self.unnest(NEST_FUNCTION, base) and self.nest.len == base:
            if self.pending == PD_INNER:
                # the call ends inside the inner key's value: that key's tag was the call's
                self.confirm_close()
                return self.on_tag(tag, p, n)
            if self.nested_parameter:
                self.value_ends()
                return self.on_tag(tag, p, n)
        return self.hold(tag, 0, p, n)

    cdef int hold(self, int tag, int marker, const unsigned char* p, Py_ssize_t n) except -1:
        """A tag (or a table marker) inside the value, p[0:n]: held, with all that follows, until
        what follows says what it is."""
        cdef tg_held h
        if self.held_at < 0:
            self.held_at = self.carried.text.len
            self.held_tags.len = 0
        h.at = self.carried.text.len
        h.len = n
        h.tag = tag
        h.marker = marker
        bb_append(&self.held_tags, <const unsigned char*>&h, sizeof(tg_held))
        return self.carry(p, n)

    cdef int hold_marker(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if self.done or self.stage != TG_VALUE:
            return 0
        self.flush_scanner(sink)
        return self.marker_in_value(terminal, p, n)

    cdef int hold_close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if self.done or self.stage != TG_VALUE or (self.pending != PD_NONE and self.pending != PD_INNER) \
                or self.nest.len == 0 or memchr(self.nest.data + self.nest_base(), NEST_BLOCK,
                                                self.nest.len - self.nest_base()) == NULL:
            return 0            # the block's close: it cuts short what the scanner holds
        self.flush_scanner(sink)
        return self.closer_in_value(terminal, p, n)

    cdef inline Py_ssize_t nest_base(self) noexcept:
        """Where the openers held inside the open value (or the inner key's) begin in `nest`."""
        return self.inner_base if self.pending == PD_INNER else 0

    cdef int marker_in_value(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        """A call opener in a value: held as an opener (1), unless it follows a candidate close,
        which it confirms (0: the open call ends before it)."""
        while self.stage == TG_VALUE and self.pending != PD_NONE and self.pending != PD_INNER:
            self.confirm_close()
        if self.stage != TG_VALUE:
            return 0
        bb_push(&self.nest, NEST_BLOCK)
        self.hold(TG_OPENER, terminal, p, n)
        return 1

    cdef int closer_in_value(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        """The block's close in a value: held (1) when it closes a call opener held there, else
        it is the block's (0)."""
        if self.stage != TG_VALUE or (self.pending != PD_NONE and self.pending != PD_INNER) \
                or not self.unnest(NEST_BLOCK, self.nest_base()):
            return 0
        self.hold(TG_CLOSER, terminal, p, n)
        return 1

    cdef int inner_key_read(self) except -1:
        """The key of a parameter tag after a candidate close: one the schema declares and the
        call has not written confirms the close; another is held with its value."""
        cdef Py_ssize_t at
        cdef Py_ssize_t n = tg_name_span(self.inner_key.data, self.inner_key.len, b"parameter=", 10,
                                         self.broken_tags, &at)
        cdef const unsigned char* key = self.inner_key.data + at
        if self.new_key(key, n):
            return self.confirm_close()
        self.inner_base = self.nest.len
        bb_push(&self.nest, NEST_PARAMETER)
        self.pending = PD_INNER
        return 0

    cdef int close_was_text(self) except -1:
        """The candidate close was the value's text: the value goes on, and when nothing was held
        before the close, all that was held is the value's text."""
        self.pending = PD_NONE
        if self.held_at == self.close_at:
            self.held_as_value()
        return 0

    cdef int held_as_value(self) except -1:
        """What was held is the value's text."""
        cdef Py_ssize_t at = self.held_at
        self.clear_held()
        return self.reread_as_value(at)

    cdef int confirm_close(self) except -1:
        """The candidate close is the value's: what was held before it is the value's text, it
        ends the value, and what followed it is read again as the call's."""
        cdef Held tail
        cdef ByteBuf items
        cdef tg_held* held = <tg_held*>self.held_tags.data
        cdef Py_ssize_t count = self.held_tags.len // sizeof(tg_held), i = 0, close, close_len
        hb_init(&tail)
        memset(&items, 0, sizeof(ByteBuf))
        try:
            while held[i].at < self.close_at:
                i += 1
            close = self.close_at - self.held_at
            close_len = held[i].len
            self.rebased(&items, i + 1, self.held_at)
            hb_split(&self.carried, self.held_at, &tail)
            self.clear_held()
            self.read_from(&tail, 0, close, True)
            self.close_value(tail.text.data + close, close_len)
            self.stage = TG_BETWEEN
            self.replay(&tail, &items, close + close_len)
        finally:
            hb_free(&tail)
            bb_free(&items)
        return 0

    cdef int rebased(self, ByteBuf* into, Py_ssize_t first, Py_ssize_t shift) except -1:
        """The held records from number `first` on, their offsets less `shift`, into `into`."""
        cdef tg_held* held = <tg_held*>self.held_tags.data
        cdef Py_ssize_t count = self.held_tags.len // sizeof(tg_held), i
        cdef tg_held h
        for i in range(first, count):
            h = held[i]
            h.at -= shift
            bb_append(into, <const unsigned char*>&h, sizeof(tg_held))
        return 0

    cdef int value_ends(self) except -1:
        """The value ends without its close tag: where the first held tag begins (a close there,
        misspelled or not, is its close), or here when nothing is held; what was held is then read
        again as the call's tags and text."""
        cdef Held tail
        cdef ByteBuf items
        cdef tg_held* first
        cdef Py_ssize_t upto
        if self.held_at < 0:
            self.close_value_upto(self.carried.text.len)
            self.stage = TG_BETWEEN
            return 0
        first = <tg_held*>self.held_tags.data
        upto = self.held_at
        if first.tag == TT_CLOSE_MISSPELLED:
            upto += tg_misspelled_close_len(self.carried.text.data + upto, self.carried.text.len - upto)
        elif first.tag == TT_PARAMETER_CLOSE:
            upto += first.len
        hb_init(&tail)
        memset(&items, 0, sizeof(ByteBuf))
        try:
            self.rebased(&items, 0, upto)
            self.clear_held()
            self.close_value_upto(upto)          # carried now starts at `upto`
            self.stage = TG_BETWEEN
            hb_split(&self.carried, 0, &tail)
            self.replay(&tail, &items, 0)
        finally:
            hb_free(&tail)
            bb_free(&items)
        return 0

    cdef int replay(self, Held* h, ByteBuf* items, Py_ssize_t pos) except -1:
        """h's text from `pos` on read again as the call's tags and text, its tags and markers
        those of `items` (tg_held records, offsets into h)."""
        cdef tg_held* held = <tg_held*>items.data
        cdef Py_ssize_t count = items.len // sizeof(tg_held), i, at
        cdef bint rereading = self.rereading
        self.rereading = True
        for i in range(count):
            at = held[i].at
            if at < pos:
                continue                     # a close read as the value's
            self.read_from(h, pos, at, False)
            if held[i].tag >= 0:
                self.on_tag(held[i].tag, h.text.data + at, held[i].len)
            elif held[i].tag == TG_OPENER:
                if not self.marker_in_value(held[i].marker, h.text.data + at, held[i].len):
                    self.marker_between(held[i].marker, h.text.data + at, held[i].len)
            elif not self.closer_in_value(held[i].marker, h.text.data + at, held[i].len):
                self.closer_between(held[i].marker, h.text.data + at, held[i].len)
            pos = at + held[i].len
        self.read_from(h, pos, h.text.len, False)
        self.rereading = rereading
        return 0

    cdef int marker_between(self, int marker, const unsigned char* p, Py_ssize_t n) except -1:
        """A table marker that opens the next call, held inside a value that turned out to end
        before it: it ends the open call and is dropped, and the next call may follow."""
        if self.stage == TG_FUNCTION_NAME or self.stage == TG_PARAMETER_NAME:
            self.report_from(self.tag_at, OT_TAG_CUT_SHORT)
        if self.started():
            self.end_before(self.carried.text.len)
        else:
            self.drop_carried()
        self.sink.dropped_marker(marker, p, n)
        self.stage = TG_OPENING
        return 0

    cdef int closer_between(self, int marker, const unsigned char* p, Py_ssize_t n) except -1:
        """The block's close, held inside a value that turned out to end before it: it closes the
        block as it would have, and is dropped; what follows is text after the call."""
        self.close_block(marker, NULL, 0)
        if self.started():
            self.forget_call()
        self.sink.dropped_marker(marker, p, n)
        self.stage = TG_AFTER_CALL
        return 0

    # -- the region's end -----------------------------------------------------------------------

    cdef int value_cut_off(self) except -1:
        """The region ends inside a value: a candidate close is the value's close, and held tags
        are what they are. A close cut short at its stem (`</parameter`, which the scanner holds
        as the start of `</parameter>`) is held like any misspelled close."""
        while self.stage == TG_VALUE:
            if self.pending != PD_NONE:
                self.confirm_close()
                continue
            if self.tags.held.len == TG_CLOSE_STEM and memcmp(self.tags.held.data, b"</parameter", TG_CLOSE_STEM) == 0:
                self.hold(TT_CLOSE_MISSPELLED, 0, self.tags.held.data, self.tags.held.len)
                self.tags.held.len = 0
            if self.held_at < 0:
                break
            self.take_scanner_held()
            self.value_ends()
        return 0

    cdef int close_block(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        # the block's marker is never the call's: it is dropped whatever happens here
        self.value_cut_off()
        if self.name_cut_by_close(False):
            self.function_tag_done()
        if self.stage == TG_NAMED:
            self.start_named()
        elif self.bare:
            self.take_scanner_held()
            return self.not_a_call()
        if self.stage == TG_AFTER_CALL:
            return self.after_call_ends()
        if not self.started():
            self.take_scanner_held()
            self.report_carried(MW_OTHER, OT_CALL_WITHOUT_FUNCTION_TAG if self.stage == TG_OPENING
                                else OT_CLOSED_BEFORE_FUNCTION_TAG)
            return 0
        if terminal >= 0 and self.stage == TG_VALUE and self.value_cut_by_close():
            self.stage = TG_BETWEEN     # (the block's close ended the value, nothing held in it)
        self.close_started(self.stage == TG_BETWEEN, OT_CLOSED_BEFORE_FUNCTION_TAG, NULL, 0)
        return 0

    cdef int finish(self, Sink sink, bint complete) except -1:
        self.sink = sink
        if self.done:
            return 0
        self.value_cut_off()
        if self.bare:
            self.take_scanner_held()
            return self.not_a_call()
        if self.stage == TG_AFTER_CALL:
            self.done = True
            return self.after_call_ends()
        return TagCall.finish(self, sink, complete)

    cdef int after_call_ends(self) except -1:
        """The region ends after a call read again: the whitespace carried is the template's, a
        tag the scanner holds the start of is text after the call."""
        self.drop_carried()
        if self.tags.held.len:
            self.sink.malformed(MW_OTHER, OT_TEXT_AFTER_OBJECT, self.tags.held.data, self.tags.held.len)
            self.tags.held.len = 0
        return 0


@cython.final
@cython.no_gc
cdef class TaggedSyntax(Syntax):
    """`<function=NAME>` calls of `<parameter=KEY>` tags; values on their own line (own_line)
    or placed directly between the tags; Step-3.5's broken tags read too (broken_tags)."""
    cdef MarkerSet tags
    cdef readonly bint own_line
    cdef readonly bint broken_tags

    def __init__(self, bint own_line=True, ends=(), starts=(), openers=(), bint broken_tags=False):
        Syntax.__init__(self, ends, starts, openers)
        self.tags = MarkerSet(TAGGED_BROKEN_TAGS if broken_tags else TAGGED_READ_TAGS)
        self.own_line = own_line
        self.broken_tags = broken_tags
        self.reads_types = True

    cdef Assembler open(self, object declared):
        cdef TaggedCall call = TaggedCall.__new__(TaggedCall)
        call.own_line = self.own_line
        call.broken_tags = self.broken_tags
        return tc_opened(call, self.tags, declared)
