# Prose that may hold calls (a syntax's `prose` option: Llama's bare pythonic lists, xLAM's and
# Llama 3's JSON): the region's text is content, and a call list opens in it wherever the
# syntax's opener is written. Code is not read for calls: a call written in a Markdown code span
# or block is an example, not a call. So the prose follows its backtick runs: a run of N opens a
# code span that the next run of N closes; a block opened by a fence (N >= PR_FENCE) closes on a
# run of at least N; an inline span also ends at its line's end, so a stray backtick costs at
# most its line. Each run is decided at the byte after it, so no cut of the text changes it.

cdef enum:
    PR_FENCE = 3               # the backticks of a fence, at least


cdef struct pr_code:
    int code                   # the backtick run that opened the code span the prose is in; 0: none
    int ticks                  # backticks of the run being read


# The bytes where a call may open in prose: `[` (a list), and `{` too (an object of a bare list).
cdef unsigned char PR_OPENS_LIST[256]
cdef unsigned char PR_OPENS_OBJECT[256]


cdef void pr_build_tables() noexcept:
    memset(PR_OPENS_LIST, 0, sizeof(PR_OPENS_LIST))
    PR_OPENS_LIST[LBRACKET] = 1
    memcpy(PR_OPENS_OBJECT, PR_OPENS_LIST, sizeof(PR_OPENS_LIST))
    PR_OPENS_OBJECT[LBRACE] = 1


pr_build_tables()


cdef inline void pr_run_ends(pr_code* s) noexcept nogil:
    """The backtick run just read ended: it opens a code span, closes the one the prose is in, or
    is text inside it."""
    if s.code == 0:
        s.code = s.ticks
    elif s.ticks == s.code or (s.code >= PR_FENCE and s.ticks > s.code):
        s.code = 0
    s.ticks = 0


cdef inline Py_ssize_t pr_text(pr_code* s, const unsigned char* p, Py_ssize_t n, const unsigned char* opens,
                               bint fences) noexcept nogil:
    """Reads prose p[0:n]: returns the offset of the first byte outside code where a call may
    open (one that `opens` marks; with `fences`, also the first backtick of a run outside code,
    which the caller reads itself: a fence may hold a list), or n. The code span follows every
    byte before it."""
    cdef Py_ssize_t i = 0
    cdef unsigned char c
    while i < n:
        c = p[i]
        if c == BACKTICK:
            if fences and s.code == 0 and s.ticks == 0:
                return i
            s.ticks += 1
        else:
            if s.ticks:
                pr_run_ends(s)
            if c == LF and 0 < s.code < PR_FENCE:
                s.code = 0
            elif s.code == 0 and opens[c]:
                return i
        i += 1
    return n
