"""Arcee Trinity (`trinity`, SGLang's `trinity`): Qwen2.5's `<tool_call>` JSON call
objects and a `<think>` thought, where the model also writes calls inside its thought. A call
opened in the thought is a call all the same (SGLang's detector strips the thought's tags to
read it); its close goes back into the thought, and the thought's close ends a call left open
there.
"""
from symphony.format import CallSyntax
from symphony.formats.family import ALWAYS_OPENS_THOUGHT, CHATML, Family, Row, checkpoints
from symphony.formats.qwen3 import TOOL_CALL
from symphony.formats.shapes import THINK, calls_in_thought, thought_and_calls

TRINITY = calls_in_thought(thought_and_calls("trinity", THINK, TOOL_CALL, CallSyntax.json(or_list=True)))

TABLES = {"trinity": TRINITY}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("trinity",),
            "Qwen2.5's `<tool_call>` JSON objects and a `<think>` thought, calls inside the thought read as calls; a "
            "second `<think>` inside the thought dropped",
            "arcee-ai/Trinity-Mini"),
    ),
    sglang={
        "trinity": "trinity",
    },
    checkpoints=(
        # Trinity Mini (SPEC §3 pending): ChatML, Hermes `<tool_call>` JSON calls, written inside the
        # thought too (the trinity table); its engines read it with a parser that starts inside the
        # thought (vLLM's deepseek_r1, SGLang's forced reasoning), so the prompt opens `<think>\n`
        checkpoints("trinity-mini", "trinity", ALWAYS_OPENS_THOUGHT, CHATML, None,
                    "arcee-ai/Trinity-Mini"),
    ),
)
