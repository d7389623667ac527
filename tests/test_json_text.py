"""Strict JSON string decoding (serde_json's rules) and the call-object outline (SPEC §4.1): unit
tests, and differential tests against whole-buffer oracles (Python's json minus lone surrogates;
tests/oracles/outline.py) over every prefix of call objects and hypothesis-built ones."""
import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from symphony._native import json_outline, json_string_decode
from tests.oracles.json_prefix import UNICODE_WHITESPACE
from tests.oracles.outline import outline, strict_string

EMPTY = {"name": None, "arguments": None, "close": None}


def decoded(body):
    """Native and oracle agree on `body`; returns the result."""
    got = json_string_decode(body)
    assert got == strict_string(body), body
    assert json_string_decode(body.encode()) == got
    return got


# ---- json_string_decode

@pytest.mark.parametrize("body, want", [
    ("", ""), ("abc", "abc"), ("é😀", "é😀"), ("\x7f", "\x7f"), ("a'b", "a'b"),
    ('\\"', '"'), ("\\\\", "\\"), ("\\/", "/"), ("\\b", "\b"), ("\\f", "\f"), ("\\n", "\n"),
    ("\\r", "\r"), ("\\t", "\t"), ("\\u0041", "A"), ("\\u00e9", "é"), ("\\u00E9", "é"),
    ("\\u0000", "\x00"), ("\\u001f", "\x1f"), ("\\uffff", "\uffff"), ("\\ud83d\\ude00", "😀"),
    ("\\uD83D\\uDE00", "😀"), ("\\udbff\\udfff", "\U0010ffff"), ("\\ud800\\udc00", "\U00010000"),
    ("a\\nb\\tc\\u0020d", "a\nb\tc d"), ("\\\\u0041", "\\u0041"),
])
def test_valid_bodies_decode(body, want):
    assert decoded(body) == want


@pytest.mark.parametrize("body", [
    "\\", "a\\", "\\q", "\\x41", "\\'", "\\U00000041", "\\u", "\\u1", "\\u12", "\\u123", "\\u123g",
    "\\uZZZZ", '"', 'a"b', "\\\\\\", "\\ud83d", "\\ude00", "\\ud83dx", "\\ud83d\\u0041", "\\ud83d\\n",
    "\\ud83d\\ud83d", "\\ude00\\ud83d", "\\ud83d\\ude0", "\\ud83d\\", "\\ud83d\\u", "a\\udfffb",
    "\\u12\\u0041",
])
def test_invalid_bodies_are_none(body):
    assert decoded(body) is None


@pytest.mark.parametrize("code", list(range(0x20)))
def test_raw_control_characters_are_invalid(code):
    assert decoded("a" + chr(code) + "b") is None
    assert decoded("\\u%04x" % code) == chr(code)


def test_python_json_accepts_lone_surrogates_but_the_decoder_does_not():
    assert json.loads('"\\ud800"') == "\ud800"   # why the oracle filters them
    assert json_string_decode("\\ud800") is None
    assert json_string_decode("x\\udc00") is None


def test_odd_input_does_not_crash():
    long_body = ("é😀\\n\\u00e9\\ud83d\\ude00" * 20000)
    assert decoded(long_body) == json.loads('"' + long_body + '"')
    assert decoded("\\" * 20000) == "\\" * 10000
    assert decoded("\\" * 20001) is None
    assert json_string_decode(b"") == ""


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([
    "a", "é", "😀", " ", '"', "\\", "\\\\", '\\"', "\\/", "\\b", "\\n", "\\u", "\\u00", "\\u0041",
    "\\ud83d", "\\ude00", "\\uDBFF", "\\uDFFF", "\\q", "\x00", "\x1f", "\x7f", "0", "f", "F", "g",
]) | st.text(st.characters(exclude_categories=("Cs",)), max_size=3), max_size=12).map("".join))
@example("\\ud83d\\ude00")
@example("\\ud83d\\u0041")
def test_decoding_matches_the_oracle(body):
    decoded(body)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=20), st.booleans())
def test_dumped_strings_decode_to_themselves(s, ensure_ascii):
    body = json.dumps(s, ensure_ascii=ensure_ascii)[1:-1]
    assert decoded(body) == s


# ---- json_outline

def both(text):
    """Native and oracle agree on `text` (str and bytes); returns the outline."""
    got = json_outline(text)
    assert got == outline(text), text
    assert json_outline(text.encode()) == got
    return got


def B(s):
    """Byte length (offsets in expectations are written through this)."""
    return len(s.encode())


def test_a_whole_call_object():
    text = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
    start = text.index("{", 1)
    assert both(text) == {"name": "get_weather", "arguments": (start, len(text) - 1), "close": len(text)}


@pytest.mark.parametrize("name_key", ["name", "tool_name"])
@pytest.mark.parametrize("args_key", ["arguments", "parameters"])
def test_name_and_argument_keys(name_key, args_key):
    text = '{"%s": "f", "%s": [1]}' % (name_key, args_key)
    assert both(text) == {"name": "f", "arguments": (text.index("["), text.index("]") + 1), "close": len(text)}


@pytest.mark.parametrize("key", ["Name", "names", "nam", "tool-name", "function", "args", "argument", "input"])
def test_other_keys_are_neither(key):
    assert both('{"%s": "f"}' % key) == {"name": None, "arguments": None, "close": len(key) + 9}


def test_the_first_occurrence_of_each_kind_counts():
    assert both('{"name": "f", "tool_name": "g"}')["name"] == "f"
    assert both('{"tool_name": "g", "name": "f"}')["name"] == "g"
    text = '{"arguments": 1, "parameters": [2], "arguments": 3}'
    assert both(text)["arguments"] == (14, 15)
    text = '{"parameters": [2], "arguments": 3}'
    assert both(text)["arguments"] == (15, 18)


@pytest.mark.parametrize("value", ["5", "null", "true", "[\"f\"]", "{\"a\": \"f\"}", "f"])
def test_a_non_string_name_never_counts(value):
    text = '{"name": %s, "name": "g", "arguments": {}}' % value
    got = both(text)
    assert got["name"] is None
    assert got["arguments"] is not None and got["close"] == len(text)


def test_a_name_that_does_not_decode_never_counts():
    for value in ['"a\\qb"', '"\\ud800"', '"a\x01b"', '"\\u12"']:
        text = '{"name": %s, "tool_name": "g"}' % value
        assert both(text) == {"name": None, "arguments": None, "close": len(text)}
    assert both('{"name": "a\\nb\\u00e9\\ud83d\\ude00"}')["name"] == "a\nbé😀"


def test_escaped_keys_count():
    assert both('{"na\\u006de": "f"}')["name"] == "f"
    assert both('{"\\u006e\\u0061\\u006d\\u0065": "f"}')["name"] == "f"
    assert both('{"tool\\u005fname": "f"}')["name"] == "f"
    assert both('{"arguments\\u0000": 1}')["arguments"] is None
    assert both('{"argu\\u006dents": 1}')["arguments"] == (len('{"argu\\u006dents": '), len('{"argu\\u006dents": 1'))
    # a key that does not decode is some other key, and reading goes on
    assert both('{"na\\qme": "x", "name": "f"}')["name"] == "f"
    assert both('{"na\\ud800me": "x", "name": "f"}')["name"] == "f"


def test_the_name_is_set_only_once_complete():
    assert both('{"name": "get_wea') == EMPTY
    assert both('{"name": "get_wea\\"')["name"] is None
    assert both('{"name": "get_weather"')["name"] == "get_weather"
    assert both('{"name"') == EMPTY
    assert both('{"name":') == EMPTY


def test_the_arguments_span_opens_at_the_first_byte_and_ends_when_complete():
    head = '{"name": "é", "arguments": '
    s = B(head)
    assert both(head)["arguments"] is None
    assert both(head + " ")["arguments"] is None
    assert both(head + "{")["arguments"] == (s, None)
    assert both(head + '{"a": "}')["arguments"] == (s, None)
    assert both(head + '{"a": "}"')["arguments"] == (s, None)
    assert both(head + '{"a": "}"}')["arguments"] == (s, s + B('{"a": "}"}'))
    assert both(head + '  [1, [2]')["arguments"] == (s + 2, None)
    assert both(head + '  [1, [2]]')["arguments"] == (s + 2, s + 2 + B("[1, [2]]"))


def test_containers_are_counted_by_depth_without_telling_kinds_apart():
    head = '{"arguments": '
    s = B(head)
    assert both(head + '[1}, "name": "f"}') == {"name": "f", "arguments": (s, s + 3), "close": B(head + '[1}, "name": "f"}')}
    assert both(head + '{"a": [1}}')["arguments"] == (s, s + B('{"a": [1}}'))
    assert both(head + '{"a": [1}')["arguments"] == (s, None)
    assert both(head + '{"a": "[{\\"x"}')["arguments"] == (s, s + B('{"a": "[{\\"x"}'))
    assert both(head + '{"a": "\\\\"}')["arguments"] == (s, s + B('{"a": "\\\\"}'))


def test_strings_end_at_the_unescaped_closing_quote():
    head = '{"arguments": '
    s = B(head)
    assert both(head + '"a\\"b"')["arguments"] == (s, s + 6)
    assert both(head + '"a\\"b')["arguments"] == (s, None)
    assert both(head + '"a\\\\"')["arguments"] == (s, s + 5)
    assert both(head + '"a\\')["arguments"] == (s, None)


@pytest.mark.parametrize("ws", sorted(UNICODE_WHITESPACE))
def test_scalars_end_at_a_separator_or_unicode_whitespace(ws):
    head = '{"arguments": '
    s = B(head)
    assert both(head + "12")["arguments"] == (s, None)
    assert both(head + "12" + ws)["arguments"] == (s, s + 2)
    assert both(head + "tru" + ws + "e")["arguments"] == (s, s + 3)
    for end in ",}]":
        assert both(head + "-1.5e3" + end)["arguments"] == (s, s + 6)
    assert both(head + "nul")["arguments"] == (s, None)
    assert both(head + 'x"y{z')["arguments"] == (s, None)
    assert both(head + 'x"y{z}')["arguments"] == (s, s + 5)
    # U+001C is no whitespace: it belongs to the scalar
    assert both(head + "1\x1c2")["arguments"] == (s, None)


@pytest.mark.parametrize("ws", sorted(UNICODE_WHITESPACE))
def test_whitespace_between_tokens_is_any_unicode_whitespace(ws):
    parts = ["{", '"name"', ":", '"f"', ",", '"arguments"', ":", "{}", "}"]
    text = ws + ws.join(parts)
    got = both(text)
    assert got["name"] == "f" and got["close"] == B(text)
    assert got["arguments"] is not None and got["arguments"][1] is not None


def test_the_close_offset_and_what_follows_it():
    assert both("{}") == {"name": None, "arguments": None, "close": 2}
    assert both(" \n{ } trailing") == {"name": None, "arguments": None, "close": 5}
    assert both('{"name": "f"}{"name": "g"}') == {"name": "f", "arguments": None, "close": 13}
    assert both('{"a": 1}')["close"] == 8
    assert both('{"a": 1 }')["close"] == 9


@pytest.mark.parametrize("text", ["", " ", "x", "[", '"{"', "\x1c{}", "\u200b{}", "1", "}", "[{}]"])
def test_no_object_no_outline(text):
    assert both(text) == EMPTY


@pytest.mark.parametrize("value", [",", "}", "]", ":"])
def test_a_value_starting_with_a_separator_stops_the_outline(value):
    assert both('{"a": %s "name": "f"}' % value) == EMPTY
    assert both('{"name": "f", "arguments": %s}' % value) == {"name": "f", "arguments": None, "close": None}


def test_a_lenient_comma_where_a_key_is_expected_is_skipped():
    text = '{, "name": "f",, ,"arguments": 1,}'
    assert both(text) == {"name": "f", "arguments": (text.index("1"), text.index("1") + 1), "close": len(text)}
    assert both("{,}")["close"] == 3


@pytest.mark.parametrize("text", [
    '{"a" "name": "f"}', '{"a" , "name": "f"}', '{"a" }', "{name: 1}", "{'name': 'f'}", '{"a": 1 : 2}',
    '{"a": 1 ]', '{1: 2}', '{[]}', '{"a": 1 x}',
])
def test_anything_unreadable_where_a_key_or_colon_belongs_stops_the_outline(text):
    assert both(text)["close"] is None


def test_members_need_no_comma_between_them():
    assert both('{"a": 1 "name": "f"}') == {"name": "f", "arguments": None, "close": 20}


def test_outline_odd_input_does_not_crash():
    big = '{"name": "f", "arguments": ' + json.dumps({"k%d" % i: ["é😀" * 20, {"x": [i]}] for i in range(3000)})
    got = both(big[:-1])
    assert got["arguments"] == (27, None)
    assert both(big)["arguments"] == (27, B(big))
    got = both(big + "}")
    assert got["arguments"] == (27, B(big)) and got["close"] == B(big) + 1
    both("{" + "[" * 10000)
    both('{"arguments": ' + "[" * 10000 + "]" * 10000 + "}")
    both("{" + '"' * 10001)
    both('{"name": "' + "\\" * 10001)


# ---- every prefix of call objects

CALLS = [
    '{"name": "get_weather", "arguments": {"city": "Paris", "days": [1, 2]}}',
    '{"arguments": {"q": "a \\"b\\" {c}"}, "name": "search"}',
    ' \n{"tool_name": "é😀", "parameters": [1, {"x": "]"}], "extra": null}',
    '{"name": "f", "arguments": 12 , "name": "g"}',
    '{"na\\u006de": "f\\u00e9", "arguments": "{\\"a\\": 1}"}',
    '{"name": "f",\u3000"arguments":\u2028true\u205f}',
    '{, "name": "f" "arguments": {"a": [1}}, }',
    '{"id": "x", "type": "function", "name": 5, "arguments": {}}',
    '{"name": "f", "arguments": {}}  \n</tool_call>',
]


@pytest.mark.parametrize("call", CALLS)
def test_every_prefix_of_call_objects_matches_the_oracle(call):
    for i in range(len(call) + 1):
        both(call[:i])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=8)
KEYS = st.sampled_from(["name", "tool_name", "arguments", "parameters", "id", "type", "na\\u006de", "x"])
SPACES = st.text(st.sampled_from(" \n\t\u3000\x85"), max_size=2)


@st.composite
def call_objects(draw):
    members = []
    for _ in range(draw(st.integers(0, 4))):
        key = draw(KEYS)
        value = draw(st.one_of(json_values, st.text(max_size=8)))
        ensure_ascii = draw(st.booleans())
        raw = json.dumps(value, ensure_ascii=ensure_ascii)
        if draw(st.integers(0, 9)) == 0:
            raw = draw(st.sampled_from([",", "}", "]", ":", "tru", '"\\q"', '"\\ud800"']))
        members.append('"%s"%s:%s%s' % (key, draw(SPACES), draw(SPACES), raw))
    sep = draw(st.sampled_from([", ", ",", ",,", " ", ",\n"]))
    text = draw(SPACES) + "{" + draw(SPACES) + sep.join(members) + draw(SPACES) + "}" + draw(st.sampled_from(["", " x", "}"]))
    if draw(st.integers(0, 4)) == 0 and text:
        at = draw(st.integers(0, len(text) - 1))
        text = text[:at] + draw(st.sampled_from(list('{}[],:"\\ x1'))) + text[at + 1:]
    return text


@settings(max_examples=300, deadline=None)
@given(call_objects())
@example('{"name": "f", "arguments": {"a": [1}}}')
@example('{"arguments": tru\u3000, "name": "f"}')
def test_every_prefix_of_generated_call_objects_matches_the_oracle(text):
    for i in range(len(text) + 1):
        both(text[:i])
