"""Hunyuan-A13B (`hunyuan_a13b`): the model writes `<think>` thoughts and wraps its
answer in `<answer>`…`</answer>` (the markers are dropped, the answer is content); calls are a
JSON list of `{"name", "arguments"}` objects between `<tool_calls>` and `</tool_calls>`. A
`<tool_calls>` inside a thought the model did not close ends the thought and opens the block
(shapes.call_ends_thought), as SGLang's hunyuan reasoning parser reads it (vLLM's hunyuan_a13b
reads a whole output whose thought never closes as content, the block's calls read by its tool
parser; streamed, it keeps them in the thought).
"""
from symphony.format import CallSyntax
from symphony.formats.family import MODEL_WRITES_THOUGHT, Family, Row, checkpoints
from symphony.formats.shapes import THINK, call_ends_thought, thought_answer_and_calls

HUNYUAN_A13B = call_ends_thought(thought_answer_and_calls("hunyuan_a13b", THINK, ("<answer>", "</answer>"),
                                                          ("<tool_calls>", "</tool_calls>"), CallSyntax.json_list()),
                                 "calls_open")

TABLES = {"hunyuan_a13b": HUNYUAN_A13B}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("hunyuan_a13b",),
            "`<tool_calls>` + a JSON list of call objects, `<answer>` regions",
            "Hunyuan-A13B"),
    ),
    vllm={
        "hunyuan_a13b": "hunyuan_a13b",
    },
    checkpoints=(
        # hunyuan_a13b: <tool_calls>[..]</tool_calls>, <answer> regions; the model writes its thought
        #
        checkpoints("hunyuan-a13b-instruct", "hunyuan_a13b", MODEL_WRITES_THOUGHT, "<|extra_0|>", None,
                    "tencent/Hunyuan-A13B-Instruct"),
    ),
    bench={
        # Hunyuan-A13B (content-only fixtures): <think>/<answer> regions, <tool_calls>[..]</tool_calls>.
        "hunyuan-a13b-instruct": {
            "thinking_default": None,
            "markers": ["<|extra_0|>", "<think>", "</think>", "<answer>", "</answer>", "<tool_calls>", "</tool_calls>"],
            "sglang": {"tool": "hunyuan", "reasoning": "hunyuan", "force": False},
            "vllm": {"tool": "hunyuan_a13b", "reasoning": "hunyuan_a13b", "tail_on": "<|extra_0|>"},
        },
    },
)
