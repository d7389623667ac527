# Held bytes: what an assembler has read but no event has accounted for yet, and the ignored
# terminals (separators, SPEC §2.4) that arrived among them. The held text is what the assembler
# parses; each separator is remembered by the offset in that text it arrived before, with its
# bytes kept aside, so the event that finally reports a stretch of held text can put the
# separators back in their places (or report them on their own), and no byte changes its order.

cdef struct hb_mark:
    Py_ssize_t at           # the held-text offset this separator arrived before
    Py_ssize_t start        # its bytes: marks_text[start:start + len]
    Py_ssize_t len


cdef struct Held:
    ByteBuf text            # the held text, separators left out
    ByteBuf marks_text      # the separators' bytes (a separator the same as the one before it
                            # is not written again)
    hb_mark* marks
    Py_ssize_t head         # marks before this one are reported
    Py_ssize_t count
    Py_ssize_t cap


cdef inline void hb_init(Held* h) noexcept:
    memset(h, 0, sizeof(Held))


cdef inline void hb_free(Held* h) noexcept:
    bb_free(&h.text)
    bb_free(&h.marks_text)
    free(h.marks)
    h.marks = NULL
    h.head = h.count = h.cap = 0


cdef inline int hb_append(Held* h, const unsigned char* p, Py_ssize_t n) except -1:
    return bb_append(&h.text, p, n)


cdef int hb_separator(Held* h, const unsigned char* p, Py_ssize_t n) except -1:
    """A separator arrived after everything held so far."""
    cdef hb_mark* grown
    cdef Py_ssize_t cap
    if h.count == h.cap:
        cap = h.cap * 2 if h.cap else 4
        grown = <hb_mark*>realloc(h.marks, cap * sizeof(hb_mark))
        if grown == NULL:
            raise MemoryError()
        h.marks = grown
        h.cap = cap
    if h.count and h.marks[h.count - 1].len == n \
            and memcmp(h.marks_text.data + h.marks[h.count - 1].start, p, n) == 0:
        h.marks[h.count].start = h.marks[h.count - 1].start     # the table's one separator, again
    else:
        h.marks[h.count].start = h.marks_text.len
        bb_append(&h.marks_text, p, n)
    h.marks[h.count].at = h.text.len
    h.marks[h.count].len = n
    h.count += 1
    return 0


cdef inline bint hb_marks_before(Held* h, Py_ssize_t b) noexcept:
    """Whether an unreported separator arrived before held offset b."""
    return h.head < h.count and h.marks[h.head].at < b


cdef inline bint hb_has_marks(Held* h) noexcept:
    return h.head < h.count


cdef int hb_source_before(Held* h, Py_ssize_t a, Py_ssize_t b, Py_ssize_t marks_before, ByteBuf* scratch,
                          const unsigned char** out, Py_ssize_t* out_len) except -1:
    """The bytes that held text[a:b] stands for in the output: the text itself, or (when
    separators arrived among it) the text with the separators that arrived before held offset
    `marks_before` put back, built in `scratch`. The separators used are reported."""
    cdef Py_ssize_t at = a
    cdef hb_mark* m
    if not hb_marks_before(h, marks_before):
        out[0] = h.text.data + a
        out_len[0] = min(b, h.text.len) - a
        return 0
    scratch.len = 0
    while hb_marks_before(h, marks_before):
        m = &h.marks[h.head]
        if m.at > at:
            bb_append(scratch, h.text.data + at, m.at - at)
            at = m.at
        bb_append(scratch, h.marks_text.data + m.start, m.len)
        h.head += 1
    bb_append(scratch, h.text.data + at, min(b, h.text.len) - at)
    out[0] = scratch.data
    out_len[0] = scratch.len
    return 0


cdef inline int hb_source(Held* h, Py_ssize_t a, Py_ssize_t b, ByteBuf* scratch,
                          const unsigned char** out, Py_ssize_t* out_len) except -1:
    """The bytes that held text[a:b] stands for in the output, the separators among it put back;
    reaching the end of the held text, it takes the separators that came after it too."""
    return hb_source_before(h, a, b, b + 1 if b == h.text.len else b, scratch, out, out_len)


cdef int hb_drop_front(Held* h, Py_ssize_t b) except -1:
    """Forgets held text[0:b] (reported, with the separators among it): the rest moves to the
    front, and the separators that arrived among it move with it."""
    cdef Py_ssize_t i
    if b >= h.text.len and not hb_has_marks(h):
        hb_clear(h)
        return 0
    memmove(h.text.data, h.text.data + b, h.text.len - b)
    h.text.len -= b
    for i in range(h.head, h.count):
        h.marks[i].at -= b
    return 0


cdef int hb_split(Held* h, Py_ssize_t at, Held* tail) except -1:
    """Moves held text[at:] to the empty `tail`, with the separators that arrived among it (or
    after it); `h` keeps text[0:at] and the separators before it."""
    cdef Py_ssize_t i
    bb_append(&tail.text, h.text.data + at, h.text.len - at)
    for i in range(h.head, h.count):
        if h.marks[i].at >= at:
            hb_separator(tail, h.marks_text.data + h.marks[i].start, h.marks[i].len)
            tail.marks[tail.count - 1].at = h.marks[i].at - at
    i = h.head
    while i < h.count and h.marks[i].at < at:
        i += 1
    h.count = i
    h.text.len = at
    return 0


cdef inline Py_ssize_t hb_next_mark(Held* h, const unsigned char** p, Py_ssize_t* n) noexcept:
    """The next unreported separator's bytes and the held offset it arrived before (reported by
    this call); -1 when none is left."""
    cdef hb_mark* m
    if h.head >= h.count:
        return -1
    m = &h.marks[h.head]
    h.head += 1
    p[0] = h.marks_text.data + m.start
    n[0] = m.len
    return m.at


cdef inline Py_ssize_t hb_next_mark_at(Held* h) noexcept:
    """The held offset the next unreported separator arrived before, or -1."""
    return h.marks[h.head].at if h.head < h.count else -1


cdef inline void hb_clear(Held* h) noexcept:
    """Forgets the held text and every separator (all of them reported)."""
    h.text.len = 0
    h.marks_text.len = 0
    h.head = h.count = 0
