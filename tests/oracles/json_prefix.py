"""Whole-buffer oracle of the lenient JSON prefix validator (SPEC §4.3/§4.4), written as a plain
recursive descent over the whole text: how far `text` is an acceptable JSON prefix.

Accepts: a missing value (`{"a": }`, `[,,]`), trailing and extra commas, a key without `:`,
unknown escapes, a short `\\u`, any run of number characters starting with `-` or a digit, a
literal's prefix at the very end, Unicode whitespace between tokens, a closer of the wrong kind
when an outer container is of its kind (the inner ones end there). Refuses: a word that is no
literal (at its first letter), a closer nothing open can take, a surrogate escape without its
partner (at its backslash), a container opened with 32 already open, anything after a complete
top-level value.
"""

UNICODE_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000")
LITERALS = ("true", "false", "null")
NUMBER_CHARS = frozenset("0123456789+-.eE")
HEX = frozenset("0123456789abcdefABCDEF")
MAX_DEPTH = 32


class _Ended(Exception):
    """The text ended: everything read was acceptable."""


class _Refused(Exception):
    def __init__(self, at):
        super().__init__(at)
        self.at = at


class _Cursor:
    """A reading position in the text; `peek` raises _Ended at its end."""

    def __init__(self, text):
        self.text = text
        self.i = 0

    def peek(self):
        if self.i >= len(self.text):
            raise _Ended
        return self.text[self.i]


class _Reader(_Cursor):

    def skip_space(self):
        while self.i < len(self.text) and self.text[self.i] in UNICODE_WHITESPACE:
            self.i += 1
        return self.peek()

    def value(self, stack):
        c = self.peek()
        if c in "{[":
            if len(stack) >= MAX_DEPTH:
                raise _Refused(self.i)
            self.container(c, stack + [c])
        elif c == '"':
            self.string()
        elif c == "-" or "0" <= c <= "9":
            while self.i < len(self.text) and self.text[self.i] in NUMBER_CHARS:
                self.i += 1
        elif c.isascii() and c.isalpha():
            self.word()
        else:
            raise _Refused(self.i)

    def word(self):
        start = self.i
        while self.i < len(self.text) and self.text[self.i].isascii() and self.text[self.i].isalpha():
            self.i += 1
        word = self.text[start:self.i]
        if self.i == len(self.text):
            if any(lit.startswith(word) for lit in LITERALS):
                raise _Ended
            raise _Refused(start)
        if word not in LITERALS:
            raise _Refused(start)

    def hex_escape(self):
        """After `\\u`: up to four hex digits; returns the code point, or None for a short one."""
        digits = ""
        while len(digits) < 4:
            c = self.peek()
            if c not in HEX:
                return None
            digits += c
            self.i += 1
        return int(digits, 16)

    def string(self):
        self.i += 1
        while True:
            c = self.peek()
            if c == '"':
                self.i += 1
                return
            if c != "\\":
                self.i += 1
                continue
            backslash = self.i
            self.i += 1
            c = self.peek()
            self.i += 1
            if c != "u":
                continue
            code = self.hex_escape()
            if code is None:
                continue
            if 0xDC00 <= code <= 0xDFFF:
                raise _Refused(backslash)
            if 0xD800 <= code <= 0xDBFF:
                for expected in "\\u":
                    if self.peek() != expected:
                        raise _Refused(backslash)
                    self.i += 1
                low = self.hex_escape()
                if low is None or not 0xDC00 <= low <= 0xDFFF:
                    raise _Refused(backslash)

    def closer(self, c, stack):
        """A closer met inside the innermost container: True when it closes that one, False when
        it belongs to an outer one (left for it), refused when nothing open takes it."""
        opener = "{" if c == "}" else "["
        if stack[-1] == opener:
            self.i += 1
            return True
        if opener in stack[:-1]:
            return False
        raise _Refused(self.i)

    def container(self, kind, stack):
        self.i += 1
        expect = "key" if kind == "{" else "value"
        while True:
            c = self.skip_space()
            if c in "}]":
                self.closer(c, stack)
                return
            if kind == "{":
                if expect == "key":
                    if c == ",":
                        self.i += 1
                    elif c == '"':
                        self.string()
                        expect = "colon"
                    else:
                        raise _Refused(self.i)
                elif expect == "colon":
                    if c == ":":
                        self.i += 1
                        expect = "value"
                    elif c == ",":
                        self.i += 1
                        expect = "key"
                    else:
                        raise _Refused(self.i)
                elif expect == "value":
                    if c == ",":
                        self.i += 1
                        expect = "key"
                    else:
                        self.value(stack)
                        expect = "after"
                else:
                    if c != ",":
                        raise _Refused(self.i)
                    self.i += 1
                    expect = "key"
            else:
                if expect == "value":
                    if c == ",":
                        self.i += 1
                    else:
                        self.value(stack)
                        expect = "after"
                else:
                    if c != ",":
                        raise _Refused(self.i)
                    self.i += 1
                    expect = "value"


def prefix_end_chars(text):
    """How many characters of `text` are an acceptable prefix (all of them when it is one)."""
    reader = _Reader(text)
    try:
        reader.skip_space()
        reader.value([])
        if reader.i < len(text):
            return reader.i
        return len(text)
    except _Ended:
        return len(text)
    except _Refused as refused:
        return refused.at


def prefix_end(text):
    """As prefix_end_chars, in UTF-8 bytes (the native validator's unit)."""
    return len(text[: prefix_end_chars(text)].encode("utf-8"))
