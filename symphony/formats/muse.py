"""Muse (`muse_glimmer`, `muse_spark`): several messages in one output, each
` to=RECIPIENT<|message|>…`, joined by `<|eom|><|start|>assistant`. ` to=self` is the thought,
` to=user` the answer, and a tool's name opens a call message whose body is
`<atem:function_calls>` of `<atem:invoke name=…>` with `<atem:parameter name=…>` values
(param-XML, typed by the tools). A tool's recipient header is the template's: the region it
opens is closed by `<|message|>` before any call starts, and dropped. The template writes a bare
tool name's recipient `NAME.*`, and the model then names the invoke `NAME.NAME`: that call is the
tool NAME when the request declares NAME and not NAME.NAME (`ParamTags.MUSE.doubled_names`). The
generation prompt ends `<|start|>assistant`, so the output starts with a header. A message's header is read with or
without the space before `to=` (` to=self<|message|>`, `to=self<|message|>`); a header with no
recipient (a bare `<|message|>`) opens the answer. `<|eot|>` (the end of the turn) ends a message
as `<|eom|>` does, and so does the next message's `<|start|>assistant` or header (a message whose
end the model left out does not swallow the call message after it, as in vLLM's parsers): a
fixed recipient's header is a marker wherever it stands, and so is a tool's: in the thought or the
answer, ` to=` holds the name that follows (letters, digits, `_ . - *`), and `<|message|>` right
after it makes them the tool's header, dropped, which ends the message (a recovery,
`Format.holds_name`: vLLM's muse reads `Need the time. to=time.now<|message|>` so); any other byte
shows them as the message's text, where a `<|message|>` still lets a calls block open the message
after it (the text up to that block is still read as the message the header stood in). The calls
block's opener written again right after a call is the block's wrapping, the block going on
(shapes.opener_again_in_block).

Muse Spark (vLLM's `muse` and `musespark1x` parser) shares Glimmer's messages and
call markup and has more recipients: a bare `<|message|>` header is the thought,
` to=commentary` (updates between calls) is content, ` to=developer` is dropped.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import MODEL_WRITES_THOUGHT, Family, Row, checkpoints
from symphony.formats.shapes import opener_again_in_block
from symphony.syntax import ParamTags

MESSAGE = ParamTags.MUSE.header_end
START = "<|start|>assistant"
RECIPIENT = " to="
ENDS = ("<|eom|>", "<|eot|>")      # the end of a message; of the turn
# the characters of a tool's name in a recipient (`time.now`, the template's `NAME.*`)
NAME = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-*"


def _spellings(name, text):
    """A header's terminals (name, text): as the model writes it after `<|start|>assistant`
    (` to=…`, the space its own token), and without the space (`to=…`: how vLLM also reads a
    message's start, and how its tests write the first one)."""
    return ((name, text), (name + "_unspaced", text[1:]))


def _muse(name, reasoning=("self",), content=("user",), dropped=(), bare="content"):
    """`reasoning`, `content`, `dropped`: the recipients whose messages are the thought, the
    answer, and dropped; `bare`: the state a header with no recipient opens."""
    table = Format(name)
    states = [("reasoning", reasoning), ("content", content), ("hidden", dropped)]
    headers = [(terminal, text, state) for state, recipients in states for recipient in recipients
               for terminal, text in _spellings(recipient + "_open", RECIPIENT + recipient + MESSAGE)]
    recipient_opens = _spellings("recipient_open", RECIPIENT)
    for terminal, text, _ in headers:
        table = table.terminal(terminal, text)
    for terminal, text in recipient_opens:
        table = table.terminal(terminal, text)
    table = table.terminal("message", MESSAGE)
    for k, end in enumerate(ENDS):
        table = table.terminal("end_of_message" + (f"_{k + 1}" if k else ""), end)
    table = (table
             .terminal("start", START)
             .terminal("calls_open", "<atem:function_calls>")
             .terminal("calls_close", "</atem:function_calls>")
             .terminal("invoke_open", "<atem:invoke name=\"")
             .terminal("invoke_close", ParamTags.MUSE.call_close)
             .state("between", Emits.WRAPPER)
             .state("reasoning", Emits.REASONING)
             .state("content", Emits.CONTENT))
    if dropped:
        table = table.state("hidden", Emits.HIDDEN)
    table = (table
             .state("recipient", Emits.ARGUMENTS)
             .state("tool", Emits.WRAPPER)
             .state("calls", Emits.WRAPPER)
             .state("invoke", Emits.ARGUMENTS))
    # A `<|message|>` inside a body ends a header whose recipient (a tool's name: the fixed
    # recipients' headers are terminals) was read as the body's text, its message's end left out:
    # the next message is read as the body was, but a calls block may open it.
    bodies = [(state, emits) for state, emits in (("reasoning", Emits.REASONING), ("content", Emits.CONTENT),
                                                  ("hidden", Emits.HIDDEN)) if state != "hidden" or dropped]
    for state, emits in bodies:
        table = table.state(state + "_after_header", emits)
    for terminal, _, state in headers:
        table = table.transition("between", terminal, state)
    table = table.transition("between", "message", bare)
    for terminal, _ in recipient_opens:
        table = table.transition("between", terminal, "recipient")
    table = (table
             .transition("between", "start", "between")
             .transition("recipient", "message", "tool")
             .transition("tool", "calls_open", "calls")
             .transition("calls", "invoke_open", "invoke")
             .transition("invoke", "invoke_close", "calls")
             .transition("invoke", "invoke_open", "invoke")
             .transition("invoke", "calls_close", "tool")
             .transition("calls", "calls_close", "tool"))
    for terminal, _ in recipient_opens:
        table = table.transition("tool", terminal, "recipient")
    for state, _ in bodies:
        table = (table
                 .transition(state, "message", state + "_after_header")
                 .transition(state + "_after_header", "message", state + "_after_header")
                 .transition(state + "_after_header", "calls_open", "calls"))
    messages = ([state for state, _ in bodies] + ["recipient", "tool", "calls", "invoke"]
                + [state + "_after_header" for state, _ in bodies])
    ending = [t for t, _ in table.terminals if t.startswith("end_of_message")] + ["start"]
    for end in ending:
        for state in messages:
            table = table.transition(state, end, "between")
    # a fixed recipient's header inside a message begins the next message (its end left out)
    for terminal, _, target in headers:
        for state in messages:
            table = table.transition(state, terminal, target)
    # a tool's header written in a shown message (its `<|eom|>` left out): ` to=` and a name that
    # `<|message|>` follows at once are that header, dropped, and end the message (a recovery; any
    # other byte after the name shows them as the message's text)
    table = table.state("tool_header", Emits.DAMAGED_MARKER).holds_name("tool_header", NAME)
    for state, emits in bodies:
        if emits != Emits.HIDDEN:
            for body in (state, state + "_after_header"):
                table = table.recovers(body, "recipient_open", "tool_header")
    table = table.recovers("tool_header", "message", "tool")
    table = table.control_tokens("message", *ending[:-1])      # `<|message|>`, `<|eom|>`, `<|eot|>`
    return opener_again_in_block(table).calls(CallSyntax.param_xml(ParamTags.MUSE)).opens_turn(START)


MUSE_GLIMMER = _muse("muse_glimmer")
MUSE_SPARK = _muse("muse_spark", reasoning=("self",), content=("user", "commentary"), dropped=("developer",),
                   bare="reasoning")

TABLES = {"muse_glimmer": MUSE_GLIMMER, "muse_spark": MUSE_SPARK}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("muse_glimmer",),
            "messages ` to=RECIPIENT<|message|>…`, the space before `to=` optional (`self` the thought, `user` the "
            "answer, a tool's name a call of `<atem:invoke>`/`<atem:parameter>`, named `NAME.NAME` for a declared "
            "`NAME`, a bare `<|message|>` the answer), ended by `<|eom|>`, `<|eot|>`, the next `<|start|>assistant` or"
            " the next header (a tool's too, ` to=NAME<|message|>`, or its `<|message|>` and the calls block after it)",
            "Muse Glimmer"),
        Row(("muse_spark",),
            "Muse Glimmer's messages, and: `commentary` content, `developer` dropped, a bare `<|message|>` the thought",
            "Muse Spark (no checkpoint id in the registry)"),
    ),
    vllm={
        "muse_glimmer": "muse_glimmer",
        "musespark1x": "muse_spark",
        "muse": "muse_spark",         # (no alias: SGLang's `muse` is Glimmer)
    },
    # SGLang's `muse` detector reads Muse Glimmer (it also shows ` to=commentary` messages, which
    # vLLM's Glimmer parser and this table read as a tool's recipient)
    sglang={"muse": "muse_glimmer"},
    checkpoints=(
        # muse_glimmer: several messages, each ` to=RECIPIENT<|message|>`; the prompt ends
        # `<|start|>assistant` and the model writes its ` to=self` thought as a message of its own
        checkpoints("muse-glimmer-30b", "muse_glimmer", MODEL_WRITES_THOUGHT, "<|start|>assistant", None,
                    "meta-models/Muse-Glimmer-30B", tails=("", "")),
    ),
    bench={
        # Muse-Glimmer-30B: several ` to=RECIPIENT<|message|>` messages joined by
        # <|eom|><|start|>assistant. Neither peer has a parser for them.
        "muse-glimmer-30b": {
            "thinking_default": None,
            "markers": ["<|start|>", "<|message|>", "<|eom|>"],
            "sglang": None,
            "vllm": None,
            "unsupported_reason": {
                "sglang": "SGLang 0.5.23 has no parser for Muse Glimmer's ` to=RECIPIENT<|message|>` messages",
                "vllm": "vLLM 0.33.0 has no parser for Muse Glimmer's ` to=RECIPIENT<|message|>` messages"},
        },
    },
)
