/* The core's allocator: Python's raw allocator (malloc underneath; tracemalloc sees what a
   parser holds). In the debug build one allocation can be made to fail on purpose
   (`_native._fail_allocation_after`), so the tests can strike each allocation of a feed in turn
   and check that the parser fails cleanly and loses no byte. */
#ifndef SYMPHONY_ALLOC_H
#define SYMPHONY_ALLOC_H
#include <Python.h>

static Py_ssize_t sym_alloc_countdown = -1;    /* allocations that succeed before one fails; -1: none fails */
#ifdef SYMPHONY_DEBUG
#define SYM_CAN_INJECT 1
static inline int sym_alloc_fails(void) {
    if (sym_alloc_countdown < 0) return 0;
    return sym_alloc_countdown-- == 0;
}
#else
#define SYM_CAN_INJECT 0
#define sym_alloc_fails() 0
#endif

static inline void* sym_malloc(size_t n) { return sym_alloc_fails() ? NULL : PyMem_RawMalloc(n); }
static inline void* sym_calloc(size_t n, size_t size) { return sym_alloc_fails() ? NULL : PyMem_RawCalloc(n, size); }
static inline void* sym_realloc(void* p, size_t n) { return sym_alloc_fails() ? NULL : PyMem_RawRealloc(p, n); }
#define sym_free PyMem_RawFree
#endif
