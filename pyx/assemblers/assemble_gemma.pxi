# The Gemma assembler (Gemma 4): one call, after the table's `<|tool_call>`,
#     call:NAME{key:<|"|>text<|"|>,n:5,on:true,tags:[<|"|>a<|"|>],meta:{deep:[1,2.5,null]}}
# (the head's `call:` may be missing, whole or its word only: `:NAME{…}`; its arguments may be
# written between parentheses, `call:NAME(key:…)`, as vLLM's gemma4 reads them: a `)` closes them
# as the object's `}` does),
# Gemma's own object notation: bare keys, strings between `<|"|>` quotes written verbatim (no
# escapes), bare scalars, nested objects and lists. (FunctionGemma writes `<escape>` as the
# quote: the syntax takes it as a parameter.) The notation is turned into JSON as it is
# read: structure byte by byte, strings streamed piece by piece (escaped as serde_json does),
# each bare scalar written whole at the byte that ends it and typed by the Kind the tools declare
# where it stands (values/typing.pxi: a declared string is its text, else the model's JSON, else the
# Python literal, else the string). A key is written with its value's first byte, so a key whose
# value never came is never written; separators are ours (`, ` and `: `). The call ends with its
# object's `}` (the bytes after it are the engine's: the table's `<tool_call|>` is dropped).
# The first byte the notation cannot take, and everything after it in the call, is
# Malformed{InvalidArguments}; a marker that ends the call closes what is open for the client,
# and ends a bare scalar being read as the object's `}` would (`{days:3<tool_call|>` is
# `{"days": 3}`, as vLLM's and SGLang's gemma4 read it); a key it cuts is Malformed.
#
# A string's opening quote may be missing (`query:Paris, France<|"|>`): a bare value that a quote
# closes before the value's end is a string, its text everything from its first byte to that
# quote, verbatim. In a list a value ends at its `,` (`[<|"|>a<|"|>,b<|"|>]` is two strings). In
# an object a `,` may be the string's own: a value ends at the `,` before the next key's `:`, or at
# the object's `}`. So a bare scalar that an object's `,` ends is held, with its key, until that
# `:` or `}` shows it was a scalar (written then, its source up to its own `,`; bytes after it that
# hold a second `,` were no key, and break the notation as they always did) or a quote shows it was
# a string. A `{` `[` `}` or `]` is never a bare value's text: it ends or breaks the value first.
#
# A key may be written between quotes (`{<|"|>city<|"|>:<|"|>Paris<|"|>}`, as vLLM's gemma4 reads
# it): a quote where a key starts (after the object's `{` or its `,`, whitespace aside) opens a
# quoted key, its text every byte up to the next quote; then the key goes on to its `:` as a bare
# one does. (After a held scalar's `,` such a quote is the key's, not a string's closing one: that
# string would end with the `,`.)
#
# A string written where the tools declare a number, an integer, a boolean, an array or an object
# (`days:<|"|>3<|"|>`, `tags:<|"|>["a"]<|"|>`) is held to its closing quote and written as that value
# when its text is one (`"days": 3`), else as the string it is (values/declared.pxi vt_read_as, as
# a JSON call object's member string is read; vLLM's gemma4 reads it so).
#
# A marker of the table written inside a string (`<|"|>wrap it in <tool_call|> tags<|"|>`) is held,
# with what follows it, and nothing of the string goes out from it until the string's closing
# quote, followed by what may follow a value (a `,`, or its container's close, whitespace aside),
# makes all of it the string's text (a marker that comes before that quote is held too). A quote
# followed by anything else (the next call's string opening: `x<|tool_call>call:g{a:<|"|>y`), a
# terminal of the table or the stream's end makes it the marker it is: the string ends before it,
# cut as a marker cuts it, and it and what was held after it go back to the engine to read again
# (give_back_opener), the markers held after it as markers.

cdef enum GemmaStage:
    GM_HEAD = 0              # `call:NAME`, up to the arguments' `{` (or `(`)
    GM_UNNAMED = 1           # the head named no call: the region starts none
    GM_KEY = 2               # in an object: a key (or its end), up to `:`
    GM_VALUE = 3             # a value's first byte (or, in a list, its end)
    GM_STRING = 4            # between `<|"|>` quotes
    GM_SCALAR = 5            # a bare scalar, up to `,` `}` or `]`
    GM_AFTER = 6             # after a value: `,` or the container's end
    GM_INVALID = 7           # the notation broke: the rest of the call is Malformed
    GM_QUOTED_KEY = 8        # a key between `<|"|>` quotes

GEMMA_QUOTE = "<|\"|>"
cdef const char* GEMMA_CALL_WORD = "call"      # the head's prefix is `call:`
cdef Py_ssize_t GEMMA_CALL_WORD_LEN = 4

cdef bint[256] _GM_SCALAR_END        # bytes that end a bare scalar (or break it)
_GM_SCALAR_END[:] = [c in (COMMA, RBRACE, RBRACKET, LBRACE, LBRACKET) for c in range(256)]
cdef bint[256] _GM_KEY_END           # bytes that end a bare key (or break it)
_GM_KEY_END[:] = [c in (COLON, COMMA, RBRACE, RBRACKET, LBRACE, LBRACKET) for c in range(256)]
cdef bint[256] _GM_NOT_IN_NAME       # bytes a function name cannot hold
_GM_NOT_IN_NAME[:] = [c in (SPACE, TAB, LF, CR, VTAB, FF, QUOTE, APOSTROPHE, LESS, GREATER, COMMA,
                            LBRACE, RBRACE, LBRACKET, RBRACKET) for c in range(256)]


@cython.final
@cython.no_gc
cdef class GemmaCall(TagCall):
    """Assembles one Gemma call: its head, then its arguments object converted to JSON."""
    cdef int stage
    cdef Py_ssize_t mark                     # carried[0:mark] is the source of `fragment`
    cdef int depth                           # open containers, the arguments object included
    cdef unsigned char opener[JP_MAX_DEPTH]  # LBRACE or LBRACKET per open container
    cdef int written[JP_MAX_DEPTH]           # values written into each open container
    cdef list schemas                        # the schema declared at each open container, or None
    cdef bint pending                        # carried bytes after `mark` are a key or a scalar
    cdef bint held                           # a scalar an object's `,` ended waits (see the top)
    cdef bint paren                          # the arguments opened with `(`: a `)` closes them
    cdef bint unkeyed                        # a `,` followed the held one's: no key came since
    cdef Py_ssize_t scalar_at                # carried offset of the bare scalar's first byte
    cdef Py_ssize_t scalar_end               # and of the `,` after a held one
    cdef ByteBuf held_key                    # the held scalar's key
    cdef Py_ssize_t marker_held_at           # where in carried a marker held inside a string begins, or -1
    cdef int marker_terminal                 # ... the table's terminal it is
    cdef Py_ssize_t marker_len               # ... its length
    cdef Py_ssize_t marker_fragment          # ... how much of `fragment` was written before it
    cdef ByteBuf held_markers                # HeldMarker records of the terminals held after it
    cdef bint marker_given_back              # it was given back: read again, it is not held anew
    cdef int string_as                       # the open string is held, read as this (vt_read_as), or 0

    def __cinit__(self):
        self.stage = GM_HEAD
        self.schemas = []
        self.marker_held_at = -1

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
        """Runs the quote scanner over what it holds and p[0:n]; returns where in that window the
        arguments object ended, or -1 (not ended). What was written goes out at the end. (Gemma
        reads its own notation, not tags: this stands in for TagCall.read everywhere, a separator
        that cuts off a held quote's start included.)"""
        cdef Py_ssize_t s = 0, e = 0, used
        cdef int k
        self.tags.begin(p, n, more)
        while True:
            k = self.tags.next(&s, &e)
            if k == SC_DONE:
                self.flush()
                return -1
            if k == SC_TEXT:
                used = self.text(self.tags.w + s, e - s)
                if used >= 0:
                    # the arguments object ended: what follows is not the call's
                    self.tags.held.len = 0
                    return s + used
            else:
                self.quote(self.tags.w + s, e - s)

    cdef int close_block(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        # a quote's start the scanner held is text now (the marker cut it off)
        self.read(NULL, 0, False)
        if not self.started():
            # unterminated: the engine names it a block that closed without a complete call
            self.report_carried(MW_OTHER if self.stage == GM_UNNAMED else MW_UNTERMINATED,
                                OT_TEXT_FOR_NAME if self.stage == GM_UNNAMED else OT_NONE)
            return 0
        if self.held:
            self.write_held()
        if self.pending and self.stage == GM_SCALAR and terminal >= 0:
            self.write_scalar()                 # a marker (not the end) ends it as `}` would
        elif self.pending:
            self.flush()
            self.report_carried(MW_OTHER, OT_ARGUMENT_CUT_SHORT)
        if self.stage == GM_STRING and self.string_as:
            self.write_held_string(False)
        elif self.stage == GM_STRING:
            bb_push(&self.fragment, QUOTE)
        while self.depth:
            self.depth -= 1
            bb_push(&self.fragment, RBRACE if self.opener[self.depth] == LBRACE else RBRACKET)
        self.mark = self.carried.text.len
        self.flush()
        self.end_call(NULL, 0)
        return 0

    cdef int finish(self, Sink sink, bint complete) except -1:
        self.sink = sink
        if not self.done:
            if self.held:
                self.write_held()
            self.flush()
        return TagCall.finish(self, sink, complete)

    def __dealloc__(self):
        bb_free(&self.held_key)
        bb_free(&self.held_markers)

    # -- a marker inside a string (see the top) -------------------------------------------------

    cdef int hold_marker(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        return self.hold_in_string(terminal, p, n, sink)

    cdef int hold_close(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        return self.hold_in_string(terminal, p, n, sink)

    cdef int hold_in_string(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if (self.done or self.stage != GM_STRING or self.string_as or self.marker_held_at >= 0
                or self.marker_given_back):
            return 0
        self.flush_scanner(sink)        # (a quote's start the marker cut off: the string's text)
        self.flush()
        self.marker_held_at = self.carried.text.len
        self.marker_terminal = terminal
        self.marker_len = n
        self.marker_fragment = self.fragment.len
        self.held_markers.len = 0
        return self.string_text(p, n)

    cdef int hold_more(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        if self.marker_held_at < 0 or self.stage != GM_STRING:
            return 0
        self.flush_scanner(sink)
        held_marker(&self.held_markers, self.carried.text.len - self.marker_held_at, terminal, n)
        return self.string_text(p, n)

    cdef int string_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        """A marker's bytes p[0:n], held inside the string: read as its text."""
        vt_string(p, n, &self.fragment)
        self.carry(p, n)
        self.mark = self.carried.text.len
        return 1

    cdef bint holds_opener(self) noexcept:
        return self.marker_held_at >= 0

    cdef Py_ssize_t give_back_opener(self, ByteBuf* into, ByteBuf* marks, int* marker, Py_ssize_t* marker_len,
                                     Sink sink) except -1:
        cdef Py_ssize_t at = self.marker_held_at, n
        cdef Held tail
        if at < 0:
            return 0
        self.flush_scanner(sink)        # (a quote's start the terminal cut off: text after the marker)
        hb_init(&tail)
        try:
            hb_split(&self.carried, at, &tail)
            bb_append(into, tail.text.data, tail.text.len)      # (no separator: one would have decided)
            n = tail.text.len
        finally:
            hb_free(&tail)
        bb_append(marks, self.held_markers.data, self.held_markers.len)
        self.fragment.len = self.marker_fragment
        self.mark = at
        self.stage = GM_STRING              # (its closing quote, if one came, was the marker's text's)
        self.marker_held_at = -1
        self.marker_given_back = True
        marker[0] = self.marker_terminal
        marker_len[0] = self.marker_len
        return n

    # -- reading --------------------------------------------------------------------------------

    cdef Py_ssize_t text(self, const unsigned char* p, Py_ssize_t n) except -2:
        """Notation text (no quote in it); returns where the arguments object ended in it, or -1."""
        cdef Py_ssize_t i = 0, k
        cdef unsigned char c
        while i < n:
            if self.stage == GM_STRING and self.string_as:
                bb_append(&self.value, p + i, n - i)
                self.carry(p + i, n - i)
                return -1
            if self.stage == GM_STRING:
                vt_string(p + i, n - i, &self.fragment)
                self.carry(p + i, n - i)
                self.mark = self.carried.text.len
                return -1
            if self.stage == GM_QUOTED_KEY:
                bb_append(&self.key, p + i, n - i)
                self.carry(p + i, n - i)
                return -1
            if self.stage == GM_INVALID and self.marker_held_at >= 0:
                self.carry(p + i, n - i)        # (held: the marker held may be the string's end)
                return -1
            if self.stage == GM_INVALID or self.stage == GM_UNNAMED:
                self.sink.malformed(MW_INVALID_ARGUMENTS if self.stage == GM_INVALID else MW_OTHER,
                                    OT_NONE if self.stage == GM_INVALID else OT_TEXT_FOR_NAME, p + i, n - i)
                return -1
            if self.stage == GM_HEAD:
                k = self.read_head(p + i, n - i)
                if k == n - i:
                    return -1
                i += k + 1
                self.head_done()
                continue
            if self.stage == GM_SCALAR or (self.stage == GM_KEY and self.pending):
                k = i
                while k < n and not ((_GM_SCALAR_END[p[k]] if self.stage == GM_SCALAR else _GM_KEY_END[p[k]])
                                     or self.closes_parens(p[k])):
                    k += 1
                bb_append(&self.value if self.stage == GM_SCALAR else &self.key, p + i, k - i)
                self.carry(p + i, k - i)
                i = k
                if i == n:
                    return -1
                if self.stage == GM_SCALAR:
                    if p[i] == LBRACE or p[i] == LBRACKET:
                        return self.broken(p + i, n - i)
                    if p[i] == COMMA and self.opener[self.depth - 1] == LBRACE:
                        self.hold_scalar()
                    else:
                        self.write_scalar()
                    continue
            c = RBRACE if self.closes_parens(p[i]) else p[i]
            if vt_is_json_space(c) and not (self.stage == GM_KEY and self.pending):
                self.carry(p + i, 1)
                i += 1
                continue
            if self.stage == GM_KEY:
                if self.held and c == COMMA:
                    # another `,`: what follows the held one is no key, and may be the string's
                    self.carry(p + i, 1)
                    self.unkeyed = True
                    self.pending = True
                    self.key.len = 0
                    i += 1
                    continue
                if self.held and _GM_KEY_END[c]:
                    # the next key's `:`, the object's end or a break: the held value was a scalar
                    self.write_held()
                    if self.unkeyed:
                        return self.broken(p + i, n - i)
                if c == COLON and self.pending:
                    self.key.len = vt_trim_end(self.key.data, 0, self.key.len)
                    self.carry(p + i, 1)
                    self.stage = GM_VALUE
                elif c == RBRACE and not self.pending:
                    self.close_container(p + i)
                elif _GM_KEY_END[c]:
                    return self.broken(p + i, n - i)
                else:
                    self.pending = True
                    self.key.len = 0
                    continue
            elif self.stage == GM_VALUE:
                if c == LBRACE or c == LBRACKET:
                    if self.depth == JP_MAX_DEPTH:
                        return self.broken(p + i, n - i)
                    self.open_container(p + i)
                elif c == RBRACKET and self.opener[self.depth - 1] == LBRACKET:
                    self.close_container(p + i)
                elif c == RBRACE or c == RBRACKET or c == COMMA or c == COLON:
                    return self.broken(p + i, n - i)
                else:
                    self.pending = True
                    self.value.len = 0
                    self.scalar_at = self.carried.text.len
                    self.stage = GM_SCALAR
                    continue
            elif c == COMMA:                    # GM_AFTER
                self.marker_held_at = -1        # (a marker held in the string before: its text)
                self.carry(p + i, 1)
                self.stage = GM_KEY if self.opener[self.depth - 1] == LBRACE else GM_VALUE
            elif (c == RBRACE or c == RBRACKET) and self.opener[self.depth - 1] == c - 2:
                self.marker_held_at = -1
                self.close_container(p + i)     # (`}` and `]` are their openers + 2)
            else:
                return self.broken(p + i, n - i)
            i += 1
            if self.done:
                return i
        return -1

    cdef int quote(self, const unsigned char* p, Py_ssize_t n) except -1:
        """`<|"|>`: opens a string where a value may start, closes the open one."""
        if self.stage == GM_VALUE:
            self.string_as = self.read_as()
            self.begin_value()
            self.value.len = 0
            if not self.string_as:
                bb_push(&self.fragment, QUOTE)
            self.pending = False
            self.stage = GM_STRING
        elif self.stage == GM_STRING:
            if self.string_as:
                self.write_held_string(True)
            else:
                bb_push(&self.fragment, QUOTE)
            self.stage = GM_AFTER
        elif self.stage == GM_SCALAR:
            self.write_unopened_string()
        elif self.stage == GM_KEY and not self.pending:
            self.key.len = 0                    # a quoted key opens (pending: its bytes are carried)
            self.pending = True
            self.stage = GM_QUOTED_KEY
            return self.carry(p, n)
        elif self.stage == GM_QUOTED_KEY:
            self.stage = GM_KEY                 # the key goes on, bare, to its `:`
            return self.carry(p, n)
        elif self.stage == GM_KEY and self.held:
            self.swap_held_key()
            self.write_unopened_string()
            self.swap_held_key()
            self.held = False
        elif self.stage == GM_HEAD:
            self.carry(p, n)
            self.report_carried(MW_OTHER, OT_TEXT_FOR_NAME)
            self.stage = GM_UNNAMED
            return 0
        elif self.stage == GM_UNNAMED:
            return self.sink.malformed(MW_OTHER, OT_TEXT_FOR_NAME, p, n)
        else:
            self.broken(p, n)
            return 0
        self.carry(p, n)
        self.mark = self.carried.text.len
        return 0

    cdef Py_ssize_t read_head(self, const unsigned char* p, Py_ssize_t n) except -1:
        """The head up to the arguments' opener, `{` or `(`, as read_until reads up to one byte."""
        cdef Py_ssize_t k = 0
        while k < n and p[k] != LBRACE and p[k] != LPAREN:
            k += 1
        bb_append(&self.name, p, k)
        self.carry(p, k + 1 if k < n else n)
        self.paren = k < n and p[k] == LPAREN
        return k

    cdef inline bint closes_parens(self, unsigned char c) noexcept:
        """Whether c is the `)` that closes arguments opened with `(`."""
        return c == RPAREN and self.paren and self.depth == 1

    cdef int head_done(self) except -1:
        """The arguments' `{` (or `(`) ended the head: `call:NAME` names the call, whose source is
        the head; a `{` is the first fragment. The prefix may be missing, whole (`NAME`) or its
        word only (`:NAME`, as vLLM reads it), and whitespace may stand around its `:`."""
        cdef Py_ssize_t start = vt_trim_start(self.name.data, self.name.len)
        cdef Py_ssize_t end = vt_trim_end(self.name.data, start, self.name.len)
        cdef Py_ssize_t i = start
        if end - start >= GEMMA_CALL_WORD_LEN and memcmp(self.name.data + start, GEMMA_CALL_WORD,
                                                         GEMMA_CALL_WORD_LEN) == 0:
            i += GEMMA_CALL_WORD_LEN
            i += vt_trim_start(self.name.data + i, end - i)
        if i < end and self.name.data[i] == COLON:          # (else the word is the name's own)
            start = i + 1 + vt_trim_start(self.name.data + i + 1, end - i - 1)
        for i in range(start, end):
            if _GM_NOT_IN_NAME[self.name.data[i]]:
                end = start
        if end == start:
            self.report_carried(MW_OTHER, OT_TEXT_FOR_NAME)
            self.stage = GM_UNNAMED
            return 0
        memmove(self.name.data, self.name.data + start, end - start)
        self.name.len = end - start
        self.start_call(self.carried.text.len - 1)
        self.schemas.append(self.function.parameters if self.function is not None else None)
        self.opener[0] = LBRACE
        self.written[0] = 0
        self.depth = 1
        bb_push(&self.fragment, LBRACE)
        self.mark = self.carried.text.len
        self.stage = GM_KEY
        return 0

    # -- writing --------------------------------------------------------------------------------

    cdef int flush(self) except -1:
        """What was written goes out, its source carried[0:mark] (none while a marker is held)."""
        if self.fragment.len and self.marker_held_at < 0:
            self.push_upto(self.mark)
            self.scalar_at -= self.mark         # (where a scalar being read or held began)
            self.scalar_end -= self.mark
            self.mark = 0
        return 0

    cdef object value_schema(self):
        """The schema declared where the next value of the innermost container stands, or None."""
        cdef object schema = self.schemas[self.depth - 1]
        if schema is None:
            return None
        return vt_schema_step(schema, "" if self.opener[self.depth - 1] == LBRACKET else
                              PyUnicode_DecodeUTF8(<const char*>self.key.data, self.key.len, "surrogatepass"))

    cdef int begin_value(self) except -1:
        """`, ` before a later value, and in an object `"key": `."""
        cdef int d = self.depth - 1
        if self.written[d]:
            bb_append(&self.fragment, b", ", 2)
        self.written[d] += 1
        if self.opener[d] == LBRACE:
            bb_push(&self.fragment, QUOTE)
            vt_string(self.key.data, self.key.len, &self.fragment)
            bb_append(&self.fragment, b"\": ", 3)
        return 0

    cdef int open_container(self, const unsigned char* p) except -1:
        self.schemas.append(self.value_schema())
        self.begin_value()
        self.pending = False
        bb_push(&self.fragment, p[0])
        self.opener[self.depth] = p[0]
        self.written[self.depth] = 0
        self.depth += 1
        self.stage = GM_KEY if p[0] == LBRACE else GM_VALUE
        self.carry(p, 1)
        self.mark = self.carried.text.len
        return 0

    cdef int close_container(self, const unsigned char* p) except -1:
        """The innermost container's `}` or `]` (or the arguments' `)`); the arguments' ends the
        call."""
        bb_push(&self.fragment, RBRACE if self.closes_parens(p[0]) else p[0])
        self.carry(p, 1)
        self.mark = self.carried.text.len
        self.depth -= 1
        self.schemas.pop()
        self.stage = GM_AFTER
        if self.depth == 0:
            self.flush()
            self.end_call(NULL, 0)
            self.done = True
        return 0

    cdef int read_as(self) except -1:
        """What a string opening here is read as (vt_read_as), or 0 (streamed, the string it is)."""
        cdef object schema = self.value_schema()
        return 0 if schema is None else vt_read_as(vt_kind_of(schema), schema)

    cdef int write_held_string(self, bint closed) except -1:
        """The held string's text (`value`) written: as the value it reads as where it closed and its
        text is one, else as the string it is."""
        if not (closed and vt_inside_as_declared(self.value.data, self.value.len, self.string_as, &self.fragment,
                                                 JP_MAX_DEPTH - self.depth)):
            bb_push(&self.fragment, QUOTE)
            vt_string(self.value.data, self.value.len, &self.fragment)
            bb_push(&self.fragment, QUOTE)
        self.string_as = 0
        return 0

    cdef int write_scalar(self) except -1:
        """A bare scalar ended (at the byte the caller reads next): written whole, typed."""
        self.write_value(self.carried.text.len)
        self.pending = False
        self.stage = GM_AFTER
        return 0

    cdef int write_value(self, Py_ssize_t end_mark) except -1:
        """The bare scalar in `value` written whole under `key`, typed; its source carried up to
        end_mark."""
        cdef object schema = self.value_schema()
        cdef Py_ssize_t end = vt_trim_end(self.value.data, 0, self.value.len)
        self.begin_value()
        vt_json(self.value.data, end, KIND_NONE if schema is None else vt_kind_of(schema),
                &self.fragment, JP_MAX_DEPTH - self.depth)
        self.mark = end_mark
        return 0

    cdef int hold_scalar(self) except -1:
        """An object's `,` ended a bare scalar: it waits, with its key, until the next key's `:`
        (a scalar) or a quote (a string whose opening quote is missing) says which it was."""
        self.swap_held_key()
        self.scalar_end = self.carried.text.len
        self.held = True
        self.unkeyed = False
        self.pending = False
        self.stage = GM_AFTER
        return 0

    cdef inline void swap_held_key(self) noexcept:
        cdef ByteBuf key = self.key
        self.key = self.held_key
        self.held_key = key

    cdef int write_held(self) except -1:
        """The held scalar was one: written whole under its own key, its source up to its `,`."""
        self.swap_held_key()
        self.write_value(self.scalar_end)
        self.swap_held_key()
        self.held = False
        return 0

    cdef int write_unopened_string(self) except -1:
        """A quote closed a bare value: it is a string whose opening quote is missing, its text
        all from the value's first byte (the caller carries the quote)."""
        self.begin_value()
        bb_push(&self.fragment, QUOTE)
        vt_string(self.carried.text.data + self.scalar_at, self.carried.text.len - self.scalar_at, &self.fragment)
        bb_push(&self.fragment, QUOTE)
        self.pending = False
        self.stage = GM_AFTER
        return 0

    cdef Py_ssize_t broken(self, const unsigned char* p, Py_ssize_t n) except -2:
        """The notation broke at p[0]: what was written goes out, and a key or scalar being read
        and p[0:n] are Malformed{InvalidArguments}, as is the rest of the call (held, with the
        rest, while a marker held in the string before may be its end)."""
        self.flush()
        self.carry(p, n)
        if self.marker_held_at < 0:
            self.report_carried(MW_INVALID_ARGUMENTS, OT_NONE)
        self.pending = False
        self.stage = GM_INVALID
        return -1


@cython.final
@cython.no_gc
cdef class GemmaSyntax(Syntax):
    """Gemma 4's calls in its own object notation, converted to JSON as they are read; `quote`
    is the string quote (Gemma 4's `<|"|>` unless given)."""
    cdef MarkerSet tags

    def __init__(self, ends=(), quote=GEMMA_QUOTE):
        if not isinstance(quote, str) or not quote:
            raise ValueError("GemmaSyntax: the string quote is a non-empty str")
        Syntax.__init__(self, ends)
        self.reads_types = True
        self.tags = MarkerSet((quote,))

    cdef Assembler open(self, object declared):
        return tc_opened(GemmaCall.__new__(GemmaCall), self.tags, declared)
