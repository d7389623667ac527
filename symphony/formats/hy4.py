"""Hy4 (SPEC §3 `hy4`): `:opensource` markers. The turn's calls sit in a
`<tool_calls:opensource>` block, each in `<tool_call:opensource>`, keyed with `:opensource` tags;
the generation prompt always opens the thought. No row from a call to the next call's opener and
none from the thought to the calls block: those markers are text there. Beyond SPEC §3's rows,
the block's close also ends a call the model left open (as DeepSeek's table does), so the client
gets the call's arguments closed rather than the block's marker as argument text.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import Tags

HY4 = (
    Format("hy4")
    .terminal("think_open", "<think:opensource>")
    .terminal("think_close", "</think:opensource>")
    .terminal("calls_open", "<tool_calls:opensource>")
    .terminal("calls_close", "</tool_calls:opensource>")
    .terminal("call_open", "<tool_call:opensource>")
    .terminal("call_close", "</tool_call:opensource>")
    .state("content", Emits.CONTENT)
    .state("reasoning", Emits.REASONING)
    .state("calls", Emits.WRAPPER)
    .state("call", Emits.ARGUMENTS)
    .transition("content", "think_open", "reasoning")
    .transition("reasoning", "think_close", "content")
    .transition("content", "calls_open", "calls")
    .transition("calls", "call_open", "call")
    .transition("call", "call_close", "calls")
    .transition("call", "calls_close", "content")
    .transition("calls", "calls_close", "content")
    .calls(CallSyntax.keyed(Tags.HY4))
)

TABLES = {"hy4": HY4}
