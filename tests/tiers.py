"""The two test tiers and the seeded sampling the fast one runs on.

- fast (the default `pytest`): hypothesis's `dev` profile; every-chunking loops replay the whole
  text, character by character and a seeded sample of the two-way splits and seeded plans; each
  table's generated properties run a few examples (a representative table per call syntax runs
  more); the adapter suites replay a seeded sample of each table's corpus.
- exhaustive (`pytest --exhaustive`, or SYMPHONY_TIER=exhaustive; CI runs it): every plan, every
  case, the full example counts, and the tests marked `exhaustive`.

A sample is drawn from SYMPHONY_SEED (chosen per run when unset; the run's header and every
failure print it), so `SYMPHONY_SEED=N pytest ...` draws the same sample again.
"""
import os
import random

from symphony import replay

EXHAUSTIVE = os.environ.get("SYMPHONY_TIER", "fast") == "exhaustive"
SEED = int(os.environ.get("SYMPHONY_SEED") or 0)

# What the fast tier keeps of an every-chunking loop, beside the whole text and its characters.
FAST_SPLITS = 6
FAST_SEEDED_PLANS = 3
# Per table and per property, the fast tier's share of the profile's examples; the
# representative tables run them all.
FAST_EXAMPLE_SHARE = 4
# One table per call syntax and prompt shape: the fast tier's full-budget property runs.
REPRESENTATIVE_TABLES = ("qwen3", "qwen3_tagged", "glm", "deepseek_v4_1", "kimi_k3", "minimax_m3", "xlam",
                         "olmo3", "lfm2_5", "gemma4", "gpt_oss", "hy4", "deepseek_v3_1", "plain")
# Cases of one table's corpus the fast tier's adapter suites replay.
FAST_CORPUS_CASES = 24


def configure(exhaustive, seed):
    """Set by tests/conftest.py from the command line, before any test module is collected."""
    global EXHAUSTIVE, SEED
    EXHAUSTIVE, SEED = exhaustive, seed


def name():
    return "exhaustive" if EXHAUSTIVE else "fast"


def rng(*key):
    """A generator for one sample: the run's seed and what is sampled (a text, a test's name)."""
    return random.Random(f"{SEED}:{key!r}")


def sample(items, k, *key):
    """`k` of `items` in their order (all of them in the exhaustive tier, or when there are no more)."""
    items = list(items)
    if EXHAUSTIVE or len(items) <= k:
        return items
    picked = set(rng("sample", k, *key).sample(range(len(items)), k))
    return [item for i, item in enumerate(items) if i in picked]


def chunkings(text, every_split_up_to=None, seeds=replay.SEEDED_PLANS):
    """The named cut plans of `text` a test replays (`symphony.replay.chunkings`): all of them in
    the exhaustive tier; else the whole text, character by character, and a seeded sample of the
    two-way splits and the seeded plans."""
    every = replay.chunkings(text, every_split_up_to, seeds)
    if EXHAUSTIVE:
        return every
    r = rng("plans", text)
    splits = [plan for plan in every if plan[0].startswith("split-")]
    seeded = [plan for plan in every if plan[0].startswith("seeded-")]
    keep = {id(plan) for plan in r.sample(splits, min(len(splits), FAST_SPLITS))}
    keep |= {id(plan) for plan in r.sample(seeded, min(len(seeded), FAST_SEEDED_PLANS))}
    return [plan for plan in every if id(plan) in keep or not plan[0].startswith(("split-", "seeded-"))]


def examples(table, default):
    """How many hypothesis examples a table's property runs, of the profile's `default`."""
    if EXHAUSTIVE or table in REPRESENTATIVE_TABLES:
        return default
    return max(2, default // FAST_EXAMPLE_SHARE)
