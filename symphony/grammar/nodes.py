"""The structural-tag nodes a grammar is built of (SPEC §8: xgrammar's structural tag format,
which vLLM and SGLang accept), and the value and parameter slots written from a tool's JSON
schema that every tag-written call syntax shares.
"""

WS = {"type": "regex", "pattern": r"[ \t\r\n]*"}    # whitespace a template may write between tags


def const(value):
    return {"type": "const_string", "value": value}


def text(excludes):
    return {"type": "any_text", "excludes": list(dict.fromkeys(excludes))}


def regex(pattern):
    return {"type": "regex", "pattern": pattern}


def schema(json_schema, style=None):
    node = {"type": "json_schema", "json_schema": json_schema}
    if style is not None:
        node["style"] = style
    return node


def seq(*elements):
    """A sequence; inner sequences are spliced in, adjacent constants joined, empty ones left
    out, and a single element stands alone."""
    kept = []
    for element in elements:
        for part in element["elements"] if element.get("type") == "sequence" else (element,):
            if part.get("type") == "const_string" and kept and kept[-1].get("type") == "const_string":
                kept[-1] = const(kept[-1]["value"] + part["value"])
            elif part != const(""):
                kept.append(part)
    return kept[0] if len(kept) == 1 else {"type": "sequence", "elements": kept}


def either(elements):
    return elements[0] if len(elements) == 1 else {"type": "or", "elements": list(elements)}


def optional(content):
    return {"type": "optional", "content": content}


def star(content):
    return {"type": "star", "content": content}


def plus(content):
    return {"type": "plus", "content": content}


def tag(begin, content, end):
    return {"type": "tag", "begin": begin, "content": content, "end": end}


def joined(tags, separator, at_least_one):
    """Tags one after another with `separator` between (none, with `at_least_one` one or more)."""
    return {"type": "tags_with_separator", "tags": tags, "separator": separator, "at_least_one": at_least_one,
            "stop_after_first": False}


def triggered(triggers, tags, at_least_one, excludes=()):
    """Free text with tags in it, each entered by its trigger; the text holds none of `excludes`."""
    node = {"type": "triggered_tags", "triggers": list(triggers), "tags": tags, "at_least_one": at_least_one}
    if excludes:
        node["excludes"] = list(dict.fromkeys(excludes))
    return node


# --- values and slots from a tool's schema --------------------------------------------------

def properties(parameters):
    """A tool's parameters as (properties in schema order, required names)."""
    if not isinstance(parameters, dict):
        return {}, ()
    props = parameters.get("properties")
    return (props if isinstance(props, dict) else {}), tuple(parameters.get("required") or ())


def value(prop, python, free_text):
    """One argument value as a tag-written template spells it, and whether it is pinned (its
    text cannot run on: a template's newline may stand on either side). Strings are the free
    text between the tags (a string enum is one of its values); numbers, and objects and lists
    spelled as JSON, follow the property's schema; booleans and null may be JSON or Python words;
    with `python` spelling objects and lists are Python reprs, free text; untyped values are text."""
    prop = prop if isinstance(prop, dict) else {}
    kind = prop.get("type")
    enum = prop.get("enum")
    if kind in ("string", None) and enum and all(isinstance(v, str) for v in enum):
        return either([const(v) for v in enum]), True
    if kind == "boolean":
        return either([schema({"type": "boolean"}), const("True"), const("False")]), True
    if kind == "null":
        return either([const("null"), const("None")]), True
    if kind in ("number", "integer") or (kind in ("object", "array") and not python):
        return schema(prop), True
    return free_text, False


def word(stops, tags, joined_by=""):
    """One or more characters holding none of `stops` and no start of one of `tags`: a key the
    model names itself (a tool without properties), which its template writes up to a delimiter,
    so it holds neither the delimiter nor a tag or a marker. Where every tag starts with one
    character and is longer, that character stands but before a tag's second one (`foo<bar`
    between `<|...|>` tags); else none of the tags' first characters does. `joined_by`: such
    words joined by runs of these characters (stops themselves), none at the ends."""
    pattern = _word_pattern(stops, tags)
    if joined_by:
        pattern = f"({pattern})({_class_of(joined_by)}+({pattern}))*"
    return regex(pattern)


def _word_pattern(stops, tags):
    firsts = {t[0] for t in tags if t}
    if len(firsts) != 1 or any(len(t) < 2 for t in tags if t) or firsts & set(stops):
        return _class(stops + "".join(firsts)) + "+"
    (first,) = firsts
    other, before = _class(stops + first), _class(stops + first + "".join(t[1] for t in tags if t))
    lead = "\\" + first if first in "\\^$.|?*+()[]{}" else first
    return f"({other}|{lead}+{before})+{lead}*|{lead}+"


_CLASS_SPECIALS = "\\]^-["


_CLASS_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\x0b": "\\v", "\x0c": "\\f"}


def _class(excluded, negated=True):
    """A regex character class of every character but `excluded` (xgrammar takes no raw line break
    in one: the ASCII whitespace is written as its escape); not `negated`: of those characters."""
    return ("[^" if negated else "[") + "".join("\\" + c if c in _CLASS_SPECIALS else _CLASS_ESCAPES.get(c, c)
                                                for c in sorted(set(excluded))) + "]"


def _class_of(characters):
    return _class(characters, negated=False)


def slots(parameters, slot, generic):
    """The parameters of one call: one slot per schema property in schema order, optional unless
    required (`slot(name, prop)`); a schema without properties takes any number of `generic`."""
    props, required = properties(parameters)
    if not props:
        return star(generic)
    return seq(*[slot(name, prop) if name in required else optional(slot(name, prop))
                 for name, prop in props.items()])


def pinned(node, is_pinned, newline):
    """A value node, with an optional newline on each side where it is pinned and `newline`."""
    if is_pinned and newline:
        return seq(optional(const("\n")), node, optional(const("\n")))
    return node
