"""A table from a checkpoint's `response_template` (vLLM's `hf` and `beam` parsers, which
read each checkpoint's own template from its tokenizer config; Hugging Face's response-parsing
spec, version 1). The template names regions of the message, each between an open and a close
anchor: `thinking` (the thought), `content`, `tool_calls`; at most one region has no open anchor
and holds the text outside the others (with none, `content` does, as vLLM serves it). A region's
open is looked for only outside the regions, and inside one only its own close; a region with no
close runs to the end of the output.

The table is that region machine: a state per region, a row in from the outside state on each
open literal and back out on each close literal. Tool calls are read with the JSON call syntax
the template's `transform` asks for: a region holding one object (`{content.name}`,
`{content.arguments}`), or, with `transform_each`, a JSON list of them (`{name}`, `{arguments}`);
`parameters` reads as `arguments` and `args` too where the template names it. Where no region
holds the outside text (an explicit `content` and no implicit one) that text is dropped, as the
template's parser discards it.

What a table cannot say is refused with the reason (ValueError): regex anchors (`*_pattern`),
fields other than those three, a thought or content region that is not plain text (`join`,
`transform`, another content parser), tool calls in another content parser (`xml-inline`,
`kv-lines`) or JSON dialect (`string_delims`, `unquoted_keys`), a name or arguments taken from
anywhere else, an implicit region that is not `content`, and more than one start anchor. Unlike
the template's parser, text keeps its whitespace (its `strip`): every byte stays in one event.
"""
import re

from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import CallObject

_KINDS = {"thinking": Emits.REASONING, "content": Emits.CONTENT, "tool_calls": Emits.ARGUMENTS}
_TEMPLATE_KEYS = {"version", "defaults", "fields", "start_anchor", "start_anchor_pattern"}
_FIELD_KEYS = {"open", "open_pattern", "close", "close_pattern", "content", "content_args", "repeats", "join",
               "optional", "transform", "transform_each"}
_PLACEHOLDER = re.compile(r"\{(\w+(?:\.\w+)*)\}")
_NAME_KEYS = ("name", "tool_name")
_ARGUMENT_KEYS = {"arguments": CallObject.CALL, "parameters": CallObject.CALL, "args": CallObject.CALL_OR_ARGS}
OUTSIDE = "outside"


def from_response_template(template, name="response_template"):
    """The `Format` that reads outputs as `template` (a response_template dict) says; ValueError
    where the template asks for what a table cannot say (module doc)."""
    fields = _checked(template)
    implicit = [field for field, spec in fields.items() if "open" not in spec]
    if len(implicit) > 1:
        raise ValueError(f"response_template: at most one field may have no open anchor, not {', '.join(implicit)}")
    if implicit and implicit[0] != "content":
        _refuse(f"the region with no open anchor is {implicit[0]!r}: only content can hold the text outside "
                "the regions")
    table = Format(name)
    outside = "content" if implicit or "content" not in fields else OUTSIDE
    table = table.state(outside, Emits.CONTENT if outside == "content" else Emits.HIDDEN)
    for field, spec in fields.items():
        if field != outside:
            table = table.state(field, _KINDS[field])
    for field, spec in fields.items():
        for k, text in enumerate(_literals(spec, "open")):
            table = table.terminal(f"{field}_open_{k}", text).transition(outside, f"{field}_open_{k}", field)
        for k, text in enumerate(_literals(spec, "close")):
            # an implicit region's close ends it, and the outside text goes on in a new one
            table = table.terminal(f"{field}_close_{k}", text).transition(field, f"{field}_close_{k}", outside)
    if "tool_calls" in fields:
        table = table.calls(_call_syntax(fields["tool_calls"]))
    anchor = template.get("start_anchor")
    if anchor is not None:
        anchors = [anchor] if isinstance(anchor, str) else list(anchor)
        if len(anchors) != 1 or not isinstance(anchors[0], str) or not anchors[0]:
            _refuse("start_anchor must be one non-empty literal (the text the prompt ends the turn's opening with)")
        table = table.opens_turn(anchors[0])
    return table


def _refuse(why):
    raise ValueError(f"response_template: {why}; build the table with symphony.Format")


def _checked(template):
    if not isinstance(template, dict):
        raise ValueError(f"response_template must be a dict, not {type(template).__name__}")
    if template.get("version", 1) != 1:
        raise ValueError(f"response_template version {template.get('version')!r} is not 1")
    unknown = set(template) - _TEMPLATE_KEYS
    if unknown:
        raise ValueError(f"response_template: unknown keys {sorted(unknown)}")
    if "start_anchor_pattern" in template:
        _refuse("start_anchor_pattern is a regex")
    fields = template.get("fields")
    if not isinstance(fields, dict) or not fields:
        raise ValueError("response_template.fields must be a non-empty dict")
    for field, spec in fields.items():
        if field not in _KINDS:
            _refuse(f"field {field!r} is none of thinking, content, tool_calls")
        if not isinstance(spec, dict) or set(spec) - _FIELD_KEYS:
            raise ValueError(f"response_template field {field!r}: not a field spec")
        for key in ("open_pattern", "close_pattern"):
            if key in spec:
                _refuse(f"field {field!r} has a regex {key}")
        if field != "tool_calls" and (spec.get("content", "text") != "text" or spec.get("transform") is not None
                                      or spec.get("join") is not None):
            _refuse(f"field {field!r} is not plain text")
    return fields


def _literals(spec, key):
    if key not in spec:
        return []
    raw = spec[key]
    texts = [raw] if isinstance(raw, str) else raw
    if not isinstance(texts, list) or not texts or not all(isinstance(t, str) and t for t in texts):
        raise ValueError(f"response_template: {key} must be a non-empty string or a list of them")
    return list(dict.fromkeys(texts))


def _call_syntax(spec):
    """The JSON call syntax of the tool_calls field: where its transform takes the call's name and
    arguments from."""
    if spec.get("content", "text") != "json":
        _refuse(f"tool calls in the {spec.get('content', 'text')!r} content parser")
    dialect = set(spec.get("content_args") or {}) - {"allow_non_json", "strip"}
    if dialect:
        _refuse(f"tool calls in a JSON dialect ({', '.join(sorted(dialect))})")
    transform, each = spec.get("transform"), bool(spec.get("transform_each"))
    function = transform.get("function") if isinstance(transform, dict) else None
    if not isinstance(function, dict):
        _refuse("the tool_calls transform gives no function")
    name, arguments = _path(function.get("name")), _path(function.get("arguments"))
    scope = [] if each else ["content"]
    if name is None or arguments is None or name[:-1] != scope or arguments[:-1] != scope \
            or name[-1] not in _NAME_KEYS or arguments[-1] not in _ARGUMENT_KEYS:
        where = "each list item's" if each else "the region's object's"
        _refuse(f"the call's name and arguments are not {where} name and arguments (or parameters, args) keys")
    obj = _ARGUMENT_KEYS[arguments[-1]]
    return CallSyntax.json_list(obj) if each else CallSyntax.json(obj)


def _path(placeholder):
    """The dotted path of a whole-string `{a.b}` placeholder, or None."""
    match = _PLACEHOLDER.fullmatch(placeholder) if isinstance(placeholder, str) else None
    return match.group(1).split(".") if match else None
