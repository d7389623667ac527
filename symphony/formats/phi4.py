"""Phi-4-mini (`phi4_mini`, issue 11): calls are a JSON list of `{"name", "arguments"}` objects
after `functools[` (the marker holds the list's bracket, so the list is bare), to its `]`; no
thought. Only `functools[` is a marker: prose about Python's `functools` stays content.
"""
from symphony.format import CallSyntax, Emits, Format

PHI4_MINI = (
    Format("phi4_mini")
    .terminal("calls_open", "functools[")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "calls_open", "calls")
    .calls(CallSyntax.json_list(bare=True))
)

TABLES = {"phi4_mini": PHI4_MINI}
