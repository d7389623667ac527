"""Cost against length and memory held, on the shapes of bench/shapes.py.

`python3 -m bench.scaling [--markdown FILE]` prints, per shape, ns per byte at 64 KiB and at 4 MiB, whole and in
4 KiB deltas, with the garbage collector on, and their ratio (the goal: within 1.5x); then what a
parser holds (tracemalloc: the core allocates through Python's raw allocator) idle, mid-content
and mid-call. Figures are from one run on this machine; compare ratios, not absolute times.
--markdown FILE (bench/RESULTS.md) replaces this bench's section of that file with the report."""
import argparse
import time
import tracemalloc

import symphony
from bench import results
from bench.shapes import SHAPES
from symphony import Delta, End

SIZES = (64 << 10, 4 << 20)


def timed(table, text, chunk):
    """Seconds for one parse of `text`: whole (chunk None) or in deltas of `chunk` characters."""
    p = symphony.parser(table, buffer_limit=None)
    start = time.perf_counter()
    if chunk is None:
        events = p.parse(text)
    else:
        events = []
        for at in range(0, len(text), chunk):
            events += p.feed(Delta(text[at:at + chunk]))
        events += p.feed(End("stop"))
    took = time.perf_counter() - start
    del events
    return took


def ns_per_byte(table, text, chunk, repeat):
    return min(timed(table, text, chunk) for _ in range(repeat)) / len(text.encode()) * 1e9


def scaling_rows(names, repeat):
    for name in names:
        table, build = SHAPES[name]
        row = {"shape": name, "table": table}
        for mode, chunk in (("whole", None), ("4k", 4096)):
            small, large = (ns_per_byte(table, build(size), chunk, repeat if size < 1 << 20 else max(1, repeat // 2))
                            for size in SIZES)
            row[mode] = (small, large, large / small)
        yield row


def held_bytes(table, pieces):
    """Bytes traced after a fresh parser took `pieces` (the parser only: events are dropped)."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        p = symphony.parser(table)
        for piece in pieces:
            p.feed(Delta(piece))
        return tracemalloc.get_traced_memory()[0] - base, p.held
    finally:
        tracemalloc.stop()


MEMORY_CASES = {
    "idle": ("qwen3", []),
    "mid-content (1 MiB of content fed)": ("qwen3", ["content " * 16384] * 8),
    "mid-call (1 MiB of arguments fed)": ("qwen3", ['<tool_call>\n{"name": "f", "arguments": {"a": "']
                                          + ["y" * 65536] * 16),
    "mid-call, arguments before name (1 MiB)": ("qwen3", ['<tool_call>\n{"arguments": {"a": "']
                                                + ["y" * 65536] * 16),
    "mid-call, tagged (1 MiB string value)": ("qwen3_tagged", ["<tool_call>\n<function=f>\n<parameter=a>\n"]
                                              + ["y" * 65536] * 16),
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("shapes", nargs="*", help=f"shapes (default all: {', '.join(SHAPES)})")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--markdown", metavar="FILE", help="also write the report as this bench's section of FILE "
                                                       "(bench/RESULTS.md), replacing its last run's")
    args = ap.parse_args(argv)
    report = []

    def say(line):
        print(line, flush=True)
        report.append(line)

    say(f"{'shape':24} {'table':13} {'whole 64K':>10} {'4M':>8} {'ratio':>6}   {'4k-deltas 64K':>13} {'4M':>8} {'ratio':>6}")
    for row in scaling_rows(args.shapes or list(SHAPES), args.repeat):
        w, d = row["whole"], row["4k"]
        say(f"{row['shape']:24} {row['table']:13} {w[0]:10.2f} {w[1]:8.2f} {w[2]:6.2f}   {d[0]:13.2f} {d[1]:8.2f} {d[2]:6.2f}")
    say("")
    say("bytes a parser holds (tracemalloc), and the output bytes no event accounts for yet:")
    for name, (table, pieces) in MEMORY_CASES.items():
        traced, held = held_bytes(table, pieces)
        say(f"  {name:44} {traced:>10,} B traced   {held:>9,} B held")
    if args.markdown:
        results.write_section("scaling", "Cost against length, and memory held (bench/scaling.py)",
                              "ns per byte; the goal is a ratio within 1.5x.\n\n" + results.fenced(report),
                              results.command("-m bench.scaling", argv), path=args.markdown)


if __name__ == "__main__":
    main()
