/* The str of a short UTF-8 text, shared: most event texts are short and repeat (a format's tags,
   a call's name, JSON punctuation such as `{"city": "`), so a small direct-mapped table keeps the
   str last made for each and hands it out again instead of decoding anew. A str is immutable, so
   sharing one is invisible except to `is`. Texts longer than SS_MAX bytes are decoded each time.
   The table is updated under the GIL (off where there is none). */
#ifndef SYMPHONY_SHORT_STR_H
#define SYMPHONY_SHORT_STR_H
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SS_MAX 32             /* longest text kept, in bytes */
#define SS_SLOTS 512          /* a power of two */

typedef struct {
    PyObject* str;            /* NULL: empty slot */
    Py_ssize_t len;
    unsigned char bytes[SS_MAX];
} ss_slot;

static ss_slot ss_slots[SS_SLOTS];

/* The slot of p[0:n] (n <= SS_MAX): its first and last 8 bytes and its length, mixed. */
static inline ss_slot* ss_slot_of(const unsigned char* p, Py_ssize_t n) {
    uint64_t a = 0, b = 0, h;
    Py_ssize_t i;
    if (n >= 8) {
        memcpy(&a, p, 8);
        memcpy(&b, p + n - 8, 8);
    } else {
        for (i = 0; i < n; i++)
            a = (a << 8) | p[i];
    }
    h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ (uint64_t)n;
    return &ss_slots[(h ^ (h >> 29)) & (SS_SLOTS - 1)];
}

/* A new reference to the str of the UTF-8 p[0:n], or NULL with the decode error set. */
static PyObject* ss_decode(const unsigned char* p, Py_ssize_t n) {
#ifdef Py_GIL_DISABLED
    return PyUnicode_DecodeUTF8((const char*)p, n, NULL);
#else
    ss_slot* slot;
    PyObject* str;
    if (n > SS_MAX)
        return PyUnicode_DecodeUTF8((const char*)p, n, NULL);
    slot = ss_slot_of(p, n);
    if (slot->str != NULL && slot->len == n && memcmp(slot->bytes, p, (size_t)n) == 0) {
        Py_INCREF(slot->str);
        return slot->str;
    }
    str = PyUnicode_DecodeUTF8((const char*)p, n, NULL);
    if (str == NULL)
        return NULL;
    Py_XSETREF(slot->str, Py_NewRef(str));
    slot->len = n;
    memcpy(slot->bytes, p, (size_t)n);
    return str;
#endif
}
#endif
