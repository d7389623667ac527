"""Qwen2.5, Hermes and Granite (SPEC §3 `qwen2_5`): `<tool_call>` JSON call objects, no thought.
Qwen2.5-Coder (`qwen2_5_coder`; vLLM's `qwen2_5_coder`/`qwen25_coder`): the same call
objects, which it writes in `<tools>`…`</tools>` more often than in the `<tool_call>` its template
asks for; either pair opens and closes a region that holds one call object or a JSON list of
them (`<tools>[{…}, {…}]</tools>`, as the model writes several calls at once).

`<think>`/`</think>` are plain content here; a prompt that opens a thought changes nothing.
"""
from symphony.format import CallSyntax
from symphony.formats.family import (CHATML, FENCE_PROBE, GRANITE_HEAD, NO_THOUGHT, REASONING_PROBE, Family, Replay,
                                     Row, checkpoints)
from symphony.formats.qwen3 import QWEN_MARKERS, TOOL_CALL
from symphony.formats.shapes import calls_only

OPENER = "<|im_start|>assistant"

QWEN2_5 = calls_only("qwen2_5", TOOL_CALL, CallSyntax.json(or_list=True), OPENER)

QWEN2_5_CODER = calls_only("qwen2_5_coder", TOOL_CALL, CallSyntax.json(or_list=True), OPENER,
                           also=[("<tools>", "</tools>")])

TABLES = {"qwen2_5": QWEN2_5, "qwen2_5_coder": QWEN2_5_CODER}
ALIASES = {"qwen2.5": "qwen2_5", "qwen2.5-coder": "qwen2_5_coder"}


FAMILY = Family(
    tables=TABLES,
    aliases=ALIASES,
    rows=(
        Row(("qwen2_5",),
            "`<tool_call>` + a JSON object, no thought",
            "Qwen2.5, Hermes 2 Pro/3/4, Granite 4.0/4.1, Jamba2"),
        Row(("qwen2_5_coder",),
            "`<tools>` (or `<tool_call>`) + a JSON object or a JSON list of them",
            "Qwen2.5-Coder 0.5B-32B Instruct"),
    ),
    vllm={
        # JSON call objects in `<tool_call>` (Hermes 2 Pro, Granite 4) and xLAM's bare list
        "hermes": "qwen2_5",
        "granite4": "qwen2_5",
        "qwen25_coder": "qwen2_5_coder",
        "qwen2_5_coder": "qwen2_5_coder",
    },
    sglang={
        "hermes": "qwen2_5",
        "qwen": "qwen2_5",
        "qwen25": "qwen2_5",
    },
    checkpoints=(
        # qwen2_5_coder: Qwen2.5's JSON call objects, written in <tools> or <tool_call>; no thought
        #
        checkpoints("qwen2.5-coder-7b-instruct", "qwen2_5_coder", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen2.5-Coder-7B-Instruct", "Qwen/Qwen2.5-Coder-0.5B-Instruct",
                    "Qwen/Qwen2.5-Coder-1.5B-Instruct", "Qwen/Qwen2.5-Coder-3B-Instruct",
                    "Qwen/Qwen2.5-Coder-14B-Instruct", "Qwen/Qwen2.5-Coder-32B-Instruct"),
        # qwen2_5: JSON calls, no thought
        checkpoints("qwen2.5-7b-instruct", "qwen2_5", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-0.5B-Instruct", "Qwen/Qwen2.5-1.5B-Instruct",
                    "Qwen/Qwen2.5-3B-Instruct", "Qwen/Qwen2.5-14B-Instruct", "Qwen/Qwen2.5-32B-Instruct",
                    "Qwen/Qwen2.5-72B-Instruct"),
        checkpoints("qwen2.5-7b-instruct-1m", "qwen2_5", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen2.5-7B-Instruct-1M", "Qwen/Qwen2.5-14B-Instruct-1M"),
        checkpoints("qwen2.5-omni-7b", "qwen2_5", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen2.5-Omni-7B", "Qwen/Qwen2.5-Omni-3B"),
        checkpoints("qwen2.5-vl-7b-instruct", "qwen2_5", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen2.5-VL-7B-Instruct", "Qwen/Qwen2.5-VL-3B-Instruct",
                    "Qwen/Qwen2.5-VL-72B-Instruct"),
        checkpoints("qwen2.5-vl-32b-instruct", "qwen2_5", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen2.5-VL-32B-Instruct"),
        checkpoints("granite-4.1-3b", "qwen2_5", NO_THOUGHT, GRANITE_HEAD, "<|start_of_role|>assistant<|end_of_role|>",
                    "ibm-granite/granite-4.1-3b", "ibm-granite/granite-4.0-h-small", "ibm-granite/granite-4.0-h-tiny",
                    "ibm-granite/granite-4.0-h-micro", "ibm-granite/granite-4.0-micro"),
        checkpoints("ai21-jamba2-3b", "qwen2_5", NO_THOUGHT, CHATML, None,
                    "ai21labs/AI21-Jamba2-3B"),
        checkpoints("hermes-4-14b", "qwen2_5", NO_THOUGHT, CHATML, None,
                    "NousResearch/Hermes-4-14B"),
        # Hermes 2 Pro and Hermes 3: ChatML, `<tool_call>` JSON calls, no thought
        checkpoints("hermes-3-llama-3.1-8b", "qwen2_5", NO_THOUGHT, CHATML, None,
                    "NousResearch/Hermes-3-Llama-3.1-8B", "NousResearch/Hermes-3-Llama-3.1-70B",
                    "NousResearch/Hermes-3-Llama-3.1-405B", "NousResearch/Hermes-2-Pro-Llama-3-8B",
                    "NousResearch/Hermes-2-Pro-Mistral-7B"),
    ),
    replay=Replay(
        probes={"qwen2_5": {REASONING_PROBE: (0, "stop"), FENCE_PROBE: (1, "tool_calls")}},
    ),
    bench={
        "qwen2.5-7b-instruct-1m": {
            "thinking_default": None,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "qwen25", "reasoning": None, "force": False},
            "vllm": {"tool": "hermes", "reasoning": None, "tail_on": CHATML},
        },
        "hermes-4-14b": {
            "thinking_default": None,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "hermes", "reasoning": None, "force": False},
            "vllm": {"tool": "hermes", "reasoning": None, "tail_on": CHATML},
        },
        # Granite 4.1 writes hermes-style <tool_call> JSON; vLLM's granite4 parser
        # reads exactly that, SGLang has no granite tool parser (hermes it is).
        "granite-4.1-3b": {
            "thinking_default": None,
            "markers": ["<|start_of_role|>", "<|end_of_role|>", "<|end_of_text|>",
                        "<tool_call>", "</tool_call>"],
            "sglang": {"tool": "hermes", "reasoning": None, "force": False},
            "vllm": {"tool": "granite4", "reasoning": None,
                     "tail_on": "<|start_of_role|>assistant<|end_of_role|>"},
        },
    },
)
