"""Engine.message (the batch path: the records folded in the core, no event built) says what
chat.message says of the events, and counts what they count, for every table's generated outputs
and every recorded fixture case, counted and not."""
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symphony
from symphony.adapt import chat
from symphony.adapt.fold import fold
from recorded.fixtures import case_setup, load_cases, slugs
from tests.common import counted_deltas, synthetic_token_bounds
from tests.strategies import outputs, prompts, tools

FIXTURES = os.environ.get("SYMPHONY_FIXTURES", "")


def both(table, output, tools=None, prompt=None, finish="stop"):
    events = symphony.parser(table, tools).parse(output, prompt, finish)
    message = symphony.parser(table, tools).message(output, prompt, finish, 3)
    return events, message


def check_same(events, message):
    choice, output_tokens, reasoning_tokens, calls, malformed = message
    assert choice == chat.message(events, 3)
    f = fold(events)
    assert calls == events[-1].tool_calls
    assert output_tokens == f.output_tokens and reasoning_tokens == f.reasoning_tokens
    assert malformed == sum(len(e.text.text.encode()) for e in events if type(e) is symphony.Malformed)


@settings(max_examples=settings.default.max_examples, deadline=None)
@given(st.sampled_from(symphony.formats()), st.data())
def test_the_fold_says_what_the_events_say(table, data):
    output = data.draw(outputs(table))
    prompt, request_tools = data.draw(prompts(table)), data.draw(tools())
    for finish in ("stop", "length"):
        check_same(*both(table, output, request_tools, prompt, finish))


@settings(max_examples=settings.default.max_examples, deadline=None)
@given(st.sampled_from(symphony.formats()), st.data())
def test_a_counted_whole_output(table, data):
    output = data.draw(outputs(table))
    bounds = synthetic_token_bounds(output)
    delta, = counted_deltas([output], bounds)
    events = symphony.parser(table).parse(delta)
    message = symphony.parser(table).message(delta, choice=3)
    check_same(events, message)
    assert message[1] == len(delta.token_ids)


def test_an_arguments_fragment_without_a_start_is_visible_text_and_nothing_is_fine():
    check_same(*both("qwen3", ""))
    check_same(*both("xlam", '[{"arguments": {"a": 1}}]'))


@pytest.mark.parametrize("text", ["", " \t\n", "\u3000\u2028\x85\xa0", "\x1c", "\u200b", " a ", "\u205f\u2029"])
def test_content_is_none_exactly_when_blank_by_unicode_white_space(text):
    events, message = both("plain", text)
    check_same(events, message)
    assert (message[0]["message"]["content"] is None) == (not text.strip(" \t\n\x0b\x0c\r\x85\xa0\u1680"
                                                                         "\u2000\u2001\u2002\u2003\u2004\u2005"
                                                                         "\u2006\u2007\u2008\u2009\u200a\u2028"
                                                                         "\u2029\u202f\u205f\u3000"))


@pytest.mark.parametrize("finish, calls, said", [("stop", 0, "stop"), ("stop", 1, "tool_calls"), ("length", 1, "length"),
                                                 ("abort", 0, "abort"), ("content_filter", 1, "content_filter")])
def test_finish_reason(finish, calls, said):
    output = '<tool_call>{"name": "f", "arguments": {}}</tool_call>' * calls
    events, message = both("qwen3", output, finish=finish)
    check_same(events, message)
    assert message[0]["finish_reason"] == said


@pytest.mark.parametrize("table, call", [
    ("qwen3", '<tool_call>{"name": "f", "arguments": {"a": %d}}</tool_call>'),
    # a call of tags: its arguments are several fragments (one per parameter)
    ("qwen3_tagged", "<tool_call>\n<function=f>\n<parameter=a>\n%d\n</parameter>\n<parameter=b>\nx\n</parameter>\n"
                     "</function>\n</tool_call>\n"),
])
def test_many_calls_keep_their_ids_and_arguments(table, call):
    events, message = both(table, "".join(call % i for i in range(1200)) + '<tool_call>{"name"')
    check_same(events, message)
    calls = message[0]["message"]["tool_calls"]
    assert [c["id"] for c in calls] == [f"call_{i}" for i in range(len(calls))]
    assert len(calls) >= 1200 and all(c["function"]["arguments"].startswith('{"a": %d' % i)
                                      for i, c in enumerate(calls[:1200]))


def test_message_takes_a_fresh_parser_only():
    p = symphony.parser("plain")
    p.message("a")
    with pytest.raises(symphony.LifecycleError):
        p.message("b")


@pytest.mark.skipif(not FIXTURES, reason="SYMPHONY_FIXTURES is not set")
def test_every_fixture_case():
    for slug in slugs():
        for case in load_cases(slug):
            table, request_tools, prompt, finish = case_setup(case)
            text = "".join(case["output_pieces"])
            check_same(*both(table, text, request_tools, prompt, finish))


@settings(max_examples=settings.default.max_examples, deadline=None)
@given(st.sampled_from(symphony.formats()), st.data())
def test_the_arrow_rows_say_what_the_events_say(table, data):
    """The row the core writes into Arrow's buffers (the batch's as_arrow path) is what
    chat.message says of the events, for every table's generated outputs, counted and not."""
    pytest.importorskip("pyarrow")
    from symphony import batch
    from symphony.parser import ArrowRows, fold_summaries
    texts = data.draw(st.lists(outputs(table), min_size=1, max_size=3))
    prompt, request_tools = data.draw(prompts(table)), data.draw(tools())
    compiled = symphony.parser(table).table
    n = len(texts)
    deltas = [counted_deltas([t], synthetic_token_bounds(t))[0] for t in texts]
    for outputs_of_run in (texts, deltas):
        rows = fold_summaries([compiled] * n, [request_tools] * n, [prompt] * n, list(outputs_of_run),
                              ["length"] * n, into=ArrowRows())
        got = batch._arrow_table(rows)
        got.validate(full=True)
        assert got.schema.equals(batch.arrow_schema())
        for row, output in zip(got.to_pylist(), outputs_of_run):
            events = symphony.parser(table, request_tools).parse(output, prompt, "length")
            choice, f = chat.message(events), fold(events)
            m = choice["message"]
            calls = m["tool_calls"] and [{"id": c["id"], "name": c["function"]["name"],
                                          "arguments": c["function"]["arguments"]} for c in m["tool_calls"]]
            assert row == {"content": m["content"], "reasoning_content": m["reasoning_content"], "tool_calls": calls,
                           "finish_reason": choice["finish_reason"], "output_tokens": f.output_tokens,
                           "reasoning_tokens": f.reasoning_tokens, "error": None,
                           "malformed_bytes": sum(len(e.text.text.encode()) for e in events
                                                  if type(e) is symphony.Malformed)}


@settings(max_examples=settings.default.max_examples, deadline=None)
@given(st.sampled_from(symphony.formats()), st.data())
def test_the_json_lines_say_what_the_events_say(table, data):
    """The JSON line the core writes (symphony parse's) is, byte for byte, what json.dumps writes
    of chat.message's dict of the events, for every table's generated outputs, counted and not."""
    import json
    from symphony.parser import JsonLines, fold_summaries
    texts = data.draw(st.lists(outputs(table), min_size=1, max_size=3))
    prompt, request_tools = data.draw(prompts(table)), data.draw(tools())
    compiled = symphony.parser(table).table
    n = len(texts)
    deltas = [counted_deltas([t], synthetic_token_bounds(t))[0] for t in texts]
    encode = json.JSONEncoder(ensure_ascii=False).encode
    for outputs_of_run in (texts, deltas):
        written = fold_summaries([compiled] * n, [request_tools] * n, [prompt] * n, list(outputs_of_run),
                                 ["length"] * n, into=JsonLines(list(range(n))))
        want = []
        for number, output in enumerate(outputs_of_run):
            choice = chat.message(symphony.parser(table, request_tools).parse(output, prompt, "length"))
            want.append(encode({"line": number, "message": choice["message"],
                                "finish_reason": choice["finish_reason"]}) + "\n")
        assert written.lines()[0].decode("utf-8") == "".join(want)
