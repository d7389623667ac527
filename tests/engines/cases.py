"""The recorded fixture cases an engine test replays, each with what symphony's own chat
adapter says of it (the expectation the engine path must meet)."""
import json
import os

import symphony
from symphony.adapt import chat
from symphony.models import for_model

FIXTURES = os.environ.get("SYMPHONY_FIXTURES", "")
PIECE_CHARS = 3            # a case without recorded token pieces is streamed this many chars a delta


def _slugs():
    if not FIXTURES or not os.path.isdir(FIXTURES):
        return []
    return sorted(f[: -len(".jsonl")] for f in os.listdir(FIXTURES) if f.endswith(".jsonl"))


class Case:
    """One recorded output: its model, tools, prompt tail, text, the pieces it streams as, and
    symphony's own message for it."""

    def __init__(self, record, model):
        self.id = record["id"]
        self.model = model
        self.tools = record.get("request", {}).get("tools") or []
        self.text = record["reference"]["text"]
        self.finish = "length" if record["reference"].get("finish_reason") == "length" else "stop"
        pieces = record.get("output_pieces")
        self.pieces = pieces if pieces and "".join(pieces) == self.text else [
            self.text[i:i + PIECE_CHARS] for i in range(0, len(self.text), PIECE_CHARS)]
        events = symphony.parse(model.table(), self.text, tools=self.tools or None,
                                prompt=model.prompt_tail, finish=self.finish)
        self.expected = said(chat.message(events)["message"])


def said(message):
    """What a message says, as compared: content (None when blank), reasoning (None when
    empty), and each call's (name, arguments as a JSON value)."""
    content = message.get("content")
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    calls = []
    for call in message.get("tool_calls") or ():
        function = call["function"] if isinstance(call, dict) else call.function
        name = function["name"] if isinstance(function, dict) else function.name
        arguments = function["arguments"] if isinstance(function, dict) else function.arguments
        try:
            arguments = json.loads(arguments)
        except ValueError:
            pass
        calls.append((name, arguments))
    return {"content": content if content and content.strip() else None,
            "reasoning": reasoning or None, "calls": calls}


def fixture_cases():
    """Every case of every fixture whose checkpoint the registry places."""
    out = []
    for slug in _slugs():
        with open(os.path.join(FIXTURES, slug + ".jsonl"), encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                record = json.loads(line)
                try:
                    model = for_model(record["model"], record.get("request", {}).get("chat_template_kwargs"))
                except KeyError:
                    continue
                out.append(Case(record, model))
    return out
