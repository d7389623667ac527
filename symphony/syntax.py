"""Call syntaxes (SPEC §2.2): how a family writes its calls between a region's markers, as a
value with its own parameters. A table holds one (`Format.calls(...)`); compiling the table
turns it into the native syntax object that opens an assembler for each call region.

    CallSyntax.json()                          one {"name": .., "arguments": {..}} object
    CallSyntax.json_list()                     a bare JSON list of call objects, or content
    CallSyntax.tagged(Spelling.JSON, Placement.OWN_LINE)
                                               <function=NAME><parameter=KEY>value</parameter>..
    CallSyntax.keyed(Tags.PLAIN)               NAME<arg_key>K</arg_key><arg_value>V</arg_value>..
    CallSyntax.dsml()                          NAME"><｜DSML｜ parameter name="K" string="true">V..
    CallSyntax.xtml()                          NAME"<|sep|><|open|>argument key="K" type="T"<|sep|>V..
    CallSyntax.xml()                           NAME"><city>Paris</city><tags><item>a</item></tags>..
    CallSyntax.param_xml(ParamTags.MINICPM)    NAME"><param name="K">V</param>..</function> (MiniCPM5)
    CallSyntax.pythonic()                      [name(key=value, ...), ...] or one call per line
    CallSyntax.gemma()                         call:NAME{key:<|"|>text<|"|>,n:5,list:[..]} (Gemma 4)
    CallSyntax.forced(name)                    the whole output is that function's arguments
    CallSyntax.required()                      the whole output is a JSON list of calls
"""
import dataclasses
from enum import Enum

from symphony import _native


class Spelling(Enum):
    """How a tagged family's template writes values that are not strings (the grammar's concern;
    the parser reads both)."""

    JSON = "json"        # objects and lists as JSON, booleans and null as Python words (Qwen 3.5+)
    PYTHON = "python"    # every value through Python's str, objects as repr (Seed-OSS)


class Placement(Enum):
    """Where a tagged family's template puts a value between its parameter tags."""

    OWN_LINE = "own_line"   # on its own line: one newline after the opening tag and one before
                            # the closing tag are the template's (Qwen 3.5+, Qwen3-Coder)
    DIRECT = "direct"       # directly between the tags: nothing is the template's (Seed-OSS)


@dataclasses.dataclass(frozen=True)
class Tags:
    """The four tags of a keyed family, and what its template writes between them (`between`
    only matters to the grammar: the parser reads any whitespace there)."""

    key_open: str
    key_close: str
    value_open: str
    value_close: str
    between: str = ""

    def texts(self):
        return (self.key_open, self.key_close, self.value_open, self.value_close)


DSML_INVOKE_CLOSE = "</｜DSML｜ invoke>"
XTML_CALL_CLOSE = "<|close|>call<|sep|>"
XML_INVOKE_CLOSE = "</invoke>"
# The syntaxes whose call ends with a close marker of its own, and that marker.
OWN_CLOSE = {"dsml": DSML_INVOKE_CLOSE, "xtml": XTML_CALL_CLOSE, "xml": XML_INVOKE_CLOSE}


@dataclasses.dataclass(frozen=True)
class ParamTags:
    """A param-XML family's tags: a parameter's open tag (up to its key) and close tag, the call's
    own close marker (a table terminal), and the table terminal that ends a message's recipient
    header when the table opens the syntax on one (None: it does not)."""

    param_open: str
    param_close: str
    call_close: str
    header_end: object = None


ParamTags.MINICPM = ParamTags('<param name="', "</param>", "</function>")
ParamTags.MUSE = ParamTags('<atem:parameter name="', "</atem:parameter>", "</atem:invoke>", "<|message|>")

Tags.PLAIN = Tags("<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>")
Tags.LING = dataclasses.replace(Tags.PLAIN, between="\n")
Tags.HY4 = Tags("<arg_key:opensource>", "</arg_key:opensource>", "<arg_value:opensource>",
                "</arg_value:opensource>")


class CallSyntax:
    """A call syntax and its parameters. Immutable; compares by value."""

    __slots__ = ("kind", "params")

    def __init__(self, kind, **params):
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "params", tuple(sorted(params.items())))

    def __setattr__(self, name, value):
        raise AttributeError("CallSyntax is immutable")

    @classmethod
    def json(cls):
        return cls("json")

    @classmethod
    def json_list(cls):
        return cls("json_list")

    @classmethod
    def tagged(cls, spelling=Spelling.JSON, placement=Placement.OWN_LINE):
        return cls("tagged", spelling=Spelling(spelling), placement=Placement(placement))

    @classmethod
    def dsml(cls):
        return cls("dsml")

    @classmethod
    def xtml(cls):
        return cls("xtml")

    @classmethod
    def xml(cls):
        return cls("xml")

    @classmethod
    def param_xml(cls, tags=ParamTags.MINICPM):
        if not isinstance(tags, ParamTags):
            raise TypeError(f"CallSyntax.param_xml: tags must be a ParamTags, not {type(tags).__name__}")
        return cls("param_xml", tags=tags)

    @classmethod
    def pythonic(cls):
        return cls("pythonic")

    @classmethod
    def gemma(cls):
        return cls("gemma")

    @classmethod
    def forced(cls, function):
        if not isinstance(function, str):
            raise TypeError(f"CallSyntax.forced: the function name must be a str, not {type(function).__name__}")
        return cls("forced", function=function)

    @classmethod
    def required(cls):
        return cls("required")

    @classmethod
    def keyed(cls, tags=Tags.PLAIN):
        if not isinstance(tags, Tags):
            raise TypeError(f"CallSyntax.keyed: tags must be a Tags, not {type(tags).__name__}")
        return cls("keyed", tags=tags)

    def __getattr__(self, name):
        for key, value in object.__getattribute__(self, "params"):
            if key == name:
                return value
        raise AttributeError(name)

    def call_ends(self, fmt):
        """The terminals (by number, in `fmt`) that are a call's own end: their bytes become the
        call's ToolCallEnd rather than a dropped marker. A keyed call ends with the marker of a
        row that leaves the call for another kind of state (GLM's `</tool_call>`); a marker that
        opens the next call only cuts it off. A DSML or XML invoke, an XTML call and a MiniCPM
        function end with their own close marker (OWN_CLOSE). The other syntaxes end their calls themselves."""
        names = [name for name, _ in fmt.terminals]
        if self.kind in OWN_CLOSE or self.kind == "param_xml":
            close = self.tags.call_close if self.kind == "param_xml" else OWN_CLOSE[self.kind]
            return [i for i, (_, text) in enumerate(fmt.terminals) if text == close]
        if self.kind != "keyed":
            return []
        from symphony.format import Emits
        emits = dict(fmt.states)
        return sorted({names.index(terminal) for src, terminal, dst in fmt.transitions
                       if emits[src] == Emits.ARGUMENTS and emits[dst] != Emits.ARGUMENTS})

    def header_ends(self, fmt):
        """The terminals (by number, in `fmt`) that end a message's recipient header: a region
        they close before a call started was the template's header (param-XML, Muse Glimmer)."""
        if self.kind != "param_xml" or self.tags.header_end is None:
            return []
        return [i for i, (_, text) in enumerate(fmt.terminals) if text == self.tags.header_end]

    def native(self, call_ends=(), header_ends=()):
        """The compiled syntax object the native table holds."""
        if self.kind == "json":
            return _native.JsonSyntax(call_ends)
        if self.kind == "json_list":
            return _native.JsonListSyntax(call_ends)
        if self.kind == "tagged":
            return _native.TaggedSyntax(self.placement == Placement.OWN_LINE, call_ends)
        if self.kind == "keyed":
            return _native.KeyedSyntax(self.tags.texts(), call_ends)
        if self.kind == "dsml":
            return _native.DsmlSyntax(call_ends)
        if self.kind == "xtml":
            return _native.XtmlSyntax(call_ends)
        if self.kind == "xml":
            return _native.XmlSyntax(call_ends)
        if self.kind == "param_xml":
            return _native.ParamXmlSyntax((self.tags.param_open, self.tags.param_close), call_ends, header_ends)
        if self.kind == "pythonic":
            return _native.PythonicSyntax(call_ends)
        if self.kind == "gemma":
            return _native.GemmaSyntax(call_ends)
        if self.kind == "forced":
            return _native.ForcedSyntax(self.function, call_ends)
        if self.kind == "required":
            return _native.RequiredSyntax(call_ends)
        raise ValueError(f"no native syntax for {self!r}")

    def __eq__(self, other):
        return type(other) is CallSyntax and (other.kind, other.params) == (self.kind, self.params)

    def __hash__(self):
        return hash((self.kind, self.params))

    def __repr__(self):
        args = ", ".join(f"{key}={value!r}" for key, value in self.params)
        return f"CallSyntax.{self.kind}({args})"
