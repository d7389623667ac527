"""Mistral (`mistral`, issue 11): calls follow `[TOOL_CALLS]`, to the end of the output or the
next `[TOOL_CALLS]`. Both generations are read: before v11 the region holds a JSON list of
`{"name", "arguments"}` objects; since v11 it holds one call, `NAME{..arguments..}`, or
`NAME[ARGS]{..}`, where `[ARGS]` is a dropped separator wherever it stands. The name is the head's
first word: v11's tokenizer also writes the model's own call id, `NAME[CALL_ID]ID[ARGS]{..}`, and
`[CALL_ID]ID` stays in the call start's source (ids are symphony's, as in every table).

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
from symphony.formats.shapes import THINK
from symphony.syntax import CallObject

THINK_TOKENS = ("[THINK]", "[/THINK]")


def mistral_table(name, think, stray_close_dropped=False):
    """The Mistral table with `think` (open, close) as the thought's markers; a close with no
    thought open is dropped where `stray_close_dropped` (a control token), else content."""
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
        .calls(CallSyntax.json_list(otherwise=CallSyntax.json(CallObject.ARGUMENTS, name_word=True)))
        .opens_turn("[/INST]")
    )
    return table.transition("content", "think_close", "content") if stray_close_dropped else table


TABLES = {"mistral": mistral_table("mistral", THINK_TOKENS, stray_close_dropped=True),
          "magistral_think": mistral_table("magistral_think", THINK)}
