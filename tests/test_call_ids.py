"""A call's id is the id the model wrote in the call's head, where the family's syntax has one
(Kimi K2's `functions.NAME:N`, Mistral v11's `[CALL_ID]ID`) or as the call object's `tool_call_id`
before its arguments (Cohere), else `call_<index>`, and unique
within an output (a written id an earlier call has, or of the form `call_<digits>`, gives
`call_<index>`): the same id at every chunking (whole, per character, per token), and the same in
the events, their wire form, the summary row, the engine fields, the batch writers (JSON lines,
Arrow) and the adapters."""
import json
import pickle

import pytest

import symphony
from symphony import Delta, End, TokenSpan
from symphony._native import MESSAGE_ROUTES, FieldStream
from symphony.adapt import chat, messages, responses
from symphony.events import ToolCallStart, from_dict
from symphony.parser import JsonLines, fold_summaries
from tests.common import check_well_formed

WEATHER = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}}}}]
K2_CALLS, K2_CALLS_END = "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"
K2_CALL, K2_ARGS, K2_CALL_END = "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"
K2_COUNTER_TWICE = (K2_CALLS + K2_CALL + "0" + K2_ARGS + "{}" + K2_CALL_END + K2_CALL + "0" + K2_ARGS + "{}"
                    + K2_CALL_END + K2_CALLS_END)

# (table, output, the calls' ids)
CASES = [
    ("kimi_k2", "Checking. " + K2_CALLS + K2_CALL + "functions.get_weather:0 " + K2_ARGS + '{"city": "Tokyo"}'
     + K2_CALL_END + K2_CALL + "functions.get_weather:1" + K2_ARGS + '{"city": "NYC"}' + K2_CALL_END + K2_CALLS_END,
     ["functions.get_weather:0", "functions.get_weather:1"]),
    # a bare counter: the request's only tool, and the id as the model wrote it (vLLM's reading)
    ("kimi_k2", K2_CALLS + K2_CALL + "0 " + K2_ARGS + '{"city": "Tokyo"}' + K2_CALL_END + K2_CALLS_END, ["0"]),
    ("mistral", '[TOOL_CALLS]get_weather[CALL_ID]a1B2c3D4e[ARGS]{"city": "Paris"}[TOOL_CALLS]get_weather{"city": "Rome"}',
     ["a1B2c3D4e", "call_1"]),
    # a list (pre-v11) writes no id
    ("mistral", '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}}]', ["call_0"]),
    # the ids of one output are unique: an id an earlier call has is not the call's (the bytes stay
    # in its source) ...
    ("kimi_k2", K2_CALLS + K2_CALL + "functions.get_weather:0" + K2_ARGS + '{"city": "Tokyo"}' + K2_CALL_END
     + K2_CALL + "functions.get_weather:0" + K2_ARGS + '{"city": "NYC"}' + K2_CALL_END
     + K2_CALL + "functions.get_weather:2" + K2_ARGS + '{"city": "Rome"}' + K2_CALL_END + K2_CALLS_END,
     ["functions.get_weather:0", "call_1", "functions.get_weather:2"]),
    ("kimi_k2", K2_COUNTER_TWICE, ["0", "call_1"]),
    # ... and `call_<digits>`, the form of the ids symphony gives, is kept for those
    ("mistral", '[TOOL_CALLS]get_weather[CALL_ID]call_1[ARGS]{"city": "Paris"}[TOOL_CALLS]get_weather{"city": "Rome"}',
     ["call_0", "call_1"]),
    ("mistral", '[TOOL_CALLS]get_weather[CALL_ID]call_x[ARGS]{}[TOOL_CALLS]get_weather[CALL_ID]call_x[ARGS]{}'
     '[TOOL_CALLS]get_weather[CALL_ID]call_2x[ARGS]{}', ["call_x", "call_1", "call_2x"]),
    # a call object's `tool_call_id` (Cohere's), read before the arguments begin; one after them
    # comes too late for the call's start, so that call is call_<index>
    ("cohere_command4", '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "A"}},'
     ' {"tool_call_id": "b1", "tool_name": "get_weather", "parameters": {"city": "B"}},'
     ' {"tool_name": "get_weather", "parameters": {"city": "C"}, "tool_call_id": "late"},'
     ' {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {}}]<|END_ACTION|>',
     ["0", "b1", "call_2", "call_3"]),
    # an id that is no string, or written with escapes, is none
    ("cohere_command3", '<|START_ACTION|>[{"tool_call_id": "x\\u0031", "tool_name": "get_weather", "parameters": {}}]'
     '<|END_ACTION|>', ["call_0"]),
    ("qwen3", '<tool_call>\n{"tool_call_id": 7, "name": "get_weather", "arguments": {}}\n</tool_call>', ["call_0"]),
    # every other syntax: call_<index>
    ("qwen3", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n</tool_call>', ["call_0"]),
]
IDS = [f"{table}-{i}" for i, (table, _, _) in enumerate(CASES)]


def starts(events):
    return [(e.index, e.id, e.name) for e in events if type(e) is ToolCallStart]


def parse(table, text):
    return symphony.parse(table, text, tools=WEATHER)


@pytest.mark.parametrize("table, text, ids", CASES, ids=IDS)
def test_the_id_is_the_same_whole_per_character_and_per_token(table, text, ids):
    whole = parse(table, text)
    check_well_formed(whole)
    assert [id for _, id, _ in starts(whole)] == ids
    p = symphony.parser(table, tools=WEATHER)
    per_character = [e for ch in text for e in p.feed(Delta(ch))] + p.feed(End("stop"))
    assert starts(per_character) == starts(whole) and chat.message(per_character) == chat.message(whole)
    # per token: every UTF-8 byte run of 3 characters one counted token
    p = symphony.parser(table, tools=WEATHER)
    counted = []
    for k, at in enumerate(range(0, len(text), 3)):
        piece = text[at:at + 3]
        counted += p.feed(Delta(piece, [k], [TokenSpan(k, 0, len(piece.encode()))]))
    counted += p.feed(End("stop"))
    assert starts(counted) == starts(whole)


@pytest.mark.parametrize("table, text, ids", CASES, ids=IDS)
def test_events_wire_form_and_pickles_keep_the_id(table, text, ids):
    for e in parse(table, text):
        assert from_dict(e.to_dict()) == e and pickle.loads(pickle.dumps(e)) == e
        if type(e) is ToolCallStart:
            assert e.to_dict()["id"] == e.id
    made = ToolCallStart(0, "functions.f:0", "f", "functions.f:0")
    assert made.id == "functions.f:0" and from_dict(made.to_dict()) == made


@pytest.mark.parametrize("table, text, ids", CASES, ids=IDS)
def test_summary_row_fields_and_adapters_give_the_id(table, text, ids):
    events = parse(table, text)
    message = chat.message(events)
    assert [c["id"] for c in message["message"]["tool_calls"]] == ids
    row = symphony.parser(table, tools=WEATHER).summary(text)
    assert [id for id, _, _ in row[2]] == ids
    streamed = [c["id"] for d in chat.deltas(events) for c in d["delta"].get("tool_calls") or () if "id" in c]
    assert streamed == ids
    assert [i["call_id"] for i in responses.output(events, "resp_1")["output"] if i["type"] == "function_call"] == ids
    # Messages: `call_<n>` is `toolu_<n>` there; an id the model wrote is its own
    assert [b["id"] for b in messages.output(events)["content"] if b["type"] == "tool_use"] == \
        ["toolu_" + id[5:] if id.startswith("call_") else id for id in ids]
    fields = FieldStream(symphony.parser(table, tools=WEATHER), MESSAGE_ROUTES)
    got = [fields.feed(ch) for ch in text] + [fields.end()]
    assert [c[3] for f in got if f is not None for c in f[2] or () if c[1] is not None] == ids


@pytest.mark.parametrize("table, text, ids", CASES, ids=IDS)
def test_batch_writers_give_the_id(table, text, ids):
    pytest.importorskip("pyarrow")
    from symphony import batch
    compiled = symphony.parser(table).table
    written = fold_summaries([compiled], [WEATHER], [None], [text], ["stop"], into=JsonLines([1]))
    line = json.loads(written.lines()[0].decode("utf-8"))
    assert [c["id"] for c in line["message"]["tool_calls"]] == ids
    assert [c["id"] for c in batch.parse_many(table, [text], tools=WEATHER)[0]["message"]["tool_calls"]] == ids
    rows = batch.parse_many(table, [text, text], tools=WEATHER, as_arrow=True).to_pylist()
    assert [[c["id"] for c in row["tool_calls"]] for row in rows] == [ids, ids]


def test_an_id_the_head_does_not_finish_waits_for_the_head():
    """The id is whole when the call starts: a Kimi K2 head cut anywhere gives the same start."""
    text = K2_CALLS + K2_CALL + "functions.get_weather:12" + K2_ARGS + "{}" + K2_CALL_END + K2_CALLS_END
    want = starts(parse("kimi_k2", text))
    assert want == [(0, "functions.get_weather:12", "get_weather")]
    for cut in range(1, len(text)):
        p = symphony.parser("kimi_k2", tools=WEATHER)
        assert starts(p.feed(Delta(text[:cut])) + p.feed(Delta(text[cut:])) + p.feed(End("stop"))) == want


def test_head_id_is_data_of_the_json_syntax():
    from symphony.syntax import CallObject, CallSyntax
    with pytest.raises(ValueError):
        CallSyntax.json(head_id=True)                       # the head must name the call
    with pytest.raises(ValueError):
        CallSyntax.json(CallObject.ARGUMENTS, head="|", head_id="")
    from symphony.formats import table
    assert dict(table("kimi_k2").syntax.params)["head_id"] is True


def test_a_fresh_parse_starts_over():
    """The ids given are the output's: the next output's first call has its written id again."""
    text = K2_COUNTER_TWICE
    want = [(0, "0", "get_weather"), (1, "call_1", "get_weather")]
    for _ in range(2):
        assert starts(parse("kimi_k2", text)) == want
        p = symphony.parser("kimi_k2", tools=WEATHER)
        assert starts([e for ch in text for e in p.feed(Delta(ch))] + p.feed(End("stop"))) == want
        assert [id for id, _, _ in symphony.parser("kimi_k2", tools=WEATHER).summary(text)[2]] == ["0", "call_1"]
