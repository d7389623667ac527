"""Llama-Nemotron (`nemotron_json`; vLLM's `nemotron_json`): calls are a JSON list of
`{"name", "arguments"}` objects, or one such object, between `<TOOLCALL>` and `</TOOLCALL>`; with
"detailed thinking on" the model writes a `<think>` thought first.
"""
from symphony.format import CallSyntax
from symphony.formats.family import LLAMA3, MODEL_WRITES_THOUGHT, Family, Row, checkpoints
from symphony.formats.shapes import THINK, thought_and_calls

NEMOTRON_JSON = thought_and_calls("nemotron_json", THINK, ("<TOOLCALL>", "</TOOLCALL>"),
                                  CallSyntax.json_list(otherwise=CallSyntax.json()),
                                  "<|start_header_id|>assistant<|end_header_id|>")

TABLES = {"nemotron_json": NEMOTRON_JSON}
ALIASES = {"nemotron": "nemotron_json", "llama_nemotron_json": "nemotron_json"}


FAMILY = Family(
    tables=TABLES,
    aliases=ALIASES,
    rows=(
        Row(("nemotron_json",),
            "`<TOOLCALL>` + a JSON list of calls (or one object) + `</TOOLCALL>`, `<think>` thought",
            "Llama-3.x-Nemotron Nano/Super/Ultra"),
    ),
    vllm={
        "nemotron_json": "nemotron_json",
    },
    checkpoints=(
        # nemotron_json: a JSON list of calls in <TOOLCALL>; the system prompt ("detailed thinking
        # on/off"), not the template's kwargs, decides whether the model writes its <think> thought
        #
        checkpoints("llama-3.3-nemotron-super-49b-v1", "nemotron_json", MODEL_WRITES_THOUGHT, LLAMA3, None,
                    "nvidia/Llama-3_3-Nemotron-Super-49B-v1", "nvidia/Llama-3_3-Nemotron-Super-49B-v1_5",
                    "nvidia/Llama-3_1-Nemotron-Ultra-253B-v1", "nvidia/Llama-3.1-Nemotron-Nano-8B-v1",
                    "nvidia/Llama-3.1-Nemotron-Nano-4B-v1.1", tails=("", "")),
    ),
)
