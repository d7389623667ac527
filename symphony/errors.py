"""The errors a parser raises (SPEC §1.6): one base class, three kinds, the reference's texts."""


class ParseError(Exception):
    """Base of every error a parser's `feed` raises. `message` is the detail without the prefix."""

    prefix = "parse error"

    def __init__(self, message):
        super().__init__(message)
        self.message = message

    def __str__(self):
        return f"{self.prefix}: {self.message}"


class LifecycleError(ParseError):
    """An input out of order (a prompt after output, a delta or end after end). Nothing was emitted."""

    prefix = "lifecycle misuse"


class ConcurrentUseError(LifecycleError):
    """A parser fed while it is still feeding: re-entered from a finalizer or a callback that ran
    inside a feed, or used from two threads at once. The second feed is refused (nothing emitted,
    the running one is unharmed): a parser serves one stream on one thread at a time."""

    prefix = "concurrent use"


class InternalError(ParseError):
    """A parser reached a state it should not; feed End to get the held bytes back as Malformed."""

    prefix = "internal parser error"


class BufferOverflowError(ParseError):
    """More output was buffered than a limit allows; feed End to get it back as Malformed."""

    def __init__(self, limit):
        super().__init__(f"{limit} bytes")
        self.limit = limit

    def __str__(self):
        return f"buffered output exceeded {self.limit} bytes"


class FormatError(ValueError):
    """A format table that is not valid (SPEC §2.1's validation texts)."""
