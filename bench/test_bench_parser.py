"""The qwen3 parser on the recorded qwen3-8b outputs: per-token streaming (counted and
uncounted), fixture chunk plans, and whole outputs; plus long synthetic content and call streams
(per content token / per in-call token)."""
import os

import pytest

import symphony
from bench.common import FIXTURES, case_setup, load_cases, stream, token_deltas

pytestmark = pytest.mark.skipif(not os.path.isdir(FIXTURES), reason=f"no fixtures at {FIXTURES}")


@pytest.fixture(scope="module")
def cases():
    return [(case_setup(c), c) for c in load_cases("qwen3-8b")]


@pytest.mark.parametrize("counted", [True, False], ids=["counted", "uncounted"])
def test_qwen3_stream_per_token(benchmark, cases, counted):
    prepared = [(setup, token_deltas(c, counted=counted)) for setup, c in cases]
    benchmark.extra_info["tokens"] = sum(len(c["output_ids"]) for _, c in cases)

    def run():
        for (table, tools, prompt, finish), deltas in prepared:
            stream(table, tools, prompt, deltas, finish)

    benchmark(run)


def test_qwen3_whole(benchmark, cases):
    benchmark.extra_info["bytes"] = sum(len(c["reference"]["text"].encode()) for _, c in cases)

    def run():
        for (table, tools, prompt, finish), c in cases:
            symphony.parse(table, c["reference"]["text"], tools=tools, prompt=prompt, finish=finish)

    benchmark(run)


def _synthetic_tokens(n):
    words = "the quick brown fox jumps over a lazy dog while Paris sits on the Seine".split()
    return [" " + words[i % len(words)] for i in range(n)]


def test_qwen3_stream_content_tokens(benchmark):
    pieces = _synthetic_tokens(4000)
    table = symphony.parser("qwen3").table
    benchmark.extra_info["tokens"] = len(pieces)
    benchmark(stream, table, None, "", [(p, (), ()) for p in pieces], "stop")


def test_qwen3_stream_in_call_tokens(benchmark):
    pieces = ["<tool_call>", "\n", '{"name": "save_note", "arguments": {"body": "'] + _synthetic_tokens(4000) \
        + ['"}}', "\n", "</tool_call>"]
    table = symphony.parser("qwen3").table
    benchmark.extra_info["tokens"] = len(pieces)
    benchmark(stream, table, None, "", [(p, (), ()) for p in pieces], "stop")
