"""Memory the core reuses between parses: the object pools (object_pool.h) that serve events and
call assemblers, and the shared strs of short texts (short_str.h). Reuse must be invisible: every
event made from reused memory reads exactly as a freshly allocated one."""
import gc

import pytest

import symphony
from symphony import _native
from symphony.events import text_of

TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}}}]
CALLS = ('Looking. <tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
         '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Köln", "days": 3}}\n</tool_call>')
TAGGED = ("<think>plan</think>Sure.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
          "<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>")
EVENT_TYPES = {"Content", "Reasoning", "ToolCallStart", "ToolCallArguments", "ToolCallEnd", "Dropped",
               "Malformed", "Finish"}


def wire(events):
    return [e.to_dict() for e in events]


def test_the_pools_serve_every_event_type_in_a_release_build_and_none_in_a_debug_build():
    if _native.VARIANT.startswith("debug"):
        assert _native.POOLED_TYPES == ()       # a sanitizer must see use after free
    else:
        assert EVENT_TYPES <= set(_native.POOLED_TYPES)
        assert {"JsonCallAssembler", "TaggedCall", "KeyedCall"} <= set(_native.POOLED_TYPES)


def test_freed_events_go_to_the_pools_and_come_back_from_them():
    if _native.VARIANT.startswith("debug"):
        pytest.skip("nothing is pooled in a debug build")
    events = symphony.parser("qwen3", TOOLS).parse(CALLS)
    before = _native._pooled()
    del events
    freed = _native._pooled()
    assert freed > before
    events = symphony.parser("qwen3", TOOLS).parse(CALLS)
    assert _native._pooled() < freed
    assert text_of(events) == CALLS


@pytest.mark.parametrize("table,text", [("qwen3", CALLS), ("qwen3_tagged", TAGGED)])
def test_events_from_reused_memory_read_as_fresh_ones(table, text):
    expected = wire(symphony.parser(table, TOOLS).parse(text))
    for other_table, other in [("qwen3_tagged", TAGGED), ("qwen3", CALLS), ("plain", "x" * 100)]:
        # memory freed by other event types, of other sizes, and by assemblers, then reused
        del_me = symphony.parser(other_table, TOOLS).parse(other)
        del del_me
        gc.collect()
        again = symphony.parser(table, TOOLS).parse(text)
        assert wire(again) == expected
        assert text_of(again) == text


def test_a_short_text_is_one_shared_str_and_reads_as_decoded():
    first = [e for e in symphony.parser("qwen3", TOOLS).parse(CALLS) if type(e).__name__ == "ToolCallStart"]
    second = [e for e in symphony.parser("qwen3", TOOLS).parse(CALLS) if type(e).__name__ == "ToolCallStart"]
    assert [e.name for e in first] == ["get_weather", "get_weather"]
    assert first[0].name is second[1].name


def test_short_texts_that_share_a_slot_or_are_not_ascii_decode_right():
    # far more distinct short texts than the table has slots: each must still read as written
    texts = [f"c{i}é{'x' * (i % 30)}" for i in range(3000)]
    for text in texts + ["y" * 33 + "ü"]:
        events = symphony.parser("qwen3").parse(text + "<tool_call>")   # Content(text) is not the whole output
        assert type(events[0]).__name__ == "Content" and events[0].text == text
