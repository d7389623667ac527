# The XML assembler (SPEC §5.8, MiniMax M3): one invoke, after the table's `<invoke name="`,
#     NAME">
#     <city>Paris</city>
#     <tags><item>a</item><item>b</item></tags>
#     <meta><deep><item>1</item><item></item></deep></meta>
# an element tree. A tag is `<`, name characters (Unicode letters and digits, `_ - . :`; a
# leading `/` closes), `>`; a `<` followed by anything else is text. An element whose content
# starts with text is a leaf, written whole (or streamed, when declared a string) and typed by
# the Kind the tools declare at its path; one whose content starts with a tag is a container: a
# list where the tools declare an array (or, undeclared, when its first child is `<item>`), else
# an object. An empty element is `[]`/`{}` when declared so, `""` where declared otherwise and at
# the top, `null` below the top when nothing is declared there. Whitespace right after an opening
# tag waits until the content decides: a leaf's text, or a container's template spacing. Inside a
# leaf only its own close tag is a tag. The separators the table ignores are handed in by the
# engine and kept in their place among held bytes. In a leaf, whitespace written after a
# separator waits too (`Paris]<]minimax[>[\n</city>`, as SGLang's minimax_m3 reads it): the leaf's
# close tag (or the invoke's end) right after makes it the tag's spacing, with the separator; text,
# another tag, another separator or the end of the output make it the value's text.
#
# A leaf at the top whose close tag is missing ends at the next parameter's opening tag, where the
# function is declared and its schema names that parameter, which the call has not written
# (`<city>Paris<days>3</days>`: `city` = `Paris`, `days` = 3); any other tag in a leaf is its text.
#
# A child written again right after its sibling of the same name, in an object (the arguments
# object too), is a list under that name: `<tag>a</tag><tag>b</tag>` is `"tag": ["a", "b"]`
# (a run). A member written whole (a leaf not streamed, an empty element) is held after its close
# tag until the next sibling's tag names it or another, or its parent closes; a member that
# streamed (a container, a declared string) cannot become a list's first item, and its repeat is
# the member written again. Whitespace and separators between the two keep it a run; other text
# ends it. Once a run is open, each further repeat is written as its next item.

cdef enum XmlStage:
    XM_NAME = 0              # the function name, up to its `"`
    XM_NAME_TAIL = 1         # after the name's `"`, up to the tag's `>`
    XM_UNNAMED = 2           # the invoke tag named nothing: the block starts no call
    XM_BODY = 3              # the element tree

cdef enum ElementState:
    EL_PENDING = 0           # just opened: its first content decides what it is
    EL_LEAF = 1
    EL_LIST = 2
    EL_OBJECT = 3

cdef bint[256] _XM_NAME_BYTE
_XM_NAME_BYTE[:] = [(48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122) or c in (UNDERSCORE, MINUS, DOT, COLON)
                    for c in range(256)]


cdef Py_UCS4 xm_code_point(const unsigned char* p, Py_ssize_t n) noexcept:
    """The code point of the UTF-8 character at p (0 when cut short)."""
    cdef Py_ssize_t k = u8_char_len(p[0]), i
    cdef unsigned int cp
    if k > n or k == 1:
        return <Py_UCS4>(p[0] if k == 1 else 0)
    cp = p[0] & (0x1F if k == 2 else (0x0F if k == 3 else 0x07))
    for i in range(1, k):
        cp = (cp << 6) | (p[i] & 0x3F)
    return <Py_UCS4>cp


@cython.final
@cython.internal
@cython.no_gc
cdef class XmlElement:
    """An open element: its name, the schema the tools declare at its path (or None), what it is."""
    cdef bytes name
    cdef object schema
    cdef int state
    cdef int members         # children written, for a container
    cdef bytes run           # the name of the run whose list is open among its children, or None


@cython.final
@cython.no_gc
cdef class XmlCall(TagCall):
    """Assembles one MiniMax invoke: a name, then an element tree."""
    cdef int stage
    cdef Syntax syntax           # for the table terminal that is the invoke's end
    cdef Py_ssize_t tail_at      # where in carried the invoke tag's tail began
    cdef list elements           # the open elements, outermost first
    cdef bint in_tag             # a tag is being read (its bytes in `tag`)
    cdef ByteBuf tag
    cdef ByteBuf pending_ws      # whitespace after an opening tag, until the content decides (in
                                 # a leaf: after a separator, until a tag decides)
    cdef bint leaf_separated     # a separator came in a leaf, and no text after it yet
    cdef XmlElement arguments    # the arguments object, for its run (it is no element of the tree)
    cdef int runs                # the runs whose lists are open: each nests what is in it a level deeper
    cdef bint holding            # a member written whole is held after its close tag (see the top)
    cdef bint held_leaf          # ... a leaf, its value still in `value`; else its JSON in `held_json`
    cdef bytes held_name
    cdef Py_ssize_t held_upto    # where its source ends in carried
    cdef ByteBuf held_json

    def __cinit__(self):
        self.stage = XM_NAME
        self.elements = []
        self.arguments = XmlElement.__new__(XmlElement)

    def __dealloc__(self):
        bb_free(&self.tag)
        bb_free(&self.pending_ws)
        bb_free(&self.held_json)

    # -- the invoke tag -------------------------------------------------------------------------

    cdef int on_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef Py_ssize_t k
        if self.stage == XM_BODY:
            return self.body_text(p, n)
        if self.stage == XM_UNNAMED:
            return self.text_between(p, n)
        if self.stage == XM_NAME:
            k = self.read_until(p, n, QUOTE, &self.name)
            if k == n:
                return 0
            self.tail_at = self.carried.text.len
            self.stage = XM_NAME_TAIL
            return self.on_text(p + k + 1, n - k - 1)
        k = self.read_until(p, n, GREATER, NULL)
        if k == n:
            return 0
        self.invoke_tag_done()
        return self.on_text(p + k + 1, n - k - 1)

    cdef int invoke_tag_done(self) except -1:
        """`>` ended the invoke tag: the call starts, its source the name and its quote; the `>`
        goes with what follows."""
        cdef Py_ssize_t tail = self.carried.text.len - 1 - self.tail_at
        cdef const unsigned char* src
        cdef Py_ssize_t n
        if self.name.len == 0:
            self.report_carried(MW_OTHER, OT_INVOKE_WITHOUT_NAME)
            self.stage = XM_UNNAMED
            return 0
        self.start_call(self.tail_at)
        if tail:
            hb_source(&self.carried, 0, tail, &self.scratch, &src, &n)
            self.sink.malformed(MW_OTHER, OT_TEXT_AFTER_NAME, src, n)
            hb_drop_front(&self.carried, tail)
        self.stage = XM_BODY
        return 0

    # -- the element tree -----------------------------------------------------------------------

    cdef int body_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Text of the tree: tags found byte by byte (a tag may arrive in pieces), text between."""
        cdef Py_ssize_t i = 0, k, w
        cdef const unsigned char* lt
        cdef unsigned char c
        while i < n:
            if self.in_tag:
                c = p[i]
                if c == GREATER and self.tag.len > (2 if self.tag.len >= 2 and self.tag.data[1] == SLASH else 1):
                    bb_push(&self.tag, c)
                    i += 1
                    self.in_tag = False
                    self.tag_read()
                    continue
                if c == SLASH and self.tag.len == 1:
                    bb_push(&self.tag, c)
                    i += 1
                    continue
                w = u8_char_len(c)
                if w > n - i:
                    w = n - i
                if _XM_NAME_BYTE[c] or (c >= 0x80 and Py_UNICODE_ISALNUM(xm_code_point(p + i, n - i))):
                    bb_append(&self.tag, p + i, w)
                    i += w
                    continue
                self.tag_as_text()
                continue
            lt = <const unsigned char*>memchr(p + i, LESS, n - i)
            k = (lt - p) if lt != NULL else n
            if k > i:
                self.element_text(p + i, k - i)
            if k == n:
                return 0
            self.tag.len = 0
            bb_push(&self.tag, LESS)
            self.in_tag = True
            i = k + 1
        return 0

    cdef int tag_as_text(self) except -1:
        """What looked like a tag's start is text after all."""
        self.in_tag = False
        return self.element_text(self.tag.data, self.tag.len)

    cdef inline XmlElement innermost(self):
        return <XmlElement>self.elements[len(self.elements) - 1] if self.elements else None

    cdef inline bint in_leaf(self):
        return self.stage == XM_BODY and self.elements and self.innermost().state == EL_LEAF

    cdef int element_text(self, const unsigned char* p, Py_ssize_t n) except -1:
        cdef XmlElement element = self.innermost()
        cdef Py_ssize_t j = 0
        if element is None or element.state == EL_LIST or element.state == EL_OBJECT:
            if (self.holding or self.runs) and u8_space_run(p, n) < n:
                self.run_broken()
            return self.text_between(p, n)
        if element.state == EL_LEAF and not self.leaf_separated:
            return self.value_text(p, n)
        # pending, or a leaf after a separator: whitespace waits, anything else makes it the value's
        while j < n and u8_space_len(p + j, n - j):
            j += u8_space_len(p + j, n - j)
        bb_append(&self.pending_ws, p, j)
        if j < n:
            if element.state == EL_LEAF:
                self.release_separated()
            else:
                self.make_leaf(element)
            self.value_text(p + j, n - j)
        return 0

    cdef int release_separated(self) except -1:
        """No tag came after a leaf's separator: the whitespace held after it is the value's."""
        self.leaf_separated = False
        self.value_text(self.pending_ws.data, self.pending_ws.len)
        self.pending_ws.len = 0
        return 0

    cdef int make_leaf(self, XmlElement element) except -1:
        """A pending element turns out a leaf: its held whitespace is its text's start."""
        element.state = EL_LEAF
        self.open_value_as(KIND_NONE if element.schema is None else vt_kind_of(element.schema),
                           len(self.elements) == 1)
        if self.pending_ws.len:
            self.value_text(self.pending_ws.data, self.pending_ws.len)
            self.pending_ws.len = 0
        return 0

    cdef inline XmlElement parent(self):
        """The innermost element's parent, None at the top."""
        cdef Py_ssize_t depth = len(self.elements)
        return <XmlElement>self.elements[depth - 2] if depth >= 2 else None

    cdef int begin_member(self) except -1:
        return self.member_in(self.parent())

    cdef int member_in(self, XmlElement parent) except -1:
        """The prefix of the value of the member named `key` in `parent` (None: the arguments
        object): `, ` after the items of an open run (the member is its next item), a key in an
        object, none in a list."""
        if (self.arguments if parent is None else parent).run is not None:
            return bb_append(&self.fragment, b", ", 2)
        if parent is None:
            return TagCall.begin_member(self)
        if parent.members:
            bb_append(&self.fragment, b", ", 2)
        parent.members += 1
        if parent.state == EL_OBJECT:
            bb_push(&self.fragment, QUOTE)
            vt_string(self.key.data, self.key.len, &self.fragment)
            bb_append(&self.fragment, b"\": ", 3)
        return 0

    cdef int tag_read(self) except -1:
        """A whole tag is in `tag`: open, close, or (inside a leaf) the leaf's text."""
        cdef bint closing = self.tag.len >= 2 and self.tag.data[1] == SLASH
        cdef Py_ssize_t at = 2 if closing else 1
        cdef bytes name = PyBytes_FromStringAndSize(<const char*>self.tag.data + at, self.tag.len - at - 1)
        cdef XmlElement element = self.innermost()
        cdef Py_ssize_t i
        if element is not None and element.state == EL_LEAF:
            if closing and name == element.name:
                # whitespace held after a separator is the close tag's spacing
                self.leaf_separated = False
                self.carry(self.pending_ws.data, self.pending_ws.len)
                self.pending_ws.len = 0
                return self.close_leaf(True)
            if not closing and len(self.elements) == 1 and self.declared_new_key(name):
                # the next parameter's tag: the leaf's close tag is missing (see the top)
                self.leaf_separated = False
                self.carry(self.pending_ws.data, self.pending_ws.len)
                self.pending_ws.len = 0
                self.close_leaf(False)
                element = None
            else:
                if self.leaf_separated:
                    self.release_separated()
                return self.value_text(self.tag.data, self.tag.len)
        if self.holding:
            self.settle(None if closing else name)
        if not closing:
            if element is not None and element.state == EL_PENDING:
                if len(self.elements) + self.runs >= JP_MAX_DEPTH - 1:
                    # a container this deep would nest the arguments beyond what the prefix
                    # validator reads: the element is a leaf, its tags its text
                    self.make_leaf(element)
                    return self.value_text(self.tag.data, self.tag.len)
                self.make_container(element, name)
            else:
                self.end_run_before(element, name)
            return self.open_element(name, element)
        if element is None:
            return self.tag_out_of_place(self.tag.data, self.tag.len)
        for i in range(len(self.elements) - 1, -1, -1):
            if (<XmlElement>self.elements[i]).name == name:
                break
        else:
            return self.tag_out_of_place(self.tag.data, self.tag.len)
        while len(self.elements) > i + 1:
            self.cut_innermost()
        return self.close_element(self.innermost())

    cdef int tag_out_of_place(self, const unsigned char* p, Py_ssize_t n) except -1:
        """Whitespace a pending element holds came before the stray tag: it goes out first."""
        self.run_broken()
        self.carry(self.pending_ws.data, self.pending_ws.len)
        self.pending_ws.len = 0
        return TagCall.tag_out_of_place(self, p, n)

    cdef int open_element(self, bytes name, XmlElement parent) except -1:
        cdef XmlElement element = XmlElement.__new__(XmlElement)
        cdef object schema = self.function.parameters if self.function is not None else None
        if parent is not None:
            schema = parent.schema
        element.name = name
        element.schema = None if schema is None else vt_schema_step(schema, name.decode("utf-8", "surrogatepass"))
        element.state = EL_PENDING
        self.elements.append(element)
        self.key.len = 0
        bb_append(&self.key, <const unsigned char*>(<char*>name), len(name))
        if parent is None:
            self.note_written()
        self.pending_ws.len = 0
        return self.carry(self.tag.data, self.tag.len)

    cdef int value_depth(self) noexcept:
        """Below the arguments object, each open container takes a level too, and each open run's
        list."""
        return JP_MAX_DEPTH - len(self.elements) - self.runs

    cdef int make_container(self, XmlElement element, bytes first_child) except -1:
        """A pending element's content starts with a tag: it is a list or an object, and its
        opening bracket goes out (its held whitespace is the template's)."""
        cdef int kind = KIND_NONE if element.schema is None else vt_kind_of(element.schema)
        if kind == KIND_ARRAY or (kind != KIND_OBJECT and first_child == b"item"):
            element.state = EL_LIST
        else:
            element.state = EL_OBJECT
        self.carry(self.pending_ws.data, self.pending_ws.len)
        self.pending_ws.len = 0
        self.key.len = 0
        bb_append(&self.key, <const unsigned char*>(<char*>element.name), len(element.name))
        self.begin_member()
        bb_push(&self.fragment, LBRACKET if element.state == EL_LIST else LBRACE)
        return self.push()

    cdef int close_element(self, XmlElement element) except -1:
        """The innermost element's own close tag (in `tag`), for a pending element or a container."""
        self.key.len = 0
        bb_append(&self.key, <const unsigned char*>(<char*>element.name), len(element.name))
        if element.state == EL_PENDING and self.pending_ws.len:
            self.make_leaf(element)
            return self.close_leaf(True)
        self.carry(self.tag.data, self.tag.len)
        if element.state == EL_PENDING and self.holds_member():
            self.held_json.len = 0
            self.empty_value(element, &self.held_json)
            self.elements.pop()
            return self.hold(element.name, False)
        if element.state == EL_PENDING:
            self.begin_member()
            self.empty_value(element, &self.fragment)
        else:
            self.end_run(element)
            bb_push(&self.fragment, RBRACKET if element.state == EL_LIST else RBRACE)
        self.elements.pop()
        return self.push()

    cdef int empty_value(self, XmlElement element, ByteBuf* into) except -1:
        """What the innermost element written empty is, from where it stands."""
        cdef int kind = KIND_NONE if element.schema is None else vt_kind_of(element.schema)
        if kind == KIND_ARRAY:
            return bb_append(into, b"[]", 2)
        if kind == KIND_OBJECT:
            return bb_append(into, b"{}", 2)
        if element.schema is not None or len(self.elements) == 1:
            return bb_append(into, b"\"\"", 2)
        return bb_append(into, b"null", 4)

    cdef int close_leaf(self, bint tagged) except -1:
        """The innermost leaf ends, at its close tag (in `tag`) when `tagged`, else where the
        next parameter's tag begins: its value is written, or held with its source when written
        whole where a repeat of it would make a run."""
        cdef XmlElement element = self.innermost()
        if self.mode == VM_STREAM or self.wrapper or not self.holds_member():
            if tagged:
                self.close_value(self.tag.data, self.tag.len)
            else:
                self.close_value_upto(self.carried.text.len)
            self.elements.pop()
            return 0
        if tagged:
            self.carry(self.tag.data, self.tag.len)
        self.elements.pop()
        return self.hold(element.name, True)

    cdef bint declared_new_key(self, bytes name) except -1:
        """Whether an opening tag `name` inside a top-level leaf is the next parameter's: the
        function is declared, its schema names `name`, and the call has not written it."""
        cdef const unsigned char* key = <const unsigned char*>(<char*>name)
        return (self.function is not None and self.function.properties is not None
                and self.new_key(key, len(name)))

    # -- runs of repeated members (see the top) -------------------------------------------------

    cdef bint holds_member(self) except -1:
        """Whether the innermost element, closing, may be the first of a run: its parent is an
        object with no run open (an open one already holds it as an item)."""
        cdef XmlElement parent = self.parent()
        if parent is None:
            return self.arguments.run is None
        return parent.state == EL_OBJECT and parent.run is None

    cdef int hold(self, bytes name, bint leaf) except -1:
        """The member `name` just closed (its source all carried) waits for what follows it."""
        self.holding = True
        self.held_leaf = leaf
        self.held_name = name
        self.held_upto = self.carried.text.len
        return 0

    cdef int settle(self, bytes next_name) except -1:
        """The held member meets what follows it: the tag of a sibling of its name (`next_name`)
        opens a run, the held member its first item; anything else writes it as the member it
        is. Separators right after its close go as they go after any member written: Dropped."""
        cdef XmlElement parent = self.innermost()
        cdef XmlElement owner = self.arguments if parent is None else parent
        self.holding = False
        self.key.len = 0
        bb_append(&self.key, <const unsigned char*>(<char*>self.held_name), len(self.held_name))
        self.member_in(parent)
        if next_name is not None and next_name == self.held_name:
            bb_push(&self.fragment, LBRACKET)
            owner.run = self.held_name
            self.runs += 1
        if self.held_leaf:
            self.write_whole(self.value_depth() - 1)        # (counting its element, closed since)
            self.value_closed()
        else:
            bb_append(&self.fragment, self.held_json.data, self.held_json.len)
        self.push_marked(self.held_upto, self.held_upto)
        return self.drop_leading_separators()

    cdef int drop_leading_separators(self) except -1:
        """Separators carried before any carried byte: Dropped, as keep_separator drops one."""
        cdef const unsigned char* p
        cdef Py_ssize_t n
        while hb_next_mark_at(&self.carried) == 0:
            hb_next_mark(&self.carried, &p, &n)
            self.sink.dropped(DR_WRAPPER, p, n)
        if not self.carried.text.len and not hb_has_marks(&self.carried):
            hb_clear(&self.carried)
        return 0

    cdef int run_broken(self) except -1:
        """What follows a member is no sibling's tag, whitespace or separator: a run ends there."""
        if self.holding:
            return self.settle(None)
        return self.end_run(self.arguments if self.innermost() is None else self.innermost())

    cdef int end_run_before(self, XmlElement parent, bytes name) except -1:
        """A child `name` opens in `parent` (None: the arguments object): a run of another name
        ends before it."""
        cdef XmlElement owner = self.arguments if parent is None else parent
        if owner.run is not None and owner.run != name:
            return self.end_run(owner)
        return 0

    cdef int end_run(self, XmlElement owner) except -1:
        """The run open among `owner`'s children ends: `]`, written with the next fragment."""
        if owner.run is not None:
            bb_push(&self.fragment, RBRACKET)
            owner.run = None
            self.runs -= 1
        return 0

    cdef int cut_innermost(self) except -1:
        """An outer element closed while this one was open: a container closes for the client; a
        pending element (nothing written) is reported cut short."""
        cdef XmlElement element = self.innermost()
        if element.state == EL_PENDING:
            self.carry(self.pending_ws.data, self.pending_ws.len)
            self.pending_ws.len = 0
            self.report_carried(MW_OTHER, OT_TAG_CUT_SHORT)
        else:
            self.end_run(element)
            bb_push(&self.fragment, RBRACKET if element.state == EL_LIST else RBRACE)
            self.push()
        self.elements.pop()
        return 0

    # -- endings --------------------------------------------------------------------------------

    cdef int take_held(self) except -1:
        """Whitespace waiting and a tag being read (which came after it) join what is carried."""
        self.carry(self.pending_ws.data, self.pending_ws.len)
        self.pending_ws.len = 0
        if self.in_tag:
            self.carry(self.tag.data, self.tag.len)
            self.in_tag = False
        return 0

    cdef int finish(self, Sink sink, bint complete) except -1:
        self.sink = sink
        if not self.done:
            if self.leaf_separated:
                self.release_separated()
            if self.holding:
                self.settle(None)
            self.take_held()
        return TagCall.finish(self, sink, complete)

    cdef int ignored(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        self.sink = sink
        if not self.done:
            # a separator cuts a tag being read (its start is text), and whitespace waiting
            # keeps its place before it
            if self.in_tag:
                self.tag_as_text()
            if self.leaf_separated:
                self.release_separated()
            if self.pending_ws.len:
                self.carry(self.pending_ws.data, self.pending_ws.len)
                self.pending_ws.len = 0
            self.leaf_separated = self.in_leaf()
        return TagCall.ignored(self, p, n, sink)

    cdef int close_block(self, int terminal, const unsigned char* p, Py_ssize_t n) except -1:
        cdef bint own_end = self.syntax is not None and self.syntax.is_end(terminal)
        cdef XmlElement element = self.innermost()
        if not self.started():
            # the marker that ends an invoke that never started is part of what it reports
            self.take_held()
            self.carry(p, n)
            self.report_carried(MW_OTHER, OT_INVOKE_BLOCK_WITHOUT_NAME)
            return 1
        if not own_end:
            p = NULL
            n = 0
        if self.holding:
            self.settle(None)
        if (terminal >= 0 and element is not None and element.state == EL_LEAF and self.mode != VM_STREAM
                and self.value_cut_by_close()):
            # a marker that closes the call ended the leaf its close tag left open: what arrived
            self.elements.pop()
            element = self.innermost()
        if element is not None and (element.state == EL_LEAF or element.state == EL_PENDING):
            # the open value: a string closes for the client, anything unwritten is cut short
            if self.mode == VM_STREAM:
                bb_push(&self.fragment, QUOTE)
                self.push_upto(0)
            self.mode = VM_NONE
            self.take_held()
            self.report_carried(MW_OTHER, OT_TAG_CUT_SHORT)
            self.elements.pop()
        while self.elements:
            self.cut_innermost()
        self.end_run(self.arguments)
        self.close_object()
        self.take_held()
        self.report_carried(MW_OTHER, OT_TAG_CUT_SHORT)
        self.end_call(p, n)
        return own_end


@cython.final
@cython.no_gc
cdef class XmlSyntax(Syntax):
    """MiniMax's invokes of XML element trees, typed by the tools at every depth."""

    def __init__(self, ends=()):
        Syntax.__init__(self, ends)
        self.reads_types = True

    cdef Assembler open(self, object declared):
        cdef XmlCall call = XmlCall.__new__(XmlCall)
        call.syntax = self
        return tc_opened(call, _NO_TAGS, declared)


cdef MarkerSet _NO_TAGS = MarkerSet(())
