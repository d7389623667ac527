"""The Mistral tables (`mistral`, `magistral_think`) on outputs rendered at test time by
Mistral's `mistral-common` package (recorded/mistral.py; test-only), one per tokenizer
generation and case: each folds into the message it was rendered from (the thought the reasoning,
every `[TOOL_CALLS]` a call) whole and at every chunking, the output mistral-common's own
tokenizer encodes for the same conversation folds into the same message, and fed one delta per
token (its id and UTF-8 byte span) every token is counted once and the thought's tokens are the
reasoning tokens. Cases listed as differing (`Case.differs`) must still differ, so a fix shows.
By their events: a thought cut by `[TOOL_CALLS]`, a second `[THINK]`, a thought the output ends
in, and the markers of one generation in the other table.
"""
import json

import pytest

import symphony
from symphony.adapt import chat
from symphony.formats import table as format_table
from symphony.models import for_model, thought_markers
from symphony.replay import TWO_WAY_SPLIT_LIMIT, _check_token_replay, _thought_region, replay_tokens
from tests.common import check_conservation, check_well_formed, chunkings, replay
from recorded.mistral import TOOLS, encoded, expected, outputs, prompt, rendered
from tests.wire import arguments, check, content, dropped, end, finish, reasoning, start, END_THOUGHT, START_THOUGHT

OUTPUTS = outputs()
OUTPUT_IDS = [f"{g.name}, {c.name}" for g, c in OUTPUTS]


def said(events):
    """(content, reasoning, [(name, arguments)]) of the chat message the events fold into."""
    m = chat.message(events)["message"]
    calls = [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in m["tool_calls"] or ()]
    return m["content"], m["reasoning_content"], calls


@pytest.mark.parametrize("generation, case", OUTPUTS, ids=OUTPUT_IDS)
def test_rendered_outputs_fold_into_their_messages(generation, case):
    output = rendered(generation.name, case.name).text
    whole = symphony.parse(generation.table, output, tools=TOOLS)
    if case.differs:
        assert said(whole) != expected(generation, case), f"listed as differing ({case.differs}), but agrees"
    else:
        assert said(whole) == expected(generation, case)
    message = chat.message(whole)
    for plan, pieces in chunkings(output, TWO_WAY_SPLIT_LIMIT):
        events = replay(symphony.parser(generation.table, TOOLS), pieces)
        check_conservation(events, output)
        check_well_formed(events)
        assert chat.message(events) == message, plan


@pytest.mark.parametrize("generation, case", [(g, c) for g, c in OUTPUTS if g.encodes],
                         ids=[f"{g.name}, {c.name}" for g, c in OUTPUTS if g.encodes])
def test_the_tokenizers_encoding_says_the_same(generation, case):
    # mistral-common's tokenizer writes the conversation itself (json.dumps re-spells arguments)
    output = encoded(generation.name, case.name)
    assert said(symphony.parse(generation.table, output)) == said(
        symphony.parse(generation.table, rendered(generation.name, case.name).text))


@pytest.mark.parametrize("generation, case", OUTPUTS, ids=OUTPUT_IDS)
def test_rendered_outputs_fed_token_by_token(generation, case):
    out = rendered(generation.name, case.name)
    message = chat.message(symphony.parse(generation.table, out.text))
    think_open, think_close = thought_markers(format_table(generation.table))
    region = _thought_region(out.text, think_open, think_close, False) if case.thinking else None
    for plan, sizes in (("one token a delta", [1] * len(out.ids)), ("whole", [len(out.ids)])):
        events = replay_tokens(symphony.parser(generation.table), list(out.pieces), list(out.ids), sizes,
                               prompt(generation), "stop")
        check_conservation(events, out.text)
        check_well_formed(events)
        assert chat.message(events) == message, plan
        assert _check_token_replay(events, list(out.pieces), list(out.ids), region) == [], plan


def test_the_renderings_split_characters_across_tokens():
    # the token replays above feed tokens that bring no text (a character's first bytes)
    assert sum(piece == "" for piece in rendered("v13", "unicode-thought").pieces) >= 5


def test_each_generation_writes_its_own_call_form():
    assert rendered("v3-spm", "one-call").text.startswith('[TOOL_CALLS] [{"name": "get_weather"')
    assert rendered("v7", "content-then-call").text.startswith('Let me check.[TOOL_CALLS][{"name"')
    assert rendered("v11", "one-call").text.startswith("[TOOL_CALLS]get_weather[CALL_ID]call00000[ARGS]{")
    assert rendered("v11-think", "thought-then-call").text.startswith("<think>I need the weather first.</think>")
    assert rendered("v13", "thought-then-call").text.startswith("[THINK]I need the weather first.[/THINK]")
    assert rendered("v15", "one-call").text == '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}'


@pytest.mark.parametrize("model, table", [("mistralai/Magistral-Small-2509", "mistral"),
                                          ("mistralai/Ministral-3-8B-Reasoning-2512", "mistral"),
                                          ("mistralai/Mistral-Small-4-119B-2603", "mistral"),
                                          ("mistralai/Magistral-Small-2506", "magistral_think")])
def test_the_reasoning_checkpoints_read_their_thought(model, table):
    m = for_model(model)
    generation = "v11-think" if table == "magistral_think" else "v13"
    assert (m.format, m.prompt_tail) == (table, "[/INST]")
    parser, events = m.start(TOOLS)
    output = rendered(generation, "thought-content-calls").text
    events += parser.feed(symphony.Delta(output)) + parser.feed(symphony.End("stop"))
    assert said(events) == ("Checking both.", "Two cities.",
                            [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo", "days": 2})])


def test_the_prompt_seeds_from_the_last_inst():
    # Magistral's default system prompt spells out [THINK] (left open here, and in an earlier
    # assistant turn): only what follows the last [/INST] seeds the parser
    for prompt in ("<s>[SYSTEM_PROMPT]Think in [THINK] tags.[/SYSTEM_PROMPT][INST]hi[/INST]",
                   "<s>[INST]a[/INST][THINK]old thought</s>[INST]b[/INST]"):
        parser = symphony.parser("mistral")
        events = parser.feed(symphony.Prompt(prompt))
        events += parser.feed(symphony.Delta("Answer.")) + parser.feed(symphony.End("stop"))
        assert said(events) == ("Answer.", None, [])


def test_tool_calls_end_a_thought_left_open():
    # [TOOL_CALLS] is a control token: written inside the thought it ends it (as vLLM reads it)
    check("mistral", '[THINK]I will call it[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}', [
        dropped("[THINK]"), START_THOUGHT, reasoning("I will call it"), dropped("[TOOL_CALLS]"), END_THOUGHT,
        start(0, "get_weather", "get_weather"), arguments(0, '{"city": "Paris"}', '[ARGS]{"city": "Paris"}'),
        end(0, ""), finish(tool_calls=1),
    ])


def test_a_second_think_in_the_thought_is_dropped():
    check("mistral", "[THINK]a[THINK]b[/THINK]c", [
        dropped("[THINK]"), START_THOUGHT, reasoning("a"), dropped("[THINK]"), reasoning("b"), dropped("[/THINK]"),
        END_THOUGHT, content("c"), finish(),
    ])


def test_a_thought_the_output_ends_in_is_ended():
    check("magistral_think", "<think>\nstill thinking", [
        dropped("<think>"), START_THOUGHT, reasoning("\nstill thinking"), END_THOUGHT, finish(),
    ])


def test_a_close_without_an_open():
    # no prompt opens a Mistral thought: a stray [/THINK] is a control token, dropped (as vLLM
    # drops it); a stray </think> is text, as in every <think> table
    check("mistral", "a[/THINK]b", [content("a"), dropped("[/THINK]", "control_token"), content("b"), finish()])
    check("magistral_think", "a</think>b", [content("a</think>b"), finish()])


def test_each_table_reads_only_its_own_thought_markers():
    # [THINK] is a special token of v13+; <think> is read as a marker only for Magistral Small 2506
    assert said(symphony.parse("mistral", "<think>x</think>y")) == ("<think>x</think>y", None, [])
    assert said(symphony.parse("magistral_think", "[THINK]x[/THINK]y")) == ("[THINK]x[/THINK]y", None, [])
