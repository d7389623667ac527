"""vLLM's own reasoning-parser unit-test cases, run as extra tests (what real checkpoints
write, as the incumbents' tests record it). The cases are data in
`tests/data/vllm_reasoning_cases.jsonl`, read out of vLLM 0.33.0's `tests/reasoning/` (Apache-2.0;
each case's `id` and `notes` name its test): a model output, the reasoning and content vLLM's
parser must split it into, and the request's `chat_template_kwargs` where the test sets them.

Each case is parsed with the table and the generation prompt of the checkpoint its reasoning
parser serves (`symphony.for_model`, with the case's kwargs: most of these parsers assume the
prompt opened the thought, as those checkpoints' templates do), whole, with its literal chunks and
at every chunking: every replay conserves the output's bytes, is well formed and gives the whole
parse's message. The message's reasoning and content are compared with the case's, whitespace-
trimmed, None == "" and "ANY" not asserted. vLLM's reasoning parser hands the text after the
thought to its tool parser whole, calls and all: where the expected content holds a marker that
leads into the table's calls, the comparison is with what the table reads of that content (its
content and calls).

vLLM's expectations are another project's, not the contract: a case where SPEC decides otherwise
is listed with its cause and reason, and the message symphony gives for it is pinned, in
`tests/data/peer_listed_vllm_reasoning.jsonl` (a listed case that starts agreeing fails: take it
off the list). `python3 -m pytest -rA tests/test_peer_reasoning.py -k agreement_table` prints the
agreement per table, per test and per case.
"""
import os

import pytest

import symphony
from symphony.adapt import chat
from symphony.formats import table as format_table
from symphony.models import thought_markers
from recorded.peer_cases import load_jsonl
from tests import peer
from tests.common import chunkings

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
CASES_FILE = os.path.join(DATA, "vllm_reasoning_cases.jsonl")
LISTED_FILES = {"vLLM": os.path.join(DATA, "peer_listed_vllm_reasoning.jsonl")}

# --- the checkpoint each of vLLM's reasoning parsers stands for ------------------------------
# The case's own `model` where the registry has it; otherwise (or where the test's model is a
# stand-in tokenizer) the checkpoint below, with its reason.
CHECKPOINTS = {
    # vLLM's qwen3 parser starts inside the thought (its test models include Qwen3.5 and
    # Qwen3-4B-Thinking-2507, whose prompts open it); Qwen3-0.6B, the test's first, writes its own
    "qwen3": "Qwen/Qwen3.5-397B-A17B",
    "granite": "ibm-granite/granite-3.2-8b-instruct",        # the test's tokenizer is facebook/opt-125m
    # Granite 4.2 (vLLM's granite_thinking_parser docstring: Nemotron V3's format) is not in the
    # registry; Nemotron-3 Nano writes the same
    "granite_thinking_parser": "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
    "nemotron_v3": "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
    "kimi_k3": "moonshotai/Kimi-K3",
    "minimax_m3": "MiniMaxAI/MiniMax-M3",
    "k2_horizon": "IFM/K2-Horizon-36B",
}
# tests that give the parser another checkpoint's template than their model's (by test function)
TEST_CHECKPOINTS = {
    # GLM-5.3's template, which opens the thought whatever the kwargs say, on GLM-4.7's tokenizer
    "test_glm53_template_forces_reasoning": "zai-org/GLM-5.3-Flash",
    "test_glm53_template_forces_reasoning_streaming": "zai-org/GLM-5.3-Flash",
}
# kwargs the parser's test implies beyond the case's own (vLLM's granite parser reads Granite
# 3.2's thinking phrases, which the checkpoint writes when asked to think)
DEFAULT_KWARGS = {"granite": {"thinking": True}}
# parsers whose server shows the thought as the content where the content is blank, when the request
# sets `force_nonempty_content` or turns thinking off (vLLM's rule: chat.message's option of that name)
FORCES_NONEMPTY_CONTENT = {"nemotron_v3", "granite_thinking_parser"}
# parsers that show the thought the prompt opened in the content, its opener prepended
# (chat.message's `thought_in_content`)
THOUGHT_IN_CONTENT = {"minimax_m2_append_think"}
# parsers whose cases are not run, and why
NOT_RUN = {
    "base_thinking": "the test's own parser with made-up markers (<test:think>), no checkpoint's format",
}


ALL_CASES = load_jsonl(CASES_FILE)
CASES = RUN_CASES = [c for c in ALL_CASES if c["parser"] not in NOT_RUN]


def engine_of(case):
    return "vLLM"


def template_kwargs(case):
    """The chat template kwargs the case's request sets, over those its parser's test implies."""
    return dict(DEFAULT_KWARGS.get(case["parser"], {}), **(case.get("request") or {}).get("chat_template_kwargs", {}))


def checkpoint(case):
    """The registry's entry the case is parsed with: (table, generation prompt)."""
    kwargs = template_kwargs(case)
    function = case["id"].split("::")[-1].split("[")[0]
    model = TEST_CHECKPOINTS.get(function) or CHECKPOINTS.get(case["parser"], case.get("model"))
    model = symphony.for_model(model, chat_template_kwargs=kwargs)
    return model.format, model.prompt_tail


def problems_of(case, said):
    """Where `said` (a summary of the case's parse) differs from its expectation: [] when it agrees."""
    return peer.judge(case, said, view=peer.tool_view(checkpoint(case)[0]))


def forces_nonempty_content(case):
    """Whether the case's server shows the thought as its content where the content is blank."""
    kwargs = template_kwargs(case)
    return case["parser"] in FORCES_NONEMPTY_CONTENT and (kwargs.get("force_nonempty_content") is True
                                                          or kwargs.get("enable_thinking") is False)


def thought_in_content(case):
    """The opener of the thought the case's parser shows in the content, or None."""
    return thought_markers(format_table(checkpoint(case)[0]))[0] if case["parser"] in THOUGHT_IN_CONTENT else None


def message_of(case):
    """How the case's server makes the message of its events."""
    forced, opener = forces_nonempty_content(case), thought_in_content(case)
    return lambda events: chat.message(events, force_nonempty_content=forced, thought_in_content=opener)


def parse(case):
    table, prompt = checkpoint(case)
    whole = message_of(case)(symphony.parse(table, case["output"], prompt=prompt))
    return whole, peer.summary(whole)


def _id(case):
    return case["id"][len("vllm:"):]


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_case(case):
    table, prompt = checkpoint(case)
    whole, said = parse(case)
    peer.check_verdict(case, problems_of(case, said), said, LISTED, "vLLM")
    peer.check_replays(case, lambda: symphony.parser(table), whole,
                       peer.own_chunks(case) + chunkings(case["output"]), prompt=prompt, message=message_of(case))


def test_the_lists_name_cases_that_exist():
    assert set(LISTED) <= {c["id"] for c in CASES}
    assert set(CHECKPOINTS) | set(NOT_RUN) <= {c["parser"] for c in ALL_CASES}


def agreement_table():
    table = peer.agreement_table(CASES, lambda case: problems_of(case, parse(case)[1]), LISTED,
                                 lambda case: checkpoint(case)[0], "vLLM table (reasoning parser)")
    return "\n".join([table] + [f"not run: {parser} ({n} cases): {NOT_RUN[parser]}" for parser, n in
                                sorted((p, sum(c["parser"] == p for c in ALL_CASES)) for p in NOT_RUN)])


def test_agreement_table():
    """Prints the agreement per table, per test and per case (shown with `pytest -rA`)."""
    table = agreement_table()
    print("\n" + table)
    assert "UNLISTED" not in table


# --- listed differences ----------------------------------------------------------------------
# A listed case's cause, and the reason it gives for reading the case otherwise.
CAUSES = (
    "closer-outside-thought",    # with no thought open, a thought's closer is content
    "presentation",              # the incumbent moves text between reasoning and content by a rule of its own
    "thinking-switch",           # the template's thinking switch as the registry records it
)
LISTED = peer.load_listed(LISTED_FILES["vLLM"], CAUSES)
