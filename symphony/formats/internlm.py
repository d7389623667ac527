"""InternLM2/2.5 (`internlm2`): a call is `<|action_start|><|plugin|>` + one
`{"name", "parameters"}` object + `<|action_end|>`; no thought. A slow tokenizer that puts a space
between two special tokens as it decodes them (lmdeploy's and SGLang's parsers look for that)
writes the opener `<|action_start|> <|plugin|>`, which opens a call too.

Intern-S1 (`intern_s1`; SGLang's `interns1`, which pairs Qwen3's `<think>` detector with the
InternLM call parser): the same calls after a `<think>` thought the model writes.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import CHATML, MODEL_WRITES_THOUGHT, NO_THOUGHT, Family, Row, checkpoints

CALL = ("<|action_start|><|plugin|>", "<|action_end|>")
SPACED_CALL = ("<|action_start|> <|plugin|>", "<|action_end|>")


def internlm_table(name, think=None):
    """InternLM's calls, either opener spelling; `think` the (open, close) thought markers."""
    table = Format(name)
    if think is not None:
        table = table.terminal("think_open", think[0]).terminal("think_close", think[1])
    table = (table
             .terminal("call_open", CALL[0])
             .terminal("call_open_spaced", SPACED_CALL[0])
             .terminal("call_close", CALL[1])
             .state("content", Emits.CONTENT))
    if think is not None:
        table = table.state("reasoning", Emits.REASONING)
    table = table.state("calls", Emits.ARGUMENTS)
    if think is not None:
        table = (table
                 .transition("content", "think_open", "reasoning")
                 .transition("reasoning", "think_close", "content"))
    for opener in ("call_open", "call_open_spaced"):
        table = (table
                 .transition("content", opener, "calls")
                 .transition("calls", opener, "calls"))
    return (table
            .transition("calls", "call_close", "content")
            .control_tokens("call_close")
            .calls(CallSyntax.json())
            .opens_turn("<|im_start|>assistant"))


TABLES = {"internlm2": internlm_table("internlm2"), "intern_s1": internlm_table("intern_s1", ("<think>", "</think>"))}
ALIASES = {"internlm": "internlm2"}


FAMILY = Family(
    tables=TABLES,
    aliases=ALIASES,
    rows=(
        Row(("internlm2",),
            "`<|action_start|><|plugin|>` (or, decoded with a space between the special tokens, `<|action_start|> "
            "<|plugin|>`) + a `{\"name\", \"parameters\"}` object + `<|action_end|>`",
            "InternLM 2/2.5"),
        Row(("intern_s1",),
            "the same calls after a `<think>` thought",
            "Intern-S1, Intern-S1-mini"),
    ),
    vllm={
        "internlm": "internlm2",
    },
    sglang={
        "interns1": "intern_s1",
    },
    checkpoints=(
        checkpoints("internlm2.5-7b-chat", "internlm2", NO_THOUGHT, CHATML, None,
                    "internlm/internlm2_5-7b-chat", "internlm/internlm2_5-20b-chat", "internlm/internlm2-chat-7b"),
        # Intern-S1: InternLM's calls after a <think> thought the model writes, which its template's
        # default thinking system prompt asks for (enable_thinking false drops that prompt)
        checkpoints("intern-s1", "intern_s1", MODEL_WRITES_THOUGHT, CHATML, None,
                    "internlm/Intern-S1", "internlm/Intern-S1-mini", tails=("", "")),
    ),
)
