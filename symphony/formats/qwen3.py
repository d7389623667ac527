"""Qwen3 and kin (SPEC §3 `qwen3`): `<think>` thoughts and `<tool_call>` call blocks, with JSON
call objects (`qwen3`: Qwen3, Qwen3-2507, Qwen3-VL, K-EXAONE) or `<function=…>` tags
(`qwen3_tagged`: Qwen 3.5+, Qwen3-Coder, Nanbeige, Nemotron-3, values on their own line; `mimo`: MiMo,
the same tags with values written directly between them, Placement.DIRECT; `step3p5`: Step-3.5/3.7,
the same tags and also the ones it writes broken, CallSyntax.tagged(broken_tags=True)).

`<tool_call>` inside a thought the model did not close ends the thought and opens the call
(shapes.call_ends_thought: a recovery beyond SPEC §3, as vLLM's and SGLang's qwen3 reasoning
parsers read it; a bare `<function=` there stays the thought's text, as both read it);
`</think>` with no thought open, one token of every checkpoint's tokenizer, is dropped (a control
token, as the incumbents' reasoning parsers drop it); a `<think>` written inside the thought is
dropped (shapes). A fenced `<tool_call>` block in content is read as a call (policy, SPEC §10). `qwen3_tagged`,
`mimo` and `step3p5` also read a call written without its block (Qwen3-Coder, Step-3.5: shapes.bare_calls)
and several calls in one block (shapes.functions_in_block).
"""
from symphony.format import CallSyntax
from symphony.formats.family import (ALWAYS_OPENS_THOUGHT, ASSISTANT_TAG, CHATML, FENCE_PROBE, MODEL_WRITES_THOUGHT,
                                     NO_THOUGHT, OPENS_THOUGHT, REASONING_PROBE, Family, Replay, Row, checkpoints)
from symphony.formats.shapes import bare_calls, call_ends_thought, functions_in_block, thought_and_calls
from symphony.syntax import Placement, Spelling

THINK = ("<think>", "</think>")
TOOL_CALL = ("<tool_call>", "</tool_call>")
OPENER = "<|im_start|>assistant"


def tagged(name, syntax):
    """A table of `<function=…>` calls in `<tool_call>` blocks, or without them, after a thought."""
    return bare_calls(functions_in_block(call_ends_thought(
        thought_and_calls(name, THINK, TOOL_CALL, syntax, OPENER))))


QWEN3 = call_ends_thought(thought_and_calls("qwen3", THINK, TOOL_CALL, CallSyntax.json(or_list=True), OPENER))
QWEN3_TAGGED = tagged("qwen3_tagged", CallSyntax.tagged(Spelling.JSON, Placement.OWN_LINE))
# MiMo's template writes a value right after its tag (`<parameter=k>VALUE</parameter>`): a newline
# at either end is the value's, as vLLM's and SGLang's mimo parsers read it
MIMO = tagged("mimo", CallSyntax.tagged(Spelling.JSON, Placement.DIRECT))
STEP3P5 = tagged("step3p5", CallSyntax.tagged(Spelling.JSON, Placement.OWN_LINE, broken_tags=True))

# `</think>` is one token of Qwen3's tokenizer (and Qwen3.5's, Step-3.5's): with no thought open it is
# dropped (a control token), as vLLM's and SGLang's reasoning parsers drop it
QWEN3 = QWEN3.control_tokens("think_close")
QWEN3_TAGGED = QWEN3_TAGGED.control_tokens("think_close")
MIMO = MIMO.control_tokens("think_close")
STEP3P5 = STEP3P5.control_tokens("think_close")

TABLES = {"qwen3": QWEN3, "qwen3_tagged": QWEN3_TAGGED, "mimo": MIMO, "step3p5": STEP3P5}


# the incumbents' view of Qwen's ChatML (bench/peers/harness.py): the markers their parsers look
# up as single tokens, and the thought a prompt with thinking off closes
QWEN_MARKERS = ["<|im_start|>", "<|im_end|>", "<think>", "</think>", "<tool_call>", "</tool_call>"]
THINK_OFF = "<think>\n\n</think>\n\n"

FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("qwen3",),
            "`<tool_call>` + a JSON object",
            "Qwen3, Qwen3-2507, Qwen3-Next, Qwen3-VL, Holo2, WebWorld, K-EXAONE"),
        Row(("qwen3_tagged",),
            "`<tool_call>` + `<function=NAME><parameter=KEY>`, values on their own line",
            "Qwen 3.5/3.6/3.8, Qwen3-Coder, Nanbeige, Nemotron-3 Nano (and Omni Reasoning)"),
        Row(("mimo",),
            "the same, values placed directly (a newline at either end is the value's)",
            "MiMo"),
        Row(("step3p5",),
            "the same, and the tags it writes broken: `<function NAME>`, a name ended by a newline",
            "Step-3.5/3.7"),
    ),
    vllm={
        # `<tool_call>` + `<function=…><parameter=…>`; IquestCoderToolParser subclasses qwen3_coder
        "qwen3_coder": "qwen3_tagged",
        "qwen3_xml": "qwen3_tagged",
        "mimo": "mimo",
        "step3p5": "step3p5",
        "iquest_coder": "qwen3_tagged",
        # vLLM's other names for a family above: qwen3_json is hermes (Qwen3 writes its <think>: the
        # qwen3 table), llama4_json the llama3_json parser, step5 (Step-5's) the qwen3_coder parser
        # keeping content whitespace (with R1's <think>; none of Step-3.5's broken tags), ling3 the
        # GLM-4.7 parser, poolside_v1 Laguna's keyed calls
        "qwen3_json": "qwen3",
        "step5": "qwen3_tagged",
        # vLLM 0.34's parser for Granite 4.2 (ibm-granite/granite-4.2-8b), whose template writes
        # Qwen3-Coder's `<tool_call>` + `<function=…><parameter=…>` calls
        "granite_toolcall_parser": "qwen3_tagged",
    },
    sglang={
        "qwen3_coder": "qwen3_tagged",
        "step3p5": "step3p5",
        "nanbeige": "qwen3_tagged",
        "mimo": "mimo",
    },
    checkpoints=(
        # qwen3, JSON calls
        checkpoints("qwen3-8b", "qwen3", MODEL_WRITES_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-8B", "Qwen/Qwen3-0.6B", "Qwen/Qwen3-1.7B", "Qwen/Qwen3-4B",
                    "Qwen/Qwen3-14B", "Qwen/Qwen3-32B"),
        checkpoints("qwen3-30b-a3b", "qwen3", MODEL_WRITES_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-235B-A22B"),
        checkpoints("qwen3-4b-saferl", "qwen3", MODEL_WRITES_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-4B-SafeRL"),
        checkpoints("qwen3-4b-instruct-2507", "qwen3", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-4B-Instruct-2507"),
        checkpoints("qwen3-4b-thinking-2507", "qwen3", ALWAYS_OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-4B-Thinking-2507"),
        checkpoints("qwen3-30b-a3b-instruct-2507", "qwen3", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-30B-A3B-Instruct-2507", "Qwen/Qwen3-235B-A22B-Instruct-2507"),
        checkpoints("qwen3-30b-a3b-thinking-2507", "qwen3", ALWAYS_OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-30B-A3B-Thinking-2507", "Qwen/Qwen3-235B-A22B-Thinking-2507"),
        checkpoints("qwen3-next-80b-a3b-instruct", "qwen3", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-Next-80B-A3B-Instruct"),
        checkpoints("qwen3-next-80b-a3b-thinking", "qwen3", ALWAYS_OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-Next-80B-A3B-Thinking"),
        checkpoints("qwen3-vl-8b-instruct", "qwen3", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-VL-8B-Instruct", "Qwen/Qwen3-VL-2B-Instruct", "Qwen/Qwen3-VL-4B-Instruct",
                    "Qwen/Qwen3-VL-32B-Instruct"),
        checkpoints("qwen3-vl-8b-thinking", "qwen3", ALWAYS_OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-VL-8B-Thinking", "Qwen/Qwen3-VL-2B-Thinking", "Qwen/Qwen3-VL-4B-Thinking",
                    "Qwen/Qwen3-VL-32B-Thinking"),
        checkpoints("qwen3-vl-30b-a3b-instruct", "qwen3", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-VL-30B-A3B-Instruct", "Qwen/Qwen3-VL-235B-A22B-Instruct"),
        checkpoints("qwen3-vl-235b-a22b-thinking", "qwen3", ALWAYS_OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-VL-235B-A22B-Thinking", "Qwen/Qwen3-VL-30B-A3B-Thinking"),
        # Holo2 (H Company's Qwen3-VL agents): the prompt opens the thought unless the request's
        # `thinking` or `enable_thinking` is false (vLLM's holo2 reasoning parser: R1's, thinking on
        # unless turned off)
        checkpoints("holo2-8b", "qwen3", OPENS_THOUGHT, CHATML, None,
                    "HCompany/Holo2-8B", "HCompany/Holo2-4B", "HCompany/Holo2-30B-A3B",
                    switch=(("thinking", "enable_thinking"), True)),
        checkpoints("webworld-32b", "qwen3", MODEL_WRITES_THOUGHT, CHATML, None,
                    "Alibaba-NLP/WebWorld-32B", "Alibaba-NLP/WebWorld-8B", "Alibaba-NLP/WebWorld-14B"),
        checkpoints("k-exaone-236b-a23b", "qwen3", OPENS_THOUGHT, ASSISTANT_TAG, "<|assistant|>",
                    "LGAI-EXAONE/K-EXAONE-236B-A23B"),
        # qwen3_tagged (and step3p5): <function=NAME><parameter=KEY> calls
        # Qwen3.5-2B and 0.8B share one template, whose thinking switch is off unless the request's
        # `enable_thinking` is true: off, the prompt writes an empty thought (`<think>\n\n</think>\n\n`);
        # on, it opens one. The larger Qwen3.5 and the Qwen3.6 sizes think unless it is false.
        checkpoints("qwen3.5-2b", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3.5-2B", "Qwen/Qwen3.5-0.8B", switch=(("enable_thinking",), False)),
        checkpoints("qwen3.5-9b", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3.5-9B", "Qwen/Qwen3.5-4B"),
        checkpoints("qwen3.5-27b", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3.5-27B"),
        checkpoints("qwen3.5-35b-a3b", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3.5-35B-A3B", "Qwen/Qwen3.5-122B-A10B", "Qwen/Qwen3.5-397B-A17B"),
        checkpoints("qwen3.6-27b", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3.6-27B"),
        checkpoints("qwen3.6-35b-a3b", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3.6-35B-A3B"),
        checkpoints("qwen3.8-27b", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3.8-27B"),
        checkpoints("qwen3.8-2.4t-a95b", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3.8-2.4T-A95B"),
        checkpoints("qwen3.8-flash-next", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3.8-Flash-Next"),
        checkpoints("qwen-drive-1.0-4b", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen-Drive-1.0-4B"),
        checkpoints("qwen-agentworld-35b-a3b", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen-AgentWorld-35B-A3B"),
        checkpoints("qwen3-coder-30b-a3b-instruct", "qwen3_tagged", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-Coder-30B-A3B-Instruct", "Qwen/Qwen3-Coder-480B-A35B-Instruct"),
        checkpoints("qwen3-coder-next", "qwen3_tagged", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-Coder-Next"),
        checkpoints("nanbeige4.2-3b", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "Nanbeige/Nanbeige4.2-3B"),
        checkpoints("mimo-v2.5", "mimo", MODEL_WRITES_THOUGHT, CHATML, None,
                    "XiaomiMiMo/MiMo-V2.5"),
        checkpoints("step-3.5-flash", "step3p5", ALWAYS_OPENS_THOUGHT, CHATML, None,
                    "stepfun-ai/Step-3.5-Flash", "stepfun-ai/Step-3.7-Flash"),     # vLLM's step3p5 serves both
        checkpoints("nvidia-nemotron-3-nano-30b-a3b-bf16", "qwen3_tagged", OPENS_THOUGHT, CHATML, None,
                    "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "nvidia/Nemotron-3-Nano-Omni-30B-A3B-Reasoning-BF16"),
        # SPEC §3 pending checkpoints whose template is a known family's (no fixtures of their own):
        # QwQ-32B is Qwen2.5's ChatML with Hermes `<tool_call>` JSON and a prompt that always opens
        # `<think>\n`; Qwen3-Omni writes Qwen3's `<tool_call>` JSON, the Thinking checkpoint's prompt
        # opening the thought as Qwen3-2507 Thinking's does
        checkpoints("qwq-32b", "qwen3", ALWAYS_OPENS_THOUGHT, CHATML, None,
                    "Qwen/QwQ-32B"),
        checkpoints("qwen3-omni-30b-a3b-instruct", "qwen3", NO_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-Omni-30B-A3B-Instruct"),
        checkpoints("qwen3-omni-30b-a3b-thinking", "qwen3", ALWAYS_OPENS_THOUGHT, CHATML, None,
                    "Qwen/Qwen3-Omni-30B-A3B-Thinking"),
    ),
    replay=Replay(
        probes={"qwen3": {REASONING_PROBE: (0, "stop"), FENCE_PROBE: (1, "tool_calls")},
                "qwen3_tagged": {REASONING_PROBE: (0, "stop")}, "mimo": {REASONING_PROBE: (0, "stop")},
                "step3p5": {REASONING_PROBE: (0, "stop")}},
    ),
    bench={
        # Qwen3 hybrid: the model writes <think> itself; enable_thinking default true
        # (SGLang template rule enable_thinking_default_true -> force = thinking).
        "qwen3-8b": {
            "thinking_default": True,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "qwen25", "reasoning": "qwen3", "force": "thinking"},
            "vllm": {"tool": "hermes", "reasoning": "qwen3",
                     "tail_on": CHATML, "tail_off": CHATML + THINK_OFF},
        },
        # Thinking-2507: the template always opens <think> (SGLang rule
        # force_reasoning_pattern; the qwen3-thinking name forces it too).
        "qwen3-4b-thinking-2507": {
            "thinking_default": True,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "qwen25", "reasoning": "qwen3-thinking", "force": True},
            "vllm": {"tool": "hermes", "reasoning": "qwen3",
                     "tail_on": CHATML + "<think>\n"},
        },
        # Instruct-2507: no thought; served with a tool parser only.
        "qwen3-30b-a3b-instruct-2507": {
            "thinking_default": None,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "qwen25", "reasoning": None, "force": False},
            "vllm": {"tool": "hermes", "reasoning": None, "tail_on": CHATML},
        },
        # K-EXAONE: the generation prompt opens the thought (closed when
        # enable_thinking=false); <tool_call>{json}</tool_call> without newlines.
        "k-exaone-236b-a23b": {
            "thinking_default": True,
            "markers": QWEN_MARKERS + ["<|assistant|>"],
            # qwen25 wants "<tool_call>\n"; SGLang's hermes detector documents this
            # exact no-newline format.
            "sglang": {"tool": "hermes", "reasoning": "qwen3", "force": "thinking"},
            "vllm": {"tool": "hermes", "reasoning": "qwen3",
                     "tail_on": "<|assistant|><think>\n",
                     "tail_off": "<|assistant|>" + THINK_OFF},
        },

        # -- tagged family: Qwen3-Coder XML <tool_call><function=NAME><parameter=K>
        # Qwen3-Coder: no thought. SGLang's template rules pick qwen3_coder from
        # "<function=" + "<parameter="; nothing in the template enables reasoning,
        # and the Qwen3-Coder recipes serve it with a tool parser only (both peers).
        "qwen3-coder-30b-a3b-instruct": {
            "thinking_default": None,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "qwen3_coder", "reasoning": None, "force": False},
            "vllm": {"tool": "qwen3_coder", "reasoning": None, "tail_on": CHATML},
        },
        "qwen3-coder-next": {
            "thinking_default": None,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "qwen3_coder", "reasoning": None, "force": False},
            "vllm": {"tool": "qwen3_coder", "reasoning": None, "tail_on": CHATML},
        },
        # Qwen3.5 / Qwen3.8: the generation prompt opens "<think>\n" unless
        # enable_thinking is false ("<think>\n\n</think>\n\n"). SGLang: template rule
        # enable_thinking_default_true -> reasoning qwen3, force = thinking; tool
        # qwen3_coder. vLLM: qwen3_coder + qwen3 (one Qwen3 engine; it starts in
        # reasoning unless chat_template_kwargs.enable_thinking is false).
        "qwen3.5-27b": {
            "thinking_default": True,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "qwen3_coder", "reasoning": "qwen3", "force": "thinking"},
            "vllm": {"tool": "qwen3_coder", "reasoning": "qwen3",
                     "tail_on": CHATML + "<think>\n",
                     "tail_off": CHATML + THINK_OFF},
        },
        "qwen3.8-27b": {
            "thinking_default": True,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "qwen3_coder", "reasoning": "qwen3", "force": "thinking"},
            "vllm": {"tool": "qwen3_coder", "reasoning": "qwen3",
                     "tail_on": CHATML + "<think>\n",
                     "tail_off": CHATML + THINK_OFF},
        },
        # MiMo-V2.5: the model writes <think>…</think> itself (compact values, no
        # newlines around them). SGLang: mimo/mimo; its MiMo rule is the template
        # config explicit_enable_thinking_default_false and _MimoDetector's default
        # is explicit_enable_thinking, so force only when the request sets
        # enable_thinking true (never in the fixtures; <think> in the output opens
        # the thought anyway). vLLM: mimo/mimo (Qwen3 engine, verbatim values).
        "mimo-v2.5": {
            "thinking_default": True,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "mimo", "reasoning": "mimo", "force": "explicit"},
            "vllm": {"tool": "mimo", "reasoning": "mimo",
                     "tail_on": CHATML, "tail_off": CHATML + THINK_OFF},
        },
        # Step-3.5-Flash: the template always prefills "<think>\n" (no switch; the
        # outputs with enable_thinking=false start with "\n</think>\n"). SGLang:
        # step3p5 tool (= Qwen3CoderDetector) + step3p5 reasoning (= DeepSeek-R1
        # detector, always forced). vLLM: step3p5/step3p5 (ignores enable_thinking).
        "step-3.5-flash": {
            "thinking_default": True,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "step3p5", "reasoning": "step3p5", "force": True},
            "vllm": {"tool": "step3p5", "reasoning": "step3p5",
                     "tail_on": CHATML + "<think>\n"},
        },
        # Nanbeige4.2: opens the thought unless enable_thinking is false. SGLang
        # has its own names (nanbeige = Qwen3CoderDetector / Qwen3Detector); with
        # no template rule for it, force falls back to the detector default
        # enable_thinking (= thinking). vLLM has no nanbeige name: its format is
        # Qwen3-Coder XML + <think>, i.e. qwen3_coder + qwen3, the same pair the
        # SGLang names alias.
        "nanbeige4.2-3b": {
            "thinking_default": True,
            "markers": QWEN_MARKERS,
            "sglang": {"tool": "nanbeige", "reasoning": "nanbeige", "force": "thinking"},
            "vllm": {"tool": "qwen3_coder", "reasoning": "qwen3",
                     "tail_on": CHATML + "<think>\n",
                     "tail_off": CHATML + THINK_OFF},
        },
    },
)
