"""Crash-freedom fuzzing of the compiled core (CI also runs this file under AddressSanitizer):
every table fed text from a broad alphabet at random cut plans with random token spans (valid
and invalid partitions, numpy and object forms); the JSON prefix validator, the outline and the
strict string decoder fed random BYTES (invalid and truncated UTF-8 included); the scanner with
random marker sets; and very long inputs. Each checks what must hold whatever the input:
conservation, exactly one Finish, offsets in range, a refusal that stays.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import symphony
from symphony import Delta, End, Prompt, TokenSpan, _native
from symphony.events import Finish, Reasoning, text_of
from symphony.format import CallSyntax, Emits, Format
from symphony.formats import table as format_table
from tests.common import carries_text, check_well_formed, counted_deltas, tokens_of

# 400 examples a test; more under a longer profile (HYPOTHESIS_PROFILE=fuzz)
FUZZ = settings(max_examples=max(400, settings.default.max_examples), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.large_base_example, HealthCheck.filter_too_much])

# A table with the paths no shipped table has yet: a Wrapper block, a call self-row, a
# reasoning-to-block row.
WRAPPED = (Format("wrapped")
           .terminal("r_open", "<r>").terminal("r_close", "</r>")
           .terminal("b_open", "<b>").terminal("b_close", "</b>")
           .terminal("c_open", "<c>").terminal("c_close", "</c>")
           .state("content", Emits.CONTENT).state("reasoning", Emits.REASONING)
           .state("block", Emits.WRAPPER).state("call", Emits.ARGUMENTS)
           .transition("content", "r_open", "reasoning").transition("reasoning", "r_close", "content")
           .transition("reasoning", "b_open", "block")
           .transition("content", "b_open", "block").transition("block", "c_open", "call")
           .transition("call", "c_close", "block").transition("call", "c_open", "call")
           .transition("call", "b_close", "content").transition("block", "b_close", "content")
           .calls(CallSyntax.json()))
TABLES = [format_table(name) for name in symphony.formats()] + [WRAPPED]
BY_NAME = {t.name: t for t in TABLES}

def inner_tags(fmt):
    """The tags a table's call syntax reads inside a call (tagged and keyed syntaxes)."""
    if fmt.syntax is None:
        return set()
    if fmt.syntax.kind == "tagged":
        return set(_native.TAGGED_TAGS)
    if fmt.syntax.kind == "keyed":
        return set(fmt.syntax.tags.texts())
    if fmt.syntax.kind == "gemma":
        return {fmt.syntax.gemma_quote()}
    if fmt.syntax.kind == "param_xml":
        return {fmt.syntax.tags.param_open, fmt.syntax.tags.param_close, *_native.PARAM_XML_CDATA}
    return set()


MARKERS = sorted({text for t in TABLES for _, text in t.terminals}
                 | {tag for t in TABLES for tag in inner_tags(t)}
                 | {"<think>", "</think>", "<tool_call>", "</tool_call>", "<|im_start|>assistant",
                    "<｜DSML｜ invoke name=\"", "<|open|>call tool=\"", "]<]minimax[>["})
FRAGMENTS = sorted({m[:k] for m in MARKERS for k in range(1, len(m))} | {m[k:] for m in MARKERS for k in range(1, len(m))})
ATOMS = [
    "{", "}", "[", "]", ",", ":", '"', "\\", "\\\\", '\\"', "\\n", "\\u", "\\u00", "\\u00e9", "\\ud83c", "\\udf89",
    "\\ud83c\\udf89", "\\uDFFF", "\\uzzzz", "\\q", "true", "tru", "false", "null", "nul", "NaN", "Na", "Infinity",
    "-Infinity", "-Inf", "-", "1.", "1e+", "-0.5e-3", "12abc", "0", '"name"', '"arguments"', '"parameters"',
    '"tool_name"', '"f"', ": ", ", ", ",}", ", ]", "'", "\\'", "'x'", "True", "None", "Fals",
    "{'name': 'f', 'arguments': {'a': ",
    '{"name": "f", "arguments": {', '{"name": "get_weather", "arguments": {"city": "Par', '{"arguments": {}, "name": "g"}',
    "[{", "}]", "```", "```json\n",
    " ", "\n", "\t", "\r\n", "\x0b", "\x0c", "\x85", "\xa0", "\u1680", "\u2000", "\u200a", "\u2028", "\u2029",
    "\u202f", "\u205f", "\u3000", "\x1c", "\x1d", "\x1f", "\u200b", "\ufeff",
    "\x00", "\x01", "\x07", "\x1b", "\x7f", "\x9f",
    "é", "e\u0301", "日本", "｜", "▁", "🎉", "\U0001f600", "\U00010000", "\U0010ffff", "\ue000", "\ufffd",
    "plan", "Hello", "x",
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    '<c>{"name": "f", "arguments": {"a": [1, "\\u00e9"]}}</c>', '<b>\n<c>{"name": "g"}</c>\n</b>',
    '[{"name": "f", "arguments": {}}, {"name": "g", "arguments": {"x": null}}]',
    "<function=f>", "\n<parameter=s>\nPar", "\n</parameter>\n", "<parameter=n>\n007\n</parameter>",
    "<parameter=o>\nNone\n</parameter>", "<parameter=a>\n['x', (1,), {2: None}]\n</parameter>", "</function>",
    "f<arg_key>s</arg_key><arg_value>", "</arg_value>", "<arg_key>n</arg_key><arg_value>12", "<arg_key></arg_key>",
    "<arg_key:opensource>o</arg_key:opensource><arg_value:opensource>nul", "True", "None", "'\\x41\\777'",
    "1_000", "(1)", "{'a': 1,}", "\\\n",
    "call:f{", "call:get_weather{city:", '<|"|>Par', 'is<|"|>', "n:007,", "l:[1,{a:", "]}", "}}",
    '<function name="f">', '<param name="s">', '<param name="n">007</param>', "<![CDATA[a</param>", "]]>",
]
# Tools declaring every Kind for the names the atoms use (the parser reads them when a typed call opens).
FUZZ_TOOLS = [{"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": {
    "s": {"type": "string"}, "n": {"type": "integer"}, "o": {"type": ["string", "null"]},
    "a": {"type": "array"}, "b": {"type": "object"}}}}} for name in ("f", "get_weather", "g")]
pieces_of_text = st.one_of(
    st.sampled_from(MARKERS), st.sampled_from(FRAGMENTS), st.sampled_from(ATOMS), st.sampled_from(ATOMS),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=4),
)
texts = st.lists(pieces_of_text, max_size=30).map("".join)
prompts = st.one_of(st.none(), texts, st.sampled_from(["<|im_start|>assistant\n<think>\n", "<think>", "<r>\n",
                                                      "<|im_start|>assistant\n<tool_call>\n", "<b>", ""]))


@st.composite
def cuts(draw, text):
    """Character indexes where `text` is cut (sorted, distinct, inside)."""
    if len(text) < 2:
        return []
    if draw(st.integers(0, 7)) == 0:
        return list(range(1, len(text)))
    return sorted(draw(st.sets(st.integers(1, len(text) - 1), max_size=min(len(text) - 1, 30))))


def split(text, at):
    edges = [0, *at, len(text)]
    return [text[a:b] for a, b in zip(edges, edges[1:])]


@st.composite
def token_bounds(draw, text):
    """Character ranges of tokens covering `text`, zero-width tokens here and there, and 0-3 at
    the end (they all go into the one trailing Dropped{ControlToken})."""
    bounds, at = [], 0
    while at < len(text):
        if draw(st.integers(0, 9)) == 0:
            bounds.append((at, at))
        step = draw(st.integers(1, 5))
        bounds.append((at, min(at + step, len(text))))
        at += step
    bounds += [(len(text), len(text))] * draw(st.integers(0, 3))
    return bounds


def spoil(draw, deltas):
    """One delta's spans made not to partition its text (or left alone when there is nothing to spoil)."""
    k = draw(st.integers(0, len(deltas) - 1))
    d = deltas[k]
    raw = d.text.encode()
    spans = list(d.spans)
    how = draw(st.sampled_from(["drop", "shift", "grow", "extra", "reverse", "midchar", "none"]))
    if how == "drop" and spans:
        del spans[draw(st.integers(0, len(spans) - 1))]
    elif how == "shift" and spans:
        i = draw(st.integers(0, len(spans) - 1))
        s = spans[i]
        spans[i] = TokenSpan(s.token_id, s.start + 1, s.end + 1, s.continued)
    elif how == "grow" and spans:
        s = spans[-1]
        spans[-1] = TokenSpan(s.token_id, s.start, s.end + draw(st.integers(1, 3)), s.continued)
    elif how == "extra":
        spans.append(TokenSpan(7, len(raw), len(raw) + 1))
    elif how == "reverse" and len(spans) > 1:
        spans.reverse()
    elif how == "midchar":
        wide = [i for i, ch in enumerate(d.text) if len(ch.encode()) > 1]
        if not wide:
            return deltas, False
        at = len(d.text[:wide[0]].encode()) + 1
        spans = [TokenSpan(1, 0, at), TokenSpan(2, at, len(raw))]
    elif how == "none" and raw:
        spans = []
    else:
        return deltas, False
    if TokenSpan.partitions(spans, d.text):
        return deltas, False
    out = list(deltas)
    out[k] = Delta(d.text, [s.token_id for s in spans if not s.continued], spans)
    return out, True


def as_arrays(deltas, dtype):
    out = []
    for d in deltas:
        rows = [[s.token_id, s.start, s.end, int(s.continued)] for s in d.spans]
        out.append(Delta(d.text, np.asarray(d.token_ids, dtype=np.int64),
                         np.asarray(rows, dtype=dtype).reshape(len(rows), 4)))
    return out


@st.composite
def streams(draw):
    text = draw(texts)
    pieces = split(text, draw(cuts(text)))
    mode = draw(st.sampled_from(["uncounted", "counted", "counted", "spoiled"]))
    spoiled = False
    if mode == "uncounted":
        deltas = [Delta(p) for p in pieces]
    else:
        deltas = counted_deltas(pieces, draw(token_bounds(text)))
        if mode == "spoiled":
            deltas, spoiled = spoil(draw, deltas)
        form = draw(st.sampled_from(["objects", "int64", "int32"]))
        if form != "objects":
            deltas = as_arrays(deltas, np.int64 if form == "int64" else np.int32)
    if draw(st.integers(0, 5)) == 0:     # empty deltas between
        deltas = [x for d in deltas for x in (Delta(""), d)] + [Delta("")]
    tools = draw(st.sampled_from([None, FUZZ_TOOLS]))
    return text, draw(prompts), deltas, mode, spoiled, draw(st.sampled_from(["stop", "length", "abort", "x"])), tools


@FUZZ
@given(streams())
@example(("<tool_call>{\"name\": \"f\", \"arguments\": " + "[" * 40, None, [Delta("<tool_call>{\"name\": \"f\", "
          "\"arguments\": " + "[" * 40)], "uncounted", False, "stop", None))
def test_every_table_conserves_and_finishes_once(stream):
    text, prompt, deltas, mode, spoiled, finish, tools = stream
    for table in TABLES:
        p = symphony.parser(table, tools)
        events = list(p.feed(Prompt(prompt))) if prompt is not None else []
        for d in deltas:
            events += p.feed(d)
        events += p.feed(End(finish))
        assert text_of(events) == text, table.name
        assert sum(1 for e in events if type(e) is Finish) == 1
        assert type(events[-1]) is Finish
        check_well_formed(events)
        counts = [tokens_of(e) for e in events if carries_text(e)]
        if mode == "uncounted" or spoiled:
            assert events[-1].reasoning_tokens == 0
            if mode == "uncounted" and text:
                assert all(c is None for c in counts)
        else:
            assert None not in counts, table.name
            want = sum(len(d.token_ids) for d in deltas)
            assert sum(counts) == want, table.name
            assert events[-1].reasoning_tokens == sum(e.tokens for e in events if type(e) is Reasoning)


# --- JSON machinery on raw bytes ---------------------------------------------------------------

BYTE_ATOMS = [a.encode() for a in ATOMS] + [
    b"\xff", b"\xfe", b"\xc0\x80", b"\xc3", b"\xe6\x97", b"\xf0\x9f\x8e", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
    b"\x80", b"\xbf", b"\xf8\x88\x80\x80\x80", b"[" * 31, b"[" * 33, b"{\"a\":" * 33, b"]" * 5, b"}" * 5,
]
raw_bytes = st.lists(st.one_of(st.binary(max_size=6), st.sampled_from(BYTE_ATOMS)), max_size=30).map(b"".join)


@st.composite
def byte_pieces(draw):
    data = draw(raw_bytes)
    at = sorted(draw(st.sets(st.integers(0, len(data)), max_size=10))) if data else []
    edges = [0, *at, len(data)]
    return data, [data[a:b] for a, b in zip(edges, edges[1:])]


@FUZZ
@given(byte_pieces())
@example((b'{"a": [1}x', [b'{"a": [1', b"}", b"x"]))
@example((b"\xe6\x97\xa5", [b"\xe6", b"\x97", b"\xa5"]))
def test_json_prefix_on_random_bytes(case):
    data, pieces = case
    v = _native.JsonPrefix()
    fed = 0
    refused = None
    for piece in pieces:
        r = v.feed(piece)
        fed += len(piece)
        if refused is not None:
            assert r == refused and v.refused_at == refused      # refused stays refused
        elif r is not None:
            refused = r
        assert r is None or 0 <= r <= fed
        assert v.refused_at == refused
        assert 0 <= v.committed <= fed
        assert v.whole in (True, False)
    assert 0 <= _native.json_prefix_end(data) <= len(data)
    if refused is not None:
        assert v.feed(b"") == refused and v.feed(b"1") == refused and v.feed(b"]") == refused
        assert v.refused_at == refused and not v.whole


@FUZZ
@given(texts.flatmap(lambda t: st.tuples(st.just(t), cuts(t))))
@example(("[\u3000]", [1, 2]))
def test_json_prefix_pieces_on_character_boundaries_agree_with_the_whole(case):
    """Cut between characters (as the engine always cuts), pieces and the whole give one verdict."""
    text, at = case
    v = _native.JsonPrefix()
    refused = None
    for piece in split(text, at):
        r = v.feed(piece if len(piece) % 2 else piece.encode())     # str and bytes pieces alike
        refused = r if refused is None else refused
    whole = len(text.encode())
    assert _native.json_prefix_end(text) == (whole if refused is None else refused)


def test_json_prefix_bytes_split_inside_a_character():
    v = _native.JsonPrefix()
    v.feed(b"[\xe3")
    v.feed(b"\x80\x80]")
    assert v.refused_at is None and v.whole


@FUZZ
@given(raw_bytes)
@example(b'{"name": "\xff", "arguments": {}}')
@example(b'{"name": "f\\ud800", "arguments": [' + b"[" * 40)
def test_json_outline_on_random_bytes(data):
    for prefix in (b"", b"{", b'{"name": "f", "arguments": ', b'{"arguments": '):
        raw = prefix + data
        try:
            o = _native.json_outline(raw)
        except UnicodeDecodeError:
            continue    # a name of invalid UTF-8, refused by Python-level decoding: fine
        assert set(o) == {"name", "arguments", "close"}
        assert o["name"] is None or isinstance(o["name"], str)
        if o["arguments"] is not None:
            start, end = o["arguments"]
            assert 0 <= start <= len(raw)
            assert end is None or start <= end <= len(raw)
        if o["close"] is not None:
            assert 1 <= o["close"] <= len(raw) and raw[o["close"] - 1:o["close"]] == b"}"


@FUZZ
@given(raw_bytes)
@example(b"\\ud800")
@example(b"\\ud83c\\udf89\xff")
@example(b"\\u12")
def test_json_string_decode_on_random_bytes(data):
    try:
        out = _native.json_string_decode(data)
    except UnicodeDecodeError:
        return
    assert out is None or isinstance(out, str)


# --- the scanner -------------------------------------------------------------------------------

marker_texts = st.one_of(st.just(""), st.sampled_from(MARKERS), st.sampled_from(FRAGMENTS),
                         st.text(st.sampled_from("<>/|ab｜🎉\n "), max_size=5))


@st.composite
def scans(draw):
    markers = draw(st.lists(marker_texts, max_size=64))
    pool = [m for m in markers if m] or ["x"]
    text = draw(st.lists(st.one_of(st.sampled_from(pool), st.sampled_from([m[:-1] for m in pool]), pieces_of_text),
                         max_size=25).map("".join))
    return markers, text, split(text, draw(cuts(text)))


@FUZZ
@given(scans())
@example((["ab", "abc", ""], "xxab", ["xxa", "b"]))
@example(([""] * 64, "abc", ["abc"]))
def test_scanner_with_random_markers(scan):
    markers, text, pieces = scan
    s = _native.Scanner(markers)
    longest = max((len(m.encode()) for m in markers), default=0)
    out = []
    for piece in pieces:
        out += s.feed(piece)
        assert len(s.held.encode()) <= max(longest - 1, 0)
    out += s.finish()
    assert s.held == ""
    joined = []
    for kind, value in out:
        if kind == "marker":
            assert 0 <= value < len(markers) and markers[value] != ""
            assert s.marker(value) == markers[value]
            joined.append(markers[value])
        else:
            assert kind == "text" and value != ""
            joined.append(value)
    assert "".join(joined) == text


def test_scanner_marker_limit():
    _native.Scanner(["a"] * 64)
    with pytest.raises(ValueError):
        _native.Scanner(["a"] * 65)
    with pytest.raises(TypeError):
        _native.Scanner(["a", 3])


def test_lone_surrogates_are_refused_not_crashed():
    with pytest.raises(ValueError):
        Delta("a\ud800b")
    with pytest.raises(ValueError):
        _native.Scanner(["a"]).feed("\udfff")
    p = symphony.parser("qwen3")
    assert text_of(p.feed(Delta("ok")) + p.feed(End())) == "ok"


# --- very long inputs --------------------------------------------------------------------------

MB = 1 << 20


def parse_in_chunks(table, text, size):
    p = symphony.parser(table)
    events = []
    for at in range(0, len(text), size):
        events += p.feed(Delta(text[at:at + size]))
    return events + p.feed(End())


def check(events, text):
    assert text_of(events) == text
    assert type(events[-1]) is Finish and sum(1 for e in events if type(e) is Finish) == 1


@pytest.mark.parametrize("table", list(BY_NAME))
def test_one_megabyte_of_content(table):
    body = ("héllo wörld 🎉 <think plan> \n" * (MB // 30))[:MB]
    for text in (body, "<think>" + body + "</think>" + body, "<r>" + body + "</r><b>" + body + "</b>"):
        check(symphony.parse(BY_NAME[table], text), text)
        check(parse_in_chunks(BY_NAME[table], text, 65536), text)


DEEP = 100_000


@pytest.mark.parametrize("table,text", [pytest.param(t, x, id=f"{t}-{i}") for i, (t, x) in enumerate([
    ("qwen3", '<tool_call>{"name": "f", "arguments": ' + "[" * DEEP + "]" * DEEP + "}}</tool_call>"),
    ("qwen3", '<tool_call>{"name": "f", "arguments": ' + '{"a": ' * DEEP + "1" + "}" * DEEP + "}</tool_call>"),
    ("qwen3", '<tool_call>{"arguments": ' + "[" * DEEP + ', "name": "f"}</tool_call>'),
    ("qwen3", '<tool_call>{"name": ' + "[" * DEEP),
    ("qwen2_5", '<tool_call>{"name": "f", "arguments": ' + "[{" * DEEP),
    ("xlam", "[" + '{"name": "f", "arguments": ' + "[" * DEEP + "]" * DEEP + "}]"),
    ("xlam", "[" * DEEP),
    ("plain", "[" * DEEP + "{" * DEEP),
])])
def test_deep_brackets_in_arguments(table, text):
    events = symphony.parse(table, text)
    check(events, text)
    check(parse_in_chunks(table, text, 8192), text)


def test_json_machinery_on_deep_input():
    deep = b"[" * DEEP + b"]" * DEEP
    v = _native.JsonPrefix()
    assert v.feed(deep) is not None          # nests deeper than 32: refused
    assert v.refused_at == _native.json_prefix_end(deep) <= 33
    o = _native.json_outline(b'{"name": "f", "arguments": ' + deep + b"}")
    assert o["name"] == "f" and o["arguments"] == (27, 27 + len(deep)) and o["close"] == 28 + len(deep)
    assert _native.json_string_decode(b"\\u00e9" * DEEP) == "é" * DEEP
    s = _native.Scanner(["<tool_call>", "</tool_call>"])
    out = s.feed("<" * MB) + s.finish()
    assert "".join(v for _, v in out) == "<" * MB
