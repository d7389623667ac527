"""DeepSeek V4.1 (SPEC §3 `deepseek_v4_1`, also `deepseek_v4.1`): `<think>` thoughts (the
generation prompt opens one) and a `<｜DSML｜ calls>` block of DSML invokes. A calls block ends
the thought. `｜` is U+FF5C; the space after `DSML｜` is part of every marker.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import DSML_INVOKE_CLOSE

DEEPSEEK_V4_1 = (
    Format("deepseek_v4_1")
    .terminal("think_open", "<think>")
    .terminal("think_close", "</think>")
    .terminal("calls_open", "<｜DSML｜ calls>")
    .terminal("calls_close", "</｜DSML｜ calls>")
    .terminal("invoke_open", "<｜DSML｜ invoke name=\"")
    .terminal("invoke_close", DSML_INVOKE_CLOSE)
    .state("content", Emits.CONTENT)
    .state("reasoning", Emits.REASONING)
    .state("calls", Emits.WRAPPER)
    .state("invoke", Emits.ARGUMENTS)
    .transition("content", "think_open", "reasoning")
    .transition("reasoning", "think_close", "content")
    .transition("content", "calls_open", "calls")
    .transition("reasoning", "calls_open", "calls")
    .transition("calls", "invoke_open", "invoke")
    .transition("invoke", "invoke_close", "calls")
    .transition("invoke", "invoke_open", "invoke")
    .transition("invoke", "calls_close", "content")
    .transition("calls", "calls_close", "content")
    .calls(CallSyntax.dsml())
    .opens_turn("<｜Assistant｜>")
)

TABLES = {"deepseek_v4_1": DEEPSEEK_V4_1}
ALIASES = {"deepseek_v4.1": "deepseek_v4_1"}
