# Header-only: when the core lets go of the GIL. Its scan and JSON-validation loops touch no
# Python object, so over a long run of bytes they let other threads run (a parser is used by one
# thread at a time: Engine.begin_feed refuses a second). Releasing and taking back the GIL costs
# about a microsecond's fraction; below this many bytes the loop is shorter than that is worth.

cdef enum:
    NOGIL_FROM = 16384


# A batch (fold_summaries) lets other threads in between two outputs once this many switch
# intervals (sys.getswitchinterval()) have passed since it last did. Not more often: a thread
# waiting for the GIL asks for it only after a whole interval without a release, and a release
# that comes sooner restarts its wait, so a batch that released on every output (every
# millisecond or so) would almost never let it in.
cdef enum:
    YIELD_INTERVALS = 2
