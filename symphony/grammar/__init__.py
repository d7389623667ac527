"""Guided-decoding grammars from the tables (SPEC §8): the structural tag
(`{"type": "structural_tag", "format": ...}`, xgrammar's format, which vLLM and SGLang accept)
that constrains a model to write its calls in its table's own call syntax, to the request's
tools and their schemas. Everything is read from the table: the call region's opener and close
(the rows into and out of the arguments state), the block around it (a wrapper state the calls
are opened from, and its own rows in and out), the thought and its close, and the call syntax's
own parameters (grammar.calls). A new table gets its grammar without an edit here.

Shapes. Calls written bare in the content (Qwen3, GLM, MiniCPM5): `triggered_tags` on the call
opener, one tag per opener whose content is one of the tools' calls. Calls in a block (Hy4,
DeepSeek, Kimi, MiniMax M2, dots, K2-Horizon): `triggered_tags` on the block's opener, whose tag
holds one or more calls with whitespace (and the block's own dropped markers) between. Free
text outside the tags is the content (a thought it opens that holds no call, a tag of its own); where the initial state is a wrapper whose text is no
content (Kimi K3's message), its regions (a thought, an answer, the calls' block) follow one
another with whitespace between. Messages (gpt-oss: a thought, an answer or a call, joined by
`<|start|>assistant`): `tags_with_separator`, one tag per kind of message.
With `reasoning_open` (the generation prompt leaves the output inside a thought) the grammar
first takes the thought, text up to the thought's close, holding no table marker. Where a
recorded fixture showed SPEC §8's exact shape rejecting what a template writes, the shape here is
looser: whitespace around a JSON call object and between invoke/DSML/XTML tags, a keyed
template's spacing after a pair optional, DSML parameters typed by the tools' schemas. Where it
admitted what the table's parser reads otherwise, tighter: every output the grammar admits is read
as the calls it spells (tests/test_grammar.py draws them), and a tool whose name or key the syntax
cannot write is refused (grammar.calls).

None (no grammar) where SPEC §8 says so: a table with no calls or no tool left once tools with
empty names are dropped; the pythonic, JSON-list and XML element-tree syntaxes (the gateway's
JSON-schema path); and beyond SPEC §8: Gemma 4's object notation (its `<|"|>` string quotes are
no JSON), a table whose output starts inside the call region or has more than one (Inkling,
Muse Glimmer: whether the first message is a call is not known before it is written), and a
thought with no close back to where it opened when `reasoning_open` is asked.

Tool choice (SPEC §6): with `tool_choice` "required" the output is a JSON list of
`{"name", "parameters"}` calls; a forced function's output is its arguments: a `json_schema`
node of its parameters (None when no tool of that name is declared). The constrained tables
(`symphony.constrained(...)`, `symphony.tool_choice.table(...)`) give the same.
"""
import functools
import json
import math

from symphony import _native
from symphony import tool_choice as _tool_choice
from symphony.format import Emits, Format
from symphony.formats import TABLES
from symphony.grammar.calls import for_syntax
from symphony.grammar.nodes import (WS, const, either, joined, optional, plus, regex, schema, seq, star, tag, text,
                                    triggered)
from symphony.resolve import resolve
from symphony.syntax import CallSyntax


def grammar(format_or_model, tools, at_least_one=False, reasoning_open=False, tool_choice=None):
    """The structural-tag payload that constrains an output of `format_or_model` (a table name,
    a `Format`, a compiled table, or a model id `symphony.for_model` knows) to calls of `tools`
    (OpenAI function tools) in its table's syntax, or None where there is none (module doc).
    `at_least_one`: the output must hold a call. `reasoning_open`: the generation prompt leaves
    the output inside a thought. `tool_choice`: the request's; "required" or a forced function
    give the constrained output's grammar (SPEC §6)."""
    choice = _tool_choice.for_tool_choice(tool_choice)
    if choice is not None:
        return _for_table(_tool_choice_format(choice), tools, at_least_one, reasoning_open)
    return _for_table(_resolve(format_or_model), tools, at_least_one, reasoning_open)


def _for_table(fmt, tools, at_least_one, reasoning_open):
    declared = _declared(tools)
    if not declared:
        return None
    # cached per (table contents, tools, flags); each caller gets its own copy of the payload
    key = (tuple(fmt.terminals), tuple(fmt.states), tuple(fmt.transitions), fmt.syntax,
           json.dumps(declared, sort_keys=True, default=str), bool(at_least_one), bool(reasoning_open))
    if key not in _CACHE:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        body = _format(fmt, declared, bool(at_least_one), bool(reasoning_open))
        _CACHE[key] = None if body is None else json.dumps({"type": "structural_tag", "format": body},
                                                           ensure_ascii=False)
    return None if _CACHE[key] is None else json.loads(_CACHE[key])


_CACHE = {}
_CACHE_SIZE = 256


def _declared(tools):
    """(name, parameters) per tool, as the parser reads them (`tool["function"]` or the tool
    itself; `parameters`, Anthropic's `input_schema` or MCP's `inputSchema`; the first of a name
    wins); empty names and non-tools dropped, parameters that are no object read as none. A
    parameters object that is no JSON Schema is a ValueError (`_schema_fault`)."""
    found = {}
    for tool in tools or ():
        function = tool.get("function", tool) if isinstance(tool, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        if isinstance(name, str) and name and name not in found:
            parameters = next((function[key] for key in _native.TOOL_SCHEMA_KEYS
                               if function.get(key) is not None), None)
            if not isinstance(parameters, dict):
                parameters = {"type": "object", "properties": {}}
            fault = _schema_fault(parameters)
            if fault is not None:
                raise ValueError(f"grammar: tool {name!r}: its parameters schema at {fault[0] or '/'}: {fault[1]}")
            found[name] = parameters
    return list(found.items())


# Where a value sits in a schema: a schema, an object of schemas (`properties`), a list of
# schemas (`anyOf`), or plain JSON (`default`, `enum`'s values, an unknown keyword's value).
_SCHEMA, _SCHEMA_MAP, _SCHEMA_LIST, _DATA = range(4)
# JSON Schema's keywords whose value is a schema, an object of schemas, or a list of schemas
# (`items` may also be a list: the older drafts' tuple form)
_KEYWORD_ROLES = dict.fromkeys(("items", "additionalProperties", "additionalItems", "not", "if", "then", "else",
                                "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties"), _SCHEMA)
_KEYWORD_ROLES.update(dict.fromkeys(("properties", "patternProperties", "$defs", "definitions", "dependentSchemas"),
                                    _SCHEMA_MAP))
_KEYWORD_ROLES.update(dict.fromkeys(("anyOf", "oneOf", "allOf", "prefixItems"), _SCHEMA_LIST))
# keywords the grammar reads, and what each holds: a list of (what)
_KEYWORD_LISTS = {"required": ("property names", str), "enum": ("values", object), "type": ("type names", str)}
_WHAT = {_SCHEMA: "schema (an object or a boolean)", _SCHEMA_MAP: "object of schemas",
         _SCHEMA_LIST: "list of schemas"}


def _schema_fault(parameters):
    """(JSON pointer, what is wrong) of the first place where `parameters` is no JSON Schema the
    grammar can hand on, or None: a value that is no JSON (a set, bytes, a key that is no string,
    a float that is not finite, a container inside itself), a schema that is neither an object nor
    a boolean, or a keyword the grammar reads in a shape it cannot (`required`, `enum` and `type`
    no list of names, values, type names; `type` may be one name)."""
    work = [(parameters, "", _SCHEMA)]
    open_ids = set()                  # the containers on the path walked: a cycle comes back to one
    while work:
        value, pointer, role = work.pop()
        if role is None:              # leaving a container
            open_ids.discard(id(value))
            continue
        if role == _SCHEMA and type(value) is bool:
            continue
        container = isinstance(value, (dict, list, tuple))
        if role != _DATA and not isinstance(value, dict if role != _SCHEMA_LIST else (list, tuple)):
            return pointer, f"{_shown(value)} is no {_WHAT[role]}"
        if not container:
            if not (value is None or isinstance(value, (str, bool, int))
                    or (isinstance(value, float) and math.isfinite(value))):
                return pointer, f"{_shown(value)} is no JSON value"
            continue
        if id(value) in open_ids:
            return pointer, "a container inside itself (no JSON is)"
        open_ids.add(id(value))
        work.append((value, pointer, None))
        if not isinstance(value, dict):
            inner = _SCHEMA if role == _SCHEMA_LIST else _DATA
            work.extend((item, f"{pointer}/{i}", inner) for i, item in reversed(list(enumerate(value))))
            continue
        for key in value:
            if not isinstance(key, str):
                return pointer, f"the key {key!r} is no string"
        for key, item in reversed(list(value.items())):
            at = pointer + "/" + key.replace("~", "~0").replace("/", "~1")
            inner = _SCHEMA if role == _SCHEMA_MAP else _DATA
            if role == _SCHEMA:
                if key in _KEYWORD_LISTS:
                    fault = _keyword_fault(key, item)
                    if fault is not None:
                        return at + fault[0], fault[1]
                inner = _KEYWORD_ROLES.get(key, _DATA)
                if key == "items" and isinstance(item, (list, tuple)):
                    inner = _SCHEMA_LIST
            work.append((item, at, inner))
    return None


def _keyword_fault(key, value):
    """(pointer below the keyword, what is wrong) where `required`, `enum` or `type` holds what
    the grammar cannot read, or None."""
    what, kind = _KEYWORD_LISTS[key]
    if key == "type" and isinstance(value, str):
        return None
    if not isinstance(value, (list, tuple)):
        return "", f"{_shown(value)} is no {'type name or ' if key == 'type' else ''}list of {what}"
    for i, item in enumerate(value):
        if not isinstance(item, kind):
            return f"/{i}", f"{_shown(item)} is no {what[:-1]}"
    return None


def _shown(value):
    """A value as an error shows it: short, with its type where its repr does not say it."""
    text = repr(value)
    shown = text if len(text) <= 40 else text[:37] + "..."
    if type(value) in (int, float, bool, str, list, dict, type(None)):
        return shown
    return f"{shown} (a {type(value).__name__})"


def _resolve(format_or_model):
    if isinstance(format_or_model, Format):
        return format_or_model
    if type(format_or_model) is _native.Table:
        return _from_compiled(format_or_model)
    if isinstance(format_or_model, str):
        return resolve(format_or_model).format
    raise TypeError(f"grammar: expected a table name, Format, compiled table or model id, "
                    f"not {type(format_or_model).__name__}")


def _from_compiled(table):
    syntax = table.syntax
    if isinstance(syntax, _native.ForcedSyntax):
        return _tool_choice_format(syntax.function)
    if isinstance(syntax, _native.RequiredSyntax):
        return _tool_choice_format(_tool_choice.REQUIRED)
    for fmt in TABLES.values():
        if fmt._compiled is table:
            return fmt
    if table.name in TABLES:
        return TABLES[table.name]
    raise KeyError(f"grammar: the compiled table {table.name!r} is no registered table: pass its Format")


@functools.lru_cache(maxsize=64)
def _tool_choice_format(choice):
    syntax = CallSyntax.required() if choice == _tool_choice.REQUIRED else CallSyntax.forced(choice)
    return Format("constrained").state("output", Emits.ARGUMENTS).calls(syntax)


# --- the grammar of a table --------------------------------------------------------------------

def _format(fmt, declared, at_least_one, reasoning_open):
    syntax = fmt.syntax
    if syntax is None:
        return None
    if syntax.kind in ("forced", "required"):
        return _constrained(syntax, declared)
    shape = for_syntax(syntax)
    table = _Table(fmt)
    if shape is None or len(table.arguments) != 1 or table.arguments[0] == fmt.states[0][0]:
        return None
    messages = table.messages()
    if messages is not None:
        return _message_stream(table, messages, shape, declared, at_least_one, reasoning_open)
    calls = _calls(table, shape, declared, at_least_one)
    if calls is None or not reasoning_open or table.reasoning is None:
        return calls
    closes = table.thought_closes()
    if not closes:
        return None
    return seq(_rest_of_thought(table, shape, closes), calls)


def _rest_of_thought(table, shape, closes):
    """The thought the generation prompt left open: text holding no table marker (nor the call
    syntax's own tags, nor what the parser recovers in content: a damaged marker there may lead
    into one, DSML's `<｜DSML｜` then a spaced `<｜DSML｜invoke `), up to one of `closes`."""
    excludes = ([t for _, t in table.fmt.terminals] + list(shape.inner) + table.recovered[Emits.REASONING]
                + table.recovered[Emits.CONTENT])
    return tag("", text(excludes), closes[0] if len(closes) == 1 else closes)


def _constrained(syntax, declared):
    if syntax.kind == "forced":
        parameters = dict(declared).get(syntax.function)
        return None if parameters is None else schema(parameters)
    calls = [{"type": "object", "properties": {"name": {"const": name}, "parameters": parameters},
              "required": ["name", "parameters"]} for name, parameters in declared]
    return schema({"type": "array", "minItems": 1, "items": {"anyOf": calls}})


def _calls(table, shape, declared, at_least_one):
    """The calls part: a tag per call opener (or per block opener, holding calls)."""
    opened, exits = table.call_region()
    if not opened:
        return None
    tags = [tag(opener, either([shape.body(name, parameters, exits) for name, parameters in declared]), close)
            for opener, close in opened]
    block = table.block()
    if block is not None:
        openers, close, joins = block
        # between calls: whitespace, and the markers the block itself drops (Step 3's
        # `<｜tool_call_begin｜>`, `<｜tool_sep｜>`)
        gap = star(either([regex(r"[ \t\r\n]")] + [const(j) for j in joins])) if joins else WS
        content = seq(gap, plus(seq(either(tags), gap)))
        tags = [tag(opener, content, close) for opener in openers]
    if table.emits[table.fmt.states[0][0]] == Emits.WRAPPER:
        return _regions(table, tags, at_least_one)
    # a thought the content opens and that holds no call (no row from it into the calls) is a tag
    # of its own: the calls' triggers written inside it are its text, as the parser reads them
    thoughts = table.thoughts_without_calls()
    every = tags + thoughts
    triggers = list(dict.fromkeys(t["begin"] for t in every))
    if not at_least_one:
        return triggered(triggers, every, False, table.recovered[Emits.CONTENT])
    # xgrammar's own at_least_one wants the output to start with a call; here content (or a
    # thought the model writes itself) may come first
    lead = text(triggers + table.recovered[Emits.CONTENT])
    if thoughts:
        lead = seq(star(seq(lead, either(thoughts))), lead)
    return seq(lead, either(tags), triggered(triggers, every, False, table.recovered[Emits.CONTENT]))


def _regions(table, call_tags, at_least_one):
    """An output whose text outside its regions is no content (the initial state a wrapper, not
    a stream of messages: Kimi K3's message): its regions one after another, whitespace and the
    wrapper's dropped markers between.
    A thought or an answer is text holding no table marker up to its close, back to the
    wrapper; the calls are `call_tags` (the block of calls)."""
    first = table.fmt.states[0][0]
    markers = [t for _, t in table.fmt.terminals] + table.recovered[Emits.CONTENT] + table.recovered[Emits.REASONING]
    regions = []
    for _, opener, state in table.rows(out_of=first):
        closes = list(dict.fromkeys(table.texts[t] for _, t, d in table.rows(out_of=state) if d == first))
        if table.emits[state] in (Emits.CONTENT, Emits.REASONING) and closes:
            regions.append(tag(table.texts[opener], text(markers), closes[0] if len(closes) == 1 else closes))
    # between regions: whitespace, and the markers the wrapper drops (a stray close, the end of
    # the turn: its rows back to itself)
    joins = [table.texts[t] for t in table.self_rows(first)]
    gap = star(either([regex(r"[ \t\r\n]")] + [const(j) for j in joins])) if joins else WS
    every = either(regions + call_tags)
    stream = star(seq(every, gap))
    if at_least_one:
        stream = seq(star(seq(either(regions), gap)), either(call_tags), gap, stream) if regions else \
            plus(seq(every, gap))
    return seq(gap, stream)


def _message_stream(table, messages, shape, declared, at_least_one, reasoning_open):
    """A table whose output is a stream of messages joined by one text (gpt-oss: each message
    a header, `<|message|>`, its text and its end, joined by `<|start|>assistant`): one tag per
    kind of message (its opener, its text or its call, its ends), joined by that text. A thought
    or an answer is any text; a call message is one of the tools' calls."""
    join, kinds = messages
    tags, calls = [], []
    for opener, state, ends in kinds:
        if state == table.arguments[0]:
            body = either([shape.body(name, parameters, tuple(ends)) for name, parameters in declared])
            calls.append(tag(opener, body, ends))
        else:
            tags.append(tag(opener, text(()), ends))
    if not calls:
        return None
    everything = tags + calls
    stream = joined(everything, join, False)
    if at_least_one:
        # any messages, then a call, then any messages
        rest = optional(seq(const(join), joined(everything, join, True)))
        first_call = either(calls)
        before = [seq(joined(tags, join, True), const(join), first_call)] if tags else []
        stream = seq(either([first_call] + before), rest)
    if not reasoning_open or table.reasoning is None:
        return stream
    ends = [e for _, state, e in kinds if state == table.reasoning]
    if not ends:
        return None
    # the output starts inside a thought: its text, its end, then (joined) the messages
    thought = _rest_of_thought(table, shape, ends[0])
    return seq(thought, seq(const(join), stream) if at_least_one else optional(seq(const(join), stream)))


class _Table:
    """What the grammar reads from a table's rows."""

    def __init__(self, fmt):
        # the texts that open what the parser recovers where the template writes text (a call
        # without its block, a damaged opener), or a marker's other spelling the grammar does not
        # write (MiniCPM5's loose `<function name`): text the grammar writes there holds none of them
        written = fmt.written()
        kinds, texts, every_kind = dict(written.states), dict(fmt.terminals), dict(fmt.states)
        rows = {(s, t) for s, t, _ in written.transitions}
        # (but a damaged marker the template's own markers start with: DSML's `<｜DSML｜`, which
        # is dropped only before the block it stands for, so it changes no call; a recovered
        # text that changes what is read, Kimi K3's `<|close|>think` without its `<|sep|>`, is
        # held out even where a marker starts with it)
        unwritten = list(fmt.recoveries) + [(s, t, d) for s, t, d in fmt.transitions if t in fmt.spellings]
        self.recovered = {kind: list(dict.fromkeys(
            texts[t] for s, t, d in unwritten
            if kinds.get(s) == kind and (s, t) not in rows
            and not (every_kind[d] == Emits.DAMAGED_MARKER
                     and any(m != texts[t] and m.startswith(texts[t]) for _, m in written.terminals))))
            for kind in (Emits.CONTENT, Emits.REASONING)}
        # the texts every row out of a state leaves it by, the rows the grammar does not write
        # (another spelling of a marker, a recovery) among them: text written there holds none
        self.leaves = {}
        for s, t, _ in fmt.transitions:
            self.leaves.setdefault(s, []).append(texts[t])
        self.fmt = fmt = written
        self.emits = dict(fmt.states)
        self.texts = dict(fmt.terminals)
        self.arguments = [s for s, e in fmt.states if e == Emits.ARGUMENTS]
        reasoning = [s for s, e in fmt.states if e == Emits.REASONING]
        self.reasoning = reasoning[0] if reasoning else None
        self.end_of_turn = self._end_of_turn()

    def _end_of_turn(self):
        """Terminals every state has a row for, back to the initial state (Kimi's message close)."""
        first = self.fmt.states[0][0]
        names = {s for s, _ in self.fmt.states}
        return {t for t in self.texts
                if {s for s, r, d in self.fmt.transitions if r == t and d == first} == names}

    def rows(self, into=None, out_of=None):
        return [(s, t, d) for s, t, d in self.fmt.transitions
                if (into is None or d == into) and (out_of is None or s == out_of) and s != d
                and t not in self.end_of_turn]

    def call_region(self):
        """[(opener text, close text)] of the arguments state, and the texts that leave it. The
        close is the row back to the state the opener came from: where a state opens the call
        with as many openers as it has closes back, the k-th opener's is the k-th close
        (Qwen2.5-Coder's `<tool_call>…</tool_call>` and `<tools>…</tools>`), else the first."""
        state = self.arguments[0]
        # every row out of the call ends it (a self row opens the next call; the end of the turn),
        # and so do the rows the parser reads and the grammar does not write (`leaves`)
        exits = tuple(dict.fromkeys([self.texts[t] for s, t, _ in self.fmt.transitions if s == state]
                                    + self.leaves.get(state, [])))
        opened = []
        for home, opener, _ in self.rows(into=state):
            if self.emits[home] == Emits.REASONING:
                continue
            closes = [t for _, t, d in self.rows(out_of=state) if d == home]
            if not closes:
                continue
            openers = [t for s, t, _ in self.rows(into=state) if s == home]
            close = self.texts[closes[openers.index(opener) if len(openers) == len(closes) else 0]]
            if (self.texts[opener], close) not in opened:
                opened.append((self.texts[opener], close))
        return opened, exits

    def self_rows(self, state):
        """The terminals of the rows from `state` back to itself."""
        return [t for s, t, d in self.fmt.transitions if s == d == state]

    def block(self):
        """(opener texts, close text, texts of its rows to itself) of the wrapper state the calls
        are opened from, or None when they are opened from content."""
        homes = {s for s, _, _ in self.rows(into=self.arguments[0])}
        if len(homes) != 1 or self.emits[next(iter(homes))] != Emits.WRAPPER:
            return None
        block = next(iter(homes))
        openers = list(dict.fromkeys(self.texts[t] for s, t, _ in self.rows(into=block)
                                     if self.emits[s] != Emits.ARGUMENTS))
        closes = [self.texts[t] for _, t, d in self.rows(out_of=block) if self.emits[d] != Emits.ARGUMENTS]
        joins = [self.texts[t] for t in self.self_rows(block)]
        return (openers, closes[0], joins) if openers and closes else None

    def messages(self):
        """(joining text, [(opener text, state, [end texts])]) when the output is a stream of
        messages: the initial state a wrapper with one row back to itself (the text that joins
        two messages, not the end of the turn) and rows out to each kind of message (a thought,
        an answer, a call: no block), each ended by rows back; else None."""
        first = self.fmt.states[0][0]
        joins = [self.texts[t] for t in self.self_rows(first) if t not in self.end_of_turn]
        if self.emits[first] != Emits.WRAPPER or len(joins) != 1:
            return None
        kinds = []
        for _, opener, state in self.rows(out_of=first):
            ends = list(dict.fromkeys(self.texts[t] for _, t, d in self.rows(out_of=state) if d == first))
            if not ends or self.emits[state] == Emits.WRAPPER:
                return None         # a message that is a block of its own (Kimi K3's tools)
            kinds.append((self.texts[opener], state, ends))
        if not any(state == self.arguments[0] for _, state, _ in kinds):
            return None
        return joins[0], kinds

    def thoughts_without_calls(self):
        """A tag per row from content into a thought that no row leads from into the calls: its
        opener, text holding none of the texts any row leaves the thought by (what the parser
        reads as the thought's own text there: a call's markup too), a close back."""
        into_calls = {s for s, _, d in self.fmt.transitions if d in self.arguments or self.emits[d] == Emits.WRAPPER}
        tags = []
        for home, opener, thought in self.rows():
            if self.emits[home] != Emits.CONTENT or self.emits[thought] != Emits.REASONING or thought in into_calls:
                continue
            closes = list(dict.fromkeys(self.texts[t] for _, t, d in self.rows(out_of=thought) if d == home))
            if closes:
                tags.append(tag(self.texts[opener], text(self.leaves.get(thought, [])),
                                closes[0] if len(closes) == 1 else closes))
        return tags

    def thought_closes(self):
        """The texts that close the thought back to a state that opens it (not a block's opener,
        not the end of the turn)."""
        openers = {s for s, _, _ in self.rows(into=self.reasoning)}
        return list(dict.fromkeys(self.texts[t] for _, t, d in self.rows(out_of=self.reasoning) if d in openers))
