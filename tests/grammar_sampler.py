"""Outputs a guided-decoding grammar admits, drawn at random from its structural tag, with the
calls each one spells: the sampler behind the grammar <-> parser property (tests/test_grammar.py).

The payload is walked node by node with xgrammar's meaning of each node type (SPEC §8): a
sequence, an `or` (one branch), `optional`/`star`/`plus`, constants, a regex (the small subset
the builder writes), `any_text` (text holding none of its excludes nor the end of the tag around
it), a JSON schema (a value of the schema, JSON with whitespace between tokens), tags, triggered
tags (free text holding no trigger between tags) and tags with a separator.

The tools drawn for (`tool_list`) mix plain names and keys with ones no syntax can write, or
some cannot: the grammar refuses those tools (a ValueError naming the name or key).

What an output spells is read off the builder's own structure: the payload is built once more
with the call bodies, the parameter slots and the values of symphony.grammar.calls marked (the
marks are checked to leave the language unchanged), so the sampler knows each call's function,
each slot's key and the text of its value. The syntax's rules turn that text into the value the
parser must give (tests/oracles/value.py): the template's newline on each side of an own-line
value, DSML's `string` and XTML's `type` attributes, else the kind the tool declares.
"""
import contextlib
import dataclasses
import importlib
import json
import re
from unittest import mock

import symphony

from symphony.grammar import calls as grammar_calls
from symphony.formats import table as format_table
from tests.oracles import value as value_oracle

grammar_module = importlib.import_module("symphony.grammar")     # (symphony.grammar is also the function)
MARK = "x_mark"          # a node of the marked payload only: {"type", "role", "content", ...}

# Pieces free text is drawn from, beside the payload's own constants and their fragments.
PLAIN = list("abcxyzABZ019_-.") + ["Paris", "hello world", "null", "None", "True", "false", "12", "-3.5", "0x1F",
                                   "[1, 2]", '{"a": 1}', "{'a': 1}", "é", "日本", "🎉", "ß", "\u200b"]
PUNCTUATION = [" ", "  ", "\n", "\t", "\r\n", "\n\n", "\u00a0", '"', "'", "\\", "<", ">", "=", "/", ":", ",", "{",
               "}", "[", "]", "|", "`"]
WHITESPACE_PATTERN = r"[ \t\r\n]*"


@contextlib.contextmanager
def marked_builder():
    """While open, symphony.grammar builds payloads with marks: each call body (its function's
    name), each parameter slot (its key, None for a schema without properties, and its schema)
    and each value (the value node, with a pinned value's optional newlines around it)."""
    real_for_syntax, real_slots = grammar_module.for_syntax, grammar_calls.slots
    real_value, real_pinned = grammar_calls.value, grammar_calls.pinned

    def for_syntax(syntax):
        shape = real_for_syntax(syntax)
        if shape is None:
            return None
        return dataclasses.replace(shape, body=lambda name, parameters, exits: _mark(
            "call", shape.body(name, parameters, exits), name=name))

    def slots(parameters, slot, generic):
        return real_slots(parameters, lambda key, prop: _mark("slot", slot(key, prop), key=key, prop=prop),
                          _mark("slot", generic, key=None, prop=None))

    def value(prop, python, free_text):
        node, is_pinned = real_value(prop, python, free_text)
        return _mark("value", node), is_pinned

    def pinned(node, is_pinned, newline):
        return _mark("value", real_pinned(node, is_pinned, newline))

    with mock.patch.object(grammar_module, "for_syntax", for_syntax), \
            mock.patch.object(grammar_calls, "slots", slots), mock.patch.object(grammar_calls, "value", value), \
            mock.patch.object(grammar_calls, "pinned", pinned):
        yield


def _mark(role, content, **info):
    return {"type": MARK, "role": role, "content": content, **info}


def marked_format(fmt, tools, at_least_one, reasoning_open):
    """The `format` of `symphony.grammar(fmt, tools, ...)` with the builder's marks (None: no grammar)."""
    with marked_builder():
        return grammar_module._format(fmt, grammar_module._declared(tools), at_least_one, reasoning_open)


def unmarked(node):
    """A (marked) payload node without marks, in one normal form (sequences spliced, constants
    joined, one-branch `or`s and one-element sequences unwrapped), so that two payloads that
    build the same language the same way compare equal."""
    if isinstance(node, list):
        return [unmarked(n) for n in node]
    if not isinstance(node, dict):
        return node
    if node.get("type") == MARK:
        return unmarked(node["content"])
    out = {k: unmarked(v) for k, v in node.items()}
    if out.get("type") == "sequence":
        parts = []
        for part in out["elements"]:
            for piece in part["elements"] if part.get("type") == "sequence" else [part]:
                if piece.get("type") == "const_string" and parts and parts[-1].get("type") == "const_string":
                    parts[-1] = {"type": "const_string", "value": parts[-1]["value"] + piece["value"]}
                elif piece != {"type": "const_string", "value": ""}:
                    parts.append(piece)
        return parts[0] if len(parts) == 1 else {"type": "sequence", "elements": parts}
    if out.get("type") == "or" and len(out["elements"]) == 1:
        return out["elements"][0]
    return out


def constants(node):
    """Every constant text in a payload (tag begins and ends, triggers, separators, const nodes)."""
    found = []
    if isinstance(node, list):
        for n in node:
            found += constants(n)
    elif isinstance(node, dict):
        kind = node.get("type")
        if kind == "const_string":
            found.append(node["value"])
        elif kind == "tag":
            found += node["end"] if isinstance(node["end"], list) else [node["end"]]
            found.append(node["begin"])
        elif kind == "triggered_tags":
            found += node["triggers"]
        elif kind == "tags_with_separator":
            found.append(node["separator"])
        for key, value in node.items():
            if key not in ("json_schema",) and isinstance(value, (dict, list)):
                found += constants(value)
    return [c for c in found if c]


@dataclasses.dataclass
class Spelled:
    """One call an output spells: the function, and its arguments as (key, JSON text) pairs in the
    order written."""
    name: str
    pairs: list = dataclasses.field(default_factory=list)


class Sampler:
    """Draws one output of a (marked) payload: `draw(node)`, then `text()` and `calls`."""

    def __init__(self, rng, fmt, pieces, markers):
        self.rng = rng
        self.markers = markers
        self.syntax = fmt.syntax
        native = fmt.compile().syntax
        self.own_line = bool(getattr(native, "own_line", False))
        self.pieces = pieces
        self.out = []
        self.length = 0
        self.calls = []
        self.slot = None           # the slot being drawn: {"key", "prop", "start", "leaves", "value"}
        self.values = []           # the JSON values drawn, in order

    def text(self):
        return "".join(self.out)

    def emit(self, text, kind=None):
        if self.slot is not None and kind is not None:
            self.slot["leaves"].append((kind, text, self.length))
        self.out.append(text)
        self.length += len(text)

    # --- nodes -----------------------------------------------------------------------------------

    def draw(self, node, ends=()):
        getattr(self, "draw_" + node["type"])(node, ends)

    def draw_x_mark(self, node, ends):
        role = node["role"]
        if role == "call":
            self.calls.append(Spelled(node["name"]))
            self.draw(node["content"], ends)
        elif role == "slot":
            outer, self.slot = self.slot, {"key": node["key"], "prop": node["prop"], "start": self.length,
                                           "leaves": [], "value": None}
            self.draw(node["content"], ends)
            self.calls[-1].pairs.append(self.slot_pair(self.slot))
            self.slot = outer
        else:
            start = self.length
            self.draw(node["content"], ends)
            # a value's mark inside a pinned value's: the outer one, with its newlines, is the value
            if self.slot is not None and (self.slot["value"] is None or start <= self.slot["value"][0]):
                self.slot["value"] = (start, self.text()[start:])

    def draw_sequence(self, node, ends):
        for element in node["elements"]:
            self.draw(element, ends)

    def draw_or(self, node, ends):
        self.draw(self.rng.choice(node["elements"]), ends)

    def draw_optional(self, node, ends):
        if self.rng.random() < 0.5:
            self.draw(node["content"], ends)

    def draw_star(self, node, ends):
        for _ in range(self.rng.choice((0, 0, 1, 1, 2, 3))):
            self.draw(node["content"], ends)

    def draw_plus(self, node, ends):
        for _ in range(self.rng.choice((1, 1, 2, 3))):
            self.draw(node["content"], ends)

    def draw_const_string(self, node, ends):
        self.emit(node["value"], "const")

    def draw_any_text(self, node, ends):
        self.emit(self.free_text(list(node["excludes"]) + list(ends)), "text")

    def draw_regex(self, node, ends):
        self.emit(regex_text(node["pattern"], self.rng), "regex" if node["pattern"] != WHITESPACE_PATTERN else "space")

    def draw_json_schema(self, node, ends):
        assert "style" not in node, f"a JSON schema style the sampler does not write: {node['style']}"
        # JSON that writes none of the table's markers and the syntax's tags (its strings' quotes
        # close around them too): drawn again until it does not
        banned = self.markers + list(ends)
        for _ in range(50):
            value = json_value(node["json_schema"], self.rng, self)
            written = json_text(value, self.rng)
            if not any(marker in written for marker in banned):
                break
        else:
            raise AssertionError(f"no JSON of {node['json_schema']} without the markers {banned}")
        self.values.append(value)
        self.emit(written, "json")
        if self.calls and self.slot is None:
            self.calls[-1] = _spelled(self.calls[-1].name, value)     # JSON written whole: the arguments

    def draw_tag(self, node, ends):
        end = node["end"]
        ends = end if isinstance(end, list) else [end]
        self.emit(node["begin"], "const")
        self.draw(node["content"], tuple(e for e in ends if e))
        self.emit(self.rng.choice(ends), "const")

    def draw_triggered_tags(self, node, ends):
        count = self.rng.choice((0, 1, 1, 2, 3)) or (1 if node["at_least_one"] else 0)
        triggers = list(node["triggers"]) + list(node.get("excludes", ()))
        for _ in range(count):
            self.emit(self.free_text(list(triggers) + list(ends), after=self.text()))
            self.draw(self.rng.choice(node["tags"]), ends)
        self.emit(self.free_text(list(triggers) + list(ends), after=self.text()))

    def draw_tags_with_separator(self, node, ends):
        count = self.rng.choice((0, 1, 1, 2, 3)) or (1 if node["at_least_one"] else 0)
        for k in range(count):
            if k:
                self.emit(node["separator"], "const")
            self.draw(self.rng.choice(node["tags"]), ends)

    # --- text ------------------------------------------------------------------------------------

    def free_text(self, excludes, after=""):
        """Text holding none of `excludes` (nor forming one with the `after` it follows): a few
        pieces, often the payload's own constants and their fragments."""
        excludes = [e for e in excludes if e]
        text = ""
        for _ in range(self.rng.choice((0, 1, 1, 2, 3, 5, 8))):
            roll = self.rng.random()
            if roll < 0.35:
                piece = self.rng.choice(PLAIN)
            elif roll < 0.65 or not self.pieces:
                piece = self.rng.choice(PUNCTUATION)
            else:
                constant = self.rng.choice(self.pieces)
                cut = self.rng.choice((len(constant), self.rng.randrange(1, len(constant) + 1)))
                piece = constant[:cut] if self.rng.random() < 0.7 else constant[-cut:]
            joined = after[-64:] + text + piece
            if not any(e in joined for e in excludes):
                text += piece
        return text

    # --- what a slot spells ----------------------------------------------------------------------

    def slot_pair(self, slot):
        """(key, JSON text) of a drawn slot: its key (a schema's, or the text drawn for it), the
        text of its value read by the syntax's rules."""
        leaves = slot["leaves"]
        key = slot["key"]
        if key is None:
            key = next(text for kind, text, _ in leaves if kind in ("text", "regex"))
        if slot["value"] is not None:
            start, value = slot["value"]
        else:
            _, value, start = [leaf for leaf in leaves if leaf[0] in ("text", "json")][-1]
        head = self.text()[slot["start"]:start]
        kind = self.value_kind(head, slot["prop"])
        if self.own_line:
            value = value[1:] if value.startswith("\n") else value
            value = value[:-1] if value.endswith("\n") else value
        return key, value_oracle.to_json(value, kind)

    def value_kind(self, head, prop):
        """The kind a value is read under: DSML's `string` attribute, XTML's `type`, else what the
        tool declares (`head`: the slot's text up to its value)."""
        if self.syntax.kind == "dsml":
            return value_oracle.STRING if head.endswith(' string="true">') else None
        if self.syntax.kind == "xtml":
            written = re.search(r' type="([^"]*)"<\|sep\|>$', head)
            return value_oracle.STRING if written and written.group(1) == "string" else None
        return value_oracle.kind_of(prop) if prop is not None else None

    def string(self):
        """A JSON string's text (the JSON it is written in holds none of the table's markers and
        the syntax's tags, which the parser reads wherever they are: xgrammar's JSON schema cannot
        keep them out of a string, the one kind of admitted output not drawn)."""
        return self.free_text(self.markers)


# --- regex subset ---------------------------------------------------------------------------------

_REGEX_ATOM = re.compile(r"(\[\^?(?:\\.|[^\]])+\]|\\.|[^\[\\*+?{()|])([*+?]|\{\d+(?:,\d*)?\})?")
_ESCAPES = {"t": "\t", "r": "\r", "n": "\n", "v": "\x0b", "f": "\x0c"}
_REGEX_ALPHABET = list("abcxyzAZ0189_ -<>=/\"'.:|\t\n\r") + ["é", "日", "🎉", "｜"]


def regex_text(pattern, rng):
    """A string the regex matches, for the subset the builder writes: character classes (ranges,
    negation, \\t \\r \\n \\v \\f), literals, groups, alternation, and `*`, `+`, `?`, `{m,n}`."""
    out, at = _regex_alternatives(pattern, 0, rng)
    assert at == len(pattern), f"regex outside the sampler's subset: {pattern!r}"
    assert re.fullmatch(pattern, out), (pattern, out)
    return out


def _regex_alternatives(pattern, at, rng):
    """(a string one of the alternatives from `at` matches, where they end: `)` or the end)."""
    branches = []
    while True:
        branch, at = _regex_sequence(pattern, at, rng)
        branches.append(branch)
        if at < len(pattern) and pattern[at] == "|":
            at += 1
            continue
        return rng.choice(branches), at


def _regex_sequence(pattern, at, rng):
    out = ""
    while at < len(pattern) and pattern[at] not in "|)":
        if pattern[at] == "(":
            start = at
            _, at = _regex_alternatives(pattern, at + 1, rng)
            assert pattern[at] == ")", f"regex outside the sampler's subset: {pattern!r}"
            at += 1
            group = pattern[start:at]
            quantifier, at = _quantifier(pattern, at)
            out += "".join(_regex_alternatives(group[1:-1], 0, rng)[0] for _ in range(_count(quantifier, rng)))
            continue
        match = _REGEX_ATOM.match(pattern, at)
        assert match, f"regex outside the sampler's subset: {pattern!r}"
        at = match.end()
        chars = _class_chars(match.group(1))
        out += "".join(rng.choice(chars) for _ in range(_count(match.group(2), rng)))
    return out, at


def _quantifier(pattern, at):
    match = re.compile(r"[*+?]|\{\d+(?:,\d*)?\}").match(pattern, at)
    return (match.group(0), match.end()) if match else (None, at)


def _count(quantifier, rng):
    low, high = {None: (1, 1), "*": (0, 3), "+": (1, 4), "?": (0, 1)}.get(quantifier, (None, None))
    if low is None:
        bounds = quantifier[1:-1].split(",")
        low = int(bounds[0])
        high = low if len(bounds) == 1 else (int(bounds[1]) if bounds[1] else low + 3)
    return rng.randint(low, high)


def _class_chars(atom):
    if not atom.startswith("["):
        return [_ESCAPES.get(atom[1], atom[1]) if atom.startswith("\\") else atom]
    body, negated = atom[1:-1], atom.startswith("[^")
    body = body[1:] if negated else body
    members, k = set(), 0
    while k < len(body):
        c = body[k]
        if c == "\\":
            c = _ESCAPES.get(body[k + 1], body[k + 1])
            k += 1
        if k + 2 < len(body) and body[k + 1] == "-":
            members.update(chr(o) for o in range(ord(c), ord(body[k + 2]) + 1))
            k += 3
            continue
        members.add(c)
        k += 1
    if negated:
        return [c for c in _REGEX_ALPHABET if c not in members]
    return sorted(members)


# --- JSON values of a schema -----------------------------------------------------------------------

def json_value(schema, rng, sampler, depth=0):
    """A value the JSON schema admits (the keywords the builder's tools use)."""
    if schema is True or not isinstance(schema, dict) or not schema:
        return _any_value(rng, sampler, depth)
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return rng.choice(schema["enum"])
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            return json_value(rng.choice(schema[key]), rng, sampler, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = rng.choice(kind)
    if kind == "string":
        return sampler.string()
    if kind == "integer":
        return rng.choice((0, 7, -12, 2 ** 53 + 1, 10 ** 20))
    if kind == "number":
        return rng.choice((0, 1.5, -0.25, 3, 1e21, 2.5e-8))
    if kind == "boolean":
        return rng.choice((True, False))
    if kind == "null":
        return None
    if kind == "array":
        items = schema.get("items", True)
        low = schema.get("minItems", 0)
        return [json_value(items, rng, sampler, depth + 1) for _ in range(rng.randint(low, low + 2))]
    if kind == "object" or "properties" in schema:
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        if not props:
            return _any_value(rng, sampler, depth, container="object")
        required = schema.get("required") or ()
        return {key: json_value(prop, rng, sampler, depth + 1) for key, prop in props.items()
                if key in required or rng.random() < 0.6}
    return _any_value(rng, sampler, depth)


def _any_value(rng, sampler, depth, container=None):
    kind = container or rng.choice(("string", "integer", "number", "boolean", "null", "array", "object"))
    if depth > 4 and kind in ("array", "object") and container is None:
        kind = "string"
    size = rng.randint(0, 2) if depth <= 4 else 0
    if kind == "array":
        return [_any_value(rng, sampler, depth + 1) for _ in range(size)]
    if kind == "object":
        return {rng.choice(("a", "b", "k_1", "日本", "x y")): _any_value(rng, sampler, depth + 1) for _ in range(size)}
    return json_value({"type": kind}, rng, sampler, depth)


def json_text(value, rng):
    """The JSON of a value with whitespace xgrammar allows between tokens (none, a space, a newline)."""
    item, key = rng.choice(((", ", ": "), (",", ":"), (",\n", ": ")))
    return json.dumps(value, ensure_ascii=rng.random() < 0.3, separators=(item, key))


# --- the tools drawn for ------------------------------------------------------------------------

KEYS = ["city", "n", "unit_1", "x"]
NAMES = ["get_weather", "f", "ping_2"]
# names and keys some syntax cannot write (a delimiter, a tag, a marker, whitespace it trims, none)
HOSTILE_KEYS = ["a>b", 'q"k', 'k">', "", " ", " a", "a ", "a b", "a\nb", "<x", "x<y", "=", "'", "\\", "{", "k:1",
                "日本", "</parameter>", "<tool_call>", "a|b", "｜", "<|sep|>", "$", "&amp;"]
HOSTILE_NAMES = ["a b", "x>y", 'q"n', "<t>", "日本", "a:b", "f\n", " f", "f ", "a.b", "a-b", "f:0", "x<y", "{f}", "f'",
                 "a/b", "a=b", "<tool_call>"]
PROPERTIES = [{"type": "string"}, {"type": "string", "enum": ["celsius", "fahrenheit"]}, {"type": "integer"},
              {"type": "number"}, {"type": "boolean"}, {"type": "null"}, {"type": "object"},
              {"type": "array", "items": {"type": "string"}}, {}, {"anyOf": [{"type": "string"}, {"type": "integer"}]},
              {"type": ["string", "null"]}, {"enum": ["a", None]}]


def tool_list(rng):
    """One to three tools: every kind of property, some tools without properties, a name or key
    from HOSTILE_NAMES / HOSTILE_KEYS now and then."""
    tools = []
    for i in range(rng.randint(1, 3)):
        name = rng.choice(HOSTILE_NAMES) if rng.random() < 0.15 else rng.choice(NAMES) + str(i)
        if rng.random() < 0.15:
            parameters = {"type": "object"}
        else:
            keys = list(dict.fromkeys(rng.choice(HOSTILE_KEYS) if rng.random() < 0.2 else rng.choice(KEYS)
                                      for _ in range(rng.randint(1, 4))))
            parameters = {"type": "object", "properties": {k: rng.choice(PROPERTIES) for k in keys},
                          "required": [k for k in keys if rng.random() < 0.5]}
        tools.append({"type": "function", "function": {"name": name, "parameters": parameters}})
    return tools


def hostile(tools):
    """The names and keys of `tools` taken from HOSTILE_NAMES and HOSTILE_KEYS."""
    found = []
    for tool in tools:
        function = tool["function"]
        found += [function["name"]] if function["name"] in HOSTILE_NAMES else []
        found += [k for k in function["parameters"].get("properties") or {} if k in HOSTILE_KEYS]
    return found


# --- one drawn output ----------------------------------------------------------------------------

def constrained_format(tool_choice):
    """The Format of a tool_choice's constrained output ("required", or a function's name)."""
    return grammar_module._tool_choice_format(tool_choice)


def draw(fmt_or_name, tools, rng, at_least_one=False, reasoning_open=False):
    """(output, [Spelled], payload) of one output the table's grammar admits for `tools`, or None
    when the table has no grammar for them. A constrained table's output is one JSON value: its
    calls are read from it (the function's arguments; a list of `{"name", "parameters"}`)."""
    fmt = format_table(fmt_or_name) if isinstance(fmt_or_name, str) else fmt_or_name
    payload = symphony.grammar(fmt, tools, at_least_one=at_least_one, reasoning_open=reasoning_open)
    if payload is None:
        return None
    marked = marked_format(fmt, tools, at_least_one, reasoning_open)
    assert unmarked(marked) == unmarked(payload["format"]), "the marks changed the payload"
    shape = grammar_calls.for_syntax(fmt.syntax)
    markers = [text for _, text in fmt.terminals] + list(shape.inner if shape is not None else ())
    sampler = Sampler(rng, fmt, sorted(set(constants(payload["format"]))), markers)
    sampler.draw(marked)
    calls = sampler.calls
    if fmt.syntax.kind == "forced":
        calls = [_spelled(fmt.syntax.function, sampler.values[0])]
    elif fmt.syntax.kind == "required":
        calls = [_spelled(call["name"], call["parameters"]) for call in sampler.values[0]]
    return sampler.text(), calls, payload


def _spelled(name, arguments):
    """The call of a function whose arguments are written whole as JSON."""
    return Spelled(name, [(k, json.dumps(v, ensure_ascii=False)) for k, v in arguments.items()])
