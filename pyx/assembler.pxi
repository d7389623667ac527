# What every call assembler offers the engine: the bytes of a call region in, call events out.
# An assembler numbers the calls it starts from `first_index` and counts them in `started`;
# the engine adds that count to the stream's calls when the region closes.

cdef class Assembler:
    """Base of the call assemblers (one per call syntax); the engine holds one per open region."""
    cdef uint32_t first_index
    cdef readonly uint32_t started

    cdef Py_ssize_t feed(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """Takes the bytes it reads as part of the call; returns how many (the rest is not the
        call's: the engine treats it as wrapping)."""
        return 0

    cdef int close(self, const unsigned char* terminal, Py_ssize_t tn, Sink sink) except -1:
        """A marker ended the region: end the call for the client (SPEC §2.4 per syntax).
        Returns 1 when the terminal's bytes became the call's end, else 0."""
        return 0

    cdef int finish(self, Sink sink) except -1:
        """The stream ended inside the region: report what is held, close nothing."""
        return 0

    cdef int ignored(self, const unsigned char* p, Py_ssize_t n, Sink sink) except -1:
        """An ignored terminal (a separator) arrived inside the region; an assembler holding
        bytes keeps it in its place among them."""
        return sink.dropped(DR_WRAPPER, p, n)
