"""A parser fed while it is still feeding: from a garbage-collector callback or a
finalizer that runs inside a feed, or from a second thread. The second feed is refused with
ConcurrentUseError and emits nothing; the running feed is unharmed and every byte lands once.
Before the guard, this re-entry took the same records twice and crashed the interpreter."""
import gc
import subprocess
import sys
import textwrap

import pytest

import symphony
from symphony import ConcurrentUseError, Delta, End, LifecycleError, ParseError
from symphony.events import text_of

TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {
    "type": "object", "properties": {"a": {"type": "integer"}}}}}]
# the tools compile inside the first feed that opens a call: allocations there let the collector run
TEXT = "hello <tool_call>\n<function=f>\n<parameter=a>\n5\n</parameter>\n</function>\n</tool_call> tail"


def feeding_from_the_collector(parser, run, inner=None):
    """Runs `run()` with a collector callback that feeds `parser` (`inner`, default a Delta) at the
    first collection while `run()` runs (the feed's own allocations bring it); returns what that
    feed gave (events or the error) and what `run()` returned."""
    seen = []
    inside = [False]
    inner = Delta("x") if inner is None else inner

    def callback(phase, info):
        if phase == "start" and inside[0] and not seen:
            try:
                seen.append(parser.feed(inner))
            except ParseError as e:
                seen.append(e)

    old = gc.get_threshold()
    gc.callbacks.append(callback)
    gc.set_threshold(1)
    try:
        inside[0] = True
        result = run()
        inside[0] = False
    finally:
        gc.set_threshold(*old)
        gc.callbacks.remove(callback)
    return seen, result


def test_the_error_is_a_lifecycle_error_naming_the_misuse():
    assert issubclass(ConcurrentUseError, LifecycleError)
    assert str(ConcurrentUseError("m")).startswith("concurrent use: ")


def test_a_feed_from_inside_a_feed_is_refused_and_the_running_feed_is_unharmed():
    parser = symphony.parser("qwen3_tagged", TOOLS)
    delta = Delta(TEXT)
    seen, events = feeding_from_the_collector(parser, lambda: parser.feed(delta))
    assert seen, "the collector ran inside the feed"
    assert all(type(s) is ConcurrentUseError for s in seen), seen
    events += parser.feed(End("stop"))
    assert text_of(events) == TEXT
    assert [e.json for e in events if type(e).__name__ == "ToolCallArguments"] == ['{"a": 5', "}"]


def test_a_feed_from_inside_a_parse_is_refused():
    parser = symphony.parser("qwen3_tagged", TOOLS)
    seen, events = feeding_from_the_collector(parser, lambda: parser.parse(TEXT))
    assert seen and all(type(s) is ConcurrentUseError for s in seen), seen
    assert text_of(events) == TEXT


def test_after_a_refused_reentry_the_parser_goes_on():
    parser = symphony.parser("qwen3_tagged", TOOLS)
    seen, events = feeding_from_the_collector(parser, lambda: parser.feed(Delta(TEXT[:40])))
    events += parser.feed(Delta(TEXT[40:])) + parser.feed(End("stop"))
    assert text_of(events) == TEXT and not parser.failed


def test_reentry_in_a_fresh_interpreter_never_crashes_it():
    # the shape that crashed the interpreter before the guard, in its own process
    code = textwrap.dedent(f"""
        import gc, symphony
        from symphony import Delta, End
        from symphony.events import text_of
        p = symphony.parser("qwen3_tagged", {TOOLS!r})
        hits = []
        def cb(phase, info):
            if phase == "start":
                try:
                    p.feed(Delta("x"))
                except symphony.ConcurrentUseError:
                    hits.append(1)
        d = Delta({TEXT!r})
        gc.callbacks.append(cb); gc.set_threshold(1)
        ev = p.feed(d)
        gc.set_threshold(700); gc.callbacks.remove(cb)
        ev += p.feed(End("stop"))
        assert text_of(ev) == {TEXT!r} and hits
        print("ok")
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", (r.returncode, r.stderr[-2000:])


@pytest.mark.parametrize("kind", ["delta", "end", "prompt"])
def test_every_input_kind_is_guarded(kind):
    parser = symphony.parser("qwen3_tagged", TOOLS)
    inner = {"delta": Delta("x"), "end": End("stop"), "prompt": symphony.Prompt("p")}[kind]
    delta = Delta(TEXT)
    seen, events = feeding_from_the_collector(parser, lambda: parser.feed(delta), inner)
    assert seen and all(type(s) is ConcurrentUseError for s in seen), seen
    assert text_of(events + parser.feed(End("stop"))) == TEXT
