"""Every allocation of a feed struck in turn (debug build: `_native._fail_allocation_after`): the
feed that meets the failure raises MemoryError carrying the events it had made, the parser is
failed for good, End gives back every byte no event accounted for as Malformed (an End that
meets it carries the finished stream itself), and across the feeds, the error and End every byte
fed is in exactly one event, well formed (SPEC §1.6).

Run on every table's corpus cases that write something of each kind (calls, thoughts, cut
shapes), streamed in small pieces so that allocations happen in many feeds. Skipped on the release
build, where allocations cannot be made to fail; CI's checked build runs it.
"""
import pytest

import symphony
from symphony import _native
from symphony.events import Finish, bytes_of
from tests.common import check_well_formed
from tests.corpus import corpus

pytestmark = pytest.mark.skipif(not _native.INJECTABLE, reason="needs the debug build (SYMPHONY_DEBUG=1)")

PIECE = 7                 # characters a delta
CASES_PER_TABLE = 6       # the corpus cases with the most markup, per table
MAX_STRIKES = 400         # allocations struck per case at most (a runaway guard, never reached)


def _cases():
    out = []
    for table in symphony.formats():
        cases = sorted(corpus(table), key=lambda c: (-len(c.output.encode()) if "<" in c.output else 0, c.name))
        out += [(table, case) for case in cases[:CASES_PER_TABLE]]
    return out


def strike(table, case, n):
    """One run with the allocation after the next `n` failing: (events, fed text, struck)."""
    parser = symphony.parser(table, case.tools)
    events = []
    if case.prompt is not None:
        events += parser.feed(symphony.Prompt(case.prompt))
    fed = ""
    struck = False
    _native._fail_allocation_after(n)
    try:
        for i in range(0, len(case.output), PIECE):
            piece = case.output[i:i + PIECE]
            fed += piece
            try:
                events += parser.feed(symphony.Delta(piece))
            except MemoryError as error:
                struck = True
                events += error.events
                assert parser.failed, "a feed that fails leaves the parser failed"
                assert 0 <= error.offset <= len(fed.encode())
                with pytest.raises(symphony.LifecycleError, match="only end is accepted"):
                    parser.feed(symphony.Delta("more"))
                break
        try:
            events += parser.feed(symphony.End("stop"))
        except MemoryError as error:    # End's error is final: it carries the finished stream
            struck = True
            events += error.events
            with pytest.raises(symphony.LifecycleError, match="end after end"):
                parser.feed(symphony.End("stop"))
    finally:
        left = _native._allocations_before_failure()
        _native._fail_allocation_after(-1)
    return events, fed, struck or left < 0


@pytest.mark.parametrize("table, case", _cases(), ids=lambda v: getattr(v, "name", v))
def test_every_allocation_struck_in_turn_loses_no_byte(table, case):
    for n in range(MAX_STRIKES):
        events, fed, struck = strike(table, case, n)
        assert "".join(bytes_of(e) for e in events) == fed, f"allocation {n}: bytes lost or doubled"
        check_well_formed(events)
        assert type(events[-1]) is Finish
        if not struck:
            return                      # the run made fewer than n + 1 allocations: all struck
    pytest.fail(f"more than {MAX_STRIKES} allocations in one run")


@pytest.mark.parametrize("as_bytes", [False, True], ids=["strs", "utf8_texts"])
@pytest.mark.parametrize("table, case", _cases()[::3], ids=lambda v: getattr(v, "name", v))
def test_the_batch_fold_struck_in_turn_raises_or_says_what_the_events_say(table, case, as_bytes):
    """Each allocation of a whole parse folded in the core (the batch path: Engine.message and
    fold_summaries, over strs or over a Utf8Texts' bytes) struck in turn: a MemoryError, kept as
    that output's error by the loop, or the message of the events; never a crash or a half-made
    row."""
    import numpy as np
    from symphony.adapt import chat
    from symphony.parser import Utf8Texts, fold_summaries
    texts = [case.output]
    if as_bytes:
        raw = case.output.encode()
        texts = Utf8Texts(raw, np.array([0, len(raw)], np.int64), True)
    expected = chat.message(symphony.parser(table, case.tools).parse(case.output, case.prompt))
    table_compiled = symphony.parser(table).table
    for n in range(MAX_STRIKES):
        _native._fail_allocation_after(n)
        try:
            try:
                got = symphony.parser(table, case.tools).message(case.output, case.prompt)[0]
            except MemoryError:
                got = None
            [row] = fold_summaries([table_compiled], [case.tools], [case.prompt], texts, ["stop"],
                                   on_error=lambda e: type(e).__name__)
        finally:
            left = _native._allocations_before_failure()
            _native._fail_allocation_after(-1)
        assert got is None or got == expected
        assert row[8] in (None, "MemoryError") and (row[8] is not None or row[:4] == (
            expected["message"]["content"], expected["message"]["reasoning_content"],
            None if expected["message"]["tool_calls"] is None else [
                (c["id"], c["function"]["name"], c["function"]["arguments"]) for c in expected["message"]["tool_calls"]],
            expected["finish_reason"]))
        if left >= 0 and got is not None:
            break                   # neither run reached the struck allocation: all were struck


@pytest.mark.parametrize("seal_bytes", [1 << 30, 0])
@pytest.mark.parametrize("table, case", _cases()[::3], ids=lambda v: getattr(v, "name", v))
def test_the_batch_arrow_rows_struck_in_turn_stay_whole_rows(table, case, seal_bytes):
    """Each allocation of a whole parse written into Arrow's buffers (ArrowRows) struck in turn:
    the output's row is its MemoryError or what the events say, and the columns stay one valid
    table (a row is written whole or not at all), each row its own batch too (seal_bytes 0)."""
    pytest.importorskip("pyarrow")
    from symphony import batch
    from symphony.adapt import chat
    from symphony.parser import ArrowRows, fold_summaries
    message = chat.message(symphony.parser(table, case.tools).parse(case.output, case.prompt))
    calls = message["message"]["tool_calls"]
    expected = (message["message"]["content"], message["message"]["reasoning_content"],
                None if calls is None else [{"id": c["id"], "name": c["function"]["name"],
                                             "arguments": c["function"]["arguments"]} for c in calls],
                message["finish_reason"])
    table_compiled = symphony.parser(table).table
    before = fold_summaries([table_compiled], [case.tools], [case.prompt], ["before"], ["stop"], into=ArrowRows())
    [before] = batch._arrow_table(before).to_pylist()
    for n in range(MAX_STRIKES):
        rows = ArrowRows(seal_bytes)
        fold_summaries([table_compiled], [case.tools], [case.prompt], ["before"], ["stop"], into=rows)
        _native._fail_allocation_after(n)
        try:
            fold_summaries([table_compiled], [case.tools], [case.prompt], [case.output], ["stop"],
                           on_error=lambda e: type(e).__name__, into=rows)
        finally:
            left = _native._allocations_before_failure()
            _native._fail_allocation_after(-1)
        got = batch._arrow_table(rows)
        got.validate(full=True)
        first, row = got.to_pylist()
        assert first == before
        assert row["error"] in (None, "MemoryError")
        if row["error"] is None:
            assert (row["content"], row["reasoning_content"], row["tool_calls"], row["finish_reason"]) == expected
        if left >= 0:
            break                   # the run did not reach the struck allocation: all were struck


@pytest.mark.parametrize("table, case", _cases()[::3], ids=lambda v: getattr(v, "name", v))
def test_the_batch_json_lines_struck_in_turn_stay_whole_lines(table, case):
    """Each allocation of a whole parse written as a JSON line (JsonLines) struck in turn: the
    output's line is its MemoryError or what the events say, whole, after the line before it
    (what was written of a struck line goes)."""
    import json
    from symphony.adapt import chat
    from symphony.parser import JsonLines, fold_summaries
    choice = chat.message(symphony.parser(table, case.tools).parse(case.output, case.prompt))
    expected = {"line": 2, "message": choice["message"], "finish_reason": choice["finish_reason"]}
    table_compiled = symphony.parser(table).table
    before = fold_summaries([table_compiled], [case.tools], [case.prompt], ["before"], ["stop"], into=JsonLines([1]))
    before = json.loads(before.lines()[0])
    for n in range(MAX_STRIKES):
        lines = JsonLines([1, 2])
        fold_summaries([table_compiled], [case.tools], [case.prompt], ["before"], ["stop"], into=lines)
        _native._fail_allocation_after(n)
        try:
            fold_summaries([table_compiled], [case.tools], [case.prompt], [case.output], ["stop"],
                           on_error=lambda e: type(e).__name__, into=lines)
        except MemoryError:
            got = None              # the error line itself could not be written: the run raised
        else:
            got = lines.lines()[0].decode("utf-8").split("\n")[:-1]     # (not splitlines: U+2028 is text here)
        finally:
            left = _native._allocations_before_failure()
            _native._fail_allocation_after(-1)
        if got is not None:
            first, line = (json.loads(text) for text in got)
            assert first == before
            assert line in (expected, {"line": 2, "error": "MemoryError"})
            assert [row for row, _ in lines.failures] == ([1] if "error" in line else [])
        if left >= 0:
            break                   # the run did not reach the struck allocation: all were struck


def _joined(feeds):
    """A stream's fields as one: content, reasoning, and per call index its name, arguments and id."""
    content, reasoning, calls = [], [], {}
    for fields in feeds:
        if fields is None:
            continue
        content.append(fields[0] or "")
        reasoning.append(fields[1] or "")
        for index, name, arguments, id in fields[2] or ():
            call = calls.setdefault(index, ["", "", ""])
            call[0] += name or ""
            call[1] += arguments
            call[2] += id or ""
    return "".join(content), "".join(reasoning), calls


@pytest.mark.parametrize("table, case", _cases()[::3], ids=lambda v: getattr(v, "name", v))
def test_a_field_stream_struck_in_turn_loses_no_field(table, case):
    """Each allocation of a stream read into an engine's delta fields (FieldStream, the serving
    integrations' path) struck in turn. Struck in the parse, the feed raises MemoryError, the
    parser is failed for good and End still answers; struck in the fold, the feed raises it and
    its records are folded with the next feed's, so that the stream's fields, joined, are those
    of an unstruck run. Never a crash or half-made fields."""
    from symphony.integrations import stream

    def run():
        """The fields of each feed and the End (None for a feed that raised), and whether the
        parser failed."""
        engine = symphony.parser(table, case.tools)
        if case.prompt is not None:
            engine.feed(symphony.Prompt(case.prompt))
        fields = _native.FieldStream(engine, stream.TOOL)
        got = []
        for i in range(0, len(case.output), PIECE):
            try:
                got.append(fields.feed(case.output[i:i + PIECE]))
            except MemoryError:
                got.append(None)
                if engine.failed:
                    with pytest.raises(symphony.LifecycleError, match="only end is accepted"):
                        fields.feed("more")
                    break
        failed = engine.failed               # (End turns a failed parser into an ended one)
        try:
            got.append(fields.end())
        except MemoryError:
            got.append(MemoryError)
        return got, failed
    expected, _ = run()
    for n in range(MAX_STRIKES):
        _native._fail_allocation_after(n)
        try:
            got, failed = run()
        finally:
            left = _native._allocations_before_failure()
            _native._fail_allocation_after(-1)
        if not failed and MemoryError not in got:
            assert _joined(got) == _joined(expected), f"allocation {n}: fields lost or doubled"
        if left >= 0:
            return                      # the run made fewer than n + 1 allocations: all struck
    pytest.fail(f"more than {MAX_STRIKES} allocations in one run")
