"""The one place that says what a name means: a table's name, one of its aliases (the engines'
parser names among them), a `Format`, or a Hugging Face checkpoint id (through the model
registry, which brings the generation prompt's tail that seeds the thought). Every entry point
that takes a format (`symphony.parser`, `symphony.grammar`, `batch.parse_many`, the CLI, the
engines' plugins) asks here.
"""
from collections import namedtuple

from symphony.format import Format
from symphony.formats import names as _table_names
from symphony.formats import table as _table
from symphony.models import for_model

Resolved = namedtuple("Resolved", "format prompt_tail model")
Resolved.__doc__ = ("What a name means: its Format, and for a checkpoint id the generation prompt's tail "
                    "(`Model.prompt_tail`) and the `Model`, else None for both.")

# No checkpoint id or path is longer: a longer str is no name to look up in the registry.
_LONGEST_NAME = 4096


def resolve(format_or_model, chat_template_kwargs=None):
    """The `Resolved` for a table name or alias, a Format, or a checkpoint id (per the request's
    `chat_template_kwargs`); TypeError for anything else, KeyError naming the known formats and the
    closest checkpoints for a name that is neither."""
    if isinstance(format_or_model, Format):
        return Resolved(format_or_model, None, None)
    if not isinstance(format_or_model, str):
        raise TypeError(f"a format is a table name, a Format or a model id, not {type(format_or_model).__name__}")
    try:
        return Resolved(_table(format_or_model), None, None)
    except KeyError:
        pass
    try:
        model = for_model(format_or_model, chat_template_kwargs)
    except KeyError as e:
        raise KeyError(f"no format named {format_or_model!r} (known formats: {', '.join(_table_names())}), "
                       f"and {e.args[0]}") from None
    return Resolved(model.table(), model.prompt_tail, model)


def table(format_or_name):
    """The Format for a Format or a table name or alias, where no generation prompt is fed (a bare
    parser). A checkpoint id is refused with a KeyError saying its table and that
    `symphony.for_model(id).parser(tools)` gives a parser already fed its generation prompt (and
    so knowing whether the output starts inside a thought)."""
    if isinstance(format_or_name, Format):
        return format_or_name
    try:
        return _table(format_or_name)
    except KeyError as e:
        if not isinstance(format_or_name, str) or len(format_or_name) > _LONGEST_NAME:
            raise
        try:
            model = for_model(format_or_name)
        except (KeyError, TypeError):
            raise e from None
        raise KeyError(f"{e.args[0]}. {format_or_name!r} is a checkpoint id: its table is {model.format!r}; "
                       f"symphony.for_model({format_or_name!r}).parser(tools) gives a parser already fed its "
                       "generation prompt") from None
