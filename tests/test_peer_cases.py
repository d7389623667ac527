"""The incumbents' own tool-parser unit-test cases, run as extra tests: vLLM's
(`../shared/peer-cases/vllm.jsonl`, or the file named by `SYMPHONY_PEER_CASES`, and the cases of
vLLM 0.33.0's and 0.34.0's tests that file does not hold, `tests/data/vllm_tool_cases_extra.jsonl`) and
SGLang's detectors' (`../shared/peer-cases/sglang.jsonl`, or `SYMPHONY_SGLANG_CASES`).

Each case is parsed whole with the table its parser name maps to (vLLM's and SGLang's names, its
family's `vllm` and `sglang` names; an SGLang reasoning parser's case with the checkpoint that
parser serves) and the
generation prompt the case implies (none for a tool parser's: the incumbents' tests feed none, so
no thought is open at the start; see `sglang_plan`), names checked where the incumbent's parser
checks them (`CHECKS_NAMES`: undeclared="malformed"), and folded with `chat.message`; it is
replayed with its literal `chunks`, and each output of a test at every chunking of the tier
(tests/tiers.py): every replay conserves the output's bytes, is well formed and gives the message
of the whole parse. The message is judged by the peer-cases README rules (`tests.peer.judge`).

The incumbents' expectations are another project's, not the contract. Where symphony reads a case
otherwise, the case is listed with its cause and reason, and the message symphony gives for it is
pinned, in `tests/data/peer_listed_vllm.jsonl` and `tests/data/peer_listed_sglang.jsonl`: a
listed case must give exactly its pin, and a listed case that starts agreeing fails (take it off
the list: `python3 -m tests.peer_lists prune`).

One pytest item per test (a test function with one parser name; `tests.peer.group_by_test`): it
agrees when all its cases do. `python3 -m pytest -rA tests/test_peer_cases.py -k agreement_table`
prints the agreement per table, per test and per case, for each engine.
"""
import collections
import os

import pytest

import symphony
from symphony.adapt import chat
from symphony.formats import SGLANG_DETECTORS
from symphony.formats import table as format_table
from symphony.integrations.names import THINKING_OFF
from symphony.models import thought_markers
from symphony.replay import opens_thought
from recorded.peer_cases import ROOT, SHARED, VLLM_FILES, VLLM_TABLES, load, sglang_cases, vllm_cases
from tests import peer
from tests.common import chunkings

DATA = os.path.join(ROOT, "tests", "data")
LISTED_FILES = {"vLLM": os.path.join(DATA, "peer_listed_vllm.jsonl"),
                "SGLang": os.path.join(DATA, "peer_listed_sglang.jsonl")}
TWO_WAY_SPLITS_UP_TO = 800     # characters; the two long Seed-OSS thoughts skip every-split plans

# --- why a listed case is read otherwise -----------------------------------------------------
# A listed case's `cause`; its `reason` says, for the case, why SPEC decides otherwise (or, for a
# defect, what is wrong until it is fixed).
CAUSES = (
    "marker-in-value",       # a marker written inside a value is a marker
    "parameter-tags",        # inside a value only `</parameter>` is a tag
    "tag-spelling",          # a tag misspelled (`<function bash>`, a `>` left out) is no marker
    "names-not-checked",     # tool names and schemas are not checked against the request
    "call-needs-block",      # a call is read only where the table's block or list may stand
    "value-typing",          # how a value's text becomes JSON
    "malformed-kept",        # a started call ends with what arrived; the rest is Malformed
    "thought",               # what the table reads as the thought
    "prose-between-calls",   # prose around and between calls is content
    "foreign-markers",       # markers are their exact texts
    "repeated-key",
    "value-extent",          # where a value ends
    "separator",
    "other-call-form",       # a call written in a form the table does not read
    "unpaired-marker",       # a marker with no region open is content
    "held-released",         # held bytes are released at the end
    "call-ids",
    "citations",
    "attribute-text",
    "marker-text",
    "request-options",
    "handed-on-markup",      # a reasoning parser's content holds the tool markup it hands on
    "presentation",          # the incumbent moves text between reasoning and content by a rule of its own
    "prose-defect",          # a defect that garbles visible text: to be fixed, not a reading
    "region-as-written",     # a call region that held no call is the text the model wrote, markers included
    "cut-call-closed",       # a call the stream cut (not for its length) gets arguments a client can load
    "call-refused",          # a pythonic call with what Python would refuse in it is no call: its text is content
)

# --- where the engines' parser names land ----------------------------------------------------


# The checkpoint each SGLang reasoning parser (`reasoning:NAME`, and a tool case's
# `reasoning_parser`) stands for: the case is parsed with its table and generation prompt.
SGLANG_REASONING_CHECKPOINTS = {
    "qwen3": "Qwen/Qwen3-8B",
    "qwen3-thinking": "Qwen/Qwen3-4B-Thinking-2507",
    "deepseek-r1": "deepseek-ai/DeepSeek-R1",
    "deepseek-v4": "deepseek-ai/DeepSeek-V4-Flash",
    "kimi": "moonshotai/Kimi-VL-A3B-Thinking",
    "kimi_k2": "moonshotai/Kimi-K2-Thinking",
    "kimi_k3": "moonshotai/Kimi-K3",
    "glm45": "zai-org/GLM-4.5",
    "hunyuan": "tencent/Hunyuan-A13B-Instruct",
    "nemotron_3": "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
    "gemma4": "google/gemma-4-31B-it",
    "gpt-oss": "openai/gpt-oss-20b",
    "minimax-append-think": "MiniMaxAI/MiniMax-M2",
    "muse": "meta-models/Muse-Glimmer-30B",
}
REASONING = "reasoning:"
# SGLang's reasoning parsers that start inside the thought unless a case says otherwise (their
# detectors' `force_reasoning` default, or the one ReasoningParser sets for them); the others start
# outside it, as a prompt that opens no thought leaves the output. (gpt-oss's is forced too, but
# harmony's channel headers, not a prompt, say where its thought is.)
SGLANG_STARTS_IN_THOUGHT = {"deepseek-r1", "qwen3-thinking", "kimi_k3", "minimax-append-think"}
# SGLang's reasoning parsers that show the thought the prompt opened in the content, its opener
# prepended (chat.message's `thought_in_content`)
SGLANG_THOUGHT_IN_CONTENT = {"minimax-append-think"}
# SGLang's detector options, and how each is read. `force_reasoning` says the prompt opened the
# thought: the checkpoint's prompt is followed by the table's thought opener, unless it already
# leaves the output inside a thought. `continue_final_message` continues an assistant message that
# the prompt ends with (`previous_content`). `force_nonempty_content` shows the thought as the
# content where that is empty (chat.message's option of that name). The other options change how a
# detector streams, or what it refuses with an error (outputs the cases do not record), not what it
# reads of an output.
FORCE_REASONING = ("force_reasoning", "reasoning_force_reasoning")
PREVIOUS_CONTENT = ("previous_content", "previous_assistant_content")
FORCE_NONEMPTY_CONTENT = "force_nonempty_content"
OTHER_OPTIONS = {"stream_reasoning", "strict_output", "validate_tool_schema", "reject_reasoning_markers",
                 "reasoning_tool_call_parser_active", "continue_final_message"}


class Plan(collections.namedtuple("Plan", "table format prompt hands_on")):
    """How a case is parsed: its table's name, the table (a name, or a checkpoint's Format), the
    generation prompt (None: none), and whether the case is a reasoning parser's, whose content
    the incumbent hands on to its tool parser whole."""


def sglang_plan(case):
    """A tool detector's case: its table, with no prompt, or with the prompt of the checkpoint
    its `reasoning_parser` serves; a reasoning parser's case: that checkpoint's table and prompt."""
    options = case.get("parser_options") or {}
    unknown = set(options) - OTHER_OPTIONS - set(FORCE_REASONING) - set(PREVIOUS_CONTENT) - {FORCE_NONEMPTY_CONTENT}
    assert not unknown, f"{case['id']}: detector options {sorted(unknown)} have no reading here"
    reasoning = case["parser"] if case["parser"].startswith(REASONING) else case.get("reasoning_parser")
    if reasoning is None:
        return Plan(SGLANG_DETECTORS[case["parser"]], SGLANG_DETECTORS[case["parser"]], None, False)
    name = reasoning[len(REASONING):]
    forced = any(options.get(o) for o in FORCE_REASONING) or (
        name in SGLANG_STARTS_IN_THOUGHT and not any(options.get(o) is False for o in FORCE_REASONING))
    model = symphony.for_model(SGLANG_REASONING_CHECKPOINTS[name])
    # a parser that starts outside the thought reads the output of a prompt that opens none: where
    # the checkpoint's prompt opens one, the prompt with thinking off (a final assistant message
    # continued is past its thought too: the template renders a message's content after it)
    if not forced and (options.get("continue_final_message") or opens_thought(model.table(), model.prompt_tail)):
        model = symphony.for_model(SGLANG_REASONING_CHECKPOINTS[name], chat_template_kwargs=THINKING_OFF)
    prompt = model.prompt_tail
    if forced and not opens_thought(model.table(), prompt):
        prompt += thought_markers(model.table())[0]
    prompt += next((options[o] for o in PREVIOUS_CONTENT if o in options), "")
    if case["parser"].startswith(REASONING):
        return Plan(model.format, model.table(), prompt, True)
    return Plan(SGLANG_DETECTORS[case["parser"]], SGLANG_DETECTORS[case["parser"]], prompt, False)


# --- checks the vLLM tests make that only their notes spell out ------------------------------
# In the README's vocabulary (`content_contains`, `arguments_string`, …): each one is what the
# case's `notes` say the vLLM test asserts beyond `expect`.

_CODER = "vllm:test_qwen3coder_tool_parser.py::"
_SHARED = "vllm:test_qwen3_xml_coder_shared.py::"
_STEP = "vllm:test_step3p5_tool_parser.py::"
_SEED = "vllm:test_seed_oss_tool_parser.py::"
_GLM45 = "vllm:test_glm4_moe_tool_parser.py::"
_HY = "vllm:test_hy_v4_tool_parser.py::"
_LFM2 = "vllm:test_lfm2_tool_parser.py::"
_HY_STREAM = _HY + "TestExtractToolCallsStreaming::"
NOTED = {
    _SHARED + "test_extract_tool_calls_missing_closing_parameter_tag[xml]":
        {"content_contains": ["Let me check the weather for you:"]},
    _SHARED + "test_extract_tool_calls_missing_closing_parameter_tag[coder]":
        {"content_contains": ["Let me check the weather for you:"]},
    _SHARED + "test_extract_tool_calls_streaming_missing_closing_tag[coder]":
        {"content_contains": ["Let me check the weather for you:"]},
    _STEP + "test_extract_tool_calls_missing_closing_parameter_tag":
        {"content_contains": ["Let me check the weather for you:"]},
    _STEP + "test_extract_tool_calls_streaming_missing_closing_tag":
        {"content_contains": ["Let me check the weather for you:"]},
    _SHARED + "test_streaming_two_tool_calls_plus_trailing_text_one_delta[xml]": {"content_contains": ["All done!"]},
    _SHARED + "test_streaming_trailing_text_with_final_close_in_same_delta[xml]":
        {"content_contains": ["I hope this helps!"]},
    _SHARED + "test_streaming_trailing_text_with_final_close_in_same_delta[coder]":
        {"content_contains": ["I hope this helps!"]},
    _SHARED + "test_inline_empty_tool_call_preserves_content_before_real_call[xml]":
        {"content_contains": ["I'll show:", "Now real:"]},
    _SHARED + "test_inline_empty_tool_call_preserves_content_before_real_call[coder]":
        {"content_contains": ["I'll show:", "Now real:"]},
    _STEP + "test_extract_tool_calls_streaming_mixed_content_and_multiple_tool_calls":
        {"content_contains": ["hello", "hi"],
         "content_not_contains": ["<function=get_current_weather>", "<function=calculate_area>"]},
    _STEP + "test_extract_tool_calls_non_streaming_multiple_tool_calls_no_content_between":
        {"content_contains": ["hello"],
         "content_not_contains": ["<function=get_current_weather>", "<function=calculate_area>"]},
    "vllm:test_iquest_coder_tool_parser.py::test_streaming_partial_start_token_not_leaked_as_content[3]":
        {"content_not_contains": ["<tool_call"]},
    **{_GLM45 + f"test_stream_interval_content_then_tool_call[{n}]": {"content_contains": ["I will check the weather"]}
       for n in (1, 2, 3, 5)},
    _GLM45 + "test_stream_interval_extreme_single_chunk": {"content_contains": ["Here is the weather"]},
    **{_GLM45 + f"test_stream_interval_content_between_tool_calls[{n}]":
       {"content_contains": ["Checking Beijing", "Also Shanghai"]} for n in (1, 5)},
    _CODER + "test_no_double_serialization_string_args":
        {"arguments_string_not_contains": ['\\"hello world\\"']},
    _SHARED + "test_no_double_serialization_string_args[coder]":
        {"arguments_string_not_contains": ['\\"hello world\\"']},
    _GLM45 + "test_unicode_characters_preserved":
        {"arguments_string_contains": ["你好世界", "🎉"], "arguments_string_not_contains": ["\\u4f60"]},
    _GLM45 + "test_extract_tool_calls_empty_arguments": {"arguments_strings": ["{}"]},
    _SEED + "test_extract_tool_calls[tool_call_0_thinking_budget]":
        {"arguments_strings": ['{"location": "Barcelona, Spain"}']},
    _SEED + "test_extract_tool_calls[tool_call_unlimited_thinking_budget]":
        {"arguments_strings": ['{"location": "Barcelona, Spain", "unit": "celsius"}']},
    _HY + "TestArgumentValueTypes::test_unknown_tool_keeps_values_as_text": {"arguments_strings": ['{"x": "1"}']},
    _HY + "TestExtractToolCalls::test_values_typed_from_schema":
        {"arguments_strings": ['{"city": "Beijing", "days": 3}']},
    _HY + "TestExtractToolCalls::test_zero_arg_call": {"arguments_strings": ["{}"]},
    _HY + "TestExtractToolCalls::test_non_ascii_values_are_not_escaped": {"arguments_strings": ['{"city": "北京"}']},
    _HY_STREAM + "test_matches_non_streaming": {"arguments_strings": ['{"city": "Beijing", "days": 3}']},
    _HY_STREAM + "test_multiple_tool_calls": {"arguments_strings": ['{"city": "Beijing"}', "{}"]},
    _HY_STREAM + "test_zero_arg_call": {"arguments_strings": ["{}"]},
    _HY_STREAM + "test_structural_tokens_split_across_deltas": {"arguments_strings": ['{"city": "Beijing"}']},
    _HY_STREAM + "test_serving_state_is_updated": {"arguments_strings": ['{"city": "A"}', "{}"]},
    _HY + "TestToolParserWrapper::test_streaming_mirrors_serving_state": {"arguments_strings": ['{"city": "A"}']},
    _LFM2 + "test_streaming_full_block_and_trailing_in_single_delta": {"content_contains": ["Done."]},
    _LFM2 + "test_streaming_leading_content_and_full_block_in_single_delta": {"content_contains": ["Let me check."]},
}


# --- the cases -------------------------------------------------------------------------------

VLLM_CASES = vllm_cases()
SGLANG_CASES = sglang_cases()
needs_cases = pytest.mark.skipif(not VLLM_CASES or not SGLANG_CASES,
                                 reason=f"no peer cases in {SHARED} (SYMPHONY_PEER_CASES, SYMPHONY_SGLANG_CASES)")


def engine_of(case):
    return "SGLang" if case["id"].startswith("sglang:") else "vLLM"


# --- the incumbent parsers that check names ----------------------------------------------------
# A user migrating from an incumbent's parser that refuses a call to a tool the request does not
# declare would parse with `undeclared="malformed"`; a case of such a parser is parsed so. Read
# from their source in bench/.peers-venv and tried on the cases' own calls renamed:
# - vLLM 0.33.0: its parser engine checks names where a parser's config sets validate_tool_names
#   (Glm47Moe, which serves glm45 and glm47, and MiniMax M2); dots gives such a call back as
#   content, InternLM 2 and MiniCPM5 drop it, K2-Horizon fails closed. Every other parser keeps it
#   (the engine's default, validate_tool_names=False: Qwen3, DeepSeek V3.2/V4, Gemma 4, Kimi K2,
#   Inkling, ...; hy_v4 keeps `mystery`, Kimi K3 `a&b"c`, Muse `foo.get_weather`).
# - SGLang 0.5.23: its detectors drop such a call (BaseFormatDetector.parse_base_json, and each
#   detector's own `_tool_indices` check), but Gemma 4 (tool_index -1, kept), Inkling (surfaced
#   on purpose), Kimi K2, Kimi K3 and Qwen3-Coder (which also serves step3p5) keep it. K2-Horizon
#   drops it whole and streamed, Hunyuan (Hy3) whole (its streamed path keeps it).
# A case is judged against the parser its test was written for: vLLM's glm45 tests in the shared
# cases come from an earlier commit (024364d), whose parser kept an undeclared name, so glm45 is
# not in vLLM's set (its glm47 tests are 0.33.0's).
CHECKS_NAMES = {
    "vLLM": {"dots", "glm47", "internlm", "k2_horizon", "minicpm5", "minimax_m2"},
    "SGLang": {"deepseekv3", "deepseekv31", "deepseekv32", "deepseekv4", "gigachat3", "glm45", "glm47", "gpt-oss",
               "hermes", "hunyuan", "k2_horizon", "lfm2", "ling3", "llama3", "mimo", "minimax-m2", "minimax-m3",
               "mistral", "pythonic", "qwen25", "step3"},
}


def undeclared(case):
    """The `undeclared` option a user of the case's parser would parse with."""
    return "malformed" if case["parser"] in CHECKS_NAMES[engine_of(case)] else "call"


def plan(case):
    if engine_of(case) == "SGLang":
        return sglang_plan(case)
    return Plan(VLLM_TABLES[case["parser"]], VLLM_TABLES[case["parser"]], None, False)


LISTED = {engine: peer.load_listed(path, CAUSES) for engine, path in LISTED_FILES.items()}


def forces_nonempty_content(case):
    """Whether the case's parser shows the thought as the content where that is empty."""
    return bool((case.get("parser_options") or {}).get(FORCE_NONEMPTY_CONTENT))


def thought_in_content(case):
    """The opener of the thought the case's reasoning parser shows in the content, or None."""
    name = case["parser"] if case["parser"].startswith(REASONING) else case.get("reasoning_parser") or ""
    if name[len(REASONING):] not in SGLANG_THOUGHT_IN_CONTENT:
        return None
    how = plan(case)
    return thought_markers(format_table(how.table) if isinstance(how.format, str) else how.format)[0]


def message_of(case):
    """How the case's server makes the message of its events."""
    forced, opener = forces_nonempty_content(case), thought_in_content(case)
    return lambda events: chat.message(events, force_nonempty_content=forced, thought_in_content=opener)


def parse(case):
    """The case's whole parse, as the chat message and its summary."""
    how = plan(case)
    whole = message_of(case)(symphony.parse(how.format, case["output"], tools=case["tools"], prompt=how.prompt,
                                            undeclared=undeclared(case)))
    return whole, peer.summary(whole)


def problems_of(case, said):
    """The case's judge. The incumbents' tool-parser tests feed the parser the whole output,
    thought included, which their servers would first give the reasoning parser (vLLM's, and
    SGLang's detectors that pass a thought through as normal text, K2-Horizon's): where such a
    test expects the thought in the content, the content and reasoning are judged as the table
    reads it (`peer.thought_view`)."""
    how = plan(case)
    thought = peer.thought_view(how.table)
    return peer.judge(case, said, NOTED.get(case["id"]), peer.tool_view(how.table) if how.hands_on else None,
                      thought)


RUN_CASES = VLLM_CASES + SGLANG_CASES
TESTS = peer.group_by_test(RUN_CASES)


@needs_cases
@pytest.mark.parametrize("name", list(TESTS))
def test_peer_test(name):
    """Every case of the test agrees or is listed and gives its pin; every replay of each (its own
    chunks, and each output at the tier's chunkings) gives the whole parse's message."""
    cases = TESTS[name]
    verdicts, replayed = [], set()
    for case in cases:
        whole, said = parse(case)
        engine = engine_of(case)
        verdicts.append(peer.verdict(case, problems_of(case, said), said, LISTED[engine], engine))
        how = plan(case)
        plans = peer.own_chunks(case)
        key = (case["output"], how, repr(case["tools"]), undeclared(case), forces_nonempty_content(case))
        if key not in replayed:
            replayed.add(key)
            plans += chunkings(case["output"], every_split_up_to=TWO_WAY_SPLITS_UP_TO)
        peer.check_replays(case, lambda: symphony.parser(how.format, case["tools"], undeclared=undeclared(case)), whole,
                           plans, prompt=how.prompt, message=message_of(case))
    peer.check_verdicts(verdicts)


@needs_cases
def test_every_parser_has_a_table():
    """Every parser name the cases give reads with a table (its family's names) or a checkpoint."""
    unknown = {c["parser"] for c in load(VLLM_FILES)} - set(VLLM_TABLES)
    assert not unknown, f"vLLM parsers no table reads: {sorted(unknown)} (map them in its family's `vllm` names)"
    names = {c["parser"] for c in SGLANG_CASES} | {c["reasoning_parser"] for c in SGLANG_CASES if "reasoning_parser" in c}
    unknown = {n for n in names if n not in SGLANG_DETECTORS and n[len(REASONING):] not in SGLANG_REASONING_CHECKPOINTS}
    assert not unknown, f"SGLang parsers no table reads: {sorted(unknown)} (its family's `sglang` names)"
    for case in SGLANG_CASES:
        sglang_plan(case)        # every detector option has a reading
    known = {"vLLM": set(VLLM_TABLES), "SGLang": set(SGLANG_DETECTORS)}
    for engine, checked in CHECKS_NAMES.items():
        assert checked <= known[engine], f"{engine} parsers that check names but are none of its: " \
                                         f"{sorted(checked - known[engine])}"


@needs_cases
def test_the_lists_name_cases_that_exist():
    ids = [c["id"] for c in VLLM_CASES + SGLANG_CASES]
    assert len(ids) == len(set(ids)), "case ids are not unique"
    for engine, listed in LISTED.items():
        known = {c["id"] for c in VLLM_CASES + SGLANG_CASES if engine_of(c) == engine}
        assert set(listed) <= known, f"listed but not a case of {engine}'s: {sorted(set(listed) - known)[:5]}"
    assert set(NOTED) <= set(ids), f"noted but not a case: {sorted(set(NOTED) - set(ids))}"


def agreement_table(engine):
    cases = [c for c in VLLM_CASES + SGLANG_CASES if engine_of(c) == engine]
    label = {"vLLM": "vLLM table (parser)", "SGLang": "SGLang table (detector)"}[engine]
    return peer.agreement_table(cases, lambda case: problems_of(case, parse(case)[1]), LISTED[engine],
                                lambda case: plan(case).table, label)


@needs_cases
@pytest.mark.parametrize("engine", list(LISTED_FILES))
def test_agreement_table(engine):
    """Prints the agreement per table, per test and per case (shown with `pytest -rA`)."""
    table = agreement_table(engine)
    print("\n" + table)
    assert "UNLISTED" not in table


def test_the_verdict_rules():
    """An unlisted difference fails; a listed case must differ and give exactly its pin; a listed
    case that agrees fails, so a recovery shows up as one to take off the list."""
    case = {"id": "sglang:t.py::test_x[1]", "parser": "pythonic", "expect": {"content": "a"}}
    agrees, differs = peer.summary(chat.message(symphony.parse("pythonic", "a"))), \
        peer.summary(chat.message(symphony.parse("pythonic", "b")))
    listed = {case["id"]: peer.Listed(case["id"], "value-typing", "why", peer.pin(differs))}
    assert peer.verdict(case, peer.judge(case, agrees), agrees, {}, "SGLang") is None
    assert "differs from SGLang" in peer.verdict(case, peer.judge(case, differs), differs, {}, "SGLang")
    assert peer.verdict(case, peer.judge(case, differs), differs, listed, "SGLang") is None
    assert "now agrees" in peer.verdict(case, peer.judge(case, agrees), agrees, listed, "SGLang")
    moved = dict(differs, content="c")
    assert "changed from its pin" in peer.verdict(case, ["x"], moved, listed, "SGLang")
    assert peer.group_by_test([case, dict(case, id="sglang:t.py::test_x[2]")]) == {
        "sglang:t.py::test_x": [case, dict(case, id="sglang:t.py::test_x[2]")]}
