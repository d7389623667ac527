"""Replays recorded outputs (the bellwether fixture format) the way an engine would stream them,
at every chunking, and judges each against its reference chat message (SPEC §9.3).

Each case of `<slug>.jsonl` is replayed as text at every cut plan of SPEC §9.1 (whole, every
two-way split, character by character, 30 seeded plans, plus empty deltas interleaved) and as
tokens at each of the case's own `chunk_plans`, with spans built from `output_pieces`. Every
replay must account for every output byte, all replays must say the same thing (`Said`), token
replays must count every token once, and the chat message is compared with the reference under
the verdict classes: bitwise, separators only, listed (policy probes), allowed (opt-in), DIFFERS.
"""
import dataclasses
import json
import os

from symphony import _native
from symphony.adapt import chat
from symphony.events import (
    Content,
    Dropped,
    Finish,
    Malformed,
    Reasoning,
    ReasoningEnd,
    ReasoningStart,
    ToolCallArguments,
    ToolCallEnd,
    ToolCallStart,
    bytes_of,
    tokens_of,
)
from symphony.format import Emits
from symphony.models import NO_THOUGHT, for_model, thought_markers
from symphony.reasons import reason_to_wire

MASK64 = (1 << 64) - 1
SEEDED_PLANS = 30
TWO_WAY_SPLIT_LIMIT = 2000     # characters; longer outputs skip the every-split plans

# Policy probes (SPEC §9.3, fixtures README "listed"): per table, case name -> (calls, finish).
REASONING_PROBE = "reasoning-with-marker-text"
FENCE_PROBE = "content-with-marker-in-code-fence"
KNOWN_DIFFERENCES = {
    "qwen3": {REASONING_PROBE: (0, "stop"), FENCE_PROBE: (1, "tool_calls")},
    "qwen2_5": {REASONING_PROBE: (0, "stop"), FENCE_PROBE: (1, "tool_calls")},
}

# Allowances (only with SYMPHONY_CORPUS_ALLOWANCES): checkpoints whose template cannot write calls.
CALLS_NOT_WRITTEN = ("qwen2.5-vl-3b", "qwen2.5-vl-7b", "qwen2.5-vl-32b", "qwen2.5-omni-3b")


# --- cut plans -------------------------------------------------------------------------------

def seeded_cuts(n_chars, seed):
    """Character indexes of one seeded plan of 1-8 character pieces (SPEC §9.1)."""
    state = (seed * 0x9E3779B97F4A7C15 | 1) & MASK64
    at = 0
    cuts = []
    while True:
        state = (state * 6364136223846793005 + 1442695040888963407) & MASK64
        at += 1 + (state >> 33) % 8
        if at >= n_chars:
            return cuts
        cuts.append(at)


def split_at(text, cuts):
    """The pieces of `text` cut at the given character indexes."""
    edges = [0, *cuts, len(text)]
    return [text[a:b] for a, b in zip(edges, edges[1:])]


def chunkings(text, every_split_up_to=None, seeds=SEEDED_PLANS):
    """Named cut plans of `text` (SPEC §9.1): whole, every two-way split (when the text has at
    most `every_split_up_to` characters, always when None), per character, seeded plans."""
    plans = [("whole", [text])]
    if every_split_up_to is None or len(text) <= every_split_up_to:
        plans += [(f"split-{i}", [text[:i], text[i:]]) for i in range(1, len(text))]
    plans.append(("character by character", list(text) if text else [""]))
    plans += [(f"seeded-{seed}", split_at(text, seeded_cuts(len(text), seed)))
              for seed in range(1, seeds + 1)]
    return plans


# --- what a parse said -----------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Said:
    """What a parse said, in a form every chunking of the same output must agree on (SPEC §9.2)."""
    content: str
    reasoning: tuple       # one string per reasoning region
    dropped: tuple         # (reason, joined text), sorted by reason
    malformed: tuple
    calls: tuple           # (index, id, name)
    arguments: tuple       # (index, joined json)
    ended: tuple           # indexes, in the order they ended
    finish: tuple          # (reason, tool_calls, reasoning_tokens)


def said(events):
    content, regions, calls, ended = [], [], [], []
    dropped, malformed, arguments = {}, {}, {}
    region = None
    finish = None
    for e in events:
        kind = type(e)
        if kind is Content:
            content.append(e.text)
        elif kind is ReasoningStart:
            region = []
            regions.append(region)
        elif kind is Reasoning:
            if region is None:
                region = []
                regions.append(region)
            region.append(e.text)
        elif kind is ReasoningEnd:
            region = None
        elif kind is Dropped:
            key = str(reason_to_wire(e.why))
            dropped[key] = dropped.get(key, "") + e.text.text
        elif kind is Malformed:
            key = json.dumps(reason_to_wire(e.why))
            malformed[key] = malformed.get(key, "") + e.text.text
        elif kind is ToolCallStart:
            calls.append((e.index, e.id, e.name))
            arguments.setdefault(e.index, "")
        elif kind is ToolCallArguments:
            arguments[e.index] = arguments.get(e.index, "") + e.json
        elif kind is ToolCallEnd:
            ended.append(e.index)
        elif kind is Finish:
            finish = (json.dumps(reason_to_wire(e.reason)), e.tool_calls, e.reasoning_tokens)
    return Said("".join(content), tuple("".join(r) for r in regions), tuple(sorted(dropped.items())),
                tuple(sorted(malformed.items())), tuple(calls), tuple(sorted(arguments.items())),
                tuple(ended), finish)


# --- replays ---------------------------------------------------------------------------------

def replay_text(engine, pieces, prompt, finish, empty_between=False):
    """Prompt, one uncounted Delta per piece (optionally an empty one around each), End."""
    events = list(engine.feed(_native.Prompt(prompt))) if prompt is not None else []
    empty = _native.Delta("")
    for piece in pieces:
        if empty_between:
            events += engine.feed(empty)
        events += engine.feed(_native.Delta(piece))
    if empty_between:
        events += engine.feed(empty)
    events += engine.feed(_native.End(finish))
    return events


def replay_tokens(engine, pieces, ids, sizes, prompt, finish):
    """Prompt, one counted Delta per chunk of tokens (spans from the pieces), End."""
    events = list(engine.feed(_native.Prompt(prompt))) if prompt is not None else []
    at = 0
    for size in sizes:
        chunk = pieces[at:at + size]
        chunk_ids = ids[at:at + size]
        spans = []
        offset = 0
        for token_id, piece in zip(chunk_ids, chunk):
            width = len(piece.encode("utf-8"))
            spans.append(_native.TokenSpan(token_id, offset, offset + width))
            offset += width
        events += engine.feed(_native.Delta("".join(chunk), chunk_ids, spans))
        at += size
    events += engine.feed(_native.End(finish))
    return events


# --- verdicts --------------------------------------------------------------------------------

@dataclasses.dataclass
class CaseResult:
    id: str
    verdict: str              # bitwise | separators | listed | allowed:<why> | DIFFERS
    replays: int = 0
    failures: list = dataclasses.field(default_factory=list)   # conservation, agreement, tokens
    detail: str = ""

    @property
    def ok(self):
        return self.verdict != "DIFFERS" and not self.failures


@dataclasses.dataclass
class SlugResult:
    slug: str
    model: str
    table: str = None
    status: str = "replayed"  # replayed | unplaced (the registry cannot place the checkpoint)
    cases: list = dataclasses.field(default_factory=list)
    failures: list = dataclasses.field(default_factory=list)   # slug-level (listed ids absent)
    detail: str = ""

    @property
    def ok(self):
        return self.status == "replayed" and not self.failures and all(c.ok for c in self.cases)


def _message_said(events):
    m = chat.message(events)
    msg = m["message"]
    calls = tuple((c["function"]["name"], c["function"]["arguments"]) for c in msg["tool_calls"] or ())
    return (msg["content"], msg["reasoning_content"], calls, m["finish_reason"])


def _reference_said(reference):
    message = reference["message"]
    calls = tuple((c["function"]["name"], c["function"]["arguments"]) for c in message.get("tool_calls") or ())
    return (message.get("content") or None, message.get("reasoning_content"), calls,
            reference.get("finish_reason"))


def _trim_separators(s):
    content, reasoning, calls, finish = s
    content = (content or "").strip("\n") or None
    reasoning = (reasoning or "").strip("\n") or None
    return (content, reasoning, calls, finish)


def _allowances():
    return os.environ.get("SYMPHONY_CORPUS_ALLOWANCES", "") not in ("", "0")


def judge(case, got, slug, table, model, markers):
    """The verdict of one case's parsed message `got` against its reference."""
    want = _reference_said(case["reference"])
    name = case["id"].split("/parse/", 1)[-1]
    listed = listed_probes(table, model.behaviour)
    if name in listed:
        calls, finish = listed[name]
        if _trim_separators(got) == _trim_separators(want):
            return "DIFFERS", f"listed probe {name} now matches the reference: take it off the list"
        if (len(got[2]), got[3]) != (calls, finish):
            return "DIFFERS", f"listed probe {name}: want {calls} calls/{finish}, got {len(got[2])}/{got[3]}"
        return "listed", ""
    if got == want:
        return "bitwise", ""
    if _trim_separators(got) == _trim_separators(want):
        return "separators", ""
    if _allowances():
        text = case["reference"]["text"]
        if (model.behaviour == NO_THOUGHT and not any(m in text for m in markers if m)
                and _trim_separators(got) == _trim_separators((want[0], None, want[2], want[3]))):
            return "allowed:ReasoningNotWritten", ""
        if (slug in CALLS_NOT_WRITTEN and "<tool_call>" not in text
                and _trim_separators(got) == _trim_separators((want[0], want[1], (), "stop"))):
            return "allowed:CallsNotWritten", ""
    return "DIFFERS", f"want {want!r}\n       got  {got!r}"


def listed_probes(table, behaviour):
    """The policy probes listed for a table; the reasoning probe is not listed where the prompt
    has no thought."""
    listed = dict(KNOWN_DIFFERENCES.get(table, {}))
    if behaviour == NO_THOUGHT:
        listed.pop(REASONING_PROBE, None)
    return listed


def _thought_region(text, open_marker, close_marker, starts_inside):
    """Byte range of the first thought: after the first opener (or from 0 when the prompt opened
    it) to the next closer (or the end)."""
    raw = text.encode("utf-8")
    if starts_inside:
        start = 0
    else:
        at = raw.find(open_marker.encode("utf-8")) if open_marker else -1
        if at < 0:
            return None
        start = at + len(open_marker.encode("utf-8"))
    end = raw.find(close_marker.encode("utf-8"), start) if close_marker else -1
    return start, (len(raw) if end < 0 else end)


def _check_token_replay(events, pieces, ids, region):
    """Token identity of one token replay: per-event counts equal the piece starts in the
    event's bytes, every token counted once, reasoning tokens those starting in the thought."""
    starts = []
    offset = 0
    for piece in pieces:
        starts.append(offset)
        offset += len(piece.encode("utf-8"))
    problems = []
    at = 0
    total = 0
    reasoning_sum = 0
    finish = None
    for e in events:
        if type(e) is Finish:
            finish = e
            continue
        width = len(bytes_of(e).encode("utf-8"))
        got = tokens_of(e)
        if type(e) in (ReasoningStart, ReasoningEnd):
            continue
        if type(e) is Dropped and width == 0 and at == offset:
            want = sum(1 for s in starts if s >= offset)      # trailing zero-width tokens
        else:
            want = sum(1 for s in starts if at <= s < at + width)
        if got != want:
            problems.append(f"{e!r} carries {got} tokens, {want} start in its bytes")
        total += got or 0
        if type(e) is Reasoning:
            reasoning_sum += got or 0
        at += width
    if total != len(ids):
        problems.append(f"{total} tokens counted, the output has {len(ids)}")
    if finish is not None:
        if finish.reasoning_tokens != reasoning_sum:
            problems.append(f"Finish.reasoning_tokens {finish.reasoning_tokens} != {reasoning_sum}")
        if region is not None:
            want = sum(1 for s in starts if region[0] <= s < region[1])
            if finish.reasoning_tokens != want:
                problems.append(f"reasoning_tokens {finish.reasoning_tokens}, {want} tokens start in the thought")
    return problems


def replay_case(case, model, format_table, every_split_up_to=TWO_WAY_SPLIT_LIMIT):
    """Every replay of one case; returns (whole-output events, failures, replay count)."""
    text = case["reference"]["text"]
    tools = case.get("request", {}).get("tools") or case.get("tools") or None
    finish = "length" if case["reference"].get("finish_reason") == "length" else "stop"
    prompt = model.thought_tail
    table = format_table.compile()
    failures = []
    baseline = None
    whole_events = None
    count = 0

    def check(name, events):
        nonlocal baseline, count
        count += 1
        joined = "".join(bytes_of(e) for e in events)
        if joined != text:
            failures.append(f"{name}: bytes not conserved: {joined!r}")
        if not events or type(events[-1]) is not Finish:
            failures.append(f"{name}: Finish is not last")
        s = said(events)
        ids = [c[1] for c in s.calls]
        if ids != [f"call_{i}" for i in range(len(ids))] or [c[0] for c in s.calls] != list(range(len(ids))):
            failures.append(f"{name}: calls not numbered 0.. with call_<i> ids: {s.calls}")
        # what counting adds (reasoning_tokens, the empty Dropped{ControlToken} of tokens that
        # brought no bytes) is not what the replays must agree on
        comparable = dataclasses.replace(s, finish=s.finish[:2] if s.finish else None,
                                         dropped=tuple(d for d in s.dropped if d[1]))
        if baseline is None:
            baseline = (name, comparable)
        elif comparable != baseline[1]:
            failures.append(f"{name}: says {comparable} but {baseline[0]} says {baseline[1]}")

    for name, pieces in chunkings(text, every_split_up_to):
        events = replay_text(_native.Engine(table, tools), pieces, prompt, finish)
        if whole_events is None:
            whole_events = events
        check(name, events)
        if name in ("whole", "character by character"):
            check(name + " with empty deltas",
                  replay_text(_native.Engine(table, tools), pieces, prompt, finish, empty_between=True))
    pieces = case.get("output_pieces")
    ids = case.get("output_ids") or []
    if pieces is not None:
        if "".join(pieces) != text:
            failures.append("output_pieces do not join to reference.text")
        else:
            open_marker, close_marker = thought_markers(format_table)
            starts_inside = any(type(e) is ReasoningStart for e in _native.Engine(table, tools).feed(
                _native.Prompt(prompt)))
            has_thought = any(e == Emits.REASONING for _, e in format_table.states)
            region = _thought_region(text, open_marker, close_marker, starts_inside) if has_thought else None
            for plan_name, plan in sorted((case.get("chunk_plans") or {"whole": None}).items()):
                if plan is None:
                    sizes = [len(ids)] if plan_name == "whole" else [1] * len(ids)
                else:
                    sizes = list(plan)
                if sum(sizes) != len(ids):
                    failures.append(f"token plan {plan_name}: sizes add up to {sum(sizes)}, not {len(ids)}")
                    continue
                events = replay_tokens(_native.Engine(table, tools), pieces, ids, sizes, prompt, finish)
                check(f"tokens {plan_name}", events)
                failures.extend(f"tokens {plan_name}: {p}"
                                for p in _check_token_replay(events, pieces, ids, region))
    return whole_events, failures, count


def verify_slug(path, every_split_up_to=TWO_WAY_SPLIT_LIMIT):
    """Replays every case of one fixture file."""
    with open(path, encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    slug = os.path.basename(path)[: -len(".jsonl")]
    model_id = cases[0]["model"] if cases else ""
    result = SlugResult(slug, model_id)
    try:
        model = for_model(model_id)
    except KeyError as e:
        result.status = "unplaced"
        result.detail = str(e.args[0])
        return result
    result.table = model.format
    format_table = model.table()
    names = set()
    for case in cases:
        names.add(case["id"].split("/parse/", 1)[-1])
        case_model = for_model(case.get("model", model_id),
                               case.get("request", {}).get("chat_template_kwargs"))
        events, failures, count = replay_case(case, case_model, format_table, every_split_up_to)
        verdict, detail = judge(case, _message_said(events), slug, model.format, case_model,
                                thought_markers(format_table))
        result.cases.append(CaseResult(case["id"], verdict, count, failures, detail))
    for name in listed_probes(model.format, model.behaviour):
        if name not in names:
            result.failures.append(f"listed probe {name} is absent from the fixtures")
    return result


def verify_directory(directory, slugs=None, every_split_up_to=TWO_WAY_SPLIT_LIMIT):
    """Replays every `<slug>.jsonl` of a directory (or only the given slugs), sorted by slug."""
    files = sorted(f for f in os.listdir(directory) if f.endswith(".jsonl"))
    if slugs:
        wanted = set(slugs)
        missing = wanted - {f[: -len(".jsonl")] for f in files}
        if missing:
            raise FileNotFoundError(f"no fixture file for {', '.join(sorted(missing))} in {directory}")
        files = [f for f in files if f[: -len(".jsonl")] in wanted]
    return [verify_slug(os.path.join(directory, f), every_split_up_to) for f in files]


VERDICT_COLUMNS = ("bitwise", "separators", "listed", "allowed", "DIFFERS")


def format_report(results, verbose=False):
    """The per-slug verdict table (and, verbose or failing, the details)."""
    header = f"{'slug':34} {'table':10} {'cases':>5} " + " ".join(f"{c:>10}" for c in VERDICT_COLUMNS) \
        + f" {'replays':>8} {'failed':>6}"
    lines = [header, "-" * len(header)]
    details = []
    for r in results:
        if r.status != "replayed":
            lines.append(f"{r.slug:34} {'-':10} {'-':>5}  {r.status}: {r.detail}")
            continue
        counts = {c: 0 for c in VERDICT_COLUMNS}
        for case in r.cases:
            counts[case.verdict.split(":")[0]] += 1
        failed = sum(1 for case in r.cases if not case.ok) + len(r.failures)
        lines.append(f"{r.slug:34} {r.table:10} {len(r.cases):>5} "
                     + " ".join(f"{counts[c]:>10}" for c in VERDICT_COLUMNS)
                     + f" {sum(c.replays for c in r.cases):>8} {failed:>6}")
        details += [f"{r.slug}: {f}" for f in r.failures]
        for case in r.cases:
            if not case.ok or verbose:
                details.append(f"{case.id}: {case.verdict} {case.detail}".rstrip())
                details += [f"    {f}" for f in case.failures[:5]]
                if len(case.failures) > 5:
                    details.append(f"    ... {len(case.failures) - 5} more")
    return "\n".join(lines + ([""] + details if details else []))
