"""K2-Horizon (`k2_horizon`, issue 10): `<ifm|…>` markers. The generation prompt opens the
thought by the marker of the request's reasoning effort (`<ifm|think>` high, the default;
`<ifm|think_fast>` medium, `<ifm|think_faster>` low), which ends at its close or where the calls
block opens; the turn's calls sit in an `<ifm|tool_calls>` block, each in `<ifm|tool_call>`, keyed
with `<ifm|arg_key>`/`<ifm|arg_value>` tags and a newline between them (Hy4's shape).
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import thought_and_call_block
from symphony.syntax import Tags

TAGS = Tags("<ifm|arg_key>", "</ifm|arg_key>", "<ifm|arg_value>", "</ifm|arg_value>", between="\n")

K2_HORIZON = thought_and_call_block("k2_horizon", ("<ifm|think>", "</ifm|think>"),
                                    ("<ifm|tool_calls>", "</ifm|tool_calls>"),
                                    ("<ifm|tool_call>", "</ifm|tool_call>"), CallSyntax.keyed(TAGS),
                                    block_ends_thought=True,
                                    also_think=(("<ifm|think_fast>", "</ifm|think_fast>"),
                                                ("<ifm|think_faster>", "</ifm|think_faster>")))

TABLES = {"k2_horizon": K2_HORIZON}
