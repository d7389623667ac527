"""DeepSeek V4.1 (SPEC §3 `deepseek_v4_1`, also `deepseek_v4.1`): `<think>` thoughts (the
generation prompt opens one) and a `<｜DSML｜ calls>` block of DSML invokes. A calls block ends
the thought. `｜` is U+FF5C; the space after `DSML｜` is part of every marker.
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import thought_and_invokes
from symphony.syntax import DSML_INVOKE_CLOSE

DEEPSEEK_V4_1 = thought_and_invokes("deepseek_v4_1", ("<｜DSML｜ calls>", "</｜DSML｜ calls>"),
                                    ("<｜DSML｜ invoke name=\"", DSML_INVOKE_CLOSE), CallSyntax.dsml(),
                                    "<｜Assistant｜>")

TABLES = {"deepseek_v4_1": DEEPSEEK_V4_1}
ALIASES = {"deepseek_v4.1": "deepseek_v4_1"}
