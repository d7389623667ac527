"""The Chat Completions wire shapes against the official openai SDK: every chunk `chat.Stream` and
`chat.chunk` give, for every corpus output and fixture case at several chunkings and finish reasons,
validates as `ChatCompletionChunk`; every whole `chat.completion` validates as `ChatCompletion`; and
folding the chunks the way the SDK does (its `accumulate_delta` on every plan, and its whole
`ChatCompletionStreamState` on one streamed plan) rebuilds exactly the whole completion, usage included, also with n > 1.

Listed difference: SPEC §7.1 maps an aborted stream to finish_reason "abort" (as vLLM and SGLang
do); the SDK's Literal does not name it, so those chunks are validated with the value swapped for
"stop" after checking it is exactly "abort".
"""
import collections
import copy

import pytest
from openai.lib.streaming._deltas import accumulate_delta
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.types.chat import ChatCompletion, ChatCompletionChunk

import symphony
from symphony.adapt import chat
from symphony.adapt.fold import fold
from tests import tiers
from tests.streams import corpus_outputs, fixture_outputs, plans

NOT_IN_SDK_LITERAL = {"abort"}
FULL_SDK_STATE_PLAN = "seeded-1"      # the SDK stream state costs ~0.3 ms a chunk: one plan


def _validated(model, obj):
    choices = obj.get("choices", [])
    if any(c.get("finish_reason") in NOT_IN_SDK_LITERAL for c in choices):
        obj = {**obj, "choices": [{**c, "finish_reason": "stop"} if c.get("finish_reason") in NOT_IN_SDK_LITERAL
                                  else c for c in choices]}
    return model.model_validate(obj)


def stream_chunks(per_feed_by_choice, usage=None):
    """The chunks a server sends for n choices fed in lockstep (one chunk per stream choice), the
    last one carrying usage and no choices when given."""
    streams = [chat.Stream(i) for i in range(len(per_feed_by_choice))]
    chunks = []
    if len(streams) > 1:
        chunks += [chat.chunk(s.start(), "chatcmpl-1", 1700000000, "m") for s in streams]
    for feeds in zip(*per_feed_by_choice):
        for stream, events in zip(streams, feeds):
            for e in events:
                chunks.extend(chat.chunk([c], "chatcmpl-1", 1700000000, "m") for c in stream.feed(e))
    if usage is not None:
        chunks.append(chat.chunk([], "chatcmpl-1", 1700000000, "m", usage))
    return chunks


def sdk_fold(chunks):
    """The SDK's accumulation of the chunks' deltas (`accumulate_delta`, as its stream state does),
    in the whole completion's shape."""
    messages = collections.defaultdict(dict)
    finish = {}
    usage = None
    for c in chunks:
        if "usage" in c:
            usage = c["usage"]
        for choice in c["choices"]:
            accumulate_delta(messages[choice["index"]], copy.deepcopy(choice["delta"]))
            if choice["finish_reason"] is not None:
                finish[choice["index"]] = choice["finish_reason"]
    return [_as_whole(i, messages[i], finish.get(i)) for i in sorted(messages)], usage


def _as_whole(index, m, finish_reason):
    calls = [{"id": c["id"], "type": c["type"], "function": {"name": c["function"]["name"],
                                                            "arguments": c["function"]["arguments"]}}
             for c in m.get("tool_calls") or []]
    return {"index": index,
            "message": {"role": m.get("role", "assistant"), "content": m.get("content"),
                        "reasoning_content": m.get("reasoning_content"), "tool_calls": calls or None},
            "finish_reason": finish_reason}


def check_output(output):
    for plan, finish, counted, per_feed in plans(output):
        events = [e for f in per_feed for e in f]
        usage = chat.usage(events, prompt_tokens=7)
        assert (usage is None) == (not counted), (output.label, plan)
        whole = chat.completion([chat.message(events)], "chatcmpl-1", 1700000000, "m", usage)
        _validated(ChatCompletion, whole)
        chunks = stream_chunks([per_feed], usage)
        for c in chunks:
            _validated(ChatCompletionChunk, c)
        choices, got_usage = sdk_fold(chunks)
        assert choices == whole["choices"], (output.label, plan, finish)
        assert got_usage == usage
        if plan == FULL_SDK_STATE_PLAN:
            check_sdk_state(chunks, whole)


def check_sdk_state(chunks, whole):
    state = ChatCompletionStreamState()
    for c in chunks:
        state.handle_chunk(_validated(ChatCompletionChunk, c))
    snapshot = state.current_completion_snapshot
    want = ChatCompletion.model_validate(whole | {"choices": [
        c | {"finish_reason": "stop" if c["finish_reason"] in NOT_IN_SDK_LITERAL else c["finish_reason"]}
        for c in whole["choices"]]})
    assert len(snapshot.choices) == len(want.choices)
    for got, exp in zip(snapshot.choices, want.choices):
        assert got.message.content == exp.message.content
        assert getattr(got.message, "reasoning_content", None) == exp.message.reasoning_content
        assert [(t.id, t.function.name, t.function.arguments) for t in got.message.tool_calls or []] == \
            [(t.id, t.function.name, t.function.arguments) for t in exp.message.tool_calls or []]
        assert got.message.role == "assistant"


CORPUS = collections.defaultdict(list)
for _o in corpus_outputs():
    CORPUS[_o.table].append(_o)
FIXTURES = collections.defaultdict(list)
for _o in fixture_outputs():
    FIXTURES[_o.label.split("/", 1)[0]].append(_o)


@pytest.mark.parametrize("table", sorted(CORPUS))
def test_corpus_chunks_validate_and_fold_to_the_completion(table):
    for output in tiers.sample(CORPUS[table], tiers.FAST_CORPUS_CASES, "chat_sdk", table):
        check_output(output)


@pytest.mark.skipif(not FIXTURES, reason="SYMPHONY_FIXTURES is not set")
@pytest.mark.parametrize("slug", sorted(FIXTURES) or ["-"])
def test_fixture_chunks_validate_and_fold_to_the_completion(slug):
    for output in FIXTURES[slug]:
        check_output(output)


def test_n_choices_interleave_and_fold_each_to_its_own_choice():
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    texts = ['<think>a</think>\n\nHello <tool_call>\n{"name": "f", "arguments": {"x": 1}}\n</tool_call>',
             "  just text", '<tool_call>\n{"name": "f", "arguments": {"y": [1, 2]}}\n</tool_call>\n']
    per_choice = []
    for text in texts:
        p = symphony.parser("qwen3", tools)
        per_choice.append([p.feed(symphony.Delta(ch)) for ch in text] + [p.feed(symphony.End("stop"))]
                          + [[]] * (max(map(len, texts)) - len(text)))
    chunks = stream_chunks(per_choice)
    whole = chat.completion([chat.message([e for f in feeds for e in f], i) for i, feeds in enumerate(per_choice)],
                            "chatcmpl-1", 1700000000, "m")
    assert [c["index"] for c in whole["choices"]] == [0, 1, 2]
    assert sdk_fold(chunks)[0] == whole["choices"]
    assert whole["choices"][1]["message"]["content"] == "  just text"
    assert whole["choices"][2]["finish_reason"] == "tool_calls"
    check_sdk_state(chunks, whole)


def test_usage_counts_every_choice_and_its_reasoning():
    from tests.common import counted_deltas, synthetic_token_bounds
    text = "<think>plan it</think>\n\nok"
    runs = []
    for _ in range(2):
        p = symphony.parser("qwen3")
        events = []
        for d in counted_deltas([text[:9], text[9:]], synthetic_token_bounds(text)):
            events += p.feed(d)
        events += p.feed(symphony.End("stop"))
        runs.append(events)
    one = fold(runs[0])
    assert one.output_tokens == len(synthetic_token_bounds(text)) - 1 + 1   # every token, the zero-width one too
    assert one.reasoning_tokens > 0
    u = chat.usage(*runs, prompt_tokens=5)
    assert u == {"prompt_tokens": 5, "completion_tokens": 2 * one.output_tokens,
                 "total_tokens": 5 + 2 * one.output_tokens,
                 "completion_tokens_details": {"reasoning_tokens": 2 * one.reasoning_tokens}}
    assert chat.usage(runs[0], symphony.parse("qwen3", text), prompt_tokens=5) is None


def test_stream_sends_the_role_once_and_holds_leading_blank_content():
    s = chat.Stream(3)
    got = []
    for e in [symphony.events.Content("\n"), symphony.events.Content(" "), symphony.events.Content("hi"),
              symphony.events.Content("\n"), symphony.events.Finish("stop", 0, 0)]:
        got += s.feed(e)
    assert [c["delta"] for c in got] == [{"role": "assistant", "content": "\n hi", "reasoning_content": None},
                                         {"content": "\n", "reasoning_content": None},
                                         {"reasoning_content": None}]
    assert all(c["index"] == 3 for c in got) and got[-1]["finish_reason"] == "stop"
    blank = chat.Stream()
    assert blank.feed(symphony.events.Content("  ")) == []
    assert blank.feed(symphony.events.Finish("stop", 0, 0))[0]["delta"] == {"role": "assistant",
                                                                            "reasoning_content": None}


def test_envelopes():
    c = chat.chunk([], "id-1", 5, "model-x")
    assert c == {"id": "id-1", "object": "chat.completion.chunk", "created": 5, "model": "model-x", "choices": []}
    w = chat.completion([chat.message([])], "id-1", 5, "model-x", {"prompt_tokens": 1})
    assert w["object"] == "chat.completion" and w["usage"] == {"prompt_tokens": 1}
