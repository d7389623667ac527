"""symphony.batch.parse_many against the plain loop (`chat.message(symphony.parse(...))` per
output) on the recorded fixture outputs of every family, repeated to --outputs, and two
processes (the caller and one worker, `batch.pool(2)`) against one. Prints outputs per second
and MB/s; nothing is asserted.

The fixture outputs are short (about 160 bytes); `--join K` makes each output K fixture outputs
of one case written one after another (a long output, as RL rollouts and eval logs hold), where
a worker's parsing outweighs what crosses between the processes. The runs are interleaved
round by round (this VM's speed drifts by a third within minutes), and a ceiling is measured in
the same rounds: two processes each parsing a half they already hold, which is the most two
processes could give here.

    python3 bench/batch.py [--outputs 20000] [--repeat 5] [--join 1] [--markdown FILE]

--markdown FILE (bench/RESULTS.md) replaces this bench's section of that file with this run's report.
"""
import argparse
import gc
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import symphony  # noqa: E402
from bench import results  # noqa: E402
from bench.common import FAMILIES, load_cases  # noqa: E402
from symphony import batch  # noqa: E402
from symphony.adapt import chat  # noqa: E402
from symphony.models import for_model  # noqa: E402


def workload(n, join=1):
    """n (Format, tools, prompt, finish, text) taken round-robin from every family's cases, each
    text its case's output written `join` times, and each a str object of its own (as a real
    batch's are: nothing for a pickler to share between outputs)."""
    setups = []
    for slug in FAMILIES["all"]:
        for case in load_cases(slug):
            model = for_model(case["model"], case["request"].get("chat_template_kwargs"))
            finish = "length" if case["reference"]["finish_reason"] == "length" else "stop"
            setups.append((model.table(), case["request"].get("tools") or None, model.prompt_tail, finish,
                           case["reference"]["text"] * join))
    work = []
    for i in range(n):
        f, tools, prompt, finish, text = setups[i % len(setups)]
        work.append((f, tools, prompt, finish, (text + "#")[:-1]))
    return work


_HALF = None


def _hold_half(n, join, k):
    """Worker initializer of the ceiling: this worker's half of the workload, in its memory."""
    global _HALF
    formats, tools, prompts, finishes, texts = (list(c) for c in zip(*workload(n, join)))
    start, end = batch._chunks(n, 2)[k]
    _HALF = (formats[start:end], texts[start:end], tools[start:end], prompts[start:end], finishes[start:end])


def _parse_half(_):
    formats, texts, tools, prompts, finishes = _HALF
    return len(batch.parse_many(formats, texts, tools=tools, prompts=prompts, finish=finishes, as_arrow=True))


def _ceiling(n, join, k):
    """A one-worker pool holding half k of the workload (the parallel parse with nothing to move)."""
    import concurrent.futures
    import multiprocessing
    return concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                  initializer=_hold_half, initargs=(n, join, k))


def rounds(repeat, runs):
    """{name: [seconds, ...]}: every run once per round, rounds interleaved, so that a machine
    whose speed drifts slows all of them alike."""
    times = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            gc.collect()
            t0 = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - t0)
    return times


def throughput(name, seconds, outputs, nbytes, width=44):
    """A result line: the run's best time, outputs per second and MB/s."""
    return f"{name:{width}} {seconds:7.3f} s {outputs / seconds:9.0f} outputs/s {nbytes / seconds / 1e6:7.1f} MB/s"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--outputs", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--join", type=int, default=1, help="fixture outputs written one after another per output")
    ap.add_argument("--markdown", metavar="FILE", help="also write the report as this bench's section of FILE "
                                                       "(bench/RESULTS.md), replacing its last run's")
    args = ap.parse_args(argv)
    work = workload(args.outputs, args.join)
    formats, tools, prompts, finishes, texts = (list(c) for c in zip(*work))
    nbytes = sum(len(t.encode()) for t in texts)

    def loop():
        return [chat.message(symphony.parse(f, t, tools=tl, prompt=p, finish=fi))
                for f, tl, p, fi, t in work]

    def many(workers, as_arrow=False):
        return lambda: batch.parse_many(formats, texts, tools=tools, prompts=prompts, finish=finishes,
                                        workers=workers, as_arrow=as_arrow)

    assert many(1)() == loop()
    with batch.pool(2) as pool, _ceiling(args.outputs, args.join, 0) as left, \
            _ceiling(args.outputs, args.join, 1) as right:
        many(pool)()                                   # the worker started and warm
        left.submit(_parse_half, 0).result(), right.submit(_parse_half, 0).result()

        def ceiling():
            halves = left.submit(_parse_half, 0), right.submit(_parse_half, 0)
            return [h.result() for h in halves]

        times = rounds(args.repeat, {
            "parse + chat.message loop": loop,
            "parse_many, 1 process": many(1),
            "parse_many as_arrow, 1 process": many(1, True),
            "parse_many, 2 processes (pool kept)": many(pool),
            "parse_many as_arrow, 2 processes (pool kept)": many(pool, True),
            "ceiling: 2 processes, each parsing its half": ceiling,
        })
    times.update(rounds(max(1, args.repeat // 2), {"parse_many, workers=2 (pool per call)": many(2)}))
    best = {name: min(seconds) for name, seconds in times.items()}
    median = {name: sorted(seconds)[len(seconds) // 2] for name, seconds in times.items()}

    def ratio(one, two):
        return f"{best[one] / best[two]:.2f}x (median {median[one] / median[two]:.2f}x)"

    report = [f"{args.outputs} outputs, {nbytes / 1e6:.1f} MB, {args.repeat} interleaved rounds, {os.cpu_count()} cores"]
    one = "parse_many as_arrow, 1 process"
    arrow_two = ratio(one, "parse_many as_arrow, 2 processes (pool kept)")
    dicts_two = ratio("parse_many, 1 process", "parse_many, 2 processes (pool kept)")
    most = ratio(one, "ceiling: 2 processes, each parsing its half")
    report.append(f"2 processes (pool kept: the caller and a worker) against 1: as_arrow {arrow_two}, dicts {dicts_two};"
                  f" this machine's ceiling in the same rounds (two processes parsing halves they hold, as_arrow,"
                  f" nothing moved): {most}")
    base = best["parse + chat.message loop"]
    for name, seconds in best.items():
        report.append(throughput(name, seconds, args.outputs, nbytes)
                      + f" {base / seconds:5.2f}x the loop (best of {len(times[name])})")
    print("\n".join(report))
    if args.markdown:
        results.write_section(f"batch-join-{args.join}" if args.join > 1 else "batch",
                              f"symphony.batch against the plain loop, 1 and 2 processes"
                              f"{f', outputs of {args.join} joined' if args.join > 1 else ''} (bench/batch.py)",
                              results.fenced(report), results.command("bench/batch.py", argv), path=args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
