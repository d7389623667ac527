"""Call syntaxes (SPEC §2.2): how a family writes its calls between a region's markers, as a
value with its own parameters. A table holds one (`Format.calls(...)`); compiling the table
turns it into the native syntax object that opens an assembler for each call region.

    CallSyntax.json()                          one {"name": .., "arguments": {..}} object
    CallSyntax.json(CallObject.ARGUMENTS, head="<｜tool▁sep｜>")
                                               NAME<｜tool▁sep｜>{..arguments..}
    CallSyntax.json(CallObject.ARGUMENTS, head="<|tool_call_argument_begin|>", name_prefix="functions.",
                    name_index=":", bare_counter=True, head_id=True)
                                               functions.NAME:N<|tool_call_argument_begin|>{..}, or N<|..|>{..}
                                               naming the request's only tool, the head the call's id (Kimi K2)
    CallSyntax.json_list()                     a bare JSON list of call objects, or content
    CallSyntax.json_list(CallObject.NAMED)     [{"NAME": {..}}, ..], or content
    CallSyntax.json(CallObject.ARGUMENTS)      NAME{..arguments..} (the name up to the object's `{`)
    CallSyntax.json(or_list=True)              {..call..}, or a list of them: [{..}, {..}] (Qwen2.5-Coder)
    CallSyntax.json_list(otherwise=CallSyntax.json(CallObject.ARGUMENTS))
                                               [{..}, ..], or else one NAME{..} call (Mistral)
    CallSyntax.json_list(bare=True)            {..}; {..} (Llama 3), the list's `[` not written
    CallSyntax.json_list(prose=True)           text, and [{..}, ..] lists in it, also fenced (xLAM)
    CallSyntax.json_list(or_object=True)       [{..}, ..], or one {..} with no list (Cohere Command)
    CallSyntax.json_list(bare=True)            {..call..}\n{..call..} (MiniMax M1, no list around them)
    CallSyntax.tagged(Spelling.JSON, Placement.OWN_LINE)
                                               <function=NAME><parameter=KEY>value</parameter>..
    CallSyntax.tagged(broken_tags=True)        the same, also Step-3.5's `<function NAME>`, `<function=NAME\n`..
    CallSyntax.keyed(Tags.PLAIN)               NAME<arg_key>K</arg_key><arg_value>V</arg_value>..
    CallSyntax.keyed(Tags.HY4, also=(Tags.PLAIN,))
                                               the same in either spelling (Hy3)
    CallSyntax.dsml()                          NAME"><｜DSML｜ parameter name="K" string="true">V.. or NAME">{..}
    CallSyntax.dsml(DSML_V3_2)                 NAME"><｜DSML｜parameter name="K" string="true">V..
    CallSyntax.dsml(GCML)                      NAME"><｜GCML｜parameter name="K" string="true">V.. (GigaChat 3.5)
    CallSyntax.dsml(DSML_V3_2, spaced=True)    the same, also whitespace runs in its tags (`invoke  name="F" >`)
    CallSyntax.invoke(Placement.DIRECT)        NAME"><parameter name="K">V</parameter>..
    CallSyntax.invoke(loose=True)              the same, also name='K', name=K, name = "K" (MiniMax M2)
    CallSyntax.invoke(loose=True, spaced=True) also whitespace runs in its tags (`<invoke  name="F" >`, dots)
    CallSyntax.invoke(Placement.OWN_LINE, parameter='<rfl:parameter name="', head_end=HEAD)
                                               NAME HEAD<rfl:parameter name="K">\nV\n</rfl:parameter>.. (Beam)
    CallSyntax.xtml()                          NAME"<|sep|><|open|>argument key="K" type="T"<|sep|>V..
    CallSyntax.xtml(spaced=True)               the same, also spaced as decoded (`<|open|> argument key="K" …`)
    CallSyntax.xml()                           NAME"><city>Paris</city><tags><item>a</item></tags>..
    CallSyntax.param_xml(ParamTags.MINICPM)    NAME"><param name="K">V</param>..</function> (MiniCPM5)
    CallSyntax.pythonic()                      [name(key=value, ...), ...] or one call per line
    CallSyntax.pythonic(prose=True)            text, and [name(key=value, ...), ...] lists in it (Llama 4)
    CallSyntax.pythonic(slips=True, objects=CallObject.CALL)
                                               also what LFM2 writes: slips Python refuses, JSON call objects
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


class CallObject(Enum):
    """What a JSON syntax's object is (the outline's `keys`)."""

    CALL = "call"                # {"name": .., "arguments" (or "parameters"): {..}}
    CALL_OR_ARGS = "call_or_args"  # the same, "args" also the arguments (Inkling)
    NAMED = "named"              # {"NAME": {..}}: the first key names the call (Apertus)
    ARGUMENTS = "arguments"      # the arguments themselves, the call named by the head (DeepSeek V3)

    def native(self):
        return {CallObject.CALL: _native.OlKeys.OL_KEYS_CALL, CallObject.CALL_OR_ARGS: _native.OlKeys.OL_KEYS_ARGS,
                CallObject.NAMED: _native.OlKeys.OL_KEYS_NAMED,
                CallObject.ARGUMENTS: _native.OlKeys.OL_KEYS_ARGUMENTS}[self]


@dataclasses.dataclass(frozen=True)
class Tags:
    """The four tags of a keyed family, and what its template writes between them (`between`:
    the test corpus writes it, and it tells Ling's tags from GLM's plain ones; the parser and the
    grammar take any whitespace there)."""

    key_open: str
    key_close: str
    value_open: str
    value_close: str
    between: str = ""

    def texts(self):
        return (self.key_open, self.key_close, self.value_open, self.value_close)


DSML_V4_1 = "｜DSML｜ "      # DeepSeek V4.1 spells its DSML tags with a space after the mark
DSML_V3_2 = "｜DSML｜"       # DeepSeek V3.2 and V4 without
GCML = "｜GCML｜"            # GigaChat 3.5's GCML: DSML's tags under its own mark


def dsml_tags(mark=DSML_V4_1):
    """A DSML spelling's parameter tag (up to the key's quote), its close tag and the invoke's
    close tag (the table's marker that ends a call)."""
    return (f'<{mark}parameter name="', f"</{mark}parameter>", f"</{mark}invoke>")


DSML_INVOKE_CLOSE = dsml_tags(DSML_V4_1)[2]
XTML_CALL_CLOSE = "<|close|>call<|sep|>"
XML_INVOKE_CLOSE = "</invoke>"
# The syntaxes whose call ends with a close marker of its own, and that marker.
OWN_CLOSE = {"dsml": DSML_INVOKE_CLOSE, "xtml": XTML_CALL_CLOSE, "xml": XML_INVOKE_CLOSE}


@dataclasses.dataclass(frozen=True)
class ParamTags:
    """A param-XML family's tags: a parameter's open tag (up to its key) and close tag, the call's
    own close marker (a table terminal), and the table terminal that ends a message's recipient
    header when the table opens the syntax on one (None: it does not). `doubled_names`: a call
    named `X.X` is the tool `X` when the request declares `X` and not `X.X` (Muse's template
    writes a bare tool name's recipient `X.*`, and the model names its invoke `X.X`).
    `param_spellings`: other spellings of the parameter's open tag, read as it is (the parser's;
    a grammar writes the first). `wrapper`: the open and close tag of an element the model may
    write around the parameters, read as the call's markup (the parser's; a grammar writes none).
    `references`: a value outside a CDATA section is XML text: its character references (`&amp;`,
    `&#60;`) are read as their characters (a grammar writes none)."""

    param_open: str
    param_close: str
    call_close: str
    header_end: object = None
    doubled_names: bool = False
    param_spellings: tuple = ()
    wrapper: tuple = ()
    references: bool = False

    def param_opens(self):
        """Every spelling of the parameter's open tag, the family's own first."""
        return (self.param_open,) + tuple(self.param_spellings)


# MiniCPM5 writes the space between a tag's name and its `name=` attribute; its outputs also come
# with the space left out (`<functionname="…">`, `<paramname="…">`) or spelled with the byte-level
# tokenizer's visible space `Ġ` (U+0120) where a detokenizer did not map it back. The tags are the
# same tags in every spelling.
def collapsed_spellings(tag):
    """The other spellings of a MiniCPM5 tag `<NAME name="`: without its space, and with `Ġ`."""
    return (tag.replace(" ", "", 1), tag.replace(" ", "\u0120", 1))


ParamTags.MINICPM = ParamTags('<param name="', "</param>", "</function>",
                              param_spellings=collapsed_spellings('<param name="'),
                              wrapper=("<arguments>", "</arguments>"), references=True)
ParamTags.MUSE = ParamTags('<atem:parameter name="', "</atem:parameter>", "</atem:invoke>", "<|message|>",
                           doubled_names=True)

Tags.PLAIN = Tags("<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>")
Tags.LING = dataclasses.replace(Tags.PLAIN, between="\n")
Tags.HY4 = Tags("<arg_key:opensource>", "</arg_key:opensource>", "<arg_value:opensource>",
                "</arg_value:opensource>")


def _loose_option(what, parameter, loose):
    """The params `loose` adds to a syntax (none when false); ValueError naming `what` where its
    parameter tag does not run to its attribute's `="`, which a loose spelling shortens."""
    if loose and not parameter.endswith('="'):
        raise ValueError(f"{what}: a loose parameter tag runs to its attribute's `=\"`")
    return {"loose": True} if loose else {}


class CallSyntax:
    """A call syntax and its parameters. Immutable; compares by value."""

    __slots__ = ("kind", "params")

    # What a call of each kind looks like (the docs' table of call syntaxes).
    SHAPES = {
        "json": 'one `{"name", "arguments"}` object, or `NAME` then the arguments object',
        "json_list": "a JSON list of call objects, or bare objects one after another",
        "tagged": "`<function=NAME><parameter=KEY>value</parameter>`",
        "keyed": "`NAME<arg_key>K</arg_key><arg_value>V</arg_value>`",
        "dsml": 'DeepSeek\'s `<｜DSML｜invoke name="…">` with typed `parameter`s',
        "invoke": '`<invoke name="…">` (or a name in a header, Beam\'s) with `<parameter name="…">`',
        "xtml": 'Kimi K3\'s `<|open|>argument key="K" type="T"<|sep|>V`',
        "xml": "element trees, `<city>Paris</city>`",
        "param_xml": '`<param name="…">` (or Muse\'s `<atem:parameter name="…">`), CDATA strings',
        "pythonic": "Python calls, `[f(a=1), g()]`",
        "gemma": "Gemma's object notation, `call:NAME{key:<|\"|>text<|\"|>}`",
    }

    def __init__(self, kind, **params):
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "params", tuple(sorted(params.items())))

    def __setattr__(self, name, value):
        raise AttributeError("CallSyntax is immutable")

    def __reduce__(self):
        # pickled by value (a table crosses to symphony.batch's worker processes)
        return _call_syntax, (self.kind, self.params)

    @classmethod
    def json(cls, obj=CallObject.CALL, head=None, tail=None, name_prefix=None, name_index=None, name_word=False,
             bare_counter=False, head_id=None, or_list=False, head_restarts=False, needs_arguments=False):
        """One JSON object per call region. `head`: a separator the template writes before the
        object (what precedes it is the call's head: the name, for CallObject.ARGUMENTS; with no
        `head` an arguments object's name is the text before its `{`); `tail`: what it writes
        after the object (a closing fence), the call's end. A head that is a call id (Kimi K2's
        `functions.NAME:N`) names the call without the id's `name_prefix` and without
        `name_index` (one character) and the number after it, and a head without them names none
        (`functions.f.0`, no call id: the call is Malformed, as nameless); with `name_word` the name is the
        head's first word, up to whitespace, a `<` or a `[` (gpt-oss's `functions.NAME
        <|constrain|>json`, Mistral v11's `NAME[CALL_ID]ID`). With `bare_counter`, a head that is
        only the call number (Kimi K2's `0`) names the request's only function; among several, the
        one whose parameters name every key of the arguments' object, once it is whole; with no
        tools, or none or several fitting, it names none. `head_id` says where a head that names
        the call writes the model's own call id, which is then the call's id (else it is
        `call_<index>`): `True`, the head is the id (Kimi K2's `functions.NAME:N`); a text, the id
        follows it in the head (Mistral v11's `[CALL_ID]`; a head without it writes none). With
        `or_list`, a region may also hold a JSON list of such call objects (Qwen2.5-Coder's
        `<tools>[{..}, {..}]</tools>`); the one object is the family's own form (what a grammar
        writes). With `head_restarts`, the table's row from a call to the
        next call (on the call's opener, a recovery) is taken only where no arguments are being
        written: the opener written again in a head (before its separator) begins the head anew,
        the head before it a call that never started (Kimi K2's
        `<|tool_call_begin|>functions.a:0<|tool_call_begin|>functions.b:0<|tool_call_argument_begin|>`
        calls `b`), and after the arguments' object it opens the next call; inside the arguments
        it is their text. With `needs_arguments`, a call object that closes with no arguments
        member (`{"name": "f"}`) is no call, where both incumbents read none (GigaChat 3)."""
        obj = CallObject(obj)
        for what, text in (("head", head), ("tail", tail), ("name_prefix", name_prefix), ("name_index", name_index)):
            if text is not None and (not isinstance(text, str) or not text):
                raise ValueError(f"CallSyntax.json: {what} must be a non-empty str or None")
        if (name_prefix or name_index or name_word) and obj != CallObject.ARGUMENTS:
            raise ValueError("CallSyntax.json: only a head that names the call has a name prefix or index")
        if name_index is not None and (len(name_index) != 1 or not name_index.isascii()):
            raise ValueError("CallSyntax.json: name_index is one ASCII character")
        if bare_counter and name_index is None:
            raise ValueError("CallSyntax.json: a bare counter is a head's call number alone (it needs a name_index)")
        if head_id is not None and (obj != CallObject.ARGUMENTS or not (head_id is True or isinstance(head_id, str))
                                    or head_id == ""):
            raise ValueError("CallSyntax.json: head_id is True or a non-empty str, for a head that names the call")
        if head_restarts and head is None:
            raise ValueError("CallSyntax.json: only a head can restart")
        if or_list and (obj == CallObject.ARGUMENTS or head is not None or tail is not None):
            raise ValueError("CallSyntax.json: a list holds whole call objects, with no head or tail")
        if needs_arguments and obj != CallObject.CALL:
            raise ValueError("CallSyntax.json: only a call object has an arguments member to need")
        if or_list:
            return cls("json", object=obj, or_list=True)
        if obj == CallObject.CALL and head is None and tail is None:
            return cls("json", needs_arguments=True) if needs_arguments else cls("json")
        named = {"head_id": head_id} if head_id is not None else {}
        if needs_arguments:
            named["needs_arguments"] = True
        if head_restarts:
            named["head_restarts"] = True
        if name_prefix is None and name_index is None and not name_word:
            return cls("json", object=obj, head=head, tail=tail, **named)
        if name_word:
            named["name_word"] = True
        if bare_counter:
            named["bare_counter"] = True
        return cls("json", object=obj, head=head, tail=tail, name_prefix=name_prefix, name_index=name_index, **named)

    @classmethod
    def json_list(cls, obj=CallObject.CALL, otherwise=None, bare=False, prose=False, or_object=False,
                  python_literals=False, next_list=False):
        """A JSON list of call objects; a region that holds no list is content, or (`otherwise`, a
        `CallSyntax.json`) one call of that syntax. `bare`: the region is the list, with no `[`
        of its own (objects separated by `,` or `;`; a `]` ends it). `prose`: the region is text
        in which a list opens wherever one of call objects is written (its first key names the
        call or its arguments), also in a ```json fence, outside Markdown code; a bare list's
        objects open one too (xLAM, Llama 3). `or_object`: a region that opens with `{`
        (whitespace aside) holds one call object, not in a list (Mistral before v11's
        `[TOOL_CALLS] {..}`, Cohere Command 4's `<|START_ACTION|>{..}`). `python_literals`: in prose
        a first key single-quoted (`{'name'`) opens a list too (Llama 3.2, whose models write a call
        object as a Python dict at times; every list's objects may be Python dicts, as every JSON
        call's: single-quoted keys and strings, and values Python's `True`, `False` or `None`,
        written in the arguments' JSON as JSON strings and `true`, `false`, `null`, the source
        keeping the model's bytes). `next_list`: a marker whose row leads
        from the list's state into it again (the region's opener written again) opens the next
        region outside the list: after its `]`, text between or none (Granite 3's second
        `<|tool_call|>[…]`), or before it (as any region's opener written again); inside the
        list it is the list's text."""
        obj = CallObject(obj)
        if obj == CallObject.ARGUMENTS:
            raise ValueError("CallSyntax.json_list: a list holds call objects, not bare arguments")
        if otherwise is not None and (not isinstance(otherwise, CallSyntax) or otherwise.kind != "json"):
            raise ValueError("CallSyntax.json_list: otherwise must be a CallSyntax.json")
        if prose and (obj == CallObject.NAMED or otherwise is not None):
            raise ValueError("CallSyntax.json_list: a list in prose is one of call objects, and holds nothing else")
        params = {} if obj == CallObject.CALL else {"object": obj}
        if otherwise is not None:
            params["otherwise"] = otherwise
        if bare:
            params["bare"] = True
        if prose:
            params["prose"] = True
        if or_object:
            if bare or prose:
                raise ValueError("CallSyntax.json_list: or_object is a region that holds a list or one object")
            params["or_object"] = True
        if python_literals:
            params["python_literals"] = True
        if next_list:
            if bare or prose:
                raise ValueError("CallSyntax.json_list: next_list follows a list's `]`")
            params["next_list"] = True
        return cls("json_list", **params)

    @classmethod
    def tagged(cls, spelling=Spelling.JSON, placement=Placement.OWN_LINE, broken_tags=False):
        """`<function=NAME>` calls of `<parameter=KEY>` tags. `broken_tags`: the tags Step-3.5
        writes broken are read as the tags it meant, as SGLang's step3p5 detector reads them (its
        qwen3_coder and vLLM's parsers read none): a function name or key ends at a newline too
        where it is one the request declares (`<function=NAME\n`), a function tag without its `=`
        is one where what follows names a declared tool (`<function NAME>`, `<functionNAME>`,
        also after a call in a block, shapes.functions_in_block), and a tag's own name written
        again counts once (`<parameter=parameter=KEY>`); read, never written."""
        extra = {"broken_tags": True} if broken_tags else {}
        return cls("tagged", spelling=Spelling(spelling), placement=Placement(placement), **extra)

    def reads_broken_tags(self):
        """Whether a tagged syntax reads Step-3.5's broken tags."""
        return self.kind == "tagged" and dict(self.params).get("broken_tags", False)

    @classmethod
    def dsml(cls, mark=DSML_V4_1, spaced=False):
        """DeepSeek's DSML invokes, spelled with `mark` (DSML_V4_1, DSML_V3_2, or GigaChat 3.5's
        GCML) in every tag; an invoke's body may be a JSON object instead of its parameters (the
        DSML models write both). `spaced`: the tags are also read with runs of whitespace where the
        template writes one space or none (`<｜DSML｜invoke  name="f" >`, `<｜DSML｜parameter
        name="k"\n string="true" >`), in the parameter tags and in the invoke tag where the table
        spells its opener also up to its tag name (shapes.spaced_invokes), as SGLang's DSML and
        GCML detectors read them; read, never written."""
        if mark not in (DSML_V4_1, DSML_V3_2, GCML):
            raise ValueError(f"CallSyntax.dsml: no DSML spelling {mark!r}")
        extra = {"spaced": True} if spaced else {}
        return cls("dsml", **extra) if mark == DSML_V4_1 else cls("dsml", mark=mark, **extra)

    def dsml_tags(self):
        """A DSML syntax's parameter tag, its close tag and the invoke's close tag."""
        return dsml_tags(dict(self.params).get("mark", DSML_V4_1))

    @classmethod
    def invoke(cls, placement=Placement.DIRECT, parameter="<parameter name=\"",
               parameter_close="</parameter>", invoke_close=XML_INVOKE_CLOSE, loose=False, head_end=None,
               spaced=False):
        """DSML's invoke shape with other tag spellings and no attributes on the parameters:
        values typed by the request's tools (MiniMax M2 and dots write `<invoke name="…">` with
        `<parameter name="…">` children). `invoke_close` is the table's marker that ends a call.
        `loose`: the names' attributes are also read single-quoted (`name='x'`), unquoted
        (`name=x`) and with whitespace around their `=`, in the parameter tags and in the invoke
        tag where the table spells its opener also up to the attribute's name (shapes.loose_invokes);
        read, never written (the grammar writes `name="x"`). `spaced`: as CallSyntax.dsml's, runs
        of whitespace between a tag's name and its attribute and before its end (`<invoke  name="x" >`,
        shapes.spaced_invokes); read, never written. `head_end`: the call is named in a
        header rather than an invoke tag: the region (a table marker such as Beam's ` to=` opens
        it) starts with the name, unquoted, and `head_end` ends it (`NAME<|channel|>analysis
        <|constrain|>xml<|message|>` then the parameters)."""
        for what, text in (("parameter", parameter), ("parameter_close", parameter_close),
                           ("invoke_close", invoke_close)):
            if not isinstance(text, str) or not text:
                raise ValueError(f"CallSyntax.invoke: {what} must be a non-empty str")
        extra = _loose_option("CallSyntax.invoke", parameter, loose)
        if head_end is not None and (not isinstance(head_end, str) or not head_end):
            raise ValueError("CallSyntax.invoke: head_end must be a non-empty str or None")
        if head_end is not None and loose:
            raise ValueError("CallSyntax.invoke: a call named in a header has no name attribute to write loosely")
        if head_end is not None:
            extra["head_end"] = head_end
        if spaced:
            if head_end is not None or not parameter.endswith(' name="'):
                raise ValueError("CallSyntax.invoke: a spaced parameter tag runs to ` name=\"` (and names its call)")
            extra["spaced"] = True
        return cls("invoke", placement=Placement(placement), parameter=parameter,
                   parameter_close=parameter_close, invoke_close=invoke_close, **extra)

    @classmethod
    def xtml(cls, spaced=False):
        """Kimi K3's XTML calls. `spaced`: the argument tags are also read as a detokenizer writes
        them when it decodes with spaces between special tokens (`<|open|> argument key="K"
        type="T" <|sep|>`, `<|close|> argument <|sep|>`), and the call tag with whitespace before its
        `<|sep|>`, where the table spells the call's opener and close so
        (shapes.spaced_special_tokens), as vLLM's kimi_k3 reads them; read, never written."""
        return cls("xtml", spaced=True) if spaced else cls("xtml")

    @classmethod
    def xml(cls):
        return cls("xml")

    @classmethod
    def param_xml(cls, tags=ParamTags.MINICPM, loose=False):
        """`<param name=…>` values typed by the tools (`tags`); `loose`: names' attributes are also
        read single-quoted, unquoted and spaced around their `=`, as CallSyntax.invoke(loose=True)
        reads them, in the parameter tags and in the call tag as far as the table spells its opener
        otherwise (MiniCPM5: `<function name='`, the single-quoted name only)."""
        if not isinstance(tags, ParamTags):
            raise TypeError(f"CallSyntax.param_xml: tags must be a ParamTags, not {type(tags).__name__}")
        return cls("param_xml", tags=tags, **_loose_option("CallSyntax.param_xml", tags.param_open, loose))

    @classmethod
    def pythonic(cls, prose=False, slips=False, objects=None):
        """Python calls with keyword arguments, their values read as Python reads a call's
        arguments. `prose`: the region is text in which a call list opens wherever `[`, a name and
        its `(` are written (outside Markdown code), and is text again after its `]` (Llama 4);
        else the region holds calls, one per line or in a list. `slips`: what the model writes that
        Python refuses is read as meant: a raw line break in a string, a zero-padded integer, and
        quotes of a string's kind left unescaped where one reading closes the call (LFM2).
        `objects`: a CallObject: a `{` where a call should begin starts a JSON call object of that
        kind (LFM2 writes `[{"name": …, "arguments": …}]` too)."""
        params = {}
        if prose:
            params["prose"] = True
        if slips:
            params["slips"] = True
        if objects is not None:
            objects = CallObject(objects)
            if objects == CallObject.ARGUMENTS:
                raise ValueError("CallSyntax.pythonic: a call object names its call, it is no bare arguments object")
            params["objects"] = objects
        return cls("pythonic", **params)

    @classmethod
    def gemma(cls, quote=None):
        """Gemma's object notation; `quote` the string quote where it is not Gemma 4's `<|"|>`
        (FunctionGemma's `<escape>`)."""
        if quote is None:
            return cls("gemma")
        if not isinstance(quote, str) or not quote:
            raise ValueError("CallSyntax.gemma: quote must be a non-empty str")
        return cls("gemma", quote=quote)

    def gemma_quote(self):
        """A Gemma syntax's string quote."""
        return dict(self.params).get("quote", _native.GEMMA_QUOTE)

    @classmethod
    def forced(cls, function):
        if not isinstance(function, str):
            raise TypeError(f"CallSyntax.forced: the function name must be a str, not {type(function).__name__}")
        return cls("forced", function=function)

    @classmethod
    def required(cls):
        return cls("required")

    @classmethod
    def keyed(cls, tags=Tags.PLAIN, also=(), type_tags=None, objects=False, escaped_newlines=False):
        """`tags` the family's spelling of the four tags (the one its grammar writes); `also` more
        spellings read the same way (Hy3: its preview tokenizer's bare tags beside the shipped
        `:opensource` ones), each tag standing for the same tag of `tags`. Read, never written
        by the grammar: `type_tags`, the open and close of a tag between a key and its value
        whose JSON type name types the value where the request declares none; `objects`, a JSON
        call object `{"name": .., "arguments": ..}` where a call's name begins, or a JSON list of
        them, each a call (K2-Horizon's template writes these forms where a request asks for them);
        `escaped_newlines`, a `\\n` written as two characters (a backslash and an `n`) read as the
        newline it stands for between the tags and after the name (GLM-4.5's output escaped once
        more, as SGLang's glm45 detector reads it)."""
        also = tuple(also)
        for spelling in (tags,) + also:
            if not isinstance(spelling, Tags):
                raise TypeError(f"CallSyntax.keyed: tags must be a Tags, not {type(spelling).__name__}")
        params = {"tags": tags}
        if also:
            params["also"] = also
        if type_tags is not None:
            type_tags = tuple(type_tags)
            if len(type_tags) != 2 or not all(isinstance(t, str) and t for t in type_tags):
                raise ValueError("CallSyntax.keyed: type_tags are an open and a close tag, both non-empty")
            params["type_tags"] = type_tags
        if objects:
            params["objects"] = True
        if escaped_newlines:
            params["escaped_newlines"] = True
        return cls("keyed", **params)

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
        function end with their own close marker (OWN_CLOSE; an invoke or param-XML syntax names
        its own), in any of its spellings (Format.spelled_also). The other syntaxes end their
        calls themselves."""
        names = [name for name, _ in fmt.terminals]
        if self.kind in OWN_CLOSE or self.kind in ("invoke", "param_xml"):
            close = (self.invoke_close if self.kind == "invoke" else
                     self.tags.call_close if self.kind == "param_xml" else
                     self.dsml_tags()[2] if self.kind == "dsml" else OWN_CLOSE[self.kind])
            texts = dict(fmt.terminals)
            return [i for i, (name, text) in enumerate(fmt.terminals)
                    if text == close or texts.get(fmt.spellings.get(name)) == close]
        if self.kind != "keyed":
            return []
        emits = dict(fmt.states)
        arguments = _native.Emits.EM_ARGUMENTS
        return sorted({names.index(terminal) for src, terminal, dst in fmt.transitions
                       if emits[src] == arguments and emits[dst] != arguments})

    def own_end_tag(self, fmt):
        """The tag a call's assembler reads as the call's end where none of `fmt`'s markers spells
        it (a tagged call's `</function>`), or None: written again right after it in its block,
        whitespace aside, it is one with it (the engine's end_tag_again)."""
        function_close = _native.TAGGED_TAGS[3]
        if self.kind != "tagged" or any(text == function_close for _, text in fmt.terminals):
            return None
        return function_close

    def call_starts(self, fmt):
        """The terminals (by number, in `fmt`) that are a call's own first tag: a region they open
        reads them as the call's (a tagged function tag that opens a call without its block, or
        spelled without its `=`; a loose syntax's opener spelled otherwise: up to its attribute's
        name, `<invoke name`, or with the value's other quote, `<function name='`)."""
        params = dict(self.params)
        if self.kind in ("invoke", "param_xml", "dsml") and (params.get("loose") or params.get("spaced")):
            # loose: the opener spelled up to the attribute's name, or with the value's other quote;
            # spaced: up to its tag name and one whitespace byte
            texts = dict(fmt.terminals)
            return [i for i, (name, text) in enumerate(fmt.terminals)
                    if name in fmt.spellings and texts[fmt.spellings[name]] != text
                    and ((params.get("loose") and texts[fmt.spellings[name]] in (text + '="', text[:-1] + '"'))
                         or (params.get("spaced") and text[-1:] in _native.AT_SPACES
                             and texts[fmt.spellings[name]] == text[:-1] + ' name="'))]
        if self.kind != "tagged":
            return []
        # (and the tag spelled without its `=`, where a table of broken tags reads it:
        # shapes.functions_in_block)
        return [i for i, (_, text) in enumerate(fmt.terminals) if text in (_native.TAGGED_TAGS[0],
                                                                             _native.TAGGED_TAGS[0][:-1])]

    def call_openers(self, fmt):
        """The terminals (by number, in `fmt`) whose row leads from a call into the next one, and
        which a value may hold as its text until its own close tag decides (a JSON call
        whose head restarts reads them as its arguments' text; so does a list of `next_list`, inside
        the list); an attribute call that never started leaves them to the next call."""
        if self.kind not in ("tagged", "invoke", "dsml", "param_xml", "xtml", "keyed") \
                and not (self.kind == "json" and dict(self.params).get("head_restarts")) \
                and not (self.kind == "json_list" and dict(self.params).get("next_list")):
            return []
        names = [name for name, _ in fmt.terminals]
        emits = dict(fmt.states)
        arguments = _native.Emits.EM_ARGUMENTS
        return sorted({names.index(terminal) for src, terminal, dst in fmt.transitions
                       if emits[src] == arguments and emits[dst] == arguments})

    def header_ends(self, fmt):
        """The terminals (by number, in `fmt`) that end a message's recipient header: a region
        they close before a call started was the template's header (param-XML, Muse Glimmer)."""
        if self.kind != "param_xml" or self.tags.header_end is None:
            return []
        return [i for i, (_, text) in enumerate(fmt.terminals) if text == self.tags.header_end]

    def native(self, call_ends=(), header_ends=(), controls=(), starts=(), openers=()):
        """The compiled syntax object the native table holds (`controls`: the texts of the table's
        control tokens; `starts`, `openers`: see call_starts and call_openers)."""
        if self.kind == "json":
            obj = dict(self.params).get("object", CallObject.CALL)
            params = dict(self.params)
            if params.get("or_list"):
                one = _native.JsonSyntax((), obj.native())
                return _native.JsonListSyntax(call_ends, obj.native(), one, or_list=True)
            return _native.JsonSyntax(call_ends, obj.native(), params.get("head"), params.get("tail"),
                                      params.get("name_prefix"), params.get("name_index"),
                                      params.get("name_word", False), params.get("bare_counter", False),
                                      params.get("head") in controls, _native_head_id(params.get("head_id")),
                                      openers=openers, needs_arguments=params.get("needs_arguments", False))
        if self.kind == "json_list":
            otherwise = dict(self.params).get("otherwise")
            return _native.JsonListSyntax(call_ends, dict(self.params).get("object", CallObject.CALL).native(),
                                          otherwise.native() if otherwise is not None else None,
                                          dict(self.params).get("bare", False), dict(self.params).get("prose", False),
                                          or_object=dict(self.params).get("or_object", False),
                                          python_literals=dict(self.params).get("python_literals", False),
                                          openers=openers)
        if self.kind == "tagged":
            return _native.TaggedSyntax(self.placement == Placement.OWN_LINE, call_ends, starts, openers,
                                        self.reads_broken_tags())
        if self.kind == "keyed":
            spellings = (self.tags,) + dict(self.params).get("also", ())
            return _native.KeyedSyntax(tuple(text for tags in spellings for text in tags.texts()), call_ends,
                                       dict(self.params).get("type_tags", ()), dict(self.params).get("objects", False),
                                       ("\\n",) if dict(self.params).get("escaped_newlines") else (),
                                       openers=openers)
        if self.kind == "dsml":
            return _native.InvokeSyntax(self.dsml_tags()[:2], True, False, call_ends, json_body=True, starts=starts,
                                        spaced=dict(self.params).get("spaced", False), openers=openers)
        if self.kind == "invoke":
            return _native.InvokeSyntax((self.parameter, self.parameter_close), False,
                                        self.placement == Placement.OWN_LINE, call_ends, starts=starts,
                                        loose=dict(self.params).get("loose", False),
                                        head_end=dict(self.params).get("head_end"),
                                        spaced=dict(self.params).get("spaced", False), openers=openers)
        if self.kind == "xtml":
            return _native.XtmlSyntax(call_ends, dict(self.params).get("spaced", False), openers=openers)
        if self.kind == "xml":
            return _native.XmlSyntax(call_ends)
        if self.kind == "param_xml":
            return _native.ParamXmlSyntax((self.tags.param_open, self.tags.param_close), call_ends, header_ends,
                                          self.tags.doubled_names, self.tags.param_spellings, starts,
                                          dict(self.params).get("loose", False), self.tags.wrapper,
                                          self.tags.references, openers=openers)
        if self.kind == "pythonic":
            params = dict(self.params)
            literal = _native.LiteralSyntax.LIT_ARGUMENT | (_native.LiteralSyntax.LIT_SLIPS if params.get("slips") else 0)
            objects = params.get("objects")
            return _native.PythonicSyntax(call_ends, params.get("prose", False), literal,
                                          objects.native() if objects is not None else -1)
        if self.kind == "gemma":
            return _native.GemmaSyntax(call_ends, self.gemma_quote())
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


def _call_syntax(kind, params):
    return CallSyntax(kind, **dict(params))


def _native_head_id(head_id):
    """CallSyntax.json's `head_id` as JsonSyntax takes it: "" where the head is the id, the text
    the id follows, or None."""
    return "" if head_id is True else head_id
