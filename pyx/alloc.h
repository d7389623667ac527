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

/* Spare blocks of SYM_BLOCK bytes, the size a byte buffer starts at: a call assembler's buffers
   (its text, its name) are born and freed with each call, so a buffer's first block comes from
   here and goes back here, not through malloc and free. Updated under the GIL; off where there
   is none, and in the debug build (each allocation there can be made to fail, and a sanitizer
   sees use after free). */
#define SYM_BLOCK 64
#define SYM_SPARE_BLOCKS 64
#if defined(SYMPHONY_DEBUG) || defined(Py_GIL_DISABLED)
static inline void* sym_block_take(void) { return sym_malloc(SYM_BLOCK); }
static inline void sym_block_give(void* p) { sym_free(p); }
#else
static void* sym_spare_blocks[SYM_SPARE_BLOCKS];
static int sym_spare_count = 0;

static inline void* sym_block_take(void) {
    return sym_spare_count ? sym_spare_blocks[--sym_spare_count] : PyMem_RawMalloc(SYM_BLOCK);
}

static inline void sym_block_give(void* p) {
    if (sym_spare_count < SYM_SPARE_BLOCKS)
        sym_spare_blocks[sym_spare_count++] = p;
    else
        PyMem_RawFree(p);
}
#endif
#endif
