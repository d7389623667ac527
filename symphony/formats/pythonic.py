"""The pythonic families (SPEC §3 `olmo3`, `lfm2_5`): calls written as Python calls with keyword
arguments between the table's block markers. Olmo 3 writes one call per line in
`<function_calls>` and no thought; LFM2.5 writes a Python list `[f(a='x'), g()]` between
`<|tool_call_start|>` and `<|tool_call_end|>` and its own `<think>` thoughts.
"""
from symphony.format import CallSyntax, Emits, Format

OLMO3 = (
    Format("olmo3")
    .terminal("calls_open", "<function_calls>")
    .terminal("calls_close", "</function_calls>")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "calls_open", "calls")
    .transition("calls", "calls_close", "content")
    .calls(CallSyntax.pythonic())
)

LFM2_5 = (
    Format("lfm2_5")
    .terminal("think_open", "<think>")
    .terminal("think_close", "</think>")
    .terminal("calls_open", "<|tool_call_start|>")
    .terminal("calls_close", "<|tool_call_end|>")
    .state("content", Emits.CONTENT)
    .state("reasoning", Emits.REASONING)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "think_open", "reasoning")
    .transition("reasoning", "think_close", "content")
    .transition("content", "calls_open", "calls")
    .transition("calls", "calls_close", "content")
    .calls(CallSyntax.pythonic())
)

TABLES = {"olmo3": OLMO3, "lfm2_5": LFM2_5}
ALIASES = {"lfm2.5": "lfm2_5"}
