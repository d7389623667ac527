"""Type stub of the compiled core (built from pyx/)."""
from enum import IntEnum
from typing import Any, Optional, Sequence, Tuple, Union

from symphony.reasons import DropReason, FinishReason, MalformedReason, Other

class Text:
    """A run of output text and how many tokens started in it (None: the stream is uncounted)."""
    text: str
    tokens: Optional[int]
    def __init__(self, text: str, tokens: Optional[int] = ...) -> None: ...
    @staticmethod
    def uncounted(text: str) -> Text:
        """`Text(text, None)`."""
    def is_nothing(self) -> bool:
        """Empty text carrying no token (SPEC §1.1): Text("", 1) is not nothing."""
    def to_dict(self) -> dict:
        """The wire form `{"text": ..., "tokens": n or None}`."""

class Event:
    """Base of the ten event types. Events are immutable and compare by value."""
    kind: str
    """The wire name of the event's type (`"content"`, `"tool_call_start"`, ...)."""
    def to_dict(self) -> dict:
        """The event's JSON wire shape (SPEC §1.3); `symphony.events.from_dict` reads it back."""

class Content(Event):
    """Visible text."""
    text: str
    tokens: Optional[int]
    def __init__(self, text: str, tokens: Optional[int] = ...) -> None: ...

class Reasoning(Event):
    """Text of a thought."""
    text: str
    tokens: Optional[int]
    def __init__(self, text: str, tokens: Optional[int] = ...) -> None: ...

class ReasoningStart(Event):
    """A thought opens (accounts for no bytes)."""
class ReasoningEnd(Event):
    """A thought closes (accounts for no bytes)."""

class ToolCallStart(Event):
    """A call begins: its index, id (`call_<index>`), name, and the opening bytes as written."""
    index: int
    id: str
    name: str
    source: Text
    def __init__(self, index: int, id: str, name: str, source: Union[Text, str]) -> None: ...

class ToolCallArguments(Event):
    """A fragment of a call's JSON arguments and the model's bytes it came from. The fragments of
    one index, joined, are always a valid JSON prefix and, at the call's end, its arguments."""
    index: int
    json: str
    source: Text
    def __init__(self, index: int, json: str, source: Union[Text, str]) -> None: ...

class ToolCallEnd(Event):
    """A call ends: the closing bytes (may be empty)."""
    index: int
    source: Text
    def __init__(self, index: int, source: Union[Text, str]) -> None: ...

class Dropped(Event):
    """Bytes that carry no meaning for the client (markers, wrapping), with why."""
    text: Text
    why: DropReason
    def __init__(self, text: Union[Text, str], why: Union[DropReason, str]) -> None: ...

class Malformed(Event):
    """Bytes that could not be parsed as what their place called for, with why."""
    text: Text
    why: Union[MalformedReason, Other]
    def __init__(self, text: Union[Text, str], why: Union[MalformedReason, Other, str]) -> None: ...

class Finish(Event):
    """The stream ended: why, how many calls started, how many tokens the reasoning took."""
    reason: Union[FinishReason, Other]
    tool_calls: int
    reasoning_tokens: int
    def __init__(self, reason: Union[FinishReason, Other, str], tool_calls: int = ...,
                 reasoning_tokens: int = ...) -> None: ...

class TokenSpan:
    """One token's bytes in a delta's UTF-8 text: [start, end), `continued` if released late."""
    token_id: int
    start: int
    end: int
    continued: bool
    def __init__(self, token_id: int, start: int, end: int, continued: bool = ...) -> None: ...
    @staticmethod
    def partitions(spans: Any, text: Union[str, bytes]) -> bool:
        """Whether `spans` lay out `text` (str or UTF-8 bytes) exactly: ordered, contiguous from 0
        to its length, every end on a character boundary. `continued` is not looked at."""

class Prompt:
    """The prompt the engine was given (text decoded with special tokens kept). Optional, first."""
    text: str
    token_ids: Any
    def __init__(self, text: str = ..., token_ids: Any = ...) -> None: ...

class Delta:
    """One decoded piece of output: its text, the token ids that produced it, and their spans."""
    text: str
    token_ids: Any
    spans: Any
    """The spans as given: a tuple of TokenSpan (a list is read as its tuple), the (n, 4)
    array, () or None."""
    def __init__(self, text: str, token_ids: Any = ..., spans: Any = ...) -> None: ...

class End:
    """The end of the stream and why the engine stopped: "stop", "length", "abort" or any other text."""
    finish: str
    def __init__(self, finish: str = ...) -> None: ...

class Ledger:
    received: int
    emitted: int
    uncounted: bool
    def note_delta(self, delta: Delta) -> None: ...
    def text(self, n: int) -> Optional[int]: ...
    def finish(self) -> int: ...
    def counting(self) -> bool: ...

class MarkerSet:
    texts: tuple
    size: int
    longest: int
    def __init__(self, markers: Sequence[str]) -> None: ...

class Scanner:
    markers: MarkerSet
    held: str
    def __init__(self, markers: Union[MarkerSet, Sequence[str]]) -> None: ...
    def feed(self, text: str) -> list: ...
    def finish(self) -> list: ...
    def marker(self, i: int) -> str: ...

class JsonPrefix:
    refused_at: Optional[int]
    whole: bool
    committed: int
    def __init__(self, strict: bool = False, bounded: bool = False) -> None: ...
    def feed(self, piece: Union[str, bytes]) -> Optional[int]: ...
    def end(self) -> Optional[int]: ...
    def ending(self) -> Tuple[int, str]: ...

def json_prefix_end(text: Union[str, bytes]) -> int: ...
def json_outline(text: Union[str, bytes]) -> dict: ...
def json_string_decode(body: Union[str, bytes]) -> Optional[str]: ...

class Emits(IntEnum):
    EM_CONTENT = 0
    EM_REASONING = 1
    EM_ARGUMENTS = 2
    EM_WRAPPER = 3
    EM_HIDDEN = 4
    EM_DAMAGED_MARKER = 5

class Syntax:
    reads_types: bool
    def __init__(self, ends: Sequence[int] = ...) -> None: ...

class OlKeys(IntEnum):
    OL_KEYS_CALL = 0
    OL_KEYS_ARGS = 1
    OL_KEYS_NAMED = 2
    OL_KEYS_ARGUMENTS = 3

class JsonSyntax(Syntax):
    keys: int
    head: Optional[bytes]
    tail: Optional[bytes]
    name_prefix: Optional[bytes]
    name_index: int
    name_word: bool
    bare_counter: bool
    head_token: bool
    head_id: Optional[bytes]
    needs_arguments: bool
    def __init__(self, ends: Sequence[int] = ..., keys: int = ..., head: Optional[str] = ...,
                 tail: Optional[str] = ..., name_prefix: Optional[str] = ...,
                 name_index: Optional[str] = ..., name_word: bool = ..., bare_counter: bool = ...,
                 head_token: bool = ..., head_id: Optional[str] = ..., openers: Sequence[int] = ...,
                 needs_arguments: bool = ...) -> None: ...
class JsonListSyntax(Syntax):
    keys: int
    otherwise: Optional[JsonSyntax]
    bare: bool
    prose: bool
    or_list: bool
    python_literals: bool
    def __init__(self, ends: Sequence[int] = ..., keys: int = ..., otherwise: Optional[JsonSyntax] = ...,
                 bare: bool = ..., prose: bool = ..., or_list: bool = ..., python_literals: bool = ...) -> None: ...
class TaggedSyntax(Syntax):
    own_line: bool
    broken_tags: bool
    def __init__(self, own_line: bool = ..., ends: Sequence[int] = ..., starts: Sequence[int] = ...,
                 openers: Sequence[int] = ..., broken_tags: bool = ...) -> None: ...
class KeyedSyntax(Syntax):
    objects: bool
    def __init__(self, tags: Sequence[str], ends: Sequence[int] = ..., type_tags: Sequence[str] = ...,
                 objects: bool = ..., separators: Sequence[str] = ...) -> None: ...
class InvokeSyntax(Syntax):
    typed_by_attribute: bool
    own_line: bool
    json_body: bool
    loose: bool
    def __init__(self, tags: Sequence[str] = ..., typed_by_attribute: bool = ..., own_line: bool = ...,
                 ends: Sequence[int] = ..., json_body: bool = ..., starts: Sequence[int] = ...,
                 loose: bool = ..., head_end: str | None = ..., spaced: bool = ...,
                 openers: Sequence[int] = ...) -> None: ...
class ParamXmlSyntax(Syntax):
    loose: bool
    references: bool
    def __init__(self, tags: Sequence[str], ends: Sequence[int] = ..., header_ends: Sequence[int] = ...,
                 doubled_names: bool = ..., param_spellings: Sequence[str] = ..., starts: Sequence[int] = ...,
                 loose: bool = ..., wrapper: Sequence[str] = ..., references: bool = ...,
                 openers: Sequence[int] = ...) -> None: ...
class XtmlSyntax(Syntax):
    def __init__(self, ends: Sequence[int] = ..., spaced: bool = ..., openers: Sequence[int] = ...) -> None: ...
class XmlSyntax(Syntax): ...
class PythonicSyntax(Syntax):
    prose: bool
    literal: int
    keys: int
    def __init__(self, ends: Sequence[int] = ..., prose: bool = ..., literal: int = ..., keys: int = ...) -> None: ...
class ForcedSyntax(Syntax):
    function: str
    def __init__(self, function: str, ends: Sequence[int] = ...) -> None: ...
class RequiredSyntax(Syntax): ...

TAGGED_TAGS: tuple[str, ...]
TAGGED_READ_TAGS: tuple[str, ...]
TAGGED_BROKEN_TAGS: tuple[str, ...]
DSML_TAGS: tuple[str, ...]
XTML_TAGS: tuple[str, ...]
XTML_SPACED_TAGS: tuple[str, ...]

class Kind(IntEnum):
    KIND_NONE = 0
    KIND_STRING = 1
    KIND_NULLABLE_STRING = 2
    KIND_INTEGER = 3
    KIND_ARRAY = 4
    KIND_OBJECT = 5
    KIND_NUMBER = 6

class LiteralSyntax(IntEnum):
    LIT_VALUE = 0
    LIT_ARGUMENT = 1
    LIT_SLIPS = 2

NULL_WORDS: tuple[str, str]
TOOL_SCHEMA_KEYS: tuple[str, str, str]

class Declared:
    """The parameter Kinds a request's tools declare, by function name (SPEC §5.1), read from
    OpenAI-style tools, the Responses API's flat `{"name", "parameters"}`, Anthropic's
    `{"name", "input_schema"}` or MCP's `{"name", "inputSchema"}`; the first tool of a name wins,
    anything malformed is skipped. Pass one as `tools` to share one compile across parsers."""
    def __init__(self, tools: Any = ...) -> None: ...
    def kind(self, function: str, param: str) -> Optional[Kind]: ...
    def kind_at(self, function: str, path: Sequence[str]) -> Optional[Kind]: ...
    def kind_code(self, function: bytes, param: bytes) -> int: ...
    def __contains__(self, function: object) -> bool: ...
    def __len__(self) -> int: ...

def value_json(text: str, kind: Optional[int] = ...) -> str: ...
def python_literal(text: str, syntax: int = ...) -> Optional[str]: ...
def reads_back(text: str) -> bool: ...
def json_string_body(text: Union[str, bytes]) -> Union[str, bytes]: ...

class Table:
    name: str
    markers: MarkerSet
    n_states: int
    n_terminals: int
    syntax: Optional[Syntax]
    opener: Optional[str]
    end_tag: bytes
    call_region_states: tuple
    def __init__(self, name: str, terminals: Sequence[str], ignored: Sequence[bool], emits: Sequence[int],
                 transitions: Sequence[Sequence[int]], syntax: Optional[Syntax], opener: Optional[str],
                 controls: Optional[Sequence[bool]] = ...,
                 after_call: Optional[Sequence[int]] = ...,
                 objects: Optional[Sequence[int]] = ...,
                 names: Optional[Sequence[Optional[str]]] = ...,
                 prose_after_calls: Optional[Sequence[bool]] = ...,
                 closes: Optional[Sequence[int]] = ...,
                 end_tag: Optional[str] = ...) -> None: ...

DEFAULT_BUFFER_LIMIT: int

class Engine:
    """A parser for one stream: `feed(Prompt | Delta | End) -> list of events`
    (`symphony.parser(...)` makes one for a table name)."""
    table: Table
    """The compiled table it runs."""
    tools: Any
    format: str
    """The table's name."""
    failed: bool
    """Whether an error struck mid-feed (only End is accepted then)."""
    counting: bool
    """Whether the stream is still counted: every delta so far came with spans that lay out
    its text (SPEC §1.5). False for good once one did not (no spans, spans in character
    offsets, gaps): text events then carry `tokens` None."""
    buffer_limit: Optional[int]
    """The most output bytes this parser holds between feeds (None: no limit)."""
    held: int
    """How many output bytes no event has accounted for yet (held for a marker, a call's
    name, an undecided value...)."""
    undeclared: str
    """What a call to a tool the request does not declare is: "call" (names are not checked) or
    "malformed" (its bytes are Malformed{UnknownTool}; see `symphony.parser`)."""
    def __init__(self, table: Table, tools: Any = ..., buffer_limit: Optional[int] = ...,
                 undeclared: str = ...) -> None: ...
    def feed(self, input: Union[Prompt, Delta, End], /) -> list:
        """Feeds one input; returns the events it completes (adjacent content merged)."""
    def feed_token(self, text: str, token_id: int) -> list:
        """Feeds one decoded token: its text (a str, possibly empty: a token that leaves a
        character unfinished) and its id. The same as `feed(Delta(text, [token_id],
        [TokenSpan(token_id, 0, <text's UTF-8 length>)]))`, events and counts alike, without
        making the Delta: the call a worker that streams one token at a time makes."""
    def parse(self, output: str, prompt: Optional[str] = ..., finish: str = ...) -> list:
        """The events of a whole output on a fresh parser, as one list: the prompt (when given)
        seeds it, the output (a str: one uncounted delta; or a Delta, counted by its spans) is
        fed, then the stream ends with `finish`. An error is final: it carries every event, what
        no event accounted for reported as Malformed and the stream finished."""
    def message(self, output: Union[str, Delta], prompt: Optional[str] = ..., finish: str = ...,
                choice: int = ...) -> tuple:
        """`parse`, but the Chat Completions choice `chat.message(events, choice)` gives, built
        without the events (the batch path): (choice, output tokens, reasoning tokens, calls
        started, malformed bytes). An error is raised as `parse` raises it, with the events."""
    def summary(self, output: Union[str, Delta], prompt: Optional[str] = ..., finish: str = ...,
                routes: FieldRoutes = ...) -> tuple:
        """`parse`, folded in the core into the batch's summary row with each record where
        `routes` sends it (by MESSAGE_ROUTES, what `chat.message` says): (content, or None when
        blank; reasoning, or None; [(id, name, arguments)], or None; finish_reason; output
        tokens; reasoning tokens; calls started; malformed bytes; None)."""
    def summaries(self, output: Union[str, Delta], prompt: Optional[str] = ..., finish: str = ...,
                  routes: FieldRoutes = ..., more: FieldRoutes = ...) -> tuple:
        """`summary` twice of one parse: (the row by `routes`, the row by `more`). An engine's two
        roles read one output this way (what the reasoning role passes on, and what the tool role
        would read of it)."""

class Field(IntEnum):
    """Where a record goes among an engine's delta fields."""
    FIELD_NONE: int
    FIELD_CONTENT: int
    FIELD_REASONING: int
    FIELD_CALL: int
    FIELD_REST: int

class FieldRoutes:
    """Where the records of each event kind go among the delta fields: a Field outside a thought
    and one inside it."""
    def __init__(self, routes: dict, otherwise: Union[int, tuple] = ...) -> None: ...
    def route(self, event_class: type) -> tuple:
        """(the Field outside a thought, the Field inside one) of an event class's records."""

MESSAGE_ROUTES: FieldRoutes

class FieldStream:
    """An Engine read delta by delta into an inference engine's delta fields by `routes`."""
    ended: bool
    def __init__(self, engine: Engine, routes: FieldRoutes) -> None: ...
    def feed(self, text: str, /) -> Optional[tuple]:
        """The fields of one delta's text: (content, reasoning, calls), or None."""
    def end(self, finish: str = ...) -> Optional[tuple]:
        """The fields of the end of the stream (what the parser still held)."""

def tools_key(tools: Any) -> Optional[bytes]:
    """The content of a tool list as bytes, equal for equal content; None when it holds a value
    with no key."""

class SummaryRows: ...

class ArrowRows(SummaryRows):
    rows: int
    def __init__(self, seal_bytes: int = ..., crossing: bool = ...) -> None: ...
    def columns(self) -> list: ...

def summary_rows_of(batch: tuple) -> list: ...

class JsonLines(SummaryRows):
    rows: int
    calls: int
    malformed: int
    failures: list
    def __init__(self, numbers: list) -> None: ...
    def lines(self) -> tuple: ...

class Utf8Texts:
    data: Any
    offsets: Any
    checked: bool
    def __init__(self, data: Any, offsets: Any, checked: bool = ..., refused: Optional[dict] = ...) -> None: ...
    def __len__(self) -> int: ...
    def __getitem__(self, i: int) -> str: ...

def utf8_layout(texts: list, offsets: Any) -> dict: ...
def utf8_copy(texts: list, offsets: Any, into: Any) -> None: ...
def first_not_str(values: list) -> int: ...
def fold_summaries(tables: list, tools: list, prompts: list, texts: Union[list, Utf8Texts], finishes: list,
                   spans: Any = ...,
                   offsets: Any = ..., on_error: Any = ..., into: Optional[SummaryRows] = ...,
                   undeclared: str = ...) -> Any: ...
def summary_messages(rows: list, result: type = ...) -> list: ...
