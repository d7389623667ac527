/* A small non-negative int's value read straight from the int object, for the per-token fast
   path of Delta (a streamed token's one id): no call, no overflow bookkeeping. Anything else (a
   negative or large value) is left to PyLong_AsLongLongAndOverflow on the general path. */
#ifndef SYMPHONY_SMALL_INT_H
#define SYMPHONY_SMALL_INT_H
#include <Python.h>
#if PY_VERSION_HEX < 0x030B0000
#include <longintrepr.h>      /* Python.h includes it from 3.11 on */
#endif

/* 1 and *value when the exact int `o` is 0 <= o < 2**30 (one digit), else 0. */
static inline int si_small(PyObject* o, long long* value) {
#if PY_VERSION_HEX >= 0x030C0000
    Py_ssize_t v;
    if (!PyUnstable_Long_IsCompact((PyLongObject*)o))
        return 0;
    v = PyUnstable_Long_CompactValue((PyLongObject*)o);
    if (v < 0)
        return 0;
    *value = v;
    return 1;
#else
    Py_ssize_t size = Py_SIZE(o);
    if (size == 0) {
        *value = 0;
        return 1;
    }
    if (size != 1)
        return 0;
    *value = (long long)((PyLongObject*)o)->ob_digit[0];
    return 1;
#endif
}
#endif
