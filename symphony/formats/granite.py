"""Granite 3.x (`granite`, issue 11): `<|tool_call|>` (or the text `<tool_call>`) and then a JSON
list of `{"name", "arguments"}` call objects to the end of the output; no thought. (Granite 4
writes Hermes-style `<tool_call>` objects: the qwen2_5 table.)
"""
from symphony.format import CallSyntax, Emits, Format

GRANITE = (
    Format("granite")
    .terminal("calls_open", "<|tool_call|>")
    .terminal("calls_open_text", "<tool_call>")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "calls_open", "calls")
    .transition("content", "calls_open_text", "calls")
    .calls(CallSyntax.json_list())
)

TABLES = {"granite": GRANITE}
