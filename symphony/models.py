"""The model registry (DESIGN §1, SPEC §3): a Hugging Face checkpoint id, or one of its siblings,
to the format table that parses its output and to how its chat template ends the generation
prompt (the turn opener, then whether the output starts inside a thought).
"""
import dataclasses
import difflib
import functools
import re
from collections import namedtuple

from symphony.formats import ALIASES as _TABLE_ALIASES
from symphony.formats import table as _format_table
from symphony.inputs import Prompt
from symphony.parser import parser as _parser

# How a checkpoint's generation prompt leaves the thought (fixtures README, "The prompt each
# case needs"). `off` below is `chat_template_kwargs["enable_thinking"] is False`.
OPENS_THOUGHT = "opens_thought"                 # off: O\n\nC\n\n ; else O\n
ALWAYS_OPENS_THOUGHT = "always_opens_thought"   # O\n, whatever the request says
MODEL_WRITES_THOUGHT = "model_writes_thought"   # off: O\n\nC\n\n ; else nothing
NO_THOUGHT = "no_thought"                       # nothing
BEHAVIOURS = (OPENS_THOUGHT, ALWAYS_OPENS_THOUGHT, MODEL_WRITES_THOUGHT, NO_THOUGHT)

# Generation-prompt heads: the assistant turn opener exactly as each template writes it.
CHATML = "<|im_start|>assistant\n"
COHERE = "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>"
DEEPSEEK = "<｜Assistant｜>"
EXAONE = "<|assistant|>"
GEMMA4 = "<|turn>model\n"
GLM = "<|assistant|>"
GRANITE = "<|start_of_role|>assistant<|end_of_role|>"
KIMI = "<|open|>message role=\"assistant\"<|sep|>"
KIMI_K2 = "<|im_assistant|>assistant<|im_middle|>"
LING = "<role>ASSISTANT</role>"
MINIMAX = "]~b]ai\n"
LLAMA3 = "<|start_header_id|>assistant<|end_header_id|>\n\n"
PHI = "<|assistant|>"
SEED = "<seed:bos>assistant\n"
ZEPHYR = "<|assistant|>"

_Group = namedtuple("_Group", "slug table behaviour head opener ids tails switch thinking_table")
ENABLE_THINKING = (("enable_thinking",), True)   # (the kwargs the template reads, its default)


class ByValue(namedtuple("ByValue", "kwarg tails otherwise")):
    """The thought part of a generation prompt chosen by the value of one of the template's
    kwargs (`tails`: value to tail; `otherwise` for any other value or none): MiniMax M3's
    `thinking_mode`, K2-Horizon's `reasoning_effort`."""

    def tail(self, chat_template_kwargs):
        value = chat_template_kwargs.get(self.kwarg) if chat_template_kwargs else None
        return self.tails.get(value, self.otherwise) if isinstance(value, str) else self.otherwise


def _group(slug, table, behaviour, head, opener, *ids, tails=None, switch=ENABLE_THINKING, thinking_table=None):
    """A checkpoint group; `tails` = (thinking, not thinking) spells the thought part of the
    generation prompt where the template writes it otherwise than `thought_tail` derives (or a
    `ByValue` where a kwarg's value picks it), and `switch` is (the kwargs its template turns
    thinking on or off by, their default): most read `enable_thinking`, on unless given False.
    `thinking_table` is the table of what the model writes when the switch is on, where that is
    markup the group's table does not read (Granite 3.2/3.3: the switch only adds a system prompt
    asking for a thought)."""
    return _Group(slug, table, behaviour, head, opener, ids, tails, switch, thinking_table)


_O, _A, _W, _N = OPENS_THOUGHT, ALWAYS_OPENS_THOUGHT, MODEL_WRITES_THOUGHT, NO_THOUGHT

# One row per checkpoint group of SPEC §3 whose table exists (and per pending checkpoint of issue
# 10 whose template is a known family's, each saying why): slug, table, behaviour,
# generation-prompt head, turn-opener override (None = the table's own), then the checkpoints
# (the group's own id first, then the siblings SPEC lists in parentheses).
GROUPS = (
    # qwen3, JSON calls
    _group("qwen3-8b", "qwen3", _W, CHATML, None,
           "Qwen/Qwen3-8B", "Qwen/Qwen3-0.6B", "Qwen/Qwen3-1.7B", "Qwen/Qwen3-4B",
           "Qwen/Qwen3-14B", "Qwen/Qwen3-32B"),
    _group("qwen3-30b-a3b", "qwen3", _W, CHATML, None,
           "Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-235B-A22B"),
    _group("qwen3-4b-saferl", "qwen3", _W, CHATML, None,
           "Qwen/Qwen3-4B-SafeRL"),
    _group("qwen3-4b-instruct-2507", "qwen3", _N, CHATML, None,
           "Qwen/Qwen3-4B-Instruct-2507"),
    _group("qwen3-4b-thinking-2507", "qwen3", _A, CHATML, None,
           "Qwen/Qwen3-4B-Thinking-2507"),
    _group("qwen3-30b-a3b-instruct-2507", "qwen3", _N, CHATML, None,
           "Qwen/Qwen3-30B-A3B-Instruct-2507", "Qwen/Qwen3-235B-A22B-Instruct-2507"),
    _group("qwen3-30b-a3b-thinking-2507", "qwen3", _A, CHATML, None,
           "Qwen/Qwen3-30B-A3B-Thinking-2507", "Qwen/Qwen3-235B-A22B-Thinking-2507"),
    _group("qwen3-next-80b-a3b-instruct", "qwen3", _N, CHATML, None,
           "Qwen/Qwen3-Next-80B-A3B-Instruct"),
    _group("qwen3-next-80b-a3b-thinking", "qwen3", _A, CHATML, None,
           "Qwen/Qwen3-Next-80B-A3B-Thinking"),
    _group("qwen3-vl-8b-instruct", "qwen3", _N, CHATML, None,
           "Qwen/Qwen3-VL-8B-Instruct", "Qwen/Qwen3-VL-2B-Instruct", "Qwen/Qwen3-VL-4B-Instruct",
           "Qwen/Qwen3-VL-32B-Instruct"),
    _group("qwen3-vl-8b-thinking", "qwen3", _A, CHATML, None,
           "Qwen/Qwen3-VL-8B-Thinking", "Qwen/Qwen3-VL-2B-Thinking", "Qwen/Qwen3-VL-4B-Thinking",
           "Qwen/Qwen3-VL-32B-Thinking"),
    _group("qwen3-vl-30b-a3b-instruct", "qwen3", _N, CHATML, None,
           "Qwen/Qwen3-VL-30B-A3B-Instruct", "Qwen/Qwen3-VL-235B-A22B-Instruct"),
    _group("qwen3-vl-235b-a22b-thinking", "qwen3", _A, CHATML, None,
           "Qwen/Qwen3-VL-235B-A22B-Thinking", "Qwen/Qwen3-VL-30B-A3B-Thinking"),
    # Holo2 (H Company's Qwen3-VL agents): the prompt opens the thought unless the request's
    # `thinking` or `enable_thinking` is false (vLLM's holo2 reasoning parser: R1's, thinking on
    # unless turned off)
    _group("holo2-8b", "qwen3", _O, CHATML, None,
           "HCompany/Holo2-8B", "HCompany/Holo2-4B", "HCompany/Holo2-30B-A3B",
           switch=(("thinking", "enable_thinking"), True)),
    _group("webworld-32b", "qwen3", _W, CHATML, None,
           "Alibaba-NLP/WebWorld-32B", "Alibaba-NLP/WebWorld-8B", "Alibaba-NLP/WebWorld-14B"),
    _group("k-exaone-236b-a23b", "qwen3", _O, EXAONE, "<|assistant|>",
           "LGAI-EXAONE/K-EXAONE-236B-A23B"),
    # qwen3_tagged: <function=NAME><parameter=KEY> calls
    _group("qwen3.5-2b", "qwen3_tagged", _O, CHATML, None,
           "Qwen/Qwen3.5-2B"),
    _group("qwen3.5-0.8b", "qwen3_tagged", _N, CHATML, None,     # its template has no thought
           "Qwen/Qwen3.5-0.8B"),
    _group("qwen3.5-9b", "qwen3_tagged", _O, CHATML, None,
           "Qwen/Qwen3.5-9B", "Qwen/Qwen3.5-4B"),
    _group("qwen3.5-27b", "qwen3_tagged", _O, CHATML, None,
           "Qwen/Qwen3.5-27B"),
    _group("qwen3.5-35b-a3b", "qwen3_tagged", _O, CHATML, None,
           "Qwen/Qwen3.5-35B-A3B", "Qwen/Qwen3.5-122B-A10B", "Qwen/Qwen3.5-397B-A17B"),
    _group("qwen3.6-27b", "qwen3_tagged", _O, CHATML, None,
           "Qwen/Qwen3.6-27B"),
    _group("qwen3.6-35b-a3b", "qwen3_tagged", _O, CHATML, None,
           "Qwen/Qwen3.6-35B-A3B"),
    _group("qwen3.8-27b", "qwen3_tagged", _O, CHATML, None,
           "Qwen/Qwen3.8-27B"),
    _group("qwen3.8-2.4t-a95b", "qwen3_tagged", _O, CHATML, None,
           "Qwen/Qwen3.8-2.4T-A95B"),
    _group("qwen3.8-flash-next", "qwen3_tagged", _O, CHATML, None,
           "Qwen/Qwen3.8-Flash-Next"),
    _group("qwen-drive-1.0-4b", "qwen3_tagged", _O, CHATML, None,
           "Qwen/Qwen-Drive-1.0-4B"),
    _group("qwen-agentworld-35b-a3b", "qwen3_tagged", _O, CHATML, None,
           "Qwen/Qwen-AgentWorld-35B-A3B"),
    _group("qwen3-coder-30b-a3b-instruct", "qwen3_tagged", _N, CHATML, None,
           "Qwen/Qwen3-Coder-30B-A3B-Instruct", "Qwen/Qwen3-Coder-480B-A35B-Instruct"),
    _group("qwen3-coder-next", "qwen3_tagged", _N, CHATML, None,
           "Qwen/Qwen3-Coder-Next"),
    _group("nanbeige4.2-3b", "qwen3_tagged", _O, CHATML, None,
           "Nanbeige/Nanbeige4.2-3B"),
    _group("mimo-v2.5", "qwen3_tagged", _W, CHATML, None,
           "XiaomiMiMo/MiMo-V2.5"),
    _group("step-3.5-flash", "qwen3_tagged", _A, CHATML, None,
           "stepfun-ai/Step-3.5-Flash", "stepfun-ai/Step-3.7-Flash"),     # vLLM's step3p5 serves both
    _group("nvidia-nemotron-3-nano-30b-a3b-bf16", "qwen3_tagged", _O, CHATML, None,
           "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "nvidia/Nemotron-3-Nano-Omni-30B-A3B-Reasoning-BF16"),
    # seed_oss: <seed:tool_call> blocks of tags, values placed directly
    _group("seed-oss-36b-instruct", "seed_oss", _W, SEED, None,
           "ByteDance-Seed/Seed-OSS-36B-Instruct"),
    # deepseek_v4_1: <｜DSML｜ calls> blocks of DSML invokes; the prompt opens the thought
    _group("deepseek-v4.1-flash", "deepseek_v4_1", _O, DEEPSEEK, None,
           "deepseek-ai/DeepSeek-V4.1-Flash", tails=("<think>", "</think>"),
           switch=(("thinking", "enable_thinking"), True)),
    # deepseek_v4: V4.1's invokes in a <｜DSML｜tool_calls> block; thinking on unless `thinking`
    # or `enable_thinking` is given false, as vLLM's parser serves it (issue 11)
    _group("deepseek-v4-flash", "deepseek_v4", _O, DEEPSEEK, None,
           "deepseek-ai/DeepSeek-V4-Flash", "deepseek-ai/DeepSeek-V4-Pro", tails=("<think>", "</think>"),
           switch=(("thinking", "enable_thinking"), True)),
    # kimi_k3: one message of regions; the prompt opens the message and its thought
    _group("kimi-k3", "kimi_k3", _A, KIMI, None,
           "moonshotai/Kimi-K3", tails=("<|open|>think<|sep|>", "<|open|>think<|sep|>")),
    # minimax_m3: XML invokes; the output itself starts with <mm:think> or </mm:think>, but for
    # `thinking_mode: "enabled"` the template writes the <mm:think> (vLLM's and SGLang's parsers
    # start inside the thought then)
    _group("minimax-m3", "minimax_m3", _W, MINIMAX, None,
           "MiniMaxAI/MiniMax-M3", tails=ByValue("thinking_mode", {"enabled": "<mm:think>"}, "")),
    # minimax_m2: <minimax:tool_call> blocks of invokes; the prompt opens the thought (issue 10)
    _group("minimax-m2", "minimax_m2", _A, MINIMAX, None,
           "MiniMaxAI/MiniMax-M2", tails=("<think>\n", "<think>\n")),
    _group("minimax-m2.7", "minimax_m2", _A, MINIMAX, None,
           "MiniMaxAI/MiniMax-M2.7", "MiniMaxAI/MiniMax-M2.5", "MiniMaxAI/MiniMax-M2.1",
           tails=("<think>\n", "<think>\n")),
    # dots3: <dots_function_call> blocks of invokes, values on their own line; the model writes
    # its own thought (issue 10)
    _group("dots3-note-prev", "dots3", _W, CHATML, None,
           "dots-studio/dots3-note-prev"),
    # k2_horizon: <ifm|tool_calls> blocks of keyed calls; the prompt opens the thought (no
    # thinking switch), by the marker of the request's reasoning_effort: high (the default)
    # <ifm|think>, medium <ifm|think_fast>, low <ifm|think_faster> (issue 10)
    _group("k2-horizon-36b", "k2_horizon", _A, "", None,
           "IFM/K2-Horizon-36B", tails=ByValue("reasoning_effort", {
               "high": "<ifm|think>", "medium": "<ifm|think_fast>", "low": "<ifm|think_faster>"}, "<ifm|think>")),
    # laguna: GLM's markers with Ling's spacing; its template writes no thought (issue 10)
    _group("laguna-xs.2", "laguna", _N, "", None,
           "poolside/Laguna-XS.2"),
    # deepseek_v3: <｜tool▁calls▁begin｜> blocks, `function<｜tool▁sep｜>NAME` and fenced JSON
    # arguments (issue 10). V3-0324 writes no thought; R1's template (revised) opens one.
    _group("deepseek-v3-0324", "deepseek_v3", _N, DEEPSEEK, None,
           "deepseek-ai/DeepSeek-V3-0324", "deepseek-ai/DeepSeek-V3"),
    _group("deepseek-r1", "deepseek_v3", _A, DEEPSEEK, None,
           "deepseek-ai/DeepSeek-R1", "deepseek-ai/DeepSeek-R1-0528",
           # the distilled checkpoints carry R1's chat template
           "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
           "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
           "deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "deepseek-ai/DeepSeek-R1-Distill-Llama-70B"),
    # deepseek_v3_1: `NAME<｜tool▁sep｜>{json}` calls; the template's `thinking` switch (not
    # enable_thinking) defaults to off, when the prompt ends `</think>`, and `thinking: True`
    # ends it `<think>` (issue 10)
    _group("deepseek-v3.1", "deepseek_v3_1", _N, DEEPSEEK, None,
           "deepseek-ai/DeepSeek-V3.1", "deepseek-ai/DeepSeek-V3.1-Terminus",
           "deepseek-ai/DeepSeek-V3.2-Exp",        # V3.1-Terminus's template (DSML came with V3.2)
           tails=("<think>", "</think>"), switch=(("thinking",), False)),
    # apertus: <|tools_prefix|>[{"NAME": {..}}]<|tools_suffix|>; no thought (issue 10)
    _group("apertus-8b-instruct-2509", "apertus", _N, "<|assistant_start|>", None,
           "swiss-ai/Apertus-8B-Instruct-2509", "swiss-ai/Apertus-70B-Instruct-2509"),
    # hunyuan_a13b: <tool_calls>[..]</tool_calls>, <answer> regions; the model writes its thought
    # (issue 10)
    _group("hunyuan-a13b-instruct", "hunyuan_a13b", _W, "<|extra_0|>", None,
           "tencent/Hunyuan-A13B-Instruct"),
    # inkling: messages of regions, calls as `NAME<|content_invoke_tool_json|>{json}` (issue 10);
    # the model opens its own thinking region
    _group("inkling", "inkling", _N, "", None,
           "thinkingmachines/Inkling"),
    # kimi_k2: <|tool_calls_section_begin|> blocks of `functions.NAME:N` JSON calls (issue 11);
    # K2 Thinking writes its own <think> thought, the Instruct checkpoints none
    _group("kimi-k2-instruct", "kimi_k2", _N, KIMI_K2, None,
           "moonshotai/Kimi-K2-Instruct", "moonshotai/Kimi-K2-Instruct-0905"),
    _group("kimi-k2-thinking", "kimi_k2", _W, KIMI_K2, None,
           "moonshotai/Kimi-K2-Thinking"),
    # Kimi K2.5: K2's markup; the prompt opens the thought unless the request's thinking or
    # enable_thinking is false (vLLM's kimi_k2 parser, whose tests run on K2.5's tokenizer, starts
    # inside the thought then; a <think> the model writes again is dropped either way)
    _group("kimi-k2.5", "kimi_k2", _O, KIMI_K2, None,
           "moonshotai/Kimi-K2.5", tails=("<think>", ""), switch=(("thinking", "enable_thinking"), True)),
    # kimi_vl: Kimi-VL's Thinking checkpoints write a ◁think▷ thought, the Instruct one none (issue 11)
    _group("kimi-vl-a3b-thinking", "kimi_vl", _W, KIMI_K2, None,
           "moonshotai/Kimi-VL-A3B-Thinking", "moonshotai/Kimi-VL-A3B-Thinking-2506", tails=("", "")),
    _group("kimi-vl-a3b-instruct", "kimi_vl", _N, KIMI_K2, None,
           "moonshotai/Kimi-VL-A3B-Instruct"),
    # deepseek_v3_2: V4.1's DSML invokes spelled without the space after `DSML｜`, in a
    # <｜DSML｜function_calls> block; its encoder ends the prompt `<think>` in thinking mode and
    # `</think>` in chat mode, which the engines serve unless `thinking` or `enable_thinking` is
    # true (issue 11). Speciale is served in thinking mode only.
    _group("deepseek-v3.2", "deepseek_v3_2", _N, DEEPSEEK, None,
           "deepseek-ai/DeepSeek-V3.2", tails=("<think>", "</think>"),
           switch=(("thinking", "enable_thinking"), False)),
    _group("deepseek-v3.2-speciale", "deepseek_v3_2", _A, DEEPSEEK, None,
           "deepseek-ai/DeepSeek-V3.2-Speciale", tails=("<think>", "<think>")),
    # pythonic: Llama 4 writes a leading Python call list, bare or in <|python_start|> (issue 11)
    _group("llama-4-scout-17b-16e-instruct", "pythonic", _N, "<|header_start|>assistant<|header_end|>\n\n", None,
           "meta-llama/Llama-4-Scout-17B-16E-Instruct", "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
           "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8"),
    # ernie45: Qwen3's <tool_call> JSON; the Thinking checkpoint's prompt opens the thought (issue 11)
    _group("ernie-4.5-21b-a3b-thinking", "ernie45", _A, CHATML, None,
           "baidu/ERNIE-4.5-21B-A3B-Thinking"),
    # longcat: <longcat_tool_call> JSON objects, no thought (issue 11)
    _group("longcat-flash-chat", "longcat", _N, "ASSISTANT:", None,
           "meituan-longcat/LongCat-Flash-Chat"),
    # step3: <｜tool_calls_begin｜> blocks of <steptml:invoke> invokes; the prompt opens the thought
    # (vLLM's step3 reasoning parser reads everything before </think> as the thought) (issue 11)
    _group("step3", "step3", _A, "<|BOT|>assistant\n", None,
           "stepfun-ai/step3"),
    # minimax_m1: <tool_calls> blocks of JSON call objects, one per line; the model writes its own
    # <think> thought (issue 11)
    _group("minimax-m1-80k", "minimax_m1", _W, MINIMAX, None,
           "MiniMaxAI/MiniMax-M1-80k", "MiniMaxAI/MiniMax-M1-40k"),
    # gpt_oss: harmony messages; the prompt ends `<|start|>assistant` and the model writes its own
    # analysis channel (issue 11)
    _group("gpt-oss-20b", "gpt_oss", _W, "<|start|>assistant", None,
           "openai/gpt-oss-20b", "openai/gpt-oss-120b", tails=("", "")),
    # qwen2_5_coder: Qwen2.5's JSON call objects, written in <tools> or <tool_call>; no thought
    # (issue 11)
    _group("qwen2.5-coder-7b-instruct", "qwen2_5_coder", _N, CHATML, None,
           "Qwen/Qwen2.5-Coder-7B-Instruct", "Qwen/Qwen2.5-Coder-0.5B-Instruct", "Qwen/Qwen2.5-Coder-1.5B-Instruct",
           "Qwen/Qwen2.5-Coder-3B-Instruct", "Qwen/Qwen2.5-Coder-14B-Instruct", "Qwen/Qwen2.5-Coder-32B-Instruct"),
    # nemotron_json: a JSON list of calls in <TOOLCALL>; the system prompt ("detailed thinking
    # on/off"), not the template's kwargs, decides whether the model writes its <think> thought
    # (issue 11)
    _group("llama-3.3-nemotron-super-49b-v1", "nemotron_json", _W, LLAMA3, None,
           "nvidia/Llama-3_3-Nemotron-Super-49B-v1", "nvidia/Llama-3_3-Nemotron-Super-49B-v1_5",
           "nvidia/Llama-3_1-Nemotron-Ultra-253B-v1", "nvidia/Llama-3.1-Nemotron-Nano-8B-v1",
           "nvidia/Llama-3.1-Nemotron-Nano-4B-v1.1", tails=("", "")),
    # SPEC §3 pending checkpoints whose template is a known family's (no fixtures of their own):
    # QwQ-32B is Qwen2.5's ChatML with Hermes `<tool_call>` JSON and a prompt that always opens
    # `<think>\n`; Qwen3-Omni writes Qwen3's `<tool_call>` JSON, the Thinking checkpoint's prompt
    # opening the thought as Qwen3-2507 Thinking's does
    _group("qwq-32b", "qwen3", _A, CHATML, None,
           "Qwen/QwQ-32B"),
    _group("qwen3-omni-30b-a3b-instruct", "qwen3", _N, CHATML, None,
           "Qwen/Qwen3-Omni-30B-A3B-Instruct"),
    _group("qwen3-omni-30b-a3b-thinking", "qwen3", _A, CHATML, None,
           "Qwen/Qwen3-Omni-30B-A3B-Thinking"),
    # Trinity Mini (SPEC §3 pending): ChatML, Hermes `<tool_call>` JSON calls, written inside the
    # thought too (the trinity table); its engines read it with a parser that starts inside the
    # thought (vLLM's deepseek_r1, SGLang's forced reasoning), so the prompt opens `<think>\n`
    _group("trinity-mini", "trinity", _A, CHATML, None,
           "arcee-ai/Trinity-Mini"),
    # gemma4: Gemma's object notation in <|tool_call> regions; the model writes its own
    # <|channel>thought (the generation prompt leaves none open, thinking on or off). The
    # siblings share the E4B checkpoint's chat template.
    _group("gemma-4-e4b-it", "gemma4", _W, GEMMA4, None,
           "google/gemma-4-E4B-it", "google/gemma-4-E2B-it", "google/gemma-4-26B-A4B-it",
           "google/gemma-4-31B-it", tails=("", "")),
    # functiongemma: Gemma's notation with `<escape>` quotes in <start_function_call> regions, no
    # thought (issue 11)
    _group("functiongemma-270m-it", "functiongemma", _N, "<start_of_turn>model\n", None,
           "google/functiongemma-270m-it"),
    # minicpm5: bare <function name="…"> calls of <param> values; the model writes its own <think>
    _group("minicpm5-2b", "minicpm5", _W, CHATML, None,
           "openbmb/MiniCPM5-2B"),
    # muse_glimmer: several messages, each ` to=RECIPIENT<|message|>`; the prompt ends
    # `<|start|>assistant` and the model writes its ` to=self` thought as a message of its own
    _group("muse-glimmer-30b", "muse_glimmer", _W, "<|start|>assistant", None,
           "meta-models/Muse-Glimmer-30B", tails=("", "")),
    # pythonic: Python calls with keyword arguments
    _group("olmo-3-7b-instruct", "olmo3", _N, CHATML, None,
           "allenai/Olmo-3-7B-Instruct", "allenai/Olmo-3.1-32B-Instruct"),
    # Olmo 3 Think: Olmo 3's calls, and a <think> thought its prompt opens (issue 11)
    _group("olmo-3-7b-think", "olmo3_think", _A, CHATML, None,
           "allenai/Olmo-3-7B-Think", "allenai/Olmo-3-32B-Think", "allenai/Olmo-3.1-32B-Think"),
    _group("lfm2.5-1.2b-instruct", "lfm2_5", _W, CHATML, None,
           "LiquidAI/LFM2.5-1.2B-Instruct"),
    # LFM2 (the first generation): the same `<|tool_call_start|>[f(a=1)]` calls, no thought
    _group("lfm2-1.2b", "lfm2_5", _N, CHATML, None,
           "LiquidAI/LFM2-1.2B", "LiquidAI/LFM2-350M", "LiquidAI/LFM2-700M", "LiquidAI/LFM2-2.6B",
           "LiquidAI/LFM2-8B-A1B"),
    # keyed: NAME<arg_key>K</arg_key><arg_value>V</arg_value>
    _group("glm-5.3-flash", "glm", _A, GLM, None,
           "zai-org/GLM-5.3-Flash", tails=("<think>", "<think>")),
    _group("glm-5", "glm", _O, GLM, None,
           "zai-org/GLM-5", tails=("<think>", "</think>")),
    _group("glm-4.7-flash", "glm", _O, GLM, None,           # writes no whitespace between tags
           "zai-org/GLM-4.7-Flash", "zai-org/GLM-4.7", tails=("<think>", "</think>")),
    _group("glm-4.6", "ling", _W, GLM, GLM,                  # a newline between tags: Ling's spacing
           "zai-org/GLM-4.6", "zai-org/GLM-4.5", "zai-org/GLM-4.5-Air", tails=("", "\n<think></think>")),
    _group("ling-3.0-flash", "ling", _O, LING, None,
           "inclusionAI/Ling-3.0-flash"),
    _group("iquest-q1", "iquest", _O, "", None,
           "IQuestLab/IQuest-Q1"),
    _group("hy4-preview", "hy4", _A, "", None,
           "tencent/Hy4-preview"),
    # hy_v3: Hy4's block with a tool_sep, bare markers in the preview's tokenizer; the request's
    # reasoning_effort (the template's `<｜reasoning_mode｜>reasoning_effort:…` line) opens the
    # thought, and `no_think` or none leaves it shut (vLLM's hy_v3 parser, and the prompts of its
    # test: `…<｜hy_Assistant｜>` then `<think>`)
    _group("hy3-preview", "hy_v3", _W, "<｜hy_Assistant｜>", None,
           "tencent/Hy3-preview", tails=ByValue("reasoning_effort", {
               "high": "<think>", "medium": "<think>", "low": "<think>"}, "")),
    # qwen2_5: JSON calls, no thought
    _group("qwen2.5-7b-instruct", "qwen2_5", _N, CHATML, None,
           "Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-0.5B-Instruct", "Qwen/Qwen2.5-1.5B-Instruct",
           "Qwen/Qwen2.5-3B-Instruct", "Qwen/Qwen2.5-14B-Instruct", "Qwen/Qwen2.5-32B-Instruct",
           "Qwen/Qwen2.5-72B-Instruct"),
    _group("qwen2.5-7b-instruct-1m", "qwen2_5", _N, CHATML, None,
           "Qwen/Qwen2.5-7B-Instruct-1M", "Qwen/Qwen2.5-14B-Instruct-1M"),
    _group("qwen2.5-omni-7b", "qwen2_5", _N, CHATML, None,
           "Qwen/Qwen2.5-Omni-7B", "Qwen/Qwen2.5-Omni-3B"),
    _group("qwen2.5-vl-7b-instruct", "qwen2_5", _N, CHATML, None,
           "Qwen/Qwen2.5-VL-7B-Instruct", "Qwen/Qwen2.5-VL-3B-Instruct",
           "Qwen/Qwen2.5-VL-72B-Instruct"),
    _group("qwen2.5-vl-32b-instruct", "qwen2_5", _N, CHATML, None,
           "Qwen/Qwen2.5-VL-32B-Instruct"),
    _group("granite-4.1-3b", "qwen2_5", _N, GRANITE, "<|start_of_role|>assistant<|end_of_role|>",
           "ibm-granite/granite-4.1-3b", "ibm-granite/granite-4.0-h-small", "ibm-granite/granite-4.0-h-tiny",
           "ibm-granite/granite-4.0-h-micro", "ibm-granite/granite-4.0-micro"),
    _group("ai21-jamba2-3b", "qwen2_5", _N, CHATML, None,
           "ai21labs/AI21-Jamba2-3B"),
    _group("hermes-4-14b", "qwen2_5", _N, CHATML, None,
           "NousResearch/Hermes-4-14B"),
    # Hermes 2 Pro and Hermes 3: ChatML, `<tool_call>` JSON calls, no thought
    _group("hermes-3-llama-3.1-8b", "qwen2_5", _N, CHATML, None,
           "NousResearch/Hermes-3-Llama-3.1-8B", "NousResearch/Hermes-3-Llama-3.1-70B",
           "NousResearch/Hermes-3-Llama-3.1-405B", "NousResearch/Hermes-2-Pro-Llama-3-8B",
           "NousResearch/Hermes-2-Pro-Mistral-7B"),
    # xlam: a bare JSON list of calls
    _group("llama-xlam-2-8b-fc-r", "xlam", _N, LLAMA3, None,
           "Salesforce/Llama-xLAM-2-8b-fc-r"),
    # issue 11: the incumbents' other JSON families (no fixtures; heads from their templates)
    _group("granite-3.1-8b-instruct", "granite", _N, GRANITE, None,
           "ibm-granite/granite-3.1-8b-instruct", "ibm-granite/granite-3.1-2b-instruct",
           "ibm-granite/granite-3.0-8b-instruct", "ibm-granite/granite-3.0-2b-instruct"),
    # Granite 3.2 and 3.3 think when the request's `thinking` is true: the model writes its
    # thought in the markup of the thinking table (the granite module)
    _group("granite-3.2-8b-instruct", "granite", _N, GRANITE, None,
           "ibm-granite/granite-3.2-8b-instruct", "ibm-granite/granite-3.2-2b-instruct",
           switch=(("thinking",), False), thinking_table="granite_thought_process"),
    _group("granite-3.3-8b-instruct", "granite", _N, GRANITE, None,
           "ibm-granite/granite-3.3-8b-instruct", "ibm-granite/granite-3.3-2b-instruct",
           switch=(("thinking",), False), thinking_table="granite_thinking"),
    _group("ai21-jamba-1.5-mini", "jamba", _N, "<|bom|><|assistant|>", None,
           "ai21labs/AI21-Jamba-1.5-Mini", "ai21labs/AI21-Jamba-1.5-Large", "ai21labs/AI21-Jamba-Mini-1.6",
           "ai21labs/AI21-Jamba-Large-1.6", "ai21labs/AI21-Jamba-Mini-1.7", "ai21labs/AI21-Jamba-Large-1.7"),
    _group("internlm2.5-7b-chat", "internlm2", _N, CHATML, None,
           "internlm/internlm2_5-7b-chat", "internlm/internlm2_5-20b-chat", "internlm/internlm2-chat-7b"),
    # Intern-S1: InternLM's calls after a <think> thought the model writes, which its template's
    # default thinking system prompt asks for (enable_thinking false drops that prompt)
    _group("intern-s1", "intern_s1", _W, CHATML, None,
           "internlm/Intern-S1", "internlm/Intern-S1-mini", tails=("", "")),
    _group("c4ai-command-r7b-12-2024", "cohere_command3", _N, COHERE, None,
           "CohereLabs/c4ai-command-r7b-12-2024", "CohereLabs/c4ai-command-a-03-2025"),
    _group("command-a-reasoning-08-2025", "cohere_command4", _N, COHERE, None,
           "CohereLabs/command-a-reasoning-08-2025"),
    _group("mistral-7b-instruct-v0.3", "mistral", _N, "[/INST]", None,
           "mistralai/Mistral-7B-Instruct-v0.3", "mistralai/Mistral-Nemo-Instruct-2407"),
    _group("mistral-small-3.2-24b-instruct-2506", "mistral", _N, "[/INST]", None,
           "mistralai/Mistral-Small-3.2-24B-Instruct-2506", "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
           "mistralai/Mistral-Small-24B-Instruct-2501", "mistralai/Devstral-Small-2505",
           "mistralai/Devstral-Small-2507", "mistralai/Ministral-8B-Instruct-2410",
           "mistralai/Mistral-Large-Instruct-2411", "mistralai/Mistral-Large-Instruct-2407",
           "mistralai/Ministral-3-3B-Instruct-2512", "mistralai/Ministral-3-8B-Instruct-2512",
           "mistralai/Ministral-3-14B-Instruct-2512"),
    # the reasoning checkpoints write their own thought after `[/INST]`, whatever the request says:
    # `[THINK]` tokens since tokenizer v13 (Mistral Small 4 when its reasoning_effort asks for
    # one), `<think>` text for Magistral Small 2506 (the mistral module)
    _group("magistral-small-2509", "mistral", _W, "[/INST]", None,
           "mistralai/Magistral-Small-2509", "mistralai/Magistral-Small-2507",
           "mistralai/Ministral-3-3B-Reasoning-2512", "mistralai/Ministral-3-8B-Reasoning-2512",
           "mistralai/Ministral-3-14B-Reasoning-2512", "mistralai/Mistral-Small-4-119B-2603", tails=("", "")),
    _group("magistral-small-2506", "magistral_think", _W, "[/INST]", None,
           "mistralai/Magistral-Small-2506", tails=("", "")),
    _group("llama-3.1-8b-instruct", "llama3_json", _N, LLAMA3, None,
           "meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-70B-Instruct",
           "meta-llama/Llama-3.2-3B-Instruct", "meta-llama/Llama-3.3-70B-Instruct",
           "meta-llama/Llama-3.2-1B-Instruct", "meta-llama/Llama-3.1-405B-Instruct",
           "meta-llama/Meta-Llama-3.1-8B-Instruct", "meta-llama/Meta-Llama-3.1-70B-Instruct"),
    _group("phi-4-mini-instruct", "phi4_mini", _N, PHI, None,
           "microsoft/Phi-4-mini-instruct"),
    # plain: every byte is content
    _group("tinyllama-1.1b-chat-v1.0", "plain", _N, ZEPHYR, None,
           "TinyLlama/TinyLlama-1.1B-Chat-v1.0"),
    # SPEC §3 pending, templates with no call or thought markup: Phi-4-multimodal has Phi-4-mini's
    # template; Qwen3Guard-Gen writes a verdict in ChatML with no tools and no thought; LLaVA-1.5
    # writes `USER: … ASSISTANT:` turns
    _group("phi-4-multimodal-instruct", "plain", _N, PHI, None,
           "microsoft/Phi-4-multimodal-instruct"),
    _group("qwen3guard-gen-0.6b", "plain", _N, CHATML, None,
           "Qwen/Qwen3Guard-Gen-0.6B", "Qwen/Qwen3Guard-Gen-4B", "Qwen/Qwen3Guard-Gen-8B"),
    _group("llava-1.5-7b-hf", "plain", _N, "ASSISTANT:", None,
           "llava-hf/llava-1.5-7b-hf"),
)


def _thinking_off(chat_template_kwargs, switch=ENABLE_THINKING):
    """Whether the request turns the template's thinking off, as the template reads `switch`
    (the kwargs it reads, and its default): one on by default is off only when a kwarg is given
    as False (`enable_thinking is false`); one off by default is on when one is given true (`if
    thinking`)."""
    kwargs, default = switch
    given = [chat_template_kwargs.get(k) for k in kwargs] if chat_template_kwargs else []
    return any(g is False for g in given) if default else not any(given)


def thought_tail(behaviour, chat_template_kwargs=None, open_marker="<think>",
                 close_marker="</think>", switch=ENABLE_THINKING):
    """The thought part of a generation prompt (the tail without the turn opener), per the
    fixtures README: what a parser must see to start where the model's output starts; `switch`
    is the template's thinking switch (`_group`)."""
    off = _thinking_off(chat_template_kwargs, switch)
    if behaviour == OPENS_THOUGHT:
        return f"{open_marker}\n\n{close_marker}\n\n" if off else f"{open_marker}\n"
    if behaviour == ALWAYS_OPENS_THOUGHT:
        return f"{open_marker}\n"
    if behaviour == MODEL_WRITES_THOUGHT:
        return f"{open_marker}\n\n{close_marker}\n\n" if off else ""
    if behaviour == NO_THOUGHT:
        return ""
    raise ValueError(f"behaviour: {behaviour!r} is not one of {', '.join(BEHAVIOURS)}")


@functools.lru_cache(maxsize=None)
def _table(name, opener):
    """The Format for a table name, with a checkpoint's own turn opener (cached: one compile)."""
    table = _format_table(name)
    return table if opener is None else table.with_opener(opener)


def thought_markers(table):
    """A table's thought markers (its terminals `think_open`/`think_close`), else `<think>` ones."""
    texts = dict(table.terminals)
    return texts.get("think_open", "<think>"), texts.get("think_close", "</think>")


@dataclasses.dataclass(frozen=True, slots=True)
class Model:
    """A checkpoint resolved: its table, its prompt behaviour and its generation-prompt tail."""

    model_id: str         # as given to for_model
    hf_id: str            # the registry's spelling of the checkpoint
    slug: str             # the checkpoint group
    format: str           # the table name
    behaviour: str        # one of BEHAVIOURS
    opener: str | None    # the turn opener override, None = the table's own
    prompt_tail: str      # the end of the generation prompt, turn opener included
    thought_tail: str     # the same without the turn opener

    def table(self):
        """The `symphony.format.Format` to parse this checkpoint's output with."""
        return _table(self.format, self.opener)

    def start(self, tools=None):
        """A new parser already fed `prompt_tail` as its Prompt, and the events that feed gave
        (a `ReasoningStart` when the generation prompt leaves the output inside a thought)."""
        parser = _parser(self.table(), tools)
        events = parser.feed(Prompt(self.prompt_tail))
        return parser, events

    def parser(self, tools=None):
        """A new parser already fed `prompt_tail`. The events of that Prompt feed are not
        returned: use `start()` where a leading `ReasoningStart` matters."""
        return self.start(tools)[0]


def _normalise(text):
    return text.strip().casefold()


def _name(hf_id):
    return hf_id.rsplit("/", 1)[-1]


def _index():
    """Lookup keys (case-folded) to (group, checkpoint id): full ids; names and slugs."""
    by_id, by_name = {}, {}

    def add(index, key, group, hf_id):
        known = index.setdefault(key, (group, hf_id))
        if known[0] is not group:
            raise ValueError(f"model key {key!r} is in groups {known[0].slug} and {group.slug}")

    for group in GROUPS:
        _format_table(group.table)              # every row names a table that exists
        if group.thinking_table is not None:
            _format_table(group.thinking_table)
        if group.behaviour not in BEHAVIOURS:
            raise ValueError(f"model group {group.slug}: unknown behaviour {group.behaviour!r}")
        for hf_id in group.ids:
            add(by_id, _normalise(hf_id), group, hf_id)
            add(by_name, _normalise(_name(hf_id)), group, hf_id)
        add(by_name, _normalise(group.slug), group, group.ids[0])
    return by_id, by_name


_BY_ID, _BY_NAME = _index()
_HF_CACHE_DIR = re.compile(r"^models--(.+?)--(.+)$")
# One trailing word of a re-published copy's name that says how its weights are stored, not what
# model they are: quantisation schemes and precisions, weight-file formats, and the publishers'
# tags for them (Qwen3-8B-FP8, Qwen3-32B-AWQ, Qwen3-8B-GPTQ-Int4, Qwen3-8B-MLX-4bit,
# Qwen3-8B-unsloth-bnb-4bit, Qwen3-8B-quantized.w4a16, GLM-4.6-FP8-dynamic). Such a copy has
# the original's chat template, so it writes what the original writes.
_WEIGHTS_SUFFIX = re.compile(
    r"[-_.](?:fp8|fp4|nvfp4|mxfp4|int2|int3|int4|int8|awq|gptq|gguf|mlx|bnb|exl2|exl3|hqq|"
    r"dynamic|static|block|quantized|quant|unsloth|w\d+a\d+|\d+bit|bf16|fp16|f16|fp32|"
    r"q\d(?:_k)?(?:_[sml])?|q\d_\d)$")
_MOST_WEIGHTS_WORDS = 6


def _lookup(model_id):
    key = _normalise(model_id)
    if key in _BY_ID:
        return _BY_ID[key]
    parts = [part for part in re.split(r"[\\/]+", key) if part]
    for part in reversed(parts):                 # a Hugging Face cache dir names org and model
        cached = _HF_CACHE_DIR.match(part)
        if cached:
            found = _BY_ID.get(f"{cached[1]}/{cached[2]}") or _by_name(cached[2])
            if found is not None:
                return found
    return _by_name(parts[-1]) if parts else None     # no org, or a local path ending in the name


def _by_name(name):
    """The entry of a checkpoint name, or of a quantised copy's: its weights' words dropped (at
    most a few: no copy's name has more, and a long run of them costs a pass each)."""
    for _ in range(_MOST_WEIGHTS_WORDS):
        if name in _BY_NAME:
            return _BY_NAME[name]
        shorter = _WEIGHTS_SUFFIX.sub("", name)
        if shorter == name:
            return None
        name = shorter
    return _BY_NAME.get(name)


def _closest(model_id, n=5):
    """Known ids near an unknown one: names it extends or that extend it (a quantised or
    renamed copy, a dropped suffix), then difflib's closest spellings."""
    key = _normalise(model_id).rstrip("/\\")
    name = re.split(r"[\\/]", key)[-1]
    spellings = {}
    for hf_id in known_models():
        spellings.setdefault(hf_id.casefold(), hf_id)
        spellings.setdefault(_name(hf_id).casefold(), hf_id)
    found = [hf_id for hf_id in known_models() if len(name) >= 4 and (
        name.startswith(_name(hf_id).casefold()) or _name(hf_id).casefold().startswith(name))]
    found.sort(key=lambda hf_id: abs(len(_name(hf_id)) - len(name)))
    for probe in (key, name):
        for match in difflib.get_close_matches(probe, list(spellings), n=n, cutoff=0.6):
            found.append(spellings[match])
    return list(dict.fromkeys(found))[:n]


def for_model(model_id, chat_template_kwargs=None):
    """The `Model` for a Hugging Face id (any case; the org may be left out; a local path ending
    in the model's name works too, and so does a quantised or re-packed copy whose name is the
    model's followed by words of how its weights are stored: `-FP8`, `-AWQ`, `-GPTQ-Int4`,
    `-MLX-4bit`, `-GGUF`...; its `hf_id` is then the original's). `chat_template_kwargs` are the
    request's (only the template's thinking switch matters: `enable_thinking`, or DeepSeek
    V3.1's and V3.2's `thinking`, MiniMax M3's `thinking_mode`, K2-Horizon's `reasoning_effort`;
    Granite 3.2/3.3's `thinking` picks the table too). Unknown ids raise KeyError naming the
    closest known ids."""
    if not isinstance(model_id, str):
        raise TypeError(f"model_id: expected str, got {type(model_id).__name__}")
    if chat_template_kwargs is not None and not hasattr(chat_template_kwargs, "get"):
        raise TypeError("chat_template_kwargs: expected a mapping or None, "
                        f"got {type(chat_template_kwargs).__name__}")
    found = _lookup(model_id)
    if found is None:
        close = _closest(model_id)
        hint = (f"closest known: {', '.join(close)}" if close
                else "see symphony.models.known_models()")
        raise KeyError(f"no model {model_id!r} in the registry; {hint}")
    group, hf_id = found
    name = group.table
    if group.thinking_table is not None and not _thinking_off(chat_template_kwargs, group.switch):
        name = group.thinking_table
    table = _table(name, group.opener)
    if group.tails is None:
        tail = thought_tail(group.behaviour, chat_template_kwargs, *thought_markers(table),
                            switch=group.switch)
    elif isinstance(group.tails, ByValue):
        tail = group.tails.tail(chat_template_kwargs)
    else:
        tail = group.tails[_thinking_off(chat_template_kwargs, group.switch)]
    return Model(model_id=model_id, hf_id=hf_id, slug=group.slug, format=name,
                 behaviour=group.behaviour, opener=group.opener, prompt_tail=group.head + tail,
                 thought_tail=tail)


def known_models():
    """Every checkpoint id in the registry, sorted."""
    return sorted(hf_id for group in GROUPS for hf_id in group.ids)


def models_for_format(name):
    """The checkpoint ids parsed with the table `name` (or one of its aliases), sorted."""
    _format_table(name)                          # KeyError naming the known tables
    name = _TABLE_ALIASES.get(name, name)
    return sorted(hf_id for group in GROUPS if name in (group.table, group.thinking_table) for hf_id in group.ids)
