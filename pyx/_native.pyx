# cython: language_level=3
"""symphony's compiled core: scanner, ledger, JSON machinery, value typing, call assemblers, engine,
events."""
cimport cython
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.list cimport PyList_AsTuple, PyList_New, PyList_SET_ITEM
from cpython.object cimport Py_SIZE
from cpython.exc cimport PyErr_CheckSignals, PyErr_Clear
from cpython.ref cimport Py_INCREF
from cpython.unicode cimport Py_UNICODE_ISALNUM, PyUnicode_DecodeASCII, PyUnicode_DecodeUTF8
from libc.math cimport isfinite
from libc.stdint cimport int64_t, uint32_t, uint64_t
# the raw Python allocator (malloc underneath), so tracemalloc sees what a parser holds
from alloc cimport SYM_CAN_INJECT, calloc, free, malloc, realloc, sym_alloc_countdown
from object_pool cimport PyTypeObject, op_pool_type, op_pooled
from short_str cimport ss_decode
from small_int cimport si_small
from libc.stdio cimport snprintf
from libc.string cimport memchr, memcmp, memcpy, memmove, memset, strlen
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from ascii cimport *
from nogil cimport NOGIL_FROM, YIELD_INTERVALS
from bytebuf cimport ByteBuf, bb_append, bb_free, bb_push, bb_reserve, bb_shrink
from utf8 cimport (u8_all_space, u8_ascii_space, u8_ascii_space_end, u8_char_len, u8_invalid_at, u8_is_boundary,
                  u8_space_len, u8_space_run, u8_text_run)

import sys

from symphony.errors import BufferOverflowError, ConcurrentUseError, FormatError, InternalError, LifecycleError
from symphony.reasons import DropReason, FinishReason, MalformedReason, Other, reason_to_wire

cdef extern from "Python.h":
    const char* PyUnicode_AsUTF8AndSize(object text, Py_ssize_t* size) except NULL

cdef extern from *:
    const char* SYMPHONY_VARIANT_TAG        # "symphony-variant=<variant>", defined by setup.py

VARIANT = (<bytes>SYMPHONY_VARIANT_TAG).split(b"=", 1)[1].decode("ascii")

# One extension, its parts in folders by layer (the C helpers, .pxd and .h, stay at pyx/'s top):
#   input/       what comes in: deltas and prompts, token spans, the ledger, the marker scanner
#   engine/      the table, the engine that walks it, the sink of records and the events it builds
#   values/      JSON: the prefix validator, outlines, strings; value typing, the Python-literal
#                reader, the Kinds a request's tools declare
#   assemblers/  the call syntaxes and the assembler each one opens
#   batch/       many outputs at once: the batch driver and its Arrow and JSON Lines writers

include "engine/reasons.pxi"
include "input/inject.pxi"
include "engine/events.pxi"
include "input/inputs.pxi"
include "batch/summary_rows.pxi"
include "engine/fields.pxi"
include "batch/arrow_rows.pxi"
include "input/ledger.pxi"
include "engine/sink.pxi"
include "input/held.pxi"
include "input/scanner.pxi"
include "values/json_prefix.pxi"
include "values/json_text.pxi"
include "values/json_outline.pxi"
include "values/kinds.pxi"
include "values/strings.pxi"
include "values/json_rewrites.pxi"
include "values/python_literal.pxi"
include "values/typing.pxi"
include "values/declared.pxi"
include "assemblers/content_key.pxi"
include "assemblers/prose.pxi"
include "assemblers/assembler.pxi"
include "assemblers/syntax.pxi"
include "assemblers/assemble_json.pxi"
include "assemblers/assemble_json_list.pxi"
include "assemblers/tag_call.pxi"
include "assemblers/assemble_tagged.pxi"
include "assemblers/assemble_keyed.pxi"
include "assemblers/attribute_call.pxi"
include "assemblers/assemble_invoke.pxi"
include "assemblers/assemble_xtml.pxi"
include "assemblers/assemble_param_xml.pxi"
include "assemblers/assemble_xml.pxi"
include "assemblers/assemble_pythonic.pxi"
include "assemblers/assemble_gemma.pxi"
include "assemblers/assemble_constrained.pxi"
include "engine/table.pxi"
include "engine/engine.pxi"
include "engine/field_stream.pxi"
include "input/utf8_texts.pxi"
include "batch/batch.pxi"
include "batch/json_lines.pxi"


# The short-lived objects of a parse that derive from a base class (so no Cython freelist can
# serve them) are made from the object pools: every event but the shared ReasoningStart/End,
# and every call assembler.
cdef tuple _POOLED = (Content, Reasoning, ToolCallStart, ToolCallArguments, ToolCallEnd, Dropped, Malformed,
                      Finish, JsonCallAssembler, JsonListAssembler, TaggedCall, KeyedCall, InvokeCall, XtmlCall,
                      ParamXmlCall, XmlCall, PythonicCall, GemmaCall, ForcedCall)
POOLED_TYPES = tuple(t.__name__ for t in _POOLED if op_pool_type(<PyTypeObject*>t))


def _pooled():
    """Freed objects the pools keep for reuse (for tests)."""
    return op_pooled()
