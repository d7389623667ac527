"""symphony inside the engines' parser interfaces against the engines' own parsers.

Run from the peers venv (`bench/peers/install.sh`), from the repository root:

    PYTHONPATH=. bench/.peers-venv/bin/python -m bench.engines [--repeat 3] [--markdown FILE] [slugs ...]

For every fixture slug the peer harness has a profile for, the same harness driver (the same
tokenizer, requests, token pieces and timing as `bench/compare.py`'s peer runs) runs twice per
engine: once with the engine's own parser names for the family, once with `symphony` as both the
tool and the reasoning parser. Printed: µs per token streamed (one token per delta, through
`Parser.parse_delta` for vLLM and `parse_stream_chunk` for SGLang) and whole, each side's
agreement with the reference, and how many times faster symphony is through the interface,
overhead included. --markdown FILE (bench/RESULTS.md) replaces this bench's section of that file
with the tables.
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

MODES = ("stream", "whole")


def _symphony_profile(profile, engine):
    """The slug's profile with symphony as the engine's tool and reasoning parser."""
    out = copy.deepcopy(profile)
    out[engine] = dict(out[engine], tool="symphony", reasoning="symphony")
    out[engine].pop("caveat", None)
    return out


def _register(engine):
    if engine == "sglang":
        harness.import_sglang()
        import symphony.integrations.sglang  # noqa: F401  (registers the detectors)
    else:
        import symphony.integrations.vllm  # noqa: F401  (registers the parsers)


def measure(slugs, fixtures, repeat, engines=("vllm", "sglang")):
    """{engine: {slug: {"own": run, "symphony": run}}} from the harness's run_slug."""
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
            out[engine][slug] = {
                "own": harness.run_slug(engine, slug, cases, profile, repeat, MODES),
                "symphony": harness.run_slug(engine, slug, cases, _symphony_profile(profile, engine), repeat, MODES)}
    return out


def _row(name, own, ours):
    cells = [name]
    for mode in MODES:
        a, b = own[mode], ours[mode]
        cells += [f"{a['us_per_token']:.2f}", f"{b['us_per_token']:.3f}",
                  f"{a['us_per_token'] / b['us_per_token']:.1f}×",
                  f"{a['agree']}/{a['cases']}", f"{b['agree']}/{b['cases']}"]
    return "| " + " | ".join(cells) + " |"


def table(results):
    lines = []
    for engine, slugs in results.items():
        lines.append(f"\n{engine}: µs per token, own parser vs symphony through {engine}'s interface\n")
        lines.append("| slug | own streamed | symphony | faster | own agrees | symphony agrees "
                     "| own whole | symphony | faster | own agrees | symphony agrees |")
        lines.append("|---" * 11 + "|")
        totals = {m: [0.0, 0.0, 0] for m in MODES}
        for slug, runs in slugs.items():
            own, ours = runs["own"], runs["symphony"]
            if own.get("status") != "ok" or ours.get("status") != "ok":
                lines.append(f"| {slug} | {own.get('reason') or ours.get('reason')} |")
                continue
            lines.append(_row(slug, own, ours))
            for m in MODES:
                totals[m][0] += own[m]["seconds"]
                totals[m][1] += ours[m]["seconds"]
                totals[m][2] += own[m]["tokens"]
        if totals["stream"][2]:
            summary = [f"{m}: own {t[0] * 1e6 / t[2]:.2f} µs/token, symphony {t[1] * 1e6 / t[2]:.3f} "
                       f"({t[0] / t[1]:.1f}× faster)" for m, t in totals.items()]
            lines.append(f"\nall {engine} slugs: " + "; ".join(summary))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("slugs", nargs="*")
    ap.add_argument("--fixtures", default=os.environ.get("SYMPHONY_FIXTURES", "../shared/fixtures/bellwether"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--engines", default="vllm,sglang")
    ap.add_argument("--markdown", metavar="FILE", help="also write the tables as this bench's section of FILE "
                                                       "(bench/RESULTS.md), replacing its last run's")
    args = ap.parse_args(argv)
    logging.disable(logging.ERROR)
    warnings.simplefilter("ignore")
    slugs = args.slugs or list(harness.PROFILES)
    with contextlib.redirect_stdout(sys.stderr):
        results = measure(slugs, args.fixtures, args.repeat, [e for e in args.engines.split(",") if e])
    print(table(results))
    if args.markdown:
        results_file.write_section("engines", "symphony inside the engines' parser interfaces (bench/engines.py)",
                                   table(results), results_file.command("-m bench.engines", argv,
                                                                        python="PYTHONPATH=. bench/.peers-venv/bin/python"),
                                   path=args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
