"""Apertus (`apertus`, issue 10): calls are a JSON list of `{"NAME": {arguments}}` objects between
`<|tools_prefix|>` and `<|tools_suffix|>`; no thought.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import CallObject

APERTUS = (
    Format("apertus")
    .terminal("calls_open", "<|tools_prefix|>")
    .terminal("calls_close", "<|tools_suffix|>")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "calls_open", "calls")
    .transition("calls", "calls_close", "content")
    .calls(CallSyntax.json_list(CallObject.NAMED))
)

TABLES = {"apertus": APERTUS}
