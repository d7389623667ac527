"""Character classes the reference uses (SPEC §10): Rust's `char::is_whitespace` (Unicode
White_Space). Python's `str.isspace()` also accepts U+001C..U+001F, so it is not used."""

WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000")
_WHITESPACE_CHARS = "".join(sorted(WHITESPACE))


def trim(text):
    """Rust's `str::trim`: Unicode White_Space removed from both ends."""
    return text.strip(_WHITESPACE_CHARS)


def is_blank(text):
    return not trim(text)
