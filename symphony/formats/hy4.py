"""Hy4 (SPEC §3 `hy4`): `:opensource` markers. The turn's calls sit in a
`<tool_calls:opensource>` block, each in `<tool_call:opensource>`, keyed with `:opensource` tags;
the generation prompt always opens the thought. No row from a call to the next call's opener and
none from the thought to the calls block: those markers are text there. Beyond SPEC §3's rows,
the block's close also ends a call the model left open (as DeepSeek's table does), so the client
gets the call's arguments closed rather than the block's marker as argument text.

Hy3 (`hy_v3`, vLLM's `hy_v3`, SGLang's `hunyuan`) writes the same block with a
`<tool_sep:opensource>` after each call's name (dropped); its thought is `<think:opensource>`.
Its preview tokenizer (tencent/Hy3-preview) spells every one of these markers and tags bare
(`<tool_calls>`, `<tool_call>`, `<tool_sep>`, `<arg_key>`, `<think>`...); the table reads both
spellings, as SGLang's detector does (vLLM's reads the one its tokenizer has).
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import thought_and_call_block
from symphony.syntax import Tags

THINK = ("<think:opensource>", "</think:opensource>")
BLOCK = ("<tool_calls:opensource>", "</tool_calls:opensource>")
CALL = ("<tool_call:opensource>", "</tool_call:opensource>")

HY4 = thought_and_call_block("hy4", THINK, BLOCK, CALL, CallSyntax.keyed(Tags.HY4))

BARE = ":opensource"        # what the preview tokenizer's markers leave out


def _bare(text):
    return text.replace(BARE, "")


HY_V3 = (thought_and_call_block("hy_v3", THINK, BLOCK, CALL, CallSyntax.keyed(Tags.HY4, also=(Tags.PLAIN,)))
         .ignores("tool_sep", "<tool_sep:opensource>")
         .ignores("tool_sep_bare", "<tool_sep>"))
for _marker, _text in zip(("think_open", "think_close", "calls_open", "calls_close", "call_open", "call_close"),
                          THINK + BLOCK + CALL):
    HY_V3 = HY_V3.spelled_also(_marker, _marker + "_bare", _bare(_text))

TABLES = {"hy4": HY4, "hy_v3": HY_V3}
