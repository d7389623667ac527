"""The core lets go of the GIL over long scans and long JSON runs (pyx/nogil.pxd): while one
thread's parser works through them, another thread runs Python code.

How it is seen: one thread parses a long output while the main thread spins, noting when it
first runs after the parse call began. A thread that holds the GIL through a C call gives the
other thread no turn until the call is back in Python, near its end; one that lets go of it
over the scan gives the other a turn at once, long before the end (the call's remaining work,
copying and decoding its bytes, needs the GIL). The earliest turn of a few tries counts: on a
loaded machine the spinning thread can wait for a core as long as a short call lasts (under
pytest-xdist on two cores the other worker holds one: three tries were once not enough, and six
once too), while a call that holds the GIL never gives it an early turn; the tries stop at the
first early one."""
import sys
import threading
import time

import pytest

import symphony

LONG = 128 << 20


TRIES = 12
EARLY = 0.5         # a turn before half the call: the GIL was let go of


def first_turn(call):
    """The earliest, over up to TRIES calls (stopping at the first EARLY one), of when the main
    thread first ran after `call()` began, as a fraction of the call's time."""
    earliest = 1.0
    for _ in range(TRIES):
        earliest = min(earliest, _first_turn(call))
        if earliest < EARLY:
            break
    return earliest


def _first_turn(call):
    """(when the main thread first ran after `call()` began, as a fraction of the call's time)."""
    seen = {}

    def parse():
        time.sleep(0.01)        # back from a sleep, this thread's turn with the GIL starts afresh
        seen["start"] = time.perf_counter()
        call()
        seen["end"] = time.perf_counter()

    was = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        worker = threading.Thread(target=parse)
        worker.start()
        while "end" not in seen:
            if "start" in seen and "first" not in seen:
                seen["first"] = time.perf_counter()
        worker.join()
    finally:
        sys.setswitchinterval(was)
    return (seen.get("first", seen["end"]) - seen["start"]) / (seen["end"] - seen["start"])


@pytest.mark.parametrize("table", ["qwen3", "glm", "plain"])
def test_a_long_scan_lets_other_threads_run(table):
    text = "x" * LONG
    assert first_turn(lambda: symphony.parser(table).parse(text)) < EARLY


def test_a_long_json_run_lets_other_threads_run():
    text = '<tool_call>\n{"name": "f", "arguments": {"a": "' + "y" * LONG + '"}}\n</tool_call>'
    assert first_turn(lambda: symphony.parser("qwen3").parse(text)) < EARLY
