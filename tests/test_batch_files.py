"""symphony.batch.files, the way a batch's chunk crosses to a worker and back: a job and its
result round-trip through files (texts with lone surrogates, token spans, Arrow tables), the
files and their directory are gone afterwards, also when a chunk fails; parse_many over a
caller's thread pool (the same transport in one process) and over workers gives what one process
gives."""
import concurrent.futures
import errno
import glob
import os
import signal
import subprocess
import tempfile
import time

import numpy as np
import pytest

from symphony import batch
from symphony.batch import files as batch_files
from symphony.batch.files import Scratch, unpacked, write_result
from tests.processes import ended, private_tmpfs, python, symphony_files, terminate, wait_until

pa = pytest.importorskip("pyarrow")


@pytest.fixture
def base(tmp_path, monkeypatch):
    """A private directory the batch's chunk directories go to (other tests' batches, on other
    xdist workers, make theirs elsewhere)."""
    monkeypatch.setattr(batch_files, "_MEMORY_BACKED", str(tmp_path))
    return tmp_path


def leftovers(base):
    return set(glob.glob(os.path.join(base, "symphony-batch-*")))


def test_a_job_and_its_results_cross_and_leave_nothing(base):
    spans = np.arange(40, dtype=np.int64).reshape(10, 4)
    job = (["plain"], [None], [None], ["stop"], None, spans, np.array([0, 10]), False, "raise")
    texts = ["caf\u00e9 \ud800 end", "", "\u4e2d\u6587 \U0001f600"]
    with Scratch() as scratch:
        assert os.path.isdir(scratch.path)
        shipped = scratch.ship(0, job, texts)
        got, column = unpacked(shipped)
        assert not os.path.exists(shipped.job) and not os.path.exists(shipped.texts)     # once read or mapped
        assert np.array_equal(got[5], spans) and got[:5] == job[:5] and got[7:] == job[7:]
        assert len(column) == 3 and column.checked and (column[1], column[2]) == ("", texts[2])
        with pytest.raises(ValueError, match=r"output: not UTF-8 text \(surrogates not allowed at character 5\)"):
            column[0]
        rows = [("a", None, [("id", "f", "{}")], "stop", 1, None, 1, 0, None)]
        assert write_result(shipped, rows) is False
        assert scratch.landed(shipped, False) == rows
        assert os.listdir(scratch.path) == []
        table = batch._summary_table(rows)
        again = scratch.ship(1, job, pa.array(texts[1:]))
        assert write_result(again, table) is True
        assert scratch.landed(again, True).equals(table)
        assert os.path.dirname(scratch.path) == str(base)
        left = scratch.ship(2, job, texts)
    assert not os.path.exists(left.job) and not leftovers(base)


def test_the_directory_goes_when_the_batch_fails(base):
    with pytest.raises(RuntimeError):
        with Scratch() as scratch:
            scratch.ship(0, ("anything",), ["text"])
            raise RuntimeError("a chunk failed")
    assert not os.path.exists(scratch.path) and not leftovers(base)


def test_a_batch_too_big_for_dev_shm_goes_to_the_temporary_directory(base):
    with Scratch(10 ** 18) as scratch:
        assert os.path.dirname(scratch.path) == tempfile.gettempdir()
    with Scratch(1000) as scratch:
        assert os.path.dirname(scratch.path) == str(base)


OUTPUTS = ['<think>a</think><tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>', "plain \ud800 text",
           "b", '<tool_call>{"name": "g", "arguments": "{\\"y\\": 2}"}</tool_call>'] * 5


@pytest.mark.parametrize("as_arrow", [False, True])
def test_a_thread_pool_gives_what_one_process_gives(as_arrow):
    want = batch.parse_many("qwen3", OUTPUTS, errors="keep", as_arrow=as_arrow)
    with concurrent.futures.ThreadPoolExecutor(3) as threads:
        got = batch.parse_many("qwen3", OUTPUTS, errors="keep", as_arrow=as_arrow, workers=threads)
    assert got.equals(want) if as_arrow else got == want
    assert batch.results("qwen3", OUTPUTS, errors="keep") == batch.results("qwen3", OUTPUTS, errors="keep",
                                                                           workers=2)


def test_a_failing_chunk_in_a_worker_raises_and_leaves_nothing(base):
    with pytest.raises(ValueError, match="output: not UTF-8 text"):
        batch.parse_many("plain", ["a", "b", "c", "d\ud800"], workers=2)
    with concurrent.futures.ThreadPoolExecutor(2) as threads:
        with pytest.raises(ValueError, match="output: not UTF-8 text"):
            batch.parse_many("plain", ["a\ud800", "b", "c", "d"], workers=threads, as_arrow=True)
    assert not leftovers(base)


def test_an_arrow_chunk_ships_its_own_bytes_only():
    texts = ["x" * 1000 + str(i) for i in range(100)]
    for column in (pa.array(texts), pa.chunked_array([texts[:30], texts[30:]]),
                   pa.chunked_array([texts[:70], texts[70:]], type=pa.large_string())):
        with Scratch() as scratch:
            shipped = scratch.ship(0, (), column[60:80])
            assert os.path.getsize(shipped.texts) < 25_000      # 20 outputs of ~1 KB, not all 100
            _, got = unpacked(shipped)
            assert not got.checked and [got[i] for i in range(len(got))] == texts[60:80]


@pytest.mark.parametrize("make", [pa.array, lambda t: pa.chunked_array([t[:7], t[7:]]),
                                  lambda t: pa.array(t, type=pa.large_string())])
def test_arrow_outputs_over_workers_give_what_a_list_gives(make):
    outputs = [t.replace("\ud800", "\u00e9") for t in OUTPUTS]     # Arrow holds UTF-8 only
    want = batch.parse_many("qwen3", outputs)
    assert batch.parse_many("qwen3", make(outputs), workers=2) == want
    assert batch.parse_many("qwen3", make(outputs)) == want
    with pytest.raises(TypeError, match=r"outputs\[1\] must be a str, not NoneType"):
        batch.parse_many("qwen3", make(["a", None] + outputs[2:]), workers=2)


@pytest.mark.parametrize("first", [1.0, batch.CALLER_SHARE])
def test_chunks_cover_every_output_once_none_empty(first):
    for n in range(1, 120):
        for parts in range(1, 12):
            chunks = batch._chunks(n, parts, first)
            sizes = [end - start for start, end in chunks]
            assert chunks[0][0] == 0 and chunks[-1][1] == n and min(sizes) > 0 and len(chunks) == min(n, parts)
            assert all(a[1] == b[0] for a, b in zip(chunks, chunks[1:]))
            if first == 1.0:
                assert max(sizes) - min(sizes) <= 1
    sizes = [end - start for start, end in batch._chunks(21000, 3, first)]
    assert abs(sizes[0] / sizes[1] - first) < 0.01 and abs(sizes[1] - sizes[2]) <= 1


def test_a_pool_counts_the_caller_and_parses_there_too(base):
    with pytest.raises(ValueError, match="at least 2 processes"):
        batch.pool(1)
    want = batch.parse_many("qwen3", OUTPUTS, errors="keep")
    with batch.pool(2) as two:
        assert (two.processes, two._max_workers) == (2, 1)
        assert batch.parse_many("qwen3", OUTPUTS, errors="keep", workers=two) == want
        assert batch.parse_many("qwen3", OUTPUTS[:1], errors="keep", workers=two) == want[:1]
        for bad in (0, 3):               # the caller's chunk failing, then a worker's
            outputs = ["a", "b", "c", "d"]
            outputs[bad] += "\ud800"
            with pytest.raises(ValueError, match="output: not UTF-8 text"):
                batch.parse_many("plain", outputs, workers=two)
    assert not leftovers(base)


def test_the_caller_waits_for_a_worker_to_begin_only_so_long():
    pending, ended = concurrent.futures.Future(), concurrent.futures.Future()
    ended.set_result(True)
    with Scratch() as scratch:
        shipped = scratch.ship(0, ("job",), [])
        start = time.monotonic()
        batch_files.wait_started(shipped, ended)
        batch_files.wait_started(shipped, pending, patience=0.02)
        assert time.monotonic() - start >= 0.02
        job, texts = unpacked(shipped)
        assert job == ("job",) and len(texts) == 0 and os.path.exists(shipped.started)
        start = time.monotonic()
        batch_files.wait_started(shipped, pending, patience=60)
        assert time.monotonic() - start < 30
        write_result(shipped, [])
        assert scratch.landed(shipped, False) == [] and os.listdir(scratch.path) == []


def test_one_pool_used_by_two_threads_at_once_gives_each_its_own(base):
    """Two callers share the one worker: the second's chunk waits for it (its caller goes on
    after a bounded wait), and each gets its own messages."""
    first, second = OUTPUTS, [t + " more" for t in reversed(OUTPUTS)]
    want = [batch.parse_many("qwen3", outputs, errors="keep") for outputs in (first, second)]
    with batch.pool(2) as two, concurrent.futures.ThreadPoolExecutor(2) as callers:
        got = [callers.submit(batch.parse_many, "qwen3", outputs * 50, errors="keep", workers=two)
               for outputs in (first, second)]
        assert [g.result() for g in got] == [w * 50 for w in want]
    assert not leftovers(base)


def test_a_pool_keeps_the_regions_its_chunks_texts_cross_in(base):
    """A kept pool's next batches write their worker's texts where the first's went (no fresh
    pages); a region that would pass KEPT_BYTES is a file of the chunk's own; shutting the pool
    down removes them all."""
    want = batch.parse_many("qwen3", OUTPUTS * 40, errors="keep")
    with batch.pool(2) as two:
        assert batch.parse_many("qwen3", OUTPUTS * 40, errors="keep", workers=two) == want
        regions = set(two.regions.free)     # one per piece the worker's rows came in
        assert len(regions) == batch.ROW_PIECES and all(r.path.startswith(str(base)) for r in regions)
        assert batch.parse_many("qwen3", OUTPUTS * 40, errors="keep", workers=two) == want
        assert set(two.regions.free) == regions and all(os.path.exists(r.path) for r in regions)
        # as_arrow ships the worker's share whole: a larger region, the smallest free one dropped
        assert batch.parse_many("qwen3", OUTPUTS * 40, errors="keep", workers=two, as_arrow=True).equals(
            batch.parse_many("qwen3", OUTPUTS * 40, errors="keep", as_arrow=True))
        assert len(two.regions.free) == batch.ROW_PIECES and len(regions - set(two.regions.free)) == 1
        directory = two.regions.path
    assert not os.path.exists(directory) and not leftovers(base)


def test_regions_are_taken_smallest_first_kept_to_a_count_and_refused_past_the_cap(base, monkeypatch):
    regions = batch_files.Regions(kept=2)
    small, large = regions.take(100), regions.take(1000)
    assert (small.capacity, large.capacity) == (125, 1250)
    regions.give(large)
    regions.give(small)
    assert regions.take(90) is small and regions.take(200) is large
    third = regions.take(10)
    for region in (small, large, third):
        regions.give(region)
    assert regions.free == [large, small] and not os.path.exists(third.path)
    monkeypatch.setattr(batch_files, "KEPT_BYTES", 500)
    assert regions.take(1000) is large and regions.take(5000) is None
    regions.close()
    assert not os.path.exists(regions.path)
    regions.give(large)                           # back after the pool closed: removed, not kept
    assert regions.free == [] and regions.take(10) is None
    with pytest.raises(RuntimeError, match="after shutdown"):
        with batch.pool(2) as two:
            two.shutdown()
            batch.parse_many("plain", ["a", "b"], workers=two)


def test_a_failed_batch_gives_its_regions_back(base):
    with batch.pool(2) as two:
        with pytest.raises(ValueError, match="output: not UTF-8 text"):
            batch.parse_many("plain", ["a"] * 49 + ["a\ud800"], workers=two)
        assert len(two.regions.free) == batch.ROW_PIECES


def test_a_kept_region_is_left_in_place_by_its_reader(base):
    with batch.pool(2) as two, Scratch(0, two.regions) as scratch:
        shipped = scratch.ship(0, ("job",), ["kept"])
        assert shipped.kept and os.path.dirname(shipped.texts) == two.regions.path
        _, texts = unpacked(shipped)
        assert texts[0] == "kept" and os.path.exists(shipped.texts) and not os.path.exists(shipped.job)
        write_result(shipped, [])
        assert scratch.landed(shipped, False) == [] and os.path.exists(shipped.texts)


# A caller that keeps parsing over two processes ("busy": a pool made and shut by each call), or
# that made a kept pool, parsed once with it and waits ("idle"). It says "ready" first.
CALLER = """
import sys, time
from symphony import batch
OUTPUTS = ['<think>a</think>b <tool_call>{"name": "f", "arguments": {"x": [1, 2]}}</tool_call>' * 20] * 6000
if __name__ == "__main__":
    print("ready", flush=True)
    if sys.argv[1] == "busy":
        while True:
            batch.parse_many("qwen3", OUTPUTS, workers=2, as_events=len(sys.argv) > 2)
    pool = batch.pool(2)
    batch.parse_many("qwen3", OUTPUTS[:200], workers=pool)
    print("idle", flush=True)
    time.sleep(120)
"""


def started_chunks(shm, tmp):
    """The chunks a worker has begun and that have not landed yet."""
    return [f for f in symphony_files(shm, tmp) if f.endswith(".started")]


@pytest.mark.parametrize("how", ["busy", "busy as events", "idle"])
def test_a_sigterm_leaves_no_file_and_no_worker(tmp_path, how):
    """SIGTERM to a caller mid-batch (a worker under way with its chunk) or idle with a kept pool
    (its regions on the memory-backed directory): once it is gone, no file of it is left and no
    process it started runs."""
    shm, tmp = tmp_path / "shm", tmp_path / "tmp"
    shm.mkdir()
    tmp.mkdir()
    with ended(python(CALLER, *how.split(" ", 1), shm=shm, tmp=tmp, stdout=subprocess.PIPE, text=True)) as caller:
        assert caller.stdout.readline() == "ready\n"
        if how == "idle":
            assert caller.stdout.readline() == "idle\n"
            assert symphony_files(shm), "the kept pool's regions"
        else:
            assert wait_until(lambda: started_chunks(shm, tmp), 60, 0.001), "no chunk under way in a worker"
        status, started, gone = terminate(caller)
    assert started and status == -signal.SIGTERM          # it died of the signal, as by default
    assert gone, "a worker outlived its caller"
    assert symphony_files(shm, tmp) == []


def test_sigterm_is_handled_only_while_a_path_is_held_and_only_where_it_is_at_its_default(tmp_path):
    from symphony.batch import teardown
    before = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        with Scratch() as scratch:
            assert signal.getsignal(signal.SIGTERM) is teardown._on_sigterm and scratch.path in teardown._held
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL and scratch.path not in teardown._held
        signal.signal(signal.SIGTERM, lambda *_: None)       # a program's own handler is kept
        with Scratch():
            assert signal.getsignal(signal.SIGTERM) is not teardown._on_sigterm
        (tmp_path / "d").mkdir()
        (tmp_path / "d" / "f").write_bytes(b"x")
        (tmp_path / "g").write_bytes(b"y")
        for path in (tmp_path / "d", tmp_path / "g", tmp_path / "gone"):
            teardown.remove(str(path))
        assert list(tmp_path.iterdir()) == []
    finally:
        signal.signal(signal.SIGTERM, before)


def full(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("fills", ["texts", "job", "result", "region"])
@pytest.mark.parametrize("as_arrow", [False, True])
def test_a_chunk_whose_files_find_no_room_crosses_through_the_pipe(base, monkeypatch, fills, as_arrow):
    """A write that finds the file system full (texts, job, a kept region, or the worker's result)
    sends that chunk or its result through the pool's pipe: the batch is what one process gives,
    and none of its files is left (a thread pool runs the same transport in this process)."""
    want = batch.parse_many("qwen3", OUTPUTS, errors="keep", as_arrow=as_arrow)
    target = {"texts": (batch_files.utf8_columns, "write"), "job": (batch_files.pickle, "dump"),
              "result": (batch_files, "_write_result"), "region": (batch_files.utf8_columns, "allocate")}[fills]
    monkeypatch.setattr(*target, full)
    if fills == "region":
        with batch.pool(2) as two:
            got = batch.parse_many("qwen3", OUTPUTS, errors="keep", as_arrow=as_arrow, workers=two)
            assert two.regions.free == []
    else:
        with concurrent.futures.ThreadPoolExecutor(2) as threads:
            got = batch.parse_many("qwen3", OUTPUTS, errors="keep", as_arrow=as_arrow, workers=threads)
    assert got.equals(want) if as_arrow else got == want
    assert symphony_files(base) == []


# Outputs whose events take about 2.7 times their texts: over two processes, the worker's chunk and
# its events do not fit a 16 MB /dev/shm, though three times the texts it ships do.
SMALL_SHM = """
import sys
from symphony import batch
OUTPUTS = [''.join(f'<think>a{i}</think>b{j} <tool_call>{{"name": "f{j}", "arguments": {{"x": [{i}, {j}]}}}}</tool_call>'
                   for j in range(20)) for i in range(5000)]
if __name__ == "__main__":
    for kind in ({"as_events": True}, {"as_arrow": True}, {}):
        one = batch.parse_many("qwen3", OUTPUTS, **kind)
        two = batch.parse_many("qwen3", OUTPUTS, workers=2, **kind)
        print(kind, two.equals(one) if "as_arrow" in kind else two == one, flush=True)
"""


def test_a_small_dev_shm_gives_what_one_process_gives(tmp_path):
    """On a 16 MB memory-backed file system (a private tmpfs, in a mount namespace of its own)."""
    shm, tmp = tmp_path / "shm", tmp_path / "tmp"
    shm.mkdir()
    tmp.mkdir()
    mount = private_tmpfs(shm, "16m")
    if mount is None:
        pytest.skip("no private tmpfs here (unshare --mount needs CAP_SYS_ADMIN)")
    run = python(SMALL_SHM, shm=shm, tmp=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, wrap=mount)
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err[-2000:]
    assert out.splitlines() == ["{'as_events': True} True", "{'as_arrow': True} True", "{} True"]
    assert symphony_files(tmp) == []
