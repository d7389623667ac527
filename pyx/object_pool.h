/* Object pools for the core's short-lived extension objects: events and call assemblers. Cython's own freelists cannot serve a class that has a base class (the base
   allocates, through tp_alloc), and every event type derives from Event; so the pooled types get
   a tp_alloc that reuses a freed object's memory and a tp_free that keeps it for reuse. Memory
   is pooled by the type's size: a freed ToolCallEnd's block may come back as a Content of the
   same size (initialised as Python initialises a new object: zeroed, with its type and one
   reference). Only types that are not tracked by the garbage collector and have no items are
   pooled; nothing is pooled in the debug (sanitizer) build, so use after free stays visible, or
   where there is no GIL to make the pools' updates safe. */
#ifndef SYMPHONY_OBJECT_POOL_H
#define SYMPHONY_OBJECT_POOL_H
#include <Python.h>
#include <string.h>

#define OP_SIZES 96           /* size classes of 8 bytes: objects up to 768 bytes (a JSON call) */
#define OP_DEPTH 512          /* freed objects kept per size class, for objects up to 128 bytes */
#define OP_DEPTH_LARGE 16     /* and above (an assembler: a few live at a time) */

typedef struct {
    int count;
    PyObject* items[OP_DEPTH];
} op_class;

static op_class op_classes[OP_SIZES];

/* The size class of objects of `size` bytes, or NULL when none holds them. */
static inline op_class* op_class_of(Py_ssize_t size) {
    return ((size & 7) == 0 && size <= OP_SIZES * 8) ? &op_classes[size / 8 - 1] : NULL;
}

static PyObject* op_alloc(PyTypeObject* type, Py_ssize_t nitems) {
    op_class* c = nitems == 0 ? op_class_of(type->tp_basicsize) : NULL;
    PyObject* o;
    if (c != NULL && c->count > 0) {
        o = c->items[--c->count];
        memset(o, 0, (size_t)type->tp_basicsize);
        return PyObject_Init(o, type);
    }
    return PyType_GenericAlloc(type, nitems);
}

static void op_free(void* p) {
    Py_ssize_t size = Py_TYPE((PyObject*)p)->tp_basicsize;
    op_class* c = op_class_of(size);
    if (c != NULL && c->count < (size <= 128 ? OP_DEPTH : OP_DEPTH_LARGE)) {
        c->items[c->count++] = (PyObject*)p;
        return;
    }
    PyObject_Free(p);
}

/* Pools `type`'s objects; 1 when it did, 0 when the type does not qualify (or pooling is off). */
static int op_pool_type(PyTypeObject* type) {
#if defined(SYMPHONY_DEBUG) || defined(Py_GIL_DISABLED)
    (void)type;
    return 0;
#else
    if (PyType_HasFeature(type, Py_TPFLAGS_HAVE_GC) || type->tp_itemsize != 0
            || op_class_of(type->tp_basicsize) == NULL
            || type->tp_alloc != PyType_GenericAlloc || type->tp_free != PyObject_Free)
        return 0;
    type->tp_alloc = op_alloc;
    type->tp_free = op_free;
    return 1;
#endif
}

/* Objects kept for reuse, over every size class (for tests). */
static Py_ssize_t op_pooled(void) {
    Py_ssize_t n = 0;
    int i;
    for (i = 0; i < OP_SIZES; i++)
        n += op_classes[i].count;
    return n;
}
#endif
