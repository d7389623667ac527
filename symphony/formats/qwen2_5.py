"""Qwen2.5, Hermes and Granite (SPEC §3 `qwen2_5`): `<tool_call>` JSON call objects, no thought.

`<think>`/`</think>` are plain content here; a prompt that opens a thought changes nothing.
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import calls_only

QWEN2_5 = calls_only("qwen2_5", ("<tool_call>", "</tool_call>"), CallSyntax.json(), "<|im_start|>assistant")

TABLES = {"qwen2_5": QWEN2_5}
ALIASES = {"qwen2.5": "qwen2_5"}
