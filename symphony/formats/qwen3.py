"""Qwen3 and kin (SPEC §3 `qwen3`): `<think>` thoughts and `<tool_call>` JSON call objects.

`<tool_call>` inside a thought is reasoning text (no row from reasoning); `</think>` in content
is content. A fenced `<tool_call>` block in content is read as a call (policy, SPEC §10).
"""
from symphony.format import CallSyntax, Emits, Format

QWEN3 = (
    Format("qwen3")
    .terminal("think_open", "<think>")
    .terminal("think_close", "</think>")
    .terminal("call_open", "<tool_call>")
    .terminal("call_close", "</tool_call>")
    .state("content", Emits.CONTENT)
    .state("reasoning", Emits.REASONING)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "think_open", "reasoning")
    .transition("reasoning", "think_close", "content")
    .transition("content", "call_open", "calls")
    .transition("calls", "call_close", "content")
    .transition("calls", "call_open", "calls")
    .calls(CallSyntax.json())
    .opens_turn("<|im_start|>assistant")
)

TABLES = {"qwen3": QWEN3}
