"""symphony.batch.ray_map on a local Ray instance: a Parquet directory in, a Parquet directory
out, the rows those of parse_many. Skipped where Ray is not installed (.ci/run installs it in an
optional step; README, "Many outputs at once")."""
import os

import pytest

from symphony import batch

ray = pytest.importorskip("ray")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))

OUTPUTS = ["<think>a</think>b", '<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>', "x</think>y",
           '<tool_call>{"name": "g", "arguments": {bad', "plain text"] * 20


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": ROOT}})
    yield
    ray.shutdown()


def test_parquet_directory_to_parquet_directory(tmp_path, local_ray):
    source, target = tmp_path / "outputs", tmp_path / "messages"
    source.mkdir()
    half = len(OUTPUTS) // 2
    ids = list(range(len(OUTPUTS)))
    finish = ["stop", "length"] * half
    for n, part in enumerate((slice(0, half), slice(half, None))):
        pq.write_table(pa.table({"id": ids[part], "text": OUTPUTS[part], "finish": finish[part]}),
                       source / f"part-{n}.parquet")
    dataset = ray.data.read_parquet(str(source))
    batch.ray_map(dataset, "qwen3", column="text", finish_column="finish", keep=["id"], batch_size=16) \
        .write_parquet(str(target))
    got = sorted(pq.read_table(target).to_pylist(), key=lambda row: row["id"])
    want = batch.parse_many("qwen3", OUTPUTS, finish=finish, as_arrow=True).to_pylist()
    assert [row.pop("id") for row in got] == ids
    assert got == want
    assert pq.read_schema(next(iter(target.iterdir()))).names == ["id"] + batch.arrow_schema().names
