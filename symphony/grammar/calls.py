"""One call as each call syntax writes it, for the guided-decoding grammar (SPEC §8): the
structural-tag node of what follows the table's call opener up to its call close, for one
declared function, built from the syntax's own parameters (tags, spelling, placement, head and
tail). `for_syntax` gives None for the syntaxes no structural tag is written for (SPEC §8:
pythonic, JSON lists and MiniMax M3's XML element trees; and Gemma 4's object notation, whose
strings sit between `<|"|>` quotes a JSON schema cannot spell).

A function name or parameter key the syntax writes raw (between tags, up to a delimiter) must
read back as written: a tool whose name or key could not (empty where the parser wants text,
holding the delimiter, one of the syntax's tags or a text that ends the call) is refused with a
ValueError naming it, rather than spelled and misread.
"""
import dataclasses
import json

from symphony import _native
from symphony.grammar.nodes import (WS, const, either, optional, pinned, properties, regex, schema, seq, slots, text,
                                     value, word)
from symphony.syntax import CallObject, Placement, Spelling
from symphony.text import WHITESPACE

ASCII_WHITESPACE = " \t\n\x0b\x0c\r"     # what a name or key is read less at its ends (the words' joints)


class Unwritable:
    """What a syntax's raw name or key may not be, and checks a tool against it."""

    def __init__(self, tags=(), stops="", empty=False, spaced=True, name_stops=None, name_spaced=None):
        self.tags = tuple(tags)           # texts a name or key may not hold (with the call's exits)
        self.stops = stops                # characters that end a key where the parser reads it
        self.empty = empty                # an empty key reads back (a JSON key)
        self.spaced = spaced              # a key may start or end with whitespace
        self.name_stops = stops if name_stops is None else name_stops
        self.name_spaced = spaced if name_spaced is None else name_spaced

    def check(self, name, parameters, exits):
        """Raises ValueError when the tool's name or one of its keys cannot be written."""
        fault = self.fault(name, exits, self.name_stops, self.name_spaced, False)
        if fault is not None:
            raise ValueError(f"grammar: tool {name!r}: its name cannot be written in this call syntax: {fault}")
        for key in properties(parameters)[0]:
            fault = self.fault(key, exits, self.stops, self.spaced, self.empty)
            if fault is not None:
                raise ValueError(f"grammar: tool {name!r}: the key {key!r} cannot be written in this call "
                                 f"syntax: {fault}")

    def fault(self, text, exits, stops, spaced, empty):
        if not text and not empty:
            return "the parser reads no empty name or key"
        for tag in self.tags + tuple(exits):
            if tag and tag in text:
                return f"it holds {tag!r}, which the parser reads as markup"
        for c in stops:
            if c in text:
                return f"it holds {c!r}, where the parser ends it"
        if not spaced and text != text.strip(ASCII_WHITESPACE):
            return "the parser trims the whitespace around it"
        return None


@dataclasses.dataclass(frozen=True)
class CallShape:
    """`body(name, parameters, exits)`: the node after the call opener (`exits`: the texts that
    end the call, kept out of its free text); `inner`: the syntax's own tags (kept out of a
    reasoning prefix's text)."""

    body: object
    inner: tuple = ()


def _json(syntax):
    params = dict(syntax.params)
    obj, head, tail = params.get("object", CallObject.CALL), params.get("head"), params.get("tail")
    # JSON quotes a name and keys; only a text that ends the call cannot stand in them
    quoted = Unwritable(empty=True)
    if obj == CallObject.CALL and head is None:
        def body(name, parameters, exits):
            quoted.check(name, parameters, exits)
            # the parser reads `parameters` as it reads `arguments` (InternLM2 and Llama write it)
            opening = seq(const("{\"name\": " + _quoted(name) + ", \""),
                          either([const("arguments"), const("parameters")]), const("\": "))
            return seq(WS, opening, schema(parameters), const("}" + (tail or "")), WS)
        return CallShape(body)
    if obj == CallObject.ARGUMENTS and head is not None:
        # the head's name is raw text up to the head (where the name is the head's first word, up
        # to the word's end); the parser trims the head, so whitespace around a name stands only
        # inside a call id (after its prefix, before its `:N`)
        word_end = " \t\r\n<" if params.get("name_word") else ""
        headed = Unwritable((head,), empty=True, name_stops=word_end,
                            name_spaced=not word_end and bool(params.get("name_prefix")))

        def body(name, parameters, exits):
            headed.check(name, parameters, exits)
            # the parser trims the head, and reads whitespace after the object (Kimi K2 writes it)
            # where no tail follows it (a tail follows the object at once: DeepSeek V3's fence)
            after = const(tail) if tail else WS
            return seq(_head_name(params, name, exits), WS, const(head), schema(parameters), after)
        return CallShape(body)
    return None


def _head_name(params, name, exits):
    """The name as a head that names the call writes it: with the id's prefix and `:N` number
    (Kimi K2's `functions.NAME:0`); where the name is the head's first word, what the template
    writes after it up to the head's separator (gpt-oss's ` <|constrain|>json`) is free text that
    starts with whitespace or a `<`, as the parser reads it."""
    prefix, index = params.get("name_prefix") or "", params.get("name_index")
    node = seq(const(prefix + name), seq(const(index), regex("[0-9]+")) if index else const(""))
    if params.get("name_word"):
        # (after a `<`, none of the excluded texts that start with one may go on from there:
        # `<` then `|end|>` is the message's end however the two are drawn)
        excluded = (params["head"],) + tuple(exits)
        rest = either([seq(regex(r"[ \t\r\n]"), text(excluded)),
                       seq(const("<"), text(excluded + tuple(e[1:] for e in excluded if e.startswith("<"))))])
        node = seq(node, optional(rest))
    return node


def _tagged(syntax):
    function_open, key_open, value_close, function_close = _native.TAGGED_TAGS
    python = syntax.spelling == Spelling.PYTHON
    own_line = syntax.placement == Placement.OWN_LINE
    # a name and a key are read less the whitespace around them: one the tools declare has none
    # at its ends, nor one the model names itself (words joined by whitespace, as the parser reads
    # `{{ k }}`)
    unwritable = Unwritable(_native.TAGGED_TAGS, stops=">", spaced=False)
    key_stops = ">" + ASCII_WHITESPACE

    def body(name, parameters, exits):
        unwritable.check(name, parameters, exits)
        # a value ends at its close, or where that is missing at the next parameter's tag
        free = text((value_close, key_open) + exits)

        def slot(key, prop):
            node, is_pinned = value(prop, python, free)
            return seq(const(key_open + key + ">"), pinned(node, is_pinned, own_line), const(value_close + "\n"))
        generic = seq(const(key_open), _key(key_stops, _native.TAGGED_TAGS, exits, joined_by=ASCII_WHITESPACE),
                      const(">"), free, const(value_close + "\n"))
        return seq(const("\n" + function_open + name + ">\n"), slots(parameters, slot, generic),
                   const(function_close + "\n"))
    return CallShape(body, _native.TAGGED_TAGS)


def _keyed(syntax):
    tags = syntax.tags
    # the tags of every spelling the parser reads (Hy3: Hy4's and the plain ones); the name is the
    # text before the first tag, trimmed, and holds no whitespace, quote, brace or angle bracket
    spellings = (tags,) + tuple(dict(syntax.params).get("also", ()))
    markup = tuple(text for spelling in spellings for text in spelling.texts())
    # a key is read less the ASCII whitespace around it: one the tools declare holds none at its
    # ends, and one the model names itself is written with none
    unwritable = Unwritable(markup, name_stops=" \t\r\n\"'{}<>", spaced=False)
    key_stops = ASCII_WHITESPACE

    def body(name, parameters, exits):
        unwritable.check(name, parameters, exits)
        # the parser reads any whitespace between the tags, and templates differ there (Ling 3.0
        # writes none between pairs, GLM-4.6 and Laguna a newline, vLLM's GLM-4.5 tests indent).
        # GLM's plain tags are written here too, not in xgrammar's glm_xml style: its string
        # values cannot keep out the texts that end the call (`<tool_call>`, `</tool_call>`).
        # A value ends at its close, or where that is missing at a key tag whose key is new
        free = text((tags.value_close,) + tuple(spelling.key_open for spelling in spellings) + exits)

        def pair(key_node, node):
            return seq(const(tags.key_open), key_node, const(tags.key_close), WS, const(tags.value_open),
                       node, const(tags.value_close), WS)

        def slot(key, prop):
            return pair(const(key), value(prop, False, free)[0])
        return seq(const(name), WS, slots(parameters, slot, pair(_key(key_stops, markup, exits), free)))
    return CallShape(body, tags.texts())


def _attributed(head_close, param_open, param_close, attribute, python=False, tags=(), escaped=False,
                name_stops=None, value_excludes=()):
    """The invoke-shaped syntaxes: `NAME` + `head_close`, then parameter tags, each
    `param_open + KEY` + `attribute(prop, value node, pinned, free text)` (the rest of the open
    tag, the value and `param_close`), whitespace between tags. A name and a key end at `"`;
    `tags`: the syntax's own. `escaped`: the template writes a name and a key XML-escaped, and
    the parser reads them unescaped (Kimi K3), so they are written escaped and a `"` in them is
    no delimiter; a key the model names itself holds no `&` (it reads as written). `name_stops`:
    the characters that end a name where not `"` (a name written unquoted in a header);
    `value_excludes`: more texts a value's free text may not hold. The parser reads a name and a
    key less the whitespace around them, so neither has any at its ends (a key the model names
    itself: words joined by whitespace)."""
    unwritable = Unwritable(tags + (param_open, param_close), stops="" if escaped else '"', name_stops=name_stops,
                            spaced=False)
    written = _xml_escaped if escaped else str
    key_stops = ('"&' if escaped else '"') + ASCII_WHITESPACE

    def body(name, parameters, exits):
        unwritable.check(name, parameters, exits)
        free = text((param_close,) + tuple(value_excludes) + exits)

        def slot(key, prop):
            node, is_pinned = value(prop, python, free)
            return seq(const(param_open + written(key)), attribute(prop, node, is_pinned, free), WS)
        generic = seq(const(param_open), _key(key_stops, tags + (param_open, param_close), exits, ASCII_WHITESPACE),
                      attribute({}, free, False, free), WS)
        return seq(const(written(name)), head_close, WS, slots(parameters, slot, generic))
    return body


def _xml_escaped(text):
    """Attribute text as Kimi K3's template writes it: `&` as `&amp;`, `"` as `&quot;`."""
    return text.replace("&", "&amp;").replace('"', "&quot;")


def _key(stops, tags, exits, joined_by=""):
    """The key of a parameter the model names itself: no delimiter (`stops`, but for the blanks
    `joined_by` between its words), none of the syntax's `tags` and the texts that end the call."""
    return word(stops, tags + tuple(exits), joined_by)


def _plain(param_close, newline):
    """A parameter open tag with no attribute: `">`, the value, the close tag."""
    return lambda prop, node, is_pinned, free: seq(const("\">"), pinned(node, is_pinned, newline),
                                                   const(param_close))


def _dsml(syntax):
    param_open, param_close, _ = syntax.dsml_tags()

    def typed(prop, node, is_pinned, free):
        # string="true": the text itself (a string enum's value); string="false": a JSON value
        kind = (prop or {}).get("type")
        as_text = seq(const("\" string=\"true\">"), node if kind == "string" else free, const(param_close))
        as_json = seq(const("\" string=\"false\">"), node if is_pinned else schema(prop or True),
                      const(param_close))
        return as_text if kind == "string" else as_json if kind else either([as_text, as_json])
    # a parameter tag ends a value whose close tag is missing (after a newline, or with a new key)
    return CallShape(_attributed(const("\">"), param_open, param_close, typed, tags=syntax.dsml_tags(),
                                 value_excludes=(param_open,)),
                     (param_open, param_close))


def _invoke(syntax):
    own_line = syntax.placement == Placement.OWN_LINE
    attribute = _plain(syntax.parameter_close, own_line)
    # a parameter tag ends a value whose close tag is missing (after a newline, or with a new
    # key); a loose syntax reads its parameter tag up to the attribute's name after a newline
    loose = dict(syntax.params).get("loose", False)
    excludes = (syntax.parameter,) + (("\n" + syntax.parameter[:-2],) if loose else ())
    head_end = dict(syntax.params).get("head_end")
    if head_end is None:
        return CallShape(_attributed(const("\">"), syntax.parameter, syntax.parameter_close, attribute,
                                     value_excludes=excludes),
                         (syntax.parameter, syntax.parameter_close))
    # a name in a header: unquoted, up to whitespace, then the header's end
    return CallShape(_attributed(const(head_end), syntax.parameter, syntax.parameter_close, attribute,
                                 tags=(head_end,), name_stops="".join(sorted(WHITESPACE)), value_excludes=excludes),
                     (syntax.parameter, syntax.parameter_close, head_end))


def _param_xml(syntax):
    tags = syntax.tags
    if tags.header_end is not None:
        return None          # a recipient header opens the call's message: not one region
    attribute = _plain(tags.param_close, False)
    # where a value is XML text its character references are read as their characters: a value
    # is written with none (an `&` that starts none stays writable: `a && b`)
    references = ("&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#") if tags.references else ()
    # a parameter tag with a new key ends a value whose close tag is missing
    return CallShape(_attributed(const("\">"), tags.param_open, tags.param_close, attribute, python=True,
                                 tags=tags.param_spellings, value_excludes=references + tags.param_opens()),
                     tags.param_opens() + (tags.param_close,))


# XTML's `type` attribute names a JSON value's type (the parser reads no other): a schema's type
# as the template writes it
_XTML_TYPES = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean", "null": "null",
               "array": "array", "object": "object"}


def _xtml(syntax):
    arg_open, arg_close, sep = _native.XTML_TAGS

    def typed(prop, node, is_pinned, free):
        kind = (prop or {}).get("type")
        kind = _XTML_TYPES.get(kind) if isinstance(kind, str) else None
        kind_node = const(kind) if kind else either([const(t) for t in dict.fromkeys(_XTML_TYPES.values())])
        return seq(const("\" type=\""), kind_node, const("\"" + sep), node, const(arg_close))
    head_close = seq(const("\" index=\""), regex(r"[0-9]+"), const("\"" + sep))
    # spaced: the tags' spaced spellings are the parser's tags too (the spaced close ends a value)
    spaced = _native.XTML_SPACED_TAGS if dict(syntax.params).get("spaced") else ()
    tags = _native.XTML_TAGS + spaced
    # an argument's tag with a new key ends a value whose close tag is missing
    return CallShape(_attributed(head_close, arg_open, arg_close, typed, tags=tags, escaped=True,
                                 value_excludes=(arg_open,) + spaced), tags)


def _quoted(name):
    return json.dumps(name, ensure_ascii=False)


_SHAPES = {"json": _json, "tagged": _tagged, "keyed": _keyed, "dsml": _dsml, "invoke": _invoke,
           "param_xml": _param_xml, "xtml": _xtml}


def for_syntax(syntax):
    """The CallShape of a call syntax, or None where no structural tag is written for it."""
    build = _SHAPES.get(syntax.kind)
    return build(syntax) if build is not None else None
