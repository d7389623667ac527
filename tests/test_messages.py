"""The Anthropic Messages adapter (SPEC §7.3): every rule of the content-block `Stream`, the whole
message as the fold of the stream, and, for every corpus output and recorded fixture at several
cut plans and finishes, that every stream event (with the envelope) validates as anthropic's
`RawMessageStreamEvent`, the whole message as `anthropic.types.Message`, and that the SDK's own
accumulation of the stream (`accumulate_event`) rebuilds exactly the whole message.

Where the stream's block order says more than SPEC §7.3's whole fold (text after a call, a second
thought, whitespace after a block, cut tool input, arguments that are no object), the stream
wins; `spec_output` below is SPEC's fold, and equals ours on outputs in canonical order.
"""
import json
import os

import pytest
from anthropic.lib.streaming._messages import accumulate_event
from anthropic.types import Message, RawMessageStreamEvent
from jiter import from_json
from pydantic import TypeAdapter

import symphony
from symphony import End, Prompt
from symphony.adapt import messages
from symphony.adapt.fold import fold
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
from symphony.models import for_model
from symphony.reasons import DropReason, MalformedReason, Other
from symphony.replay import replay_tokens
from symphony.text import is_blank
from tests import tiers
from tests.common import chunkings, counted_deltas, new_parser, replay, synthetic_token_bounds
from tests.corpus import all_cases
from tests.oracles.json_strict_prefix import strict_prefix_end

STREAM_EVENTS = TypeAdapter(list[RawMessageStreamEvent])
FINISHES = ("stop", "length", "abort", "content_filter")
FIXTURES = os.environ.get("SYMPHONY_FIXTURES", "")
needs_fixtures = pytest.mark.skipif(
    not FIXTURES, reason="SYMPHONY_FIXTURES is not set (CI: ../shared/fixtures/bellwether)")


def start(i, name="f"):
    return ToolCallStart(i, f"call_{i}", name, f'{{"name": "{name}", "arguments": ')


def args(i, text):
    return ToolCallArguments(i, text, text)


def feed_all(events):
    stream = messages.Stream()
    out = []
    for e in events:
        out += stream.feed(e)
    return stream, out


def block_start(index, block):
    return {"type": "content_block_start", "index": index, "content_block": block}


def delta(index, kind, key, text):
    return {"type": "content_block_delta", "index": index, "delta": {"type": kind, key: text}}


def text_delta(index, text):
    return delta(index, "text_delta", "text", text)


def stop(index):
    return {"type": "content_block_stop", "index": index}


TEXT = {"type": "text", "text": ""}
THINKING = {"type": "thinking", "thinking": "", "signature": ""}


def tool(i, name="f"):
    return {"type": "tool_use", "id": f"toolu_{i}", "name": name, "input": {}}


# --- SPEC §7.3's whole fold, written from the SPEC alone -----------------------------------------

def spec_output(events):
    f = fold(events)
    content = []
    if f.reasoning:
        content.append({"type": "thinking", "thinking": f.reasoning, "signature": ""})
    if not is_blank(f.content):
        content.append({"type": "text", "text": f.content})
    for call in f.calls.values():
        try:
            value = json.loads(call.arguments)
        except ValueError:
            value = {}
        content.append({"type": "tool_use", "id": messages.tool_use_id(call.id), "name": call.name, "input": value})
    return {"content": content, "stop_reason": messages.stop_reason(f.finish)}


def canonical(events):
    """The events show as SPEC's block order: one thought, then text, then calls one after another,
    each call's arguments a whole JSON object (or none)."""
    f = fold(events)
    text_counts = not is_blank(f.content)
    phase = 0          # 0 thought, 1 text, 2 calls
    thought_ended = False
    open_call = None
    for e in events:
        kind = type(e)
        if kind is Reasoning and e.text:
            if phase > 0 or thought_ended:
                return False
        elif kind is ReasoningEnd:
            thought_ended = True
        elif kind is Content or kind is Malformed or (kind is ToolCallArguments and e.index not in f.calls):
            text = e.json if kind is ToolCallArguments else e.text if kind is Content else e.text.text
            if text and text_counts:
                if phase > 1:
                    return False
                phase = 1
        elif kind is ToolCallStart:
            if open_call is not None:
                return False
            phase, open_call = 2, e.index
        elif kind is ToolCallArguments and e.json and e.index != open_call:
            return False
        elif kind is ToolCallEnd:
            open_call = None
    for call in f.calls.values():
        if call.arguments:
            try:
                if type(json.loads(call.arguments)) is not dict:
                    return False
            except ValueError:
                return False
            # a number no decoder keeps (1e999) ends the input: no whole object
            if strict_prefix_end(call.arguments, bounded=True, ended=True) < len(call.arguments.encode()):
                return False
    return True


# --- the SDK's accumulation ---------------------------------------------------------------------

def envelope(stream_events, stop_reason, input_tokens=3, output_tokens=5):
    return ([messages.message_start("msg_1", "m", input_tokens)] + stream_events
            + [messages.message_delta(stop_reason, output_tokens), messages.message_stop()])


def sdk_message(wire):
    """The Message anthropic's stream accumulator builds from the wire events (validated as
    `RawMessageStreamEvent`s, as the SDK reads them off the stream)."""
    snapshot = None
    buffers = {}
    for e in STREAM_EVENTS.validate_python(wire):
        snapshot = accumulate_event(event=e, current_snapshot=snapshot, json_bufs=buffers)
    return Message.model_validate(snapshot.to_dict())


def check_events(events, where, input_tokens=3, output_tokens=5):
    """Stream, whole and SDK accumulation agree for one run of events."""
    stream, shown = feed_all(events)
    shown += stream.close()
    whole = messages.output(events)
    wire = envelope(shown, stream.stop_reason, input_tokens, output_tokens)
    body = messages.message(whole, "msg_1", "m", {"input_tokens": input_tokens, "output_tokens": output_tokens})
    want = Message.model_validate(body)
    got = sdk_message(wire)
    assert got == want, f"{where}: the SDK accumulates\n  {got}\nthe whole message is\n  {want}"
    assert messages.blocks(shown) == whole["content"]
    if canonical(events):
        assert whole == spec_output(events), f"{where}: canonical order, but SPEC's fold differs"


# --- stop reasons, ids ------------------------------------------------------------------------

@pytest.mark.parametrize("finish,want", [
    (Finish("stop", 0, 0), "end_turn"), (Finish("stop", 2, 0), "tool_use"),
    (Finish("length", 0, 0), "max_tokens"), (Finish("length", 1, 0), "max_tokens"),
    (Finish("tool_calls", 0, 0), "tool_use"), (Finish("tool_calls", 1, 0), "tool_use"),
    (Finish("abort", 0, 0), "end_turn"), (Finish("abort", 1, 0), "tool_use"),
    (Finish(Other("content_filter"), 0, 0), "end_turn"), (Finish(Other("content_filter"), 1, 0), "tool_use"),
    (Finish(Other("length"), 0, 0), "end_turn"), (Finish(Other("tool_calls"), 0, 0), "end_turn"),
    (None, None),
])
def test_stop_reason(finish, want):
    events = [Content("x")] + ([finish] if finish is not None else [])
    assert messages.output(events)["stop_reason"] == want
    stream, _ = feed_all(events)
    assert stream.stop_reason == want


@pytest.mark.parametrize("call_id,want", [("call_0", "toolu_0"), ("call_abc", "toolu_abc"), ("call_", "toolu_"),
                                          ("toolu_1", "toolu_1"), ("fc_1", "fc_1"), ("xcall_1", "xcall_1"),
                                          ("", "")])
def test_tool_use_id(call_id, want):
    assert messages.tool_use_id(call_id) == want


# --- Stream rules (SPEC §7.3) -------------------------------------------------------------------

def test_text_block():
    _, out = feed_all([Content("Hi"), Content(" there"), Malformed("!", Other("x")), Finish("stop")])
    assert out == [block_start(0, TEXT), text_delta(0, "Hi"), text_delta(0, " there"), text_delta(0, "!"), stop(0)]


def test_whitespace_before_a_text_block_is_held_and_sent_with_the_text():
    stream, out = feed_all([Content("\n\n"), Dropped("<x>", DropReason.WRAPPER), Content(" "), Content("Hi")])
    assert out == [block_start(0, TEXT), text_delta(0, "\n\n Hi")]
    # whitespace while the text block is open goes straight out
    assert stream.feed(Content("\n")) == [text_delta(0, "\n")]


def test_held_whitespace_is_dropped_at_finish_and_at_close():
    stream, out = feed_all([Content("\n"), Malformed("  ", MalformedReason.UNTERMINATED_REGION)])
    assert out == []
    assert stream.feed(Finish("stop")) == []
    assert stream.stop_reason == "end_turn"
    stream, _ = feed_all([Content("\n")])
    assert stream.close() == []
    assert messages.output([Content("  "), Finish("stop")]) == {"content": [], "stop_reason": "end_turn"}


def test_held_whitespace_is_dropped_when_another_block_starts():
    _, out = feed_all([Content("\n"), Reasoning("r"), Content("\u3000"), start(0), Content("x")])
    assert out == [block_start(0, THINKING), delta(0, "thinking_delta", "thinking", "r"), stop(0),
                   block_start(1, tool(0)), stop(1), block_start(2, TEXT), text_delta(2, "x")]


def test_empty_texts_show_nothing():
    for e in (Content(""), Content("", 2), Reasoning(""), Malformed("", Other("x")), args(0, ""),
              ReasoningStart(), ReasoningEnd(), Dropped("<t>", DropReason.CONTROL_TOKEN), ToolCallEnd(3, "")):
        stream, out = feed_all([e])
        assert out == [] and stream.close() == [], e


def test_thinking_block_and_reasoning_end():
    stream, out = feed_all([ReasoningStart(), Reasoning("a"), Reasoning("b"), ReasoningEnd()])
    assert out == [block_start(0, THINKING), delta(0, "thinking_delta", "thinking", "a"),
                   delta(0, "thinking_delta", "thinking", "b"), stop(0)]
    assert stream.feed(ReasoningEnd()) == []
    # a ReasoningEnd stops only a thinking block
    stream, _ = feed_all([Content("x")])
    assert stream.feed(ReasoningEnd()) == []


def test_block_switching_stops_the_open_block_and_counts_indexes():
    _, out = feed_all([Reasoning("r"), Content("t"), Reasoning("s"), start(0), args(0, "{}"), ToolCallEnd(0, ""),
                       start(1, "g"), Content("u"), Finish("stop", 2)])
    assert out == [
        block_start(0, THINKING), delta(0, "thinking_delta", "thinking", "r"), stop(0),
        block_start(1, TEXT), text_delta(1, "t"), stop(1),
        block_start(2, THINKING), delta(2, "thinking_delta", "thinking", "s"), stop(2),
        block_start(3, tool(0)), delta(3, "input_json_delta", "partial_json", "{}"), stop(3),
        block_start(4, tool(1, "g")), stop(4),
        block_start(5, TEXT), text_delta(5, "u"), stop(5),
    ]


def test_arguments_of_the_open_call_are_input_json():
    _, out = feed_all([start(0), args(0, '{"a": '), args(0, "1}"), ToolCallEnd(0, "}")])
    # (a member waits until its value begins: a key with no value would not close into JSON)
    assert out == [block_start(0, tool(0)), delta(0, "input_json_delta", "partial_json", "{"),
                   delta(0, "input_json_delta", "partial_json", '"a": 1}'), stop(0)]


def test_arguments_of_a_call_that_is_not_open_show_as_text():
    _, out = feed_all([start(0), Content("x"), args(0, '{"a": 1}'), args(5, "[]"), ToolCallEnd(0, "")])
    assert out == [block_start(0, tool(0)), stop(0), block_start(1, TEXT), text_delta(1, "x"),
                   text_delta(1, '{"a": 1}'), text_delta(1, "[]")]
    _, out = feed_all([args(2, "{}"), start(2)])
    assert out == [block_start(0, TEXT), text_delta(0, "{}"), stop(0), block_start(1, tool(2))]


def test_arguments_that_are_no_object_show_as_text():
    _, out = feed_all([start(0), args(0, "\n "), args(0, "[1"), args(0, "]"), ToolCallEnd(0, ""), Finish("stop", 1)])
    assert out == [block_start(0, tool(0)), stop(0), block_start(1, TEXT), text_delta(1, "\n [1"),
                   text_delta(1, "]"), stop(1)]
    assert messages.output([start(0), args(0, '"s"'), Finish("stop", 1)])["content"] == [
        {**tool(0), "input": {}}, {"type": "text", "text": '"s"'}]


def test_arguments_are_input_json_up_to_the_first_byte_a_strict_reader_refuses():
    # a trailing comma: `{"a": 1,` is strict JSON so far, `}` is not; the rest of the call is text
    # (a number waits for its end: a decoder may not keep it)
    _, out = feed_all([start(0), args(0, '{"a": 1'), args(0, ",}"), args(0, " more"), ToolCallEnd(0, "}"),
                       Finish("stop", 1)])
    assert out == [block_start(0, tool(0)), delta(0, "input_json_delta", "partial_json", '{"a": '),
                   delta(0, "input_json_delta", "partial_json", "1,"), stop(0), block_start(1, TEXT),
                   text_delta(1, "}"), text_delta(1, " more"), stop(1)]
    assert messages.output([start(0), args(0, '{"a": 1,}'), Finish("stop", 1)])["content"] == [
        {**tool(0), "input": {"a": 1}}, {"type": "text", "text": "}"}]
    # a word waits until the reader has judged it: refused, it is text from its first letter
    _, out = feed_all([start(0), args(0, '{"a": tr'), args(0, 'ux}')])
    assert out == [block_start(0, tool(0)), delta(0, "input_json_delta", "partial_json", "{"),
                   delta(0, "input_json_delta", "partial_json", '"a": '), stop(0),
                   block_start(1, TEXT), text_delta(1, "tr"), text_delta(1, "ux}")]
    whole = messages.output([start(0), args(0, '{"a": tr'), args(0, 'ux}'), Finish("stop", 1)])["content"]
    assert whole == [{**tool(0), "input": {}}, {"type": "text", "text": "trux}"}]
    # held whitespace keeps its place after the bytes that came before it
    whole = messages.output([start(0), args(0, '{"a": tr'), Content(" "), args(0, 'ux}'), Content("!"),
                             Finish("stop", 1)])["content"]
    assert whole == [{**tool(0), "input": {}}, {"type": "text", "text": "tr ux}!"}]
    whole = messages.output([start(0), args(0, '{"a": 1e999'), Content(" "), ToolCallEnd(0, ""), Content("!"),
                             Finish("stop", 1)])["content"]
    assert whole == [{**tool(0), "input": {}}, {"type": "text", "text": "1e999 !"}]
    # Unicode whitespace, raw control characters, unknown escapes, bad numbers: each cut where it begins
    for text, kept in [('{"a":\u00a01}', '{"a":'), ('{"a": "x\ny"}', '{"a": "x'), ('{"a": "\\q"}', '{"a": "'),
                       ('{"a": 01}', '{"a": 0'), ('{"a": 1.}', '{"a": 1.')]:
        content = messages.output([start(0), args(0, text), Finish("stop", 1)])["content"]
        assert content[1] == {"type": "text", "text": text[len(kept):]}, text


# Numbers a JSON decoder cannot keep (README, wire adapters): by the arguments, the part kept as input.
UNKEPT_NUMBERS = [
    ('{"a": 1, "b": 1e999, "c": 2}', '{"a": 1, "b": '),
    ('{"b": -1e999}', '{"b": '),
    ('{"b": 1.8e308}', '{"b": '),
    ('{"b": [0.1797693134862315808e309]}', '{"b": ['),          # the first value that rounds to infinity
    ('{"b": ' + "1" * 310 + ".0}", '{"b": '),
    ('{"b": 0.' + "0" * 400 + "1e711}", '{"b": '),                 # 1e310
    ('{"a": "x", "b": ' + "9" * 4301 + ', "c": 2}', '{"a": "x", "b": '),
    ('{"b": -' + "1" * 4301 + ".5}", '{"b": '),
    ('{"b": 1e999', '{"b": '),                                  # cut: the number at the end counts
]
KEPT_NUMBERS = ['{"b": 1.7976931348623157e308}', '{"b": [0.1797693134862315807e309]}', '{"b": 1e-999}',
                '{"b": -0.0}', '{"b": ' + "9" * 4300 + "}", '{"b": 0.' + "0" * 400 + "1e708}",
                '{"b": 1' + "0" * 200 + "e-200}", '{"b": "1e999"}', '{"b": 12', '{"b": 1e30',
                '{"b": ' + "1" * 310 + "}"]


def test_a_number_no_decoder_keeps_ends_the_input_where_it_begins():
    # a double's range (for a number with a fraction or an exponent) and 4,300 integer digits
    # (Python's int() and the SDK's reader): beyond them a decoder gives infinity (which no JSON
    # encoder writes) or raises on the whole input
    for text, kept in UNKEPT_NUMBERS:
        for plan, pieces in chunkings(text):
            events = [start(0)] + [args(0, p) for p in pieces] + [ToolCallEnd(0, ""), Finish("stop", 1)]
            content = messages.output(events)["content"]
            assert content == [{**tool(0), "input": messages.tool_input(kept)},
                               {"type": "text", "text": text[len(kept):]}], (text[:40], plan)
            json.dumps(content, allow_nan=False)
        check_events([start(0), args(0, text), ToolCallEnd(0, ""), Finish("stop", 1)], text[:40])
    for text in KEPT_NUMBERS:
        for plan, pieces in chunkings(text):
            events = [start(0)] + [args(0, p) for p in pieces] + [ToolCallEnd(0, ""), Finish("stop", 1)]
            content = messages.output(events)["content"]
            assert content == [{**tool(0), "input": messages.tool_input(text)}], (text[:40], plan)
            json.dumps(content, allow_nan=False)
        check_events([start(0), args(0, text), ToolCallEnd(0, ""), Finish("stop", 1)], text[:40])


def test_leading_whitespace_of_arguments_is_held_until_they_begin():
    stream, out = feed_all([start(0), args(0, " "), args(0, "\n")])
    assert out == [block_start(0, tool(0))]
    assert stream.feed(args(0, '{"a"')) == [delta(0, "input_json_delta", "partial_json", " \n{")]
    # whitespace-only arguments never show (the SDK cannot read a buffer of whitespace)
    _, out = feed_all([start(0), args(0, "  "), ToolCallEnd(0, ""), start(1), args(1, "\t")])
    assert out == [block_start(0, tool(0)), stop(0), block_start(1, tool(1))]


def test_tool_call_end_of_another_call_leaves_the_block_open():
    stream, out = feed_all([start(0), start(1), ToolCallEnd(0, "")])
    assert out == [block_start(0, tool(0)), stop(0), block_start(1, tool(1))]
    assert stream.feed(args(1, "{}")) == [delta(1, "input_json_delta", "partial_json", "{}")]
    assert stream.feed(ToolCallEnd(1, "")) == [stop(1)]
    stream, _ = feed_all([Content("x")])
    assert stream.feed(ToolCallEnd(0, "")) == []


def test_finish_closes_the_open_block_and_sets_the_stop_reason():
    stream, out = feed_all([start(0), args(0, '{"a": 1')])
    assert stream.stop_reason is None
    # the number the arguments end in was waiting for its end
    assert stream.feed(Finish("length", 1)) == [delta(0, "input_json_delta", "partial_json", "1"), stop(0)]
    assert stream.stop_reason == "max_tokens"
    assert stream.close() == []


def test_close_without_finish():
    stream, out = feed_all([Reasoning("r")])
    assert stream.close() == [stop(0)]
    assert stream.stop_reason is None
    assert stream.close() == []
    assert messages.output([Reasoning("r")]) == {
        "content": [{"type": "thinking", "thinking": "r", "signature": ""}], "stop_reason": None}


def test_tool_use_ids_in_blocks():
    whole = messages.output([ToolCallStart(0, "call_x7", "f", ""), ToolCallStart(1, "other", "g", "")])
    assert [b["id"] for b in whole["content"]] == ["toolu_x7", "other"]


# --- the whole form is the fold of the stream ----------------------------------------------------

def test_whole_form_in_canonical_order_is_specs():
    events = [ReasoningStart(), Reasoning("plan"), ReasoningEnd(), Content("\n\n"), Content("Hi "),
              Malformed("?", Other("x")), start(0, "get"), args(0, '{"city": '), args(0, '"Paris"}'),
              ToolCallEnd(0, ""), start(1), ToolCallEnd(1, ""), Finish("stop", 2)]
    assert canonical(events)
    whole = messages.output(events)
    assert whole == spec_output(events) == {"content": [
        {"type": "thinking", "thinking": "plan", "signature": ""},
        {"type": "text", "text": "\n\nHi ?"},
        {"type": "tool_use", "id": "toolu_0", "name": "get", "input": {"city": "Paris"}},
        {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
    ], "stop_reason": "tool_use"}
    check_events(events, "canonical")


# Named differences from SPEC §7.3's whole fold: the stream's blocks win.
DIFFERENCES = {
    "text after a call is a second text block": (
        [Content("a"), start(0), ToolCallEnd(0, ""), Content("b"), Finish("stop", 1)],
        [{"type": "text", "text": "a"}, tool(0), {"type": "text", "text": "b"}]),
    "whitespace after a block is held and dropped": (
        [Content("a"), start(0), ToolCallEnd(0, ""), Content("\n\n"), Finish("stop", 1)],
        [{"type": "text", "text": "a"}, tool(0)]),
    "whitespace before a thought is dropped": (
        [Content("\n"), Reasoning("r"), ReasoningEnd(), Content("a"), Finish("stop")],
        [{"type": "thinking", "thinking": "r", "signature": ""}, {"type": "text", "text": "a"}]),
    "a second thought is a second thinking block": (
        [Reasoning("r"), ReasoningEnd(), Content("a"), Reasoning("s"), Finish("stop")],
        [{"type": "thinking", "thinking": "r", "signature": ""}, {"type": "text", "text": "a"},
         {"type": "thinking", "thinking": "s", "signature": ""}]),
    "a cut object reads as its members written in full": (
        [start(0), args(0, '{"a": 1, "b": [2, "x'), Finish("length", 1)],
        [{**tool(0), "input": {"a": 1, "b": [2]}}]),
    "arguments that are no object show as text": (
        [start(0), args(0, "[1, 2]"), ToolCallEnd(0, ""), Finish("stop", 1)],
        [tool(0), {"type": "text", "text": "[1, 2]"}]),
    "arguments interrupted by text end the input there": (
        [start(0), args(0, '{"a": 1'), Content("x"), args(0, "}"), Finish("stop", 1)],
        [{**tool(0), "input": {"a": 1}}, {"type": "text", "text": "x}"}]),
}


@pytest.mark.parametrize("name", sorted(DIFFERENCES))
def test_differences_from_specs_whole_fold(name):
    events, content = DIFFERENCES[name]
    whole = messages.output(events)
    assert whole["content"] == content
    assert not canonical(events)
    assert whole != spec_output(events)
    check_events(events, name)


@pytest.mark.parametrize("prefix", [
    "{", " {", '{"a', '{"a"', '{"a":', '{"a": tr', '{"a": true', '{"a": -', '{"a": 1.', '{"a": 1e', '{"a": 1e+5',
    '{"a": 12', '{"a": "x\\"y', '{"a": "x\\\\"', '{"a": "\\u00', '{"a": [1, 2.', '{"a": [{}, {"b',
    '{"a": {"b": "c', '{"a": "x",', '{"a": 1, "b', '{"a": [1,', '{"a": nul', '{"a": null', '{"a": {"b": [1, {"c": nul',
    '{"a": "\\ud83c\\udf24", "b": "\\u00e9"', '{"k": "}", "l": "]', '{"a": 1}', '{"a": [], "b": {}}',
])
def test_tool_input_reads_a_prefix_as_the_sdk_does(prefix):
    assert messages.tool_input(prefix) == from_json(prefix.encode(), partial_mode=True)


def test_tool_input_of_no_object():
    assert messages.tool_input("") == {}
    assert messages.tool_input("[1]") == {}
    assert messages.tool_input('"s"') == {}
    assert messages.tool_input("junk") == {}


# --- envelope and usage --------------------------------------------------------------------------

def test_envelope_events():
    start_event = messages.message_start("msg_1", "qwen", 12)
    assert start_event == {"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "qwen", "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 12, "output_tokens": 0}}}
    assert messages.message_delta("tool_use", 7) == {
        "type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
        "usage": {"output_tokens": 7}}
    assert messages.message_stop() == {"type": "message_stop"}
    STREAM_EVENTS.validate_python([start_event, messages.message_delta("end_turn", 0), messages.message_stop()])
    with pytest.raises(ValueError, match="uncounted"):
        messages.message_delta("end_turn", None)


def test_message_needs_usage():
    whole = messages.output([Content("x"), Finish("stop")])
    with pytest.raises(ValueError, match="uncounted stream .* caller"):
        messages.message(whole, "msg_1", "m", None)
    body = messages.message(whole, "msg_1", "m", {"input_tokens": 1, "output_tokens": 2})
    assert body == {"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
                    "content": [{"type": "text", "text": "x"}], "stop_reason": "end_turn", "stop_sequence": None,
                    "usage": {"input_tokens": 1, "output_tokens": 2}}
    Message.model_validate(body)


def test_usage_counted_and_uncounted():
    counted = [Content("ab", 2), Dropped(symphony.Text("", 1), DropReason.CONTROL_TOKEN),
               Finish("stop")]
    assert messages.usage(counted, 9) == {"input_tokens": 9, "output_tokens": 3}
    assert messages.usage([Content("ab"), Finish("stop")], 9) is None
    assert messages.usage([], 4) is None      # no event carries a count: unknown, not zero


# --- every corpus output, every fixture ---------------------------------------------------------

CASES = all_cases()


def by_table():
    tables = {}
    for i, (table, case) in enumerate(CASES):
        tables.setdefault(table, []).append((FINISHES[i % len(FINISHES)], case))
    return tables


TABLES = by_table()


@pytest.mark.parametrize("table", sorted(TABLES))
def test_corpus(table):
    compared = 0
    for finish, case in tiers.sample(TABLES[table], tiers.FAST_CORPUS_CASES, "messages", table):
        for plan, pieces in chunkings(case.output, every_split_up_to=24, seeds=2):
            events = replay(new_parser(table, case.tools), pieces, case.prompt, finish)
            check_events(events, f"{table}/{case.name}/{plan}/{finish}")
            compared += canonical(events)
        bounds = synthetic_token_bounds(case.output)
        parser = new_parser(table, case.tools)
        inputs = ([] if case.prompt is None else [Prompt(case.prompt)]) + counted_deltas([case.output], bounds)
        events = [e for item in inputs + [End(finish)] for e in parser.feed(item)]
        count = messages.usage(events, 3)
        assert count == {"input_tokens": 3, "output_tokens": len(bounds)}
        check_events(events, f"{table}/{case.name}/counted", output_tokens=count["output_tokens"])
    assert compared > 0, f"{table}: no output in canonical order was compared with SPEC's fold"


def fixture_cases():
    if not FIXTURES or not os.path.isdir(FIXTURES):
        return []
    cases = []
    for name in sorted(f for f in os.listdir(FIXTURES) if f.endswith(".jsonl")):
        with open(os.path.join(FIXTURES, name), encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    cases.append(json.loads(line))
    return cases


@needs_fixtures
def test_fixtures():
    placed = 0
    for n, case in enumerate(fixture_cases()):
        try:
            model = for_model(case["model"], case.get("request", {}).get("chat_template_kwargs"))
        except KeyError:
            continue
        placed += 1
        table = model.table().compile()
        tools = case.get("request", {}).get("tools") or case.get("tools") or None
        text = case["reference"]["text"]
        finish = FINISHES[n % len(FINISHES)]
        for plan, pieces in chunkings(text, every_split_up_to=24, seeds=2):
            events = replay(symphony.parser(table, tools), pieces, model.thought_tail, finish)
            check_events(events, f"{case['id']}/{plan}/{finish}")
        ids = case.get("output_ids") or []
        for sizes in ([len(ids)], [1] * len(ids)):
            events = replay_tokens(symphony.parser(table, tools), case["output_pieces"], ids, sizes,
                                   model.thought_tail, finish)
            count = messages.usage(events, 3)
            assert count == {"input_tokens": 3, "output_tokens": len(ids)}, case["id"]
            check_events(events, f"{case['id']}/tokens", output_tokens=count["output_tokens"])
    assert placed > 100
