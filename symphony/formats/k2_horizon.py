"""K2-Horizon (`k2_horizon`): `<ifm|…>` markers. The generation prompt opens the
thought by the marker of the request's reasoning effort (`<ifm|think>` high, the default;
`<ifm|think_fast>` medium, `<ifm|think_faster>` low), which ends at its close or where the calls
block opens; the turn's calls sit in an `<ifm|tool_calls>` block, each in `<ifm|tool_call>`, keyed
with `<ifm|arg_key>`/`<ifm|arg_value>` tags and a newline between them (Hy4's shape). Where a
request asks (`tool_call_format`), the template writes a call as a JSON object instead, or with an
`<ifm|arg_type>` tag before each value; the table reads all three forms, whatever the request.
"""
from symphony.format import CallSyntax
from symphony.formats.family import ALWAYS_OPENS_THOUGHT, ByValue, Family, Row, checkpoints
from symphony.formats.shapes import calls_without_block, thought_and_call_block
from symphony.syntax import Tags

TAGS = Tags("<ifm|arg_key>", "</ifm|arg_key>", "<ifm|arg_value>", "</ifm|arg_value>", between="\n")

K2_HORIZON = thought_and_call_block("k2_horizon", ("<ifm|think>", "</ifm|think>"),
                                    ("<ifm|tool_calls>", "</ifm|tool_calls>"),
                                    ("<ifm|tool_call>", "</ifm|tool_call>"),
                                    CallSyntax.keyed(TAGS, type_tags=("<ifm|arg_type>", "</ifm|arg_type>"),
                                                     objects=True),
                                    block_ends_thought=True,
                                    also_think=(("<ifm|think_fast>", "</ifm|think_fast>"),
                                                ("<ifm|think_faster>", "</ifm|think_faster>")))
# a call written without the block's opener, prose before it or not, is read in the prose (a
# recovery, shapes.calls_without_block: SGLang's k2_horizon reads it, the prose around it as written)
K2_HORIZON = calls_without_block(K2_HORIZON, "call_open", "call")

TABLES = {"k2_horizon": K2_HORIZON}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("k2_horizon",),
            "`<ifm|tool_calls>` block of keyed `<ifm|…>` calls; the thought the prompt opens by the request's "
            "`reasoning_effort` (`<ifm|think>`, `<ifm|think_fast>`, `<ifm|think_faster>`)",
            "K2-Horizon"),
    ),
    vllm={
        "k2_horizon": "k2_horizon",
    },
    sglang={
        "k2_horizon": "k2_horizon",
    },
    checkpoints=(
        # k2_horizon: <ifm|tool_calls> blocks of keyed calls; the prompt opens the thought (no
        # thinking switch), by the marker of the request's reasoning_effort: high (the default)
        # <ifm|think>, medium <ifm|think_fast>, low <ifm|think_faster>
        checkpoints("k2-horizon-36b", "k2_horizon", ALWAYS_OPENS_THOUGHT, "", None,
                    "IFM/K2-Horizon-36B", tails=ByValue("reasoning_effort", {
                        "high": "<ifm|think>", "medium": "<ifm|think_fast>", "low": "<ifm|think_faster>"},
                        "<ifm|think>")),
    ),
    bench={
        # K2-Horizon: the prompt opens <ifm|think> (default reasoning effort).
        "k2-horizon-36b": {
            "thinking_default": True,
            "markers": ["<ifm|think>", "</ifm|think>", "<ifm|tool_calls>", "</ifm|tool_calls>", "<ifm|tool_call>",
                        "</ifm|tool_call>", "<ifm|arg_key>", "</ifm|arg_key>", "<ifm|arg_value>", "</ifm|arg_value>"],
            "sglang": {"tool": "k2_horizon", "reasoning": "k2_horizon", "force": True},
            "vllm": {"tool": "k2_horizon", "reasoning": "k2_horizon", "tail_on": "<ifm|think>"},
        },
    },
)
