"""Seed-OSS (SPEC §3 `seed_oss`): `<seed:think>` thoughts the model writes itself and
`<seed:tool_call>` blocks of `<function=…>` tags whose values sit directly between the parameter
tags: nothing is stripped, a trailing newline is the value's (patches keep their last line). A
plain `<tool_call>` is text.
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import thought_and_calls
from symphony.syntax import Placement, Spelling

SEED_OSS = thought_and_calls("seed_oss", ("<seed:think>", "</seed:think>"),
                             ("<seed:tool_call>", "</seed:tool_call>"),
                             CallSyntax.tagged(Spelling.PYTHON, Placement.DIRECT), "<seed:bos>assistant")

TABLES = {"seed_oss": SEED_OSS}
