"""Mistral (`mistral`): calls follow `[TOOL_CALLS]`, to the end of the output or the
next `[TOOL_CALLS]`. Both generations are read: before v11 the region holds a JSON list of
`{"name", "arguments"}` objects (or one such object with no list, as models write it and vLLM's
parser reads it); since v11 it holds one call, `NAME{..arguments..}`, or
`NAME[ARGS]{..}`, where `[ARGS]` is a dropped separator wherever it stands. The name is the head's
first word: v11's tokenizer also writes the model's own call id, `NAME[CALL_ID]ID[ARGS]{..}`; that
ID is the call's id (mistral_common decodes it so, and writes it back into the next turn), and
`[CALL_ID]ID` stays in the call start's source. A call with no `[CALL_ID]` (a list, `NAME{..}`)
has the id `call_<index>`. A `[` before the head's `{` that a call object follows, whitespace
aside, is no v11 head's: it opens a list of calls after text (`[TOOL_CALLS] junk [{..}]`, as vLLM's
pre-v11 parser finds the list), the text before it shown.

The assistant's turn starts after the user's `[/INST]` (a prompt's earlier turns, whose system
prompt may spell out `[THINK]` and `[/THINK]`, do not seed it). The reasoning checkpoints write
their own thought there:
since tokenizer v13 (Magistral Small 2507 and later, Ministral 3 Reasoning, Mistral Small 4)
between the special tokens `[THINK]` and `[/THINK]` (`mistral`); Magistral Small 2506 (v11) in
plain-text `<think>` tags, which its system prompt asks for (`magistral_think`: `<think>` read as
a marker only for it, as vLLM's parser reads it only for a v11 tokenizer). `[TOOL_CALLS]`
written inside the thought ends it and opens the calls (a control token, never thought text:
vLLM's and SGLang's parsers read it so), and a second opener inside the thought is dropped. A
`[/THINK]` with no thought open is dropped too (a control token: vLLM drops it), where
Magistral Small 2506's `</think>` there is the text it is, as in every `<think>` table.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import MODEL_WRITES_THOUGHT, NO_THOUGHT, Family, Row, checkpoints
from symphony.formats.shapes import THINK
from symphony.syntax import CallObject

THINK_TOKENS = ("[THINK]", "[/THINK]")


def mistral_table(name, think, think_tokens=False):
    """The Mistral table with `think` (open, close) as the thought's markers, control tokens where
    `think_tokens` (Tekken's `[THINK]`: a close with no thought open is dropped, not content), else
    text where they drive no row (Magistral's `<think>`). `[TOOL_CALLS]` is always one."""
    table = (
        Format(name)
        .terminal("think_open", think[0])
        .terminal("think_close", think[1])
        .terminal("calls_open", "[TOOL_CALLS]")
        .ignores("arguments_sep", "[ARGS]")
        .state("content", Emits.CONTENT)
        .state("reasoning", Emits.REASONING)
        .state("calls", Emits.ARGUMENTS)
        .transition("content", "think_open", "reasoning")
        .transition("reasoning", "think_open", "reasoning")
        .transition("reasoning", "think_close", "content")
        .transition("content", "calls_open", "calls")
        .transition("reasoning", "calls_open", "calls")
        .transition("calls", "calls_open", "calls")
        .calls(CallSyntax.json_list(otherwise=CallSyntax.json(CallObject.ARGUMENTS, name_word=True,
                                                              head_id="[CALL_ID]"), or_object=True))
        .opens_turn("[/INST]")
    )
    table = table.control_tokens("calls_open")
    return table.control_tokens("think_open", "think_close") if think_tokens else table


TABLES = {"mistral": mistral_table("mistral", THINK_TOKENS, think_tokens=True),
          "magistral_think": mistral_table("magistral_think", THINK)}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("mistral",),
            "`[TOOL_CALLS]` + a JSON list of calls, or (v11+) `[TOOL_CALLS]NAME{arguments}` / `NAME[ARGS]{arguments}` "
            "/ `NAME[CALL_ID]ID[ARGS]{arguments}` (the call's id is that ID); `[THINK]` thought (v13+), which a `[TOOL_CALLS]` inside it ends",
            "Mistral 7B v0.3, Nemo, Small 3/3.1/3.2, Large 2, Ministral, Ministral 3, Devstral Small; Magistral Small"
            " 2507/2509, Ministral 3 Reasoning, Mistral Small 4 (reasoning parser `mistral`)"),
        Row(("magistral_think",),
            "`mistral`'s calls; the thought in plain-text `<think>` tags",
            "Magistral Small 2506 (vLLM reads `<think>` so for a v11 tokenizer)"),
    ),
    vllm={
        "mistral": "mistral",
    },
    sglang={
        "mistral": "mistral",
    },
    checkpoints=(
        checkpoints("mistral-7b-instruct-v0.3", "mistral", NO_THOUGHT, "[/INST]", None,
                    "mistralai/Mistral-7B-Instruct-v0.3", "mistralai/Mistral-Nemo-Instruct-2407"),
        checkpoints("mistral-small-3.2-24b-instruct-2506", "mistral", NO_THOUGHT, "[/INST]", None,
                    "mistralai/Mistral-Small-3.2-24B-Instruct-2506", "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
                    "mistralai/Mistral-Small-24B-Instruct-2501", "mistralai/Devstral-Small-2505",
                    "mistralai/Devstral-Small-2507", "mistralai/Ministral-8B-Instruct-2410",
                    "mistralai/Mistral-Large-Instruct-2411", "mistralai/Mistral-Large-Instruct-2407",
                    "mistralai/Ministral-3-3B-Instruct-2512", "mistralai/Ministral-3-8B-Instruct-2512",
                    "mistralai/Ministral-3-14B-Instruct-2512"),
        # the reasoning checkpoints write their own thought after `[/INST]`, whatever the request says:
        # `[THINK]` tokens since tokenizer v13 (Mistral Small 4 when its reasoning_effort asks for
        # one), `<think>` text for Magistral Small 2506 (the mistral module)
        checkpoints("magistral-small-2509", "mistral", MODEL_WRITES_THOUGHT, "[/INST]", None,
                    "mistralai/Magistral-Small-2509", "mistralai/Magistral-Small-2507",
                    "mistralai/Ministral-3-3B-Reasoning-2512", "mistralai/Ministral-3-8B-Reasoning-2512",
                    "mistralai/Ministral-3-14B-Reasoning-2512", "mistralai/Mistral-Small-4-119B-2603", tails=("", "")),
        checkpoints("magistral-small-2506", "magistral_think", MODEL_WRITES_THOUGHT, "[/INST]", None,
                    "mistralai/Magistral-Small-2506", tails=("", "")),
    ),
)
