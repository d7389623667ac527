"""The pythonic families (SPEC §3 `olmo3`, `lfm2_5`): calls written as Python calls with keyword
arguments between the table's block markers. Olmo 3 writes one call per line in
`<function_calls>` and no thought; LFM2.5 writes a Python list `[f(a='x'), g()]` between
`<|tool_call_start|>` and `<|tool_call_end|>` and its own `<think>` thoughts. LFM2 also slips:
raw line breaks in strings, zero-padded integers, quotes of a string's kind left unescaped
(`command='sed -n '1,5p' f.py'`, read where one reading closes the call), and now and then a
JSON call list `[{"name": …, "arguments": …}]` in its block; its syntax reads them all. In every
pythonic table a call is a call once its `)` reads it whole, as Python would: one with a value
that is no literal (`city=Tokyo`, `b'z'`, `1e999`), a positional argument or a string no reading
closes, or one cut short, is its text (docs/recovery.md, Pythonic calls).

Olmo 3 Think (`olmo3_think`) writes Olmo 3's calls after a `<think>` thought, which its
generation prompt opens (vLLM's olmo3 reasoning parser starts inside it for that reason); a
`<think>` the model writes again inside it is dropped, so an output that opens its own thought
reads the same (and, as in the other thought-and-calls tables, a `<function_calls>` inside a block
opens the next one).

The bare pythonic family (`pythonic`, also named `llama4_pythonic`): Llama 3.2 and Llama 4 (and
the models vLLM's and SGLang's `pythonic` parsers serve) write a Python list `[f(a=1), g()]`,
as the whole output or after prose ("Searching. [search(query='x')] Done."), more than one now
and then, Llama 4 also between `<|python_start|>` and `<|python_end|>`. The output is prose in
which a list opens wherever `[`, a name and its `(` are written (outside Markdown code); anything
else is content, every byte, so "[1, 2] are the numbers" or "[see below]" loses nothing. No
thought.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import (ALWAYS_OPENS_THOUGHT, CHATML, MODEL_WRITES_THOUGHT, NO_THOUGHT, REASONING_PROBE,
                                     Family, Replay, Row, checkpoints)
from symphony.formats.shapes import THINK, thought_and_calls
from symphony.syntax import CallObject

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
    .control_tokens("calls_open", "calls_close")
    .calls(CallSyntax.pythonic(slips=True, objects=CallObject.CALL))
)

PYTHONIC = (
    Format("pythonic")
    .terminal("python_start", "<|python_start|>")
    .terminal("python_end", "<|python_end|>")
    .state("prose", Emits.ARGUMENTS)
    .state("python", Emits.ARGUMENTS)
    .transition("prose", "python_start", "python")
    .transition("python", "python_end", "prose")
    .control_tokens("python_start", "python_end")
    .calls(CallSyntax.pythonic(prose=True))
    .opens_turn("<|header_start|>assistant<|header_end|>")
)

TABLES = {"olmo3": OLMO3, "olmo3_think": OLMO3_THINK, "lfm2_5": LFM2_5, "pythonic": PYTHONIC}
ALIASES = {"lfm2.5": "lfm2_5", "llama4_pythonic": "pythonic"}


FAMILY = Family(
    tables=TABLES,
    aliases=ALIASES,
    rows=(
        Row(("olmo3",),
            "`<function_calls>` of Python calls, one per line",
            "Olmo 3 Instruct, Olmo 3.1 32B Instruct"),
        Row(("olmo3_think",),
            "the same, after a `<think>` thought its prompt opens (a `<think>` written again inside it dropped)",
            "Olmo 3 Think 7B/32B, Olmo 3.1 32B Think (vLLM reasoning parser `olmo3`)"),
        Row(("lfm2_5",),
            "`<|tool_call_start|>[f(a='x'), g()]<|tool_call_end|>`, also its slips (raw line breaks, unescaped "
            "quotes, `07`) and JSON call objects",
            "LFM2.5, LFM2"),
        Row(("pythonic",),
            "prose with Python call lists `[f(a=1), g()]` in it (also in a `<|python_start|>` region); text that "
            "opens no list with `[`, a name and its `(` is content, every byte",
            "Llama 4 Scout, Maverick"),
    ),
    vllm={
        "olmo3": "olmo3",
        "lfm2": "lfm2_5",  # vLLM's lfm2 parser reads LFM2.5's `<|tool_call_start|>[…]<|tool_call_end|>`
        "pythonic": "pythonic",
        "llama4_pythonic": "pythonic",
    },
    sglang={
        "pythonic": "pythonic",
        "lfm2": "lfm2_5",
    },
    checkpoints=(
        # pythonic: Llama 4 writes Python call lists in its prose, bare or in <|python_start|>
        checkpoints("llama-4-scout-17b-16e-instruct", "pythonic", NO_THOUGHT,
                    "<|header_start|>assistant<|header_end|>\n\n", None,
                    "meta-llama/Llama-4-Scout-17B-16E-Instruct", "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
                    "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8"),
        # pythonic: Python calls with keyword arguments
        checkpoints("olmo-3-7b-instruct", "olmo3", NO_THOUGHT, CHATML, None,
                    "allenai/Olmo-3-7B-Instruct", "allenai/Olmo-3.1-32B-Instruct"),
        # Olmo 3 Think: Olmo 3's calls, and a <think> thought its prompt opens
        checkpoints("olmo-3-7b-think", "olmo3_think", ALWAYS_OPENS_THOUGHT, CHATML, None,
                    "allenai/Olmo-3-7B-Think", "allenai/Olmo-3-32B-Think", "allenai/Olmo-3.1-32B-Think"),
        checkpoints("lfm2.5-1.2b-instruct", "lfm2_5", MODEL_WRITES_THOUGHT, CHATML, None,
                    "LiquidAI/LFM2.5-1.2B-Instruct"),
        # LFM2 (the first generation): the same `<|tool_call_start|>[f(a=1)]` calls, no thought
        checkpoints("lfm2-1.2b", "lfm2_5", NO_THOUGHT, CHATML, None,
                    "LiquidAI/LFM2-1.2B", "LiquidAI/LFM2-350M", "LiquidAI/LFM2-700M", "LiquidAI/LFM2-2.6B",
                    "LiquidAI/LFM2-8B-A1B"),
    ),
    replay=Replay(
        probes={"lfm2_5": {REASONING_PROBE: (0, "stop")}},
    ),
    bench={
        # LFM2.5-1.2B-Instruct: <|tool_call_start|>[f(a='x')]<|tool_call_end|>, the
        # model writes <think>…</think> itself, the template has no switch. SGLang:
        # the lfm2 tool rule; no reasoning parser (the <think>-tag rule skips LFM2
        # templates on purpose, and no other reasoning rule matches). vLLM: lfm2 is
        # a tool parser only and no reasoning parser names LFM. So neither peer
        # separates the thought: the 5 thought cases keep it in the content.
        "lfm2.5-1.2b-instruct": {
            "thinking_default": None,
            "markers": ["<|im_start|>", "<|im_end|>", "<|tool_call_start|>", "<|tool_call_end|>",
                        "<think>", "</think>"],
            "sglang": {"tool": "lfm2", "reasoning": None, "force": False},
            "vllm": {"tool": "lfm2", "reasoning": None, "tail_on": CHATML},
        },
        # Olmo-3-7B-Instruct: <function_calls> with one Python call per line, no
        # thought. SGLang 0.5.23 has no Olmo parser and no template rule picks one;
        # `pythonic` (the nearest) wants a bracketed list [f(...), g(...)] and finds
        # none of the fixture's 8 calls (3/11 agree, the content-only cases), so it
        # is recorded as unsupported. vLLM: olmo3 tool parser (its olmo3 reasoning
        # parser is for the Think checkpoints).
        "olmo-3-7b-instruct": {
            "thinking_default": None,
            "markers": ["<|im_start|>", "<|im_end|>", "<function_calls>", "</function_calls>"],
            "sglang": None,
            "unsupported_reason": {
                "sglang": "SGLang 0.5.23 has no parser for Olmo 3's <function_calls> lines; "
                          "pythonic needs a bracketed [f(...)] list and reads none of the calls"},
            "vllm": {"tool": "olmo3", "reasoning": None, "tail_on": CHATML},
        },
    },
)
