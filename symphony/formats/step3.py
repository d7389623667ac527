"""Step 3 (`step3`): a `<｜tool_calls_begin｜>` block of `<steptml:invoke name="…">` invokes with
`<steptml:parameter>` values typed by the request's tools; each call also sits between
`<｜tool_call_begin｜>` and `<｜tool_call_end｜>`, joined by `<｜tool_sep｜>`, markers dropped in the
block. The template writes each call's type before its invoke, `function<｜tool_sep｜>` (vLLM's and
SGLang's step3 parsers read a call only after it): one marker, dropped in the block like the
others, so the word `function` is no text between the block's calls."""
from symphony.format import CallSyntax
from symphony.formats.family import ALWAYS_OPENS_THOUGHT, Family, Row, checkpoints
from symphony.formats.shapes import thought_and_invokes
from symphony.syntax import Placement

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
         .terminal("call_type", "function<｜tool_sep｜>")
         .transition("calls", "call_begin", "calls")
         .transition("calls", "call_type", "calls")
         .transition("calls", "call_end", "calls")
         .transition("calls", "call_sep", "calls")
         .transition("invoke", "call_end", "calls")
         .control_tokens("calls_open", "calls_close", "call_begin", "call_end", "call_sep"))

TABLES = {"step3": STEP3}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("step3",),
            "`<｜tool_calls_begin｜>` block of `<steptml:invoke name=\"…\">` + `<steptml:parameter name=\"…\">`, tool-typed",
            "Step 3"),
    ),
    vllm={
        "step3": "step3",
    },
    sglang={
        "step3": "step3",
    },
    checkpoints=(
        # the prompt opens the thought (vLLM's step3 reasoning parser reads everything before
        # </think> as the thought)
        checkpoints("step3", "step3", ALWAYS_OPENS_THOUGHT, "<|BOT|>assistant\n", None,
                    "stepfun-ai/step3"),
    ),
)
