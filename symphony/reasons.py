"""Why bytes were dropped or malformed, and why a stream finished (SPEC §1.2), with their wire spellings.

Unit reasons are `str` enums, so they compare equal to their wire text (`why == "wrapper"`);
`Other(text)` carries the free-text variants (`{"other": text}` on the wire).
"""
from enum import Enum


class DropReason(str, Enum):
    CONTROL_TOKEN = "control_token"
    WRAPPER = "wrapper"
    WHITESPACE = "whitespace"

    def __str__(self):
        return self.value


class MalformedReason(str, Enum):
    UNTERMINATED_REGION = "unterminated_region"
    INVALID_ARGUMENTS = "invalid_arguments"
    UNKNOWN_TOOL = "unknown_tool"

    def __str__(self):
        return self.value


class FinishReason(str, Enum):
    STOP = "stop"
    LENGTH = "length"
    TOOL_CALLS = "tool_calls"
    ABORT = "abort"

    def __str__(self):
        return self.value


class Other:
    """A reason given as text (MalformedReason::Other / FinishReason::Other)."""

    __slots__ = ("text",)

    def __init__(self, text):
        if not isinstance(text, str):
            raise TypeError(f"Other: text must be a str, not {type(text).__name__}")
        object.__setattr__(self, "text", text)

    def __setattr__(self, name, value):
        raise AttributeError("Other is immutable")

    def __eq__(self, other):
        return type(other) is Other and other.text == self.text

    def __hash__(self):
        return hash(("other", self.text))

    def __repr__(self):
        return f"Other({self.text!r})"

    def __reduce__(self):
        return (Other, (self.text,))


def reason_to_wire(reason):
    """The wire form of any reason: its string, or {"other": text}."""
    if type(reason) is Other:
        return {"other": reason.text}
    return reason.value


def reason_from_wire(wire, enum):
    """Reads a reason of `enum` (or Other) back from its wire form."""
    if isinstance(wire, dict):
        if set(wire) != {"other"} or not isinstance(wire["other"], str):
            raise ValueError(f"not a reason: {wire!r}")
        return Other(wire["other"])
    try:
        return enum(wire)
    except ValueError:
        raise ValueError(f"not a {enum.__name__}: {wire!r}") from None


def engine_finish(finish):
    """The reason an End's finish string maps to: stop/length/abort, anything else Other(text)."""
    if finish == "stop":
        return FinishReason.STOP
    if finish == "length":
        return FinishReason.LENGTH
    if finish == "abort":
        return FinishReason.ABORT
    return Other(finish)
