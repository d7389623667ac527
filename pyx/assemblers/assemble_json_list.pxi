# The JSON list assembler (SPEC §4.5, xLAM): the whole output is either a JSON list of call
# objects or content. It sees every output byte: whitespace and commas between objects are
# carried and dropped as wrapping, each object goes to a JsonCallAssembler. A `[` opens a list of
# calls only when what follows it (after whitespace) is an object's `{` or the list's `]`: a
# list of anything else ("[1, 2] are the numbers I picked.") is content, every byte, bracket
# included. The `[` waits (carried) until that byte decides.
#
# xLAM also writes its list in a ```json (or ```) fence: a fence that opens the output, followed
# by the list, is wrapping, and so is the closing ``` after the list's `]` (whitespace around
# either too). A fence followed by anything else is content like any other text, fence included.
#
# A syntax may give the region another way to hold a call (`otherwise`, a JSON syntax): when the
# region does not open with a list, it is one call of that syntax (Mistral's `[TOOL_CALLS]`
# region holds a list, or since v11 one `NAME{..}` call), and what follows the call's object is
# text after it. Where that call is named by the text before its `{` (Mistral v11's head), a `[`
# in that text whose next byte, whitespace aside, is a `{` opens a list of calls after all (`junk
# [{"name": ..}]`, as vLLM's pre-v11 mistral finds the list after other text): the text before the
# `[` is no call's head but text where a call should begin (Malformed), and the list is read. No
# v11 head holds such a `[`: its `[CALL_ID]` is followed by its text, and `[ARGS]` is a separator.
# With `or_list` the region is one of that syntax that may hold a list of calls instead (Qwen's
# `<tool_call>[{..}, {..}]</tool_call>`): whatever does not open a list of call objects, nor a
# fence around call objects (```json, or ``` and whitespace, then `{`: the fence wrapping, as its
# closing backticks after them), is that call's from the region's first byte, whitespace and all,
# and what follows the call is not taken (the engine reads it, as after that syntax's call), so
# the region reads as it would in that syntax; but for another call object, whitespace aside
# (Qwen models write several in one `<tool_call>` block at times), which is the region's next
# call, read the same way (the whitespace before it wrapping).
#
# With `or_object` a region whose first byte (whitespace aside) is a `{` holds one call object of
# the list's kind, not in a list (Mistral before v11, `[TOOL_CALLS] {"name": ..}`; Cohere Command
# 4's `<|START_ACTION|>{"tool_name": ..}<|END_ACTION|>`): the whitespace before it is wrapping, the
# object is read as the list's objects are, and what follows it is text after it, as after the
# `otherwise` syntax's call (which still reads a region that opens with anything else: Mistral
# v11's `NAME{..}`).
#
# A bare list (`bare`) has no `[` of its own: the region is the list, its objects separated by `,`
# or `;` or whitespace (Llama 3's `{..}; {..}`, MiniMax M1's one object per line, Phi-4-mini's
# `functools[` marker that holds the bracket); what it carries when the region ends is wrapping. A
# `[` may still open it (a model that writes the list whole in a bare region), as it opens any list.
# A `;` separates the objects of any list, and one written outside an object's strings ends that
# object where it stands (json_outline.pxi's `list_object`; no JSON holds a `;` there): a model
# that left out the object's `}`, or its arguments' closers, before the `;` wrote a call cut short
# (its arguments closed as any cut call's are), and the object after the `;` is the list's next.
# So does a `{` at an object's top level, where its `,` or `}` belongs once its arguments' value is
# whole (after whitespace that separates the objects, or right after the value): it is the list's
# next object, the one before it, its `}` left out, a call cut short there; a `]` there is the
# list's end, the same. A `,` there is held (JL_COMMA: the call's reading waits at it, and the list
# carries it and the whitespace after it) until the byte after them decides: a `{` or a `]` makes
# it the list's separator written before the object's `}` was (the object ends before it, and the
# list reads on from the `,` as between its objects); any other byte, or the region's end, makes it
# the object's own, fed back to the call, which reads on. The same bytes decide at every chunking.
#
# Prose (`prose`: xLAM, Llama 3): the region is text in which a list of calls opens where one is
# written, wherever that is: after prose, in a ```json (or ```) fence, several times. Whether it is
# one is decided by what the list holds, not by its `[`: `[`, whitespace, `{`, whitespace and a key
# that names a call or its arguments (`"name"`, `"arguments"`, …), whitespace and its `:` (for a
# bare list the object alone, `{` first). Until that `:` the bytes are held, then read as the list's
# start (a fence before it, and the fence after its `]`, are wrapping) or released as content: "[1,
# 2] are the numbers", `[]`, `{"a": 1}` and a list inside Markdown code (prose.pxi) stay content,
# every byte. After the list's `]`, or after a bare list's last object, the region is prose again.
# The object is a call only once it has a whole name and its arguments member begins (in either
# order): until then its call assembler holds it `tentative`, with the fence and `[` before it; one
# that ends first (its `}`: `{"name": "Alice", "age": 30}`, or `{"parameters": {"type": "object"}}`
# with no name; a byte that cannot go on reading it; the region's or the stream's end) is prose,
# every byte, what follows it read as prose again.
# Once a list holds a call its later objects are calls, as in a region. A call object wrapped as
# OpenAI writes one (json_outline.pxi) opens a list too: before the key that names the call, a first
# `"type": "function"` member (the value that very string) and a `"function"` key whose value is an
# object are read on (`{"type": "function", "name": ..}`, `{"type": "function", "function": {"name":
# ..}}`).
#
# The objects' keys and strings may be single-quoted and their values Python's `True`, `False` and
# `None` (a call object written as a Python dict: `{'name': 'search', 'parameters': {'query': 'x',
# 'exact': True}}`): the outline reads such a name, the arguments' validator takes them and their
# JSON writes them as JSON (json_prefix.pxi's `python`). In prose only with `python_literals` (Llama
# 3, whose models write that) are the objects of a list in prose Python dicts, and a first key so
# quoted (`{'name'`) opens a list as `{"name"` does (xLAM's prose: JSON only).

cdef const char* JL_FENCE = "```json"
cdef enum:
    JL_FENCE_LEN = 7
    JL_FENCE_TICKS = 3

cdef enum JlStage:
    JL_DECIDING = 0     # only whitespace so far
    JL_CONTENT = 1      # the output is not a list: all content
    JL_BETWEEN = 2      # inside the list, between objects
    JL_OBJECT = 3       # inside an object
    JL_AFTER = 4        # after the list's `]` (prose: reading the fence that closes it)
    JL_SINGLE = 5       # inside the one call of the `otherwise` syntax
    JL_AFTER_CALL = 6   # after that call's object
    JL_PROSE = 7        # prose: content, where a list may open
    JL_OPENING = 8      # prose: the start of a list held until it is decided
    JL_BRACKET = 9      # a `[` (and whitespace) read: a list of calls if `{` or `]` follows
    JL_GIVEN_BACK = 10  # or_list: the one call ended; what follows is not the region's to take
    JL_HEAD = 11        # the text before the one call's `{` (its head, or text before a list)
    JL_COMMA = 12       # a `,` at an object's top level, the object's or the list's, held (see the top)
    JL_NEXT_OBJECT = 13 # or_list: after the one call's object, whitespace aside (a `{` opens the next)

cdef enum:
    JL_TO_CALL = -1     # flush_carried: the carried bytes are the first of the call just opened

cdef enum JlOpening:    # what the held start of a list in prose has read last
    JO_TICKS = 0        # backticks (a fence, at least PR_FENCE of them)
    JO_INFO = 1         # the fence's `json`, so far
    JO_FENCED = 2       # whitespace after the fence
    JO_LIST = 3         # the `[`, then whitespace
    JO_OBJECT = 4       # the `{`, then whitespace
    JO_KEY = 5          # the first key, inside its quotes
    JO_COLON = 6        # the key's closing quote, then whitespace
    JO_TYPE = 7         # after a `"type":`, whitespace, then its value `"function"` so far
    JO_TYPED = 8        # after that value, whitespace (a `,` comes next)
    JO_WRAPPED = 9      # after a `"function":`, whitespace (its object's `{` comes next)

cdef enum JlWrapping:   # the wrapping read before the key that names the call (bits)
    JW_TYPE = 1         # a `"type": "function"` member
    JW_FUNCTION = 2     # a `"function"` key: the call object is its value

cdef const char* JO_TYPE_VALUE = "\"function\""    # (a `type` member's, 10 bytes)
cdef enum:
    JO_LONGEST_KEY = 10 # (`parameters`): a longer first key is no call's


@cython.final
@cython.no_gc
cdef class JsonListAssembler(Assembler):
    """Assembles a bare JSON list of calls, or passes content through."""
    cdef int stage
    cdef Held carried          # whitespace and commas between objects, and separators among them
    cdef JsonCallAssembler call
    cdef int keys              # what the objects are (OlKeys)
    cdef int fence             # how much of the fence (JL_FENCE) was read, opening or closing
    cdef int fenced            # the backticks of the fence the list opened in, still open; 0: none
    cdef JsonSyntax otherwise  # the syntax of a region that holds no list, or None (content)
    cdef bint or_list          # what opens no list of calls is that syntax's from the region's first byte
    cdef bint or_object        # a region that opens with `{` holds one call object
    cdef bint bare             # the region is the list: no `[` opens it
    cdef bint after_text       # text that is not whitespace came after the list or the call
    cdef bint prose            # the region is prose in which lists open (JL_PROSE)
    cdef bint python_literals  # the objects may be written as Python dicts (the top)
    cdef pr_code code          # prose: the code span it is in
    cdef int opening           # prose: what the held start of a list read last (JlOpening)
    cdef Py_ssize_t list_at    # ... where its `[` or first `{` is in what is carried (JL_HEAD: a `[`
                               # in the head that may open a list, or -1)
    cdef Py_ssize_t key_at     # ... where its first key starts (the last one read)
    cdef int key_kind          # ... what that key is (an OlMember, or JO_TYPE for `type`)
    cdef int wrapping          # ... the wrapping read before it (JlWrapping bits)
    cdef int type_read         # ... how much of the `"function"` value of a `type` was read
    cdef unsigned char quote   # ... the quote of the key or value being read (`"`, or python `'`)
    cdef bint in_list          # prose: the objects are in a `[` list (else a bare list's)
    cdef ByteBuf scratch       # held bytes with their separators put back
    cdef object typed_by       # the request's tools (Declared) typing the objects' members (aj_typed), or None

    def __cinit__(self):
        hb_init(&self.carried)
        self.stage = JL_DECIDING

    def __dealloc__(self):
        hb_free(&self.carried)
        bb_free(&self.scratch)

    cdef int report_run(self, Sink sink, int kind, int other, const unsigned char* p, Py_ssize_t n) except -1:
        if n <= 0:
            return 0
        if kind == JL_TO_CALL:
            self.call.feed(p, n, sink)
            return 0
        if kind == EV_CONTENT:
            return sink.content(p, n)
        if kind == EV_MALFORMED:
            return sink.malformed(MW_UNTERMINATED if other == OT_NONE else MW_OTHER, other, p, n)
        return sink.dropped(DR_WRAPPER, p, n)

    cdef int flush_carried(self, Sink sink, int kind=EV_DROPPED, int other=OT_NONE) except -1:
        """Reports the carried bytes as `kind` (Dropped{Wrapper}, Content, or Malformed: of
        `other`, or UnterminatedRegion); separators among them stay Dropped, in place. JL_TO_CALL:
        gives them, separators in place, to the call just opened, as its first bytes."""
        cdef Py_ssize_t at = 0, mark_at, n
        cdef const unsigned char* text = self.carried.text.data
        cdef const unsigned char* mark
        while True:
            mark_at = hb_next_mark(&self.carried, &mark, &n)
            if mark_at < 0:
                break
            self.report_run(sink, kind, other, text + at, mark_at - at)
            at = mark_at
            if kind == JL_TO_CALL:
                self.call.ignored(mark, n, sink)
            else:
                sink.dropped(DR_WRAPPER, mark, n)
        self.report_run(sink, kind, other, text + at, self.carried.text.len - at)
        hb_clear(&self.carried)
        return 0

    cdef int ignored(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if self.stage == JL_OBJECT or self.stage == JL_SINGLE:
            return self.call.ignored(p, n, sink)
        if not self.carried.text.len:
            return sink.dropped(DR_WRAPPER, p, n)
        return hb_separator(&self.carried, p, n)

    cdef Py_ssize_t feed(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        cdef Py_ssize_t i = 0, w, cl
        cdef unsigned char c
        while i < n:
            if self.stage == JL_GIVEN_BACK:
                return i
            if self.stage == JL_NEXT_OBJECT:
                i += self.next_object(p + i, n - i, sink)
                continue
            if self.stage == JL_PROSE:
                i += self.prose_bytes(p + i, n - i, sink)
                continue
            if self.stage == JL_OPENING:
                i += self.opening_bytes(p + i, n - i, sink)
                continue
            if self.stage == JL_CONTENT:
                sink.content(p + i, n - i)
                return n
            if self.stage == JL_AFTER:
                if self.fenced:
                    i += self.closing_fence(p + i, n - i, sink)
                    continue
                if self.prose:
                    self.stage = JL_PROSE
                    continue
                return self.tail_text(p + i, n - i, sink, OT_TEXT_AFTER_LIST) + i
            if self.stage == JL_OBJECT or self.stage == JL_SINGLE:
                i += self.call.feed(p + i, n - i, sink)
                if self.call.declined:
                    self.no_call(sink)
                elif self.call.done:
                    self.call = None
                    if self.stage == JL_SINGLE:
                        self.stage = JL_NEXT_OBJECT if self.or_list else JL_AFTER_CALL
                    else:
                        self.stage = JL_BETWEEN
                elif self.call.outline.st == OL_COMMA_HELD:
                    self.stage = JL_COMMA
                continue
            if self.stage == JL_COMMA:
                i += self.held_comma(p + i, n - i, sink)
                continue
            if self.stage == JL_AFTER_CALL:
                return self.tail_text(p + i, n - i, sink, OT_TEXT_AFTER_OBJECT) + i
            if self.stage == JL_HEAD:
                i += self.head_bytes(p + i, n - i, sink)
                continue
            c = p[i]
            w = u8_space_len(p + i, n - i)
            if self.stage == JL_DECIDING:
                if w and (self.fenced or self.fence == 0 or self.fence == JL_FENCE_TICKS):
                    self.fenced = JL_FENCE_TICKS if self.fence > 0 else 0
                    hb_append(&self.carried, p + i, w)
                    i += w
                elif self.bare and (c == LBRACE or c == RBRACKET) and not self.fence:
                    self.flush_carried(sink)
                    self.stage = JL_BETWEEN
                elif self.or_object and c == LBRACE and not self.fence:
                    self.flush_carried(sink)            # one call object, the whitespace before it wrapping
                    self.open_call(False)
                    self.stage = JL_SINGLE
                elif c == LBRACKET and (self.fenced or self.fence == 0 or self.fence == JL_FENCE_TICKS):
                    self.fenced = JL_FENCE_TICKS if self.fence > 0 else 0
                    self.fence = 0
                    hb_append(&self.carried, p + i, 1)
                    self.stage = JL_BRACKET
                    i += 1
                elif not self.fenced and not w and self.fence < JL_FENCE_LEN and c == JL_FENCE[self.fence]:
                    hb_append(&self.carried, p + i, 1)
                    self.fence += 1
                    self.fenced = JL_FENCE_TICKS if self.fence == JL_FENCE_LEN else 0
                    i += 1
                elif self.or_list and self.fenced and c == LBRACE:
                    self.flush_carried(sink)            # the fence and the whitespace after it: wrapping
                    self.fence = 0
                    self.single(sink)
                elif self.otherwise is not None and not self.fence and self.otherwise.head_in_object:
                    self.flush_carried(sink)            # (the whitespace before the head: wrapping)
                    self.list_at = -1
                    self.stage = JL_HEAD
                elif self.otherwise is not None and (not self.fence or self.or_list):
                    self.fenced = self.fence = 0        # (or_list: a fence before no object: the call's)
                    self.single(sink)
                else:
                    self.flush_carried(sink, EV_CONTENT)
                    self.stage = JL_CONTENT
                continue
            if self.stage == JL_BRACKET:
                if w:
                    hb_append(&self.carried, p + i, w)
                    i += w
                    continue
                if c == LBRACE or c == RBRACKET:
                    self.flush_carried(sink)        # a list of calls: its `[` is the template's
                    self.stage = JL_BETWEEN
                elif self.or_list:
                    self.single(sink)
                else:
                    self.flush_carried(sink, EV_CONTENT)
                    self.stage = JL_CONTENT
                continue
            # JL_BETWEEN
            if w or c == COMMA or c == SEMICOLON:
                cl = w if w else 1
                hb_append(&self.carried, p + i, cl)
                i += cl
            elif c == LBRACE:
                self.flush_carried(sink)
                self.open_call()
                self.stage = JL_OBJECT
            elif self.prose and not self.in_list:
                # a bare list's end: what it carries is prose, unless it closes the fence it opened in
                if not self.fenced:
                    self.flush_carried(sink, EV_CONTENT)
                self.stage = JL_AFTER
            elif c == RBRACKET:
                hb_append(&self.carried, p + i, 1)
                self.flush_carried(sink)
                self.stage = JL_AFTER
                i += 1
            else:
                self.flush_carried(sink)
                cl = u8_char_len(c)
                if i + cl > n:
                    cl = n - i
                sink.malformed(MW_OTHER, OT_TEXT_BETWEEN_LIST_CALLS, p + i, cl)
                i += cl
        return n

    cdef Py_ssize_t held_comma(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """(JL_COMMA) Carries the `,` the object's reading waits at and the whitespace after it; the
        next byte decides whose the `,` is (comma_is_the_lists or comma_is_the_objects). Returns how
        many bytes it took (the deciding byte is read on in the stage it leaves)."""
        cdef Py_ssize_t i = 0, w
        if not self.carried.text.len:
            hb_append(&self.carried, p, 1)      # (the `,`)
            i = 1
        while i < n:
            w = u8_space_len(p + i, n - i)
            if not w:
                if p[i] == LBRACE or p[i] == RBRACKET:
                    self.comma_is_the_lists(sink)
                else:
                    self.comma_is_the_objects(sink)
                return i
            hb_append(&self.carried, p + i, w)
            i += w
        return n

    cdef int comma_is_the_lists(self, Sink sink) except -1:
        """(JL_COMMA) The object ends before the held `,`, its `}` left out: a call cut short, and
        the `,` and the whitespace carried are between the list's objects; or, in prose, no call
        (not named yet), and they are prose after it."""
        self.call.comma_decided(True, sink)
        if self.call.declined:
            self.no_call(sink)
            return self.flush_carried(sink, EV_CONTENT)
        self.call = None
        self.stage = JL_BETWEEN
        return 0

    cdef int comma_is_the_objects(self, Sink sink) except -1:
        """(JL_COMMA) The held `,` is the object's: it and the whitespace carried go back to the
        call, which reads on from them."""
        self.call.comma_decided(False, sink)
        self.stage = JL_OBJECT
        return self.flush_carried(sink, JL_TO_CALL)

    cdef Py_ssize_t head_bytes(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """(JL_HEAD) Carries the one call's head up to its `{`, which the call then reads, head and
        all; a `[` in it that a `{` follows, whitespace aside, opens a list of calls instead
        (text_before_list). Returns how many bytes it took."""
        cdef Py_ssize_t i = 0, run, w
        while i < n:
            if self.list_at >= 0:
                w = u8_space_len(p + i, n - i)
                if w:
                    hb_append(&self.carried, p + i, w)
                    i += w
                    continue
                if p[i] == LBRACE:
                    self.text_before_list(sink)
                    return i
                self.list_at = -1
            run = i
            while run < n and p[run] != LBRACE and p[run] != LBRACKET:
                run += 1
            hb_append(&self.carried, p + i, run - i)
            i = run
            if i == n:
                break
            if p[i] == LBRACE:
                self.single(sink)
                return i
            self.list_at = self.carried.text.len        # a `[`: a list's, if a `{` follows
            hb_append(&self.carried, p + i, 1)
            i += 1
        return n

    cdef int text_before_list(self, Sink sink) except -1:
        """(JL_HEAD) The `[` carried at list_at opens a list of calls: what was carried before it is
        text where a call should begin, and the `[` with the whitespace after it the list's start
        (JL_BRACKET: Dropped once the `{` opens the list)."""
        cdef Held bracket
        hb_init(&bracket)
        try:
            hb_split(&self.carried, self.list_at, &bracket)
            self.flush_carried(sink, EV_MALFORMED, OT_NOT_A_CALL_START)
            hb_split(&bracket, 0, &self.carried)
        finally:
            hb_free(&bracket)
        self.list_at = -1
        self.stage = JL_BRACKET
        return 0

    cdef Py_ssize_t tail_text(self, const unsigned char* p, Py_ssize_t n, Sink sink, int other) except -1:
        """Text after the list's `]` (or the one call's object): whitespace is carried until a
        byte that is not says whether it is the region's wrapping (the region ends) or the start of
        text after the calls, Malformed(other) from there to the region's end, spaces and all.
        Returns n."""
        cdef Py_ssize_t i = 0, w
        if not self.after_text:
            w = u8_space_len(p, n)
            while w and i < n:
                i += w
                w = u8_space_len(p + i, n - i)
            hb_append(&self.carried, p, i)
            if i == n:
                return n
            self.after_text = True
            self.flush_carried(sink, EV_MALFORMED, other)
        sink.malformed(MW_OTHER, other, p + i, n - i)
        return n

    cdef Py_ssize_t closing_fence(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """After a fenced list's end: carries whitespace and the closing fence's backticks, drops
        them once the fence is whole; what is neither ends the fence (the carried bytes, and all
        that follows, are text after the list: in prose, content inside the fence's code block).
        Returns how many bytes it took."""
        cdef Py_ssize_t i = 0, w
        while i < n:
            w = u8_space_len(p + i, n - i)
            if w and self.fence == 0:
                hb_append(&self.carried, p + i, w)
                i += w
            elif p[i] == BACKTICK:
                hb_append(&self.carried, p + i, 1)
                i += 1
                self.fence += 1
                if self.fence == self.fenced:
                    self.flush_carried(sink)
                    self.fenced = 0
                    self.fence = 0
                    return i
            else:
                if self.prose:
                    self.flush_carried(sink, EV_CONTENT)
                    self.code.code = self.fenced
                    self.stage = JL_PROSE
                else:
                    self.flush_carried(sink, EV_MALFORMED, OT_TEXT_AFTER_LIST)
                self.fenced = 0
                self.fence = 0
                return i
        return i

    # -- prose -----------------------------------------------------------------------------------

    cdef Py_ssize_t prose_bytes(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """Reads prose up to where a list may open (a `[`, a bare list's `{`, backticks outside
        code), which starts the held opening; returns the bytes read."""
        cdef const unsigned char* opens = &PR_OPENS_OBJECT[0] if self.bare else &PR_OPENS_LIST[0]
        cdef Py_ssize_t k = pr_text(&self.code, p, n, opens, True)
        if k:
            sink.content(p, k)
        if k == n:
            return n
        self.stage = JL_OPENING
        self.list_at = 0
        self.in_list = False
        self.wrapping = 0
        if p[k] == BACKTICK:
            self.opening = JO_TICKS
            self.fence = 1
        else:
            self.opening = JO_LIST if p[k] == LBRACKET else JO_OBJECT
            self.fence = 0
        hb_append(&self.carried, p + k, 1)
        return k + 1

    cdef Py_ssize_t opening_bytes(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """Reads the held start of a list in prose until it is decided: at the `:` after a first key
        that names a call (the list opens: read on as its object) or at a byte that cannot come
        next (the held bytes are prose, that byte read again). Returns the bytes read."""
        cdef Py_ssize_t i = 0, w, read
        cdef unsigned char c
        while i < n:
            c = p[i]
            w = u8_space_len(p + i, n - i)
            if self.opening == JO_TICKS:
                if c == BACKTICK:
                    self.fence += 1
                elif self.fence < PR_FENCE:
                    return i + self.not_a_list(sink)
                elif c == JL_FENCE[JL_FENCE_TICKS]:
                    self.opening = JO_INFO
                elif w or c == LBRACKET or (self.bare and c == LBRACE):
                    self.opening = JO_FENCED
                    continue
                else:
                    return i + self.not_a_list(sink)
            elif self.opening == JO_INFO:
                # the fence's `json` (JL_FENCE after its backticks), then whitespace or the list
                read = JL_FENCE_TICKS + self.carried.text.len - self.fence
                if read < JL_FENCE_LEN and c == JL_FENCE[read]:
                    pass
                elif read == JL_FENCE_LEN and (w or c == LBRACKET or (self.bare and c == LBRACE)):
                    self.opening = JO_FENCED
                    continue
                else:
                    return i + self.not_a_list(sink)
            elif self.opening == JO_FENCED:
                if w:
                    hb_append(&self.carried, p + i, w)
                    i += w
                    continue
                if c != LBRACKET and not (self.bare and c == LBRACE):
                    return i + self.not_a_list(sink)
                self.list_at = self.carried.text.len
                self.opening = JO_LIST if c == LBRACKET else JO_OBJECT
            elif self.opening == JO_LIST or self.opening == JO_OBJECT:
                if w:
                    hb_append(&self.carried, p + i, w)
                    i += w
                    continue
                if self.opening == JO_LIST and c == LBRACE:
                    self.opening = JO_OBJECT
                    self.in_list = True
                elif self.opening == JO_OBJECT and (c == QUOTE or (c == APOSTROPHE and self.python_literals)):
                    self.opening = JO_KEY
                    self.quote = c
                    self.key_at = self.carried.text.len + 1
                else:
                    return i + self.not_a_list(sink)
            elif self.opening == JO_KEY:
                if c == self.quote:
                    self.key_kind = ol_plain_kind(self.carried.text.data + self.key_at,
                                                  self.carried.text.len - self.key_at, self.keys == OL_KEYS_ARGS)
                    if self.key_kind == OL_FUNCTION and self.wrapping & JW_FUNCTION:
                        return i + self.not_a_list(sink)
                    if self.key_kind == OL_OTHER:
                        if self.wrapping & JW_TYPE or not ol_key_is(self.carried.text.data + self.key_at,
                                                          self.carried.text.len - self.key_at, "type", 4):
                            return i + self.not_a_list(sink)
                        self.key_kind = JO_TYPE
                    self.opening = JO_COLON
                elif c == BACKSLASH or self.carried.text.len - self.key_at >= JO_LONGEST_KEY:
                    return i + self.not_a_list(sink)
            elif self.opening == JO_TYPE:
                # `"function"`, exactly
                if self.type_read == 0 and w:
                    hb_append(&self.carried, p + i, w)
                    i += w
                    continue
                if self.type_read == 0:         # its opening quote (python: `'` too), then the same
                    if c != QUOTE and not (c == APOSTROPHE and self.python_literals):
                        return i + self.not_a_list(sink)
                    self.quote = c
                elif c != (self.quote if self.type_read == 9 else <unsigned char>JO_TYPE_VALUE[self.type_read]):
                    return i + self.not_a_list(sink)
                self.type_read += 1
                if self.type_read == 10:
                    self.opening = JO_TYPED
            elif self.opening == JO_TYPED or self.opening == JO_WRAPPED:
                if w:
                    hb_append(&self.carried, p + i, w)
                    i += w
                    continue
                if c != (COMMA if self.opening == JO_TYPED else LBRACE):
                    return i + self.not_a_list(sink)
                self.opening = JO_OBJECT
            else:  # JO_COLON
                if w:
                    hb_append(&self.carried, p + i, w)
                    i += w
                    continue
                if c != COLON:
                    return i + self.not_a_list(sink)
                if self.key_kind == JO_TYPE:
                    self.wrapping |= JW_TYPE
                    self.opening = JO_TYPE
                    self.type_read = 0
                elif self.key_kind == OL_FUNCTION:
                    self.wrapping |= JW_FUNCTION
                    self.opening = JO_WRAPPED
                else:
                    self.open_list(sink)
                    return i
            hb_append(&self.carried, p + i, 1)
            i += 1
        return n

    cdef int not_a_list(self, Sink sink) except -1:
        """The held start of a list is none: prose (a fence's backticks open a code block, a
        shorter run an inline span)."""
        if self.fence:
            self.code.code = self.fence
        self.fence = 0
        self.in_list = False
        self.flush_carried(sink, EV_CONTENT)
        self.stage = JL_PROSE
        return 0

    cdef int open_list(self, Sink sink) except -1:
        """The held start is a list's: the fence and the `[` are wrapping, the object's start is
        read by its call assembler, which reads on. The object is a call only once it has a name and
        its arguments begin (a reply that is JSON with a `name`, `{"name": "Alice", "age": 30}`, or
        with arguments and no name, is no call): its call assembler holds it tentatively, the fence
        and the `[` with it, until then (then they are wrapping) or the object ends first (no_call)."""
        cdef Py_ssize_t object_at = self.list_at
        while self.carried.text.data[object_at] != LBRACE:     # (the first: a wrapped call's is inner)
            object_at += 1
        self.fenced = self.fence if self.list_at > 0 else 0
        self.fence = 0
        self.open_call()
        self.call.tentative = True
        self.call.lead = object_at
        self.call.outline.pos = object_at
        self.flush_carried(sink, JL_TO_CALL)
        self.stage = JL_OBJECT
        return 0

    cdef int no_call(self, Sink sink) except -1:
        """The object that opened a list in prose ended (its `}`, or a byte that cannot go on
        reading it) before its arguments began: it is no call. Its bytes, and the list's start held
        with it, are prose as written (a fence's backticks open a code block, as for any held
        start that is no list); what the call took after where it ended is read again as prose,
        the separators among it in their places."""
        cdef JsonCallAssembler call = self.call
        cdef Py_ssize_t end = call.declined_at(), at, mark_at, n
        cdef bytes rest = call.text.text.data[end:call.text.text.len]
        cdef const unsigned char* src
        hb_source_before(&call.text, 0, end, end + 1, &self.scratch, &src, &n)
        sink.content(src, n)
        self.call = None
        if self.fenced:
            self.code.code = self.fenced
        self.fenced = 0
        self.in_list = False
        self.stage = JL_PROSE
        at = end
        while True:
            mark_at = hb_next_mark(&call.text, &src, &n)
            if mark_at < 0:
                break
            if mark_at > at:
                self.feed(<const unsigned char*>rest + at - end, mark_at - at, sink)
                at = mark_at
            self.ignored(src, n, sink)
        if len(rest) > at - end:
            self.feed(<const unsigned char*>rest + at - end, len(rest) - (at - end), sink)
        return 0

    cdef int open_call(self, bint in_list=True) except -1:
        """Opens the call assembler of the list's next object (in_list: a `;` outside its strings
        ends it, the list's separator; else the one object of an or_object region)."""
        self.call = aj_typed(aj_opened(self.keys, None, None), self.typed_by)
        # (prose: a Python dict only with python_literals, whose `{'name'` opens a call; the outline
        # and the validator read strings alike, or they would disagree on where the arguments end)
        self.call.outline.python = self.call.prefix.python = self.python_literals or not self.prose
        self.call.outline.list_object = in_list
        return 0

    cdef int hold_marker(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        # (the syntax's openers, next_list) inside a list of calls, or a call, the opener is their
        # text; anywhere else (before a list, after its `]`, text between or none) it opens the
        # next region (0: the engine follows the row)
        if (self.stage == JL_BETWEEN or self.stage == JL_OBJECT or self.stage == JL_SINGLE
                or self.stage == JL_COMMA):
            self.feed(p, n, sink)
            return 1
        if self.stage == JL_DECIDING and not self.fence:
            self.flush_carried(sink)    # (only whitespace before it: the opener written twice is one)
        return 0

    # A marker inside a string of the object being read is the object's to hold (JsonCallAssembler.hold_close),
    # also while a `,` after it waits (JL_COMMA): given back, the `,` and the whitespace carried follow it.

    cdef inline bint reads_object(self) noexcept:
        return (self.stage == JL_OBJECT or self.stage == JL_SINGLE or self.stage == JL_COMMA) and self.call is not None

    cdef int hold_close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        return self.reads_object() and self.call.hold_close(terminal, p, n, sink)

    cdef int hold_more(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        return self.reads_object() and self.call.hold_more(terminal, p, n, sink)

    cdef bint holds_opener(self) noexcept:
        return self.reads_object() and self.call.holds_opener()

    cdef Py_ssize_t give_back_opener(self, ByteBuf* into, ByteBuf* marks, int* marker, Py_ssize_t* marker_len,
                                     Sink sink) except -1:
        cdef Py_ssize_t n
        if not self.reads_object():
            return 0
        n = self.call.give_back_opener(into, marks, marker, marker_len, sink)
        if n and self.stage == JL_COMMA:
            bb_append(into, self.carried.text.data, self.carried.text.len)  # (no separator: one would have decided)
            n += self.carried.text.len
            hb_clear(&self.carried)
            self.stage = JL_OBJECT
        return n

    cdef int close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        self.finish(sink, True)
        return 0

    cdef Py_ssize_t next_object(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """(or_list) After a call's object: whitespace is wrapping, a `{` opens the region's next
        call, the backticks that close the fence the objects are in are wrapping; anything else
        is not the region's to take (JL_GIVEN_BACK; backticks read of the fence before it are the
        text after the call). Returns the bytes taken."""
        cdef Py_ssize_t w = 0 if self.fence else u8_space_len(p, n)
        if w:
            sink.dropped(DR_WRAPPER, p, w)
            return w
        if p[0] == BACKTICK and self.fenced:
            hb_append(&self.carried, p, 1)
            self.fence += 1
            if self.fence == self.fenced:
                self.flush_carried(sink)
                self.fenced = self.fence = 0
            return 1
        if self.fence:
            self.flush_carried(sink, EV_MALFORMED, OT_TEXT_AFTER_OBJECT)
            self.fenced = self.fence = 0
        if p[0] == LBRACE:
            self.single(sink)
        else:
            self.stage = JL_GIVEN_BACK
        return 0

    cdef int single(self, Sink sink) except -1:
        """The region holds no list: it is one call of the `otherwise` syntax, which reads what
        was carried (or_list, or its head: JL_HEAD) or follows it (dropped, wrapping)."""
        cdef int carried = JL_TO_CALL if self.or_list or self.stage == JL_HEAD else EV_DROPPED
        self.call = <JsonCallAssembler>self.otherwise.open(None)
        self.stage = JL_SINGLE
        return self.flush_carried(sink, carried)

    cdef int finish(self, Sink sink, bint complete) except -1:
        if self.stage == JL_HEAD or (self.or_list and (self.stage == JL_DECIDING
                                                       or self.stage == JL_BRACKET)):
            self.single(sink)
        if self.stage == JL_COMMA:
            self.comma_is_the_objects(sink)
        if self.stage == JL_OBJECT or self.stage == JL_SINGLE:
            self.flush_carried(sink)
            self.call.finish(sink, complete)
            self.call = None
        elif self.prose and (self.stage == JL_AFTER or (self.stage == JL_BETWEEN and not self.in_list)):
            # a fence left open after the list, or what a bare list carries: prose
            self.flush_carried(sink, EV_CONTENT)
        elif self.stage == JL_BETWEEN or (self.stage == JL_AFTER and self.fenced):
            # (after a fenced list, only a closing fence being read is carried; a bare list's
            # region ends the list, so what it carries then is wrapping)
            self.flush_carried(sink, EV_DROPPED if self.bare and self.stage == JL_BETWEEN else EV_MALFORMED)
        elif self.stage == JL_NEXT_OBJECT:
            self.flush_carried(sink, EV_MALFORMED, OT_TEXT_AFTER_OBJECT)     # (a closing fence cut short)
        elif self.stage == JL_AFTER or self.stage == JL_AFTER_CALL:
            self.flush_carried(sink)     # whitespace the region's end shows was its wrapping
        else:
            self.flush_carried(sink, EV_CONTENT)
        self.stage = JL_AFTER
        self.prose = False           # (the region is over: nothing more is read as prose)
        return 0


@cython.final
@cython.no_gc
cdef class JsonListSyntax(Syntax):
    """A bare JSON list of call objects, or content (SPEC §4.5, xLAM); `keys` (an OlKeys other
    than the arguments object) says what the objects are; `otherwise` (a JsonSyntax, or None for
    content) what a region that holds no list holds; `bare`: the region is the list (no `[`);
    `prose`: the region is prose in which lists open; `or_list`: the region is one of the
    `otherwise` syntax that may hold a list of calls instead; `or_object`: a region that opens
    with `{` holds one call object instead of a list; `python_literals`: the objects may be written as
    Python dicts: single-quoted keys and strings, and `True`, `False` and `None`, written as JSON's
    (Llama 3.2)."""
    cdef readonly int keys
    cdef readonly JsonSyntax otherwise
    cdef readonly bint bare
    cdef readonly bint prose
    cdef readonly bint or_list
    cdef readonly bint or_object
    cdef readonly bint python_literals

    def __init__(self, ends=(), int keys=OL_KEYS_CALL, JsonSyntax otherwise=None, bint bare=False, bint prose=False,
                 bint or_list=False, bint or_object=False, bint python_literals=False, openers=()):
        Syntax.__init__(self, ends, (), openers)
        self.openers_open_regions = True        # (next_list: the next list's region)
        if not OL_KEYS_CALL <= keys <= OL_KEYS_NAMED:
            raise ValueError(f"json list syntax: no object kind {keys}")
        if prose and (keys == OL_KEYS_NAMED or otherwise is not None):
            raise ValueError("json list syntax: a list in prose is one of call objects, and holds nothing else")
        self.keys = keys
        self.otherwise = otherwise
        self.bare = bare
        self.prose = prose
        if or_list and (otherwise is None or bare or prose):
            raise ValueError("json list syntax: or_list is a region of its `otherwise` syntax that may hold a list")
        self.or_list = or_list
        if or_object and (or_list or bare or prose):
            raise ValueError("json list syntax: or_object is a region that holds a list or one object")
        self.or_object = or_object
        self.python_literals = python_literals

    cdef Assembler open(self, object declared):
        cdef JsonListAssembler assembler = JsonListAssembler()
        assembler.keys = self.keys
        assembler.otherwise = self.otherwise
        assembler.bare = self.bare
        assembler.or_list = self.or_list
        assembler.or_object = self.or_object
        assembler.python_literals = self.python_literals
        if self.prose:
            assembler.prose = True
            assembler.stage = JL_PROSE
        return assembler
