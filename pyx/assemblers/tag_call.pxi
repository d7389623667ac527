# What the assemblers of tag-written calls share (SPEC §5.3): the model writes a name and
# key/value tags, no arguments object, so the assembler writes one, typing each value by the
# request's declared tools (values/typing.pxi).
#
# Accounting: `carried` holds the bytes no event has accounted for; the next event takes them as
# its source. Whitespace between tags is carried; other text between tags flushes what is carried
# as Dropped{Wrapper} and is Malformed("text between a call's tags") itself, run by run, so no cut
# changes the result. The arguments object is written as fragments: `{"key": ` (later members
# `, "key": `), escaped like serde_json; a declared string streams (its opening fragment when the
# value opens, each piece as it comes, `"` at its close tag), a nullable string is held while it
# could still be `null`/`None`, every other value is written whole at its close tag through
# vt_json. Two endings: `close` (a marker of the table ended the block: an open string gets its
# `"`, the object its `}`) and `finish` (the stream was cut: what is held is
# Malformed{UnterminatedRegion}; a started call closes as a marker would close it, so its
# arguments load, unless the engine stopped the stream for its length, which closes nothing); a
# call that started always ends.
#
# A model sometimes writes its arguments object as one parameter (`<parameter=arguments>{"city":
# "Paris"}</parameter>`). A call's first parameter named as an arguments object is (`tc_wrapper_name`),
# where the call's declared tool lists its parameters and not that one, is held whole; at its close
# tag, if its value reads as an object (JSON, or a Python dict as a declared object's value does),
# that object is the call's arguments and its members the call's first members; else it is the
# member it would have been.
#
# A value whose close tag is missing may run into the next parameter's tag (`<arg_value>Paris
# <arg_key>days</arg_key>`, `<parameter name="city">Paris<parameter name="days">`). Such a tag
# is held from its first byte while its key is read (hold_parameter_tag, held_key_text); a key
# that makes it the call's next parameter (new_key: one the call has not written and, where the
# tools declare the function, one its schema names) ends the value where the tag begins
# (held_tag_opens_parameter), else all that was held is the value's text (release_held_tag).
# The value stays open while the tag is held: tag_held_at says so. A key longer than TC_HELD_KEY_MAX or
# holding an angle bracket is no key; nor is one a tag or a marker cuts off.
# A value's close misspelled or cut short (`Paris</parameter1>`, `</parameter_invoke>`,
# `</parameter`: the close tag's stem, which a syntax may find as a tag of its own) is held inside
# the value (hold_close_stem) with its tail up to its `>` (whitespace may stand before it; a cut
# one ends at whitespace) and the whitespace after it. Right before a parameter tag that ends the
# value (its key new, or a newline before it where the syntax reads one so) or a marker that
# closes the call, it was the value's close: its bytes are the closing fragment's source.
# Anything else after it (text, another tag, the stream's end) makes it the value's text
# (release_held_close).
#
# A table's marker that would open the next call, written inside a value whose close tag may
# still come (`<arg_value>printf '<tool_call>'</arg_value>`, `<parameter name="code">s =
# '<invoke name="f">'</parameter>`), is held there with all that follows it (hold_opener), the
# syntax's tags read as text: the value's close tag, no parameter's open tag having come after
# the marker, makes all of it the value's text (release_held_opener); any terminal of the table
# (another marker, a separator) or the stream's end makes the marker the next call's, the value
# ended where it begins (its close tag missing), and the engine reads the marker and what
# followed it again (give_back_opener). So does a value's close after a parameter's open tag: it
# was the value of a call the marker opened. A parameter tag held in the value when the marker
# comes, its key cut off, is the value's text.
#
# Where the syntax's template writes a newline between a value's close tag and the next tag (the
# keyed syntax: GLM's `</arg_value>\n<arg_key>`, `</arg_value>\n    </tool_call>`), a streamed
# string's trailing whitespace waits (`hold_space`): its close tag makes it the value's text; a
# value whose close tag is missing, ended by the next parameter's tag or a marker that closes the
# call, ends before the whitespace's first newline (from there on it was the template's, the
# closing `"`'s source); the stream's end writes it as the value's.
#
# The syntax's own tags are found by a scanner of their own; inside a value only the value's
# close tag is a tag (the others are value text). With the shipped tag sets no tag holds another
# tag's opening `<` past its first byte, so finding them all never cuts a close tag short.

cdef enum:
    TC_HELD_KEY_MAX = 128    # the longest key a parameter tag held inside a value may have
    TC_CLOSE_TAIL_MAX = 32   # the most bytes a misspelled close may have between its stem and `>`
    TC_TAIL_ENDED = -1       # close_tail: the tail ended, its `>` may still come after whitespace
    TC_CLOSE_ENDED = -2      # close_tail: its `>` came


cdef enum ValueMode:
    VM_NONE = 0          # no value open
    VM_STREAM = 1        # a declared string: its opening fragment is out, its pieces stream
    VM_UNDECIDED = 2     # a nullable string that could still be null/None: held
    VM_WHOLE = 3         # any other value: held, written whole at its close tag


cdef inline bint tc_could_be_null(const unsigned char* p, Py_ssize_t n) noexcept:
    """Whether p[0:n] is a prefix of `null` or `None` (NULL_WORDS)."""
    return n <= 4 and (memcmp(p, b"null", n) == 0 or memcmp(p, b"None", n) == 0)


cdef inline bint tc_wrapper_name(const unsigned char* p, Py_ssize_t n) noexcept:
    """Whether p[0:n] names a call's arguments object: `arguments`, `input`, `parameters` or
    `properties`."""
    if n == 5:
        return memcmp(p, b"input", 5) == 0
    if n == 9:
        return memcmp(p, b"arguments", 9) == 0
    if n == 10:
        return memcmp(p, b"parameters", 10) == 0 or memcmp(p, b"properties", 10) == 0
    return False


cdef inline bint tc_empty_object(const unsigned char* p, Py_ssize_t n) noexcept:
    """Whether the JSON object p[0:n] has no member (only whitespace between its braces)."""
    cdef Py_ssize_t i
    for i in range(1, n - 1):
        if not jp_strict_space(p[i]):
            return False
    return True


cdef tuple tc_close_stems(tuple closes):
    """The stems of a syntax's value close tags `closes`, each less its `>` and once (those without
    one have none): the tags a close misspelled or cut short begins with (see the top)."""
    cdef list stems = []
    for close in closes:
        if close.endswith(">") and close[:-1] not in stems:
            stems.append(close[:-1])
    return tuple(stems)


cdef inline TagCall tc_opened(TagCall call, MarkerSet tags, object declared):
    """`call` (made with __new__, the constructor's fast path) set to read `tags`, typing by
    `declared`."""
    call.tags = Scanner.of(tags)
    call.declared = declared
    return call


cdef inline bint tc_holds_close_tag(const unsigned char* p, Py_ssize_t n) noexcept:
    """Whether p[0:n] holds `</`, a close tag's start."""
    cdef const unsigned char* end = p + n
    cdef const unsigned char* q = p
    while q < end:
        q = <const unsigned char*>memchr(q, LESS, end - q)
        if q == NULL or q + 1 >= end:
            return False
        if q[1] == SLASH:
            return True
        q += 1
    return False


@cython.no_gc
cdef class TagCall(Assembler):
    """Base of the assemblers of one tag-written call; subclasses read their syntax's stages in
    on_text/on_tag and say how a marker closes the block."""
    cdef Scanner tags            # the syntax's own tags
    cdef Sink sink               # where this feed's events go
    cdef Held carried
    cdef ByteBuf scratch         # a source with its separators put back
    cdef ByteBuf fragment        # the JSON of the fragment being written
    cdef ByteBuf name            # the call's name as written
    cdef ByteBuf key             # the key being read or the open value's key
    cdef ByteBuf value           # a held value's text
    cdef ByteBuf written         # the keys the call has opened (each a Py_ssize_t length, then its bytes)
    cdef Py_ssize_t tag_held_at  # where in carried a parameter tag held inside a value begins, or -1
                                 # (hold_parameter_tag; the open value stays open while it is held)
    cdef ByteBuf held_key        # that tag's key as read so far
    cdef Py_ssize_t close_held_at    # where in carried a held close (misspelled, cut short) begins, or -1
    cdef Py_ssize_t close_tail   # the bytes of its tail read, or TC_TAIL_ENDED, TC_CLOSE_ENDED
    cdef Py_ssize_t opener_held_at   # where in carried a call opener held inside a value begins, or -1
    cdef int opener_marker       # ... the table's terminal it is
    cdef Py_ssize_t opener_len   # ... its length
    cdef bint opener_then_tag    # ... a parameter's open tag came after it
    cdef object declared         # the request's tools compiled (Declared), or None
    cdef FunctionKinds function  # the call's declared parameters, or None
    cdef int64_t index           # the call's index once it started, else -1
    cdef int members             # members written to the arguments object
    cdef int kind                # the open value's Kind
    cdef int text_words          # the JSON words a value read with no Kind is the text of (vt_word_as_text)
    cdef int mode                # ValueMode
    cdef bint own_line           # values sit on their own line (one newline each side is the template's)
    cdef bint at_value_start     # no byte of the open value seen yet
    cdef bint newline_held       # carried ends with a newline that is value text only if more follows
    cdef bint newline_ends_value # not own-line: a parameter tag after a newline in a value ends it
                                 # (its close tag is missing; the newline stays the value's)
    cdef bint value_newline      # the open value's text so far ends with a newline
    cdef bint hold_space         # a streamed string's trailing whitespace waits (the keyed syntax: see the top)
    cdef Py_ssize_t space_held   # hold_space: that whitespace, the first carried bytes, not yet written
    cdef bint wrapper            # the open value may be the call's arguments object, written as a parameter
    cdef int wrapped_kind        # the Kind it has as a parameter, if it is not
    cdef bint done               # the call's own end tag was read: no more bytes are the call's
    cdef Py_ssize_t left         # bytes at the end of the text last read that are not the call's
                                 # (it ended in them: the region turned out to hold no call)
    cdef const unsigned char* back   # those of them held from earlier pieces (given_back)
    cdef Py_ssize_t back_n

    def __cinit__(self):
        self.index = -1
        self.tag_held_at = -1
        self.close_held_at = -1
        self.opener_held_at = -1
        hb_init(&self.carried)

    def __dealloc__(self):
        hb_free(&self.carried)
        bb_free(&self.scratch)
        bb_free(&self.fragment)
        bb_free(&self.name)
        bb_free(&self.key)
        bb_free(&self.value)
        bb_free(&self.written)
        bb_free(&self.held_key)

    cdef inline bint started(self) noexcept:
        return self.index >= 0

    # -- what a subclass reads -------------------------------------------------------------------

    cdef int on_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        return 0

    cdef int on_tag(self, int tag, const unsigned char* p, Py_ssize_t n) except -1:
        return 0

    cdef int close_block(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        """A marker ended the block (the tag scanner may still hold the start of a tag the marker
        cut off); 1 when the terminal's bytes became part of the call."""
        return 0

    # -- the Assembler interface ----------------------------------------------------------------

    cdef Py_ssize_t feed(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        cdef Py_ssize_t held_before = self.tags.held.len
        cdef Py_ssize_t end
        if self.done:
            return 0
        self.sink = sink
        end = self.read(p, n, True)
        if end < 0:
            return n
        return end - held_before if end > held_before else 0

    cdef Py_ssize_t read(self, const unsigned char* p, Py_ssize_t n, bint more) except -2:
        """Runs the tag scanner over what it holds and p[0:n], handing text and tags to the
        subclass; returns where in that window the call's end tag ended, or -1 (not ended)."""
        cdef Py_ssize_t s = 0, e = 0, early
        cdef int k
        if self.tags.take_plain(p, n):          # no tag can start in it: one text piece
            self.on_text(p, n)
            return n - self.left if self.done else -1
        self.tags.begin(p, n, more)
        early = self.tags.wn - n                # the window's bytes held from earlier pieces
        while True:
            k = self.tags.next(&s, &e)
            if k == SC_DONE:
                return -1
            if k == SC_TEXT:
                self.on_text(self.tags.w + s, e - s)
            else:
                self.on_tag(k, self.tags.w + s, e - s)
            if self.done:
                # the call's end tag: what follows it is not the call's (of that, the bytes held
                # from earlier pieces are handed back to the engine: the window's first `early`;
                # the scanner may have held back the window's last bytes since, so its length
                # now says nothing of them)
                self.tags.held.len = 0
                e -= self.left
                if e < early:
                    self.back = self.tags.w + e
                    self.back_n = early - e
                    e = early
                return e

    cdef bint holds_bytes(self) noexcept:
        return self.carried.text.len > 0 or hb_has_marks(&self.carried) or self.tags.held.len > 0

    cdef Py_ssize_t given_back(self, const unsigned char** p) noexcept:
        cdef Py_ssize_t n = self.back_n
        p[0] = self.back
        self.back_n = 0                 # (given back once)
        return n

    cdef int close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        self.sink = sink
        if self.done:
            return 0
        self.release_held_opener()      # (the engine reads a held opener again before it closes)
        self.done = True
        return self.close_block(terminal, p, n)

    cdef int finish(self, Sink sink, bint complete) except -1:
        cdef Py_ssize_t since
        self.sink = sink
        if self.done:
            return 0
        self.release_held_opener()      # (the engine reads a held opener again before it finishes)
        self.done = True
        if complete and self.started():
            # closed as by a marker that is not the call's own, with no bytes of its own: what
            # that reports as cut short, the end of the stream cut
            since = sink.fresh()
            self.close_block(-1, NULL, 0)
            return sink.relabel_cut(since)
        if self.mode == VM_STREAM and self.space_held:
            self.push_space()               # (the value as far as it was written)
        self.take_scanner_held()
        self.report_carried(MW_UNTERMINATED, OT_NONE)
        if self.started():
            self.end_call(NULL, 0)
        return 0

    cdef int ignored(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if not self.done:
            self.flush_scanner(sink)
        else:
            self.sink = sink
        return self.keep_separator(p, n)

    cdef int flush_scanner(self, Sink sink) except -1:
        """A marker or separator cuts off the tag the scanner was reading: its start is text, read
        before it."""
        self.sink = sink
        if self.tags.held.len:
            self.read(NULL, 0, False)
        return 0

    cdef int keep_separator(self, const unsigned char* p, Py_ssize_t n) except -1:
        """A separator in its place: among the carried bytes, or Dropped when none is carried."""
        if not self.carried.text.len and not hb_has_marks(&self.carried):
            return self.sink.dropped(DR_WRAPPER, p, n)
        return hb_separator(&self.carried, p, n)

    # -- accounting -----------------------------------------------------------------------------

    cdef inline int carry(self, const unsigned char* p, Py_ssize_t n) except -1:
        return hb_append(&self.carried, p, n)

    cdef int take_scanner_held(self) except -1:
        """The tag scanner's held bytes (a tag's start the stream cut off) join what is carried."""
        self.carry(self.tags.held.data, self.tags.held.len)
        self.tags.held.len = 0
        return 0

    cdef int report_carried(self, int why, int other) except -1:
        """Every carried byte as one Malformed{why/other} (nothing when none is carried)."""
        cdef const unsigned char* src
        cdef Py_ssize_t n
        if self.carried.text.len or hb_has_marks(&self.carried):
            hb_source(&self.carried, 0, self.carried.text.len, &self.scratch, &src, &n)
            self.sink.malformed(why, other, src, n)
        hb_clear(&self.carried)
        return 0

    cdef int carried_as_content(self) except -1:
        """Every carried byte as Content (a region that turned out to hold no call)."""
        cdef const unsigned char* src
        cdef Py_ssize_t n
        if self.carried.text.len or hb_has_marks(&self.carried):
            hb_source(&self.carried, 0, self.carried.text.len, &self.scratch, &src, &n)
            self.sink.content(src, n)
        hb_clear(&self.carried)
        return 0

    cdef int drop_carried(self) except -1:
        """Every carried byte as Dropped{Wrapper} (the template's whitespace)."""
        cdef const unsigned char* src
        cdef Py_ssize_t n
        if self.carried.text.len or hb_has_marks(&self.carried):
            hb_source(&self.carried, 0, self.carried.text.len, &self.scratch, &src, &n)
            self.sink.dropped(DR_WRAPPER, src, n)
        hb_clear(&self.carried)
        return 0

    cdef int report_from(self, Py_ssize_t at, int other) except -1:
        """Carried bytes before `at` (whitespace) Dropped, the rest Malformed(other)."""
        cdef const unsigned char* src
        cdef Py_ssize_t n
        if at > 0:
            hb_source(&self.carried, 0, at, &self.scratch, &src, &n)
            self.sink.dropped(DR_WRAPPER, src, n)
            hb_drop_front(&self.carried, at)
        return self.report_carried(MW_OTHER, other)

    cdef inline int text_between(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Text where only tags belong: whitespace runs carried, other runs Malformed."""
        return self.text_runs(p, n, OT_TEXT_BETWEEN_TAGS)

    cdef int text_runs(self, const unsigned char* p, Py_ssize_t n, int other) except -1:
        """Text where no text belongs: whitespace runs carried, other runs Malformed(other)."""
        cdef Py_ssize_t at = 0, start
        while at < n:
            start = at
            at += u8_space_run(p + at, n - at)
            if at > start:
                self.carry(p + start, at - start)
            else:
                at += u8_text_run(p + at, n - at)
                self.drop_carried()
                self.sink.malformed(MW_OTHER, other, p + start, at - start)
        return 0

    cdef Py_ssize_t read_until(self, const unsigned char* p, Py_ssize_t n, unsigned char stop,
                               ByteBuf* into) except -1:
        """A name, key or attribute up to its `stop` byte: the bytes before it go to `into` (when
        given) and with the stop byte to what is carried. Returns where the stop byte is in
        p[0:n], or n when it is not there yet."""
        cdef const unsigned char* at = <const unsigned char*>memchr(p, stop, n)
        cdef Py_ssize_t k = (at - p) if at != NULL else n
        if into != NULL:
            bb_append(into, p, k)
        self.carry(p, k + 1 if k < n else n)
        return k

    cdef int tag_out_of_place(self, const unsigned char* p, Py_ssize_t n) except -1:
        self.drop_carried()
        return self.sink.malformed(MW_OTHER, OT_TAG_OUT_OF_PLACE, p, n)

    # -- the call and its arguments -------------------------------------------------------------

    cdef int start_call(self, Py_ssize_t upto) except -1:
        """The call starts, named `name`; its source is carried[0:upto] (the rest stays)."""
        cdef const unsigned char* src
        cdef Py_ssize_t n
        if self.declared is not None:
            self.function = (<Declared>self.declared).function(self.name.data, self.name.len)
        hb_source(&self.carried, 0, upto, &self.scratch, &src, &n)
        self.index = self.sink.call_start(self.name.data, self.name.len, src, n)
        hb_drop_front(&self.carried, upto)
        return 0

    cdef inline int push_upto(self, Py_ssize_t upto) except -1:
        """Pushes `fragment` as arguments whose source is carried[0:upto] (those bytes then go)."""
        return self.push_marked(upto, upto + 1 if upto == self.carried.text.len else upto)

    cdef int push_marked(self, Py_ssize_t upto, Py_ssize_t marks_before) except -1:
        """Pushes `fragment` as arguments whose source is carried[0:upto] with the separators that
        arrived before carried offset `marks_before` (those bytes then go)."""
        cdef const unsigned char* src
        cdef Py_ssize_t n
        hb_source_before(&self.carried, 0, upto, marks_before, &self.scratch, &src, &n)
        if self.fragment.len == n and memcmp(self.fragment.data, src, n) == 0:
            # the model's bytes are the JSON (a streamed piece with nothing to escape): one str
            self.sink.call_arguments(<uint32_t>self.index, NULL, 0, src, n)
        else:
            self.sink.call_arguments(<uint32_t>self.index, self.fragment.data, self.fragment.len, src, n)
        hb_drop_front(&self.carried, upto)
        self.fragment.len = 0
        return 0

    cdef inline int push(self) except -1:
        return self.push_upto(self.carried.text.len)

    cdef int begin_member(self) except -1:
        """`{"key": ` or `, "key": ` into the fragment."""
        if self.members:
            bb_append(&self.fragment, b", \"", 3)
        else:
            bb_append(&self.fragment, b"{\"", 2)
        vt_string(self.key.data, self.key.len, &self.fragment)
        bb_append(&self.fragment, b"\": ", 3)
        self.members += 1
        return 0

    cdef int close_object(self) except -1:
        """`}` (or `{}` when nothing was written), its source what is carried."""
        return self.close_object_upto(self.carried.text.len)

    cdef int close_object_upto(self, Py_ssize_t upto) except -1:
        """`}` (or `{}` when nothing was written), its source carried[0:upto]."""
        if self.members:
            bb_push(&self.fragment, RBRACE)
        else:
            bb_append(&self.fragment, b"{}", 2)
        return self.push_upto(upto)

    cdef inline int end_call(self, const unsigned char* p, Py_ssize_t n) except -1:
        return self.sink.call_end(<uint32_t>self.index, p, n)

    cdef int forget_call(self) except -1:
        """The call ended: a next one in the region starts afresh."""
        self.index = -1
        self.function = None
        self.members = 0
        self.wrapper = False
        self.written.len = 0
        return 0

    cdef int note_written(self) except -1:
        """The call has opened a value of `key`."""
        bb_append(&self.written, <const unsigned char*>&self.key.len, sizeof(Py_ssize_t))
        return bb_append(&self.written, self.key.data, self.key.len)

    cdef bint wrote(self, const unsigned char* key, Py_ssize_t n) noexcept:
        """Whether the call has opened a value of the key p[0:n] (the open one included)."""
        cdef Py_ssize_t at = 0, m
        while at < self.written.len:
            memcpy(&m, self.written.data + at, sizeof(Py_ssize_t))
            at += sizeof(Py_ssize_t)
            if m == n and memcmp(self.written.data + at, key, n) == 0:
                return True
            at += m
        return False

    cdef bint new_key(self, const unsigned char* key, Py_ssize_t n) noexcept:
        """Whether a parameter tag of the key p[0:n], written inside a value, is the call's next
        parameter by its key: one the call has not written, and, where the tools declare the
        function, one its schema names."""
        return n > 0 and not self.wrote(key, n) and (self.function is None or self.function.properties is None
                                                     or self.function.declares(key, n))

    cdef bint value_cut_by_close(self) except -1:
        """A marker that closes the call (its own end, the block's close) found a value open, its
        close tag missing (`<parameter name="limit">5</invoke>`): the value is what arrived, ended
        as its close tag would have ended it; True when so. A value held whole that holds a close
        tag (`1</a>junk`: a close misspelled or misplaced, text after it) is left cut short: what
        arrived is no value. (The stream's end cuts a value instead.)"""
        if self.mode == VM_NONE or (self.mode != VM_STREAM and tc_holds_close_tag(self.value.data, self.value.len)):
            return False
        self.close_value_upto(self.carried.text.len)
        return True

    cdef int close_started(self, bint between, int cut, const unsigned char* p, Py_ssize_t n) except -1:
        """A marker closed a started call: an open string gets `"`, the object `}`, then
        ToolCallEnd with the bytes p[0:n]. Between tags, what is carried (whitespace) is the
        `}`'s source; anywhere else it was cut short and is Malformed(cut), like any tag the
        scanner holds."""
        if self.mode == VM_STREAM:
            self.close_string_as_written()
        self.mode = VM_NONE
        self.close_held_at = -1         # (a close held in a value no close ends: cut short with it)
        if between:
            self.close_object()
            self.take_scanner_held()
        else:
            self.take_scanner_held()
        self.report_carried(MW_OTHER, cut)
        if not between:
            self.close_object()
        return self.end_call(p, n)

    # -- values ---------------------------------------------------------------------------------

    cdef int open_value(self) except -1:
        """The value of `key` begins (everything carried is its tag), typed as the tools declare."""
        return self.open_value_as(KIND_NONE if self.function is None
                                  else self.function.kind(self.key.data, self.key.len), True)

    cdef int open_value_as(self, int kind, bint parameter=False) except -1:
        """The value of `key` begins, of Kind `kind`; `parameter`: it is a parameter tag's, which
        may be the arguments object written as one (see the top)."""
        self.wrapper = (parameter and self.members == 0 and self.function is not None
                        and tc_wrapper_name(self.key.data, self.key.len)
                        and self.function.properties is not None
                        and not self.function.declares(self.key.data, self.key.len))
        if self.wrapper:
            self.wrapped_kind = kind
            kind = KIND_OBJECT
        self.note_written()
        self.kind = kind
        self.at_value_start = True
        self.newline_held = False
        self.space_held = 0
        self.value_newline = False
        self.value.len = 0
        if self.kind == KIND_STRING:
            self.mode = VM_STREAM
            self.begin_member()
            bb_push(&self.fragment, QUOTE)
            return self.push()
        self.mode = VM_UNDECIDED if self.kind == KIND_NULLABLE_STRING else VM_WHOLE
        return 0

    cdef int value_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        if n <= 0:
            return 0
        if self.at_value_start:
            self.at_value_start = False
            if self.own_line and p[0] == LF:
                # the template's newline after the opening tag
                self.carry(p, 1)
                p += 1
                n -= 1
                if n == 0:
                    return 0
        self.value_newline = p[n - 1] == LF
        if self.mode == VM_STREAM:
            return self.stream_text(p, n)
        self.carry(p, n)
        return self.hold_value(p, n)

    cdef int value_written(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Text of the open value whose bytes are already carried, written otherwise than it is
        read (a character reference's character, p[0:n]): it joins the value as value_text's do."""
        if n <= 0:
            return 0
        self.at_value_start = False
        self.value_newline = p[n - 1] == LF
        if self.mode == VM_STREAM:
            return self.stream_piece(p, n)
        return self.hold_value(p, n)

    cdef int hold_value(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Text of a value read whole joins what is held (its bytes carried): a nullable string
        that can no longer be null streams from here on."""
        bb_append(&self.value, p, n)
        if self.mode == VM_UNDECIDED and not tc_could_be_null(self.value.data, self.held_value_length()):
            return self.decide_string()
        return 0

    cdef int value_depth(self) noexcept:
        """How deep a value written whole may nest: the arguments object takes one of the levels
        the prefix validator reads (SPEC §4.3), so every prefix of the arguments stays valid."""
        return JP_MAX_DEPTH - 1

    cdef inline Py_ssize_t held_value_length(self) noexcept:
        """The held value's length without a last newline that may be the template's."""
        if self.own_line and self.value.len and self.value.data[self.value.len - 1] == LF:
            return self.value.len - 1
        return self.value.len

    cdef inline bint value_line_ended(self) noexcept:
        """Own-line: whether the open value's text so far ends with a newline after its first
        byte (one the template writes before the value's close tag); else, where a newline ends a
        value whose close tag is missing (newline_ends_value), whether that text ends with one."""
        if not self.own_line:
            return self.newline_ends_value and self.value_newline
        if self.mode == VM_STREAM:
            return self.newline_held
        return self.held_value_length() < self.value.len

    cdef int stream_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        """A piece of a streamed string; own-line, a last newline waits (it is the template's if
        the close tag comes next); hold_space, its trailing whitespace waits (see the top)."""
        cdef bint trailing = self.own_line and p[n - 1] == LF
        cdef Py_ssize_t m = n - 1 if trailing else n
        if self.hold_space:
            m = u8_ascii_space_end(p, n)
            self.carry(p, n)
            if m > 0:
                self.write_space()
                vt_string(p, m, &self.fragment)
                self.push_upto(self.carried.text.len - (n - m))
            self.space_held += n - m
            return 0
        if m == 0 and not self.newline_held:
            self.carry(p, n)
            self.newline_held = True
            return 0
        self.carry(p, m)
        self.stream_piece(p, m)
        self.newline_held = trailing
        if trailing:
            self.carry(p + m, 1)
        return 0

    cdef int stream_piece(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Text of a streamed string goes out as its JSON (after a newline held for it), with the
        bytes carried so far as its source."""
        if self.newline_held:
            bb_append(&self.fragment, b"\\n", 2)
            self.newline_held = False
        vt_string(p, n, &self.fragment)
        return self.push()

    cdef int decide_string(self) except -1:
        """A nullable string that can no longer be null: it streams from here on."""
        cdef Py_ssize_t m = self.held_value_length()
        cdef Py_ssize_t k = u8_ascii_space_end(self.value.data, m) if self.hold_space else m
        self.begin_member()
        bb_push(&self.fragment, QUOTE)
        vt_string(self.value.data, k, &self.fragment)
        self.mode = VM_STREAM
        self.newline_held = m < self.value.len
        self.space_held = m - k
        self.push_upto(self.carried.text.len - (self.value.len - k))
        self.value.len = 0
        return 0

    cdef int close_value(self, const unsigned char* p, Py_ssize_t n) except -1:
        """The value's close tag p[0:n]: the value's last fragment, its source all carried + tag."""
        self.write_space()
        self.carry(p, n)
        return self.close_value_upto(self.carried.text.len)

    cdef inline int write_space(self) except -1:
        """The whitespace a streamed string held (hold_space) is its text: into the fragment
        (its bytes stay carried, for the fragment's source)."""
        if self.space_held:
            vt_string(self.carried.text.data, self.space_held, &self.fragment)
            self.space_held = 0
        return 0

    cdef int push_space(self) except -1:
        """The whitespace a streamed string held goes out as its text."""
        cdef Py_ssize_t n = self.space_held
        self.write_space()
        return self.push_upto(n)

    cdef int close_string_as_written(self) except -1:
        """A streamed string a marker or the stream's end cut: what it held is its text, then `"`."""
        cdef Py_ssize_t n = self.space_held
        self.write_space()
        bb_push(&self.fragment, QUOTE)
        return self.push_upto(n)

    cdef int close_value_upto(self, Py_ssize_t upto) except -1:
        """The value ends: its last fragment, its source carried[0:upto] (what follows stays);
        of whitespace a streamed string held and close_value did not write, what stands before its
        first newline is the value's, the rest was the template's."""
        cdef const unsigned char* newline
        self.close_held_at = -1         # (a close held at the end: the closing fragment's source)
        if self.space_held:
            newline = <const unsigned char*>memchr(self.carried.text.data, LF, self.space_held)
            if newline != NULL:
                self.space_held = newline - self.carried.text.data
            self.write_space()
        if self.mode == VM_STREAM:
            bb_push(&self.fragment, QUOTE)
        elif self.wrapper:
            if not self.close_wrapper():
                self.mode = VM_NONE
                self.value.len = 0
                return 0                # an empty object: its bytes are the next event's source
        else:
            self.begin_member()
            self.write_whole(self.value_depth())
        self.value_closed()
        return self.push_upto(upto)

    cdef int write_whole(self, int depth) except -1:
        """The JSON of the value held to its close tag into `fragment`: a nullable string's `null`
        or string, else the value typed by its Kind, nesting at most `depth` levels."""
        cdef Py_ssize_t m = self.held_value_length(), at
        if self.mode == VM_UNDECIDED and vt_is_null_word(self.value.data, m):
            bb_append(&self.fragment, b"null", 4)
        elif self.mode == VM_UNDECIDED:
            bb_push(&self.fragment, QUOTE)
            vt_string(self.value.data, m, &self.fragment)
            bb_push(&self.fragment, QUOTE)
        else:
            at = self.fragment.len
            vt_json(self.value.data, m, self.kind, &self.fragment, depth)
            vt_word_as_text(&self.fragment, at, self.value.data, m, self.text_words)
        return 0

    cdef inline void value_closed(self) noexcept:
        """No value is open any more."""
        self.text_words = 0
        self.mode = VM_NONE
        self.value.len = 0

    cdef bint close_wrapper(self) except -1:
        """The held value of a parameter that may be the arguments object closes (see the top):
        an object's members are the call's, written without its `}`; else the member it is.
        False when nothing is written (an empty object)."""
        cdef Py_ssize_t m = self.held_value_length(), mark = self.fragment.len
        self.wrapper = False
        vt_json(self.value.data, m, KIND_OBJECT, &self.fragment, self.value_depth())
        if self.fragment.data[mark] == LBRACE:
            if tc_empty_object(self.fragment.data + mark, self.fragment.len - mark):
                self.fragment.len = mark
                return False
            self.fragment.len -= 1
            self.members += 1
            return True
        self.fragment.len = mark
        self.begin_member()
        vt_json(self.value.data, m, self.wrapped_kind, &self.fragment, self.value_depth())
        return True

    # -- bytes held to be read again ------------------------------------------------------------

    cdef int reread_as_value(self, Py_ssize_t at) except -1:
        """The carried bytes from `at` on, held while they might have been the call's tags, are
        the open value's text after all."""
        cdef Held tail
        hb_init(&tail)
        try:
            hb_split(&self.carried, at, &tail)
            self.read_from(&tail, 0, tail.text.len, True)
        finally:
            hb_free(&tail)
        return 0

    cdef int read_from(self, Held* h, Py_ssize_t a, Py_ssize_t b, bint as_value) except -1:
        """h's text[a:b] read again, as the value's text or as the call's, with the separators
        that arrived among it (or, at its end, after it) in their places."""
        cdef const unsigned char* sp = NULL
        cdef Py_ssize_t sn = 0, mark
        while True:
            mark = hb_next_mark_at(h)
            if mark < 0 or mark > b:
                break
            if mark > a:
                self.read_again(h.text.data + a, mark - a, as_value)
                a = mark
            hb_next_mark(h, &sp, &sn)
            self.keep_separator(sp, sn)
        if b > a:
            self.read_again(h.text.data + a, b - a, as_value)
        return 0

    cdef inline int read_again(self, const unsigned char* p, Py_ssize_t n, bint as_value) except -1:
        if as_value:
            return self.value_text(p, n)
        return self.on_text(p, n)

    cdef int hold_opener(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """The table's marker `terminal` that would open the next call, p[0:n], inside the open
        value: held, with what follows, until the value's close tag or a terminal decides (see
        the top); 1 when held, 0 when the engine follows its row (no value is open, or a close
        or a separator is held in it)."""
        if self.done or self.mode == VM_NONE or self.opener_held_at >= 0 or hb_has_marks(&self.carried):
            return 0
        self.sink = sink
        self.flush_scanner(sink)        # (a tag's start the marker cut off: the value's text)
        self.release_held_tag()         # (a parameter tag whose key the marker cuts off: the same)
        if self.mode == VM_NONE or self.close_held_at >= 0:
            return 0
        self.opener_held_at = self.carried.text.len
        self.opener_marker = terminal
        self.opener_len = n
        self.opener_then_tag = False
        self.carry(p, n)
        return 1

    cdef bint tag_after_opener(self, bint closes_value, bint opens_parameter, const unsigned char* p,
                               Py_ssize_t n) except -1:
        """A tag of the syntax p[0:n] while a call opener is held in the value: True when it is
        the value's close and no parameter's open tag (`opens_parameter`, as the template spells
        it) came since the opener (all held is the value's text, and the caller reads the close),
        else held with it (False). Other tags (a close misspelled, an escaped newline) are text there."""
        if closes_value and not self.opener_then_tag:
            self.release_held_opener()
            return True
        self.opener_then_tag = self.opener_then_tag or opens_parameter
        self.carry(p, n)
        return False

    cdef int release_held_opener(self) except -1:
        """The call opener held in the value, and all held after it, are the value's text."""
        cdef Py_ssize_t at = self.opener_held_at
        if at < 0:
            return 0
        self.opener_held_at = -1
        return self.reread_as_value(at)

    cdef bint holds_opener(self) noexcept:
        return self.opener_held_at >= 0

    cdef Py_ssize_t give_back_opener(self, ByteBuf* into, ByteBuf* marks, int* marker, Py_ssize_t* marker_len,
                                     Sink sink) except -1:
        """The call opener held in the value was the next call's: the value ends where it begins
        (its close tag missing), and its bytes and all held after them go to `into` for the engine
        to read again, the opener's terminal in `marker`, its length in `marker_len`. Returns how
        many bytes went (0: none was held). No marker follows it there (any would have come first)."""
        cdef Py_ssize_t at = self.opener_held_at, before
        cdef Held tail
        if at < 0:
            return 0
        self.sink = sink
        self.take_scanner_held()        # (a tag's start the terminal cut off: text after the opener)
        self.opener_held_at = -1
        before = self.carried.text.len
        self.close_value_upto(at)
        at -= before - self.carried.text.len
        self.value_ended()
        hb_init(&tail)
        try:
            hb_split(&self.carried, at, &tail)
            bb_append(into, tail.text.data, tail.text.len)      # (no separator: one would have decided)
        finally:
            hb_free(&tail)
        marker[0] = self.opener_marker
        marker_len[0] = self.opener_len
        return into.len

    cdef void value_ended(self) noexcept:
        """The open value ended without its close tag: the call reads the next tag."""
        pass

    cdef int hold_parameter_tag(self, const unsigned char* p, Py_ssize_t n) except -1:
        """A parameter's open tag p[0:n] (up to its key) inside a value: held, with the key that
        follows, until the key decides (see the top)."""
        self.tag_held_at = self.carried.text.len
        self.held_key.len = 0
        return self.carry(p, n)

    cdef bint held_key_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Text of the held tag's key: carried, and False when it makes the key no key."""
        if (self.held_key.len + n > TC_HELD_KEY_MAX or memchr(p, LESS, n) != NULL
                or memchr(p, GREATER, n) != NULL):
            return False
        bb_append(&self.held_key, p, n)
        self.carry(p, n)
        return True

    cdef Py_ssize_t held_tag_opens_parameter(self) except -1:
        """The held parameter tag is the next parameter's: the open value ends where the tag
        begins (its close tag missing) and `key` is the held key; returns where in carried the
        tag now begins."""
        cdef Py_ssize_t before = self.carried.text.len, at = self.tag_held_at
        self.tag_held_at = -1
        self.close_value_upto(at)
        self.key.len = 0
        bb_append(&self.key, self.held_key.data, self.held_key.len)
        return at - (before - self.carried.text.len)

    cdef int release_held_tag(self) except -1:
        """A parameter tag held inside a value, and its key, are the value's text after all, and
        so is a close held before it (nothing when no tag is held)."""
        if self.tag_held_at < 0:
            return 0
        return self.release_held_close() if self.close_held_at >= 0 else self.release_from(self.tag_held_at)

    cdef int release_held_close(self) except -1:
        """A close held inside a value, and all held after it, are the value's text after all
        (nothing when none is held)."""
        if self.close_held_at < 0:
            return 0
        return self.release_from(self.close_held_at)

    cdef inline int release_from(self, Py_ssize_t at) except -1:
        self.tag_held_at = -1
        self.close_held_at = -1
        return self.reread_as_value(at)

    cdef int hold_close_stem(self, const unsigned char* p, Py_ssize_t n) except -1:
        """The stem p[0:n] of the value's close tag (`</parameter` with no `>` after it) inside
        the value: held, with its tail and the whitespace after it, until what follows decides (see
        the top); a close held before it was the value's text."""
        self.release_held_close()
        self.close_held_at = self.carried.text.len
        self.close_tail = 0
        return self.carry(p, n)

    cdef int hold_scanner_stem(self, int first, int last) except -1:
        """A marker closes the call while the tag scanner holds, whole, one of the stems
        first..last-1 (a close cut short right before the marker, `</parameter</invoke>`) and no
        close is held: it is held as a close the marker ends, as when whitespace came between
        them (nothing when first is -1: the syntax has no stems)."""
        cdef MarkerSet markers = self.tags.markers
        cdef int stem
        if first < 0 or self.close_held_at >= 0:
            return 0
        for stem in range(first, last):
            if (self.tags.held.len == markers.t.lens[stem]
                    and memcmp(self.tags.held.data, markers.t.ptrs[stem], self.tags.held.len) == 0):
                self.hold_close_stem(self.tags.held.data, self.tags.held.len)
                self.tags.held.len = 0
                self.close_tail = TC_TAIL_ENDED
                return 0
        return 0

    cdef Py_ssize_t held_close_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Text after a held close's stem: its tail (whitespace or its `>` ends it), whitespace
        and the `>` if it has not come, then whitespace, are carried; a byte that is none of them
        (or a tail longer than TC_CLOSE_TAIL_MAX) makes the close the value's text. Returns how
        many bytes of p[0:n] were the close's."""
        cdef Py_ssize_t k = 0
        if self.close_tail >= 0:
            while k < n and p[k] != GREATER and p[k] != LESS and not u8_ascii_space(p[k]):
                k += 1
            self.close_tail += k
            if self.close_tail > TC_CLOSE_TAIL_MAX or (k < n and p[k] == LESS):
                self.carry(p, k)
                self.release_held_close()
                return k
            if k == n:
                self.carry(p, n)
                return n
            self.close_tail = TC_TAIL_ENDED
        while k < n:
            if u8_ascii_space(p[k]):
                k += 1
            elif p[k] == GREATER and self.close_tail == TC_TAIL_ENDED:
                self.close_tail = TC_CLOSE_ENDED
                k += 1
            else:
                break
        self.carry(p, k)
        if k < n:
            self.release_held_close()
        return k
