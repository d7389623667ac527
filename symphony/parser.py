"""The entry points: a parser for a named format (one per generated stream), or a whole parse."""
from symphony import _native
from symphony.formats import names as _table_names
from symphony.formats import table as _table
from symphony.format import Format

Engine = _native.Engine


def formats():
    """The names of the format tables, sorted."""
    return _table_names()


def parser(format, tools=None):
    """A new parser for one stream of a format (a table name, a `Format`, or a compiled table).

    `tools` are the request's OpenAI-style function tools; tool names are not checked.
    Feed it `Prompt` (optional, first), `Delta`s, then `End`; each `feed` returns events.
    """
    if type(format) is _native.Table:
        return Engine(format, tools)
    table = format if isinstance(format, Format) else _table(format)
    return Engine(table.compile(), tools)


def parse(format, output, tools=None, prompt=None, finish="stop"):
    """The events of a whole output: Prompt (when given), one Delta, End(finish)."""
    return parser(format, tools).parse(output, prompt, finish)
