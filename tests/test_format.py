"""The Format builder (SPEC §2.1): chaining, the reference's error texts (Rust `{:?}` quoting),
`next()`, compilation and its cache, `with_opener`, ignored terminals, and a table of our own run
by the engine as SPEC §2.4 says (wrapper runs, terminals without a row, call after call).
"""
import pytest

import symphony
from symphony import Delta, End, Prompt, _native
from symphony.events import (
    Content,
    Finish,
    Dropped,
    Malformed,
    Reasoning,
    ReasoningEnd,
    ReasoningStart,
    ToolCallArguments,
    ToolCallEnd,
    ToolCallStart,
)
from symphony.format import CallSyntax, Emits, Format, debug_quote
from symphony.formats import table as format_table
from symphony.reasons import DropReason, Other
from tests import wire
from tests.common import bytes_of, check_conservation, check_well_formed, chunkings, replay, runs, said
from tests.wire import check_tokens

BETWEEN_CALLS = Other("text between a block's calls")
NO_CALL = Other("a tool-call region that held no call")
CALL = '<c>{"name": "f"}</c>'
AFTER_OBJECT = Other("text between a call's object and its closing marker")


def run(table, pieces, prompt=None, finish="stop"):
    p = symphony.parser(table)
    events = list(p.feed(Prompt(prompt))) if prompt is not None else []
    for piece in pieces:
        events += p.feed(Delta(piece))
    return events + p.feed(End(finish))


def every_chunking(table, output, prompt=None):
    """Events of the whole parse, after checking every chunking conserves, is well formed and
    says the same thing."""
    whole = None
    for plan, pieces in chunkings(output):
        events = run(table, pieces, prompt)
        check_conservation(events, output)
        check_well_formed(events)
        if whole is None:
            whole = events
        else:
            assert said(events) == said(whole), plan
    return whole


def mine(opener=None):
    """A table of our own: `<r>` thoughts, a `<b>` block (Wrapper) of `<c>` JSON calls, and a
    `<s>` separator ignored everywhere."""
    f = (Format("mine")
         .terminal("r_open", "<r>").terminal("r_close", "</r>")
         .terminal("b_open", "<b>").terminal("b_close", "</b>")
         .terminal("c_open", "<c>").terminal("c_close", "</c>")
         .ignores("sep", "<s>")
         .state("content", Emits.CONTENT)
         .state("reasoning", Emits.REASONING)
         .state("block", Emits.WRAPPER)
         .state("call", Emits.ARGUMENTS)
         .transition("content", "r_open", "reasoning")
         .transition("reasoning", "r_close", "content")
         .transition("content", "b_open", "block")
         .transition("block", "c_open", "call")
         .transition("call", "c_close", "block")
         .transition("call", "c_open", "call")
         .transition("call", "b_close", "content")
         .transition("block", "b_close", "content")
         .calls(CallSyntax.json()))
    return f.opens_turn(opener) if opener is not None else f


def dropped(text):
    return Dropped(text, DropReason.WRAPPER)


# --- building ----------------------------------------------------------------------------------

def test_every_builder_method_chains():
    f = Format("f")
    for call in (lambda: f.terminal("a", "<a>"), lambda: f.ignores("i", "<i>"),
                 lambda: f.state("s", Emits.CONTENT), lambda: f.state("t", Emits.ARGUMENTS),
                 lambda: f.transition("s", "a", "t"), lambda: f.calls(CallSyntax.json()),
                 lambda: f.opens_turn("<o>")):
        assert call() is f
    assert f.terminals == [("a", "<a>"), ("i", "<i>")]
    assert f.states == [("s", Emits.CONTENT), ("t", Emits.ARGUMENTS)]
    assert f.transitions == [("s", "a", "t")]
    assert f.syntax == CallSyntax.json() and f.opener == "<o>"
    f.compile()


def test_emits_are_the_native_codes_by_name():
    from symphony import _native
    assert {e.name: int(e) for e in Emits} == {m.name[3:]: int(m) for m in _native.Emits}
    assert [e.name for e in Emits] == ["CONTENT", "REASONING", "ARGUMENTS", "WRAPPER", "HIDDEN", "DAMAGED_MARKER"]


def damaged():
    """A table of our own with damaged openers: `<!b>` opens a block (Wrapper) of `<!c>` calls,
    `<r>` a thought, `<s>` is ignored; `<!` where no marker starts is a damaged marker, read from
    content and from the thought."""
    return (Format("damaged")
            .terminal("r_open", "<r>").terminal("r_close", "</r>")
            .terminal("b_open", "<!b>").terminal("b_close", "</!b>")
            .terminal("c_open", "<!c>").terminal("c_close", "</!c>")
            .terminal("mark", "<!").ignores("sep", "<s>")
            .state("content", Emits.CONTENT).state("reasoning", Emits.REASONING)
            .state("block", Emits.WRAPPER).state("call", Emits.ARGUMENTS).state("held", Emits.DAMAGED_MARKER)
            .transition("content", "r_open", "reasoning").transition("reasoning", "r_close", "content")
            .transition("content", "b_open", "block").transition("block", "b_close", "content")
            .transition("block", "c_open", "call").transition("call", "c_close", "block")
            .transition("content", "mark", "held").transition("reasoning", "mark", "held")
            .transition("held", "mark", "held").transition("held", "b_open", "block")
            .transition("held", "r_close", "reasoning")
            .calls(CallSyntax.json()))


# a block with a call in it (a block with none is the text the model wrote, docs/recovery.md)
BLOCK = '<!b><!c>{"name": "f"}</!c></!b>'
BLOCK_DROPPED = "<!b><!c></!c></!b>"


@pytest.mark.parametrize("output,content,reasoning,dropped_text", [
    # a damaged tag (to its `>` or its line's end), whitespace, then a block: dropped
    ("a<!bb> \n" + BLOCK + "z", "az", "", "<!bb> \n" + BLOCK_DROPPED),
    ("a<!b oops\n\n<!x>\t" + BLOCK, "a", "", "<!b oops\n\n<!x>\t" + BLOCK_DROPPED),
    ("a<!" + BLOCK, "a", "", "<!" + BLOCK_DROPPED),
    # anything else shows it, and reads on from where the mark was
    ("a<!bb> b" + BLOCK, "a<!bb> b", "", BLOCK_DROPPED),
    ("a<!bb>\n", "a<!bb>\n", "", ""),
    ("a<!" + "x" * 200 + "\n" + BLOCK, "a<!" + "x" * 200 + "\n", "", BLOCK_DROPPED),
    ("a<!b" + "x" * 125 + ">\n" + BLOCK, "a<!b" + "x" * 125 + ">\n", "", BLOCK_DROPPED),
    ("a<!b" + "x" * 124 + ">\n" + BLOCK, "a", "", "<!b" + "x" * 124 + ">\n" + BLOCK_DROPPED),      # 128 bytes
    ("a<!bb>\n<r>p</r>", "a<!bb>\n", "p", "<r></r>"),
    ("a<!bb><s>\n" + BLOCK, "a<!bb>\n", "", "<s>" + BLOCK_DROPPED),
    # in the thought: shown as the thought's text, or dropped where the block ends the thought
    ("<r>p<!bb> x</r>", "", "p<!bb> x", "<r></r>"),
    ("<r>p<!bb>\n</r>", "", "p<!bb>\n", "<r></r>"),
])
def test_a_damaged_marker_is_dropped_before_a_call_and_shown_otherwise(output, content, reasoning, dropped_text):
    """Emits.DAMAGED_MARKER (beyond SPEC §2.1, shapes.damaged_openers): a state that holds a
    damaged marker, at every chunking and a token at a time."""
    check_held(damaged(), output, content, reasoning, dropped_text)


def check_held(fmt, output, content, reasoning, dropped_text):
    """`fmt` reads `output` as this content, thought and dropped text, nothing Malformed, at every
    chunking and a token at a time."""
    events = every_chunking(fmt, output)
    assert "".join(e.text for e in events if type(e) is Content) == content
    assert "".join(e.text for e in events if type(e) is Reasoning) == reasoning
    assert "".join(e.text.text for e in events if type(e) is Dropped) == dropped_text
    assert not [e for e in events if type(e) is Malformed]
    check_tokens(fmt, output)


def test_a_damaged_marker_before_a_block_with_no_call_is_the_text_written():
    """A block that holds no call is the text the model wrote, and so is the damaged opener
    before it (docs/recovery.md)."""
    events = every_chunking(damaged(), "a<!bb> \n<!b></!b>z")
    assert "".join(e.text for e in events if type(e) is Content) == "az"
    assert "".join(e.text.text for e in events if type(e) is Malformed) == "<!bb> \n<!b></!b>"
    assert not [e for e in events if type(e) is Dropped]


def test_a_damaged_marker_dropped_in_a_thought_ends_it_with_the_block():
    events = every_chunking(damaged(), "<r>p<!bb>\n" + BLOCK)
    assert [type(e).__name__ for e in events] == ["Dropped", "ReasoningStart", "Reasoning", "Dropped", "ReasoningEnd",
                                                  "Dropped", "ToolCallStart", "ToolCallArguments", "ToolCallEnd",
                                                  "Dropped", "Finish"]
    assert events[3].text.text == "<!bb>\n<!b>" and events[5].text.text == "<!c>"


def test_only_content_or_a_thought_leads_into_a_damaged_marker():
    bad = damaged().transition("block", "mark", "held")
    with pytest.raises(symphony.FormatError, match='^format damaged: a row from "block" into the damaged-marker state '
                                                   '"held"; only content or a thought leads into one$'):
        bad.compile()


    first = Format("first").terminal("m", "<!").state("held", Emits.DAMAGED_MARKER).state("content", Emits.CONTENT)
    with pytest.raises(symphony.FormatError, match='^format first: the first state "held" holds a damaged marker; '
                                                   'only content or a thought leads into one$'):
        first.compile()


def named():
    """`damaged()` whose held state holds a name (Format.holds_name) after its mark `<!`."""
    return damaged().holds_name("held", "abc.")


@pytest.mark.parametrize("output,content,reasoning,dropped_text", [
    # a mark, a name and the block's opener at once: dropped with the block's opener
    ("x<!ab.c" + BLOCK + "z", "xz", "", "<!ab.c" + BLOCK_DROPPED),
    ("<r>p<!a" + BLOCK, "", "p", "<r><!a" + BLOCK_DROPPED),
    # no name, any byte not of a name, a marker with no such row, the end: shown as the text it is
    ("x<!" + BLOCK, "x<!", "", BLOCK_DROPPED),
    ("x<!ab " + BLOCK, "x<!ab ", "", BLOCK_DROPPED),
    ("x<!abd" + BLOCK, "x<!abd", "", BLOCK_DROPPED),
    ("x<!ab\n" + BLOCK, "x<!ab\n", "", BLOCK_DROPPED),
    ("x<!ab", "x<!ab", "", ""),
    ("<r>p<!ab</r>q", "q", "p<!ab", "<r></r>"),
    ("x<!a" + "b" * 124 + BLOCK, "x", "", "<!a" + "b" * 124 + BLOCK_DROPPED),      # 127 bytes held
    ("x<!a" + "b" * 125 + BLOCK, "x<!a" + "b" * 125, "", BLOCK_DROPPED),
])
def test_a_held_name_is_dropped_with_the_row_after_it_and_shown_otherwise(output, content, reasoning, dropped_text):
    """Format.holds_name: the held state holds its mark and a name of the given characters (not
    a damaged tag), at every chunking and a token at a time."""
    check_held(named(), output, content, reasoning, dropped_text)


def test_only_a_damaged_marker_state_holds_a_name_of_ascii_characters():
    with pytest.raises(symphony.FormatError, match='^format damaged: state "block" holds no damaged marker$'):
        damaged().holds_name("block", "abc")
    with pytest.raises(symphony.FormatError, match="^format damaged: a name's characters are ASCII"):
        damaged().holds_name("held", "é")
    with pytest.raises(ValueError, match="holds no name"):
        _native.Table("t", ["<!"], [0], [0, 5], [[1], [-1]], None, None, names=[None, ""])
    assert named().written().names == named().with_opener("o").names == {"held": "abc."}
    # a state only recovered rows lead into is no part of the table as written, nor its name
    muse = format_table("muse_glimmer")
    assert muse.names and muse.written().names == {}


def test_a_prompt_leaves_no_damaged_marker_open():
    events = run(damaged(), ["x"], prompt="<r>a<!b")
    assert [type(e) for e in events] == [ReasoningStart, Reasoning, ReasoningEnd, Finish]


def test_a_hidden_state_drops_all_its_text_at_every_chunking():
    """Emits.HIDDEN (beyond SPEC §2.1): a message for no one the client serves is Dropped{Wrapper}
    whole, text and whitespace alike, where a WRAPPER state would call its text Malformed."""
    f = (Format("hidden").terminal("open", "<dev>").terminal("close", "</dev>")
         .state("content", Emits.CONTENT).state("dev", Emits.HIDDEN)
         .transition("content", "open", "dev").transition("dev", "close", "content"))
    output = "a<dev> note <b> </dev>b<dev>cut"
    for plan, pieces in chunkings(output):
        events = replay(symphony.parser(f), pieces)
        check_conservation(events, output)
        check_well_formed(events)
        assert "".join(e.text for e in events if type(e) is Content) == "ab", plan
        assert not [e for e in events if type(e) is Malformed], plan
        assert all(e.why == DropReason.WRAPPER for e in events if type(e) is Dropped), plan
    # empty deltas in the hidden state make no empty event (hypothesis found one)
    p = symphony.parser(f)
    events = [e for d in ("<dev>", "", " ", "", "x", "") for e in p.feed(Delta(d, token_ids=(), spans=()))]
    events += p.feed(End("stop"))
    assert all(bytes_of(e) for e in events if type(e) is not Finish), events


def test_call_syntaxes_are_values_with_their_parameters():
    from symphony.syntax import Placement, Spelling, Tags
    assert CallSyntax.json() == CallSyntax.json() and hash(CallSyntax.json()) == hash(CallSyntax.json())
    assert CallSyntax.json() != CallSyntax.json_list()
    assert repr(CallSyntax.json_list()) == "CallSyntax.json_list()"
    with pytest.raises(AttributeError):
        CallSyntax.json().kind = "x"
    assert Tags.LING.between == "\n" and Tags.PLAIN.between == ""
    assert Tags.HY4.texts() == ("<arg_key:opensource>", "</arg_key:opensource>",
                                "<arg_value:opensource>", "</arg_value:opensource>")
    assert {p.value for p in Placement} == {"own_line", "direct"}
    assert {s.value for s in Spelling} == {"json", "python"}
    assert CallSyntax.keyed(Tags.HY4, also=(Tags.PLAIN,)) != CallSyntax.keyed(Tags.HY4) == CallSyntax.keyed(Tags.HY4, ())
    assert CallSyntax.keyed(Tags.HY4, also=[Tags.PLAIN]).tags == Tags.HY4
    with pytest.raises(TypeError, match="must be a Tags"):
        CallSyntax.keyed(Tags.HY4, also=("<arg_key>",))
    with pytest.raises(ValueError, match="four per spelling"):
        symphony._native.KeyedSyntax(Tags.PLAIN.texts() + ("<k>",))


def test_a_compiled_table_holds_its_native_syntax():
    from symphony.formats import table as format_table
    from symphony import _native
    assert type(mine().compile().syntax) is _native.JsonSyntax
    assert type(format_table("xlam").compile().syntax) is _native.JsonListSyntax
    assert format_table("plain").compile().syntax is None


@pytest.mark.parametrize("row,kind,name", [
    (("x", "a", "s"), "state", "x"),
    (("s", "a", "x"), "state", "x"),
    (("s", "x", "s"), "terminal", "x"),
    (("s", "A", "s"), "terminal", "A"),       # names are case-sensitive
    (("", "a", "s"), "state", ""),
])
def test_transition_with_an_unknown_name(row, kind, name):
    f = Format("f").terminal("a", "<a>").state("s", Emits.CONTENT)
    with pytest.raises(symphony.FormatError) as caught:
        f.transition(*row)
    assert str(caught.value) == f'format f: no {kind} named "{name}"'
    assert f.transitions == []
    assert isinstance(caught.value, ValueError)


def test_transition_names_must_be_declared_before_the_row():
    f = Format("f").state("s", Emits.CONTENT)
    with pytest.raises(symphony.FormatError, match='^format f: no terminal named "later"$'):
        f.transition("s", "later", "s")
    f.terminal("later", "<l>").transition("s", "later", "s")
    assert f.next("s", "later") == "s"


@pytest.mark.parametrize("name,quoted", [
    ('a"b', r'"a\"b"'),
    ("a\\b", r'"a\\b"'),
    ("\n\r\t", r'"\n\r\t"'),
    ("\0", r'"\0"'),
    ("\x01\x1b\x1f", r'"\u{1}\u{1b}\u{1f}"'),
    ("\x7f", r'"\u{7f}"'),
    ("'", '"\'"'),                 # a single quote is not escaped inside a str
    ("é日本🎉", '"é日本🎉"'),
])
def test_unknown_names_are_rust_debug_quoted(name, quoted):
    assert debug_quote(name) == quoted
    f = Format("q").terminal("a", "<a>").state("s", Emits.CONTENT)
    with pytest.raises(symphony.FormatError) as caught:
        f.transition("s", name, "s")
    assert str(caught.value) == f"format q: no terminal named {quoted}"
    with pytest.raises(symphony.FormatError) as caught:
        f.transition(name, "a", "s")
    assert str(caught.value) == f"format q: no state named {quoted}"


# Rust's `{:?}` escapes every char that is not "printable": general categories Cc (C1 controls
# too), Cf, Zs (but ' '), Zl, Zp, Co, Cn, and a grapheme extender at the start of the string.
@pytest.mark.parametrize("name,quoted", [
    ("\x85", r'"\u{85}"'),
    ("\x9f", r'"\u{9f}"'),
])
def test_c1_controls_are_escaped_like_rust(name, quoted):
    assert debug_quote(name) == quoted


@pytest.mark.parametrize("name,quoted", [
    ("\u00a0", r'"\u{a0}"'),        # Zs
    ("\u3000", r'"\u{3000}"'),      # Zs
    ("\u2028", r'"\u{2028}"'),      # Zl
    ("\u200b", r'"\u{200b}"'),      # Cf
    ("\ufeff", r'"\u{feff}"'),      # Cf
    ("\u00ad", r'"\u{ad}"'),        # Cf
    ("\ue000", r'"\u{e000}"'),      # Co
    ("\u0301", r'"\u{301}"'),       # grapheme extender first
])
def test_unprintable_chars_are_escaped_like_rust(name, quoted):
    assert debug_quote(name) == quoted


# --- validation --------------------------------------------------------------------------------

@pytest.mark.parametrize("build,text", [
    (lambda: Format("n"), "format n: a table with no state"),
    (lambda: Format("n").terminal("a", "<a>"), "format n: a table with no state"),
    (lambda: Format("n").state("r", Emits.REASONING).state("c", Emits.CONTENT),
     'format n: the first state "r" emits reasoning; a thought the output starts inside is entered by the prompt'),
    (lambda: Format("n").state('r"\n', Emits.REASONING),
     'format n: the first state "r\\"\\n" emits reasoning; a thought the output starts inside is entered '
     'by the prompt'),
    (lambda: Format("n").state("c", Emits.CONTENT).state("a", Emits.ARGUMENTS),
     "format n: an arguments state with no call syntax"),
    (lambda: Format("n").state("a", Emits.ARGUMENTS), "format n: an arguments state with no call syntax"),
    (lambda: Format("n").terminal("ok", "<ok>").terminal("t", "").state("c", Emits.CONTENT),
     'format n: terminal "t" has no text'),
    (lambda: Format("n").ignores("t", "").state("c", Emits.CONTENT), 'format n: terminal "t" has no text'),
    (lambda: Format("n").terminal("\t", "").state("c", Emits.CONTENT), 'format n: terminal "\\t" has no text'),
    (lambda: Format("n").state("c", Emits.CONTENT).opens_turn(""), "format n: an empty turn opener"),
])
def test_validate_texts(build, text):
    f = build()
    with pytest.raises(symphony.FormatError) as caught:
        f.validate()
    assert str(caught.value) == text
    with pytest.raises(symphony.FormatError) as caught:     # compiling validates
        f.compile()
    assert str(caught.value) == text
    with pytest.raises(symphony.FormatError) as caught:     # so does making a parser of it
        symphony.parser(f)
    assert str(caught.value) == text


def test_valid_tables_validate():
    for name in symphony.formats():
        from symphony.formats import table
        assert table(name).validate() is None
    assert Format("n").state("c", Emits.CONTENT).validate() is None
    assert Format("n").state("c", Emits.CONTENT).state("r", Emits.REASONING).validate() is None
    assert mine("<o>").validate() is None


# --- next() ------------------------------------------------------------------------------------

def test_next_first_matching_row_wins():
    f = (Format("n").terminal("t", "<t>").terminal("u", "<u>")
         .state("c", Emits.CONTENT).state("a", Emits.REASONING).state("b", Emits.WRAPPER)
         .transition("c", "t", "a").transition("c", "t", "b").transition("a", "u", "c"))
    assert f.next("c", "t") == "a"
    assert f.next("c", "u") is None
    assert f.next("a", "u") == "c"
    assert f.next("a", "t") is None
    assert f.next("b", "t") is None
    # the engine follows the first row too: `<t>` opens a thought, not a wrapper block
    events = run(f, ["x<t>y<u>z"])
    assert [type(e) for e in events[:5]] == [Content, Dropped, ReasoningStart, Reasoning, Dropped]
    assert events[3].text == "y"


# --- compile() ---------------------------------------------------------------------------------

def test_compile_caches_and_recompiles_after_a_change():
    f = Format("n").terminal("t", "<t>").state("c", Emits.CONTENT).state("r", Emits.REASONING)
    first = f.compile()
    assert f.compile() is first
    assert [type(e) for e in run(first, ["a<t>b"])][:2] == [Content, Finish]
    f.transition("c", "t", "r")
    second = f.compile()
    assert second is not first and f.compile() is second
    assert [type(e) for e in run(second, ["a<t>b"])] == [Content, Dropped, ReasoningStart, Reasoning,
                                                        ReasoningEnd, Finish]
    # every builder method drops the cache
    for change in (lambda: f.terminal("u", "<u>"), lambda: f.ignores("i", "<i>"),
                   lambda: f.state("w", Emits.WRAPPER), lambda: f.transition("r", "t", "c"),
                   lambda: f.calls(CallSyntax.json()), lambda: f.opens_turn("<o>")):
        before = f.compile()
        change()
        assert f.compile() is not before
    assert f.compile().n_terminals == 3 and f.compile().n_states == 3 and f.compile().opener == "<o>"



def test_a_failed_compile_caches_nothing():
    f = Format("n").state("c", Emits.CONTENT).opens_turn("")
    with pytest.raises(symphony.FormatError):
        f.compile()
    with pytest.raises(symphony.FormatError):
        f.compile()
    f.opens_turn("<o>")
    assert f.compile().opener == "<o>"


def test_parser_accepts_the_format_and_its_compiled_table():
    f = mine()
    text = "<r>t</r><b><c>{\"name\": \"f\", \"arguments\": {}}</c></b>"
    want = [e.to_dict() for e in run(f, [text])]
    assert [e.to_dict() for e in run(f.compile(), [text])] == want
    assert [e.to_dict() for e in symphony.parse(f, text)] == want
    assert [e.to_dict() for e in symphony.parse(f.compile(), text)] == want


# --- with_opener -------------------------------------------------------------------------------

def test_with_opener_copies():
    base = mine("<|a|>")
    compiled = base.compile()
    copy = base.with_opener("<|b|>")
    assert copy is not base and copy.name == base.name
    assert copy.opener == "<|b|>" and base.opener == "<|a|>"
    assert copy.terminals == base.terminals and copy.states == base.states
    assert copy.transitions == base.transitions and copy.syntax is base.syntax
    assert copy.ignored == base.ignored
    assert copy.compile() is not compiled and base.compile() is compiled
    assert copy.compile().opener == "<|b|>" and compiled.opener == "<|a|>"
    # the copy's lists are its own
    copy.terminal("x", "<x>").state("w", Emits.WRAPPER).transition("w", "x", "content").ignores("y", "<y>")
    assert len(base.terminals) == 7 and len(base.states) == 4 and len(base.transitions) == 8
    assert base.ignored == {"sep"}
    assert base.compile() is compiled


def test_a_marker_spelled_also_has_its_rows_and_the_grammar_only_the_first_spelling():
    base = mine("<|a|>")
    rows = [row for row in base.transitions if row[1] == "r_open"]
    table = base.spelled_also("r_open", "r_open_too", "<<r>>")
    assert table is base and ("r_open_too", "<<r>>") in table.terminals
    assert [(a, b) for a, t, b in table.transitions if t == "r_open_too"] == [(a, b) for a, _, b in rows]
    events = symphony.parse(table, "x<<r>>plan</r>y")
    assert [type(e).__name__ for e in events] == ["Content", "Dropped", "ReasoningStart", "Reasoning", "Dropped",
                                                  "ReasoningEnd", "Content", "Finish"]
    first = table.first_spellings()
    assert first.terminals == mine("<|a|>").terminals and first.transitions == mine("<|a|>").transitions
    assert table.with_opener("<|b|>").spellings == {"r_open_too": "r_open"} and first.spellings == {}


def test_a_call_that_ends_itself_returns_where_after_call_says():
    # a tagged call opened by its own function tag (a start of the syntax: its bytes are the
    # call's) returns to `after` at its `</function>`; what follows is read there
    table = (Format("bare").terminal("open", "<function=").terminal("done", "<done>")
             .state("content", Emits.CONTENT).state("call", Emits.ARGUMENTS).state("after", Emits.CONTENT)
             .transition("content", "open", "call").transition("after", "open", "call")
             .transition("after", "done", "content")
             .after_call("call", "after").calls(CallSyntax.tagged()))
    output = "a<function=f><parameter=x>1</parameter></function>b<done>c<function=g></function><done>"
    events = symphony.parse(table, output)
    assert runs(events) == runs([
        wire.content("a"), wire.start(0, "f", "<function=f>"), wire.arguments(0, '{"x": 1', "<parameter=x>1</parameter>"),
        wire.arguments(0, "}", ""), wire.end(0, "</function>"), wire.content("b"), wire.dropped("<done>"),
        wire.content("c"), wire.start(1, "g", "<function=g>"), wire.arguments(1, "{}", ""), wire.end(1, "</function>"),
        wire.dropped("<done>"), wire.finish(tool_calls=2)])
    for plan, pieces in chunkings(output):
        replayed = replay(symphony.parser(table), pieces)
        check_conservation(replayed, output)
        assert said(replayed) == said(events), plan


def test_after_call_and_recovers_are_checked_and_written_leaves_recoveries_out():
    table = mine("<|a|>")
    with pytest.raises(symphony.FormatError, match='^format mine: no state named "nowhere"$'):
        table.after_call("call", "nowhere")
    with pytest.raises(symphony.FormatError, match='^format mine: state "content" holds no call to end$'):
        table.after_call("content", "content")
    with pytest.raises(symphony.FormatError, match='^format mine: no terminal named "x"$'):
        table.recovers("content", "x", "content")
    table.terminal("bare_open", "<f>").state("bare", Emits.ARGUMENTS).recovers("content", "bare_open", "bare")
    table.after_call("bare", "content")
    written = table.written()
    assert written.terminals == mine("<|a|>").terminals and written.states == mine("<|a|>").states
    assert written.transitions == mine("<|a|>").transitions and written.returns == {}
    assert table.with_opener("<|b|>").returns == {"bare": "content"}


def test_a_recovery_row_runs_and_the_grammar_leaves_it_out():
    """`recovers`: a row read and never written. It runs like any row; `written()` (what the
    grammar writes) has no such row, nor the terminals and states only such rows use."""
    base = mine("<|a|>")
    table = (mine("<|a|>").terminal("slip", "<<slip>>").state("slipped", Emits.WRAPPER)
             .recovers("content", "slip", "slipped").recovers("slipped", "r_close", "content")
             .recovers("content", "r_close", "content"))
    assert table.recoveries == [("content", "slip", "slipped"), ("slipped", "r_close", "content"),
                                ("content", "r_close", "content")]
    assert runs(every_chunking(table, "x<<slip>> y</r>z</r>")) == runs([
        Content("x"), dropped("<<slip>> "), symphony.Malformed(symphony.Text("y"), BETWEEN_CALLS),
        dropped("</r>"), Content("z"), dropped("</r>"), symphony.Finish("stop", 0, 0)])
    written = table.written()
    assert written.terminals == base.terminals and written.states == base.states
    assert written.transitions == base.transitions and written.recoveries == []
    assert table.with_opener("<|b|>").recoveries == table.recoveries


def test_with_opener_decides_where_the_prompt_is_replayed_from():
    prompt = "<r>\n<|b|>\n"   # a thought opened before the last `<|b|>`, none after it
    base = mine("<|a|>")       # `<|a|>` absent: the whole prompt counts, the output starts in a thought
    assert [type(e) for e in run(base, ["x"], prompt)] == [ReasoningStart, Reasoning, ReasoningEnd, Finish]
    copy = base.with_opener("<|b|>")   # only what follows the last `<|b|>` counts
    assert [type(e) for e in run(copy, ["x"], prompt)] == [Content, Finish]
    with pytest.raises(symphony.FormatError, match="^format mine: an empty turn opener$"):
        base.with_opener("").compile()


# --- ignored terminals -------------------------------------------------------------------------

def thought_and_block(separator=False):
    """A table with an ignored terminal `<s>` (a separator or not), a thought and a block."""
    return (Format("ig").ignores("sep", "<s>", separator=separator)
            .terminal("r_open", "<r>").terminal("r_close", "</r>")
            .terminal("b_open", "<b>").terminal("b_close", "</b>")
            .state("content", Emits.CONTENT).state("reasoning", Emits.REASONING).state("block", Emits.WRAPPER)
            .transition("content", "r_open", "reasoning").transition("reasoning", "r_close", "content")
            .transition("content", "b_open", "block").transition("block", "b_close", "content"))


def test_ignored_terminals_are_dropped_in_every_state_and_move_nothing():
    f = thought_and_block()
    output = "a<s>b<r>c<s>d</r>e<b> <s> </b><s>"
    events = every_chunking(f, output)
    assert runs(events) == runs([
        Content("a"), dropped("<s>"), Content("b"),
        dropped("<r>"), ReasoningStart(), Reasoning("c"), dropped("<s>"), Reasoning("d"), dropped("</r>"),
        ReasoningEnd(), Content("e"),
        dropped("<b>"), dropped(" "), dropped("<s>"), dropped(" "), dropped("</b>"),
        dropped("<s>"), symphony.Finish("stop", 0, 0),
    ])
    # a prompt's ignored terminals move nothing either
    assert run(f, ["x"], "<s><r><s>")[:2] == [ReasoningStart(), Reasoning("x")]


def test_a_separator_is_dropped_before_a_marker_and_where_calls_are_read_and_text_elsewhere():
    f = thought_and_block(separator=True)
    output = "a<s>b<s><r>c<s><s></r>e<b> <s> </b><s></b><s>"
    every_chunking(f, output)
    assert runs(symphony.parse(f, output)) == runs([
        Content("a<s>b"), dropped("<s>"), dropped("<r>"), ReasoningStart(), Reasoning("c"), dropped("<s><s>"),
        dropped("</r>"), ReasoningEnd(), Content("e"),
        dropped("<b>"), dropped(" "), dropped("<s>"), dropped(" "), dropped("</b>"),
        Content("<s></b><s>"), symphony.Finish("stop", 0, 0),
    ])


def test_ignored_terminal_between_calls_of_a_json_block():
    events = every_chunking(mine(), '<b><c>{"name": "f", "arguments": {}}<s></c><s><c>{"name": "g"}</c></b>')
    assert sum(e.text.text.count("<s>") for e in events if type(e) is Dropped) == 2
    assert all(type(e) is Dropped for e in events if "<s>" in bytes_of(e))
    assert [e.name for e in events if type(e) is ToolCallStart] == ["f", "g"]


@pytest.mark.parametrize("output", [
    '<c>{"name":"f","arg<s>uments":{"a": 1}}</c>',
    '<c>{"name":"f","arguments":{"a": tr<s>ue}}</c>',
    '<c>{"arguments":{"a"<s>: 1}, "name": "f"<s>}</c>',
    '<c><s>{"name":"f","arguments":{}}<s></c>',
    '<c>{"name":"f","arguments":{"a": "b<s>',
])
def test_ignored_terminal_inside_a_json_call_keeps_its_place(output):
    # the JSON assembler holds a call's bytes until it can report them: a separator that arrives
    # among held bytes goes into the source of the event that reports them, never into the JSON
    f = (Format("ig").ignores("sep", "<s>").terminal("c_open", "<c>").terminal("c_close", "</c>")
         .state("content", Emits.CONTENT).state("call", Emits.ARGUMENTS)
         .transition("content", "c_open", "call").transition("call", "c_close", "content")
         .calls(CallSyntax.json()))
    events = every_chunking(f, output)
    check_conservation(events, output)
    arguments = "".join(e.json for e in events if type(e) is ToolCallArguments)
    assert "<s>" not in arguments
    assert [e.name for e in events if type(e) is ToolCallStart] == ["f"]
    clean = symphony.parse(f, output.replace("<s>", ""))
    assert arguments == "".join(e.json for e in clean if type(e) is ToolCallArguments)


@pytest.mark.parametrize("output", [" <s> [<s>{\"name\": \"f\"}<s>, <s>]<s>", " <s> x", "[ <s>", " <s> "])
def test_ignored_terminal_in_a_json_list_keeps_its_place(output):
    f = Format("ig").ignores("sep", "<s>").state("calls", Emits.ARGUMENTS).calls(CallSyntax.json_list())
    events = every_chunking(f, output)
    check_conservation(events, output)
    # the separator is dropped as wrapping, never inside another kind of event
    assert all(type(e) is Dropped for e in events if "<s>" in bytes_of(e))


# --- a table of our own, run by the engine (SPEC §2.4) ------------------------------------------

def test_wrapper_state_edge_whitespace_dropped_inner_whitespace_malformed():
    # U+3000 and U+0085 are whitespace (Rust), U+001C and U+200B are not; whitespace at the
    # wrapping's edges (next to a marker) is Dropped, whitespace between two runs of text is theirs
    output = "<b> \u3000x\x1cy\n\u0085z\u200b\t" + CALL + " </b>"
    events = every_chunking(mine(), output)
    assert runs(events) == runs([
        dropped("<b> \u3000"), Malformed("x\x1cy\n\u0085z\u200b", BETWEEN_CALLS), dropped("\t<c>"),
        ToolCallStart(0, "call_0", "f", '{"name": "f"}'), ToolCallArguments(0, "{}", ""), ToolCallEnd(0, ""),
        dropped("</c> </b>"),
        symphony.Finish("stop", 1, 0),
    ])


def test_wrapper_whitespace_decided_by_the_next_byte_under_any_chunking():
    output = "<b>ab  cd\n\x1c \u2028e " + CALL + "</b>tail"
    for plan, pieces in chunkings(output):
        events = run(mine(), pieces)
        check_conservation(events, output)
        malformed = [e.text.text for e in events if type(e) is Malformed]
        assert "".join(malformed) == "ab  cd\n\x1c \u2028e", plan
        assert all(e.why == BETWEEN_CALLS for e in events if type(e) is Malformed)
        wrapper = [e.text.text for e in events if type(e) is Dropped]
        assert "".join(wrapper) == "<b> <c></c></b>", plan
        # a Malformed run starts and ends with text, never with whitespace
        assert all(m[0] not in " \n\u2028" and m[-1] not in " \n\u2028" for m in malformed), (plan, malformed)
        assert said(events).content == "tail"


def test_a_terminal_with_no_row_is_text_of_its_state():
    output = "</r></c><c>x<r>a</b><c></r><b></r><r>z</b>"
    events = every_chunking(mine(), output)
    assert said(events).content == "</r></c><c>x"
    assert said(events).reasoning == ("a</b><c>",)
    # a marker with no row is Malformed text of the block, joined with the text around it; the
    # block holds no call, so its own markers are its text too
    assert [e for e in runs(events) if e["kind"] == "malformed"] == runs([
        Malformed("<b>", NO_CALL), Malformed("</r><r>z", BETWEEN_CALLS), Malformed("</b>", NO_CALL)])
    # `<r>`, `</r>`, `<b>` have no row from the call state: they are fed to the assembler
    output = '<b><c>{"name": "f<r>", "arguments": {"k": "<b></r>"}}</c></b>'
    events = every_chunking(mine(), output)
    assert [(e.index, e.name) for e in events if type(e) is ToolCallStart] == [(0, "f<r>")]
    assert said(events).arguments == ((0, '{"k": "<b></r>"}'),)


def test_a_marker_into_the_arguments_state_from_it_ends_the_call_and_opens_another():
    output = '<b><c>{"name": "f", "arguments": {"a": 1}}<c>{"name": "g", "arguments": {}}</c>\n</b>'
    events = every_chunking(mine(), output)
    assert runs(events) == runs([
        dropped("<b>"), dropped("<c>"),
        ToolCallStart(0, "call_0", "f", '{"name": "f", "arguments": '),
        ToolCallArguments(0, '{"a": 1}', '{"a": 1}'), ToolCallEnd(0, "}"),
        dropped("<c>"),
        ToolCallStart(1, "call_1", "g", '{"name": "g", "arguments": '),
        ToolCallArguments(1, "{}", "{}"), ToolCallEnd(1, "}"),
        dropped("</c>"), dropped("\n"), dropped("</b>"), symphony.Finish("stop", 2, 0),
    ])


def test_a_call_cut_by_the_next_opener_and_a_block_without_a_call():
    # the first call never completes its object: closed by a marker, its bytes are malformed;
    # `<c>junk` holds no call and takes no index (its opener is shown with it)
    output = '<b><c>{"name": "f", "arguments": {"a": <c>junk<c>{"name": "g"} x\n</c></b>'
    events = every_chunking(mine(), output)
    closed = Other("a tool-call block that closed without a complete call")
    starts = [(e.index, e.name) for e in events if type(e) is ToolCallStart]
    assert starts == [(0, "f"), (1, "g")]
    assert Malformed("<c>junk", closed) in events
    assert Malformed("x", AFTER_OBJECT) in events
    assert events[-1] == symphony.Finish("stop", 2, 0)


def test_thought_and_content_around_a_block():
    output = 'Hi <r>plan <c>no</r>\n<b>\n<c>{"name": "f", "arguments": {"q": "v"}}</c>\n</b> bye'
    events = every_chunking(mine(), output)
    s = said(events)
    assert s.content == "Hi \n bye"
    assert s.reasoning == ("plan <c>no",)
    assert s.calls == ((0, "call_0", "f"),)
    assert s.arguments == ((0, '{"q": "v"}'),)
    assert s.malformed == ()


def test_end_inside_each_state():
    assert run(mine(), ["<r>x"])[-2:] == [ReasoningEnd(), symphony.Finish("stop", 0, 0)]
    assert run(mine(), ["<b> x"])[-3:] == [Malformed("<b> ", NO_CALL), Malformed("x", BETWEEN_CALLS),
                                           symphony.Finish("stop", 0, 0)]
    events = run(mine(), ['<b><c>{"name": "f", "arguments": {"a": "b'], finish="length")
    assert events[-3:] == [ToolCallArguments(0, '{"a": "b', '{"a": "b'), ToolCallEnd(0, ""),
                           symphony.Finish("length", 1, 0)]


def test_prompt_seeding_in_our_table():
    # the prompt leaves a thought open: ReasoningStart comes with the Prompt feed
    p = symphony.parser(mine("<o>"))
    assert p.feed(Prompt("<r>x</r><o><r>\n")) == [ReasoningStart()]
    assert p.feed(Delta("t</r>c")) == [Reasoning("t"), dropped("</r>"), ReasoningEnd(), Content("c")]
    # a prompt ending inside a call block's call stays in the initial state
    assert run(mine("<o>"), ["x"], "<o><b><c>") == [Content("x"), symphony.Finish("stop", 0, 0)]
    # ... but a prompt ending in the wrapper block leaves the output there
    assert run(mine("<o>"), ["x"], "<o><b>") == [Malformed("x", BETWEEN_CALLS), symphony.Finish("stop", 0, 0)]


def test_a_block_that_reads_json_call_objects():
    """`reads_objects` (shapes.objects_in_block): where a call may begin in a block (after its
    opener or after a call, whitespace aside), a `{` opens a call read as a JSON call object,
    which returns to the block once the object closes; text written first leaves the rest of
    that stretch the block's wrapping. The block's rows end an object cut short (`</b>`), but for
    a marker in a string of an object that then closes, which is the string's text (`"<c>"`).
    Read, never written."""
    from symphony.adapt import chat
    from symphony.formats.shapes import objects_in_block
    with pytest.raises(symphony.FormatError, match='^format mine: state "content" is no block of calls$'):
        mine().reads_objects("content", "call")
    with pytest.raises(symphony.FormatError, match='^format mine: state "block" holds no call to end$'):
        mine().reads_objects("block", "block")
    table = objects_in_block(mine(), "block")
    output = ('a<b> {"name": "f", "arguments": {"x": 1}}{"name": "g"}\n<c>{"name": "h"}</c> {"name": "i", '
              '"arguments": {"y": "<c>"}}</b><b>x {"name": "no"}</b><b>{"name": "j", "arguments": {"z": [</b>')
    events = every_chunking(table, output)
    assert [(c["function"]["name"], c["function"]["arguments"]) for c in chat.message(events)["message"]["tool_calls"]] == [
        ("f", '{"x": 1}'), ("g", "{}"), ("h", "{}"), ("i", '{"y": "<c>"}'), ("j", '{"z": []}')]
    assert chat.message(events)["message"]["content"] == 'a<b>x {"name": "no"}</b>'
    written = table.written()
    assert written.states == mine().states and written.transitions == mine().transitions
    assert written.returns == {} and written.objects == {}
