"""Hunyuan-A13B (`hunyuan_a13b`, issue 10): the model writes `<think>` thoughts and wraps its
answer in `<answer>`…`</answer>` (the markers are dropped, the answer is content); calls are a
JSON list of `{"name", "arguments"}` objects between `<tool_calls>` and `</tool_calls>`.
"""
from symphony.format import CallSyntax, Emits, Format

HUNYUAN_A13B = (
    Format("hunyuan_a13b")
    .terminal("think_open", "<think>")
    .terminal("think_close", "</think>")
    .terminal("answer_open", "<answer>")
    .terminal("answer_close", "</answer>")
    .terminal("calls_open", "<tool_calls>")
    .terminal("calls_close", "</tool_calls>")
    .state("content", Emits.CONTENT)
    .state("reasoning", Emits.REASONING)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "think_open", "reasoning")
    .transition("reasoning", "think_close", "content")
    .transition("content", "answer_open", "content")
    .transition("content", "answer_close", "content")
    .transition("content", "calls_open", "calls")
    .transition("calls", "calls_close", "content")
    .calls(CallSyntax.json_list())
)

TABLES = {"hunyuan_a13b": HUNYUAN_A13B}
