"""Arcee Trinity (`trinity`, SGLang's `trinity`; issue 11): Qwen2.5's `<tool_call>` JSON call
objects and a `<think>` thought, where the model also writes calls inside its thought. A call
opened in the thought is a call all the same (SGLang's detector strips the thought's tags to
read it); its close goes back into the thought, and the thought's close ends a call left open
there.
"""
from symphony.format import CallSyntax
from symphony.formats.qwen3 import TOOL_CALL
from symphony.formats.shapes import THINK, calls_in_thought, thought_and_calls

TRINITY = calls_in_thought(thought_and_calls("trinity", THINK, TOOL_CALL, CallSyntax.json()))

TABLES = {"trinity": TRINITY}
