"""Apertus (`apertus`): calls are a JSON list of `{"NAME": {arguments}}` objects between
`<|tools_prefix|>` and `<|tools_suffix|>`. A thought sits between `<|inner_prefix|>` and
`<|inner_suffix|>` (SGLang's apertus2509 reasoning detector; the model writes it, several per
turn), and calls written inside a thought are calls, the thought going on after them. A call
opener inside a call opens the next one. An object whose first member is one a call object writes
first (`name`, `type` or `id` with a scalar, `function` with an object: OpenAI's `{"type":
"function", "function": {…}}`, a plain `{"name": …, "arguments": …}`) is read as a call object
(json_outline.pxi's OL_KEYS_NAMED), where vLLM's apertus reads a call named `type`. A region that
opens with `{` holds one such object, not in a list (`<|tools_prefix|>{"NAME": {..}}`), as vLLM's
apertus reads it (docs/recovery.md).
"""
from symphony.format import CallSyntax
from symphony.formats.family import NO_THOUGHT, Family, Row, checkpoints
from symphony.formats.shapes import calls_in_thought, thought_and_calls
from symphony.syntax import CallObject

APERTUS = calls_in_thought(thought_and_calls("apertus", ("<|inner_prefix|>", "<|inner_suffix|>"),
                                             ("<|tools_prefix|>", "<|tools_suffix|>"),
                                             CallSyntax.json_list(CallObject.NAMED, or_object=True),
                                             "<|assistant_start|>")
                           ).control_tokens("think_open", "think_close", "call_open", "call_close")

TABLES = {"apertus": APERTUS}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("apertus",),
            "`<|tools_prefix|>` + a JSON list of `{\"NAME\": {arguments}}`, also inside an `<|inner_prefix|>` thought "
            "(which goes on after them)",
            "Apertus (SGLang reasoning parser `apertus2509`)"),
    ),
    vllm={
        "apertus": "apertus",
    },
    sglang={
        "apertus2509": "apertus",
    },
    checkpoints=(
        # apertus: <|tools_prefix|>[{"NAME": {..}}]<|tools_suffix|>; no thought
        checkpoints("apertus-8b-instruct-2509", "apertus", NO_THOUGHT, "<|assistant_start|>", None,
                    "swiss-ai/Apertus-8B-Instruct-2509", "swiss-ai/Apertus-70B-Instruct-2509"),
    ),
    bench={
        # Apertus (content-only fixtures): <|tools_prefix|>[{"NAME": {..}}]<|tools_suffix|>.
        "apertus-8b-instruct-2509": {
            "thinking_default": None,
            "markers": ["<|assistant_start|>", "<|assistant_end|>", "<|tools_prefix|>", "<|tools_suffix|>"],
            "sglang": {"tool": "apertus2509", "reasoning": None, "force": False},
            "vllm": {"tool": "apertus", "reasoning": None, "tail_on": "<|assistant_start|>"},
        },
    },
)
