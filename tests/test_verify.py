"""The verdict classes of the fixture replay (SPEC §9.3), on hand-made cases: bitwise, separators
only, argument values (Inkling), listed probes (and a listed probe that starts matching), allowances only under their
switch, DIFFERS; and the replay's own checks (conservation, agreement, token counts)."""
import pytest

from symphony import replay, verify
from symphony.models import for_model, thought_markers

QWEN3 = "Qwen/Qwen3-8B"
QWEN25_VL = "Qwen/Qwen2.5-VL-7B-Instruct"


def case(text, content="", reasoning=None, calls=(), finish="stop", name="parse/made-up", model=QWEN3,
         kwargs=None):
    message = {"role": "assistant", "content": content}
    if reasoning is not None:
        message["reasoning_content"] = reasoning
    if calls:
        message["tool_calls"] = [{"type": "function", "function": {"name": n, "arguments": a}} for n, a in calls]
    return {"id": f"slug/{name}", "model": model, "request": {"chat_template_kwargs": kwargs or {}},
            "reference": {"text": text, "message": message, "finish_reason": finish}}


def verdict(c, slug="slug"):
    model = for_model(c["model"], c["request"]["chat_template_kwargs"])
    events, failures, replays = replay.replay_case(c, model, model.table())
    assert not failures, failures
    assert replays > 30
    got = verify._message_said(events)
    return verify.judge(c, got, slug, model.format, model, thought_markers(model.table()))


def test_bitwise_and_separators():
    assert verdict(case("Hello!", "Hello!"))[0] == "bitwise"
    assert verdict(case("<think>\nplan\n</think>\n\nHi", "Hi", "plan"))[0] == "separators"
    # only newlines are separators: a trailing space is a difference
    assert verdict(case("Hi ", "Hi"))[0] == "DIFFERS"


def test_calls_and_finish_must_match():
    text = '<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'
    assert verdict(case(text, calls=[("f", '{"a": 1}')], finish="tool_calls"))[0] == "bitwise"
    assert verdict(case(text, calls=[("f", '{"a":1}')], finish="tool_calls"))[0] == "DIFFERS"
    assert verdict(case(text, calls=[("f", '{"a": 1}')], finish="stop"))[0] == "DIFFERS"


def test_argument_values_only_where_the_template_rewrites_them():
    inkling = "thinkingmachines/Inkling"
    text = ('<|content_text|><|end_message|><|message_model|>f<|content_invoke_tool_json|>'
            '{"name":"f","args":{"b":1,"a":[1, 2]}}<|end_message|>')
    rewritten = case(text, calls=[("f", '{"a": [1, 2], "b": 1}')], finish="tool_calls", model=inkling)
    assert verdict(rewritten) == ("values", "")
    assert verdict(case(text, calls=[("f", '{"a": [1, 3], "b": 1}')], finish="tool_calls", model=inkling))[0] == "DIFFERS"
    # elsewhere the arguments are the model's bytes, which must match
    qwen = '<tool_call>\n{"name": "f", "arguments": {"b":1,"a":2}}\n</tool_call>'
    assert verdict(case(qwen, calls=[("f", '{"a": 2, "b": 1}')], finish="tool_calls"))[0] == "DIFFERS"


def test_listed_probe_must_give_its_listed_outcome_and_must_not_start_matching():
    fence = "```\n<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>\n```"
    listed = case(fence, fence, name="parse/" + verify.FENCE_PROBE)
    assert verdict(listed) == ("listed", "")
    # a probe whose reference now agrees with the parser is a failure: take it off the list
    matching = case(fence, "```\n\n```", calls=[("f", "{}")], finish="tool_calls", name="parse/" + verify.FENCE_PROBE)
    got, detail = verdict(matching)
    assert got == "DIFFERS" and "now matches" in detail


def test_listed_probes_per_table_and_behaviour():
    assert set(verify.listed_probes("qwen3", "model_writes_thought")) == {verify.REASONING_PROBE, verify.FENCE_PROBE}
    assert set(verify.listed_probes("qwen3", "no_thought")) == {verify.FENCE_PROBE}
    assert verify.listed_probes("xlam", "no_thought") == {}


def test_allowances_only_under_their_switch(monkeypatch):
    # a checkpoint whose template cannot write calls: the reference has one, the output none
    c = case("I cannot call tools.", "I cannot call tools.", calls=[("f", "{}")], finish="tool_calls",
             model=QWEN25_VL)
    monkeypatch.delenv("SYMPHONY_CORPUS_ALLOWANCES", raising=False)
    assert verdict(c, slug="qwen2.5-vl-7b")[0] == "DIFFERS"
    monkeypatch.setenv("SYMPHONY_CORPUS_ALLOWANCES", "0")
    assert verdict(c, slug="qwen2.5-vl-7b")[0] == "DIFFERS"
    monkeypatch.setenv("SYMPHONY_CORPUS_ALLOWANCES", "1")
    assert verdict(c, slug="qwen2.5-vl-7b")[0] == "allowed:CallsNotWritten"
    # ... but only for the checkpoints it names
    assert verdict(c, slug="qwen2.5-7b-instruct-1m")[0] == "DIFFERS"
    # a Plain-prompt checkpoint whose reference has reasoning the output never wrote
    plain = case("Hi", "Hi", reasoning="thought", model="Qwen/Qwen3-30B-A3B-Instruct-2507")
    assert verdict(plain)[0] == "allowed:ReasoningNotWritten"


def test_replay_reports_broken_fixtures():
    c = case("Hello!", "Hello!")
    c["output_pieces"] = ["Hel", "lo"]
    c["output_ids"] = [1, 2]
    model = for_model(QWEN3)
    _, failures, _ = replay.replay_case(c, model, model.table())
    assert failures == ["output_pieces do not join to reference.text"]
    c["output_pieces"] = ["Hel", "lo!"]
    c["chunk_plans"] = {"whole": None, "per_token": None, "size-3": [3]}
    _, failures, _ = replay.replay_case(c, model, model.table())
    assert failures == ["token plan size-3: sizes add up to 3, not 2"]


@pytest.mark.parametrize("text", ["<think>\nI think</think>\n\nHi", "a<tool_call>{\"name\": \"f\"}</tool_call>b"])
def test_token_replays_count_every_token_once(text):
    c = case(text)
    pieces = [text[i:i + 2] for i in range(0, len(text), 2)]
    c["output_pieces"] = pieces + [""]            # a trailing zero-width token
    c["output_ids"] = list(range(len(pieces) + 1))
    c["chunk_plans"] = {"whole": None, "per_token": None, "size-3": [3] * (len(pieces) // 3)
                        + ([len(pieces) % 3 + 1] if len(pieces) % 3 + 1 else [])}
    if sum(c["chunk_plans"]["size-3"]) != len(c["output_ids"]):
        c["chunk_plans"]["size-3"][-1] += len(c["output_ids"]) - sum(c["chunk_plans"]["size-3"])
    model = for_model(QWEN3)
    _, failures, _ = replay.replay_case(c, model, model.table())
    assert failures == []


GEMMA = "google/gemma-4-E4B-it"


def test_member_order_is_listed_only_for_tables_whose_template_sorts_arguments():
    text = '<|tool_call>call:f{a:1,b:<|"|>x<|"|>}<tool_call|>'
    sorted_args = case(text, calls=[("f", '{"b": "x", "a": 1}')], finish="tool_calls", model=GEMMA)
    assert verdict(sorted_args) == ("listed:member order", "")
    # any other difference is still one: a value, the spacing, a name
    assert verdict(case(text, calls=[("f", '{"b": "y", "a": 1}')], finish="tool_calls", model=GEMMA))[0] == "DIFFERS"
    assert verdict(case(text, calls=[("f", '{"b":"x","a":1}')], finish="tool_calls", model=GEMMA))[0] == "DIFFERS"
    assert verdict(case(text, calls=[("g", '{"b": "x", "a": 1}')], finish="tool_calls", model=GEMMA))[0] == "DIFFERS"
    assert verdict(case(text, calls=[("f", '{"a": 1, "b": "x"}')], finish="tool_calls", model=GEMMA))[0] == "bitwise"
    qwen = '<tool_call>\n{"name": "f", "arguments": {"a": 1, "b": "x"}}\n</tool_call>'
    assert verdict(case(qwen, calls=[("f", '{"b": "x", "a": 1}')], finish="tool_calls"))[0] == "DIFFERS"
