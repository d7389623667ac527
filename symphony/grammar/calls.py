"""One call as each call syntax writes it, for the guided-decoding grammar (SPEC §8): the
structural-tag node of what follows the table's call opener up to its call close, for one
declared function, built from the syntax's own parameters (tags, spelling, placement, head and
tail). `for_syntax` gives None for the syntaxes no structural tag is written for (SPEC §8:
pythonic, JSON lists and MiniMax M3's XML element trees; and Gemma 4's object notation, whose
strings sit between `<|"|>` quotes a JSON schema cannot spell).
"""
import dataclasses
import json

from symphony import _native
from symphony.grammar.nodes import WS, const, either, optional, pinned, regex, schema, seq, slots, text, value
from symphony.syntax import CallObject, Placement, Spelling, Tags


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
    if obj == CallObject.CALL and head is None:
        def body(name, parameters, exits):
            # the parser reads `parameters` as it reads `arguments` (InternLM2 and Llama write it)
            opening = seq(const("{\"name\": " + _quoted(name) + ", \""),
                          either([const("arguments"), const("parameters")]), const("\": "))
            return seq(WS, opening, schema(parameters), const("}" + (tail or "")), WS)
        return CallShape(body)
    if obj == CallObject.ARGUMENTS and head is not None:
        def body(name, parameters, exits):
            # the parser trims the head, and reads whitespace after the object (Kimi K2 writes it)
            return seq(_head_name(params, name, exits), WS, const(head), schema(parameters), WS, const(tail or ""))
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
        rest = seq(regex(r"[ \t\r\n<]"), text((params["head"],) + tuple(exits)))
        node = seq(node, optional(rest))
    return node


def _tagged(syntax):
    function_open, key_open, value_close, function_close = _native.TAGGED_TAGS
    python = syntax.spelling == Spelling.PYTHON

    def body(name, parameters, exits):
        free = text((value_close,) + exits)

        def slot(key, prop):
            node, is_pinned = value(prop, python, free)
            return seq(const(key_open + key + ">"), pinned(node, is_pinned, True), const(value_close + "\n"))
        generic = seq(const(key_open), text((">",)), const(">"), free, const(value_close + "\n"))
        return seq(const("\n" + function_open + name + ">\n"), slots(parameters, slot, generic),
                   const(function_close + "\n"))
    return CallShape(body, _native.TAGGED_TAGS)


def _keyed(syntax):
    tags = syntax.tags
    if tags == Tags.PLAIN:
        # the plain tags, no spacing: xgrammar's glm_xml style (its built-in GLM-4.7 tag)
        return CallShape(lambda name, parameters, exits: seq(const(name), schema(parameters, "glm_xml")),
                         tags.texts())

    def body(name, parameters, exits):
        # the parser reads any whitespace between the tags, and templates differ there (Ling 3.0
        # writes none between pairs, GLM-4.6 and Laguna a newline, vLLM's GLM-4.5 tests indent)
        free = text((tags.value_close,) + exits)

        def pair(key_node, node):
            return seq(const(tags.key_open), key_node, const(tags.key_close), WS, const(tags.value_open),
                       node, const(tags.value_close), WS)

        def slot(key, prop):
            return pair(const(key), value(prop, False, free)[0])
        return seq(const(name), WS, slots(parameters, slot, pair(text((tags.key_close,)), free)))
    return CallShape(body, tags.texts())


def _attributed(head_close, param_open, param_close, attribute, python=False):
    """The invoke-shaped syntaxes: `NAME` + `head_close`, then parameter tags, each
    `param_open + KEY` + `attribute(prop, value node, pinned, free text)` (the rest of the open
    tag, the value and `param_close`), whitespace between tags."""
    def body(name, parameters, exits):
        free = text((param_close,) + exits)

        def slot(key, prop):
            node, is_pinned = value(prop, python, free)
            return seq(const(param_open + key), attribute(prop, node, is_pinned, free), WS)
        generic = seq(const(param_open), regex(r'[^"]+'), attribute({}, free, False, free), WS)
        return seq(const(name), head_close, WS, slots(parameters, slot, generic))
    return body


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
    return CallShape(_attributed(const("\">"), param_open, param_close, typed), (param_open, param_close))


def _invoke(syntax):
    attribute = _plain(syntax.parameter_close, syntax.placement == Placement.OWN_LINE)
    return CallShape(_attributed(const("\">"), syntax.parameter, syntax.parameter_close, attribute),
                     (syntax.parameter, syntax.parameter_close))


def _param_xml(syntax):
    tags = syntax.tags
    if tags.header_end is not None:
        return None          # a recipient header opens the call's message: not one region
    attribute = _plain(tags.param_close, False)
    return CallShape(_attributed(const("\">"), tags.param_open, tags.param_close, attribute, python=True),
                     (tags.param_open, tags.param_close))


def _xtml(syntax):
    arg_open, arg_close, sep = _native.XTML_TAGS

    def typed(prop, node, is_pinned, free):
        kind = (prop or {}).get("type")
        kind_node = const(kind) if isinstance(kind, str) else regex(r"[a-z]+")
        return seq(const("\" type=\""), kind_node, const("\"" + sep), node, const(arg_close))
    head_close = seq(const("\" index=\""), regex(r"[0-9]+"), const("\"" + sep))
    return CallShape(_attributed(head_close, arg_open, arg_close, typed), _native.XTML_TAGS)


def _quoted(name):
    return json.dumps(name, ensure_ascii=False)


_SHAPES = {"json": _json, "tagged": _tagged, "keyed": _keyed, "dsml": _dsml, "invoke": _invoke,
           "param_xml": _param_xml, "xtml": _xtml}


def for_syntax(syntax):
    """The CallShape of a call syntax, or None where no structural tag is written for it."""
    build = _SHAPES.get(syntax.kind)
    return build(syntax) if build is not None else None
