"""Jamba 1.5/1.6/1.7 (`jamba`, issue 11): a JSON list of `{"name", "arguments"}` call objects
between `<tool_calls>` and `</tool_calls>`; no thought. (Jamba2 writes Hermes-style `<tool_call>`
objects: the qwen2_5 table.)
"""
from symphony.format import CallSyntax, Emits, Format

JAMBA = (
    Format("jamba")
    .terminal("calls_open", "<tool_calls>")
    .terminal("calls_close", "</tool_calls>")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "calls_open", "calls")
    .transition("calls", "calls_close", "content")
    .calls(CallSyntax.json_list())
)

TABLES = {"jamba": JAMBA}
