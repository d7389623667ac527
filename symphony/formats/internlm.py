"""InternLM2/2.5 (`internlm2`, issue 11): a call is `<|action_start|><|plugin|>` + one
`{"name", "parameters"}` object + `<|action_end|>`; no thought.
"""
from symphony.format import CallSyntax, Emits, Format

INTERNLM2 = (
    Format("internlm2")
    .terminal("call_open", "<|action_start|><|plugin|>")
    .terminal("call_close", "<|action_end|>")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "call_open", "calls")
    .transition("calls", "call_close", "content")
    .transition("calls", "call_open", "calls")
    .calls(CallSyntax.json())
    .opens_turn("<|im_start|>assistant")
)

TABLES = {"internlm2": INTERNLM2}
ALIASES = {"internlm": "internlm2"}
