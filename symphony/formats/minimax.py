"""MiniMax M3 (SPEC §3 `minimax_m3`): the template writes a separator token before every tag,
which is dropped wherever it stands (and kept in its place among a call's held bytes); calls sit
in a `<tool_call>` block of `<invoke name="…">` element trees (XML). `<mm:think>`/`</mm:think>`
mean something only at the very start of the output; later they are content.

MiniMax M2 and M2.7 (`minimax_m2`, issue 10): the generation prompt opens a `<think>` thought;
calls sit in a `<minimax:tool_call>` block of `<invoke name="…">` invokes whose
`<parameter name="…">` values are written directly between the tags and typed by the request's
tools (no separator, no element trees). A block ends the thought, as DeepSeek's does.

MiniMax M1 (`minimax_m1`, vLLM's `minimax`, issue 11): `<think>` thoughts the model writes, and
calls as a `<tool_calls>` block of JSON call objects, one per line, with no list around them.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.shapes import THINK, invoke_rows, thought_and_calls, thought_and_invokes
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
    .ignores("separator", SEPARATOR)
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
MINIMAX_M3 = invoke_rows(MINIMAX_M3).calls(CallSyntax.xml()).opens_turn("]~b]ai\n")

MINIMAX_M2 = thought_and_invokes("minimax_m2", ("<minimax:tool_call>", "</minimax:tool_call>"),
                                 ("<invoke name=\"", XML_INVOKE_CLOSE), CallSyntax.invoke(), "]~b]ai\n")

MINIMAX_M1 = thought_and_calls("minimax_m1", THINK, ("<tool_calls>", "</tool_calls>"),
                               CallSyntax.json_list(bare=True), "]~b]ai\n")

TABLES = {"minimax_m3": MINIMAX_M3, "minimax_m2": MINIMAX_M2, "minimax_m1": MINIMAX_M1}
