"""Gemma 4 (`gemma4`): the model writes its thought as `<|channel>thought\n…<channel|>` and each
call as `<|tool_call>call:NAME{…}<tool_call|>` in Gemma's own object notation (bare keys,
strings between `<|"|>` quotes), which the assembler converts to JSON as it reads. Calls may come
before the content. The call ends with its object's `}`; the `<tool_call|>` after it is dropped.
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import thought_and_calls

THOUGHT = ("<|channel>thought", "<channel|>")
TOOL_CALL = ("<|tool_call>", "<tool_call|>")

GEMMA4 = thought_and_calls("gemma4", THOUGHT, TOOL_CALL, CallSyntax.gemma(), "<|turn>model")

TABLES = {"gemma4": GEMMA4}
