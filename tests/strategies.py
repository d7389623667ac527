"""Hypothesis strategies that write like a model of a given table: the table's own markers, their
fragments and near-misses, call bodies in the table's syntax (JSON call objects; tagged or keyed
calls with typed and untyped values, escapes and near-miss tags; valid, truncated, mutated) framed
by its roles (Hy4's block too), list punctuation, whitespace and unicode; plus prompts, the
request's tools, cut plans and token layouts.

Random bytes almost never hit a marker, so outputs are joined from pieces drawn from these.
"""
import dataclasses
import functools
import json
import random

from hypothesis import assume
from hypothesis import strategies as st

from symphony.format import Emits
from symphony.formats import table as format_table
from symphony.syntax import CallObject
from symphony import text as unicode_text
from tests.common import split_at
from tests.corpus import DECLARED_KEYS, OTHER_FAMILIES_MARKERS, OTHER_KINDS, TOOLS, table_roles
from tests.oracles.scanner import merge_text, scan

WHITESPACE = [" ", "\n", "\t", "\r\n", "\n\n", "\u00a0", "\u3000", "\u2028", "\x1c"]
UNICODE = ["é", "日本", "🎉", "e\u0301", "\u200b", "ß", "\U0010ffff", "\x00"]
PUNCTUATION = ["[", "]", "{", "}", ",", ":", '"', "\\", "\\u", "\\ud83c", "\\udf89", "\\ud83c\\udf89",
               "<", ">", "/", "```", "```json\n", "'", "\\'"]
WORDS = ["Hello", "plan", "x", "true", "tru", "null", "12abc", "name", "arguments", "get_weather", "True", "None"]
NAMES = ["get_weather", "f", "日本", "", "a b", "get\\u005fweather"]


def _near_misses(marker):
    out = [marker[:-1] + "x", "x" + marker[1:], marker[: len(marker) // 2] + " " + marker[len(marker) // 2:]]
    if len(marker) > 2:
        out.append(marker[0] + marker)       # a doubled first character
        out.append(marker[:-2] + marker[-1])  # a character missing
    return out


def _pieces_of(texts):
    """Texts, their fragments (proper prefixes) and near-misses, each list sorted."""
    texts = list(dict.fromkeys(texts))
    fragments = sorted({m[:k] for m in texts for k in range(1, len(m))})
    misses = sorted({miss for m in texts for miss in _near_misses(m)})
    return texts, fragments, misses


def inner_tag_pieces(r):
    """A tagged or keyed syntax's inner tags, their fragments (`<paramete`, `</arg_ke`) and
    near-misses (`<function`, `<parameter-`), as one strategy; None for other syntaxes."""
    if not r.tags:
        return None
    return st.one_of(*(st.sampled_from(group) for group in _pieces_of(r.tags)))


@functools.cache
def marker_pieces(table):
    """The table's markers and other families' markers, their fragments, and near-misses; the
    call syntax's inner tags, their fragments and near-misses."""
    r = table_roles(table)
    markers, fragments, misses = _pieces_of(r.markers + OTHER_FAMILIES_MARKERS)
    own = list(r.markers) or list(OTHER_FAMILIES_MARKERS)
    pieces = [
        st.sampled_from(own),                 # the table's own markers, most often
        st.sampled_from(markers),
        st.sampled_from(fragments),
        st.sampled_from(misses),
    ]
    if r.tags:
        pieces.append(inner_tag_pieces(r))
    return st.one_of(*pieces)


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
JSON_SCALAR_TEXTS = json_scalars.map(json.dumps)


# Escapes as written inside a JSON string, some of them refused (lone surrogates) or lenient.
STRING_ESCAPES = ["\\ud83c\\udf89", "\\ud83c", "\\udf89", "\\ud83c\\ud83c", "\\u00e9", "\\u12", "\\n",
                  '\\"', "\\\\", "\\q", "\\/"]
# Values as written, some no JSON at all (a word that is no literal, a number run into letters).
RAW_VALUES = ["true", "false", "null", "tru", "tru e", "truex", "nul", "NaN", "12abc", "-", "1.", "1e+",
              "-0.5e-3", "{}", "[]", "[,,]", '{"a": }', "[1}", "[1, 2}"]


STRING_PARTS = st.lists(st.one_of(st.sampled_from(STRING_ESCAPES), st.text(st.sampled_from("ab é日🎉<>/"), max_size=3)),
                        max_size=3).map("".join)
JSON_SPACES = st.sampled_from(["", " ", "\n  ", "\u3000"])
JSON_KEYS = st.lists(st.sampled_from(['"a"', '"é"', '"k\\u00e9"', '"\\ud83c\\udf89"', '""']), max_size=3)


@functools.cache
@st.composite
def json_texts(draw, depth=0):
    """JSON as a model writes it: spacing varied, escapes (valid or not) inside strings, and now
    and then a raw value that is no JSON."""
    kind = draw(st.integers(0, 9 if depth < 3 else 5))
    space = draw(JSON_SPACES)
    if kind <= 1:
        return '"' + draw(STRING_PARTS) + '"'
    if kind <= 3:
        return draw(JSON_SCALAR_TEXTS)
    if kind <= 5:
        return draw(st.sampled_from(RAW_VALUES))
    if kind <= 7:
        items = draw(st.lists(json_texts(depth + 1), max_size=3))
        return "[" + ("," + space).join(items) + "]"
    members = [k + ":" + space + draw(json_texts(depth + 1)) for k in draw(JSON_KEYS)]
    return "{" + space + ("," + space).join(members) + "}"


def weighted(*pairs):
    """One of the strategies, drawn with the given integer weights (one_of would treat repeated
    strategies as one)."""
    pool = [strategy for weight, strategy in pairs for _ in range(weight)]
    return st.integers(0, len(pool) - 1).flatmap(lambda i: pool[i])


CALL_NAME_TEXTS = weighted(
    (8, st.sampled_from(NAMES).map(lambda n: json.dumps(n, ensure_ascii=False).replace("\\\\", "\\"))),
    (1, json_values.map(json.dumps)),
)
CALL_ARGUMENTS = st.one_of(st.dictionaries(st.text(st.sampled_from("abcé"), max_size=3), json_values, max_size=3),
                           json_values)
NAME_KEYS = st.sampled_from(["name"] * 6 + ["tool_name", None])
ARGUMENT_KEYS = st.sampled_from(["arguments"] * 6 + ["parameters", None])
OBJECT_SEPARATORS = st.sampled_from([", ", ",", ",\n  "])


@st.composite
def call_objects(draw):
    """One JSON call object as text: mostly a string name and arguments, now and then no name, a
    non-string name, `tool_name`/`parameters`, arguments first; spacing and escaping varied."""
    name_key = draw(NAME_KEYS)
    args_key = draw(ARGUMENT_KEYS)
    name = draw(CALL_NAME_TEXTS)
    if draw(st.booleans()):
        separators = draw(st.sampled_from([(", ", ": "), (",", ":")]))
        args_text = json.dumps(draw(CALL_ARGUMENTS), ensure_ascii=draw(st.booleans()), separators=separators)
    else:
        args_text = draw(json_texts())
    members = []
    if name_key:
        members.append(f'"{name_key}": {name}')
    if args_key:
        members.append(f'"{args_key}": {args_text}')
    if draw(st.integers(0, 4)) == 0:
        members.reverse()
    return "{" + draw(OBJECT_SEPARATORS).join(members) + "}"


JUNK = st.sampled_from(['"', "}", "]", ",", "x", " ", "\\", "{", "<", "e"])


@st.composite
def damaged(draw, texts, junk=JUNK):
    """Mostly the text as is; else cut short, or one piece of junk inserted, one character
    deleted, or one replaced by junk."""
    text = draw(texts)
    how = draw(st.sampled_from(["whole"] * 5 + ["truncate", "insert", "delete", "replace"]))
    if how == "whole" or not text:
        return text
    at = draw(st.integers(0, len(text) - 1))
    if how == "truncate":
        return text[:at]
    junk = draw(junk)
    if how == "insert":
        return text[:at] + junk + text[at:]
    if how == "delete":
        return text[:at] + text[at + 1:]
    return text[:at] + junk + text[at + 1:]


OBJECTS = damaged(call_objects())
ARGUMENT_OBJECTS = st.dictionaries(st.text(st.sampled_from("abcé"), max_size=3), json_values, max_size=3).map(
    lambda args: json.dumps(args, ensure_ascii=False))


def headed_calls(r):
    """A call in a JSON syntax with a head (DeepSeek V3/V3.1, Inkling): a name, the head's
    separator (now and then cut or missing), the object (the arguments, or a call object with
    `args`), the tail; damaged like the objects."""
    names = weighted((6, st.sampled_from(CALL_NAMES)), (1, st.sampled_from(ODD_NAMES)),
                     # a call id as Kimi K2 writes it, and a bare counter
                     (1, st.tuples(st.sampled_from(["functions.", "", "functions"]), st.sampled_from(CALL_NAMES),
                                   st.sampled_from([":0", ":12", ":", " "])).map("".join)),
                     (1, st.sampled_from(["0", " 1 "])))
    heads = st.sampled_from([r.json_head] * 6 + [r.json_head[:-1], ""])
    tails = st.sampled_from([r.json_tail or ""] * 4 + [(r.json_tail or "x")[:-1], " x", ""])
    if r.json_object == CallObject.ARGUMENTS:
        objects = weighted((4, ARGUMENT_OBJECTS), (1, OBJECTS))
    else:
        objects = weighted((3, ARGUMENT_OBJECTS.map(lambda a: '{"name":"f","args":' + a + "}")), (2, OBJECTS))
    return damaged(st.tuples(names, heads, objects, tails).map("".join))


@st.composite
def named_lists(draw):
    """A JSON list of `{"NAME": arguments}` objects as Apertus writes it, possibly damaged."""
    items = draw(st.lists(st.tuples(st.sampled_from(CALL_NAMES + ODD_NAMES), ARGUMENT_OBJECTS), max_size=3))
    body = ", ".join("{" + json.dumps(name, ensure_ascii=False) + ": " + args + "}" for name, args in items)
    return draw(damaged(st.just("[" + body + "]")))


@functools.cache
@st.composite
def json_lists(draw):
    """A JSON list of call objects as xLAM writes it, possibly with junk, unterminated, or trailed."""
    items = draw(st.lists(OBJECTS, max_size=3))
    seps = [draw(st.sampled_from([", ", ",", " , ", ",\n", " x ", ""])) for _ in items]
    body = "".join(item + (sep if i < len(items) - 1 else "") for i, (item, sep) in enumerate(zip(items, seps)))
    lead = draw(st.sampled_from(["", " ", "\n"]))
    tail = draw(st.sampled_from(["]", "]", "]", "", ",", "] ", "]x", "]\n\nDone."]))
    return lead + "[" + body + tail


# Calls in a tagged or keyed syntax: names, keys and values to write them from.
CALL_NAMES = ["get_weather", "get_time", "f", "lookup"]
ODD_NAMES = ["", " ", "日本", "get weather", "get_wea", "a<b", "x>", '"f"', "{", "get_weather\n", "f\tg", "get\\u005f"]
ODD_KEYS = ["x", "unknown", "", "é", 'k"\\', "a b", "\\ud83c", "ke\ny", "<", "k>"]
# Value texts: typed (integers, nullable strings, lists and objects in JSON and Python spelling),
# words that almost are, escapes and control characters, newlines around the value.
VALUE_TEXTS = ["Paris", "3", "+007", " 7 ", "-0", "12abc", "1e400", "9007199254740993", "null", "None", "Nonesuch",
               "nu", "nul", "Non", "True", "false", "[1, 2.5]", "['a', 'b']", "{'a': (1,)}", '{"unit": "C"}', "(1,)",
               "[1}", "{", "", '"', "\\", "\\n", "\\ud83c", "\\ud83c\\udf89", "\\u00e9", "\x00", "\x01", "\t",
               "\r\n", "\n", "\n\n", "é", "🎉", "e\u0301", "\u2028", "\U0010ffff", "/", "<", ">"]


def syntax_calls(r):
    """One call body in a tagged or keyed syntax: mostly as the family's template writes it, with
    names, keys and values drawn from declared and undeclared, typed and untyped text holding
    escapes, newlines, the syntax's tags, their fragments and near-misses, and now and then the
    table's own markers; the template's whitespace varied, text between the tags; then damaged
    like the JSON objects (cut short, a piece inserted, a character deleted or replaced)."""
    tags = inner_tag_pieces(r)
    values = st.lists(weighted((6, st.sampled_from(VALUE_TEXTS)), (2, tags), (1, st.text(max_size=3)),
                               (1, st.sampled_from(r.markers))), max_size=3).map("".join)
    keys = weighted((6, st.sampled_from(DECLARED_KEYS)), (2, st.sampled_from(ODD_KEYS)), (1, values))
    names = weighted((6, st.sampled_from(CALL_NAMES)), (2, st.sampled_from(ODD_NAMES)), (1, values))
    gaps = st.sampled_from(["", "", "", "", " ", "\n", "x", "\n\n"])

    @st.composite
    def call(draw):
        parts = [r.head(draw(names))]
        parts += [r.arg(draw(keys), draw(values)) for _ in range(draw(st.integers(0, 3)))]
        parts.append(r.tail())
        if draw(st.integers(0, 3)) == 0:     # whitespace or text between the tags
            parts = [part + draw(gaps) for part in parts]
        text = "".join(parts)
        if draw(st.integers(0, 5)) == 0:     # the other template's spacing
            text = text.replace("\n", "") if draw(st.booleans()) else text.replace(">", ">\n")
        return text

    junk = weighted((3, JUNK), (2, tags), (1, st.sampled_from(VALUE_TEXTS)))
    return damaged(call(), junk)


def other_calls(r):
    """One call body in an attribute, element or Python syntax (DSML and invokes, XTML, XML, pythonic),
    written with the family's writer from drawn names, keys and values, the syntax's own tags and
    their fragments mixed in, then damaged like the JSON objects."""
    from tests.corpus_other import writer as writer_of
    writer = writer_of(r)
    tags = inner_tag_pieces(r) if r.tags else st.sampled_from(["(", ")", "=", ",", "[", "]", "'", '"'])
    values = st.lists(weighted((6, st.sampled_from(VALUE_TEXTS)), (2, tags), (1, st.text(max_size=3)),
                               (1, st.sampled_from(r.markers))), max_size=3).map("".join)
    keys = weighted((6, st.sampled_from(DECLARED_KEYS)), (2, st.sampled_from(ODD_KEYS)))
    names = weighted((6, st.sampled_from(CALL_NAMES)), (2, st.sampled_from(ODD_NAMES)))
    pairs = st.lists(st.tuples(keys, values), max_size=3)
    calls = st.tuples(names, pairs).map(lambda call: writer.body(*call))
    return damaged(calls, weighted((3, JUNK), (2, tags), (1, st.sampled_from(VALUE_TEXTS))))


@functools.cache
def call_blocks(table):
    """Calls framed by the table's roles: each body (in the table's syntax, now and then a JSON
    object) in its call markers, several in one block where the opener repeats or the calls sit in
    a block (Hy4); markers now and then missing or cut. Other families' markers and JSON objects
    when the table has no calls."""
    r = table_roles(table)
    if r.call_open is None:
        r = dataclasses.replace(r, call_open="<tool_call>", call_close="</tool_call>", calls_repeat=True,
                                syntax="json", block_open=None, block_close=None)
    if r.syntax in ("tagged", "keyed"):
        bodies = weighted((4, syntax_calls(r)), (1, OBJECTS))
    elif r.syntax in OTHER_KINDS:
        bodies = weighted((4, other_calls(r)), (1, OBJECTS))
    elif r.syntax == "json" and r.json_head is not None:
        bodies = weighted((4, headed_calls(r)), (1, OBJECTS))
    elif r.syntax == "json_list":
        bodies = weighted((2, json_lists()), (2, named_lists()), (1, OBJECTS))
    else:
        bodies = OBJECTS
    co, cc = r.call_open, r.call_close or ""
    leads = st.sampled_from([r.lead, r.lead, "", " ", "\n"])
    trails = st.sampled_from([r.trail, r.trail, "", " x\n", "\n"])

    @st.composite
    def block(draw):
        items = [draw(bodies)]
        if r.calls_repeat or r.block_open:   # the opener inside a block starts the next call
            while draw(st.integers(0, 3)) == 0:
                items.append(draw(bodies))
        if r.block_open is None:
            lead, trail = draw(leads), draw(trails)
            close = draw(st.sampled_from([cc] * 4 + ["", co, cc[:-1]]))
            return co + co.join(lead + body + trail for body in items) + close
        # calls in a block: each in its markers, the block's closer after the last
        bo, bc = r.block_open, r.block_close or ""
        calls = [co + draw(leads) + body + draw(trails) + draw(st.sampled_from([cc] * 4 + ["", cc[:-1], bc]))
                 for body in items]
        between = draw(st.sampled_from(["", "", "\n", " x "]))
        return bo + between.join(calls) + draw(st.sampled_from([bc] * 4 + ["", bc[:-1], co]))

    return block()


@functools.cache
@st.composite
def regions_then_cut(draw, table):
    """Several call regions in one stream: one to three framed as call_blocks frames them (mostly
    closed by their markers), then one the end of the output cuts, most often before its name."""
    closed = draw(st.lists(call_blocks(table), min_size=1, max_size=3))
    between = draw(st.sampled_from(["", "\n", " x "]))
    last = draw(call_blocks(table))
    early = min(len(last), len(table_roles(table).call_open or "<tool_call>") + 12)
    cut = draw(st.one_of(st.integers(1, early), st.integers(1, len(last))))
    return between.join(closed) + between + last[:cut]


@functools.cache
def thoughts(table):
    r = table_roles(table)
    t = r.think_open or "<think>"
    tc = r.think_close or "</think>"
    inner = st.lists(weighted((3, prose()), (1, marker_pieces(table))), max_size=4).map("".join)
    return st.tuples(inner, st.sampled_from([tc, tc, tc, "", tc[:-1]])).map(lambda p: t + p[0] + p[1])


@functools.cache
def prose():
    return st.one_of(
        st.sampled_from(WORDS),
        st.sampled_from(WHITESPACE),
        st.sampled_from(UNICODE),
        st.sampled_from(PUNCTUATION),
        st.text(max_size=4),
    )


@functools.cache
def outputs(table):
    """Whole outputs for `table`: a model's shape (prose, thoughts, call blocks, or a list for a
    table whose output is its calls), a soup of markers, fragments, near-misses and objects, or
    call regions closed then one cut by the end."""
    r = table_roles(table)
    soup = st.lists(
        weighted((2, marker_pieces(table)), (1, call_blocks(table)), (1, OBJECTS), (1, json_lists()), (4, prose())),
        max_size=12,
    ).map("".join)
    segment = weighted((3, prose()), (2, thoughts(table)), (3, call_blocks(table)), (1, marker_pieces(table)))
    shaped = st.lists(segment, min_size=1, max_size=5).map("".join)
    if r.calls_initial:
        listed = st.tuples(json_lists(), st.lists(prose(), max_size=2).map("".join)).map("".join)
        return weighted((4, listed), (1, shaped), (2, soup), (1, regions_then_cut(table)))
    return weighted((3, shaped), (2, soup), (1, regions_then_cut(table)))


@dataclasses.dataclass(frozen=True)
class Prose:
    """An output written as prose: a thought (its markers written, or its opener in the prompt),
    then the answer, prose and call regions that hold no call (a region's opener, prose, and its
    closer or the end of the output); with what the message must show of it."""
    output: str
    prompt: object
    content: str        # the visible text, before a blank one is left out
    reasoning: str
    pieces: tuple       # the output as the scanner must read it: ("text", str) and ("marker", index)


UNICODE_SPACES = "".join(sorted(unicode_text.WHITESPACE))     # Unicode White_Space (SPEC §10)


def _trimmed_edges(items):
    """A wrapper state's stretch of (is_region, text) items, the Unicode whitespace at its edges
    taken off its prose (a region's text, markers and all, is never trimmed)."""
    items = [list(item) for item in items]
    for step, strip in ((1, str.lstrip), (-1, str.rstrip)):
        while items and not items[0 if step == 1 else -1][0]:
            end = items[0 if step == 1 else -1]
            end[1] = strip(end[1], UNICODE_SPACES)
            if end[1]:
                break
            items.pop(0 if step == 1 else -1)
    return "".join(text for _, text in items)


def _opens_a_list(r, text):
    """Whether an output of a table that starts among its calls (a JSON list syntax) starts as
    its list of calls: `[` then `{` or `]` (after whitespace and a ```json fence), or, for a bare
    list, `{` or `]` itself."""
    text = text.lstrip(UNICODE_SPACES)
    if text.startswith("```"):
        text = text[7 if text.startswith("```json") else 3:].lstrip(UNICODE_SPACES)
    if r.json_bare and text[:1] in ("{", "]"):
        return True
    return text[:1] == "[" and text[1:].lstrip(UNICODE_SPACES)[:1] in ("{", "]")


@functools.cache
def prose_outputs(name):
    """Prose of one table and what its message shows (a `Prose`). The parts are the table's own:
    its thought's markers, and for a call region every marker whose row opens one from where the
    answer is written (the table's `call_region_states`), closed by a row back. Outputs in which
    any other marker shows up (drawn text that spells one, a fragment completed by what follows)
    are not prose and are left out (`pieces` says what was meant)."""
    fmt = format_table(name)
    r = table_roles(name)
    states = [state for state, _ in fmt.states]
    emits = [e for _, e in fmt.states]
    terminals = [terminal for terminal, _ in fmt.terminals]
    texts = [text for _, text in fmt.terminals]
    regions = set(fmt.compile().call_region_states)

    def row(state, terminal):
        to = fmt.next(states[state], terminals[terminal])
        return None if to is None or terminals[terminal] in fmt.ignored else states.index(to)

    def written_again(first, second, between):
        """Whether marker `second` is marker `first` written again, only whitespace `between`."""
        return (first is not None and second is not None and texts[first] == texts[second]
                and not between.strip(UNICODE_SPACES))

    def opens(state, terminal):
        to = row(state, terminal)
        if to is None:
            return False
        if to in regions:
            return state not in regions
        return state == to == 0 and emits[0] == Emits.ARGUMENTS

    thought_at = row(0, texts.index(r.think_open)) if r.think_open else None
    after_thought = row(thought_at, texts.index(r.think_close)) if r.think_open and r.think_close else None
    words = st.lists(prose(), max_size=6).map("".join)

    @functools.cache
    def region_of(state):
        """(opener, the state it enters, closers back to text) of every region opener from `state`:
        a closer's row leads out of the region to `state` itself or to content."""
        found = []
        for t in range(len(texts)):
            if opens(state, t):
                entered = row(state, t)
                back = [c for c in range(len(texts))
                        if row(entered, c) is not None and row(entered, c) not in regions
                        and (row(entered, c) == state or emits[row(entered, c)] == Emits.CONTENT)]
                found.append((t, entered, back))
        return found

    @st.composite
    def write(draw):
        pieces, reasoning, prompt = [], "", None
        home = 0
        if after_thought is not None and draw(st.booleans()):
            reasoning = draw(words)
            if draw(st.booleans()):
                prompt = (fmt.opener or "") + r.think_open
            else:
                pieces.append(("marker", texts.index(r.think_open)))
            pieces += [("text", reasoning), ("marker", texts.index(r.think_close))]
            home = after_thought
        state = home
        stretch, content = [], []
        for last in range(draw(st.integers(0, 3)), -1, -1):
            mode = emits[state]
            text = draw(words)
            if not stretch and not content and mode == Emits.ARGUMENTS and r.syntax == "json_list":
                assume(not _opens_a_list(r, text))   # the output starts as its list of calls: no prose
            pieces.append(("text", text))
            (stretch if mode == Emits.WRAPPER else content).append((False, text))
            openers = region_of(state)
            if not last or not openers:
                break
            opener, entered, back = draw(st.sampled_from(openers))
            body = draw(words)
            closer = draw(st.sampled_from(back)) if back and draw(st.integers(0, 3)) else None
            # (a marker written again right after itself, whitespace aside, is one opener: rule 2
            # of docs/recovery.md, which tests/test_family_quirks.py reads; no prose here)
            before = pieces[-2][1] if len(pieces) >= 2 and pieces[-2][0] == "marker" else None
            assume(not written_again(before, opener, text) and not written_again(opener, closer, body))
            pieces += [("marker", opener), ("text", body)] + ([("marker", closer)] if closer is not None else [])
            written = texts[opener] + body + (texts[closer] if closer is not None else "")
            if closer is not None and entered == state and row(entered, closer) != state:
                # a region opened from its own state and left for a text (Inkling's
                # `<|message_model|>…<|content_text|>`) was a message's header: its markers are
                # the template's, dropped; what it held shows as it is
                written = body
            (stretch if mode == Emits.WRAPPER else content).append((True, written))
            if closer is None:
                break
            state = row(entered, closer)
            if mode == Emits.WRAPPER and emits[state] != Emits.WRAPPER:
                content.append((False, _trimmed_edges(stretch)))
                stretch = []
        if stretch:
            content.append((False, _trimmed_edges(stretch)))
        output = "".join(text if kind == "text" else texts[text] for kind, text in pieces)
        # any marker the drawn text spells, or completes, makes it no prose
        assume(merge_text(scan(output, texts)) == merge_text(pieces))
        return Prose(output, prompt, "".join(text for _, text in content), reasoning, tuple(pieces))

    return write()


def call_without_block(r):
    """(a call as the table's model writes it without its block, the block's close it may still
    write after it): a tagged function tag opens a call of its own (shapes.bare_calls); any other
    call keeps its own markers (shapes.calls_without_block)."""
    body = r.example_body()
    if r.syntax == "tagged":
        return body, r.call_close
    if r.syntax in OTHER_KINDS:
        return r.call_open + body + (r.call_close or ""), r.block_close
    return r.call(body), r.block_close


@dataclasses.dataclass(frozen=True)
class ProseAroundCalls:
    """Prose with calls written without their block among it, and what the message must show."""
    output: str
    content: str        # the prose, every byte of it, before a blank one is left out
    calls: int


@functools.cache
def prose_around_calls(name):
    """Outputs of a table that reads calls written without their block (its `Format.prose`): prose,
    then one to three such calls, each followed by prose and at times by the block's close first
    (`ProseAroundCalls`). Outputs in which the drawn text spells a marker, or completes one, are
    not drawn."""
    texts = [text for _, text in format_table(name).terminals]
    call, close = call_without_block(table_roles(name))
    words = st.lists(prose(), max_size=6).map("".join)

    def markers(text):
        return [value for kind, value in scan(text, texts) if kind == "marker"]

    @st.composite
    def write(draw):
        content, calls = [draw(words)], []
        for _ in range(draw(st.integers(1, 3))):
            calls.append(call + (close if draw(st.booleans()) else ""))
            content.append(draw(words))
        output = content[0] + "".join(c + text for c, text in zip(calls, content[1:]))
        assume(markers(output) == [marker for c in calls for marker in markers(c)])
        return ProseAroundCalls(output, "".join(content), len(calls))

    return write()


def tools():
    """The request's tools: the shared declarations mostly, sometimes none (every value inferred)."""
    return st.sampled_from([TOOLS, TOOLS, None])


@functools.cache
def prompts(table):
    r = table_roles(table)
    opener = r.opener or "<|im_start|>assistant"
    think = r.think_open or "<think>"
    close = r.think_close or "</think>"
    call = r.opens if r.call_open else "<tool_call>"
    return st.sampled_from([
        None, "", opener + "\n", opener + "\n" + think + "\n", opener + "\n" + think + "\n\n" + close + "\n\n",
        think, opener + "\n" + call + "\n", opener + "\n" + think + "\nx<|im_end|>\n" + opener + "\n",
    ])


# Cut plans and token layouts are laid out from one drawn seed: drawing each cut or token width
# from hypothesis costs more than the parse it feeds (a few hundred draws per output), and what a
# failing layout looks like is in the failure message anyway.
SEEDS = st.integers(0, 2**32 - 1)


def cuts_of(text, seed):
    """Pieces of `text` cut at seeded random character indexes (possibly none; one time in ten
    at every character)."""
    if len(text) < 2:
        return [text]
    rng = random.Random(seed)
    if rng.randrange(10) == 0:
        return list(text)
    n = len(text)
    cuts = sorted(rng.sample(range(1, n), rng.randint(0, min(n - 1, 40))))
    return split_at(text, cuts)


def layout_of(text, seed):
    """Character ranges of seeded random tokens covering `text` (1-4 characters each), some
    zero-width tokens between them, and 1-3 zero-width tokens at the end."""
    rng = random.Random(seed)
    bounds = []
    at = 0
    n = len(text)
    while at < n:
        while rng.randrange(16) == 0:
            bounds.append((at, at))
        step = rng.randint(1, 4)
        bounds.append((at, min(at + step, n)))
        at += step
    bounds += [(n, n)] * rng.randint(1, 3)
    return bounds


def cut_plans(text):
    """Pieces of `text` cut at random character indexes (possibly none, possibly all)."""
    return SEEDS.map(lambda seed: cuts_of(text, seed))


def token_layouts(text):
    """Character ranges of tokens covering `text` (1-4 characters each), some zero-width tokens
    between them, and 1-3 zero-width tokens at the end."""
    return SEEDS.map(lambda seed: layout_of(text, seed))
