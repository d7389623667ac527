"""bench/peers/harness.py's symphony side: symphony parsed through the same loop and timing
rule as the peers (what bench/compare.py and bench/peer_compare.py report)."""
import gc
import os

import pytest

from bench.common import load_cases
from bench.peers import harness
from symphony.adapt import chat
from symphony.models import for_model
import symphony

FIXTURES = os.environ.get("SYMPHONY_FIXTURES", "")
needs_fixtures = pytest.mark.skipif(not FIXTURES, reason="SYMPHONY_FIXTURES is not set")


@needs_fixtures
@pytest.mark.parametrize("slug", ["glm-5", "minimax-m2", "qwen3-8b"])
def test_the_symphony_side_parses_as_the_facade_does_whole_and_streamed(slug):
    cases = load_cases(slug)
    try:
        result = harness.run_slug("symphony", slug, cases, harness.PROFILES[slug], 1, ("whole", "stream"))
    finally:
        gc.unfreeze()          # run_slug sets the heap aside from the collector, as a bench run may
    assert result["status"] == "ok" and gc.get_freeze_count() == 0
    tokens = sum(len(c["output_ids"]) for c in cases)
    for mode in ("whole", "stream"):
        run = result[mode]
        assert run["cases"] == len(cases) and run["tokens"] == tokens and run["errors"] == 0
        assert run["seconds"] > 0 and run["construct_seconds"] > 0
        # the clock's own cost is taken off once per timed call: one parse per case whole; the
        # prompt, a delta per token and the end streamed
        assert run["seconds_with_clock"] > run["seconds"]
    assert result["whole"]["laps"] == len(cases)
    assert result["stream"]["laps"] == sum(len(c["output_ids"]) + 2 for c in cases)
    assert 0 < result["timer_overhead_s"] < 5e-6
    # each case's message is what the facade gives for the whole output, streamed or not
    for case, whole, streamed in zip(cases, result["whole"]["results"], result["stream"]["results"]):
        model = for_model(case["model"], case["request"].get("chat_template_kwargs"))
        finish = "length" if case["reference"]["finish_reason"] == "length" else "stop"
        events = symphony.Engine(model.table().compile(), case["request"].get("tools") or None).parse(
            case["reference"]["text"], model.thought_tail, finish)
        m = chat.message(events)["message"]
        want = {"content": m["content"] or "", "reasoning": m["reasoning_content"] or "",
                "tool_calls": [(c["function"]["name"], c["function"]["arguments"]) for c in m["tool_calls"] or []]}
        assert whole["message"] == want
        assert streamed["message"]["tool_calls"] == want["tool_calls"]
        assert (whole["agree"], whole["agree_exact"]) == harness.compare(want, harness.reference_message(case))[:2]
    assert result["whole"]["agree"] == result["stream"]["agree"] > 0


def test_the_clocks_own_cost_is_what_an_empty_timed_interval_costs():
    overhead = harness.timer_overhead(laps=2000, rounds=3)
    assert 0 < overhead < 5e-6
    # an interval that times a known wait is that wait plus about the overhead, never less
    timer = harness.Timer()
    pc = harness.time.perf_counter
    for _ in range(20):
        t0 = pc()
        end = pc() + 2e-4
        while pc() < end:
            pass
        timer.seconds += pc() - t0
        timer.laps += 1
    assert timer.seconds - timer.laps * overhead >= 20 * 2e-4
