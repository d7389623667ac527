# The keyed assembler (SPEC §5.5): one call written as its name, then key/value tag pairs,
#     NAME<arg_key>K</arg_key><arg_value>V</arg_value>...
# right after the table's call marker (GLM, Ling, IQuest; Hy4 with `:opensource` tags). The
# name is the text before the first tag (or before the block's end), less the whitespace around
# it: the leading whitespace goes into ToolCallStart's source, the trailing is carried on. A name
# holding whitespace, quotes, braces or angle brackets is no name (a fenced JSON call under a
# keyed table is not a call), and a block without a name starts no call and takes no index,
# however many pairs it holds. Values are not stripped: the templates write them between the
# tags as they are. The table's marker that ends the call becomes ToolCallEnd's source; one that
# only cuts it off (a new call's opener) is dropped by the engine.

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

    def __cinit__(self):
        self.stage = KY_NAME
        self.name_from = -1

    cdef int on_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef Py_ssize_t i = 0
        if self.stage == KY_VALUE:
            return self.value_text(p, n)
        if self.stage == KY_NAME:
            return self.name_text(p, n)
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
        tag %= KT_TAGS              # any spelling's tag is that tag
        if self.stage == KY_VALUE:
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
                return self.open_value()
            self.report_from(self.tag_at, OT_TAG_CUT_SHORT)
            self.stage = KY_BETWEEN
        # between pairs
        if tag == KT_KEY_OPEN:
            self.tag_at = self.carried.text.len
            self.carry(p, n)
            self.key.len = 0
            self.stage = KY_KEY
            return 0
        return self.tag_out_of_place(p, n)

    cdef int close_block(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        cdef bint own_end = self.syntax is not None and self.syntax.is_end(terminal)
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
        self.close_started(self.stage == KY_BETWEEN, OT_TAG_CUT_SHORT, p, n)
        return own_end


@cython.final
@cython.no_gc
cdef class KeyedSyntax(Syntax):
    """A name, then key/value tag pairs (the four tags given in order: key open, key close, value
    open, value close; more spellings of them may follow, four by four)."""
    cdef MarkerSet tags

    def __init__(self, tags, ends=()):
        Syntax.__init__(self, ends)
        if not tags or len(tags) % KT_TAGS or not all(tags):
            raise ValueError(f"keyed syntax: tags with text, four per spelling, got {tags!r}")
        self.tags = MarkerSet(tuple(tags))
        self.reads_types = True

    cdef Assembler open(self, object declared):
        cdef KeyedCall call = KeyedCall.__new__(KeyedCall)
        call.syntax = self
        return tc_opened(call, self.tags, declared)
