"""Judges recorded outputs (the bellwether fixture format) against their reference chat
messages (SPEC §9.3): each case is replayed at every chunking and token plan
(`symphony.replay`), every replay must account for every output byte and agree with the others,
and the chat message is compared with the reference under the verdict classes: bitwise,
separators only, argument values (tables whose template rewrites the arguments), listed (policy
probes), allowed (opt-in), DIFFERS.
"""
import dataclasses
import json
import os

from symphony.adapt import chat
from symphony.models import NO_THOUGHT, for_model, thought_markers
from symphony.replay import TWO_WAY_SPLIT_LIMIT, replay_case

# Policy probes (SPEC §9.3, fixtures README "listed"): per table, case name -> (calls, finish).
REASONING_PROBE = "reasoning-with-marker-text"
FENCE_PROBE = "content-with-marker-in-code-fence"
KNOWN_DIFFERENCES = {
    # the JSON tables read the fenced `<tool_call>` block as the call it spells (SPEC §10); the
    # tables that do not read JSON there show the block as written (a region with no call is text)
    "qwen3": {REASONING_PROBE: (0, "stop"), FENCE_PROBE: (1, "tool_calls")},
    "qwen2_5": {REASONING_PROBE: (0, "stop"), FENCE_PROBE: (1, "tool_calls")},
    "qwen3_tagged": {REASONING_PROBE: (0, "stop")},
    "ling": {REASONING_PROBE: (0, "stop")},
    "glm": {REASONING_PROBE: (0, "stop")},
    "iquest": {REASONING_PROBE: (0, "stop")},
    "deepseek_v4_1": {REASONING_PROBE: (0, "stop")},
    "lfm2_5": {REASONING_PROBE: (0, "stop")},      # its thought markers are <mm:think>: no thought probe
    "minimax_m2": {REASONING_PROBE: (0, "stop")},
    "dots3": {REASONING_PROBE: (0, "stop")},
    "laguna": {REASONING_PROBE: (0, "stop")},
    "minicpm5": {REASONING_PROBE: (0, "stop")},
}

# Checkpoints whose fixtures do not record a probe their table lists (GLM-5 and GLM-4.7-Flash
# were recorded with thinking off but for one call; GLM-4.6 writes its own thought and has no
# thought probe). A probe named here that does show up is a failure too, so neither list rots.
UNRECORDED_PROBES = {
    "glm-5": {REASONING_PROBE},
    "glm-4.7-flash": {REASONING_PROBE},
    "glm-4.6": {REASONING_PROBE},
}

# Tables whose template rewrites a call's arguments when it renders them, so the output cannot
# spell them as the reference message does: their arguments are compared as JSON values.
REWRITTEN_ARGUMENTS = {
    # the template writes the `args` object with json.dumps(sort_keys=True, separators=(",", ":"));
    # the reference keeps the corpus's key order and spacing, the parser gives the model's bytes
    "inkling": "compact, keys sorted",
}

# Tables whose templates write a call's arguments in sorted key order (Gemma 4's template sorts
# them), where the references keep the corpus's order: the parser streams the members in the
# order the model wrote them, so a case whose arguments differ from the reference in member
# order only (every other byte of the message the same) is listed as "member order".
SORTED_ARGUMENTS = ("gemma4",)

# Allowances (only with SYMPHONY_CORPUS_ALLOWANCES): checkpoints whose template cannot write calls.
CALLS_NOT_WRITTEN = ("qwen2.5-vl-3b", "qwen2.5-vl-7b", "qwen2.5-vl-32b", "qwen2.5-omni-3b")


# --- verdicts --------------------------------------------------------------------------------

@dataclasses.dataclass
class CaseResult:
    id: str
    verdict: str              # bitwise | separators | values | listed | allowed:<why> | DIFFERS
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


def _as_values(said):
    """A message with each call's arguments read as a JSON value (key order and spacing free)."""
    content, reasoning, calls, finish = said
    try:
        calls = tuple((name, json.loads(arguments)) for name, arguments in calls)
    except ValueError:
        return said
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
    if table in REWRITTEN_ARGUMENTS and _as_values(_trim_separators(got)) == _as_values(_trim_separators(want)):
        return "values", ""
    if table in SORTED_ARGUMENTS and _trim_separators(got) == _trim_separators(_in_order_of(want, got)):
        return "listed:member order", ""
    if _allowances():
        text = case["reference"]["text"]
        if (model.behaviour == NO_THOUGHT and not any(m in text for m in markers if m)
                and _trim_separators(got) == _trim_separators((want[0], None, want[2], want[3]))):
            return "allowed:ReasoningNotWritten", ""
        if (slug in CALLS_NOT_WRITTEN and "<tool_call>" not in text
                and _trim_separators(got) == _trim_separators((want[0], want[1], (), "stop"))):
            return "allowed:CallsNotWritten", ""
    return "DIFFERS", f"want {want!r}\n       got  {got!r}"


def _in_order_of(want, got):
    """`want` with each call's arguments rewritten in the member order of `got`'s (the reference
    writer's separators kept), where both are JSON objects of the same members."""
    def ordered(value, like):
        if isinstance(value, dict) and isinstance(like, dict) and value.keys() == like.keys():
            return {key: ordered(value[key], like[key]) for key in like}
        if isinstance(value, list) and isinstance(like, list) and len(value) == len(like):
            return [ordered(v, w) for v, w in zip(value, like)]
        return value

    if len(want[2]) != len(got[2]):
        return want
    calls = []
    for (name, arguments), (_, got_arguments) in zip(want[2], got[2]):
        try:
            value, like = json.loads(arguments), json.loads(got_arguments)
        except ValueError:
            return want
        if json.dumps(value, ensure_ascii=False) != arguments:
            return want        # the reference's own spacing is not the writer's: compare as is
        calls.append((name, json.dumps(ordered(value, like), ensure_ascii=False)))
    return (want[0], want[1], tuple(calls), want[3])


def listed_probes(table, behaviour):
    """The policy probes listed for a table; the reasoning probe is not listed where the prompt
    has no thought."""
    listed = dict(KNOWN_DIFFERENCES.get(table, {}))
    if behaviour == NO_THOUGHT:
        listed.pop(REASONING_PROBE, None)
    return listed


def load_cases(path):
    """The cases of one fixture file, in file order."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def verify_slug(path, every_split_up_to=TWO_WAY_SPLIT_LIMIT):
    """Replays every case of one fixture file."""
    cases = load_cases(path)
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
    unrecorded = UNRECORDED_PROBES.get(slug, set())
    for name in listed_probes(model.format, model.behaviour):
        if name not in names and name not in unrecorded:
            result.failures.append(f"listed probe {name} is absent from the fixtures")
        if name in names and name in unrecorded:
            result.failures.append(f"probe {name} is recorded now: take {slug} off UNRECORDED_PROBES")
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


VERDICT_COLUMNS = ("bitwise", "separators", "values", "listed", "allowed", "DIFFERS")


def format_report(results, verbose=False):
    """The per-slug verdict table (and, verbose or failing, the details)."""
    header = f"{'slug':34} {'table':12} {'cases':>5} " + " ".join(f"{c:>10}" for c in VERDICT_COLUMNS) \
        + f" {'replays':>8} {'failed':>6}"
    lines = [header, "-" * len(header)]
    details = []
    for r in results:
        if r.status != "replayed":
            lines.append(f"{r.slug:34} {'-':12} {'-':>5}  {r.status}: {r.detail}")
            continue
        counts = {c: 0 for c in VERDICT_COLUMNS}
        for case in r.cases:
            counts[case.verdict.split(":")[0]] += 1
        failed = sum(1 for case in r.cases if not case.ok) + len(r.failures)
        lines.append(f"{r.slug:34} {r.table:12} {len(r.cases):>5} "
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
