"""symphony: what a language model writes, as typed events (content, reasoning, tool calls)."""
from symphony.errors import (BufferOverflowError, ConcurrentUseError, FormatError, InternalError, LifecycleError,
                             ParseError)
from symphony.events import (
    Content,
    Dropped,
    Finish,
    Malformed,
    Reasoning,
    ReasoningEnd,
    ReasoningStart,
    Text,
    ToolCallArguments,
    ToolCallEnd,
    ToolCallStart,
)
from symphony.format import CallSyntax, Emits, Format
from symphony.grammar import grammar
from symphony.inputs import Delta, End, Prompt, TokenSpan
from symphony.models import for_model
from symphony.parser import DEFAULT_BUFFER_LIMIT, Engine, constrained, formats, parse, parser
from symphony.reasons import DropReason, FinishReason, MalformedReason, Other

__version__ = "0.1.0"

__all__ = [
    "BufferOverflowError", "CallSyntax", "Content", "Delta", "DropReason", "Dropped", "Emits", "End",
    "ConcurrentUseError", "DEFAULT_BUFFER_LIMIT", "Engine", "Finish", "FinishReason", "Format", "FormatError", "InternalError", "LifecycleError",
    "Malformed", "MalformedReason", "Other", "ParseError", "Prompt", "Reasoning", "ReasoningEnd",
    "ReasoningStart", "Text", "TokenSpan", "ToolCallArguments", "ToolCallEnd", "ToolCallStart",
    "constrained", "for_model", "formats", "grammar", "parse", "parser",
]
