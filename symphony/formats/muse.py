"""Muse Glimmer (`muse_glimmer`): several messages in one output, each ` to=RECIPIENT<|message|>…`,
joined by `<|eom|><|start|>assistant`. ` to=self` is the thought, ` to=user` the answer, and a
tool's name opens a call message whose body is `<atem:function_calls>` of `<atem:invoke name=…>`
with `<atem:parameter name=…>` values (param-XML, typed by the tools). A tool's recipient header
is the template's: the region it opens is closed by `<|message|>` before any call starts, and
dropped. The generation prompt ends `<|start|>assistant`, so the output starts with a header.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import ParamTags

MESSAGE = ParamTags.MUSE.header_end

MUSE_GLIMMER = (
    Format("muse_glimmer")
    .terminal("self_open", " to=self" + MESSAGE)
    .terminal("user_open", " to=user" + MESSAGE)
    .terminal("recipient_open", " to=")
    .terminal("message", MESSAGE)
    .terminal("end_of_message", "<|eom|>")
    .terminal("start", "<|start|>assistant")
    .terminal("calls_open", "<atem:function_calls>")
    .terminal("calls_close", "</atem:function_calls>")
    .terminal("invoke_open", "<atem:invoke name=\"")
    .terminal("invoke_close", ParamTags.MUSE.call_close)
    .state("between", Emits.WRAPPER)
    .state("reasoning", Emits.REASONING)
    .state("content", Emits.CONTENT)
    .state("recipient", Emits.ARGUMENTS)
    .state("tool", Emits.WRAPPER)
    .state("calls", Emits.WRAPPER)
    .state("invoke", Emits.ARGUMENTS)
    .transition("between", "self_open", "reasoning")
    .transition("between", "user_open", "content")
    .transition("between", "recipient_open", "recipient")
    .transition("between", "start", "between")
    .transition("recipient", "message", "tool")
    .transition("tool", "calls_open", "calls")
    .transition("calls", "invoke_open", "invoke")
    .transition("invoke", "invoke_close", "calls")
    .transition("invoke", "invoke_open", "invoke")
    .transition("invoke", "calls_close", "tool")
    .transition("calls", "calls_close", "tool")
    .transition("reasoning", "end_of_message", "between")
    .transition("content", "end_of_message", "between")
    .transition("recipient", "end_of_message", "between")
    .transition("tool", "end_of_message", "between")
    .transition("calls", "end_of_message", "between")
    .transition("invoke", "end_of_message", "between")
    .calls(CallSyntax.param_xml(ParamTags.MUSE))
    .opens_turn("<|start|>assistant")
)

TABLES = {"muse_glimmer": MUSE_GLIMMER}
