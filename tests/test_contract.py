"""SPEC §9.2: every table x its corpus x every chunking — conservation, chunking invariance,
well-formedness and order, token identity, the merge rule, and the parser lifecycle.
"""
import pytest

import symphony
from symphony import Delta, End, Prompt
from symphony.events import Content, Dropped, Finish, Reasoning
from symphony.reasons import DropReason
from tests.common import (
    carries_text,
    check_conservation,
    check_well_formed,
    chunkings,
    counted_deltas,
    expected_token_counts,
    new_parser,
    replay,
    said,
    synthetic_token_bounds,
    tokens_of,
)
from tests.corpus import all_cases, table_roles

CASES = all_cases()


def grouped(cases):
    """Test items: one per table, its whole corpus (tens of thousands of items of a few
    milliseconds each cost more in pytest's bookkeeping than in parsing; a failure names its case
    and plan)."""
    items = {}
    for table, case in cases:
        items.setdefault(table, []).append(case)
    return [pytest.param(table, group, id=table) for table, group in items.items()]


ITEMS = grouped(CASES)


def test_compiled_module_loaded():
    from symphony import _native
    assert _native.__file__.endswith((".so", ".pyd")), _native.__file__


def test_every_table_has_a_corpus():
    tables = {table for table, _ in CASES}
    assert tables == set(symphony.formats())
    for table in tables:
        assert sum(1 for t, _ in CASES if t == table) >= 40, table
        # a table with calls has cases that start one (not only junk its assembler refuses)
        r = table_roles(table)
        if r.call_open is not None or r.calls_initial:
            assert any(said(symphony.parse(table, case.output, tools=case.tools, prompt=case.prompt)).calls
                       for t, case in CASES if t == table), f"{table}: no case starts a call"
        if r.syntax in ("tagged", "keyed"):
            assert sum(1 for t, case in CASES if t == table and case.tools is not None) * 2 > \
                sum(1 for t, _ in CASES if t == table), f"{table}: most cases should carry tools"


def plans_of(case):
    """The cut plans the contract replays for a case (SPEC §9.1; fewer for the cut-call cases)."""
    plans = chunkings(case.output, seeds=case.seeds)
    if case.splits is None:
        return plans
    return [(plan, pieces) for plan, pieces in plans
            if not plan.startswith("split-") or int(plan[len("split-"):]) in case.splits]


def check_merge_rule(batch, where):
    """Within one feed's events: no empty Content/Reasoning, no two adjacent of the same kind."""
    previous = None
    for e in batch:
        kind = type(e)
        if kind is Content or kind is Reasoning:
            assert e.text != "" or e.tokens not in (None, 0), f"{where}: empty {e!r}"
            assert previous is not kind, f"{where}: two adjacent {kind.__name__} events in one feed: {batch!r}"
        previous = kind


def feed_checked(parser, inputs, where):
    events = []
    for item in inputs:
        batch = parser.feed(item)
        check_merge_rule(batch, where)
        events += batch
    return events


def inputs_of(pieces, prompt, finish="stop", empty_between=False):
    inputs = [] if prompt is None else [Prompt(prompt)]
    for piece in pieces:
        if empty_between:
            inputs.append(Delta(""))
        inputs.append(Delta(piece))
    if empty_between:
        inputs.append(Delta(""))
    inputs.append(End(finish))
    return inputs


@pytest.mark.parametrize("table,cases", ITEMS)
def test_every_chunking_conserves_and_agrees(table, cases):
    for case in cases:
        check_every_chunking(table, case)


def check_every_chunking(table, case):
    name, output, prompt, tools = case
    reference = None
    for plan, pieces in plans_of(case):
        where = f"{table}/{name}/{plan}"
        events = feed_checked(new_parser(table, tools), inputs_of(pieces, prompt), where)
        check_conservation(events, output)
        check_well_formed(events)
        summary = said(events)
        if reference is None:
            reference = summary
            if case.calls is not None:
                assert len(summary.calls) == case.calls, f"{where}: {len(summary.calls)} calls, want {case.calls}: {summary}"
        else:
            assert summary == reference, f"{where}: said differs from whole\n  whole {reference}\n  plan  {summary}"


@pytest.mark.parametrize("table,cases", ITEMS)
def test_empty_deltas_change_nothing(table, cases):
    for case in cases:
        check_empty_deltas(table, case)


def check_empty_deltas(table, case):
    name, output, prompt, tools = case
    whole = said(replay(new_parser(table, tools), [output], prompt))
    for plan, pieces in (("whole", [output]), ("character by character", list(output) or [""])):
        where = f"{table}/{name}/{plan} with empty deltas"
        events = feed_checked(new_parser(table, tools), inputs_of(pieces, prompt, empty_between=True), where)
        check_conservation(events, output)
        check_well_formed(events)
        assert said(events) == whole, f"{where}: said differs from whole"


@pytest.mark.parametrize("table,cases", ITEMS)
def test_token_identity(table, cases):
    for case in cases:
        check_token_identity(table, case)


def check_token_identity(table, case):
    name, output, prompt, tools = case
    trailing = 1 + len(output) % 3
    bounds = synthetic_token_bounds(output, trailing)
    starts = [len(output[:t0].encode()) for t0, t1 in bounds if t1 > t0]
    # every plan's uncounted parse says what the whole one says (the tests above): one reference
    reference = said(replay(new_parser(table, tools), [output], prompt))
    for plan, pieces in plans_of(case):
        where = f"{table}/{name}/{plan} counted"
        parser = new_parser(table, tools)
        inputs = ([] if prompt is None else [Prompt(prompt)]) + counted_deltas(pieces, bounds) + [End("stop")]
        events = feed_checked(parser, inputs, where)
        check_conservation(events, output)
        check_well_formed(events)
        # the trailing zero-width tokens: one empty Dropped{ControlToken} just before Finish
        trailer = events[-2]
        assert type(trailer) is Dropped and trailer.why == DropReason.CONTROL_TOKEN, f"{where}: {trailer!r}"
        assert trailer.text.text == "" and trailer.text.tokens == trailing, f"{where}: {trailer!r}"
        body = events[:-2]
        want = expected_token_counts(body, output, starts)
        got = [tokens_of(e) for e in body]
        for e, w, g in zip(body, want, got):
            if carries_text(e):
                assert g == w, f"{where}: {e!r} carries {g} tokens, its bytes hold {w} token starts\n  {events!r}"
        total = sum(tokens_of(e) for e in events if carries_text(e))
        assert total == len(bounds), f"{where}: {total} tokens counted, {len(bounds)} fed"
        finish = events[-1]
        reasoning = sum(e.tokens for e in events if type(e) is Reasoning)
        assert finish.reasoning_tokens == reasoning, f"{where}: reasoning_tokens {finish.reasoning_tokens}, want {reasoning}"
        # counting changes no text: the summary (but for the token counts) equals the uncounted
        # parse's
        got_said = said(events)
        assert got_said.content == reference.content and got_said.calls == reference.calls
        assert got_said.arguments == reference.arguments and got_said.reasoning == reference.reasoning
        assert got_said.malformed == reference.malformed


# ---------------------------------------------------------------------------------------------
# lifecycle (SPEC §1.6)

TABLES = symphony.formats()


def lifecycle_error(parser, item, message):
    with pytest.raises(symphony.LifecycleError) as raised:
        parser.feed(item)
    assert str(raised.value) == f"lifecycle misuse: {message}"
    assert raised.value.message == message


@pytest.mark.parametrize("table", TABLES)
def test_lifecycle(table):
    parser = new_parser(table)
    events = parser.feed(Prompt("<|im_start|>assistant\n"))
    lifecycle_error(parser, Prompt("again"), "prompt after output began")
    events += parser.feed(Delta("Hello "))
    lifecycle_error(parser, Prompt("late"), "prompt after output began")
    events += parser.feed(Delta("world"))
    events += parser.feed(End("stop"))
    check_conservation(events, "Hello world")
    check_well_formed(events)
    lifecycle_error(parser, Delta("more"), "delta after end")
    lifecycle_error(parser, End("stop"), "end after end")
    lifecycle_error(parser, Prompt("p"), "prompt after output began")


@pytest.mark.parametrize("table", TABLES)
def test_rejected_second_prompt_emits_nothing_and_the_parser_keeps_working(table):
    parser = new_parser(table)
    first = parser.feed(Prompt("<|im_start|>assistant\n<think>\n"))
    with pytest.raises(symphony.LifecycleError):
        parser.feed(Prompt("<|im_start|>assistant\n"))
    rest = parser.feed(Delta("a</think>b")) + parser.feed(End("stop"))
    reference = new_parser(table)
    want = reference.feed(Prompt("<|im_start|>assistant\n<think>\n")) + reference.feed(Delta("a</think>b"))
    want += reference.feed(End("stop"))
    assert [e.to_dict() for e in first + rest] == [e.to_dict() for e in want]


@pytest.mark.parametrize("table", TABLES)
def test_delta_without_prompt(table):
    parser = new_parser(table)
    events = parser.feed(Delta("just text")) + parser.feed(End("stop"))
    check_conservation(events, "just text")
    check_well_formed(events)


@pytest.mark.parametrize("table", TABLES)
def test_prompt_after_output_changes_nothing(table):
    """A rejected Prompt mid-stream leaves the parse as if it had not been fed."""
    output = '<think>a</think><tool_call>\n{"name": "f", "arguments": {"x": 1}}\n</tool_call>[{"name": "g"}]'
    parser = new_parser(table)
    events = parser.feed(Delta(output[:20]))
    with pytest.raises(symphony.LifecycleError):
        parser.feed(Prompt("<think>\n"))
    events += parser.feed(Delta(output[20:])) + parser.feed(End("stop"))
    check_conservation(events, output)
    assert said(events) == said(symphony.parse(table, output))


@pytest.mark.parametrize("table", TABLES)
def test_end_only(table):
    events = new_parser(table).feed(End("stop"))
    assert [e.to_dict() for e in events] == [
        {"kind": "finish", "reason": "stop", "tool_calls": 0, "reasoning_tokens": 0}]


@pytest.mark.parametrize("table", TABLES)
def test_rejected_inputs_after_end_emit_nothing_again(table):
    parser = new_parser(table)
    parser.feed(Delta("x"))
    assert type(parser.feed(End("length"))[-1]) is Finish
    for _ in range(2):
        lifecycle_error(parser, Delta("y"), "delta after end")
        lifecycle_error(parser, End("stop"), "end after end")
