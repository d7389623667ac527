"""The Muse tables (`muse_glimmer`, `muse_spark`): what each reads of the messages Muse writes
beyond the template's own spelling, each output whole and at every chunking. (vLLM 0.33's own Muse
unit-test cases run with the other peer cases, in tests/test_peer_cases.py.)
"""
import json

import pytest

import symphony
from symphony.adapt import chat
from tests.common import check_conservation, check_well_formed, chunkings, replay
from tests.wire import END_THOUGHT, START_THOUGHT, arguments, check, content, dropped, end, finish, reasoning, start

MUSE = ("muse_glimmer", "muse_spark")
NEXT = "<|eom|><|start|>assistant"
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {
    "city": {"type": "string"}, "days": {"type": "integer"}}}}}]


def call(name, params, header=None):
    """A call message: its recipient header (` to=NAME<|message|>` unless given) and a block of one
    invoke of `params`."""
    return ((f" to={name}<|message|>" if header is None else header) + "<atem:function_calls>\n"
            + f'<atem:invoke name="{name}">\n'
            + "".join(f'<atem:parameter name="{k}">{v}</atem:parameter>\n' for k, v in params)
            + "</atem:invoke>\n</atem:function_calls>")


def reads(table, output, tools=TOOLS):
    """(content, reasoning, [(name, arguments)]) of the whole parse; every chunking conserves the
    output, is well formed and reads the same."""
    def said(events):
        m = chat.message(events)["message"]
        return (m["content"], m["reasoning_content"],
                [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in m["tool_calls"] or []])
    whole = said(symphony.parse(table, output, tools=tools))
    for plan, pieces in chunkings(output):
        events = replay(symphony.parser(table, tools), pieces)
        check_conservation(events, output)
        check_well_formed(events)
        assert said(events) == whole, plan
    return whole


@pytest.mark.parametrize("table", MUSE)
def test_a_header_without_its_space_opens_a_message(table):
    """`to=self<|message|>` (no space before `to=`) opens the thought as ` to=self<|message|>`
    does; so `to=user` the answer, and `to=NAME` a call message."""
    check(table, "to=self<|message|>plan" + NEXT + "to=user<|message|>Done.", [
        dropped("to=self<|message|>"), START_THOUGHT, reasoning("plan"), dropped("<|eom|>"), END_THOUGHT,
        dropped("<|start|>assistant"), dropped("to=user<|message|>"), content("Done."), finish(),
    ])
    assert reads(table, call("get_weather", [("city", "Paris")], header="to=get_weather<|message|>")) == (
        None, None, [("get_weather", {"city": "Paris"})])


@pytest.mark.parametrize("table, opens", [("muse_glimmer", "content"), ("muse_spark", "reasoning")])
def test_a_bare_header_opens_the_answer_or_the_thought(table, opens):
    """A header with no recipient (`<|message|>` alone) opens Glimmer's answer and Spark's
    thought; `<|eot|>`, the end of the turn, ends it and is dropped."""
    if opens == "content":
        want = [dropped("<|message|>"), content("Hello."), dropped("<|eot|>"), finish()]
    else:
        want = [dropped("<|message|>"), START_THOUGHT, reasoning("Hello."), dropped("<|eot|>"), END_THOUGHT, finish()]
    check(table, "<|message|>Hello.<|eot|>", want)


@pytest.mark.parametrize("table", MUSE)
def test_the_end_of_the_turn_and_the_next_start_end_a_message(table):
    """`<|eot|>` ends a message as `<|eom|>` does, and a message whose end the model left out ends
    at the next message's `<|start|>assistant`, so the call message after it is read."""
    assert reads(table, " to=self<|message|>plan<|eot|><|start|>assistant to=user<|message|>Done.<|eot|>") == (
        "Done.", "plan", [])
    assert reads(table, " to=self<|message|>plan<|start|>assistant" + call("get_weather", [("days", "3")])
                 + "<|start|>assistant to=user<|message|>Done.") == ("Done.", "plan", [("get_weather", {"days": 3})])


@pytest.mark.parametrize("table", MUSE)
def test_a_header_inside_a_message_begins_the_next(table):
    """A message whose end the model left out ends at the next header: a fixed recipient's
    (` to=user<|message|>`) is a marker and opens its message; a tool's (` to=NAME<|message|>`, its
    name held from ` to=` until `<|message|>` follows it) is that header too, dropped, and the
    calls block after it is read (vLLM: "observed deterministically for a call with empty
    arguments"; vLLM's thought stops before `to=`, keeping the space)."""
    check(table, " to=self<|message|>plan to=user<|message|>Done.", [
        dropped(" to=self<|message|>"), START_THOUGHT, reasoning("plan"), dropped(" to=user<|message|>"),
        END_THOUGHT, content("Done."), finish(),
    ])
    check(table, ' to=self<|message|>Need the time. to=get_weather<|message|><atem:function_calls><atem:invoke name="'
          'get_weather"></atem:invoke></atem:function_calls><|eom|><|start|>assistant to=user<|message|>Noon.', [
        dropped(" to=self<|message|>"), START_THOUGHT, reasoning("Need the time."),
        dropped(" to=get_weather<|message|>"), END_THOUGHT, dropped('<atem:function_calls><atem:invoke name="'),
        start(0, "get_weather", 'get_weather">'), arguments(0, "{}", ""), end(0, "</atem:invoke>"),
        dropped("</atem:function_calls><|eom|><|start|>assistant to=user<|message|>"), content("Noon."),
        finish(tool_calls=1),
    ])
    # after a call message, a header (a tool's too) begins the next message
    assert reads(table, call("get_weather", [("city", "Paris")]) + call("get_weather", [("days", "2")])
                 + " to=user<|message|>Done.") == (
        "Done.", None, [("get_weather", {"city": "Paris"}), ("get_weather", {"days": 2})])
    # the answer's end left out before a call message
    assert reads(table, " to=user<|message|>Checking. to=get_weather<|message|><atem:function_calls>"
                 '<atem:invoke name="get_weather"></atem:invoke></atem:function_calls>') == (
        "Checking.", None, [("get_weather", {})])


@pytest.mark.parametrize("table", MUSE)
def test_a_tools_header_in_a_message_is_held_until_a_byte_decides(table):
    """` to=` in a shown message holds what follows while it may be a tool's name (letters,
    digits, `_ . - *`): `<|message|>` right after a name makes it the header (dropped, the message
    ends there); any other byte, another marker, the end of the stream, or no name before
    `<|message|>` shows it as the message's text, whatever the chunking."""
    block = '<atem:function_calls><atem:invoke name="get_weather"></atem:invoke></atem:function_calls>'
    assert reads(table, " to=self<|message|>Need the time. to=time now<|message|>" + block) == (
        None, "Need the time. to=time now", [("get_weather", {})])
    assert reads(table, " to=self<|message|>Go to=x and more<|eom|><|start|>assistant to=user<|message|>ok") == (
        "ok", "Go to=x and more", [])
    assert reads(table, " to=self<|message|>Go to=x<|eom|>") == (None, "Go to=x", [])
    assert reads(table, " to=self<|message|>Go to=x") == (None, "Go to=x", [])
    assert reads(table, " to=self<|message|>Go to=<|message|>x<|eom|>") == (None, "Go to=x", [])
    assert reads(table, " to=self<|message|>Go to=get_weather.*<|message|>" + block) == (
        None, "Go", [("get_weather", {})])
    assert reads(table, " to=self<|message|>Go to=" + "x" * 200 + "<|message|>y") == (
        None, "Go to=" + "x" * 200 + "y", [])
    # a header that no calls block follows opens a call message with no call: shown as written
    assert reads(table, " to=self<|message|>Go to=f<|message|>more<|eom|>") == (
        " to=f<|message|>more<|eom|>", "Go", [])


@pytest.mark.parametrize("table", MUSE)
def test_a_block_in_a_thought_is_no_call_without_a_header_before_it(table):
    """A calls block the thought holds is the thought's text (an echoed call is no call); text
    after a header end in the thought is the thought's."""
    block = '<atem:function_calls><atem:invoke name="f"></atem:invoke></atem:function_calls>'
    assert reads(table, " to=self<|message|>I could write " + block + " but no." + NEXT + " to=user<|message|>Hi.") == (
        "Hi.", "I could write " + block + " but no.", [])
    assert reads(table, " to=self<|message|>a<|message|>b<|eom|>") == (None, "ab", [])


def _tool(name, **properties):
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": {
        key: {"type": kind} for key, kind in properties.items()}}}}


@pytest.mark.parametrize("table", MUSE)
def test_a_doubled_name_is_the_declared_tool(table):
    """Muse's template writes a bare tool name's recipient as `NAME.*`, and the model names the
    call `NAME.NAME`: that is the declared tool NAME, its values typed by NAME's schema, when the
    request declares NAME and not NAME.NAME. Any other name stays as written."""
    echo = [_tool("echo", text="string", count="integer")]
    output = call("echo.echo", [("text", "25"), ("count", "25")]) + "<|eot|>"
    check(table, output, [
        dropped(" to=echo.echo<|message|><atem:function_calls>\n"), dropped('<atem:invoke name="'),
        start(0, "echo", 'echo.echo">'),
        arguments(0, '{"text": "', '\n<atem:parameter name="text">'), arguments(0, "25"),
        arguments(0, '"', "</atem:parameter>"), arguments(0, ', "count": 25', '\n<atem:parameter name="count">25'
                                                          "</atem:parameter>"),
        arguments(0, "}", "\n"), end(0, "</atem:invoke>"),
        dropped("\n</atem:function_calls><|eot|>"), finish(tool_calls=1),
    ], tools=echo)
    assert reads(table, output, tools=None)[2] == [("echo.echo", {"text": 25, "count": 25})]
    assert reads(table, output, tools=echo + [_tool("echo.echo")])[2] == [("echo.echo", {"text": 25, "count": 25})]
    for name in ("echo.get", "foo.echo", "echo.echo.echo", "echo.ech", ".", "e.e"):
        assert reads(table, call(name, []), tools=echo)[2] == [(name, {})]


def test_minicpm_keeps_a_doubled_name():
    assert reads("minicpm5", '<function name="echo.echo"></function>', tools=[_tool("echo")])[2] == [("echo.echo", {})]
