"""The recorded bellwether fixtures (../shared/fixtures/bellwether, or SYMPHONY_FIXTURES): one
JSONL file per checkpoint group, each case an output and the message it must parse to."""
import json
import os

from symphony.models import for_model

FIXTURES = os.environ.get("SYMPHONY_FIXTURES") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "..", "shared", "fixtures", "bellwether")


def slugs():
    """The fixture slugs present, sorted (none where the directory is missing)."""
    if not os.path.isdir(FIXTURES):
        return []
    return sorted(name[: -len(".jsonl")] for name in os.listdir(FIXTURES) if name.endswith(".jsonl"))


def load_cases(slug):
    """The cases of one slug, in file order."""
    with open(os.path.join(FIXTURES, slug + ".jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def case_setup(case):
    """(compiled table, tools, prompt tail, engine finish) for a case, via the model registry."""
    model = for_model(case["model"], case["request"].get("chat_template_kwargs"))
    tools = case["request"].get("tools") or None
    finish = "length" if case["reference"]["finish_reason"] == "length" else "stop"
    return model.table().compile(), tools, model.thought_tail, finish
