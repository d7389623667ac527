"""symphony against the incumbent Python parsers (SGLang, vLLM) on the same recorded outputs,
in one run: agreement with the reference, per-token streaming and whole-output cost, as ratios.

    python3 bench/compare.py [--repeat 3] [--rounds 3] [--plans size-5,random-1]
                             [--family json|tagged|other|pending|all] [--json FILE] [--markdown FILE] [slug ...]

--markdown FILE (bench/RESULTS.md) replaces this bench's section of that file with this run's ratio
tables, dated and with the machine (bench/results.py).

Every side runs in bench/peers/harness.py, through one loop and one timing rule: the peers
(SGLang, vLLM) in their own virtual environment (bench/peers/install.sh), symphony imported
there from this repository. Each side's time is split in two: building the parser for the
request (the peers: their tool and reasoning parser objects; symphony: a new Engine for the
table and tools) and its parsing calls (the peers: their parse calls; symphony: the prompt,
each token fed with its id as a worker that streams tokens feeds it, `feed_token(text, id)`, or
with --deltas each as a `Delta(text, ids, spans)` built inside the timing; the end; compiling the
tools' schemas happens lazily in there). Every parsing call is timed on its own, and each timed
call also holds the clock's own cost once (about 0.07 µs here, measured in the run:
harness.timer_overhead); that is taken off every side's time, so a parser fast enough for it to
matter is not pulled toward its slow peers (the ratio with it left in is printed too). Per slug
the sides take turns --rounds times, --repeat passes each, and each side keeps its best pass: on a shared machine a neighbour's burst lasts seconds, and sides
timed one after the other over minutes can put one side inside it and not the other. A
family's ratio against a peer is over the slugs that peer parses (symphony's time on those
same slugs). Ratios are given for the parse alone and for construction plus parse. Agreement
uses the harness's rule (calls and names equal, arguments equal as JSON, content and reasoning
equal once surrounding whitespace is stripped).
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench import results  # noqa: E402
from bench.common import FAMILIES, FIXTURES  # noqa: E402

PEERS_VENV = os.environ.get("PEERS_VENV", os.path.join(HERE, ".peers-venv"))


def run_harness(slugs, repeat, rounds, plans, deltas=False):
    """The harness's document for every side on the slugs: the peers and symphony through the
    same loop, in their venv (symphony alone, in this interpreter, when there is none)."""
    python = os.path.join(PEERS_VENV, "bin", "python")
    sides = "sglang,vllm,symphony"
    if not os.path.exists(python):
        print(f"no peers venv at {PEERS_VENV} (bench/peers/install.sh): timing symphony alone", file=sys.stderr)
        python, sides = sys.executable, "symphony"
    out = os.path.join(HERE, ".peers-result.json")
    command = [python, os.path.join(HERE, "peers", "harness.py"), "--repeat", str(repeat), "--rounds", str(rounds),
               "--peers", sides, "--no-cases", "--fixtures", FIXTURES, "--out", out]
    if plans:
        command += ["--plans", ",".join(plans)]
    if deltas:
        command.append("--symphony-deltas")
    subprocess.run(command + list(slugs), check=True, stderr=subprocess.DEVNULL)
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


PEERS = ("sglang", "vllm")


def totals_of(rows):
    """(mode, side) -> [parse seconds, tokens, bytes, agreeing cases, cases, construction seconds,
    parse seconds with the clock's cost left in]
    summed over the rows (a peer's over the slugs it parses); (mode, "symphony", peer) is
    symphony's over those same slugs, the base of the ratio against that peer."""
    totals = {}
    for row in rows:
        sides = [((row["mode"], who), who) for who in ("symphony",) + PEERS if who in row]
        sides += [((row["mode"], "symphony", peer), "symphony") for peer in PEERS if peer in row]
        for key, who in sides:
            t = totals.setdefault(key, [0.0, 0, 0, 0, 0, 0.0, 0.0])
            t[0] += row[who]["seconds"]
            t[6] += row[who].get("seconds_with_clock", row[who]["seconds"])
            t[1] += row["tokens"]
            t[2] += row["bytes"]
            t[3] += row[who]["agree"]
            t[4] += row["cases"]
            t[5] += row[who]["construct_seconds"]
    return totals


def per_token(t, built=False):
    """µs per token of a total, the parse alone or with construction."""
    return (t[0] + (t[5] if built else 0.0)) * 1e6 / t[1]


def print_totals(name, rows, modes):
    """Per mode and side: agreement, µs per token and MB/s over the rows, and how many times
    slower each peer is, for the parse alone and with construction (over the slugs it parses,
    against symphony's time on them)."""
    totals = totals_of(rows)
    print(f"{name:28} {'mode':14} {'who':>9} {'agree':>10} {'us/tok':>8} {'MB/s':>8} {'symphony is':>14} "
          f"{'+build us/tok':>14} {'symphony is':>14} {'clock left in':>14}")
    for mode in modes:
        for who in ("symphony",) + PEERS:
            t = totals.get((mode, who))
            if not t:
                continue
            us, built = per_token(t), per_token(t, built=True)
            ratio = built_ratio = clocked = ""
            if who != "symphony":
                base = totals[(mode, "symphony", who)]
                ratio = f"{us / per_token(base):.1f}x faster"
                built_ratio = f"{built / per_token(base, built=True):.1f}x faster"
                clocked = f"{t[6] / base[6]:.1f}x faster"
            print(f"{'':28} {mode:14} {who:>9} {f'{t[3]}/{t[4]}':>10} {us:8.3f} {t[2] / t[0] / 1e6:8.1f} {ratio:>14} "
                  f"{built:14.3f} {built_ratio:>14} {clocked:>14}")


FAMILY_TITLES = {"json": "JSON", "tagged": "tagged and keyed", "other": "DSML, XTML, XML, pythonic",
                 "overall": "all"}


def _ratio(peer_us, base_us):
    ratio = peer_us / base_us
    return f"{ratio:.0f}×" if ratio >= 20 else f"{ratio:.1f}×"


def markdown(groups, machine=None):
    """The speed tables of one run's rows, grouped by family [(name, rows)]: µs per token per side
    and how many times slower each peer is (parse alone), then the same ratios with each side's
    parser construction added. Peers' cells cover the slugs they parse, and their ratios are
    against symphony's time on those slugs. `machine` (None: the results section says it) leads
    with the line naming what the run ran on."""
    sides = (("stream", "streamed"), ("whole", "whole"))
    head = "| family (checkpoints) | " + " | ".join(f"symphony {title} | SGLang | vLLM" for _, title in sides) + " |"
    lines = [f"One run on {machine}; read the ratios, not the absolute times, which vary with the machine.", ""] \
        if machine else []
    lines += [head, "|" + "---|" * (1 + 3 * len(sides))]
    built = ["| family (checkpoints) | streamed × SGLang | × vLLM | whole × SGLang | × vLLM |", "|---|---|---|---|---|"]
    for name, rows in groups:
        totals = totals_of(rows)
        label = f"{FAMILY_TITLES.get(name, name)} ({len({r['slug'] for r in rows})})"
        cells, built_cells = [], []
        for mode, _ in sides:
            base = totals.get((mode, "symphony"))
            cells.append("-" if base is None else f"{per_token(base):.3g}")
            for peer in PEERS:
                t = totals.get((mode, peer))
                if t is None or base is None:
                    cells.append("-")
                    built_cells.append("-")
                    continue
                matched = totals[(mode, "symphony", peer)]
                cells.append(f"{per_token(t):.3g} ({_ratio(per_token(t), per_token(matched))})")
                built_cells.append(_ratio(per_token(t, built=True), per_token(matched, built=True)))
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
        built.append(f"| {label} | " + " | ".join(built_cells) + " |")
    return "\n".join(lines + ["", "µs per token; in brackets how many times slower the peer is. With each side's "
                               "parser construction added (one request end to end), how many times slower:", ""]
                      + built) + "\n"


def machine_line():
    """What the run ran on: CPU model, cores, Python, and the date."""
    return f"{results.machine()}, {time.strftime('%Y-%m-%d')}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("slugs", nargs="*", help="fixture slugs (default: those of --family)")
    ap.add_argument("--family", choices=sorted(FAMILIES), default="all",
                    help="slug set when no slugs are given: json, tagged, other, pending or all (default: every family)")
    ap.add_argument("--repeat", type=int, default=3, help="passes per round (default 3)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="turns the sides take per slug; each side keeps its best pass of them all (default 3)")
    ap.add_argument("--plans", default="", help="extra token chunk plans, e.g. whole,size-5,random-1")
    ap.add_argument("--deltas", action="store_true",
                    help="feed symphony one-token chunks as Delta(text, ids, spans) too, instead of feed_token")
    ap.add_argument("--json", help="also write the numbers here")
    ap.add_argument("--markdown", metavar="FILE",
                    help="also write the ratio tables (by family) as this bench's section of FILE, replacing the "
                         "section of its last run (bench/RESULTS.md)")
    args = ap.parse_args(argv)
    args.slugs = args.slugs or list(FAMILIES[args.family])
    plans = [p for p in args.plans.split(",") if p]
    modes = ["whole", "stream"] + [f"stream@{p}" for p in plans]
    doc = run_harness(args.slugs, args.repeat, args.rounds, plans, args.deltas)
    rows = []
    for slug in args.slugs:
        for mode in modes:
            row = None
            for who in ("symphony",) + PEERS:
                result = doc["peers"].get(who, {}).get(slug, {})
                if result.get("status") != "ok" or mode not in result:
                    continue
                r = result[mode]
                if row is None:
                    row = {"slug": slug, "mode": mode, "cases": r["cases"], "tokens": r["tokens"], "bytes": r["bytes"]}
                row[who] = {"seconds": r["seconds"], "construct_seconds": r["construct_seconds"], "agree": r["agree"],
                            "seconds_with_clock": r.get("seconds_with_clock", r["seconds"])}
            if row is None or "symphony" not in row:
                raise SystemExit(f"symphony did not parse {slug} ({mode}): "
                                 f"{doc['peers'].get('symphony', {}).get(slug)}")
            rows.append(row)
    header = (f"{'slug':28} {'mode':14} {'agree sym/sgl/vllm':>20} {'us/tok sym':>10} {'sglang':>8} "
              f"{'vllm':>8} {'x sglang':>9} {'x vllm':>8} {'+build: x sgl':>14} {'x vllm':>7} {'MB/s sym':>9}")
    print(header)
    print("-" * len(header))
    for row in rows:
        sym = row["symphony"]
        us = sym["seconds"] * 1e6 / row["tokens"]
        built = (sym["seconds"] + sym["construct_seconds"]) * 1e6 / row["tokens"]
        cells = {}
        for peer in PEERS:
            if peer in row:
                peer_us = row[peer]["seconds"] * 1e6 / row["tokens"]
                peer_built = (row[peer]["seconds"] + row[peer]["construct_seconds"]) * 1e6 / row["tokens"]
                cells[peer] = (peer_us, peer_us / us, f"{row[peer]['agree']}", peer_built / built)
        agree = "/".join([str(sym["agree"])] + [cells[p][2] if p in cells else "-" for p in ("sglang", "vllm")])
        none = (None, None, None, None)
        print(f"{row['slug']:28} {row['mode']:14} {agree + ' of ' + str(row['cases']):>20} {us:10.3f} "
              f"{fmt(cells.get('sglang', none)[0], '8.2f'):>8} {fmt(cells.get('vllm', none)[0], '8.2f'):>8} "
              f"{fmt(cells.get('sglang', none)[1], '8.1f'):>9} {fmt(cells.get('vllm', none)[1], '7.1f'):>8} "
              f"{fmt(cells.get('sglang', none)[3], '13.1f'):>14} {fmt(cells.get('vllm', none)[3], '6.1f'):>7} "
              f"{row['bytes'] / sym['seconds'] / 1e6:9.1f}")
    families = [(name, [r for r in rows if r["slug"] in FAMILIES[name]])
                for name in ("json", "tagged", "other", "pending")]
    families = [(name, group) for name, group in families if group]
    groups = [(name, group) for name, group in families if len(group) < len(rows)] + [("overall", rows)]
    for name, group in groups:
        print()
        print_totals(name, group, modes)
    print("\n(peer totals cover only the slugs each peer has a parser for; their ratios are against symphony on those slugs)")
    clocks = sorted(r["timer_overhead_s"] for side in doc["peers"].values() for r in side.values()
                    if isinstance(r, dict) and "timer_overhead_s" in r)
    if clocks:
        print(f"(every timed call's own clock cost, {clocks[len(clocks) // 2] * 1e9:.0f} ns here (median of the "
              f"calibrations), is taken off each side's time; 'clock left in' is the ratio without that)")
    if args.markdown:
        one_family = len(families) == 1 and len(families[0][1]) == len(rows)
        tables = markdown(families if one_family else groups)
        # a --deltas run has a section of its own: its streamed figures are another measure
        name, fed = ("compare-deltas", "each token a Delta") if args.deltas else ("compare", "feed_token")
        results.write_section(name, f"Recorded checkpoints against SGLang and vLLM, streamed with {fed} "
                                    "(bench/compare.py)",
                              f"{len(args.slugs)} checkpoints, {args.rounds} rounds of {args.repeat} passes.\n\n"
                              + tables, results.command("bench/compare.py", argv), path=args.markdown)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"rows": rows, "peer_versions": doc.get("versions"), "rounds": args.rounds, "repeat": args.repeat},
                      f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
