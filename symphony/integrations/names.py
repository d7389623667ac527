"""What the vLLM and SGLang modules share: the names symphony registers under, the table a name
parses with, a request's tools compiled once per distinct tool list, a constructor for the
engines' pydantic messages that skips their validation, and the table's structural tag for a
request that forces a call."""
import functools

import symphony
from symphony._native import tools_key
from symphony.formats import hy4
from symphony.resolve import resolve
from symphony.value import Declared

DISTINCT_TOOL_LISTS = 256          # tool lists whose compiled schemas are kept
SERVED_TOKENIZERS = 16             # tokenizers whose spelling of the table's markers is kept

AUTO = "symphony"                  # the name that picks the table from the served model
# Each name with this suffix shows the thought the prompt opened in the content, as the model wrote
# it, after the prompt's opener (chat's thought_in_content; what vLLM's minimax_m2_append_think and
# SGLang's minimax-append-think reasoning parsers give): `symphony_append_think`,
# `symphony_minimax_m2_append_think`, ...
APPEND_THINK = "_append_think"

# chat_template_kwargs that turn every template's thinking switch on or off (each template reads
# its own: enable_thinking, DeepSeek V3.1's thinking, MiniMax M3's thinking_mode)
THINKING_ON = {"enable_thinking": True, "thinking": True, "thinking_mode": "enabled"}
THINKING_OFF = {"enable_thinking": False, "thinking": False, "thinking_mode": "disabled"}


def parser_names(suffix=""):
    """Every name registered with `suffix`: `symphony`, then `symphony_<table>` per table, each
    followed by the suffix."""
    return [AUTO + suffix] + [f"{AUTO}_{name}{suffix}" for name in symphony.formats()]


def table_of(name, suffix=""):
    """The table a registered name (with `suffix`) parses with, or None for the served model's."""
    name = name[:len(name) - len(suffix)]
    return None if name == AUTO else name[len(AUTO) + 1:]


def named_classes(*bases, suffix=""):
    """(name, one subclass of each base whose `table_name` is the name's table, None for
    `symphony`) per name registered with `suffix`."""
    for name in parser_names(suffix):
        table = table_of(name, suffix)
        yield name, [type(f"{base.__name__}_{table or 'auto'}", (base,),
                          {"table_name": table, "__module__": base.__module__}) for base in bases]


@functools.lru_cache(maxsize=256)
def table_for(name, model, hint):
    """The Format a registered name parses with: its own table, or the served model's (cached:
    the engines make a parser per request). `hint` says where the engine would name the model."""
    if name is None and not model:
        raise ValueError(f"the `symphony` parser picks its table from the served model, and {hint} "
                         "gave none; name a table instead (--tool-call-parser symphony_<table>)")
    return resolve(name if name is not None else model).format


def served_table(table, tokenizer):
    """`table` as the served tokenizer spells its markers: Hy4's per-checkpoint suffix
    (`<tool_calls:6124c78e>`) read from its vocab, as vLLM's hy_v4 reads it (hy4.suffixed), once
    per tokenizer; any other table, or a tokenizer without a vocab, as it is."""
    if table is not hy4.HY4 or not callable(getattr(tokenizer, "get_vocab", None)):
        return table
    kept = _SERVED.get(id(tokenizer))
    if kept is None or kept[0] is not tokenizer:
        suffix = hy4.vocab_suffix(tokenizer.get_vocab())
        kept = _SERVED.keep(id(tokenizer), (tokenizer, hy4.suffixed(suffix) if suffix else table))
    return kept[1]


def declared_later(tools):
    """A request's tools (an engine's pydantic tool objects, or dicts) as a parser takes them: a
    callable the parser calls when a call first needs the tools' types (never, for a family that
    does not type values or an output without calls), or None for no tools."""
    return functools.partial(declared, tools) if tools else None


def reads_types(table):
    """Whether a compiled table's calls type their values by the request's tools (a parser of a
    table that does not never asks for them)."""
    return table.syntax is not None and table.syntax.reads_types


def declared(tools):
    """The tools compiled for value typing, one Declared per distinct tool list, shared by every
    parser given that list (the oldest of DISTINCT_TOOL_LISTS let go first); None for none. The
    key is the list's content written in the core (`tools_key`): no Python-level step per tool.
    A list whose content has no key is compiled for the request alone."""
    if not tools:
        return None
    key = tools_key(tools)
    if key is None:
        return Declared(tool_dicts(tools))
    found = _DECLARED.get(key)
    return _DECLARED.keep(key, Declared(tool_dicts(tools))) if found is None else found


class Bounded(dict):
    """A cache of at most `size` entries: keeping one more lets the oldest go."""
    __slots__ = ("size",)

    def __init__(self, size):
        super().__init__()
        self.size = size

    def keep(self, key, value):
        """Keeps value under key; returns it."""
        if len(self) >= self.size:
            del self[next(iter(self))]
        self[key] = value
        return value


_DECLARED = Bounded(DISTINCT_TOOL_LISTS)       # tools_key -> Declared
_SERVED = Bounded(SERVED_TOKENIZERS)           # id(tokenizer) -> (the tokenizer, its table)


def tool_dicts(tools):
    """OpenAI-style tool dicts from an engine's tool objects (pydantic models or dicts)."""
    return [t.model_dump(exclude_none=True) if hasattr(t, "model_dump") else dict(t) for t in tools or ()]


def named_function(tool_choice):
    """The function a named tool_choice forces (an object or a dict), else None."""
    function = getattr(tool_choice, "function", None)
    if function is not None:
        return getattr(function, "name", None)
    if isinstance(tool_choice, dict):
        return (tool_choice.get("function") or {}).get("name") or tool_choice.get("name")
    return getattr(tool_choice, "name", None)


def structural_tag(table, tools, tool_choice, reasoning):
    """xgrammar's StructuralTag of the table for the request's tools (only the named function for
    a named tool_choice), at least one call unless tool_choice is "auto"; None where the table has
    no grammar."""
    tools = tool_dicts(tools)
    named = named_function(tool_choice)
    if named is not None:
        tools = [t for t in tools if t.get("function", {}).get("name") == named]
    payload = symphony.grammar(table, tools, at_least_one=tool_choice not in (None, "auto"),
                               reasoning_open=reasoning)
    if payload is None:
        return None
    from xgrammar import StructuralTag
    return StructuralTag.model_validate(payload)


def has_grammar(table):
    """Whether the table gives a grammar at all (for one declared tool)."""
    probe = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]
    return symphony.grammar(table, probe) is not None


def pydantic_maker(cls):
    """A constructor for an engine's pydantic model that takes every field's value and the names
    of the fields set, as `cls.model_construct(fields_set, **values)` does (no validation), without
    its per-call default handling, which costs more than parsing a delta. It builds what
    model_construct builds (pydantic 2: the field dict, the fields set, the extra dict, no private
    attributes), each stored through BaseModel's own slot descriptors (object.__setattr__ would
    look each one up by name); a model with a post-init hook gets model_construct itself."""
    if cls.__pydantic_post_init__ is not None:
        return lambda fields_set, **values: cls.model_construct(fields_set, **values)
    base = next(k for k in cls.__mro__ if k.__module__ == "pydantic.main" and k.__name__ == "BaseModel")
    extra = cls.model_config.get("extra") == "allow"
    new = cls.__new__
    set_values, set_fields, set_extra, set_private = (base.__dict__[name].__set__ for name in (
        "__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__"))

    def make(fields_set, **values):
        model = new(cls)
        set_values(model, values)
        set_fields(model, fields_set)
        set_extra(model, {} if extra else None)
        set_private(model, None)
        return model
    return make
