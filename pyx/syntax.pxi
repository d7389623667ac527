# Call syntaxes (SPEC §2.2): how calls are written in a table's arguments states. One small
# class per syntax (beside its assembler, in that assembler's file) holds its own parameters
# (inner tags, placement) and opens a fresh assembler for each call region. `ends` are the table's terminals (by number) that are a call's
# own end: a syntax whose call end is a table marker (keyed, DSML, ...) gets them from the table
# compiler, so its assembler's `close` can tell its own end from a marker that only cuts it off.

@cython.no_gc
cdef class Syntax:
    """Base of the call syntaxes; a compiled table holds one."""
    cdef uint64_t ends
    cdef readonly bint reads_types      # whether values are typed by the request's declared tools

    def __init__(self, ends=()):
        cdef int terminal
        self.ends = 0
        for terminal in ends:
            if not 0 <= terminal < 64:
                raise ValueError(f"call syntax: no terminal {terminal}")
            self.ends |= (<uint64_t>1) << terminal

    cdef inline bint is_end(self, int terminal) noexcept:
        return terminal >= 0 and (self.ends >> terminal) & 1

    cdef Assembler open(self, object declared):
        """A fresh assembler for one call region (declared: the request's tools, compiled, or None)."""
        raise InternalError(f"{type(self).__name__} opens no assembler")
