# Object pools (object_pool.h): tp_alloc/tp_free that reuse the memory of freed core objects.
from cpython.object cimport PyTypeObject

cdef extern from "object_pool.h":
    int op_pool_type(PyTypeObject* type)
    Py_ssize_t op_pooled()
