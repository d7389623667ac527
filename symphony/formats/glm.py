"""The keyed families under `<tool_call>`-shaped markers (SPEC §3 `glm`, `ling`, `iquest`): a
call is its name, then `<arg_key>K</arg_key><arg_value>V</arg_value>` pairs, and
`</tool_call>` is the call's end. GLM-5, GLM-5.3 and GLM-4.7 write no whitespace between the tags
(`glm`); Ling, and GLM-4.5/4.6, write a newline after the name and after each pair (`ling`, the
same parse, the spacing matters only to the grammar); IQuest has markers of its own and no turn
opener (`iquest`).
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import Tags


def keyed(name, call_open, call_close, tags, opener):
    table = (
        Format(name)
        .terminal("think_open", "<think>")
        .terminal("think_close", "</think>")
        .terminal("call_open", call_open)
        .terminal("call_close", call_close)
        .state("content", Emits.CONTENT)
        .state("reasoning", Emits.REASONING)
        .state("call", Emits.ARGUMENTS)
        .transition("content", "think_open", "reasoning")
        .transition("reasoning", "think_close", "content")
        .transition("content", "call_open", "call")
        .transition("call", "call_close", "content")
        .transition("call", "call_open", "call")
        .calls(CallSyntax.keyed(tags))
    )
    return table.opens_turn(opener) if opener is not None else table


GLM = keyed("glm", "<tool_call>", "</tool_call>", Tags.PLAIN, "<|assistant|>")
LING = keyed("ling", "<tool_call>", "</tool_call>", Tags.LING, "<role>ASSISTANT</role>")
IQUEST = keyed("iquest", "<iquest_tool_call>", "</iquest_tool_call>", Tags.PLAIN, None)

TABLES = {"glm": GLM, "ling": LING, "iquest": IQUEST}
