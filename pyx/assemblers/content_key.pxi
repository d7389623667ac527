# The content of a request's tool list as bytes, written in the core: the key under which a
# server keeps one compiled Declared per distinct tool list (symphony.integrations.names). An
# engine hands its tools over as its own objects (pydantic models, whose serializers run Python
# code per model); they are read here through their attribute dicts, with no Python-level step
# per tool or per field. Equal keys are equal content: every value is written with its kind and
# its length, a str as its code units.

cdef extern from "Python.h":
    int PyUnicode_KIND(object text)
    bint PyDict_Next(object d, Py_ssize_t* at, PyObject** key, PyObject** value)

cdef enum:
    CK_NONE = 0
    CK_TRUE = 1
    CK_FALSE = 2
    CK_INT = 3
    CK_BIG_INT = 4        # an int past 64 bits: its decimal digits
    CK_FLOAT = 5
    CK_STR = 6
    CK_LIST = 7           # a list or a tuple
    CK_DICT = 8
    CK_OBJECT = 9         # an object read through its __dict__ (its type's name first)
    CK_EXTRA = 10         # a pydantic model's extra fields, after its __dict__
    CK_DEPTH = 64         # nesting deeper than this has no key


cdef inline int ck_size(ByteBuf* out, Py_ssize_t n) except -1:
    return bb_append(out, <const unsigned char*>&n, sizeof(Py_ssize_t))


cdef int ck_write(ByteBuf* out, object value, int depth) except -1:
    """Appends the content of `value`; 1 when written, 0 when it holds something with no key
    (a type other than None, bool, int, float, str, list, tuple, dict or an object with a
    __dict__, or nesting past CK_DEPTH)."""
    cdef type kind = type(value)
    cdef long long number
    cdef int overflow
    cdef double real
    cdef Py_ssize_t at = 0
    cdef PyObject* key
    cdef PyObject* item
    cdef const char* name
    cdef object attributes
    if depth > CK_DEPTH:
        return 0
    if value is None:
        return bb_push(out, CK_NONE) + 1
    if kind is bool:
        return bb_push(out, CK_TRUE if value else CK_FALSE) + 1
    if kind is str:
        bb_push(out, CK_STR)
        bb_push(out, <unsigned char>PyUnicode_KIND(value))
        ck_size(out, PyUnicode_GET_LENGTH(value))
        bb_append(out, <const unsigned char*>PyUnicode_DATA(value), PyUnicode_GET_LENGTH(value) * PyUnicode_KIND(value))
        return 1
    if kind is int:
        number = PyLong_AsLongLongAndOverflow(value, &overflow)
        if overflow:
            bb_push(out, CK_BIG_INT)
            return ck_write(out, str(value), depth + 1)
        bb_push(out, CK_INT)
        bb_append(out, <const unsigned char*>&number, sizeof(long long))
        return 1
    if kind is float:
        real = value
        bb_push(out, CK_FLOAT)
        bb_append(out, <const unsigned char*>&real, sizeof(double))
        return 1
    if kind is list or kind is tuple:
        bb_push(out, CK_LIST)
        ck_size(out, len(value))
        for element in value:
            if not ck_write(out, element, depth + 1):
                return 0
        return 1
    if kind is dict:
        bb_push(out, CK_DICT)
        ck_size(out, len(<dict>value))
        while PyDict_Next(value, &at, &key, &item):
            if not ck_write(out, <object>key, depth + 1) or not ck_write(out, <object>item, depth + 1):
                return 0
        return 1
    attributes = getattr(value, "__dict__", None)
    if type(attributes) is not dict:
        return 0
    name = (<PyTypeObject*>kind).tp_name
    bb_push(out, CK_OBJECT)
    ck_size(out, strlen(name))
    bb_append(out, <const unsigned char*>name, strlen(name))
    if not ck_write(out, attributes, depth + 1):
        return 0
    attributes = getattr(value, "__pydantic_extra__", None)
    if attributes is not None:
        bb_push(out, CK_EXTRA)
        return ck_write(out, attributes, depth + 1)
    return 1


def tools_key(tools):
    """The content of a tool list (dicts, lists, strs, numbers, and objects such as an engine's
    pydantic tools, read through their attribute dicts) as bytes, equal for equal content; None
    when it holds a value with no key (see ck_write)."""
    cdef ByteBuf out
    memset(&out, 0, sizeof(ByteBuf))
    try:
        if not ck_write(&out, tools, 0):
            return None
        return PyBytes_FromStringAndSize(<const char*>out.data, out.len)
    finally:
        bb_free(&out)
