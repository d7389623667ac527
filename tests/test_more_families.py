"""The tables of vLLM's parsers without unit-test cases in shared/ (granite-20b-fc, hy_v3, plamo3,
gigachat3, functiongemma, Muse Spark) and of SGLang's detectors vLLM has no parser for (gigachat35, trinity,
spark25, beam) and the vLLM names read by an existing table (qwen3_json, llama4_json, step5, ling3,
poolside_v1): each on outputs vLLM 0.33's own parser (or SGLang 0.5.23's detector) reads (run
through it when these were written), giving the calls it gives, and the content and reasoning as SPEC keeps them (where vLLM
trims whitespace around them or drops the text between calls, the expectation keeps it; where it
leaves an integer a declared `integer` parameter as text, ling3, the expectation types it; a value
FunctionGemma quotes is a string, as Gemma's notation says, where vLLM json-decodes it), whole
and at every chunking (conservation and well-formedness as everywhere)."""
import json

import pytest

import symphony
from symphony.adapt import chat
from tests.common import check_conservation, check_well_formed, chunkings, replay
from tests.wire import check_per_token, check_tokens

TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {
    "city": {"type": "string"}, "days": {"type": "integer"}}}}},
         {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {
             "tz": {"type": "string"}}}}}]

S = ":opensource"


def _muse_call(name, params):
    """A Muse call message: the recipient header, the block, one invoke of `params`, `<|eom|>`."""
    return (f" to={name}<|message|><atem:function_calls>\n<atem:invoke name=\"{name}\">\n"
            + "".join(f"<atem:parameter name=\"{k}\">{v}</atem:parameter>\n" for k, v in params)
            + "</atem:invoke>\n</atem:function_calls><|eom|>")


MUSE_START = "<|start|>assistant"


def _gcml(name, params):
    """A GigaChat 3.5 invoke: (key, value, string attribute) per parameter."""
    return (f'<｜GCML｜invoke name="{name}">\n'
            + "".join(f'<｜GCML｜parameter name="{k}" string="{q}">{v}</｜GCML｜parameter>\n' for k, v, q in params)
            + "</｜GCML｜invoke>\n")


def _plamo_call(name, arguments):
    return ("<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>" + name
            + "<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>"
            + arguments + "<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>")


# (format, prompt, output, content, reasoning, [(name, arguments)]) as vLLM's parser reads them
CASES = [
    ("granite-20b-fc", None, '<function_call> {"name": "get_weather", "arguments": {"city": "Paris"}}', None, None,
     [("get_weather", {"city": "Paris"})]),
    ("granite-20b-fc", None, 'Let me check.<function_call> {"name": "get_weather", "arguments": {"city": "Paris"}} '
     '<function_call> {"name": "get_time", "arguments": {"tz": "UTC"}}', "Let me check.", None,
     [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "UTC"})]),
    ("hy_v3", None, f"Let me look.\n<tool_calls{S}>\n<tool_call{S}>get_weather<tool_sep{S}>\n<arg_key{S}>city</arg_key{S}>"
     f"\n<arg_value{S}>Paris</arg_value{S}>\n</tool_call{S}>\n<tool_call{S}>get_time<tool_sep{S}>\n</tool_call{S}>\n"
     f"</tool_calls{S}>", "Let me look.\n", None, [("get_weather", {"city": "Paris"}), ("get_time", {})]),
    ("hy_v3", None, f"<tool_calls{S}><tool_call{S}>get_weather<tool_sep{S}><arg_key{S}>city</arg_key{S}><arg_value{S}>"
     f"Paris</arg_value{S}><arg_key{S}>days</arg_key{S}><arg_value{S}>3</arg_value{S}></tool_call{S}></tool_calls{S}>",
     None, None, [("get_weather", {"city": "Paris", "days": 3})]),
    # Hy3-preview's tokenizer spells every marker and tag bare; either spelling, even mixed, reads
    ("hy_v3", None, "Checking.<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>"
     "Paris</arg_value>\n</tool_call>\n</tool_calls>", "Checking.", None, [("get_weather", {"city": "Paris"})]),
    ("hy_v3", None, f"<think>plan</think>Sure.<tool_calls><tool_call{S}>get_time<tool_sep><arg_key>tz</arg_key{S}>"
     f"<arg_value{S}>UTC</arg_value></tool_call></tool_calls{S}>", "Sure.", "plan", [("get_time", {"tz": "UTC"})]),
    ("hunyuan", None, f"<tool_calls{S}><tool_call{S}>get_time<tool_sep{S}><arg_key{S}>tz</arg_key{S}><arg_value{S}>UTC"
     f"</arg_value{S}></tool_call{S}></tool_calls{S}>", None, None, [("get_time", {"tz": "UTC"})]),
    ("plamo3", "<|plamo:begin_think:plamo|>", "plan<|plamo:end_think:plamo|>Sure.<|plamo:begin_tool_requests:plamo|>"
     + _plamo_call("get_weather", '{"city": "Paris", "days": 3}') + _plamo_call("get_time", "{}")
     + "<|plamo:end_tool_requests:plamo|>", "Sure.", "plan",
     [("get_weather", {"city": "Paris", "days": 3}), ("get_time", {})]),
    ("plamo3", "<|plamo:begin_think:plamo|>", "plan then<|plamo:begin_tool_requests:plamo|>"
     + _plamo_call("get_time", "{}") + "<|plamo:end_tool_requests:plamo|><|plamo:tag|>", None, "plan then",
     [("get_time", {})]),
    ("gigachat3", None, 'Checking.<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "get_weather", "arguments": '
     '{"city": "Paris", "days": 3}}</s>', "Checking.", None, [("get_weather", {"city": "Paris", "days": 3})]),
    ("gigachat3", None, '<|function_call|>{"name": "get_time", "arguments": {}}', None, None, [("get_time", {})]),
    ("gigachat3", None, "Hello<|message_sep|>", "Hello", None, []),
    ("functiongemma", None, "Sure.<start_function_call>call:get_weather{city:<escape>Paris<escape>}"
     "<end_function_call><start_function_call>call:get_time{tz:<escape>UTC<escape>}<end_function_call>", "Sure.", None,
     [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "UTC"})]),
    ("functiongemma", None, "<start_function_call>call:get_time{}<end_function_call>", None, None, [("get_time", {})]),
    # a bare value vLLM drops (its parser reads `<escape>`-quoted values only) is read, typed by the tools
    ("functiongemma", None, "<start_function_call>call:get_weather{city:<escape>Paris<escape>,days:3}"
     "<end_function_call>", None, None, [("get_weather", {"city": "Paris", "days": 3})]),
    # Muse Spark (vLLM's muse/musespark1x): commentary is content, developer messages dropped, a
    # bare header opens the thought, `<|eot|>` ends a message, and so does the next one's start
    ("musespark1x", None, " to=self<|message|>plan<|eom|>" + MUSE_START + " to=commentary<|message|>Checking.<|eom|>"
     + MUSE_START + _muse_call("get_weather", [("city", "Paris"), ("days", "3")]) + MUSE_START
     + " to=developer<|message|>note<|eom|>" + MUSE_START + " to=user<|message|>Done.<|eot|>", "Checking.Done.", "plan",
     [("get_weather", {"city": "Paris", "days": 3})]),
    ("muse_spark", None, "<|message|>plan" + MUSE_START + _muse_call("get_time", [("tz", "UTC")]), None, "plan",
     [("get_time", {"tz": "UTC"})]),
    ("muse_spark", None, ' to=self<|message|>thinking about <atem:invoke name="get_time"></atem:invoke><|eom|>'
     + MUSE_START + " to=user<|message|>No call.<|eot|>", "No call.",
     'thinking about <atem:invoke name="get_time"></atem:invoke>', []),
    ("muse_spark", None, " to=get_weather<|message|><atem:function_calls>\n<atem:invoke name=\"get_weather\">\n"
     "<atem:parameter name=\"city\">Paris</atem:parameter>\n</atem:invoke>\n<atem:invoke name=\"get_time\">\n"
     "<atem:parameter name=\"tz\">UTC</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|>", None, None,
     [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "UTC"})]),
    # SGLang's detectors with no vLLM parser: gigachat35 (DSML's invokes under GCML's mark; `</s>`
    # and `<|message_sep|>` dropped), trinity (calls inside the thought are calls; SGLang drops the
    # text after the call), spark25 (GLM's keyed calls, read with a newline between the tags too,
    # where SGLang's pattern reads no arguments)
    ("gigachat35", None, "Let me check.\n<｜GCML｜tool_calls>\n" + _gcml("get_weather", [("city", "Paris", "true"),
                                                                                     ("days", "3", "false")])
     + _gcml("get_time", [("tz", "UTC", "true")]) + "</｜GCML｜tool_calls><|message_sep|>", "Let me check.\n", None,
     [("get_weather", {"city": "Paris", "days": 3}), ("get_time", {"tz": "UTC"})]),
    ("gigachat35", None, "Just text.</s>", "Just text.", None, []),
    ("gigachat35", None, "<｜GCML｜tool_calls>" + _gcml("get_weather", [("city", "[1, 2]", "false")])
     + "</｜GCML｜tool_calls>", None, None, [("get_weather", {"city": [1, 2]})]),
    ("trinity", None, '<think>\nI should check <tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
     "</tool_call> then answer\n</think>\n\nDone.", "\n\nDone.", "\nI should check  then answer\n",
     [("get_weather", {"city": "Paris"})]),
    # Trinity Mini's prompt opens the thought; a `<think>` the model writes again is dropped
    ("trinity", "<|im_start|>assistant\n<think>\n", "<think>\nplan\n</think>\nDone.", "\nDone.", "\nplan\n", []),
    ("trinity", "<|im_start|>assistant\n<think>\n", "plan <tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n"
     "</tool_call></think>Done.", "Done.", "plan ", [("get_time", {})]),
    ("trinity", None, 'Sure.\n<tool_call>\n{"name": "get_time", "arguments": {"tz": "UTC"}}\n</tool_call>', "Sure.\n",
     None, [("get_time", {"tz": "UTC"})]),
    ("spark25", None, "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days"
     "</arg_key>\n<arg_value>3</arg_value>\n</tool_call>", None, None, [("get_weather", {"city": "Paris", "days": 3})]),
    ("spark25", None, "Checking.<tool_call>get_time<arg_key>tz</arg_key><arg_value>UTC</arg_value></tool_call>"
     "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Oslo</arg_value></tool_call>", "Checking.", None,
     [("get_time", {"tz": "UTC"}), ("get_weather", {"city": "Oslo"})]),
    # vLLM names an existing table reads
    ("qwen3_json", None, 'Sure.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n'
     '<tool_call>\n{"name": "get_time", "arguments": {"tz": "UTC"}}\n</tool_call>', "Sure.\n\n", None,
     [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "UTC"})]),
    ("llama4_json", None, '<|python_tag|>{"name": "get_weather", "arguments": {"city": "Paris"}}; {"name": "get_time", '
     '"parameters": {"tz": "UTC"}}', None, None, [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "UTC"})]),
    ("step5", None, "<think>\nplan\n</think>\n\nSure.\n\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n"
     "</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n"
     "</function>\n</tool_call>", "\n\nSure.\n\n\n", "\nplan\n",
     [("get_weather", {"city": "Paris", "days": 3}), ("get_time", {})]),
    ("ling3", "<role>ASSISTANT</role><think>\n", "plan\n</think>\nOK.<tool_call>get_weather<arg_key>city</arg_key>"
     "<arg_value>Paris</arg_value><arg_key>days</arg_key><arg_value>3</arg_value></tool_call><tool_call>get_time"
     "</tool_call>", "\nOK.", "plan\n", [("get_weather", {"city": "Paris", "days": 3}), ("get_time", {})]),
    ("poolside_v1", None, "<think>\nneed weather\n</think>\nChecking.\n<tool_call>get_weather\n<arg_key>city</arg_key>"
     "\n<arg_value>Paris</arg_value>\n</tool_call>\n<tool_call>get_time\n</tool_call>", "\nChecking.\n\n",
     "\nneed weather\n", [("get_weather", {"city": "Paris"}), ("get_time", {})]),
]


def said(events):
    message = chat.message(events)["message"]
    return (message["content"], message["reasoning_content"],
            [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message["tool_calls"] or []])


@pytest.mark.parametrize("fmt, prompt, output, content, reasoning, calls", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_the_message_vllm_reads(fmt, prompt, output, content, reasoning, calls):
    events = symphony.parse(fmt, output, tools=TOOLS, prompt=prompt)
    assert said(events) == (content, reasoning, calls)
    for plan, pieces in chunkings(output):
        got = replay(symphony.parser(fmt, TOOLS), pieces, prompt)
        check_conservation(got, output)
        check_well_formed(got)
        assert said(got) == said(events), plan


# SGLang 0.5.23's `beam` detector and reasoning parser (its fixed BEAM_RESPONSE_TEMPLATE), with the
# tools get_weather(city: string, days: integer) and search(query: string); the prompt ends
# `<|start|>assistant`.
BEAM_TOOLS = TOOLS[:1] + [{"type": "function", "function": {"name": "search", "parameters": {
    "type": "object", "properties": {"query": {"type": "string"}}}}}]
BEAM_PROMPT = "<|start|>user<|message|>hi<|end|><|start|>assistant"
BEAM_THOUGHT, BEAM_ANSWER, BEAM_NEXT = ("<|channel|>analysis<|message|>", "<|channel|>final<|message|>",
                                        "<|end|><|start|>assistant")


def _beam_call(name, params, close="<|call|>"):
    return (f" to={name}<|channel|>analysis <|constrain|>xml<|message|>"
            + "".join(f'<rfl:parameter name="{k}">\n{v}\n</rfl:parameter>' for k, v in params) + close)


# (output, reasoning, content, calls) as SGLang reads them, but where symphony's own rules differ:
# - text outside any message (`Hello` before the answer) is Malformed, shown with the content
#   (SGLang drops it);
# - a call the stream cut ends with its arguments closed, `{"city": "Par"}` (SGLang's whole parse
#   drops it; its stream has started it with no arguments);
# - a call of a tool the request does not declare is kept (names are not checked; SGLang drops it).
BEAM_CASES = [
    (BEAM_ANSWER + "Hello there.<|return|>", None, "Hello there.", []),
    (BEAM_THOUGHT + "Let me think." + BEAM_NEXT + BEAM_ANSWER + "It is sunny.<|return|>", "Let me think.",
     "It is sunny.", []),
    (BEAM_THOUGHT + "Need weather." + BEAM_NEXT + _beam_call("get_weather", [("city", "Paris")]), "Need weather.",
     None, [("get_weather", {"city": "Paris"})]),
    (_beam_call("get_weather", [("city", "Paris")], BEAM_NEXT) + _beam_call("search", [("query", "news")]), None,
     None, [("get_weather", {"city": "Paris"}), ("search", {"query": "news"})]),
    (_beam_call("get_weather", [("city", "Paris"), ("days", "3")]), None, None,
     [("get_weather", {"city": "Paris", "days": 3})]),
    (_beam_call("search", [("query", "line one\nline two\n")]), None, None,
     [("search", {"query": "line one\nline two\n"})]),
    (' to=get_weather<|channel|>analysis <|constrain|>xml<|message|><rfl:parameter name="city">\nParis\n'
     '<rfl:parameter name="days">\n3\n</rfl:parameter><|call|>', None, None,
     [("get_weather", {"city": "Paris", "days": 3})]),
    (BEAM_ANSWER + "Hi.<|end|>", None, "Hi.", []),
    (BEAM_THOUGHT + "thinking...", "thinking...", None, []),
    (BEAM_ANSWER + "Checking." + BEAM_NEXT + _beam_call("get_weather", [("city", "Rome")]), None, "Checking.",
     [("get_weather", {"city": "Rome"})]),
    (_beam_call("search", [("query", "")]), None, None, [("search", {"query": ""})]),
    # the listed differences
    ("Hello" + BEAM_ANSWER + "Hi.<|return|>", None, "HelloHi.", []),
    (BEAM_THOUGHT + "Need weather." + BEAM_NEXT + ' to=get_weather<|channel|>analysis <|constrain|>xml<|message|>'
     '<rfl:parameter name="city">\nPar', "Need weather.", None, [("get_weather", {"city": "Par"})]),
    (_beam_call("nope", [("x", "1")]), None, None, [("nope", {"x": 1})]),
]


@pytest.mark.parametrize("output, reasoning, content, calls", BEAM_CASES, ids=[f"beam-{i}" for i in range(len(BEAM_CASES))])
def test_the_message_sglang_beam_reads(output, reasoning, content, calls):
    """Whole, at every chunking and a token at a time."""
    events = symphony.parse("beam", output, tools=BEAM_TOOLS, prompt=BEAM_PROMPT)
    assert said(events) == (content, reasoning, calls)
    for plan, pieces in chunkings(output):
        got = replay(symphony.parser("beam", BEAM_TOOLS), pieces, BEAM_PROMPT)
        check_conservation(got, output)
        check_well_formed(got)
        assert said(got) == said(events), plan
    check_tokens("beam", output, prompt=BEAM_PROMPT, tools=BEAM_TOOLS)
    check_per_token("beam", output, tools=BEAM_TOOLS)
