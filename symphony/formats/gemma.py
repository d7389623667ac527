"""Gemma 4 (`gemma4`): the model writes its thought as `<|channel>thought\n…<channel|>` (a bare
`<|channel>`, the channel's name left out, opens it too, as vLLM's parser reads it) and each
call as `<|tool_call>call:NAME{…}<tool_call|>` in Gemma's own object notation (bare keys,
strings between `<|"|>` quotes), which the assembler converts to JSON as it reads. Calls may come
before the content. The call ends with its object's `}`; the `<tool_call|>` after it is dropped.
The head's `call:` may be missing, whole or its word only (`<|tool_call>:NAME{…}`, which vLLM's
gemma4 reads as the call NAME; docs/recovery.md), the arguments may be written between
parentheses (`call:NAME(key:…)`) and a key between quotes (`{<|"|>city<|"|>:…}`), as vLLM's gemma4
reads them.
A `<|tool_call>` written in a thought the model did not close ends the thought and opens the call,
as vLLM's gemma4 reads it (shapes.call_ends_thought).

FunctionGemma (`functiongemma`, vLLM's `functiongemma`) writes the same notation with `<escape>`
as the string quote, each call as `<start_function_call>call:NAME{…}<end_function_call>`, and no
thought.
"""
from symphony.format import CallSyntax
from symphony.formats.family import MODEL_WRITES_THOUGHT, NO_THOUGHT, Family, Replay, Row, checkpoints
from symphony.formats.shapes import call_ends_thought, calls_only, thought_and_calls

GEMMA4_HEAD = "<|turn>model\n"      # the generation prompt's head

THOUGHT = ("<|channel>thought", "<channel|>")
TOOL_CALL = ("<|tool_call>", "<tool_call|>")

GEMMA4 = call_ends_thought(
    thought_and_calls("gemma4", THOUGHT, TOOL_CALL, CallSyntax.gemma(), "<|turn>model")
    .spelled_also("think_open", "think_open_bare", "<|channel>")
    # each one special token (the thought's opener is two: `<|channel>` and `thought`)
    .control_tokens("think_open_bare", "think_close", "call_open", "call_close"))

FUNCTIONGEMMA = calls_only("functiongemma", ("<start_function_call>", "<end_function_call>"),
                           CallSyntax.gemma(quote="<escape>"), "<start_of_turn>model")

TABLES = {"gemma4": GEMMA4, "functiongemma": FUNCTIONGEMMA}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("gemma4",),
            "`<|tool_call>call:NAME{key:<|\"|>text<|\"|>,n:5}<tool_call|>`, Gemma's object notation converted to JSON as"
            " it is read",
            "Gemma 4"),
        Row(("functiongemma",),
            "`<start_function_call>call:NAME{key:<escape>text<escape>,n:5}<end_function_call>`, Gemma's notation with "
            "`<escape>` quotes",
            "FunctionGemma 270M"),
    ),
    vllm={
        "gemma4": "gemma4",
        "functiongemma": "functiongemma",
    },
    sglang={
        "gemma4": "gemma4",
    },
    checkpoints=(
        # gemma4: Gemma's object notation in <|tool_call> regions; the model writes its own
        # <|channel>thought (the generation prompt leaves none open, thinking on or off). The
        # siblings share the E4B checkpoint's chat template.
        checkpoints("gemma-4-e4b-it", "gemma4", MODEL_WRITES_THOUGHT, GEMMA4_HEAD, None,
                    "google/gemma-4-E4B-it", "google/gemma-4-E2B-it", "google/gemma-4-26B-A4B-it",
                    "google/gemma-4-31B-it", tails=("", "")),
        # functiongemma: Gemma's notation with `<escape>` quotes in <start_function_call> regions, no
        # thought
        checkpoints("functiongemma-270m-it", "functiongemma", NO_THOUGHT, "<start_of_turn>model\n", None,
                    "google/functiongemma-270m-it"),
    ),
    replay=Replay(
        sorted_arguments=("gemma4",),
    ),
    bench={
        # Gemma-4-E4B-it: <|tool_call>call:NAME{…}<tool_call|> in Gemma's object
        # notation, calls before the content; the model writes <|channel>thought…
        # <channel|> itself. Both peers have gemma4 tool and reasoning parsers.
        "gemma-4-e4b-it": {
            "thinking_default": True,
            "markers": ["<|turn>", "<turn|>", "<|channel>", "<channel|>", "<|tool_call>", "<tool_call|>",
                        '<|"|>'],
            "sglang": {"tool": "gemma4", "reasoning": "gemma4", "force": False},
            "vllm": {"tool": "gemma4", "reasoning": "gemma4", "tail_on": "<|turn>model\n"},
        },
    },
)
