"""Apertus (`apertus`, issue 10): calls are a JSON list of `{"NAME": {arguments}}` objects between
`<|tools_prefix|>` and `<|tools_suffix|>`. A thought sits between `<|inner_prefix|>` and
`<|inner_suffix|>` (SGLang's apertus2509 reasoning detector; the model writes it, several per
turn), and calls written inside a thought are calls, the thought going on after them.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import CallObject

APERTUS = (
    Format("apertus")
    .terminal("think_open", "<|inner_prefix|>")
    .terminal("think_close", "<|inner_suffix|>")
    .terminal("calls_open", "<|tools_prefix|>")
    .terminal("calls_close", "<|tools_suffix|>")
    .state("content", Emits.CONTENT)
    .state("reasoning", Emits.REASONING)
    .state("calls", Emits.ARGUMENTS)
    .state("thought_calls", Emits.ARGUMENTS)
    .transition("content", "think_open", "reasoning")
    .transition("reasoning", "think_close", "content")
    .transition("content", "calls_open", "calls")
    .transition("calls", "calls_close", "content")
    .transition("reasoning", "calls_open", "thought_calls")
    .transition("thought_calls", "calls_close", "reasoning")
    .transition("thought_calls", "think_close", "content")
    .calls(CallSyntax.json_list(CallObject.NAMED))
)

TABLES = {"apertus": APERTUS}
