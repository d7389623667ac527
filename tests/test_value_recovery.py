"""Values read by the declared schema where the model wrapped them in a string (a quoted number, a
double-encoded or escaped array or object), through the tables that write the arguments object
themselves and type values by the request's tools: each output whole, one character at a time, at
the tier's splits and plans, and one synthetic token per delta (with its span), all giving one
message, every byte in one event.

What the incumbents read, run on the versions in the peers venv (vLLM 0.33.0, SGLang 0.5.23), is
said beside each test: neither reads all of these, and no two families of one engine agree.
"""
import json

import pytest

import symphony
from symphony import BufferOverflowError, Delta, End, Prompt
from symphony.adapt import chat
from tests.common import (check_conservation, check_well_formed, chunkings, counted_deltas, replay,
                          synthetic_token_bounds, tokens_of)

NS = "]<]minimax[>["          # MiniMax M3's separator before every tag

# How each table that types values by the request's tools writes a call NAME with (key, value)
# pairs: as its template does, each value between its tags as given.
WRITERS = {
    "qwen3_tagged": lambda name, pairs: "<tool_call>\n<function=" + name + ">\n" + "".join(
        f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in pairs) + "</function>\n</tool_call>",
    "glm": lambda name, pairs: "<tool_call>" + name + "".join(
        f"<arg_key>{k}</arg_key><arg_value>{v}</arg_value>" for k, v in pairs) + "</tool_call>",
    "minimax_m2": lambda name, pairs: '<minimax:tool_call>\n<invoke name="' + name + '">\n' + "".join(
        f'<parameter name="{k}">{v}</parameter>\n' for k, v in pairs) + "</invoke>\n</minimax:tool_call>",
    "minimax_m3": lambda name, pairs: NS + "<tool_call>\n" + NS + '<invoke name="' + name + '">' + "".join(
        f"{NS}<{k}>{v}{NS}</{k}>" for k, v in pairs) + NS + "</invoke>\n" + NS + "</tool_call>",
    "minicpm5": lambda name, pairs: '<function name="' + name + '">' + "".join(
        f'<param name="{k}">{v}</param>' for k, v in pairs) + "</function>",
}

TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {
    "n": {"type": "integer"}, "x": {"type": "number"}, "a": {"type": "array"}, "o": {"type": "object"},
    "s": {"type": "string"}, "m": {"type": ["string", "null"]}, "b": {"type": "boolean"},
    "xs": {"anyOf": [{"type": "integer"}, {"type": "number"}]}}}}}]


def read(table, output, tools=TOOLS, prompt=None):
    """The chat message of `output`; every replay gives it: whole, per character, the tier's
    splits and plans, and one synthetic token per delta (counted: every token is counted once)."""
    whole = chat.message(symphony.parse(table, output, tools=tools, prompt=prompt))
    for plan, pieces in chunkings(output):
        events = replay(symphony.parser(table, tools), pieces, prompt)
        check_conservation(events, output)
        check_well_formed(events)
        assert chat.message(events) == whole, f"{table} {output!r} {plan}"
    bounds = synthetic_token_bounds(output, trailing=0)
    parser = symphony.parser(table, tools)
    events = parser.feed(Prompt(prompt)) if prompt is not None else []
    for delta in counted_deltas([output[a:b] for a, b in bounds], bounds):
        events += parser.feed(delta)
    events += parser.feed(End("stop"))
    check_conservation(events, output)
    check_well_formed(events)
    assert chat.message(events) == whole, f"{table} {output!r} per token"
    assert sum(tokens_of(e) or 0 for e in events[:-1] if hasattr(e, "text") or hasattr(e, "source")) == len(bounds)
    return whole["message"]


def arguments(table, pairs, tools=TOOLS):
    """The one call's name and arguments (as the client loads them) of a call written in `table`."""
    message = read(table, WRITERS[table]("f", pairs), tools)
    (call,) = message["tool_calls"]
    return json.loads(call["function"]["arguments"])


# --- a quoted number where the schema says number or integer ----------------------------------
# vLLM: minimax_m3 reads `"5"` as 5 (integer) and `"2.5"` as 2.5 (number); qwen3_coder, glm47,
# minimax_m2 and minicpm5 give the strings "5" and "2.5". SGLang: glm47 reads 5 and 2.5;
# minimax-m2 gives "5" and "2.5"; qwen3_coder and minimax-m3 keep the quotes ("\"5\""); minicpm5
# gives the whole call back as content.

@pytest.mark.parametrize("table", WRITERS)
def test_a_quoted_number_is_a_number_where_the_schema_says_number_or_integer(table):
    got = arguments(table, [("n", '"5"'), ("x", '"2.5"'), ("xs", '"7"'), ("s", '"5"'), ("m", '"5"'), ("u", '"5"'),
                            ("b", '"5"')])
    # a declared string is its text, quotes and all; where nothing is declared (or no number is)
    # the JSON string is the string it spells, as before
    assert got == {"n": 5, "x": 2.5, "xs": 7, "s": '"5"', "m": '"5"', "u": "5", "b": "5"}


@pytest.mark.parametrize("table", WRITERS)
def test_a_quoted_integer_is_read_as_a_declared_integer_is(table):
    got = arguments(table, [("n", '"007"'), ("x", '"007"'), ("n2", '"+5"')],
                    tools=[{"type": "function", "function": {"name": "f", "parameters": {"properties": {
                        "n": {"type": "integer"}, "x": {"type": "number"}, "n2": {"type": "integer"}}}}}])
    # 007 is the integer 7 (the digits of a declared integer), and no JSON number: a string under
    # a declared number, as the unquoted 007 is
    assert got == {"n": 7, "x": "007", "n2": 5}


@pytest.mark.parametrize("table", WRITERS)
def test_a_quoted_value_that_is_no_number_stays_the_string(table):
    got = arguments(table, [("n", '"five"'), ("x", '"1e400"'), ("n2", '"5'), ("x2", '"\\"5\\""')],
                    tools=[{"type": "function", "function": {"name": "f", "parameters": {"properties": {
                        "n": {"type": "integer"}, "x": {"type": "number"}, "n2": {"type": "integer"},
                        "x2": {"type": "number"}}}}}])
    # the value is what it was before: the JSON string it spells, or the string of its text
    assert got == {"n": "five", "x": "1e400", "n2": '"5', "x2": '"5"'}


# --- an escaped or double-encoded array or object -------------------------------------------
# `"[1, 2]"` / `"{'key': 'value'}"` (a string around the value): vLLM's minimax_m3 reads the array
# and keeps the object's string; its qwen3_coder, glm47, minimax_m2 and minicpm5, and every SGLang
# detector here, give the strings (SGLang's minimax-m3 with its quotes). vLLM's Qwen3-Coder unit
# test expects `"{'key': 'value', 'n': 1}"` decoded to the object. `[{\"id\": \"1\"}]` (escaped
# JSON): SGLang's glm47 reads the array and the object; every other parser here gives the text.

@pytest.mark.parametrize("table", WRITERS)
def test_a_double_encoded_array_or_object_is_decoded(table):
    got = arguments(table, [("a", '"[1, 2]"'), ("o", "\"{'key': 'value', 'n': 1}\""), ("a2", "'[\"x\", None]'")],
                    tools=[{"type": "function", "function": {"name": "f", "parameters": {"properties": {
                        "a": {"type": "array"}, "o": {"type": "object"}, "a2": {"type": "array"}}}}}])
    assert got == {"a": [1, 2], "o": {"key": "value", "n": 1}, "a2": ["x", None]}


@pytest.mark.parametrize("table", WRITERS)
def test_escaped_json_of_an_array_or_object_is_decoded(table):
    got = arguments(table, [("a", '[{\\"id\\": \\"1\\", \\"path\\": \\"C:\\\\\\\\Users\\"}]'), ("o", '{\\"k\\": [1, \\"v\\"]}')])
    assert got == {"a": [{"id": "1", "path": "C:\\Users"}], "o": {"k": [1, "v"]}}


@pytest.mark.parametrize("table", WRITERS)
def test_a_string_that_holds_no_value_of_the_declared_kind_stays_what_it_was(table):
    pairs = [("a", '"{\\"k\\": 1}"'), ("o", '"[1, 2]"'), ("s", '"[1, 2]"'), ("u", '"[1, 2]"'),
             ("a2", '[{\\"id\\": 1}'), ("o2", '{\\"k\\": \\"\\ud800\\"}'), ("a3", '"\\"[1]\\""')]
    got = arguments(table, pairs, tools=[{"type": "function", "function": {"name": "f", "parameters": {"properties": {
        "a": {"type": "array"}, "o": {"type": "object"}, "s": {"type": "string"}, "a2": {"type": "array"},
        "o2": {"type": "object"}, "a3": {"type": "array"}}}}}])
    # an object under array, an array under object, a declared string and an undeclared key keep
    # the string they were; escaped JSON cut short or holding a lone surrogate, and a string in a
    # string, are the string of their text, every byte
    assert got == {"a": '{"k": 1}', "o": "[1, 2]", "s": '"[1, 2]"', "u": "[1, 2]", "a2": '[{\\"id\\": 1}',
                   "o2": '{\\"k\\": \\"\\ud800\\"}', "a3": '"[1]"'}


def test_the_peer_cases_of_escaped_and_double_encoded_values():
    # SGLang's GLM-4.7 test (escaped JSON of a declared array) and vLLM's Qwen3-Coder test (a
    # Python dict in a JSON string, declared object), as they write them
    todo = [{"type": "function", "function": {"name": "todo_write", "parameters": {"type": "object", "properties": {
        "todos": {"type": "array"}}}}}]
    output = ('<tool_call>todo_write<arg_key>todos</arg_key><arg_value>[{\\"id\\": \\"1\\", \\"task\\": '
              '\\"Print \\\\\\\\n to see newline\\",\\"status\\": \\"pending\\"}]</arg_value></tool_call>')
    (call,) = read("glm", output, todo)["tool_calls"]
    assert call["function"]["arguments"] == '{"todos": [{"id": "1", "task": "Print \\\\n to see newline","status": "pending"}]}'
    process = [{"type": "function", "function": {"name": "process", "parameters": {"type": "object", "properties": {
        "name": {"type": "string"}, "data": {"type": "object"}}}}}]
    output = ("<tool_call>\n<function=process>\n<parameter=name>\nhello\n</parameter>\n<parameter=data>\n"
              "\"{'key': 'value', 'n': 1}\"\n</parameter>\n</function>\n</tool_call>\n")
    (call,) = read("qwen3_tagged", output, process)["tool_calls"]
    assert call["function"]["arguments"] == '{"name": "hello", "data": {"key": "value", "n": 1}}'


# --- the arguments object written as one parameter ---------------------------------------------
# vLLM: deepseek_v32 and deepseek_v4 take a lone `arguments` or `input` parameter the schema does
# not declare as the arguments, minicpm5 a `properties` or `arguments` one (a Python dict too);
# the other families' parsers, and SGLang's, keep the parameter as written.

WRAPPERS = ["arguments", "input", "parameters", "properties"]


@pytest.mark.parametrize("table", WRITERS)
@pytest.mark.parametrize("key", WRAPPERS)
def test_the_arguments_object_written_as_a_parameter_is_the_arguments(table, key):
    assert arguments(table, [(key, '{"n": 5, "s": "x"}')]) == {"n": 5, "s": "x"}
    assert arguments(table, [(key, "{'n': 5, 's': 'x'}")]) == {"n": 5, "s": "x"}
    assert arguments(table, [(key, '{"n": 5}'), ("s", "x")]) == {"n": 5, "s": "x"}     # later ones join it
    assert arguments(table, [(key, "{ }"), ("s", "x")]) == {"s": "x"}
    assert arguments(table, [(key, "{}")]) == {}


@pytest.mark.parametrize("table", WRITERS)
def test_only_a_first_undeclared_parameter_holding_an_object_is_the_arguments(table):
    assert arguments(table, [("s", "x"), ("arguments", '{"n": 5}')]) == {"s": "x", "arguments": {"n": 5}}
    assert arguments(table, [("arguments", "hello")]) == {"arguments": "hello"}
    assert arguments(table, [("arguments", "[1, 2]")]) == {"arguments": [1, 2]}
    assert arguments(table, [("args", '{"n": 5}')]) == {"args": {"n": 5}}
    declared = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {
        "input": {"type": "object"}}}}}]
    assert arguments(table, [("input", '{"n": 5}')], declared) == {"input": {"n": 5}}
    unlisted = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    assert arguments(table, [("arguments", '{"n": 5}')], unlisted) == {"arguments": {"n": 5}}
    assert arguments(table, [("arguments", '{"n": 5}')], None) == {"arguments": {"n": 5}}


def test_a_dsml_wrapper_is_read_whatever_its_string_attribute_says():
    def invoke(key, string, value):
        return ('<｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="' + key
                + f'" string="{string}">{value}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>')
    for string in ("true", "false"):
        (call,) = read("deepseek_v3_2", invoke("input", string, '{"s":"x"}'))["tool_calls"]
        assert json.loads(call["function"]["arguments"]) == {"s": "x"}
    (call,) = read("deepseek_v3_2", invoke("input", "true", "hello"))["tool_calls"]
    assert json.loads(call["function"]["arguments"]) == {"input": "hello"}


def test_a_wrapper_cut_short_is_what_arrived():
    output = WRITERS["qwen3_tagged"]("f", [("arguments", '{"n": 5')])
    output = output[:output.index("</parameter>")]
    message = read("qwen3_tagged", output)
    assert json.loads(message["tool_calls"][0]["function"]["arguments"]) == {}
    assert message["content"] == '\n<parameter=arguments>\n{"n": 5\n'


def test_a_value_read_whole_is_held_and_counted_against_the_buffer_limit():
    head = WRITERS["glm"]("f", [("x", "")]).split("</arg_value>")[0]
    parser = symphony.parser("glm", TOOLS, buffer_limit=64)
    parser.feed(Delta(head))
    held = parser.held
    parser.feed(Delta('"' + "1" * 20))
    assert parser.held == held + 21         # the declared number is held until its close tag
    with pytest.raises(BufferOverflowError):
        parser.feed(Delta("1" * 64))
