"""Seed-OSS (SPEC §3 `seed_oss`): `<seed:think>` thoughts the model writes itself and
`<seed:tool_call>` blocks of `<function=…>` tags whose values sit directly between the parameter
tags: nothing is stripped, a trailing newline is the value's (patches keep their last line). A
plain `<tool_call>` is text.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import Placement, Spelling

SEED_OSS = (
    Format("seed_oss")
    .terminal("think_open", "<seed:think>")
    .terminal("think_close", "</seed:think>")
    .terminal("call_open", "<seed:tool_call>")
    .terminal("call_close", "</seed:tool_call>")
    .state("content", Emits.CONTENT)
    .state("reasoning", Emits.REASONING)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "think_open", "reasoning")
    .transition("reasoning", "think_close", "content")
    .transition("content", "call_open", "calls")
    .transition("calls", "call_close", "content")
    .transition("calls", "call_open", "calls")
    .calls(CallSyntax.tagged(Spelling.PYTHON, Placement.DIRECT))
    .opens_turn("<seed:bos>assistant")
)

TABLES = {"seed_oss": SEED_OSS}
