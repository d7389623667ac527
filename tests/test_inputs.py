"""Inputs are checked when they are built (SPEC §1.5): token ids, spans, texts, and the parser
says whether its stream is still counted; `parse` takes only a parser nothing was fed."""
import pickle
import subprocess
import sys

import numpy as np
import pytest

import symphony
from symphony import Content, Delta, End, Finish, Prompt, TokenSpan

MASKED = np.ma.masked_array([7, 8], mask=[False, True])


@pytest.mark.parametrize("ids, error", [
    (None, TypeError), ("ab", TypeError), (3, TypeError), ({1}, TypeError), (iter([1]), TypeError),
    (np.zeros((1, 1)), TypeError), (np.zeros((1, 1), dtype=np.int64), ValueError),
    (np.array([1.0]), TypeError), (np.array([True]), TypeError), ([1.0], TypeError), ([True], TypeError),
    ([-1], ValueError), ([2**32], ValueError), ([2**70], ValueError),
    (np.array([-1]), ValueError), (np.array([2**32]), ValueError), (np.array([2**64 - 1], dtype=np.uint64), ValueError),
    (MASKED, TypeError),
])
def test_token_ids_are_one_dimensional_integers_below_two_to_the_32(ids, error):
    with pytest.raises(error, match=r"Delta\.token_ids"):
        Delta("ab", ids)
    with pytest.raises(error, match=r"Prompt\.token_ids"):
        Prompt("ab", ids)


@pytest.mark.parametrize("ids", [[], (), [0, 2**32 - 1], (np.int64(3), np.uint32(4)), np.array([5, 6], dtype=np.uint8),
                                 np.array([2**32 - 1], dtype=np.uint64), np.arange(4, dtype=np.int32)[::2]])
def test_token_ids_in_range_are_kept_as_given(ids):
    assert Delta("ab", ids).token_ids is ids
    assert Prompt("ab", ids).token_ids is ids


SPANS = [TokenSpan(1, 0, 1), TokenSpan(1, 1, 1, True), TokenSpan(2, 1, 2)]
ROWS = np.array([[1, 0, 1, 0], [1, 1, 1, 1], [2, 1, 2, 0]], dtype=np.int32)


@pytest.mark.parametrize("spans", [SPANS, tuple(SPANS), ROWS], ids=["list", "tuple", "array"])
@pytest.mark.parametrize("ids", [[1, 2], (1, 2), np.array([1, 2], dtype=np.int16), [np.int64(1), 2]],
                         ids=["list", "tuple", "array", "numpy scalar"])
def test_token_ids_are_the_non_continued_spans_ids_in_order(spans, ids):
    assert Delta("ab", ids, spans).token_ids is ids


@pytest.mark.parametrize("ids", [[], [1], [2, 1], [1, 2, 3], [1, 3], np.array([1]), np.array([1, 2, 2])])
@pytest.mark.parametrize("spans", [SPANS, ROWS], ids=["list", "array"])
def test_token_ids_that_differ_from_the_spans_are_refused_at_construction(spans, ids):
    with pytest.raises(ValueError, match=r"Delta\.token_ids: .*exactly these ids, in order"):
        Delta("ab", ids, spans)


ONE = TokenSpan(7, 0, 2)
ONE_CONTINUED = TokenSpan(7, 0, 2, True)


@pytest.mark.parametrize("make", [list, tuple], ids=["list", "tuple"])
def test_one_span_is_read_as_the_others_are(make):
    """A delta of one span (a streamed token) is held without a tuple made for it: it checks its
    ids, reads back its spans and counts its token as a delta of several spans does."""
    assert Delta("ab", [7], make([ONE])).spans == (ONE,)
    assert Delta("ab", (), make([ONE_CONTINUED])).spans == (ONE_CONTINUED,)
    for ids in ([], [8], [7, 7], np.array([7, 1])):
        with pytest.raises(ValueError, match=r"Delta\.token_ids: .*exactly these ids, in order"):
            Delta("ab", ids, make([ONE]))
    with pytest.raises(ValueError, match=r"Delta\.token_ids: .*exactly these ids, in order"):
        Delta("ab", [7], make([ONE_CONTINUED]))
    with pytest.raises(TypeError, match=r"Delta\.spans: expected TokenSpan items, got tuple"):
        Delta("ab", [7], make([(7, 0, 2, 0)]))
    one, two = symphony.parser("qwen3"), symphony.parser("qwen3")
    pieces = [("ab", [7], make([ONE])), ("c", (), make([TokenSpan(9, 0, 1, True)])), ("dé", [3], make([TokenSpan(3, 0, 3)]))]
    rows = [("ab", np.array([7]), np.array([[7, 0, 2, 0]])), ("c", np.array([], dtype=np.int64), np.array([[9, 0, 1, 1]])),
            ("dé", np.array([3]), np.array([[3, 0, 3, 0]]))]
    assert ([e for d in pieces for e in one.feed(Delta(*d))] + one.feed(End("stop"))
            == [e for d in rows for e in two.feed(Delta(*d))] + two.feed(End("stop")))
    assert one.counting


@pytest.mark.parametrize("span, text, counted", [
    (TokenSpan(7, 1, 2), "ab", False), (TokenSpan(7, 0, 1), "ab", False), (TokenSpan(7, 0, 3), "ab", False),
    (TokenSpan(7, 0, 1), "é", False), (TokenSpan(7, 0, 2), "é", True), (TokenSpan(7, 0, 0), "", True)],
    ids=["late start", "short", "past the end", "inside a character", "two-byte character", "empty"])
def test_one_span_lays_out_its_text_or_the_stream_turns_uncounted(span, text, counted):
    parser = symphony.parser("qwen3")
    parser.feed(Delta(text, [7], [span]))
    assert parser.counting == counted
    assert TokenSpan.partitions([span], text) == counted


def test_a_span_array_names_token_ids_in_range():
    with pytest.raises(ValueError, match=r"Delta\.spans: a token id is 0 <= id < 2\*\*32"):
        Delta("ab", [], np.array([[-1, 0, 2, 1]]))
    with pytest.raises(ValueError, match=r"Delta\.spans"):
        Delta("ab", [], np.array([[2**32, 0, 2, 1]]))


def test_token_span_takes_numpy_integers_and_refuses_bools_and_ids_out_of_range():
    span = TokenSpan(np.int64(7), np.int64(0), 2)
    assert span.token_id == 7 and type(span.token_id) is int
    assert span == TokenSpan(7, 0, 2) and hash(span) == hash(TokenSpan(7, 0, 2))
    assert TokenSpan(np.uint32(2**32 - 1), 0, 0).token_id == 2**32 - 1
    for wrong in (True, np.bool_(True), 1.0, "1", None):
        with pytest.raises(TypeError, match=r"TokenSpan\.token_id"):
            TokenSpan(wrong, 0, 1)
    for wrong in (-1, 2**32, 2**64, np.int64(-1)):
        with pytest.raises(ValueError, match=r"TokenSpan\.token_id: a token id is 0 <= id < 2\*\*32"):
            TokenSpan(wrong, 0, 1)


class Loud(str):
    def __str__(self):
        return "something else"


def test_a_str_subclass_keeps_its_own_characters():
    d, p, e = Delta(Loud("<think>a")), Prompt(Loud("x")), End(Loud("length"))
    assert (d.text, p.text, e.finish) == ("<think>a", "x", "length")
    assert type(d.text) is type(p.text) is type(e.finish) is str


@pytest.mark.parametrize("spans", [(s for s in [TokenSpan(1, 0, 2)]), {TokenSpan(1, 0, 2)}, TokenSpan(1, 0, 2),
                                   frozenset(), "ab", b"ab", 3, object()],
                         ids=["generator", "set", "one span", "frozenset", "str", "bytes", "int", "object"])
def test_spans_that_are_no_list_nor_array_say_what_spans_may_be(spans):
    with pytest.raises(TypeError, match=r"Delta\.spans: expected a list or tuple of TokenSpan or an \(n, 4\) integer array"):
        Delta("ab", [1], spans)


def test_masked_arrays_are_refused():
    rows = np.ma.masked_array([[1, 0, 2, 0]], mask=[[False, False, True, False]])
    with pytest.raises(TypeError, match=r"Delta\.spans: a masked array's mask would be ignored"):
        Delta("ab", [1], rows)
    with pytest.raises(TypeError, match=r"Delta\.token_ids: a masked array's mask would be ignored"):
        Delta("ab", MASKED)


def test_span_array_likes_still_read_as_arrays():
    class Rows:
        def __array__(self, dtype=None, copy=None):
            return np.array([[1, 0, 2, 0]], dtype=np.int64)
    counted = symphony.parser("plain")
    assert counted.feed(Delta("ab", [1], Rows())) == [Content("ab", 1)]
    assert counted.feed(Delta("cd", [2], memoryview(np.array([[2, 0, 2, 0]], dtype=np.int64)))) == [Content("cd", 1)]


def test_counting_says_whether_the_stream_is_still_counted():
    p = symphony.parser("plain")
    assert p.counting
    p.feed(Delta("ab", [1], [TokenSpan(1, 0, 2)]))
    assert p.counting
    p.feed(Delta(""))
    assert p.counting, "an empty delta without spans keeps counting"
    # "é" is 2 bytes: a span in characters (0, 1) ends inside it
    assert p.feed(Delta("é", [2], [TokenSpan(2, 0, 1)])) == [Content("é", None)]
    assert not p.counting
    p.feed(Delta("x", [3], [TokenSpan(3, 0, 1)]))
    assert not p.counting, "uncounted for good"
    p.feed(End())
    assert not p.counting
    assert symphony.parser("plain").feed(Delta("a")) == [Content("a", None)]
    whole = symphony.parser("plain")
    whole.parse("abc")
    assert not whole.counting
    with pytest.raises(AttributeError):
        p.counting = True


@pytest.mark.parametrize("first", [Prompt(""), Prompt("<|im_start|>assistant\n"), Delta(""), Delta("a"), End()],
                         ids=["empty prompt", "prompt", "empty delta", "delta", "end"])
def test_parse_takes_a_parser_nothing_was_fed(first):
    p = symphony.parser("qwen3")
    p.feed(first)
    with pytest.raises(symphony.LifecycleError, match="parse takes a fresh parser"):
        p.parse("more")


def test_parse_after_a_parse_or_a_failed_feed_is_refused_and_a_refused_input_feeds_nothing():
    p = symphony.parser("qwen3")
    p.parse("a")
    with pytest.raises(symphony.LifecycleError, match="parse takes a fresh parser"):
        p.parse("b")
    # an input refused before it is fed leaves the parser fresh
    p = symphony.parser("plain")
    with pytest.raises(TypeError):
        p.feed("text")
    with pytest.raises(ValueError):
        p.feed(Delta("a\ud800"))
    assert p.parse("ok") == [Content("ok", None), Finish("stop", 0, 0)]


# --- pickling: inputs cross process boundaries (worker pools, queues) -----------------------

PICKLED = [
    Delta("a"),
    Delta("ab", [5], [TokenSpan(5, 0, 2)]),
    Delta("ab", (5,), (TokenSpan(5, 0, 2),)),
    Delta("ab", [5, 6], [TokenSpan(5, 0, 1), TokenSpan(6, 1, 2)]),
    Delta("ab", np.array([5]), np.array([[5, 0, 2, 0]])),
    Delta("", (), ()),
    Prompt("<think>\n"),
    End("length"),
    TokenSpan(7, 1, 3, True),
]


@pytest.mark.parametrize("value", PICKLED, ids=repr)
def test_inputs_pickle_and_come_back_the_same(value):
    # Delta's pickling crashed the interpreter (Cython's default read an unset typed view)
    back = pickle.loads(pickle.dumps(value))
    assert type(back) is type(value) and repr(back) == repr(value)
    if type(value) is Delta:       # the same text, ids and spans: the same events, tokens counted
        p, q = symphony.parser("qwen3"), symphony.parser("qwen3")
        assert p.feed(back) + p.feed(End("stop")) == q.feed(value) + q.feed(End("stop"))
        assert back.text == value.text and np.array_equal(np.asarray(back.token_ids), np.asarray(value.token_ids))


def test_no_native_type_crashes_when_pickled():
    """Every class of the core, made without arguments where it can be, pickles or refuses with
    an error: never a crash (run in a fresh interpreter, which a crash would kill)."""
    script = (
        "import pickle, symphony._native as n\n"
        "for name in dir(n):\n"
        "    kind = getattr(n, name)\n"
        "    if not isinstance(kind, type):\n"
        "        continue\n"
        "    try:\n"
        "        value = kind()\n"
        "    except Exception:\n"
        "        continue\n"
        "    try:\n"
        "        pickle.loads(pickle.dumps(value))\n"
        "    except Exception:\n"
        "        pass\n"
        "print('survived')\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "survived", (run.returncode, run.stderr[-2000:])
