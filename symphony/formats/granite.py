"""Granite 3.x (`granite`, issue 11): `<|tool_call|>` (or the text `<tool_call>`) and then a JSON
list of `{"name", "arguments"}` call objects to the end of the output; no thought. (Granite 4
writes Hermes-style `<tool_call>` objects: the qwen2_5 table.) Granite-20B-FunctionCalling
(`granite_20b_fc`, vLLM's `granite-20b-fc`): each call is `<function_call>` and a JSON
`{"name", "arguments"}` object, with no close marker; the next `<function_call>` starts the next.
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

GRANITE_20B_FC = (
    Format("granite_20b_fc")
    .terminal("call_open", "<function_call>")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "call_open", "calls")
    .transition("calls", "call_open", "calls")
    .calls(CallSyntax.json())
)

TABLES = {"granite": GRANITE, "granite_20b_fc": GRANITE_20B_FC}
