"""A feed long enough that the sink builds its events as it goes (every 2048 records, between
pieces) says what the same output says fed a piece at a time: every table, outputs from its own
markers repeated past the threshold."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symphony
from symphony import Delta, End
from tests.common import check_conservation, check_well_formed, runs, said
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
    assert closed[-1]["text"]["text"].endswith('{"nam')
    assert all(e["why"] == {"other": "a tool-call block that closed without a complete call"} for e in closed)
