# The JSON call assembler (SPEC §4.2): one `{"name": ..., "arguments": ...}` object, streamed. The
# start waits for a whole name (arguments written before it are held and then sent at once);
# arguments go out as the model's own bytes up to the first byte a strict JSON reader refuses (the
# strict prefix validator: what a client's reader takes), the rest as Malformed{InvalidArguments}.
# Bytes still undecided (a word or an escape being read, a member whose value has not begun, a
# number's tail that is not whole) wait until they are decided, the value completes, or the stream
# ends, so where the output is cut never changes what is sent. Bytes after the object's `}` are not
# taken, nor (an object of a list) the `;`, `{` or `]` that ends one written without its `}`, and
# what follows it: the object closes before it, its arguments cut there (json_outline.pxi); a `,`
# that may be such a list's is not taken either until the list says whose it is (comma_decided). A
# `tentative` object (one that opened a list in prose) is a call only once it has its name and its
# arguments begin: it holds the list's start before its `{` (`lead` bytes, then Dropped) and, if it
# ends before, reports nothing but is `declined`, its text the holder's to show (at the stream's end the
# assembler shows it as content itself). A raw control character inside a string of the arguments (a
# real newline or tab in code, which lenient readers such as `json.loads(strict=False)` take) is the
# string's: it goes out in the arguments' JSON as its escape (`\n`, `\u0001`), the raw byte in their
# source. The words `NaN`, `Infinity` and `-Infinity` where a value may begin (as Python's
# `json.dumps` writes a float nan or inf; `json.loads` reads them) are a value each: it goes out in
# the arguments' JSON as the JSON string of its text (`"NaN"`), the word in their source, and the
# arguments go on after it. The validator pauses at each of these (its `rewrites`); the assembler
# records where, and writes them anew as it reports those bytes (json_rewrites.pxi, which the forced
# tool_choice's assembler shares).
#
# Where the call's syntax types values by the request's tools (aj_typed: K2-Horizon's `json` form
# in its keyed block), a top-level member written as a string whose declared type reads strings
# (`"5"` or `"true"` where the schema declares an integer or a boolean; vt_string_read_as) is held
# from the member's start until the string closes, and goes out as that value (`5`, `true`) if its
# text is one, else as written; the model's bytes stay the source. A stream that ends inside it
# leaves the member undecided (Malformed, as any undecided member is).
#
# A call's arguments end as one whole JSON value, for every client to load: when the object
# closes, a marker closes the region, or the stream ends (unless the engine stopped it for its
# length, where the arguments stay as far as they were written), what was sent is closed by one
# last fragment with no source (a string's `"`, each container's closer; `{}` when no arguments
# were written); what was undecided there is no part of it (Malformed{UnterminatedRegion} when the
# stream ended in it).
# An ignored terminal (a separator) that arrives while bytes are held keeps its place: it goes
# into the source of the event that reports the bytes around it, never into the JSON. Long
# arguments, once reported, are let go of as they stream.
#
# A syntax may write a head before the object, up to a separator (`head`): the head is the
# start's source (Inkling repeats the name there; DeepSeek V3/V3.1 write the name there and the
# object is the arguments, `keys` = OL_KEYS_ARGUMENTS), and a tail after it (`tail`, DeepSeek
# V3's closing fence): bytes that match it are the end's source (a whitespace byte of the tail
# matching any run of whitespace), the first that does not ends the call. A Markdown fence the
# model writes around an arguments object after the head (```json, or ```, and whitespace: V3's
# habit in V3.1, Kimi K2, gpt-oss) is the start's source too, and its closing ``` the call's
# tail. An arguments object with no separator has its head up to the object's own `{` (Mistral's
# `NAME{..}`): the `{` ends the head and opens the object.
#
# Arguments written as one JSON string whose text is a JSON object (`"arguments": "{\"a\": 1}"`,
# what some Llama-family and Granite checkpoints write) are that object: the string is held while
# its text could still be one (it starts, after spaces, with `{` or an escape), and when it closes
# the decoded object (without spaces around it) goes out as the arguments' JSON, the string's own
# bytes (quotes, escapes) as their source. A string whose text is known not to be an object (another
# first character, a decoded text that is no whole strict JSON object, a stream that ends inside it)
# streams as written, the string it is. The decision depends only on the bytes, never on the
# chunking. Arguments written as `null` (no arguments, as SGLang's detectors read them), or Python's
# `None` where the objects may be Python dicts, are the object `{}`, the word its source: a value
# that begins with the word's letter is held while it could still be that word.
#
# the call. A head that is a call id (Kimi K2's `functions.NAME:N`) names the call with what is left
# once the id's prefix (`name_prefix`) and its trailing `:N` number (`name_index`, the separator
# byte) are taken off (a head that is only a number names nothing, and so does one without its `:N`,
# which is no call id: `functions.f.0`); they stay in the start's source. A head whose name is its
# first word (`name_word`: gpt-oss's `functions.NAME <|constrain|>json`, Mistral v11's
# `NAME[CALL_ID]ID`) names the call with what runs to whitespace, a `<` or a `[`. Kimi K2 also
# writes a head that is only its call number (a bare counter, `0`): where the syntax reads one
# (`bare_counter`) it names the call after the request's only function, which is what the model can
# have meant. With several functions the call waits, held, until its arguments' object is whole (it
# cannot start before its name): it is then the one function whose parameters name every key the
# object writes (its own keys, not a nested value's; as vLLM's and SGLang's kimi_k2 read it), its
# arguments read once. With no tools, no such function, several, or arguments that never form a
# whole object, it names nothing (the call is Malformed "a tool call without a name", as any
# nameless head). Where the syntax's head writes the call's id (`head_id`), that id, spaces off, is
# the call's id (the one the model's template writes back into the next turn): the whole head (Kimi
# K2's `functions.NAME:N`, or its bare counter `0`, as the model wrote it), or what follows a text
# in it (Mistral v11's `[CALL_ID]ID`); a head that writes none leaves the call `call_<index>`. The
# head is whole before the call starts, so the id is known at its start, at every chunking.
#
# A head may restart (a syntax whose table has a row from a call to the next call on the call's
# opener, and lists that opener among its `openers`: Kimi K2): the opener written again before the
# head's separator begins the head anew (the engine follows the row: the head before it is a call
# that never started), and so does one after the arguments' object; from the separator until the
# object closes it is the arguments' text (hold_marker), as any marker is there.
#
# A marker of the table written inside a string (or a key) of a started call (`"text": "wrap it in
# </tool_call> tags"`, `"code": "print('<tool_call>')"`) is the string's text when the call's
# object closes before any terminal comes: it is held there (hold_close), with what follows it,
# and nothing of it goes out until that is decided. The object closing makes all of it the
# string's text. A terminal that comes while the outline is still inside a string is held with
# it (hold_more); one that comes outside a string, after the outline stopped, or the stream's end
# makes the held marker what its row says (the call's close, the next call's opener): the string
# ends before it, cut as a marker cuts it, and the marker and all held after it go back to the
# engine to read again (give_back_opener), the markers held after it as markers.
#
# A call that never started is Malformed, as the model wrote it, less the head's separator where
# that is a control token of the table (`head_token`: shown nowhere, as anywhere outside a call).
# Where the object names the call (not an arguments object), the head only repeats the name, and
# a model may write the payload again: a separator written after the payload stopped being
# readable, before any call started, begins the payload anew (Inkling's `garbage<|…|>{..}`: the
# call is read from the last separator), and what came before it is a call that never started.

cdef bytes AJ_FENCE_TAIL = b"\n```"   # what closes a fence written before the arguments object

cdef enum AjReport:
    AJ_START = 0
    AJ_ARGUMENTS = 1
    AJ_END = 2
    AJ_MALFORMED = 3
    AJ_CONTROL_TOKEN = 4     # the head's separator, a control token, in a call that never started
    AJ_WRAPPER = 5           # a list's start held before a tentative object (Dropped{Wrapper})
    AJ_CONTENT = 6           # a tentative object that is no call: the text it is

cdef enum AjUntil:           # how far stream_arguments sends what the validator read
    AU_COMMITTED = 0         # what no later byte can change (more may come)
    AU_AS_WRITTEN = 1        # the stream was stopped for its length: all of it, as written
    AU_VALUE_END = 2         # the value ended there: what is still undecided is invalid
    AU_STREAM_END = 3        # the stream ended there: what is still undecided was cut

cdef enum AjQuoted:          # arguments written as a JSON string
    AQ_UNDECIDED = 0         # not yet known (or the arguments have not begun)
    AQ_HELD = 1              # a string whose text may be an object, or `null`: held until it ends
    AQ_AS_WRITTEN = 2        # streamed as the model wrote them (not a string, or not an object)
    AQ_UNQUOTED = 3          # the string's object, or `{}` for `null`, was sent


cdef struct aj_hold:         # a marker held inside a string of the call (hold_close)
    Py_ssize_t at            # where its bytes start in text
    Py_ssize_t len
    int terminal
    ol_state outline         # the outline as it was at `at`
    ByteBuf marks            # HeldMarker records of the terminals held after it (at: from `at`)


@cython.final
@cython.no_gc
cdef class JsonCallAssembler(Assembler):
    """Assembles one JSON call object."""
    cdef Held text             # the object so far (cut at its `}` once it closes), and separators
    cdef ol_state outline
    cdef jp_state prefix
    cdef int64_t index         # the call's index once it started, else -1
    cdef readonly bint done
    cdef bint tentative        # (prose) a call only once named, its arguments begun; before, text[0:lead] is
                               # the list's start (a fence, a `[`) held with it
    cdef Py_ssize_t validated  # the validator has read the arguments up to here (an offset in text)
    cdef Py_ssize_t emitted    # the arguments are reported up to here
    cdef readonly bint declined # (tentative) the object ended before it was one: no call,
                               # no event; its text[0:declined_at()] is the holder's to show
    cdef unsigned char invalid # (two flags in a byte each, beside `declined`: the class stays within
    cdef unsigned char by_keys # the object pool's size) by_keys: a bare counter among several
                               # declared functions, named by its arguments' keys
    cdef Py_ssize_t reported   # every byte before this offset is in an event
    cdef ByteBuf spliced       # scratch: a source with its separators put back
    cdef bytes head            # the separator that ends the head, or None (no head, or found)
    cdef bytes separator       # the head's separator, found or not (None: no head)
    cdef Py_ssize_t head_at    # where in text the separator that ended the head is, or -1
    cdef bint head_token       # the separator is a control token of the table
    cdef bint head_repeats     # a separator after the payload stopped being readable restarts it
    cdef Py_ssize_t scanned    # no separator starts in text before this offset after the stop
    cdef bint head_in_object   # the separator is the object's first byte (its `{`)
    cdef int lead              # (tentative) the bytes before the object's `{` (fits the holes: the
                               # class stays within the object pool's size)
    cdef bytes tail            # what may follow the object as the call's end, or None
    cdef bytes name_prefix     # what a head writes before the name (not the name), or None
    cdef int name_index        # the byte before a head's trailing call number, or -1
    cdef bint name_word        # the name is the head's first word
    cdef bytes head_id         # the head writes the call's id after this (b"": the head is the id), or None
    cdef Py_ssize_t id_at      # the id the head wrote is text[id_at:id_at + id_len] (no byte before the
    cdef Py_ssize_t id_len     # call starts is let go of); id_len 0: none, the call's id is `call_<index>`
    cdef object declared       # the request's tools (Declared) naming a bare counter's call or typing
                               # the members' strings (aj_typed), or None
    cdef Py_ssize_t tail_read  # how much of the tail was read (once the object closed)
    cdef bint in_tail
    cdef int quoted            # AjQuoted
    cdef ByteBuf unquoted      # scratch: a string's decoded text, the arguments' closing, or
                               # arguments reported with stretches written anew (jr_write)
    cdef jr_rewrites rewrites  # stretches of the arguments to write anew, not yet reported
    cdef aj_hold* hold         # a marker held inside a string, or NULL
    cdef bint gave_back        # the marker held was given back: read again, it is not held anew

    def __cinit__(self):
        hb_init(&self.text)
        ol_init(&self.outline)
        jp_init_strict(&self.prefix)
        self.prefix.rewrites = True
        self.index = -1
        self.head_at = -1

    def __dealloc__(self):
        hb_free(&self.text)
        bb_free(&self.outline.name)
        bb_free(&self.spliced)
        bb_free(&self.unquoted)
        jr_free(&self.rewrites)
        self.let_go_hold()

    cdef inline bint started(self) noexcept:
        return self.index >= 0

    cdef int report(self, Sink sink, int kind, Py_ssize_t a, Py_ssize_t b, int why=0, int other=OT_NONE,
                    const unsigned char* json=NULL, Py_ssize_t json_n=0) except -1:
        """Pushes the event of kind `kind` for text[a:b] (separators that arrived among those
        bytes put back into its source); arguments whose JSON is not those bytes give it as `json`."""
        cdef const unsigned char* source
        cdef Py_ssize_t n
        cdef const unsigned char* raw = self.text.text.data + a
        cdef Py_ssize_t base = self.outline.arguments_at
        hb_source(&self.text, a, b, &self.spliced, &source, &n)
        self.reported = b
        if kind == AJ_START:
            if self.id_len:
                self.index = sink.call_start(self.outline.name.data, self.outline.name.len, source, n,
                                             self.text.text.data + self.id_at, self.id_len)
            elif self.outline.id_len:
                self.index = sink.call_start(self.outline.name.data, self.outline.name.len, source, n,
                                             self.text.text.data + self.outline.id_at, self.outline.id_len)
            else:
                self.index = sink.call_start(self.outline.name.data, self.outline.name.len, source, n)
            return 0
        if kind == AJ_ARGUMENTS:
            if json == NULL and jr_any(&self.rewrites) and jr_write(&self.rewrites, raw, a - base, b - base,
                                                                   &self.unquoted):
                json, json_n = self.unquoted.data, self.unquoted.len
            if json != NULL:
                return sink.call_arguments(self.index, json, json_n, source, n)
            return sink.call_arguments(self.index, NULL if source == raw else raw, b - a, source, n)
        if kind == AJ_END:
            return sink.call_end(self.index, source, n)
        if kind == AJ_CONTROL_TOKEN:
            return sink.dropped(DR_CONTROL_TOKEN, source, n)
        if kind == AJ_WRAPPER:
            return sink.dropped(DR_WRAPPER, source, n)
        if kind == AJ_CONTENT:
            return sink.content(source, n)
        return sink.malformed(why, other, source, n)

    cdef Py_ssize_t validate(self, Py_ssize_t until) except -2:
        """Feeds the arguments' validator text[validated:until]: -1 while it accepts them, else
        its refusal offset. What it pauses at is recorded to write anew (jr_feed), and a typed
        member's string is read where it opens and closes (typed_member)."""
        cdef Py_ssize_t base = self.validated - self.prefix.seen      # text offset of validator offset 0
        cdef Py_ssize_t found
        while True:
            found = jr_feed(&self.prefix, &self.rewrites, self.text.text.data + base + self.prefix.seen,
                            until - base - self.prefix.seen)
            if found < 0 or self.prefix.st == JP_REFUSED:
                break
            self.typed_member(base, found)
        self.validated = until
        return found

    cdef int typed_member(self, Py_ssize_t base, Py_ssize_t quote) except -1:
        """The validator paused at the `"` (python: or `'`; validator offset `quote`) that opens or
        closes a top-level member's string value, the member undecided from its start (hold_at).
        Opening: the string is held to its close where the member's declared type reads strings as
        a value (its reading kept in the validator's `member_as`), else the member is decided.
        Closing: a string that holds such a value is written as it (a JR_TYPED stretch), and the
        member is decided. A single-quoted string's quotes are written `"` (JR_QUOTE stretches,
        the opening one taken back where the string is written as a value)."""
        cdef jp_state* v = &self.prefix
        cdef Py_ssize_t key_at, key_end, value_at
        cdef int as_kind
        cdef bint single = self.text.text.data[base + quote] == APOSTROPHE
        if single and v.pause == JPP_MEMBER_OPEN:
            jr_record(&self.rewrites, quote, 1, JR_QUOTE)
        if v.hold_at < 0:           # (a member is undecided from its start: no member to read)
            v.member_as = 0
            jp_decided(v)
            return 0
        value_at = self.held_member(base, &key_at, &key_end)
        if v.pause == JPP_MEMBER_OPEN:
            v.member_as = self.key_read_as(self.text.text.data + base + key_at, key_end - key_at)
            if v.member_as:
                return 0
        else:
            as_kind, v.member_as = v.member_as, 0
            self.unquoted.len = 0
            if self.rewrites_before(value_at + single) and vt_string_read_as(
                    self.text.text.data + base + value_at + 1, quote - value_at - 1, as_kind, &self.unquoted):
                if single:
                    self.rewrites.stretches.len -= sizeof(jr_stretch)      # (the opening quote's, the last)
                jr_record(&self.rewrites, value_at, quote - value_at + 1, JR_TYPED, as_kind)
            elif single:
                jr_record(&self.rewrites, quote, 1, JR_QUOTE)
        jp_decided(v)
        return 0

    cdef bint rewrites_before(self, Py_ssize_t at) noexcept:
        """Whether every stretch recorded to write anew lies before validator offset `at` (none
        is inside the member's string)."""
        cdef Py_ssize_t count = self.rewrites.stretches.len // sizeof(jr_stretch)
        return count == 0 or (<const jr_stretch*>self.rewrites.stretches.data)[count - 1].at < at

    cdef Py_ssize_t held_member(self, Py_ssize_t base, Py_ssize_t* key_at, Py_ssize_t* key_end) noexcept:
        """The member the validator holds (from hold_at: its `,` or its key; text offset of
        validator offset 0 `base`): its key between key_at and key_end (validator offsets, inside
        its quotes), and, returned, the validator offset of its string value's opening `"`."""
        cdef const unsigned char* data = self.text.text.data + base
        cdef Py_ssize_t at = self.prefix.hold_at
        cdef unsigned char quote
        while data[at] != QUOTE and data[at] != APOSTROPHE:     # the member's `,` and the spaces
            at += 1                                             # before its key (python: `'…'`)
        quote = data[at]
        key_at[0] = at = at + 1
        while data[at] != quote:
            at += 2 if data[at] == BACKSLASH else 1
        key_end[0] = at
        at += 1
        while data[at] != QUOTE and data[at] != APOSTROPHE:     # spaces, the `:`, spaces
            at += 1
        return at

    cdef int key_read_as(self, const unsigned char* key, Py_ssize_t n) except -1:
        """What a string written for the call's parameter key[0:n] (as written, escapes and all) is
        read as (FunctionKinds.string_read_as; 0: the string it is)."""
        cdef FunctionKinds function = (<Declared>self.declared).function(self.outline.name.data,
                                                                         self.outline.name.len)
        if function is None:
            return 0
        if memchr(key, BACKSLASH, n) == NULL:
            return function.string_read_as(key, n)
        self.unquoted.len = 0
        if jt_decode_string(key, n, &self.unquoted) != 0:
            return 0
        return function.string_read_as(self.unquoted.data, self.unquoted.len)

    cdef int report_unstarted(self, Sink sink, Py_ssize_t a, Py_ssize_t b, int why, int other=OT_NONE) except -1:
        """text[a:b] of a call that never started, Malformed; the head's separator among them, when
        it is a control token, Dropped{ControlToken} (shown nowhere, as anywhere outside a call)."""
        cdef Py_ssize_t m
        if self.head_token and a <= self.head_at < b:
            m = len(self.separator)
            self.report(sink, AJ_MALFORMED, a, self.head_at, why, other)
            self.report(sink, AJ_CONTROL_TOKEN, self.head_at, self.head_at + m)
            a = self.head_at + m
        return self.report(sink, AJ_MALFORMED, a, b, why, other)

    cdef Py_ssize_t declined_at(self) noexcept:
        """(declined) Where the object's text ends: its close, or the byte it stopped being readable
        at (the bytes from there on were not its)."""
        return self.outline.close if self.outline.close >= 0 else self.outline.pos

    cdef int ignored(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if self.done or self.reported == self.text.text.len:
            return sink.dropped(DR_WRAPPER, p, n)
        return hb_separator(&self.text, p, n)

    cdef bint holds_bytes(self) noexcept:
        return not self.done and (self.reported < self.text.text.len or hb_has_marks(&self.text))

    cdef Py_ssize_t feed(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        cdef ByteBuf* text = &self.text.text
        cdef Py_ssize_t before = text.len, taken = n, at = 0, step
        if self.done:
            return 0
        if self.in_tail:
            return self.read_tail(p, n, sink)
        if self.head is not None:
            bb_append(text, p, n)
            at = n
            if not self.read_head(before):
                return n
            ol_advance(&self.outline, text.data, text.len)
        # Copied in steps as long as what is held, so that an object followed by a long piece
        # (the rest of a list of calls) costs its own length, not the piece's.
        while at < n and self.outline.close < 0 and self.outline.st != OL_COMMA_HELD:
            step = n - at
            if self.outline.st != OL_STOPPED and step > text.len + 256:
                step = text.len + 256
            bb_append(text, p + at, step)
            at += step
            ol_advance(&self.outline, text.data, text.len)
        if self.head_repeats and self.outline.st == OL_STOPPED and not self.started():
            before -= self.restart_payload(sink)
        if self.outline.close >= 0:
            taken = self.outline.close - before
            text.len = self.outline.close
        elif self.outline.st == OL_COMMA_HELD:
            taken = self.outline.pos - before   # (the `,` and what follows: the list's to hold)
            text.len = self.outline.pos
        if self.hold != NULL:
            if self.outline.close < 0:
                return taken            # nothing held goes out before the object closes
            self.let_go_hold()          # the object closed: the marker held was the string's text
        self.progress(sink)
        if self.in_tail:
            return taken + self.read_tail(p + taken, n - taken, sink)
        self.release()
        return taken

    cdef int comma_decided(self, bint the_lists, Sink sink) except -1:
        """(a list's object, its reading held at a `,`: OL_COMMA_HELD) the_lists: the `,` is the
        list's, and the object ends before it, its `}` left out; else it is the object's, which
        reads on from it (the list feeds it back)."""
        if not the_lists:
            ol_comma_is_member(&self.outline)
            return 0
        self.outline.st = ol_cut(&self.outline, self.outline.pos)
        self.let_go_hold()      # (the list read on: a marker held was the string's text)
        return self.progress(sink)

    cdef bint read_head(self, Py_ssize_t before) except -1:
        """Looks for the head's separator in what arrived (text from `before` on, and the bytes
        before it that could start it); once found the outline reads on from after it."""
        cdef ByteBuf* text = &self.text.text
        cdef Py_ssize_t m = len(self.head), at = before - m + 1 if before >= m else 0
        cdef Py_ssize_t start, end
        at = aj_find(text.data, at, text.len, self.head)
        if at < 0:
            return False
        if self.head_in_object and at > 0 and text.data[at - 1] == QUOTE:
            at -= 1                     # (the arguments written as a JSON string: `"{\"city\": …}"`)
        self.head = None
        self.head_at = at
        self.outline.pos = at if self.head_in_object else at + m
        if self.outline.keys == OL_KEYS_ARGUMENTS:
            # the head is the name (the template's whitespace around it is not)
            start, end = 0, at
            while start < end and text.data[start] <= SPACE:
                start += 1
            while end > start and text.data[end - 1] <= SPACE:
                end -= 1
            if self.head_id is not None:
                self.read_id(start, end)
            self.outline.name.len = 0
            if self.head_name(&start, &end):
                bb_append(&self.outline.name, text.data + start, end - start)
            self.outline.has_name = self.outline.name.len > 0
        return True

    cdef int read_id(self, Py_ssize_t start, Py_ssize_t end) noexcept:
        """Notes where the call id the head text[start:end] (spaces off) writes is: all of it, or
        what follows `head_id` in it (none where that is not written, or nothing follows it)."""
        cdef const unsigned char* data = self.text.text.data
        cdef Py_ssize_t m = len(self.head_id), at
        if m:
            at = aj_find(data, start, end, self.head_id)
            if at < 0:
                return 0
            start = at + m
            while start < end and data[start] <= SPACE:
                start += 1
        self.id_at = start
        self.id_len = end - start
        return 0

    cdef Py_ssize_t restart_payload(self, Sink sink) except -1:
        """The payload stopped being readable before its call started: a head separator written
        after the stop begins the payload anew (the model wrote it again), and what came before
        that separator is a call that never started, Malformed. Returns how many bytes of text
        went (the text now starts with that separator)."""
        cdef ByteBuf* text = &self.text.text
        cdef Py_ssize_t m = len(self.separator), dropped = 0, found
        cdef ByteBuf name
        cdef int keys
        cdef unsigned char python, list_object
        while self.outline.st == OL_STOPPED and not (self.outline.has_name and self.outline.has_arguments):
            found = aj_find(text.data, max(self.outline.pos, self.scanned), text.len, self.separator)
            if found < 0:
                self.scanned = max(self.scanned, text.len - m + 1)
                return dropped
            self.report_unstarted(sink, 0, found, MW_OTHER, OT_CALL_WITHOUT_NAME)
            hb_drop_front(&self.text, found)
            self.reported = 0
            dropped += found
            name = self.outline.name
            name.len = 0
            keys = self.outline.keys
            python = self.outline.python
            list_object = self.outline.list_object
            ol_init(&self.outline)
            self.outline.name = name
            self.outline.keys = keys
            self.outline.python = python
            self.outline.list_object = list_object
            self.outline.pos = m
            self.head_at = 0
            self.scanned = 0
            ol_advance(&self.outline, text.data, text.len)
        return dropped

    cdef bint head_name(self, Py_ssize_t* start, Py_ssize_t* end) except -1:
        """Narrows the head text[start:end] to the name in it (off a call id's prefix and number);
        False when the name is not the head's: a head that is only a call number (a bare counter)
        names the request's only function (then in outline.name) where the syntax reads one so,
        else nothing; a call id without its number (`functions.f`, `functions.f.0`) names nothing."""
        cdef const unsigned char* data = self.text.text.data
        cdef const unsigned char* only
        cdef Py_ssize_t k = start[0], m, only_len
        if self.name_word:
            while k < end[0] and data[k] > SPACE and data[k] != LESS and data[k] != LBRACKET:
                k += 1
            end[0] = k
        k = end[0]
        if self.name_index >= 0:
            while k > start[0] and DIGIT_0 <= data[k - 1] <= DIGIT_9:
                k -= 1
            if k < end[0] and k == start[0]:
                if self.declared is not None:
                    if (<Declared>self.declared).only_name(&only, &only_len):
                        bb_append(&self.outline.name, only, only_len)
                    else:
                        self.by_keys = (<Declared>self.declared).declares_any()
                return False
            elif k < end[0] and data[k - 1] == self.name_index:
                end[0] = k - 1
            else:
                return False           # a call id without its number names nothing
        if self.name_prefix is not None:
            m = len(self.name_prefix)
            if end[0] - start[0] > m and memcmp(data + start[0], <const char*>self.name_prefix, m) == 0:
                start[0] += m
        return True

    cdef Py_ssize_t read_tail(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """Takes the bytes that continue the tail; the whole tail, or a byte that is not the
        tail's, ends the call. Returns how many bytes it took. A whitespace byte of the tail
        stands for a run of JSON whitespace (none too): the model may write the fence after a
        space or a blank line."""
        cdef const unsigned char* tail = <const unsigned char*>(<char*>self.tail)
        cdef Py_ssize_t m = len(self.tail), k = 0
        while k < n and self.tail_read < m:
            if jp_strict_space(tail[self.tail_read]) and jp_strict_space(p[k]):
                k += 1
            elif jp_strict_space(tail[self.tail_read]):
                self.tail_read += 1
            elif p[k] == tail[self.tail_read]:
                k += 1
                self.tail_read += 1
            else:
                break
        bb_append(&self.text.text, p, k)
        if self.tail_read == m or k < n:
            self.end_with_tail(sink)
        return k

    cdef int end_with_tail(self, Sink sink) except -1:
        self.in_tail = False
        self.complete(sink)
        self.report(sink, AJ_END, self.outline.arguments_end, self.text.text.len)
        self.done = True
        return self.drop_separators(sink)

    cdef int release(self) except -1:
        """While long arguments stream, forgets the bytes events have reported, so the call
        holds only what is still undecided (moving the rest costs no more than reading it)."""
        cdef Py_ssize_t d = self.reported
        if (self.done or not self.started() or not self.outline.has_arguments or self.outline.arguments_end >= 0
                or d < 4096 or d * 2 < self.text.text.len):
            return 0
        hb_drop_front(&self.text, d)
        ol_shift(&self.outline, d)
        self.validated -= d
        self.emitted -= d
        self.reported = 0
        bb_shrink(&self.text.text)
        return 0

    cdef int progress(self, Sink sink) except -1:
        cdef ol_state* o = &self.outline
        cdef Py_ssize_t head_end, end_at
        if self.tentative:
            if not (o.has_arguments and o.has_name):
                if o.close >= 0 or o.st == OL_STOPPED:
                    self.declined = self.done = True    # no call: the holder shows its text
                return 0
            self.tentative = False      # named, its arguments begun: a call, the list's start its wrapping
            if self.lead:
                self.report(sink, AJ_WRAPPER, 0, self.lead)
        if not self.started():
            if not o.has_name and o.close >= 0 and self.by_keys:
                self.name_by_keys()
            if not o.has_name:
                if o.close >= 0:
                    self.report_unstarted(sink, self.lead, o.close, MW_OTHER, OT_CALL_WITHOUT_NAME)
                    self.done = True
                return 0
            if o.has_arguments:
                head_end = o.arguments_at
            elif o.close >= 0 and o.needs_arguments:
                self.report_unstarted(sink, self.lead, o.close, MW_OTHER, OT_CALL_WITHOUT_ARGUMENTS)
                self.done = True
                return 0
            elif o.close >= 0:
                head_end = o.close
            else:
                return 0
            self.report(sink, AJ_START, self.lead, head_end)
            self.emitted = head_end
            self.validated = max(self.validated, head_end)     # (name_by_keys read the arguments)
        if o.has_arguments and not self.held_string(sink):
            if o.arguments_end >= 0:
                self.stream_arguments(sink, o.arguments_end, AU_VALUE_END)
            else:
                self.stream_arguments(sink, self.text.text.len, AU_COMMITTED)
        if o.close >= 0:
            if self.tail is None and o.fenced:
                self.tail = AJ_FENCE_TAIL   # (the fence opened before the object closes after it)
            if self.tail is not None:
                self.in_tail = True
                return 0
            end_at = o.arguments_end if o.arguments_end >= 0 else o.close
            self.complete(sink)
            self.report(sink, AJ_END, end_at, o.close)
            self.done = True
            self.drop_separators(sink)
        return 0

    cdef bint name_by_keys(self) except -1:
        """A bare counter among several declared functions, its arguments' object whole: the call is
        the one function whose parameters name every key the object writes (its own, not a nested
        value's), read once the validator took the whole object (what it read then is not read
        again); none or several such functions, or an object it refuses: the call names nothing."""
        cdef ol_state* o = &self.outline
        cdef const unsigned char* name
        cdef Py_ssize_t name_len
        if not o.has_arguments or o.arguments_end < 0 or self.text.text.data[o.arguments_at] != LBRACE:
            return False
        self.validated = o.arguments_at
        if self.validate(o.arguments_end) >= 0 or not jp_whole(&self.prefix):
            return False
        if not (<Declared>self.declared).fitting(self.text.text.data + o.arguments_at, o.arguments_end - o.arguments_at,
                                                 &self.unquoted, &name, &name_len):
            return False
        bb_append(&o.name, name, name_len)
        o.has_name = True
        return True

    cdef bint held_string(self, Sink sink) except -1:
        """Whether arguments written as a string or `null` are held (or were sent as their object):
        decides AQ_HELD -> AQ_UNQUOTED or AQ_AS_WRITTEN as soon as the bytes tell (see the top)."""
        cdef ol_state* o = &self.outline
        cdef const unsigned char* data = self.text.text.data
        cdef Py_ssize_t i, j, length = self.text.text.len
        if self.quoted == AQ_AS_WRITTEN:
            return False
        if self.quoted == AQ_UNQUOTED:
            return True
        if self.quoted == AQ_UNDECIDED:
            if data[o.arguments_at] != QUOTE and not aj_null_start(o, data[o.arguments_at]):
                self.quoted = AQ_AS_WRITTEN
                return False
            self.quoted = AQ_HELD
        if data[o.arguments_at] != QUOTE:
            return self.held_null(sink)
        if o.arguments_end < 0:
            i = o.arguments_at + 1
            while i < length and jp_strict_space(data[i]):
                i += 1
            if i == length or data[i] == LBRACE or data[i] == BACKSLASH:
                return True
            self.quoted = AQ_AS_WRITTEN
            return False
        cdef ByteBuf rewritten
        self.unquoted.len = 0
        memset(&rewritten, 0, sizeof(ByteBuf))
        try:
            if (jt_decode_string(data + o.arguments_at + 1, o.arguments_end - o.arguments_at - 2,
                                 &self.unquoted) != 0
                    or not aj_object(self.unquoted.data, self.unquoted.len, &i, &j, &rewritten)):
                self.quoted = AQ_AS_WRITTEN
                return False
            # the object without the spaces around it (nothing may follow a JSON value's end), as
            # JSON (a Python dict or a trailing comma written anew: `rewritten`)
            if rewritten.len:
                self.report(sink, AJ_ARGUMENTS, o.arguments_at, o.arguments_end, 0, OT_NONE, rewritten.data,
                            rewritten.len)
            else:
                self.report(sink, AJ_ARGUMENTS, o.arguments_at, o.arguments_end, 0, OT_NONE, self.unquoted.data + i,
                            j - i)
        finally:
            bb_free(&rewritten)
        self.emitted = self.validated = o.arguments_end
        self.quoted = AQ_UNQUOTED
        return True

    cdef bint held_null(self, Sink sink) except -1:
        """held_string's part for arguments that begin as `null` (or Python's `None`) does: held
        while they are a prefix of the word; the whole word is sent as `{}`."""
        cdef ol_state* o = &self.outline
        cdef Py_ssize_t end = o.arguments_end if o.arguments_end >= 0 else self.text.text.len
        cdef Py_ssize_t n = end - o.arguments_at
        cdef const char* word = "null" if self.text.text.data[o.arguments_at] == LOWER_N else "None"
        if n <= 4 and memcmp(self.text.text.data + o.arguments_at, word, n) == 0:
            if o.arguments_end < 0:
                return True
            if n == 4:
                self.report(sink, AJ_ARGUMENTS, o.arguments_at, o.arguments_end, 0, OT_NONE,
                            <const unsigned char*>b"{}", 2)
                self.emitted = self.validated = o.arguments_end
                self.quoted = AQ_UNQUOTED
                return True
        self.quoted = AQ_AS_WRITTEN
        return False

    cdef int drop_separators(self, Sink sink) except -1:
        """Separators left after every byte was reported (they came last)."""
        cdef const unsigned char* p
        cdef Py_ssize_t n
        while hb_next_mark(&self.text, &p, &n) >= 0:
            sink.dropped(DR_WRAPPER, p, n)
        return 0

    cdef int stream_arguments(self, Sink sink, Py_ssize_t until, int how) except -1:
        """Reports the arguments' bytes up to `until`, `how` (an AjUntil) says what of the
        undecided ones."""
        cdef Py_ssize_t refused, end
        cdef Py_ssize_t base = self.outline.arguments_at
        if self.invalid:
            if until > self.emitted:
                self.report(sink, AJ_MALFORMED, self.emitted, until, MW_INVALID_ARGUMENTS)
                self.emitted = until
            return 0
        if until > self.validated:
            refused = self.validate(until)
            if refused >= 0:
                # nothing undecided was sent, so the refusal is never before what was sent; what
                # was undecided before it goes with what was refused
                end = base + jp_end_commit(&self.prefix)
                if end > self.emitted:
                    self.report(sink, AJ_ARGUMENTS, self.emitted, end)
                    self.emitted = end
                self.invalid = True
                return self.stream_arguments(sink, until, how)
        if how == AU_AS_WRITTEN:
            end = until
            jr_cut(&self.prefix, &self.rewrites)        # `Na`: written as the string it begins
        elif how == AU_COMMITTED:
            end = base + jp_committed(&self.prefix)
        else:
            end = base + jp_end_commit(&self.prefix)    # (a literal or number the end completes is whole)
        if end > self.emitted:
            self.report(sink, AJ_ARGUMENTS, self.emitted, end)
            self.emitted = end
        if until > end and how == AU_VALUE_END:
            self.invalid = True     # a number or a literal the value's end left unfinished
            return self.stream_arguments(sink, until, how)
        if until > end and how == AU_STREAM_END:
            self.report(sink, AJ_MALFORMED, end, until, MW_UNTERMINATED)
            self.emitted = until
        return 0

    cdef int complete(self, Sink sink) except -1:
        """The call's arguments as one whole value: what closes what was sent goes out as a
        fragment with no source (`{}` when no arguments were sent)."""
        cdef ByteBuf* closing = &self.unquoted
        if self.quoted == AQ_UNQUOTED:
            return 0
        closing.len = 0
        if not self.outline.has_arguments or jp_end_commit(&self.prefix) == 0:
            bb_append(closing, b"{}", 2)        # no arguments value began
        else:
            jp_closing(&self.prefix, closing)
        if closing.len:
            sink.call_arguments(<uint32_t>self.index, closing.data, closing.len, NULL, 0)
        return 0

    cdef int hold_marker(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        # (the syntax's openers: a head that restarts) inside the arguments, from the head's
        # separator until the object closes, the opener is their text; before them it begins the
        # head anew, after them the next call (0: the engine follows the row)
        if self.done or self.head is not None or self.outline.close >= 0:
            return 0
        self.feed(p, n, sink)
        return 1

    cdef int hold_close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        # a marker inside a string of the started call: held there (see the top)
        if (self.done or self.gave_back or self.hold != NULL or not self.started() or self.outline.close >= 0
                or not aj_holds_there(&self.outline, p, n)):
            return 0
        self.hold = <aj_hold*>calloc(1, sizeof(aj_hold))
        if self.hold == NULL:
            raise MemoryError()
        self.hold.at = self.text.text.len
        self.hold.len = n
        self.hold.terminal = terminal
        self.hold.outline = self.outline
        return self.held(p, n)

    cdef int hold_more(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if self.hold == NULL or not aj_holds_there(&self.outline, p, n):
            return 0
        held_marker(&self.hold.marks, self.text.text.len - self.hold.at, terminal, n)
        return self.held(p, n)

    cdef int held(self, const unsigned char* p, Py_ssize_t n) except -1:
        """A marker's bytes p[0:n], held inside the string: read on as its text."""
        bb_append(&self.text.text, p, n)
        ol_advance(&self.outline, self.text.text.data, self.text.text.len)
        return 1

    cdef bint holds_opener(self) noexcept:
        return self.hold != NULL

    cdef Py_ssize_t give_back_opener(self, ByteBuf* into, ByteBuf* marks, int* marker, Py_ssize_t* marker_len,
                                     Sink sink) except -1:
        cdef aj_hold* hold = self.hold
        cdef Py_ssize_t n
        if hold == NULL:
            return 0
        n = self.text.text.len - hold.at
        bb_append(into, self.text.text.data + hold.at, n)
        bb_append(marks, hold.marks.data, hold.marks.len)
        self.text.text.len = hold.at
        hold.outline.name = self.outline.name       # (whole since the call started: the same bytes)
        self.outline = hold.outline
        marker[0] = hold.terminal
        marker_len[0] = hold.len
        self.let_go_hold()
        self.gave_back = True
        return n

    cdef void let_go_hold(self) noexcept:
        if self.hold != NULL:
            bb_free(&self.hold.marks)
            free(self.hold)
            self.hold = NULL

    cdef int close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if self.in_tail:
            # a marker after the object: what came of the tail is the call's end
            return self.end_with_tail(sink)
        if self.empty_arguments():
            # the head named the call and its region closed with no arguments written: a call
            # with no arguments (as an object with a name and no arguments member is)
            self.report(sink, AJ_START, 0, self.text.text.len)
            self.emitted = self.validated = self.text.text.len
        self.finish(sink, True)
        return 0

    cdef bint empty_arguments(self) noexcept:
        """Whether the call is named by its head, which is whole, and nothing but spaces came after
        the head's separator."""
        cdef const unsigned char* data = self.text.text.data
        cdef Py_ssize_t at
        if (self.started() or self.head is not None or self.head_at < 0 or self.head_in_object
                or self.outline.keys != OL_KEYS_ARGUMENTS or not self.outline.has_name):
            return False
        at = self.head_at + len(self.separator)
        while at < self.text.text.len and jp_strict_space(data[at]):
            at += 1
        return at == self.text.text.len

    cdef int finish(self, Sink sink, bint complete) except -1:
        cdef ol_state* o = &self.outline
        cdef Py_ssize_t length = self.text.text.len
        if self.done:
            return 0
        self.in_tail = False
        self.done = True
        if self.started():
            if o.has_arguments and o.arguments_end < 0:
                self.stream_arguments(sink, length, AU_STREAM_END if complete else AU_AS_WRITTEN)
            elif o.has_arguments and length > o.arguments_end:
                self.report(sink, AJ_MALFORMED, o.arguments_end, length, MW_UNTERMINATED)
            if complete:
                self.complete(sink)
        elif length and self.tentative:
            self.report(sink, AJ_CONTENT, 0, length)      # no call began: text, as written
        elif length:
            self.report_unstarted(sink, self.lead, length, MW_UNTERMINATED)
        self.drop_separators(sink)
        if self.started():
            sink.call_end(self.index, NULL, 0)
        return 0


cdef Py_ssize_t aj_find(const unsigned char* data, Py_ssize_t at, Py_ssize_t n, bytes text) noexcept:
    """Where `text` (not empty) first starts in data[at:n], or -1."""
    cdef const unsigned char* sep = <const unsigned char*>(<char*>text)
    cdef const unsigned char* hit
    cdef Py_ssize_t m = len(text)
    while at + m <= n:
        hit = <const unsigned char*>memchr(data + at, sep[0], n - m + 1 - at)
        if hit == NULL:
            return -1
        at = hit - data
        if memcmp(hit, sep, m) == 0:
            return at
        at += 1
    return -1


cdef inline bint aj_holds_there(const ol_state* o, const unsigned char* p, Py_ssize_t n) noexcept:
    """Whether the marker p[0:n] may be held where the outline is: inside a string (a key too), a
    marker with no quote or backslash (which would end the string or escape in it)."""
    return ((o.st == OL_STRING or o.st == OL_NESTED_STRING or o.st == OL_KEY) and memchr(p, QUOTE, n) == NULL
            and memchr(p, APOSTROPHE, n) == NULL and memchr(p, BACKSLASH, n) == NULL)


cdef inline bint aj_null_start(ol_state* o, unsigned char c) noexcept:
    """Whether arguments that begin with c may be the word for no arguments: `null`, or where the
    objects may be Python dicts, `None`."""
    return c == LOWER_N or (c == UPPER_N and o.python)


cdef bint aj_object(const unsigned char* p, Py_ssize_t n, Py_ssize_t* start, Py_ssize_t* end,
                    ByteBuf* rewritten) except -1:
    """Whether p[0:n] is one whole JSON object as the arguments' validator reads one (strict, a
    Python dict and trailing commas taken), with JSON whitespace around it, and where the object is
    (p[start:end]); `rewritten` gets its JSON where it is not its bytes (else stays empty)."""
    cdef jp_state s
    cdef jr_rewrites r
    cdef Py_ssize_t i = 0
    while i < n and jp_strict_space(p[i]):
        i += 1
    if i == n or p[i] != LBRACE:
        return False
    jp_init_strict(&s)
    s.rewrites = s.python = True
    memset(&r, 0, sizeof(jr_rewrites))
    try:
        if jr_feed(&s, &r, p + i, n - i) >= 0 or not jp_whole(&s):
            return False
        while jp_strict_space(p[n - 1]):
            n -= 1
        start[0] = i
        end[0] = n
        if jr_any(&r):
            jr_write(&r, p + i, 0, n - i, rewritten)
        return True
    finally:
        jr_free(&r)


cdef inline JsonCallAssembler aj_opened(int keys, bytes head, bytes tail, bint head_in_object=False,
                                        bytes name_prefix=None, int name_index=-1, bint name_word=False,
                                        object declared=None, bint head_token=False, bytes head_id=None,
                                        bint needs_arguments=False):
    cdef JsonCallAssembler call = JsonCallAssembler.__new__(JsonCallAssembler)
    call.outline.python = call.prefix.python = True     # a call object may be written as a Python dict
    call.declared = declared
    call.outline.keys = keys
    call.outline.needs_arguments = needs_arguments
    call.head = call.separator = head
    call.head_token = head_token
    # where the object names the call, the head only repeats it: a payload may be written again
    call.head_repeats = head is not None and not head_in_object and keys != OL_KEYS_ARGUMENTS
    call.tail = tail
    call.head_in_object = head_in_object
    call.name_prefix = name_prefix
    call.name_index = name_index
    call.name_word = name_word
    call.head_id = head_id
    return call


cdef inline JsonCallAssembler aj_typed(JsonCallAssembler call, object declared):
    """The call, its top-level members' strings read by the types `declared` (the request's tools,
    a Declared, or None: as written) gives them (validate, typed_member)."""
    if declared is not None:
        call.declared = declared
        call.prefix.members = True
    return call


@cython.final
@cython.no_gc
cdef class JsonSyntax(Syntax):
    """One `{"name": .., "arguments": {..}}` object per call region (SPEC §4.2), or another
    object (`keys`, an OlKeys), after a head up to the separator `head` and before a `tail`. An
    arguments object with no `head` is named by the text before its `{`; a head that is a call id
    names the call without its `name_prefix` and `name_index`+number, and with `bare_counter` a
    head that is only the number names the request's only function (of several, the one whose
    parameters name every key of the arguments' whole object). `head_id`: where the head
    writes the call's id, which is then the call's id: the head itself (b"", Kimi K2's
    `functions.NAME:N`), or what follows that text in it (Mistral v11's `[CALL_ID]`); None: the
    head writes none. `head_token`: the head's separator is a control token of the table
    (dropped from a call that never started). `needs_arguments`: an object that closes with no
    arguments member is no call (Malformed: the region's text, if it holds no other call)."""
    cdef readonly int keys
    cdef readonly bytes head
    cdef readonly bytes tail
    cdef bint head_in_object
    cdef readonly bytes name_prefix
    cdef readonly int name_index
    cdef readonly bint name_word
    cdef readonly bint bare_counter
    cdef readonly bint head_token
    cdef readonly bytes head_id
    cdef readonly bint needs_arguments

    def __init__(self, ends=(), int keys=OL_KEYS_CALL, head=None, tail=None, name_prefix=None, name_index=None,
                 bint name_word=False, bint bare_counter=False, bint head_token=False, head_id=None, openers=(),
                 bint needs_arguments=False):
        Syntax.__init__(self, ends, (), openers)
        if openers and not head:
            raise ValueError("json syntax: only a head restarts at a call opener")
        if not OL_KEYS_CALL <= keys <= OL_KEYS_ARGUMENTS:
            raise ValueError(f"json syntax: no object kind {keys}")
        self.keys = keys
        self.head = head.encode("utf-8") if head else None
        self.tail = tail.encode("utf-8") if tail else None
        if (name_prefix or name_index or name_word) and keys != OL_KEYS_ARGUMENTS:
            raise ValueError("json syntax: only a head that names the call has a name prefix or index")
        if name_index is not None and (len(name_index) != 1 or not name_index.isascii()):
            raise ValueError("json syntax: a name index separator is one ASCII character")
        self.name_prefix = name_prefix.encode("utf-8") if name_prefix else None
        self.name_index = ord(name_index) if name_index is not None else -1
        self.name_word = name_word
        if bare_counter and name_index is None:
            raise ValueError("json syntax: a bare counter is a head's call number alone (it needs a name index)")
        self.bare_counter = self.reads_types = bare_counter
        self.head_token = head_token and head is not None
        if head_id is not None and keys != OL_KEYS_ARGUMENTS:
            raise ValueError("json syntax: only a head that names the call writes its id")
        self.head_id = head_id.encode("utf-8") if head_id is not None else None
        self.head_in_object = keys == OL_KEYS_ARGUMENTS and not head
        if self.head_in_object:
            self.head = b"{"
        if needs_arguments and keys != OL_KEYS_CALL:
            raise ValueError("json syntax: only a call object has an arguments member to need")
        self.needs_arguments = needs_arguments

    cdef Assembler open(self, object declared):
        return aj_opened(self.keys, self.head, self.tail, self.head_in_object, self.name_prefix, self.name_index,
                         self.name_word, declared, self.head_token, self.head_id, self.needs_arguments)
