"""MiniMax M3 (SPEC §3 `minimax_m3`): the template writes a separator token before every tag,
which is dropped wherever it stands (and kept in its place among a call's held bytes); calls sit
in a `<tool_call>` block of `<invoke name="…">` element trees (XML). `<mm:think>`/`</mm:think>`
mean something only at the very start of the output; later they are content. The block's opener
written again right after a call is its wrapping, the block going on (shapes.opener_again_in_block).

MiniMax M2 and M2.7 (`minimax_m2`): the generation prompt opens a `<think>` thought;
calls sit in a `<minimax:tool_call>` block of `<invoke name="…">` invokes whose
`<parameter name="…">` values are written directly between the tags and typed by the request's
tools (no separator, no element trees). A block ends the thought, as DeepSeek's does. Its models
also write a name's attribute single-quoted, unquoted or spaced around its `=` (`<invoke
name='f'>`, `<parameter name = x>`), which vLLM's minimax_m2 parser reads: so does the table
(CallSyntax.invoke(loose=True), shapes.loose_invokes); the grammar writes `name="…"`. An invoke
written in the content without its `<minimax:tool_call>` block, which vLLM's parser reads too
(SGLang's shows it as content), is read in the prose (shapes.calls_without_block). A misspelled
block close after the calls (`</minimax:toolcall>`, `</minimax_tool_call>`) is dropped as the
block's close, as vLLM's parser drops it (shapes.damaged_closers); the block's opener written
again right after a call is dropped, the block going on, as both incumbents read the calls after it
(shapes.opener_again_in_block).

MiniMax M1 (`minimax_m1`, vLLM's `minimax`): `<think>` thoughts the model writes, and
calls as a `<tool_calls>` block of JSON call objects, one per line, with no list around them.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import (ALWAYS_OPENS_THOUGHT, MINIMAX, MODEL_WRITES_THOUGHT, REASONING_PROBE,
                                     ByValue, Family, Replay, Row, checkpoints)
from symphony.formats.shapes import (THINK, calls_without_block, damaged_closers, invoke_rows, loose_invokes,
                                     opener_again_in_block, thought_and_calls, thought_and_invokes)
from symphony.syntax import XML_INVOKE_CLOSE

SEPARATOR = "]<]minimax[>["

MINIMAX_M3 = (
    Format("minimax_m3")
    .terminal("think_open", "<mm:think>")
    .terminal("think_close", "</mm:think>")
    .terminal("calls_open", "<tool_call>")
    .terminal("calls_close", "</tool_call>")
    .terminal("invoke_open", "<invoke name=\"")
    .terminal("invoke_close", XML_INVOKE_CLOSE)
    .ignores("separator", SEPARATOR, separator=True)
    .state("start", Emits.CONTENT)
    .state("reasoning", Emits.REASONING)
    .state("content", Emits.CONTENT)
    .state("calls", Emits.WRAPPER)
    .state("invoke", Emits.ARGUMENTS)
    .transition("start", "think_open", "reasoning")
    .transition("start", "think_close", "content")
    .transition("reasoning", "think_close", "content")
    .transition("start", "calls_open", "calls")
    .transition("reasoning", "calls_open", "calls")
    .transition("content", "calls_open", "calls")
)
MINIMAX_M3 = opener_again_in_block(invoke_rows(MINIMAX_M3).calls(CallSyntax.xml()).opens_turn("]~b]ai\n"))

MINIMAX_M2 = thought_and_invokes("minimax_m2", ("<minimax:tool_call>", "</minimax:tool_call>"),
                                 ("<invoke name=\"", XML_INVOKE_CLOSE), CallSyntax.invoke(loose=True), "]~b]ai\n")
MINIMAX_M2 = loose_invokes(calls_without_block(MINIMAX_M2, "invoke_open", "invoke"))
MINIMAX_M2 = opener_again_in_block(damaged_closers(MINIMAX_M2, "minimax"))

MINIMAX_M1 = thought_and_calls("minimax_m1", THINK, ("<tool_calls>", "</tool_calls>"),
                               CallSyntax.json_list(bare=True), "]~b]ai\n")

# `</think>` is one token of MiniMax M2's tokenizer: with no thought open it is dropped (a control
# token), as vLLM's and SGLang's reasoning parsers drop it
MINIMAX_M2 = MINIMAX_M2.control_tokens("think_close")

TABLES = {"minimax_m3": MINIMAX_M3, "minimax_m2": MINIMAX_M2, "minimax_m1": MINIMAX_M1}


# MiniMax-M2 and M2.7 as the incumbents serve them (bench/peers/harness.py): the prompt always
# opens <think>; <minimax:tool_call> invokes
MINIMAX_M2_BENCH = {
    "thinking_default": True,
    "markers": ["]~b]ai", "[e~[", "<think>", "</think>", "<minimax:tool_call>", "</minimax:tool_call>"],
    "sglang": {"tool": "minimax-m2", "reasoning": "minimax", "force": True},
    "vllm": {"tool": "minimax_m2", "reasoning": "minimax_m2", "tail_on": "]~b]ai\n<think>\n"},
}

FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("minimax_m3",),
            "`<invoke name=\"…\">` XML element trees, a separator before every tag; `<mm:think>` thought, opened by the "
            "prompt for `thinking_mode: \"enabled\"`",
            "MiniMax M3"),
        Row(("minimax_m2",),
            "`<minimax:tool_call>` block of `<invoke name=\"…\">` + `<parameter name=\"…\">`, tool-typed",
            "MiniMax M2, M2.1, M2.5, M2.7"),
        Row(("minimax_m1",),
            "`<tool_calls>` block of JSON call objects, one per line",
            "MiniMax M1 40k, 80k"),
    ),
    vllm={
        "minimax_m3": "minimax_m3",
        "minimax_m2": "minimax_m2",
        "minimax": "minimax_m1",
    },
    sglang={
        "minimax-m2": "minimax_m2",
        "minimax-m3": "minimax_m3",
    },
    checkpoints=(
        # minimax_m3: XML invokes; the output itself starts with <mm:think> or </mm:think>, but for
        # `thinking_mode: "enabled"` the template writes the <mm:think> (vLLM's and SGLang's parsers
        # start inside the thought then)
        checkpoints("minimax-m3", "minimax_m3", MODEL_WRITES_THOUGHT, MINIMAX, None,
                    "MiniMaxAI/MiniMax-M3", tails=ByValue("thinking_mode", {"enabled": "<mm:think>"}, "")),
        # minimax_m2: <minimax:tool_call> blocks of invokes; the prompt opens the thought
        checkpoints("minimax-m2", "minimax_m2", ALWAYS_OPENS_THOUGHT, MINIMAX, None,
                    "MiniMaxAI/MiniMax-M2", tails=("<think>\n", "<think>\n")),
        checkpoints("minimax-m2.7", "minimax_m2", ALWAYS_OPENS_THOUGHT, MINIMAX, None,
                    "MiniMaxAI/MiniMax-M2.7", "MiniMaxAI/MiniMax-M2.5", "MiniMaxAI/MiniMax-M2.1",
                    tails=("<think>\n", "<think>\n")),
        # minimax_m1: <tool_calls> blocks of JSON call objects, one per line; the model writes its own
        # <think> thought
        checkpoints("minimax-m1-80k", "minimax_m1", MODEL_WRITES_THOUGHT, MINIMAX, None,
                    "MiniMaxAI/MiniMax-M1-80k", "MiniMaxAI/MiniMax-M1-40k"),
    ),
    replay=Replay(
        probes={"minimax_m2": {REASONING_PROBE: (0, "stop")}},
    ),
    bench={
        # MiniMax-M3: "]<]minimax[>[" before every tag; the output itself starts
        # with <mm:think> or </mm:think> (empty tail). SGLang: minimax-m3/minimax-m3
        # (template rule on <mm:think> / the separator); force only for
        # thinking_mode == "enabled" (serving_chat's M3 branch), never set here.
        # vLLM: minimax_m3/minimax_m3 (engine tool parser + legacy reasoning parser,
        # in reasoning at the start only for thinking_mode == "enabled").
        "minimax-m3": {
            "thinking_default": True,
            "markers": ["<mm:think>", "</mm:think>", "]<]minimax[>[", "<tool_call>", "</tool_call>"],
            "sglang": {"tool": "minimax-m3", "reasoning": "minimax-m3", "force": False},
            "vllm": {"tool": "minimax_m3", "reasoning": "minimax_m3", "tail_on": ""},
        },

        # -- the pending families (bench/common.py PENDING_SLUGS). Parser names are the
        # peers' own registry names for these checkpoints; the prompt tails are symphony's registry's.
        "minimax-m2": MINIMAX_M2_BENCH,
        "minimax-m2.7": MINIMAX_M2_BENCH,
    },
)
