"""Phi-4-mini (`phi4_mini`): calls are a JSON list of `{"name", "arguments"}` objects
after `functools[` (the marker holds the list's bracket, so the list is bare), to its `]`; no
thought. Only `functools[` is a marker: prose about Python's `functools` stays content.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import ASSISTANT_TAG, NO_THOUGHT, Family, Row, checkpoints

PHI4_MINI = (
    Format("phi4_mini")
    .terminal("calls_open", "functools[")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "calls_open", "calls")
    .calls(CallSyntax.json_list(bare=True))
)

TABLES = {"phi4_mini": PHI4_MINI}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("phi4_mini",),
            "`functools[` + JSON call objects + `]`",
            "Phi-4-mini"),
    ),
    vllm={
        "phi4_mini_json": "phi4_mini",
    },
    checkpoints=(
        checkpoints("phi-4-mini-instruct", "phi4_mini", NO_THOUGHT, ASSISTANT_TAG, None,
                    "microsoft/Phi-4-mini-instruct"),
    ),
    bench={
        # Phi-4-mini: content-only fixtures; vLLM phi4_mini_json if registered.
        "phi-4-mini-instruct": {
            "thinking_default": None,
            "markers": ["<|assistant|>", "<|end|>", "<|tool_call|>", "<|/tool_call|>"],
            "sglang": None,
            "vllm": {"tool": "phi4_mini_json", "reasoning": None,
                     "tail_on": "<|assistant|>"},
        },
    },
)
