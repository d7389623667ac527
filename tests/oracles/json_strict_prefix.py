"""Whole-buffer oracle of the strict JSON prefix validator (`JsonPrefix(strict=True)`): how far
`text` is a prefix of RFC 8259 JSON, by a plain recursive descent over the whole text.

Refusal offsets follow the native validator's conventions: a word that is no literal at its first
letter, a bad or lone-surrogate escape at its backslash, a number the grammar cannot continue at
the byte that breaks it, a container opened with 32 already open at its bracket, anything but
whitespace after the complete value. Offsets are in UTF-8 bytes.

`bounded`: a number a decoder cannot keep is refused at its first byte: one with a fraction or an
exponent that Python's float() reads as infinity, or one whose integer part has more than 4,300
digits; a number the text ends in is judged only when `ended` (`JsonPrefix.end()`), but for its
integer digits.
"""
import math

from tests.oracles.json_prefix import HEX, LITERALS, MAX_DEPTH, _Cursor, _Ended, _Refused

JSON_WHITESPACE = " \t\n\r"
ESCAPES = frozenset('"\\/bfnrt')
DIGITS = frozenset("0123456789")
MAX_INT_DIGITS = 4300


class _Reader(_Cursor):
    def __init__(self, text, bounded=False, ended=False):
        super().__init__(text)
        self.depth = 0
        self.bounded = bounded
        self.ended = ended

    def space(self):
        while self.peek() in JSON_WHITESPACE:
            self.i += 1

    def value(self):
        self.space()
        c = self.peek()
        if c in "{[":
            self.container(c)
        elif c == '"':
            self.string()
        elif c == "-" or c in DIGITS:
            self.number()
        elif c in "tfn":
            self.word()
        else:
            raise _Refused(self.i)

    def container(self, opener):
        if self.depth >= MAX_DEPTH:
            raise _Refused(self.i)
        self.depth += 1
        closer = "}" if opener == "{" else "]"
        self.i += 1
        self.space()
        if self.peek() == closer:
            self.i += 1
            self.depth -= 1
            return
        while True:
            if opener == "{":
                self.space()
                if self.peek() != '"':
                    raise _Refused(self.i)
                self.string()
                self.space()
                if self.peek() != ":":
                    raise _Refused(self.i)
                self.i += 1
            self.value()
            self.space()
            c = self.peek()
            if c == ",":
                self.i += 1
                continue
            if c == closer:
                self.i += 1
                self.depth -= 1
                return
            raise _Refused(self.i)

    def string(self):
        self.i += 1
        while True:
            c = self.peek()
            if c == '"':
                self.i += 1
                return
            if c == "\\":
                self.escape()
                continue
            if c < " ":
                raise _Refused(self.i)
            self.i += 1

    def escape(self):
        at = self.i
        self.i += 1
        c = self.peek()
        if c in ESCAPES:
            self.i += 1
            return
        if c != "u":
            raise _Refused(at)
        code = self.hex4(at)
        if 0xDC00 <= code <= 0xDFFF:
            raise _Refused(at)
        if 0xD800 <= code <= 0xDBFF:
            if self.peek() != "\\":
                raise _Refused(at)
            self.i += 1
            if self.peek() != "u":
                raise _Refused(at)
            if not 0xDC00 <= self.hex4(at) <= 0xDFFF:
                raise _Refused(at)

    def hex4(self, at):
        self.i += 1
        digits = ""
        for _ in range(4):
            c = self.peek()
            if c not in HEX:
                raise _Refused(at)
            digits += c
            self.i += 1
        return int(digits, 16)

    def digits(self, at_least_one):
        if at_least_one and self.peek() not in DIGITS:
            raise _Refused(self.i)
        while self.i < len(self.text) and self.text[self.i] in DIGITS:
            self.i += 1

    def number(self):
        start = self.i
        if self.peek() == "-":
            self.i += 1
        if self.peek() == "0":
            self.i += 1
            if self.i < len(self.text) and self.text[self.i] in DIGITS:
                raise _Refused(self.i)
        else:
            int_start = self.i
            self.digits(True)
            if self.bounded and self.i - int_start > MAX_INT_DIGITS:
                raise _Refused(start)
        if self.i < len(self.text) and self.text[self.i] == ".":
            self.i += 1
            self.digits(True)
        if self.i < len(self.text) and self.text[self.i] in "eE":
            self.i += 1
            if self.peek() in "+-":
                self.i += 1
            self.digits(True)
        if self.i < len(self.text) and self.text[self.i] in "+-.eE0123456789":
            raise _Refused(self.i)
        written = self.text[start:self.i]
        if (self.bounded and (self.i < len(self.text) or self.ended) and not written.lstrip("-").isdigit()
                and math.isinf(float(written))):
            raise _Refused(start)

    def word(self):
        at = self.i
        for literal in LITERALS:
            if literal[0] == self.text[at]:
                break
        for k, ch in enumerate(literal):
            if at + k >= len(self.text):
                raise _Ended
            if self.text[at + k] != ch:
                raise _Refused(at)
        self.i = at + len(literal)
        if self.i < len(self.text) and self.text[self.i].isascii() and self.text[self.i].isalpha():
            raise _Refused(at)


def strict_prefix_end(text, bounded=False, ended=False):
    """The UTF-8 byte length of the longest strict JSON prefix of `text` that the validator
    accepts: all of it, or the offset where it refuses (`bounded`, `ended`: the module's doc)."""
    r = _Reader(text, bounded, ended)
    try:
        r.value()
        while True:
            if r.peek() not in JSON_WHITESPACE:
                raise _Refused(r.i)
            r.i += 1
    except _Ended:
        return len(text.encode())
    except _Refused as e:
        return len(text[:e.at].encode())


def _closing(prefix):
    """What closes a strict JSON prefix by quotes and brackets alone: `"` when it ends inside a
    string, then each open container's closer, innermost first."""
    stack, in_string, escaped = [], False, False
    for c in prefix:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "{[":
            stack.append("}" if c == "{" else "]")
        elif c in "}]":
            stack.pop()
    return ('"' if in_string else "") + "".join(reversed(stack))


def _whole(text):
    r = _Reader(text)
    try:
        r.value()
        while r.i < len(text):
            if text[r.i] not in JSON_WHITESPACE:
                return False
            r.i += 1
    except (_Ended, _Refused):
        return False
    return True


def strict_ending(text):
    """Should the input end after `text` (a value with no whitespace before it): how many UTF-8
    bytes of what the strict validator accepts commit, and what closes them into one whole value.
    That is the longest accepted prefix that quotes and brackets alone close into one whole value
    (a member whose value has not begun, a number or a literal cut before it is whole, an escape
    cut short close into nothing), and its closing; (0, "") when no prefix closes."""
    accepted = text.encode()[:strict_prefix_end(text)].decode()
    for k in range(len(accepted), 0, -1):
        closing = _closing(accepted[:k])
        if _whole(accepted[:k] + closing):
            return len(accepted[:k].encode()), closing
    return 0, ""
