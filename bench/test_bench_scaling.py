"""pytest-benchmark cases of bench/shapes.py: each shape whole and in 4 KiB deltas at 64 KiB and
4 MiB (bytes per second in extra_info; `python3 -m bench.scaling` prints the ratios)."""
import pytest

from bench.scaling import SIZES, timed
from bench.shapes import SHAPES


@pytest.mark.parametrize("size", SIZES, ids=["64K", "4M"])
@pytest.mark.parametrize("chunk", [None, 4096], ids=["whole", "4k"])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_shape(benchmark, shape, chunk, size):
    table, build = SHAPES[shape]
    text = build(size)
    benchmark.extra_info["bytes"] = len(text.encode())
    benchmark.pedantic(timed, args=(table, text, chunk), rounds=3 if size < 1 << 20 else 1, iterations=1)
