"""The XML assembler (SPEC §5.8) through `minimax_m3`: element trees typed through the declared
tools at any depth, lists by declaration or by a first `<item>` child, empty elements by
declaration and depth, whitespace after an opening tag, the ignored separator dropped everywhere
and kept in its place inside a call, thought markers meaningful only at the start, every reason
text, a child written again right after its sibling of the same name gathered into a list; each
output at every chunking.
"""
import json

import pytest

import symphony
from tests.common import check_conservation, check_well_formed
from tests.wire import (END_THOUGHT, START_THOUGHT, arguments, arguments_of, check, check_per_token, content, dropped,
                        end, finish, malformed, parsed, reasoning, start)

SEP = "]<]minimax[>["
CALLS, CALLS_END = "<tool_call>", "</tool_call>"
INVOKE, INVOKE_END = '<invoke name="', "</invoke>"
CUT = "a tag that another tag cut short"
OUT_OF_PLACE = "a tag where the call's syntax has none"
BETWEEN = "text between a call's tags"


def tool(function, **properties):
    return {"type": "function", "function": {"name": function, "parameters": {"type": "object",
                                                                           "properties": properties}}}


TOOLS = [tool("f", count={"type": "integer"}, name={"type": "string"}, note={"type": ["string", "null"]},
              orders={"type": "array", "items": {"type": "object", "properties": {
                  "item": {"type": "string"}, "quantity": {"type": "integer"}}}},
              meta={"type": "object", "properties": {"level": {"type": "integer"}}},
              flags={"type": "array"}, ratio={"type": "number"})]


def block(name, body):
    return f"{CALLS}\n{INVOKE}{name}\">{body}{INVOKE_END}\n{CALLS_END}"


def args(body, tools=None, name="g"):
    events = parsed("minimax_m3", block(name, body), tools=tools)
    check("minimax_m3", block(name, body), events, tools=tools)
    return arguments_of(events)[0]


@pytest.mark.parametrize("body,declared,json", [
    ("<count>007</count>", False, '{"count": "007"}'),
    ("<count>007</count>", True, '{"count": 7}'),
    ("<name>12</name>", True, '{"name": "12"}'),
    ("<name>12</name>", False, '{"name": 12}'),
    ("<tags></tags>", False, '{"tags": ""}'),
    ("<orders><item><item>burgers</item><quantity>5</quantity></item></orders>", False, '{"orders": [["burgers", 5]]}'),
    ("<orders><item><item>burgers</item><quantity>5</quantity></item></orders>", True,
     '{"orders": [{"item": "burgers", "quantity": 5}]}'),
    ("<meta><deep><item>1</item><item></item></deep></meta>", False, '{"meta": {"deep": [1, null]}}'),
    ("<meta><level>3</level><deep></deep></meta>", True, '{"meta": {"level": 3, "deep": null}}'),
    ("<flags></flags><meta></meta><ratio></ratio>", True, '{"flags": [], "meta": {}, "ratio": ""}'),
    ("<flags><x>1</x><y>a</y></flags>", True, '{"flags": [1, "a"]}'),
    ("<sep> </sep>", False, '{"sep": " "}'),
    ("<a>1 < 2 and <b></a>", False, '{"a": "1 < 2 and <b>"}'),
    ("<note>None</note><name>  x\n</name>", True, '{"note": null, "name": "  x\\n"}'),
    ("<a>\n  <b>1</b>\n  <c>two</c>\n</a>", False, '{"a": {"b": 1, "c": "two"}}'),
    ("<日本>語</日本><a.b-c:d>1</a.b-c:d>", False, '{"日本": "語", "a.b-c:d": 1}'),
])
def test_the_recorded_examples_and_the_typing_rules(body, declared, json):
    assert args(body, TOOLS if declared else None, "f" if declared else "g") == json


def test_a_streamed_string_with_the_separator_dropped():
    output = block("f", "<name>Paris" + SEP + "</name>")
    pieces = [block("f", "")[:len(CALLS) + 1 + len(INVOKE) + 3] + "<name>Pa", "ris", SEP, "</name>" + INVOKE_END + "\n" + CALLS_END]
    assert "".join(pieces) == output
    p = symphony.parser("minimax_m3", TOOLS)
    events = []
    for piece in pieces:
        events += p.feed(symphony.Delta(piece))
    events += p.feed(symphony.End())
    check_conservation(events, output)
    check_well_formed(events)
    assert [e.json for e in events if type(e).__name__ == "ToolCallArguments"] == ['{"name": "', "Pa", "ris", '"', "}"]
    assert [e.text.text for e in events if type(e).__name__ == "Dropped" and e.text.text == SEP] == [SEP]


def test_separators_everywhere_as_the_template_writes_them():
    body = SEP + "<count>" + "12" + SEP + "</count>" + SEP + "<meta>" + SEP + "<level>1" + SEP + "</level>" + SEP + "</meta>" + SEP
    output = f"</mm:think>{SEP}{CALLS}\n{SEP}{INVOKE}f\">{body}{INVOKE_END}\n{SEP}{CALLS_END}"
    events = parsed("minimax_m3", output, tools=TOOLS)
    assert arguments_of(events) == {0: '{"count": 12, "meta": {"level": 1}}'}
    assert all(SEP not in e["json"] for e in events if e["kind"] == "tool_call_arguments")
    check("minimax_m3", output, events, tools=TOOLS)


def test_thought_markers_mean_something_only_at_the_start():
    check("minimax_m3", "<mm:think>plan</mm:think>answer <mm:think>x</mm:think>", [
        dropped("<mm:think>"), START_THOUGHT, reasoning("plan"), dropped("</mm:think>"), END_THOUGHT,
        content("answer <mm:think>x</mm:think>"), finish()])
    check("minimax_m3", "</mm:think>Hello", [dropped("</mm:think>"), content("Hello"), finish()])


def test_the_invoke_tag_and_its_reasons():
    output = CALLS + INVOKE + 'f" x>' + "<count>1</count>" + INVOKE_END + INVOKE + '">' + INVOKE_END + CALLS_END
    check("minimax_m3", output, [
        dropped(CALLS), dropped(INVOKE), start(0, "f", 'f"'), malformed(" x", "text after a tag's name"),
        arguments(0, '{"count": 1', "><count>1</count>"), arguments(0, "}", ""), end(0, INVOKE_END),
        malformed(INVOKE + '">', "an invoke with no name"),
        malformed(INVOKE_END, "an invoke block without a name"), dropped(CALLS_END), finish(tool_calls=1),
    ], tools=TOOLS)


def test_a_block_closing_inside_the_tree_closes_it_for_the_client():
    # the leaf's close tag missing: the block's close ends it, with what arrived
    output = CALLS + INVOKE + 'f"><meta><level>12' + CALLS_END
    check("minimax_m3", output, [
        dropped(CALLS), dropped(INVOKE), start(0, "f", 'f"'),
        arguments(0, '{"meta": {', "><meta>"), arguments(0, '"level": 12', "<level>12"), arguments(0, "}", ""),
        arguments(0, "}", ""), end(0), dropped(CALLS_END), finish(tool_calls=1),
    ], tools=TOOLS)
    # a leaf holding a close tag that is not its own is no value the block's close can end
    output = CALLS + INVOKE + 'f"><meta><level>12</lvl>' + CALLS_END
    check("minimax_m3", output, [
        dropped(CALLS), dropped(INVOKE), start(0, "f", 'f"'),
        arguments(0, '{"meta": {', "><meta>"), malformed("<level>12</lvl>", CUT), arguments(0, "}", ""),
        arguments(0, "}", ""), end(0), dropped(CALLS_END), finish(tool_calls=1),
    ], tools=TOOLS)
    events = parsed("minimax_m3", CALLS + INVOKE + 'f"><name>Par' + CALLS_END, tools=TOOLS)
    assert arguments_of(events) == {0: '{"name": "Par"}'}


def test_close_tags_out_of_place_and_misnested():
    output = CALLS + INVOKE + 'f"></x><a><b>1</a>junk<c>2</c>' + INVOKE_END + CALLS_END
    events = parsed("minimax_m3", output)
    assert malformed("</x>", OUT_OF_PLACE) in events
    # </a> inside the leaf <b> is its text: only </b> would close it; the invoke's close cuts it
    assert arguments_of(events) == {0: '{"a": {}}'}
    check("minimax_m3", output, events)


def test_an_outer_close_tag_closes_what_it_holds():
    output = CALLS + INVOKE + 'f"><a><b></a>' + INVOKE_END + CALLS_END
    events = parsed("minimax_m3", output)
    assert malformed("<b>", CUT) in events
    assert arguments_of(events) == {0: '{"a": {}}'}
    check("minimax_m3", output, events)


def test_a_stream_cut_in_the_tree_still_ends_the_call():
    output = CALLS + INVOKE + 'f"><meta><level>1'
    check("minimax_m3", output, [
        dropped(CALLS), dropped(INVOKE), start(0, "f", 'f"'), arguments(0, '{"meta": {', "><meta>"),
        malformed("<level>1", "unterminated_region"), end(0), finish("length", tool_calls=1),
    ], tools=TOOLS, finish="length")


# -- a child written again right after its sibling of the same name: a list under that name ---------

DEMO = [tool("create_order", duplicate_demo={"type": "object"}, tags={"type": "array", "items": {"type": "string"}},
             note={"type": "string"}, qty={"type": "integer"})]


@pytest.mark.parametrize("body,json", [
    # vLLM's test_non_streaming_nested_tool_call: a declared object with no properties
    ("<duplicate_demo><tag>a</tag><tag>b</tag></duplicate_demo>", '{"duplicate_demo": {"tag": ["a", "b"]}}'),
    # a repeated parameter: the arguments object gathers too, each item typed as the parameter
    ("<qty>1</qty>\n<qty>2</qty><qty>3</qty><note>x</note>", '{"qty": [1, 2, 3], "note": "x"}'),
    # each repeat of a parameter declared an array, written as one leaf each: the run is its list
    ("<tags>a</tags><tags>b</tags>", '{"tags": ["a", "b"]}'),
    # once the run's list is open, a repeat is its next item whatever it is
    ("<duplicate_demo><t>1</t><t><p>2</p></t><t></t></duplicate_demo>",
     '{"duplicate_demo": {"t": [1, {"p": 2}, null]}}'),
    ("<duplicate_demo><t></t><t></t></duplicate_demo>", '{"duplicate_demo": {"t": [null, null]}}'),
    ("<duplicate_demo><a><t>1</t><t>2</t></a><b>3</b></duplicate_demo>",
     '{"duplicate_demo": {"a": {"t": [1, 2]}, "b": 3}}'),
    # runs in an object that is a list's item, and a list's own items named alike
    ("<l><item><x>1</x><x>2</x></item></l><m><item>1</item><item>2</item></m>", '{"l": [{"x": [1, 2]}], "m": [1, 2]}'),
    # only consecutive repeats: one met again after another sibling is the member written again
    ("<duplicate_demo><t>1</t><u>2</u><t>3</t></duplicate_demo>", '{"duplicate_demo": {"t": 1, "u": 2, "t": 3}}'),
    # a member that streamed cannot become a list's first item: a declared string, a container
    ("<note>x</note><note>y</note>", '{"note": "x", "note": "y"}'),
    ("<duplicate_demo><t><p>1</p></t><t><p>2</p></t></duplicate_demo>",
     '{"duplicate_demo": {"t": {"p": 1}, "t": {"p": 2}}}'),
])
def test_repeated_children_are_a_list(body, json):
    for written in (body, body.replace("<", SEP + "<")):
        assert args(written, DEMO, "create_order") == json
        check_per_token("minimax_m3", block("create_order", written), DEMO)


def test_a_repeat_with_the_separators_as_the_template_writes_them():
    output = block("create_order", SEP + "<qty>1" + SEP + "</qty>" + SEP + "<qty>2" + SEP + "</qty>" + SEP)
    check("minimax_m3", output, [
        dropped(CALLS + "\n" + INVOKE), start(0, "create_order", 'create_order"'),
        arguments(0, '{"qty": [1', ">" + SEP + "<qty>1" + SEP + "</qty>"), dropped(SEP),
        arguments(0, ", 2", "<qty>2" + SEP + "</qty>"), dropped(SEP), arguments(0, "]}", ""), end(0, INVOKE_END),
        dropped("\n" + CALLS_END), finish(tool_calls=1),
    ], tools=DEMO)


def test_text_between_two_members_ends_a_run():
    output = block("g", "<t>1</t> x <t>2</t><t>3</t>, <t>4</t>")
    events = parsed("minimax_m3", output)
    assert [e["text"]["text"] for e in events if e["kind"] == "malformed"] == ["x", ","]
    assert arguments_of(events) == {0: '{"t": 1, "t": [2, 3], "t": 4}'}
    check("minimax_m3", output, events)


def test_a_run_cut_short():
    output = CALLS + INVOKE + 'g"><a><t>1</t><t>2</t><t>3' + CALLS_END
    events = parsed("minimax_m3", output)
    assert arguments_of(events) == {0: '{"a": {"t": [1, 2, 3]}}'}     # (the block's close ends `3`)
    check("minimax_m3", output, events)
    output = CALLS + INVOKE + 'g"><a><t>1</t><t>2</t><t>3</b>' + CALLS_END
    events = parsed("minimax_m3", output)
    assert malformed("<t>3</b>", CUT) in events
    assert arguments_of(events) == {0: '{"a": {"t": [1, 2]}}'}
    check("minimax_m3", output, events)
    output = CALLS + INVOKE + 'g"><t>1</t><t>2</t>'
    check("minimax_m3", output, [
        dropped(CALLS + INVOKE), start(0, "g", 'g"'), arguments(0, '{"t": [1', "><t>1</t>"),
        arguments(0, ", 2", "<t>2</t>"), end(0), finish("length", tool_calls=1),
    ], finish="length")
    output = CALLS + INVOKE + 'g"><t>1</t>'
    check("minimax_m3", output, [
        dropped(CALLS + INVOKE), start(0, "g", 'g"'), arguments(0, '{"t": 1', "><t>1</t>"), end(0),
        finish("length", tool_calls=1),
    ], finish="length")


@pytest.mark.parametrize("depth,value", [
    (27, {"t": [1, {"p": {"q": 2}}]}),
    (28, {"t": [1, {"p": "<q>2</q>"}]}),
    (29, {"t": [1, "<p><q>2</q></p>"]}),
    (30, {"t": [1, "<p><q>2</q></p>"]}),
    (31, "<t>1</t><t><p><q>2</q></p></t>"),
])
def test_a_run_takes_a_level_of_the_depth_the_arguments_may_nest(depth, value):
    body = "".join(f"<a{i}>" for i in range(depth)) + "<t>1</t><t><p><q>2</q></p></t>"
    got = json.loads(args(body + "".join(f"</a{i}>" for i in reversed(range(depth)))))
    for i in range(depth):
        got = got[f"a{i}"]
    assert got == value
