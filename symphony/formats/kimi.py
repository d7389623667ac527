"""Kimi K3 (SPEC §3 `kimi_k3`): one message of `<|open|>…<|sep|>` / `<|close|>…<|sep|>`
regions. The generation prompt opens the message and its thought; content is only what the
response region holds (text anywhere else in the message is Malformed); calls sit in a tools
region, each `<|open|>call tool="NAME" index="N"<|sep|>` with typed argument tags (XTML). The
message's close ends whatever is open. A response close with no response open is dropped: the
serving layer may have written the response's opener into the prompt (a forced tool choice, a
prefill), and the model closes it. A thought closed by `<|close|>think` without the `<|sep|>` the
template writes after it ends there all the same (a recovery), at the end of the output too. The
markers and a call's tags are also read as a detokenizer writes them when it spaces special tokens,
`<|open|> response <|sep|>` (a recovery: shapes.spaced_special_tokens, CallSyntax.xtml(spaced=True)).
The tools region's opener written again right after a call is the region's wrapping, the region
going on (shapes.opener_again_in_block).

Kimi K2 (`kimi_k2`) writes `functions.NAME:IDX` JSON calls in a section block; that head is the
model's own call id, and the call's id (the chat template writes it back into the next turn's
prompt, and Moonshot documents ids of that form). A head that is no such id, with no `:IDX`
(`functions.invalid.0`), names nothing: the call is Malformed, shown as content (vLLM's and
SGLang's kimi_k2 skip such a call). A call whose id is only its counter
(`<|tool_call_begin|>0<|tool_call_argument_begin|>{…}`) is the request's only tool's, its id the
`0` the model wrote; among several tools it is held until its arguments' object is whole, and is
the one tool whose parameters name every key of that object (a recovery, as vLLM's and SGLang's
kimi_k2 read it); it names nothing (Malformed) where the request has no tool, or no tool or
several fit.
A `<|tool_call_begin|>` written again before the head's `<|tool_call_argument_begin|>` begins the
head anew: `<|tool_call_begin|>functions.a:0<|tool_call_begin|>functions.b:0<|tool_call_argument_begin|>{…}`
calls `b` (as SGLang's kimi_k2 reads it; vLLM's calls `a`), the head before it a call that never
started (Malformed); one written after a call's arguments object begins the next call.
Kimi-VL (`kimi_vl`) only a `◁think▷` thought.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import (ALWAYS_OPENS_THOUGHT, MODEL_WRITES_THOUGHT, NO_THOUGHT, OPENS_THOUGHT, Family, Row,
                                     checkpoints)
from symphony.formats.shapes import (THINK, calls_without_block, opener_again_in_block, spaced_special_tokens,
                                     thought_and_call_block)
from symphony.syntax import XTML_CALL_CLOSE, CallObject

KIMI_HEAD = '<|open|>message role="assistant"<|sep|>'      # the generation prompt's head
KIMI_K2_HEAD = "<|im_assistant|>assistant<|im_middle|>"      # the generation prompt's head

KIMI_K3 = (
    Format("kimi_k3")
    .terminal("think_open", "<|open|>think<|sep|>")
    .terminal("think_close", "<|close|>think<|sep|>")
    # the thought's close without its `<|sep|>` (a slip: the template always writes it); the
    # scanner takes the longest marker, so with its `<|sep|>` it is `think_close` as ever
    .terminal("think_close_unseparated", "<|close|>think")
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
    .recovers("reasoning", "think_close_unseparated", "message")
    .calls(CallSyntax.xtml(spaced=True))
    .opens_turn("<|open|>message role=\"assistant\"<|sep|>")
)
KIMI_K3 = opener_again_in_block(KIMI_K3, "tools", "tools_open")
# the markers as a detokenizer writes them when it spaces special tokens (`<|open|> response <|sep|>`,
# `<|open|> call tool="`; the call's tags likewise, CallSyntax.xtml(spaced=True)), as vLLM's kimi_k3
# parsers read them (shapes.spaced_special_tokens)
KIMI_K3 = spaced_special_tokens(KIMI_K3, ("<|open|>", "<|close|>", "<|sep|>"), (
    "think_open", "think_close", "think_close_unseparated", "response_open", "response_close", "tools_open",
    "tools_close", "call_open", "call_close", "message_close"))

KIMI_K2 = thought_and_call_block(
    "kimi_k2", THINK, ("<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"),
    ("<|tool_call_begin|>", "<|tool_call_end|>"),
    CallSyntax.json(CallObject.ARGUMENTS, head="<|tool_call_argument_begin|>", name_prefix="functions.",
                    name_index=":", bare_counter=True, head_id=True, head_restarts=True),
    block_ends_thought=True).opens_turn("<|im_assistant|>assistant<|im_middle|>")
# a call's opener written again in the call (a recovery; the syntax's head_restarts): before the
# head's separator the head begins anew, after the arguments' object the next call begins; inside
# the arguments it is their text
KIMI_K2 = KIMI_K2.recovers("call", "call_open", "call")
# a call written without the section's opener, prose before it or not, is read in the prose (a
# recovery, shapes.calls_without_block: SGLang's kimi_k2 reads it when streamed)
KIMI_K2 = calls_without_block(KIMI_K2, "call_open", "call")
# the block's and the calls' markers, the head's separator and `</think>` are each one special token
# (a `</think>` with no thought open is dropped, as vLLM's and SGLang's kimi_k2 reasoning parsers drop it)
KIMI_K2 = (KIMI_K2.control_tokens("calls_open", "calls_close", "call_open", "call_close", "think_close")
           .control_token("argument_open", KIMI_K2.syntax.head))

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
    .control_tokens("think_open", "think_close")
    .opens_turn("<|im_assistant|>assistant<|im_middle|>")
)

TABLES = {"kimi_k3": KIMI_K3, "kimi_k2": KIMI_K2, "kimi_vl": KIMI_VL}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("kimi_k3",),
            "`<|open|>call tool=\"…\"<|sep|>` with `type`-typed argument tags, in a message of regions",
            "Kimi K3"),
        Row(("kimi_k2",),
            "`<|tool_calls_section_begin|>` block of "
            "`<|tool_call_begin|>functions.NAME:N<|tool_call_argument_begin|>{..}<|tool_call_end|>` (the call is NAME;"
            " its id is the model's own, `functions.NAME:N`, which the template writes back)",
            "Kimi K2, K2-0905, K2 Thinking, K2.5"),
        Row(("kimi_vl",),
            "no calls; a `◁think▷` thought",
            "Kimi-VL A3B Thinking (and 2506), Instruct (SGLang reasoning parser `kimi`)"),
    ),
    vllm={
        "kimi_k3": "kimi_k3",
        "kimi_k2": "kimi_k2",
    },
    sglang={
        "kimi_k2": "kimi_k2",
        "kimi_k3": "kimi_k3",
    },
    checkpoints=(
        # kimi_k3: one message of regions; the prompt opens the message and its thought
        checkpoints("kimi-k3", "kimi_k3", ALWAYS_OPENS_THOUGHT, KIMI_HEAD, None,
                    "moonshotai/Kimi-K3", tails=("<|open|>think<|sep|>", "<|open|>think<|sep|>")),
        # kimi_k2: <|tool_calls_section_begin|> blocks of `functions.NAME:N` JSON calls;
        # K2 Thinking writes its own <think> thought, the Instruct checkpoints none
        checkpoints("kimi-k2-instruct", "kimi_k2", NO_THOUGHT, KIMI_K2_HEAD, None,
                    "moonshotai/Kimi-K2-Instruct", "moonshotai/Kimi-K2-Instruct-0905"),
        checkpoints("kimi-k2-thinking", "kimi_k2", MODEL_WRITES_THOUGHT, KIMI_K2_HEAD, None,
                    "moonshotai/Kimi-K2-Thinking"),
        # Kimi K2.5: K2's markup; the prompt opens the thought unless the request's thinking or
        # enable_thinking is false (vLLM's kimi_k2 parser, whose tests run on K2.5's tokenizer, starts
        # inside the thought then; a <think> the model writes again is dropped either way)
        checkpoints("kimi-k2.5", "kimi_k2", OPENS_THOUGHT, KIMI_K2_HEAD, None,
                    "moonshotai/Kimi-K2.5", tails=("<think>", ""), switch=(("thinking", "enable_thinking"), True)),
        # kimi_vl: Kimi-VL's Thinking checkpoints write a ◁think▷ thought, the Instruct one none
        checkpoints("kimi-vl-a3b-thinking", "kimi_vl", MODEL_WRITES_THOUGHT, KIMI_K2_HEAD, None,
                    "moonshotai/Kimi-VL-A3B-Thinking", "moonshotai/Kimi-VL-A3B-Thinking-2506", tails=("", "")),
        checkpoints("kimi-vl-a3b-instruct", "kimi_vl", NO_THOUGHT, KIMI_K2_HEAD, None,
                    "moonshotai/Kimi-VL-A3B-Instruct"),
    ),
    bench={
        # Kimi K3: XTML regions from the <|open|> <|close|> <|sep|> tokens; the
        # prompt always ends in the think channel, whatever enable_thinking says
        # (the outputs with enable_thinking=false open with <|close|>think<|sep|>).
        # SGLang: kimi_k3/kimi_k3 (architecture rule; chat_encoding_spec kimi_k3
        # has no output adapter, so the detectors parse). KimiK3Detector's
        # reasoning_default is "thinking" (the `thinking` key, never set here), so
        # the server forces reasoning on for every case. vLLM: kimi_k3/kimi_k3
        # (KimiK3Parser over the legacy K3 parsers; it reads `thinking`, else
        # `enable_thinking`, and turns the think channel off when false).
        "kimi-k3": {
            "thinking_default": True,
            "markers": ["<|open|>", "<|close|>", "<|sep|>"],
            "sglang": {"tool": "kimi_k3", "reasoning": "kimi_k3", "force": True},
            "vllm": {"tool": "kimi_k3", "reasoning": "kimi_k3",
                     "tail_on": '<|open|>message role="assistant"<|sep|><|open|>think<|sep|>'},
        },
    },
)
