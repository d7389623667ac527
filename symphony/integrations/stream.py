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
"""
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
from symphony.parser import parser as _parser

NONE, CONTENT, REASONING, CALL, REST = (Field.FIELD_NONE, Field.FIELD_CONTENT, Field.FIELD_REASONING,
                                        Field.FIELD_CALL, Field.FIELD_REST)

# Routes: an event kind's field, or (its field outside a thought, inside one); kinds not named go
# to `otherwise`. A thought's markers are inside it.
TOOL = MESSAGE_ROUTES
TOOL_THOUGHT_AS_CONTENT = FieldRoutes({Content: CONTENT, Malformed: CONTENT, Reasoning: CONTENT,
                                       Dropped: (NONE, CONTENT), ToolCallStart: CALL, ToolCallArguments: CALL})
PASSED_ON = FieldRoutes({Reasoning: REASONING}, otherwise=(CONTENT, NONE))
PASSED_ON_CLEAN = FieldRoutes({Reasoning: REASONING, Dropped: NONE}, otherwise=(CONTENT, NONE))
UNTIL_THOUGHT_ENDS = FieldRoutes({Reasoning: REASONING, ReasoningEnd: REST}, otherwise=(REST, NONE))


def call_stream(table, tools=None, tool_choice=None, thought_as_content=False):
    """The tool role's FieldStream: one parser (of a compiled table) from the content state, no
    thought open."""
    return FieldStream(_parser(table, tools, tool_choice), TOOL_THOUGHT_AS_CONTENT if thought_as_content else TOOL)


def parse_calls(table, output, tools=None, tool_choice=None, thought_as_content=False):
    """A whole output in the tool role: (content, or None when blank; [(id, name, arguments)] in
    the order the calls started, or None)."""
    engine = Engine(table, tools) if tool_choice is None else _parser(table, tools, tool_choice)
    row = engine.summary(output, None, "stop", TOOL_THOUGHT_AS_CONTENT if thought_as_content else TOOL)
    return row[0], row[2]


def thought_stream(table, prompt=None, until_thought_ends=True, clean=False):
    """The reasoning role's FieldStream: one parser (of a compiled table) from where `prompt`
    leaves the output."""
    engine = Engine(table)
    if prompt:
        engine.feed(Prompt(prompt))
    return FieldStream(engine, UNTIL_THOUGHT_ENDS if until_thought_ends else PASSED_ON_CLEAN if clean else PASSED_ON)


def split_thought(table, output, prompt=None, clean=False):
    """A whole output in the reasoning role: (reasoning, or None; the output without its
    thoughts and their markers, or None when blank; with `clean`, without any markup: content
    and calls as written)."""
    row = Engine(table).summary(output, prompt, "stop", PASSED_ON_CLEAN if clean else PASSED_ON)
    return row[1], row[0]


def prompt_opens_thought(table, prompt):
    """Whether a generation prompt leaves the output inside a thought of the table (a name, a
    Format or a compiled table)."""
    return bool(prompt) and any(type(e) is ReasoningStart for e in _parser(table).feed(Prompt(prompt)))
