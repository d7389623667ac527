"""dots (`dots3`): `<think>` thoughts the model writes itself, and each call in a
`<dots_function_call>` block of `<invoke name="…">` invokes whose `<parameter name="…">` values
sit on their own line (one newline after the opening tag and one before the close tag are the
template's), typed by the request's tools. The model also writes a call in the block as a JSON
call object, `{"name": …, "arguments": {…}}`, which vLLM's and SGLang's dots parsers read: the
table reads one where a call may begin in the block (shapes.objects_in_block); the grammar writes
invokes. A name's attribute written single-quoted, unquoted or spaced around its `=` is read as
vLLM's dots parser reads it (`name\\s*=\\s*[^>]+`, quotes off): CallSyntax.invoke(loose=True).
A run of whitespace between a tag's name and that attribute (`<invoke  name="…">`, a tab or a
newline there) is read too, as vLLM's and SGLang's dots parsers read it (`<invoke\\s+name`):
CallSyntax.invoke(spaced=True), shapes.spaced_invokes. The block's markers are one token each of
its tokenizer, so a stray one (no block open) is a control token, dropped.
"""
from symphony.format import CallSyntax
from symphony.formats.family import CHATML, MODEL_WRITES_THOUGHT, REASONING_PROBE, Family, Replay, Row, checkpoints
from symphony.formats.qwen3 import QWEN_MARKERS
from symphony.formats.shapes import loose_invokes, objects_in_block, spaced_invokes, thought_and_invokes
from symphony.syntax import XML_INVOKE_CLOSE, Placement

DOTS3 = thought_and_invokes("dots3", ("<dots_function_call>", "</dots_function_call>"),
                            ("<invoke name=\"", XML_INVOKE_CLOSE),
                            CallSyntax.invoke(Placement.OWN_LINE, loose=True, spaced=True))
# the block's markers are one token each of dots3's tokenizer (151724, 151725), dots' own: a stray
# one (a `</dots_function_call>` with no block open) is dropped, as vLLM's dots parser strips it
DOTS3 = objects_in_block(spaced_invokes(loose_invokes(DOTS3))).control_tokens("calls_open", "calls_close")

TABLES = {"dots3": DOTS3}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("dots3",),
            "`<dots_function_call>` block of the same invokes, values on their own line",
            "dots3"),
    ),
    vllm={
        "dots": "dots3",
    },
    sglang={
        "dots": "dots3",
    },
    checkpoints=(
        # dots3: <dots_function_call> blocks of invokes, values on their own line; the model writes
        # its own thought
        checkpoints("dots3-note-prev", "dots3", MODEL_WRITES_THOUGHT, CHATML, None,
                    "dots-studio/dots3-note-prev"),
    ),
    replay=Replay(
        probes={"dots3": {REASONING_PROBE: (0, "stop")}},
    ),
    bench={
        # dots3: the model writes <think> itself; <dots_function_call> invokes. vLLM names no dots
        # reasoning parser: qwen3's reads the same <think> the model writes.
        "dots3-note-prev": {
            "thinking_default": True,
            "markers": QWEN_MARKERS + ["<dots_function_call>", "</dots_function_call>"],
            "sglang": {"tool": "dots", "reasoning": "dots", "force": False},
            "vllm": {"tool": "dots", "reasoning": "qwen3", "tail_on": CHATML},
        },
    },
)
