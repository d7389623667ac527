"""An inference engine's delta fields folded in the core (FieldRoutes, FieldStream, Engine.summary
with routes) say what the events say, each event where the routes send it: per feed, the fold of
that feed's events (FieldStream), and whole, the fold of every event (the summary row); for
every table's corpus at the tier's chunkings, by every serving role's routes. Also: the content
key of a tool list (tools_key), and a parser given its tools as a callable."""
import functools

import pytest

import symphony
from symphony import Delta, End, LifecycleError, Prompt
from symphony._native import MESSAGE_ROUTES, Field, FieldRoutes, FieldStream, tools_key
from symphony.events import (
    Content,
    Dropped,
    Malformed,
    Reasoning,
    ReasoningEnd,
    ReasoningStart,
    ToolCallArguments,
    ToolCallStart,
    bytes_of,
)
from symphony.integrations import stream
from symphony.integrations.names import declared, reads_types
from symphony.parser import fold_summaries
from symphony.text import is_blank
from tests.common import chunkings
from tests.corpus import corpus
from tests import tiers

NONE, CONTENT, REASONING, CALL, REST = (Field.FIELD_NONE, Field.FIELD_CONTENT, Field.FIELD_REASONING,
                                        Field.FIELD_CALL, Field.FIELD_REST)
ROUTES = {"message": MESSAGE_ROUTES, "tool": stream.TOOL, "tool_thought_as_content": stream.TOOL_THOUGHT_AS_CONTENT,
          "passed_on": stream.PASSED_ON, "passed_on_clean": stream.PASSED_ON_CLEAN,
          "until_thought_ends": stream.UNTIL_THOUGHT_ENDS,
          # calls routed in a thought otherwise than outside it, and a thought that ends the routing
          "mixed": FieldRoutes({Content: CONTENT, Reasoning: REASONING, ToolCallStart: (CALL, CONTENT),
                                ToolCallArguments: (CALL, CONTENT), Dropped: (NONE, REASONING),
                                ReasoningEnd: (NONE, REST)}, otherwise=(CONTENT, NONE))}
# The fold routes each record by its kind and by whether a thought is open, whatever made it, so
# a seeded sample of each table's corpus serves (the corpus at every plan is test_contract's).
CASES_PER_TABLE = {"fast": 4, "exhaustive": 32}
EVERY_SPLIT_UP_TO = 100      # characters: a longer output is replayed at the tier's other plans


class Oracle:
    """The fold of events by routes, one feed at a time, written over the events (the oracle of
    Sink.fields and of the summary's gather): whether a thought is open, the calls started, and
    whether a FIELD_REST route ended the routing carry from feed to feed."""

    def __init__(self, routes):
        self.routes = routes
        self.thought = False
        self.started = set()
        self.rest = False
        self.fed = ""            # the output so far, and what the events account for of it
        self.accounted = 0

    def feed(self, events, text=""):
        """(content, reasoning, [[index, name, arguments, id]]) of one feed's events (`text` the
        delta's, for the bytes the parser still holds after a FIELD_REST route)."""
        self.fed += text
        content, reasoning, calls = [], [], {}
        rest_here = False
        for i, event in enumerate(events):
            kind = type(event)
            self.accounted += len(bytes_of(event))
            if self.rest:
                field = CONTENT
            else:
                if kind is ReasoningStart:
                    self.thought = inside = True
                elif kind is ReasoningEnd:
                    self.thought, inside = False, True
                elif kind is Reasoning:
                    inside = True
                else:
                    inside = self.thought or (kind is Dropped and i + 1 < len(events)
                                              and type(events[i + 1]) is ReasoningStart)
                field = self.routes.route(kind)[inside]
                if field == REST:
                    self.rest = rest_here = True
                    field = CONTENT
            if field == CONTENT:
                content.append(bytes_of(event))
            elif field == REASONING:
                reasoning.append(bytes_of(event))
            elif field == CALL and kind is ToolCallStart:
                self.started.add(event.index)
                calls[event.index] = [event.index, event.name, "", event.id]
            elif field == CALL:
                if event.index in calls:
                    calls[event.index][2] += event.json
                elif event.index in self.started:
                    calls[event.index] = [event.index, None, event.json, None]
                else:
                    content.append(event.json)
        if rest_here:
            content.append(self.fed[self.accounted:])
        return "".join(content), "".join(reasoning), list(calls.values())


def cases_of(table):
    cases = corpus(table)
    return tiers.rng("fields", table).sample(cases, min(len(cases), CASES_PER_TABLE[tiers.name()]))


def shown(content, reasoning, calls):
    """A feed's fields as FieldStream gives them: None for a field that shows nothing, None for a
    feed that shows nothing."""
    if not content and not reasoning and not calls:
        return None
    return content or None, reasoning or None, [tuple(call) for call in calls] or None


@pytest.mark.parametrize("table", symphony.formats())
def test_a_feeds_fields_are_its_events_folded_by_the_routes(table):
    for case in cases_of(table):
        for plan, pieces in chunkings(case.output, EVERY_SPLIT_UP_TO):
            events_parser = symphony.parser(table, case.tools)
            prompt_events = events_parser.feed(Prompt(case.prompt)) if case.prompt else []
            readers = []
            for name, routes in ROUTES.items():
                engine, oracle = symphony.parser(table, case.tools), Oracle(routes)
                if case.prompt:                           # (what the prompt opens carries on)
                    engine.feed(Prompt(case.prompt))
                    oracle.feed(prompt_events)
                readers.append((name, FieldStream(engine, routes), oracle))
            for piece in pieces + [None]:
                events = events_parser.feed(End("stop") if piece is None else Delta(piece))
                for name, fields, oracle in readers:
                    where = f"{table}:{case.name} {name} {plan}"
                    if oracle.rest:                       # the routing is done: text passes on
                        got, want = (fields.end(), None) if piece is None else \
                            (fields.feed(piece), (piece, None, None) if piece else None)
                    else:
                        got = fields.end() if piece is None else fields.feed(piece)
                        want = shown(*oracle.feed(events, piece or ""))
                    assert got == want, where
            for name, fields, oracle in readers:
                assert fields.ended == oracle.rest, f"{table}:{case.name} {name} {plan}"


@pytest.mark.parametrize("table", symphony.formats())
def test_a_whole_summary_is_its_events_folded_by_the_routes(table):
    for case in cases_of(table):
        events = symphony.parser(table, case.tools).parse(case.output, case.prompt)
        for name, routes in ROUTES.items():
            content, reasoning, calls = Oracle(routes).feed(events)
            row = symphony.parser(table, case.tools).summary(case.output, case.prompt, "stop", routes)
            assert row[:3] == (None if is_blank(content) else content, reasoning or None,
                               [(id, n, a) for i, n, a, id in calls if n is not None] or None), \
                f"{table}:{case.name} {name}"


@pytest.mark.parametrize("table", symphony.formats())
def test_two_summaries_of_one_parse_are_each_routes_summary(table):
    pairs = [("passed_on", "tool"), ("message", "mixed"), ("passed_on_clean", "until_thought_ends")]
    for case in cases_of(table):
        for first, second in pairs:
            rows = symphony.parser(table, case.tools).summaries(case.output, case.prompt, "stop", ROUTES[first],
                                                               ROUTES[second])
            assert rows == tuple(symphony.parser(table, case.tools).summary(case.output, case.prompt, "stop",
                                                                            ROUTES[name])
                                 for name in (first, second)), f"{table}:{case.name} {first}+{second}"


@pytest.mark.parametrize("table", symphony.formats())
def test_the_reasoning_role_hands_the_tool_role_what_the_parse_read(table):
    """A whole output through an engine's two roles, parsed once: the reasoning role splits it as
    it always did, and hands the tool role what the one parse read outside the thoughts (the
    fold of the events by HANDED_ON), not a parse of the cut text."""
    compiled = symphony.parser(table).table
    for case in cases_of(table):
        tools = declared(case.tools) if reads_types(compiled) else None
        split = stream.split_thought(compiled, case.output, case.prompt, hand_on=True, tools=tools)
        assert split == stream.split_thought(compiled, case.output, case.prompt), f"{table}:{case.name}"
        if split[1] is None:
            continue
        content, _, calls = Oracle(stream.HANDED_ON).feed(symphony.parser(table, case.tools).parse(case.output,
                                                                                                  case.prompt))
        assert stream.parse_calls(compiled, split[1], tools) == (
            None if is_blank(content) else content,
            [(id, n, a) for i, n, a, id in calls if n is not None] or None), f"{table}:{case.name}"


def test_on_recorded_outputs_the_handoff_is_the_tool_roles_own_parse():
    """On what checkpoints really write, reading the passed-on text again would say the same
    (they differ only where the cut text reads otherwise than in its place: a thought's markers
    written later, Malformed bytes in a thought)."""
    from tests.engines.cases import fixture_cases
    cases = fixture_cases()
    if not cases:
        pytest.skip("SYMPHONY_FIXTURES is not set")
    for case in cases:
        compiled = case.model.table().compile()
        tools = declared(case.tools) if reads_types(compiled) else None
        rest = stream.split_thought(compiled, case.text, case.model.prompt_tail, hand_on=True, tools=tools)[1]
        if rest is not None:
            assert stream.parse_calls(compiled, rest, tools) == stream.parse_calls(compiled, rest[:1] + rest[1:], tools), case.id


def test_the_handoff_is_for_that_text_table_and_tools_alone():
    text = '<think>plan</think>Hi <tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'
    qwen3 = symphony.parser("qwen3").table
    rest = stream.split_thought(qwen3, text, hand_on=True)[1]
    stream._HANDOFF.left = stream._HANDOFF.left[:3] + (("handed", None),)   # what a parse could never say
    assert stream.parse_calls(qwen3, rest) == ("handed", None)
    assert stream.parse_calls(qwen3, rest) == ("Hi ", [("call_0", "f", '{"a": 1}')])
    for other_text, table, tools in [(rest[:1] + rest[1:], qwen3, None),
                                     (rest, symphony.parser("hermes").table, None),
                                     (rest, qwen3, declared([_tool()]))]:
        stream.split_thought(qwen3, text, hand_on=True)
        stream._HANDOFF.left = stream._HANDOFF.left[:3] + (("handed", None),)
        assert stream.parse_calls(table, other_text, tools) != ("handed", None)
        assert stream._HANDOFF.left is None                   # (emptied either way)
    stream.split_thought(qwen3, text, hand_on=True)
    stream._HANDOFF.left = stream._HANDOFF.left[:3] + (("handed", None),)
    assert stream.parse_calls(qwen3, rest, declared([_tool("f")]), "required") != ("handed", None)


def test_a_tool_role_that_checks_names_takes_the_handoff_where_its_tools_refuse_no_call():
    """SGLang's tool role checks names (undeclared="malformed"), its reasoning role reads without
    tools: the handoff is taken where every call it read names a declared tool (checking would
    refuse none, so the parse would say the same), and parsed anew where one does not."""
    text = '<think>plan</think>Hi <tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'
    qwen3 = symphony.parser("qwen3").table
    for tools, taken in [(declared([_tool("f")]), True), (functools.partial(declared, [_tool("f")]), True),
                         (declared([_tool("g")]), False), (None, True)]:
        rest = stream.split_thought(qwen3, text, hand_on=True)[1]
        stream._HANDOFF.left = stream._HANDOFF.left[:3] + (("handed", [("call_0", "f", "{}")]),)
        got = stream.parse_calls(qwen3, rest, tools, undeclared="malformed")
        assert (got == ("handed", [("call_0", "f", "{}")])) == taken, tools
    assert stream.parse_calls(qwen3, rest, declared([_tool("g")]), undeclared="malformed") == (
        'Hi <tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>', None)


def test_summary_by_the_message_routes_is_the_batch_row():
    text = '<think>plan</think>Hi <tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'
    table = symphony.parser("qwen3").table
    assert symphony.parser("qwen3").summary(text) == fold_summaries([table], [None], [None], [text], ["stop"])[0]


def test_routes_are_checked():
    with pytest.raises(ValueError, match="FIELD_CALL"):
        FieldRoutes({Content: CALL})
    with pytest.raises(TypeError, match="event classes"):
        FieldRoutes({"Content": CONTENT})
    with pytest.raises(ValueError, match="Field"):
        FieldRoutes({Content: 7})
    with pytest.raises(ValueError, match="pair"):
        FieldRoutes({Content: (CONTENT, CONTENT, CONTENT)})
    routes = FieldRoutes({Malformed: (CONTENT, REASONING)}, otherwise=REASONING)
    assert routes.route(Malformed) == (CONTENT, REASONING) and routes.route(ToolCallArguments) == (REASONING, REASONING)


def test_a_field_stream_is_fed_once_per_delta_and_ends_once():
    fields = FieldStream(symphony.parser("qwen3"), stream.TOOL)
    assert fields.feed("Hi") == ("Hi", None, None)
    assert fields.feed("") is None
    assert fields.end() is None
    with pytest.raises(LifecycleError):
        fields.feed("more")
    with pytest.raises(TypeError, match="str"):
        FieldStream(symphony.parser("qwen3"), stream.TOOL).feed(b"bytes")


def test_the_rest_after_a_thought_holds_what_the_parser_held():
    """UNTIL_THOUGHT_ENDS: the delta that closes the thought gives the raw text after it,
    the start of a marker the parser held back included; later deltas pass on unread."""
    engine = symphony.parser("qwen3")
    engine.feed(Prompt("<|im_start|>assistant\n<think>\n"))
    fields = FieldStream(engine, stream.UNTIL_THOUGHT_ENDS)
    assert fields.feed("plan") == (None, "plan", None)
    assert fields.feed("</think>\n\nok <tool") == ("\n\nok <tool", None, None) and fields.ended
    assert fields.feed("_call>") == ("_call>", None, None)
    assert fields.end() is None


class _Model:
    """An engine's tool object, as its attribute dict holds it (a pydantic model's extra fields
    beside it)."""

    def __init__(self, extra=None, **attributes):
        self.__dict__.update(attributes)
        self.__pydantic_extra__ = extra


def _tool(name="get_weather", **properties):
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": properties}}}


def test_tools_key_is_equal_exactly_for_equal_content():
    a = [_tool(city={"type": "string"})]
    assert tools_key(a) == tools_key([_tool(city={"type": "string"})])
    variants = [[_tool(city={"type": "integer"})], [_tool("get_time", city={"type": "string"})],
                [_tool(city={"type": "string"}), _tool()], [{"function": a[0]["function"], "type": "function"}],
                [_tool(city={"type": "string", "n": 1})], [_tool(city={"type": "string", "n": 1.0})],
                [_tool(city={"type": "string", "n": True})], [_tool(city={"type": "string", "n": "1"})],
                [_tool(city={"type": "string", "n": 2 ** 70})], [_tool(city={"type": "string", "n": None})],
                [_tool(city={"type": "string", "n": ["1"]})], [_tool(city={"type": "string", "n": "\U0001f600"})]]
    keys = {tools_key(v) for v in variants}
    assert len(keys) == len(variants) and tools_key(a) not in keys
    model = [_Model(type="function", function=_Model(name="f", parameters={"type": "object"}))]
    same = [_Model(type="function", function=_Model(name="f", parameters={"type": "object"}))]
    assert tools_key(model) == tools_key(same)
    assert tools_key(model) != tools_key([_Model(type="function", function=_Model(name="f", parameters={}))])
    assert tools_key(model) != tools_key([_Model({"x": 1}, type="function",
                                                 function=_Model(name="f", parameters={"type": "object"}))])


def test_tools_key_refuses_what_it_cannot_write():
    assert tools_key([{"a": {1, 2}}]) is None
    deep = []
    for _ in range(100):
        deep = [deep]
    assert tools_key(deep) is None


def test_a_parser_given_its_tools_as_a_callable_calls_it_when_a_value_is_typed():
    tools = [_tool("f", n={"type": "string"})]
    asked = []

    def later():
        asked.append(1)
        return tools
    text = "<tool_call>\n<function=f>\n<parameter=n>\n12\n</parameter>\n</function>\n</tool_call>"
    assert symphony.parser("qwen3_tagged", later).summary("no call here")[2] is None and not asked
    typed = symphony.parser("qwen3_tagged", later).summary(text)[2]
    assert typed == symphony.parser("qwen3_tagged", tools).summary(text)[2] == [("call_0", "f", '{"n": "12"}')]
    assert asked == [1]
    assert symphony.parser("qwen3_tagged", lambda: None).summary(text)[2] == [("call_0", "f", '{"n": 12}')]


def test_a_server_compiles_one_declared_per_distinct_tool_list():
    from symphony.integrations import names
    first = names.declared([_tool(city={"type": "string"})])
    assert names.declared([_tool(city={"type": "string"})]) is first
    assert names.declared([_tool(city={"type": "integer"})]) is not first
    assert names.declared([]) is None and names.declared_later(None) is None
    assert names.declared_later([_tool()])() is names.declared([_tool()])
    for n in range(names.DISTINCT_TOOL_LISTS):            # the oldest lists are let go
        names.declared([_tool(f"f{n}")])
    assert len(names._DECLARED) == names.DISTINCT_TOOL_LISTS
    assert names.declared([_tool(city={"type": "string"})]) is not first


@pytest.mark.parametrize("table", symphony.formats())
def test_a_text_the_table_reads_as_content_parses_to_that_text(table):
    compiled = symphony.parser(table).table
    said = 0
    for text in [case.output for case in cases_of(table)] + ["plain words", "", " \n", "a < b > c [x] {y}"]:
        if compiled.reads_as_content(text):
            said += 1
            row = symphony.parser(table).summary(text)
            assert row[:3] == (None if is_blank(text) else text, None, None), (table, text)
    assert said >= 2 or not compiled.reads_as_content("")       # a table whose first state is no content
    for marker in compiled.markers.texts:
        assert not compiled.reads_as_content(f"x {marker} y"), (table, marker)


def test_a_summary_hands_back_the_outputs_own_str():
    text = "plain words, " * 10
    assert symphony.parser("qwen3").summary(text)[0] is text
    assert symphony.parser("qwen3").summary(text, None, "stop", stream.PASSED_ON)[0] is text
    assert not symphony.constrained().table.reads_as_content("{}")


def test_records_held_past_a_feed_keep_the_thought_they_start_in():
    """A call region opened in a thought holds its records past the feed (it may still turn out to
    be text); the next fold reads them in the thought they were written in, so a route that hides
    what a thought holds hides them too."""
    output = ('<think>I will call <|tool_call|>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
              "</think>\n\nDone.")
    fields = FieldStream(symphony.parser("granite_thinking"), stream.PASSED_ON)
    assert fields.feed(output) == (None, "I will call ", None)
    assert fields.end() == ('\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</think>\n\nDone.', "<|tool_call|>",
                            None)   # (the opener that held no call, in the thought: the reasoning roles show it there)
