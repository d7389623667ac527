"""The Responses API adapter (SPEC §7.2 and our stream): output items, ids and statuses, usage, the
`Response` object, and the promise that every event `Stream` sends is one of the openai SDK's
Responses stream events and that folding them the way the SDK does gives exactly `output`. Checked
on hand-written runs, on every corpus output at several chunkings and finishes, and on the recorded
fixtures when SYMPHONY_FIXTURES is set.
"""
import json
import os
import re
import typing

import pytest
from openai import omit
from openai.lib.streaming.responses._responses import ResponseStreamState
from openai.types.responses import Response, ResponseStreamEvent, ResponseUsage
from pydantic import BaseModel, Field, TypeAdapter

import symphony
from symphony import Delta, End, Prompt
from symphony.adapt import responses
from symphony.events import (
    Content,
    Dropped,
    Finish,
    Malformed,
    Reasoning,
    ReasoningEnd,
    ReasoningStart,
    ToolCallArguments,
    ToolCallEnd,
    ToolCallStart,
)
from symphony.reasons import DropReason, Other
from tests import tiers
from tests.common import chunkings, counted_deltas, new_parser, synthetic_token_bounds
from tests.corpus import all_cases

FIXTURES = os.environ.get("SYMPHONY_FIXTURES", "")
RID = "resp_1"
FINISHES = ("stop", "length", "abort", "content_filter", "error")


def start(i, name="f"):
    return ToolCallStart(i, f"call_{i}", name, f'{{"name": "{name}", "arguments": ')


def args(i, text):
    return ToolCallArguments(i, text, text)


def items_of(events):
    return responses.output(events, RID)["output"]


def brief(events):
    """(type, id, text or arguments, status) per item."""
    out = []
    for item in items_of(events):
        text = item["arguments"] if item["type"] == "function_call" else item["content"][0]["text"]
        out.append((item["type"], item["id"], text, item["status"]))
    return out


# --- SDK validation ----------------------------------------------------------------------------
# The SDK's stream event union names its discriminator in its own annotation, which pydantic does
# not read: as given, every event is tried against ~60 members (100-1000 µs each). The same members
# under a pydantic discriminator accept and reject exactly the same values, at 4 µs a delta.
_UNION, _ = typing.get_args(ResponseStreamEvent)
STREAM_EVENT = TypeAdapter(typing.Annotated[_UNION, Field(discriminator="type")])
RESPONSE = TypeAdapter(Response)
USAGE = TypeAdapter(ResponseUsage)
_VALID = set()


def no_extras(model, where):
    """The SDK models allow unknown keys; ours must all be fields the SDK knows."""
    if isinstance(model, BaseModel):
        assert not model.__pydantic_extra__, f"{where}: fields the SDK does not know: {model.__pydantic_extra__}"
        for name in type(model).model_fields:
            no_extras(getattr(model, name), f"{where}.{name}")
    elif isinstance(model, list):
        for i, x in enumerate(model):
            no_extras(x, f"{where}[{i}]")


def validate(adapter, value):
    """Validates (strict Literals, no unknown fields) once per distinct value: the sequence number
    is set aside (checked as 0, 1, 2, ... by the stream checks), the rest is the key."""
    sequence = value.pop("sequence_number", None)
    key = (adapter is STREAM_EVENT, repr(value))     # our dicts are built in one key order
    if sequence is not None:
        value["sequence_number"] = sequence
    if key in _VALID:
        return
    model = adapter.validate_python(value)
    no_extras(model, value.get("type", "value"))
    _VALID.add(key)


# --- folding a stream the way the SDK does -----------------------------------------------------

def sdk_fold(stream):
    """ResponseStreamState.accumulate_event over dicts: created starts the snapshot, output_item.added
    appends its item at a new output index, content_part.added appends a part, the deltas append
    text to it or to the arguments, output_item.done records the finished item (same identity as
    added), completed may not leave an added item unfinished. The SDK ignores reasoning parts and
    deltas; we fold them the way it folds output text. Also checks that one item is open at a time
    and every event names it. Returns (items from added + deltas, done items, terminal event)."""
    assert [e["sequence_number"] for e in stream] == list(range(len(stream)))
    assert [e["type"] for e in stream[:2]] == ["response.created", "response.in_progress"]
    snapshot, done = {}, {}
    opened = None
    for e in stream[2:-1]:
        kind = e["type"]
        if kind == "response.output_item.added":
            assert opened is None and e["output_index"] == len(snapshot), f"item added while one is open: {e}"
            opened = e["output_index"]
            snapshot[opened] = item = dict(e["item"])
            if "content" in item:
                item["content"] = [dict(part) for part in item["content"]]
            continue
        assert e["output_index"] == opened, f"{kind} for an item that is not open: {e}"
        item = snapshot[opened]
        if kind != "response.output_item.done":
            assert e["item_id"] == item["id"]
        if kind == "response.content_part.added":
            item["content"].append(dict(e["part"]))
        elif kind in ("response.output_text.delta", "response.reasoning_text.delta"):
            part = item["content"][e["content_index"]]
            assert part["type"] == ("output_text" if kind == "response.output_text.delta" else "reasoning_text")
            part["text"] += e["delta"]
        elif kind == "response.function_call_arguments.delta":
            assert item["type"] == "function_call"
            item["arguments"] += e["delta"]
        elif kind in ("response.output_text.done", "response.reasoning_text.done"):
            assert item["content"][e["content_index"]]["text"] == e["text"]
        elif kind == "response.content_part.done":
            assert item["content"][e["content_index"]] == e["part"]
        elif kind == "response.function_call_arguments.done":
            assert item["arguments"] == e["arguments"]
        elif kind == "response.output_item.done":
            assert (e["item"]["type"], e["item"]["id"]) == (item["type"], item["id"]), "item identity changed"
            done[opened] = e["item"]
            opened = None
        else:
            raise AssertionError(f"unexpected stream event {e}")
    assert opened is None, "the stream ended with an item open"
    terminal = stream[-1]
    assert terminal["type"] in ("response.completed", "response.incomplete", "response.failed")
    return [snapshot[i] for i in sorted(snapshot)], [done[i] for i in sorted(done)], terminal


def sdk_state(stream):
    """The SDK's own ResponseStreamState over the stream (slow: a sample only); it raises on any
    event out of its protocol. Returns the response it completes with, or None."""
    state = ResponseStreamState(input_tools=omit, text_format=omit)
    for e in stream:
        state.handle_event(STREAM_EVENT.validate_python(e))
    completed = state._completed_response
    if completed is None:
        return None
    completed = completed.model_dump(mode="json", exclude_unset=True)
    for item in completed["output"]:
        # what the SDK's parse_response adds: no text_format and no strict tools to parse with
        assert item.pop("parsed_arguments", None) is None
        for part in item.get("content") or []:
            assert part.pop("parsed", None) is None
    return completed


def streamed(batches, response_id=RID, usage=None):
    """The Stream's events for event batches (one per parser feed), and all events."""
    s = responses.Stream(response_id, 1700000000, "m")
    out = s.start()
    events = []
    for batch in batches:
        events += batch
        for e in batch:
            out += s.feed(e)
    out += s.close(usage)
    return out, events


def check_stream(stream, events, response_id=RID, usage=None, sample=False):
    """Everything the stream promises, against `output(events)`."""
    for e in stream:
        validate(STREAM_EVENT, e)
    whole = responses.output(events, response_id)
    rebuilt, done, terminal = sdk_fold(stream)
    status = whole["status"]
    assert terminal["type"] == {"completed": "response.completed", "failed": "response.failed"}.get(
        status, "response.incomplete")
    assert terminal["response"] == responses.response(whole, response_id, 1700000000, "m", usage)
    validate(RESPONSE, terminal["response"])
    # the deltas rebuild each finished item, but for the status the added item carries
    assert [dict(r, status=d["status"]) for r, d in zip(rebuilt, done)] == done
    assert all(r["status"] == "in_progress" for r in rebuilt)
    if status in ("in_progress", "failed"):
        # items finished before the response failed (or stopped without a Finish) were sent as
        # they would complete; the response then shows every item in progress (SPEC §7.2)
        assert [dict(d, status="in_progress") for d in done] == whole["output"]
    else:
        assert done == whole["output"]
    if sample:
        completed = sdk_state(stream)
        if terminal["type"] == "response.completed":
            want = RESPONSE.validate_python(terminal["response"]).model_dump(mode="json", exclude_unset=True)
            assert completed == want
        else:
            assert completed is None
    return whole


# --- SPEC §7.2 directly (the oracle for outputs in canonical order) ----------------------------

SPEC_STATUS = {"stop": ("completed", None), "tool_calls": ("completed", None),
               "length": ("incomplete", {"reason": "max_output_tokens"}), "abort": ("cancelled", None)}


def spec_output(events, response_id):
    content, reasoning, calls, finish = "", "", {}, None
    for e in events:
        if type(e) is Content:
            content += e.text
        elif type(e) is Malformed:
            content += e.text.text
        elif type(e) is Reasoning:
            reasoning += e.text
        elif type(e) is ToolCallStart:
            calls[e.index] = [e.id, e.name, ""]
        elif type(e) is ToolCallArguments:
            if e.index in calls:
                calls[e.index][2] += e.json
            else:
                content += e.json
        elif type(e) is Finish:
            finish = e
    if finish is None:
        status, details = "in_progress", None
    elif type(finish.reason) is Other:
        status, details = ("failed" if finish.reason.text in ("failed", "error") else "completed"), None
    else:
        status, details = SPEC_STATUS[finish.reason.value]
    item_status = "in_progress" if status in ("in_progress", "failed") else "completed"
    items = []
    if reasoning:
        items.append({"type": "reasoning", "id": f"rs_{response_id}", "summary": [],
                      "content": [{"type": "reasoning_text", "text": reasoning}], "status": item_status})
    if content.strip(" \t\n\r\x0b\x0c\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
                     "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"):
        items.append({"type": "message", "id": f"msg_{response_id}", "role": "assistant",
                      "content": [{"type": "output_text", "text": content, "annotations": []}],
                      "status": item_status})
    for id, name, arguments in calls.values():
        call_status = item_status
        if call_status == "completed" and arguments:
            try:
                json.loads(arguments)
            except ValueError:
                call_status = "incomplete"
        items.append({"type": "function_call", "id": id, "call_id": id, "name": name, "arguments": arguments,
                      "status": call_status})
    return {"output": items, "status": status, "incomplete_details": details}


def canonical(events):
    """Reasoning (one region), then visible text, then calls each with its own arguments: the
    order in which the stream's items are SPEC §7.2's items."""
    letters, last_call = [], None
    for e in events:
        kind = type(e)
        if kind is Reasoning and e.text:
            letters.append("r")
        elif kind is ReasoningEnd:
            letters.append("e")
        elif (kind is Content and e.text) or (kind is Malformed and e.text.text):
            letters.append("t")
        elif kind is ToolCallStart:
            letters.append("c")
            last_call = e.index
        elif kind is ToolCallArguments and e.json:
            letters.append("a" if e.index == last_call else "t" if last_call is None else "x")
    return re.fullmatch(r"r*e*t*(?:ca*)*", "".join(letters)) is not None


# --- output: items, ids, order -----------------------------------------------------------------

def test_spec_example():
    events = symphony.parse("qwen3", '<think>\nplan\n</think>\n\nHi<tool_call>\n{"name": "f", "arguments": '
                                     '{"a": 1}}\n</tool_call>')
    assert responses.output(events, "abc") == {
        "output": [
            {"type": "reasoning", "id": "rs_abc", "summary": [],
             "content": [{"type": "reasoning_text", "text": "\nplan\n"}], "status": "completed"},
            {"type": "message", "id": "msg_abc", "role": "assistant",
             "content": [{"type": "output_text", "text": "\n\nHi", "annotations": []}], "status": "completed"},
            {"type": "function_call", "id": "call_0", "call_id": "call_0", "name": "f", "arguments": '{"a": 1}',
             "status": "completed"},
        ],
        "status": "completed", "incomplete_details": None}
    assert responses.output(events, "abc") == spec_output(events, "abc")


def test_items_in_the_order_they_begin_with_numbered_ids():
    events = [ReasoningStart(), Reasoning("a"), ReasoningEnd(), Content("x"), start(0), args(0, "{}"),
              ToolCallEnd(0, "}"), ReasoningStart(), Reasoning("b"), ReasoningEnd(), Content("y"), start(1),
              ToolCallEnd(1, ""), Content("z"), Finish("stop", 2, 0)]
    assert brief(events) == [
        ("reasoning", "rs_resp_1", "a", "completed"), ("message", "msg_resp_1", "x", "completed"),
        ("function_call", "call_0", "{}", "completed"), ("reasoning", "rs_resp_1_1", "b", "completed"),
        ("message", "msg_resp_1_1", "y", "completed"), ("function_call", "call_1", "", "completed"),
        ("message", "msg_resp_1_2", "z", "completed")]


def test_one_item_open_at_a_time():
    # reasoning is interrupted by text and then resumes: a second reasoning item
    events = [ReasoningStart(), Reasoning("a"), Content("x"), Reasoning("b"), Content(" "), Content("y")]
    assert brief(events) == [("reasoning", "rs_resp_1", "a", "in_progress"),
                             ("message", "msg_resp_1", "x", "in_progress"),
                             ("reasoning", "rs_resp_1_1", "b", "in_progress"),
                             ("message", "msg_resp_1_1", " y", "in_progress")]


def test_whitespace_waits_for_a_message():
    assert brief([Content("\n\n"), Malformed(" ", Other("x")), Content("Hi")]) == [
        ("message", "msg_resp_1", "\n\n Hi", "in_progress")]
    assert brief([Content("\n\n"), Content("\u3000"), Finish("stop")]) == []
    # whitespace while a message is open goes out at once
    assert brief([Content("Hi"), Content("\n"), Content("there")]) == [
        ("message", "msg_resp_1", "Hi\nthere", "in_progress")]
    # whitespace before a reasoning or call item is not shown, nor whitespace that no text follows
    assert brief([Content("\n"), start(0), ToolCallEnd(0, ""), Content("\n"), Content("x"), Content(" "),
                  start(1), ToolCallEnd(1, ""), Content("\n")]) == [
        ("function_call", "call_0", "", "in_progress"), ("message", "msg_resp_1", "\nx ", "in_progress"),
        ("function_call", "call_1", "", "in_progress")]
    # \x1c is not whitespace to Rust (SPEC's blank rule)
    assert brief([Content("\x1c")]) == [("message", "msg_resp_1", "\x1c", "in_progress")]


def test_arguments_for_a_call_that_is_not_open_show_as_text():
    events = [Content("a"), args(3, '{"x": 1}'), start(0), args(0, "{"), start(1), args(0, "}"), args(1, "[]"),
              ToolCallEnd(1, ""), args(1, "!"), ToolCallEnd(0, ""), Finish("stop", 2, 0)]
    # "}" is for call_0 while call_1 is open: text, which begins a message (and so ends call_1)
    assert brief(events) == [
        ("message", "msg_resp_1", 'a{"x": 1}', "completed"), ("function_call", "call_0", "{", "incomplete"),
        ("function_call", "call_1", "", "completed"), ("message", "msg_resp_1_1", "}[]!", "completed")]
    assert brief([start(0), start(1), args(0, "}"), args(1, "[]")]) == [
        ("function_call", "call_0", "", "in_progress"), ("function_call", "call_1", "", "in_progress"),
        ("message", "msg_resp_1", "}[]", "in_progress")]


def test_ends_close_only_their_own_item():
    events = [ReasoningStart(), Reasoning("a"), ToolCallEnd(0, ""), Reasoning("b"), ReasoningEnd(),
              Reasoning("c"), start(0), ReasoningEnd(), args(0, "{}"), ToolCallEnd(5, ""), args(0, " "),
              ToolCallEnd(0, ""), args(0, "x")]
    assert brief(events) == [("reasoning", "rs_resp_1", "ab", "in_progress"),
                             ("reasoning", "rs_resp_1_1", "c", "in_progress"),
                             ("function_call", "call_0", "{} ", "in_progress"),
                             ("message", "msg_resp_1", "x", "in_progress")]


@pytest.mark.parametrize("event", [
    ReasoningStart(), ReasoningEnd(), ToolCallEnd(0, "}"), Dropped("<x>", DropReason.WRAPPER),
    Dropped(symphony.Text("", 2), DropReason.CONTROL_TOKEN), Content(""), Content("", 3), Reasoning(""),
    Malformed("", Other("x")), ToolCallArguments(0, "", ""), ToolCallArguments(0, "", "  "),
])
def test_events_that_show_as_nothing(event):
    assert items_of([event]) == []
    s = responses.Stream(RID, 0, "m")
    s.start()
    assert s.feed(event) == []


# --- statuses ----------------------------------------------------------------------------------

@pytest.mark.parametrize("finish,status,details,items", [
    (None, "in_progress", None, "in_progress"),
    (Finish("stop", 1, 0), "completed", None, "completed"),
    (Finish("tool_calls", 1, 0), "completed", None, "completed"),
    (Finish("length", 1, 0), "incomplete", {"reason": "max_output_tokens"}, "completed"),
    (Finish("abort", 1, 0), "cancelled", None, "completed"),
    (Finish(Other("failed"), 1, 0), "failed", None, "in_progress"),
    (Finish(Other("error"), 1, 0), "failed", None, "in_progress"),
    (Finish(Other("content_filter"), 1, 0), "completed", None, "completed"),
    (Finish(Other("Error"), 1, 0), "completed", None, "completed"),
])
def test_statuses(finish, status, details, items):
    runs = {"{}": items, "": items, '{"a": 1': "incomplete" if items == "completed" else items,
            "[1] [2]": "incomplete" if items == "completed" else items, " 3 ": items}
    for arguments, call_status in runs.items():
        events = [Reasoning("r"), Content("x"), start(0), args(0, arguments), ToolCallEnd(0, "")]
        events += [finish] if finish is not None else []
        out = responses.output(events, RID)
        assert (out["status"], out["incomplete_details"]) == (status, details)
        assert [i["status"] for i in out["output"]] == [items, items, call_status]
        assert out == spec_output(events, RID)
        stream, _ = streamed([events])
        check_stream(stream, events, sample=True)


def test_a_stream_that_fails_after_an_item_finished():
    events = [Content("x"), start(0), args(0, "{"), Finish(Other("failed"), 1, 0)]
    stream, _ = streamed([events])
    done = [e["item"]["status"] for e in stream if e["type"] == "response.output_item.done"]
    # the message finished before the Finish said the response failed; the call ended with it
    assert done == ["completed", "in_progress"]
    assert stream[-1]["type"] == "response.failed"
    assert [i["status"] for i in stream[-1]["response"]["output"]] == ["in_progress", "in_progress"]


# --- the stream --------------------------------------------------------------------------------

def test_stream_events():
    events = [ReasoningStart(), Reasoning("p"), Reasoning("q"), ReasoningEnd(), Content("\n"), Content("Hi"),
              start(0, "g"), args(0, '{"a": '), args(0, "1}"), ToolCallEnd(0, "}"), Finish("stop", 1, 0)]
    stream, _ = streamed([events], usage=responses.usage([Content("x", 1)], 3))
    assert [(e["type"], e.get("output_index"), e.get("delta")) for e in stream] == [
        ("response.created", None, None), ("response.in_progress", None, None),
        ("response.output_item.added", 0, None), ("response.content_part.added", 0, None),
        ("response.reasoning_text.delta", 0, "p"), ("response.reasoning_text.delta", 0, "q"),
        ("response.reasoning_text.done", 0, None), ("response.content_part.done", 0, None),
        ("response.output_item.done", 0, None),
        ("response.output_item.added", 1, None), ("response.content_part.added", 1, None),
        ("response.output_text.delta", 1, "\nHi"), ("response.output_text.done", 1, None),
        ("response.content_part.done", 1, None), ("response.output_item.done", 1, None),
        ("response.output_item.added", 2, None), ("response.function_call_arguments.delta", 2, '{"a": '),
        ("response.function_call_arguments.delta", 2, "1}"), ("response.function_call_arguments.done", 2, None),
        ("response.output_item.done", 2, None), ("response.completed", None, None)]
    assert stream[2]["item"] == {"type": "reasoning", "id": "rs_resp_1", "summary": [], "content": [],
                                 "status": "in_progress"}
    assert stream[9]["item"] == {"type": "message", "id": "msg_resp_1", "role": "assistant", "content": [],
                                 "status": "in_progress"}
    assert stream[15]["item"] == {"type": "function_call", "id": "call_0", "call_id": "call_0", "name": "g",
                                  "arguments": "", "status": "in_progress"}
    assert stream[11] == {"type": "response.output_text.delta", "content_index": 0, "delta": "\nHi",
                          "logprobs": [], "item_id": "msg_resp_1", "output_index": 1, "sequence_number": 11}
    assert stream[0]["response"]["output"] == [] and stream[0]["response"]["status"] == "in_progress"
    assert stream[-1]["response"]["usage"] == {
        "input_tokens": 3, "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
        "output_tokens": 1, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 4}
    check_stream(stream, events, usage=stream[-1]["response"]["usage"], sample=True)


@pytest.mark.parametrize("finish,terminal", [
    ("stop", "response.completed"), ("length", "response.incomplete"), ("abort", "response.incomplete"),
    ("content_filter", "response.completed"), ("error", "response.failed"), (None, "response.incomplete")])
def test_terminal_event(finish, terminal):
    events = symphony.parse("qwen3", "Hi", finish=finish or "stop")
    if finish is None:
        events = events[:-1]
    stream, _ = streamed([events])
    assert stream[-1]["type"] == terminal
    check_stream(stream, events, sample=True)


def test_close_without_events():
    stream, _ = streamed([])
    assert [e["type"] for e in stream] == ["response.created", "response.in_progress", "response.incomplete"]
    assert stream[-1]["response"]["output"] == [] and stream[-1]["response"]["status"] == "in_progress"
    check_stream(stream, [], sample=True)


# --- usage and the Response object -------------------------------------------------------------

def test_usage():
    assert responses.usage([Content("x"), Finish("stop")], 5) is None
    counted = [Dropped(symphony.Text("<think>", 1), DropReason.WRAPPER), ReasoningStart(),
               Reasoning("plan", 2), ReasoningEnd(), Content("Hi", 1),
               Finish("stop", 0, 2)]
    u = responses.usage(counted, 7)
    assert u == {"input_tokens": 7, "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                 "output_tokens": 4, "output_tokens_details": {"reasoning_tokens": 2}, "total_tokens": 11}
    validate(USAGE, u)
    # one uncounted run leaves the whole count out
    assert responses.usage(counted[:-1] + [Content("x"), counted[-1]], 7) is None
    # no event that carries a count: unknown, not zero
    assert responses.usage([], 2) is None


def test_response_object():
    out = responses.output([Content("Hi"), Finish("length", 0, 0)], "r9")
    r = responses.response(out, "r9", 12, "my-model")
    assert r == {"id": "r9", "object": "response", "created_at": 12, "model": "my-model", "status": "incomplete",
                 "error": None, "incomplete_details": {"reason": "max_output_tokens"}, "instructions": None,
                 "output": out["output"], "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
                 "usage": None}
    validate(RESPONSE, r)
    assert Response.model_validate(r).output[0].content[0].text == "Hi"


# --- every corpus output -----------------------------------------------------------------------

def batches_of(parser, pieces, prompt, finish, counted=None):
    batches = [parser.feed(Prompt(prompt))] if prompt is not None else []
    for delta in counted if counted is not None else [Delta(p) for p in pieces]:
        batches.append(parser.feed(delta))
    batches.append(parser.feed(End(finish)))
    return batches


CASES = all_cases()
TABLES = sorted({table for table, _ in CASES})
SAMPLE_EVERY = 97       # the SDK's own ResponseStreamState (~15 ms a stream) on every 97th output


@pytest.mark.parametrize("table", TABLES)
def test_corpus(table):
    canonical_runs = 0
    cases = tiers.sample([case for t, case in CASES if t == table], tiers.FAST_CORPUS_CASES, "responses", table)
    for n, case in enumerate(cases):
        whole = None
        for plan, pieces in chunkings(case.output, every_split_up_to=24, seeds=2):
            finishes = FINISHES if plan == "whole" else ("stop",)
            for finish in finishes:
                stream, events = streamed(batches_of(new_parser(table, case.tools), pieces, case.prompt, finish))
                out = check_stream(stream, events, sample=plan == "whole" and n % SAMPLE_EVERY == 0)
                if finish == "stop":
                    # every chunking shows the same items
                    assert whole is None or out == whole, f"{case.name} {plan}"
                    whole = out
                if canonical(events):
                    canonical_runs += 1
                    assert out == spec_output(events, RID), f"{case.name} {plan} {finish}"
        # counted, the usage carries the output tokens; uncounted, none
        bounds = synthetic_token_bounds(case.output)
        for plan, pieces in (("whole", [case.output]), ("character by character", list(case.output) or [""])):
            batches = batches_of(new_parser(table, case.tools), pieces, case.prompt, "stop",
                                 counted_deltas(pieces, bounds))
            events = [e for b in batches for e in b]
            u = responses.usage(events, 10)
            assert u["output_tokens"] == len(bounds) and u["total_tokens"] == 10 + len(bounds)
            assert u["output_tokens_details"]["reasoning_tokens"] == events[-1].reasoning_tokens
            validate(USAGE, u)
            stream, _ = streamed(batches, usage=u)
            check_stream(stream, events, usage=u)
        if case.output:     # (no text at all is counted whether or not spans came: zero tokens)
            assert responses.usage(symphony.parse(table, case.output, tools=case.tools, prompt=case.prompt),
                                   10) is None
    assert canonical_runs > 0, f"{table}: no output in canonical order"


# --- recorded fixtures -------------------------------------------------------------------------

def fixture_slugs():
    if not FIXTURES or not os.path.isdir(FIXTURES):
        return []
    return sorted(f[: -len(".jsonl")] for f in os.listdir(FIXTURES) if f.endswith(".jsonl"))


@pytest.mark.skipif(not FIXTURES, reason="SYMPHONY_FIXTURES is not set (CI: ../shared/fixtures/bellwether)")
@pytest.mark.parametrize("slug", fixture_slugs() or ["(no fixtures)"])
def test_fixture(slug):
    from symphony.models import for_model
    from symphony.replay import replay_tokens
    with open(os.path.join(FIXTURES, slug + ".jsonl"), encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    try:
        for_model(cases[0]["model"])
    except KeyError:
        pytest.skip(f"{slug}: no table for {cases[0]['model']}")
    for case in cases:
        model = for_model(case["model"], case.get("request", {}).get("chat_template_kwargs"))
        table = model.table().compile()
        tools = case.get("request", {}).get("tools") or case.get("tools") or None
        text = case["reference"]["text"]
        prompt = model.thought_tail
        whole = None
        for plan, pieces in chunkings(text, every_split_up_to=24, seeds=2):
            for finish in (FINISHES if plan == "whole" else ("stop",)):
                stream, events = streamed(batches_of(symphony.parser(table, tools), pieces, prompt, finish))
                out = check_stream(stream, events, sample=plan == "whole" and finish == "stop")
                if finish == "stop":
                    assert whole is None or out == whole, f"{case['id']} {plan}"
                    whole = out
                if canonical(events):
                    assert out == spec_output(events, RID), f"{case['id']} {plan} {finish}"
        # the recorded tokens: counted, the usage is what they add up to
        pieces, ids = case["output_pieces"], case["output_ids"]
        for sizes in ([len(ids)], [1] * len(ids)):
            events = replay_tokens(symphony.parser(table, tools), pieces, ids, sizes, prompt, "stop")
            u = responses.usage(events, 0)
            assert u is not None and u["output_tokens"] == len(ids)
            stream, _ = streamed([events], usage=u)
            check_stream(stream, events, usage=u)
