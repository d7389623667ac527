"""gpt-oss (`gpt_oss`, the harmony format; vLLM's and SGLang's `openai`/`gpt-oss`):
several messages in one output, each a header and `<|message|>` then its text, joined by
`<|start|>assistant`. The `analysis` channel is the thought, `final` the answer, `commentary`
with no recipient a preamble (content); `commentary to=functions.NAME <|constrain|>json` a call
whose arguments are the message's JSON object, ended by `<|call|>`. The call's head is the rest
of its header (`functions.NAME <|constrain|>json`): the name is its first word without the
`functions.` prefix, the rest the start's source. A recipient written before the channel
(` to=functions.NAME<|channel|>commentary json<|message|>`) is read the same way. The model at
times writes a call on the analysis channel (`<|channel|>analysis to=functions.NAME …`, or the
recipient before `<|channel|>analysis`): it is the call as on the commentary channel, as vLLM's
openai parser reads it (a recovery: the renderer writes calls on commentary). Messages end
with `<|end|>`, `<|call|>` or `<|return|>`; text between messages is no message's (Malformed).
Its markers are no control tokens (Format.control_tokens): harmony's renderer writes a marker's
text inside a message as ordinary tokens, so a `<|call|>` no row reads is the message's text. The
headers are also read as a detokenizer writes them when it spaces special tokens, `<|channel|>
analysis <|message|>`, `<|start|> assistant` (a recovery: shapes.spaced_special_tokens).
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import MODEL_WRITES_THOUGHT, Family, Row, checkpoints
from symphony.formats.shapes import spaced_special_tokens
from symphony.syntax import CallObject

MESSAGE = "<|message|>"

GPT_OSS = (
    Format("gpt_oss")
    .terminal("analysis_open", "<|channel|>analysis" + MESSAGE)
    .terminal("final_open", "<|channel|>final" + MESSAGE)
    .terminal("preamble_open", "<|channel|>commentary" + MESSAGE)
    .terminal("call_open", "<|channel|>commentary to=")
    .terminal("analysis_call_open", "<|channel|>analysis to=")
    .terminal("recipient_open", " to=")
    .terminal("end", "<|end|>")
    .terminal("call", "<|call|>")
    .terminal("return", "<|return|>")
    .terminal("start", "<|start|>assistant")
    .state("between", Emits.WRAPPER)
    .state("reasoning", Emits.REASONING)
    .state("content", Emits.CONTENT)
    .state("call", Emits.ARGUMENTS)
    .transition("between", "analysis_open", "reasoning")
    .transition("between", "final_open", "content")
    .transition("between", "preamble_open", "content")
    .transition("between", "call_open", "call")
    .transition("between", "recipient_open", "call")
    .recovers("between", "analysis_call_open", "call")
    .transition("between", "start", "between")
    .transition("reasoning", "end", "between")
    .transition("reasoning", "return", "between")
    .transition("content", "end", "between")
    .transition("content", "return", "between")
    .transition("call", "call", "between")
    .transition("call", "end", "between")
    .calls(CallSyntax.json(CallObject.ARGUMENTS, head=MESSAGE, name_prefix="functions.", name_word=True))
    .opens_turn("<|start|>assistant")
)
# the headers as a detokenizer writes them when it spaces special tokens (`<|channel|> analysis
# <|message|>`, `<|start|> assistant`, `<|channel|> commentary to=`), as SGLang's gpt-oss reads the
# channels (shapes.spaced_special_tokens); the rest of a call's header is its head, whose name is
# its first word, spaced or not
GPT_OSS = spaced_special_tokens(GPT_OSS, ("<|channel|>", "<|message|>", "<|start|>"), (
    "analysis_open", "final_open", "preamble_open", "call_open", "analysis_call_open", "start"))

TABLES = {"gpt_oss": GPT_OSS}
ALIASES = {"gpt-oss": "gpt_oss", "harmony": "gpt_oss"}


FAMILY = Family(
    tables=TABLES,
    aliases=ALIASES,
    rows=(
        Row(("gpt_oss",),
            "harmony messages joined by `<|start|>assistant`: `analysis` the thought, `final` (and a `commentary` "
            "preamble) the content, `commentary to=functions.NAME <|constrain|>json<|message|>{..}<|call|>` a call "
            "(the recipient also before the channel, as harmony renders it: ` to=functions.NAME<|channel|>commentary "
            "…`)",
            "gpt-oss-20b, gpt-oss-120b"),
    ),
    vllm={
        "openai": "gpt_oss",  # the harmony parser vLLM serves gpt-oss with
    },
    sglang={
        "gpt-oss": "gpt_oss",
    },
    checkpoints=(
        # gpt_oss: harmony messages; the prompt ends `<|start|>assistant` and the model writes its own
        # analysis channel
        checkpoints("gpt-oss-20b", "gpt_oss", MODEL_WRITES_THOUGHT, "<|start|>assistant", None,
                    "openai/gpt-oss-20b", "openai/gpt-oss-120b", tails=("", "")),
    ),
)
