"""GigaChat 3 (`gigachat3`, vLLM's and SGLang's `gigachat3`): one call per output, a JSON
`{"name", "arguments"}` object after `function call<|role_sep|>` (the header the template writes
after `<|message_sep|>`, the end of the answer's text) or after `<|function_call|>`; `</s>` is
dropped. The text of `<|message_sep|>`'s header up to the call is the template's wrapping. An
object with a name and no `arguments` (`{"name": "f"}`) is no call, as vLLM's and SGLang's
gigachat3 read none: the text as written.

GigaChat 3.5 (`gigachat35`, SGLang's `gigachat35`): content, then a
`<｜GCML｜tool_calls>` block of DeepSeek's DSML invokes spelled with GCML's mark
(`<｜GCML｜invoke name="…">`, `<｜GCML｜parameter name="…" string="true|false">`); the
`<|message_sep|>` and `</s>` that end the message are dropped. An invoke written without the
block's opener is read, and a damaged block opener dropped, as DeepSeek's are
(shapes.calls_without_block, shapes.damaged_openers); so are tags written spaced (runs of
whitespace between a tag's name and its attributes, between attributes, before `>`), as SGLang's
gigachat35 detector reads them (CallSyntax.dsml(GCML, spaced=True), shapes.spaced_invokes). The
block's opener written again right after a call is the block's wrapping, the block going on
(shapes.opener_again_in_block).
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import Family, Row
from symphony.formats.shapes import (calls_without_block, damaged_openers, invoke_rows, opener_again_in_block,
                                     spaced_invokes)
from symphony.syntax import GCML, dsml_tags

GIGACHAT3 = (
    Format("gigachat3")
    .terminal("message_sep", "<|message_sep|>")
    .terminal("call_open", "function call<|role_sep|>")
    .terminal("call_open_token", "<|function_call|>")
    .ignores("end", "</s>")
    .state("content", Emits.CONTENT)
    .state("between", Emits.WRAPPER)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "message_sep", "between")
    .transition("content", "call_open", "calls")
    .transition("content", "call_open_token", "calls")
    .transition("between", "call_open", "calls")
    .transition("between", "call_open_token", "calls")
    .control_tokens("message_sep", "call_open_token")
    .calls(CallSyntax.json(needs_arguments=True))
)

GIGACHAT35 = (
    Format("gigachat35")
    .terminal("calls_open", f"<{GCML}tool_calls>")
    .terminal("calls_close", f"</{GCML}tool_calls>")
    .terminal("invoke_open", f'<{GCML}invoke name="')
    .terminal("invoke_close", dsml_tags(GCML)[2])
    .ignores("message_sep", "<|message_sep|>")
    .ignores("end", "</s>")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.WRAPPER)
    .state("invoke", Emits.ARGUMENTS)
    .transition("content", "calls_open", "calls")
)
GIGACHAT35 = invoke_rows(GIGACHAT35).calls(CallSyntax.dsml(GCML, spaced=True))
GIGACHAT35 = spaced_invokes(damaged_openers(calls_without_block(GIGACHAT35, "invoke_open", "invoke"), GCML))
GIGACHAT35 = opener_again_in_block(GIGACHAT35)

TABLES = {"gigachat3": GIGACHAT3, "gigachat35": GIGACHAT35}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("gigachat3",),
            "one JSON object after `function call<|role_sep|>` or `<|function_call|>`",
            "GigaChat 3"),
        Row(("gigachat35",),
            "`<｜GCML｜tool_calls>` block of DSML invokes under GCML's mark",
            "GigaChat 3.5 (no checkpoint id in the registry)"),
    ),
    vllm={
        "gigachat3": "gigachat3",
    },
    sglang={
        "gigachat3": "gigachat3",
        "gigachat35": "gigachat35",
    },
)
