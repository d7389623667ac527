"""Scanner throughput: bulk text with few markers, marker-dense text, and per-token feeding."""
import pytest

from symphony._native import Scanner

MARKERS = ["<think>", "</think>", "<tool_call>", "</tool_call>"]
PROSE = "Paris sits on the Seine, and its weather is mild < warm > cold. " * 1024          # 64 KiB
DENSE = '<think>a</think><tool_call>{"name": "f"}</tool_call> x < y ' * 1024


@pytest.mark.parametrize("text", [PROSE, DENSE], ids=["prose-64KiB", "marker-dense"])
def test_scanner_bulk(benchmark, text):
    def run():
        s = Scanner(MARKERS)
        s.feed(text)
        return s.finish()

    benchmark.extra_info["bytes"] = len(text.encode())
    benchmark(run)


def test_scanner_per_token(benchmark):
    pieces = [PROSE[i:i + 4] for i in range(0, 4096, 4)]

    def run():
        s = Scanner(MARKERS)
        for piece in pieces:
            s.feed(piece)
        return s.finish()

    benchmark.extra_info["tokens"] = len(pieces)
    benchmark(run)
