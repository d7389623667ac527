"""Qwen3 and kin (SPEC §3 `qwen3`): `<think>` thoughts and `<tool_call>` call blocks, with JSON
call objects (`qwen3`: Qwen3, Qwen3-2507, Qwen3-VL, K-EXAONE) or `<function=…>` tags
(`qwen3_tagged`: Qwen 3.5+, Qwen3-Coder, MiMo, Step-3.5, Nanbeige, Nemotron-3).

`<tool_call>` inside a thought is reasoning text (no row from reasoning); `</think>` in content
is content. A fenced `<tool_call>` block in content is read as a call (policy, SPEC §10).
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import Placement, Spelling


def qwen3(name, syntax):
    return (
        Format(name)
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
        .calls(syntax)
        .opens_turn("<|im_start|>assistant")
    )


QWEN3 = qwen3("qwen3", CallSyntax.json())
QWEN3_TAGGED = qwen3("qwen3_tagged", CallSyntax.tagged(Spelling.JSON, Placement.OWN_LINE))

TABLES = {"qwen3": QWEN3, "qwen3_tagged": QWEN3_TAGGED}
