"""Value typing (SPEC §5.1, §5.2): unit tests of every rule and of the design notes' examples, and
differential tests of the core (pyx/values/typing.pxi) against the whole-buffer oracle
(tests/oracles/value.py) over hand-picked and generated texts under every kind, with the
properties every result has: it reads back as one JSON value, a declared string decodes to its
text, a nullable one to null or its text."""
import json
import random
import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import symphony
import symphony._native as native
from symphony.events import ToolCallArguments
from symphony.value import NULL_WORDS, Declared, Kind, LiteralSyntax, python_literal, reads_back, to_json
from tests.oracles import value as oracle

KINDS = (None, Kind.STRING, Kind.NULLABLE_STRING, Kind.INTEGER, Kind.ARRAY, Kind.OBJECT, Kind.NUMBER)
ORACLE_KIND = {None: None, Kind.STRING: oracle.STRING, Kind.NULLABLE_STRING: oracle.NULLABLE_STRING,
               Kind.INTEGER: oracle.INTEGER, Kind.ARRAY: oracle.ARRAY, Kind.OBJECT: oracle.OBJECT,
               Kind.NUMBER: oracle.NUMBER}
KIND_OF_ORACLE = {v: k for k, v in ORACLE_KIND.items()}
# the kinds a text is inferred under unless it is a string holding a value of the kind
INFERRED = (None, Kind.ARRAY, Kind.OBJECT, Kind.NUMBER)
UNWRAPPING = (Kind.INTEGER, Kind.NUMBER, Kind.ARRAY, Kind.OBJECT)
UNICODE_SPACES = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000"
DEEP = 126        # the deepest a value can nest and still read back inside the arguments object


def depth_of(value):
    """Container nesting of a decoded JSON value (a scalar: 0)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth + 1)
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def check_result(text, kind, got):
    """The properties of every result (SPEC §5.2)."""
    assert reads_back(got), (text, kind, got)
    assert oracle.reads_back(got), (text, kind, got)
    decoded = json.loads(got)
    # ... and inside the arguments object, within serde_json's 127 levels for the document.
    assert depth_of(decoded) + 1 <= 127
    json.loads('{"p": ' + got + "}")
    if kind == Kind.STRING:
        assert decoded == text
    elif kind == Kind.NULLABLE_STRING:
        assert decoded == text or (decoded is None and text in NULL_WORDS)


def typed(text, kind=None):
    """Native and oracle agree on `text` under `kind`, the result has the properties; returns it."""
    got = to_json(text, kind)
    assert got == oracle.to_json(text, ORACLE_KIND[kind]), (text, kind)
    check_result(text, kind, got)
    return got


SYNTAXES = (LiteralSyntax.VALUE, LiteralSyntax.ARGUMENT, LiteralSyntax.ARGUMENT | LiteralSyntax.SLIPS)


def literal(text, syntax=LiteralSyntax.VALUE):
    got = python_literal(text, syntax)
    assert got == oracle.python_literal(text, int(syntax)), (text, syntax)
    return got


def literal_in_every_syntax(text):
    """The native reader and the oracle agree on `text` in every syntax; the reading of a narrower
    syntax stands in a wider one."""
    got = [literal(text, syntax) for syntax in SYNTAXES]
    for narrow, wide in zip(got, got[1:]):
        assert narrow is None or narrow == wide, (text, got)
    return got


def read(text):
    got = reads_back(text)
    assert got == oracle.reads_back(text), text
    return got


def tools_of(*functions):
    """OpenAI-style tools: (name, {param: schema}) pairs."""
    return [{"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": props}}}
            for name, props in functions]


def kind_of(schema):
    """Native and oracle agree on the Kind `schema` declares; returns it."""
    got = Declared(tools_of(("f", {"p": schema}))).kind("f", "p")
    assert got == KIND_OF_ORACLE[oracle.kind_of(schema)], schema
    return got


# ---- The module's surface

def test_kind_is_derived_from_the_core_enum():
    assert [(k.name, int(k)) for k in Kind] == [
        ("STRING", 1), ("NULLABLE_STRING", 2), ("INTEGER", 3), ("ARRAY", 4), ("OBJECT", 5), ("NUMBER", 6)]
    for k in Kind:
        assert int(getattr(native.Kind, "KIND_" + k.name)) == int(k)
    assert int(native.Kind.KIND_NONE) == 0 and not hasattr(Kind, "NONE")


def test_null_words_are_what_a_nullable_string_reads_as_null():
    assert NULL_WORDS == ("null", "None")
    for word in NULL_WORDS:
        assert typed(word, Kind.NULLABLE_STRING) == "null"
    for near in ("NULL", "none", "Null", " null", "null ", "nul", "Nonee", "nil", ""):
        assert typed(near, Kind.NULLABLE_STRING) == json.dumps(near, ensure_ascii=False)


def test_to_json_takes_a_kind_or_none_and_refuses_other_codes():
    assert to_json("5", Kind.INTEGER) == to_json("5", 3) == "5"
    assert native.value_json("5") == "5"
    assert to_json('"5"', 6) == "5"
    with pytest.raises(ValueError):
        to_json("5", 7)
    with pytest.raises(ValueError):
        to_json("5", -1)
    with pytest.raises(TypeError):
        to_json(b"5")


# ---- Strings (SPEC §5.3's escaping)

@pytest.mark.parametrize("code", range(0x80))
def test_each_ascii_byte_is_escaped_as_serde_json_does(code):
    c = chr(code)
    want = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}.get(c)
    if want is None:
        want = "\\u%04x" % code if code < 0x20 else c
    assert native.json_string_body(c) == want
    assert native.json_string_body(c.encode()) == want.encode()
    assert typed(c, Kind.STRING) == '"' + want + '"'


def test_non_ascii_slash_and_del_are_literal():
    text = "é/ü😀\x7f\u2028\u3000"
    assert native.json_string_body(text) == text
    assert native.json_string_body("a\x00b\x1fc") == "a\\u0000b\\u001fc"


@given(st.binary(max_size=60), st.lists(st.integers(0, 60), max_size=6))
@example(b"\xc3\xa9\"\\\n\x00", [1, 3])
def test_string_bodies_of_any_split_join_to_the_whole(raw, cuts):
    cuts = sorted({min(c, len(raw)) for c in cuts} | {0, len(raw)})
    pieces = [raw[a:b] for a, b in zip(cuts, cuts[1:])]
    assert b"".join(native.json_string_body(piece) for piece in pieces) == native.json_string_body(raw)


@given(st.text(max_size=60), st.data())
def test_string_bodies_of_a_text_split_anywhere_join_to_the_whole(text, data):
    raw = text.encode()
    cut = data.draw(st.integers(0, len(raw)))
    joined = native.json_string_body(raw[:cut]) + native.json_string_body(raw[cut:])
    assert joined.decode() == native.json_string_body(text) == json.dumps(text, ensure_ascii=False)[1:-1]


# ---- Declared string (SPEC §5.2)

@pytest.mark.parametrize("text", [
    '"exact phrase"', "  def f():\n    return 1\n", "file contents\n", "&lt;b&gt; &amp; &quot;", "null",
    "None", "123", "true", "[1, 2]", "", " ", " spaces ", "\u3000x\u3000", "line\r\nline", "tab\there",
    "'quoted'", "\\n", "é😀", "<parameter=x>", '"\\C|\\."',
])
def test_a_declared_string_is_its_text_every_byte(text):
    assert typed(text, Kind.STRING) == json.dumps(text, ensure_ascii=False)


def test_a_nullable_string_is_null_only_for_the_null_words():
    assert typed("null", Kind.NULLABLE_STRING) == "null"
    assert typed("None", Kind.NULLABLE_STRING) == "null"
    assert typed("12345", Kind.NULLABLE_STRING) == '"12345"'     # Optional[str] zip code
    assert typed("true", Kind.NULLABLE_STRING) == '"true"'
    assert typed("Paris", Kind.NULLABLE_STRING) == '"Paris"'
    assert typed("", Kind.NULLABLE_STRING) == '""'


# ---- Declared integer

@pytest.mark.parametrize("text, want", [
    ("0", "0"), ("7", "7"), ("007", "7"), ("+5", "5"), ("-5", "-5"), ("-007", "-7"), ("000", "0"),
    ("-000", "-0"), ("+0", "0"), ("+000", "0"), (" 150 ", "150"), ("\u3000 42\xa0", "42"),
    ("\t-3\n", "-3"), ("9007199254740993", "9007199254740993"),
    ("+9223372036854775808", "9223372036854775808"), ("18446744073709551616", "18446744073709551616"),
    ("-9223372036854775809", "-9223372036854775809"),
])
def test_a_declared_integer_is_its_digits(text, want):
    assert typed(text, Kind.INTEGER) == want


@pytest.mark.parametrize("text, want", [
    ("1.5", "1.5"), ("1e3", "1e3"), ("True", "true"), ("None", "null"), ("- 5", "-5"), ("1_000", "1000"),
    ("0x1F", '"0x1F"'), ("5.", '"5."'), ("--5", '"--5"'), ("+", '"+"'), ("-", '"-"'), ("", '""'),
    ("  ", '"  "'), (" 1 2 ", '" 1 2 "'), ("5 apples", '"5 apples"'), ("١٢", '"١٢"'), ("[1]", "[1]"),
    ("+5.0", '"+5.0"'), ("\x0012", '"\\u000012"'),
])
def test_a_declared_integer_that_is_no_integer_is_inferred(text, want):
    assert typed(text, Kind.INTEGER) == want


def test_a_declared_integer_is_a_number_only_while_a_double_can_hold_it():
    assert typed("9" * 308, Kind.INTEGER) == "9" * 308
    assert typed("1" + "0" * 308, Kind.INTEGER) == "1" + "0" * 308     # 1e308
    assert typed("17976931348623157" + "0" * 292, Kind.INTEGER) == "17976931348623157" + "0" * 292
    assert typed("2" + "0" * 308, Kind.INTEGER) == '"' + "2" + "0" * 308 + '"'
    big = "1" * 400
    assert typed(big, Kind.INTEGER) == '"' + big + '"'
    assert typed(" +" + big + " ", Kind.INTEGER) == '" +' + big + ' "'   # the untrimmed text
    assert typed("0" * 400 + "5", Kind.INTEGER) == "5"


# ---- Inference

@pytest.mark.parametrize("text, want", [
    ("[1, 2.5]", "[1, 2.5]"), (" [60,30] ", "[60,30]"), ("1.50", "1.50"), ('{"a": 1}', '{"a": 1}'),
    ('{"a":1}', '{"a":1}'), ("9007199254740993", "9007199254740993"), ("-0", "-0"), ("1E+2", "1E+2"),
    ("1e-400", "1e-400"), ("0e400", "0e400"), ("1e400", '"1e400"'), ("-1e400", '"-1e400"'),
    ("NaN", '"NaN"'), ("Infinity", '"Infinity"'), ("-Infinity", '"-Infinity"'), ("inf", '"inf"'),
    ('"\\ud800"', '"\\"\\\\ud800\\""'), ('"\\ud83d\\ude00"', '"\\ud83d\\ude00"'), ('"a"', '"a"'),
    ("True", "true"), ("False", "false"), ("None", "null"), ("true", "true"), ("null", "null"),
    ("'\\d'", '"\\\\d"'), ("{1: 'a'}", '{"1": "a"}'), ("(1,)", "[1]"), ("(1)", "1"), ("()", "[]"),
    ("[1, 2,]", "[1, 2]"), ("{'a': 1,}", '{"a": 1}'), ("['a', 'b']", '["a", "b"]'),
    ("{'a': True, 'b': [None]}", '{"a": true, "b": [null]}'), (" spaces ", '" spaces "'),
    ("Paris", '"Paris"'), ("007", '"007"'), ("+5", '"+5"'), ("hello world", '"hello world"'),
    ('{"a": NaN}', '"{\\"a\\": NaN}"'), ("[1, 2, 3", '"[1, 2, 3"'), ("'a'", '"a"'), ("", '""'),
    ("\u3000[1]\xa0", "[1]"), ("\x0b[1]", "[1]"), ("\u2028True", "true"), ("[1,\xa02]", '"[1,\xa02]"'),
    ("&lt;b&gt;", '"&lt;b&gt;"'), ('"\\u00e9"', '"\\u00e9"'), ("1_000", "1000"), ("{1: 1e400}", '"{1: 1e400}"'),
    ('"\\C|\\."', '"\\\\C|\\\\."'),    # a quoted string whose escapes fail JSON reads as Python reads it
])
def test_any_other_value_is_inferred(text, want):
    for kind in INFERRED:
        assert typed(text, kind) == want


def test_a_declared_number_array_or_object_is_inferred_where_no_string_holds_one():
    declared = Declared(tools_of(("f", {"n": {"type": "number"}, "b": {"type": "boolean"}, "a": {"type": "array"},
                                        "o": {"type": "object"}})))
    assert [declared.kind("f", key) for key in "nbao"] == [Kind.NUMBER, None, Kind.ARRAY, Kind.OBJECT]
    for text in ("1", "true", "[1]", '{"a": 1}', "x", "None", "(1, 2)", '"x"', "'y'", '"[1, "', "1e400"):
        for kind in (Kind.NUMBER, Kind.ARRAY, Kind.OBJECT):
            assert typed(text, kind) == typed(text, None)


# ---- A string where the schema declares a number or a container is read inside
# (the incumbents: vLLM's schema coercion (tool_parsers/utils.py coerce_to_schema_type) reads a
# string value's text once, as JSON, so a quoted number stays a string and a JSON string holding
# JSON stays that string; its Qwen3-Coder parser decodes a string holding a Python dict once more.
# SGLang's GLM detectors read a value's text as JSON, then as the body of a JSON string (escaped
# JSON), then as a Python literal, and turn a string into a number where the schema says number.)

@pytest.mark.parametrize("text, kind, want", [
    ('"5"', Kind.NUMBER, "5"), ('"5"', Kind.INTEGER, "5"), ('"2.50"', Kind.NUMBER, "2.50"),
    ('"-3e2"', Kind.NUMBER, "-3e2"), ('"2.5"', Kind.INTEGER, "2.5"), ('"007"', Kind.INTEGER, "7"),
    ('"+5"', Kind.INTEGER, "5"), ('" 5 "', Kind.NUMBER, "5"), (' "5"\n', Kind.NUMBER, "5"), ("'5'", Kind.NUMBER, "5"),
    ('"\\u0035"', Kind.NUMBER, "5"), ('"9007199254740993"', Kind.INTEGER, "9007199254740993"),
    ('"-0"', Kind.NUMBER, "-0"),
])
def test_a_quoted_number_is_a_number_where_the_schema_says_number_or_integer(text, kind, want):
    # vLLM keeps each the string it is; SGLang's GLM reads `"5"` as 5 under number (not integer)
    assert typed(text, kind) == want


@pytest.mark.parametrize("text, kind", [
    ('"5"', None), ('"5"', Kind.ARRAY), ('"5"', Kind.OBJECT), ('"007"', Kind.NUMBER),
    ('"+5"', Kind.NUMBER), ('"1e400"', Kind.NUMBER), ('"1e400"', Kind.INTEGER), ('"NaN"', Kind.NUMBER),
    ('"five"', Kind.INTEGER), ('""', Kind.NUMBER), ('" "', Kind.INTEGER), ('"[5]"', Kind.NUMBER),
    ('"\\"5\\""', Kind.NUMBER), ('"5', Kind.NUMBER), ('"5" "6"', Kind.NUMBER), ('"0x1F"', Kind.INTEGER),
    ('"1_000"', Kind.NUMBER), ('"5."', Kind.NUMBER),
])
def test_a_string_that_holds_no_number_stays_what_inference_reads(text, kind):
    assert typed(text, kind) == typed(text, None)


def test_a_declared_string_keeps_the_quotes_around_a_number_or_a_container():
    for text in ('"5"', '"[1, 2]"', '[{\\"id\\": 1}]', "'5'"):
        assert typed(text, Kind.STRING) == typed(text, Kind.NULLABLE_STRING) == json.dumps(text)


@pytest.mark.parametrize("text, kind, want", [
    ('"[1, 2]"', Kind.ARRAY, "[1, 2]"), ('"{\\"a\\": 1}"', Kind.OBJECT, '{"a": 1}'),
    ("\"{'key': 'value', 'n': 1}\"", Kind.OBJECT, '{"key": "value", "n": 1}'),    # vLLM's Qwen3-Coder test
    ("'[1, 2]'", Kind.ARRAY, "[1, 2]"), ('"(1, 2)"', Kind.ARRAY, "[1, 2]"), ('" [1] "', Kind.ARRAY, "[1]"),
    ('"[\\"a\\",\\n\\"b\\"]"', Kind.ARRAY, '["a",\n"b"]'), ("'{\"a\": None}'", Kind.OBJECT, '{"a": null}'),
])
def test_a_double_encoded_array_or_object_is_decoded(text, kind, want):
    assert typed(text, kind) == want


@pytest.mark.parametrize("text, kind, want", [
    ('[{\\"id\\": \\"1\\"}]', Kind.ARRAY, '[{"id": "1"}]'),                  # SGLang's GLM tests
    ('[{\\"task\\": \\"C:\\\\\\\\Users\\"}]', Kind.ARRAY, '[{"task": "C:\\\\Users"}]'),
    ('[{\\"task\\": \\"Print \\\\\\\\n\\"}]', Kind.ARRAY, '[{"task": "Print \\\\n"}]'),
    ('{\\"a\\": [1, \\"b\\"]}', Kind.OBJECT, '{"a": [1, "b"]}'), ('[\\"a\\",\\n 1]', Kind.ARRAY, '["a",\n 1]'),
    ("{\\'a\\': 1}", Kind.OBJECT, '"{\\\\\'a\\\\\': 1}"'),      # \\' is no JSON escape: the text
])
def test_escaped_json_of_an_array_or_object_is_decoded(text, kind, want):
    assert typed(text, kind) == want


@pytest.mark.parametrize("text, kind", [
    ('"[1, 2]"', Kind.OBJECT), ('"{\\"a\\": 1}"', Kind.ARRAY), ('"[1, 2]"', None), ('"[1, 2"', Kind.ARRAY),
    ('"\\"[1]\\""', Kind.ARRAY), ('"[1e400]"', Kind.ARRAY), ('"[1, 2]"', Kind.INTEGER), ('"[1, 2]"', Kind.NUMBER),
    ('[{\\"id\\": 1}]', Kind.OBJECT), ('[{\\"id\\": 1}]', None), ('[{\\"id\\": 1}', Kind.ARRAY),
    ('[{\\"id\\": \\"\\ud800\\"}]', Kind.ARRAY), ('[{"id": \\"1\\"}]', Kind.ARRAY), ('[1, \\"a\\"\n]', Kind.ARRAY),
    ('\\"[1]\\"', Kind.ARRAY), ('[\\q]', Kind.ARRAY), ('"' + "[" * 127 + "]" * 127 + '"', Kind.ARRAY),
    ("[" * 127 + "\\\"a\\\"" + "]" * 127, Kind.ARRAY),
])
def test_a_string_that_holds_no_such_container_stays_what_inference_reads(text, kind):
    assert typed(text, kind) == typed(text, None)


@pytest.mark.parametrize("depth", range(1, 141))
def test_nesting_is_json_only_as_deep_as_the_arguments_object_can_hold_it(depth):
    array = "[" * depth + "]" * depth
    obj = '{"a": ' * depth + "1" + "}" * depth
    mixed = "".join("[" if d % 2 else '{"k": ' for d in range(depth)) + "0" + "".join(
        "]" if d % 2 else "}" for d in reversed(range(depth)))
    for text in (array, obj, mixed):
        assert read(text) == (depth <= DEEP)
        want = text if depth <= DEEP else json.dumps(text)
        for kind in INFERRED + (Kind.INTEGER,):
            assert typed(text, kind) == want
    # A Python literal is read up to 128 deep, and is JSON only where its JSON reads back.
    py = "[" * depth + "None" + "]" * depth
    assert (literal(py) is not None) == (depth <= 128)
    assert typed(py) == (("[" * depth + "null" + "]" * depth) if depth <= DEEP else json.dumps(py))


# ---- Reading back

@pytest.mark.parametrize("text", [
    "0", "-0", "1.5", "1e5", "1E-5", "1e+5", "-1.5e-300", "1e-400", "0e99999", "1e308", "1.7976931348623157e308",
    "123456789012345678901234567890", '"a"', '""', '"\\u0000"', '"\\ud83d\\ude00"', '"\\/"', '"\x7f\u2028"',
    "true", "false", "null", "[]", "{}", "[ ]", "{ }", '{"a": [1, {"b": null}]}', " \t\n\r1\r\n\t ",
    '{"a": 1, "a": 2}', '{"": 0}', "[1,2 , 3]", '{"\\ud83d\\ude00": 1}',
])
def test_what_reads_back(text):
    assert read(text)


@pytest.mark.parametrize("text", [
    "", " ", "1 2", "01", "-", "+1", "1.", ".5", "1e", "1e+", "0x1", "NaN", "Infinity", "-Infinity", "nan",
    "1e400", "-1e400", "1.7976931348623159e308", "9" * 400, "1" + "0" * 308 + ".5e1", "True", "None", "tru",
    "truee", "nul", "[1,]", "{,}", '{"a":1,}', "[1 2]", '{"a" 1}', '{"a":}', "{1: 2}", "{'a': 1}", "'a'",
    '"\\ud800"', '"\\udc00"', '"\\ud800\\u0041"', '"\\ud800\\ud800\\udc00"', '"\\ud800x"', '"\\q"', '"\\u12"',
    '"\\u12g4"', '"a\nb"', '"\x00"', '"\x1f"', '"a', '"\\', "[", "]", "[1]]", "{", '{"a": 1', "\ufeff1", "1\xa0",
    "\xa01", "\u3000[]", "[1]\x0b", '{"\\ud800": 1}', '"\\U00000041"', "[01]", "-01", "1.5.5", "--1", "[-]",
])
def test_what_does_not_read_back(text):
    assert not read(text)


# ---- The Python-literal reader

@pytest.mark.parametrize("text, want", [
    ("None", "null"), ("True", "true"), ("False", "false"), ("null", "null"), ("true", "true"),
    ("false", "false"), ("'a'", '"a"'), ('"a"', '"a"'), ("''", '""'), ("'it\"s'", '"it\\"s"'),
    ('"it\'s"', '"it\'s"'), ("'\\n\\t\\r\\a\\b\\f\\v'", '"\\n\\t\\r\\u0007\\b\\f\\u000b"'),
    ("'\\\\'", '"\\\\"'), ("'\\''", '"\'"'), ("'\\\"'", '"\\""'), ("'\\101\\0\\7\\12'", '"A\\u0000\\u0007\\n"'),
    ("'\\1234'", '"S4"'), ("'\\777'", '"\u01ff"'), ("'\\8'", '"\\\\8"'), ("'\\x41\\xe9'", '"Aé"'),
    ("'\\u00e9\\u4e2d'", '"é中"'), ("'\\U0001F600'", '"😀"'), ("'\\U0010ffff'", '"\U0010ffff"'),
    ("'a\\\nb'", '"ab"'), ("'a\\\r\nb'", '"ab"'), ("'a\\\rb'", '"ab"'), ("'\\d'", '"\\\\d"'),
    ("'\\N{DASH}'", '"\\\\N{DASH}"'), ("'\\é'", '"\\\\é"'), ("'a\tb\x00'", '"a\\tb\\u0000"'),
    ("'é😀/'", '"é😀/"'), ("0", "0"), ("-0", "-0"), ("12", "12"), ("-  5", "-5"), ("-\t5", "-5"),
    ("1_000", "1000"), ("1__0_", "10"), ("1.5", "1.5"), ("1.50", "1.50"), ("1e5", "1e5"), ("1E+5", "1E+5"),
    ("1.5e-3", "1.5e-3"), ("1_0.5_0e1_0", "10.50e10"), ("1e400", "1e400"), ("[]", "[]"), ("()", "[]"),
    ("{}", "{}"), ("[1, 2]", "[1, 2]"), ("[1,2]", "[1, 2]"), ("( 1 , )", "[1]"), ("(1)", "1"),
    ("((1))", "1"), ("(())", "[]"), ("((),)", "[[]]"), ("(1, 2)", "[1, 2]"), ("[(1, 2), (3,)]", "[[1, 2], [3]]"),
    ("{1: 'a'}", '{"1": "a"}'), ("{None: 1}", '{"null": 1}'), ("{True: False}", '{"true": false}'),
    ("{1.5: 2}", '{"1.5": 2}'), ("{(1, 'a'): 2}", '{"[1, \\"a\\"]": 2}'), ("{'a': 1, 'a': 2}", '{"a": 1, "a": 2}'),
    ("{'a': [1, (2,)], 'b': {}}", '{"a": [1, [2]], "b": {}}'), ("[1,]", "[1]"), ("{'a': 1,}", '{"a": 1}'),
    ("[ 1 ,\t2\n]", "[1, 2]"), ("\x0b[1]\x0c", "[1]"), (" None ", "null"), ("{'\\n': '\\t'}", '{"\\n": "\\t"}'),
    ("{('\\n',): 1}", '{"[\\"\\\\n\\"]": 1}'), ("{[1]: 2}", '{"[1]": 2}'), ("{{}: 1}", '{"{}": 1}'),
    ('{"a": [1, 2.5]}', '{"a": [1, 2.5]}'), ("-1", "-1"),
])
def test_python_literals(text, want):
    assert literal(text) == want


@pytest.mark.parametrize("text", [
    "", " ", "none", "TRUE", "Nonesuch", "None_", "None1", "Truex", "None.", "nan", "inf", "x", "'a", "'a\"",
    "'a\nb'", "'a\rb'", "'\\'", "'\\x4'", "'\\x4g'", "'\\u12'", "'\\U0001F60'", "'\\U00110000'", "'\\ud800'",
    "'\\udfff'", "'\\ud83d\\ude00'", "'a' 'b'", "'''a'''", "u'x'", "b'x'", "r'x'", "+5", "007", "0x1F", ".5",
    "5.", "1j", "1L", "0b1", "1e", "1e+", "-", "- ", "--5", "-None", "_1", "1.5.5", "[,]", "[1,,2]", "(,)",
    "{1}", "{1:}", "{:1}", "{1: 2 3}", "[1 2]", "[1)", "(1]", "[", "]", "(", "{", "[1", "1, 2", "1,",
    "[1,\xa02]", "\xa01", "{'a' 1}", "{'a': 1,,}", "[1]]", "(1))", "[1] [2]", "{'a': }", "{,}", "{'a', 'b'}",
    "set()", "[*a]", "f(1)",
])
def test_not_python_literals(text):
    assert literal(text) is None


def test_a_literal_nests_at_most_128_deep():
    for opener, closer in (("[", "]"), ("(", ",)"), ("{1: ", "}")):
        assert literal(opener * 128 + "1" + closer * 128) is not None
        assert literal(opener * 129 + "1" + closer * 129) is None
    assert literal("(" * 128 + "1" + ")" * 128) == "1"
    assert literal("(" * 129 + "1" + ")" * 129) is None


@pytest.mark.parametrize("text,want", [
    ("{'urgent', 'bug'}", '["urgent", "bug"]'), ("{1}", "[1]"), ("{1, }", "[1]"), ("[{1, (2,)}]", "[[1, [2]]]"),
    ("{'a': {'b'}}", '{"a": ["b"]}'), ("{}", "{}"), ("f'hello'", '"hello"'), ('F"{{x}}"', '"{x}"'),
    ("rf'\\d{{2}}'", '"\\\\d{2}"'), ("u'x'", '"x"'), ("r'a\\nb'", '"a\\\\nb"'), ("R'\\''", '"\\\\\'"'),
    ("'a' 'b'", '"ab"'), ("'a'\n  \"b\" f'c'", '"abc"'), ("{'a' 'b': 1}", '{"ab": 1}'), ("+7", "7"), ("+ 1.5", "1.5"),
    ("-7", "-7"), ("1_0.5", "10.5"), ("00", "0"), ("0_0", "0"), ("007.5", "7.5"), (".5", "0.5"), ("5.", "5.0"), ("-5.e3", "-5.0e3"),
    ("00e5", "0e5"), ("[+1, -2, .5]", "[1, -2, 0.5]"),
])
def test_python_literals_as_a_call_argument(text, want):
    """A pythonic call's argument is read as Python reads it: sets (as lists), string prefixes and
    joined strings, a `+` sign, Python's own number forms; a value's text is not (LiteralSyntax)."""
    assert literal_in_every_syntax(text)[1:] == [want, want]
    if text not in ("{}", "-7", "1_0.5", "00e5"):
        assert literal(text) is None


@pytest.mark.parametrize("text", [
    "f'{x}'", "f'}'", "f'{'", "b'x'", "rb'x'", "Br'x'", "ur'x'", "bu'x'", "fb'x'", "rfb'x'", "'a' b'c'", "07",
    "-007", "0_7", "1j", "1L", ".", "+", "e5", "'a\nb'", "{1: 2, 3}", "{1, 2: 3}", "{**a}",
    "'a' 'b", "'a' x", "f 'x'",
])
def test_not_python_literals_as_a_call_argument(text):
    assert literal(text, LiteralSyntax.ARGUMENT) is None


@pytest.mark.parametrize("text,want", [
    ("0x10", "16"), ("0X1f", "31"), ("0o17", "15"), ("0O7", "7"), ("0b101", "5"), ("0B0", "0"), ("0x_ff", "255"),
    ("0xff_ff", "65535"), ("0b1_0", "2"), ("0x000", "0"), ("-0x10", "-16"), ("+0o10", "8"), ("0x1e5", "485"),
    ("0xFFFFFFFFFFFFFFFFFFFF", "1208925819614629174706175"), ("[0x1, -0b1]", "[1, -1]"),
    ("--1", "1"), ("+-1", "-1"), ("-+1", "-1"), ("---2.5", "-2.5"), ("- -1", "1"), ("-\t+ 1e3", "-1e3"),
    ("--.5", "0.5"), ("-(1)", "-1"), ("-(-1)", "1"), ("+(2.5)", "2.5"), ("-( (0x10) )", "-16"), ("-(-(1))", "1"),
    ("- (1)", "-1"), ("[-(1), (-2), --3]", "[-1, -2, 3]"), ("{-(1): 2}", '{"-1": 2}'), ("1_000", "1000"),
    ("1_0.5_0e1_0", "10.50e10"), (".5_5", "0.55"),
])
def test_python_numbers_as_a_call_argument(text, want):
    """Python's integers in base 16, 8 and 2, its signs applied in turn (also to a number in
    parentheses) and its underscores, each read as the value Python gives, as a pythonic call's
    argument: vLLM's pythonic, llama4_pythonic, olmo3 and lfm2 parsers and SGLang's lfm2 detector
    read them so (Python's ast; SGLang's pythonic reads the based integers and no sign at all). A
    value's text reads none of them (SPEC §5.2)."""
    assert literal(text, LiteralSyntax.ARGUMENT) == want
    assert literal(text, LiteralSyntax.ARGUMENT | LiteralSyntax.SLIPS) == want


@pytest.mark.parametrize("text", [
    "0x", "0x_", "0x__1", "0x1_", "0_x1", "0o8", "0b2", "0b12", "0x1g", "0x1.5", "0x1e+5", "0x1p3", "_1",
    "-(1,)", "-()", "-(True)", "-('a')", "-([1])", "-(None)", "-(1)(2)", "- - ", "-(", "+-", "0x" + "f" * 3572,
    "-inf", "inf", "nan", "1e", "--None",
])
def test_python_numbers_python_refuses_as_a_call_argument(text):
    """What Python refuses (a based integer's underscores out of place, a digit beyond its base, a
    sign before no number, an integer longer than it writes in decimal) or reads as no JSON number
    (`inf` is a name) is no literal; the incumbents skip such a call. (A decimal's underscores are
    removed wherever they stand, in every syntax, as SPEC §5.2 reads a value's text: `1__0` is 10,
    which Python refuses.)"""
    assert literal(text, LiteralSyntax.ARGUMENT) is None


def test_a_based_integer_is_read_as_long_as_python_writes_it_in_decimal():
    """Python writes an integer of up to 4,300 digits (sys.int_max_str_digits); so does the reader."""
    assert len(literal("0x" + "f" * 3571, LiteralSyntax.ARGUMENT)) == 4300
    assert literal("0b" + "1" * 14280, LiteralSyntax.ARGUMENT) == str(2 ** 14280 - 1)


@pytest.mark.parametrize("text,want", [
    ("07", "7"), ("-007", "-7"), ("0_7", "7"), ("[07, 0]", "[7, 0]"), ("'line one\nline two'", '"line one\\nline two"'),
    ("'a\r\nb'", '"a\\r\\nb"'), ("r'a\nb'", '"a\\nb"'), ("f'x\ny'", '"x\\ny"'),
])
def test_python_literals_a_model_slips_into(text, want):
    """What LFM2 writes that Python refuses, read as meant under LiteralSyntax.SLIPS: a raw line
    break in a string, a zero-padded integer."""
    assert literal(text, LiteralSyntax.ARGUMENT) is None
    assert literal(text, LiteralSyntax.ARGUMENT | LiteralSyntax.SLIPS) == want


# ---- Schemas: the Kind a parameter declares (SPEC §5.1)

ALIASES = ["str", "int", "int32", "uint8", "float", "float64", "long", "bool", "dict", "list", "String",
           "Integer", " integer ", "INTEGER", "string ", "text"]


@pytest.mark.parametrize("schema, want", [
    ({"type": "string"}, Kind.STRING), ({"type": "integer"}, Kind.INTEGER), ({"type": "array"}, Kind.ARRAY),
    ({"type": "object"}, Kind.OBJECT), ({"type": "number"}, Kind.NUMBER), ({"type": "boolean"}, None),
    ({"type": "null"}, None), ({}, None), ({"description": "x"}, None),
    ({"type": ["string", "null"]}, Kind.NULLABLE_STRING), ({"type": ["null", "string"]}, Kind.NULLABLE_STRING),
    ({"type": ["string"]}, Kind.STRING), ({"type": ["integer"]}, Kind.INTEGER),
    ({"type": ["integer", "integer"]}, Kind.INTEGER), ({"type": ["integer", "null"]}, None),
    ({"type": ["integer", "number"]}, Kind.NUMBER), ({"type": ["number", "number"]}, Kind.NUMBER),
    ({"type": ["number", "null"]}, None), ({"type": ["integer", "number", "null"]}, None),
    ({"anyOf": [{"type": "integer"}, {"type": "number"}]}, Kind.NUMBER),
    ({"type": ["array", "object"]}, None), ({"type": []}, None),
    ({"type": ["string", "integer"]}, Kind.STRING), ({"type": ["string", 5]}, Kind.STRING),
    ({"type": ["integer", 5]}, None), ({"type": 5}, None), ({"type": None}, None), ({"type": {"a": 1}}, None),
    ({"anyOf": [{"type": "string"}, {"type": "null"}]}, Kind.NULLABLE_STRING),        # Optional[str]
    ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, Kind.STRING),
    ({"oneOf": [{"type": "string"}, {"type": "null"}]}, Kind.NULLABLE_STRING),
    ({"anyOf": [{"type": "integer"}]}, Kind.INTEGER), ({"oneOf": [{"type": "array"}]}, Kind.ARRAY),
    ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, None),
    ({"anyOf": [{"anyOf": [{"oneOf": [{"type": "string"}]}]}, {"type": "null"}]}, Kind.NULLABLE_STRING),
    ({"type": "string", "anyOf": [{"type": "null"}]}, Kind.NULLABLE_STRING),
    ({"type": "integer", "anyOf": [{"type": "integer"}]}, Kind.INTEGER),
    ({"type": "integer", "anyOf": [{"type": "number"}]}, Kind.NUMBER),
    ({"type": "integer", "anyOf": [{"type": "string"}]}, Kind.STRING),
    ({"anyOf": [{"type": "integer"}], "oneOf": [{"type": "null"}]}, None),
    ({"anyOf": "string"}, None), ({"anyOf": ["string"]}, None), ({"anyOf": [None, 5, {"type": "string"}]}, Kind.STRING),
    ({"anyOf": []}, None), ({"allOf": [{"type": "string"}]}, None),
    ({"enum": ["a", "b"]}, Kind.STRING), ({"enum": ["a", None]}, Kind.NULLABLE_STRING), ({"enum": [None]}, None),
    ({"enum": ["a", 1]}, None), ({"enum": ["a", True]}, None), ({"enum": []}, None), ({"enum": "a"}, None),
    ({"enum": [1, 2]}, None), ({"enum": ["a", ["b"]]}, None),
    ({"type": "array", "enum": ["a", "b"]}, Kind.ARRAY), ({"type": "integer", "enum": ["a"]}, Kind.INTEGER),
    ({"type": "null", "enum": ["a"]}, None), ({"anyOf": [{"enum": ["a"]}, {"type": "null"}]}, Kind.NULLABLE_STRING),
    ({"anyOf": [{"enum": ["a"]}, {"type": "integer"}]}, Kind.STRING), ({"const": "a"}, None),
    ({"$ref": "#/$defs/Name"}, None), ({"$ref": "#/$defs/Name", "type": "string"}, Kind.STRING),
    ("string", None), (None, None), (5, None), (["string"], None),
] + [({"type": alias}, None) for alias in ALIASES])
def test_the_kind_a_schema_declares(schema, want):
    assert kind_of(schema) == want


def test_deep_member_nesting_declares_nothing():
    def nested(depth, leaf):
        schema = leaf
        for _ in range(depth):
            schema = {"anyOf": [schema]}
        return schema
    assert kind_of(nested(64, {"type": "string"})) == Kind.STRING
    assert kind_of(nested(65, {"type": "string"})) is None
    assert kind_of(nested(5000, {"type": "string"})) is None
    assert kind_of({"type": "string", "anyOf": [nested(70, {"type": "null"})]}) is None


def test_cyclic_and_shared_schemas():
    cyclic = {"type": "string", "anyOf": []}
    cyclic["anyOf"].append(cyclic)
    assert kind_of(cyclic) is None
    loop = {"anyOf": [{"type": "string"}, {}]}
    loop["anyOf"][1]["oneOf"] = [loop]
    assert kind_of(loop) is None
    shared = {"type": "string"}
    assert kind_of({"anyOf": [shared, shared, {"oneOf": [shared]}]}) == Kind.STRING
    # A chain of shared members, each named twice: 2**60 paths, one read per level.
    chain = {"type": "integer"}
    for _ in range(60):
        chain = {"anyOf": [chain, chain]}
    started = time.perf_counter()
    assert Declared(tools_of(("f", {"p": chain}))).kind("f", "p") == Kind.INTEGER
    assert time.perf_counter() - started < 1.0
    # ... and one read again where it sits deeper than before, so its depth is judged there.
    inner = {"anyOf": [{"type": "string"}]}
    deep = inner
    for _ in range(64):
        deep = {"anyOf": [deep]}
    assert kind_of({"anyOf": [inner, deep]}) is None


def test_huge_enums_and_odd_values_do_not_crash():
    assert kind_of({"enum": ["v%d" % i for i in range(200_000)]}) == Kind.STRING
    assert kind_of({"enum": ["v%d" % i for i in range(200_000)] + [1]}) is None

    class Odd(dict):
        def get(self, *args):
            raise RuntimeError("never called")

        def __contains__(self, key):
            raise RuntimeError("never called")

    assert Declared(tools_of(("f", {"p": Odd(type="string")}))).kind("f", "p") == Kind.STRING
    assert Declared(tools_of(("f", {"p": {"type": float("nan")}}))).kind("f", "p") is None


# ---- Declared: the request's tools

def test_tools_in_both_shapes_and_first_of_a_name_wins():
    declared = Declared([
        {"type": "function", "function": {"name": "get", "parameters": {"type": "object", "properties": {
            "city": {"type": "string"}, "days": {"type": "integer"}, "unit": {"enum": ["c", "f"]},
            "when": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "n": {"type": "number"},
            "tags": {"type": "array"}, "opts": {"type": "object"}}}}},
        {"name": "flat", "parameters": {"properties": {"q": {"type": "string"}}}},
        {"type": "function", "function": {"name": "get", "parameters": {"properties": {"city": {"type": "integer"}}}}},
    ])
    assert declared.kind("get", "city") == Kind.STRING
    assert declared.kind("get", "days") == Kind.INTEGER
    assert declared.kind("get", "unit") == Kind.STRING
    assert declared.kind("get", "when") == Kind.NULLABLE_STRING
    assert declared.kind("get", "tags") == Kind.ARRAY and declared.kind("get", "opts") == Kind.OBJECT
    assert declared.kind("get", "n") == Kind.NUMBER and declared.kind("get", "other") is None
    assert declared.kind("flat", "q") == Kind.STRING
    assert declared.kind("nope", "city") is None
    assert "get" in declared and "flat" in declared and "nope" not in declared and 5 not in declared
    assert len(declared) == 2
    assert declared.kind_code(b"get", b"days") == Kind.INTEGER
    assert declared.kind_code(b"get", b"n") == Kind.NUMBER and declared.kind_code(b"get", b"other") == 0
    assert declared.kind_code(b"nope", b"city") == 0
    assert declared.kind_code(b"flat", b"q") == Kind.STRING


def test_anthropic_and_mcp_tools_declare_their_input_schema():
    schema = {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}
    tools = [{"name": "anthropic", "description": "d", "input_schema": schema},
             {"name": "mcp", "inputSchema": schema},
             {"name": "openai_first", "parameters": {"properties": {"city": {"type": "integer"}}},
              "input_schema": schema},
             {"name": "none_skipped", "parameters": None, "input_schema": schema}]
    declared = Declared(tools)
    for name in ("anthropic", "mcp", "none_skipped"):
        assert declared.kind(name, "city") == Kind.STRING and declared.kind(name, "days") == Kind.INTEGER
    assert declared.kind("openai_first", "city") == Kind.INTEGER
    assert declared_like_oracle(tools, declared, names=("anthropic", "mcp", "openai_first", "none_skipped"),
                                params=("city", "days"))
    events = symphony.parse("qwen3_tagged", "<tool_call>\n<function=anthropic>\n<parameter=city>\n42\n"
                            "</parameter>\n</function>\n</tool_call>", tools=tools)
    assert [e.json for e in events if type(e) is ToolCallArguments] and \
        "".join(e.json for e in events if type(e) is ToolCallArguments) == '{"city": "42"}'


def test_names_are_looked_up_by_their_utf8():
    declared = Declared(tools_of(("météo", {"città": {"type": "string"}, "😀": {"type": "integer"}}),
                                 ("bad\ud800", {"x": {"type": "string"}})))
    assert declared.kind("météo", "città") == Kind.STRING
    assert declared.kind_code("météo".encode(), "città".encode()) == Kind.STRING
    assert declared.kind_code("météo".encode(), "😀".encode()) == Kind.INTEGER
    assert declared.kind_code("météo".encode(), "citta".encode()) == 0
    assert declared.kind("bad\ud800", "x") == Kind.STRING       # kept, and matches no UTF-8 text
    assert declared.kind_code(b"bad", b"x") == 0


@pytest.mark.parametrize("tools", [
    None, 5, "tools", b"x", {"type": "function"}, [None, 5, "x", [], {}],
    [{"type": "function"}], [{"function": 5}], [{"function": {"name": 5}}], [{"function": {"parameters": {}}}],
    [{"type": "function", "function": {"name": None, "parameters": {"properties": {"a": {"type": "string"}}}}}],
    [{"function": {"name": "f", "parameters": 5}}], [{"function": {"name": "f", "parameters": {"properties": 5}}}],
    [{"function": {"name": "f", "parameters": {"properties": {5: {"type": "string"}, "a": 7}}}}],
    [{"function": {"name": "f", "parameters": {"properties": {"a": {"$ref": "#/x"}, "b": []}}}}],
])
def test_malformed_tools_are_skipped(tools):
    declared = Declared(tools)
    assert declared.kind("f", "a") is None
    assert declared.kind_at("f", ["a"]) is None
    assert declared_like_oracle(tools, declared)


def declared_like_oracle(tools, declared, names=("f", "g", "get"), params=("a", "b", "p", "q")):
    want = oracle.declared_of(tools)
    for name in names:
        assert (name in declared) == (name in want)
        for param in params:
            assert declared.kind(name, param) == KIND_OF_ORACLE[oracle.kind(want, name, param)]
    return True


@pytest.mark.parametrize("size", [1, 31, 32, 33, 200])
def test_schemas_of_few_and_many_properties_read_alike(size):
    # up to 32 properties are compared in C arrays, more are looked up in a dict: one answer
    kinds = [{"type": "string"}, {"type": "integer"}, {"enum": ["a", 1]}, {"type": "number"}, 7]
    props = {f"p{i}": kinds[i % len(kinds)] for i in range(size)}
    props["città"] = {"type": "string"}
    props["bad\ud800"] = {"type": "string"}
    tools = tools_of(("f", props))
    declared = Declared(tools)
    want = oracle.declared_of(tools)
    for param in list(props) + ["p", "p00", "citta", ""]:
        assert declared.kind("f", param) == KIND_OF_ORACLE[oracle.kind(want, "f", param)], param
        assert declared.kind("f", param) == declared.kind("f", param)    # the second, cached read
    assert declared.kind_code("f".encode(), "città".encode()) == Kind.STRING
    assert declared.kind_code(b"f", "bad".encode()) == 0


def test_tools_changed_after_a_lookup_are_not_read_again():
    # the names and schemas are held once read: changing the request's objects later cannot
    # leave the parser pointing at freed text
    props = {"city": {"type": "string"}}
    tools = [{"type": "function", "function": {"name": "get", "parameters": {"properties": props}}}]
    declared = Declared(tools)
    assert declared.kind("get", "city") == Kind.STRING
    tools[0]["function"]["name"] = "other"
    props.clear()
    tools.clear()
    import gc
    gc.collect()
    assert declared.kind_code(b"get", b"city") == Kind.STRING and "get" in declared


def test_a_lookup_made_while_the_tools_are_read_sees_whole_arrays():
    # a tools list of its own class runs Python code as it is read: a lookup made from there
    # compiles the names itself, and the outer reading then puts its own arrays in place
    class Tools(list):
        entered = False

        def __iter__(self):
            if not Tools.entered:
                Tools.entered = True
                assert declared.kind_code(b"f", b"a") == Kind.INTEGER
            return super().__iter__()

    declared = Declared(Tools(tools_of(("f", {"a": {"type": "integer"}}), ("g", {"b": {"type": "string"}}))))
    assert declared.kind_code(b"g", b"b") == Kind.STRING and Tools.entered
    assert declared.kind_code(b"f", b"a") == Kind.INTEGER and len(declared) == 2


def test_a_function_with_malformed_parameters_still_takes_its_name():
    declared = Declared([{"name": "f", "parameters": None}, {"name": "f", "parameters": {
        "properties": {"a": {"type": "string"}}}}])
    assert "f" in declared and declared.kind("f", "a") is None
    assert declared.kind_at("f", []) is None


# ---- kind_at: the Kind at a path (XML elements)

NESTED = tools_of(("f", {
    "name": {"type": "string"},
    "orders": {"type": "array", "items": {"type": "object", "properties": {
        "item": {"type": "string"}, "quantity": {"type": "integer"}}}},
    "meta": {"type": "object", "properties": {"deep": {"type": "array", "items": {"type": "integer"}}}},
    "maybe": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
    "choice": {"oneOf": [{"type": "object", "properties": {"a": {"type": "integer"}}},
                         {"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}}}]},
    "ref": {"$ref": "#/$defs/X"},
    "tuple": {"type": "array", "items": [{"type": "string"}]},
    "grid": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
    "outer": {"properties": {"x": {"type": "integer"}}, "anyOf": [{"properties": {"x": {"type": "string"}}}]},
}))


@pytest.mark.parametrize("path, want", [
    ([], Kind.OBJECT), (["name"], Kind.STRING), (["orders"], Kind.ARRAY), (["orders", "item"], Kind.OBJECT),
    (["orders", "anything"], Kind.OBJECT), (["orders", "item", "item"], Kind.STRING),
    (["orders", "item", "quantity"], Kind.INTEGER), (["orders", "item", "other"], None),
    (["meta"], Kind.OBJECT), (["meta", "deep"], Kind.ARRAY), (["meta", "deep", "item"], Kind.INTEGER),
    (["maybe"], None), (["maybe", "item"], Kind.STRING), (["choice", "a"], Kind.INTEGER),
    (["choice", "b"], Kind.STRING), (["ref"], None), (["ref", "x"], None), (["tuple"], Kind.ARRAY),
    (["tuple", "item"], None), (["grid", "item", "item"], Kind.INTEGER), (["grid", "item"], Kind.ARRAY),
    (["outer", "x"], Kind.INTEGER), (["name", "x"], None), (["missing"], None), (["missing", "x"], None),
])
def test_kind_at_walks_items_and_properties(path, want):
    declared = Declared(NESTED)
    assert declared.kind_at("f", path) == want
    assert want == KIND_OF_ORACLE[oracle.kind_at(oracle.declared_of(NESTED), "f", path)]


def test_kind_at_of_an_undeclared_function_and_bad_paths():
    declared = Declared(NESTED)
    assert declared.kind_at("nope", []) is None
    assert declared.kind_at("f", ("name",)) == Kind.STRING
    with pytest.raises(TypeError):
        declared.kind_at("f", [5])


# ---- Differential: hand-picked texts under every kind

TRICKY = [
    "", " ", "\n", "\u3000", "x", " x ", "null", "None", "NULL", "none", "True", "true", "False", "false",
    "0", "-0", "+0", "00", "007", "+5", "-5", "+-5", " 42 ", "\u00a042\u3000", "\u200b42", "1.5", "1.50",
    "1e5", "1e400", "-1e400", "1e-400", "1E+400", "9" * 20, "9" * 309, "1" + "0" * 308, "2" + "0" * 308,
    "-" + "9" * 400, "+9223372036854775808", "0x1F", "1_000", "1__000", "_1", "1_", ".5", "5.", "- 5",
    "-\t5", "--5", "[]", "{}", "()", "[1, 2.5]", "[1,2.5]", "[ 1 , 2 ]", '{"a": 1}', '{"a":1}', "{'a': 1}",
    "{1: 'a'}", "{None: 1}", "{(1, 2): 3}", "(1,)", "(1)", "((1,),)", "[1,]", "[1,,]", "[,]", "{'a': 1,}",
    "['a', \"b\"]", "'\\d'", "'\\n'", "'\\x41'", "'\\x4'", "'\\u00e9'", "'\\ud800'", "'\\U0001F600'",
    "'\\U00110000'", "'a\\\nb'", "'a\nb'", "'\\101'", '"\\ud800"', '"\\udc00"', '"\\ud83d\\ude00"',
    '"\\ud83d"', '"\\u00e9"', '"a\tb"', '"a\\tb"', '"\\q"', "NaN", "Infinity", "-Infinity", "[NaN]",
    "[1e400]", "[1e-400]", "{\"a\": [1, {\"b\": null}]}", "\"exact phrase\"", "  def f():\n    return 1\n",
    "&lt;b&gt;", "[1, 2, 3", "{\"a\": ", "\x00", "\x1f", "\x7f", "é", "😀", "\ufeff1", "1\xa0", "[1,\xa02]",
    "[" * 126 + "]" * 126, "[" * 127 + "]" * 127, "(" * 128 + ")" * 128, "(" * 129 + ")" * 129,
    "[" * 128 + "1" + "]" * 128, "{'a': " * 127 + "1" + "}" * 127, "Nonesuch", "None_", "True1",
    "u'x'", "'a' 'b'", "1, 2", "{1}", "{[1]: 2}", "{{}: 1}", "[True, None, False]",
]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_texts_under_every_kind(text):
    for kind in KINDS:
        typed(text, kind)
    literal_in_every_syntax(text)
    read(text)


# ---- Differential: generated texts under every kind

JSON_SPACE = " \t\n\r"
ASCII_SPACE = " \t\n\r\x0b\x0c"
WORDS = ["null", "None", "NULL", "none", "true", "True", "TRUE", "false", "False", "NaN", "Infinity",
         "-Infinity", "inf", "nan", "nil", "undefined", "Nonesuch", "True_", "nul", "tru"]
JSON_ESCAPES = ["\\n", "\\t", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\u00e9", "\\u0000", "\\u001F",
                "\\ud83d\\ude00", "\\uD83D\\uDE00", "\\ud800", "\\udc00", "\\ud800\\u0041", "\\ud800\\ud800\\udc00",
                "\\u12", "\\u12G4", "\\q", "\\x41", "\\'", "\\"]
PY_ESCAPES = ["\\n", "\\t", "\\r", "\\a", "\\b", "\\f", "\\v", "\\\\", "\\'", '\\"', "\\0", "\\7", "\\101",
              "\\1234", "\\8", "\\x41", "\\xe9", "\\x4", "\\xg1", "\\u00e9", "\\u12", "\\U0001F600",
              "\\U00110000", "\\ud800", "\\udfff", "\\U0000d800", "\\\n", "\\\r\n", "\\\r", "\\d", "\\N{DASH}",
              "\\é", "\\"]
CHARS = "abz AZ09_-+.,:;'\"\\/[](){}<>&é中😀\t\n\r\x00\x01\x1f\x7f\x0b\x0c\xa0\u3000\u2028\x85"


class TextMaker:
    """Deterministic texts that hit the rules: JSON as written, Python literals, escapes, numbers,
    words, whitespace of every class around them, nesting near the limits, cut and mutated."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def space(self, kinds=JSON_SPACE):
        r = self.r
        return "" if r.random() < 0.6 else "".join(r.choice(kinds) for _ in range(r.randint(1, 2)))

    def digits(self):
        r = self.r
        n = r.choice([1, 1, 2, 3, 5, 16, 19, 20, 25, r.randint(300, 320), 400])
        return "".join(r.choice("0123456789") for _ in range(n))

    def json_number(self):
        r = self.r
        text = r.choice(["", "", "-"]) + (r.choice(["0", self.digits().lstrip("0") or "1"]))
        if r.random() < 0.3:
            text += "." + self.digits()[:r.choice([1, 2, 20])]
        if r.random() < 0.3:
            text += r.choice("eE") + r.choice(["", "+", "-"]) + str(r.choice([0, 1, 5, 99, 300, 307, 308, 309, 330, 400, 99999]))
        return text

    def py_number(self):
        r = self.r
        text = self.json_number()
        if r.random() < 0.3:
            at = r.randint(1, len(text))
            text = text[:at] + "_" + text[at:]
        if r.random() < 0.15:
            text = r.choice(["+", "0", "0x", ".", "- ", "-\t", "--"]) + text.lstrip("-")
        if r.random() < 0.1:
            text = r.choice(["0x", "0X_", "0o", "0b", "-0b", "0x__", "+-0x"]) + "".join(
                r.choice("0123456789abcdefABCDEF_" if r.random() < 0.5 else "01_") for _ in range(r.randint(0, 12)))
        if r.random() < 0.05:
            text = r.choice(["-(", "+ (", "--(", "-(-"]) + text + r.choice([")", ",)", ""])
        if r.random() < 0.1:
            text += r.choice([".", "j", "L", "e", "e+", "_"])
        if r.random() < 0.1:
            text = r.choice(["+", "+ ", ".", "00", "0"]) + text.lstrip("-")
        return text

    def integer(self):
        r = self.r
        return (self.space(UNICODE_SPACES) + r.choice(["", "", "-", "+", "--", "+-"]) + "0" * r.choice([0, 0, 1, 3])
                + self.digits() + self.space(UNICODE_SPACES))

    def json_string(self):
        r = self.r
        parts = []
        for _ in range(r.randint(0, 4)):
            x = r.random()
            if x < 0.4:
                parts.append("".join(r.choice("abc é😀'/") for _ in range(r.randint(1, 4))))
            elif x < 0.85:
                parts.append(r.choice(JSON_ESCAPES))
            else:
                parts.append(r.choice("\t\n\x00\x1f\x7f"))
        return '"' + "".join(parts) + '"'

    def py_string(self):
        r = self.r
        quote = r.choice("'\"")
        parts = []
        for _ in range(r.randint(0, 4)):
            x = r.random()
            if x < 0.4:
                parts.append("".join(r.choice("abc é😀/\"'") for _ in range(r.randint(1, 4))).replace(quote, ""))
            elif x < 0.9:
                parts.append(r.choice(PY_ESCAPES))
            elif x < 0.95:
                parts.append(r.choice("\t\n\r\x00\x7f"))
            else:
                parts.append(r.choice(["{", "}", "{{", "}}", "{x}"]))
        text = quote + "".join(parts) + quote
        if r.random() < 0.15:
            text = r.choice(["f", "r", "u", "b", "rf", "Fr", "rb", "ur", "x"]) + text
        if r.random() < 0.1:
            text += self.space(ASCII_SPACE) + self.py_string()
        return text

    def json_value(self, depth=0):
        r = self.r
        x = r.random()
        if depth < 4 and x < 0.3:
            items = [self.json_value(depth + 1) for _ in range(r.randint(0, 3))]
            if r.random() < 0.5:
                return "[" + ",".join(self.space() + i + self.space() for i in items) + "]"
            return "{" + ",".join(self.space() + self.json_string() + self.space() + ":" + self.space() + i
                                  for i in items) + "}"
        if x < 0.55:
            return self.json_number()
        if x < 0.85:
            return self.json_string()
        return r.choice(["true", "false", "null", "NaN", "Infinity", "-Infinity"])

    def py_value(self, depth=0):
        r = self.r
        x = r.random()
        if depth < 4 and x < 0.35:
            n = r.randint(0, 3)
            sep = "," + self.space(ASCII_SPACE)
            trailing = "," if r.random() < 0.25 else ""
            kind = r.random()
            if kind < 0.35:
                return "[" + sep.join(self.py_value(depth + 1) for _ in range(n)) + trailing + "]"
            if kind < 0.65:
                return "(" + sep.join(self.py_value(depth + 1) for _ in range(n)) + trailing + ")"
            if kind < 0.75:
                return "{" + sep.join(self.py_value(depth + 1) for _ in range(n)) + trailing + "}"
            return "{" + sep.join(self.py_value(depth + 1) + self.space(ASCII_SPACE) + ":" + self.space(ASCII_SPACE)
                                  + self.py_value(depth + 1) for _ in range(n)) + trailing + "}"
        if x < 0.55:
            return self.py_number()
        if x < 0.85:
            return self.py_string()
        return r.choice(["True", "False", "None", "true", "false", "null", "none", "Nonesuch"])

    def deep(self):
        r = self.r
        depth = r.randint(120, 132)
        inner = r.choice(["", "1", "None", "'a'", '"\\ud800"', "1e400", "[]", "()"])
        kinds = r.choice(["[", "(", '{"k": ', "{1: ", "mixed"])
        openers = [r.choice(["[", "(", '{"k": ', "{1: "]) if kinds == "mixed" else kinds for _ in range(depth)]
        closers = {"[": "]", "(": ")", '{"k": ': "}", "{1: ": "}"}
        return "".join(openers) + inner + "".join(closers[o] for o in reversed(openers))

    def mutate(self, text):
        r = self.r
        for _ in range(r.randint(1, 3)):
            at = r.randint(0, len(text))
            x = r.random()
            if x < 0.4:
                text = text[:at]                                    # cut
            elif x < 0.7:
                text = text[:at] + r.choice(CHARS) + text[at:]      # insert
            else:
                text = text[:at] + text[at + 1:]                    # delete
        return text

    def container(self, depth=0):
        """A well-formed array or object of plain values, as JSON or as its Python repr."""
        r = self.r

        def build(d):
            x = r.random()
            if d < 3 and x < 0.4:
                items = [build(d + 1) for _ in range(r.randint(0, 3))]
                return items if r.random() < 0.5 else {f"k{i}": v for i, v in enumerate(items)}
            return r.choice([1, -2.5, True, None, "a", "é \\ \"q\"", "C:\\Users", "line\nbreak", "x"])
        value = build(0) if r.random() < 0.2 else [build(1)] if r.random() < 0.5 else {"a": build(1)}
        if r.random() < 0.7:
            return json.dumps(value, ensure_ascii=r.random() < 0.3, separators=r.choice([(", ", ": "), (",", ":")]))
        return repr(value)

    def wrapped(self):
        """A number or a value in one string layer: a JSON string, a Python string, or the body of a
        JSON string (escaped JSON), now and then mutated."""
        r = self.r
        inner = r.choice([self.json_number, self.integer, self.json_value, self.py_value] + [self.container] * 3)()
        x = r.random()
        if x < 0.4:
            text = json.dumps(inner, ensure_ascii=r.random() < 0.3)
        elif x < 0.65:
            text = repr(inner)
        else:
            text = json.dumps(inner, ensure_ascii=r.random() < 0.3)[1:-1]
        return self.mutate(text) if r.random() < 0.2 else text

    def text(self):
        r = self.r
        x = r.random()
        if r.random() < 0.12:
            text = self.wrapped()
        elif x < 0.2:
            text = self.json_value()
        elif x < 0.42:
            text = self.py_value()
        elif x < 0.55:
            text = self.integer()
        elif x < 0.62:
            text = r.choice(WORDS)
        elif x < 0.66:
            text = self.deep()
        elif x < 0.74:
            text = "".join(r.choice(CHARS) for _ in range(r.randint(0, 12)))
        else:
            text = self.mutate(self.json_value() if r.random() < 0.5 else self.py_value())
        if r.random() < 0.3:
            text = self.space(UNICODE_SPACES) + text + self.space(UNICODE_SPACES)
        return text


GENERATED = 40_000


@pytest.mark.parametrize("seed", range(4))
def test_generated_texts_under_every_kind(seed):
    """GENERATED/4 texts per seed, each under all seven kinds: 40,000 per kind over the four seeds."""
    maker = TextMaker(seed)
    checked = {}
    for _ in range(GENERATED // 4):
        text = maker.text()
        inferred = oracle.to_json(text)
        for kind in KINDS:
            got = to_json(text, kind)
            assert got == oracle.to_json(text, ORACLE_KIND[kind]), (text, kind)
            if kind in UNWRAPPING and got != inferred:
                # a declared integer's digits, or a value of the declared kind read inside a
                # string (or an escaped container) where inference reads a string
                integer = kind == Kind.INTEGER and oracle.INTEGER_TEXT.fullmatch(text.strip(oracle.TRIMMED))
                assert integer or isinstance(json.loads(inferred), str), (text, kind)
                declared = {Kind.ARRAY: list, Kind.OBJECT: dict}.get(kind, (int, float))
                assert isinstance(json.loads(got), declared) and not isinstance(json.loads(got), bool), (text, kind)
            if got not in checked:
                checked[got] = True
                assert oracle.reads_back(got) and reads_back(got), (text, kind, got)
                decoded = json.loads(got)
                assert depth_of(decoded) <= DEEP
            if kind == Kind.STRING:
                assert json.loads(got) == text
            elif kind == Kind.NULLABLE_STRING:
                assert json.loads(got) == (None if text in NULL_WORDS else text)
        literal_in_every_syntax(text)
        assert reads_back(text) == oracle.reads_back(text), text


def test_the_generator_hits_every_branch():
    """The generated texts reach each outcome: JSON kept, literal JSON, string fallback, integer,
    and a value of each declared kind read inside a string or from escaped JSON."""
    maker = TextMaker(99)
    seen = set()
    for _ in range(3000):
        text = maker.text()
        trimmed = text.strip(oracle.TRIMMED)
        if oracle.reads_back(trimmed):
            seen.add("json")
        elif oracle.python_literal(trimmed) is not None:
            seen.add("literal" if oracle.reads_back(oracle.python_literal(trimmed)) else "literal unread")
        else:
            seen.add("string")
        if oracle.INTEGER_TEXT.fullmatch(trimmed):
            seen.add("integer" if oracle.to_json(text, oracle.INTEGER) != oracle.to_json(text) else "integer inferred")
        inferred = oracle.to_json(text)
        for kind in (oracle.NUMBER, oracle.ARRAY, oracle.OBJECT):
            if oracle.to_json(text, kind) != inferred:
                seen.add(kind + (" inside a string" if inferred.startswith('"') and trimmed[:1] in "\"'" else " escaped"))
            elif isinstance(json.loads(inferred), str) and "\\" in trimmed:
                seen.add(kind + " kept")
    assert seen >= {"json", "literal", "literal unread", "string", "integer", "integer inferred",
                    "number inside a string", "array inside a string", "object inside a string", "array escaped",
                    "object escaped", "number kept", "array kept", "object kept"}


# ---- Hypothesis: properties over built texts

pieces = st.sampled_from(
    ["[", "]", "(", ")", "{", "}", ",", ":", " ", "\u3000", "\n", "'", '"', "\\", "-", "+", "_", ".", "e", "0",
     "1", "9", "None", "True", "null", "true", "NaN", "\\u", "d800", "dc00", "x4", "U0001F600", "é", "😀",
     "\x00", "\t", "a"])
texts = st.one_of(st.text(max_size=40), st.lists(pieces, max_size=25).map("".join))


@settings(max_examples=400)
@given(texts, st.sampled_from(KINDS))
@example("'\\ud83d\\ude00'", None)
@example("{1: 1e400}", Kind.OBJECT)
@example(" +007 ", Kind.INTEGER)
@example('"5"', Kind.NUMBER)
@example("\"{'a': 1}\"", Kind.OBJECT)
@example('[{\\"id\\": \\"1\\"}]', Kind.ARRAY)
def test_any_text_under_any_kind(text, kind):
    typed(text, kind)
    literal_in_every_syntax(text)
    read(text)


@settings(max_examples=200)
@given(st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70)
                    | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                    max_leaves=12), st.sampled_from(INFERRED + (Kind.INTEGER,)))
def test_json_that_reads_back_is_kept_byte_for_byte(value, kind):
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False), json.dumps(value, indent=1)):
        assert typed(text, kind) == text
        assert typed(" " + text + "\n", kind) == text


@settings(max_examples=200)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner) | st.tuples(inner, inner)
                    | st.dictionaries(st.integers() | st.text(max_size=4), inner, max_size=3),
                    max_leaves=12))
def test_a_python_repr_reads_as_its_json(value):
    def plain(v):
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {(k if isinstance(k, str) else json.dumps(k)): plain(x) for k, x in v.items()}
        return v
    got = literal(repr(value))
    assert got is not None, repr(value)
    assert json.loads(got) == plain(value)


@settings(max_examples=200)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=8) | st.sets(st.integers() | st.text(max_size=3), min_size=1, max_size=3),
                    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
                    | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                    max_leaves=10))
def test_a_python_repr_reads_as_its_json_as_a_call_argument(value):
    """Sets (in their repr's order) and floats too, as a pythonic call's argument."""
    def plain(v):
        if isinstance(v, (list, tuple, set)):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        return v
    got = literal(repr(value), LiteralSyntax.ARGUMENT)
    assert got is not None, repr(value)
    assert json.loads(got) == plain(value)


# ---- Crash freedom

@settings(max_examples=300)
@given(st.binary(max_size=80))
def test_random_bytes_never_crash_an_entry_point(raw):
    for text in (raw.decode("utf-8", "replace"), raw.decode("latin-1")):
        for kind in KINDS:
            check_result(text, kind, to_json(text, kind))
        python_literal(text)
        reads_back(text)
        native.json_string_body(text)
        native.json_string_body(raw)


json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
    | st.sampled_from(["string", "integer", "array", "object", "null", "type", "anyOf", "oneOf", "enum"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["type", "anyOf", "oneOf", "enum", "items", "properties", "name", "parameters",
                         "function", "p", "a", "$ref"]), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300)
@given(json_like, st.lists(st.sampled_from(["p", "a", "items", "x"]), max_size=3))
def test_any_tools_and_schemas_never_raise(tools, path):
    for candidate in (tools, [tools], tools_of(("f", {"p": tools})),
                      [{"name": "f", "parameters": tools}]):
        declared = Declared(candidate)
        assert declared_like_oracle(candidate, declared)
        got = declared.kind_at("f", path)
        want = oracle.kind_at(oracle.declared_of(candidate), "f", path)
        assert got == KIND_OF_ORACLE[want], (candidate, path)


def test_a_tool_with_an_empty_name_is_read_once_and_lookups_end():
    # names() once looked an empty name up again forever after finding it
    declared = Declared([{"name": "", "parameters": {}}, {"name": "g", "parameters": {
        "properties": {"a": {"type": "integer"}}}}])
    assert "" in declared and "g" in declared and len(declared) == 2
    assert declared.kind("g", "a") == Kind.INTEGER and declared.kind("", "a") is None
