"""The entry points: a parser for a named format (one per generated stream), or a whole parse."""
from symphony import _native
from symphony import tool_choice as _tool_choice
from symphony.formats import names as _table_names
from symphony.resolve import table as _table

Engine = _native.Engine
fold_summaries = _native.fold_summaries
ArrowRows = _native.ArrowRows
summary_rows_of = _native.summary_rows_of
JsonLines = _native.JsonLines
summary_messages = _native.summary_messages
Utf8Texts = _native.Utf8Texts
utf8_layout = _native.utf8_layout
utf8_copy = _native.utf8_copy
first_not_str = _native.first_not_str
DEFAULT_BUFFER_LIMIT = _native.DEFAULT_BUFFER_LIMIT


def formats():
    """The names of the format tables, sorted."""
    return _table_names()


def parser(format, tools=None, tool_choice=None, buffer_limit=DEFAULT_BUFFER_LIMIT, undeclared="call"):
    """A new parser for one stream of a format (a table name, a `Format`, or a compiled table).

    `tools` are the request's OpenAI-style function tools (they type the values of tag-written
    calls). `tool_choice` is the request's: "auto", "none" or None parse the format's own markup;
    "required" or a forced function parse the constrained output the engine writes then
    (`constrained`). Feed the parser `Prompt` (optional, first), `Delta`s, then `End`; each `feed`
    returns events.

    `undeclared` says what a call to a tool the request does not declare is: "call" (the default,
    SPEC §2.4: names are not checked) or "malformed": the call's bytes, from its head through its
    end, are `Malformed` (`MalformedReason.UNKNOWN_TOOL`; a chat message shows them as content),
    no call index is spent on it and the finish reason is as if it were not there, as vLLM's and
    SGLang's parsers that check names refuse such a call. The name is checked when the call starts,
    and only where `tools` name a function (with none there is nothing to check against).

    `buffer_limit` caps the output bytes the parser holds between feeds (bytes no event accounts
    for yet: a marker's start, arguments written before a call's name, an undecided value); 64 MiB
    by default, None for no limit. A feed that leaves more held raises `BufferOverflowError`
    ("buffered output exceeded N bytes") carrying the events before it; End then returns the held
    bytes as Malformed and finishes, every byte still in one event.
    """
    choice = _tool_choice.for_tool_choice(tool_choice)
    if choice is not None:
        return constrained(None if choice == _tool_choice.REQUIRED else choice, tools, buffer_limit, undeclared)
    if type(format) is _native.Table:
        return Engine(format, tools, buffer_limit, undeclared)
    return Engine(_table(format).compile(), tools, buffer_limit, undeclared)


def constrained(function=None, tools=None, buffer_limit=DEFAULT_BUFFER_LIMIT, undeclared="call"):
    """A parser for an output constrained by tool_choice (SPEC §6): the whole output is the named
    function's arguments, or (function None: "required") a JSON list of calls. `undeclared`:
    `parser`'s (a forced function is one the request declares, or the engine refuses the request)."""
    return Engine(_tool_choice.table(function), tools, buffer_limit, undeclared)


def parse(format, output, tools=None, prompt=None, finish="stop", tool_choice=None,
          buffer_limit=DEFAULT_BUFFER_LIMIT, undeclared="call"):
    """The events of a whole output: Prompt (when given), one Delta, End(finish). Past the buffer
    limit the BufferOverflowError carries every event, the held bytes reported as Malformed.
    `undeclared`: `parser`'s."""
    return parser(format, tools, tool_choice, buffer_limit, undeclared).parse(output, prompt, finish)
