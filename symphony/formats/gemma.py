"""Gemma 4 (`gemma4`): the model writes its thought as `<|channel>thought\n…<channel|>` (a bare
`<|channel>`, the channel's name left out, opens it too, as vLLM's parser reads it) and each
call as `<|tool_call>call:NAME{…}<tool_call|>` in Gemma's own object notation (bare keys,
strings between `<|"|>` quotes), which the assembler converts to JSON as it reads. Calls may come
before the content. The call ends with its object's `}`; the `<tool_call|>` after it is dropped.

FunctionGemma (`functiongemma`, vLLM's `functiongemma`) writes the same notation with `<escape>`
as the string quote, each call as `<start_function_call>call:NAME{…}<end_function_call>`, and no
thought.
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import calls_only, thought_and_calls

THOUGHT = ("<|channel>thought", "<channel|>")
TOOL_CALL = ("<|tool_call>", "<tool_call|>")

GEMMA4 = (thought_and_calls("gemma4", THOUGHT, TOOL_CALL, CallSyntax.gemma(), "<|turn>model")
          .spelled_also("think_open", "think_open_bare", "<|channel>"))

FUNCTIONGEMMA = calls_only("functiongemma", ("<start_function_call>", "<end_function_call>"),
                           CallSyntax.gemma(quote="<escape>"), "<start_of_turn>model")

TABLES = {"gemma4": GEMMA4, "functiongemma": FUNCTIONGEMMA}
