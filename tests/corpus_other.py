"""Contract corpora for the syntaxes whose calls are written with attributes, element trees,
Python or Gemma's object notation (DSML and the other invokes, XTML, XML, pythonic, gemma,
param_xml): well-formed calls spelled as each family's template spells them, and the ways a model
breaks them (tags cut mid-attribute, missing quotes, unknown types, nested lists, positional
arguments, junk between calls, what a grammar never produces). Each case pins how many calls it
starts where that is certain.

`writer(roles)` is a table's writer (`OTHER_SYNTAXES` by syntax kind; a DSML, invoke and
param-XML syntax's from its own tags); `other_cases(roles)` gives its cases.
"""
import json

from symphony.syntax import Placement, dsml_tags
from tests.corpus import TOOLS, Case

SEP = "]<]minimax[>["


def _is_json_value(text):
    try:
        json.loads(text)
    except ValueError:
        return False
    return not isinstance(json.loads(text), str)


class Writer:
    """How one syntax writes a call after its table's call marker (the body) and what the table
    writes around several calls."""

    separator = "\n"
    joiner = ""           # between a call's arguments

    def head(self, name):
        raise NotImplementedError

    def arg(self, key, value):
        raise NotImplementedError

    def tail(self):
        return ""

    def body(self, name, pairs=()):
        return self.head(name) + self.joiner.join(self.arg(k, v) for k, v in pairs) + self.tail()


class Dsml(Writer):
    def __init__(self, tags=dsml_tags()[:2]):
        self.parameter, self.parameter_close = tags

    def head(self, name):
        return f'{name}">\n'

    def arg(self, key, value, string=None):
        string = not _is_json_value(value) if string is None else string
        return f'{self.parameter}{key}" string="{"true" if string else "false"}">{value}{self.parameter_close}\n'


class Invoke(Writer):
    """DSML's shape with a family's own parameter tags and no attributes (MiniMax M2, dots): each
    tag on its line, values directly between the tags or on their own line; or the call named in a
    header, `NAME` then its end (`tags`' third, Beam's), the parameters right after it."""

    def __init__(self, tags, placement):
        self.parameter, self.parameter_close = tags[:2]
        self.head_end = tags[2] if len(tags) > 2 else None
        self.newline = "\n" if placement == Placement.OWN_LINE else ""

    def head(self, name):
        return name + self.head_end if self.head_end else f'{name}">\n'

    def arg(self, key, value, attributes=""):
        return (f'{self.parameter}{key}"{attributes}>{self.newline}{value}{self.newline}'
                f'{self.parameter_close}\n')


class Xtml(Writer):
    separator = ""

    def head(self, name):
        return f'{name}" index="1"<|sep|>'

    def arg(self, key, value, kind=None):
        kind = kind or ("string" if not _is_json_value(value) else
                        {dict: "object", list: "array", bool: "boolean", type(None): "null"}.get(
                            type(json.loads(value)), "number"))
        return f'<|open|>argument key="{key}" type="{kind}"<|sep|>{value}<|close|>argument<|sep|>'


class Xml(Writer):
    def head(self, name):
        return f'{name}">'

    def arg(self, key, value):
        return f"{SEP}<{key}>{value}{SEP}</{key}>"

    def tail(self):
        return SEP


class Pythonic(Writer):
    joiner = ", "

    def head(self, name):
        return f"{name}("

    def arg(self, key, value):
        return f"{key}={value if _is_json_value(value) or value[:1] in '[{(' else repr(value)}"

    def tail(self):
        return ")"


GQ = '<|"|>'     # Gemma 4's string quote, as the cases below write it (`Gemma.quoted` respells it)


def gemma_notation(value, quote=GQ):
    """A JSON value as Gemma's template writes it: bare keys, strings between `quote`s."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{gemma_notation(v, quote)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(gemma_notation(v, quote) for v in value) + "]"
    if isinstance(value, str):
        return quote + value + quote
    return json.dumps(value)


class Gemma(Writer):
    separator = ""
    joiner = ","

    def __init__(self, quote=GQ):
        self.quote = quote

    def quoted(self, text):
        """`text` (written with Gemma 4's quote) with this table's quote."""
        return text.replace(GQ, self.quote)

    def head(self, name):
        return f"call:{name}{{"

    def arg(self, key, value):
        q = self.quote
        return f"{key}:{gemma_notation(json.loads(value), q) if _is_json_value(value) else q + value + q}"

    def tail(self):
        return "}"


class ParamXml(Writer):
    def __init__(self, param_open, param_close):
        self.param_open, self.param_close = param_open, param_close

    def head(self, name):
        return f'{name}">'

    def arg(self, key, value):
        if any(c in value for c in '<>&"\n'):
            value = f"<![CDATA[{value}]]>"
        return f'{self.param_open}{key}">{value}{self.param_close}'


OTHER_SYNTAXES = {"xtml": Xtml(), "xml": Xml(), "pythonic": Pythonic()}


def writer(r):
    """The writer of a table's call syntax (Roles `r`): an invoke's and param-XML's from their
    own tags."""
    if r.syntax == "param_xml":
        return ParamXml(r.tags[0], r.tags[1])
    if r.syntax == "invoke":
        return Invoke(r.tags, r.placement)
    if r.syntax == "dsml":
        return Dsml(r.tags)
    if r.syntax == "gemma":
        return Gemma(r.tags[0])
    return OTHER_SYNTAXES[r.syntax]


def frame(r, *bodies):
    """Calls as the table writes them: each body after the call marker (and in its close marker)
    in one block where calls sit in one (DSML, XTML, XML); a pythonic block holds them all, one
    per line (Olmo) or in a list (LFM, whose block opener the table calls `<|tool_call_start|>`,
    and a list in prose, Llama 4's)."""
    w = writer(r)
    if r.syntax == "pythonic":
        listed = "tool_call_start" in r.call_open or r.prose
        inner = ("[" + ", ".join(bodies) + "]") if listed else "\n".join(bodies)
        return r.call_open + inner + (r.call_close or "")
    calls = w.separator.join(r.call_open + body + (r.call_close or "") for body in bodies)
    return (r.block_open or "") + calls + (r.block_close or "")


def other_cases(r):
    """Well-formed and adversarial calls of an attribute, element or Python syntax."""
    p, w = r.syntax, writer(r)
    weather = w.body("get_weather", [("city", "Paris"), ("days", "3")])
    time = w.body("get_time", [("zone", "UTC")])
    # in pythonic prose, a list's `[` is what opens its calls
    opens = (r.block_open or "") + r.call_open + ("[" if r.prose else "")
    closes = (r.call_close or "") + (r.block_close or "")

    def closed(text):
        return opens + text + closes

    cut_calls = 0 if p == "pythonic" else 1

    cases = [
        Case(f"{p}-call", frame(r, weather), tools=TOOLS, calls=1),
        Case(f"{p}-call-without-tools", frame(r, weather), calls=1),
        Case(f"{p}-two-calls", frame(r, weather, time), tools=TOOLS, calls=2),
        Case(f"{p}-no-arguments", frame(r, w.body("get_time")), tools=TOOLS, calls=1),
        Case(f"{p}-every-kind", frame(r, w.body("get_weather", [
            ("city", "Paris"), ("days", "3"), ("note", "null"), ("tags", '["rain", "wind"]'),
            ("options", '{"unit": "C"}'), ("code", "x = 1\nprint(x)\n")])), tools=TOOLS, calls=1),
        Case(f"{p}-undeclared-function", frame(r, w.body("lookup", [("q", "a b"), ("n", "5"), ("f", "true")])),
             tools=TOOLS, calls=1),
        Case(f"{p}-prose-around", "Let me check.\n\n" + frame(r, weather) + "\n\nDone.", tools=TOOLS, calls=1),
        Case(f"{p}-prose-between-blocks", "A " + frame(r, weather) + " B " + frame(r, time) + " C", tools=TOOLS,
             calls=2),
        Case(f"{p}-unicode", "日本 " + frame(r, w.body("日本", [("é", "日本 🎉"), ("city", "e\u0301\u2028")])) + " 🎉",
             tools=TOOLS, calls=1),
        Case(f"{p}-escapes", frame(r, w.body("lookup", [("s", 'a"b\\c\td'), ("u", "\\ud83c x"), ("c", "\x01/")])),
             calls=1),
        Case(f"{p}-duplicate-keys", frame(r, w.body("get_weather", [("city", "Paris"), ("city", "Rome")])),
             tools=TOOLS, calls=1),
        Case(f"{p}-junk-between-calls", opens + weather + (r.call_close or "") + " junk " + r.call_open + time
             + closes, tools=TOOLS),
        Case(f"{p}-unterminated", opens + weather, tools=TOOLS, calls=1),
        # a pythonic call is one once its `)` closes it: cut short, it is the text it is
        Case(f"{p}-unterminated-in-value", opens + w.head("get_weather") + w.arg("city", "Paris")[:-4],
             tools=TOOLS, calls=cut_calls),
        Case(f"{p}-closed-in-value", closed(w.head("get_weather") + w.arg("city", "Paris")[:-4]), tools=TOOLS,
             calls=cut_calls),
        Case(f"{p}-closed-in-name", closed(w.head("get_weather")[:5]), tools=TOOLS),
        Case(f"{p}-value-holds-markers", frame(r, w.body("lookup", [("x", "".join(r.markers))])), tools=TOOLS),
        Case(f"{p}-value-holds-call-close", frame(r, w.body("get_weather", [("code", f"a{r.call_close}b")])),
             tools=TOOLS),
        Case(f"{p}-json-object-inside", closed('{"name": "get_weather", "arguments": {"city": "Paris"}}'),
             tools=TOOLS),
        Case(f"{p}-fenced", "```\n" + frame(r, weather) + "\n```", tools=TOOLS, calls=1),
    ]
    if p in ("dsml", "invoke", "xtml"):
        key_open = r.tags[0] if p in ("dsml", "invoke") else '<|open|>argument key="'
        header = p == "invoke" and w.head_end is not None      # the call named in a header (Beam)
        end = "<|sep|>" if p == "xtml" else ">"
        cases += [
            Case(f"{p}-empty-name", closed(w.head("")), tools=TOOLS, calls=0),
            Case(f"{p}-missing-name-quote", closed("get_weather" + end + w.arg("city", "Paris")), tools=TOOLS,
                 calls=0),
            Case(f"{p}-text-after-name", closed('get_weather' + (' extra="1"' + w.head_end if header else
                                                                  '" extra="1"' + end) + w.arg("city", "Paris")),
                 tools=TOOLS, calls=1),
            Case(f"{p}-parameter-cut-mid-attribute", closed(w.head("get_weather") + key_open + 'city" str'
                                                            + w.arg("days", "3")), tools=TOOLS, calls=1),
            Case(f"{p}-parameter-missing-quote", closed(w.head("get_weather") + key_open + "city" + end + "Paris"),
                 tools=TOOLS, calls=1),
            Case(f"{p}-parameter-empty-key", closed(w.head("get_weather") + w.arg("", "x")), tools=TOOLS, calls=1),
            Case(f"{p}-unknown-type", closed(w.head("get_weather") + key_open + 'city" ' +
                                             {"dsml": 'string="maybe"', "invoke": 'type="string"'}.get(
                                                 p, 'type="integer"') + end
                                             + "1" + w.arg("days", "3")[len(key_open) + 4:]), tools=TOOLS, calls=1),
            Case(f"{p}-typed-values", frame(r, w.head("f") + w.arg("s", "12") + w.arg("n", "12")
                                            + w.arg("l", "[1, [2, {\"a\": null}]]") + w.arg("x", "nope")), calls=1),
            Case(f"{p}-invoke-cut-by-next", opens + w.head("f") + w.arg("a", "1")[:-6] + r.call_open + time + closes,
                 tools=TOOLS),
        ]
    if p in ("dsml", "invoke", "param_xml"):
        # a call's opener inside a value: the value's close tag after it makes it the value's text;
        # a tag, a marker or the end first makes it the next call's, the value's close missing
        city = w.arg("city", "Paris")
        city_open = city[:city.rindex("Paris")]
        cases += [
            Case(f"{p}-value-holds-call-open-closed", frame(r, w.body("get_weather", [
                ("code", f"printf '{r.call_open}'\n"), ("days", "3")])), tools=TOOLS, calls=1),
            Case(f"{p}-value-holds-call-open-and-tag", frame(r, w.body("get_weather", [
                ("code", f"a {r.call_open}f{r.tags[0]} b")])), tools=TOOLS),
            Case(f"{p}-value-close-missing-before-call", opens + w.head("get_weather") + city_open + "Paris"
                 + (r.call_close or "") + w.separator + r.call_open + time + closes, tools=TOOLS, calls=2),
            Case(f"{p}-value-holds-call-open-at-end", opens + w.head("get_weather") + city_open + "a "
                 + r.call_open + " b", tools=TOOLS),
        ]
        # a value's close misspelled or cut short: before the next parameter or the call's close it
        # is the value's close, before text the value's text, at the end the value's text too
        value_close = r.tags[1]

        def misspelled(tail, after):
            city = w.arg("city", "Paris")
            return city[:city.rindex(value_close)] + value_close[:-1] + tail + after

        days = w.arg("days", "3")
        cases += [
            Case(f"{p}-close-misspelled-before-parameter", closed(w.head("get_weather") + misspelled("1>\n", days)),
                 tools=TOOLS, calls=1),
            Case(f"{p}-close-cut-before-parameter", closed(w.head("get_weather") + misspelled("", days)),
                 tools=TOOLS, calls=1),
            Case(f"{p}-close-misspelled-before-call-close", closed(w.head("get_weather") + misspelled("_x>\n", "")),
                 tools=TOOLS, calls=1),
            Case(f"{p}-close-cut-before-call-close", closed(w.head("get_weather") + misspelled("", "")),
                 tools=TOOLS, calls=1),
            Case(f"{p}-close-misspelled-then-text", closed(w.head("get_weather") + misspelled("1> x", days)),
                 tools=TOOLS, calls=1),
            Case(f"{p}-close-misspelled-at-end", opens + w.head("get_weather") + misspelled("1>\n", ""),
                 tools=TOOLS, calls=1),
        ]
    if p == "dsml":
        cases += [
            Case("dsml-string-attribute-false-not-json", frame(r, w.head("f") + w.arg("a", "not json", False)),
                 calls=1),
            Case("dsml-string-attribute-true-json", frame(r, w.head("f") + w.arg("a", "[1, 2]", True)), calls=1),
            Case("dsml-thought-then-calls", "plan" + frame(r, weather), tools=TOOLS, calls=1,
                 prompt="<｜Assistant｜><think>"),
            Case("dsml-block-without-invoke", f"{r.block_open}\n junk \n{r.block_close}", calls=0),
        ]
    if p == "invoke":
        cases += [
            Case("invoke-declared-types", frame(r, w.head("get_weather") + w.arg("city", "12") + w.arg("days", "007")
                                                + w.arg("note", "None") + w.arg("tags", "['a']")
                                                + w.arg("options", "{}")), tools=TOOLS, calls=1),
            Case("invoke-value-newlines", frame(r, w.head("get_weather") + w.arg("city", "\nParis\n\n")
                                                + w.arg("code", "\n") + w.arg("n", "\n3\n")), tools=TOOLS, calls=1),
            # (where a call does not end the thought, Beam's, the thought's close first)
            Case("invoke-thought-then-calls", "plan" + ("" if any(r.opens.startswith(x) for x in r.thought_exits)
                                                        else r.think_close or "") + frame(r, weather),
                 tools=TOOLS, calls=1,
                 prompt=(r.opener or "") + (r.think_open or "")),
            Case("invoke-block-without-invoke", f"{r.block_open}\n junk \n{r.block_close}", calls=0),
            Case("invoke-dsml-attribute", frame(r, w.head("f") + w.arg("a", "1", ' string="true"')), calls=1),
        ]
    if p == "xtml":
        cases += [
            Case("xtml-model-index-ignored", frame(r, 'f" index="9"<|sep|>', 'g" index="x"<|sep|>'), calls=2),
            Case("xtml-every-type", frame(r, w.head("f") + "".join(
                Xtml().arg(t, v, t) for t, v in (("string", "s"), ("number", "1.5"), ("boolean", "true"),
                                                 ("null", "null"), ("array", "[1]"), ("object", '{"a": 1}')))),
                 calls=1),
            Case("xtml-separator-split", frame(r, w.head("f") + Xtml().arg("a", "<|se|>p<|")), calls=1),
            Case("xtml-response-then-tools", "plan<|close|>think<|sep|><|open|>response<|sep|>hi<|close|>response<|sep|>"
                 + frame(r, weather) + "<|close|>message<|sep|>", tools=TOOLS, calls=1,
                 prompt='<|open|>message role="assistant"<|sep|><|open|>think<|sep|>'),
            Case("xtml-stray-message-text", "x<|open|>response<|sep|>hi<|close|>response<|sep|> y ", calls=0),
            # the tags as a detokenizer writes them spacing special tokens (CallSyntax.xtml(spaced=True))
            Case("xtml-spaced-tags", '<|open|> tools <|sep|> <|open|> call tool="f" index="0" <|sep|> <|open|> '
                 'argument key="a" type="string" <|sep|> x <|close|> argument <|sep|> <|open|> argument key="n" '
                 'type="number" <|sep|> 1 <|close|> argument <|sep|> <|close|> call <|sep|> <|close|> tools <|sep|>',
                 calls=1),
            Case("xtml-spaced-tag-cut", '<|open|> tools <|sep|> <|open|> call tool="f" <|sep|> <|open|> argument '
                 'key="a" type="str', calls=1),
            Case("xtml-spaced-header-with-text", '<|open|>tools<|sep|><|open|> call tool="f" index="0" junk <|sep|>'
                 "<|close|> call <|sep|>", calls=1),
        ]
    if p == "xml":
        cases += [
            Case("xml-nested-lists", frame(r, w.head("f") + f"{SEP}<orders><item><item>burgers</item>"
                                                            f"<quantity>5</quantity></item></orders>{SEP}"), calls=1),
            Case("xml-declared-list", frame(r, w.head("get_weather") + f"{SEP}<tags>{SEP}<item>a{SEP}</item>"
                                                                      f"{SEP}<item>b{SEP}</item>{SEP}</tags>"),
                 tools=TOOLS, calls=1),
            Case("xml-empty-elements", frame(r, w.head("f") + f"<a></a><b><c></c></b><d> </d>"), calls=1),
            Case("xml-text-then-tags-in-leaf", frame(r, w.head("f") + "<a>1 < 2 <b>x</b></a>"), calls=1),
            Case("xml-misnested", frame(r, w.head("f") + "<a><b>1</a></b>"), calls=1),
            Case("xml-close-matching-nothing", frame(r, w.head("f") + "</x><a>1</a>"), calls=1),
            Case("xml-tag-cut-by-separator", frame(r, w.head("f") + f"<ci{SEP}ty>Paris</city>"), calls=1),
            Case("xml-separator-everywhere", frame(r, w.head("f") + f"{SEP}<a>{SEP}1{SEP}</a>{SEP}"), calls=1),
            Case("xml-invoke-empty-name", closed('">' + w.arg("a", "1")), calls=0),
            Case("xml-invoke-text-after-name", closed('f" x>' + w.arg("a", "1")), calls=1),
            Case("xml-thought-markers-later-are-content", "<mm:think>p</mm:think>a<mm:think>b</mm:think>", calls=0),
            Case("xml-deep", frame(r, w.head("f") + "<a>" * 40 + "1" + "</a>" * 40), calls=1),
        ]
    if p == "pythonic":
        # a call with anything its arguments cannot read (Python would refuse it) is no call
        cases += [
            Case("pythonic-positional", frame(r, "f(1, 'x', b=2)"), calls=0),
            Case("pythonic-star-args", frame(r, "f(*args, **kw)"), calls=0),
            Case("pythonic-nested-call-value", frame(r, "f(a=g(1, 2), b=[1, (2, 3)])"), calls=0),
            Case("pythonic-quotes-and-brackets-in-values", frame(r, "f(a='x, y)', b=\"[\", c={'k': (1,)})"), calls=1),
            Case("pythonic-dotted-name", frame(r, "ns.tool-name(a=1)"), calls=1),
            Case("pythonic-name-without-call", frame(r, "just words"), calls=0),
            Case("pythonic-key-without-value", frame(r, "f(a, b=1)"), calls=0),
            Case("pythonic-trailing-comma", frame(r, "f(a=1, )"), calls=1),
            Case("pythonic-python-literals", frame(r, "f(a=None, b=True, c=1_000, d=-1.5e3, e=('x',), f='\\x41')"),
                 calls=1),
            Case("pythonic-unbalanced", closed("f(a=[1, 2"), calls=0),
            Case("pythonic-junk-first", closed("- f(a=1)"), calls=0 if r.prose else 1),
            Case("pythonic-list-brackets-only", closed("[, ]"), calls=0),
        ]
    if p == "gemma":
        g = writer(r).quoted
        cases += [
            Case("gemma-calls-before-content", frame(r, weather, time) + "Let me check.", tools=TOOLS, calls=2),
            Case("gemma-nested", frame(r, "call:f{a:{b:{c:[1,[2,{d:null}]]}},e:[],g:{}}"), calls=1),
            Case("gemma-declared-nested", frame(r, g("call:get_weather{tags:[x,5,<|\"|>y<|\"|>],options:{unit:C,n:007}}")),
                 tools=TOOLS, calls=1),
            Case("gemma-bare-scalars", frame(r, "call:f{n:007,x:-1.5e3,b:True,c:None,s:hello world,u:tru,v: 1 }"),
                 calls=1),
            Case("gemma-no-call-prefix", closed(g("get_weather{city:<|\"|>Paris<|\"|>}")), tools=TOOLS, calls=1),
            Case("gemma-empty-name", closed("call:{a:1}"), calls=0),
            Case("gemma-name-with-space", closed("call:get weather{a:1}"), calls=0),
            Case("gemma-quote-in-head", closed(g("call:f<|\"|>x<|\"|>{a:1}")), calls=0),
            Case("gemma-trailing-commas", frame(r, "call:f{a:[1,2,],b:1,}"), calls=1),
            Case("gemma-missing-value", frame(r, "call:f{a:,b:1}"), calls=1),
            Case("gemma-value-then-close", frame(r, "call:f{a:}"), calls=1),
            Case("gemma-mismatched-close", frame(r, "call:f{a:[1}}"), calls=1),
            Case("gemma-key-without-colon", frame(r, "call:f{a b}"), calls=1),
            Case("gemma-quoted-key", frame(r, g("call:f{<|\"|>a<|\"|>:1}")), calls=1),
            Case("gemma-string-then-junk", frame(r, g("call:f{a:<|\"|>x<|\"|>y,b:1}")), calls=1),
            Case("gemma-scalar-then-bracket", frame(r, "call:f{a:1[2]}"), calls=1),
            Case("gemma-empty-list-item", frame(r, "call:f{a:[,1]}"), calls=1),
            Case("gemma-too-deep", frame(r, "call:f{" + "a:{" * 40 + "a:1" + "}" * 41), calls=1),
            Case("gemma-deepest", frame(r, "call:f{" + "a:{" * 31 + "a:1" + "}" * 32), calls=1),
            Case("gemma-text-after-object", closed("call:f{a:1}  junk"), calls=1),
            Case("gemma-next-call-without-close", r.call_open + "call:f{a:1}" + frame(r, time), tools=TOOLS, calls=2),
            Case("gemma-cut-by-next-call", r.call_open + g("call:f{a:<|\"|>x") + frame(r, time), tools=TOOLS, calls=2),
            Case("gemma-closed-in-scalar", closed("call:f{a:{b:[1,2"), calls=1),
            Case("gemma-closed-in-key", closed("call:f{a:1,bc"), calls=1),
            Case("gemma-whitespace-everywhere", frame(r, g(" call:f { a : 1 , b : [ 1 , 2 ] ,c :<|\"|> x <|\"|> } ")),
                 calls=1),
            Case("gemma-quote-fragments-in-string", frame(r, g("call:f{a:<|\"|><|\"b|> <| \"|> <|\"<|\"|>}")), calls=1),
            Case("gemma-string-holds-braces", frame(r, g("call:f{a:<|\"|>{x:[1,2]}, y<|\"|>}")), calls=1),
            # a marker inside a string: its text when the string's quote follows, else the marker it is
            Case("gemma-markers-in-string", frame(r, g("call:f{a:<|\"|>x ") + r.call_close + " " + r.call_open + g(
                "call:g{}<|\"|>,b:1}")), calls=1),
            Case("gemma-close-in-string-then-end", r.call_open + g("call:f{a:<|\"|>x ") + r.call_close + " y", calls=1),
            Case("gemma-close-in-string-then-call", r.call_open + g("call:f{a:<|\"|>x ") + r.call_close + " y" + frame(r, time),
                 tools=TOOLS, calls=2),
        ]
        q = r.tags[0]
        cases.append(Case("gemma-quote-prefixes-in-string",
                          frame(r, "call:f{a:" + q + q[:1] + " " + q[:3] + "x " + q[:-1] + q + ",b:" + q[:2] + "}"),
                          calls=1))
        if r.think_open is not None:        # (Gemma 4: its call opener ends a thought left open, the call read)
            cases.append(Case("gemma-thought-holds-a-call", f"{r.think_open}\n" + frame(r, weather) + f"{r.think_close}hi",
                              calls=int(any(x in frame(r, weather) for x in r.thought_exits))))
    if p == "param_xml":
        cases += [
            Case("param_xml-content-then-calls", "Let me check.\n" + frame(r, weather, time), tools=TOOLS, calls=2),
            Case("param_xml-python-literals", frame(r, w.head("get_weather") + w.arg("tags", "['a', 'b']")
                                                     + w.arg("options", "{'unit': None, 'n': True}")
                                                     + w.arg("days", "007") + w.arg("note", "None")), tools=TOOLS,
                 calls=1),
            Case("param_xml-cdata-holds-tags", frame(r, w.head("f") + w.arg("a", "x" + w.param_close + w.arg("b", "]")
                                                                                 + "]")), calls=1),
            Case("param_xml-cdata-in-the-middle", frame(r, w.head("get_weather") + w.param_open
                                                        + 'city">a<![CDATA[<b>]]>c' + w.param_close),
                 tools=TOOLS, calls=1),
            Case("param_xml-cdata-unclosed", frame(r, w.head("get_weather") + w.param_open + 'city"><![CDATA[Par'),
                 tools=TOOLS, calls=1),
            Case("param_xml-cdata-between-params", frame(r, w.head("f") + "<![CDATA[x]]>" + w.arg("a", "1")), calls=1),
            Case("param_xml-param-without-name", frame(r, w.head("get_weather") + w.param_open[:-7] + ">x"
                                                       + w.param_close + w.arg("city", "Paris")), tools=TOOLS, calls=1),
            Case("param_xml-param-attribute", frame(r, w.head("f") + w.param_open + 'a" type="int">1'
                                                    + w.param_close), calls=1),
            Case("param_xml-function-attribute", closed('f" id="1">' + w.arg("a", "1")), calls=1),
            Case("param_xml-empty-name", closed('">' + w.arg("a", "1")), calls=0),
            Case("param_xml-call-cut-by-next", r.call_open + w.head("f") + w.param_open + 'a">x' + frame(r, time),
                 tools=TOOLS, calls=2),
        ]
        if not any(x in frame(r, weather) for x in r.thought_exits):     # (Muse: its `<|message|>` ends the thought)
            cases.append(Case("param_xml-thought-holds-a-call", f"{r.think_open}\n" + frame(r, weather)
                              + f"{r.think_close}hi", calls=0))
    return cases


CUT_CALL = ("get_weather", [("city", "Paris"), ("days", "3")])
CUT_SPLITS = 6


def other_cut_cases(r):
    """One well-formed call cut at every character: the stream ending there, and the table's
    closer written there."""
    w = writer(r)
    full = frame(r, w.body(*CUT_CALL))
    start = len((r.block_open or "") + r.call_open)
    closes = (r.call_close or "") + (r.block_close or "")
    cases = []
    for k in range(start, len(full) - len(closes) + 1):
        near = range(max(1, k - CUT_SPLITS), k + 2)
        cases.append(Case(f"cut-{k}-end", full[:k], tools=TOOLS, splits=near, seeds=2))
        cases.append(Case(f"cut-{k}-closed", full[:k] + closes, tools=TOOLS, splits=near, seeds=2))
    return cases
