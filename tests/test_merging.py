"""Adjacent Dropped (Malformed) events of one reason within one feed are one event, as adjacent
Content is; across feeds, and across reasons, nothing merges."""
import symphony
from symphony import Delta, End, TokenSpan
from symphony.events import Dropped, Malformed
from symphony.reasons import DropReason, Other
from tests.test_format import BETWEEN_CALLS, mine
from tests.wire import NO_CALL, arguments, dropped, end, finish, parsed, start

CALL = '<c>{"name": "f"}</c>'     # a call in the block: its wrapping is the block's, not text


def test_markers_and_whitespace_of_one_feed_are_one_dropped():
    output = '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>\n<tool_call>\n{"name": "g", "arguments": {}}\n</tool_call>'
    assert parsed("qwen3", output) == [
        dropped("<tool_call>"), start(0, "f", '\n{"name": "f", "arguments": '), arguments(0, "{}"), end(0, "}"),
        dropped("\n</tool_call>"), {"kind": "content", "text": "\n", "tokens": None},
        dropped("<tool_call>"), start(1, "g", '\n{"name": "g", "arguments": '), arguments(1, "{}"), end(1, "}"),
        dropped("\n</tool_call>"), finish("stop", 2)]


def test_nothing_merges_across_feeds():
    p = symphony.parser(mine())
    assert p.feed(Delta("<b>" + CALL + " "))[-1] == Dropped("</c> ", DropReason.WRAPPER)
    assert p.feed(Delta(" </b>")) == [Dropped(" </b>", DropReason.WRAPPER)]


def test_malformed_merges_only_with_the_same_reason():
    events = symphony.parse(mine(), "<b>x</r>y" + CALL + "</b>")
    assert [e for e in events if type(e) is Malformed] == [Malformed("x</r>y", BETWEEN_CALLS)]
    other = Other("text between a call's object and its closing marker")
    events = symphony.parse(mine(), '<b>x<c>{"name": "f"} y</c></b>')
    assert [(e.text.text, e.why) for e in events if type(e) is Malformed] == [("x", BETWEEN_CALLS), ("y", other)]


def test_merged_tokens_add_up():
    output = "<b> </b>"
    spans = [TokenSpan(1, 0, 3), TokenSpan(2, 3, 4), TokenSpan(3, 4, 8)]
    p = symphony.parser(mine())
    events = p.feed(Delta(output, [1, 2, 3], spans)) + p.feed(End("stop"))
    # (a block that held no call is text: its Dropped records turn Malformed and join)
    assert events[0] == Malformed(symphony.Text("<b> </b>", 3), Other(NO_CALL))


def test_a_block_closed_without_a_call_keeps_its_own_reason():
    # the assembler's unterminated bytes, reported as the block closes, are relabelled, with the
    # opener of the call that never started; the Malformed before them (another reason) is not
    # joined to them
    events = symphony.parse(mine(), '<b>x<c>{"nam</b>')
    closed = Other("a tool-call block that closed without a complete call")
    assert [(e.text.text, e.why) for e in events if type(e) is Malformed] == [
        ("<b>", Other(NO_CALL)), ("x", BETWEEN_CALLS), ('<c>{"nam', closed), ("</b>", Other(NO_CALL))]
