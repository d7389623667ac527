"""The pythonic families (SPEC §3 `olmo3`, `lfm2_5`): calls written as Python calls with keyword
arguments between the table's block markers. Olmo 3 writes one call per line in
`<function_calls>` and no thought; LFM2.5 writes a Python list `[f(a='x'), g()]` between
`<|tool_call_start|>` and `<|tool_call_end|>` and its own `<think>` thoughts.

Olmo 3 Think (`olmo3_think`, issue 11) writes Olmo 3's calls after a `<think>` thought, which its
generation prompt opens (vLLM's olmo3 reasoning parser starts inside it for that reason); a
`<think>` the model writes again inside it is dropped, so an output that opens its own thought
reads the same (and, as in the other thought-and-calls tables, a `<function_calls>` inside a block
opens the next one).

The bare pythonic family (`pythonic`, also named `llama4_pythonic`; issue 11): Llama 4 (and the
models vLLM's `pythonic` parser serves) write a Python list `[f(a=1), g()]` as the whole output,
Llama 4 now and then between `<|python_start|>` and `<|python_end|>`. The list is read only where
it leads the output (or the python region) with `[`, a name and its `(`; anything else there is
content, so an answer that starts "[1, 2]" or "[see below]" loses nothing. No thought.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.shapes import THINK, thought_and_calls

OLMO3 = (
    Format("olmo3")
    .terminal("calls_open", "<function_calls>")
    .terminal("calls_close", "</function_calls>")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "calls_open", "calls")
    .transition("calls", "calls_close", "content")
    .calls(CallSyntax.pythonic())
)

OLMO3_THINK = thought_and_calls("olmo3_think", THINK, ("<function_calls>", "</function_calls>"), CallSyntax.pythonic(),
                                "<|im_start|>assistant")

LFM2_5 = (
    Format("lfm2_5")
    .terminal("think_open", "<think>")
    .terminal("think_close", "</think>")
    .terminal("calls_open", "<|tool_call_start|>")
    .terminal("calls_close", "<|tool_call_end|>")
    .state("content", Emits.CONTENT)
    .state("reasoning", Emits.REASONING)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "think_open", "reasoning")
    .transition("reasoning", "think_close", "content")
    .transition("content", "calls_open", "calls")
    .transition("calls", "calls_close", "content")
    .calls(CallSyntax.pythonic())
)

PYTHONIC = (
    Format("pythonic")
    .terminal("python_start", "<|python_start|>")
    .terminal("python_end", "<|python_end|>")
    .state("start", Emits.ARGUMENTS)
    .state("calls", Emits.ARGUMENTS)
    .state("content", Emits.CONTENT)
    .transition("start", "python_start", "calls")
    .transition("calls", "python_end", "content")
    .transition("content", "python_start", "calls")
    .calls(CallSyntax.pythonic(leading=True))
    .opens_turn("<|header_start|>assistant<|header_end|>")
)

TABLES = {"olmo3": OLMO3, "olmo3_think": OLMO3_THINK, "lfm2_5": LFM2_5, "pythonic": PYTHONIC}
ALIASES = {"lfm2.5": "lfm2_5", "llama4_pythonic": "pythonic"}
