# Header-only: a growable byte buffer (malloc'd), shared by every concern of the core.
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy


cdef struct ByteBuf:
    unsigned char* data
    Py_ssize_t len
    Py_ssize_t cap


cdef inline int bb_reserve(ByteBuf* b, Py_ssize_t extra) except -1:
    """Makes room for `extra` more bytes; -1 with MemoryError set when the allocation fails."""
    cdef Py_ssize_t need = b.len + extra
    cdef Py_ssize_t cap
    cdef unsigned char* grown
    if need <= b.cap:
        return 0
    cap = b.cap * 2 if b.cap else 64
    while cap < need:
        cap *= 2
    grown = <unsigned char*>realloc(b.data, cap)
    if grown == NULL:
        raise MemoryError()
    b.data = grown
    b.cap = cap
    return 0


cdef inline int bb_append(ByteBuf* b, const unsigned char* p, Py_ssize_t n) except -1:
    if n <= 0:
        return 0
    bb_reserve(b, n)
    memcpy(b.data + b.len, p, n)
    b.len += n
    return 0


cdef inline int bb_push(ByteBuf* b, unsigned char c) except -1:
    bb_reserve(b, 1)
    b.data[b.len] = c
    b.len += 1
    return 0


cdef inline void bb_free(ByteBuf* b) noexcept:
    free(b.data)
    b.data = NULL
    b.len = 0
    b.cap = 0
