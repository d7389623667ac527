"""Mistral (`mistral`, issue 11): calls follow `[TOOL_CALLS]`, to the end of the output or the
next `[TOOL_CALLS]`; no thought. Both generations are read: before v11 the region holds a JSON
list of `{"name", "arguments"}` objects; since v11 it holds one call, `NAME{..arguments..}`, or
`NAME[ARGS]{..}`, where `[ARGS]` is a dropped separator wherever it stands. The name is the head's
first word: v11's tokenizer also writes the model's own call id, `NAME[CALL_ID]ID[ARGS]{..}`, and
`[CALL_ID]ID` stays in the call start's source (ids are symphony's, as in every table).
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import CallObject

MISTRAL = (
    Format("mistral")
    .terminal("calls_open", "[TOOL_CALLS]")
    .ignores("arguments_sep", "[ARGS]")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "calls_open", "calls")
    .transition("calls", "calls_open", "calls")
    .calls(CallSyntax.json_list(otherwise=CallSyntax.json(CallObject.ARGUMENTS, name_word=True)))
)

TABLES = {"mistral": MISTRAL}
