"""The Scanner (SPEC §2.3): unit tests of the algorithm's consequences, a per-feed comparison with
the spec's algorithm written out literally, and a differential test against the whole-buffer
oracle over every chunking and hypothesis-built texts (markers, their fragments, near-misses)."""
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from symphony._native import Scanner
from tests.common import chunkings, split_at
from tests.oracles.scanner import merge_text, scan

DSML_CALLS = "<｜DSML｜ calls>"
DSML_CLOSE = "</｜DSML｜ calls>"
QWEN = ["<think>", "</think>", "<tool_call>", "</tool_call>"]


def spec_scan(text, markers, more):
    """SPEC §2.3 written out: (pieces released, text held) for `text` = held + new."""
    pieces = []
    start = at = 0
    longest = max((len(m) for m in markers), default=0)
    while at < len(text):
        rest = text[at:] if len(text) - at < longest else None   # (only a short rest can be held)
        if more and rest is not None and any(len(m) > len(rest) and m.startswith(rest) for m in markers):
            if at > start:
                pieces.append(("text", text[start:at]))
            return pieces, rest
        best = None
        for index, marker in enumerate(markers):
            if marker and text.startswith(marker, at) and (best is None or len(marker) > len(markers[best])):
                best = index
        if best is not None:
            if at > start:
                pieces.append(("text", text[start:at]))
            pieces.append(("marker", best))
            at += len(markers[best])
            start = at
            continue
        at += 1
    if start < len(text):
        pieces.append(("text", text[start:]))
    return pieces, ""


def check_stream(markers, pieces):
    """Feeds `pieces` then finishes, checking every feed against the spec's algorithm (same pieces,
    same held text, held text a proper prefix of a marker and shorter than the longest one).
    Returns everything released."""
    scanner = Scanner(markers)
    longest = max((len(m.encode()) for m in markers), default=0)
    held = ""
    released = []
    fed = ""
    for piece in pieces:
        fed += piece
        want, held = spec_scan(held + piece, markers, True)
        got = scanner.feed(piece)
        assert got == want, f"feed {piece!r} after {fed[:-len(piece) or None]!r}"
        assert scanner.held == held
        if held:
            assert any(len(m) > len(held) and m.startswith(held) for m in markers)
            assert len(held.encode()) < longest
        assert all(value != "" for kind, value in got if kind == "text"), got
        released += got
    want, rest = spec_scan(held, markers, False)
    got = scanner.finish()
    assert got == want and rest == ""
    assert scanner.held == ""
    released += got
    joined = "".join(v if k == "text" else markers[v] for k, v in released)
    assert joined == fed, "every byte comes out once, in order"
    return released


def scanned(markers, pieces):
    scanner = Scanner(markers)
    out = []
    for piece in pieces:
        out += scanner.feed(piece)
    return out + scanner.finish()


def check_all_chunkings(text, markers, every_split_up_to=None):
    want = scan(text, markers)
    for name, pieces in chunkings(text, every_split_up_to):
        got = check_stream(markers, pieces)
        assert merge_text(got) == want, f"plan {name}: {pieces!r}"


# ---- the consequences SPEC §2.3 lists

def test_whole_rest_a_proper_prefix_is_held_until_the_next_byte():
    s = Scanner(["ab", "abc"])
    assert s.feed("ab") == []
    assert s.held == "ab"
    assert s.feed("") == []
    assert s.held == "ab"
    assert s.feed("x") == [("marker", 0), ("text", "x")]
    assert s.held == ""


def test_whole_rest_a_proper_prefix_is_a_marker_at_finish():
    s = Scanner(["ab", "abc"])
    assert s.feed("ab") == []
    assert s.finish() == [("marker", 0)]
    s = Scanner(["ab", "abc"])
    assert s.feed("a") == []
    assert s.feed("bc") == [("marker", 1)]


def test_held_prefix_that_is_no_marker_comes_out_as_text_at_finish():
    s = Scanner(["<think>"])
    assert s.feed("<thi") == []
    assert s.held == "<thi"
    assert s.finish() == [("text", "<thi")]
    assert s.finish() == []


def test_text_before_a_possible_marker_is_released():
    s = Scanner(["<think>"])
    assert s.feed("a<") == [("text", "a")]
    assert s.held == "<"
    assert s.feed("think>b") == [("marker", 0), ("text", "b")]


def test_hold_needs_the_whole_rest_to_be_a_prefix():
    s = Scanner(["<think>"])
    assert s.feed("<t x") == [("text", "<t x")]
    assert s.held == ""
    # a `<` in the middle of the rest is not held when more follows it
    assert s.feed("a<b") == [("text", "a<b")]


def test_hold_starts_at_the_first_position_whose_rest_is_a_prefix():
    s = Scanner(["<<<x"])
    assert s.feed("a<<") == [("text", "a")]
    assert s.held == "<<"
    assert s.feed("<") == []
    assert s.held == "<<<"
    assert s.feed("<") == [("text", "<")]
    assert s.held == "<<<"
    assert s.feed("x") == [("marker", 0)]


def test_longest_marker_wins():
    assert scanned(["<a", "<ab", "<"], ["x<aby"]) == [("text", "x"), ("marker", 1), ("text", "y")]
    assert scanned(["<", "<a"], ["<a<"]) == [("marker", 1), ("marker", 0)]


def test_ties_go_to_the_earliest_marker():
    assert scanned(["x", "x"], ["axb"]) == [("text", "a"), ("marker", 0), ("text", "b")]
    assert scanned(["", "q", "q"], ["q"]) == [("marker", 1)]


def test_empty_markers_never_match_but_keep_their_index():
    markers = ["", "b", ""]
    assert scanned(markers, ["abc"]) == [("text", "a"), ("marker", 1), ("text", "c")]
    assert scanned([""], ["abc"]) == [("text", "abc")]
    s = Scanner(["", ""])
    assert s.feed("") == []
    assert s.feed("x") == [("text", "x")]
    assert s.held == ""
    assert s.marker(0) == "" and s.marker(1) == "" and s.markers.size == 2


def test_adjacent_markers():
    assert scanned(QWEN, ["<think></think><tool_call></tool_call>"]) == [
        ("marker", 0), ("marker", 1), ("marker", 2), ("marker", 3)]
    check_all_chunkings("<think></think><tool_call></tool_call>", QWEN)
    check_all_chunkings("<think><think>a</think></think>", QWEN)


def test_no_markers_means_all_text_at_once():
    s = Scanner([])
    assert s.feed("abc<") == [("text", "abc<")]
    assert s.held == ""
    assert s.feed("") == []
    assert s.finish() == []


def test_hold_back_is_shorter_than_the_longest_marker():
    markers = ["<tool_call>", "<t"]
    s = Scanner(markers)
    assert s.feed("<tool_call") == []
    assert s.held == "<tool_call"
    assert len(s.held.encode()) == len("<tool_call>") - 1
    assert s.markers.longest == len("<tool_call>".encode())


def test_multibyte_markers_hold_on_character_boundaries():
    markers = ["<think>", DSML_CALLS, DSML_CLOSE]
    s = Scanner(markers)
    assert s.feed("x<｜") == [("text", "x")]
    assert s.held == "<｜"
    assert s.feed("DSML｜") == []
    assert s.held == "<｜DSML｜"
    assert s.feed(" calls>é") == [("marker", 1), ("text", "é")]
    # a character sharing its first two UTF-8 bytes with `｜` (U+FF5D `｝`) is not the marker
    assert scanned(markers, ["<｝DSML｜ calls>"]) == [("text", "<｝DSML｜ calls>")]
    s = Scanner(markers)
    assert s.feed("</") == []
    assert s.feed("｝") == [("text", "</｝")]
    check_all_chunkings("é<｜DSML｜ calls>x</｜DSML｜ calls><｜DSML｜ cal", markers)


def test_marker_starting_with_a_multibyte_character():
    markers = ["｜end｜", "😀x"]
    check_all_chunkings("a｜end｜｝end｜😀😀x｜en", markers)
    s = Scanner(markers)
    assert s.feed("😀") == []
    assert s.held == "😀"
    assert s.feed("😀") == [("text", "😀")]
    assert s.held == "😀"


def test_markers_that_differ_in_a_continuation_byte():
    markers = ["é", "ê!"]
    assert scanned(markers, ["aêéê!è"]) == [
        ("text", "aê"), ("marker", 0), ("marker", 1), ("text", "è")]
    check_all_chunkings("aêéê!èê", markers)


def test_self_overlapping_markers():
    assert scan("aaab", ["aab"]) == [("text", "a"), ("marker", 0)]
    check_all_chunkings("aaab", ["aab"])
    assert scan("ababab", ["abab"]) == [("marker", 0), ("text", "ab")]
    check_all_chunkings("ababab", ["abab"])
    check_all_chunkings("aaaaaaab", ["aab", "aaaa"])
    check_all_chunkings("abababababa", ["abab", "aba", "bab"])
    s = Scanner(["aab"])
    assert s.feed("aa") == []
    assert s.feed("a") == [("text", "a")]
    assert s.held == "aa"
    assert s.feed("b") == [("marker", 0)]


def test_markers_that_are_prefixes_of_each_other():
    markers = ["<", "<t", "<tool", "<tool_call>"]
    check_all_chunkings("<<t<to<tool<tool_<tool_call><tool_call", markers)
    s = Scanner(markers)
    assert s.feed("<too") == []
    assert s.feed("x") == [("marker", 1), ("text", "oox")]


def test_qwen_markers_in_every_chunking():
    check_all_chunkings("<think>\nplan\n</think>\n\nHi<tool_call>\n{\"a\": 1}\n</tool_call>", QWEN, 80)
    check_all_chunkings("<tool_x <thinking> </thinking> <</think>> <tool_call", QWEN)
    check_all_chunkings("a</think>b</tool_call>c<", QWEN)


def test_piece_kinds_and_types():
    got = scanned(QWEN, ["x<think>y"])
    for kind, value in got:
        assert kind in ("text", "marker")
        assert isinstance(value, str if kind == "text" else int)


def test_marker_set_limits_and_types():
    Scanner(["m%d" % i for i in range(64)])
    with pytest.raises(ValueError):
        Scanner(["m%d" % i for i in range(65)])
    with pytest.raises(TypeError):
        Scanner(["a", b"b"])
    with pytest.raises(TypeError):
        Scanner([1])


def test_sixty_four_markers_each_found_by_index():
    markers = ["<m%02d>" % i for i in range(64)]
    text = "".join("x" + m for m in reversed(markers)) + "<m6"
    want = scan(text, markers)
    assert [v for k, v in want if k == "marker"] == list(range(63, -1, -1))
    for name, pieces in chunkings(text, every_split_up_to=0, seeds=10):
        assert merge_text(scanned(markers, pieces)) == want, name
    # the 64th marker (bit 63) alone, first byte shared with no other
    markers = ["a%d" % i for i in range(63)] + ["Z!"]
    assert scanned(markers, ["xZ!Z"]) == [("text", "x"), ("marker", 63), ("text", "Z")]
    s = Scanner(markers)
    assert s.feed("Z") == [] and s.held == "Z"


def test_odd_input_does_not_crash():
    s = Scanner(QWEN)
    assert s.feed("") == []
    assert s.finish() == []
    assert s.finish() == []
    long_text = ("x" * 997 + "<think>" + "é😀" * 500 + "</thin") * 300
    check_stream(QWEN, [long_text])
    check_stream(QWEN, [long_text[i:i + 4093] for i in range(0, len(long_text), 4093)])
    assert merge_text(scanned(QWEN, [long_text])) == scan(long_text, QWEN)
    # a feed after finish starts afresh
    s = Scanner(QWEN)
    s.feed("<thi")
    assert s.finish() == [("text", "<thi")]
    assert s.feed("nk>") == [("text", "nk>")]
    # a marker longer than everything fed
    check_stream(["x" * 5000], ["x" * 4999])
    check_stream(["x" * 5000], ["x" * 2500] * 3)


def test_lone_surrogates_are_refused_without_crashing():
    s = Scanner(QWEN)
    with pytest.raises(ValueError, match="not UTF-8 text"):
        s.feed("a\ud800")
    assert s.feed("ok") == [("text", "ok")]


# ---- hypothesis: texts built from the markers' own fragments

ALPHABET = "ab<>/|｜é😀 \n"
MARKER_ALPHABET = "ab<>/｜é😀"


@st.composite
def marker_sets(draw):
    base = draw(st.lists(st.text(MARKER_ALPHABET, min_size=0, max_size=6), min_size=0, max_size=5))
    extra = []
    for m in base:
        shape = draw(st.sampled_from(["none", "prefix", "extend", "overlap"]))
        if shape == "prefix" and len(m) > 1:
            extra.append(m[:draw(st.integers(1, len(m) - 1))])
        elif shape == "extend":
            extra.append(m + draw(st.text(MARKER_ALPHABET, min_size=1, max_size=3)))
        elif shape == "overlap" and m:
            extra.append(m + m[: draw(st.integers(0, len(m) - 1))] if len(m) > 1 else m * 2)
    if draw(st.booleans()):
        extra.append(draw(st.sampled_from(["aab", "abab", "aaaa", "<<", "｜｜x"])))
    markers = base + extra
    return draw(st.permutations(markers)) if markers else markers


@st.composite
def texts_for(draw, markers):
    live = [m for m in markers if m]
    parts = []
    for _ in range(draw(st.integers(0, 12))):
        choice = draw(st.sampled_from(["marker", "prefix", "suffix", "near", "random", "unicode"]
                                      if live else ["random", "unicode"]))
        if choice == "random":
            parts.append(draw(st.text(ALPHABET, max_size=4)))
        elif choice == "unicode":
            parts.append(draw(st.text(st.characters(exclude_categories=("Cs",)), max_size=3)))
        else:
            m = draw(st.sampled_from(live))
            if choice == "marker":
                parts.append(m)
            elif choice == "prefix":
                parts.append(m[: draw(st.integers(0, len(m)))])
            elif choice == "suffix":
                parts.append(m[draw(st.integers(0, len(m))):])
            else:
                i = draw(st.integers(0, len(m) - 1))
                if draw(st.booleans()):
                    parts.append(m[:i] + m[i + 1:])
                else:
                    parts.append(m[:i] + draw(st.sampled_from(ALPHABET)) + m[i + 1:])
    return "".join(parts)


@st.composite
def cases(draw):
    markers = draw(marker_sets())
    text = draw(texts_for(markers))
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=8))) if len(text) > 1 else []
    pieces = split_at(text, cuts)
    if draw(st.booleans()):
        # empty feeds in between
        pieces = [p for piece in pieces for p in (piece, "")]
    return markers, text, pieces


@settings(max_examples=400, deadline=None)
@given(cases())
@example((["aab"], "aaab", ["a", "a", "a", "b"]))
@example((["abab"], "ababab", ["ab", "ab", "ab"]))
@example((["ab", "abc"], "ab", ["a", "b"]))
@example((["", "x", ""], "axb", ["a", "x", "b"]))
@example(([DSML_CALLS, "<think>"], "<｜DSML｜ call<think>", ["<｜", "DSML｜ cal", "l<think>"]))
def test_streamed_scan_matches_the_spec_and_the_oracle(case):
    markers, text, pieces = case
    got = check_stream(markers, pieces)
    assert merge_text(got) == scan(text, markers)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_every_chunking_matches_the_oracle(data):
    markers = data.draw(marker_sets())
    text = data.draw(texts_for(markers))
    check_all_chunkings(text, markers, every_split_up_to=40)
