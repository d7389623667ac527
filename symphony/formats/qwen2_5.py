"""Qwen2.5, Hermes and Granite (SPEC §3 `qwen2_5`): `<tool_call>` JSON call objects, no thought.

`<think>`/`</think>` are plain content here; a prompt that opens a thought changes nothing.
"""
from symphony.format import CallSyntax, Emits, Format

QWEN2_5 = (
    Format("qwen2_5")
    .terminal("call_open", "<tool_call>")
    .terminal("call_close", "</tool_call>")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "call_open", "calls")
    .transition("calls", "call_close", "content")
    .transition("calls", "call_open", "calls")
    .calls(CallSyntax.json())
    .opens_turn("<|im_start|>assistant")
)

TABLES = {"qwen2_5": QWEN2_5}
ALIASES = {"qwen2.5": "qwen2_5"}
