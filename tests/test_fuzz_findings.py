"""What the counted fuzz run (tests/fuzz.py) found, pinned as exact cases, and the runner itself
on a small budget (CI runs it at 100,000 inputs on the checked build), and the runner's checks
shown to fail on a parser that breaks their promise."""
import random

import pytest

import symphony
from symphony import Delta, End, Prompt
from symphony.events import Content, DropReason, Dropped, Finish, ToolCallEnd, ToolCallStart, text_of
from symphony.format import CallSyntax, Emits, Format
from tests import fuzz
from tests.common import check_well_formed, counted_deltas


def parsed(table, pieces, prompt=None, finish="stop"):
    p = symphony.parser(table)
    events = list(p.feed(Prompt(prompt))) if prompt is not None else []
    for piece in pieces:
        events += p.feed(Delta(piece))
    return events + p.feed(End(finish))


def test_a_marker_closing_a_forced_or_required_call_ends_it():
    # found: a user-built table whose constrained call region a marker closes left the call open
    for syntax, text in [(CallSyntax.forced("f"), '{"a": 1}<r>{"b"'), (CallSyntax.required(), '[{"name": "f", "arguments": {"a": 1<r>')]:
        f = (Format("u").terminal("t0", "</x>").terminal("t1", "<r>")
             .state("s0", Emits.ARGUMENTS).state("s1", Emits.CONTENT)
             .transition("s0", "t1", "s0").transition("s0", "t0", "s1").calls(syntax))
        events = parsed(f, [text], finish="abort")
        assert text_of(events) == text
        check_well_formed(events)
        starts = [e.index for e in events if type(e) is ToolCallStart]
        assert starts and [e.index for e in events if type(e) is ToolCallEnd] == starts


def test_a_separator_after_a_cut_tag_start_keeps_its_place():
    # found: an ignored terminal arriving while the tag scanner held `<|close|>` went out before it
    f = (Format("u").terminal("t0", "<|close|>message<|sep|>").ignores("t1", "<|tool_call_end|>")
         .state("s0", Emits.ARGUMENTS).transition("s0", "t0", "s0").calls(CallSyntax.xtml()))
    text = '<|open|>response<|close|><|tool_call_end|>tail'
    for pieces in ([text], list(text)):
        events = parsed(f, pieces)
        assert text_of(events) == text


def test_a_separator_inside_a_constrained_call_keeps_its_place():
    # found: forced/required call regions of a user-built table with an ignored terminal put the
    # separator before the value bytes they still held
    for syntax, text in [(CallSyntax.forced("f"), '{"a": tr<s>ue}'), (CallSyntax.forced("f"), '{"a": "x<s>\\u00e9"}'),
                         (CallSyntax.required(), '[{"name": "f", "arguments": {"a": tr<s>ue}}]'),
                         (CallSyntax.required(), '[{"name": "f"<s>, "arguments": {}}]<s>')]:
        f = Format("u").ignores("sep", "<s>").state("s0", Emits.ARGUMENTS).calls(syntax)
        for pieces in ([text], list(text)):
            events = parsed(f, pieces)
            assert text_of(events) == text, (text, events)
            check_well_formed(events)


def test_a_separator_after_a_held_quote_start_in_a_gemma_call_keeps_the_held_bytes():
    # found: a `<` or `<|` the quote scanner held (the start of `<|"|>`) was lost when an
    # ignored terminal cut it off: the separator drove the tag reader Gemma does not use
    f = Format("u").ignores("t", "</x>").state("s", Emits.ARGUMENTS).calls(CallSyntax.gemma())
    for text in ["<</x>", "<|</x>", '<|"</x>', "a<</x>", "call:f{a:<|</x>", 'call:f{a:<|"|>x<|</x>y<|"|>}']:
        for pieces in ([text], list(text), [text[:text.index("</x>")], "</x>", text[text.index("</x>") + 4:]]):
            events = parsed(f, [p for p in pieces if p])
            assert text_of(events) == text, (text, pieces, events)
            check_well_formed(events)


def test_a_separator_right_after_a_forced_literal_keeps_its_place():
    # found: a forced call's `true`/`false`/`null`, still being read when an ignored terminal
    # came, lost the terminal once the byte after it ended the value
    f = Format("u").ignores("t", "</c>").state("s", Emits.ARGUMENTS).calls(CallSyntax.forced("f"))
    for text in ["true</c> ", "false</c> ", "null</c>}", "true</c><", "true</c></c> x", "1</c> ", '"s"</c><']:
        for pieces in ([text], list(text), [text[:text.index("</c>")], "</c>", text[text.index("</c>") + 4:]]):
            events = parsed(f, [p for p in pieces if p])
            assert text_of(events) == text, (text, pieces, events)
            check_well_formed(events)


def test_whitespace_before_a_stray_close_tag_in_a_minimax_call_keeps_its_place():
    # found: `<a>1</a> <seed:think> </x>` reported `</x>` before the space that preceded it
    for text in ['<tool_call><invoke name="f"><a>1</a> <seed:think> </x></invoke></tool_call>',
                 '<tool_call><invoke name="f"><a> </x>1</a></invoke></tool_call>']:
        for pieces in ([text], list(text)):
            events = parsed("minimax_m3", pieces)
            assert text_of(events) == text
            assert type(events[-1]) is Finish


def test_whitespace_after_an_opening_tag_then_a_cut_tag_keep_their_order_in_a_minimax_call():
    # found: the stream ending inside `</x` after `<r> ` reported the cut tag before the space
    text = '<tool_call><invoke name="f"><r>\u3000</atem:functi'
    for pieces in ([text], list(text)):
        for finish in ("stop", "length"):
            events = parsed("minimax_m3", pieces, finish=finish)
            assert text_of(events) == text
            check_well_formed(events)


def test_a_bare_function_region_that_holds_no_call_gives_back_the_tag_start_held_before_it():
    # found: Qwen3-Coder's region opened by `<function=f>` alone, where text after the tag made it
    # no call, lost the `<pa` the tag scanner held from the piece before when it also held back
    # the new piece's last bytes (`</p`)
    for pieces in (["<function=f><pa", "ram>x</p"], ["<function=f>", "", "<pa", "", 'ram name="s">x\n</p', "", "arameter>\n"]):
        output = "".join(pieces)
        events = parsed("qwen3_tagged", pieces)
        assert text_of(events) == output
        check_well_formed(events)
        assert all(type(e) in (Content, Finish) for e in events)      # (no call: the region is prose)


def test_an_opener_written_again_after_whitespace_a_call_holds_keeps_its_place():
    # found: a user-built table whose first state holds DSML calls, its marker looping there: the
    # marker written again after whitespace was dropped as the opener twice while the call still
    # held that whitespace, which then went out after it
    f = (Format("u").terminal("t0", "to=").state("s0", Emits.ARGUMENTS).transition("s0", "t0", "s0")
         .calls(CallSyntax.dsml()))
    for output in ("to= to=de", "to= to=", "to=  x to=de"):
        for pieces in ([output], list(output)):
            events = parsed(f, pieces)
            assert text_of(events) == output
            check_well_formed(events)


def test_the_counted_fuzz_run_on_a_small_budget(capsys):
    assert fuzz.main(["--inputs", "1500", "--seed", "7"]) == 0
    assert "fuzz: 1500 inputs" in capsys.readouterr().out


class _Misbehaving:
    """A parser wrapper that breaks one promise the fuzz run checks."""

    def __init__(self, parser, broken):
        self.parser, self.broken, self.ended = parser, broken, False

    def feed(self, item):
        if self.broken == "accepts after end" and self.ended:
            return []
        if self.broken == "splits content" and type(item) is Delta and len(item.text) > 1:
            return [Content(item.text[:1]), Content(item.text[1:])]
        events = self.parser.feed(item)
        self.ended = self.ended or type(item) is End
        return events


@pytest.mark.parametrize("broken, reason", [
    ("accepts after end", "Delta accepted ([]); expected refused: delta after end"),
    ("splits content", "unmerged Content('a', tokens=None) then Content('b', tokens=None)")])
def test_the_fuzz_run_catches_unmerged_events_and_misuse_accepted(broken, reason):
    parser = _Misbehaving(symphony.parser("qwen3"), broken)
    with pytest.raises(fuzz.Broken) as raised:
        fuzz.run(parser, None, [Delta("ab")], "stop", misuse=random.Random(0))
    assert str(raised.value) == reason


def test_text_after_a_function_tag_that_opened_no_call_is_read_where_the_region_opened():
    # found: a nameless `<function=>` in a block the prompt opened holds no call; the text after
    # it went out as content while the engine stayed in the block, so a `</tool_call>` in the
    # same piece closed a region held as undecided (Malformed), and in the next piece content
    output = '<function=>"</tool_call>'
    for prompt in ("<tool_call>\n", None):
        whole = parsed("qwen3_tagged", [output], prompt)
        assert [type(e) for e in whole] == [Content, Finish] and text_of(whole) == output
        for k in range(1, len(output)):
            assert fuzz.said(parsed("qwen3_tagged", [output[:k], output[k:]], prompt)) == fuzz.said(whole), k


def test_a_tag_prefix_held_from_an_earlier_piece_is_read_where_the_region_opened():
    # found (seed 3): a bare `<function=s>` then `<p`, held as a possible `<parameter=`, then
    # text: the region held no call, and the held `<p` (an earlier piece's bytes) was lost
    for table in ("seed_oss", "qwen3_tagged"):
        output = "<function=s><pn"
        for pieces in ([output], list(output), [output[:13], output[13:]]):
            events = parsed(table, pieces)
            assert text_of(events) == output and [type(e) for e in events] == [Content, Finish], pieces


def test_a_control_token_dropped_at_the_end_leaves_the_trailer_apart():
    # found (seed 1): a table's control token with no row, the output's last bytes, then the
    # trailer of the zero-width tokens after them: two Dropped{ControlToken}, the trailer alone
    text = "<|content_invoke_tool_json|>"
    p = symphony.parser("inkling")
    events = list(p.feed(Prompt("<|im_start|>assistant\n<think>\n")))
    for delta in counted_deltas([text[:7], text[7:]], [(0, 11), (11, 28), (28, 28), (28, 28)]):
        events += p.feed(delta)
    end = p.feed(End("length"))
    assert [(type(e), e.why, e.text.text, e.text.tokens) for e in (events + end)[-3:-1]] == [
        (Dropped, DropReason.CONTROL_TOKEN, text, 2), (Dropped, DropReason.CONTROL_TOKEN, "", 2)]
    assert fuzz.unmerged(end) is None
    assert fuzz.unmerged(end[-3:-1] * 2).startswith("unmerged")     # anywhere else they merge


def test_the_fuzz_run_checks_a_refusal_names_the_misuse():
    parser = symphony.parser("qwen3")
    parser.feed(End("stop"))
    with pytest.raises(fuzz.Broken, match="refused as 'end after end', not 'delta after end'"):
        fuzz.refused(parser, End("stop"), "delta after end")


def test_a_region_opened_inside_a_held_call_ends_without_relabelling_what_it_never_held():
    # found (seed 20261207, on the checked build): a user-built table whose first state is a call
    # region, and a marker back to it written after a call's `(`: the region opened inside the
    # call's hold, the call's end released that hold, and the region's end relabelled records
    # from a hold that was gone (a read before the records, AddressSanitizer)
    f = (Format("u").terminal("t0", "</x>").terminal("t4", '<|open|>call tool="')
         .state("s0", Emits.ARGUMENTS).state("s1", Emits.CONTENT)
         .transition("s0", "t4", "s0").transition("s0", "t0", "s1").calls(CallSyntax.pythonic()))
    output = '\u4087(<|open|>call tool="'
    for tools, undeclared in ((fuzz.FUZZ_TOOLS, "malformed"), (None, "call")):
        for pieces in ([output], list(output)):
            p = symphony.parser(f, tools, undeclared=undeclared)
            events = [e for piece in pieces for e in p.feed(Delta(piece))] + p.feed(End("abort"))
            check_well_formed(events)
            assert text_of(events) == output
            assert [type(e).__name__ for e in events][-2:] == ["Dropped", "Finish"], events


def test_whitespace_between_two_message_headers_keeps_its_place():
    # found (a probe of doubled markers): Inkling's `<|message_model|>` twice with whitespace
    # between; the JSON call assembler held the whitespace as a possible head name but said it
    # held nothing, so the second marker went out before it
    for output in ("<|message_model|> <|message_model|>", "<|message_model|>\n<|message_model|>x"):
        for pieces in ([output], list(output)):
            events = parsed("inkling", pieces)
            assert text_of(events) == output, pieces
    events = parsed("inkling", ['Hi.<|message_model|> <|message_model|>get_weather<|content_invoke_tool_json|>'
                                '{"name": "get_weather", "args": {"city": "Paris"}}<|end_message|>'])
    assert [e.name for e in events if type(e) is ToolCallStart] == ["get_weather"]
