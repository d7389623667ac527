"""Kimi K3 (SPEC §3 `kimi_k3`): one message of `<|open|>…<|sep|>` / `<|close|>…<|sep|>`
regions. The generation prompt opens the message and its thought; content is only what the
response region holds (text anywhere else in the message is Malformed); calls sit in a tools
region, each `<|open|>call tool="NAME" index="N"<|sep|>` with typed argument tags (XTML). The
message's close ends whatever is open. A response close with no response open is dropped: the
serving layer may have written the response's opener into the prompt (a forced tool choice, a
prefill), and the model closes it.

Kimi K2 (`kimi_k2`, issue 11) writes `functions.NAME:IDX` JSON calls in a section block; Kimi-VL
(`kimi_vl`) only a `◁think▷` thought.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.shapes import THINK, thought_and_call_block
from symphony.syntax import XTML_CALL_CLOSE, CallObject

KIMI_K3 = (
    Format("kimi_k3")
    .terminal("think_open", "<|open|>think<|sep|>")
    .terminal("think_close", "<|close|>think<|sep|>")
    .terminal("response_open", "<|open|>response<|sep|>")
    .terminal("response_close", "<|close|>response<|sep|>")
    .terminal("tools_open", "<|open|>tools<|sep|>")
    .terminal("tools_close", "<|close|>tools<|sep|>")
    .terminal("call_open", "<|open|>call tool=\"")
    .terminal("call_close", XTML_CALL_CLOSE)
    .terminal("message_close", "<|close|>message<|sep|>")
    .state("message", Emits.WRAPPER)
    .state("reasoning", Emits.REASONING)
    .state("content", Emits.CONTENT)
    .state("tools", Emits.WRAPPER)
    .state("call", Emits.ARGUMENTS)
    .transition("message", "think_open", "reasoning")
    .transition("reasoning", "think_open", "reasoning")
    .transition("reasoning", "think_close", "message")
    .transition("reasoning", "response_open", "content")
    .transition("reasoning", "tools_open", "tools")
    .transition("reasoning", "message_close", "message")
    .transition("message", "response_open", "content")
    .transition("content", "response_close", "message")
    .transition("content", "message_close", "message")
    .transition("content", "tools_open", "tools")
    .transition("message", "tools_open", "tools")
    .transition("tools", "call_open", "call")
    .transition("call", "call_close", "tools")
    .transition("call", "call_open", "call")
    .transition("call", "tools_close", "message")
    .transition("call", "message_close", "message")
    .transition("tools", "tools_close", "message")
    .transition("tools", "message_close", "message")
    .transition("message", "message_close", "message")
    .transition("message", "response_close", "message")
    .calls(CallSyntax.xtml())
    .opens_turn("<|open|>message role=\"assistant\"<|sep|>")
)

KIMI_K2 = thought_and_call_block(
    "kimi_k2", THINK, ("<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"),
    ("<|tool_call_begin|>", "<|tool_call_end|>"),
    CallSyntax.json(CallObject.ARGUMENTS, head="<|tool_call_argument_begin|>", name_prefix="functions.",
                    name_index=":"),
    block_ends_thought=True).opens_turn("<|im_assistant|>assistant<|im_middle|>")

# Kimi-VL (SGLang's `kimi` reasoning detector): a `◁think▷` thought the Thinking checkpoints write,
# no call markup
KIMI_VL = (
    Format("kimi_vl")
    .terminal("think_open", "◁think▷")
    .terminal("think_close", "◁/think▷")
    .state("content", Emits.CONTENT)
    .state("reasoning", Emits.REASONING)
    .transition("content", "think_open", "reasoning")
    .transition("reasoning", "think_close", "content")
    .opens_turn("<|im_assistant|>assistant<|im_middle|>")
)

TABLES = {"kimi_k3": KIMI_K3, "kimi_k2": KIMI_K2, "kimi_vl": KIMI_VL}
