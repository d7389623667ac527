"""Jamba 1.5/1.6/1.7 (`jamba`): a JSON list of `{"name", "arguments"}` call objects
between `<tool_calls>` and `</tool_calls>`; no thought. (Jamba2 writes Hermes-style `<tool_call>`
objects: the qwen2_5 table.)
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import NO_THOUGHT, Family, Row, checkpoints

JAMBA = (
    Format("jamba")
    .terminal("calls_open", "<tool_calls>")
    .terminal("calls_close", "</tool_calls>")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "calls_open", "calls")
    .transition("calls", "calls_close", "content")
    .calls(CallSyntax.json_list())
)

TABLES = {"jamba": JAMBA}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("jamba",),
            "`<tool_calls>` + a JSON list of calls + `</tool_calls>`",
            "Jamba 1.5-1.7"),
    ),
    vllm={
        "jamba": "jamba",
    },
    checkpoints=(
        checkpoints("ai21-jamba-1.5-mini", "jamba", NO_THOUGHT, "<|bom|><|assistant|>", None,
                    "ai21labs/AI21-Jamba-1.5-Mini", "ai21labs/AI21-Jamba-1.5-Large", "ai21labs/AI21-Jamba-Mini-1.6",
                    "ai21labs/AI21-Jamba-Large-1.6", "ai21labs/AI21-Jamba-Mini-1.7", "ai21labs/AI21-Jamba-Large-1.7"),
    ),
)
