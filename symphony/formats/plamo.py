"""PLaMo 3 (`plamo3`, vLLM's `plamo3`): a `<|plamo:begin_tool_requests:plamo|>` block of calls, each
`<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>NAME<|plamo:end_tool_name:plamo|>`
then `<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>` and the arguments
object, closed by `<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>`. The
thought is `<|plamo:begin_think:plamo|>`…`<|plamo:end_think:plamo|>` (the generation prompt opens
it when thinking is on); the block's opener ends a thought left open; `<|plamo:tag|>`, the turn's
end, is dropped.
"""
from symphony.format import CallSyntax
from symphony.formats.family import Family, Row
from symphony.formats.shapes import thought_and_call_block
from symphony.syntax import CallObject


def _mark(name):
    return f"<|plamo:{name}:plamo|>"


PLAMO3 = (thought_and_call_block(
    "plamo3", (_mark("begin_think"), _mark("end_think")),
    (_mark("begin_tool_requests"), _mark("end_tool_requests")), (_mark("begin_tool_name"), _mark("end_tool_request")),
    CallSyntax.json(CallObject.ARGUMENTS, head=_mark("end_tool_name") + _mark("begin_tool_arguments")
                    + "<|plamo:constrain|>json<|plamo:msg|>", tail=_mark("end_tool_arguments")),
    block_ends_thought=True)
    .terminal("request_open", _mark("begin_tool_request"))
    .transition("calls", "request_open", "calls")
    .ignores("turn_end", "<|plamo:tag|>")
    .control_tokens("think_open", "think_close", "calls_open", "calls_close", "call_open", "call_close",
                    "request_open"))

TABLES = {"plamo3": PLAMO3}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("plamo3",),
            "`<|plamo:begin_tool_requests:plamo|>` block of named calls with JSON arguments; "
            "`<|plamo:begin_think:plamo|>` thought",
            "PLaMo 3"),
    ),
    vllm={
        "plamo3": "plamo3",
    },
)
