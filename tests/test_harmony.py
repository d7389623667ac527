"""The gpt-oss table (`gpt_oss`, harmony; issue 11) on outputs in harmony's rendering
(tests/data/gpt_oss_harmony.jsonl, written by tests/render_harmony.py with the `openai-harmony`
package, a test-only dependency): each folds into its message (analysis the thought, final and a
preamble the content, `commentary to=functions.NAME` a call) at every chunking; the message shapes
the renderer does not write (a recipient before the channel, a cut call, text between messages)
by their events.
"""
import json
import os
import sys

import pytest

import symphony
from symphony.adapt import chat
from tests.common import check_conservation, check_well_formed, chunkings, replay
from tests.wire import arguments, check, dropped, end, finish, malformed, reasoning, start, END_THOUGHT, START_THOUGHT

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "gpt_oss_harmony.jsonl")
with open(DATA, encoding="utf-8") as _f:
    CASES = [json.loads(line) for line in _f if line.strip()]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_rendered_outputs(case):
    whole = chat.message(symphony.parse("gpt_oss", case["output"]))
    m = whole["message"]
    want = case["expect"]
    assert (m["content"], m["reasoning_content"]) == (want["content"], want["reasoning"])
    calls = [[c["function"]["name"], json.loads(c["function"]["arguments"] or "{}")] for c in m["tool_calls"] or ()]
    assert calls == want["calls"]
    for plan, pieces in chunkings(case["output"]):
        events = replay(symphony.parser("gpt_oss"), pieces)
        check_conservation(events, case["output"])
        check_well_formed(events)
        assert chat.message(events) == whole, plan


def test_a_recipient_before_the_channel():
    output = ' to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Paris"}<|call|>'
    check("gpt_oss", output, [
        dropped(" to="), start(0, "get_weather", "functions.get_weather<|channel|>commentary json<|message|>"),
        arguments(0, '{"city": "Paris"}', '{"city": "Paris"}'), end(0, ""), dropped("<|call|>"), finish(tool_calls=1),
    ])


def test_a_call_cut_by_the_end_of_its_message_and_text_between_messages():
    output = ("<|channel|>analysis<|message|>hm<|end|>junk<|start|>assistant<|channel|>commentary to=functions.f "
              '<|constrain|>json<|message|>{"a": "x<|end|>')
    check("gpt_oss", output, [
        dropped("<|channel|>analysis<|message|>"), START_THOUGHT, reasoning("hm"), dropped("<|end|>"), END_THOUGHT,
        malformed("junk", "text between a block's calls"), dropped("<|start|>assistant"),
        dropped("<|channel|>commentary to="), start(0, "f", "functions.f <|constrain|>json<|message|>"),
        arguments(0, '{"a": "x', '{"a": "x'), end(0, ""),
        dropped("<|end|>"), finish(tool_calls=1),
    ])


def test_symphony_does_not_import_openai_harmony():
    assert "openai_harmony" not in sys.modules
