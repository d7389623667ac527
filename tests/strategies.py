"""Hypothesis strategies that write like a model of a given table: the table's own markers, their
fragments and near-misses, JSON call objects (valid, truncated, mutated), list punctuation,
whitespace and unicode; plus prompts, cut plans and token layouts.

Random bytes almost never hit a marker, so outputs are joined from pieces drawn from these.
"""
import json

from hypothesis import strategies as st

from tests.common import split_at
from tests.corpus import OTHER_FAMILIES_MARKERS, table_roles

WHITESPACE = [" ", "\n", "\t", "\r\n", "\n\n", "\u00a0", "\u3000", "\u2028", "\x1c"]
UNICODE = ["é", "日本", "🎉", "e\u0301", "\u200b", "ß", "\U0010ffff", "\x00"]
PUNCTUATION = ["[", "]", "{", "}", ",", ":", '"', "\\", "\\u", "\\ud83c", "\\udf89", "\\ud83c\\udf89",
               "<", ">", "/", "```", "```json\n"]
WORDS = ["Hello", "plan", "x", "true", "tru", "null", "12abc", "name", "arguments", "get_weather"]
NAMES = ["get_weather", "f", "日本", "", "a b", "get\\u005fweather"]


def _near_misses(marker):
    out = [marker[:-1] + "x", "x" + marker[1:], marker[: len(marker) // 2] + " " + marker[len(marker) // 2:]]
    if len(marker) > 2:
        out.append(marker[0] + marker)       # a doubled first character
        out.append(marker[:-2] + marker[-1])  # a character missing
    return out


def marker_pieces(table):
    """The table's markers and other families' markers, their fragments, and near-misses."""
    r = table_roles(table)
    markers = list(dict.fromkeys(r.markers + OTHER_FAMILIES_MARKERS))
    fragments = sorted({m[:k] for m in markers for k in range(1, len(m))})
    misses = sorted({miss for m in markers for miss in _near_misses(m)})
    own = list(r.markers) or list(OTHER_FAMILIES_MARKERS)
    return st.one_of(
        st.sampled_from(own),                 # the table's own markers, most often
        st.sampled_from(markers),
        st.sampled_from(fragments),
        st.sampled_from(misses),
    )


json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(st.sampled_from("ab \"\\/\n\té日🎉<>\u2028"), max_size=6),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.text(st.sampled_from("abcé"), max_size=3), inner, max_size=3),
    ),
    max_leaves=6,
)


# Escapes as written inside a JSON string, some of them refused (lone surrogates) or lenient.
STRING_ESCAPES = ["\\ud83c\\udf89", "\\ud83c", "\\udf89", "\\ud83c\\ud83c", "\\u00e9", "\\u12", "\\n",
                  '\\"', "\\\\", "\\q", "\\/"]
# Values as written, some no JSON at all (a word that is no literal, a number run into letters).
RAW_VALUES = ["true", "false", "null", "tru", "tru e", "truex", "nul", "NaN", "12abc", "-", "1.", "1e+",
              "-0.5e-3", "{}", "[]", "[,,]", '{"a": }', "[1}", "[1, 2}"]


@st.composite
def json_texts(draw, depth=0):
    """JSON as a model writes it: spacing varied, escapes (valid or not) inside strings, and now
    and then a raw value that is no JSON."""
    kind = draw(st.integers(0, 9 if depth < 3 else 5))
    space = draw(st.sampled_from(["", " ", "\n  ", "\u3000"]))
    if kind <= 1:
        parts = draw(st.lists(st.one_of(st.sampled_from(STRING_ESCAPES),
                                        st.text(st.sampled_from("ab é日🎉<>/"), max_size=3)), max_size=3))
        return '"' + "".join(parts) + '"'
    if kind <= 3:
        return draw(json_scalars.map(json.dumps))
    if kind <= 5:
        return draw(st.sampled_from(RAW_VALUES))
    if kind <= 7:
        items = draw(st.lists(json_texts(depth + 1), max_size=3))
        return "[" + ("," + space).join(items) + "]"
    keys = draw(st.lists(st.sampled_from(['"a"', '"é"', '"k\\u00e9"', '"\\ud83c\\udf89"', '""']), max_size=3))
    members = [k + ":" + space + draw(json_texts(depth + 1)) for k in keys]
    return "{" + space + ("," + space).join(members) + "}"


def weighted(*pairs):
    """One of the strategies, drawn with the given integer weights (one_of would treat repeated
    strategies as one)."""
    pool = [strategy for weight, strategy in pairs for _ in range(weight)]
    return st.integers(0, len(pool) - 1).flatmap(lambda i: pool[i])


@st.composite
def call_objects(draw):
    """One JSON call object as text: mostly a string name and arguments, now and then no name, a
    non-string name, `tool_name`/`parameters`, arguments first; spacing and escaping varied."""
    name_key = draw(st.sampled_from(["name"] * 6 + ["tool_name", None]))
    args_key = draw(st.sampled_from(["arguments"] * 6 + ["parameters", None]))
    name = draw(weighted(
        (8, st.sampled_from(NAMES).map(lambda n: json.dumps(n, ensure_ascii=False).replace("\\\\", "\\"))),
        (1, json_values.map(json.dumps)),
    ))
    if draw(st.booleans()):
        args = draw(st.one_of(
            st.dictionaries(st.text(st.sampled_from("abcé"), max_size=3), json_values, max_size=3),
            json_values,
        ))
        separators = draw(st.sampled_from([(", ", ": "), (",", ":")]))
        args_text = json.dumps(args, ensure_ascii=draw(st.booleans()), separators=separators)
    else:
        args_text = draw(json_texts())
    members = []
    if name_key:
        members.append(f'"{name_key}": {name}')
    if args_key:
        members.append(f'"{args_key}": {args_text}')
    if draw(st.integers(0, 4)) == 0:
        members.reverse()
    sep = draw(st.sampled_from([", ", ",", ",\n  "]))
    return "{" + sep.join(members) + "}"


@st.composite
def damaged(draw, texts):
    """Mostly the text as is; else cut short, or one character inserted, deleted or replaced."""
    text = draw(texts)
    how = draw(st.sampled_from(["whole"] * 5 + ["truncate", "insert", "delete", "replace"]))
    if how == "whole" or not text:
        return text
    at = draw(st.integers(0, len(text) - 1))
    if how == "truncate":
        return text[:at]
    junk = draw(st.sampled_from(['"', "}", "]", ",", "x", " ", "\\", "{", "<", "e"]))
    if how == "insert":
        return text[:at] + junk + text[at:]
    if how == "delete":
        return text[:at] + text[at + 1:]
    return text[:at] + junk + text[at + 1:]


OBJECTS = damaged(call_objects())


@st.composite
def json_lists(draw):
    """A JSON list of call objects as xLAM writes it, possibly with junk, unterminated, or trailed."""
    items = draw(st.lists(OBJECTS, max_size=3))
    seps = [draw(st.sampled_from([", ", ",", " , ", ",\n", " x ", ""])) for _ in items]
    body = "".join(item + (sep if i < len(items) - 1 else "") for i, (item, sep) in enumerate(zip(items, seps)))
    lead = draw(st.sampled_from(["", " ", "\n"]))
    tail = draw(st.sampled_from(["]", "]", "]", "", ",", "] ", "]x", "]\n\nDone."]))
    return lead + "[" + body + tail


def call_blocks(table):
    """A call object framed by the table's call markers (other families' when it has none)."""
    r = table_roles(table)
    co = r.call_open or "<tool_call>"
    cc = r.call_close or "</tool_call>"

    @st.composite
    def block(draw):
        bodies = [draw(OBJECTS)]
        if r.calls_repeat:   # the opener inside a block starts the next call
            while draw(st.integers(0, 3)) == 0:
                bodies.append(draw(OBJECTS))
        lead = draw(st.sampled_from(["\n", "\n", "", " "]))
        trail = draw(st.sampled_from(["\n", "\n", "", " x\n"]))
        close = draw(st.sampled_from([cc] * 4 + ["", co, cc[:-1]]))
        return co + co.join(lead + body + trail for body in bodies) + close

    return block()


def thoughts(table):
    r = table_roles(table)
    t = r.think_open or "<think>"
    tc = r.think_close or "</think>"
    inner = st.lists(weighted((3, prose()), (1, marker_pieces(table))), max_size=4).map("".join)
    return st.tuples(inner, st.sampled_from([tc, tc, tc, "", tc[:-1]])).map(lambda p: t + p[0] + p[1])


def prose():
    return st.one_of(
        st.sampled_from(WORDS),
        st.sampled_from(WHITESPACE),
        st.sampled_from(UNICODE),
        st.sampled_from(PUNCTUATION),
        st.text(max_size=4),
    )


def outputs(table):
    """Whole outputs for `table`: a model's shape (prose, thoughts, call blocks, or a list for a
    table whose output is its calls), or a soup of markers, fragments, near-misses and objects."""
    r = table_roles(table)
    soup = st.lists(
        weighted((2, marker_pieces(table)), (1, call_blocks(table)), (1, OBJECTS), (1, json_lists()), (4, prose())),
        max_size=12,
    ).map("".join)
    segment = weighted((3, prose()), (2, thoughts(table)), (3, call_blocks(table)), (1, marker_pieces(table)))
    shaped = st.lists(segment, min_size=1, max_size=5).map("".join)
    if r.calls_initial:
        listed = st.tuples(json_lists(), st.lists(prose(), max_size=2).map("".join)).map("".join)
        return weighted((4, listed), (1, shaped), (2, soup))
    return weighted((3, shaped), (2, soup))


def prompts(table):
    r = table_roles(table)
    opener = r.opener or "<|im_start|>assistant"
    think = r.think_open or "<think>"
    close = r.think_close or "</think>"
    call = r.call_open or "<tool_call>"
    return st.sampled_from([
        None, "", opener + "\n", opener + "\n" + think + "\n", opener + "\n" + think + "\n\n" + close + "\n\n",
        think, opener + "\n" + call + "\n", opener + "\n" + think + "\nx<|im_end|>\n" + opener + "\n",
    ])


@st.composite
def cut_plans(draw, text):
    """Pieces of `text` cut at random character indexes (possibly none, possibly all)."""
    if len(text) < 2:
        return [text]
    if draw(st.integers(0, 9)) == 0:
        return list(text)
    cuts = sorted(draw(st.sets(st.integers(1, len(text) - 1), max_size=min(len(text) - 1, 40))))
    pieces = split_at(text, cuts)
    return pieces


@st.composite
def token_layouts(draw, text):
    """Character ranges of tokens covering `text` (1-4 characters each), some zero-width tokens
    between them, and at least one zero-width token at the end."""
    bounds = []
    at = 0
    n = len(text)
    while at < n:
        while draw(st.integers(0, 15)) == 0:
            bounds.append((at, at))
        step = draw(st.integers(1, 4))
        bounds.append((at, min(at + step, n)))
        at += step
    bounds.append((n, n))
    return bounds
