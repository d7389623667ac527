"""Value typing for the tagged tool-call syntaxes (SPEC §5.1, §5.2): the Kind a tool's schema
declares for a parameter, and the JSON one value's text becomes under it. The work is done in the
compiled core (pyx/values/typing.pxi); this module gives it its public names."""
from enum import IntEnum, IntFlag

from symphony import _native

# The native enum declares the codes once; NONE (no declaration) is spelled None here.
Kind = IntEnum(
    "Kind",
    [(member.name[len("KIND_"):], member.value) for member in _native.Kind if member is not _native.Kind.KIND_NONE],
    module=__name__,
)
Kind.__doc__ = "The declared types that change how a value's text is read (absent: inferred)."

# Which Python-literal syntax python_literal reads (flags): VALUE, a value's text (value typing's
# fallback); ARGUMENT, a pythonic call's argument as Python reads it; SLIPS, with ARGUMENT, also
# what a model writes that Python refuses (raw line breaks in strings, zero-padded integers).
LiteralSyntax = IntFlag("LiteralSyntax", [(member.name[len("LIT_"):], member.value) for member in _native.LiteralSyntax],
                        module=__name__)

Declared = _native.Declared
NULL_WORDS = _native.NULL_WORDS
python_literal = _native.python_literal
reads_back = _native.reads_back


def to_json(text, kind=None):
    """The JSON of one value's text under `kind` (a Kind, or None: inferred). The text is the
    value's own: the newlines a template writes around it are already removed."""
    return _native.value_json(text, kind)


__all__ = ["Declared", "Kind", "LiteralSyntax", "NULL_WORDS", "python_literal", "reads_back", "to_json"]
