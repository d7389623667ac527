"""MiniCPM5 (`minicpm5`): the model writes its own `<think>` and its calls bare in the content,
each `<function name="NAME"><param name="KEY">value</param>…</function>`; strings with special
characters in a CDATA section, other values as Python literals, typed by the request's tools.
`</function>` is the call's end. Its tags also come collapsed (`<functionname="…">`,
`<paramname="…">`) or with the byte-level tokenizer's `Ġ` for their space: the same tags
(syntax.collapsed_spellings). A name's attribute written single-quoted (`<function name='f'>`,
the opener's other spelling), or in a parameter tag also unquoted or spaced around its `=`
(`<param name='k'>`, `<param name = k>`), is read: vLLM's and SGLang's minicpm5 parsers read
`name=['"]…['"]` (CallSyntax.param_xml(loose=True)). The opener is not spelled shorter
(`<function name`), which would be a prefix of the grammar's trigger `<function name="`. The
parameters wrapped in an `<arguments>` element are read, the element's tags the call's markup, as
both incumbents read them (ParamTags.wrapper). A value outside a CDATA section is XML text: a
character reference (`&amp;`, `&#60;`) is its character, read before the value is typed, as both
incumbents read a well-formed block (ParamTags.references; the template itself writes such strings
in CDATA).
"""
from symphony.format import CallSyntax
from symphony.formats.family import CHATML, MODEL_WRITES_THOUGHT, REASONING_PROBE, Family, Replay, Row, checkpoints
from symphony.formats.qwen3 import QWEN_MARKERS, THINK
from symphony.formats.shapes import thought_and_calls
from symphony.syntax import ParamTags, collapsed_spellings

FUNCTION_OPEN = '<function name="'

MINICPM5 = thought_and_calls("minicpm5", THINK, (FUNCTION_OPEN, ParamTags.MINICPM.call_close),
                             CallSyntax.param_xml(ParamTags.MINICPM, loose=True), "<|im_start|>assistant")
for _k, _text in enumerate(collapsed_spellings(FUNCTION_OPEN), 2):
    MINICPM5 = MINICPM5.spelled_also("call_open", f"call_open_{_k}", _text)
MINICPM5 = MINICPM5.spelled_also("call_open", "call_open_single_quoted", FUNCTION_OPEN[:-1] + "'")

TABLES = {"minicpm5": MINICPM5}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("minicpm5",),
            "`<function name=\"…\"><param name=\"…\">v</param></function>` in the content, CDATA strings, Python literals",
            "MiniCPM5"),
    ),
    vllm={
        "minicpm5": "minicpm5",
    },
    sglang={
        "minicpm5": "minicpm5",
    },
    checkpoints=(
        # minicpm5: bare <function name="…"> calls of <param> values; the model writes its own <think>
        checkpoints("minicpm5-2b", "minicpm5", MODEL_WRITES_THOUGHT, CHATML, None,
                    "openbmb/MiniCPM5-2B"),
    ),
    replay=Replay(
        probes={"minicpm5": {REASONING_PROBE: (0, "stop")}},
    ),
    bench={
        # MiniCPM5-2B: bare <function name="…"><param name="…">v</param></function>
        # calls in the content; the model writes <think>…</think> itself. Both peers
        # have a minicpm5 tool parser; neither has a MiniCPM5 reasoning parser, so
        # the <think> one (qwen3) reads the thought.
        "minicpm5-2b": {
            "thinking_default": True,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "minicpm5", "reasoning": "qwen3", "force": False},
            "vllm": {"tool": "minicpm5", "reasoning": "qwen3", "tail_on": CHATML},
        },
    },
)
