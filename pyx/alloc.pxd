# The core's allocator (alloc.h): Python's raw allocator, with one allocation made to fail on
# purpose in the debug build, and the spare blocks byte buffers start in.
cdef extern from "alloc.h":
    void* malloc "sym_malloc"(size_t n) nogil
    void* calloc "sym_calloc"(size_t n, size_t size) nogil
    void* realloc "sym_realloc"(void* p, size_t n) nogil
    void free "sym_free"(void* p) nogil
    void* sym_block_take()
    void sym_block_give(void* p)
    const int SYM_BLOCK
    Py_ssize_t sym_alloc_countdown
    const int SYM_CAN_INJECT
