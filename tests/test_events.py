"""The ten event types and Text (SPEC §1.1, §1.3): construction, immutability, value equality and
hashing, the exact JSON wire shapes, `from_dict` round trips and refusals, `bytes_of`, pickling."""
import copy
import json
import pickle

import pytest

import symphony
from symphony.events import (
    EVENT_TYPES,
    Content,
    Dropped,
    Finish,
    Malformed,
    Reasoning,
    ReasoningEnd,
    ReasoningStart,
    Text,
    ToolCallArguments,
    ToolCallEnd,
    ToolCallStart,
    bytes_of,
    from_dict,
    text_of,
)
from symphony.reasons import DropReason, FinishReason, MalformedReason, Other


def wire(event):
    """The compact JSON text of an event's wire form (serde_json's default spelling)."""
    return json.dumps(event.to_dict(), separators=(",", ":"), ensure_ascii=False)


# One of each, with the wire text serde_json would write for it.
EXAMPLES = [
    (Content("Hi", 1), '{"kind":"content","text":"Hi","tokens":1}'),
    (Content("é😀\n", None), '{"kind":"content","text":"é😀\\n","tokens":null}'),
    (Reasoning("\nplan\n", 2), '{"kind":"reasoning","text":"\\nplan\\n","tokens":2}'),
    (ReasoningStart(), '{"kind":"reasoning_start"}'),
    (ReasoningEnd(), '{"kind":"reasoning_end"}'),
    (ToolCallStart(0, "call_0", "get_weather", Text('\n{"name": "get_weather", "arguments": ', 9)),
     '{"kind":"tool_call_start","index":0,"id":"call_0","name":"get_weather",'
     '"source":{"text":"\\n{\\"name\\": \\"get_weather\\", \\"arguments\\": ","tokens":9}}'),
    (ToolCallArguments(2, '{"a":', Text("<a>", 1)),
     '{"kind":"tool_call_arguments","index":2,"json":"{\\"a\\":","source":{"text":"<a>","tokens":1}}'),
    (ToolCallEnd(1, Text("", None)), '{"kind":"tool_call_end","index":1,"source":{"text":"","tokens":null}}'),
    (Dropped(Text("<think>", 1), DropReason.CONTROL_TOKEN),
     '{"kind":"dropped","text":{"text":"<think>","tokens":1},"why":"control_token"}'),
    (Dropped(Text("\n", 0), DropReason.WRAPPER), '{"kind":"dropped","text":{"text":"\\n","tokens":0},"why":"wrapper"}'),
    (Dropped(Text(" ", None), DropReason.WHITESPACE),
     '{"kind":"dropped","text":{"text":" ","tokens":null},"why":"whitespace"}'),
    (Malformed(Text(",", 1), MalformedReason.INVALID_ARGUMENTS),
     '{"kind":"malformed","text":{"text":",","tokens":1},"why":"invalid_arguments"}'),
    (Malformed(Text("x", None), MalformedReason.UNTERMINATED_REGION),
     '{"kind":"malformed","text":{"text":"x","tokens":null},"why":"unterminated_region"}'),
    (Malformed(Text("x", None), MalformedReason.UNKNOWN_TOOL),
     '{"kind":"malformed","text":{"text":"x","tokens":null},"why":"unknown_tool"}'),
    (Malformed(Text("x", 0), Other("text between a call's object and its closing marker")),
     '{"kind":"malformed","text":{"text":"x","tokens":0},'
     '"why":{"other":"text between a call\'s object and its closing marker"}}'),
    (Finish(FinishReason.TOOL_CALLS, 1, 7), '{"kind":"finish","reason":"tool_calls","tool_calls":1,"reasoning_tokens":7}'),
    (Finish(FinishReason.STOP, 0, 0), '{"kind":"finish","reason":"stop","tool_calls":0,"reasoning_tokens":0}'),
    (Finish(FinishReason.LENGTH, 2, 0), '{"kind":"finish","reason":"length","tool_calls":2,"reasoning_tokens":0}'),
    (Finish(FinishReason.ABORT, 0, 3), '{"kind":"finish","reason":"abort","tool_calls":0,"reasoning_tokens":3}'),
    (Finish(Other("content_filter"), 0, 0),
     '{"kind":"finish","reason":{"other":"content_filter"},"tool_calls":0,"reasoning_tokens":0}'),
]
PLAIN_EXAMPLES = [e for e, _ in EXAMPLES if type(getattr(e, "why", getattr(e, "reason", None))) is not Other]
OTHER_EXAMPLES = [e for e, _ in EXAMPLES if e not in PLAIN_EXAMPLES]


def test_every_event_type_has_an_example():
    assert {type(e) for e, _ in EXAMPLES} == set(EVENT_TYPES)
    assert len(EVENT_TYPES) == 10


@pytest.mark.parametrize("event, text", EXAMPLES, ids=lambda v: type(v).__name__ if not isinstance(v, str) else "")
def test_wire_shapes_are_exact(event, text):
    assert wire(event) == text
    assert event.to_dict()["kind"] == type(event).kind


@pytest.mark.parametrize("event", [e for e, _ in EXAMPLES], ids=lambda e: type(e).__name__)
def test_from_dict_round_trips(event):
    back = from_dict(event.to_dict())
    assert back == event and type(back) is type(event)
    assert from_dict(json.loads(wire(event))) == event
    assert wire(back) == wire(event)


# ---- Text

def test_text():
    t = Text("ab", 2)
    assert (t.text, t.tokens) == ("ab", 2)
    assert Text("ab").tokens is None
    assert Text.uncounted("ab") == Text("ab", None)
    assert t.to_dict() == {"text": "ab", "tokens": 2}
    assert Text("ab", None) != Text("ab", 0) != Text("ab", 1)
    assert Text("", None).is_nothing() and Text("", 0).is_nothing()
    assert not Text("", 1).is_nothing() and not Text("a", None).is_nothing()
    assert hash(Text("a", 1)) == hash(Text("a", 1))
    with pytest.raises(AttributeError):
        t.text = "x"
    with pytest.raises(AttributeError):
        t.tokens = 3
    with pytest.raises(TypeError):
        Text(b"ab")
    with pytest.raises(TypeError):
        Text("ab", True)
    with pytest.raises(TypeError):
        Text("ab", 1.0)
    with pytest.raises(ValueError):
        Text("ab", -1)
    assert pickle.loads(pickle.dumps(t)) == t


# ---- construction

def test_construction_and_fields():
    e = ToolCallStart(3, "call_3", "f", Text("<f>", 1))
    assert (e.index, e.id, e.name, e.source) == (3, "call_3", "f", Text("<f>", 1))
    assert ToolCallStart(3, "call_3", "f", "<f>").source == Text("<f>", None)
    e = ToolCallArguments(1, "{}", Text("{}", 2))
    assert (e.index, e.json, e.source) == (1, "{}", Text("{}", 2))
    assert ToolCallEnd(1, "}").source == Text("}", None)
    assert Content("a").tokens is None and Reasoning("a").tokens is None
    d = Dropped("x", "wrapper")
    assert d.text == Text("x", None) and d.why is DropReason.WRAPPER
    assert Malformed("x", "invalid_arguments").why is MalformedReason.INVALID_ARGUMENTS
    f = Finish("stop")
    assert (f.reason, f.tool_calls, f.reasoning_tokens) == (FinishReason.STOP, 0, 0)
    assert Finish(FinishReason.STOP) == f


@pytest.mark.parametrize("build, error", [
    (lambda: Content(1), TypeError),
    (lambda: Content("a", -1), ValueError),
    (lambda: Content("a", "1"), TypeError),
    (lambda: Reasoning(None), TypeError),
    (lambda: ToolCallStart(-1, "call_0", "f", ""), ValueError),
    (lambda: ToolCallStart(True, "call_0", "f", ""), TypeError),
    (lambda: ToolCallStart(0, None, "f", ""), TypeError),
    (lambda: ToolCallStart(0, "call_0", 5, ""), TypeError),
    (lambda: ToolCallStart(0, "call_0", "f", 5), TypeError),
    (lambda: ToolCallArguments("0", "{}", ""), TypeError),
    (lambda: ToolCallArguments(0, {}, ""), TypeError),
    (lambda: ToolCallEnd(0.0, ""), TypeError),
    (lambda: Dropped("x", "invalid_arguments"), ValueError),
    (lambda: Dropped("x", Other("y")), ValueError),
    (lambda: Malformed("x", "wrapper"), ValueError),
    (lambda: Finish("content_filter"), ValueError),
    (lambda: Finish("stop", -1), ValueError),
    (lambda: Finish("stop", 0, -1), ValueError),
])
def test_construction_refuses_wrong_values(build, error):
    with pytest.raises(error):
        build()


# ---- immutability, equality, hashing

@pytest.mark.parametrize("event", [e for e, _ in EXAMPLES], ids=lambda e: type(e).__name__)
def test_events_are_immutable(event):
    for name in list(event.to_dict()) + ["kind", "anything_else"]:
        with pytest.raises(AttributeError):
            setattr(event, name, getattr(event, name, None))
    with pytest.raises(AttributeError):
        del event.kind


@pytest.mark.parametrize("event", [e for e, _ in EXAMPLES], ids=lambda e: type(e).__name__)
def test_events_compare_and_hash_by_value(event):
    twin = from_dict(event.to_dict())
    assert twin is not event or type(event) in (ReasoningStart, ReasoningEnd)
    assert twin == event and not (twin != event)
    assert hash(twin) == hash(event)
    assert len({event, twin}) == 1
    assert event != event.to_dict()
    assert event != None  # noqa: E711


def test_events_differ_by_any_field_and_by_type():
    assert Content("a", 1) != Content("a", 2) != Content("b", 2)
    assert Content("a", None) != Content("a", 0)
    assert Content("a", 1) != Reasoning("a", 1)
    assert ReasoningStart() != ReasoningEnd()
    assert ToolCallStart(0, "call_0", "f", "") != ToolCallStart(0, "call_0", "g", "")
    assert ToolCallStart(0, "call_0", "f", "") != ToolCallStart(1, "call_0", "f", "")
    assert ToolCallArguments(0, "{", "") != ToolCallArguments(0, "{", "{")
    assert ToolCallEnd(0, "") != ToolCallEnd(0, Text("", 0))
    assert Dropped("x", "wrapper") != Dropped("x", "control_token")
    assert Malformed("x", Other("a")) != Malformed("x", Other("b"))
    assert Malformed("x", Other("unterminated_region")) != Malformed("x", "unterminated_region")
    assert Finish("stop", 1, 0) != Finish("stop", 0, 0) != Finish("length", 0, 0)
    assert Finish(Other("stop")) != Finish("stop")
    assert len({Content("a", 1), Content("a", 1), Reasoning("a", 1), Content("a", None)}) == 3


def test_reasons_compare_to_their_wire_text():
    assert Dropped("x", "wrapper").why == "wrapper"
    assert Finish("tool_calls").reason == "tool_calls"
    assert Other("a") == Other("a") != Other("b")
    with pytest.raises(AttributeError):
        Other("a").text = "b"


# ---- from_dict refusals

BAD_DICTS = [
    None, [], "content", {}, {"text": "a", "tokens": None},
    {"kind": "contents", "text": "a", "tokens": None},
    {"kind": "Content", "text": "a", "tokens": None},
    {"kind": "content", "text": "a"},
    {"kind": "content", "tokens": None},
    {"kind": "content", "text": "a", "tokens": None, "extra": 1},
    {"kind": "content", "text": "a", "tokens": -1},
    {"kind": "reasoning_start", "text": ""},
    {"kind": "reasoning_end", "index": 0},
    {"kind": "tool_call_start", "index": 0, "id": "call_0", "name": "f"},
    {"kind": "tool_call_start", "index": 0, "id": "call_0", "name": "f", "source": "x"},
    {"kind": "tool_call_start", "index": 0, "id": "call_0", "name": "f", "source": {"text": "x"}},
    {"kind": "tool_call_start", "index": 0, "id": "call_0", "name": "f",
     "source": {"text": "x", "tokens": None, "more": 0}},
    {"kind": "tool_call_start", "index": -1, "id": "call_0", "name": "f", "source": {"text": "", "tokens": None}},
    {"kind": "tool_call_arguments", "index": 0, "source": {"text": "", "tokens": None}},
    {"kind": "tool_call_arguments", "index": 0, "json": "{", "source": {"text": "{", "tokens": None}, "name": "f"},
    {"kind": "tool_call_end", "index": 0},
    {"kind": "dropped", "text": {"text": "x", "tokens": None}, "why": "invalid_arguments"},
    {"kind": "dropped", "text": {"text": "x", "tokens": None}, "why": {"other": "x"}},
    {"kind": "dropped", "text": {"text": "x", "tokens": None}, "why": "Wrapper"},
    {"kind": "dropped", "text": "x", "why": "wrapper"},
    {"kind": "dropped", "text": {"text": "x", "tokens": None}},
    {"kind": "malformed", "text": {"text": "x", "tokens": None}, "why": "wrapper"},
    {"kind": "malformed", "text": {"text": "x", "tokens": None}, "why": {"other": 5}},
    {"kind": "malformed", "text": {"text": "x", "tokens": None}, "why": {"other": "a", "b": "c"}},
    {"kind": "malformed", "text": {"text": "x", "tokens": None}, "why": {}},
    {"kind": "finish", "reason": "content_filter", "tool_calls": 0, "reasoning_tokens": 0},
    {"kind": "finish", "reason": "stop", "tool_calls": 0},
    {"kind": "finish", "reason": "stop", "tool_calls": -1, "reasoning_tokens": 0},
    {"kind": "finish", "reason": {"Other": "x"}, "tool_calls": 0, "reasoning_tokens": 0},
]


@pytest.mark.parametrize("d", BAD_DICTS, ids=repr)
def test_from_dict_refuses_what_is_no_event(d):
    with pytest.raises(ValueError):
        from_dict(d)


# Right fields, values of the wrong JSON type: serde refuses these as it refuses the rest.
BAD_FIELD_TYPES = [
    {"kind": "content", "text": 5, "tokens": None},
    {"kind": "content", "text": "a", "tokens": "1"},
    {"kind": "content", "text": "a", "tokens": True},
    {"kind": "content", "text": "a", "tokens": 1.5},
    {"kind": "reasoning", "text": None, "tokens": None},
    {"kind": "tool_call_start", "index": "0", "id": "call_0", "name": "f", "source": {"text": "", "tokens": None}},
    {"kind": "tool_call_start", "index": 0, "id": 0, "name": "f", "source": {"text": "", "tokens": None}},
    {"kind": "tool_call_start", "index": 0, "id": "call_0", "name": None, "source": {"text": "", "tokens": None}},
    {"kind": "tool_call_arguments", "index": 1.0, "json": "{", "source": {"text": "{", "tokens": None}},
    {"kind": "tool_call_arguments", "index": 0, "json": {"a": 1}, "source": {"text": "{", "tokens": None}},
    {"kind": "tool_call_end", "index": 0, "source": {"text": 0, "tokens": None}},
    {"kind": "finish", "reason": "stop", "tool_calls": None, "reasoning_tokens": 0},
    {"kind": "finish", "reason": "stop", "tool_calls": 0, "reasoning_tokens": "7"},
]


@pytest.mark.parametrize("d", BAD_FIELD_TYPES, ids=repr)
def test_from_dict_refuses_fields_of_the_wrong_type_with_value_error(d):
    with pytest.raises(ValueError):
        from_dict(d)


@pytest.mark.parametrize("d", BAD_FIELD_TYPES, ids=repr)
def test_from_dict_refuses_fields_of_the_wrong_type(d):
    with pytest.raises((ValueError, TypeError)):
        from_dict(d)


@pytest.mark.parametrize("d", [
    {"kind": "content", "text": "a", "tokens": 2**32},
    {"kind": "tool_call_end", "index": 2**32, "source": {"text": "", "tokens": None}},
    {"kind": "finish", "reason": "stop", "tool_calls": 2**32, "reasoning_tokens": 0},
], ids=repr)
def test_from_dict_refuses_u32_overflow(d):
    with pytest.raises(ValueError):
        from_dict(d)


# ---- bytes_of / text_of

def test_bytes_of_each_type():
    assert bytes_of(Content("a", 1)) == "a"
    assert bytes_of(Reasoning("b")) == "b"
    assert bytes_of(ReasoningStart()) == "" and bytes_of(ReasoningEnd()) == ""
    assert bytes_of(ToolCallStart(0, "call_0", "f", Text("<f>", 1))) == "<f>"
    assert bytes_of(ToolCallArguments(0, '{"a"', Text("<a>"))) == "<a>", "source, not json"
    assert bytes_of(ToolCallEnd(0, Text("}"))) == "}"
    assert bytes_of(Dropped(Text("<think>"), "wrapper")) == "<think>"
    assert bytes_of(Malformed(Text("x"), Other("y"))) == "x"
    assert bytes_of(Finish("stop", 1, 2)) == ""
    events = [e for e, _ in EXAMPLES]
    assert text_of(events) == "".join(bytes_of(e) for e in events)


def test_bytes_of_a_parse_is_the_output():
    output = '<think>\nhm</think>\n\nHi <tool_call>\n{"name": "f", "arguments": {"a": 1}}\nx\n</tool_call>é'
    events = symphony.parse("qwen3", output)
    assert text_of(events) == output
    for e in events:
        assert from_dict(json.loads(wire(e))) == e


def test_core_events_make_their_text_and_id_when_asked():
    """The core's call, Dropped and Malformed events keep their Text's fields and ToolCallStart no
    id of its own (made from the index): what they give is what a constructed event holds."""
    calls = "".join(f'<tool_call>\n{{"name": "f", "arguments": {{"i": {i}}}}}\n</tool_call>' for i in range(300))
    events = symphony.parse("qwen3", calls + "<tool_call>\n{oops}\n</tool_call>")
    starts = [e for e in events if type(e) is ToolCallStart]
    assert [e.id for e in starts] == [f"call_{i}" for i in range(len(starts))] and len(starts) >= 300
    assert any(type(e) is Malformed for e in events)
    for e in events:
        if type(e) in (ToolCallStart, ToolCallArguments, ToolCallEnd, Dropped, Malformed):
            field = "source" if type(e) not in (Dropped, Malformed) else "text"
            assert type(getattr(e, field)) is Text and getattr(e, field) == getattr(e, field)
            twin = from_dict(e.to_dict())
            assert twin == e and hash(twin) == hash(e) and repr(twin) == repr(e)
            assert pickle.loads(pickle.dumps(e)) == e
    assert text_of(events) == calls + "<tool_call>\n{oops}\n</tool_call>"
    counted, got = symphony.parser("qwen3"), []
    for token in ("<tool_call>", '\n{"name": "g", ', '"arguments": {}}', "\n", "</tool_call>"):
        got += counted.feed_token(token, 5)
    got += counted.feed(symphony.End("stop"))
    assert [(type(e).__name__, (e.text if type(e) is Dropped else e.source).tokens) for e in got[:-1]] == [
        ("Dropped", 1), ("ToolCallStart", 2), ("ToolCallArguments", 0), ("ToolCallEnd", 0),
        ("Dropped", 1), ("Dropped", 1)]
    assert ToolCallStart(400, "mine", "f", Text("x")).id == "mine"


# ---- pickling

@pytest.mark.parametrize("event", PLAIN_EXAMPLES, ids=lambda e: type(e).__name__)
def test_pickling_round_trips(event):
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(event, protocol))
        assert back == event and type(back) is type(event)
    assert copy.copy(event) == event
    assert copy.deepcopy(event) == event


@pytest.mark.parametrize("event", OTHER_EXAMPLES, ids=lambda e: type(e).__name__)
def test_pickling_round_trips_with_other_reasons(event):
    back = pickle.loads(pickle.dumps(event))
    assert back == event
    assert copy.deepcopy(event) == event


# ---- odd input

def test_odd_input_does_not_crash():
    long_text = "é😀\x00\n" * 100000
    for e in (Content(long_text, 2**31), Reasoning(""), ToolCallArguments(0, long_text, Text(long_text)),
              Malformed(Text(""), Other("")), Dropped(Text("", 0), "control_token"), Finish("abort", 2**31, 2**31)):
        assert from_dict(json.loads(wire(e))) == e
        repr(e)
    assert Content("") == Content("", None)
    assert wire(Content("", 0)) == '{"kind":"content","text":"","tokens":0}'
