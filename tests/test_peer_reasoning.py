"""vLLM's own reasoning-parser unit-test cases, run as extra tests (issue 11: what real checkpoints
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
is listed in DIFFERENCES with the reason, and PINNED holds what symphony gives for it (a listed
case that starts agreeing fails: take it off the list). `python3 -m pytest -rA
tests/test_peer_reasoning.py -k agreement_table` prints the per-parser agreement.
"""
import functools
import json
import os

import pytest

import symphony
from symphony.adapt import chat
from symphony.format import Emits
from symphony.formats import table as format_table
from tests import peer
from tests.peer import check_replays, check_verdict, summary

ANY = "ANY"
CASES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "vllm_reasoning_cases.jsonl")

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
# parsers whose cases are not run, and why
NOT_RUN = {
    "base_thinking": "the test's own parser with made-up markers (<test:think>), no checkpoint's format",
}


def _load():
    with open(CASES_FILE, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


ALL_CASES = _load()
CASES = [c for c in ALL_CASES if c["parser"] not in NOT_RUN]


def checkpoint(case):
    """The registry's entry the case is parsed with: (table, generation prompt)."""
    kwargs = dict(DEFAULT_KWARGS.get(case["parser"], {}), **(case.get("request") or {}).get("chat_template_kwargs", {}))
    function = case["id"].split("::")[-1].split("[")[0]
    model = TEST_CHECKPOINTS.get(function) or CHECKPOINTS.get(case["parser"], case.get("model"))
    model = symphony.for_model(model, chat_template_kwargs=kwargs)
    return model.format, model.prompt_tail


def _trimmed(text):
    return (text or "").strip()


def judge(case, said, table):
    """Where `said` (a summary of `table`'s parse) differs from the case's expectation: [] when it
    agrees."""
    want = case["expect"]
    problems = []
    if want.get("reasoning", ANY) != ANY and _trimmed(said["reasoning"]) != _trimmed(want["reasoning"]):
        problems.append(f"reasoning {said['reasoning']!r}, want {want['reasoning']!r}")
    content = want.get("content", ANY)
    if content != ANY:
        if any(marker in (content or "") for marker in call_markers(table)):
            view = summary(chat.message(symphony.parse(table, content)))
            if (_trimmed(said["content"]), said["calls"]) != (_trimmed(view["content"]), view["calls"]):
                problems.append(f"content {said['content']!r} and calls {said['calls']}, want {content!r}, "
                                f"which the table reads as {view['content']!r} and calls {view['calls']}")
        elif _trimmed(said["content"]) != _trimmed(content) or said["calls"]:
            problems.append(f"content {said['content']!r}" + (f" and calls {said['calls']}" if said["calls"] else "")
                            + f", want {content!r}")
    return problems


@functools.lru_cache(maxsize=None)
def call_markers(name):
    """The texts of a table's markers that lead into its calls (a state whose text is a call's, or
    the wrapper of a block of them)."""
    fmt = format_table(name)
    calls = {state for state, emits in fmt.states if emits in (Emits.ARGUMENTS, Emits.WRAPPER)}
    texts = dict(fmt.terminals)
    return tuple(sorted({texts[terminal] for _, terminal, to in fmt.transitions if to in calls}))


def _id(case):
    return case["id"][len("vllm:"):]


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_case(case):
    table, prompt = checkpoint(case)
    whole = chat.message(symphony.parse(table, case["output"], prompt=prompt))
    check_verdict(case, judge(case, summary(whole), table), summary(whole), DIFFERENCES, PINNED)
    check_replays(case, lambda: symphony.parser(table), whole, prompt=prompt)


def test_the_lists_name_cases_that_exist():
    ids = {c["id"] for c in CASES}
    assert set(DIFFERENCES) <= ids and set(PINNED) == set(DIFFERENCES)
    assert all(reason.split(":")[0] in CAUSES for reason in DIFFERENCES.values())
    assert set(CHECKPOINTS) | set(NOT_RUN) <= {c["parser"] for c in ALL_CASES}


def agreement_table():
    tables = {case["parser"]: checkpoint(case)[0] for case in CASES}

    def problems(case):
        table, prompt = checkpoint(case)
        return judge(case, summary(chat.message(symphony.parse(table, case["output"], prompt=prompt))), table)

    table = peer.agreement_table(CASES, problems, DIFFERENCES, tables.get, label="vLLM reasoning parser")
    return "\n".join([table] + [f"not run: {parser} ({n} cases): {NOT_RUN[parser]}" for parser, n in
                                sorted((p, sum(c["parser"] == p for c in ALL_CASES)) for p in NOT_RUN)])


def test_agreement_table():
    """Prints the per-parser agreement table (shown with `pytest -rA`)."""
    table = agreement_table()
    print("\n" + table)
    assert "UNLISTED" not in table


# --- listed differences ----------------------------------------------------------------------
# Each reason is "<cause>: <why symphony reads the case otherwise>".

CALL_IN_THOUGHT = "call-in-thought"
CLOSER_OUTSIDE = "closer-outside-thought"
PRESENTATION = "presentation"
THINKING_SWITCH = "thinking-switch"
CAUSES = (CALL_IN_THOUGHT, CLOSER_OUTSIDE, PRESENTATION, THINKING_SWITCH)

_CALL_IN_THOUGHT = (
    f"{CALL_IN_THOUGHT}: a call opener inside a thought the model did not close is reasoning text (SPEC §3 "
    "qwen3: no row from the thought on `<tool_call>`, as a thinking model may write the markup while it plans); "
    "vLLM's qwen3 parser ends the thought there")
_CLOSER_IN_CONTENT = (
    f"{CLOSER_OUTSIDE}: with no thought open, a thought's closer is content (SPEC §3 qwen3: `</think>` in content "
    "is content; Gemma 4's prompt opens no thought and `<channel|>` here follows none); vLLM's gemma4 parser "
    "reads the text before it as reasoning whole, and as content streamed")
_M3_START = (
    f"{CLOSER_OUTSIDE}: MiniMax M3's `</mm:think>` means something while the table is in its start state, which "
    "only a marker ends (SPEC §3 minimax_m3: start+think_close->content), so after 'XXX' it still closes the "
    "thought the prompt may have opened and is dropped; vLLM keeps a closer that does not lead the output")
_NONEMPTY = (
    f"{PRESENTATION}: vLLM's nemotron_v3 and granite_thinking parsers move (or, streamed, copy) the reasoning into "
    "the content when the content would be empty (`force_nonempty_content`, `enable_thinking=False`); symphony "
    "reports each byte where the model wrote it, and such a rule is the server's to apply on the message")
_APPEND_THINK = (
    f"{PRESENTATION}: vLLM's minimax_m2_append_think parser returns the thought inside the content, `<think>` "
    "prepended, by design; symphony reads MiniMax M2's thought as reasoning (vLLM's minimax_m2 parser, whose "
    "cases all agree)")
_KIMI_K3_OFF = (
    f"{THINKING_SWITCH}: Kimi K3's template as the registry records it (SPEC §3 kimi_k3) always opens the thought; "
    "vLLM's parser turns to pass-through on `thinking: false` (keeping the response region's markers as content)")

DIFFERENCES = {
    'vllm:test_gemma4_reasoning_parser.py::test_gemma4_reasoning[invalid_simple]':
        _CLOSER_IN_CONTENT,
    'vllm:test_gemma4_reasoning_parser.py::test_gemma4_reasoning[invalid_simple_streaming]':
        _CLOSER_IN_CONTENT,
    'vllm:test_gemma4_reasoning_parser.py::test_gemma4_reasoning[invalid_complete]':
        _CLOSER_IN_CONTENT,
    'vllm:test_gemma4_reasoning_parser.py::test_gemma4_reasoning[invalid_complete_streaming]':
        _CLOSER_IN_CONTENT,
    'vllm:test_granite_thinking_reasoning_parser.py::test_granite_thinking_force_nonempty_content_moves_into_content':
        _NONEMPTY,
    'vllm:test_granite_thinking_reasoning_parser.py::test_granite_thinking_force_nonempty_swaps_when_content_absent':
        _NONEMPTY,
    'vllm:test_granite_thinking_reasoning_parser.py::test_granite_thinking_streaming_enable_thinking_false':
        _NONEMPTY,
    'vllm:test_granite_thinking_reasoning_parser.py::test_granite_thinking_streaming_promotes_reasoning_to_content':
        _NONEMPTY,
    'vllm:test_kimi_k3_reasoning_parser.py::test_thinking_disabled_streams_content':
        _KIMI_K3_OFF,
    'vllm:test_kimi_k3_reasoning_parser.py::test_delegating_parser_thinking_false_streams_response_content':
        _KIMI_K3_OFF,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[simple_output]':
        _APPEND_THINK,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[simple_output_streaming]':
        _APPEND_THINK,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[no_end_token]':
        _APPEND_THINK,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[no_end_token_streaming]':
        _APPEND_THINK,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[only_end_token]':
        _APPEND_THINK,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[only_end_token_streaming]':
        _APPEND_THINK,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[multiple_lines]':
        _APPEND_THINK,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[multiple_lines_streaming]':
        _APPEND_THINK,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[empty]':
        _APPEND_THINK,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[special_chars]':
        _APPEND_THINK,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[special_chars_streaming]':
        _APPEND_THINK,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[code_output]':
        _APPEND_THINK,
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[code_output_streaming]':
        _APPEND_THINK,
    'vllm:test_minimax_m3_reasoning_parser.py::test_nonstreaming_non_leading_end_tag_is_content':
        _M3_START,
    'vllm:test_minimax_m3_reasoning_parser.py::test_streaming_non_leading_end_tag_is_content':
        _M3_START,
    'vllm:test_nemotron_v3_reasoning_parser.py::test_nemotron_v3_force_nonempty_content_moves_into_content':
        _NONEMPTY,
    'vllm:test_nemotron_v3_reasoning_parser.py::test_nemotron_v3_streaming_promotes_reasoning_to_content':
        _NONEMPTY,
    'vllm:test_qwen3_reasoning_parser.py::test_reasoning[tool_call_no_think_end]':
        _CALL_IN_THOUGHT,
    'vllm:test_qwen3_reasoning_parser.py::test_reasoning[tool_call_no_think_end_stream]':
        _CALL_IN_THOUGHT,
    'vllm:test_qwen3_reasoning_parser.py::test_reasoning[tool_call_with_think_no_end]':
        _CALL_IN_THOUGHT,
    'vllm:test_qwen3_reasoning_parser.py::test_reasoning[tool_call_with_think_no_end_stream]':
        _CALL_IN_THOUGHT,
    'vllm:test_qwen3_reasoning_parser.py::test_reasoning_streaming_multi_token_deltas[tool_call_implicit_reasoning_end]':
        _CALL_IN_THOUGHT,
}

# --- what symphony gives for each listed case -------------------------------------------------

PINNED = {
    'vllm:test_gemma4_reasoning_parser.py::test_gemma4_reasoning[invalid_simple]':
        {'reasoning': None, 'content': 'This is a reasoning section<channel|>This is the rest', 'calls': [], 'finish': 'stop'},
    'vllm:test_gemma4_reasoning_parser.py::test_gemma4_reasoning[invalid_simple_streaming]':
        {'reasoning': None, 'content': 'This is a reasoning section<channel|>This is the rest', 'calls': [], 'finish': 'stop'},
    'vllm:test_gemma4_reasoning_parser.py::test_gemma4_reasoning[invalid_complete]':
        {'reasoning': None, 'content': 'This is a reasoning section<channel|>', 'calls': [], 'finish': 'stop'},
    'vllm:test_gemma4_reasoning_parser.py::test_gemma4_reasoning[invalid_complete_streaming]':
        {'reasoning': None, 'content': 'This is a reasoning section<channel|>', 'calls': [], 'finish': 'stop'},
    'vllm:test_granite_thinking_reasoning_parser.py::test_granite_thinking_force_nonempty_content_moves_into_content':
        {'reasoning': 'This is plain content', 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_granite_thinking_reasoning_parser.py::test_granite_thinking_force_nonempty_swaps_when_content_absent':
        {'reasoning': 'reasoning', 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_granite_thinking_reasoning_parser.py::test_granite_thinking_streaming_enable_thinking_false':
        {'reasoning': None, 'content': 'This is plain content', 'calls': [], 'finish': 'stop'},
    'vllm:test_granite_thinking_reasoning_parser.py::test_granite_thinking_streaming_promotes_reasoning_to_content':
        {'reasoning': '4', 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_kimi_k3_reasoning_parser.py::test_thinking_disabled_streams_content':
        {'reasoning': None, 'content': 'answer', 'calls': [], 'finish': 'stop'},
    'vllm:test_kimi_k3_reasoning_parser.py::test_delegating_parser_thinking_false_streams_response_content':
        {'reasoning': 'OK<|close|>response<|sep|>', 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[simple_output]':
        {'reasoning': 'This is reasoning', 'content': 'This is response', 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[simple_output_streaming]':
        {'reasoning': 'This is reasoning', 'content': 'This is response', 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[no_end_token]':
        {'reasoning': 'This is reasoning in progress', 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[no_end_token_streaming]':
        {'reasoning': 'This is reasoning in progress', 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[only_end_token]':
        {'reasoning': None, 'content': 'This is response', 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[only_end_token_streaming]':
        {'reasoning': None, 'content': 'This is response', 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[multiple_lines]':
        {'reasoning': 'Line 1\nLine 2', 'content': 'Response 1\nResponse 2', 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[multiple_lines_streaming]':
        {'reasoning': 'Line 1\nLine 2', 'content': 'Response 1\nResponse 2', 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[empty]':
        {'reasoning': None, 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[special_chars]':
        {'reasoning': 'Let me think... 1+1=2', 'content': 'Yes!', 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[special_chars_streaming]':
        {'reasoning': 'Let me think... 1+1=2', 'content': 'Yes!', 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[code_output]':
        {'reasoning': "```python\nprint('hi')\n```", 'content': "Here's the code.", 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m2_append_reasoning_parser.py::test_reasoning[code_output_streaming]':
        {'reasoning': "```python\nprint('hi')\n```", 'content': "Here's the code.", 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m3_reasoning_parser.py::test_nonstreaming_non_leading_end_tag_is_content':
        {'reasoning': None, 'content': 'XXXYYY', 'calls': [], 'finish': 'stop'},
    'vllm:test_minimax_m3_reasoning_parser.py::test_streaming_non_leading_end_tag_is_content':
        {'reasoning': None, 'content': 'XXXYYY', 'calls': [], 'finish': 'stop'},
    'vllm:test_nemotron_v3_reasoning_parser.py::test_nemotron_v3_force_nonempty_content_moves_into_content':
        {'reasoning': 'This is plain content', 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_nemotron_v3_reasoning_parser.py::test_nemotron_v3_streaming_promotes_reasoning_to_content':
        {'reasoning': '4', 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_qwen3_reasoning_parser.py::test_reasoning[tool_call_no_think_end]':
        {'reasoning': 'I need to read the file.\n\n<tool_call>\n<function=bash>\n<parameter=command>\ncat /etc/hosts\n</parameter>\n</function>\n</tool_call>', 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_qwen3_reasoning_parser.py::test_reasoning[tool_call_no_think_end_stream]':
        {'reasoning': 'I need to read the file.\n\n<tool_call>\n<function=bash>\n<parameter=command>\ncat /etc/hosts\n</parameter>\n</function>\n</tool_call>', 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_qwen3_reasoning_parser.py::test_reasoning[tool_call_with_think_no_end]':
        {'reasoning': 'I need to read the file.\n\n<tool_call>\n<function=bash>\n<parameter=command>\ncat /etc/hosts\n</parameter>\n</function>\n</tool_call>', 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_qwen3_reasoning_parser.py::test_reasoning[tool_call_with_think_no_end_stream]':
        {'reasoning': 'I need to read the file.\n\n<tool_call>\n<function=bash>\n<parameter=command>\ncat /etc/hosts\n</parameter>\n</function>\n</tool_call>', 'content': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_qwen3_reasoning_parser.py::test_reasoning_streaming_multi_token_deltas[tool_call_implicit_reasoning_end]':
        {'reasoning': 'I need to read the file.\n\n<tool_call>\n<function=bash>', 'content': None, 'calls': [], 'finish': 'stop'},
}
