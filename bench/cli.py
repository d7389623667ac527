"""`symphony parse` (the main job) on a data set's files: JSONL and Parquet in, JSONL and Parquet
out, against `parse_many(..., as_arrow=True)` on the same outputs already in memory (what the
command adds: reading, each line's record, writing), and with --workers 2 (its pool made per
run, as the command does: a spawned worker's start is in the time). Prints outputs per second,
MB/s of output text and the ratio to the in-memory time; nothing is asserted.

The input is the recorded fixture outputs of every family, round-robin to --outputs lines, each
line carrying its checkpoint's id, its request's tools and chat_template_kwargs (as RL rollouts
and eval logs do), its text the case's output written --join times. The runs are interleaved
round by round (this VM's speed drifts by a third within minutes); each keeps its best round.

    python3 bench/cli.py [--outputs 20000] [--join 1] [--repeat 3] [--markdown FILE]

--markdown FILE (bench/RESULTS.md) replaces this bench's section of that file with this run's report.
"""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import results  # noqa: E402
from bench.batch import rounds, throughput  # noqa: E402
from bench.common import FAMILIES, load_cases  # noqa: E402
from symphony import batch, cli  # noqa: E402


def records(n, join):
    """n input records ({"model", "text", "tools"?, "chat_template_kwargs"?}), round-robin over
    every family's cases."""
    cases = []
    for slug in FAMILIES["all"]:
        for case in load_cases(slug):
            record = {"model": case["model"], "text": case["reference"]["text"] * join}
            for name in ("tools", "chat_template_kwargs"):
                if case["request"].get(name):
                    record[name] = case["request"][name]
            cases.append(record)
    return [cases[i % len(cases)] for i in range(n)]


def write_inputs(rows, directory):
    """The records as a JSONL file and as a Parquet file (tools and kwargs as JSON text)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    jsonl = os.path.join(directory, "outputs.jsonl")
    with open(jsonl, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    columns = {"model": [r["model"] for r in rows], "text": [r["text"] for r in rows]}
    for name in ("tools", "chat_template_kwargs"):
        columns[name] = [json.dumps(r[name]) if name in r else None for r in rows]
    parquet = os.path.join(directory, "outputs.parquet")
    pq.write_table(pa.table(columns), parquet)
    return jsonl, parquet


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--outputs", type=int, default=20000)
    ap.add_argument("--join", type=int, default=1, help="fixture outputs written one after another per line")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--markdown", metavar="FILE", help="also write the report as this bench's section of FILE "
                                                       "(bench/RESULTS.md), replacing its last run's")
    args = ap.parse_args(argv)
    rows = records(args.outputs, args.join)
    nbytes = sum(len(r["text"].encode()) for r in rows)
    with tempfile.TemporaryDirectory() as directory:
        jsonl, parquet = write_inputs(rows, directory)
        out_jsonl, out_parquet = os.path.join(directory, "out.jsonl"), os.path.join(directory, "out.parquet")

        def command(source, target, workers=1):
            return lambda: cli.main(["parse", "--quiet", source, "--output", target, "--workers", str(workers)])

        resolved = [batch.resolve(r["model"], r.get("chat_template_kwargs")) for r in rows]
        texts = [r["text"] for r in rows]
        tools = [r.get("tools") for r in rows]

        def in_memory():
            return batch.parse_many([f for f, _ in resolved], texts, tools=tools, prompts=[p for _, p in resolved],
                                    as_arrow=True)

        times = rounds(args.repeat, {
            "parse_many as_arrow, in memory": in_memory,
            "symphony parse: JSONL -> JSONL": command(jsonl, out_jsonl),
            "symphony parse: JSONL -> Parquet": command(jsonl, out_parquet),
            "symphony parse: Parquet -> JSONL": command(parquet, out_jsonl),
            "symphony parse: Parquet -> Parquet": command(parquet, out_parquet),
            "symphony parse: JSONL -> JSONL, --workers 2": command(jsonl, out_jsonl, 2),
            "symphony parse: Parquet -> Parquet, --workers 2": command(parquet, out_parquet, 2),
        })
    best = {name: min(seconds) for name, seconds in times.items()}
    base = best["parse_many as_arrow, in memory"]
    report = [f"{args.outputs} lines, {nbytes / 1e6:.1f} MB of output text, {args.repeat} interleaved rounds"]
    for name, seconds in best.items():
        report.append(throughput(name, seconds, args.outputs, nbytes, 50) + f" {seconds / base:5.2f}x the in-memory time")
    print("\n".join(report))
    if args.markdown:
        results.write_section("cli", "symphony parse against parse_many in memory (bench/cli.py)",
                              results.fenced(report), results.command("bench/cli.py", argv), path=args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
