"""symphony against the incumbent Python parsers (SGLang, vLLM) on the same recorded outputs,
in one run: agreement with the reference, per-token streaming and whole-output cost, as ratios.

    python3 bench/compare.py [--repeat 5] [--plans size-5,random-1] [--family json|tagged|other|pending|all] [slug ...]

The peers run in their own virtual environment (bench/peers/install.sh), driven by
bench/peers/harness.py; symphony is timed here the same way, the best of --repeat passes. Like
the harness, each side's time is split in two: building the parser for the request (the peers:
their tool and reasoning parser objects; symphony: a new Engine for the table and tools) and
parsing (the peers: their parse calls; symphony: the prompt, each Delta built and fed as a worker
would, the end; compiling the tools' schemas happens lazily in there). Ratios are given for the
parse alone and for construction plus parse. Agreement uses the harness's rule (calls and names equal, arguments equal as JSON,
content and reasoning equal once surrounding whitespace is stripped).
"""
import argparse
import gc
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "peers"))

import harness  # noqa: E402  (stdlib only at import; the peers load lazily)

import symphony  # noqa: E402
from bench.common import FAMILIES, FIXTURES, case_setup, load_cases, stream_on, token_deltas  # noqa: E402
from symphony.adapt import chat  # noqa: E402

PEERS_VENV = os.environ.get("PEERS_VENV", os.path.join(HERE, ".peers-venv"))


def message_of(events):
    m = chat.message(events)["message"]
    return {"content": m["content"] or "", "reasoning": m["reasoning_content"] or "",
            "tool_calls": [(c["function"]["name"], c["function"]["arguments"]) for c in m["tool_calls"] or []]}


def time_symphony(cases, mode, repeat):
    """(parse seconds, construction seconds, agreeing cases) of the best pass for one slug and mode."""
    setups = [case_setup(c) for c in cases]
    plan = harness.mode_plan(mode)
    if plan is None:
        inputs = [c["reference"]["text"] for c in cases]
    else:
        inputs = [token_deltas(c, [len(ids) for _, ids in harness.make_chunks(c, plan)]) for c in cases]
    pc = time.perf_counter
    best = best_construct = None
    agree = 0
    for attempt in range(repeat):
        gc.collect()
        outputs = []
        parse = construct = 0.0
        for (table, tools, prompt, finish), data in zip(setups, inputs):
            t0 = pc()
            engine = symphony.Engine(table, tools)
            t1 = pc()
            if plan is None:
                outputs.append(engine.parse(data, prompt, finish))
            else:
                outputs.append(stream_on(engine, prompt, data, finish))
            t2 = pc()
            construct += t1 - t0
            parse += t2 - t1
        best = parse if best is None else min(best, parse)
        best_construct = construct if best_construct is None else min(best_construct, construct)
        if attempt == 0:
            agree = sum(harness.compare(message_of(events), harness.reference_message(c))[0]
                        for events, c in zip(outputs, cases))
    return best, best_construct, agree


def run_peers(slugs, repeat, plans):
    python = os.path.join(PEERS_VENV, "bin", "python")
    if not os.path.exists(python):
        print(f"no peers venv at {PEERS_VENV}: run bench/peers/install.sh", file=sys.stderr)
        return None
    out = os.path.join(HERE, ".peers-result.json")
    command = [python, os.path.join(HERE, "peers", "harness.py"), "--repeat", str(repeat), "--no-cases",
               "--fixtures", FIXTURES, "--out", out]
    if plans:
        command += ["--plans", ",".join(plans)]
    subprocess.run(command + list(slugs), check=True, stderr=subprocess.DEVNULL)
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def print_totals(name, rows, modes):
    """Per mode and side: agreement, µs per token and MB/s over the rows, and how many times
    slower each peer is, for the parse alone and with construction (over the slugs it parses)."""
    totals = {}
    for row in rows:
        for who in ("symphony", "sglang", "vllm"):
            if who in row:
                t = totals.setdefault((row["mode"], who), [0.0, 0, 0, 0, 0, 0.0])
                t[0] += row[who]["seconds"]
                t[1] += row["tokens"]
                t[2] += row["bytes"]
                t[3] += row[who]["agree"]
                t[4] += row["cases"]
                t[5] += row[who]["construct_seconds"]
    print(f"{name:28} {'mode':14} {'who':>9} {'agree':>10} {'us/tok':>8} {'MB/s':>8} {'symphony is':>14} "
          f"{'+build us/tok':>14} {'symphony is':>14}")
    for mode in modes:
        base = totals.get((mode, "symphony"))
        for who in ("symphony", "sglang", "vllm"):
            t = totals.get((mode, who))
            if not t:
                continue
            us = t[0] * 1e6 / t[1]
            built = (t[0] + t[5]) * 1e6 / t[1]
            ratio = built_ratio = ""
            if who != "symphony":
                ratio = f"{us / (base[0] * 1e6 / base[1]):.1f}x faster"
                built_ratio = f"{built / ((base[0] + base[5]) * 1e6 / base[1]):.1f}x faster"
            print(f"{'':28} {mode:14} {who:>9} {f'{t[3]}/{t[4]}':>10} {us:8.3f} {t[2] / t[0] / 1e6:8.1f} {ratio:>14} "
                  f"{built:14.3f} {built_ratio:>14}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("slugs", nargs="*", help="fixture slugs (default: those of --family)")
    ap.add_argument("--family", choices=sorted(FAMILIES), default="all",
                    help="slug set when no slugs are given: json, tagged, other, pending or all (default: every family)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--plans", default="", help="extra token chunk plans, e.g. whole,size-5,random-1")
    ap.add_argument("--json", help="also write the numbers here")
    args = ap.parse_args(argv)
    args.slugs = args.slugs or list(FAMILIES[args.family])
    plans = [p for p in args.plans.split(",") if p]
    modes = ["whole", "stream"] + [f"stream@{p}" for p in plans]
    peers = run_peers(args.slugs, args.repeat, plans)
    rows = []
    for slug in args.slugs:
        cases = load_cases(slug)
        tokens = sum(len(c["output_ids"]) for c in cases)
        nbytes = sum(len(c["reference"]["text"].encode()) for c in cases)
        for mode in modes:
            seconds, construct, agree = time_symphony(cases, mode, args.repeat)
            row = {"slug": slug, "mode": mode, "cases": len(cases), "tokens": tokens, "bytes": nbytes,
                   "symphony": {"seconds": seconds, "construct_seconds": construct, "agree": agree}}
            for peer in ("sglang", "vllm"):
                result = (peers or {}).get("peers", {}).get(peer, {}).get(slug, {})
                if result.get("status") == "ok" and mode in result:
                    row[peer] = {"seconds": result[mode]["seconds"],
                                 "construct_seconds": result[mode]["construct_seconds"],
                                 "agree": result[mode]["agree"]}
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
        for peer in ("sglang", "vllm"):
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
    groups = [(name, [r for r in rows if r["slug"] in FAMILIES[name]]) for name in ("json", "tagged", "other", "pending")]
    groups = [(name, group) for name, group in groups if group and len(group) < len(rows)] + [("overall", rows)]
    for name, group in groups:
        print()
        print_totals(name, group, modes)
    print("\n(peer totals cover only the slugs each peer has a parser for)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"rows": rows, "peer_versions": (peers or {}).get("versions")}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
