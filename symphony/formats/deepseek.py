"""DeepSeek V4.1 (SPEC §3 `deepseek_v4_1`, also `deepseek_v4.1`): `<think>` thoughts (the
generation prompt opens one) and a `<｜DSML｜ calls>` block of DSML invokes. A calls block ends
the thought. `｜` is U+FF5C; the space after `DSML｜` is part of every marker.

DeepSeek V3 and V3.1 (`deepseek_v3`, `deepseek_v3_1`, issue 10): a `<｜tool▁calls▁begin｜>` block
of calls, each between `<｜tool▁call▁begin｜>` and `<｜tool▁call▁end｜>` (`▁` is U+2581). V3 (and
R1) write `function<｜tool▁sep｜>NAME`, then the arguments in a ```json fence (the type word is
always `function`, so it is part of the call's marker); V3.1 writes `NAME<｜tool▁sep｜>` and the
arguments object bare. Both read `<think>` thoughts (R1 and V3.1's thinking mode write them).

DeepSeek V3.2 and V4 (`deepseek_v3_2`, `deepseek_v4`, issue 11): V4.1's DSML invokes and thought,
spelled without the space after `DSML｜` (`<｜DSML｜invoke name="`, `<｜DSML｜parameter …>`), in a
`<｜DSML｜function_calls>` block (V3.2) or a `<｜DSML｜tool_calls>` block (V4).
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import THINK, thought_and_call_block, thought_and_invokes
from symphony.syntax import DSML_INVOKE_CLOSE, DSML_V3_2, CallObject, dsml_tags

DEEPSEEK_V4_1 = thought_and_invokes("deepseek_v4_1", ("<｜DSML｜ calls>", "</｜DSML｜ calls>"),
                                    ("<｜DSML｜ invoke name=\"", DSML_INVOKE_CLOSE), CallSyntax.dsml(),
                                    "<｜Assistant｜>")

CALLS = ("<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>")
SEP = "<｜tool▁sep｜>"
CALL_END = "<｜tool▁call▁end｜>"

DEEPSEEK_V3 = thought_and_call_block(
    "deepseek_v3", THINK, CALLS, ("<｜tool▁call▁begin｜>function" + SEP, CALL_END),
    CallSyntax.json(CallObject.ARGUMENTS, head="\n```json\n", tail="\n```")).opens_turn("<｜Assistant｜>")
DEEPSEEK_V3_1 = thought_and_call_block(
    "deepseek_v3_1", THINK, CALLS, ("<｜tool▁call▁begin｜>", CALL_END),
    CallSyntax.json(CallObject.ARGUMENTS, head=SEP)).opens_turn("<｜Assistant｜>")

DEEPSEEK_V3_2 = thought_and_invokes("deepseek_v3_2", ("<｜DSML｜function_calls>", "</｜DSML｜function_calls>"),
                                    ("<｜DSML｜invoke name=\"", dsml_tags(DSML_V3_2)[2]), CallSyntax.dsml(DSML_V3_2),
                                    "<｜Assistant｜>")
DEEPSEEK_V4 = thought_and_invokes("deepseek_v4", ("<｜DSML｜tool_calls>", "</｜DSML｜tool_calls>"),
                                  ("<｜DSML｜invoke name=\"", dsml_tags(DSML_V3_2)[2]), CallSyntax.dsml(DSML_V3_2),
                                  "<｜Assistant｜>")

TABLES = {"deepseek_v4_1": DEEPSEEK_V4_1, "deepseek_v3": DEEPSEEK_V3, "deepseek_v3_1": DEEPSEEK_V3_1,
          "deepseek_v3_2": DEEPSEEK_V3_2, "deepseek_v4": DEEPSEEK_V4}
ALIASES = {"deepseek_v4.1": "deepseek_v4_1", "deepseek_v3.1": "deepseek_v3_1", "deepseek_v3.2": "deepseek_v3_2"}
