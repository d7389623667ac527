# The keyed assembler (SPEC §5.5): one call written as its name, then key/value tag pairs,
#     NAME<arg_key>K</arg_key><arg_value>V</arg_value>...
# right after the table's call marker (GLM, Ling, IQuest; Hy4 with `:opensource` tags). The
# name is the text before the first tag (or before the block's end), less the whitespace around
# it: the leading whitespace goes into ToolCallStart's source, the trailing is carried on (a name the
# stream's end follows, unless it was stopped for its length, is whole too: a call with no
# arguments). A name
# holding whitespace, quotes, braces or angle brackets is no name (a fenced JSON call under a
# keyed table is not a call), and a block without a name starts no call and takes no index,
# however many pairs it holds. A key is its text less the ASCII whitespace around it (which
# stays in the pair's source), as vLLM's and SGLang's keyed parsers read it. Values are not
# stripped: the templates write them between the tags as they are; but a string whose close tag
# is missing ends before its trailing whitespace's first newline, the template's between the pairs
# (tag_call.pxi's hold_space), and a key tag inside a value whose key is new ends the value
# (tag_call.pxi's top), as does a value close misspelled or cut short right before such a tag or
# the call's close (`</arg_value1>`, `</arg_value`: each spelling's stem is a tag, tag_call.pxi's
# top). The table's marker that ends
# the call becomes ToolCallEnd's source; one that only cuts it off (a new call's opener) is
# dropped by the engine.
# Two forms a syntax may also read (K2-Horizon's template writes either where a request asks):
# a type tag between a key and its value (`<ifm|arg_type>integer</ifm|arg_type>`), whose JSON
# type name types the value where the request declares none for the key; and a JSON call object
# where the name begins (`{"name": .., "arguments": ..}`, `objects`), read by the JSON call
# assembler, the call marker after it a wrapper; there a `[` opens a JSON list of such objects
# instead, each a call (read by the JSON list assembler, as SGLang's k2_horizon reads a list).
# And separators (`separators`): texts read as whitespace where whitespace may stand between the
# tags and after the name (GLM-4.5's `\n` written as two characters, a backslash and an `n`, when
# its output was escaped once more), text anywhere else; the tag scanner holds a cut one.

cdef enum KeyedTag:
    KT_KEY_OPEN = 0
    KT_KEY_CLOSE = 1
    KT_VALUE_OPEN = 2
    KT_VALUE_CLOSE = 3
    KT_TAGS = 4             # a spelling's tags; a syntax may read several spellings, in fours

cdef enum KeyedStage:
    KY_NAME = 0             # the name, before the first tag
    KY_NOT_A_NAME = 1       # the text before the first tag cannot be a name: reported as it comes
    KY_NAMELESS = 2         # a tag came with no name: the block starts no call
    KY_BETWEEN = 3          # between pairs
    KY_KEY = 4              # after the key's open tag
    KY_AFTER_KEY = 5        # after the key's close tag, before the value's open tag
    KY_VALUE = 6            # after the value's open tag
    KY_TYPE = 7             # after a type tag's open tag (type_at)
    KY_OBJECT = 8           # a JSON call object (objects)
    KY_AFTER_OBJECT = 9     # after it
    KY_LIST = 10            # a JSON list of call objects (objects): the rest of the region is the list's

cdef enum:
    KY_TYPE_NAME = 16       # a type tag's longest type name (a longer one names no type)


cdef bint[256] _KY_NOT_IN_NAME
_KY_NOT_IN_NAME[:] = [c in (QUOTE, APOSTROPHE, LBRACE, RBRACE, LESS, GREATER) for c in range(256)]


@cython.final
@cython.no_gc
cdef class KeyedCall(TagCall):
    """Assembles one keyed call: a name, then key/value tag pairs."""
    cdef int stage
    cdef Syntax syntax           # for the table terminals that are this call's end
    cdef Py_ssize_t tag_at       # where in carried the key pair being read began
    cdef Py_ssize_t name_from    # the name's first and last+1 bytes in carried (-1: no name yet)
    cdef Py_ssize_t name_to
    cdef bint name_gap           # whitespace came after the name began
    cdef int type_kind           # the Kind the key's type tag names (-1: none)
    cdef char type_name[KY_TYPE_NAME]
    cdef int type_len            # (past KY_TYPE_NAME: too long to name a type)
    cdef JsonCallAssembler object   # the JSON call object being read
    cdef JsonListAssembler calls    # the JSON list of call objects being read

    def __cinit__(self):
        self.stage = KY_NAME
        self.name_from = -1
        self.type_kind = -1

    cdef int hold_marker(self, int terminal, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        return self.hold_opener(terminal, p, n, sink)

    cdef void value_ended(self) noexcept:
        self.stage = KY_BETWEEN

    cdef int on_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef Py_ssize_t i = 0
        if self.opener_held_at >= 0:
            return self.carry(p, n)
        if self.tag_held_at >= 0 and not self.held_key_text(p, n):
            self.release_held_tag()
        if self.tag_held_at >= 0:
            return 0
        if self.stage == KY_VALUE:
            if self.close_held_at >= 0:
                i = self.held_close_text(p, n)
                if i == n:
                    return 0
            return self.value_text(p + i, n - i)
        if self.stage == KY_NAME:
            if self.name_from < 0 and (<KeyedSyntax>self.syntax).objects:
                i = u8_space_run(p, n)
                if i < n and (p[i] == LBRACE or p[i] == LBRACKET):
                    return self.open_object(p, n, i)
            return self.name_text(p, n)
        if self.stage == KY_OBJECT or self.stage == KY_AFTER_OBJECT or self.stage == KY_LIST:
            return self.object_text(p, n)
        if self.stage == KY_TYPE:
            if self.type_len + n <= KY_TYPE_NAME:
                memcpy(self.type_name + self.type_len, p, n)
            self.type_len += n
            return self.carry(p, n)
        if self.stage == KY_NOT_A_NAME:
            return self.sink.malformed(MW_OTHER, OT_TEXT_FOR_NAME, p, n)
        if self.stage == KY_KEY:
            bb_append(&self.key, p, n)
            return self.carry(p, n)
        if self.stage == KY_AFTER_KEY:
            while i < n and u8_space_len(p + i, n - i):
                i += u8_space_len(p + i, n - i)
            self.carry(p, i)
            if i == n:
                return 0
            # text where the value's tag belongs: the key is cut short of its value
            self.report_from(self.tag_at, OT_TAG_CUT_SHORT)
            self.stage = KY_BETWEEN
            p += i
            n -= i
        return self.text_between(p, n)

    cdef int name_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Text before the first tag: the name, as long as it can be one."""
        cdef Py_ssize_t base = self.carried.text.len, i = 0, w
        cdef bint named = True
        while i < n:
            w = u8_space_len(p + i, n - i)
            if w:
                self.name_gap = self.name_from >= 0
                i += w
                continue
            if self.name_gap or _KY_NOT_IN_NAME[p[i]]:
                named = False
                break
            if self.name_from < 0:
                self.name_from = base + i
            i += u8_char_len(p[i])
            if i > n:
                i = n
            self.name_to = base + i
        self.carry(p, n)
        if not named:
            self.report_carried(MW_OTHER, OT_TEXT_FOR_NAME)
            self.stage = KY_NOT_A_NAME
        return 0

    cdef int name_call(self) except -1:
        """The name is whole: the call starts (its source the whitespace before the name and
        the name; the whitespace after it stays carried)."""
        self.name.len = 0
        bb_append(&self.name, self.carried.text.data + self.name_from, self.name_to - self.name_from)
        self.start_call(self.name_to)
        self.stage = KY_BETWEEN
        return 0

    cdef int on_tag(self, int tag, const unsigned char* p, Py_ssize_t n) except -1:
        cdef int type_at = (<KeyedSyntax>self.syntax).type_at
        cdef int separator_at = (<KeyedSyntax>self.syntax).separator_at
        cdef int stem_at = (<KeyedSyntax>self.syntax).stem_at
        cdef bint own
        if self.stage == KY_OBJECT or self.stage == KY_AFTER_OBJECT or self.stage == KY_LIST:
            return self.object_text(p, n)
        if self.opener_held_at >= 0:
            own = not ((stem_at >= 0 and tag >= stem_at) or (separator_at >= 0 and tag >= separator_at)
                       or (type_at >= 0 and tag >= type_at))
            if not self.tag_after_opener(own and tag % KT_TAGS == KT_VALUE_CLOSE,
                                         own and tag % KT_TAGS == KT_KEY_OPEN, p, n):
                return 0
        if stem_at >= 0 and tag >= stem_at:
            self.release_held_tag()
            if self.stage == KY_VALUE:
                return self.hold_close_stem(p, n)
            return self.on_text(p, n)   # (outside a value the stem is text, as it was before it was a tag)
        if separator_at >= 0 and tag >= separator_at:
            return self.separator(p, n)
        if type_at >= 0 and tag >= type_at:
            if self.stage == KY_VALUE:
                return self.on_text(p, n)        # (a type tag in a value is its text)
            return self.type_tag(tag - type_at, p, n)
        tag %= KT_TAGS              # any spelling's tag is that tag
        if self.tag_held_at >= 0:
            if tag == KT_KEY_CLOSE:
                self.carry(p, n)
                return self.key_decides()
            self.release_held_tag()     # (another tag cuts the held key off: it was no key)
        if self.stage == KY_VALUE:
            if tag == KT_KEY_OPEN:
                return self.hold_parameter_tag(p, n)    # a key tag in a value: its key decides
            self.release_held_close()
            if tag == KT_VALUE_CLOSE:
                self.close_value(p, n)
                self.stage = KY_BETWEEN
                return 0
            return self.value_text(p, n)
        if self.stage == KY_NAME:
            if self.name_from >= 0:
                self.name_call()
            else:
                self.stage = KY_NAMELESS
        elif self.stage == KY_NOT_A_NAME:
            self.stage = KY_NAMELESS
        if self.stage == KY_NAMELESS:
            return self.tag_out_of_place(p, n)
        if self.stage == KY_KEY:
            if tag == KT_KEY_CLOSE:
                self.carry(p, n)
                vt_trim_ascii_space(&self.key)     # the spacing around a key is the model's (carried)
                if self.key.len == 0:
                    self.report_from(self.tag_at, OT_KEY_WITHOUT_TEXT)
                    self.stage = KY_BETWEEN
                else:
                    self.stage = KY_AFTER_KEY
                return 0
            self.report_from(self.tag_at, OT_TAG_CUT_SHORT)
            self.stage = KY_BETWEEN
        elif self.stage == KY_AFTER_KEY:
            if tag == KT_VALUE_OPEN:
                self.carry(p, n)
                self.stage = KY_VALUE
                return self.open_typed_value()
            self.report_from(self.tag_at, OT_TAG_CUT_SHORT)
            self.stage = KY_BETWEEN
        elif self.stage == KY_TYPE:
            self.report_from(self.tag_at, OT_TAG_CUT_SHORT)
            self.stage = KY_BETWEEN
        # between pairs
        if tag == KT_KEY_OPEN:
            self.tag_at = self.carried.text.len
            self.carry(p, n)
            self.key.len = 0
            self.type_kind = -1
            self.stage = KY_KEY
            return 0
        return self.tag_out_of_place(p, n)

    cdef int key_decides(self) except -1:
        """The held key tag is whole, its close carried: a new key (tag_call.pxi's top) ends the
        open value, whose close tag is missing, where the tag begins, and the pair goes on to its
        value's tag; any other key leaves all that was held the value's text."""
        vt_trim_ascii_space(&self.held_key)     # (a key is read less the whitespace around it)
        if not self.new_key(self.held_key.data, self.held_key.len):
            return self.release_held_tag()
        self.tag_at = self.held_tag_opens_parameter()
        self.type_kind = -1
        self.stage = KY_AFTER_KEY
        return 0

    cdef int separator(self, const unsigned char* p, Py_ssize_t n) except -1:
        """A separator (`separators`): whitespace between the tags and after the name, where it
        is carried as whitespace is; text anywhere else."""
        if self.stage == KY_BETWEEN or self.stage == KY_AFTER_KEY:
            return self.carry(p, n)
        if self.stage == KY_NAME:
            self.name_gap = self.name_from >= 0
            return self.carry(p, n)
        return self.on_text(p, n)

    # -- a type tag between a key and its value ---------------------------------------------------

    cdef int type_tag(self, int which, const unsigned char* p, Py_ssize_t n) except -1:
        """The type tag's open (which 0) or close (1) tag, outside a value."""
        if which == 0 and self.stage == KY_AFTER_KEY and self.type_kind < 0:
            self.carry(p, n)
            self.type_len = 0
            self.stage = KY_TYPE
            return 0
        if which == 1 and self.stage == KY_TYPE:
            self.carry(p, n)
            self.type_kind = self.named_kind()
            self.stage = KY_AFTER_KEY
            return 0
        if self.stage == KY_AFTER_KEY or self.stage == KY_TYPE or self.stage == KY_KEY:
            self.report_from(self.tag_at, OT_TAG_CUT_SHORT)
            self.stage = KY_BETWEEN
        elif self.stage == KY_NAME:
            if self.name_from >= 0:
                self.name_call()
            else:
                self.stage = KY_NAMELESS
        elif self.stage == KY_NOT_A_NAME:
            self.stage = KY_NAMELESS
        return self.tag_out_of_place(p, n)

    cdef int named_kind(self) except -1:
        """The Kind of the JSON type the type tag names, its whitespace aside (KIND_NONE: one
        that types no text, such as `boolean`, or none)."""
        cdef Py_ssize_t start = 0, end = self.type_len
        if end > KY_TYPE_NAME:
            return KIND_NONE
        while start < end and self.type_name[start] in b" \t\r\n":
            start += 1
        while end > start and self.type_name[end - 1] in b" \t\r\n":
            end -= 1
        found = _VT_TYPE_KINDS.get(PyUnicode_DecodeUTF8(self.type_name + start, end - start, "replace"))
        return KIND_NONE if found is None else <int>found

    cdef int open_typed_value(self) except -1:
        """The value begins, typed as the tools declare its key, else as its type tag says."""
        if self.type_kind >= 0 and (self.function is None or not self.function.declares(self.key.data, self.key.len)):
            return self.open_value_as(self.type_kind, True)
        return self.open_value()

    # -- a JSON call object (objects) ---------------------------------------------------------------

    cdef int open_object(self, const unsigned char* p, Py_ssize_t n, Py_ssize_t at) except -1:
        """A `{` or `[` where the name begins: the whitespace before it is a wrapper, the object a
        call read by the JSON call assembler, the list calls read by the JSON list assembler."""
        self.carry(p, at)
        self.drop_carried()
        if p[at] == LBRACKET:
            self.calls = JsonListAssembler()
            self.calls.keys = OL_KEYS_CALL
            self.calls.typed_by = self.declared
            self.stage = KY_LIST
        else:
            self.object = aj_typed(aj_opened(OL_KEYS_CALL, None, None), self.declared)
            self.stage = KY_OBJECT
        return self.object_text(p + at, n - at)

    cdef int object_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Bytes of the object (tags in it are its text), or after it: whitespace is carried to
        the call's end, anything else is text where the block holds none."""
        cdef Py_ssize_t i = 0
        if self.stage == KY_LIST:
            self.calls.feed(p, n, self.sink)      # (a list takes all: what follows it is its text)
            return 0
        if self.stage == KY_OBJECT:
            i = self.object.feed(p, n, self.sink)
            if not self.object.done:
                return 0
            self.object = None
            self.stage = KY_AFTER_OBJECT
        return self.text_runs(p + i, n - i, OT_TEXT_AFTER_OBJECT)

    cdef int object_ends(self, bint complete) except -1:
        """The region ends in or after the object."""
        self.take_scanner_held()
        if self.stage == KY_OBJECT:
            self.object.finish(self.sink, complete)
            self.object = None
        elif self.stage == KY_LIST:
            self.calls.finish(self.sink, complete)
            self.calls = None
        self.drop_carried()
        self.stage = KY_AFTER_OBJECT
        return 0

    cdef int finish(self, Sink sink, bint complete) except -1:
        if self.stage == KY_OBJECT or self.stage == KY_AFTER_OBJECT or self.stage == KY_LIST:
            self.sink = sink
            self.object_ends(complete)
            self.done = True
            return 0
        if complete and self.stage == KY_NAME and self.name_from >= 0 and not self.done:
            # the stream ended (not for its length) after a name and no tag: the call with no
            # arguments its close would have made (`<tool_call>get_time`, the close left out or
            # taken as a stop string), as vLLM's glm45/glm47 read it
            self.sink = sink
            self.done = True
            self.close_block(-1, NULL, 0)
            return 0
        return TagCall.finish(self, sink, complete)

    cdef int close_block(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        cdef bint own_end = self.syntax is not None and self.syntax.is_end(terminal)
        self.release_held_tag()
        if terminal < 0:
            self.release_held_close()   # (the stream's end: a held close was the value's text)
        if self.stage == KY_OBJECT or self.stage == KY_AFTER_OBJECT or self.stage == KY_LIST:
            self.object_ends(True)
            return 0            # (the object ended its call: the marker is a wrapper)
        if not own_end:
            p = NULL
            n = 0
        if self.stage == KY_NAME:
            self.name_text(self.tags.held.data, self.tags.held.len)
            self.tags.held.len = 0
            if self.stage == KY_NAME and self.name_from >= 0:
                self.name_call()
                self.close_object()
                self.end_call(p, n)
                return own_end
        if not self.started():
            # no name: the block and the marker that ends it are reported
            self.take_scanner_held()
            self.carry(p, n)
            self.report_carried(MW_OTHER, OT_BLOCK_WITHOUT_NAME)
            return own_end
        if terminal >= 0:
            if self.stage == KY_VALUE:
                self.hold_scanner_stem((<KeyedSyntax>self.syntax).stem_at, self.tags.markers.size)
            self.value_cut_by_close()
        self.close_started(self.stage == KY_BETWEEN, OT_TAG_CUT_SHORT, p, n)
        return own_end


@cython.final
@cython.no_gc
cdef class KeyedSyntax(Syntax):
    """A name, then key/value tag pairs (the four tags given in order: key open, key close, value
    open, value close; more spellings of them may follow, four by four). `type_tags`: the open
    and close of a type tag that may stand between a key and its value; `objects`: a JSON call
    object may stand for the name and pairs; `separators`: texts read as whitespace between the
    tags and after the name."""
    cdef MarkerSet tags
    cdef int type_at                 # the type tags' place in `tags`, or -1
    cdef int separator_at            # the separators' place in `tags` (after the type tags), or -1
    cdef int stem_at                 # the value close tags' stems' place in `tags` (the last), or -1
    cdef readonly bint objects

    def __init__(self, tags, ends=(), type_tags=(), bint objects=False, separators=(), openers=()):
        Syntax.__init__(self, ends, openers=openers)
        if not tags or len(tags) % KT_TAGS or not all(tags):
            raise ValueError(f"keyed syntax: tags with text, four per spelling, got {tags!r}")
        type_tags = tuple(type_tags)
        if type_tags and (len(type_tags) != 2 or not all(type_tags)):
            raise ValueError(f"keyed syntax: a type tag is an open and a close tag with text, got {type_tags!r}")
        separators = tuple(separators)
        if not all(separators):
            raise ValueError(f"keyed syntax: separators with text, got {separators!r}")
        stems = tc_close_stems(tuple(tags)[KT_VALUE_CLOSE::KT_TAGS])      # (the last tags)
        self.tags = MarkerSet(tuple(tags) + type_tags + separators + stems)
        self.type_at = len(tags) if type_tags else -1
        self.separator_at = len(tags) + len(type_tags) if separators else -1
        self.stem_at = len(tags) + len(type_tags) + len(separators) if stems else -1
        self.objects = objects
        self.reads_types = True

    cdef Assembler open(self, object declared):
        cdef KeyedCall call = KeyedCall.__new__(KeyedCall)
        call.syntax = self
        call.hold_space = True
        return tc_opened(call, self.tags, declared)
