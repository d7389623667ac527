# Header-only: a growable byte buffer (malloc'd), shared by every concern of the core.
# the core's allocator (alloc.h: the raw Python allocator, tracemalloc sees what a parser holds)
from alloc cimport SYM_BLOCK, free, realloc, sym_block_give, sym_block_take
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
    if b.cap == 0 and need <= SYM_BLOCK:
        b.data = <unsigned char*>sym_block_take()
        if b.data == NULL:
            raise MemoryError()
        b.cap = SYM_BLOCK
        return 0
    cap = b.cap * 2 if b.cap else SYM_BLOCK
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


cdef inline void bb_shrink(ByteBuf* b) noexcept:
    """Gives memory back once a buffer holds far less than it once did (after a large delta): one
    above 64 KiB that is less than a quarter full is cut to twice what it holds."""
    cdef Py_ssize_t cap = b.len * 2
    cdef unsigned char* smaller
    if b.cap <= 65536 or b.len * 4 > b.cap:
        return
    if b.len == 0:
        free(b.data)
        b.data = NULL
        b.cap = 0
        return
    smaller = <unsigned char*>realloc(b.data, cap)
    if smaller != NULL:
        b.data = smaller
        b.cap = cap


cdef inline void bb_free(ByteBuf* b) noexcept:
    if b.cap == SYM_BLOCK:
        sym_block_give(b.data)
    else:
        free(b.data)
    b.data = NULL
    b.len = 0
    b.cap = 0
