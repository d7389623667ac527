"""Type stub of the compiled core (built from pyx/)."""
from enum import IntEnum
from typing import Any, Optional, Sequence, Tuple, Union

from symphony.reasons import DropReason, FinishReason, MalformedReason, Other

class Text:
    text: str
    tokens: Optional[int]
    def __init__(self, text: str, tokens: Optional[int] = ...) -> None: ...
    @staticmethod
    def uncounted(text: str) -> Text: ...
    def is_nothing(self) -> bool: ...
    def to_dict(self) -> dict: ...

class Event:
    kind: str
    def to_dict(self) -> dict: ...

class Content(Event):
    text: str
    tokens: Optional[int]
    def __init__(self, text: str, tokens: Optional[int] = ...) -> None: ...

class Reasoning(Event):
    text: str
    tokens: Optional[int]
    def __init__(self, text: str, tokens: Optional[int] = ...) -> None: ...

class ReasoningStart(Event): ...
class ReasoningEnd(Event): ...

class ToolCallStart(Event):
    index: int
    id: str
    name: str
    source: Text
    def __init__(self, index: int, id: str, name: str, source: Union[Text, str]) -> None: ...

class ToolCallArguments(Event):
    index: int
    json: str
    source: Text
    def __init__(self, index: int, json: str, source: Union[Text, str]) -> None: ...

class ToolCallEnd(Event):
    index: int
    source: Text
    def __init__(self, index: int, source: Union[Text, str]) -> None: ...

class Dropped(Event):
    text: Text
    why: DropReason
    def __init__(self, text: Union[Text, str], why: Union[DropReason, str]) -> None: ...

class Malformed(Event):
    text: Text
    why: Union[MalformedReason, Other]
    def __init__(self, text: Union[Text, str], why: Union[MalformedReason, Other, str]) -> None: ...

class Finish(Event):
    reason: Union[FinishReason, Other]
    tool_calls: int
    reasoning_tokens: int
    def __init__(self, reason: Union[FinishReason, Other, str], tool_calls: int = ...,
                 reasoning_tokens: int = ...) -> None: ...

class TokenSpan:
    token_id: int
    start: int
    end: int
    continued: bool
    def __init__(self, token_id: int, start: int, end: int, continued: bool = ...) -> None: ...
    @staticmethod
    def partitions(spans: Any, text: Union[str, bytes]) -> bool: ...

class Prompt:
    text: str
    token_ids: Any
    def __init__(self, text: str = ..., token_ids: Any = ...) -> None: ...

class Delta:
    text: str
    token_ids: Any
    spans: Any
    def __init__(self, text: str, token_ids: Any = ..., spans: Any = ...) -> None: ...

class End:
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
    def __init__(self, strict: bool = False) -> None: ...
    def feed(self, piece: Union[str, bytes]) -> Optional[int]: ...
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
    def __init__(self, ends: Sequence[int] = ..., keys: int = ..., head: Optional[str] = ...,
                 tail: Optional[str] = ..., name_prefix: Optional[str] = ...,
                 name_index: Optional[str] = ..., name_word: bool = ...) -> None: ...
class JsonListSyntax(Syntax):
    keys: int
    otherwise: Optional[JsonSyntax]
    bare: bool
    def __init__(self, ends: Sequence[int] = ..., keys: int = ..., otherwise: Optional[JsonSyntax] = ...,
                 bare: bool = ...) -> None: ...
class TaggedSyntax(Syntax):
    own_line: bool
    def __init__(self, own_line: bool = ..., ends: Sequence[int] = ...) -> None: ...
class KeyedSyntax(Syntax):
    def __init__(self, tags: Sequence[str], ends: Sequence[int] = ...) -> None: ...
class InvokeSyntax(Syntax):
    typed_by_attribute: bool
    own_line: bool
    def __init__(self, tags: Sequence[str] = ..., typed_by_attribute: bool = ..., own_line: bool = ...,
                 ends: Sequence[int] = ...) -> None: ...
class XtmlSyntax(Syntax): ...
class XmlSyntax(Syntax): ...
class PythonicSyntax(Syntax):
    leading: bool
    def __init__(self, ends: Sequence[int] = ..., leading: bool = ...) -> None: ...
class ForcedSyntax(Syntax):
    function: str
    def __init__(self, function: str, ends: Sequence[int] = ...) -> None: ...
class RequiredSyntax(Syntax): ...

TAGGED_TAGS: tuple[str, ...]
DSML_TAGS: tuple[str, ...]
XTML_TAGS: tuple[str, ...]

class Kind(IntEnum):
    KIND_NONE = 0
    KIND_STRING = 1
    KIND_NULLABLE_STRING = 2
    KIND_INTEGER = 3
    KIND_ARRAY = 4
    KIND_OBJECT = 5

NULL_WORDS: tuple[str, str]
TOOL_SCHEMA_KEYS: tuple[str, str, str]

class Declared:
    def __init__(self, tools: Any = ...) -> None: ...
    def kind(self, function: str, param: str) -> Optional[Kind]: ...
    def kind_at(self, function: str, path: Sequence[str]) -> Optional[Kind]: ...
    def kind_code(self, function: bytes, param: bytes) -> int: ...
    def __contains__(self, function: object) -> bool: ...
    def __len__(self) -> int: ...

def value_json(text: str, kind: Optional[int] = ...) -> str: ...
def python_literal(text: str) -> Optional[str]: ...
def reads_back(text: str) -> bool: ...
def json_string_body(text: Union[str, bytes]) -> Union[str, bytes]: ...

class Table:
    name: str
    markers: MarkerSet
    n_states: int
    n_terminals: int
    syntax: Optional[Syntax]
    opener: Optional[str]
    call_region_states: tuple
    def __init__(self, name: str, terminals: Sequence[str], ignored: Sequence[bool], emits: Sequence[int],
                 transitions: Sequence[Sequence[int]], syntax: Optional[Syntax], opener: Optional[str]) -> None: ...

DEFAULT_BUFFER_LIMIT: int

class Engine:
    table: Table
    tools: Any
    format: str
    failed: bool
    counting: bool
    buffer_limit: Optional[int]
    held: int
    def __init__(self, table: Table, tools: Any = ..., buffer_limit: Optional[int] = ...) -> None: ...
    def feed(self, input: Union[Prompt, Delta, End], /) -> list: ...
    def feed_token(self, text: str, token_id: int) -> list: ...
    def parse(self, output: str, prompt: Optional[str] = ..., finish: str = ...) -> list: ...
    def message(self, output: Union[str, Delta], prompt: Optional[str] = ..., finish: str = ...,
                choice: int = ...) -> tuple: ...

class SummaryRows: ...

class ArrowRows(SummaryRows):
    rows: int
    def __init__(self, seal_bytes: int = ...) -> None: ...
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
                   offsets: Any = ..., on_error: Any = ..., into: Optional[SummaryRows] = ...) -> Any: ...
def summary_messages(rows: list, result: type = ...) -> list: ...
