"""symphony inside the engines' parser interfaces, against the engines' own parsers and against
the floor of each interface.

Run from the peers venv (`bench/peers/install.sh`), from the repository root:

    PYTHONPATH=. bench/.peers-venv/bin/python -m bench.engines [--repeat 3] [--rounds 3]
        [--engines vllm,sglang] [--markdown bench/RESULTS.md] [slugs ...]

Every fixture slug the peer harness has a profile for and symphony's registry places (all of
them by default) runs, per engine that has a parser for it, three times through the same
harness driver (the same tokenizer, requests, token pieces and timing as `bench/compare.py`'s
peer runs): with the engine's own parsers for the family; with symphony in the same parser
slots (its tool parser where the engine is served with a tool parser, its reasoning parser
where it is served with a reasoning parser); and with a pass-through pair in those slots, whose
time per token is the interface's floor D. The pass-through parsers are symphony's own with the
parsing taken out: the same request set-up (the table, the prompt's tail, whether it leaves a
thought open), the same message objects made the same way, each delta's text returned as
content; vLLM's pass-through reasoning parser hands the stream to the tool parser at the delta
that holds the table's thought close, where symphony's does. So symphony's time less D is what
parsing costs it inside the interface.

Per slug the three sides take turns --rounds times (compare.py's rule: a neighbour's burst on a
shared machine lasts seconds, and sides timed one after the other could land one inside it),
--repeat passes each; a side's figure is the median of its rounds, each round its best pass.
Printed: µs per token streamed (one token a delta: `Parser.parse_delta` for vLLM,
`parse_stream_chunk` for SGLang) and whole, how many times faster symphony is than the
engine's parser, D and symphony's cost above it, each side's agreement with the reference; then
per engine the summary over its slugs. --markdown FILE (bench/RESULTS.md) replaces this bench's
section of that file with the same.
"""
import argparse
import contextlib
import copy
import logging
import os
import sys
import warnings

from bench import results as results_file
from bench.peers import harness
from recorded.engines import import_sglang

MODES = ("stream", "whole")
SIDES = ("own", "symphony", "floor")
PASS_THROUGH = "symphony_passthrough"        # the pass-through pair's name in each engine


def _sglang_pass_through():
    """SGLang's pass-through detectors: symphony's, each delta's text returned as normal text."""
    from sglang.srt.parser import reasoning_parser

    from symphony.integrations import sglang as ours

    class PassThroughReasoningDetector(ours.SymphonyReasoningDetector):
        def detect_and_parse(self, text):
            return reasoning_parser.StreamingParseResult(text, None)

        def parse_streaming_increment(self, new_text):
            return reasoning_parser.StreamingParseResult(new_text, None) if new_text else ours._NOTHING_SAID

        def finish(self):
            return ours._NOTHING_SAID

    class PassThroughDetector(ours.SymphonyDetector):
        def detect_and_parse(self, text, tools):
            return ours._result((text, None, None))

        def parse_streaming_increment(self, new_text, tools):
            return self.shown(new_text, []) if new_text else ours._NO_CALLS

        def finish(self, tools):
            return ours._NO_CALLS

    ours.FunctionCallParser.ToolCallParserEnum[PASS_THROUGH] = PassThroughDetector
    ours.ReasoningParser.DetectorMap[PASS_THROUGH] = PassThroughReasoningDetector


def _vllm_pass_through():
    """vLLM's pass-through parsers: symphony's, each delta's text returned as content."""
    from symphony.integrations import vllm as ours

    class PassThroughReasoningParser(ours.SymphonyReasoningParser):
        handed_over = False

        def extract_reasoning(self, model_output, request):
            return None, model_output

        def extract_reasoning_streaming(self, previous_text, current_text, delta_text, *token_ids):
            if self._close in delta_text:
                self.handed_over = True
            return ours._message(delta_text) if delta_text else None

        def has_engine_confirmed_reasoning_end(self):
            return self.handed_over

        def finish_streaming(self):
            return None

    class PassThroughToolParser(ours.SymphonyToolParser):
        def extract_tool_calls(self, model_output, request):
            return ours._new_extracted({"tools_called", "tool_calls", "content"}, tools_called=False, tool_calls=[],
                                       content=model_output)

        def extract_tool_calls_streaming(self, previous_text, current_text, delta_text, *token_ids_and_request):
            return ours._message(delta_text) if delta_text else None

        def finish_streaming(self):
            return None

    ours.ToolParserManager.register_module(name=PASS_THROUGH, module=PassThroughToolParser)
    ours.ReasoningParserManager.register_module(name=PASS_THROUGH, module=PassThroughReasoningParser)


def _register(engine):
    """symphony's parsers and the pass-through pair, registered with the engine."""
    if engine == "sglang":
        import_sglang()
        import symphony.integrations.sglang  # noqa: F401  (registers the detectors)
        _sglang_pass_through()
    else:
        import symphony.integrations.vllm  # noqa: F401  (registers the parsers)
        _vllm_pass_through()


def _in_slots(profile, engine, name):
    """The slug's profile with `name` in each parser slot the engine's own profile fills."""
    out = copy.deepcopy(profile)
    own = out[engine]
    out[engine] = dict(own, tool=name if own["tool"] else None, reasoning=name if own["reasoning"] else None)
    out[engine].pop("caveat", None)
    return out


def measure(slugs, fixtures, repeat, rounds, engines=("vllm", "sglang")):
    """{engine: {slug: {side: run}}} from the harness's run_slug, the sides in turns."""
    from symphony.models import for_model
    out = {engine: {} for engine in engines}
    for engine in engines:
        _register(engine)
        for slug in slugs:
            profile = harness.PROFILES[slug]
            if profile.get(engine) is None:
                continue
            try:
                for_model(slug)
            except KeyError:
                continue
            cases = harness.load_cases(fixtures, slug)
            profiles = {"own": profile, "symphony": _in_slots(profile, engine, "symphony"),
                        "floor": _in_slots(profile, engine, PASS_THROUGH)}
            turns = {side: [] for side in SIDES}
            for _ in range(max(1, rounds)):
                for side in SIDES:
                    turns[side].append(harness.run_slug(engine, slug, cases, profiles[side], max(1, repeat), MODES))
            out[engine][slug] = {side: _median(results) for side, results in turns.items()}
    return out


def _median(rounds):
    """One side's rounds as one run: each mode's seconds the median of the rounds' (each round
    its best pass), the first round's agreement (every round parses alike)."""
    run = dict(rounds[0])
    if run.get("status") != "ok" or any(r.get("status") != "ok" for r in rounds):
        return run
    for mode in MODES:
        seconds = sorted(r[mode]["seconds"] for r in rounds)[len(rounds) // 2]
        run[mode] = dict(run[mode], seconds=seconds, us_per_token=seconds * 1e6 / run[mode]["tokens"])
    return run


def _us(run, mode):
    return run[mode]["us_per_token"]


def _row(slug, runs):
    own, ours, floor = runs["own"], runs["symphony"], runs["floor"]
    cells = [slug]
    for mode in MODES:
        cells += [f"{_us(own, mode):.2f}", f"{_us(ours, mode):.3f}", f"{_us(own, mode) / _us(ours, mode):.1f}×",
                  f"{_us(floor, mode):.3f}", f"{_us(ours, mode) - _us(floor, mode):+.3f}",
                  f"{own[mode]['agree']}/{ours[mode]['agree']} of {own[mode]['cases']}"]
    return "| " + " | ".join(cells) + " |"


def _summary(engine, slugs):
    """The engine's line over every slug both sides ran: µs per token, tokens weighted."""
    totals = {m: {side: 0.0 for side in SIDES} for m in MODES}
    tokens = 0
    for runs in slugs.values():
        if any(runs[side].get("status") != "ok" for side in SIDES):
            continue
        tokens += runs["own"]["stream"]["tokens"]
        for m in MODES:
            for side in SIDES:
                totals[m][side] += runs[side][m]["seconds"]
    if not tokens:
        return None
    parts = []
    for m, t in totals.items():
        own, ours, floor = (t[side] * 1e6 / tokens for side in SIDES)
        parts.append(f"{m}: own {own:.2f} µs/token, symphony {ours:.3f} ({own / ours:.1f}× faster), "
                     f"D {floor:.3f}, symphony above D {ours - floor:+.3f}")
    return f"all {engine} slugs: " + "; ".join(parts)


def table(results):
    lines = []
    for engine, slugs in results.items():
        lines.append(f"\n{engine}: µs per token, the engine's own parser, symphony through {engine}'s interface, "
                     "the interface's floor D (a pass-through parser) and symphony's cost above it\n")
        lines.append("| slug | own streamed | symphony | faster | D | symphony − D | agree (own/symphony) "
                     "| own whole | symphony | faster | D | symphony − D | agree (own/symphony) |")
        lines.append("|---" * 13 + "|")
        for slug, runs in slugs.items():
            failed = [runs[side] for side in SIDES if runs[side].get("status") != "ok"]
            if failed:
                lines.append(f"| {slug} | {failed[0].get('reason') or failed[0].get('status')} |")
                continue
            lines.append(_row(slug, runs))
        summary = _summary(engine, slugs)
        if summary:
            lines.append("\n" + summary)
    return "\n".join(lines)


def report(results, repeat, rounds):
    """The run as this bench's section of bench/RESULTS.md: how it was measured, the tables."""
    return "\n".join([
        f"The sides in turns, {rounds} rounds of {repeat} passes, each side's median round (its best pass "
        "each). D is the floor of the interface: symphony's parsers with the parsing taken out (each "
        "delta's text returned as content, the same messages made the same way). \"symphony − D\" is what "
        "parsing costs symphony inside the interface; it can be below 0, as D makes a message for every "
        "delta with text and symphony none for a delta that shows nothing (bytes it holds back for a "
        "marker). Agreement is with the fixture's reference, by the harness's rule.",
        table(results)])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("slugs", nargs="*")
    ap.add_argument("--fixtures", default=os.environ.get("SYMPHONY_FIXTURES", "../shared/fixtures/bellwether"))
    ap.add_argument("--repeat", type=int, default=3, help="passes per round (the best kept)")
    ap.add_argument("--rounds", type=int, default=3, help="turns the three sides take per slug")
    ap.add_argument("--engines", default="vllm,sglang")
    ap.add_argument("--markdown", metavar="FILE", help="also write the tables as this bench's section of FILE "
                                                       "(bench/RESULTS.md), replacing its last run's")
    args = ap.parse_args(argv)
    logging.disable(logging.ERROR)
    warnings.simplefilter("ignore")
    slugs = args.slugs or list(harness.PROFILES)
    with contextlib.redirect_stdout(sys.stderr):
        results = measure(slugs, args.fixtures, args.repeat, args.rounds, [e for e in args.engines.split(",") if e])
    print(table(results))
    if args.markdown:
        results_file.write_section("engines", "symphony inside the engines' parser interfaces (bench/engines.py)",
                                   report(results, args.repeat, args.rounds),
                                   results_file.command("-m bench.engines", argv,
                                                        python="PYTHONPATH=. bench/.peers-venv/bin/python"),
                                   path=args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
