"""GigaChat 3 (`gigachat3`, vLLM's and SGLang's `gigachat3`): one call per output, a JSON
`{"name", "arguments"}` object after `function call<|role_sep|>` (the header the template writes
after `<|message_sep|>`, the end of the answer's text) or after `<|function_call|>`; `</s>` is
dropped. The text of `<|message_sep|>`'s header up to the call is the template's wrapping.
"""
from symphony.format import CallSyntax, Emits, Format

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
    .calls(CallSyntax.json())
)

TABLES = {"gigachat3": GIGACHAT3}
