"""Property tests for every table (SPEC §9.2's properties on generated outputs): conservation,
chunking invariance against the whole parse, well-formedness and order, token identity; and
prose that holds no call reads as written (docs/recovery.md). Outputs are built from the table's
own markers (tests/strategies.py); every bug found is an `@example` here.
"""
import json

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import symphony
from symphony import Delta, End, Prompt, TokenSpan
from symphony.adapt import chat
from symphony.events import Dropped, Reasoning, ToolCallStart
from symphony.formats import table as format_table
from symphony.reasons import DropReason
from symphony.text import is_blank
from tests.common import (
    carries_text,
    check_conservation,
    check_well_formed,
    counted_deltas,
    expected_token_counts,
    new_parser,
    replay,
    said,
    synthetic_token_bounds,
    tokens_of,
)
from tests import tiers
from tests.corpus import TOOLS
from tests.strategies import (SEEDS, cut_plans, cuts_of, outputs, prompts, prose_around_calls, prose_outputs,
                              token_layouts, tools)

TABLES = symphony.formats()
# as many examples as the loaded profile asks for (tests/conftest.py: 80 in the exhaustive tier,
# fewer on the sanitizer build, thousands under HYPOTHESIS_PROFILE=fuzz), of which the fast tier
# runs a share on all but the representative tables (tests/tiers.py)
SETTINGS = settings(
    deadline=None,
    # outputs are joined from structured pieces: the smallest one is not tiny, and that is fine
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large],
)


@st.composite
def scenario(draw, table):
    """(output, prompt, pieces, token bounds, the request's tools) for one table."""
    text = draw(outputs(table))
    return text, draw(prompts(table)), draw(cut_plans(text)), draw(token_layouts(text)), draw(tools())


# Bugs found, kept as examples. A cut inside a lone surrogate escape or inside a word that is no
# literal once changed the arguments and the Malformed text (the validator's rollback was clamped
# to bytes already sent); undecided bytes now wait. (output, pieces, prompt, tools)
FOUND = [
    ('<tool_call>{"name": "f", "arguments": {"t": "\\udf89"}}</tool_call>',
     ['<tool_call>{"name": "f", "arguments": {"t": "\\udf8', '9"}}</tool_call>'], None, None),
    ('<tool_call>{"name": "f", "arguments": {"a": tru e}}</tool_call>',
     ['<tool_call>{"name": "f", "arguments": {"a": tru', ' e}}</tool_call>'], None, None),
    ('[, {"name": "f", "arguments": [tru]}]',
     ['[, {"name": "f", "arguments": [tru', ']}]'], None, None),
    ('[{"name": "f", "arguments": {"t": "\\ud83c x"}}]',
     ['[{"name": "f", "arguments": {"t": "\\', 'ud83c x"}}]'], None, None),
]


def with_found(test):
    """Every bug found, as an @example of `test` (fresh example objects: hypothesis shares the
    list of the first example object a test received)."""
    for output, pieces, prompt, tools in FOUND:
        test = example(case=(output, prompt, pieces, synthetic_token_bounds(output), tools))(test)
    return test


def conservation(table):
    @settings(SETTINGS, max_examples=tiers.examples(table, settings.default.max_examples))
    @given(case=scenario(table))
    @with_found
    def test(case):
        output, prompt, pieces, _, tools = case
        for plan in ([output], pieces):
            check_conservation(replay(new_parser(table, tools), plan, prompt), output)
    return test


def well_formed(table):
    @settings(SETTINGS, max_examples=tiers.examples(table, settings.default.max_examples))
    @given(case=scenario(table))
    @with_found
    def test(case):
        output, prompt, pieces, _, tools = case
        check_well_formed(replay(new_parser(table, tools), pieces, prompt))
    return test


def chunking_invariance(table):
    @settings(SETTINGS, max_examples=tiers.examples(table, settings.default.max_examples))
    @given(case=scenario(table))
    @with_found
    def test(case):
        output, prompt, pieces, _, tools = case
        whole = said(replay(new_parser(table, tools), [output], prompt))
        chunked = said(replay(new_parser(table, tools), pieces, prompt))
        assert chunked == whole, f"{table}: {output!r} cut {pieces!r}\n  whole {whole}\n  cut   {chunked}"
        with_empty = said(replay(new_parser(table, tools), pieces, prompt, empty_between=True))
        assert with_empty == whole, f"{table}: empty deltas changed {output!r} cut {pieces!r}"
    return test


def token_identity(table):
    @settings(SETTINGS, max_examples=tiers.examples(table, settings.default.max_examples))
    @given(case=scenario(table))
    @with_found
    def test(case):
        output, prompt, pieces, bounds, tools = case
        starts = [len(output[:t0].encode()) for t0, _ in bounds]
        end_tokens = sum(1 for t0, _ in bounds if t0 == len(output))
        parser = new_parser(table, tools)
        events = [] if prompt is None else parser.feed(Prompt(prompt))
        for delta in counted_deltas(pieces, bounds):
            events += parser.feed(delta)
        events += parser.feed(End("stop"))
        check_conservation(events, output)
        check_well_formed(events)
        trailer = events[-2]
        assert type(trailer) is Dropped and trailer.why == DropReason.CONTROL_TOKEN, f"{trailer!r}"
        assert trailer.text.text == "" and trailer.text.tokens == end_tokens, f"{trailer!r}"
        body = events[:-2]
        for e, want in zip(body, expected_token_counts(body, output, starts)):
            if carries_text(e):
                assert tokens_of(e) == want, f"{e!r} carries {tokens_of(e)} tokens, its bytes hold {want}\n  {events!r}"
        assert sum(tokens_of(e) for e in events if carries_text(e)) == len(bounds)
        assert events[-1].reasoning_tokens == sum(e.tokens for e in events if type(e) is Reasoning)
    return test


def token_by_token(table):
    """feed_token(text, id) per token is feed(Delta(text, [id], [its span])) per token: the same
    events, feed by feed, counts included (the output cut into the layout's tokens)."""
    # one path shared by both
    @settings(SETTINGS, max_examples=max(1, tiers.examples(table, settings.default.max_examples) // 4))
    @given(case=scenario(table))
    @with_found
    def test(case):
        output, prompt, _, bounds, tools = case
        steps = [(output[t0:t1], 1000 + i) for i, (t0, t1) in enumerate(bounds)]
        by_token, by_delta = new_parser(table, tools), new_parser(table, tools)
        events = [] if prompt is None else by_token.feed(Prompt(prompt))
        if prompt is not None:
            by_delta.feed(Prompt(prompt))
        for text, token_id in steps:
            got = by_token.feed_token(text, token_id)
            span = TokenSpan(token_id, 0, len(text.encode("utf-8")))
            assert got == by_delta.feed(Delta(text, [token_id], [span])), f"{table}: {output!r} at {text!r}"
            events += got
        events += by_token.feed(End("stop"))
        check_conservation(events, output)
        assert sum(tokens_of(e) for e in events if carries_text(e)) == len(steps)
    return test


# a call the end cuts short in a number's tail (`2.`: no part of the arguments, which close as
# `{"a": "x", "b": [1, 2]}`)
CUT_CALL = '<tool_call>{"name": "f", "arguments": {"a": "x", "b": [1, 2.'


def arguments_load(table):
    """Every call's arguments in the message load with json.loads (one whole JSON value) when the
    stream was not stopped for its length, whole and at every cut: a call cut short, closed by a
    marker before its end or written with arguments a strict reader refuses ends with them closed.
    Stopped for its length, a call keeps its arguments as far as they were written: what streamed."""
    @settings(SETTINGS, max_examples=tiers.examples(table, settings.default.max_examples))
    @given(case=scenario(table), finish=st.sampled_from(["stop", "stop", "abort", "content_filter"]))
    @example(case=(CUT_CALL, None, [CUT_CALL[:20], CUT_CALL[20:]], synthetic_token_bounds(CUT_CALL), None),
             finish="stop")
    def test(case, finish):
        output, prompt, pieces, _, tools = case
        for plan in ([output], pieces):
            message = chat.message(replay(new_parser(table, tools), plan, prompt, finish))
            for call in message["message"]["tool_calls"] or ():
                arguments = call["function"]["arguments"]
                try:
                    json.loads(arguments)
                except ValueError:
                    raise AssertionError(f"{table}: {output!r} cut {plan!r} finish {finish}: "
                                         f"arguments {arguments!r} do not load") from None
        cut = replay(new_parser(table, tools), pieces, prompt, "length")
        streamed = said(replay(new_parser(table, tools), [output], prompt, "length")).arguments
        assert said(cut).arguments == streamed
    return test


def prose_reads_as_written(table):
    """Output in which no call starts gives back, in the message, every byte the model wrote but
    the thought's markers (its opener, when the prompt did not write it, and its close) and the
    Unicode whitespace at the edges of text between messages (a wrapper state's): the thought is
    the reasoning, the rest the content, a call region's markers and all, byte for byte; whole
    and at a seeded cut plan."""
    @settings(SETTINGS, max_examples=tiers.examples(table, settings.default.max_examples),
              suppress_health_check=list(HealthCheck))
    @given(case=prose_outputs(table), seed=SEEDS)
    def test(case, seed):
        events = symphony.parse(table, case.output, prompt=case.prompt)
        assume(not any(type(e) is ToolCallStart for e in events))
        want = (None if is_blank(case.content) else case.content, case.reasoning or None)
        for plan in ([case.output], cuts_of(case.output, seed)):
            if len(plan) > 1:
                events = replay(new_parser(table, None), plan, case.prompt)
            message = chat.message(events)["message"]
            got = (message["content"], message["reasoning_content"])
            assert got == want, f"{table}: {case.output!r} (prompt {case.prompt!r}) cut {plan!r}"
    return test


def prose_around_calls_reads_as_written(table):
    """Calls written without their block among prose (a recovery of this table: shapes.bare_calls,
    shapes.calls_without_block) are read, and the content is the prose, every byte of it: the
    whitespace around each call included (no block was written, so none of it is a block's
    wrapping), the block's close the model writes after a call left out; whole and at a seeded cut
    plan."""
    @settings(SETTINGS, max_examples=tiers.examples(table, settings.default.max_examples),
              suppress_health_check=list(HealthCheck))
    @given(case=prose_around_calls(table), seed=SEEDS)
    def test(case, seed):
        want = None if is_blank(case.content) else case.content
        for plan in ([case.output], cuts_of(case.output, seed)):
            message = chat.message(replay(new_parser(table, TOOLS), plan, None))["message"]
            assert message["content"] == want, f"{table}: {case.output!r} cut {plan!r}"
            assert [c["function"]["name"] for c in message["tool_calls"] or ()] == ["get_weather"] * case.calls
    return test


for _table in TABLES:
    for _property in (conservation, well_formed, chunking_invariance, token_identity, token_by_token,
                      prose_reads_as_written, arguments_load):
        _test = _property(_table)
        _test.__name__ = f"test_{_property.__name__}_{_table}"
        globals()[_test.__name__] = _test
    if format_table(_table).prose:
        _test = prose_around_calls_reads_as_written(_table)
        _test.__name__ = f"test_prose_around_calls_reads_as_written_{_table}"
        globals()[_test.__name__] = _test
del _table, _property, _test
