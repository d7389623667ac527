"""Qwen3 and kin (SPEC §3 `qwen3`): `<think>` thoughts and `<tool_call>` call blocks, with JSON
call objects (`qwen3`: Qwen3, Qwen3-2507, Qwen3-VL, K-EXAONE) or `<function=…>` tags
(`qwen3_tagged`: Qwen 3.5+, Qwen3-Coder, MiMo, Step-3.5, Nanbeige, Nemotron-3).

`<tool_call>` inside a thought is reasoning text; `</think>` in content is content; a `<think>`
written inside the thought is dropped (shapes). A fenced `<tool_call>` block in content is read
as a call (policy, SPEC §10).
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import thought_and_calls
from symphony.syntax import Placement, Spelling

THINK = ("<think>", "</think>")
TOOL_CALL = ("<tool_call>", "</tool_call>")
OPENER = "<|im_start|>assistant"

QWEN3 = thought_and_calls("qwen3", THINK, TOOL_CALL, CallSyntax.json(), OPENER)
QWEN3_TAGGED = thought_and_calls("qwen3_tagged", THINK, TOOL_CALL,
                                 CallSyntax.tagged(Spelling.JSON, Placement.OWN_LINE), OPENER)

TABLES = {"qwen3": QWEN3, "qwen3_tagged": QWEN3_TAGGED}
