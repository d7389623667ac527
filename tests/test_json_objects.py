"""The JSON syntaxes' other objects (`CallSyntax.json(CallObject…, head=, tail=)`,
`CallSyntax.json_list(CallObject.NAMED)`): DeepSeek V3's head and fenced arguments,
V3.1's bare arguments after the name, Inkling's `args`, Apertus's `{"NAME": {..}}`; the head is
the start's source, the tail the end's; each output at every chunking.
"""
import pytest

from symphony import _native
from symphony.format import CallSyntax, Emits, Format
from symphony.syntax import CallObject
from tests.common import runs
from tests.wire import (NO_CALL, arguments, arguments_of, check, check_tokens, content, dropped, end, finish, malformed,
                        parsed, start)

CALLS, CALLS_END = "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"
CALL, SEP, CALL_END = "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>"


def test_deepseek_v3_fenced_arguments():
    output = CALLS + CALL + "function" + SEP + 'get_weather\n```json\n{"city": "Tokyo"}\n```' + CALL_END + CALLS_END
    check("deepseek_v3", output, [
        dropped(CALLS), dropped(CALL + "function" + SEP),
        start(0, "get_weather", "get_weather\n```json\n"),
        arguments(0, '{"city": "Tokyo"}', '{"city": "Tokyo"}'),
        end(0, "\n```"),
        dropped(CALL_END), dropped(CALLS_END), finish(tool_calls=1),
    ])


def test_deepseek_v3_1_arguments_after_the_name():
    output = "pre" + CALLS + CALL + "foo" + SEP + '{"x":1}' + CALL_END + CALL + " bar " + SEP + "{}" + CALL_END + CALLS_END
    check("deepseek_v3_1", output, [
        content("pre"), dropped(CALLS), dropped(CALL),
        start(0, "foo", "foo" + SEP), arguments(0, '{"x":1}', '{"x":1}'), end(0, ""), dropped(CALL_END),
        dropped(CALL), start(1, "bar", " bar " + SEP), arguments(1, "{}", "{}"), end(1, ""), dropped(CALL_END),
        dropped(CALLS_END), finish(tool_calls=2),
    ])


def test_deepseek_v3_1_and_v3_calls_without_their_block():
    """DeepSeek V3 and V3.1 sometimes write `<｜tool▁call▁begin｜>` calls without
    `<｜tool▁calls▁begin｜>`: the call, read in the prose, where the block's close after it is
    dropped. SGLang's deepseekv3/deepseekv31 detectors read such a call when
    streaming (not in detect_and_parse); vLLM's deepseek_v3/deepseek_v31 parsers do not (they
    look for the block's token)."""
    output = "Checking." + CALL + "f" + SEP + '{"a": 1}' + CALL_END + CALL + "g" + SEP + "{}" + CALL_END + CALLS_END + " ok"
    want = [
        content("Checking."), dropped(CALL), start(0, "f", "f" + SEP), arguments(0, '{"a": 1}'), end(0, ""),
        dropped(CALL_END + CALL), start(1, "g", "g" + SEP), arguments(1, "{}"), end(1, ""),
        dropped(CALL_END + CALLS_END), content(" ok"), finish(tool_calls=2),
    ]
    check("deepseek_v3_1", output, want)
    check_tokens("deepseek_v3_1", output)
    fenced = "Sure." + CALL + "function" + SEP + 'get_weather\n```json\n{"city": "Tokyo"}\n```' + CALL_END
    check("deepseek_v3", fenced, [
        content("Sure."), dropped(CALL + "function" + SEP), start(0, "get_weather", "get_weather\n```json\n"),
        arguments(0, '{"city": "Tokyo"}'), end(0, "\n```"), dropped(CALL_END), finish(tool_calls=1),
    ])
    check_tokens("deepseek_v3", fenced)


def test_a_head_with_no_name_or_no_separator_starts_no_call():
    for head in (" " + SEP + "{}", "foo{}"):
        events = parsed("deepseek_v3_1", CALLS + CALL + head + CALL_END + CALLS_END)
        assert not [e for e in events if e["kind"] == "tool_call_start"], head
        check("deepseek_v3_1", CALLS + CALL + head + CALL_END + CALLS_END, events)


def test_arguments_that_are_no_object_start_no_call():
    output = CALLS + CALL + "f" + SEP + "[1]" + CALL_END + CALLS_END
    events = parsed("deepseek_v3_1", output)
    assert arguments_of(events) == {}
    check("deepseek_v3_1", output, events)


def test_inkling_args_and_the_repeated_name():
    output = ('<|content_text|>Hi<|end_message|><|message_model|>f<|content_invoke_tool_json|>'
              '{"name":"f","args":{"a":1}}<|end_message|>')
    check("inkling", output, [
        dropped("<|content_text|>"), content("Hi"), dropped("<|end_message|>"), dropped("<|message_model|>"),
        start(0, "f", 'f<|content_invoke_tool_json|>{"name":"f","args":'),
        arguments(0, '{"a":1}', '{"a":1}'), end(0, "}"),
        dropped("<|end_message|>"), finish(tool_calls=1),
    ])


def test_apertus_named_objects():
    output = 'Sure <|tools_prefix|>[{"get_weather": {"city": "London"}}, {"ping": {}}]<|tools_suffix|>'
    events = parsed("apertus", output)
    assert arguments_of(events) == {0: '{"city": "London"}', 1: "{}"}
    assert [e["name"] for e in events if e["kind"] == "tool_call_start"] == ["get_weather", "ping"]
    check("apertus", output, events)


@pytest.mark.parametrize("obj, name, arguments_json", [
    ('{"type": "function", "function": {"name": "f", "arguments": {"a": 1}}}', "f", '{"a": 1}'),
    ('{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\\"a\\": 1}"}}', "f", '{"a": 1}'),
    ('{"function": {"name": "f", "parameters": {}}}', "f", "{}"),
    ('{"name": "f", "arguments": {"a": 1}}', "f", '{"a": 1}'),
    ('{"tool_name": "f", "parameters": {"a": [1]}}', "f", '{"a": [1]}'),
    # the first member's value says it is the call's name: an object or a list are its arguments
    ('{"type": {"a": 1}}', "type", '{"a": 1}'),
    ('{"name": {"a": 1}}', "name", '{"a": 1}'),
    ('{"id": [1]}', "id", "[1]"),
    ('{"f": "{\\"a\\": 1}"}', "f", '{"a": 1}'),
])
def test_apertus_call_objects_where_a_named_one_belongs(obj, name, arguments_json):
    """A first member a call object writes first (a name, OpenAI's `type` or `id` with a scalar,
    `function` with an object) makes Apertus's object a call object (json_outline.pxi)."""
    output = "<|tools_prefix|>[" + obj + ', {"g": {}}]<|tools_suffix|>'
    events = parsed("apertus", output)
    assert arguments_of(events) == {0: arguments_json, 1: "{}"}
    assert [e["name"] for e in events if e["kind"] == "tool_call_start"] == [name, "g"]
    check("apertus", output, events)


def test_hunyuan_answer_markers_are_dropped():
    output = '<answer>\nOK <tool_calls>[{"name": "f", "arguments": {"a": 1}}]</tool_calls>\n</answer>'
    events = parsed("hunyuan_a13b", output)
    assert arguments_of(events) == {0: '{"a": 1}'}
    assert "".join(e["text"] for e in events if e["kind"] == "content") == "\nOK \n"
    check("hunyuan_a13b", output, events)


def test_the_syntax_values():
    assert CallSyntax.json() == CallSyntax.json(CallObject.CALL)
    assert CallSyntax.json(CallObject.ARGUMENTS, head=SEP).native().keys == _native.OlKeys.OL_KEYS_ARGUMENTS
    # with no head, an arguments object is named by the text before its `{` (Mistral v11)
    assert _native.JsonSyntax((), _native.OlKeys.OL_KEYS_ARGUMENTS).head == b"{"
    with pytest.raises(ValueError):
        CallSyntax.json_list(CallObject.ARGUMENTS)
    with pytest.raises(ValueError):
        CallSyntax.json_list(otherwise=CallSyntax.tagged())


def test_mistral_v11_name_before_the_object():
    check("mistral", 'Hello[TOOL_CALLS]add{"a": 1}[TOOL_CALLS] bash [ARGS] {"c": "x"} tail', [
        content("Hello"), dropped("[TOOL_CALLS]"),
        start(0, "add", "add"), arguments(0, '{"a": 1}'), end(0, ""),
        dropped("[TOOL_CALLS] "), start(1, "bash", "bash [ARGS] "), arguments(1, '{"c": "x"}'), end(1, ""),
        malformed(" tail", "text between a call's object and its closing marker"), finish(tool_calls=2),
    ])


def test_mistral_v11_call_id_is_not_the_name():
    # v11's tokenizer writes the model's own call id between the name and `[ARGS]`; the name is
    # the head's first word, the id (which stays in the start's source) is the call's id
    check("mistral", '[TOOL_CALLS]get_weather[CALL_ID]a1B2c3D4e[ARGS]{"city": "Paris"}[TOOL_CALLS]f[CALL_ID]x9[ARGS]{}', [
        dropped("[TOOL_CALLS]"), start(0, "get_weather", "get_weather[CALL_ID]a1B2c3D4e", id="a1B2c3D4e"),
        arguments(0, '{"city": "Paris"}', '[ARGS]{"city": "Paris"}'), end(0, ""),
        dropped("[TOOL_CALLS]"), start(1, "f", "f[CALL_ID]x9", id="x9"), arguments(1, "{}", "[ARGS]{}"), end(1, ""),
        finish(tool_calls=2),
    ])


def test_mistral_v11_call_id_written_with_spaces_or_not_at_all():
    # the id is what follows `[CALL_ID]`, spaces off; a head without one (or with nothing after
    # it) writes none, and the call's id is call_<index>
    check("mistral", '[TOOL_CALLS]f [CALL_ID] k9 [ARGS]{}[TOOL_CALLS]g[CALL_ID][ARGS]{}[TOOL_CALLS]h{}', [
        dropped("[TOOL_CALLS]"), start(0, "f", "f [CALL_ID] k9 ", id="k9"), arguments(0, "{}", "[ARGS]{}"),
        end(0, ""), dropped("[TOOL_CALLS]"), start(1, "g", "g[CALL_ID]"), arguments(1, "{}", "[ARGS]{}"), end(1, ""),
        dropped("[TOOL_CALLS]"), start(2, "h", "h"), arguments(2, "{}"), end(2, ""), finish(tool_calls=3),
    ])


def test_mistral_list_or_one_call():
    check("mistral", '[TOOL_CALLS] [{"name": "f", "arguments": {}}]', [
        dropped("[TOOL_CALLS] ["), start(0, "f", '{"name": "f", "arguments": '), arguments(0, "{}"), end(0, "}"),
        dropped("]"), finish(tool_calls=1),
    ])
    check("mistral", "[TOOL_CALLS] not json", [
        malformed("[TOOL_CALLS] ", NO_CALL), malformed("not json", "unterminated_region"), finish(),
    ])


def test_llama3_bare_list():
    first, second = '{"name": "f", "parameters": {"a": 1}}', '{"name": "g", "parameters": {}}'
    check("llama3_json", "<|python_tag|>" + first + "; " + second, [
        dropped("<|python_tag|>"), start(0, "f", '{"name": "f", "parameters": '), arguments(0, '{"a": 1}'),
        end(0, "}"), dropped("; "), start(1, "g", '{"name": "g", "parameters": '), arguments(1, "{}"), end(1, "}"),
        finish(tool_calls=2),
    ])
    check("llama3_json", "Sure: " + first, [
        content("Sure: "), start(0, "f", '{"name": "f", "parameters": '), arguments(0, '{"a": 1}'), end(0, "}"),
        finish(tool_calls=1),
    ])


def test_phi4_mini_functools():
    check("phi4_mini", 'ok functools[{"name": "f", "arguments": {}}] x', [
        content("ok "), dropped("functools["), start(0, "f", '{"name": "f", "arguments": '), arguments(0, "{}"),
        end(0, "}"), dropped("]"), malformed(" x", "text after the list's end"), finish(tool_calls=1),
    ])
    check("phi4_mini", "import functools; functools.reduce", [content("import functools; functools.reduce"), finish()])


K2_CALLS, K2_CALLS_END = "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"
K2_CALL, K2_ARGS, K2_CALL_END = "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"


def test_kimi_k2_names_the_call_without_the_id():
    """`functions.NAME:N` is Kimi K2's call id: the call is NAME, the id's prefix and number stay in
    the start's source; the id is the head as the model wrote it (spaces off)."""
    output = ("Hi " + K2_CALLS + K2_CALL + "functions.get_weather:0 " + K2_ARGS + '{"city": "Tokyo"}' + K2_CALL_END
              + K2_CALL + "search:1" + K2_ARGS + "{}" + K2_CALL_END + K2_CALLS_END)
    check("kimi_k2", output, [
        content("Hi "), dropped(K2_CALLS), dropped(K2_CALL),
        start(0, "get_weather", "functions.get_weather:0 " + K2_ARGS, id="functions.get_weather:0"),
        arguments(0, '{"city": "Tokyo"}', '{"city": "Tokyo"}'), end(0, ""), dropped(K2_CALL_END),
        dropped(K2_CALL), start(1, "search", "search:1" + K2_ARGS, id="search:1"), arguments(1, "{}", "{}"), end(1, ""),
        dropped(K2_CALL_END), dropped(K2_CALLS_END), finish(tool_calls=2),
    ])


def test_kimi_k2_a_call_opener_in_the_head_begins_it_anew():
    """A `<|tool_call_begin|>` written again before the head's separator restarts the head: the head
    before it is a call that never started, Malformed (a marker cut it off) with its opener; the
    second opener is dropped, and the call is the second head's. SGLang's kimi_k2 reads `b` too;
    vLLM's reads `a` (its name regex stops at the first `:`), with these arguments."""
    output = (K2_CALLS + K2_CALL + "functions.a:0" + K2_CALL + "functions.b:0" + K2_ARGS + '{"x": 1}' + K2_CALL_END
              + K2_CALLS_END)
    check("kimi_k2", output, [
        dropped(K2_CALLS),
        malformed(K2_CALL + "functions.a:0", "a tool-call block that closed without a complete call"), dropped(K2_CALL),
        start(0, "b", "functions.b:0" + K2_ARGS, id="functions.b:0"), arguments(0, '{"x": 1}', '{"x": 1}'),
        end(0, ""), dropped(K2_CALL_END), dropped(K2_CALLS_END), finish(tool_calls=1),
    ])
    check_tokens("kimi_k2", output)
    # an empty head before it: only the opener, dropped
    output = K2_CALLS + K2_CALL + K2_CALL + "functions.b:0" + K2_ARGS + "{}" + K2_CALL_END + K2_CALLS_END
    check("kimi_k2", output, [
        dropped(K2_CALLS), dropped(K2_CALL), dropped(K2_CALL),
        start(0, "b", "functions.b:0" + K2_ARGS, id="functions.b:0"), arguments(0, "{}", "{}"), end(0, ""),
        dropped(K2_CALL_END), dropped(K2_CALLS_END), finish(tool_calls=1),
    ])
    check_tokens("kimi_k2", output)


def test_kimi_k2_a_call_opener_in_the_arguments_is_their_text_and_after_them_the_next_call():
    """From the head's separator until the arguments' object closes the opener is their text (as
    vLLM's and SGLang's kimi_k2 read it); after the object it begins the next call (both incumbents
    run the first call's arguments on over the second call's text, which is no JSON)."""
    output = (K2_CALLS + K2_CALL + "functions.a:0" + K2_ARGS + '{"x": "' + K2_CALL + '"}' + K2_CALL
              + "functions.b:1" + K2_ARGS + "{}" + K2_CALL_END + K2_CALLS_END)
    check("kimi_k2", output, [
        dropped(K2_CALLS), dropped(K2_CALL), start(0, "a", "functions.a:0" + K2_ARGS, id="functions.a:0"),
        arguments(0, '{"x": "', '{"x": "'), arguments(0, K2_CALL, K2_CALL), arguments(0, '"}', '"}'), end(0, ""),
        dropped(K2_CALL), start(1, "b", "functions.b:1" + K2_ARGS, id="functions.b:1"), arguments(1, "{}", "{}"),
        end(1, ""), dropped(K2_CALL_END), dropped(K2_CALLS_END), finish(tool_calls=2),
    ])
    check_tokens("kimi_k2", output)


@pytest.mark.parametrize("head, name", [
    ("functions.a.b:12", "a.b"),        # the number after the last `:`, the prefix once
    ("f:7", "f"),                       # no prefix
    ("functions.functions.f:0", "functions.f"),
    ("functions.f", None),              # no number: no call id, no name (vLLM's and SGLang's kimi_k2 skip it)
    ("functions.invalid.0", None),
    ("f:x", None),                      # no number after the `:`
    ("functions.f:", None),
    ("0", None),                        # only a number (a bare counter): no name, no call
    ("functions.", None),
])
def test_kimi_k2_heads(head, name):
    output = K2_CALLS + K2_CALL + head + K2_ARGS + '{"a": 1}' + K2_CALL_END + K2_CALLS_END
    events = parsed("kimi_k2", output)
    assert [e["name"] for e in events if e["kind"] == "tool_call_start"] == ([name] if name else [])
    check("kimi_k2", output, events)


def _tool(name, *keys, schema=None):
    parameters = schema if schema is not None else {"type": "object", "properties": {k: {} for k in keys}}
    return {"type": "function", "function": {"name": name, "parameters": parameters}}


BY_KEYS = [_tool("a", "x", "y"), _tool("b", "x", "z"), _tool("c", "w\"k", "é")]


@pytest.mark.parametrize("args, tools, name", [
    ('{"x": 1, "y": 2}', BY_KEYS, "a"),                       # the one whose parameters name every key
    ('{"y": 1}', BY_KEYS, "a"),                               # a key of one only (the others need not be written)
    ('{"x": 1}', BY_KEYS, None),                              # several fit: no name
    ('{"x": 1, "q": 2}', BY_KEYS, None),                      # a key no tool declares
    ('{}', BY_KEYS, None),                                    # every tool fits no keys
    ('{"z": {"y": [1, {"y": 2}]}, "x": "\\"y\\": ,"}', BY_KEYS, "b"),  # only the object's own keys
    ('{"w\\"k": 1, "\\u00e9": 2}', BY_KEYS, "c"),           # keys read with their escapes decoded
    (' {\n "z" : 1 }', BY_KEYS, "b"),                         # spaces around and inside
    ('{"x": 1, "x": 2}', BY_KEYS, None),                      # a key written twice is one key
    ('{"z": 1}', BY_KEYS + [_tool("b", "q")], "b"),           # a name's first tool is the one
    ('{"z": 1}', [_tool("b", "q"), _tool("b", "z"), _tool("a", "x")], None),
    ('{}', [_tool("n", schema={"type": "object"}), _tool("b", "x")], None),
    ('{"x": 1}', [_tool("n", schema={"type": "object"}), _tool("b", "x")], "b"),   # no properties name no key
    ('{"x": 1', BY_KEYS[:2] + [_tool("d", "y")], None),       # an object cut short names nothing
    ('{"y": tru}', BY_KEYS, None),                            # an object the validator refuses
    ('["y"]', BY_KEYS, None),                                 # no object
    ('"{\\"y\\": 1}"', BY_KEYS, None),                      # the object written as a string
    ('{"x": 1}', [_tool("f", "x")], "f"),                     # one tool: the one, as before
    ('{"q": 1}', [_tool("f", "x"), _tool("f", "y")], "f"),    # (one function, however many tools name it)
])
def test_kimi_k2_bare_counter_named_by_the_arguments_keys(args, tools, name):
    """A bare counter among several declared functions: once the arguments' object is whole, the
    one function whose parameters name every own key of the object; else no name, no call."""
    output = K2_CALLS + K2_CALL + "7" + K2_ARGS + args + K2_CALL_END + K2_CALLS_END
    events = parsed("kimi_k2", output, tools=tools)
    starts = [e for e in events if e["kind"] == "tool_call_start"]
    assert [e["name"] for e in starts] == ([name] if name else [])
    assert [e["id"] for e in starts] == (["7"] if name else [])
    check("kimi_k2", output, events, tools=tools)
    check_tokens("kimi_k2", output, tools=tools)


@pytest.mark.parametrize("head, name", [
    ("functions.get_weather <|constrain|>json", "get_weather"),
    ("functions.f<|channel|>commentary json", "f"),
    ("browser.search json", "browser.search"),
    (" <|constrain|>json", None),
])
def test_gpt_oss_names_the_call_by_the_heads_first_word(head, name):
    output = "<|channel|>commentary to=" + head + '<|message|>{"a": 1}<|call|>'
    events = parsed("gpt_oss", output)
    assert [e["name"] for e in events if e["kind"] == "tool_call_start"] == ([name] if name else [])
    check("gpt_oss", output, events)


def test_a_name_prefix_or_index_needs_a_head_that_names_the_call():
    with pytest.raises(ValueError):
        CallSyntax.json(name_prefix="functions.")
    with pytest.raises(ValueError):
        CallSyntax.json(CallObject.ARGUMENTS, head="|", name_index="::")
    with pytest.raises(ValueError):
        _native.JsonSyntax((), _native.OlKeys.OL_KEYS_CALL, None, None, "functions.")
    with pytest.raises(ValueError):
        CallSyntax.json(name_word=True)


def test_minimax_m1_objects_one_per_line():
    """`CallSyntax.json_list(bare=True)` (MiniMax M1): the block holds call objects with no list
    around them, one per line; what is between them is the template's; a `]` ends the list as in
    any bare list (Llama 3, Phi-4-mini), and what follows it in the block is text after the list
    (whitespace up to the block's end is its wrapping)."""
    output = '<tool_calls>\n{"name": "f", "arguments": {"a": 1}}\n{"name": "g", "arguments": {}}]\n</tool_calls>'
    check("minimax_m1", output, [
        dropped("<tool_calls>"), dropped("\n"), start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, '{"a": 1}', '{"a": 1}'), end(0, "}"), dropped("\n"),
        start(1, "g", '{"name": "g", "arguments": '), arguments(1, "{}", "{}"), end(1, "}"),
        dropped("]\n"), dropped("</tool_calls>"), finish(tool_calls=2),
    ])


def test_a_lists_comma_held_apart_from_the_object():
    """A `,` after a list object's member, its arguments whole, is the list's once a `{` or `]`
    follows (the object's `}` left out) and the object's otherwise; the list holds it apart until
    that byte, so an object with no name keeps the `,` (a first attempt lost it streamed) and in a
    bare list in prose the `,` before a `]` is prose whole and streamed alike."""
    held_no_call = {"other": "a tool-call region that held no call"}
    check("cohere_command3", '<|START_ACTION|>[{"arguments": [1], ]<|END_ACTION|>', [
        malformed("<|START_ACTION|>[", held_no_call),
        malformed('{"arguments": [1]', {"other": "a tool call without a name"}),
        malformed(", ]<|END_ACTION|>", held_no_call), finish(),
    ])
    check("llama3_json", '{"name": "a", "parameters": {"x": 1}, ]', [
        start(0, "a", '{"name": "a", "parameters": '), arguments(0, '{"x": 1}', '{"x": 1}'), end(0, ""),
        content(", ]"), finish(tool_calls=1),
    ])
    check("llama3_json", '{"name": "a", "parameters": {"x": 1}, "id": 7, ', [
        start(0, "a", '{"name": "a", "parameters": '), arguments(0, '{"x": 1}', '{"x": 1}'),
        malformed(', "id": 7, ', "unterminated_region"), end(0, ""), finish(tool_calls=1),
    ])


LIST_OPENERS = {"llama3_json": "", "xlam": "", "minimax_m1": "<tool_calls>", "cohere_command3": "<|START_ACTION|>",
                "cohere_command4": "<|START_ACTION|>", "phi4_mini": "functools", "mistral": "[TOOL_CALLS]",
                "nemotron_json": "<TOOLCALL>", "granite": "<|tool_call|>", "jamba": "<tool_calls>",
                "hunyuan_a13b": "<tool_calls>", "apertus": "<|tools_prefix|>", "qwen3": "<tool_call>"}


@pytest.mark.parametrize("table", LIST_OPENERS)
@pytest.mark.parametrize("body", [
    '[{"name": "a", "arguments": {"x": 1}, {"name": "b", "arguments": {"y": 2}}] ok',
    '[{"name": "a", "arguments": {"x": 1}, \n ] and', '{"name": "a", "parameters": {"x": 1} ,\n {"name": "b"',
    '[{"name": "a", "arguments": {"x": 1},,{"name": "b", "arguments": {}}]', '{"name": "a", "arguments": {"x": 1}, ',
    'So [{"name": "a", "arguments": {"x": 1}, ; {"name": "b", "arguments": {}}]', '[{"a": {"x": 1}, {"b": {}}]',
    '[{"tool_name": "a", "parameters": {"x": 1}, "tool_call_id": "7", ]',
])
def test_a_held_comma_at_every_chunking(table, body):
    """Whatever the `,` turns out to be, every byte lands once and every chunking reads the same,
    in every table that reads lists of call objects (behind the opener of its region)."""
    output = LIST_OPENERS[table] + body
    check(table, output, runs(parsed(table, output)))
    check_tokens(table, output)


def prose_table(syntax):
    """A user-built table whose first state reads calls in prose, with an ignored separator `<s>`."""
    return (Format("prose_sep").ignores("sep", "<s>").state("calls", Emits.ARGUMENTS).calls(syntax))


@pytest.mark.parametrize("syntax", [CallSyntax.json_list(prose=True), CallSyntax.json_list(bare=True, prose=True),
                                    CallSyntax.pythonic(prose=True)], ids=["list", "bare", "pythonic"])
@pytest.mark.parametrize("output", [
    'x [<s>{"name": "f", "arguments": {}}] y', 'x [ {<s>"arguments": {}}<s>] y',
    'x {<s>"name": "f", "parameters": {}} y',
    'x ```json\n<s>[{"name": <s>"f", "arguments": {}}]\n```', 'x [{"name": "Alice"<s>, "age": 30}<s>] z',
    'x [<s>f(a=1)] y', 'x [fo<s>o(a=1)] y', 'x [ <s> f <s>(a=1)] y',
])
def test_a_separator_in_a_lists_held_start_in_prose_keeps_its_place(syntax, output):
    """A separator (an ignored terminal) that arrives while the start of a list in prose is held
    goes with it: into the call, or back into the prose with a start that is no list, in its place
    (it was lost with the held bytes)."""
    table = prose_table(syntax)
    check(table, output, runs(parsed(table, output)))
