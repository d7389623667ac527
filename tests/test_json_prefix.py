"""The incremental JSON prefix validator (SPEC §4.3, §4.4): every acceptance and refusal rule as a
unit test (native fed whole and in every chunking, and the whole-buffer oracle, must agree with the
expected offset), then differential tests over hypothesis-built JSON documents, their prefixes and
mutations."""
import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from symphony._native import JsonPrefix, json_prefix_end
from tests import tiers
from tests.common import chunkings, split_at
from tests.oracles.json_prefix import UNICODE_WHITESPACE, prefix_end
from tests.oracles.json_strict_prefix import strict_ending, strict_prefix_end

SPEC_WHITESPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
                   "\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
NOT_WHITESPACE = "\x1c\x1d\x1e\x1f\u200b\ufeff\u180e\x00\x7f"


def fed(pieces, strict=False):
    """The native validator fed `pieces`: the first refusal offset, or the length of everything."""
    return fed_validator(pieces, strict)[0]


def fed_validator(pieces, strict=False):
    """(the first refusal offset or the length of everything, the validator) after `pieces`."""
    v = JsonPrefix(strict=strict)
    refused = None
    total = 0
    for piece in pieces:
        total += len(piece.encode())
        r = v.feed(piece)
        if refused is None:
            refused = r
        else:
            assert r == refused, "a refused validator keeps refusing at the same offset"
    if refused is not None:
        assert v.refused_at == refused and not v.whole
    else:
        assert v.refused_at is None
    return (total if refused is None else refused), v


def check(text, expected_chars, every_split_up_to=None):
    """`text` is acceptable up to `expected_chars` characters (len(text): all of it), as judged by
    the oracle, the native one-shot function, and the native validator in every chunking."""
    want = len(text[:expected_chars].encode())
    assert prefix_end(text) == want, f"oracle on {text!r}"
    assert json_prefix_end(text) == want, f"json_prefix_end({text!r})"
    assert json_prefix_end(text.encode()) == want
    for name, pieces in chunkings(text, every_split_up_to):
        assert fed(pieces) == want, f"{text!r} fed as {name}: {pieces!r}"


def accepted(text):
    check(text, len(text))


def whole(text):
    v = JsonPrefix()
    assert v.feed(text) is None
    return v.whole


# ---- acceptance

@pytest.mark.parametrize("text", [
    "", " ", "\n\t ", "{", "[", '"', "{}", "[]", '""', "0", "-", "-0", "12", "1.", "1.5", "1e", "1e+",
    "1E-7", "-1.5e+10", "1.2.3", "1e5e5", "--1", "0123", "1+2", "t", "tr", "tru", "true", "f", "fals",
    "false", "n", "nul", "null", '{"a"', '{"a":', '{"a": ', '{"a": 1', '{"a": 1,', '{"a": 1, "b"',
    " {}", "[1, [2, [3", '{"a": {"b": {"c": "d', '["a\\', '["a\\u', '["a\\u00', '["a\\u00e9"]',
])
def test_prefixes_of_json_are_accepted(text):
    accepted(text)


@pytest.mark.parametrize("text", [
    '{"a": }', '{"a":,"b":1}', "[,,]", "[,]", "[1,]", "[1,,2]", '{"a": 1,}', '{,}', '{,,"a":1}',
    '{"a"}', '{"a","b":1}', '{"a" ,}', '{"a": 1, }',
])
def test_missing_values_and_extra_commas_are_accepted(text):
    accepted(text)


@pytest.mark.parametrize("text", [
    '"\\q"', '"\\x"', '"\\é"', '"\\😀"', '"\\""', '"\\\\"', '"\\/"', '"\\b\\f\\n\\r\\t"', '"\\u"',
    '"\\u1"', '"\\u12"', '"\\u123"', '"\\u12"x', '"\\uZZZZ"', '"\\u12\\u0041"', '["\\u"]', '"\\u\\q"',
])
def test_unknown_escapes_and_short_unicode_escapes_are_accepted(text):
    if text == '"\\u12"x':
        check(text, len(text) - 1)   # (the string is complete; `x` follows it)
    else:
        accepted(text)


@pytest.mark.parametrize("text", [
    '"\\ud83d\\ude00"', '"\\uD83D\\uDE00"', '["\\ud800\\udc00", "\\udbff\\udfff"]', '"\\ud83d',
    '"\\ud83d\\', '"\\ud83d\\u', '"\\ud83d\\ude0', '"a\\ud83d\\ude00b"',
])
def test_surrogate_pairs_and_their_prefixes_are_accepted(text):
    accepted(text)


@pytest.mark.parametrize("text", [
    '{"a": [1}', '{"a": [1, [2}', '[{"a": 1]', '[{]', '[{"a"]', '[{"a":]', '{"a": [}',
    '{"a": {"b": [1, {"c": [}]}', '[[{"a": []]',
])
def test_a_closer_of_the_wrong_kind_closes_an_outer_container_that_takes_it(text):
    accepted(text)


def test_raw_control_characters_inside_strings_are_accepted():
    accepted('"a\x00\x01\x1f\tb"')
    accepted('{"k\n": "v\x7f"}')


@pytest.mark.parametrize("ws", list(SPEC_WHITESPACE))
def test_every_unicode_whitespace_character_between_tokens(ws):
    assert frozenset(SPEC_WHITESPACE) == UNICODE_WHITESPACE
    tokens = ["{", '"a"', ":", "[", "1", ",", "true", ",", '"x"', "]", ",", '"b"', ":", "{", "}", "}"]
    for k in range(len(tokens)):
        text = "".join(tokens[:k]) + ws + "".join(tokens[k:])
        check(text, len(text), every_split_up_to=0)
    accepted(ws + ws + "[" + ws + "]")


# ---- refusal

@pytest.mark.parametrize("text, at", [
    ("x", 0), ("True", 0), ("nil", 0), ("[nulx]", 1), ("[truex]", 1), ("[tru]", 1), ("[tru e]", 1),
    ("[nul,", 1), ("falsey", 0), ("nulll", 0), ("[1, fals]", 4), ('{"a": undefined}', 6),
    ("[tru\u00e9]", 1), ("[NaN]", 1), ("[Infinity]", 1), ("[-Infinity]", 2), ("{\"a\": nulL}", 6),
])
def test_a_word_that_is_no_literal_is_refused_at_its_first_letter(text, at):
    check(text, at)


@pytest.mark.parametrize("text, at", [
    ("[1, 2}", 5), ("}", 0), ("]", 0), ("{]", 1), ('{"a": 1]', 7), ("[}", 1), ('{"a": {"b": 1]}', 13),
    ("[]]", 2), ("{}}", 2),
])
def test_a_closer_nothing_open_can_take_is_refused(text, at):
    check(text, at)


@pytest.mark.parametrize("text, at", [
    ('"\\ud83d"', 1), ('"\\ud83dx"', 1), ('"\\ud83d\\u0041"', 1), ('"\\ud83d\\n"', 1),
    ('"\\ud83d\\ud83d"', 1), ('"\\ud83d\\ude0x"', 1), ('"\\ud83d\\ude0"', 1), ('"\\ude00"', 1),
    ('"\\udfff', 1), ('"ab\\udc00cd"', 3), ('{"k": "\\ud800 "}', 7), ('["ok", "\\udbff\\u0000"]', 8),
    ('{"\\ud800": 1}', 2),
])
def test_a_lone_surrogate_escape_is_refused_at_its_backslash(text, at):
    check(text, at)


def test_depth_32_is_accepted_and_33_refused():
    accepted("[" * 32)
    accepted("[" * 32 + "]" * 32)
    accepted('{"a":' * 32 + "1" + "}" * 32)
    check("[" * 33, 32)
    check('{"a":' * 33, 5 * 32)
    check("[" * 31 + "{" + '"a": [', 32 + 5)
    # depth is what is open now, not what was ever open
    accepted(("[" * 32 + "]" * 32 + ",")[:-1])
    accepted("[" + "[" * 31 + "]" * 31 + ", " + "[" * 31)
    check("[" + "[" * 31 + "]" * 31 + ", " + "[" * 32, 1 + 31 + 31 + 2 + 31)


@pytest.mark.parametrize("value", ["{}", "[]", '""', '"a"', "true", "false", "null", "[1]", '{"a": 1}'])
@pytest.mark.parametrize("after", [" ", "\n", "\u3000", "x", "1", ",", "}", "]", "{", '"', "\x1c"])
def test_anything_after_a_complete_top_level_value_is_refused(value, after):
    if value in ("true", "false", "null") and after.isalpha():
        check(value + after, 0)   # the letter makes the word no literal
    else:
        check(value + after, len(value))


@pytest.mark.parametrize("after", [" ", "\n", "\u3000", "x", ",", "}", "]", "{", '"'])
def test_anything_after_a_top_level_number_is_refused(after):
    check("12" + after, 2)
    check("-1.5e3" + after, 6)


@pytest.mark.parametrize("ch", list(NOT_WHITESPACE))
def test_non_whitespace_between_tokens_is_refused(ch):
    check(ch + "{}", 0)
    check("{" + ch + "}", 1)
    check('{"a"' + ch + ":1}", 4)
    check('{"a":' + ch + "1}", 5)
    check("[1" + ch + "]", 2)


@pytest.mark.parametrize("text, at", [
    ("{1: 2}", 1), ("{a: 1}", 1), ("{'a': 1}", 1), ('{"a" 1}', 5), ('{"a": 1 "b": 2}', 8), ("[1 2]", 3),
    ('{"a": 1 :}', 8), ("{:}", 1), ("[:]", 1), ("[1:2]", 2), (".5", 0), ("+1", 0), ("[+1]", 1),
    ("[0x1F]", 2), ("[1a]", 2), ('{"a":: 1}', 5), ('[""""]', 3), ("'a'", 0), ("@", 0), ("é", 0),
    ('{"a": 1}{', 8), ('{"a"::}', 5),
])
def test_other_refusals(text, at):
    check(text, at)


def test_the_refusal_offset_is_in_bytes_and_stays():
    text = '["é😀", x, 1]'
    check(text, 7)
    v = JsonPrefix()
    assert v.feed('["é😀", ') is None
    assert v.feed("x") == len('["é😀", '.encode())
    assert v.feed("]") == len('["é😀", '.encode())
    assert v.refused_at == len('["é😀", '.encode())
    assert not v.whole


def test_whole_is_true_once_a_top_level_value_is_complete():
    for text in ["{}", "[]", '{"a": [1, {"b": null}]}', '""', '"a\\"b"', "0", "12", "-1.5", '{"a": [1}']:
        assert whole(text), text
    for text in ["", " ", "{", '"', '"a\\"', "[1", '{"a": 1', "t", "fals", "-"[:0]]:
        assert not whole(text), text


@pytest.mark.parametrize("text", ["true", "false", "null", " null"])
def test_whole_after_a_top_level_literal(text):
    assert whole(text)


def test_odd_input_does_not_crash():
    assert json_prefix_end("") == 0
    assert json_prefix_end(b"") == 0
    v = JsonPrefix()
    assert v.feed("") is None and v.feed(b"") is None and not v.whole
    long_doc = json.dumps([{"k%d" % i: ["é😀" * 50, i, None, True, {"x": -1.5e7}]} for i in range(2000)])
    assert json_prefix_end(long_doc) == len(long_doc.encode())
    assert fed([long_doc[i:i + 997] for i in range(0, len(long_doc), 997)]) == len(long_doc.encode())
    assert json_prefix_end(long_doc + " ") == len(long_doc.encode())
    check("[" * 5000, 32, every_split_up_to=0)
    check('"' + "\\" * 10001, 10002, every_split_up_to=0)
    for junk in ["\x00", "\ufffd", "\U0010ffff", "\\", "\\u"]:
        assert json_prefix_end(junk * 100) == prefix_end(junk * 100)


# ---- hypothesis: JSON documents, their prefixes, and mutations

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12)

SPACING = st.text(st.sampled_from(SPEC_WHITESPACE), max_size=2)
JSON_SPACING = st.text(st.sampled_from(" \t\n\r"), max_size=2)


@st.composite
def documents(draw, spacing=SPACING):
    value = draw(json_values)
    ensure_ascii = draw(st.booleans())
    if draw(st.booleans()):
        return json.dumps(value, ensure_ascii=ensure_ascii)
    item = draw(spacing) + "," + draw(spacing)
    key = draw(spacing) + ":" + draw(spacing)
    indent = draw(st.none() | spacing)
    return draw(spacing) + json.dumps(value, ensure_ascii=ensure_ascii, separators=(item, key), indent=indent)


def random_pieces(data, text):
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=10))) if len(text) > 1 else []
    pieces = split_at(text, cuts)
    return pieces


@settings(max_examples=300, deadline=None)
@given(documents())
@example('{"a": [1, "\\ud83d\\ude00", {"b": null}]}')
def test_every_prefix_of_a_json_document_is_accepted(doc):
    for i in range(len(doc) + 1):
        prefix = doc[:i]
        n = len(prefix.encode())
        assert json_prefix_end(prefix) == n, prefix
        assert prefix_end(prefix) == n, prefix
    v = JsonPrefix()
    for ch in doc:
        assert v.feed(ch) is None
    assert v.whole


@settings(max_examples=300, deadline=None)
@given(documents(), st.data())
def test_truncated_documents_chunked_match_the_oracle(doc, data):
    text = doc[: data.draw(st.integers(0, len(doc)))]
    assert fed(random_pieces(data, text)) == prefix_end(text) == len(text.encode())


MUTATION_ALPHABET = list('{}[],:"\\u0123456789aefnlrstuxyzE.+-') + list(SPEC_WHITESPACE[:6]) + [
    "\u3000", "\x85", "\x1c", "é", "😀", "\\ud83d", "\\ude00", "true", "null"]


@st.composite
def mutated(draw, spacing=SPACING):
    text = draw(documents(spacing))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        ch = draw(st.sampled_from(MUTATION_ALPHABET))
        if op == "insert":
            text = text[:at] + ch + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + 1:]
        else:
            text = text[:at] + ch + text[at + 1:]
    if draw(st.booleans()):
        text = text[: draw(st.integers(0, len(text)))]
    return text


@settings(max_examples=500, deadline=None)
@given(mutated(), st.data())
@example('{"a": [1}', None)
@example('[1, 2}', None)
@example('"\\ud83d\\u0041"', None)
@example('{"a": tru', None)
@example('{"a": trux', None)
def test_mutated_documents_chunked_match_the_oracle(text, data):
    want = prefix_end(text)
    assert json_prefix_end(text) == want
    pieces = random_pieces(data, text) if data is not None else list(text)
    assert fed(pieces) == want, pieces


# ---- strict mode (RFC 8259 prefixes: what a strict reader such as the Anthropic SDK's takes)
def strict_fed(pieces):
    offset, v = fed_validator(pieces, strict=True)
    return offset, v.whole


@pytest.mark.parametrize("text, at", [
    ('{"a": 1,}', 8), ('{"a": }', 6), ('[1,,2]', 3), ('[1,]', 3), ('{"a" 1}', 5), ('{,}', 1),
    ('{"a": [1}', 8), ('{"a": "x\\q"}', 8), ('"\\u12x"', 1), ('"a\nb"', 2), ('{"a":\u00a01}', 5),
    ('{"a": 01}', 7), ('{"a": 1.}', 8), ('{"a": -}', 7), ('{"a": 1e}', 8), ('{"a": 1e+}', 9),
    ('{"a": +1}', 6), ('{"a": .5}', 6), ('{"a": 1..2}', 8), ('{"a": tru}', 6), ('[1] x', 4),
])
def test_strict_refuses_what_only_the_lenient_reader_takes(text, at):
    assert strict_prefix_end(text) == at
    for name, pieces in chunkings(text):
        assert strict_fed(pieces)[0] == at, (text, name)


@pytest.mark.parametrize("text", ['{"a": 1}', '{"a": [1, 2.5e-3, -0, "x\\u00e9\\ud83d\\ude00"]}', "[]", "{}",
                                  ' {"a" : {"b" : [ ] } } \n', '"\\/\\b\\f\\n\\r\\t"', "-0.0E+1", "[[], {}]"])
def test_strict_accepts_json_and_its_prefixes(text):
    for i in range(len(text) + 1):
        assert strict_fed([text[:i]])[0] == len(text[:i].encode()), text[:i]
    assert strict_fed(list(text)) == (len(text.encode()), True)


@settings(max_examples=300, deadline=None)
@given(documents(JSON_SPACING))
def test_strict_every_prefix_of_a_document_is_accepted(doc):
    for i in range(len(doc) + 1):
        prefix = doc[:i]
        assert strict_prefix_end(prefix) == len(prefix.encode())
        assert strict_fed([prefix])[0] == len(prefix.encode())
    assert strict_fed([doc])[1]


@settings(max_examples=800, deadline=None)
@given(mutated(JSON_SPACING) | mutated(), st.data())
@example('{"a": [1}', None)
@example('{"a": 1.5e', None)
@example('[0', None)
@example('[-', None)
def test_strict_mutated_documents_chunked_match_the_oracle(text, data):
    want = strict_prefix_end(text)
    pieces = random_pieces(data, text) if data is not None else list(text)
    got, is_whole = strict_fed(pieces)
    assert got == want, pieces
    if got == len(text.encode()) and is_whole:
        json.loads(text)        # a whole strict value is JSON


def test_strict_numbers_whole_only_when_the_grammar_is_complete():
    for text, complete in [("1", True), ("-", False), ("1.", False), ("1e", False), ("1e-", False),
                           ("0", True), ("1.5e3", True)]:
        assert strict_fed([text]) == (len(text), complete), text


# ---- bounded strict mode (numbers a decoder keeps: a double's range, 4,300 integer digits)
def bounded_fed(pieces, end=False):
    """(the first refusal offset or the length of everything, committed) of a bounded validator
    fed `pieces` (and `end`ed: its judgement of the number the text ends in)."""
    v = JsonPrefix(strict=True, bounded=True)
    refused = None
    total = 0
    for piece in pieces:
        total += len(piece.encode())
        r = v.feed(piece)
        refused = r if refused is None else refused
        assert 0 <= v.committed <= total
    committed = v.committed
    if end:
        r = v.end()
        assert refused is None or r == refused
        refused = r
    assert v.refused_at == refused
    return (total if refused is None else refused), min(committed, v.committed)


# the least decimal that rounds to infinity as a double, and the one just below it
DOUBLE_OVERFLOW = str(2 ** 1024 - 2 ** 970)
BELOW_OVERFLOW = str(2 ** 1024 - 2 ** 970 - 1)


@pytest.mark.parametrize("text, at", [
    ('{"a": 1e999}', 6), ('{"a": -1e999}', 6), ('[1, 1.8e308]', 4), ("[" + DOUBLE_OVERFLOW + ".0]", 1),
    ("[0." + DOUBLE_OVERFLOW + "e309]", 1), ("[" + DOUBLE_OVERFLOW + "0e-1]", 1), ("[1" + "0" * 309 + "e0]", 1),
    ("[0." + "0" * 500 + "1e811]", 1), ("[" + "1" * 4301 + "]", 1), ("[-" + "1" * 4301, 1),
    ("[" + "1" * 4301 + "e-5000]", 1), ('{"a": 1e0000000000000000000000309}', 6),
])
def test_bounded_refuses_a_number_no_decoder_keeps_at_its_first_byte(text, at):
    assert strict_prefix_end(text, bounded=True) == at
    assert strict_prefix_end(text) == len(text)
    for name, pieces in chunkings(text):
        assert bounded_fed(pieces) == (at, at), (text[:30], name)


@pytest.mark.parametrize("text", [
    "[1.7976931348623157e308]", "[" + BELOW_OVERFLOW + ".0]", "[0." + BELOW_OVERFLOW + "e309]", "[1e-999]",
    "[-0.0]", "[" + "9" * 4300 + "]", "[0." + "0" * 500 + "1e808]", "[1" + "0" * 400 + "e-100]",
    "[" + DOUBLE_OVERFLOW + "]",
    '["1e999"]', "[1e308]", "[0e99999999999999999999]", "[" + "1" * 4300 + "e-4000]",
])
def test_bounded_accepts_a_number_a_decoder_keeps(text):
    assert strict_prefix_end(text, bounded=True, ended=True) == len(text)
    for name, pieces in chunkings(text):
        assert bounded_fed(pieces, end=True) == (len(text), len(text)), (text[:30], name)


def test_bounded_judges_a_number_at_its_end_or_at_the_end_of_the_text():
    # a number being read is not committed: the next byte (or the end) decides whether it is kept
    assert bounded_fed(['{"a": 1']) == (7, 6)
    assert bounded_fed(['{"a": 1e99']) == (10, 6)
    assert bounded_fed(['{"a": 1e99'], end=True) == (10, 6)
    assert bounded_fed(['{"a": 1e999'], end=True) == (6, 6)
    assert bounded_fed(['{"a": 1e'], end=True) == (8, 6)     # no whole number: nothing to judge
    assert bounded_fed(['{"a": "1e999']) == (12, 12)         # a string is no number
    assert bounded_fed(["1e999"]) == (5, 0) and bounded_fed(["1e999"], end=True) == (0, 0)
    with pytest.raises(ValueError):
        JsonPrefix(bounded=True)


@st.composite
def numbers(draw):
    """JSON numbers around a double's limits: mantissas near JP_DOUBLE_OVERFLOW's digits, exponents
    that put them near 10**309, integer parts around 4,300 digits."""
    sign = draw(st.sampled_from(["", "-"]))
    kind = draw(st.sampled_from(["near", "digits", "any"]))
    if kind == "near":
        digits = DOUBLE_OVERFLOW[:draw(st.integers(1, 309))]
        digits = str(max(0, int(digits) + draw(st.integers(-2, 2)))) + "0" * draw(st.integers(0, 3))
        point = draw(st.integers(0, len(digits)))
        whole_part, fraction = digits[:point].lstrip("0") or "0", digits[point:]
        exponent = 309 - point + draw(st.integers(-1, 1))
        text = whole_part + ("." + fraction if fraction else "")
        return sign + text + (f"e{exponent:+d}" if exponent else "")
    if kind == "digits":
        return sign + "1" * draw(st.integers(4298, 4302)) + draw(st.sampled_from(["", ".5", "e-4400"]))
    mantissa = draw(st.from_regex(r"(0|[1-9][0-9]{0,4})(\.[0-9]{1,4})?", fullmatch=True))
    return sign + mantissa + draw(st.sampled_from(["", "e", "E"])) + (
        draw(st.sampled_from(["", "+", "-"])) + str(draw(st.integers(0, 400)))) * 1


@settings(max_examples=300 if tiers.EXHAUSTIVE else 60, deadline=None)
@given(numbers(), st.sampled_from(['{"k": %s}', "[%s, 1]", "[%s"]), st.data())
def test_bounded_numbers_chunked_match_the_oracle(number, shape, data):
    text = shape % number
    if number.endswith(("e", "E")):
        text = text.replace(number, number + "1")
    for end in (False, True):
        want = strict_prefix_end(text, bounded=True, ended=end)
        assert bounded_fed(random_pieces(data, text), end)[0] == want, (text[:60], end)
    if strict_prefix_end(text, bounded=True, ended=True) == len(text) and shape != "[%s":
        json.dumps(json.loads(text), allow_nan=False)     # what the validator keeps, a decoder keeps


@settings(max_examples=300 if tiers.EXHAUSTIVE else 60, deadline=None)
@given(mutated(JSON_SPACING) | mutated(), st.data())
def test_bounded_mutated_documents_chunked_match_the_oracle(text, data):
    assert bounded_fed(random_pieces(data, text))[0] == strict_prefix_end(text, bounded=True)


# ---- strict mode: what a prefix commits should the input end there, and what closes it

def strict_ending_fed(pieces):
    return fed_validator(pieces, strict=True)[1].ending()


@pytest.mark.parametrize("text, committed, closing", [
    ('{"city": "Par', 13, '"}'), ('{"a": 1, "b"', 7, "}"), ('{"a": 1, "b": ', 7, "}"), ('{"a": 1,', 7, "}"),
    ('{"a": 1, ', 7, "}"), ("[1, 2,", 5, "]"), ('{"a": -', 1, "}"), ('{"a": 1.', 7, "}"), ('{"a": 1e+', 7, "}"),
    ('{"a": 12', 8, "}"), ('{"a": tr', 1, "}"), ('{"a": true', 10, "}"), ('{"a": [tru', 7, "]}"),
    ('"ab\\', 3, '"'), ('"ab\\u00', 3, '"'), ('"\\ud83c', 1, '"'), ('"\\ud83c\\udf89', 13, '"'),
    ("{", 1, "}"), ("[", 1, "]"), ('{"a": {', 7, "}}"), ("-", 0, ""), ("tru", 0, ""), ("true", 4, ""),
    ('{"a": 1}', 8, ""), ('{"a": 1} x', 9, ""), ('{"a": 1,}', 7, "}"), ('{"a": "x\\q"}', 8, '"}'),
    ('{"a": "x\\ny', 11, '"}'), ('{"a\\q": 1}', 1, "}"), ('{"a": NaN}', 1, "}"), ("[1.}", 2, "]"),
])
def test_strict_ending_commits_what_closes_with_quotes_and_brackets(text, committed, closing):
    assert strict_ending(text) == (committed, closing)
    for name, pieces in chunkings(text):
        assert strict_ending_fed(pieces) == (committed, closing), (text, name)
    if committed:
        json.loads(text.encode()[:committed].decode() + closing)


@settings(max_examples=800, deadline=None)
@given(mutated(JSON_SPACING) | mutated() | documents(JSON_SPACING), st.data())
def test_strict_ending_of_any_cut_matches_the_oracle(text, data):
    text = text.lstrip(" \t\n\r")         # (a value the validator reads has no whitespace before it)
    cut = text[:data.draw(st.integers(0, len(text)))]
    want = strict_ending(cut)
    assert strict_ending_fed(random_pieces(data, cut) if cut else [""]) == want, cut
    if want[0]:
        json.loads(cut.encode()[:want[0]].decode() + want[1])
