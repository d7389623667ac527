"""Families the incumbents parse whose calls are JSON objects or invokes in markers of their own
(issue 11): ERNIE 4.5 (`ernie45`: Qwen3's `<tool_call>` JSON objects and `<think>` thought; the
`<response>`/`</response>` it writes around its answer are dropped wherever they stand), LongCat
(`longcat`: `<longcat_tool_call>` JSON objects, no thought) and Step 3 (`step3`: a
`<｜tool_calls_begin｜>` block of `<steptml:invoke name="…">` invokes with `<steptml:parameter>`
values typed by the request's tools; each call also sits between `<｜tool_call_begin｜>` and
`<｜tool_call_end｜>`, joined by `<｜tool_sep｜>`, markers dropped in the block; the
`function<｜tool_sep｜>NAME` header some outputs write before an invoke is text between the
block's calls, Malformed, the invoke still read).
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import THINK, calls_only, thought_and_calls, thought_and_invokes
from symphony.syntax import Placement

ERNIE45 = (thought_and_calls("ernie45", THINK, ("<tool_call>", "</tool_call>"), CallSyntax.json(),
                             "<|im_start|>assistant")
           .ignores("response_open", "<response>")
           .ignores("response_close", "</response>"))

LONGCAT = calls_only("longcat", ("<longcat_tool_call>", "</longcat_tool_call>"), CallSyntax.json(), "ASSISTANT:")

STEP3_INVOKE_CLOSE = "</steptml:invoke>"
STEP3 = (thought_and_invokes("step3", ("<｜tool_calls_begin｜>", "<｜tool_calls_end｜>"),
                             ('<steptml:invoke name="', STEP3_INVOKE_CLOSE),
                             CallSyntax.invoke(Placement.DIRECT, parameter='<steptml:parameter name="',
                                               parameter_close="</steptml:parameter>",
                                               invoke_close=STEP3_INVOKE_CLOSE),
                             "<|BOT|>assistant")
         .terminal("call_begin", "<｜tool_call_begin｜>")
         .terminal("call_end", "<｜tool_call_end｜>")
         .terminal("call_sep", "<｜tool_sep｜>")
         .transition("calls", "call_begin", "calls")
         .transition("calls", "call_end", "calls")
         .transition("calls", "call_sep", "calls")
         .transition("invoke", "call_end", "calls"))

TABLES = {"ernie45": ERNIE45, "longcat": LONGCAT, "step3": STEP3}
ALIASES = {"ernie4.5": "ernie45"}
