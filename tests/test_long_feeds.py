"""A feed long enough that the sink builds its events as it goes (every 2048 records, between
pieces, or between two calls of one piece) says what the same output says fed a piece at a time:
every table, outputs from its own markers repeated past the threshold, and lists of thousands of
calls with no marker among them."""
import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symphony
from symphony import Delta, End
from symphony.reasons import Other
from tests.common import check_conservation, check_well_formed, runs, said
from tests.wire import NO_CALL
from tests.strategies import outputs


@settings(max_examples=max(10, settings.default.max_examples // 4), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(symphony.formats()), st.data())
def test_a_long_feed_says_what_its_pieces_say(table, data):
    unit = data.draw(outputs(table))
    output = unit * max(1, 6000 // max(1, len(unit)))
    whole = symphony.parse(table, output)
    check_conservation(whole, output)
    check_well_formed(whole)
    p = symphony.parser(table)
    pieced = [e for at in range(0, len(output), 97) for e in p.feed(Delta(output[at:at + 97]))]
    pieced += p.feed(End("stop"))
    assert said(whole) == said(pieced)


def test_a_block_closed_without_a_call_after_thousands_of_records():
    # the relabelled bytes of a closing block are never built ahead of their relabelling
    output = "<tool_call>x</tool_call>" * 3000 + '<tool_call>{"nam</tool_call>'
    events = symphony.parse("qwen3", output)
    check_conservation(events, output)
    closed = [e for e in runs(events) if e["kind"] == "malformed"]
    # each block holds no call: its bytes are the assembler's, relabelled, between its markers,
    # which are text too
    assert closed[-2]["text"]["text"] == '{"nam'
    assert all(e["why"] == {"other": "a tool-call block that closed without a complete call"} for e in closed[1::2])
    assert all(e["why"] == {"other": NO_CALL} for e in closed[0::2])
    assert not any(e["kind"] == "dropped" for e in runs(events))


def test_a_region_of_thousands_of_records_held_until_it_ends():
    # a call region's events are held until a call starts or it ends: many records held over
    # many feeds are never built ahead of that, and each feed's events say the same
    output = "<tool_call>" + "<arg_key>a" * 3000 + "</tool_call>"     # no name: no call
    whole = symphony.parse("glm", output)
    check_conservation(whole, output)
    assert whole[0] == symphony.Malformed("<tool_call>", Other(NO_CALL))
    assert not any(type(e) is symphony.Dropped for e in whole)
    p = symphony.parser("glm")
    body = output[:-len("</tool_call>")]
    pieced = [e for at in range(0, len(body), 97) for e in p.feed(Delta(body[at:at + 97]))]
    assert pieced == [] and p.held == len(body)
    pieced += p.feed(Delta("</tool_call>")) + p.feed(End("stop"))
    assert said(whole) == said(pieced)


@pytest.mark.parametrize("table, call", [("xlam", '{"name": "f", "arguments": {"i": 1}}'), ("pythonic", "f(i=1)")])
def test_one_piece_of_thousands_of_calls_gives_each_call_its_events(table, call):
    # the list is one piece (no marker in it): its events are built ahead between two calls, and
    # each call's events are those of a list of one call, its separator one Dropped
    one = [e.to_dict() for e in symphony.parse(table, f"[{call}]")]
    head, events_of_call, tail = one[:1], one[1:-2], one[-2:]
    separator = symphony.Dropped(symphony.Text(", "), "wrapper").to_dict()
    n = 5000
    expected = head[:]
    for i in range(n):
        expected += [separator] if i else []
        expected += [dict(e, index=i, **({"id": f"call_{i}"} if "id" in e else {})) for e in events_of_call]
    expected += [dict(tail[0]), dict(tail[1], tool_calls=n)]
    output = "[" + ", ".join([call] * n) + "]"
    events = symphony.parse(table, output)
    assert [e.to_dict() for e in events] == expected
    check_conservation(events, output)
