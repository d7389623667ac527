"""A call to a tool the request does not declare (issue 37), with the parser's option
`undeclared="malformed"`: the call's bytes, from its head (its opener, where a block holds the
calls) through its end, are Malformed{UnknownTool} (shown as content), no index is spent on it, later calls keep dense indexes
and their ids, and the finish reason is as if it were not there. By default (`"call"`, SPEC §2.4)
names are not checked. Every table with calls is checked with a declared call and an undeclared
one written as its template writes them: whole, at every chunking, per token (counted) and
through `feed_token`; and the adapters, the model registry, the batch paths and the CLI flag."""
import json
import subprocess
import sys

import pytest

import symphony
from symphony import Emits, End
from symphony.adapt import chat, messages, responses
from symphony.events import Dropped, Finish, Malformed, ToolCallEnd, ToolCallStart, bytes_of, tokens_of
from symphony.formats import table as format_table
from symphony.reasons import DropReason, MalformedReason
from tests.common import (
    carries_text,
    check_conservation,
    check_well_formed,
    chunkings,
    counted_deltas,
    expected_token_counts,
    replay,
    said,
    synthetic_token_bounds,
)
from tests.corpus import TOOLS, roles

UNDECLARED = "not_a_tool"       # no tool of TOOLS; the corpus's example call is `get_weather`
DECLARED = "get_weather"


def _layouts(r, declared, undeclared):
    """Ways the table's template writes the undeclared call then the declared one: one block of
    two calls, two blocks, one JSON list of two objects."""
    yield r.frame(undeclared, declared)
    yield r.frame(undeclared) + "\n" + r.frame(declared)
    if declared.startswith("[") and declared.endswith("]"):
        yield r.frame("[" + undeclared[1:-1] + ", " + declared[1:-1] + "]")


def _names(events):
    return [e.name for e in events if type(e) is ToolCallStart]


def example(name):
    """(output with a call to UNDECLARED then one to DECLARED, or None where the table reads one
    call an output; output with the undeclared call alone) in the table's syntax, or None for a
    table with no calls."""
    r = roles(format_table(name))
    if r.call_open is None and not r.calls_initial:
        return None
    declared = r.example_body()
    undeclared = declared.replace(DECLARED, UNDECLARED)
    alone = r.frame(undeclared)
    assert _names(symphony.parse(name, alone, tools=TOOLS)) == [UNDECLARED]
    for output in _layouts(r, declared, undeclared):
        if _names(symphony.parse(name, output, tools=TOOLS)) == [UNDECLARED, DECLARED]:
            return output, alone
    return None, alone


TABLES = [name for name in symphony.formats() if example(name) is not None]
# (GigaChat 3 writes one call an output: its undeclared call is checked alone)
TWO_CALLS = [name for name in TABLES if example(name)[0] is not None]


def parse(name, output, **options):
    return symphony.parse(name, output, tools=TOOLS, **options)


def refused(events):
    return "".join(e.text.text for e in events if type(e) is Malformed and e.why == MalformedReason.UNKNOWN_TOOL)


def call_bytes(events, index):
    """The bytes of a call's events, from its start through its end, and of what the assembler
    reported between them (a control token aside: shown nowhere, in a call or out of one)."""
    at = next(i for i, e in enumerate(events) if type(e) is ToolCallStart and e.index == index)
    end = next(i for i, e in enumerate(events) if type(e) is ToolCallEnd and e.index == index)
    return "".join(bytes_of(e) for e in events[at:end + 1]
                   if not (type(e) is Dropped and e.why == DropReason.CONTROL_TOKEN))


def opener_in_block(name, wrapping):
    """The tail of `wrapping` (the markers and whitespace an output starts with, before its first
    call) from the marker that opened the call inside a call region already open (a row from one of
    its states into one of its arguments states), or "": the opener of a call that never started
    is the call's. Read by walking the table's rows from its first state."""
    fmt = format_table(name)
    regions = set(fmt.compile().call_region_states)
    number = {state: i for i, (state, _) in enumerate(fmt.states)}
    emits = [e for _, e in fmt.states]
    texts = dict(fmt.terminals)
    rows = {(number[src], texts[t]): number[dst] for src, t, dst in fmt.transitions}
    state, at, head = 0, 0, ""
    while at < len(wrapping):
        if wrapping[at].isspace():
            at += 1
            continue
        marker = max((m for m in texts.values() if wrapping.startswith(m, at)), key=len, default=None)
        if marker is None or (state, marker) not in rows:
            at += 1         # (text a state's assembler reads: Muse's recipient, DeepSeek's `function`)
            continue
        nxt = rows[state, marker]
        if state in regions and nxt in regions and emits[nxt] == Emits.ARGUMENTS:
            head = wrapping[at:]
        state, at = nxt, at + len(marker)
    return head


def refused_bytes(name, events, index):
    """What a refused call shows, read off the parse that kept it (`events`): its bytes, after its
    opener where a call region already open holds it (opener_in_block)."""
    at = next(i for i, e in enumerate(events) if type(e) is ToolCallStart and e.index == index)
    wrapping = ""
    while at > 0 and type(events[at - 1]) is Dropped and events[at - 1].why == DropReason.WRAPPER:
        at -= 1
        wrapping = bytes_of(events[at]) + wrapping
    return opener_in_block(name, wrapping) + call_bytes(events, index)


def test_every_table_but_one_call_an_output_reads_both_calls():
    assert set(TABLES) - set(TWO_CALLS) == {"gigachat3"}


@pytest.mark.parametrize("name", TWO_CALLS)
def test_a_call_to_an_undeclared_tool_is_malformed(name):
    output, _ = example(name)
    kept = parse(name, output)
    assert parse(name, output, undeclared="call") == kept        # the default
    events = parse(name, output, undeclared="malformed")
    check_conservation(events, output)
    check_well_formed(events)
    declared_call = [e for e in kept if type(e) is ToolCallStart][1]
    # the declared call is call 0, with the id the model wrote in its head, else call_0
    want_id = "call_0" if declared_call.id == "call_1" else declared_call.id
    assert [(e.index, e.id, e.name) for e in events if type(e) is ToolCallStart] == [(0, want_id, DECLARED)]
    # every byte of the refused call, opener through end, is Malformed{UnknownTool}, and only those
    assert refused(events) == refused_bytes(name, kept, 0)
    assert UNDECLARED in refused(events)
    assert events[-1] == Finish(symphony.FinishReason.STOP, 1, 0)
    message = chat.message(events)
    assert message["finish_reason"] == "tool_calls"
    assert [c["function"]["name"] for c in message["message"]["tool_calls"]] == [DECLARED]
    assert UNDECLARED in message["message"]["content"]        # shown as the model wrote it
    # the declared call reads as it did
    assert message["message"]["tool_calls"][0]["function"] == chat.message(kept)["message"]["tool_calls"][1]["function"]


@pytest.mark.parametrize("name", TABLES)
def test_an_output_whose_only_call_is_refused_makes_no_call(name):
    _, output = example(name)
    events = parse(name, output, undeclared="malformed")
    check_conservation(events, output)
    check_well_formed(events)
    assert _names(events) == [] and events[-1].tool_calls == 0
    message = chat.message(events)
    assert message["finish_reason"] == "stop" and message["message"]["tool_calls"] is None
    assert UNDECLARED in message["message"]["content"]
    assert refused(events) == refused_bytes(name, parse(name, output), 0)


@pytest.mark.parametrize("name", TABLES)
def test_every_chunking_per_token_and_feed_token_read_as_the_whole(name):
    output, alone = example(name)
    for text in (output, alone) if output is not None else (alone,):
        whole = parse(name, text, undeclared="malformed")
        for plan, pieces in chunkings(text):
            events = replay(symphony.parser(name, TOOLS, undeclared="malformed"), pieces)
            check_conservation(events, text)
            check_well_formed(events)
            assert said(events) == said(whole), f"{name}: {plan}"
            assert chat.message(events) == chat.message(whole), f"{name}: {plan}"
        # counted: one delta per synthetic token; every event carries the tokens that start in it
        bounds = synthetic_token_bounds(text, trailing=0)
        pieces = [text[a:b] for a, b in bounds]
        p = symphony.parser(name, TOOLS, undeclared="malformed")
        events = [e for d in counted_deltas(pieces, bounds) for e in p.feed(d)] + p.feed(End("stop"))
        check_conservation(events, text)
        assert said(events) == said(whole)
        starts = [len(text[:a].encode()) for a, _ in bounds]
        body = [e for e in events if carries_text(e)]
        assert [tokens_of(e) for e in body] == expected_token_counts(body, text, starts)
        assert sum(tokens_of(e) for e in body) == len(bounds)
        # one token at a time through feed_token
        p = symphony.parser(name, TOOLS, undeclared="malformed")
        events = [e for piece in pieces for e in p.feed_token(piece, 7)] + p.feed(End("stop"))
        assert said(events) == said(whole)


@pytest.mark.parametrize("tools", [None, [], [{"type": "function", "function": {"parameters": {}}}]],
                         ids=["none", "empty", "unnamed"])
def test_with_no_tool_named_there_is_nothing_to_check_against(tools):
    output = '<tool_call>\n{"name": "anything", "arguments": {}}\n</tool_call>'
    assert symphony.parse("qwen3", output, tools=tools, undeclared="malformed") == symphony.parse("qwen3", output,
                                                                                                   tools=tools)


def test_the_option_takes_call_or_malformed():
    assert symphony.parser("qwen3").undeclared == "call"
    assert symphony.parser("qwen3", TOOLS, undeclared="malformed").undeclared == "malformed"
    for bad in ("drop", None, True):
        with pytest.raises((ValueError, TypeError), match="undeclared"):
            symphony.parser("qwen3", TOOLS, undeclared=bad)


QWEN = ('Checking. <tool_call>\n{"name": "lookup", "arguments": {"q": 1}}\n</tool_call>\n'
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "ghost", "arguments": {}}\n</tool_call>\n'
        '<tool_call>\n{"name": "get_time", "arguments": {"zone": "UTC"}}\n</tool_call>')


def test_later_calls_keep_dense_indexes_and_the_region_reads_as_written():
    events = parse("qwen3", QWEN, undeclared="malformed")
    check_well_formed(events)
    assert [(e.index, e.id, e.name) for e in events if type(e) is ToolCallStart] == [
        (0, "call_0", "get_weather"), (1, "call_1", "get_time")]
    assert events[-1].tool_calls == 2
    # a region that held only a refused call is the text the model wrote, its markers included
    content = chat.message(events)["message"]["content"]
    assert content == ('Checking. <tool_call>\n{"name": "lookup", "arguments": {"q": 1}}\n</tool_call>\n\n'
                       '<tool_call>\n{"name": "ghost", "arguments": {}}\n</tool_call>\n')


def test_a_refused_call_cut_by_the_end_of_the_stream_is_malformed_to_its_last_byte():
    for finish in ("stop", "length"):
        output = '<tool_call>\n{"name": "ghost", "arguments": {"a": "unfini'
        events = parse("qwen3", output, undeclared="malformed", finish=finish)
        check_conservation(events, output)
        assert refused(events) == output[len("<tool_call>"):] and events[-1].tool_calls == 0
    output = "<tool_call>\n<function=ghost>\n<parameter=a>\nunfini"
    events = parse("qwen3_tagged", output, undeclared="malformed")
    check_conservation(events, output)
    assert refused(events) == output[len("<tool_call>"):] and _names(events) == []


def test_the_adapters_show_the_refused_call_as_content():
    events = parse("qwen3", QWEN, undeclared="malformed")
    message = chat.message(events)
    assert [(c["id"], c["function"]["name"]) for c in message["message"]["tool_calls"]] == [
        ("call_0", "get_weather"), ("call_1", "get_time")]
    assert message["finish_reason"] == "tool_calls"
    streamed = [c for e in events for c in chat.deltas([e])]
    calls = [t for c in streamed for t in c["delta"].get("tool_calls") or ()]
    assert sorted({t["index"] for t in calls}) == [0, 1]
    assert "ghost" in "".join(c["delta"].get("content") or "" for c in streamed)
    items = responses.output(events, "resp_1")
    kinds = [item["type"] for item in items["output"]]
    assert kinds.count("function_call") == 2
    assert [item["name"] for item in items["output"] if item["type"] == "function_call"] == ["get_weather", "get_time"]
    assert "ghost" in json.dumps([item for item in items["output"] if item["type"] == "message"])
    blocks = messages.output(events)
    uses = [b for b in blocks["content"] if b["type"] == "tool_use"]
    assert [b["name"] for b in uses] == ["get_weather", "get_time"] and blocks["stop_reason"] == "tool_use"
    assert "ghost" in "".join(b["text"] for b in blocks["content"] if b["type"] == "text")


def test_a_forced_or_required_tool_choice():
    required = '[{"name": "ghost", "arguments": {}}, {"name": "get_time", "arguments": {"zone": "UTC"}}]'
    events = symphony.parse("qwen3", required, tools=TOOLS, tool_choice="required", undeclared="malformed")
    check_conservation(events, required)
    assert _names(events) == ["get_time"] and "ghost" in refused(events)
    forced = {"type": "function", "function": {"name": "get_time"}}
    events = symphony.parse("qwen3", '{"zone": "UTC"}', tools=TOOLS, tool_choice=forced, undeclared="malformed")
    assert _names(events) == ["get_time"]


def test_the_model_registry_takes_the_option():
    model = symphony.for_model("Qwen/Qwen3-8B")
    p = model.parser(TOOLS, undeclared="malformed")
    events = p.feed(symphony.Delta(QWEN)) + p.feed(End("stop"))
    assert _names(events) == ["get_weather", "get_time"]


def test_the_batch_paths_take_the_option():
    from symphony.batch import parse_many
    want = chat.message(parse("qwen3", QWEN, undeclared="malformed"))
    assert parse_many("qwen3", [QWEN, QWEN], tools=TOOLS, undeclared="malformed") == [want, want]
    assert parse_many("qwen3", [QWEN], tools=TOOLS, undeclared="malformed", as_events=True) == [
        [e.to_dict() for e in parse("qwen3", QWEN, undeclared="malformed")]]
    table = parse_many("qwen3", [QWEN], tools=TOOLS, undeclared="malformed", as_arrow=True)
    row = table.to_pylist()[0]
    assert [(c["id"], c["name"]) for c in row["tool_calls"]] == [("call_0", "get_weather"), ("call_1", "get_time")]
    assert row["content"] == want["message"]["content"] and row["finish_reason"] == "tool_calls"
    assert row["malformed_bytes"] == sum(len(e.text.text.encode()) for e in parse("qwen3", QWEN, undeclared="malformed")
                                         if type(e) is Malformed)
    assert parse_many("qwen3", [QWEN], tools=TOOLS) == [chat.message(parse("qwen3", QWEN))]
    with pytest.raises(ValueError, match="undeclared"):
        parse_many("qwen3", [QWEN], tools=TOOLS, undeclared="drop")


def test_the_cli_flag(tmp_path):
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(TOOLS))
    lines = tmp_path / "in.jsonl"
    lines.write_text(json.dumps({"text": QWEN}) + "\n")

    def run(*flags):
        done = subprocess.run([sys.executable, "-m", "symphony", "parse", str(lines), "--format", "qwen3", "--tools",
                               str(tools), "--quiet", *flags], capture_output=True, text=True, check=True)
        return json.loads(done.stdout)["message"]

    assert [c["function"]["name"] for c in run("--undeclared", "malformed")["tool_calls"]] == ["get_weather", "get_time"]
    assert len(run()["tool_calls"]) == 4
