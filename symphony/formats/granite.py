"""Granite 3.x (`granite`): `<|tool_call|>` (or the text `<tool_call>`) and then a JSON
list of `{"name", "arguments"}` call objects to the end of the output; no thought. The opener
written again after the list's `]` (text between or none) opens the next list, as vLLM's granite
reads it; in the list it is the list's text (`next_list`). (Granite 4 writes
Hermes-style `<tool_call>` objects: the qwen2_5 table.)

Asked to think (the template's `thinking` kwarg, which only adds a system prompt saying how),
Granite 3.3 writes its thought in `<think>` tags and its answer in `<response>` tags, dropped
wherever they stand (`granite_thinking`); Granite 3.2 writes them after the phrases "Here is my
thought process:" and "Here is my response:" ("Here's" too), the phrases the markers
(`granite_thought_process`, as vLLM's granite reasoning parser reads them; where the response
phrase never comes, the rest of the output is the thought, where vLLM's whole-output split keeps
it as content). Only the prompt's last assistant turn seeds them (the thinking system prompt
spells out the markers). Granite-20B-FunctionCalling
(`granite_20b_fc`, vLLM's `granite-20b-fc`): each call is `<function_call>` and a JSON
`{"name", "arguments"}` object, with no close marker; the next `<function_call>` starts the next.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import GRANITE_HEAD, NO_THOUGHT, Family, Row, checkpoints

THOUGHT_PROCESS = (("Here is my thought process:", "Here is my response:"),
                   ("Here's my thought process:", "Here's my response:"))


def granite_table(name, thoughts=()):
    """Granite 3's calls; `thoughts` the (open, close) pairs of its thought (any opener opens
    it, any closer ends it, and the calls end it)."""
    table = Format(name)
    for k, (open_text, close_text) in enumerate(thoughts):
        suffix = f"_{k + 1}" if k else ""
        table = table.terminal("think_open" + suffix, open_text).terminal("think_close" + suffix, close_text)
    table = (table
             .terminal("calls_open", "<|tool_call|>")
             .terminal("calls_open_text", "<tool_call>")
             .state("content", Emits.CONTENT))
    if thoughts:
        table = table.state("reasoning", Emits.REASONING)
    table = (table
             .state("calls", Emits.ARGUMENTS)
             .transition("content", "calls_open", "calls")
             .transition("content", "calls_open_text", "calls")
             .transition("calls", "calls_open", "calls")
             .transition("calls", "calls_open_text", "calls"))
    for k in range(len(thoughts)):
        suffix = f"_{k + 1}" if k else ""
        table = (table
                 .transition("content", "think_open" + suffix, "reasoning")
                 .transition("reasoning", "think_close" + suffix, "content"))
    if thoughts:
        table = (table
                 .transition("reasoning", "calls_open", "calls")
                 .transition("reasoning", "calls_open_text", "calls"))
    return (table.control_tokens("calls_open").calls(CallSyntax.json_list(next_list=True))
            .opens_turn("<|start_of_role|>assistant<|end_of_role|>"))


GRANITE = granite_table("granite")
GRANITE_THINKING = (granite_table("granite_thinking", (("<think>", "</think>"),))
                    .ignores("response_open", "<response>")
                    .ignores("response_close", "</response>"))
GRANITE_THOUGHT_PROCESS = granite_table("granite_thought_process", THOUGHT_PROCESS)

GRANITE_20B_FC = (
    Format("granite_20b_fc")
    .terminal("call_open", "<function_call>")
    .state("content", Emits.CONTENT)
    .state("calls", Emits.ARGUMENTS)
    .transition("content", "call_open", "calls")
    .transition("calls", "call_open", "calls")
    .calls(CallSyntax.json())
)

TABLES = {"granite": GRANITE, "granite_thinking": GRANITE_THINKING, "granite_thought_process": GRANITE_THOUGHT_PROCESS,
          "granite_20b_fc": GRANITE_20B_FC}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("granite",),
            "`<|tool_call|>` (or `<tool_call>`) + a JSON list of calls to the end",
            "Granite 3.0-3.3"),
        Row(("granite_thinking", "granite_thought_process"),
            "the same calls, after a thought: `<think>` and `<response>` tags (3.3), or the phrases \"Here is my "
            "thought process:\" and \"Here is my response:\" (3.2); `for_model` picks them for the request's `thinking: "
            "true`",
            "Granite 3.3, Granite 3.2 thinking (vLLM reasoning parser `granite` reads 3.2's)"),
        Row(("granite_20b_fc",),
            "`<function_call>` + a JSON object, no close marker",
            "Granite-20B-FunctionCalling"),
    ),
    vllm={
        "granite": "granite",
        "granite-20b-fc": "granite_20b_fc",
    },
    checkpoints=(
        # the incumbents' other JSON families (no fixtures; heads from their templates)
        checkpoints("granite-3.1-8b-instruct", "granite", NO_THOUGHT, GRANITE_HEAD, None,
                    "ibm-granite/granite-3.1-8b-instruct", "ibm-granite/granite-3.1-2b-instruct",
                    "ibm-granite/granite-3.0-8b-instruct", "ibm-granite/granite-3.0-2b-instruct"),
        # Granite 3.2 and 3.3 think when the request's `thinking` is true: the model writes its
        # thought in the markup of the thinking table (the granite module)
        checkpoints("granite-3.2-8b-instruct", "granite", NO_THOUGHT, GRANITE_HEAD, None,
                    "ibm-granite/granite-3.2-8b-instruct", "ibm-granite/granite-3.2-2b-instruct",
                    switch=(("thinking",), False), thinking_table="granite_thought_process"),
        checkpoints("granite-3.3-8b-instruct", "granite", NO_THOUGHT, GRANITE_HEAD, None,
                    "ibm-granite/granite-3.3-8b-instruct", "ibm-granite/granite-3.3-2b-instruct",
                    switch=(("thinking",), False), thinking_table="granite_thinking"),
    ),
)
