# The Kinds value typing knows (SPEC §5.1) and its limits: what a tool's schema may declare for
# one parameter. values/typing.pxi turns an argument's text into JSON by them; values/declared.pxi
# reads them from a request's tools.

cpdef enum Kind:
    KIND_NONE = 0              # no declaration: the value is inferred
    KIND_STRING = 1
    KIND_NULLABLE_STRING = 2
    KIND_INTEGER = 3
    KIND_ARRAY = 4
    KIND_OBJECT = 5
    KIND_NUMBER = 6            # the last Kind (value_json checks codes against it)

cdef enum:
    VT_READ_DEPTH = 126        # serde_json's recursion limit (128) leaves 127 levels for the whole
                               # arguments document; the value sits one level inside it
    VT_LITERAL_DEPTH = 128     # the Python-literal reader's own nesting limit
    VT_SCHEMA_DEPTH = 64       # anyOf/oneOf nesting read in a schema; deeper declares nothing
    VT_SHORT_NUMBER = 64       # number texts up to this length are checked on the stack

# The texts a nullable string reads as null (vt_is_null_word checks the same two).
NULL_WORDS = ("null", "None")

cdef extern from "Python.h":
    ctypedef struct PyObject
    double PyOS_string_to_double(const char* s, char** endptr, PyObject* overflow_exception) except? -1.0
