"""A parser an error strikes mid-feed (SPEC §1.6, DESIGN §1): it is failed for good, never
half-fed. The error carries the events pushed before it and the output offset where it struck;
every later Delta is refused; End gives back every byte no event accounted for as Malformed,
ends the open call and thought, and finishes. A table that could reach a call state without an
assembler is refused when it is built.
"""
import os
import subprocess
import sys
import textwrap

import pytest

import symphony
from symphony import _native
from symphony.events import Finish, Malformed, ToolCallEnd, bytes_of
from symphony.reasons import Other
from tests.common import check_well_formed

HELD_AT_FAILURE = Other("bytes held when the parser failed")
SANITIZED = "asan" in os.environ.get("LD_PRELOAD", "")


def test_a_table_with_a_call_state_and_no_syntax_is_refused_when_built():
    with pytest.raises(ValueError, match="an arguments state with no call syntax"):
        _native.Table("t", ["<c>"], [False], [0, 2], [[1], [-1]], None, None)


@pytest.mark.parametrize("args, text", [
    (("t", ["<c>"], [False], [1], [[-1]], None, None),
     "format t: the first state #0 emits reasoning; a thought the output starts inside is entered by the prompt"),
    (("t", ["<c>", ""], [False, False], [0], [[-1, -1]], None, None), "format t: terminal #1 has no text"),
    (("t", ["<c>"], [False], [0], [[-1]], None, ""), "format t: an empty turn opener"),
    (("t", ["<c>"], [False], [0], [[-1]], None, 5), "format t: the turn opener must be a str, not int"),
    (("t", [], [], [], [], None, None), "format t: a table with no state"),
])
def test_the_native_table_refuses_what_format_compile_refuses(args, text):
    with pytest.raises(symphony.FormatError) as caught:
        _native.Table(*args)
    assert str(caught.value) == text


def test_format_validate_and_the_native_table_share_one_check():
    f = symphony.Format("g").terminal("open", "<a>").state("thinking", symphony.Emits.REASONING)
    with pytest.raises(symphony.FormatError) as caught:
        f.compile()
    assert str(caught.value) == ('format g: the first state "thinking" emits reasoning; '
                                 "a thought the output starts inside is entered by the prompt")


def test_a_table_without_call_states_needs_no_syntax():
    table = _native.Table("t", ["<c>"], [False], [0], [[-1]], None, None)
    events = symphony.parser(table).parse("a<c>b")
    assert "".join(bytes_of(e) for e in events) == "a<c>b"


# A MemoryError in the middle of a large delta, inside a call (the JSON assembler copies the
# object's bytes): run in a child whose address space is capped just above what it already uses.
MEMORY_SCRIPT = textwrap.dedent("""
    import json, resource, sys
    import symphony
    from symphony.events import Finish, Malformed, ToolCallEnd, bytes_of
    head = '<tool_call>\\n{"name": "f", "arguments": {"a": "'
    big = "x" * (96 << 20)
    parser = symphony.parser("qwen3")
    events = parser.feed(symphony.Delta("before "))
    events += parser.feed(symphony.Delta(head))
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[0])
    limit = pages * resource.getpagesize() + (150 << 20)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        parser.feed(symphony.Delta(big))
    except MemoryError as error:
        events += error.events
        offset = error.offset
    else:
        print(json.dumps({"raised": False}))
        sys.exit(0)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    failed = parser.failed
    try:
        parser.feed(symphony.Delta("more"))
        refused = None
    except symphony.LifecycleError as error:
        refused = str(error)
    tail = parser.feed(symphony.End("length"))
    events += tail
    text = "".join(bytes_of(e) for e in events)
    print(json.dumps({
        "raised": True, "offset": offset, "failed": failed, "refused": refused,
        "conserved": text == "before " + head + big,
        "kinds": [type(e).__name__ for e in tail],
        "tail_malformed": [len(e.text.text) for e in tail if type(e).__name__ == "Malformed"],
        "why": [str(e.why) for e in tail if type(e).__name__ == "Malformed"],
        "finish": tail[-1].to_dict(),
    }))
""")


@pytest.mark.skipif(SANITIZED, reason="AddressSanitizer reserves more address space than the cap allows")
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc and RLIMIT_AS")
def test_a_memory_error_mid_delta_fails_the_parser_and_end_returns_every_held_byte():
    import json
    done = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT], capture_output=True, text=True, timeout=120,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    if not result["raised"]:
        pytest.skip("the capped child found the memory after all")
    assert result["failed"] is True
    assert result["refused"] == "lifecycle misuse: delta after a parse error; only end is accepted"
    assert result["offset"] >= len("before ")
    assert result["conserved"], "every byte is in exactly one event across the error and End"
    assert result["kinds"][-2:] == ["ToolCallEnd", "Finish"], result["kinds"]
    assert result["why"] == [str(HELD_AT_FAILURE)] and result["tail_malformed"][0] > 0
    assert result["finish"] == {"kind": "finish", "reason": "length", "tool_calls": 1, "reasoning_tokens": 0}


def test_end_after_end_stays_refused_after_a_failure_free_stream():
    parser = symphony.parser("qwen3")
    parser.feed(symphony.Delta("x"))
    parser.feed(symphony.End("stop"))
    assert not parser.failed
    with pytest.raises(symphony.LifecycleError, match="delta after end"):
        parser.feed(symphony.Delta("y"))
def failing_tools():
    """Tools that raise when read: the parser reads them when the first typed call opens."""

    class Hostile(list):
        def __iter__(self):
            raise RuntimeError("tools unreadable")

        def __getitem__(self, index):
            raise RuntimeError("tools unreadable")

    return Hostile([{"type": "function", "function": {"name": "f"}}])


def failed_parse(table, first, later, tools):
    """Feeds `first` (which must fail the parser), then `later` (refused), then End."""
    parser = symphony.parser(table, tools)
    with pytest.raises(RuntimeError, match="tools unreadable") as raised:
        parser.feed(symphony.Delta(first))
    events = list(raised.value.events)
    assert parser.failed and isinstance(raised.value.offset, int)
    with pytest.raises(symphony.LifecycleError, match="only end is accepted"):
        parser.feed(symphony.Delta(later))
    with pytest.raises(symphony.LifecycleError, match="prompt after output began"):
        parser.feed(symphony.Prompt("p"))
    tail = parser.feed(symphony.End("stop"))
    with pytest.raises(symphony.LifecycleError, match="end after end"):
        parser.feed(symphony.End("stop"))
    return events, tail


@pytest.mark.parametrize("cut", [1, 5, 12, 20, 25, 40])
def test_a_failure_while_a_call_starts_leaves_no_state_without_its_assembler(cut):
    output = "Hi <tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call> bye"
    parser = symphony.parser("qwen3_tagged", failing_tools())
    events = []
    fed = ""
    for piece in (output[:cut], output[cut:]):
        fed += piece
        try:
            events += parser.feed(symphony.Delta(piece))
        except RuntimeError as error:
            events += error.events
            assert 0 <= error.offset <= len(fed.encode())
            break
    assert parser.failed, "reading the tools fails when the first call is named"
    events += parser.feed(symphony.End("stop"))
    assert "".join(bytes_of(e) for e in events) == fed
    check_well_formed(events)
    held = [e for e in events if type(e) is Malformed]
    assert held and all(e.why == HELD_AT_FAILURE for e in held)
    assert type(events[-1]) is Finish and events[-1].tool_calls == 0


def test_end_after_a_failure_ends_the_open_thought_and_the_stream():
    events, tail = failed_parse("qwen3_tagged", "<think>plan</think><tool_call>\n<function=f>", "x",
                                failing_tools())
    check_well_formed(events + tail)
    assert "".join(bytes_of(e) for e in events + tail) == "<think>plan</think><tool_call>\n<function=f>"
    assert type(tail[-1]) is Finish and tail[-1].reason == "stop"
    assert not any(type(e) is ToolCallEnd for e in tail)


def test_parse_takes_a_fresh_parser():
    parser = symphony.parser("qwen3")
    parser.feed(symphony.Delta("x"))
    with pytest.raises(symphony.LifecycleError, match="parse takes a fresh parser"):
        parser.parse("more")


def test_an_error_in_a_whole_parse_carries_every_event_and_the_finish():
    output = "Hi <tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call> bye"
    parser = symphony.parser("qwen3_tagged", failing_tools())
    with pytest.raises(RuntimeError) as raised:
        parser.parse(output, prompt="<|im_start|>assistant\n")
    events = raised.value.events
    assert "".join(bytes_of(e) for e in events) == output
    check_well_formed(events)
    assert type(events[-1]) is Finish and parser.failed is False
