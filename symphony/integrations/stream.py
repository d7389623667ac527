"""One request's symphony parser in the two roles a serving engine splits parsing into.

vLLM and SGLang run a reasoning parser first and hand what follows the thought to a tool-call
parser. Each role keeps one symphony parser for the request, fed each delta once, and reads it
into the fields the engines' interfaces take (content, reasoning, call deltas) in the core: a
`FieldStream` whose records go where the role's routes say, one call a delta, no event made; a
whole output goes through the core's summary row by the same routes.

- The reasoning role starts where the generation prompt leaves the output. `UNTIL_THOUGHT_ENDS`
  (vLLM, which switches to the tool role once the thought is over): reasoning until the thought
  is over, then the raw text after it (what the parser held back included) as content, for the
  tool role. `PASSED_ON` (SGLang, whose reasoning role sees every delta): every thought anywhere
  is reasoning and everything else is passed on as the raw text the tool role reads;
  `PASSED_ON_CLEAN` (no tool role follows) passes on what a client is shown: content, and a call
  as the text it was written as.
- The tool role reads content and calls from there on (`TOOL`), and reasoning for a thought the
  model writes later; `TOOL_THOUGHT_AS_CONTENT` (an engine configured with no reasoning parser)
  shows a thought and its markers as content, verbatim, as the engines do then.

A whole output is parsed once for both roles where the reasoning role knows the tools the tool
role parses with (vLLM's, from the request; SGLang's, for a table that types no value): its parse
also folds what the tool role reads of the text it passes on (`Engine.summaries`) and leaves it,
with that text, in a per-thread handoff. The tool role, called next on this thread with that very
text object (the engines hand it on as they got it), the same table and the same compiled tools,
takes it instead of parsing again (one that checks names, SGLang's, also where its tools refuse
none of the calls read without them); anything else parses as before.
"""
import threading

from symphony._native import MESSAGE_ROUTES, Engine, Field, FieldRoutes, FieldStream
from symphony.events import (
    Content,
    Dropped,
    Malformed,
    Reasoning,
    ReasoningEnd,
    ReasoningStart,
    ToolCallArguments,
    ToolCallStart,
)
from symphony.inputs import Prompt
from symphony.value import Declared
from symphony.parser import parser as _parser

NONE, CONTENT, REASONING, CALL, REST = (Field.FIELD_NONE, Field.FIELD_CONTENT, Field.FIELD_REASONING,
                                        Field.FIELD_CALL, Field.FIELD_REST)

# Routes: an event kind's field, or (its field outside a thought, inside one); kinds not named go
# to `otherwise`. A thought's markers are inside it.
TOOL = MESSAGE_ROUTES
TOOL_THOUGHT_AS_CONTENT = FieldRoutes({Content: CONTENT, Malformed: CONTENT, Reasoning: CONTENT,
                                       Dropped: (NONE, CONTENT), ToolCallStart: CALL, ToolCallArguments: CALL})
# What the parser could not read inside a thought is the model's thinking: the reasoning roles
# show it there (in a message it is content; passed on as raw text it would be read again).
PASSED_ON = FieldRoutes({Reasoning: REASONING, Malformed: (CONTENT, REASONING)}, otherwise=(CONTENT, NONE))
PASSED_ON_CLEAN = FieldRoutes({Reasoning: REASONING, Malformed: (CONTENT, REASONING), Dropped: NONE},
                              otherwise=(CONTENT, NONE))
UNTIL_THOUGHT_ENDS = FieldRoutes({Reasoning: REASONING, Malformed: (REST, REASONING), ReasoningEnd: REST},
                                 otherwise=(REST, NONE))
# What the tool role reads of the text PASSED_ON passes on: every thought is gone from it.
HANDED_ON = FieldRoutes({Content: CONTENT, Malformed: (CONTENT, NONE), ToolCallStart: (CALL, NONE),
                         ToolCallArguments: (CALL, NONE)}, otherwise=NONE)


def call_stream(table, tools=None, tool_choice=None, thought_as_content=False, undeclared="call"):
    """The tool role's FieldStream: one parser (of a compiled table) from the content state, no
    thought open. `undeclared`: symphony.parser's."""
    return FieldStream(_parser(table, tools, tool_choice, undeclared=undeclared),
                       TOOL_THOUGHT_AS_CONTENT if thought_as_content else TOOL)


def parse_calls(table, output, tools=None, tool_choice=None, thought_as_content=False, undeclared="call"):
    """A whole output in the tool role: (content, or None when blank; [(id, name, arguments)] in
    the order the calls started, or None). What the reasoning role's parse left for this very
    text, table and tools (a Declared, or None) is taken instead of a parse: that text holds no
    thought, so how one would be shown does not matter. With undeclared="malformed" a reading made
    without tools (of a table whose values take no types) is taken where the tools refuse none of
    its calls: names checked or not, it is the same."""
    left = _HANDOFF.left
    if left is not None:
        _HANDOFF.left = None
        if left[0] is output and left[1] is table and tool_choice is None and (
                left[2] is tools and undeclared == "call"
                or left[2] is None and (left[3][1] is None
                                        or (undeclared == "malformed" and _refuses_none(tools, left[3][1])))):
            return left[3]
    engine = Engine(table, tools, undeclared=undeclared) if tool_choice is None else \
        _parser(table, tools, tool_choice, undeclared=undeclared)
    row = engine.summary(output, None, "stop", TOOL_THOUGHT_AS_CONTENT if thought_as_content else TOOL)
    return row[0], row[2]


def _refuses_none(tools, calls):
    """Whether checking the names of `calls` ((id, name, arguments)) against `tools` (as a parser
    takes them: a Declared, a callable giving one or a tool list, or None) refuses none."""
    if callable(tools):
        tools = tools()
    if tools is None:
        return True
    if type(tools) is not Declared:
        tools = Declared(tools)
    return tools.refuses_none([name for _, name, _ in calls])


def thought_stream(table, prompt=None, until_thought_ends=True, clean=False):
    """The reasoning role's FieldStream: one parser (of a compiled table) from where `prompt`
    leaves the output."""
    engine = Engine(table)
    if prompt:
        engine.feed(Prompt(prompt))
    return FieldStream(engine, UNTIL_THOUGHT_ENDS if until_thought_ends else PASSED_ON_CLEAN if clean else PASSED_ON)


def split_thought(table, output, prompt=None, clean=False, hand_on=False, tools=None):
    """A whole output in the reasoning role: (reasoning, or None; the output without its
    thoughts and their markers, or None when blank; with `clean`, without any markup: content
    and calls as written). `hand_on`: a tool role reads that text next on this thread, with
    `tools` (a Declared, or None): what it reads is folded from this parse and left for it."""
    if not hand_on or clean:
        row = Engine(table).summary(output, prompt, "stop", PASSED_ON_CLEAN if clean else PASSED_ON)
        return row[1], row[0]
    row, read = Engine(table, tools).summaries(output, prompt, "stop", PASSED_ON, HANDED_ON)
    _HANDOFF.left = (row[0], table, tools, (read[0], read[2]))
    return row[1], row[0]


class _Handoff(threading.local):
    """What the reasoning role's whole parse says the tool role reads of the text it passed on,
    kept for the next parse_calls on this thread and taken once: `left` is (that text, the
    table, the tools, (content, calls)), or None."""
    left = None


_HANDOFF = _Handoff()


def prompt_opens_thought(table, prompt):
    """Whether a generation prompt leaves the output inside a thought of the table (a name, a
    Format or a compiled table)."""
    return bool(prompt) and any(type(e) is ReasoningStart for e in _parser(table).feed(Prompt(prompt)))
