"""Qwen2.5, Hermes and Granite (SPEC §3 `qwen2_5`): `<tool_call>` JSON call objects, no thought.
Qwen2.5-Coder (`qwen2_5_coder`, issue 11; vLLM's `qwen2_5_coder`/`qwen25_coder`): the same call
objects, which it writes in `<tools>`…`</tools>` more often than in the `<tool_call>` its template
asks for; either pair opens and closes a call.

`<think>`/`</think>` are plain content here; a prompt that opens a thought changes nothing.
"""
from symphony.format import CallSyntax
from symphony.formats.qwen3 import TOOL_CALL
from symphony.formats.shapes import calls_only

OPENER = "<|im_start|>assistant"

QWEN2_5 = calls_only("qwen2_5", TOOL_CALL, CallSyntax.json(), OPENER)

QWEN2_5_CODER = calls_only("qwen2_5_coder", TOOL_CALL, CallSyntax.json(), OPENER, also=[("<tools>", "</tools>")])

TABLES = {"qwen2_5": QWEN2_5, "qwen2_5_coder": QWEN2_5_CODER}
ALIASES = {"qwen2.5": "qwen2_5", "qwen2.5-coder": "qwen2_5_coder"}     # (vLLM's names: engine_names)
