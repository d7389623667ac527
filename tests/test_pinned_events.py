"""Exact events where a one-line change of the core once survived the whole suite:
the trailing Dropped{ControlToken} of a counted stream that ends with several zero-width tokens
(SPEC §1.7), the reason of a call region cut by End before its name after an earlier region closed
by its marker (SPEC §2.4), and which event carries a separator that arrives before a call object
(SPEC §2.4, §4.2). `python3 -m tests.mutants` re-applies those changes and checks these tests
catch them.
"""
import pytest

import symphony
from symphony import Delta, End, TokenSpan
from symphony.format import CallSyntax, Emits, Format
from tests.wire import NO_CALL, arguments, check, content, dropped, end, finish, malformed, start

BLOCK_CLOSED = "a tool-call block that closed without a complete call"


def counted(table, deltas, finish_reason="stop"):
    p = symphony.parser(table)
    events = []
    for d in deltas:
        events += p.feed(d)
    return [e.to_dict() for e in events + p.feed(End(finish_reason))]


def spans(*bounds):
    """A delta's spans and ids from byte ranges (ids 1, 2, ...)."""
    return [i + 1 for i in range(len(bounds))], [TokenSpan(i + 1, a, b) for i, (a, b) in enumerate(bounds)]


# --- the trailing ControlToken counts every zero-width token left (SPEC §1.7) ------------------

@pytest.mark.parametrize("trailing", [1, 2, 3])
def test_every_trailing_zero_width_token_counts_in_the_one_control_token_event(trailing):
    ids, sp = spans((0, 2), (2, 3), *[(3, 3)] * trailing)
    assert counted("qwen3", [Delta("Hi!", ids, sp)]) == [
        content("Hi!", 2), dropped("", "control_token", trailing), finish()]


def test_trailing_zero_width_tokens_in_their_own_deltas_add_up():
    ids, sp = spans((0, 2), (2, 2))
    deltas = [Delta("Hi", ids, sp), Delta("", [3], [TokenSpan(3, 0, 0)]), Delta("", [4], [TokenSpan(4, 0, 0)])]
    assert counted("qwen3", deltas) == [content("Hi", 1), dropped("", "control_token", 3), finish()]


def test_zero_width_tokens_before_a_held_marker_prefix_count_with_it():
    # `<tool` is held as a prefix of `<tool_call>` until End, where it goes out as content: the
    # zero-width tokens before it count in its run, the ones after it in the trailer
    ids, sp = spans((0, 1), (1, 1), (1, 1), (1, 6), (6, 6), (6, 6))
    assert counted("qwen3", [Delta("a<tool", ids, sp)]) == [
        content("a", 1), content("<tool", 3), dropped("", "control_token", 2), finish()]


# --- a region cut by End after one closed by its marker (SPEC §2.4) ---------------------------

CALL = '{"name": "f", "arguments": {}}'


def test_region_cut_before_its_name_after_a_complete_call_is_unterminated():
    check("qwen3", f'<tool_call>{CALL}</tool_call><tool_call>\n{{"na', [
        dropped("<tool_call>"), start(0, "f", '{"name": "f", "arguments": '), arguments(0, "{}"), end(0, "}"),
        dropped("</tool_call>"),
        malformed("<tool_call>", NO_CALL), malformed('\n{"na', "unterminated_region"),
        finish(tool_calls=1),
    ])


def test_region_cut_before_its_name_after_a_block_closed_without_a_call_is_unterminated():
    check("qwen3", '<tool_call>junk</tool_call>\n<tool_call>{"name": "g', [
        malformed("<tool_call>", NO_CALL), malformed("junk", BLOCK_CLOSED), malformed("</tool_call>", NO_CALL),
        content("\n"),
        malformed("<tool_call>", NO_CALL), malformed('{"name": "g', "unterminated_region"),
        finish(),
    ])


def test_three_regions_closed_closed_then_cut():
    check("qwen3", f"<tool_call>{CALL}</tool_call><tool_call>x</tool_call><tool_call> ", [
        dropped("<tool_call>"), start(0, "f", '{"name": "f", "arguments": '), arguments(0, "{}"), end(0, "}"),
        dropped("</tool_call>"),
        malformed("<tool_call>", NO_CALL), malformed("x", BLOCK_CLOSED), malformed("</tool_call>", NO_CALL),
        malformed("<tool_call>", NO_CALL), malformed(" ", "unterminated_region"),
        finish(tool_calls=1),
    ], every_split_up_to=120)


# --- a separator before a call object (SPEC §2.4, §4.2) -----------------------------------------

def separated():
    """JSON calls between `<c>` and `</c>`, and a `<s>` separator ignored everywhere."""
    return (Format("sep").ignores("sep", "<s>").terminal("c_open", "<c>").terminal("c_close", "</c>")
            .state("content", Emits.CONTENT).state("call", Emits.ARGUMENTS)
            .transition("content", "c_open", "call").transition("call", "c_close", "content")
            .calls(CallSyntax.json()))


def test_separator_before_any_byte_of_the_object_is_dropped_on_its_own():
    # nothing is held when it comes: it is wrapping, not part of the call's source
    check(separated(), '<c><s>{"name":"f","arguments":{}}<s></c>', [
        dropped("<c>"), dropped("<s>"), start(0, "f", '{"name":"f","arguments":'), arguments(0, "{}"),
        end(0, "}"), dropped("<s>"), dropped("</c>"), finish(tool_calls=1),
    ])


def test_separator_after_held_whitespace_goes_into_the_start_in_its_place():
    check(separated(), '<c>\n<s> <s>{"name":"f","arguments":{"a": 1}}</c>', [
        dropped("<c>"), start(0, "f", '\n<s> <s>{"name":"f","arguments":'), arguments(0, '{"a": 1}'),
        end(0, "}"), dropped("</c>"), finish(tool_calls=1),
    ])


def test_separator_after_the_held_bytes_of_a_cut_region_goes_into_their_malformed():
    # the event that reports the last held byte takes the separators that came after it
    check(separated(), "<c> <s>", [malformed("<c>", NO_CALL), malformed(" <s>", "unterminated_region"), finish()])


def test_minimax_m3_separators_before_and_inside_an_invoke():
    sep = "]<]minimax[>["
    check("minimax_m3", f'{sep}<tool_call>\n{sep}<invoke name="f">{sep}</invoke>{sep}</tool_call>', [
        dropped(sep), dropped("<tool_call>"), dropped("\n"), dropped(sep), dropped('<invoke name="'),
        start(0, "f", 'f"'), arguments(0, "{}", ">" + sep), end(0, "</invoke>"), dropped(sep),
        dropped("</tool_call>"), finish(tool_calls=1),
    ])
