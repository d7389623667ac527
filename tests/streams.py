"""Parses fed delta by delta, for the wire-adapter tests: every property-corpus output and every
recorded fixture case, each at a few chunkings and finish reasons, as the per-feed event lists a
server would turn into stream chunks (plus the events of the whole parse)."""
import json
import os

import symphony
from symphony import Delta, End, Prompt
from symphony.models import for_model
from tests.common import chunkings, counted_deltas, synthetic_token_bounds
from tests.corpus import all_cases

FIXTURES = os.environ.get("SYMPHONY_FIXTURES", "")
FINISHES = ("stop", "length", "abort", "content_filter")
ADAPTER_SEEDS = 2


class Output:
    """One output to replay: its table, tools, prompt and text."""
    __slots__ = ("label", "table", "tools", "prompt", "text")

    def __init__(self, label, table, tools, prompt, text):
        self.label, self.table, self.tools, self.prompt, self.text = label, table, tools, prompt, text


def corpus_outputs():
    return [Output(f"{table}:{case.name}", table, case.tools, case.prompt, case.output)
            for table, case in all_cases()]


def fixture_outputs():
    if not FIXTURES or not os.path.isdir(FIXTURES):
        return []
    outputs = []
    for name in sorted(os.listdir(FIXTURES)):
        if not name.endswith(".jsonl"):
            continue
        with open(os.path.join(FIXTURES, name), encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                case = json.loads(line)
                try:
                    model = for_model(case["model"], case.get("request", {}).get("chat_template_kwargs"))
                except KeyError:
                    continue
                tools = case.get("request", {}).get("tools") or case.get("tools") or None
                outputs.append(Output(case["id"], model.format, tools, model.thought_tail,
                                      case["reference"]["text"]))
    return outputs


def feeds(output, pieces, finish="stop", counted=False):
    """The event list of each feed: the prompt's, each delta's, the end's."""
    p = symphony.parser(output.table, output.tools)
    out = [p.feed(Prompt(output.prompt))] if output.prompt else []
    deltas = counted_deltas(pieces, synthetic_token_bounds("".join(pieces))) if counted else \
        [Delta(piece) for piece in pieces]
    out += [p.feed(d) for d in deltas]
    out.append(p.feed(End(finish)))
    return out


def plans(output, seeds=ADAPTER_SEEDS):
    """(plan name, finish, counted, per-feed events) for the output: whole and seeded cut plans
    with a plain stop, the whole output with each other finish, and character by character
    counted (the adapters see events, so what matters is an event's size, its count and where a
    feed ends, not every cut position: the parser's own suites replay every cut)."""
    for name, pieces in chunkings(output.text, 0, seeds):
        if name != "character by character":
            yield name, "stop", False, feeds(output, pieces)
    for finish in FINISHES[1:]:
        yield "whole", finish, False, feeds(output, [output.text], finish)
    yield "character by character, counted", "stop", True, feeds(output, list(output.text) or [""], counted=True)
