"""The counted fuzz run: `python3 -m tests.fuzz --inputs 100000 [--seed S]` (CI runs it on the
bounds-checked sanitizer build and prints the count; 1,000,000 and more from the same command).

Each input is one parse: a table (every shipped table, or a random user-built one: random markers,
states, transitions, call syntax and ignored terminals) fed a soup of markers, marker fragments,
JSON and tag atoms and random characters, cut at random, with random token spans (partitioning,
spoiled, as objects or arrays) or none, a random prompt and finish, and the request's tools or none
(with tools, calls to undeclared ones refused or not: `undeclared`). Every input is checked for
what SPEC §9.2 promises whatever the input: every byte in exactly one event, one Finish and last,
well-formed events (call order, JSON prefixes), tokens counted once when the spans fit, no two
adjacent events of one feed that the parser should have merged, the lifecycle (a second Prompt,
a Prompt after output began, a Delta or End after End: each refused with nothing emitted and the
parse unharmed), and, for uncounted streams (with empty deltas interleaved at random), the same
parse whole and cut. A failure prints what reproduces it and the run
exits 1; pin it in tests/test_fuzz.py as an explicit example.
"""
import argparse
import random
import sys
import time

import numpy as np

import symphony
from symphony import Delta, End, Prompt, TokenSpan
from symphony.events import Content, DropReason, Dropped, Finish, Malformed, Reasoning, text_of
from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import Placement, Spelling, Tags
from tests.common import carries_text, check_well_formed, counted_deltas, said, tokens_of
from tests.test_fuzz import ATOMS, FRAGMENTS, FUZZ_TOOLS, MARKERS, TABLES

SYNTAXES = [CallSyntax.json(), CallSyntax.json_list(), CallSyntax.tagged(),
            CallSyntax.tagged(Spelling.PYTHON, Placement.DIRECT), CallSyntax.keyed(Tags.PLAIN),
            CallSyntax.keyed(Tags.LING), CallSyntax.keyed(Tags.HY4), CallSyntax.dsml(), CallSyntax.xtml(),
            CallSyntax.xml(), CallSyntax.pythonic(), CallSyntax.gemma(), CallSyntax.param_xml(),
            CallSyntax.required(), CallSyntax.forced("f"), CallSyntax.json_list(prose=True),
            CallSyntax.json_list(bare=True, prose=True), CallSyntax.pythonic(prose=True),
            CallSyntax.json(or_list=True)]
PROMPTS = [None, "", "<|im_start|>assistant\n<think>\n", "<think>", "<r>\n", "<b>", "<tool_call>\n"]
FINISHES = ["stop", "length", "abort", "x"]


def random_table(rng, k):
    """A user-built table: 1–6 markers, 1–4 states (the first never a thought), random rows (none
    that the table check refuses)."""
    texts = rng.sample(MARKERS, rng.randint(1, 6))
    f = Format(f"user{k}")
    for i, text in enumerate(texts):
        if rng.random() < 0.15:
            f.ignores(f"t{i}", text)
        else:
            f.terminal(f"t{i}", text)
    kinds = list(Emits)
    states = [rng.choice([Emits.CONTENT, Emits.ARGUMENTS, Emits.WRAPPER, Emits.HIDDEN])] + \
        [rng.choice(kinds) for _ in range(rng.randint(0, 3))]
    for i, emits in enumerate(states):
        f.state(f"s{i}", emits)
    names = [name for name, _ in f.terminals]
    for _ in range(rng.randint(0, 8)):
        if names:
            a, b = rng.randrange(len(states)), rng.randrange(len(states))
            if states[b] == Emits.DAMAGED_MARKER and a != b and states[a] not in (Emits.CONTENT, Emits.REASONING):
                continue        # only content or a thought leads into a damaged marker (check_table)
            f.transition(f"s{a}", rng.choice(names), f"s{b}")
    if Emits.ARGUMENTS in states or rng.random() < 0.3:
        f.calls(rng.choice(SYNTAXES))
    return f


def describe(table):
    """A user-built table as the builder calls that make it (for a repro)."""
    if not isinstance(table, Format):
        return repr(table.name)
    return (f"terminals {table.terminals} ignored {sorted(table.ignored)} states "
            f"{[(n, int(e)) for n, e in table.states]} transitions {table.transitions} syntax {table.syntax!r}")


def random_text(rng):
    pieces = []
    for _ in range(rng.randint(0, 30)):
        r = rng.random()
        if r < 0.25:
            pieces.append(rng.choice(MARKERS))
        elif r < 0.4:
            pieces.append(rng.choice(FRAGMENTS))
        elif r < 0.9:
            pieces.append(rng.choice(ATOMS))
        else:
            pieces.append("".join(chr(rng.choice([rng.randint(32, 126), rng.randint(0x80, 0xD7FF),
                                                   rng.randint(0xE000, 0x10FFFF)]))
                                  for _ in range(rng.randint(1, 4))))
    return "".join(pieces)


def random_cuts(rng, text):
    if len(text) < 2:
        return [text]
    if rng.random() < 0.15:
        return list(text)
    at = sorted(rng.sample(range(1, len(text)), min(len(text) - 1, rng.randint(0, 12))))
    edges = [0, *at, len(text)]
    return [text[a:b] for a, b in zip(edges, edges[1:])]


def token_bounds(rng, text):
    bounds, at = [], 0
    while at < len(text):
        if rng.random() < 0.1:
            bounds.append((at, at))
        step = rng.randint(1, 5)
        bounds.append((at, min(at + step, len(text))))
        at += step
    for _ in range(rng.choice([0, 0, 1, 2, 3])):      # trailing zero-width tokens
        bounds.append((len(text), len(text)))
    return bounds


def spoiled(rng, deltas):
    """One delta whose spans no longer partition its text (None when none could be spoiled)."""
    k = rng.randrange(len(deltas))
    d = deltas[k]
    spans = list(d.spans)
    if not spans:
        return None
    s = spans[-1]
    spans[-1] = TokenSpan(s.token_id, s.start, s.end + rng.randint(1, 3), s.continued)
    if TokenSpan.partitions(spans, d.text):
        return None
    out = list(deltas)
    out[k] = Delta(d.text, d.token_ids, spans)
    return out


def as_arrays(deltas):
    return [Delta(d.text, np.asarray(d.token_ids, dtype=np.int64),
                  np.asarray([[s.token_id, s.start, s.end, int(s.continued)] for s in d.spans],
                             dtype=np.int64).reshape(len(d.spans), 4)) for d in deltas]


class Broken(Exception):
    """A promise the parser broke while it was being fed."""


MERGED = (Content, Reasoning, Dropped, Malformed)


def unmerged(events):
    """Two adjacent events of one feed that should have been one: Content (Reasoning) next to
    Content (Reasoning), Dropped (Malformed) next to one of the same reason. The trailer (the
    empty Dropped{ControlToken} counting the tokens after the last byte, just before Finish)
    stands alone."""
    for at, (a, b) in enumerate(zip(events, events[1:])):
        if type(a) is type(b) and type(a) in MERGED and getattr(a, "why", None) == getattr(b, "why", None):
            if not is_trailer(b, events[at + 2:at + 3]):
                return f"unmerged {a!r} then {b!r}"
    return None


def is_trailer(event, after):
    return (type(event) is Dropped and event.why == DropReason.CONTROL_TOKEN and event.text.text == ""
            and all(type(e) is Finish for e in after))


def refused(parser, item, message):
    """Feeds a misuse the lifecycle must refuse, emitting nothing (SPEC §1.6)."""
    try:
        events = parser.feed(item)
    except symphony.LifecycleError as e:
        if e.message != message:
            raise Broken(f"{type(item).__name__} refused as {e.message!r}, not {message!r}")
        return
    raise Broken(f"{type(item).__name__} accepted ({events!r}); expected refused: {message}")


def run(parser, prompt, deltas, finish, misuse=None):
    """Feeds one input and returns its events; `misuse` (a Random) also feeds lifecycle misuses
    at random points and checks each is refused. Raises Broken when a feed breaks a promise."""
    feeds = []
    if prompt is not None:
        feeds.append(parser.feed(Prompt(prompt)))
        if misuse and misuse.random() < 0.3:
            refused(parser, Prompt(prompt), "prompt after output began")     # a second prompt
    for d in deltas:
        feeds.append(parser.feed(d))
        if misuse and misuse.random() < 0.05:
            refused(parser, Prompt(""), "prompt after output began")
    feeds.append(parser.feed(End(finish)))
    if misuse:
        refused(parser, Delta("x"), "delta after end")
        refused(parser, End(finish), "end after end")
    for events in feeds:
        problem = unmerged(events)
        if problem:
            raise Broken(problem)
    return [e for events in feeds for e in events]


def check(table, text, prompt, deltas, mode, finish, tools, misuse=None, undeclared="call"):
    """Runs one input; returns a reason when a promise breaks, else None."""
    try:
        events = run(symphony.parser(table, tools, undeclared=undeclared), prompt, deltas, finish, misuse)
    except Broken as e:
        return str(e)
    if text_of(events) != text:
        return "bytes not conserved"
    if sum(1 for e in events if type(e) is Finish) != 1 or type(events[-1]) is not Finish:
        return "not exactly one Finish, last"
    try:
        check_well_formed(events)
    except AssertionError as e:
        return f"not well-formed: {e}"
    counts = [tokens_of(e) for e in events if carries_text(e)]
    if mode == "counted":
        if None in counts or sum(counts) != sum(len(d.token_ids) for d in deltas):
            return "tokens not counted once"
        if events[-1].reasoning_tokens != sum(e.tokens for e in events if type(e) is Reasoning):
            return "reasoning tokens"
    elif mode == "uncounted":
        whole = run(symphony.parser(table, tools, undeclared=undeclared), prompt, [Delta(text)], finish)
        if said(whole) != said(events):
            return "a cut plan says otherwise than the whole output"
    return None


def one_input(rng, tables, k):
    table = rng.choice(tables) if rng.random() < 0.6 else random_table(rng, k)
    text = random_text(rng)
    pieces = random_cuts(rng, text)
    mode = rng.choice(["uncounted", "counted", "counted", "spoiled"])
    if mode == "uncounted":
        deltas = [Delta(p) for p in pieces]
        if rng.random() < 0.2:
            deltas = [d for p in deltas for d in ((Delta(""), p) if rng.random() < 0.3 else (p,))]
    else:
        deltas = counted_deltas(pieces, token_bounds(rng, text))
        if mode == "spoiled":
            deltas = spoiled(rng, deltas) or deltas
        if rng.random() < 0.5:
            deltas = as_arrays(deltas)
    tools = rng.choice([None, FUZZ_TOOLS])
    undeclared = "malformed" if tools is not None and rng.random() < 0.5 else "call"
    return table, text, rng.choice(PROMPTS), deltas, mode, rng.choice(FINISHES), tools, undeclared


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(2 ** 32)
    rng = random.Random(seed)
    tables = [t.compile() for t in TABLES]
    started = time.perf_counter()
    user_built = 0
    for k in range(args.inputs):
        table, text, prompt, deltas, mode, finish, tools, undeclared = one_input(rng, tables, k)
        user_built += isinstance(table, Format)
        try:
            problem = check(table, text, prompt, deltas, mode, finish, tools, rng, undeclared)
        except Exception as e:       # a parser must never raise on output
            problem = f"raised {type(e).__name__}: {e}"
        if problem:
            print(f"fuzz: input {k} (seed {seed}): {problem}\n  table {describe(table)}\n  prompt {prompt!r}\n"
                  f"  deltas {[d.text for d in deltas]!r}\n  mode {mode}, finish {finish!r}, tools {tools is not None}, "
                  f"undeclared {undeclared!r}",
                  file=sys.stderr)
            return 1
    print(f"fuzz: {args.inputs} inputs ({user_built} on user-built tables), seed {seed}, "
          f"{symphony._native.VARIANT} build, no failure, "
          f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
