# Shared strs of short UTF-8 texts (short_str.h).
cdef extern from "short_str.h":
    object ss_decode(const unsigned char* p, Py_ssize_t n)
