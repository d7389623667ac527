"""Events in their wire shape (SPEC §1.3), for tests that pin a parse exactly: builders of each
event's `to_dict()`, and `check`, which compares the whole parse with a list of them and makes
every chunking of the output say the same thing.
"""
import symphony
from tests.common import check_conservation, check_well_formed, chunkings, replay, runs, said


def _text(text, tokens=None):
    return {"text": text, "tokens": tokens}


def content(text, tokens=None):
    return {"kind": "content", "text": text, "tokens": tokens}


def reasoning(text, tokens=None):
    return {"kind": "reasoning", "text": text, "tokens": tokens}


# The Malformed reason of a call region's bytes where no call started (docs/recovery.md).
NO_CALL = "a tool-call region that held no call"

START_THOUGHT = {"kind": "reasoning_start"}
END_THOUGHT = {"kind": "reasoning_end"}


def dropped(text, why="wrapper", tokens=None):
    return {"kind": "dropped", "text": _text(text, tokens), "why": why}


def malformed(text, why, tokens=None):
    """`why`: a unit reason's wire string, or the text of an Other reason."""
    if why not in ("unterminated_region", "invalid_arguments", "unknown_tool") and not isinstance(why, dict):
        why = {"other": why}
    return {"kind": "malformed", "text": _text(text, tokens), "why": why}


def start(index, name, source, tokens=None):
    return {"kind": "tool_call_start", "index": index, "id": f"call_{index}", "name": name,
            "source": _text(source, tokens)}


def arguments(index, json, source=None, tokens=None):
    """A fragment; its source is its JSON unless given (the JSON syntaxes send the model's bytes)."""
    return {"kind": "tool_call_arguments", "index": index, "json": json,
            "source": _text(json if source is None else source, tokens)}


def end(index, source="", tokens=None):
    return {"kind": "tool_call_end", "index": index, "source": _text(source, tokens)}


def finish(reason="stop", tool_calls=0, reasoning_tokens=0):
    return {"kind": "finish", "reason": reason, "tool_calls": tool_calls, "reasoning_tokens": reasoning_tokens}


def parsed(table, output, prompt=None, finish="stop", tools=None):
    return [e.to_dict() for e in symphony.parse(table, output, tools=tools, prompt=prompt, finish=finish)]


def check(table, output, want, prompt=None, finish="stop", tools=None, every_split_up_to=80, seeds=5):
    """The whole parse gives exactly `want` (up to how adjacent Dropped/Malformed of one reason
    are joined: `runs`); every chunking conserves the output, is well formed
    and says the same."""
    assert runs(parsed(table, output, prompt, finish, tools)) == runs(want)
    whole = said(symphony.parse(table, output, tools=tools, prompt=prompt, finish=finish))
    for plan, pieces in chunkings(output, every_split_up_to=every_split_up_to, seeds=seeds):
        events = replay(symphony.parser(table, tools), pieces, prompt, finish)
        check_conservation(events, output)
        check_well_formed(events)
        assert said(events) == whole, f"{table} {output!r} {plan}"


def arguments_of(events):
    """The joined arguments of each started call, by index."""
    joined = {}
    for e in events:
        d = e if isinstance(e, dict) else e.to_dict()
        if d["kind"] == "tool_call_start":
            joined[d["index"]] = ""
        elif d["kind"] == "tool_call_arguments":
            joined[d["index"]] += d["json"]
    return joined
