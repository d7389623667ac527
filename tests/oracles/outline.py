"""Whole-buffer oracle of the call-object outline (SPEC §4.1): where the name and the arguments are
in a (possibly unfinished) call object. Written as a plain reader over the whole text, one member
at a time, with each value's end found by its own small scan; offsets are counted in characters
and converted to UTF-8 bytes at the end.

Result: {"name": str | None, "arguments": (start, end | None) | None, "close": int | None}.
"""
import json

from tests.oracles.json_prefix import UNICODE_WHITESPACE

NAME_KEYS = ("name", "tool_name")
ARGUMENT_KEYS = ("arguments", "parameters")
SCALAR_ENDS = frozenset(",}]") | UNICODE_WHITESPACE


def strict_string(body):
    """The body of a JSON string decoded by serde_json's rules, or None: Python's json, minus the
    lone surrogates it lets through."""
    try:
        value = json.loads('"' + body + '"')
    except ValueError:
        return None
    if not isinstance(value, str) or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        return None
    return value


def skip_space(text, i):
    while i < len(text) and text[i] in UNICODE_WHITESPACE:
        i += 1
    return i


def string_end(text, i):
    """text[i] is a `"`: the index after its closing quote, or None when it is not closed."""
    i += 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    return None


def container_end(text, i):
    """text[i] opens an object or array: the index after the bracket that brings the depth back
    to zero (any kind of bracket counts; brackets inside strings do not), or None."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i = string_end(text, i)
            if i is None:
                return None
            continue
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def scalar_end(text, i):
    """The index of the first `,` `}` `]` or whitespace from i, or None when the scalar runs to the end."""
    while i < len(text):
        if text[i] in SCALAR_ENDS:
            return i
        i += 1
    return None


def value_end(text, i):
    c = text[i]
    if c == '"':
        return string_end(text, i)
    if c in "{[":
        return container_end(text, i)
    return scalar_end(text, i)


def outline_chars(text):
    """The outline with offsets counted in characters."""
    name = arguments = close = None
    name_seen = arguments_seen = False
    i = skip_space(text, 0)
    if text[i:i + 1] != "{":
        return {"name": None, "arguments": None, "close": None}
    i += 1
    while True:
        i = skip_space(text, i)
        if i >= len(text):
            break
        c = text[i]
        if c == "}":
            close = i + 1
            break
        if c == ",":
            i += 1
            continue
        if c != '"':
            break
        key_end = string_end(text, i)
        if key_end is None:
            break
        key = strict_string(text[i + 1:key_end - 1])
        i = skip_space(text, key_end)
        if text[i:i + 1] != ":":
            break
        i = skip_space(text, i + 1)
        if i >= len(text) or text[i] in ",}]:":
            break
        start = i
        end = value_end(text, i)
        if key in NAME_KEYS and not name_seen:
            name_seen = True
            if end is not None and text[start] == '"':
                name = strict_string(text[start + 1:end - 1])
        elif key in ARGUMENT_KEYS and not arguments_seen:
            arguments_seen = True
            arguments = (start, end)
        if end is None:
            break
        i = end
    return {"name": name, "arguments": arguments, "close": close}


def outline(text):
    """The outline of `text` with UTF-8 byte offsets (the native unit)."""
    found = outline_chars(text)

    def to_bytes(i):
        return None if i is None else len(text[:i].encode("utf-8"))

    arguments = found["arguments"]
    return {
        "name": found["name"],
        "arguments": None if arguments is None else (to_bytes(arguments[0]), to_bytes(arguments[1])),
        "close": to_bytes(found["close"]),
    }
