"""The keyed families under `<tool_call>`-shaped markers (SPEC §3 `glm`, `ling`, `iquest`): a
call is its name, then `<arg_key>K</arg_key><arg_value>V</arg_value>` pairs, and the block's
close marker is the call's end. GLM-5, GLM-5.3 and GLM-4.7 write no whitespace between the tags
(`glm`); Ling, and GLM-4.5/4.6, write a newline after the name and after each pair (`ling`: the
same parse, the spacing matters only to the grammar; GLM-4.5's newlines written escaped, `\\n`
as two characters, are read as newlines between the tags, as SGLang's glm45 reads them); IQuest
has markers of its own and no turn opener (`iquest`); IQuest-Coder-V2 (`iquest_coder_v2`) writes the same calls in
`<iquestcoder_tool_call>` markers. Laguna (`laguna`) writes Ling's spacing under GLM's
markers; its template writes no thought, but the model family's reasoning parser reads `<think>`
thoughts.

A key is read less the whitespace around it (`<arg_key> query </arg_key>` is `query`, the
spaces in the pair's source), as vLLM's and SGLang's glm45/glm47/ling3/iquest_q1 parsers read it.

In `glm` and `ling` a `<tool_call>` inside a thought the model did not close ends the thought and
opens the call (shapes.call_ends_thought, a recovery beyond SPEC §3), as vLLM's glm45/glm47/ling3
and SGLang's glm45/ling3 reasoning parsers read it. IQuest's and Laguna's stay the thought's text:
SGLang's iquest_q1 reasoning parser and vLLM's poolside_v1 keep them there (vLLM has no IQuest
reasoning parser; SGLang's poolside_v1 ends the thought).
"""
from symphony.format import CallSyntax
from symphony.formats.family import (ALWAYS_OPENS_THOUGHT, ASSISTANT_TAG, MODEL_WRITES_THOUGHT, NO_THOUGHT,
                                     OPENS_THOUGHT, REASONING_PROBE, Family, Replay, Row, checkpoints)
from symphony.formats.qwen3 import THINK, THINK_OFF, TOOL_CALL
from symphony.formats.shapes import call_ends_thought, thought_and_calls
from symphony.syntax import Tags

LING_HEAD = "<role>ASSISTANT</role>"      # the generation prompt's head

GLM = call_ends_thought(thought_and_calls("glm", THINK, TOOL_CALL, CallSyntax.keyed(Tags.PLAIN), "<|assistant|>"))
# GLM-4.5 (`ling`'s spacing) at times writes its newlines escaped, `\n` as two characters
LING = call_ends_thought(thought_and_calls("ling", THINK, TOOL_CALL, CallSyntax.keyed(Tags.LING, escaped_newlines=True),
                                           LING_HEAD))
IQUEST = thought_and_calls("iquest", THINK, ("<iquest_tool_call>", "</iquest_tool_call>"),
                           CallSyntax.keyed(Tags.PLAIN))
IQUEST_CODER_V2 = thought_and_calls("iquest_coder_v2", THINK, ("<iquestcoder_tool_call>", "</iquestcoder_tool_call>"),
                                    CallSyntax.keyed(Tags.PLAIN))

LAGUNA = thought_and_calls("laguna", THINK, TOOL_CALL, CallSyntax.keyed(Tags.LING))

# `</think>` is one token of GLM's and Ling's tokenizers: with no thought open it is dropped (a control
# token), as vLLM's and SGLang's reasoning parsers drop it
GLM = GLM.control_tokens("think_close")
LING = LING.control_tokens("think_close")

TABLES = {"glm": GLM, "ling": LING, "iquest": IQUEST, "iquest_coder_v2": IQUEST_CODER_V2, "laguna": LAGUNA}


# the incumbents' view (bench/peers/harness.py): the markers their parsers look up as single
# tokens; what vLLM's glm47_moe._glm53_always_thinks (and SGLang's _is_glm53) look for in a
# GLM-5.3 template: [gMASK]<sop>, "Reasoning Effort:", the keyed tool markers, and no
# enable_thinking
GLM_MARKERS = ["<|system|>", "<|user|>", "<|assistant|>", "<|observation|>", "<think>", "</think>", "<tool_call>",
               "</tool_call>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>"]
GLM53_TEMPLATE_STUB = ("{# symphony bench stub of the GLM-5.3 template #}[gMASK]<sop>"
                       "Reasoning Effort: <tool_call><arg_key><arg_value>")

FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("glm",),
            "`<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>`",
            "GLM-5, GLM-5.3, GLM-4.7"),
        Row(("ling",),
            "the same, a newline between tags",
            "Ling 3, GLM-4.5/4.6"),
        Row(("iquest",),
            "`<iquest_tool_call>` keyed",
            "IQuest"),
        Row(("laguna",),
            "`<tool_call>` keyed, a newline between tags",
            "Laguna"),
        Row(("iquest_coder_v2",),
            "`<iquestcoder_tool_call>` keyed",
            "IQuest-Coder-V2 (no checkpoint id in the registry)"),
    ),
    vllm={
        "glm45": "ling",  # GLM-4.5/4.6 write a newline between tags (both tables read either spacing)
        "glm47": "glm",
        "iquest_coder_v2": "iquest_coder_v2",
        "ling3": "ling",
        "poolside_v1": "laguna",
    },
    sglang={
        "glm": "glm",
        "glm45": "ling",
        "glm47": "glm",
        "iquest_q1": "iquest",
        "ling3": "ling",
        "poolside_v1": "laguna",
        "spark25": "glm",  # Spark 2.5 writes GLM's keyed <tool_call>NAME<arg_key>…</tool_call>
    },
    checkpoints=(
        # laguna: GLM's markers with Ling's spacing; its template writes no thought
        checkpoints("laguna-xs.2", "laguna", NO_THOUGHT, "", None,
                    "poolside/Laguna-XS.2"),
        # keyed: NAME<arg_key>K</arg_key><arg_value>V</arg_value>
        checkpoints("glm-5.3-flash", "glm", ALWAYS_OPENS_THOUGHT, ASSISTANT_TAG, None,
                    "zai-org/GLM-5.3-Flash", tails=("<think>", "<think>")),
        checkpoints("glm-5", "glm", OPENS_THOUGHT, ASSISTANT_TAG, None,
                    "zai-org/GLM-5", tails=("<think>", "</think>")),
        # writes no whitespace between tags
        checkpoints("glm-4.7-flash", "glm", OPENS_THOUGHT, ASSISTANT_TAG, None,
                    "zai-org/GLM-4.7-Flash", "zai-org/GLM-4.7", tails=("<think>", "</think>")),
        # a newline between tags: Ling's spacing
        checkpoints("glm-4.6", "ling", MODEL_WRITES_THOUGHT, ASSISTANT_TAG, ASSISTANT_TAG,
                    "zai-org/GLM-4.6", "zai-org/GLM-4.5", "zai-org/GLM-4.5-Air", tails=("", "\n<think></think>")),
        checkpoints("ling-3.0-flash", "ling", OPENS_THOUGHT, LING_HEAD, None,
                    "inclusionAI/Ling-3.0-flash"),
        checkpoints("iquest-q1", "iquest", OPENS_THOUGHT, "", None,
                    "IQuestLab/IQuest-Q1"),
    ),
    replay=Replay(
        probes={"ling": {REASONING_PROBE: (0, "stop")},
                "glm": {REASONING_PROBE: (0, "stop")},
                "iquest": {REASONING_PROBE: (0, "stop")},
                "laguna": {REASONING_PROBE: (0, "stop")}},
        unrecorded={"glm-5": {REASONING_PROBE}, "glm-4.7-flash": {REASONING_PROBE}, "glm-4.6": {REASONING_PROBE}},
    ),
    bench={
        # -- keyed family: <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>
        # GLM-5.3-Flash: SGLang replaces its Jinja template with the Python
        # glm-5.3-flash template (reasoning_config "always": force True; parsers
        # glm45 reasoning + glm47 tool). vLLM: glm47/glm45 (one GLM-4.7 engine);
        # the chat_template stub holds the markers of _glm53_always_thinks, so
        # vLLM ignores enable_thinking=false as its server would.
        "glm-5.3-flash": {
            "thinking_default": True,
            "markers": GLM_MARKERS,
            "sglang": {"tool": "glm47", "reasoning": "glm45", "force": True},
            "vllm": {"tool": "glm47", "reasoning": "glm45",
                     "tail_on": "<|assistant|><think>"},
            "chat_template": GLM53_TEMPLATE_STUB,
        },
        # GLM-5 / GLM-4.7-Flash: "<|assistant|><think>", or "<|assistant|></think>"
        # when enable_thinking is false. SGLang: template rule
        # enable_thinking_default_true (force = thinking); "'<tool_call>' + tc.name"
        # -> glm47; reasoning glm45. vLLM: glm47/glm45.
        "glm-5": {
            "thinking_default": True,
            "markers": GLM_MARKERS,
            "sglang": {"tool": "glm47", "reasoning": "glm45", "force": "thinking"},
            "vllm": {"tool": "glm47", "reasoning": "glm45",
                     "tail_on": "<|assistant|><think>", "tail_off": "<|assistant|></think>"},
        },
        "glm-4.7-flash": {
            "thinking_default": True,
            "markers": GLM_MARKERS,
            "sglang": {"tool": "glm47", "reasoning": "glm45", "force": "thinking"},
            "vllm": {"tool": "glm47", "reasoning": "glm45",
                     "tail_on": "<|assistant|><think>", "tail_off": "<|assistant|></think>"},
        },
        # GLM-4.6: the model writes "\n<think>…</think>" itself; with
        # enable_thinking=false the prompt ends "<|assistant|>\n<think></think>".
        # Newlines between the keyed tags ("'\n<tool_call>' + tc.name" does not
        # match SGLang's glm47 rule) -> glm45 tool. SGLang's template rule is still
        # enable_thinking_default_true, so the server forces reasoning on = thinking
        # (harmless: the output opens <think> right away). vLLM: glm45/glm45.
        "glm-4.6": {
            "thinking_default": True,
            "markers": GLM_MARKERS,
            "sglang": {"tool": "glm45", "reasoning": "glm45", "force": "thinking"},
            "vllm": {"tool": "glm45", "reasoning": "glm45",
                     "tail_on": "<|assistant|>",
                     "tail_off": "<|assistant|>\n<think></think>"},
        },
        # Ling-3.0-flash: keyed with newlines, opens the thought unless
        # enable_thinking is false. SGLang: ling3/ling3 (architecture rule
        # BailingMoeV3 or the <role>ASSISTANT</role> template rule); the template
        # default (thinking_option 'on') is not detected, so force falls back to
        # Ling3Detector's default enable_thinking (= thinking). vLLM: ling3/ling3
        # (GLM-4.7 engine; thinking unless thinking/enable_thinking is false).
        "ling-3.0-flash": {
            "thinking_default": True,
            "markers": ["<role>", "</role>", "<|role_end|>", "<think>", "</think>",
                        "<tool_call>", "</tool_call>", "<arg_key>", "</arg_key>",
                        "<arg_value>", "</arg_value>"],
            "sglang": {"tool": "ling3", "reasoning": "ling3", "force": "thinking"},
            "vllm": {"tool": "ling3", "reasoning": "ling3",
                     "tail_on": "<role>ASSISTANT</role><think>\n",
                     "tail_off": "<role>ASSISTANT</role>" + THINK_OFF},
        },
        # IQuest-Q1: <iquest_tool_call> keyed, opens the thought unless thinking is
        # off. SGLang: iquest_q1/iquest_q1 (its ReasoningParser derives force from
        # thinking/enable_thinking itself, default on). vLLM 0.33 registers no
        # parser for it (its only IQuest code is a model executor).
        "iquest-q1": {
            "thinking_default": True,
            "markers": ["<|iquest_assistant|>", "<think>", "</think>",
                        "<iquest_tool_call>", "</iquest_tool_call>",
                        "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>"],
            "sglang": {"tool": "iquest_q1", "reasoning": "iquest_q1", "force": "thinking"},
            "vllm": None,
        },
        # Laguna (poolside): GLM-like keyed calls, no thought in the template. The poolside parsers
        # refuse a tokenizer without the `<assistant>` token.
        "laguna-xs.2": {
            "thinking_default": None,
            "markers": ["<assistant>", "<think>", "</think>", "<tool_call>", "</tool_call>", "<arg_key>", "</arg_key>",
                        "<arg_value>", "</arg_value>"],
            "sglang": {"tool": "poolside_v1", "reasoning": "poolside_v1", "force": False},
            "vllm": {"tool": "poolside_v1", "reasoning": "poolside_v1", "tail_on": ""},
        },
    },
)
