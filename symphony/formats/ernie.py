"""ERNIE 4.5 Thinking (`ernie45`): Qwen3's `<tool_call>` JSON objects and `<think>` thought; the
`<response>`/`</response>` it writes around its answer are dropped wherever they stand."""
from symphony.format import CallSyntax
from symphony.formats.family import ALWAYS_OPENS_THOUGHT, CHATML, Family, Row, checkpoints
from symphony.formats.shapes import THINK, thought_and_calls

ERNIE45 = (thought_and_calls("ernie45", THINK, ("<tool_call>", "</tool_call>"), CallSyntax.json(),
                             "<|im_start|>assistant")
           .ignores("response_open", "<response>")
           .ignores("response_close", "</response>"))

TABLES = {"ernie45": ERNIE45}
ALIASES = {"ernie4.5": "ernie45"}


FAMILY = Family(
    tables=TABLES,
    aliases=ALIASES,
    rows=(
        Row(("ernie45",),
            "`<tool_call>` + a JSON object, `<think>` thought, `<response>` markers dropped",
            "ERNIE 4.5 Thinking"),
    ),
    vllm={
        "ernie45": "ernie45",
    },
    checkpoints=(
        # the Thinking checkpoint's prompt opens the thought
        checkpoints("ernie-4.5-21b-a3b-thinking", "ernie45", ALWAYS_OPENS_THOUGHT, CHATML, None,
                    "baidu/ERNIE-4.5-21B-A3B-Thinking"),
    ),
)
