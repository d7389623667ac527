# Call syntaxes (SPEC §2.2): how calls are written in a table's arguments states. One small
# class per syntax (beside its assembler, in that assembler's file) holds its own parameters
# (inner tags, placement) and opens a fresh assembler for each call region. The table compiler
# hands a syntax three sets of the table's terminals (by number): `ends`, a call's own end (a
# syntax whose call end is a table marker, keyed, DSML, ..., so its assembler's `close` can tell
# its own end from a marker that only cuts it off); `starts`, a call's own first tag, which
# opens a region without its block (its bytes are the call's, not a dropped marker); `openers`,
# the markers that open the next call from inside a call, which an assembler may keep as the
# text of a value its own close tag has still to end, and which a call that never started leaves
# to the next call.

cdef inline uint64_t sx_terminal_set(object terminals) except? 0:
    cdef uint64_t bits = 0
    cdef int terminal
    for terminal in terminals:
        if not 0 <= terminal < 64:
            raise ValueError(f"call syntax: no terminal {terminal}")
        bits |= (<uint64_t>1) << terminal
    return bits


@cython.no_gc
cdef class Syntax:
    """Base of the call syntaxes; a compiled table holds one."""
    cdef uint64_t ends
    cdef uint64_t starts
    cdef uint64_t openers
    cdef bint openers_open_regions      # an opener not held opens the next region (a list's)
    cdef bint holds_its_calls           # its assemblers hold their calls' events (Sink.hold_call), so
                                        # the engine holds no call opener for them (Sink.hold_opener)
    cdef readonly bint reads_types      # whether values are typed by the request's declared tools

    def __init__(self, ends=(), starts=(), openers=()):
        self.ends = sx_terminal_set(ends)
        self.starts = sx_terminal_set(starts)
        self.openers = sx_terminal_set(openers)

    cdef inline bint is_end(self, int terminal) noexcept:
        return terminal >= 0 and (self.ends >> terminal) & 1

    cdef inline bint is_start(self, int terminal) noexcept:
        return terminal >= 0 and (self.starts >> terminal) & 1

    cdef inline bint is_opener(self, int terminal) noexcept:
        return terminal >= 0 and (self.openers >> terminal) & 1

    cdef Assembler open(self, object declared):
        """A fresh assembler for one call region (declared: the request's tools, compiled, or None)."""
        raise InternalError(f"{type(self).__name__} opens no assembler")
