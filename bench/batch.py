"""symphony.batch.parse_many against the plain loop (`chat.message(symphony.parse(...))` per
output) on the recorded fixture outputs of every family, repeated to --outputs, and two worker
processes against one. Prints outputs per second and MB/s; nothing is asserted.

The fixture outputs are short (about 160 bytes); `--join K` makes each output K fixture outputs
of one case written one after another (a long output, as RL rollouts and eval logs hold), where
a worker's parsing outweighs what crosses between the processes.

    python3 bench/batch.py [--outputs 20000] [--repeat 3] [--join 1]
"""
import argparse
import gc
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import symphony  # noqa: E402
from bench.common import FAMILIES, load_cases  # noqa: E402
from symphony import batch  # noqa: E402
from symphony.adapt import chat  # noqa: E402
from symphony.models import for_model  # noqa: E402


def workload(n, join=1):
    """n (Format, tools, prompt, finish, text) taken round-robin from every family's cases, each
    text its case's output written `join` times."""
    setups = []
    for slug in FAMILIES["all"]:
        for case in load_cases(slug):
            model = for_model(case["model"], case["request"].get("chat_template_kwargs"))
            finish = "length" if case["reference"]["finish_reason"] == "length" else "stop"
            setups.append((model.table(), case["request"].get("tools") or None, model.prompt_tail, finish,
                           case["reference"]["text"] * join))
    return [setups[i % len(setups)] for i in range(n)]


def best(repeat, run):
    times = []
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--outputs", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--join", type=int, default=1, help="fixture outputs written one after another per output")
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
    rows = [("parse + chat.message loop", best(args.repeat, loop)),
            ("parse_many, 1 process", best(args.repeat, many(1))),
            ("parse_many as_arrow, 1 process", best(args.repeat, many(1, True)))]
    with batch.pool(2) as pool:
        many(pool)()                                   # the workers started and warm
        rows.append(("parse_many, 2 workers (pool kept)", best(args.repeat, many(pool))))
        rows.append(("parse_many as_arrow, 2 workers (pool kept)", best(args.repeat, many(pool, True))))
    rows.append(("parse_many, workers=2 (pool per call)", best(args.repeat, many(2))))
    base = rows[0][1]
    print(f"{args.outputs} outputs, {nbytes / 1e6:.1f} MB, best of {args.repeat}, {os.cpu_count()} cores"
          f"; 2 workers (pool kept) against 1 process: {rows[1][1] / rows[3][1]:.2f}x, as_arrow"
          f" {rows[2][1] / rows[4][1]:.2f}x")
    for name, seconds in rows:
        print(f"{name:44} {seconds:7.3f} s {args.outputs / seconds:9.0f} outputs/s {nbytes / seconds / 1e6:7.1f} MB/s"
              f" {base / seconds:5.2f}x the loop")
    return 0


if __name__ == "__main__":
    sys.exit(main())
