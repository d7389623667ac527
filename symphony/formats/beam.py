"""Beam (`beam`, SGLang's `beam` detector): harmony-like messages joined by `<|start|>assistant`,
as SGLang's fixed `BEAM_RESPONSE_TEMPLATE` reads them (its fallback where a tokenizer ships no
template of its own). `<|channel|>analysis<|message|>` opens the thought, `<|channel|>final<|message|>`
the answer (ended by `<|return|>`, `<|end|>` or `<|call|>`), and ` to=NAME<|channel|>analysis
<|constrain|>xml<|message|>` a call named in its header (CallSyntax.invoke's `head_end`) whose
parameters are `<rfl:parameter name="KEY">` tags with the value on its own line, typed by the
request's tools; the call ends with `<|call|>` or with `<|end|>`. A parameter tag right after a
value's last newline ends a value whose close tag is missing, as SGLang reads it. Text between
messages is no message's (Malformed). Like harmony's, its markers are no control tokens.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import Family, Row
from symphony.syntax import Placement

START = "<|start|>assistant"
HEAD_END = "<|channel|>analysis <|constrain|>xml<|message|>"
PARAMETER, PARAMETER_CLOSE = '<rfl:parameter name="', "</rfl:parameter>"
CALL = "<|call|>"

BEAM = (
    Format("beam")
    .terminal("analysis_open", "<|channel|>analysis<|message|>")
    .terminal("final_open", "<|channel|>final<|message|>")
    .terminal("recipient_open", " to=")
    .terminal("end", "<|end|>")
    .terminal("call", CALL)
    .terminal("return", "<|return|>")
    .terminal("start", START)
    .state("between", Emits.WRAPPER)
    .state("reasoning", Emits.REASONING)
    .state("content", Emits.CONTENT)
    .state("call", Emits.ARGUMENTS)
    .transition("between", "analysis_open", "reasoning")
    .transition("between", "final_open", "content")
    .transition("between", "recipient_open", "call")
    .transition("between", "start", "between")
    .transition("reasoning", "end", "between")
    .transition("reasoning", "return", "between")
    .transition("content", "end", "between")
    .transition("content", "return", "between")
    .transition("content", "call", "between")
    .transition("call", "call", "between")
    .transition("call", "end", "between")
    .calls(CallSyntax.invoke(Placement.OWN_LINE, parameter=PARAMETER, parameter_close=PARAMETER_CLOSE,
                             invoke_close=CALL, head_end=HEAD_END))
    .opens_turn(START)
)

TABLES = {"beam": BEAM}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("beam",),
            "messages joined by `<|start|>assistant`: `<|channel|>analysis<|message|>` the thought, "
            "`<|channel|>final<|message|>` the content, ` to=NAME<|channel|>analysis <|constrain|>xml<|message|>` a "
            "call of `<rfl:parameter name=\"KEY\">` values on their own line, ended by `<|call|>` or `<|end|>`",
            "Beam (SGLang's fixed template; no checkpoint id in the registry)"),
    ),
    # SGLang's `beam` detector reads a tokenizer's own response_template where it has one
    # (symphony.formats.from_response_template) and otherwise its fixed BEAM_RESPONSE_TEMPLATE,
    # which this table reads. vLLM's `beam` parser reads only a checkpoint's own template.
    sglang={"beam": "beam"},
)
