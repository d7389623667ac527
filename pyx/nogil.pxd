# Header-only: when the core lets go of the GIL. Its scan and JSON-validation loops touch no
# Python object, so over a long run of bytes they let other threads run (a parser is used by one
# thread at a time: Engine.begin_feed refuses a second). Releasing and taking back the GIL costs
# about a microsecond's fraction; below this many bytes the loop is shorter than that is worth.

cdef enum:
    NOGIL_FROM = 16384
