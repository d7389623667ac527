"""Seed-OSS (SPEC §3 `seed_oss`): `<seed:think>` thoughts the model writes itself and
`<seed:tool_call>` blocks of `<function=…>` tags whose values sit directly between the parameter
tags: nothing is stripped, a trailing newline is the value's (patches keep their last line). A
plain `<tool_call>` is text; a `<function=…>` call without its block is read (shapes.bare_calls),
and so are several calls in one block (shapes.functions_in_block).
"""
from symphony.format import CallSyntax
from symphony.formats.family import MODEL_WRITES_THOUGHT, Family, Row, checkpoints
from symphony.formats.shapes import bare_calls, functions_in_block, thought_and_calls
from symphony.syntax import Placement, Spelling

SEED_HEAD = "<seed:bos>assistant\n"      # the generation prompt's head

SEED_OSS = bare_calls(functions_in_block(thought_and_calls("seed_oss", ("<seed:think>", "</seed:think>"),
                                                           ("<seed:tool_call>", "</seed:tool_call>"),
                                                           CallSyntax.tagged(Spelling.PYTHON, Placement.DIRECT),
                                                           "<seed:bos>assistant")))

# `</seed:think>` is one token of Seed-OSS's tokenizer: with no thought open it is dropped (a control
# token), as vLLM's and SGLang's reasoning parsers drop it
SEED_OSS = SEED_OSS.control_tokens("think_close")

TABLES = {"seed_oss": SEED_OSS}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("seed_oss",),
            "`<seed:tool_call>` + the same tags, values placed directly",
            "Seed-OSS"),
    ),
    vllm={
        "seed_oss": "seed_oss",
    },
    checkpoints=(
        # seed_oss: <seed:tool_call> blocks of tags, values placed directly
        checkpoints("seed-oss-36b-instruct", "seed_oss", MODEL_WRITES_THOUGHT, SEED_HEAD, None,
                    "ByteDance-Seed/Seed-OSS-36B-Instruct"),
    ),
    bench={
        # Seed-OSS: <seed:tool_call> around Qwen3-Coder XML, the model writes
        # <seed:think>. SGLang 0.5.23 has no parser that reads <seed:…> markers
        # (no seed_oss tool or reasoning name; qwen3_coder wants <tool_call>).
        # vLLM: seed_oss/seed_oss (Qwen3 engine with the <seed:…> wrappers; it
        # starts in reasoning unless enable_thinking is false).
        "seed-oss-36b-instruct": {
            "thinking_default": True,
            "markers": ["<seed:bos>", "<seed:eos>", "<seed:think>", "</seed:think>",
                        "<seed:tool_call>", "</seed:tool_call>"],
            "sglang": None,
            "vllm": {"tool": "seed_oss", "reasoning": "seed_oss",
                     "tail_on": "<seed:bos>assistant\n",
                     "tail_off": "<seed:bos>assistant\n<seed:think>\n\n</seed:think>\n\n"},
        },
    },
)
