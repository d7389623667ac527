"""The incumbents' own unit-test cases as data (../shared/peer-cases: vLLM's tool-parser tests and
SGLang's detector tests, and the vLLM 0.33 cases shared/ does not hold, tests/data), and the table
each engine's parser name reads with."""
import json
import os

from symphony.formats import VLLM_PARSERS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared", "peer-cases")
VLLM_FILES = (os.environ.get("SYMPHONY_PEER_CASES") or os.path.join(SHARED, "vllm.jsonl"),
              os.path.join(ROOT, "tests", "data", "vllm_tool_cases_extra.jsonl"))
SGLANG_FILE = os.environ.get("SYMPHONY_SGLANG_CASES") or os.path.join(SHARED, "sglang.jsonl")

# vLLM's `muse` is Muse Spark, SGLang's Muse Glimmer: the name means two families, so it is no
# format alias and no family declares it; the vLLM cases that name it read with Muse Spark's table.
VLLM_TABLES = dict(VLLM_PARSERS, muse="muse_spark")


def load_jsonl(path):
    """The records of one JSONL file, in order."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load(paths):
    """The cases of the files (none when the first, the shared one, is missing)."""
    if not os.path.isfile(paths[0]):
        return []
    return [case for path in paths for case in load_jsonl(path)]


def vllm_cases():
    """vLLM's cases whose parser a table reads."""
    return [case for case in load(VLLM_FILES) if case["parser"] in VLLM_TABLES]


def sglang_cases():
    return load((SGLANG_FILE,))
