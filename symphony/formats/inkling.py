"""Inkling (`inkling`): an output is messages, each opened by a region marker and
closed by `<|end_message|>`; `<|message_model|>` starts the next. `<|content_text|>` holds
content, `<|content_thinking|>` the thought; a message that starts with neither is a call,
`NAME<|content_invoke_tool_json|>` and a compact `{"name", "args"}` object. A message of the
raw-text tool invocation kind, `NAME<|content_invoke_tool_text|>text`, is no call: its text is
content (a recovery: the template writes none). The generation prompt ends where a message
starts, so the table starts in the call state: a region marker ends it without a call. Text
between messages is Malformed. Every marker is a control token, as is the rest of Inkling's
control alphabet: stray outside a call, it is dropped.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import NO_THOUGHT, Family, Replay, Row, checkpoints
from symphony.syntax import CallObject

INVOKE_JSON = "<|content_invoke_tool_json|>"
INVOKE_TEXT = "<|content_invoke_tool_text|>"
CONTROL_ALPHABET = (INVOKE_JSON, "<|content_invoke_tool|>", "<|endoftext|>",
                    "<|message_user|>", "<|message_system|>", "<|message_tool|>", "<|content_image|>",
                    "<|content_model_end_sampling|>", "<|content_audio_input|>", "<|content_tool_error|>",
                    "<|content_xml|>", "<|audio_end|>", "<|model_trigger_generation|>")

INKLING = (
    Format("inkling")
    .terminal("text_open", "<|content_text|>")
    .terminal("thinking_open", "<|content_thinking|>")
    .terminal("message_close", "<|end_message|>")
    .terminal("message_open", "<|message_model|>")
    .state("message", Emits.ARGUMENTS)
    .state("between", Emits.WRAPPER)
    .state("content", Emits.CONTENT)
    .state("reasoning", Emits.REASONING)
    .transition("message", "text_open", "content")
    .transition("message", "thinking_open", "reasoning")
    .transition("message", "message_close", "between")
    .transition("message", "message_open", "message")
    .transition("content", "message_close", "between")
    .transition("reasoning", "message_close", "between")
    .transition("between", "message_open", "message")
    .calls(CallSyntax.json(CallObject.CALL_OR_ARGS, head=INVOKE_JSON))
)
# a message of the raw-text tool invocation kind (`NAME<|content_invoke_tool_text|>text`): no call
# (it names no JSON arguments), its text the content, as vLLM's inkling and SGLang's inkling
# serving parser show it; a header before its marker is one that opened no call, as before
# `<|content_text|>` (a recovery: the template writes no such message)
INKLING = (INKLING.terminal("invoke_text_open", INVOKE_TEXT)
           .recovers("message", "invoke_text_open", "content")
           .control_tokens("text_open", "thinking_open", "message_close", "message_open", "invoke_text_open"))
# the rest of Inkling's control alphabet (SGLang's inkling_tokenizer): special tokens a reply may
# carry stray (a user turn's markers, audio and image frames), which no row reads
for _k, _text in enumerate(CONTROL_ALPHABET):
    INKLING = INKLING.control_token(f"control_{_k}", _text)

TABLES = {"inkling": INKLING}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("inkling",),
            "messages of `<|content_text|>`/`<|content_thinking|>` regions; `NAME<|content_invoke_tool_json|>{\"name\", "
            "\"args\"}`",
            "Inkling"),
    ),
    vllm={
        "inkling": "inkling",
    },
    sglang={
        "inkling": "inkling",
    },
    checkpoints=(
        # inkling: messages of regions, calls as `NAME<|content_invoke_tool_json|>{json}`;
        # the model opens its own thinking region
        checkpoints("inkling", "inkling", NO_THOUGHT, "", None,
                    "thinkingmachines/Inkling"),
    ),
    replay=Replay(
        rewritten_arguments={"inkling": "compact, keys sorted"},
    ),
    bench={
        # Inkling: message regions; the prompt ends where a message starts.
        "inkling": {
            "thinking_default": True,
            "markers": ["<|content_text|>", "<|content_thinking|>", "<|end_message|>", "<|message_model|>",
                        INVOKE_JSON],
            "sglang": {"tool": "inkling", "reasoning": "inkling", "force": False},
            "vllm": {"tool": "inkling", "reasoning": "inkling", "tail_on": "<|message_model|>"},
        },
    },
)
