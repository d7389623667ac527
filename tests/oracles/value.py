"""Whole-buffer oracle of value typing (SPEC §5.1, §5.2), written from the SPEC in plain Python:
the Kind a schema declares, the declarations of a request's tools, the Kind at a path, and the
JSON of one value's text, with the string a declared number or container is read inside.

Reading back is Python's `json` with its differences from serde_json closed: NaN and Infinity
refused, a number that is not finite as a double refused (serde reads big integers and every
fraction as f64), lone surrogate escapes refused (Python keeps them as lone surrogates), nesting
deeper than 126 refused (serde's limit 128, less one level for the whole document and one for the
arguments object around the value). The Python-literal reader is a recursive descent over the
whole text, one character at a time. Kinds are plain strings here ("string", ...; None: none).
"""
import json
import math
import re

from tests.oracles.json_prefix import UNICODE_WHITESPACE

STRING = "string"
NULLABLE_STRING = "nullable_string"
INTEGER = "integer"
ARRAY = "array"
OBJECT = "object"
NUMBER = "number"
KINDS = (None, STRING, NULLABLE_STRING, INTEGER, ARRAY, OBJECT, NUMBER)

NULL_WORDS = ("null", "None")
READ_DEPTH = 126
LITERAL_DEPTH = 128
SCHEMA_DEPTH = 64

JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
INTEGER_TEXT = re.compile(r"([-+]?)([0-9]+)")
TRIMMED = "".join(sorted(UNICODE_WHITESPACE))
ASCII_SPACE = " \t\n\r\x0b\x0c"
ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
ASCII_DIGITS = "0123456789"
HEX_DIGITS = "0123456789abcdefABCDEF"
OCTAL_DIGITS = "01234567"
WORDS = {"None": "null", "True": "true", "False": "false", "null": "null", "true": "true", "false": "false"}
SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
                  "\\": "\\", "'": "'", '"': '"'}
UNKNOWN_TYPE = object()


class Unreadable(Exception):
    """A schema nested too deep, or cyclic: it declares nothing."""


# ---- Schemas

def admitted_types(schema, path=()):
    """The type names `schema` admits; raises Unreadable for a cycle or anyOf/oneOf nesting
    deeper than SCHEMA_DEPTH. A non-dict admits nothing."""
    if not isinstance(schema, dict):
        return set()
    if any(outer is schema for outer in path) or len(path) > SCHEMA_DEPTH:
        raise Unreadable
    types = set()
    if "type" in schema:
        named = schema["type"]
        if isinstance(named, str):
            types.add(named)
        elif isinstance(named, (list, tuple)):
            types.update(name if isinstance(name, str) else UNKNOWN_TYPE for name in named)
        else:
            types.add(UNKNOWN_TYPE)
    elif isinstance(schema.get("enum"), (list, tuple)):
        values = schema["enum"]
        if all(v is None or isinstance(v, str) for v in values) and any(isinstance(v, str) for v in values):
            types.add("string")
            if any(v is None for v in values):
                types.add("null")
    for key in ("anyOf", "oneOf"):
        members = schema.get(key)
        if isinstance(members, (list, tuple)):
            for member in members:
                types |= admitted_types(member, path + (schema,))
    return types


def kind_of(schema):
    try:
        types = admitted_types(schema)
    except Unreadable:
        return None
    if "string" in types:
        return NULLABLE_STRING if "null" in types else STRING
    for kind in (INTEGER, NUMBER, ARRAY, OBJECT):
        if types == {kind}:
            return kind
    if types == {INTEGER, NUMBER}:
        return NUMBER
    return None


def declared_of(tools):
    """{function name: (parameter kinds {name: kind, only those with one}, parameters schema)};
    the first tool of a name wins."""
    declared = {}
    if not isinstance(tools, (list, tuple)):
        return declared
    for tool in tools:
        if not isinstance(tool, dict):
            continue
        function = tool["function"] if "function" in tool else tool
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            continue
        if function["name"] in declared:
            continue
        parameters = next((function[key] for key in ("parameters", "input_schema", "inputSchema")
                           if function.get(key) is not None), None)
        kinds = {}
        properties = parameters.get("properties") if isinstance(parameters, dict) else None
        if isinstance(properties, dict):
            for name, schema in properties.items():
                if isinstance(name, str) and kind_of(schema) is not None:
                    kinds[name] = kind_of(schema)
        declared[function["name"]] = (kinds, parameters)
    return declared


def kind(declared, function, param):
    if function not in declared:
        return None
    return declared[function][0].get(param)


def _step(schema, key, segment):
    """The schema (a dict) a path step lands on: `schema[key]` (or `schema[key][segment]`) in the
    schema or, outermost first, its anyOf then oneOf members; None when there is none."""
    level, seen = [schema], []
    for _ in range(SCHEMA_DEPTH + 1):
        below = []
        for node in level:
            if not isinstance(node, dict) or any(node is s for s in seen):
                continue
            seen.append(node)
            found = node.get(key)
            if segment is not None:
                found = found.get(segment) if isinstance(found, dict) else None
            if isinstance(found, dict):
                return found
            for members in (node.get("anyOf"), node.get("oneOf")):
                if isinstance(members, (list, tuple)):
                    below.extend(members)
        level = below
    return None


def kind_at(declared, function, path):
    if function not in declared:
        return None
    schema = declared[function][1]
    for segment in path:
        try:
            is_array = "array" in admitted_types(schema)
        except Unreadable:
            is_array = False
        schema = _step(schema, "items", None) if is_array else _step(schema, "properties", segment)
        if schema is None:
            return None
    return kind_of(schema)


# ---- Reading back

class _Pairs(list):
    """An object's members, as read (keys kept for the surrogate check)."""


def _refuse(_text):
    raise ValueError("not serde's JSON")


def _number(text):
    if not JSON_NUMBER.fullmatch(text) or not math.isfinite(float(text)):
        raise ValueError("a number serde_json cannot read")
    return text


def _has_surrogate(text):
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def _sound(value):
    """No lone surrogate in any string or key, and containers at most READ_DEPTH deep."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if _has_surrogate(item):
                return False
        elif isinstance(item, (list, _Pairs)):
            if depth + 1 > READ_DEPTH:
                return False
            for element in item:
                if isinstance(item, _Pairs):
                    key, element = element
                    if _has_surrogate(key):
                        return False
                stack.append((element, depth + 1))
    return True


def reads_back(text):
    """Whether `text` is one JSON value serde_json reads back from inside the arguments object."""
    try:
        value = json.loads(text, parse_constant=_refuse, parse_float=_number, parse_int=_number,
                           object_pairs_hook=_Pairs)
    except (ValueError, RecursionError):
        return False
    return _sound(value)


# ---- The Python-literal reader

VALUE = 0          # the syntaxes the reader takes (symphony.value.LiteralSyntax): a value's text
ARGUMENT = 1       # a pythonic call's argument: sets, string prefixes, joined strings, signs, Python numbers
SLIPS = 2          # also raw line breaks in strings and zero-padded integers
STRING_PREFIXES = {"": "", "r": "r", "u": "", "f": "f", "rf": "rf", "fr": "rf", "b": "b", "rb": "b", "br": "b"}
PYTHON_NUMBER = re.compile(r"([0-9]*)(?:(\.)([0-9]*))?([eE][-+]?[0-9]+)?")
# Python's lexical grammar of an integer in base 16, 8 or 2 (its reference, "Integer literals"):
# an underscore before each digit at most
BASED_INTEGER = re.compile(r"0(?:[xX](?:_?[0-9a-fA-F])+|[oO](?:_?[0-7])+|[bB](?:_?[01])+)")


class NotLiteral(Exception):
    pass


class _Literal:
    def __init__(self, text, syntax):
        self.text = text
        self.i = 0
        self.argument = bool(syntax & ARGUMENT)
        self.slips = bool(syntax & SLIPS)

    def peek(self):
        if self.i >= len(self.text):
            raise NotLiteral("the text ended")
        return self.text[self.i]

    def space(self):
        while self.i < len(self.text) and self.text[self.i] in ASCII_SPACE:
            self.i += 1

    def prefix(self):
        """The string prefix (normalised: "", "r", "f", "rf", "b") at the reading position, its
        length, or None when no string starts there."""
        text, i = self.text, self.i
        if i < len(text) and text[i] in "'\"":
            return "", 0
        if not self.argument:
            return None
        for length in (1, 2):
            letters = text[i:i + length]
            if (len(letters) == length and all(c in ASCII_LETTERS for c in letters)
                    and letters.lower() in STRING_PREFIXES and text[i + length:i + length + 1] in ("'", '"')):
                return STRING_PREFIXES[letters.lower()], length
        return None

    def value(self, depth):
        """(JSON text, whether it is a string) of the literal at the reading position."""
        self.space()
        c = self.peek()
        if c in "[({":
            if depth >= LITERAL_DEPTH:
                raise NotLiteral("too deep")
            return self.container(c, depth + 1), False
        if self.prefix() is not None:
            return self.strings(), True
        if self.argument and c in "+-":
            start = self.i
            negative = self.signs()
            if self.i < len(self.text) and self.text[self.i] == "(":
                return self.signed(negative, depth), False
            self.i = start
        if c == "-" or c in ASCII_DIGITS or (self.argument and c in "+."):
            return self.number(), False
        if c in ASCII_LETTERS:
            return self.word(), False
        raise NotLiteral(f"no value starts with {c!r}")

    def signs(self):
        """Reads the signs and the spaces after each (one `-`, or as an argument any run of `-` and
        `+`); whether they negate."""
        text, negative = self.text, False
        while self.i < len(text) and (text[self.i] == "-" or (self.argument and text[self.i] == "+")):
            negative ^= text[self.i] == "-"
            self.i += 1
            self.space()
            if not self.argument:
                break
        return negative

    def signed(self, negative, depth):
        """Signs before a `(`: what it holds must be one number, negated by an odd count of `-`."""
        if depth >= LITERAL_DEPTH:
            raise NotLiteral("too deep")
        inner = self.container("(", depth + 1)
        if inner[0] not in "-" + ASCII_DIGITS:
            raise NotLiteral("a sign before no number")
        if not negative:
            return inner
        return inner[1:] if inner[0] == "-" else "-" + inner

    def container(self, opener, depth):
        closer = {"[": "]", "(": ")", "{": "}"}[opener]
        self.i += 1
        items, commas, is_set = [], 0, False
        while True:
            self.space()
            if self.peek() == closer:
                break
            if opener == "{" and not is_set:
                key, key_is_string = self.value(depth)
                self.space()
                if self.argument and not items and self.peek() in ",}":
                    is_set = True           # `{a, b}`: a set, written as a list
                    items.append(key)
                else:
                    if self.peek() != ":":
                        raise NotLiteral("a key without ':'")
                    self.i += 1
                    if not key_is_string:
                        key = json.dumps(key, ensure_ascii=False)
                    items.append(key + ": " + self.value(depth)[0])
            else:
                items.append(self.value(depth)[0])
            self.space()
            if self.peek() == ",":
                self.i += 1
                commas += 1
            elif self.peek() != closer:
                raise NotLiteral("an item without ',' or a closer after it")
        self.i += 1
        if opener == "(" and len(items) == 1 and commas == 0:
            return items[0]
        if opener == "{" and not is_set:
            return "{" + ", ".join(items) + "}"
        return "[" + ", ".join(items) + "]"

    def strings(self):
        """A string, and as an argument every string written right after it (Python joins them)."""
        chars = self.string()
        while self.argument:
            start = self.i
            self.space()
            if self.prefix() is None:
                self.i = start
                break
            chars += self.string()
        return json.dumps(chars, ensure_ascii=False)

    def string(self):
        text = self.text
        kind, length = self.prefix()
        if kind == "b":
            raise NotLiteral("bytes")
        raw, fmt = "r" in kind, "f" in kind
        self.i += length
        quote = text[self.i]
        triple = self.argument and text[self.i:self.i + 3] == quote * 3   # as an argument, `'''…'''` too
        self.i += 3 if triple else 1
        chars = []
        while True:
            c = self.peek()
            self.i += 1
            if c == quote and (not triple or text[self.i:self.i + 2] == quote * 2):
                self.i += 2 if triple else 0
                return "".join(chars)
            if c in "\n\r" and not self.slips and not triple:
                raise NotLiteral("a line break in a string")
            if fmt and c in "{}":
                if text[self.i:self.i + 1] != c:
                    raise NotLiteral("an f-string placeholder")
                chars.append(c)
                self.i += 1
                continue
            if c != "\\":
                chars.append(c)
                continue
            e = self.peek()
            self.i += 1
            if raw:
                chars.append("\\" + e)
            elif e in SIMPLE_ESCAPES:
                chars.append(SIMPLE_ESCAPES[e])
            elif e == "\n":
                pass
            elif e == "\r":
                if text[self.i:self.i + 1] == "\n":
                    self.i += 1
            elif e in OCTAL_DIGITS:
                digits = e
                while len(digits) < 3 and self.i < len(text) and text[self.i] in OCTAL_DIGITS:
                    digits += text[self.i]
                    self.i += 1
                chars.append(chr(int(digits, 8)))
            elif e in "xuU":
                width = {"x": 2, "u": 4, "U": 8}[e]
                digits = text[self.i:self.i + width]
                if len(digits) != width or any(d not in HEX_DIGITS for d in digits):
                    raise NotLiteral("a short hex escape")
                code = int(digits, 16)
                if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                    raise NotLiteral("no such character")
                chars.append(chr(code))
                self.i += width
            else:
                chars.append("\\")     # an unknown escape keeps its backslash
                self.i -= 1            # and what follows is text

    def number(self):
        text = self.text
        sign = "-" if self.signs() else ""
        start = self.i
        while self.i < len(text):
            c = text[self.i]
            if c in ASCII_LETTERS or c in ASCII_DIGITS or c in "._":
                self.i += 1
            elif c in "+-" and self.i > start and text[self.i - 1] in "eE":
                self.i += 1
            else:
                break
        run = text[start:self.i]
        digits = run.replace("_", "")
        if self.i == start:
            raise NotLiteral("no digits")
        if self.argument and BASED_INTEGER.fullmatch(run):
            try:
                return sign + str(int(run, 0))
            except ValueError:
                raise NotLiteral("longer than Python writes an integer") from None
        if JSON_NUMBER.fullmatch(sign + digits):
            return sign + digits
        match = PYTHON_NUMBER.fullmatch(digits) if self.argument else None
        if not match or not (match.group(1) or match.group(3)):
            raise NotLiteral("not a number")
        whole, dot, fraction, exponent = match.group(1), match.group(2), match.group(3), match.group(4) or ""
        if not dot and not exponent and whole.lstrip("0") and whole.startswith("0") and not self.slips:
            raise NotLiteral("a zero-padded integer")
        return sign + (whole.lstrip("0") or "0") + ("." + (fraction or "0") if dot else "") + exponent

    def word(self):
        start = self.i
        while self.i < len(self.text) and (self.text[self.i] in ASCII_LETTERS or self.text[self.i] in ASCII_DIGITS
                                           or self.text[self.i] == "_"):
            self.i += 1
        word = self.text[start:self.i]
        if word not in WORDS:
            raise NotLiteral(f"not a literal word: {word!r}")
        return WORDS[word]


def python_literal(text, syntax=VALUE):
    """The JSON (separators `, ` and `: `) of the one Python literal `text` spells, or None."""
    reader = _Literal(text, syntax)
    try:
        out = reader.value(0)[0]
        reader.space()
    except (NotLiteral, RecursionError):
        return None
    return out if reader.i == len(text) else None


# ---- One value's text

def quoted(text):
    """The JSON string of `text`, escaped as serde_json writes it."""
    return json.dumps(text, ensure_ascii=False)


def _integer(trimmed):
    """The JSON of a declared integer's trimmed text (a sign, then digits), or None."""
    match = INTEGER_TEXT.fullmatch(trimmed)
    if match:
        out = ("-" if match.group(1) == "-" else "") + (match.group(2).lstrip("0") or "0")
        if reads_back(out):
            return out
    return None


def _inferred(trimmed):
    """The JSON inference reads from the trimmed text, or None (then: the string of the text)."""
    if reads_back(trimmed):
        return trimmed
    literal = python_literal(trimmed)
    if literal is not None and reads_back(literal):
        return literal
    return None


def _as_declared(inside, kind):
    """The text inside a string layer as a value of the declared `kind` (a number for a number or
    an integer, an array or object for a container), or None."""
    trimmed = inside.strip(TRIMMED)
    if kind in (INTEGER, NUMBER):
        if kind == INTEGER and _integer(trimmed) is not None:
            return _integer(trimmed)
        if trimmed[:1] in tuple("-0123456789") and trimmed and reads_back(trimmed):
            return trimmed
        return None
    opener = "[" if kind == ARRAY else "{"
    found = _inferred(trimmed)
    return found if found is not None and found.startswith(opener) else None


def _string_body(text):
    """The text a JSON string body decodes to (serde's rules: no raw quote or control character,
    no lone surrogate), or None."""
    try:
        inside = json.loads('"' + text + '"')
    except ValueError:
        return None
    return None if _has_surrogate(inside) else inside


def to_json(text, kind=None):
    if kind == STRING:
        return quoted(text)
    if kind == NULLABLE_STRING:
        return "null" if text in NULL_WORDS else quoted(text)
    trimmed = text.strip(TRIMMED)
    if kind == INTEGER and _integer(trimmed) is not None:
        return _integer(trimmed)
    found = _inferred(trimmed)
    unwraps = kind in (INTEGER, NUMBER, ARRAY, OBJECT)
    if found is None:
        # escaped JSON: the body of a string holding a declared array or object
        if kind in (ARRAY, OBJECT) and "\\" in trimmed and _string_body(trimmed) is not None:
            inside = _as_declared(_string_body(trimmed), kind)
            if inside is not None:
                return inside
        return quoted(text)
    if unwraps and found.startswith('"'):
        inside = _as_declared(json.loads(found), kind)
        if inside is not None:
            return inside
    return found
