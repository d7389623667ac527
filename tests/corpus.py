"""The contract corpus (SPEC §9.2): for every table, outputs built from the table's own data (its
markers, which rows they drive, its call syntax), plus hand-written family entries.

`corpus(table_name)` returns `Case`s (name, output, prompt, the request's tools, and now and then
the number of calls the parse must start); a table added later gets a corpus from its Format
alone. `roles(fmt)` reads which marker opens/closes a thought, a block of calls or a call, and
the call syntax's inner tags; `Roles` writes call bodies and frames them as the family's template
does, and the tagged/keyed corpus builds its well-formed and adversarial calls from that.
"""
import dataclasses
import json

import symphony
from symphony import _native
from symphony.format import Emits
from symphony.formats import table as format_table
from symphony.syntax import CallObject, Placement, Spelling


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    output: str
    prompt: object = None   # prompt text or None
    tools: object = None    # the request's tools (an OpenAI-style list) or None
    calls: object = None    # the number of calls the parse starts, when the case pins it
    # Which cut plans the contract replays (all of SPEC §9.1 by default). The cases that cut a
    # call at every prefix are many and alike: each replays whole, per character, the two-way
    # splits just before and after its cut (where held bytes meet the end) and a few seeded plans.
    splits: object = None   # None: every two-way split; else the positions of those replayed
    seeds: int = 30

    def __iter__(self):
        return iter((self.name, self.output, self.prompt, self.tools))


# ---------------------------------------------------------------------------------------------
# The request's tools: every declared kind (SPEC §5.1) under the function names the bodies use.
# `lookup` and `search` are never declared (their values are inferred).

def tool(name, **properties):
    return {"type": "function", "function": {"name": name, "parameters": {
        "type": "object", "properties": properties}}}


STRING = {"type": "string"}
INTEGER = {"type": "integer"}
NULLABLE = {"anyOf": [{"type": "string"}, {"type": "null"}]}
ARRAY = {"type": "array", "items": {"type": "string"}}
OBJECT = {"type": "object", "properties": {"unit": {"type": "string"}}}
TOOLS = [
    tool("get_weather", city=STRING, days=INTEGER, note=NULLABLE, tags=ARRAY, options=OBJECT, code=STRING),
    tool("get_time", zone=STRING, precise={"type": "boolean"}),
    tool("f", a=STRING, n=INTEGER, note=NULLABLE, items=ARRAY, opts=OBJECT, code=STRING),
]
DECLARED_KEYS = ["city", "days", "note", "tags", "options", "code", "a", "n", "items", "opts"]


# ---------------------------------------------------------------------------------------------
# What a table's markers do, and how its model writes a call.

TAGGED_TAGS = ("<function=", "<parameter=", "</parameter>", "</function>")
# Syntaxes written with attributes, element trees or Python (their corpora: tests/corpus_other.py),
# and the inner tags each reads (for fragments and near-misses).
OTHER_KINDS = ("dsml", "invoke", "xtml", "xml", "pythonic", "gemma", "param_xml")
OTHER_TAGS = {"xtml": _native.XTML_TAGS + _native.XTML_SPACED_TAGS,
              "xml": ("]<]minimax[>[", "<item>", "</item>"), "pythonic": ()}
# (dsml, invoke, param_xml and gemma: their syntax's own)


@dataclasses.dataclass(frozen=True)
class Roles:
    """What a table's markers do, read from its rows, and its call syntax's own tags."""
    think_open: object      # marker entering a reasoning state from the initial state, or None
    think_close: object     # marker leaving that reasoning state, or None
    block_open: object      # marker entering the Wrapper state that holds the calls (Hy4), or None
    block_close: object     # marker leaving that Wrapper state, or None
    call_open: object       # marker entering an arguments state (from the initial state or the block)
    call_close: object      # marker leaving that arguments state for another kind of state, or None
    calls_repeat: bool      # the call opener inside a call opens the next call (self row)
    calls_initial: bool     # the initial state emits arguments (the output itself is the calls)
    syntax: object          # CallSyntax kind name ("json", "json_list", "tagged", "keyed") or None
    placement: object       # tagged, invoke: Placement.OWN_LINE or Placement.DIRECT; else None
    spelling: object        # tagged: Spelling.JSON or Spelling.PYTHON; else None
    broken_tags: bool       # tagged: Step-3.5's broken tags are read too (CallSyntax.tagged(broken_tags=True))
    tags: tuple             # the syntax's inner tags: tagged (function open, parameter open,
                            # parameter close, function close); keyed (key open, key close, value
                            # open, value close); invoke (parameter open, parameter close, and the
                            # head's end where the call is named in a header); else ()
    between: str            # keyed: what the template writes after the name, a key's close tag
                            # and each pair ("" or "\n"); else ""
    opener: object          # the turn opener or None
    markers: tuple          # every terminal text, declaration order
    json_object: object = None   # json, json_list: the CallObject its objects are
    json_head: object = None     # json: the separator before the object (the head: the name), or None
    json_tail: object = None     # json: what the template writes after the object, or None
    json_call_id: tuple = ("", "")   # json: what a head that is a call id writes around the name
                                     # (Kimi K2's `functions.` and `:0`)
    json_bare: bool = False      # json_list: the region is the list (no `[` of its own)
    prose: bool = False          # pythonic: the region is prose in which `[`, a name and `(` open a list
    call_objects: bool = False   # pythonic, keyed: a JSON call object where a call should begin is a call
    thought_exits: tuple = ()    # the texts that leave the thought (Muse Spark's: the next message's start too)
    without_block: bool = False  # the call opener in the initial state opens a call outside the block
                                 # (shapes.calls_without_block: K2-Horizon)

    # -- framing ---------------------------------------------------------------------------

    @property
    def opens(self):
        """What the model writes to open its first call (the block's marker, then the call's)."""
        return (self.block_open or "") + self.call_open

    @property
    def closes(self):
        """What the model writes after its last call."""
        return (self.call_close or "") + (self.block_close or "")

    @property
    def lead(self):
        """What the template writes between the call's marker and its body."""
        return "\n" if self.syntax in ("tagged", "json", "json_list", None) else ""

    trail = lead            # and between the body and the call's closing marker

    @property
    def call_separator(self):
        """What the template writes between two calls."""
        return self.between if self.syntax == "keyed" else "\n"

    def call(self, body):
        """One call's markers around a body, as the template writes them."""
        return self.call_open + self.lead + body + self.trail + (self.call_close or "")

    def frame(self, *bodies):
        """The model's calls, each body in its call markers, all in one block where the table has
        blocks (Hy4); calls follow each other as the template writes them."""
        if self.syntax in OTHER_KINDS:
            from tests.corpus_other import frame
            return frame(self, *bodies)
        calls = self.call_separator.join(self.call(body) for body in bodies)
        if self.block_open is not None:
            return self.block_open + calls + (self.block_close or "")
        return calls

    # -- call bodies (tagged and keyed syntaxes) -------------------------------------------

    def head(self, name):
        """The start of a body: the function's tag (tagged) or its name (keyed)."""
        if self.syntax == "tagged":
            return f"{self.tags[0]}{name}>\n"
        return name + self.between

    def arg_open(self, key):
        """A parameter's tags up to its value."""
        if self.syntax == "tagged":
            return f"{self.tags[1]}{key}>" + ("\n" if self.placement == Placement.OWN_LINE else "")
        ko, kc, vo, _ = self.tags
        return f"{ko}{key}{kc}{self.between}{vo}"

    def arg_close(self):
        """A parameter's tags after its value (and what the template writes after them)."""
        if self.syntax == "tagged":
            return ("\n" if self.placement == Placement.OWN_LINE else "") + self.tags[2] + "\n"
        return self.tags[3] + self.between

    @property
    def value_close(self):
        """The tag that ends a value (inside a value, the only tag there is)."""
        return self.tags[2] if self.syntax == "tagged" else self.tags[3]

    def arg(self, key, value):
        return self.arg_open(key) + value + self.arg_close()

    def tail(self):
        """The end of a body: the function's close tag (tagged); nothing (keyed)."""
        return self.tags[3] if self.syntax == "tagged" else ""

    def body(self, name, pairs=()):
        """A well-formed body: the function `name` with (key, value text) pairs."""
        return self.head(name) + "".join(self.arg(k, v) for k, v in pairs) + self.tail()

    def spell(self, value):
        """A value as the family's template writes it: strings as they are; otherwise JSON
        (keyed), JSON with Python words for booleans and None (tagged, Spelling.JSON), or
        Python's str (tagged, Spelling.PYTHON)."""
        if isinstance(value, str):
            return value
        if self.syntax == "tagged" and (self.spelling == Spelling.PYTHON or value is None or isinstance(value, bool)):
            return str(value)
        return json.dumps(value, ensure_ascii=False)

    def example_body(self):
        """One well-formed call body of this syntax (a JSON call object for the JSON syntaxes)."""
        if self.syntax in ("tagged", "keyed"):
            return self.body("get_weather", [("city", "Paris")])
        if self.syntax in OTHER_KINDS:
            from tests.corpus_other import writer
            return writer(self).body("get_weather", [("city", "Paris")])
        if self.syntax == "json_list" and self.json_bare:
            return WEATHER
        if self.syntax == "json_list":
            return '[{"get_weather": {"city": "Paris"}}]' if self.json_object == CallObject.NAMED else f"[{WEATHER}]"
        if self.json_head is not None:
            return self.json_call("get_weather", '{"city": "Paris"}')
        return WEATHER

    def json_call(self, name, arguments):
        """A call in a JSON syntax with a head: the name, the separator, the object, the tail."""
        obj = arguments if self.json_object == CallObject.ARGUMENTS else \
            json.dumps({"name": name}, ensure_ascii=False)[:-1] + ', "args": ' + arguments + "}"
        prefix, number = self.json_call_id
        return prefix + name + number + self.json_head + obj + (self.json_tail or "")


def roles(fmt):
    emits = dict(fmt.states)
    texts = dict(fmt.terminals)
    initial = fmt.states[0][0]
    think_open = think_close = call_open = call_close = block_open = block_close = None
    reasoning_state = calls_state = block_state = None
    for src, terminal, dst in fmt.transitions:
        if src == initial and emits[dst] == Emits.REASONING and think_open is None:
            think_open, reasoning_state = texts[terminal], dst
        if src == initial and emits[dst] == Emits.ARGUMENTS and call_open is None:
            call_open, calls_state = texts[terminal], dst
        if src == initial and emits[dst] == Emits.WRAPPER and dst != initial and block_open is None:
            # (a row from the initial state back to it, harmony's `<|start|>assistant`, opens no block)
            block_open, block_state = texts[terminal], dst
    if call_open is None and block_state is not None:
        # the calls are reached through a block: its rows into an arguments state open a call
        for src, terminal, dst in fmt.transitions:
            if src == block_state and emits[dst] == Emits.ARGUMENTS and call_open is None:
                call_open, calls_state = texts[terminal], dst
    if calls_state is None:
        block_open = block_state = None
    calls_repeat = False
    for src, terminal, dst in fmt.transitions:
        if src == reasoning_state and emits[dst] != Emits.REASONING and think_close is None:
            think_close = texts[terminal]
        if src == calls_state and emits[dst] != Emits.ARGUMENTS and call_close is None:
            call_close = texts[terminal]
        if src == block_state and dst != block_state and emits[dst] != Emits.ARGUMENTS and block_close is None:
            block_close = texts[terminal]
        if src == calls_state and dst == calls_state and texts[terminal] == call_open:
            calls_repeat = True
    syntax = fmt.syntax
    kind = syntax.kind if syntax is not None else None
    if kind == "param_xml" and syntax.tags.header_end is not None and call_open is not None:
        call_open, call_close = _message_call(fmt, call_open, syntax.tags.header_end)
        calls_repeat = False
    if kind == "tagged":
        tags, between = TAGGED_TAGS, ""
    elif kind == "keyed":
        tags, between = syntax.tags.texts(), syntax.tags.between
    elif kind == "invoke":
        head_end = dict(syntax.params).get("head_end")
        tags, between = (syntax.parameter, syntax.parameter_close) + ((head_end,) if head_end else ()), ""
    elif kind == "dsml":
        tags, between = syntax.dsml_tags()[:2], ""
    elif kind == "param_xml":
        tags, between = (syntax.tags.param_open, syntax.tags.param_close) + _native.PARAM_XML_CDATA, ""
    elif kind == "gemma":
        tags, between = (syntax.gemma_quote(),), ""
    elif kind in OTHER_KINDS:
        tags, between = tuple(OTHER_TAGS[kind]), ""
    else:
        tags, between = (), ""
    return Roles(
        think_open=think_open,
        think_close=think_close,
        block_open=block_open,
        block_close=block_close,
        call_open=call_open,
        call_close=call_close,
        calls_repeat=calls_repeat,
        calls_initial=emits[initial] == Emits.ARGUMENTS,
        syntax=kind,
        placement=syntax.placement if kind in ("tagged", "invoke") else None,
        spelling=syntax.spelling if kind == "tagged" else None,
        broken_tags=syntax is not None and syntax.reads_broken_tags(),
        tags=tags,
        between=between,
        opener=fmt.opener,
        markers=tuple(text for _, text in fmt.terminals),
        json_object=dict(syntax.params).get("object", CallObject.CALL) if kind in ("json", "json_list") else None,
        json_head=dict(syntax.params).get("head") if kind == "json" else None,
        json_tail=dict(syntax.params).get("tail") if kind == "json" else None,
        json_call_id=(dict(syntax.params).get("name_prefix") or "",
                      dict(syntax.params)["name_index"] + "0" if dict(syntax.params).get("name_index") else "")
        if kind == "json" else ("", ""),
        json_bare=bool(dict(syntax.params).get("bare")) if kind == "json_list" else False,
        prose=kind == "pythonic" and dict(syntax.params).get("prose", False),
        call_objects=kind in ("pythonic", "keyed") and bool(dict(syntax.params).get("objects")),
        thought_exits=tuple(texts[t] for src, t, dst in fmt.transitions if src == reasoning_state and dst != src),
        without_block=block_state is not None and any(
            src == initial and texts[t] == call_open and emits[dst] == Emits.ARGUMENTS for src, t, dst in fmt.transitions),
    )


def _message_call(fmt, header, header_end):
    """A table whose calls sit in messages (Muse Glimmer): what the model writes to open one call
    (the recipient header naming a tool, its end, the block of calls and the call's marker) and to
    close it, read from the rows that lead from the header to the call and back."""
    emits = dict(fmt.states)
    texts = dict(fmt.terminals)
    rows = {(src, texts[terminal]): dst for src, terminal, dst in fmt.transitions}
    recipient = rows[(fmt.states[0][0], header)]
    tool = rows[(recipient, header_end)]
    (block_open, block), = [(t, d) for (s, t), d in rows.items() if s == tool and emits[d] == Emits.WRAPPER
                            and d not in (tool, fmt.states[0][0])]
    (call_open, call), = [(t, d) for (s, t), d in rows.items() if s == block and emits[d] == Emits.ARGUMENTS]
    (call_close,) = [t for (s, t), d in rows.items() if s == call and d == block]
    (block_close,) = [t for (s, t), d in rows.items() if s == block and d == tool]
    return (f"{header}tool{header_end}{block_open}\n{call_open}", f"{call_close}\n{block_close}")


def table_roles(name):
    return roles(format_table(name))


# ---------------------------------------------------------------------------------------------
# JSON call objects (the bodies of JSON and JSON_LIST calls; for other syntaxes they are junk,
# which the contract still covers).

WEATHER = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
TIME = '{"name": "get_time", "arguments": {"zone": "UTC", "precise": true}}'
DEEP = "{\"name\": \"deep\", \"arguments\": " + '{"a": ' * 40 + "1" + "}" * 40 + "}"

JSON_BODIES = [
    ("call", WEATHER),
    ("call-compact", '{"name":"get_weather","arguments":{"city":"Paris"}}'),
    ("call-no-arguments", '{"name": "ping"}'),
    ("call-name-last", '{"arguments": {"city": "Paris"}, "name": "get_weather"}'),
    ("args-before-name", '{"arguments": {"q": "x", "n": [1, 2]}, "name": "search"}'),
    ("tool_name-parameters", '{"tool_name": "lookup", "parameters": {"id": 7}}'),
    ("unicode-arguments", '{"name": "say", "arguments": {"text": "héllo 日本 🎉", "ü": "ß"}}'),
    ("escapes", '{"name": "say", "arguments": {"text": "a\\"b\\\\c\\n\\t\\/\\u00e9\\u65e5"}}'),
    ("surrogate-pair", '{"name": "say", "arguments": {"text": "\\ud83c\\udf89 ok"}}'),
    ("lone-high-surrogate", '{"name": "say", "arguments": {"text": "\\ud83c x"}}'),
    ("lone-low-surrogate", '{"name": "say", "arguments": {"text": "\\udf89 x"}}'),
    ("high-then-high", '{"name": "say", "arguments": {"text": "\\ud83c\\ud83c"}}'),
    ("12abc-arguments", '{"name": "f", "arguments": 12abc}'),
    ("12abc-inside", '{"name": "f", "arguments": {"n": 12abc}}'),
    ("nameless", '{"arguments": {"a": 1}}'),
    ("nameless-empty", "{}"),
    ("non-string-name", '{"name": 5, "arguments": {"a": 1}}'),
    ("null-name", '{"name": null, "arguments": {}}'),
    ("object-name", '{"name": {"x": 1}, "arguments": {}}'),
    ("empty-name", '{"name": "", "arguments": {}}'),
    ("escaped-name", '{"name": "get\\u005fweather", "arguments": {}}'),
    ("scalar-arguments", '{"name": "f", "arguments": 5}'),
    ("bool-arguments", '{"name": "f", "arguments": true}'),
    ("null-arguments", '{"name": "f", "arguments": null}'),
    ("array-arguments", '{"name": "f", "arguments": [1, "two", {"three": 3}]}'),
    ("string-arguments", '{"name": "f", "arguments": "{\\"city\\": \\"Paris\\"}"}'),
    ("deep-nesting", DEEP),
    ("wrong-closer", '{"name": "f", "arguments": {"a": [1}}'),
    ("mismatched-list", '{"name": "f", "arguments": [1, 2}}'),
    ("not-a-literal", '{"name": "f", "arguments": {"a": tru e}}'),
    ("nan", '{"name": "f", "arguments": {"a": NaN}}'),
    ("trailing-comma", '{"name": "f", "arguments": {"a": 1,}}'),
    ("missing-value", '{"name": "f", "arguments": {"a": }}'),
    ("unicode-whitespace", '{"name":\u3000"f",\u00a0"arguments":\u2028{"a":\u20021}}'),
    ("duplicate-keys", '{"name": "f", "name": "g", "arguments": {}, "arguments": {"b": 2}}'),
    ("marker-in-string", '{"name": "f", "arguments": {"code": "<think>x</think>"}}'),
    ("unterminated-string", '{"name": "f", "arguments": {"city": "Par'),
    ("unterminated-object", '{"name": "f", "arguments": {"city": "Paris"'),
    ("unterminated-name", '{"name": "get_wea'),
    ("cut-short", '{"name": "f", "arguments": {},'),
    ("numbers", '{"name": "f", "arguments": {"n": -1.5e+3, "m": 0, "k": 1.}}'),
]

LIST_SHAPES = [
    ("list-empty", "[]"),
    ("list-one", f"[{WEATHER}]"),
    ("list-two", f"[{WEATHER}, {TIME}]"),
    ("list-whitespace", f" \n [\n  {WEATHER} ,\n\t{TIME}\n ] \n"),
    ("list-junk-between", f"[{WEATHER} x {TIME}]"),
    ("list-junk-after-item", f"[{WEATHER}] trailing"),
    ("list-text-after-end", f"[{WEATHER}]\n\nDone."),
    ("list-unterminated", f"[{WEATHER}, "),
    ("list-unterminated-object", '[{"name": "f", "arguments": {"a": 1'),
    ("list-open-only", "["),
    ("list-leading-comma", f"[,{WEATHER}]"),
    ("list-trailing-comma", f"[{WEATHER},]"),
    ("list-nested", "[[1], 2]"),
    ("list-of-strings", '["a", "b"]'),
    ("list-nameless", '[{"arguments": {"a": 1}}, {"name": "g"}]'),
    ("list-args-before-name", '[{"arguments": {"a": 1}, "name": "f"}]'),
    ("list-surrogates", '[{"name": "s", "arguments": {"t": "\\ud83c\\udf89\\ud83c"}}]'),
    ("list-deep", f"[{DEEP}]"),
    ("list-no-commas", f"[{WEATHER}{TIME}]"),
    ("list-text-after-object", '[{"name": "f", "arguments": {}} } ]'),
    ("list-then-list", "[] []"),
    ("list-prose-first", f"Sure: [{WEATHER}]"),
]

OTHER_FAMILIES_MARKERS = ("<think>", "</think>", "<tool_call>", "</tool_call>")


def _fragments(marker):
    """Proper prefixes of a marker (its fragments)."""
    return [marker[:k] for k in range(1, len(marker))]


def _near_miss(marker):
    """The marker with its last character changed (a string that shares the whole prefix); no
    marker (a table whose calls run to the end of the output) has none."""
    if not marker:
        return ""
    last = marker[-1]
    return marker[:-1] + ("x" if last != "x" else "y")


def generic_cases(r):
    """Shapes every table must survive, whatever its markers."""
    cases = [
        Case("empty", ""),
        Case("plain-text", "Hello, world!"),
        Case("multi-line", "First line.\n\nSecond line, with a comma; and more.\n"),
        Case("whitespace-only", " \n\t \n"),
        Case("unicode-text", "Ünïcödé — 日本語 🎉 e\u0301 \u200b\u2028\u00a0\u3000end"),
        Case("control-chars", "a\x00b\x01c\x7f\r\nd"),
        Case("think-and-call-as-text", "a</think>b</tool_call>c"),
        Case("near-miss-soup", "<tool_x <thinking> </thinking> <</think>> <tool_call"),
        Case("end-tool_cal", "text <tool_cal"),
        Case("end-tool_call-unclosed", "text <tool_call"),
        Case("end-close-fragment", "text </tool_call"),
        Case("lone-angle", "a < b and c <"),
        Case("json-object-as-output", WEATHER),
        Case("json-list-as-output", f"[{WEATHER}]"),
        Case("other-families-markers", "x".join(OTHER_FAMILIES_MARKERS) + " after"),
        Case("prompt-opened-thought", "plan\n</think>\n\nanswer",
             (r.opener or "<|im_start|>assistant") + "\n" + (r.think_open or "<think>") + "\n"),
        Case("prompt-thinking-off", "answer", "<|im_start|>assistant\n<think>\n\n</think>\n\n"),
        Case("prompt-no-opener", "answer", "user text only"),
    ]
    for i, marker in enumerate(r.markers):
        cases.append(Case(f"marker-{i}-alone", marker))
        cases.append(Case(f"marker-{i}-fragment-at-end", "prose " + marker[:-1]))
        cases.append(Case(f"marker-{i}-near-miss", "a" + _near_miss(marker) + "b"))
        cases.append(Case(f"marker-{i}-doubled-first-char", marker[0] + marker + "z"))
        cases.append(Case(f"marker-{i}-twice-spaced", marker + " \n" + marker + " z"))
        cases.append(Case(f"marker-{i}-fragments", " ".join(_fragments(marker)[:4]) + "."))
    return cases


def thought_cases(r):
    t, tc = r.think_open, r.think_close
    opener = r.opener or ""
    prompt_open = (opener + "\n" if opener else "") + t + "\n"
    cases = [
        Case("thought-then-answer", f"{t}\nplan\n{tc}\n\nHi"),
        Case("thought-only", f"{t}plan{tc}"),
        Case("thought-empty", f"{t}{tc}answer"),
        Case("thought-unterminated", f"{t}\nstill thinking about it"),
        Case("thought-open-only", t),
        Case("thought-after-content", f"Hi {t}x{tc} there"),
        Case("two-thoughts", f"{t}a{tc}mid{t}b{tc}end"),
        Case("thought-opener-inside-thought", f"{t}a{t}b{tc}c"),
        Case("close-inside-reasoning", f"{t}a{tc}b{tc}c"),
        Case("thought-close-without-open", f"answer {tc} more"),
        Case("thought-unicode", f"{t}思考 🤔\u2028{tc}答"),
        Case("prompt-opened", "plan\n" + tc + "\n\nanswer", prompt_open),
        Case("prompt-opened-unterminated", "plan forever", prompt_open),
        Case("prompt-opened-empty-output", "", prompt_open),
        Case("prompt-closed-thought", "answer", (opener + "\n" if opener else "") + t + "\n\n" + tc + "\n\n"),
        Case("prompt-earlier-turn-thought", "hello",
             # an earlier turn left a thought open; only the text after the last opener counts
             (opener + "\n" + t + "\nold<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n" + opener + "\n")
             if opener else t + "\nold" + tc + "\n"),
        Case("thought-fragment-at-end", f"{t}x{tc[:-1]}"),
    ]
    if r.call_open is not None:
        co, cc = r.opens, r.closes
        call = r.frame(r.example_body())
        tools = TOOLS if r.syntax in ("tagged", "keyed") + OTHER_KINDS else None
        cases += [
            Case("call-marker-in-thought", f"{t}I will call {co}\n{WEATHER}\n{cc}{tc}\n\n{call}", tools=tools),
            Case("thought-then-call", f"{t}\nplan\n{tc}\n\n{call}", tools=tools, calls=1),
            Case("prompt-opened-then-call", f"plan{tc}\n\n{call}", prompt_open, tools=tools, calls=1),
            Case("prompt-inside-call", f"{WEATHER}\n{cc}after",
                 (opener + "\n" if opener else "") + co + "\n"),
            Case("think-markers-in-arguments",
                 f"{co}\n" + '{"name": "f", "arguments": {"t": "' + t + tc + '"}}' + f"\n{cc}"),
        ]
    return cases


def block_cases(r):
    """JSON call objects framed by the table's own call markers (the block's too, where calls sit
    in one). Under a tagged or keyed syntax an object is no call."""
    co, cc = r.opens, r.closes
    # an object is no call where calls are tags or Python (but a syntax that also reads call
    # objects); DSML, XTML and XML read a name up to a quote and a tag's end, which an object's
    # text may hold
    no_call = 0 if r.syntax == "tagged" or (r.syntax in ("keyed", "pythonic") and not r.call_objects) else None

    def block(body):
        return f"{co}\n{body}\n{cc}"

    cases = [Case(f"block-{name}", block(body), calls=no_call) for name, body in JSON_BODIES]
    if no_call is not None:
        cases += [Case(f"block-{name}-with-tools", block(body), tools=TOOLS, calls=0)
                  for name, body in JSON_BODIES[:8]]
    cases += [
        Case("prose-before", "Let me check.\n\n" + block(WEATHER)),
        Case("prose-after", block(WEATHER) + "\n\nDone."),
        Case("prose-between", "A " + block(WEATHER) + " B " + block(TIME) + " C"),
        Case("parallel-calls", block(WEATHER) + "\n" + block(TIME)),
        Case("three-calls-with-junk", block(WEATHER) + block("junk") + block(TIME)),
        Case("junk-block", f"{co}junk{cc}"),
        Case("junk-block-then-call", f"{co}junk{cc}" + block(WEATHER)),
        Case("empty-block", f"{co}{cc}after"),
        Case("whitespace-block", f"{co} \n\t {cc}"),
        Case("text-after-object", f"{co}\n{WEATHER}\n x\n{cc}"),
        Case("two-objects-in-block", f"{co}\n{WEATHER}\n{TIME}\n{cc}"),
        Case("cut-short", f"{co}" + '{"name": "f", "arguments": {},' + cc),
        Case("fenced-call", "```\n" + block(WEATHER) + "\n```"),
        Case("fenced-json", "```json\n" + WEATHER + "\n```"),
        Case("call-unterminated", f"{co}\n{WEATHER}"),
        # several regions: the earlier closed by their markers, the last cut before its name
        Case("call-then-call-cut-before-name", block(WEATHER) + f"{co}\n" + '{"na'),
        Case("junk-then-call-then-call-cut-before-name", f"{co}junk{cc}" + block(TIME) + f"{co} "),
        Case("call-unterminated-arguments", f"{co}\n" + '{"name": "get_weather", "arguments": {"city": "Par'),
        Case("call-open-only", co),
        Case("call-open-then-prose", f"{co} just words"),
        Case("close-without-open", f"text {cc} more"),
        Case("close-marker-in-arguments", f"{co}\n" + '{"name": "f", "arguments": {"code": "' + cc + '"}}' + f"\n{cc}"),
        Case("open-marker-in-arguments", f"{co}\n" + '{"name": "f", "arguments": {"code": "' + co + '"}}' + f"\n{cc}"),
        # a marker inside a string: the string's text if the object closes before a terminal comes
        Case("markers-in-arguments", f"{co}\n" + '{"name": "f", "arguments": {"code": "' + co + "x" + cc + " y " + cc
             + '", "n": [1]}}' + f"\n{cc}"),
        Case("close-marker-in-arguments-then-end", f"{co}\n" + '{"name": "f", "arguments": {"code": "a' + cc + "\nDone."),
        Case("close-marker-in-arguments-object-cut", f"{co}\n" + '{"name": "f", "arguments": {"code": "a' + cc + 'b"}'),
        Case("close-marker-in-arguments-then-call", f"{co}\n" + '{"name": "f", "arguments": {"code": "a' + cc + "\nok "
             + block(TIME)),
        Case("fenced-arguments", f"{co}\n" + "```json\n" + WEATHER + "\n```\n" + cc),
        Case("fenced-arguments-cut", f"{co}\n" + "``` \n" + WEATHER + "\n``"),
        Case("close-marker-in-a-key", f"{co}\n" + '{"name": "f", "arguments": {"a' + cc + '": 1}}' + f"\n{cc}"),
        # ... and a `,` after the string that a list of calls may hold (the object's `}` left out)
        Case("close-marker-in-arguments-comma-then-end", f"{co}\n" + '{"name": "f", "arguments": {"a": "x' + cc + 'y"},'),
        Case("close-marker-in-arguments-comma-then-close", f"{co}\n" + '[{"name": "f", "arguments": {"a": "x' + cc
             + 'y"}, ' + cc),
        Case("close-marker-in-arguments-comma-then-object", f"{co}\n" + '[{"name": "f", "arguments": {"a": "x' + cc
             + 'y"}, ' + TIME + "]\n" + cc),
        Case("call-fragment-at-end", block(WEATHER) + "\n" + co[:-1]),
        Case("close-fragment-at-end", f"{co}\n{WEATHER}\n" + cc[:-1]),
        Case("near-miss-close", f"{co}\n{WEATHER}\n" + _near_miss(cc) + cc),
        Case("unicode-around-call", "日本語 " + block('{"name": "日本", "arguments": {"é": "🎉"}}') + " 🎉"),
        Case("marker-heavy", f"{co}{co}{cc}{cc}{co}"),
    ]
    if r.calls_repeat:
        co = r.call_open
        cases += [
            Case("two-calls-one-block", f"{co}\n{WEATHER}\n{co}\n{TIME}\n{cc}"),
            Case("repeat-opener-unfinished",
                 f"{co}\n" + '{"name": "f", "arguments": {"a": 1' + f"\n{co}\n{TIME}\n{cc}"),
        ]
    if r.syntax == "json" and r.json_head is not None and r.json_object == CallObject.ARGUMENTS and not r.json_tail:
        # a Markdown fence around the arguments after a head that names the call: the call's
        cases += [
            Case("fenced-arguments-after-head",
                 r.frame(r.json_call("get_weather", '```json\n{"city": "Paris"}\n```')), calls=1),
            Case("fence-not-closed-after-head", r.frame(r.json_call("get_weather", '```\n{"city": "Paris"}')), calls=1),
        ]
    return cases


# ---------------------------------------------------------------------------------------------
# Calls in a tagged or keyed syntax, written the way the family's template writes them, and the
# ways a model gets them wrong.

# Text a declared nullable string may hold: a null word, a prefix of one, a word that starts like one.
NULLABLE_TEXTS = [("null", "null"), ("None", "None"), ("Nonesuch", "Nonesuch"), ("nu", "nu"), ("nul", "nul"),
                  ("empty", ""), ("null-twice", "null\nnull"), ("spaced-null", " null "), ("NULL", "NULL")]
INTEGER_TEXTS = [("plain", "3"), ("signed", "+007"), ("spaced", " 7 "), ("minus-zero", "-0"), ("letters", "12abc"),
                 ("float", "1e400"), ("beyond-double", "9007199254740993"), ("empty", ""), ("word", "three")]
# Escapes a key or a value may hold, as the model writes them (the text is the value, not JSON).
ESCAPE_TEXTS = ['a"b\\c\td', "\x00\x01\x1f\x7f", "\r\n", "\u2028\u2029", "é 日本 🎉 e\u0301", "\\ud83c x", "\\ud83c\\udf89",
                "\\u00e9 \\n \\\"", "/</", "\U0010ffff"]
# The three calls the corpus cuts at every prefix: (label, name, pairs, tools).
CUT_CALLS = [
    ("typed", "get_weather", [("city", "Paris"), ("days", "3")], True),
    ("nullable", "get_weather", [("note", "None")], True),
    ("inferred", "lookup", [("q", "a\nb"), ("ids", "[1, 2]")], False),
]


def syntax_cases(r):
    """Well-formed and adversarial calls of a tagged or keyed syntax (names start with the kind)."""
    p = r.syntax
    tagged = p == "tagged"
    co, cc = r.opens, r.closes
    frame, body, arg, head = r.frame, r.body, r.arg, r.head
    weather = body("get_weather", [("city", "Paris"), ("days", "3")])
    other_tags = "".join(tag for tag in r.tags if tag != r.value_close)
    time = body("get_time", [("zone", "UTC")])

    def open_call(text):
        """`text` after the call's opening marker (no closer: the stream ends there)."""
        return co + r.lead + text

    def closed(text):
        """`text` in the call's markers as written, with no trail of the template's."""
        return co + r.lead + text + cc

    kinds = [("city", "Paris"), ("days", r.spell(3)), ("note", r.spell(None)), ("tags", r.spell(["rain", "wind"])),
             ("options", r.spell({"unit": "C"})), ("code", "x = 1\nprint(x)\n")]
    cases = [
        Case(f"{p}-call", frame(weather), tools=TOOLS, calls=1),
        Case(f"{p}-call-without-tools", frame(weather), calls=1),
        Case(f"{p}-every-kind", frame(body("get_weather", kinds)), tools=TOOLS, calls=1),
        Case(f"{p}-every-kind-inferred", frame(body("lookup", kinds)), tools=TOOLS, calls=1),
        Case(f"{p}-undeclared-parameters", frame(body("get_weather", [
            ("city", "Paris"), ("unknown", "5"), ("extra", "[1, 2]"), ("flag", r.spell(True))])), tools=TOOLS, calls=1),
        Case(f"{p}-no-arguments", frame(body("get_time")), tools=TOOLS, calls=1),
        Case(f"{p}-two-calls", frame(weather, time), tools=TOOLS, calls=2),
        Case(f"{p}-prose-around", "Let me check.\n\n" + frame(weather) + "\n\nDone.", tools=TOOLS, calls=1),
        Case(f"{p}-prose-between-blocks", "A " + frame(weather) + " B " + frame(time) + " C", tools=TOOLS, calls=2),
        Case(f"{p}-multi-line-values", frame(body("get_weather", [
            ("code", "def f():\n    return 1\n"), ("city", "\n\nParis\n\n"), ("days", "\n3\n")])), tools=TOOLS, calls=1),
        Case(f"{p}-unicode", "日本 " + frame(body("日本", [("é", "日本 🎉"), ("city", "e\u0301\u2028")])) + " 🎉",
             tools=TOOLS, calls=1),
        Case(f"{p}-duplicate-keys", frame(body("get_weather", [
            ("city", "Paris"), ("city", "Rome"), ("days", "1"), ("days", "2")])), tools=TOOLS, calls=1),
        Case(f"{p}-escapes-in-keys", frame(body("lookup", [(t.replace(">", ""), "1") for t in ESCAPE_TEXTS[:5]])), calls=1),
        Case(f"{p}-more-escapes-in-keys", frame(body("lookup", [(t.replace(">", ""), "1") for t in ESCAPE_TEXTS[5:]])),
             calls=1),
        Case(f"{p}-fenced", "```\n" + frame(weather) + "\n```", tools=TOOLS, calls=1),
        # values holding tags: a closing marker inside a value closes the block (policy, SPEC
        # §2.4); the other tags and markers are the value's text or end it, as its syntax reads them
        Case(f"{p}-value-holds-other-tags", frame(body("get_weather", [("code", other_tags), ("x", other_tags)])),
             tools=TOOLS, calls=1),
        Case(f"{p}-value-holds-tag-fragments", frame(body("get_weather", [
            ("code", " ".join(tag[:-1] for tag in r.tags)), ("x", r.tags[2][:-1])])), tools=TOOLS, calls=1),
        Case(f"{p}-value-holds-call-close", frame(body("get_weather", [("code", f"a{r.call_close}b"), ("days", "3")])),
             tools=TOOLS, calls=1),
        Case(f"{p}-value-holds-call-open", frame(body("get_weather", [("code", f"a{r.call_open}b"), ("days", "3")])),
             tools=TOOLS),
        Case(f"{p}-value-holds-every-marker", frame(body("lookup", [("x", "".join(r.markers))])), tools=TOOLS),
        # a call's opener inside a value: the value's close tag after it makes it the value's text; a
        # tag, a marker or the end first makes it the next call's, the value's close missing
        Case(f"{p}-value-holds-call-open-closed", frame(body("get_weather", [
            ("code", f"printf '{r.call_open}'\n"), ("days", "3")])), tools=TOOLS, calls=1),
        Case(f"{p}-value-close-missing-before-call", co + r.lead + head("get_weather") + r.arg_open("city") + "Paris"
             + r.call(time) + (r.block_close or ""), tools=TOOLS),
        Case(f"{p}-value-close-missing-before-bare-call", co + r.lead + head("get_weather") + r.arg_open("city")
             + "Paris\n" + r.call(body("get_time")) + (r.block_close or ""), tools=TOOLS),
        Case(f"{p}-value-holds-call-open-at-end", open_call(head("get_weather") + r.arg_open("city") + "a "
                                                            + r.call_open + " b"), tools=TOOLS),
        Case(f"{p}-inferred-value-holds-call-close", frame(body("lookup", [("x", f"[1, {r.call_close}2]")])),
             tools=TOOLS, calls=1),
        # no name: the block starts no call however many pairs it holds
        Case(f"{p}-nameless-one-pair", closed(arg("a", "1")), tools=TOOLS, calls=0),
        Case(f"{p}-nameless-two-pairs", closed(arg("city", "Paris") + arg("days", "3")), tools=TOOLS, calls=0),
        Case(f"{p}-nameless-then-call", closed(arg("a", "1") + arg("b", "2")) + r.call_separator + frame(weather),
             tools=TOOLS, calls=1),
        Case(f"{p}-empty-key", frame(body("get_weather", [("city", "Paris"), ("", "1"), ("days", "3")])),
             tools=TOOLS, calls=1),
        Case(f"{p}-only-empty-key", frame(body("get_weather", [("", "")])), tools=TOOLS, calls=1),
        Case(f"{p}-text-before-first-tag", closed(head("get_weather") + " junk " + arg("city", "Paris")), tools=TOOLS),
        Case(f"{p}-text-between-pairs", frame(head("get_weather") + arg("city", "Paris") + "junk" + arg("days", "3")
                                              + r.tail()), tools=TOOLS, calls=1),
        Case(f"{p}-whitespace-between-pairs", frame(head("get_weather") + arg("city", "Paris") + " \n\t "
                                                    + arg("days", "3") + r.tail()), tools=TOOLS, calls=1),
        Case(f"{p}-text-after-pairs", frame(head("get_weather") + arg("city", "Paris") + "trailing" + r.tail()),
             tools=TOOLS, calls=1),
        Case(f"{p}-block-unterminated", open_call(weather), tools=TOOLS, calls=1),
        Case(f"{p}-block-unterminated-in-value", open_call(head("get_weather") + r.arg_open("city") + "Par"),
             tools=TOOLS, calls=1),
        Case(f"{p}-block-unterminated-in-whole-value", open_call(head("get_weather") + r.arg_open("days") + "12"),
             tools=TOOLS, calls=1),
        Case(f"{p}-block-unterminated-then-prose", open_call(weather) + r.trail + "\n\nSo it is.", tools=TOOLS),
        # (a keyed head the end follows is a name: `get`, a call with no arguments)
        Case(f"{p}-call-then-block-cut-before-name", frame(weather) + open_call(head("get_weather")[:3]),
             tools=TOOLS, calls=2 if r.syntax == "keyed" else 1),
        Case(f"{p}-block-closed-in-value", closed(head("get_weather") + r.arg_open("city") + "Par"), tools=TOOLS, calls=1),
        Case(f"{p}-block-closed-in-whole-value", closed(head("get_weather") + r.arg_open("days") + "12"),
             tools=TOOLS, calls=1),
        Case(f"{p}-block-closed-in-key", closed(head("get_weather") + r.arg_open("city")[:len(r.tags[1]) + 2]),
             tools=TOOLS, calls=1),
        Case(f"{p}-new-call-cuts-a-call-off", co + r.lead + head("get_weather") + arg("city", "Paris") + r.call_open
             + r.lead + time + r.trail + cc, tools=TOOLS),
    ]
    for i, text in enumerate(ESCAPE_TEXTS):
        # a declared string streams the text, an undeclared value infers from it
        cases.append(Case(f"{p}-escapes-in-values-{i}", frame(body("get_weather", [("city", text), ("x", text)])),
                          tools=TOOLS, calls=1))
    for label, text in NULLABLE_TEXTS:
        cases.append(Case(f"{p}-nullable-{label}", frame(body("get_weather", [("note", text)])), tools=TOOLS, calls=1))
    cases += [
        Case(f"{p}-nullable-nu-cut", open_call(head("get_weather") + r.arg_open("note") + "nu"), tools=TOOLS, calls=1),
        Case(f"{p}-nullable-nu-closed", closed(head("get_weather") + r.arg_open("note") + "nu"), tools=TOOLS, calls=1),
        Case(f"{p}-nullable-None-cut", open_call(head("get_weather") + r.arg_open("note") + "None"), tools=TOOLS, calls=1),
        Case(f"{p}-nullable-undeclared", frame(body("lookup", [("note", "None"), ("n", "null"), ("m", "nu")])),
             tools=TOOLS, calls=1),
    ]
    for label, text in INTEGER_TEXTS:
        cases.append(Case(f"{p}-integer-{label}", frame(body("get_weather", [("days", text)])), tools=TOOLS, calls=1))
    # a tag cut short: a prefix of one tag, then the same tag or the next one, then the closer
    for i, cut in enumerate(r.tags):
        for j in (i, (i + 1) % len(r.tags)):
            cases.append(Case(f"{p}-tag-{i}-cut-then-tag-{j}", closed(head("get_weather") + cut[:-1] + r.tags[j] + "x"),
                              tools=TOOLS))
        cases.append(Case(f"{p}-tag-{i}-first-char-in-value",
                          closed(head("get_weather") + r.arg_open("city") + "Pa" + cut[:1]), tools=TOOLS, calls=1))
        cases.append(Case(f"{p}-tag-{i}-cut-in-value",
                          closed(head("get_weather") + r.arg_open("city") + "Pa" + cut[:-1]), tools=TOOLS, calls=1))
        cases.append(Case(f"{p}-tag-{i}-cut-at-end", open_call(head("get_weather") + cut[:-1]), tools=TOOLS))
        # every tag where it has no place: before the name, between pairs, after the last pair
        cases.append(Case(f"{p}-tag-{i}-before-name", closed(cut + head("get_weather") + arg("city", "Paris")),
                          tools=TOOLS))
        cases.append(Case(f"{p}-tag-{i}-between-pairs", frame(head("get_weather") + arg("city", "Paris") + cut
                                                            + arg("days", "3") + r.tail()), tools=TOOLS, calls=1))
        cases.append(Case(f"{p}-tag-{i}-after-pairs", closed(head("get_weather") + arg("city", "Paris") + cut),
                          tools=TOOLS, calls=1))
    if not tagged:
        # a value's close misspelled or cut short (the tagged syntax's cases are below)
        stem = r.value_close[:-1]
        cases += [
            Case("keyed-close-misspelled-before-key", frame(head("get_weather") + r.arg_open("city") + "Paris" + stem
                                                            + "1>\n" + arg("days", "3") + r.tail()),
                 tools=TOOLS, calls=1),
            Case("keyed-close-cut-before-call-close", closed(head("get_weather") + r.arg_open("days") + "3" + stem),
                 tools=TOOLS, calls=1),
            Case("keyed-close-misspelled-then-text", frame(head("get_weather") + r.arg_open("city") + "a" + stem
                                                           + "s> b" + r.value_close + r.tail()), tools=TOOLS, calls=1),
            Case("keyed-close-misspelled-at-end", open_call(head("get_weather") + r.arg_open("city") + "Paris" + stem
                                                            + "1>\n"), tools=TOOLS, calls=1),
        ]
    if tagged:
        fo, po, pc, fc = r.tags
        repaired = 1 if r.broken_tags else 0
        cases += [
            Case("tagged-empty-function-name", closed(f"{fo}>\n" + arg("a", "1") + fc), tools=TOOLS, calls=0),
            Case("tagged-empty-function-name-then-function", closed(f"{fo}>\n" + weather), tools=TOOLS, calls=1),
            Case("tagged-second-function-tag", closed(head("get_weather") + head("get_time") + arg("city", "Paris") + fc),
                 tools=TOOLS, calls=2),
            Case("tagged-function-tag-in-name", closed(f"{fo}get_{fo}get_weather>\n" + arg("city", "Paris") + fc),
                 tools=TOOLS, calls=1),
            Case("tagged-parameter-tag-in-key", closed(head("get_weather") + f"{po}ci{po}city>\nParis\n{pc}\n" + fc),
                 tools=TOOLS, calls=1),
            # a stray `</function>` ends no block: the call after it is read (the block goes on)
            Case("tagged-function-close-first", closed(f"{fc}\n" + weather), tools=TOOLS, calls=1),
            Case("tagged-parameters-without-function", closed(arg("city", "Paris") + fc), tools=TOOLS, calls=0),
            Case("tagged-text-after-function-close", co + r.lead + weather + "\nafter\n" + cc, tools=TOOLS, calls=1),
            # several functions in one block: each a call (vLLM's and SGLang's parsers read them all)
            Case("tagged-two-functions-in-one-block", closed(weather + "\n" + time), tools=TOOLS, calls=2),
            Case("tagged-text-between-functions-in-one-block", closed(weather + "\nand then\n" + time), tools=TOOLS,
                 calls=2),
            Case("tagged-two-functions-block-unclosed", co + r.lead + weather + "\n" + time, tools=TOOLS, calls=2),
            Case("tagged-name-with-spaces", frame(body("get weather", [("my key", "v")])), tools=TOOLS, calls=1),
            Case("tagged-name-unterminated", open_call(f"{fo}get_weather"), tools=TOOLS),
            # the block's close ends a declared name (vLLM's qwen3_coder, seed_oss)
            Case("tagged-name-closed-early", closed(f"{fo}get_weather"), tools=TOOLS, calls=1),
            Case("tagged-no-template-newlines", frame(weather.replace("\n", "")), tools=TOOLS, calls=1),
            Case("tagged-crlf", frame(weather.replace("\n", "\r\n")), tools=TOOLS, calls=1),
            # a value's close missing or misspelled: the next parameter or function tag ends it
            Case("tagged-close-missing-before-parameter", frame(head("get_weather") + r.arg_open("city") + "Paris\n"
                                                                 + arg("days", "3") + fc), tools=TOOLS, calls=1),
            Case("tagged-close-missing-before-function-close", frame(head("get_weather") + r.arg_open("city")
                                                                      + "Paris\n" + fc), tools=TOOLS, calls=1),
            Case("tagged-close-missing-before-function", closed(head("get_weather") + r.arg_open("city") + "Paris\n"
                                                                 + time), tools=TOOLS, calls=2),
            Case("tagged-close-misspelled", frame(head("get_weather") + r.arg_open("city") + "Paris\n</parameter1>\n"
                                                  + arg("days", "3") + fc), tools=TOOLS, calls=1),
            Case("tagged-close-spaced-before-parameter", frame(head("get_weather") + r.arg_open("city") + "Paris\n"
                                                                "</parameter \t>\n" + arg("days", "3") + fc),
                 tools=TOOLS, calls=1),
            Case("tagged-close-misspelled-before-function-close", frame(
                head("get_weather") + r.arg_open("city") + "Paris\n</parameter_function>\n" + fc),
                tools=TOOLS, calls=1),
            Case("tagged-close-cut-before-parameter", frame(
                head("get_weather") + r.arg_open("city") + "Paris</parameter" + arg("days", "3") + fc),
                tools=TOOLS, calls=1),
            Case("tagged-close-cut-at-end", open_call(head("get_weather") + r.arg_open("city") + "Paris</parameter"),
                 tools=TOOLS, calls=1),
            Case("tagged-text-after-close-then-function-close", frame(
                head("get_weather") + r.arg("city", "Paris") + "Note: metric\n" + fc), tools=TOOLS, calls=1),
            Case("tagged-text-after-close-then-close", frame(
                head("get_weather") + r.arg("city", "Paris") + "more\n" + r.arg_close() + fc), tools=TOOLS, calls=1),
            Case("tagged-text-after-close-at-end", open_call(head("get_weather") + r.arg("city", "Paris") + "Note"),
                 tools=TOOLS, calls=1),
            Case("tagged-close-misspelled-then-closed", frame(body("get_weather", [
                ("city", "x </parameters>\n"), ("days", "3")])), tools=TOOLS, calls=1),
            # markers and tags inside a value its close tag ends are its text; unclosed, what they are
            Case("tagged-opener-in-closed-value", frame(body("get_weather", [("code", f"printf '{r.call_open}'")])),
                 tools=TOOLS, calls=1),
            Case("tagged-tags-in-closed-value", frame(body("get_weather", [("code", f"{fo}x>{fc}{r.call_open}{fc}")])),
                 tools=TOOLS, calls=1),
            Case("tagged-opener-in-unclosed-value", co + r.lead + head("get_weather") + r.arg_open("code") + "x\n"
                 + r.call(time) + r.trail + cc, tools=TOOLS, calls=2),
            Case("tagged-opener-in-value-cut", open_call(head("get_weather") + r.arg_open("code") + "x" + r.call_open
                                                         + "y"), tools=TOOLS, calls=1),
            # Step-3.5's broken tags: its table reads them as meant, the others as written (no call)
            Case("tagged-function-without-equals", frame(weather.replace(fo, "<function ", 1)), tools=TOOLS,
                 calls=repaired),
            Case("tagged-function-without-equals-or-space", frame(weather.replace(fo, "<function", 1)), tools=TOOLS,
                 calls=repaired),
            Case("tagged-function-without-equals-undeclared", frame(body("lookup").replace(fo, "<function ", 1)),
                 tools=TOOLS, calls=0),
            Case("tagged-names-end-at-newline", frame(f"{fo}get_weather\n{po}city\nParis\n{pc}\n{fc}"), tools=TOOLS,
                 calls=repaired),
            Case("tagged-undeclared-name-runs-past-newline", frame(f"{fo}lookup\n{fc}") + r.call_separator
                 + frame(weather), tools=TOOLS, calls=1),
            Case("tagged-tag-name-written-twice", frame(weather.replace(po, po + "parameter=")), tools=TOOLS, calls=1),
        ]
        if fo in r.markers:
            # calls without their block: the function tag opens one (a call once a tag follows it)
            cases += [
                Case("tagged-bare-call", weather, tools=TOOLS, calls=1),
                Case("tagged-bare-call-block-close", weather + "\n" + cc, tools=TOOLS, calls=1),
                Case("tagged-bare-call-prose-around", "I'll check.\n" + weather + "\nDone." + cc + " Bye.",
                     tools=TOOLS, calls=1),
                Case("tagged-bare-calls-two", weather + "\n" + time, tools=TOOLS, calls=2),
                Case("tagged-bare-call-then-block", weather + "\n" + frame(time), tools=TOOLS, calls=2),
                Case("tagged-bare-tag-in-prose", f"Write {fo}NAME> to call a tool, and {fo}x to name it.", tools=TOOLS,
                     calls=0),
                Case("tagged-bare-tag-at-end", f"Now: {fo}get_weather>\n", tools=TOOLS, calls=0),
                Case("tagged-bare-tag-closed", f"{fo}get_time>{cc}", tools=TOOLS, calls=1),
                Case("tagged-bare-call-unterminated", head("get_weather") + r.arg_open("city") + "Par", tools=TOOLS,
                     calls=1),
                Case("tagged-bare-call-in-thought", (r.think_open or "") + weather + (r.think_close or ""), tools=TOOLS,
                     calls=0),
            ]
    else:
        ko, kc, vo, vc = r.tags
        cases += [
            Case("keyed-whitespace-name", closed(" \n " + r.between + arg("a", "1")), tools=TOOLS, calls=0),
            Case("keyed-whitespace-around-name", frame(" \n get_weather \n" + arg("city", "Paris")), tools=TOOLS,
                 calls=1),
            Case("keyed-two-names", frame("get_weather get_time" + r.between + arg("city", "Paris")), tools=TOOLS,
                 calls=0),
            Case("keyed-name-then-name-after-pairs", frame(head("get_weather") + arg("city", "Paris") + "get_time"),
                 tools=TOOLS, calls=1),
            Case("keyed-name-with-brace", frame(head("get{weather}") + arg("city", "Paris")), tools=TOOLS, calls=0),
            Case("keyed-name-only-closed", closed("get_weather"), tools=TOOLS, calls=1),
            Case("keyed-name-only-cut", open_call("get_wea"), tools=TOOLS, calls=1),     # (a call with `{}`)
            Case("keyed-two-words-cut", open_call("get wea"), tools=TOOLS, calls=0),
            Case("keyed-key-cut-by-value-tag", frame(head("get_weather") + f"{ko}ci{vo}Paris{vc}" + arg("days", "3")),
                 tools=TOOLS, calls=1),
            Case("keyed-text-between-key-and-value", frame(head("get_weather") + f"{ko}city{kc} x {vo}Paris{vc}"),
                 tools=TOOLS, calls=1),
            Case("keyed-value-without-key", frame(head("get_weather") + f"{vo}Paris{vc}" + arg("days", "3")),
                 tools=TOOLS, calls=1),
            Case("keyed-key-without-value", frame(head("get_weather") + f"{ko}city{kc}" + arg("days", "3")),
                 tools=TOOLS, calls=1),
            # GLM's spacing under Ling's table and Ling's under GLM's: the parser reads either
            Case("keyed-spacing-of-the-other-template",
                 frame(dataclasses.replace(r, between="" if r.between else "\n").body("get_weather", [
                     ("city", "Paris"), ("days", "3")])), tools=TOOLS, calls=1),
        ]
    if r.block_open is not None:
        bo, bc, ko_, kc_ = r.block_open, r.block_close, r.call_open, r.call_close
        one, two = r.call(weather), r.call(time)
        cases += [
            Case(f"{p}-outer-block-two-calls-newline", bo + one + "\n" + two + bc, tools=TOOLS, calls=2),
            Case(f"{p}-outer-block-text-between-calls", bo + one + " junk " + two + bc, tools=TOOLS, calls=2),
            Case(f"{p}-outer-block-empty", f"{bo}{bc}after", tools=TOOLS, calls=0),
            Case(f"{p}-outer-block-whitespace", f"{bo} \n {bc}", tools=TOOLS, calls=0),
            Case(f"{p}-outer-block-text-only", f"{bo}text{bc}", tools=TOOLS, calls=0),
            Case(f"{p}-outer-block-open-twice", bo + bo + one + bc, tools=TOOLS, calls=1),
            Case(f"{p}-outer-block-call-unterminated", bo + ko_ + weather, tools=TOOLS, calls=1),
            Case(f"{p}-outer-block-closer-inside-call", bo + ko_ + weather + bc + "after", tools=TOOLS, calls=1),
            Case(f"{p}-outer-block-closer-inside-value", bo + ko_ + head("get_weather") + r.arg_open("city") + "Pa" + bc + "ris"
                 + r.arg_close() + kc_ + bc, tools=TOOLS, calls=1),
            # no call self-row: the opener is text, and a name holding it is no name
            Case(f"{p}-outer-block-call-opener-inside-call", bo + ko_ + head("get_weather") + ko_ + arg("city", "Paris") + kc_ + bc,
                 tools=TOOLS, calls=0),
            Case(f"{p}-outer-block-call-opener-inside-value", bo + ko_ + head("get_weather") + arg("city", "Pa" + ko_ + "ris")
                 + kc_ + bc, tools=TOOLS, calls=1),
            Case(f"{p}-outer-block-unterminated", bo + one, tools=TOOLS, calls=1),
            Case(f"{p}-outer-without-block", one + " after", tools=TOOLS, calls=1 if r.without_block else 0),
            Case(f"{p}-outer-closer-without-call", bo + kc_ + one + bc, tools=TOOLS, calls=1),
            Case(f"{p}-outer-block-after-thought", (r.think_open or "") + "plan" + (r.think_close or "") + frame(weather),
                 tools=TOOLS, calls=1),
        ]
    return cases


CUT_SPLITS = 8     # a cut case replays the two-way splits this far before its cut (and one after)
CUT_SEEDS = 3


def cut_cases(r):
    """A few well-formed calls cut at every character: the stream ending there, and the table's
    closer written there."""
    cases = []
    for label, name, pairs, declared in CUT_CALLS:
        inner = r.lead + r.body(name, pairs) + r.trail
        tools = TOOLS if declared else None
        for k in range(len(inner) + 1):
            at = len(r.opens) + k
            near = range(max(1, at - CUT_SPLITS), at + 2)
            cases.append(Case(f"cut-{label}-{k}-end", r.opens + inner[:k], tools=tools, splits=near, seeds=CUT_SEEDS))
            cases.append(Case(f"cut-{label}-{k}-closed", r.opens + inner[:k] + r.closes, tools=tools,
                              splits=near, seeds=CUT_SEEDS))
    return cases


def initial_calls_cases(r):
    """Tables whose output is itself the calls (xLAM): lists, content and bodies alone."""
    cases = [Case(name, output) for name, output in LIST_SHAPES]
    cases += [Case(f"list-body-{name}", f"[{body}]") for name, body in JSON_BODIES]
    cases += [
        Case("list-content", "I cannot help with that."),
        Case("list-whitespace-then-content", "  \n Hello"),
        Case("list-whitespace-only", "  \n "),
    ]
    return cases


# Hand-written entries per table name (family quirks the generic shapes miss).
FAMILY_CASES = {
    "qwen3": [
        Case("qwen3-ledger-example", "<think>\nplan\n</think>\n\nHi"),
        Case("qwen3-reasoning-with-marker-text", "<think>\nI should use <tool_call> here.\n</think>\n\nNo call."),
        Case("qwen3-engine-example", f"<tool_call>\n{WEATHER}\n</tool_call>"),
        Case("qwen3-k-exaone-style-prompt", "x</think>y", "<|assistant|>\n<think>\n"),
    ],
    "qwen2_5": [
        Case("qwen2_5-think-is-content", "<think>\nplan\n</think>\n\nHi"),
        Case("qwen2_5-thought-prompt", "plan</think>answer", "<|im_start|>assistant\n<think>\n"),
    ],
    "xlam": [
        Case("xlam-thought-then-list", "<think>x</think>[]"),
        # the ways in: a thought, a fence, [TOOL_CALLS]; <tool_call> is text
        Case("xlam-thought-then-call", f"<think>plan</think>[{WEATHER}]", calls=1),
        Case("xlam-fenced", f"```json\n[{WEATHER}, {TIME}]\n```", calls=2),
        Case("xlam-bare-fence", f" ```\n[{WEATHER}]```\n", calls=1),
        Case("xlam-fence-then-prose", "```json\nnot a list\n```", calls=0),
        Case("xlam-fence-not-closed", f"```json\n[{WEATHER}]\n``", calls=1),
        Case("xlam-text-after-fence", f"```json\n[{WEATHER}]\n``` x", calls=1),
        Case("xlam-tool-calls-marker", f"Sure.[TOOL_CALLS][{WEATHER}]", calls=1),
        Case("xlam-tool-call-tags", f"Sure.<tool_call>[{WEATHER}]</tool_call> done", calls=1),
        Case("xlam-lists-in-prose", f"A [{WEATHER}] B [{TIME}; {WEATHER}] C [1, 2] [] `[{TIME}]`", calls=3),
        Case("xlam-fence-after-prose", f"Here:\n```json\n[{WEATHER}]\n```\nthen\n```\n[{TIME}]\n```", calls=2),
        Case("xlam-list-in-code-block", f"```python\n[{WEATHER}]\n```\n``[{TIME}]``", calls=0),
        Case("xlam-held-key", '[ { "argum', calls=0),
        Case("xlam-string-arguments", '[{"name": "f", "arguments": "{\\"a\\": [1]}"}]', calls=1),
    ],
    "deepseek_v3": [
        Case("deepseek_v3-call", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
             '{"city": "Tokyo", "days": 3}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>', tools=TOOLS, calls=1),
        Case("deepseek_v3-two-calls", "A<｜tool▁calls▁begin｜>" + "".join(
            f"<｜tool▁call▁begin｜>function<｜tool▁sep｜>{n}\n```json\n{a}\n```<｜tool▁call▁end｜>"
            for n, a in (("f", "{}"), ("g", '{"a": [1, {"b": null}]}'))) + "<｜tool▁calls▁end｜>B", calls=2),
        Case("deepseek_v3-other-type", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>code<｜tool▁sep｜>f\n```json\n{}\n```"
             "<｜tool▁call▁end｜><｜tool▁calls▁end｜>", calls=0),
        Case("deepseek_v3-no-fence", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n{}"
             "<｜tool▁call▁end｜><｜tool▁calls▁end｜>", calls=0),
        Case("deepseek_v3-fence-not-closed", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n"
             '{"a": 1}\n``<｜tool▁call▁end｜><｜tool▁calls▁end｜>', calls=1),
        Case("deepseek_v3-text-after-fence", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n"
             '{"a": 1}\n``` x<｜tool▁call▁end｜><｜tool▁calls▁end｜>', calls=1),
        Case("deepseek_v3-arguments-not-an-object", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f"
             "\n```json\n[1]\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", calls=0),
        Case("deepseek_v3-cut-in-arguments", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n"
             '{"a": "x', calls=1),
        Case("deepseek_v3-r1-thought", "plan</think>\n\nok", "<｜Assistant｜><think>\n", calls=0),
        Case("deepseek_v3-call-without-block", "Sure.<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
             '{"city": "Tokyo"}\n```<｜tool▁call▁end｜>', tools=TOOLS, calls=1),
    ],
    "deepseek_v3_1": [
        Case("deepseek_v3_1-calls", 'pre<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>foo<｜tool▁sep｜>{"x":1}<｜tool▁call▁end｜>'
             '<｜tool▁call▁begin｜>bar<｜tool▁sep｜>{"y": [2, "日本"]}<｜tool▁call▁end｜><｜tool▁calls▁end｜> post',
             calls=2),
        Case("deepseek_v3_1-empty-name", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜> <｜tool▁sep｜>{}<｜tool▁call▁end｜>"
             "<｜tool▁calls▁end｜>", calls=0),
        Case("deepseek_v3_1-no-separator", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>foo{}<｜tool▁call▁end｜>"
             "<｜tool▁calls▁end｜>", calls=0),
        Case("deepseek_v3_1-separator-in-arguments", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>"
             '{"s": "<｜tool▁sep｜>"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>', calls=1),
        Case("deepseek_v3_1-text-after-object", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{} x"
             "<｜tool▁call▁end｜><｜tool▁calls▁end｜>", calls=1),
        Case("deepseek_v3_1-cut-in-name", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_wea", calls=0),
        Case("deepseek_v3_1-calls-without-block", 'Checking.<｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a": 1}<｜tool▁call▁end｜>'
             '<｜tool▁call▁begin｜>g<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜> done', calls=2),
    ],
    "kimi_k2": [
        Case("kimi_k2-calls", "Hi <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0 "
             '<|tool_call_argument_begin|>{"city": "Tokyo", "days": 3}<|tool_call_end|><|tool_call_begin|>'
             "functions.get_time:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>",
             tools=TOOLS, calls=2),
        Case("kimi_k2-thought-then-block", "<think>plan <|tool_call_begin|> x</think>ok<|tool_calls_section_begin|>"
             '<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": [1]}<|tool_call_end|>'
             "<|tool_calls_section_end|>", calls=1),
        Case("kimi_k2-block-ends-thought", "<think>plan<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0"
             "<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>", calls=1),
        Case("kimi_k2-bare-counter", "<|tool_calls_section_begin|><|tool_call_begin|>0<|tool_call_argument_begin|>{}"
             "<|tool_call_end|><|tool_calls_section_end|>", calls=0),
        Case("kimi_k2-bare-counter-only-tool", "<|tool_calls_section_begin|><|tool_call_begin|> 7 "
             '<|tool_call_argument_begin|>{"zone": "UTC"}<|tool_call_end|><|tool_calls_section_end|>',
             tools=[tool("get_time", zone=STRING)], calls=1),
        Case("kimi_k2-bare-counter-two-tools", "<|tool_calls_section_begin|><|tool_call_begin|>0"
             "<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>", tools=TOOLS, calls=0),
        Case("kimi_k2-id-without-number", "<|tool_calls_section_begin|><|tool_call_begin|>functions.a.b"
             "<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>", calls=0),
        Case("kimi_k2-id-with-dots", "<|tool_calls_section_begin|><|tool_call_begin|>functions.a.b:3"
             "<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>", calls=1),
        Case("kimi_k2-section-end-cuts-call", "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0"
             '<|tool_call_argument_begin|>{"a": "x<|tool_calls_section_end|>after', calls=1),
        Case("kimi_k2-cut-in-id", "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_wea", calls=0),
        Case("kimi_k2-stray-control-tokens", "a<|tool_calls_section_end|>b<|tool_call_end|><|tool_call_argument_begin|>c"
             "<|tool_calls_section_begin|> <|tool_call_argument_begin|> x<|tool_calls_section_end|>", calls=0),
    ],
    "deepseek_v3_2": [
        Case("deepseek_v3_2-calls", 'Sure <｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter '
             'name="city" string="true">杭州</｜DSML｜parameter>\n<｜DSML｜parameter name="days" string="false">5'
             '</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>', tools=TOOLS, calls=1),
        Case("deepseek_v3_2-v4_1-spelling-is-text", '<｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n<｜DSML｜ '
             'parameter name="a" string="true">x</｜DSML｜ parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
             calls=1),
        Case("deepseek_v3_2-v4-block-is-no-block", '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="f">\n</｜DSML｜invoke>'
             '\n</｜DSML｜tool_calls>', calls=1),
        Case("deepseek_v3_2-invoke-without-block", 'Sure.<｜DSML｜invoke name="get_weather"><｜DSML｜parameter '
             'name="city" string="true">Beijing</｜DSML｜parameter></｜DSML｜invoke>', tools=TOOLS, calls=1),
        Case("deepseek_v3_2-damaged-opener", 'Sure.\n\n<｜DSML｜function_call\n\n<｜DSML｜function_calls>'
             '<｜DSML｜invoke name="f"></｜DSML｜invoke></｜DSML｜function_calls>', calls=1),
        Case("deepseek_v3_2-thought", "plan</think>\n\nok", "<｜Assistant｜><think>", calls=0),
    ],
    "deepseek_v4": [
        Case("deepseek_v4-calls", '<think>p</think><｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_weather">\n'
             '<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n'
             '</｜DSML｜tool_calls>', tools=TOOLS, calls=1),
        Case("deepseek_v4-v3_2-block-is-no-block", '<｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n</｜DSML｜invoke>'
             '\n</｜DSML｜function_calls>', calls=1),
        Case("deepseek_v4-invokes-without-block", 'Checking.\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter '
             'name="city" string="true">SF</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name="get_time">\n'
             '</｜DSML｜invoke>\n</｜DSML｜tool_calls>\nDone.', tools=TOOLS, calls=2),
        Case("deepseek_v4-invoke-in-thought-is-thought", '<think>maybe <｜DSML｜invoke name="f"></｜DSML｜invoke></think>ok',
             calls=0),
        Case("deepseek_v4-invoke-without-block-cut", 'See <｜DSML｜invoke name="get_weather"><｜DSML｜parameter '
             'name="city" string="true">Bei', tools=TOOLS, calls=1),
        Case("deepseek_v4-damaged-openers", 'Final scan:\n\n<｜DSML｜tool_calls-ok Let\'s scan.\n<｜DSML｜toolcalls>\n'
             '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">'
             'SF</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>', tools=TOOLS, calls=1),
        Case("deepseek_v4-damaged-opener-then-prose", "Use <｜DSML｜toolcalls>\n\nor not. <｜DSML｜tool", calls=0),
        Case("deepseek_v4-json-body", '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_weather">\n{"city": "SF", "days": '
             '[1, {"x": "\\u00e9\\"</｜DSML｜parameter>"}]}\n</｜DSML｜invoke>\n<｜DSML｜invoke name="f">{}'
             '</｜DSML｜invoke>\n</｜DSML｜tool_calls>', tools=TOOLS, calls=2),
        Case("deepseek_v4-json-body-refused", '<｜DSML｜invoke name="f">\n{"a": nul, "b": 2}\n</｜DSML｜invoke>', calls=1),
        Case("deepseek_v4-json-body-then-text", '<｜DSML｜invoke name="f"> {"a": 1} and <｜DSML｜parameter name="b" '
             'string="true">x</｜DSML｜parameter></｜DSML｜invoke>', calls=1),
        Case("deepseek_v4-json-body-cut", '<｜DSML｜invoke name="f">{"a": {"b": tr', calls=1),
        Case("deepseek_v4-damaged-opener-ends-thought", "plan <｜DSML｜tool_calls-\n\n<｜DSML｜tool_calls>\n"
             '<｜DSML｜invoke name="f">{}</｜DSML｜invoke>\n</｜DSML｜tool_calls>', "<｜Assistant｜><think>", calls=1),
        Case("deepseek_v4-damaged-opener-then-thought", '<｜DSML｜tool\n<think>p</think><｜DSML｜invoke name="f">',
             calls=1),
    ],
    "deepseek_v4_1": [
        Case("deepseek_v4_1-invoke-without-block", 'Checking.\n\n<｜DSML｜ invoke name="get_weather">\n<｜DSML｜ '
             'parameter name="city" string="true">SF</｜DSML｜ parameter>\n</｜DSML｜ invoke>', "<｜Assistant｜></think>",
             tools=TOOLS, calls=1),
        Case("deepseek_v4_1-json-body", '<｜DSML｜ calls>\n<｜DSML｜ invoke name="f">\n{"q": "x"}\n</｜DSML｜ invoke>\n'
             '</｜DSML｜ calls>', "<｜Assistant｜></think>", calls=1),
        Case("deepseek_v4_1-damaged-opener", 'ok\n<｜DSML｜calls>\n<｜DSML｜ calls>\n<｜DSML｜ invoke name="f">\n'
             '</｜DSML｜ invoke>\n</｜DSML｜ calls>', "<｜Assistant｜></think>", calls=1),
    ],
    "gigachat35": [
        Case("gigachat35-invoke-without-block", 'Ищу.<｜GCML｜invoke name="get_weather"><｜GCML｜parameter name="city" '
             'string="true">Москва</｜GCML｜parameter></｜GCML｜invoke><|message_sep|></s>', tools=TOOLS, calls=1),
        Case("gigachat35-json-body", '<｜GCML｜tool_calls><｜GCML｜invoke name="f">{"a":<|message_sep|> 1}</｜GCML｜invoke>'
             '</｜GCML｜tool_calls></s>', calls=1),
        Case("gigachat35-damaged-opener", '<｜GCML｜toolcalls><|message_sep|>\n<｜GCML｜tool<｜GCML｜tool_calls>'
             '<｜GCML｜invoke name="f"></｜GCML｜invoke></｜GCML｜tool_calls>', calls=1),
    ],
    "pythonic": [
        Case("bare-pythonic-list", "[get_weather(city='Paris', days=3), get_time()]", tools=TOOLS, calls=2),
        Case("bare-pythonic-list-spaced", " \n[ get_weather (city='Paris') ,\n get_time() ] \n", tools=TOOLS, calls=2),
        Case("bare-pythonic-dotted-name", "[tools.search(q='x')]", calls=1),
        Case("bare-pythonic-numbers-are-content", "[1, 2] are the first two.", calls=0),
        Case("bare-pythonic-bracketed-words-are-content", "[see below] f(a=1)", calls=0),
        Case("bare-pythonic-apostrophes-are-content", "[O'Reilly] docs [don't panic] [1] and []", calls=0),
        Case("bare-pythonic-markdown-link", "[link](http://x.org) and [f(a=1)]", calls=1),
        Case("bare-pythonic-list-after-prose", "Sure: [f(a=1)] done", calls=1),
        Case("bare-pythonic-lists-in-prose", "Searching. [search(query='x')][g()] and [h(b=']')] Done.", calls=3),
        Case("bare-pythonic-list-in-brackets", "[[f(a=1)]]", calls=1),
        Case("bare-pythonic-digit-name-is-content", "[1f(a=1)]", calls=0),
        Case("bare-pythonic-text-after-list", "[f(a=1)] \n and more", calls=1),
        Case("bare-pythonic-inline-code", "Call `[f(a=1)]` or ``[g(b=2)]``, then [h()]", calls=1),
        Case("bare-pythonic-fenced-code", "```python\n[f(a=1)]\n```\n[g()] ````\n[h()]\n```", calls=1),
        Case("bare-pythonic-python-region", "Let me check. <|python_start|>[get_weather(city='LA')]<|python_end|> done",
             tools=TOOLS, calls=1),
        Case("bare-pythonic-python-region-unclosed", "<|python_start|>[f(a=1), g(b=[1, 2])]", calls=2),
        Case("bare-pythonic-region-of-content", "<|python_start|>print(1)<|python_end|>", calls=0),
        Case("bare-pythonic-cut-undecided", " [get_wea", calls=0),
        Case("bare-pythonic-cut-in-value", "[f(a='x", calls=0),
        Case("bare-pythonic-argument-literals", "[f(a={'x', 'y'}, b=f'z', c=+1, d=.5, e='p' 'q', **{'g': 1})]",
             calls=1),
    ],
    "lfm2_5": [
        Case("lfm2_5-raw-line-break", "<|tool_call_start|>[f(cmd='a\nb\r\nc', n=07)]<|tool_call_end|>", calls=1),
        Case("lfm2_5-unescaped-quotes", "<|tool_call_start|>[f(cmd='sed -n '1,5p' x.py'), g(a='it's', b=[1, ')'])]"
             "<|tool_call_end|>", calls=1),    # (g's quotes admit no reading: no call)
        Case("lfm2_5-unescaped-quotes-ambiguous", "<|tool_call_start|>[f(a='x 'y', b='z'), g(c='p 'q' 'r), h()]"
             "<|tool_call_end|>", calls=1),
        Case("lfm2_5-unescaped-quotes-unbalanced", "<|tool_call_start|>[f(a='x ')y'), g()]<|tool_call_end|>", calls=2),
        Case("lfm2_5-unescaped-quotes-cut", "<|tool_call_start|>[f(a='x 'y, b=(1", calls=0),
        Case("lfm2_5-unescaped-quotes-closed", "<|tool_call_start|>[f(a='x 'y, b=(1<|tool_call_end|> after", calls=0),
        Case("lfm2_5-json-calls", '<|tool_call_start|>[{"name": "f", "arguments": {"a": 1}}, '
             '{"name": "g", "parameters": {}}]<|tool_call_end|>', calls=2),
        Case("lfm2_5-json-call-cut", '<|tool_call_start|>{"name": "f", "arguments": {"a": [1<|tool_call_end|>', calls=1),
    ],
    "ernie45": [
        Case("ernie45-thought-response-calls", "plan\n</think>\n\n<response>\nOK\n</response><tool_call>\n"
             + WEATHER + "\n</tool_call>\n", "<|im_start|>assistant\n<think>\n", tools=TOOLS, calls=1),
        Case("ernie45-response-marker-in-arguments", '<tool_call>\n{"name": "f", "arguments": {"a": "x<response>y"}}'
             "\n</tool_call>", calls=1),
    ],
    "longcat": [
        Case("longcat-calls", "Hi <longcat_tool_call>" + WEATHER + "</longcat_tool_call>\n<longcat_tool_call>"
             + TIME + "</longcat_tool_call>", tools=TOOLS, calls=2),
        Case("longcat-qwen-markers-are-text", "<tool_call>" + WEATHER + "</tool_call>", calls=0),
    ],
    "step3": [
        Case("step3-calls", '<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="get_weather"><steptml:parameter '
             'name="city">Tokyo</steptml:parameter><steptml:parameter name="days"> 3 </steptml:parameter>'
             '</steptml:invoke><｜tool_call_end｜><｜tool_sep｜><｜tool_call_begin｜><steptml:invoke name="get_time">'
             "</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>", tools=TOOLS, calls=2),
        Case("step3-header", '<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>f\n<steptml:invoke name="f">'
             '<steptml:parameter name="a">1</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>',
             calls=1),
        Case("step3-call-end-cuts-invoke", '<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="f">'
             '<steptml:parameter name="a">x<｜tool_call_end｜><｜tool_calls_end｜>', calls=1),
        Case("step3-thought", "plan</think>ok", "<|BOT|>assistant\n<think>\n", calls=0),
    ],
    "minimax_m1": [
        Case("minimax_m1-calls", "Sure. <tool_calls>\n" + WEATHER + "\n" + TIME + "\n</tool_calls>", tools=TOOLS,
             calls=2),
        Case("minimax_m1-commas-and-junk", "<tool_calls>\n" + WEATHER + ",\n x " + TIME + "]\n</tool_calls>", calls=2),
        Case("minimax_m1-thought-holds-block", "<think>plan <tool_calls>\n" + WEATHER + "\n</tool_calls></think>ok",
             calls=0),
        Case("minimax_m1-cut-in-object", "<tool_calls>\n" + WEATHER[:42], calls=1),
        Case("minimax_m1-a-list-is-junk", "<tool_calls>\n[" + WEATHER + "]\n</tool_calls>", calls=1),
    ],
    "gpt_oss": [
        Case("gpt_oss-thought-call", "<|channel|>analysis<|message|>Need it.<|end|><|start|>assistant<|channel|>"
             'commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Tokyo", "days": 3}<|call|>',
             tools=TOOLS, calls=1),
        Case("gpt_oss-preamble-final", "<|channel|>commentary<|message|>Checking.<|end|><|start|>assistant<|channel|>"
             "final<|message|>Done.<|return|>", calls=0),
        Case("gpt_oss-recipient-first", ' to=functions.f<|channel|>commentary json<|message|>{"a": [1]}<|call|>', calls=1),
        Case("gpt_oss-other-recipient", '<|channel|>commentary to=browser.search <|constrain|>json<|message|>{"q": 1}'
             "<|call|>", calls=1),
        Case("gpt_oss-no-name", "<|channel|>commentary to= <|constrain|>json<|message|>{}<|call|>", calls=0),
        Case("gpt_oss-header-cut", "<|channel|>commentary to=functions.get_wea", calls=0),
        Case("gpt_oss-text-outside-messages", "hi<|channel|>final<|message|>x<|return|> bye", calls=0),
        # the headers as a detokenizer writes them spacing special tokens (shapes.spaced_special_tokens)
        Case("gpt_oss-spaced-headers", "<|channel|> analysis <|message|> Need it. <|end|> <|start|> assistant "
             '<|channel|> commentary to=functions.get_weather  <|constrain|> json <|message|> {"city": "Tokyo"} <|call|>',
             tools=TOOLS, calls=1),
        Case("gpt_oss-spaced-header-cut", "<|channel|> commentary <|message|> x <|end|> <|start|> assist", calls=0),
    ],
    "apertus": [
        Case("apertus-calls", 'Sure! <|tools_prefix|>[{"get_weather": {"city": "London", "days": 3}}, '
             '{"get_time": {}}]<|tools_suffix|>', tools=TOOLS, calls=2),
        Case("apertus-second-key-ignored", '<|tools_prefix|>[{"f": {"a": 1}, "g": {"b": 2}}]<|tools_suffix|>', calls=1),
        Case("apertus-escaped-name", '<|tools_prefix|>[{"get\\u005fweather": {}}]<|tools_suffix|>', calls=1),
        Case("apertus-scalar-arguments", '<|tools_prefix|>[{"f": 5}]<|tools_suffix|>', calls=1),
        Case("apertus-empty-object", "<|tools_prefix|>[{}]<|tools_suffix|>", calls=0),
        # one object where the list belongs is that call, as vLLM's apertus reads it (docs/recovery.md)
        Case("apertus-lone-object", '<|tools_prefix|>{"f": {}}<|tools_suffix|>', calls=1),
        Case("apertus-lone-empty-object", "<|tools_prefix|>{}<|tools_suffix|>", calls=0),
        Case("apertus-unterminated", '<|tools_prefix|>[{"get_weather": {"location": "London"}', calls=1),
        Case("apertus-calls-inside-a-thought", '<|inner_prefix|>plan<|tools_prefix|>[{"f": {"a": 1}}]<|tools_suffix|>'
             'more<|inner_suffix|>Done.<|tools_prefix|>[{"g": {}}]<|tools_suffix|>', calls=2),
        Case("apertus-thought-closes-a-call", '<|inner_prefix|>p<|tools_prefix|>[{"f": {"a": "x<|inner_suffix|>y',
             calls=1),
        Case("apertus-two-thoughts", "<|inner_prefix|>a<|inner_suffix|>b<|inner_prefix|>c<|inner_suffix|>d", calls=0),
    ],
    "olmo3_think": [
        Case("olmo3_think-prompt-opened", "plan</think>Sure.<function_calls>\nget_weather(city='Paris')\n"
             "get_time()\n</function_calls>", "<|im_start|>assistant\n<think>", tools=TOOLS, calls=2),
        Case("olmo3_think-written-again", "<think>plan</think>Sure.", "<|im_start|>assistant\n<think>", calls=0),
        Case("olmo3_think-calls-in-thought-are-text", "plan <function_calls>\nf()\n</function_calls>",
             "<|im_start|>assistant\n<think>", calls=0),
    ],
    "intern_s1": [
        Case("intern_s1-thought-and-call", "<think>plan</think>Sure.<|action_start|><|plugin|>\n" + WEATHER
             + "<|action_end|>", tools=TOOLS, calls=1),
        Case("intern_s1-spaced-opener", "<|action_start|> <|plugin|>\n" + TIME + "<|action_end|>", calls=1),
    ],
    "kimi_vl": [
        Case("kimi_vl-thought", "◁think▷Look at it.◁/think▷A cat.", calls=0),
        Case("kimi_vl-cut-marker", "◁think▷a◁/thi", calls=0),
    ],
    "k2_horizon": [
        Case("k2_horizon-medium-effort", "plan</ifm|think_fast>Answer.", "<ifm|think_fast>", calls=0),
        Case("k2_horizon-low-effort-block", "plan<ifm|tool_calls><ifm|tool_call>get_time\n</ifm|tool_call>"
             "</ifm|tool_calls>", "<ifm|think_faster>", calls=1),
        Case("k2_horizon-markers-near-miss", "<ifm|think_fa <ifm|think_fastest> </ifm|think_", calls=0),
    ],
    "hunyuan_a13b": [
        Case("hunyuan_a13b-thought-answer-calls", "<think>\nplan\n</think>\n<answer>\nOK <tool_calls>"
             '[{"name": "get_weather", "arguments": {"city": "Boston"}}, {"name": "b", "arguments": {}}]'
             "</tool_calls>\n</answer>", tools=TOOLS, calls=2),
        Case("hunyuan_a13b-answer-markers-later", "a</answer>b<answer>c", calls=0),
        Case("hunyuan_a13b-not-a-list", '<tool_calls>{"name": "f", "arguments": {}}</tool_calls>', calls=0),
        Case("hunyuan_a13b-text-after-list", '<tool_calls>[{"name": "f", "arguments": {}}] x</tool_calls>', calls=1),
    ],
    # the incumbents' other JSON families
    "jamba": [
        Case("jamba-prose-then-calls", f"Sure.<tool_calls>[\n    {WEATHER},\n    {TIME}\n]</tool_calls>", calls=2),
        Case("jamba-not-a-list", f"<tool_calls>{WEATHER}</tool_calls> ok", calls=0),
        Case("jamba-unterminated", '<tool_calls>[{"name": "f", "arguments": {"a": "x', calls=1),
        Case("jamba-string-arguments", '<tool_calls>[{"name": "f", "arguments": "{\\"a\\": 1}"}]</tool_calls>', calls=1),
    ],
    "qwen2_5_coder": [
        Case("qwen2_5_coder-tools-blocks", f"Checking.\n<tools>\n{WEATHER}\n</tools>\n<tools>\n{TIME}\n</tools>",
             tools=TOOLS, calls=2),
        Case("qwen2_5_coder-either-marker", f"<tool_call>{WEATHER}</tool_call> then <tools>{TIME}</tools> done",
             tools=TOOLS, calls=2),
        Case("qwen2_5_coder-parameters-key", '<tools>{"name": "f", "parameters": {"b": "t"}}</tools>', calls=1),
        Case("qwen2_5_coder-unclosed", '<tools>\n{"name": "f", "arguments": {}}', calls=1),
        Case("qwen2_5_coder-malformed", '<tools>\n{"name": "broken", "arguments": {invalid json\n</tools>', calls=1),
        Case("qwen2_5_coder-tag-in-string", '<tools>{"name": "f", "arguments": {"q": "a <tag> & </tools"}}</tools>',
             calls=1),
        Case("qwen2_5_coder-list", f"Both.\n<tools>\n[{WEATHER}, {TIME}]\n</tools>", tools=TOOLS, calls=2),
        Case("qwen2_5_coder-list-then-text", f"<tool_call>[{TIME}] x </tool_call>", tools=TOOLS, calls=1),
        Case("qwen2_5_coder-list-unclosed", f"<tools>[{WEATHER}, {{\"name\": \"g\"", tools=TOOLS, calls=1),
    ],
    "minicpm5": [
        Case("minicpm5-collapsed-tags", 'Sure.<functionname="get_weather"><paramname="city">Paris</param>'
             '<param name="days">3</param></function>\n<function\u0120name="get_time"><param\u0120name="zone">UTC'
             "</param></function>", tools=TOOLS, calls=2),
        Case("minicpm5-collapsed-near-miss", '<functionname "f"> <paramname="a">x</param> <function\u0120nam', calls=0),
    ],
    "nemotron_json": [
        Case("nemotron_json-list", f"Let me check.<TOOLCALL>[{WEATHER}, {TIME}]</TOOLCALL>", tools=TOOLS, calls=2),
        Case("nemotron_json-one-object", f"<TOOLCALL>{WEATHER}</TOOLCALL>", tools=TOOLS, calls=1),
        Case("nemotron_json-thought", f"<think>\nweather for Paris\n</think>\n<TOOLCALL>[{WEATHER}]</TOOLCALL>",
             tools=TOOLS, calls=1),
        Case("nemotron_json-string-arguments", '<TOOLCALL>[{"name": "q", "arguments": "{\\"sql\\": \\"select 1\\"}"}]'
             "</TOOLCALL>", calls=1),
        Case("nemotron_json-unclosed-list", '<TOOLCALL>[{"name": "broken", "arguments": {}</TOOLCALL>', calls=1),
        Case("nemotron_json-prose-only", "No <TOOLCALL here, and [1, 2] is a list.", calls=0),
    ],
    "iquest_coder_v2": [
        Case("iquest_coder_v2-typed", "<iquestcoder_tool_call>get_weather<arg_key>city</arg_key><arg_value>Dallas"
             "</arg_value><arg_key>days</arg_key><arg_value>3</arg_value></iquestcoder_tool_call>", tools=TOOLS,
             calls=1),
        Case("iquest_coder_v2-two-spaced", "Looking.\n<iquestcoder_tool_call>get_weather\n<arg_key>city</arg_key>\n"
             "<arg_value>Dallas</arg_value>\n</iquestcoder_tool_call><iquestcoder_tool_call>get_time"
             "</iquestcoder_tool_call>", tools=TOOLS, calls=2),
        Case("iquest_coder_v2-value-unclosed", "<iquestcoder_tool_call>f<arg_key>city</arg_key><arg_value>Dallas"
             "</iquestcoder_tool_call>", calls=1),
        Case("iquest_coder_v2-q1-markers-are-text", "<iquest_tool_call>f</iquest_tool_call>", calls=0),
    ],
    "granite_20b_fc": [
        Case("granite_20b_fc-calls", f"Let me check.<function_call> {WEATHER} <function_call> {TIME}", tools=TOOLS,
             calls=2),
        Case("granite_20b_fc-text-after", '<function_call>{"name": "f", "arguments": {}} and then text', calls=1),
        Case("granite_20b_fc-cut", '<function_call> {"name": "f", "arguments": {"a": [1', calls=1),
        Case("granite_20b_fc-prose", "Call <function_call without a marker.", calls=0),
    ],
    "hy_v3": [
        Case("hy_v3-block", "Let me look.\n<tool_calls:opensource>\n<tool_call:opensource>get_weather"
             "<tool_sep:opensource>\n<arg_key:opensource>city</arg_key:opensource>\n<arg_value:opensource>Paris"
             "</arg_value:opensource>\n<arg_key:opensource>days</arg_key:opensource>\n<arg_value:opensource>3"
             "</arg_value:opensource>\n</tool_call:opensource>\n<tool_call:opensource>get_time<tool_sep:opensource>"
             "\n</tool_call:opensource>\n</tool_calls:opensource>", tools=TOOLS, calls=2),
        Case("hy_v3-thought", "<think:opensource>plan</think:opensource>answer", calls=0),
        Case("hy_v3-sep-outside-a-call", "a <tool_sep:opensource> b", calls=0),
    ],
    "plamo3": [
        Case("plamo3-thought-and-calls", "plan<|plamo:end_think:plamo|>Sure.<|plamo:begin_tool_requests:plamo|>"
             + "".join("<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>" + name
                       + "<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json"
                       "<|plamo:msg|>" + arguments + "<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>"
                       for name, arguments in (("get_weather", '{"city": "Paris", "days": 3}'), ("get_time", "{}")))
             + "<|plamo:end_tool_requests:plamo|><|plamo:tag|>", "<|plamo:begin_think:plamo|>", tools=TOOLS, calls=2),
        Case("plamo3-block-ends-thought", "<|plamo:begin_think:plamo|>plan<|plamo:begin_tool_requests:plamo|>"
             "<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>f<|plamo:end_tool_name:plamo|>"
             '<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{"a": [1', calls=1),
        Case("plamo3-answer-only", "Hello.<|plamo:tag|>", calls=0),
    ],
    "gigachat3": [
        Case("gigachat3-header-call", 'Checking.<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "get_weather", '
             '"arguments": {"city": "Paris", "days": 3}}</s>', tools=TOOLS, calls=1),
        Case("gigachat3-token-call", '<|function_call|>{"name": "get_time", "arguments": {}}', tools=TOOLS, calls=1),
        Case("gigachat3-answer-only", "Hello<|message_sep|>tail", calls=0),
        Case("gigachat3-list-is-no-call", '<|function_call|>[{"name": "get_time", "arguments": {}}]', calls=0),
    ],
    "granite": [
        Case("granite-calls", f"<|tool_call|> [\n  {WEATHER},\n  {TIME}\n]", calls=2),
        Case("granite-text-prefix", f"<tool_call> [{WEATHER}]", calls=1),
        Case("granite-name-last", '<|tool_call|>[{"arguments": {"city": "Tokyo"}, "name": "get_weather"}]', calls=1),
        Case("granite-prose-only", "No call here, <|tool_call", calls=0),
        Case("granite-text-after-list", f"<|tool_call|>[{WEATHER}] and more", calls=1),
    ],
    "granite_thinking": [
        Case("granite_thinking-thought-and-answer", "<think>plan it</think><response>The answer.</response>", calls=0),
        Case("granite_thinking-thought-then-calls", f"<think>plan</think><|tool_call|>[{WEATHER}, {TIME}]", calls=2),
        Case("granite_thinking-calls-end-a-thought", f"<think>plan<|tool_call|>[{WEATHER}]", calls=1),
    ],
    "granite_thought_process": [
        Case("granite_thought_process-both-phrases", "Here is my thought process:\nplan\n\nHere is my response:\n"
             "The answer.", calls=0),
        Case("granite_thought_process-short-spelling", "Here's my thought process: p Here's my response: a", calls=0),
        Case("granite_thought_process-calls", f"Here is my thought process: p<|tool_call|>[{WEATHER}]", calls=1),
        Case("granite_thought_process-no-response", "Here is my thought process: still going", calls=0),
        Case("granite_thought_process-near-miss", "Here is my thought: Here is my respon", calls=0),
    ],
    "internlm2": [
        Case("internlm2-spaced-opener", "Sure.<|action_start|> <|plugin|>\n" + WEATHER + "<|action_end|>"
             "<|action_start|><|plugin|>" + TIME + "<|action_end|>", tools=TOOLS, calls=2),
        Case("internlm2-call", 'Let me check.<|action_start|><|plugin|>{"name": "get_weather", "parameters": '
             '{"city": "Tokyo"}}<|action_end|>', tools=TOOLS, calls=1),
        Case("internlm2-two-calls", "<|action_start|><|plugin|>" + WEATHER + "<|action_end|><|action_start|><|plugin|>"
             + TIME + "<|action_end|>", calls=2),
        Case("internlm2-cut", '<|action_start|><|plugin|>{"name": "f", "parameters": {"a": [1', calls=1),
        Case("internlm2-other-action", "<|action_start|><|interpreter|>print(1)<|action_end|>", calls=0),
    ],
    "cohere_command3": [
        Case("cohere_command3-thought-calls", "<|START_THINKING|>plan<|END_THINKING|><|START_ACTION|>\n[\n    "
             '{"tool_call_id": "0", "tool_name": "foo", "parameters": {"query": "q"}},\n    '
             '{"tool_call_id": "1", "tool_name": "bar", "parameters": {"x": 42}}\n]\n<|END_ACTION|>', calls=2),
        Case("cohere_command3-response", "<|START_THINKING|>a <co>b</co: 0:[1]><|END_THINKING|>\n"
             "<|START_RESPONSE|>foo <co>bar</co: 0:[1,2]><|END_RESPONSE|>", calls=0),
        Case("cohere_command3-thought-only", "<|START_THINKING|>just think<|END_THINKING|>", calls=0),
    ],
    "cohere_command4": [
        Case("cohere_command4-call", '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "foo", "parameters": {}}]'
             "<|END_ACTION|>", calls=1),
        Case("cohere_command4-cut-in-thought", "<|START_THINKING|>pl", calls=0),
    ],
    "mistral": [
        Case("mistral-list", f"Hello[TOOL_CALLS] [{WEATHER}, {TIME}]", calls=2),
        Case("mistral-v11-calls", '[TOOL_CALLS]add{"a": 3.5, "b": 4}[TOOL_CALLS]multiply{"a": 3, "b": 6}', calls=2),
        Case("mistral-v13-args", 'hi{hi[TOOL_CALLS]bash[ARGS]{"command": "print(\\"x\\")"}', calls=1),
        Case("mistral-v11-cut", '[TOOL_CALLS]f{"a": [1, ', calls=1),
        Case("mistral-v11-no-object", "[TOOL_CALLS] not json at all", calls=0),
        Case("mistral-v11-no-name", '[TOOL_CALLS]{"a": 1} after', calls=0),
        Case("mistral-args-in-prose", "a [ARGS] b", calls=0),
        Case("mistral-list-then-text", f"[TOOL_CALLS][{WEATHER}]\nextra", calls=1),
    ],
    "llama3_json": [
        Case("llama3_json-python-tag", "<|python_tag|>" + '{"name": "f", "parameters": {"a": 1}}', calls=1),
        Case("llama3_json-separated", '{"name": "f", "parameters": {}}; {"name": "g", "parameters": {"b": [1]}}'
             ';\n{"name": "h", "parameters": {}}', calls=3),
        Case("llama3_json-prose", 'Here: {"name": "f", "parameters": {}}', calls=1),
        Case("llama3_json-text-after", '{"name": "f", "parameters": {}} and more', calls=1),
        Case("llama3_json-cut", '{"name": "f", "parameters": {"a": "x', calls=1),
        Case("llama3_json-objects-in-prose", 'A {"name": "f", "parameters": {}}; {"name": "g", "parameters": {}} B '
             '[{"name": "h", "parameters": {}}] C {"a": 1} [1, 2]', calls=3),
        Case("llama3_json-fenced", '```json\n{"name": "f", "parameters": {}}\n```\n```\n{"name": "g", "parameters": {}}\n```',
             calls=2),
        Case("llama3_json-name-only", 'Sure: {"name": "g"}\n```json\n{"name": "Al", "age": 3}\n```', calls=0),
        Case("llama3_json-in-code", 'Write `{"name": "f", "parameters": {}}` or\n```js\n{"name": "g"}\n```', calls=0),
        Case("llama3_json-held-key", '{ "nam', calls=0),
    ],
    "phi4_mini": [
        Case("phi4_mini-calls", 'functools[\n  {"name": "f", "arguments": {"a": 1}},\n  {"name": "g", "arguments": {}}\n]',
             calls=2),
        Case("phi4_mini-prose", "Use functools.partial here; functools [x] too.", calls=0),
        Case("phi4_mini-empty", "functools[]", calls=0),
        Case("phi4_mini-not-objects", "functools[1, 2] after", calls=0),
        Case("phi4_mini-cut", 'functools[{"name": "f", "arguments": {"a', calls=1),
    ],
    "inkling": [
        Case("inkling-thought-text-calls", "<|content_thinking|>plan<|end_message|><|message_model|><|content_text|>"
             "Hi<|end_message|><|message_model|>f<|content_invoke_tool_json|>"
             '{"name":"f","args":{"a":1}}<|end_message|><|message_model|>g<|content_invoke_tool_json|>'
             '{"name":"g","arguments":{}}<|end_message|>', calls=2),
        Case("inkling-call-first", 'f<|content_invoke_tool_json|>{"name":"f","args":{"b":[1,2]}}<|end_message|>',
             "<|message_model|>", calls=1),
        Case("inkling-name-only-in-head", 'f<|content_invoke_tool_json|>{"args":{}}<|end_message|>', calls=0),
        Case("inkling-text-between-messages", "<|content_text|>a<|end_message|> x <|message_model|><|content_text|>b"
             "<|end_message|>", calls=0),
        Case("inkling-unterminated", '<|content_text|>a<|end_message|><|message_model|>f<|content_invoke_tool_json|>'
             '{"name":"f","args":{"a":"x', calls=1),
        Case("inkling-no-separator", '<|message_model|>f{"name":"f","args":{}}<|end_message|>', calls=0),
        Case("inkling-raw-text-invocation", '<|content_text|>a<|end_message|><|message_model|>f'
             "<|content_invoke_tool_text|>b c<|end_message|>", calls=0),
        Case("inkling-payload-written-again", '<|message_model|>f<|content_invoke_tool_json|>x <|content_invoke_tool_json|>'
             '{bad<|content_invoke_tool_json|>{"name":"f","args":{"a":"<|content_invoke_tool_json|>"}}<|end_message|>',
             calls=1),
        Case("inkling-stray-control-tokens", "<|content_text|>a<|message_user|>b<|end_message|><|audio_end|> x "
             "<|content_image|><|message_model|><|content_text|>c<|end_message|>", calls=0),
    ],
    "muse_glimmer": [
        Case("muse-messages", " to=self<|message|>plan<|eom|><|start|>assistant to=get_weather<|message|>"
             "<atem:function_calls>\n<atem:invoke name=\"get_weather\">\n<atem:parameter name=\"city\">Paris"
             "</atem:parameter>\n</atem:invoke>\n<atem:invoke name=\"get_time\">\n</atem:invoke>\n"
             "</atem:function_calls><|eom|><|start|>assistant to=user<|message|>Done.", tools=TOOLS, calls=2),
        Case("muse-header-cut", " to=get_wea", calls=0),
        Case("muse-header-without-body", " to=get_weather<|message|><|eom|><|start|>assistant to=user<|message|>x",
             calls=0),
        Case("muse-tool-message-of-text", " to=get_weather<|message|>hello", calls=0),
        Case("muse-header-with-quote", ' to=a"b c<|message|><atem:function_calls><atem:invoke name="f">'
             "</atem:invoke></atem:function_calls>", calls=1),
        Case("muse-answer-marker-inside-thought", " to=self<|message|>x to=user<|message|>y", calls=0),
        Case("muse-text-before-header", "hi to=user<|message|>x", calls=0),
        Case("muse-invoke-outside-block", " to=f<|message|><atem:invoke name=\"f\"></atem:invoke>", calls=0),
        Case("muse-eom-cuts-invoke", ' to=f<|message|><atem:function_calls><atem:invoke name="f"><atem:parameter '
             'name="a">x<|eom|><|start|>assistant to=user<|message|>y', calls=1),
        Case("muse-thought-holds-a-block", ' to=self<|message|><atem:function_calls><atem:invoke name="f">'
             '</atem:invoke></atem:function_calls><|eom|><|start|>assistant to=user<|message|>y<|eot|>', calls=0),
        Case("muse-bare-header", "<|message|>x<|eot|><|start|>assistant to=user<|message|>y", calls=0),
        Case("muse-tool-header-in-thought", " to=self<|message|>x to=f<|message|><atem:function_calls><atem:invoke "
             'name="f"></atem:invoke></atem:function_calls>', calls=1),
        Case("muse-header-after-block", ' to=f<|message|><atem:function_calls><atem:invoke name="f"></atem:invoke>'
             "</atem:function_calls> to=g<|message|><atem:function_calls> to=user<|message|>x", calls=1),
        Case("muse-header-end-in-answer", " to=user<|message|>a<|message|>b<|message|><atem:function_calls>"
             '<atem:invoke name="f">', calls=1),
        Case("muse-start-ends-a-message", " to=self<|message|>plan<|start|>assistant to=f<|message|>"
             "<atem:function_calls><atem:invoke name=\"f\"></atem:invoke></atem:function_calls>", calls=1),
    ],
    "beam": [
        Case("beam-thought-call", "<|channel|>analysis<|message|>Need it.<|end|><|start|>assistant to=get_weather"
             '<|channel|>analysis <|constrain|>xml<|message|><rfl:parameter name="city">\nTokyo\n</rfl:parameter>'
             '<rfl:parameter name="days">\n3\n</rfl:parameter><|call|>', tools=TOOLS, calls=1),
        Case("beam-answer-then-calls", "<|channel|>final<|message|>Checking.<|end|><|start|>assistant to=f<|channel|>"
             'analysis <|constrain|>xml<|message|><rfl:parameter name="a">\nx\n</rfl:parameter><|end|><|start|>'
             "assistant to=g<|channel|>analysis <|constrain|>xml<|message|><|call|>", calls=2),
        Case("beam-missing-close", ' to=f<|channel|>analysis <|constrain|>xml<|message|><rfl:parameter name="a">\nx\n'
             '<rfl:parameter name="b">\n\n</rfl:parameter><|call|>', calls=1),
        Case("beam-header-cut", " to=get_wea", calls=0),
        Case("beam-no-name", " to=<|channel|>analysis <|constrain|>xml<|message|><|call|>", calls=0),
        Case("beam-text-outside-messages", "hi<|channel|>final<|message|>x<|return|> bye", calls=0),
    ],
    "muse_spark": [
        Case("spark-messages", " to=self<|message|>plan<|eom|><|start|>assistant to=commentary<|message|>Checking."
             "<|eom|><|start|>assistant to=get_weather<|message|><atem:function_calls>\n<atem:invoke name=\"get_weather\">"
             "\n<atem:parameter name=\"city\">Paris</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|>"
             "<|start|>assistant to=developer<|message|>note<|eom|><|start|>assistant to=user<|message|>Done.<|eot|>",
             tools=TOOLS, calls=1),
        Case("spark-bare-header-thought", "<|message|>plan<|eot|><|start|>assistant to=user<|message|>x", calls=0),
        Case("spark-start-ends-a-message", " to=self<|message|>plan<|start|>assistant to=f<|message|>"
             "<atem:function_calls><atem:invoke name=\"f\"></atem:invoke></atem:function_calls>", calls=1),
        Case("spark-start-cuts-an-invoke", ' to=f<|message|><atem:function_calls><atem:invoke name="f">'
             '<atem:parameter name="a">x<|start|>assistant to=user<|message|>y', calls=1),
        Case("spark-developer-holds-markup", ' to=developer<|message|><atem:invoke name="f"></atem:invoke> to=user'
             "<|message|>x<|eom|><|start|>assistant to=user<|message|>y", calls=0),
        Case("spark-developer-cut", " to=developer<|message|>half a no", calls=0),
    ],
    "plain": [
        Case("plain-everything", '<think>x</think><tool_call>\n{"name": "f"}\n</tool_call>[{"name": "g"}]'),
    ],
}


def corpus(name):
    """Every case for the table named `name`, names unique."""
    r = table_roles(name)
    cases = generic_cases(r)
    if r.think_open is not None and r.think_close is not None:
        cases += thought_cases(r)
    else:
        # no thought of its own: other families' thought shapes are text (and the prompt opens nothing)
        foreign = dataclasses.replace(r, think_open="<think>", think_close="</think>")
        cases += [dataclasses.replace(c, name="foreign-" + c.name) for c in thought_cases(foreign)]
    if r.call_open is not None:
        cases += block_cases(r)
    if r.syntax in ("tagged", "keyed"):
        cases += syntax_cases(r) + cut_cases(r)
    if r.syntax in OTHER_KINDS:
        from tests.corpus_other import other_cases, other_cut_cases
        cases += other_cases(r) + other_cut_cases(r)
    if r.calls_initial:
        cases += initial_calls_cases(r)
    if not r.calls_initial and r.call_open is None:
        # no calls of its own: other families' call blocks are text, which must stay text
        foreign = dataclasses.replace(r, call_open="<tool_call>", call_close="</tool_call>", calls_repeat=True)
        cases += [dataclasses.replace(c, name="foreign-" + c.name) for c in block_cases(foreign)]
    cases += FAMILY_CASES.get(name, [])
    seen = set()
    for case in cases:
        assert case.name not in seen, f"duplicate corpus case {case.name} for {name}"
        seen.add(case.name)
    return cases


def all_cases():
    """(table, case) for every table and every case of its corpus."""
    return [(name, case) for name in symphony.formats() for case in corpus(name)]
