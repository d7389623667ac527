"""What the vLLM and SGLang modules share: the names symphony registers under, the table a name
parses with, a request's tools as OpenAI-style dicts, and the table's structural tag for a
request that forces a call."""
import functools

import symphony
from symphony.resolve import resolve

AUTO = "symphony"                  # the name that picks the table from the served model


def parser_names():
    """Every name registered: `symphony`, then `symphony_<table>` per table."""
    return [AUTO] + [f"{AUTO}_{name}" for name in symphony.formats()]


def named_classes(*bases):
    """(name, one subclass of each base whose `table_name` is the name's table, None for
    `symphony`) per registered name."""
    for name in parser_names():
        table = None if name == AUTO else name[len(AUTO) + 1:]
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
