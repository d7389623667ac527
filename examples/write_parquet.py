"""Writes examples/qwen3.parquet from examples/qwen3.jsonl: the same outputs as Parquet columns
("text", and "prompt" and "finish" where a line has them), for `symphony parse` and
`symphony.batch`. Run from anywhere: `python3 examples/write_parquet.py` (needs pyarrow)."""
import json
import os

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
COLUMNS = ("text", "prompt", "finish")


def main(source=os.path.join(HERE, "qwen3.jsonl"), target=os.path.join(HERE, "qwen3.parquet")):
    with open(source, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    table = pa.table({name: pa.array([r.get(name) for r in records], pa.string()) for name in COLUMNS})
    pq.write_table(table, target, compression="zstd")


if __name__ == "__main__":
    main()
