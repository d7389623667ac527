"""Family quirks that real models write and the incumbents read: each is a table feature or a
syntax option, read the same whole, at every chunking and one token at a time. Each case says
what the incumbent (vLLM's or SGLang's parser of the family) reads; where symphony reads it
otherwise, the case says why (the contract: every byte in one event, a started call always ends,
prose with no call is content byte for byte).
"""
import dataclasses
import json
import re

import pytest

import symphony
from symphony import _native
from symphony.adapt import chat
from symphony.errors import FormatError
from symphony.events import Dropped, DropReason
from symphony.format import CallSyntax, Emits, Format
from symphony.formats import hy4
from symphony.formats import table as format_table
from symphony.formats.shapes import spaced_special_tokens
from symphony.replay import _check_token_replay, replay_tokens
from tests.common import check_conservation, check_well_formed, chunkings, replay

WEATHER = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {
    "city": {"type": "string"}, "days": {"type": "integer"}}}}}
K3_THINKING = '<|open|>message role="assistant"<|sep|><|open|>think<|sep|>'   # the prompt opens the thought
SEARCH = {"type": "function", "function": {"name": "search", "parameters": {"type": "object", "properties": {
    "query": {"type": "string"}, "limit": {"type": "integer"}}}}}
OPEN = {"type": "function", "function": {"name": "open", "parameters": {"type": "object", "properties": {
    "id": {"type": "integer"}}}}}
LOOKUP = {"type": "function", "function": {"name": "lookup", "parameters": {"type": "object", "properties": {
    "query": {"type": "string"}, "limit": {"type": "integer"}, "enabled": {"type": "boolean"},
    "tags": {"type": "array"}, "ratio": {"type": "number"}, "maybe": {"type": ["boolean", "null"]}}}}}
RUN = {"type": "function", "function": {"name": "run", "parameters": {"type": "object", "properties": {
    "cmd": {"type": "string"}, "n": {"type": "integer"}, "opts": {"type": "object"}}}}}
MOVE = {"type": "function", "function": {"name": "move", "parameters": {"type": "object", "properties": {
    "dx": {"type": "integer"}, "dy": {"type": "integer"}, "mask": {"type": "integer"}}}}}
ORDER = {"type": "function", "function": {"name": "create_order", "parameters": {"type": "object", "properties": {
    "user_id": {"type": "integer"}, "duplicate_demo": {"type": "object"}}}}}


# Step-3.5's broken tags, in a block as its template writes one: (label, the call's tags up to the
# value, SGLang's step3p5 test that reads them)
STEP_BLOCK = "<tool_call>\n{}\nOslo\n</parameter>\n</function>\n</tool_call>"
STEP_BROKEN_TAGS = [
    ("function-without-equals", "<function get_weather>\n<parameter=city>",
     "test_missing_equals_in_known_function_tag"),
    ("function-without-equals-or-space", "<functionget_weather>\n<parameter=city>",
     "test_missing_equals_in_known_function_tag"),
    ("names-a-newline-ends", "<function=get_weather\n<parameter=city",
     "test_missing_right_angle_in_function_and_parameter_tags"),
    ("tag-name-twice", "<function=get_weather>\n<parameter=parameter=city>",
     "test_duplicate_parameter_prefix_is_repaired_when_boundary_is_known"),
]


# values with newlines at their ends: a string's one leading and two trailing, a number's and an object's one
MIMO_NEWLINES = ("<tool_call>\n<function=run>\n<parameter=cmd>\ncat a\n\n</parameter>\n<parameter=n>\n3\n</parameter>\n"
                 "<parameter=opts>\n{\"x\": 1}\n</parameter>\n</function>\n</tool_call>")


TIME = {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {
    "timezone": {"type": "string"}}}}}
TIME_CALL = "<function=get_time>\n<parameter=timezone>\nUTC\n</parameter>\n</function>"


MINIMAX_INVOKE = '<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>'
DSML_INVOKE = ('<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>'
               "\n</｜DSML｜invoke>")
GCML_INVOKE = DSML_INVOKE.replace("DSML", "GCML")
HY4_CALL = ("<tool_call:opensource>get_weather<arg_key:opensource>city</arg_key:opensource><arg_value:opensource>Paris"
            "</arg_value:opensource></tool_call:opensource>")
HY3_CALL = "<tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>"
K3_CALL = ('<|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Paris'
           "<|close|>argument<|sep|><|close|>call<|sep|>")
M3_INVOKE = (']<]minimax[>[<invoke name="get_weather">]<]minimax[>[<city>Paris]<]minimax[>[</city>'
             "]<]minimax[>[</invoke>")
MUSE_INVOKE = '<atem:invoke name="get_weather">\n<atem:parameter name="city">Paris</atem:parameter>\n</atem:invoke>'


@dataclasses.dataclass(frozen=True)
class Quirk:
    name: str
    table: str
    output: str
    content: object
    calls: list
    incumbent: str          # what vLLM's or SGLang's parser of the family reads
    tools: tuple = (WEATHER,)
    reasoning: object = None
    prompt: object = None


def call(name, **arguments):
    return (name, arguments)


QUIRKS = [
    # Qwen2.5-Coder writes several calls at once as a JSON list in one <tools> region
    Quirk("coder-tools-list", "qwen2_5_coder",
          'Checking both.\n<tools>\n[{"name": "get_weather", "arguments": {"city": "Paris"}}, '
          '{"name": "search", "arguments": {"query": "hotels"}}]\n</tools>',
          "Checking both.\n", [call("get_weather", city="Paris"), call("search", query="hotels")],
          "vLLM's qwen25_coder: both calls, the text before the region as content", tools=(WEATHER, SEARCH)),
    Quirk("coder-tool-call-list", "qwen2_5_coder",
          '<tool_call>[{"name": "search", "parameters": {"query": "a"}}]</tool_call> and <tools>\n'
          '{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tools>',
          " and ", [call("search", query="a"), call("get_weather", city="Rome")],
          "vLLM's qwen25_coder: the calls of either region", tools=(WEATHER, SEARCH)),
    Quirk("coder-list-then-text", "qwen2_5_coder",
          '<tools>[{"name": "get_weather", "arguments": {"city": "Oslo"}}] see above</tools> done',
          " see above done", [call("get_weather", city="Oslo")],
          "vLLM's qwen25_coder: the call; text after the list is no call (symphony shows it, Malformed)"),
    # Kimi K2 names a call by its counter alone: the request's only tool is the one it calls
    Quirk("kimi-bare-counter", "kimi_k2",
          "Let me check. <|tool_calls_section_begin|><|tool_call_begin|>0 <|tool_call_argument_begin|>"
          '{"city": "Tokyo"} <|tool_call_end|><|tool_calls_section_end|>',
          "Let me check. ", [call("get_weather", city="Tokyo")],
          "vLLM's and SGLang's kimi_k2: get_weather, the only tool (vLLM's id is the counter, `0`)"),
    Quirk("kimi-bare-counter-second", "kimi_k2",
          "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
          '{"city": "A"}<|tool_call_end|><|tool_call_begin|>1<|tool_call_argument_begin|>{"city": "B"}'
          "<|tool_call_end|><|tool_calls_section_end|>",
          None, [call("get_weather", city="A"), call("get_weather", city="B")],
          "SGLang's kimi_k2: both calls, the second named by the only tool"),
    # with several tools, the one whose parameters name every key of the arguments' object (read
    # once the object is whole); none or several: the call names nothing
    Quirk("kimi-bare-counter-two-tools", "kimi_k2",
          "<|tool_calls_section_begin|><|tool_call_begin|>3<|tool_call_argument_begin|>{\"city\": \"Tokyo\"}"
          "<|tool_call_end|><|tool_calls_section_end|>",
          None, [call("get_weather", city="Tokyo")],
          "SGLang's kimi_k2 (test_detect_and_parse_bare_counter) and vLLM's (its test_bare_counter_multiple_tools_"
          "infers_by_args; 0.33 reads no bare counter): get_weather, the one tool whose parameters name the "
          "arguments' keys", tools=(SEARCH, WEATHER)),
    Quirk("kimi-bare-counter-infers-each-call", "kimi_k2",
          "I'll help. <|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>"
          '{"query": "hotels", "limit": 3}<|tool_call_end|><|tool_call_begin|>1 <|tool_call_argument_begin|>'
          '{"city": "Beijing", "days": 2} <|tool_call_end|><|tool_call_begin|>2<|tool_call_argument_begin|>'
          '{"opts": {"city": "x"}, "cmd": "ls"}<|tool_call_end|><|tool_calls_section_end|>',
          "I'll help. ", [call("search", query="hotels", limit=3), call("get_weather", city="Beijing", days=2),
                          call("run", opts={"city": "x"}, cmd="ls")],
          "SGLang's kimi_k2 (whole): the three calls, each bare counter named by its arguments' keys (a nested object's "
          "keys are not the call's)", tools=(SEARCH, WEATHER, RUN)),
    Quirk("kimi-bare-counter-ambiguous", "kimi_k2",
          "<|tool_calls_section_begin|><|tool_call_begin|>0<|tool_call_argument_begin|>{\"city\": \"Tokyo\"}"
          "<|tool_call_end|><|tool_calls_section_end|>",
          "<|tool_calls_section_begin|><|tool_call_begin|>0<|tool_call_argument_begin|>{\"city\": \"Tokyo\"}"
          "<|tool_call_end|><|tool_calls_section_end|>", [],
          "vLLM's kimi_k2 (its test_bare_counter_multiple_tools_skips_unsafe_inference[ambiguous]): no call where "
          "the arguments fit several tools; SGLang's: the first of the tools that tie (symphony: ambiguous, no "
          "name: the block held no call, so it is the text the model wrote, docs/recovery.md)",
          tools=(WEATHER, {"type": "function", "function": {"name": "book_flight", "parameters": {
              "type": "object", "properties": {"city": {"type": "string"}}}}})),
    Quirk("kimi-bare-counter-undeclared-key", "kimi_k2",
          "<|tool_calls_section_begin|><|tool_call_begin|>0<|tool_call_argument_begin|>"
          '{"city": "Tokyo", "zone": "x"}<|tool_call_end|><|tool_calls_section_end|>',
          "<|tool_calls_section_begin|><|tool_call_begin|>0<|tool_call_argument_begin|>"
          '{"city": "Tokyo", "zone": "x"}<|tool_call_end|><|tool_calls_section_end|>', [],
          "SGLang's kimi_k2: no call for keys no tool declares (its test_detect_and_parse_bare_counter_skips_"
          "unknown), but get_weather here, where one key of two is its (symphony: no tool declares `zone`)",
          tools=(SEARCH, WEATHER)),
    Quirk("kimi-bare-counter-arguments-cut", "kimi_k2",
          "Let me check. <|tool_calls_section_begin|><|tool_call_begin|>0 <|tool_call_argument_begin|>"
          '{"city": "Tokyo"<|tool_call_end|><|tool_calls_section_end|>',
          "Let me check. <|tool_calls_section_begin|><|tool_call_begin|>0 <|tool_call_argument_begin|>"
          '{"city": "Tokyo"<|tool_call_end|><|tool_calls_section_end|>', [],
          "vLLM's kimi_k2 (its test_bare_counter_multiple_tools_skips_unsafe_inference[malformed_json]) and "
          "SGLang's: no call, the arguments never form an object to name it by", tools=(SEARCH, WEATHER)),
    Quirk("kimi-bare-counter-no-tools", "kimi_k2",
          "<|tool_calls_section_begin|><|tool_call_begin|>0<|tool_call_argument_begin|>{}<|tool_call_end|>"
          "<|tool_calls_section_end|>",
          "<|tool_calls_section_begin|><|tool_call_begin|>0<|tool_call_argument_begin|>{}<|tool_call_end|>"
          "<|tool_calls_section_end|>", [],
          "vLLM's and SGLang's kimi_k2: no call (symphony: the block held no call, so it is the text the model "
          "wrote)", tools=()),
    # Muse: a tool's header written in the thought, its `<|eom|>` left out: the header, not thought
    Quirk("muse-tool-header-in-thought", "muse_glimmer",
          ' to=self<|message|>Need the time. to=time.now<|message|><atem:function_calls>\n<atem:invoke name="time.now">'
          "\n</atem:invoke>\n</atem:function_calls><|eom|><|start|>assistant to=user<|message|>It is noon.<|eot|>",
          "It is noon.", [call("time.now")],
          "vLLM's muse (its test_missing_eom_before_tool_header_keeps_tool_call, whole and streamed): the thought "
          "`Need the time. `, ending before `to=time.now<|message|>` (symphony: the header is ` to=`, its space "
          "too), the call time.now", tools=(), reasoning="Need the time."),
    Quirk("muse-tool-header-in-answer", "muse_spark",
          " to=user<|message|>Checking. to=get_weather<|message|><atem:function_calls><atem:invoke "
          'name="get_weather"><atem:parameter name="city">Oslo</atem:parameter></atem:invoke>'
          "</atem:function_calls>",
          "Checking.", [call("get_weather", city="Oslo")],
          "vLLM's muse tool parser: the answer `Checking.` and the call (it ends a message at the next header, "
          "`to=NAME<|message|>`, NAME of letters, digits, `_ . -`; symphony's names also take the template's "
          "`NAME.*`, which vLLM's muse reasoning parser reads as a header too)"),
    Quirk("muse-no-header-in-thought", "muse_spark",
          " to=self<|message|>Go to=the shop<|message|>x<|eom|><|start|>assistant to=user<|message|>ok",
          "ok", [],
          "vLLM's musespark1x and muse: the thought `Go to=the shopx` (a space ends a header's name; the "
          "`<|message|>` dropped)", reasoning="Go to=the shopx"),
    # a family's control token with no region open: dropped, not content
    Quirk("kimi-stray-section-end", "kimi_k2",
          "Done.<|tool_calls_section_end|> Anything else?<|tool_call_argument_begin|>",
          "Done. Anything else?", [],
          "SGLang's kimi_k2: the stray token stripped from the content"),
    Quirk("kimi-stray-call-end-after-block", "kimi_k2",
          "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
          '{"city": "Oslo"}<|tool_call_end|><|tool_calls_section_end|><|tool_call_end|>ok',
          "ok", [call("get_weather", city="Oslo")], "SGLang's kimi_k2: the call; the stray end stripped"),
    # a thought's closer with no thought open: one token of the family's tokenizer, a control token
    *[Quirk(f"stray-thought-close-{table}", table, "plan" + close + "\n\nHello.", "plan\n\nHello.", [],
            "vLLM's and SGLang's reasoning parsers (thinking on): the stray closer dropped (vLLM's glm45 and "
            "holo2 with thinking off keep it)")
      for table, close in (("qwen3", "</think>"), ("qwen3_tagged", "</think>"), ("step3p5", "</think>"),
                           ("glm", "</think>"), ("ling", "</think>"), ("kimi_k2", "</think>"),
                           ("deepseek_v3_1", "</think>"), ("deepseek_v3_2", "</think>"), ("deepseek_v4", "</think>"),
                           ("deepseek_v4_1", "</think>"),
                           ("minimax_m2", "</think>"), ("seed_oss", "</seed:think>"))],
    Quirk("stray-thought-close-after-a-thought", "qwen3",
          "<think>plan</think>Hello.</think> Bye.", "Hello. Bye.", [],
          "SGLang's qwen3 and vLLM's qwen3 reasoning parsers: the second closer dropped", reasoning="plan"),
    Quirk("thought-close-in-a-call-is-its-text", "qwen3",
          '<tool_call>\n{"name": "get_weather", "arguments": {"city": "a</think>b"}}\n</tool_call>', None,
          [call("get_weather", city="a</think>b")], "vLLM's and SGLang's hermes/qwen3: the value as written"),
    # a call written without its section (or K2-Horizon's block): the call opener opens the section
    Quirk("kimi-call-without-its-section", "kimi_k2",
          'Ok <|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}'
          "<|tool_call_end|>",
          "Ok ", [call("get_weather", city="Paris")],
          "SGLang's kimi_k2 (streamed): the call, the prose before it as content (vLLM's: no call; symphony "
          "read `Ok functions.get_weather:0{…}`, the markers dropped as stray control tokens)"),
    Quirk("kimi-calls-without-their-section", "kimi_k2",
          'Ok <|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}'
          '<|tool_call_end|>\n<|tool_call_begin|>functions.get_weather:1<|tool_call_argument_begin|>{"city": "Rome"}'
          "<|tool_call_end|><|tool_calls_section_end|>Done.",
          "Ok \nDone.", [call("get_weather", city="Paris"), call("get_weather", city="Rome")],
          "SGLang's kimi_k2 (streamed): both calls, and the prose around them as written, the newline between "
          "them too (no section was opened: none of it is the section's wrapping); the section's close the "
          "model writes after them is dropped"),
    Quirk("kimi-call-opener-with-no-call", "kimi_k2",
          "Ok <|tool_call_begin|> not a call <|tool_call_end|> x",
          "Ok <|tool_call_begin|> not a call <|tool_call_end|> x", [],
          "vLLM's and SGLang's kimi_k2: no call; symphony: a region that holds no call is the text the model "
          "wrote (docs/recovery.md)"),
    Quirk("k2-horizon-call-without-its-block", "k2_horizon",
          "Sure <ifm|tool_call>search<ifm|arg_key>query</ifm|arg_key>\n<ifm|arg_value>cats</ifm|arg_value>"
          "</ifm|tool_call>",
          "Sure ", [call("search", query="cats")],
          "SGLang's k2_horizon: the call, the prose before it as content", tools=(SEARCH,)),
    # no block was written around a call written without it: the text around the call, whitespace
    # included, is the prose's, never the block's wrapping (shapes.calls_without_block, bare_calls)
    Quirk("kimi-call-without-its-section-in-prose", "kimi_k2",
          'Sure <|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}'
          "<|tool_call_end|> and done.",
          "Sure  and done.", [call("get_weather", city="Paris")],
          "SGLang's kimi_k2 (streamed): the call, `Sure  and done.` (both spaces); whole, and vLLM's: no call "
          "(symphony showed `Sure and done.`, the space after the call taken as the section's wrapping)"),
    Quirk("k2-horizon-calls-without-their-block-in-prose", "k2_horizon",
          "Sure <ifm|tool_call>get_weather\n<ifm|arg_key>city</ifm|arg_key>\n<ifm|arg_value>Paris</ifm|arg_value>\n"
          "</ifm|tool_call> <ifm|tool_call>get_weather\n<ifm|arg_key>city</ifm|arg_key>\n<ifm|arg_value>Rome"
          "</ifm|arg_value>\n</ifm|tool_call>\n</ifm|tool_calls>\nDone.",
          "Sure  \n\nDone.", [call("get_weather", city="Paris"), call("get_weather", city="Rome")],
          "SGLang's k2_horizon, whole and streamed: both calls, `Sure  \n\nDone.` (the block's close dropped, "
          "every space and newline around it and the calls kept); vLLM's: no call"),
    Quirk("deepseek-v3-1-call-without-its-block-in-prose", "deepseek_v3_1",
          'Pre\n<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜>\n'
          "<｜tool▁calls▁end｜>\npost",
          "Pre\n\n\npost", [call("get_weather", city="Paris")],
          "SGLang's deepseekv31 (streamed): the call, `Pre\n\n\npost`; whole: no call"),
    Quirk("deepseek-v4-invoke-without-its-block-in-prose", "deepseek_v4",
          'Checking.\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Paris'
          "</｜DSML｜parameter>\n</｜DSML｜invoke>\nDone.",
          "Checking.\n\nDone.", [call("get_weather", city="Paris")],
          "SGLang's deepseekv4 (streamed): the call, `Checking.\n\nDone.`; whole, and vLLM's deepseek_v4: the "
          "call, `Checking.\n` (no text after a call)"),
    Quirk("minimax-m2-invoke-without-its-block-in-prose", "minimax_m2",
          'Let me check. <invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke> Then more.',
          "Let me check.  Then more.", [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: the call, `Let me check.` (no text after a call, the space stripped); SGLang's "
          "minimax-m2: no call, all of it content"),
    Quirk("gcml-invoke-without-its-block-in-prose", "gigachat35",
          'Ищу. <｜GCML｜invoke name="get_weather">\n<｜GCML｜parameter name="city" string="true">Paris'
          "</｜GCML｜parameter>\n</｜GCML｜invoke> Готово.",
          "Ищу.  Готово.", [call("get_weather", city="Paris")],
          "SGLang's gigachat35: no call, all of it content; symphony reads the invoke as DeepSeek's, the prose "
          "around it as written"),
    Quirk("qwen3-coder-function-without-its-block-in-prose", "qwen3_tagged",
          "Pre <function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function> post",
          "Pre  post", [call("get_weather", city="Paris")],
          "SGLang's qwen3_coder (streamed): the call, both spaces (and the newlines between its tags, "
          "`Pre \n\n post`); whole, no call; vLLM's qwen3_coder: the call, `Pre`"),
    Quirk("minimax-m2-invoke-tag-with-no-call-then-block-close", "minimax_m2",
          "See <invoke name> here</invoke>, then </minimax:tool_call>.",
          "See <invoke name> here</invoke>, then </minimax:tool_call>.", [],
          "SGLang's minimax-m2: no call, all of it content; vLLM's minimax_m2: no call, `</minimax:tool_call>` "
          "dropped. symphony: a region with no call is text, and what follows it is read where its tag was "
          "written (the block's close is text there)"),
    # Kimi K2 writes a call's opener again before the head's separator: the head begins anew
    Quirk("kimi-restarted-call-head", "kimi_k2",
          "ok<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_begin|>"
          'functions.get_weather:0<|tool_call_argument_begin|>{"city": "Oslo"}<|tool_call_end|>'
          "<|tool_calls_section_end|>",
          "ok<|tool_call_begin|>functions.search:0", [call("get_weather", city="Oslo")],
          "SGLang's kimi_k2: get_weather (the last head); vLLM's: search, its first head (its name regex stops "
          "at the first `:`) with these arguments. symphony: the second head is the call's; the first, a call "
          "that never started, is shown (Malformed) as written, its opener with it", tools=(WEATHER, SEARCH)),
    Quirk("kimi-restarted-empty-call-head", "kimi_k2",
          "<|tool_calls_section_begin|><|tool_call_begin|><|tool_call_begin|>functions.get_weather:0"
          '<|tool_call_argument_begin|>{"city": "Oslo"}<|tool_call_end|><|tool_calls_section_end|>',
          None, [call("get_weather", city="Oslo")],
          "SGLang's kimi_k2: get_weather; vLLM's: a call named `<|tool_call_begin|>functions.get_weather`. "
          "symphony: the doubled opener is only a control token, dropped"),
    Quirk("kimi-call-opener-after-arguments", "kimi_k2",
          "<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>"
          '{"query": "a"}<|tool_call_begin|>functions.get_weather:1<|tool_call_argument_begin|>{"city": "Oslo"}'
          "<|tool_call_end|><|tool_calls_section_end|>",
          None, [call("search", query="a"), call("get_weather", city="Oslo")],
          "vLLM's and SGLang's kimi_k2: one call, search, its arguments running on over the second call "
          "(not JSON). symphony: the opener after the arguments' object begins the next call",
          tools=(WEATHER, SEARCH)),
    # DeepSeek V3 and V3.1 leave out a call's end before the next call, as Kimi K2 does
    Quirk("deepseek-v3-1-call-opener-after-arguments", "deepseek_v3_1",
          '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>search<｜tool▁sep｜>{"query": "a"}<｜tool▁call▁begin｜>'
          'get_weather<｜tool▁sep｜>{"city": "Oslo"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
          None, [call("search", query="a"), call("get_weather", city="Oslo")],
          "vLLM's deepseek_v31: both calls streamed (get_weather's arguments running on over the markers "
          "after them), one whole (search, its arguments running on over the second call); SGLang's "
          "deepseekv31: no call. symphony read search and showed the second call as content",
          tools=(WEATHER, SEARCH)),
    Quirk("deepseek-v3-call-opener-after-arguments", "deepseek_v3",
          "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n```json\n"
          '{"query": "a"}\n```<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Oslo"}'
          "\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
          None, [call("search", query="a"), call("get_weather", city="Oslo")],
          "vLLM's deepseek_v3: both calls streamed, one whole (search, its arguments running on); SGLang's "
          "deepseekv3: get_weather whole", tools=(WEATHER, SEARCH)),
    Quirk("deepseek-v3-1-call-without-its-block-opener-after-arguments", "deepseek_v3_1",
          'Pre <｜tool▁call▁begin｜>search<｜tool▁sep｜>{"query": "a"}<｜tool▁call▁begin｜>get_weather'
          '<｜tool▁sep｜>{"city": "Oslo"}<｜tool▁call▁end｜> post',
          "Pre  post", [call("search", query="a"), call("get_weather", city="Oslo")],
          "vLLM's deepseek_v31: no call (no block); read as in a block", tools=(WEATHER, SEARCH)),
    Quirk("deepseek-v3-1-restarted-call-head", "deepseek_v3_1",
          "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>search<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
          '{"city": "Oslo"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
          "<｜tool▁call▁begin｜>search", [call("get_weather", city="Oslo")],
          "vLLM's deepseek_v31: whole, a call named `search<｜tool▁call▁begin｜>get_weather`; streamed, "
          "get_weather. symphony: the second head is the call's, the first a call that never started, shown "
          "with its opener",
          tools=(WEATHER, SEARCH)),
    Quirk("deepseek-v3-1-call-opener-in-arguments", "deepseek_v3_1",
          '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>search<｜tool▁sep｜>{"query": "<｜tool▁call▁begin｜>"}'
          "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
          None, [call("search", query="<｜tool▁call▁begin｜>")],
          "vLLM's deepseek_v31 whole: the opener is the arguments' text, as in symphony", tools=(SEARCH,)),
    Quirk("kimi-call-opener-in-arguments", "kimi_k2",
          "<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>"
          '{"query": "<|tool_call_begin|>"}<|tool_call_end|><|tool_calls_section_end|>',
          None, [call("search", query="<|tool_call_begin|>")],
          "vLLM's and SGLang's kimi_k2: the opener is the arguments' text, as in symphony", tools=(SEARCH,)),
    # a region's opener written again after text, before a call started in it: the first region
    # held no call, so it is the text the model wrote (docs/recovery.md, rule 2)
    Quirk("opener-in-prose-then-a-call", "qwen2_5",
          'Use `<tool_call>` tags like this: <tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}'
          "\n</tool_call>",
          "Use `<tool_call>` tags like this: ", [call("get_weather", city="Paris")],
          "vLLM's hermes: whole, no call (all of it content); streamed, the call and the content `Use `` (both "
          "tags and the text between them lost; symphony dropped the first tag, `Use `` tags like this: `)"),
    Quirk("tagged-opener-in-prose-then-a-call", "qwen3_tagged",
          "See <tool_call> below. <tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
          "</function>\n</tool_call>",
          "See <tool_call> below. ", [call("get_weather", city="Paris")],
          "vLLM's qwen3_coder: the call, the content `See ` (what follows the first tag lost)"),
    Quirk("kimi-section-opener-in-prose-then-a-call", "kimi_k2",
          "Use `<|tool_calls_section_begin|>` here: <|tool_calls_section_begin|><|tool_call_begin|>"
          'functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|>'
          "<|tool_calls_section_end|>",
          "Use `<|tool_calls_section_begin|>` here: ", [call("get_weather", city="Paris")],
          "vLLM's kimi_k2: the call, the content `Use `` (symphony dropped both openers, `Use `` here:`)"),
    Quirk("deepseek-v3-1-block-opener-in-prose-then-a-call", "deepseek_v3_1",
          "A <｜tool▁calls▁begin｜> B <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
          '{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
          "A <｜tool▁calls▁begin｜> B ", [call("get_weather", city="Paris")],
          "vLLM's deepseek_v31: the call, the content `A ` whole and `A  B ` streamed"),
    Quirk("opener-written-twice-is-one", "qwen2_5",
          '<tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
          None, [call("get_weather", city="Paris")],
          "vLLM's hermes streamed, and its qwen3_coder and deepseek_v31 for their openers: the call, no content "
          "(whole, its hermes: no call). Only whitespace between the two: no text is lost, the first is dropped"),
    # the same where the block reads its opener as its text (no row for it there): DSML, MiniMax M2
    Quirk("minimax-m2-block-opener-in-prose-then-a-call", "minimax_m2",
          "Use <minimax:tool_call> blocks: <minimax:tool_call>\n" + MINIMAX_INVOKE + "\n</minimax:tool_call>",
          "Use <minimax:tool_call> blocks: ", [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: the call, the content `Use` whole, `Use ` streamed (the tag and the text after it "
          "lost); SGLang's minimax-m2: whole the same, `Use `; symphony dropped the first tag (`Use blocks: "
          "<minimax:tool_call>`)"),
    Quirk("minimax-m2-block-opener-written-twice-is-one", "minimax_m2",
          "<minimax:tool_call>\n<minimax:tool_call>\n" + MINIMAX_INVOKE + "\n</minimax:tool_call>",
          None, [call("get_weather", city="Paris")],
          "vLLM's minimax_m2 and SGLang's minimax-m2 (whole): the call, no content (symphony showed the second tag)"),
    Quirk("minimax-m2-block-opener-in-prose-no-call", "minimax_m2", "see <minimax:tool_call> x",
          "see <minimax:tool_call> x", [],
          "SGLang's minimax-m2: all of it content; vLLM's minimax_m2: `see ` (the rest lost)"),
    Quirk("minimax-m2-block-opener-after-a-call-is-text", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + "\nsee <minimax:tool_call> x</minimax:tool_call>",
          "see <minimax:tool_call> x", [call("get_weather", city="Paris")],
          "vLLM's minimax_m2 and SGLang's minimax-m2: the call, no content (they drop text after a call); a call "
          "started in the block and text after it: the opener is that text's, as written "
          "(shapes.opener_again_in_block)"),
    # the block's opener written again right after a call, before the block's close: dropped, the block going on
    # (shapes.opener_again_in_block)
    Quirk("minimax-m2-block-opener-again-after-a-call", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + "\n<minimax:tool_call>\n" + MINIMAX_INVOKE.replace("Paris", "Oslo")
          + "\n</minimax:tool_call>", None, [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's minimax_m2 and SGLang's minimax-m2, whole and streamed: both calls, no content (symphony showed "
          "the second `<minimax:tool_call>`)"),
    Quirk("minimax-m2-block-opener-again-after-a-call-unspaced", "minimax_m2",
          "Hi <minimax:tool_call>" + MINIMAX_INVOKE + "<minimax:tool_call>" + MINIMAX_INVOKE.replace("Paris", "Oslo")
          + "</minimax:tool_call>", "Hi ", [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's minimax_m2 and SGLang's minimax-m2, whole and streamed: both calls, the content `Hi ` (vLLM's "
          "whole `Hi`)"),
    Quirk("minimax-m2-block-opener-again-twice-after-a-call", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + "\n<minimax:tool_call>\n<minimax:tool_call>\n"
          + MINIMAX_INVOKE.replace("Paris", "Oslo") + "\n</minimax:tool_call>", None,
          [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's minimax_m2 and SGLang's minimax-m2, whole and streamed: both calls, no content"),
    Quirk("minimax-m2-block-opener-again-then-the-close", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + "\n<minimax:tool_call>\n</minimax:tool_call>\nDone.", "\nDone.",
          [call("get_weather", city="Paris")],
          "SGLang's minimax-m2 whole and vLLM's minimax_m2 streamed: the call, the content `\nDone.` (vLLM's whole "
          "none, SGLang's streamed none); the opener is the block's wrapping, the close the block's"),
    Quirk("minimax-m2-block-opener-again-at-the-end", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + "\n<minimax:tool_call>", None, [call("get_weather", city="Paris")],
          "vLLM's minimax_m2 whole and streamed and SGLang's minimax-m2 streamed: the call, no content (SGLang's "
          "whole: no call, all of it content, its block regex wanting the close)"),
    Quirk("deepseek-v3-2-block-opener-again-after-a-call", "deepseek_v3_2",
          "<｜DSML｜function_calls>\n" + DSML_INVOKE + "\n<｜DSML｜function_calls>\n" + DSML_INVOKE.replace("Paris", "Oslo")
          + "\n</｜DSML｜function_calls>", None, [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's deepseek_v32 and SGLang's deepseekv32, whole and streamed: both calls, no content (symphony "
          "showed the second `<｜DSML｜function_calls>`)"),
    Quirk("deepseek-v4-block-opener-again-after-a-call-unspaced", "deepseek_v4",
          "<｜DSML｜tool_calls>" + DSML_INVOKE + "<｜DSML｜tool_calls>" + DSML_INVOKE.replace("Paris", "Oslo")
          + "</｜DSML｜tool_calls>", None, [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's deepseek_v4 and SGLang's deepseekv4, whole and streamed: both calls, no content"),
    Quirk("deepseek-v4-block-opener-again-then-the-close", "deepseek_v4",
          "<｜DSML｜tool_calls>\n" + DSML_INVOKE + "\n<｜DSML｜tool_calls>\n</｜DSML｜tool_calls>", None,
          [call("get_weather", city="Paris")],
          "vLLM's deepseek_v4 and SGLang's deepseekv4, whole and streamed: the call, no content"),
    Quirk("deepseek-v4-block-opener-after-a-call-and-text-is-text", "deepseek_v4",
          "<｜DSML｜tool_calls>\n" + DSML_INVOKE + "\nsee <｜DSML｜tool_calls>\n" + DSML_INVOKE.replace("Paris", "Oslo")
          + "\n</｜DSML｜tool_calls>", "see <｜DSML｜tool_calls>",
          [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's deepseek_v4 and SGLang's deepseekv4 whole: both calls, no content (SGLang's streamed `\nsee`); "
          "text after the call: the opener is that text's, shown as the block's text is"),
    Quirk("deepseek-v4-1-block-opener-again-after-a-call", "deepseek_v4_1",
          "<｜DSML｜ calls>\n" + DSML_INVOKE.replace("<｜DSML｜", "<｜DSML｜ ").replace("</｜DSML｜", "</｜DSML｜ ")
          + "\n<｜DSML｜ calls>\n" + DSML_INVOKE.replace("Paris", "Oslo").replace("<｜DSML｜", "<｜DSML｜ ")
          .replace("</｜DSML｜", "</｜DSML｜ ") + "\n</｜DSML｜ calls>", None,
          [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's deepseek_v41 and SGLang's deepseekv41, whole and streamed: both calls, no content",
          prompt="<｜Assistant｜>"),
    # the same in the other blocks whose incumbents read both calls (shapes.opener_again_in_block)
    Quirk("gigachat35-block-opener-again-after-a-call", "gigachat35",
          "<｜GCML｜tool_calls>\n" + GCML_INVOKE + "\n<｜GCML｜tool_calls>\n" + GCML_INVOKE.replace("Paris", "Oslo")
          + "\n</｜GCML｜tool_calls>", None, [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "SGLang's gigachat35, whole and streamed: both calls, no content (symphony showed the second "
          "`<｜GCML｜tool_calls>`)"),
    Quirk("gigachat35-block-opener-again-then-the-close", "gigachat35",
          "<｜GCML｜tool_calls>" + GCML_INVOKE + "<｜GCML｜tool_calls>\n</｜GCML｜tool_calls>\nDone.", "\nDone.",
          [call("get_weather", city="Paris")],
          "SGLang's gigachat35, whole and streamed: the call, no content (it drops the text after the block); the "
          "opener is the block's wrapping, the close the block's"),
    Quirk("hy4-block-opener-again-after-a-call", "hy4",
          "<tool_calls:opensource>" + HY4_CALL + "<tool_calls:opensource>" + HY4_CALL.replace("Paris", "Oslo")
          + "</tool_calls:opensource>", None, [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's hy_v4, whole and streamed: both calls, no content (symphony showed the second "
          "`<tool_calls:opensource>`)"),
    Quirk("hy-v3-block-opener-again-after-a-call", "hy_v3",
          "<tool_calls>" + HY3_CALL + "\n<tool_calls>\n" + HY3_CALL.replace("Paris", "Oslo") + "\n</tool_calls>",
          None, [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's hy_v3 and SGLang's hunyuan, whole and streamed: both calls, no content (vLLM's streamed values "
          "run on into `</arg_value`, as with one call)"),
    Quirk("hy-v3-block-opener-again-then-the-close", "hy_v3",
          "<tool_calls>" + HY3_CALL + "<tool_calls>\n</tool_calls>\nDone.", "\nDone.",
          [call("get_weather", city="Paris")],
          "vLLM's hy_v3: the call, no content; SGLang's hunyuan: the call, whole no content, streamed `\nDone.`"),
    Quirk("kimi-k3-tools-opener-again-after-a-call", "kimi_k3",
          "<|open|>tools<|sep|>" + K3_CALL + "\n<|open|>tools<|sep|>\n" + K3_CALL.replace("Paris", "Oslo")
          + "\n<|close|>tools<|sep|>", None, [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's kimi_k3 and SGLang's kimi_k3, whole and streamed: both calls, no content (symphony showed the "
          "second `<|open|>tools<|sep|>`)"),
    Quirk("kimi-k3-spaced-tools-opener-again-after-a-call", "kimi_k3",
          "<|open|>tools<|sep|>" + K3_CALL + "<|open|> tools <|sep|>" + K3_CALL.replace("Paris", "Oslo")
          + "<|close|>tools<|sep|>", None, [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's kimi_k3 and SGLang's kimi_k3, whole and streamed: both calls, no content (the spaced opener is "
          "the same row: shapes.spaced_special_tokens)"),
    Quirk("minimax-m3-block-opener-again-after-a-call", "minimax_m3",
          "]<]minimax[>[<tool_call>\n" + M3_INVOKE + "\n]<]minimax[>[<tool_call>\n" + M3_INVOKE.replace("Paris", "Oslo")
          + "\n]<]minimax[>[</tool_call>", None, [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "SGLang's minimax-m3, whole and streamed: both calls, no content; vLLM's minimax_m3 whole: two calls "
          "(`{}` arguments, as it reads one well-formed block in the probe), streamed none (nor one block's)"),
    Quirk("muse-glimmer-block-opener-again-after-a-call", "muse_glimmer",
          " to=get_weather<|message|><atem:function_calls>\n" + MUSE_INVOKE + "<atem:function_calls>"
          + MUSE_INVOKE.replace("Paris", "Oslo") + "\n</atem:function_calls>", None,
          [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "SGLang's muse, whole and streamed: both calls, no content (symphony showed the second "
          "`<atem:function_calls>`)"),
    Quirk("muse-spark-block-opener-again-after-a-call", "muse_spark",
          " to=get_weather<|message|><atem:function_calls>\n" + MUSE_INVOKE + "\n<atem:function_calls>\n"
          + MUSE_INVOKE.replace("Paris", "Oslo") + "\n</atem:function_calls>", None,
          [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's muse, whole and streamed: both calls, no content"),
    Quirk("deepseek-v3-2-block-opener-in-prose-then-a-call", "deepseek_v3_2",
          "Use <｜DSML｜function_calls> blocks: <｜DSML｜function_calls>\n" + DSML_INVOKE + "\n</｜DSML｜function_calls>",
          "Use <｜DSML｜function_calls> blocks: ", [call("get_weather", city="Paris")],
          "vLLM's deepseek_v32 and SGLang's deepseekv32 (whole): the call, the content `Use ` (SGLang's streamed "
          "keeps all the prose, as symphony); symphony dropped the first tag"),
    Quirk("deepseek-v4-block-opener-in-prose-then-a-call", "deepseek_v4",
          "Use <｜DSML｜tool_calls> blocks: <｜DSML｜tool_calls>\n" + DSML_INVOKE + "\n</｜DSML｜tool_calls>",
          "Use <｜DSML｜tool_calls> blocks: ", [call("get_weather", city="Paris")],
          "vLLM's deepseek_v4 and SGLang's deepseekv4 (whole): the call, the content `Use `"),
    Quirk("deepseek-v4-1-block-opener-in-prose-then-a-call", "deepseek_v4_1",
          "Use <｜DSML｜ calls> blocks: <｜DSML｜ calls>\n" + DSML_INVOKE.replace("<｜DSML｜", "<｜DSML｜ ")
          .replace("</｜DSML｜", "</｜DSML｜ ") + "\n</｜DSML｜ calls>",
          "Use <｜DSML｜ calls> blocks: ", [call("get_weather", city="Paris")],
          "vLLM's deepseek_v41: the call, the content `Use `", prompt="<｜Assistant｜>"),
    # a misspelled DSML block close after the calls: dropped as the block's close (shapes.damaged_closers)
    Quirk("deepseek-v4-misspelled-block-closer", "deepseek_v4",
          "<｜DSML｜tool_calls>\n" + DSML_INVOKE + "\n</｜DSML｜toolcalls>", None, [call("get_weather", city="Paris")],
          "vLLM's deepseek_v4: the call, no content; SGLang's deepseekv4: whole, no call and no content (its "
          "block regex wants the real close), streamed the call (symphony showed `</｜DSML｜toolcalls>`)"),
    Quirk("deepseek-v3-2-misspelled-block-closer-then-prose", "deepseek_v3_2",
          "<｜DSML｜function_calls>\n" + DSML_INVOKE + "\n</｜DSML｜tool>\nDone.", "\nDone.",
          [call("get_weather", city="Paris")],
          "vLLM's deepseek_v32: the call, no content (it drops all text after the block's opener); the prose "
          "after the block is content here, as after the real close"),
    Quirk("deepseek-v4-1-misspelled-block-closer", "deepseek_v4_1",
          "<｜DSML｜ calls>\n" + DSML_INVOKE.replace("<｜DSML｜", "<｜DSML｜ ").replace("</｜DSML｜", "</｜DSML｜ ")
          + "\n</｜DSML｜ call>", None, [call("get_weather", city="Paris")],
          "as V4's (vLLM's deepseek_v41: the call, no content)", prompt="<｜Assistant｜>"),
    Quirk("deepseek-v4-block-closer-cut-short-is-text", "deepseek_v4",
          "<｜DSML｜tool_calls>\n" + DSML_INVOKE + "\n</｜DSML｜tool\nDone", "</｜DSML｜tool\nDone",
          [call("get_weather", city="Paris")],
          "vLLM's deepseek_v4: the call, no content; a damaged close tag a newline ends before its `>` is "
          "the text it is"),
    Quirk("deepseek-v4-damaged-closer-before-any-call-is-text", "deepseek_v4",
          "<｜DSML｜tool_calls>\n</｜DSML｜toolcalls> x", "<｜DSML｜tool_calls>\n</｜DSML｜toolcalls> x", [],
          "vLLM's deepseek_v4: no call, no content; no call read in the block: all of it is text"),
    Quirk("deepseek-v4-block-closer-cut-short-then-the-next-block", "deepseek_v4",
          "<｜DSML｜tool_calls>\n" + DSML_INVOKE + "\n</｜DSML｜tool_calls\n<｜DSML｜tool_calls>\n"
          + DSML_INVOKE.replace("Paris", "Oslo") + "\n</｜DSML｜tool_calls>", None,
          [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's deepseek_v4 and SGLang's deepseekv4: both calls, no content; a damaged close tag the "
          "block's opener follows, whitespace aside, is dropped with it (symphony showed "
          "`</｜DSML｜tool_calls\n<｜DSML｜tool_calls>`)"),
    # MiniMax M2's misspelled block close after the calls, read as DSML's (shapes.damaged_closers)
    Quirk("minimax-m2-misspelled-block-closer", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + "\n</minimax:toolcall>", None, [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: the call, no content; SGLang's minimax-m2: no call, all of it content (its block "
          "regex wants the real close); symphony showed `</minimax:toolcall>`"),
    Quirk("minimax-m2-misspelled-block-closer-then-prose", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + "\n</minimax_tool_call>\nDone.", "\nDone.",
          [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: the call, no content (no text after a call); SGLang's minimax-m2: no call, all of "
          "it content; the prose after the block is content here, as after the real close"),
    Quirk("minimax-m2-misspelled-block-closer-then-the-next-block", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + "\n</minimax:tool_calls>\n<minimax:tool_call>\n"
          + MINIMAX_INVOKE.replace("Paris", "Oslo") + "\n</minimax:tool_call>", None,
          [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's minimax_m2 and SGLang's minimax-m2 (whole): both calls, no content (symphony showed "
          "`</minimax:tool_calls>\n<minimax:tool_call>`)"),
    Quirk("minimax-m2-block-closer-cut-short-then-the-next-block", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + "\n</minimax:tool_call\n<minimax:tool_call>\n"
          + MINIMAX_INVOKE.replace("Paris", "Oslo") + "\n</minimax:tool_call>", None,
          [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's minimax_m2 and SGLang's minimax-m2 (whole): both calls, no content; the cut close tag and the "
          "opener after it are dropped"),
    Quirk("minimax-m2-block-closer-cut-short-is-text", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + "\n</minimax:tool_call\nDone.", "</minimax:tool_call\nDone.",
          [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: the call, no content; SGLang's minimax-m2: no call, all of it content; a damaged "
          "close tag a newline ends before its `>`, no opener after it, is the text it is (as DSML's)"),
    Quirk("minimax-m2-block-closer-cut-by-the-end", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + "\n</minimax:tool_call", None, [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: the call, no content; SGLang's minimax-m2: no call, all of it content; the end of "
          "the stream ends a damaged close tag after a call as its `>` does (symphony showed `</minimax:tool_call`)"),
    Quirk("minimax-m2-block-closer-cut-by-the-end-before-any-call", "minimax_m2",
          "<minimax:tool_call>\n</minimax:tool_call", "<minimax:tool_call>\n</minimax:tool_call", [],
          "SGLang's minimax-m2: all of it content; vLLM's minimax_m2: no call, no content; no call read: text"),
    Quirk("deepseek-v4-block-closer-cut-by-the-end", "deepseek_v4",
          "<｜DSML｜tool_calls>\n" + DSML_INVOKE + "\n</｜DSML｜tool_calls", None, [call("get_weather", city="Paris")],
          "vLLM's deepseek_v4 and SGLang's deepseekv4 (streamed): the call, no content; SGLang's whole reads no "
          "call and no content (symphony showed `</｜DSML｜tool_calls`)"),
    Quirk("minimax-m2-damaged-closer-before-any-call-is-text", "minimax_m2",
          "<minimax:tool_call>\n</minimax:toolcall>\nDone.", "<minimax:tool_call>\n</minimax:toolcall>\nDone.", [],
          "SGLang's minimax-m2: all of it content; vLLM's minimax_m2: no call, no content; no call read in the "
          "block: all of it is text"),
    Quirk("deepseek-v4-block-opener-written-twice-is-one", "deepseek_v4",
          "<｜DSML｜tool_calls>\n<｜DSML｜tool_calls>\n" + DSML_INVOKE + "\n</｜DSML｜tool_calls>",
          None, [call("get_weather", city="Paris")],
          "vLLM's deepseek_v4: the call, no content; SGLang's deepseekv4 the same whole (streamed, the second tag)"),
    Quirk("inkling-control-alphabet", "inkling",
          "<|message_model|><|content_thinking|>leak<|end_message|><|message_user|>x<|content_audio_input|>"
          "<|audio_end|>", "x", [],
          "SGLang's inkling: no `<|` in the content (the whole control alphabet stripped)", reasoning="leak"),
    Quirk("lfm2-stray-call-end", "lfm2_5",
          "<|tool_call_start|>[get_weather(city='Oslo')]<|tool_call_end|> done<|tool_call_end|>",
          " done", [call("get_weather", city="Oslo")], "vLLM's lfm2: the call, no markup in the content"),
    Quirk("lfm2-stray-call-end-in-prose", "lfm2_5", "Done.<|tool_call_end|> Anything else?",
          "Done. Anything else?", [],
          "SGLang's lfm2 (streamed) strips the token; vLLM's server skips it as a special token before its "
          "lfm2 parser sees the text"),
    # the end of the output ends a block of pythonic calls as its marker would: the list's `]`, and
    # the `,` and whitespace between calls, are the template's wrapping there too
    Quirk("lfm2-block-cut-after-its-list", "lfm2_5", "<|tool_call_start|>[get_weather(city='Oslo')]",
          None, [call("get_weather", city="Oslo")],
          "vLLM's lfm2: the call, no content; SGLang's lfm2 reads no call without <|tool_call_end|> (and shows "
          "nothing); symphony showed the `]` as content"),
    Quirk("lfm2-block-cut-after-a-call", "lfm2_5", "<|tool_call_start|>[get_weather(city='Oslo'), ",
          None, [call("get_weather", city="Oslo")],
          "vLLM's lfm2 reads no call there and shows the block as content; SGLang's shows nothing"),
    Quirk("olmo3-block-cut-after-a-call", "olmo3", "<function_calls>\nget_weather(city='Oslo')\n",
          None, [call("get_weather", city="Oslo")],
          "vLLM's olmo3 reads no call without </function_calls> and shows the block as content"),
    # dots' block markers are one token each of its tokenizer (151724, 151725 in the recorded outputs)
    # Python's number forms in a pythonic call's argument: integers in base 16, 8 and 2, underscores,
    # signs applied in turn (in parentheses too), read as the values Python gives
    Quirk("pythonic-based-integers", "pythonic", "[move(mask=0xFF, dx=0o17, dy=0b101)]",
          None, [call("move", mask=255, dx=15, dy=5)],
          "vLLM's pythonic and llama4_pythonic and SGLang's pythonic: 255, 15 and 5 (Python's ast)", tools=(MOVE,)),
    Quirk("pythonic-based-integers-in-prose", "pythonic", "Moving. [move(dx=1_000, mask=0X_ff)] Done.",
          "Moving.  Done.", [call("move", dx=1000, mask=255)],
          "SGLang's pythonic: the call, the prose around it the content (vLLM's pythonic reads a list only as the "
          "whole output)", tools=(MOVE,)),
    Quirk("olmo3-signs-applied-in-turn", "olmo3",
          "<function_calls>\nmove(dx=--1, dy=+-2, mask=-(0x10))\n</function_calls>",
          None, [call("move", dx=1, dy=-2, mask=-16)],
          "vLLM's olmo3: 1, -2 and -16 (its get_parameter_value applies each unary sign to the number)", tools=(MOVE,)),
    Quirk("lfm2-based-integers-and-signs", "lfm2_5",
          "<|tool_call_start|>[move(dx=-0x1, dy=- -3, mask=0b1111_0000)]<|tool_call_end|>",
          None, [call("move", dx=-1, dy=3, mask=240)], "vLLM's and SGLang's lfm2: -1, 3 and 240", tools=(MOVE,)),
    Quirk("pythonic-nested-tuples-and-words", "pythonic", "[move(dx=[-1, -2], path=(None, True, (False, (1,))))]",
          None, [call("move", dx=[-1, -2], path=[None, True, [False, [1]]])],
          "vLLM's pythonic and llama4_pythonic: the tuples as lists (SGLang's pythonic reads no sign and no tuple: "
          "no call)", tools=(MOVE,)),
    # what Python refuses is no literal, and its call no call; the calls after it are read
    Quirk("pythonic-sign-before-no-number", "pythonic", "[move(dx=-(1,)), move(dx=1)]",
          "move(dx=-(1,))", [call("move", dx=1)],
          "SGLang's pythonic skips the call and reads the next; vLLM's pythonic shows the list as content (nothing "
          "streamed)", tools=(MOVE,)),
    Quirk("olmo3-based-underscores-python-refuses", "olmo3",
          "<function_calls>\nmove(mask=0x__1)\nmove(dx=2)\n</function_calls>",
          "move(mask=0x__1)", [call("move", dx=2)],
          "vLLM's olmo3 shows the block as content (Python's SyntaxError), nothing streamed", tools=(MOVE,)),
    Quirk("lfm2-digit-beyond-its-base", "lfm2_5", "<|tool_call_start|>[move(mask=0b12), move(dx=2)]<|tool_call_end|>",
          "move(mask=0b12)", [call("move", dx=2)],
          "SGLang's lfm2 skips the call and reads the next; vLLM's lfm2 shows the block as content", tools=(MOVE,)),
    Quirk("dots-stray-block-close-dropped", "dots3", "Done.</dots_function_call> Anything else?",
          "Done. Anything else?", [],
          "vLLM's dots strips the stray end marker (test_streaming_strips_stray_end_marker); SGLang's dots strips "
          "it streamed and keeps the text whole"),
    Quirk("gemma-stray-closers", "gemma4", "Sure<tool_call|>. <channel|>Bye", "Sure. Bye", [],
          "vLLM's gemma4 (streamed): the text around the tokens as content"),
    Quirk("mistral-stray-think-close", "mistral", "a[/THINK]b", "ab", [], "vLLM's mistral: `[/THINK]` dropped"),
    # Inkling: the payload is what follows the last invoke marker of the message
    Quirk("inkling-last-invoke-marker", "inkling",
          '<|message_model|>weather<|content_invoke_tool_json|>garbage<|content_invoke_tool_json|>'
          '{"name":"get_weather","args":{"city":"SF"}}<|end_message|>',
          "weathergarbage", [call("get_weather", city="SF")],
          "SGLang's inkling: the call read from the last marker (its whole parse shows no content)"),
    Quirk("inkling-marker-in-a-string", "inkling",
          '<|message_model|>w<|content_invoke_tool_json|>{"name":"get_weather","args":{"city":"a'
          '<|content_invoke_tool_json|>b"}}<|end_message|>',
          None, [call("get_weather", city="a<|content_invoke_tool_json|>b")],
          "SGLang's inkling: the call, the marker inside the started call's string its text"),
    Quirk("inkling-unreadable-payload", "inkling",
          "<|message_model|>weather<|content_invoke_tool_json|>{not json at all<|end_message|>",
          "<|message_model|>weather<|content_invoke_tool_json|>{not json at all<|end_message|>", [],
          "SGLang's inkling: no call, the payload as text without the protocol's tokens (symphony: the message "
          "held no call, so it is the text the model wrote, its tokens included, docs/recovery.md)"),
    # Inkling's raw-text tool invocation (`NAME<|content_invoke_tool_text|>text`, a content kind of its
    # alphabet its template never writes): no call, its text the content
    Quirk("inkling-raw-text-invocation", "inkling", "<|content_invoke_tool_text|>Oslo tomorrow<|end_message|>",
          "Oslo tomorrow", [],
          "vLLM's inkling: the text as content (a raw tool block renders as visible text); SGLang's inkling serving "
          "parser (TML's token parser) the same, its text-level InklingDetector a call with no name and arguments "
          '`{"text": "Oslo tomorrow"}` (symphony: a call with no name is none; the marker was shown as content)'),
    Quirk("inkling-raw-text-invocation-with-header", "inkling",
          "<|content_text|>Checking.<|end_message|><|message_model|>get_weather<|content_invoke_tool_text|>Oslo "
          "tomorrow<|end_message|>",
          "Checking.get_weatherOslo tomorrow", [],
          "vLLM's inkling: `Checking.Oslo tomorrow` (the header dropped as metadata); symphony: a header that opened "
          "no call is shown, as before `<|content_text|>` (Malformed), the marker Dropped"),
    # Gemma 4: a string value written without its opening `<|"|>` is read up to its closing one
    Quirk("gemma-unopened-string-with-comma", "gemma4",
          '<|tool_call>call:search{query:Paris, France<|"|>,limit:5}<tool_call|>',
          None, [call("search", query="Paris, France", limit=5)],
          "SGLang's gemma4 (its test_omitted_opening_delimiter_with_comma): the string up to its closing quote, "
          "the comma its text", tools=(SEARCH,)),
    Quirk("gemma-unopened-string-in-nested-object", "gemma4",
          '<|tool_call>call:search{filters:{city:Tokyo<|"|>},query:<|"|>x<|"|>}<tool_call|>',
          None, [call("search", filters={"city": "Tokyo"}, query="x")],
          "SGLang's gemma4 (its test_omitted_opening_delimiter_in_nested_object): the nested string up to its "
          "closing quote, then the next value", tools=(SEARCH,)),
    Quirk("gemma-unopened-string-in-list", "gemma4",
          '<|tool_call>call:search{query:[<|"|>a<|"|>,b<|"|>]}<tool_call|>',
          None, [call("search", query=["a", "b"])],
          "SGLang's gemma4 (its test_omitted_opening_delimiter_in_array): two strings (in a list a `,` ends a "
          "value)", tools=(SEARCH,)),
    Quirk("gemma-unopened-string-several-commas", "gemma4",
          'Looking.<|tool_call>call:search{limit:3, query:Paris, Texas, USA<|"|>}<tool_call|>',
          "Looking.", [call("search", limit=3, query="Paris, Texas, USA")],
          "SGLang's gemma4 reads an unopened string up to its closing quote (its tests above); SGLang 0.5.23, "
          "before that recovery, reads `Paris`", tools=(SEARCH,)),
    Quirk("gemma-scalars-before-a-quoted-value", "gemma4",
          '<|tool_call>call:search{limit:5,query:<|"|>a, b<|"|>}<tool_call|>',
          None, [call("search", limit=5, query="a, b")],
          "SGLang 0.5.23's gemma4: the same (a scalar the next key ends is a scalar)",
          tools=(SEARCH,)),
    Quirk("gemma-unopened-string-cut-by-the-block-end", "gemma4",
          '<|tool_call>call:search{limit:5,query:Paris, France<tool_call|>',
          ", France", [call("search", limit=5, query="Paris")],
          "SGLang 0.5.23's gemma4: no quote closes it, so a bare value up to its `,`; the rest, no key, is "
          "dropped (symphony: Malformed, shown as content)", tools=(SEARCH,)),
    # Gemma 4: the arguments object's `}` left out before the call's `<tool_call|>`: the marker ends
    # the bare scalar being read as the `}` would
    Quirk("gemma-object-unclosed-before-the-call-end", "gemma4",
          '<|tool_call>call:search{query:<|"|>Paris<|"|>,limit:5<tool_call|>Done.',
          "Done.", [call("search", query="Paris", limit=5)],
          "vLLM's and SGLang's gemma4: the same call (both drop `Done.`, prose kept here; symphony cut "
          "`,limit:5` as an argument the call's end cut short, shown as content)", tools=(SEARCH,)),
    Quirk("gemma-object-unclosed-one-scalar", "gemma4",
          "<|tool_call>call:lookup{enabled:false<tool_call|><|tool_call>call:get_weather{days:3<tool_call|>",
          None, [call("lookup", enabled=False), call("get_weather", days=3)],
          "vLLM's and SGLang's gemma4: both calls with their one value (symphony read `{}`, the rest "
          "content)", tools=(LOOKUP, WEATHER)),
    Quirk("gemma-object-unclosed-nested", "gemma4",
          "<|tool_call>call:lookup{tags:[1,2<tool_call|>",
          None, [call("lookup", tags=[1, 2])],
          "vLLM's gemma4: `[\"1\"]`, SGLang's: `[1]` (each drops the `2` its pattern cuts); symphony: the marker "
          "ends the `2` as the `]` would", tools=(LOOKUP,)),
    Quirk("gemma-object-unclosed-key-cut", "gemma4",
          "<|tool_call>call:get_weather{days:3,city<tool_call|>",
          ",city", [call("get_weather", days=3)],
          "vLLM's and SGLang's gemma4: `{\"days\": 3}` (a key with no value is no member; symphony shows it, "
          "Malformed)"),
    Quirk("gemma-object-unclosed-at-the-end", "gemma4",
          "<|tool_call>call:get_weather{days:3",
          "days:3", [call("get_weather")],
          "vLLM's gemma4: `{\"days\": 3}`; SGLang's: no call, the output as content. symphony: the end of "
          "the stream may have cut the scalar (`3` of `30`), so it is Malformed, no marker said it was whole"),
    # Gemma 4: a key written between quotes
    Quirk("gemma-quoted-keys", "gemma4",
          '<|tool_call>call:search{<|"|>query<|"|>:<|"|>Paris, France<|"|>,<|"|>limit<|"|>:5}<tool_call|>',
          None, [call("search", query="Paris, France", limit=5)],
          "vLLM's gemma4: the keys without their quotes, whole and streamed; SGLang's gemma4: the call, its keys "
          "`<|\"|>query<|\"|>` and `<|\"|>limit<|\"|>` (symphony read `{}`, the rest Malformed)", tools=(SEARCH,)),
    Quirk("gemma-quoted-key-after-a-scalar", "gemma4",
          'Now.<|tool_call>call:search{limit:5,<|"|>query<|"|> : <|"|>x<|"|>}<tool_call|>',
          "Now.", [call("search", limit=5, query="x")],
          "vLLM's gemma4: the same (a quote right after a scalar's `,` opens the next key, no string's close)",
          tools=(SEARCH,)),
    # Gemma 4: the call's head written without the word `call` (`:NAME`), or without its prefix
    Quirk("gemma-call-head-without-its-word", "gemma4",
          'Sure.<|tool_call>:get_weather{city:<|"|>Paris<|"|>}<tool_call|><|tool_call>:search{query:<|"|>x<|"|>}'
          "<tool_call|>Done.",
          "Sure.Done.", [call("get_weather", city="Paris"), call("search", query="x")],
          "vLLM's gemma4 (its row for a bare `:` after the opener): both calls, whole and streamed; SGLang's "
          "gemma4: no call (whole: the output as content; streamed: the regions dropped)",
          tools=(WEATHER, SEARCH)),
    Quirk("gemma-call-head-spaced", "gemma4",
          '<|tool_call>call :get_weather{city:<|"|>Paris<|"|>}<tool_call|>',
          None, [call("get_weather", city="Paris")],
          "vLLM's gemma4: get_weather (it drops the head up to its `:`); SGLang's gemma4: no call"),
    Quirk("gemma-call-head-without-its-prefix", "gemma4",
          '<|tool_call>get_weather{city:<|"|>Paris<|"|>}<tool_call|>',
          None, [call("get_weather", city="Paris")],
          "vLLM's gemma4: a call named `<|\"|>Paris<|\"|>}` with `{}`; SGLang's gemma4: no call. symphony: the "
          "name before the `{` is the call's, as the user expects"),
    # Gemma 4: the arguments written between parentheses
    Quirk("gemma-arguments-in-parentheses", "gemma4",
          'Sure.<|tool_call>call:search(limit:5,query:<|"|>a (b), c<|"|>)<tool_call|>Done.',
          "Sure.Done.", [call("search", limit=5, query="a (b), c")],
          "vLLM's gemma4 (its row for `(` after the name): the call, whole and streamed (its whole parse drops "
          "`Done.`); SGLang's gemma4: no call, the output as content", tools=(SEARCH,)),
    Quirk("gemma-arguments-in-parentheses-nested", "gemma4",
          '<|tool_call>call:lookup(query:x,tags:[1,<|"|>b<|"|>],maybe:null)<tool_call|>'
          '<|tool_call>call:lookup()<tool_call|>',
          None, [call("lookup", query="x", tags=[1, "b"], maybe=None), call("lookup")],
          "vLLM's gemma4: both calls (it reads the list's `1` as `\"1\"`, untyped)", tools=(LOOKUP,)),
    # Kimi K3: a thought closed by `<|close|>think` without the `<|sep|>` the template writes after it
    Quirk("kimi-k3-think-close-without-separator", "kimi_k3",
          "thought<|close|>think<|open|>response<|sep|>reply<|close|>response<|sep|>",
          "reply", [], "SGLang's kimi_k3 (its test_non_stream_recovers_missing_think_separator): the thought "
          "ends there", reasoning="thought", prompt=K3_THINKING),
    Quirk("kimi-k3-think-close-with-separator", "kimi_k3",
          "thought<|close|>think<|sep|><|open|>response<|sep|>reply<|close|>response<|sep|>",
          "reply", [], "SGLang's kimi_k3: the thought's own close, read as it always was", reasoning="thought",
          prompt=K3_THINKING),
    Quirk("kimi-k3-think-close-without-separator-at-the-end", "kimi_k3", "deep thought<|close|>think",
          None, [], "SGLang's kimi_k3 (its test_non_stream_strips_partial_marker_suffixes): the cut marker "
          "stripped from the thought", reasoning="deep thought", prompt=K3_THINKING),
    Quirk("kimi-k3-think-close-without-separator-before-tools", "kimi_k3",
          'plan<|close|>think<|open|>tools<|sep|><|open|>call tool="get_weather" index="0"<|sep|>'
          '<|open|>argument key="city" type="string"<|sep|>Oslo<|close|>argument<|sep|><|close|>call<|sep|>'
          "<|close|>tools<|sep|><|close|>message<|sep|>",
          None, [call("get_weather", city="Oslo")], "SGLang's kimi_k3: the thought ends at the tools channel, the "
          "call read from it", reasoning="plan", prompt=K3_THINKING),
    # Kimi K3's markers as a detokenizer writes them when it spaces special tokens (one space
    # between `<|open|>`, `<|close|>`, `<|sep|>` and the word): read as the markers they spell; the
    # spaces it writes beside the text are the text's (no reader can tell them from the model's)
    Quirk("kimi-k3-spaced-response", "kimi_k3", "<|open|> response <|sep|>answer<|close|> response <|sep|>",
          "answer", [], "vLLM's kimi_k3 (its test_extract_content_from_whitespace_degraded_markers): content "
          "`answer`, its markers' patterns allow whitespace around the word; SGLang's kimi_k3 finds the exact markers "
          "only (the spaced ones stay in the content)", tools=()),
    Quirk("kimi-k3-spaced-thought-and-response", "kimi_k3",
          "plan <|close|> think <|sep|> <|open|> response <|sep|> answer <|close|> response <|sep|> "
          "<|close|> message <|sep|>",
          " answer ", [], "vLLM's kimi_k3 reasoning and tool parsers: the thought `plan `, the content ` answer `",
          tools=(), reasoning="plan ", prompt=K3_THINKING),
    Quirk("kimi-k3-spaced-think-close-without-separator", "kimi_k3",
          "plan <|close|> think <|open|> response <|sep|>reply", "reply", [],
          "vLLM's kimi_k3 reads no close without its `<|sep|>`, SGLang's none spaced (symphony: the recovery's "
          "marker spaced, as every marker of the table)", tools=(), reasoning="plan ", prompt=K3_THINKING),
    Quirk("kimi-k3-spaced-call", "kimi_k3",
          '<|close|> think <|sep|> <|open|> tools <|sep|> <|open|> call tool="get_weather" index="0" <|sep|> '
          '<|open|> argument key="city" type="string" <|sep|> Oslo <|close|> argument <|sep|> '
          '<|open|> argument key="days" type="number" <|sep|> 3 <|close|> argument <|sep|> <|close|> call <|sep|> '
          "<|close|> tools <|sep|> <|close|> message <|sep|>",
          None, [call("get_weather", city=" Oslo ", days=3)],
          "vLLM's kimi_k3: the call, its string ` Oslo ` (the spaces beside a value are its text) and its number 3; "
          "SGLang's kimi_k3: no call (it finds the exact markers only)", prompt=K3_THINKING),
    Quirk("kimi-k3-spaced-call-without-index", "kimi_k3",
          '<|open|> tools <|sep|> <|open|> call tool="get_weather" <|sep|> <|close|> call <|sep|> '
          "<|close|> tools <|sep|>",
          None, [call("get_weather")], "vLLM's kimi_k3: the call, no arguments"),
    Quirk("kimi-k3-spaced-opener-inside-the-response", "kimi_k3",
          "See <|open|> response <|sep|> here<|close|> response <|sep|>",
          "See <|open|> response <|sep|> here", [],
          "vLLM's kimi_k3: the text after the opener it finds (` here`); symphony: the response's opener inside the "
          "response is its text, spaced or not", tools=(),
          prompt='<|open|>message role="assistant"<|sep|><|open|>response<|sep|>'),
    # Kimi K3: an argument typed `integer` (JSON Schema's name; the template writes `number`), typed
    # otherwise, or written with no `type`
    Quirk("kimi-k3-integer-argument", "kimi_k3",
          '<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|>'
          '<|open|>argument key="city" type="string"<|sep|>Oslo<|close|>argument<|sep|>'
          '<|open|>argument key="days" type="integer"<|sep|>3<|close|>argument<|sep|>'
          "<|close|>call<|sep|><|close|>tools<|sep|>",
          None, [call("get_weather", city="Oslo", days=3)],
          "vLLM's and SGLang's kimi_k3: `days` read as JSON, as a `number` is (symphony showed the "
          "argument as content)"),
    Quirk("kimi-k3-argument-without-type", "kimi_k3",
          '<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|>'
          '<|open|>argument key="city"<|sep|>3 Oslo Street<|close|>argument<|sep|>'
          "<|close|>call<|sep|><|close|>tools<|sep|>",
          None, [call("get_weather", city="3 Oslo Street")],
          "vLLM's and SGLang's kimi_k3: the value as its text, as `type=\"string\"` reads it (symphony "
          "showed the argument as content)"),
    Quirk("kimi-k3-argument-of-another-type", "kimi_k3",
          '<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|>'
          '<|open|>argument key="days" type="int"<|sep|>3<|close|>argument<|sep|>'
          '<|open|>argument key="city" type="place"<|sep|>Oslo<|close|>argument<|sep|>'
          "<|close|>call<|sep|><|close|>tools<|sep|>",
          None, [call("get_weather", days=3, city="Oslo")],
          "vLLM's and SGLang's kimi_k3: a type other than `string` reads the value as JSON, else its text"),
    # DeepSeek V3: the closing fence written after more whitespace than the template's one newline
    Quirk("deepseek-v3-fence-after-spaces", "deepseek_v3",
          "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
          '{"city": "Oslo"}  \n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
          None, [call("get_weather", city="Oslo")],
          "vLLM's deepseek_v3 and SGLang's deepseekv3 (whole and streamed): the call, the fence its markup "
          "(symphony showed the fence as content)"),
    Quirk("deepseek-v3-fence-after-a-blank-line", "deepseek_v3",
          "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
          '{"city": "Oslo"}\n\n```\n<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
          None, [call("get_weather", city="Oslo")],
          "vLLM's deepseek_v3 and SGLang's deepseekv3 (streamed): the call, the fence its markup"),
    Quirk("deepseek-v3-fence-without-a-newline", "deepseek_v3",
          "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
          '{"city": "Oslo"}```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
          None, [call("get_weather", city="Oslo")],
          "vLLM's deepseek_v3 and SGLang's deepseekv3: no call; symphony reads the call, its fence the "
          "call's markup"),
    # Qwen3-Coder / MiMo / Step-3.5 (qwen3_tagged): a function name or a key written with spaces
    # around it inside its tag
    Quirk("qwen3-tagged-names-with-spaces", "qwen3_tagged",
          "<tool_call>\n<function= get_weather >\n<parameter= city >\nOslo\n</parameter>\n<parameter=days\t>\n3\n"
          "</parameter>\n</function>\n</tool_call>",
          None, [call("get_weather", city="Oslo", days=3)],
          "SGLang's mimo: the name and keys less their spaces; vLLM's qwen3_coder, step3p5 and mimo: the name "
          "less its spaces (`city `, `days\\t` keep theirs); SGLang's qwen3_coder: as written (` get_weather `). "
          "symphony read them as written, so a declared key went untyped and a checked name undeclared"),
    Quirk("step3p5-tag-with-spaces", "step3p5",
          "<tool_call><function bash ><parameter=command >pwd</parameter></function></tool_call>",
          None, [("bash", {"command": "pwd"})],
          "SGLang's step3p5 reads `<function bash>` (its test_missing_equals_in_known_function_tag), vLLM's "
          "step3p5 no call; symphony's step3p5: the function tag without its `=` names `bash` less its spaces, "
          "a declared tool (qwen3_tagged reads no such tag)",
          tools=({"type": "function", "function": {"name": "bash", "parameters": {"type": "object", "properties": {
              "command": {"type": "string"}}}}},)),
    # A call opener inside a thought the model did not close (`<think>plan<tool_call>…`, no
    # `</think>`): the thought ends there and the call is read (shapes.call_ends_thought)
    Quirk("qwen3-call-opener-ends-the-thought", "qwen3",
          '<think>I need the weather in Oslo.\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}'
          "\n</tool_call>",
          None, [call("get_weather", city="Oslo")],
          "vLLM's qwen3 (its test_reasoning[tool_call_with_think_no_end]) and SGLang's qwen3 (Qwen3Detector's "
          "tool_start_token): the thought ends at `<tool_call>`, the call read from it",
          reasoning="I need the weather in Oslo.\n\n"),
    Quirk("qwen3-tagged-call-opener-ends-the-thought", "qwen3_tagged",
          "I need to read the file.\n\n<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n"
          "</function>\n</tool_call>\n<tool_call>\n<function=get_weather>\n<parameter=days>\n2\n</parameter>\n"
          "</function>\n</tool_call>",
          None, [call("get_weather", city="Oslo"), call("get_weather", days=2)],
          "vLLM's qwen3 (its test_reasoning[tool_call_no_think_end], Qwen 3.5's prompt opening the thought) and "
          "SGLang's qwen3 (\"Qwen3.5 sometimes opens <tool_call> without closing </think>\"): the thought ends "
          "at `<tool_call>`, both calls read", reasoning="I need to read the file.\n\n",
          prompt="<|im_start|>assistant\n<think>\n"),
    # Step-3.5 writes some of its tags broken: its table reads them as meant (CallSyntax.tagged(
    # broken_tags=True)); qwen3_tagged, as SGLang's qwen3_coder and every vLLM parser, as written
    *[Quirk(f"step3p5-{label}", "step3p5", STEP_BLOCK.format(body), None, [call("get_weather", city="Oslo")],
            "SGLang's step3p5 (its " + test + "): the call; vLLM's step3p5 and qwen3_coder and SGLang's "
            "qwen3_coder read it as written")
      for label, body, test in STEP_BROKEN_TAGS],
    *[Quirk(f"qwen3-tagged-{label}-as-written", "qwen3_tagged", STEP_BLOCK.format(body), STEP_BLOCK.format(body), [],
            "SGLang's qwen3_coder (its test_qwen_parser_does_not_gain_step_repair[qwen3_coder]) and vLLM's "
            "qwen3_coder, qwen3_xml and step3p5: no call, or for a name a newline ends one named with the broken "
            "tag's bytes and no arguments; no call here, so the block is the text the model wrote")
      for label, body, test in STEP_BROKEN_TAGS[:3]],
    Quirk("qwen3-tagged-tag-name-twice-as-written", "qwen3_tagged",
          STEP_BLOCK.format("<function=get_weather>\n<parameter=parameter=city>"), None,
          [("get_weather", {"parameter=city": "Oslo"})],
          "vLLM's qwen3_coder, qwen3_xml and step3p5 and SGLang's qwen3_coder: the key `parameter=city`"),
    Quirk("step3p5-function-without-equals-after-a-call", "step3p5",
          "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\n"
          "<function get_weather>\n<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>",
          None, [call("get_weather", city="Oslo"), call("get_weather", days=2)],
          "SGLang's step3p5 reads the first call only (and shows nothing of the second); one rule wherever "
          "the tag stands: the block's later function tag is read as its first is"),
    Quirk("qwen3-tagged-function-without-equals-after-a-call", "qwen3_tagged",
          "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\n"
          "<function get_weather>\n<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>",
          "<function get_weather>\n<parameter=days>\n2\n</parameter>\n</function>", [call("get_weather", city="Oslo")],
          "vLLM's qwen3_coder and SGLang's qwen3_coder: the first call; the rest, no tag, is text between the "
          "block's calls (Malformed, shown)"),
    # a function tag whose `>` is missing, before the next call: the next call reads whole, the damaged
    # tag is the text it is (content where it opened a region of its own, Malformed in a block)
    Quirk("qwen3-tagged-unclosed-function-tag-then-a-call", "qwen3_tagged",
          "Sure. <function=get_weather\n" + TIME_CALL, "Sure. <function=get_weather\n",
          [call("get_time", timezone="UTC")],
          "vLLM's qwen3_coder and qwen3_xml: `get_weather` with `{}` (`get_weather\\n` streamed) and the call, "
          "`Sure.`; SGLang's qwen3_coder: whole no call, all of it content, streamed one call named "
          "`get_weather\\n<function=get_time` with the second's arguments. symphony showed it all as content",
          tools=(WEATHER, TIME)),
    *[Quirk(f"{table}-unclosed-function-tag-cut-by-a-call", table,
            "Sure. <function=get_weather" + TIME_CALL, "Sure. <function=get_weather",
            [call("get_time", timezone="UTC")],
            f"vLLM's {parser}: `get_weather` with `{{}}` and the call; SGLang's {parser}: whole no call, all of it "
            "content, streamed one call named `get_weather<function=get_time`. symphony showed it all as content",
            tools=(WEATHER, TIME))
      for table, parser in (("qwen3_tagged", "qwen3_coder"), ("step3p5", "step3p5"))],
    Quirk("qwen3-tagged-unclosed-function-tag-with-parameters-then-a-call", "qwen3_tagged",
          "Sure. <function=get_weather\n<parameter=city>\nParis\n</parameter>\n</function>\n" + TIME_CALL,
          "Sure. <function=get_weather\n<parameter=city>\nParis\n</parameter>\n</function>\n",
          [call("get_time", timezone="UTC")],
          "vLLM's qwen3_coder and qwen3_xml: a call named `get_weather\\n<parameter=city` with `{}`, and the "
          "call; SGLang's qwen3_coder: the same streamed, whole no call. The name ran past its line: no tag "
          "(qwen3_tagged reads none of Step-3.5's broken tags)", tools=(WEATHER, TIME)),
    Quirk("qwen3-tagged-unclosed-function-tag-in-a-block-then-a-call", "qwen3_tagged",
          "<tool_call>\n<function=get_weather\n" + TIME_CALL + "\n</tool_call>", "<function=get_weather\n",
          [call("get_time", timezone="UTC")],
          "vLLM's qwen3_coder and qwen3_xml: `get_weather` with `{}` and the call; SGLang's qwen3_coder: one call "
          "named `get_weather\\n<function=get_time`, the second's arguments. The tag the next one cut short "
          "is Malformed", tools=(WEATHER, TIME)),
    Quirk("qwen3-tagged-unclosed-function-tag-with-parameters-in-a-block", "qwen3_tagged",
          "<tool_call>\n<function=get_weather\n<parameter=city>\nParis\n</parameter>\n</function>\n" + TIME_CALL
          + "\n</tool_call>", "<function=get_weather\n<parameter=city>\nParis\n</parameter>\n</function>",
          [call("get_time", timezone="UTC")],
          "vLLM's qwen3_coder and qwen3_xml and SGLang's qwen3_coder: a call named `get_weather\\n<parameter=city` "
          "with `{}`, and the call", tools=(WEATHER, TIME)),
    Quirk("qwen3-tagged-unclosed-function-tag-then-a-block", "qwen3_tagged",
          "Sure. <function=get_weather\n<tool_call>\n" + TIME_CALL + "\n</tool_call>", "Sure. <function=get_weather\n",
          [call("get_time", timezone="UTC")],
          "vLLM's qwen3_coder and qwen3_xml: `get_weather` with `{}` and the call, `Sure.`; SGLang's qwen3_coder: "
          "whole the call, `Sure. <function=get_weather\\n`; streamed a call named `get_weather\\n<tool_call` with "
          "no arguments, then the call",
          tools=(WEATHER, TIME)),
    Quirk("qwen3-tagged-unclosed-function-tag-in-a-block-then-a-block", "qwen3_tagged",
          "<tool_call>\n<function=get_weather<tool_call>\n" + TIME_CALL + "\n</tool_call>",
          "<tool_call>\n<function=get_weather", [call("get_time", timezone="UTC")],
          "vLLM's qwen3_coder and qwen3_xml: `get_weather` with `{}` and the call; SGLang's qwen3_coder: whole one "
          "call named `get_weather<tool_call` with the second's arguments (streamed that name with none, then the "
          "call). The first block held no call: its text, opener included (rule 2)",
          tools=(WEATHER, TIME)),
    Quirk("step3p5-unclosed-function-tag-then-a-call", "step3p5",
          "Sure. <function=get_weather\n" + TIME_CALL, "Sure. ",
          [call("get_weather"), call("get_time", timezone="UTC")],
          "vLLM's step3p5: `get_weather` with `{}` and the call, `Sure.`; SGLang's step3p5: as its qwen3_coder. "
          "Step-3.5's broken tags: a newline ends the declared name, and a tag follows it",
          tools=(WEATHER, TIME)),
    # MiMo's template writes a value right after its tag, Qwen3-Coder's on its own line: a newline at
    # either end of a value is the value's in `mimo` (Placement.DIRECT), the template's in qwen3_tagged
    Quirk("mimo-value-newlines-are-the-value's", "mimo", MIMO_NEWLINES, None,
          [call("run", cmd="\ncat a\n\n", n=3, opts={"x": 1})],
          "vLLM's mimo and SGLang's mimo, whole and streamed: a string keeps the newlines at its ends (a file's "
          "content its last `\\n`), a number and an object are read past them; symphony read MiMo with "
          "qwen3_tagged, which dropped one at each end (`cat a\\n`)", tools=(RUN,)),
    Quirk("qwen3-tagged-value-newlines-one-each-end-the-template's", "qwen3_tagged", MIMO_NEWLINES, None,
          [call("run", cmd="cat a\n", n=3, opts={"x": 1})],
          "vLLM's qwen3_coder and SGLang's qwen3_coder, whole and streamed: one newline after the value's tag "
          "and one before its close are the template's", tools=(RUN,)),
    Quirk("glm-call-opener-ends-the-thought", "glm",
          "Oslo, then.<tool_call>get_weather<arg_key>city</arg_key><arg_value>Oslo</arg_value></tool_call>",
          None, [call("get_weather", city="Oslo")],
          "vLLM's glm45/glm47 (one GLM-4.7 engine: a row from the thought on `<tool_call>`) and SGLang's glm45 "
          "(its test_detect_and_parse_tool_interrupt): the thought ends there, the call read",
          reasoning="Oslo, then.", prompt="<|assistant|><think>"),
    Quirk("ling-call-opener-ends-the-thought", "ling",
          "Oslo, then.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Oslo</arg_value>\n</tool_call>",
          None, [call("get_weather", city="Oslo")],
          "vLLM's ling3 and glm45 (the GLM-4.7 engine) and SGLang's ling3 and glm45 (Glm45Detector's "
          "tool_start_token): the thought ends at `<tool_call>`, the call read",
          reasoning="Oslo, then.\n", prompt="<role>ASSISTANT</role><think>\n"),
    Quirk("hunyuan-a13b-calls-opener-ends-the-thought", "hunyuan_a13b",
          '<think>\nThe user wants Oslo.\n<tool_calls>[{"name": "get_weather", "arguments": {"city": "Oslo"}}]'
          "</tool_calls>",
          None, [call("get_weather", city="Oslo")],
          "SGLang's hunyuan (its test_reasoning_parser_integration: `<tool_calls>` is the tool start token): the "
          "thought ends there; vLLM's hunyuan_a13b reads a whole output whose thought never closes as content, "
          "the block's call read by its tool parser (streamed, it keeps the block in the thought)",
          reasoning="\nThe user wants Oslo.\n"),
    Quirk("gemma-call-opener-ends-the-thought", "gemma4",
          '<|channel>thought\nThe user wants Oslo.<|tool_call>call:get_weather{city:<|"|>Oslo<|"|>}<tool_call|>',
          None, [call("get_weather", city="Oslo")],
          "vLLM's gemma4 (its row from the thought on `<|tool_call>`), thinking on or off, whole and streamed: "
          "the thought ends there, the call read; SGLang's gemma4 keeps the rest of the output in the thought",
          reasoning="\nThe user wants Oslo."),
    Quirk("qwen3-call-opener-in-the-thought-holding-no-call", "qwen3",
          "<think>I could write <tool_call> here.</think>Done.",
          "<tool_call> here.</think>Done.", [],
          "SGLang's qwen3: reasoning `I could write `, the rest the content it hands its tool parser (no call); "
          "symphony: the region held no call, so it is the text the model wrote", reasoning="I could write "),
    Quirk("seed-oss-call-markup-in-the-thought-is-the-thought", "seed_oss",
          "<seed:think>The format is <seed:tool_call>\n<function=get_weather>\n<parameter=city>Oslo</parameter>\n"
          "</function>\n</seed:tool_call>. Let me call it.</seed:think><seed:tool_call>\n<function=get_weather>\n"
          "<parameter=city>Bergen</parameter>\n</function>\n</seed:tool_call>",
          None, [call("get_weather", city="Bergen")],
          "vLLM's seed_oss (the Qwen3 engine) ends the thought at `<seed:tool_call>` and would call Oslo too; "
          "SGLang has no Seed-OSS reasoning parser. Seed-OSS writes its call markup in the thought as it plans "
          "(vLLM's own test_extract_tool_calls[tool_call_unlimited_thinking_budget]), so `seed_oss` keeps it there",
          reasoning="The format is <seed:tool_call>\n<function=get_weather>\n<parameter=city>Oslo</parameter>\n"
          "</function>\n</seed:tool_call>. Let me call it."),
    # MiniCPM5's tags, collapsed or with the byte-level tokenizer's space
    Quirk("minicpm-collapsed", "minicpm5",
          'Sure.\n<functionname="get_weather"><paramname="city">上海</param><paramname="days">3</param></function>\n',
          "Sure.\n\n", [call("get_weather", city="上海", days=3)],
          "vLLM's minicpm5: the call (its whole parse drops the text around it)"),
    Quirk("minicpm-byte-space", "minicpm5",
          '<function\u0120name="get_weather"><param\u0120name="city">Paris</param></function>'
          '<function name="search"><paramname="query">x</param></function>',
          None, [call("get_weather", city="Paris"), call("search", query="x")],
          "vLLM's minicpm5: both calls", tools=(WEATHER, SEARCH)),
    # MiniCPM5's parameters wrapped in an <arguments> element: the element is the call's markup
    Quirk("minicpm-arguments-wrapper", "minicpm5",
          '<function name="search"><arguments><param name="query">ls</param><param name="limit">3</param>'
          '</arguments></function>',
          None, [call("search", query="ls", limit=3)],
          "vLLM's and SGLang's minicpm5 (whole and streamed): the parameters in the element", tools=(SEARCH,)),
    Quirk("minicpm-arguments-wrapper-spaced", "minicpm5",
          'Hi <function name="search">\n<arguments>\n<param name="query"><![CDATA[a <b>]]></param>\n</arguments>\n'
          '</function> bye',
          "Hi  bye", [call("search", query="a <b>")],
          "SGLang's minicpm5 (whole and streamed): the call, `Hi  bye` as content (vLLM's: the call; its whole "
          "parse drops the text around it)", tools=(SEARCH,)),
    Quirk("minicpm-arguments-in-a-value", "minicpm5",
          '<function name="search"><param name="query">a<arguments>b</arguments></param></function>',
          None, [call("search", query="a<arguments>b</arguments>")],
          "vLLM's and SGLang's minicpm5: `a`, the XML text before the child element (symphony: inside a value only "
          "its close tag is a tag, docs/recovery.md)", tools=(SEARCH,)),
    # MiniCPM5's values are XML text outside CDATA: a character reference is its character
    Quirk("minicpm-references", "minicpm5",
          '<function name="run"><param name="cmd">a &amp;&amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39;</param>'
          '<param name="n">&#52;2</param><param name="opts">{&quot;k&quot;: &quot;&lt;&quot;}</param></function>',
          None, [call("run", cmd="a && b <c> \"d\" 'e'", n=42, opts={"k": "<"})],
          "vLLM's and SGLang's minicpm5 (whole and streamed, an XML parse of the block): each reference its "
          "character, before the value is typed", tools=(RUN,)),
    Quirk("minicpm-references-not-in-cdata", "minicpm5",
          '<function name="run"><param name="cmd">p<![CDATA[&amp; <b>]]>q &amp; & &nbsp;</param></function>',
          None, [call("run", cmd="p&amp; <b>q & & &nbsp;")],
          "vLLM's and SGLang's minicpm5 read `p<![CDATA[&amp; <b>]]>q &amp;` as `p&amp; <b>q &` (CDATA's text as "
          "written, the reference outside it read); a lone `&` or `&nbsp;` (no XML reference) fails their XML parse "
          "of the block, and their fallback keeps every value as written, CDATA markers and references included "
          "(symphony reads each reference by its own bytes, so every chunking agrees)", tools=(RUN,)),
    # MiniMax M3's separator, written before every tag: dropped there, text where no tag follows
    Quirk("minimax-separator-before-a-cut-tag", "minimax_m3", "plain ]<]minimax[>[<tool_ca",
          "plain ]<]minimax[>[<tool_ca", [],
          "vLLM's minimax_m3: the text as written, the separator and the cut tag included"),
    # MiniMax M3 writes a child again right after its sibling of the same name: a list under that name
    Quirk("minimax-m3-repeated-children-are-a-list", "minimax_m3",
          "I will create it.\n]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"create_order\">"
          "]<]minimax[>[<user_id>42]<]minimax[>[</user_id>]<]minimax[>[<duplicate_demo>]<]minimax[>[<tag>a"
          "]<]minimax[>[</tag>]<]minimax[>[<tag>b]<]minimax[>[</tag>]<]minimax[>[</duplicate_demo>"
          "]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>",
          "I will create it.\n", [call("create_order", user_id=42, duplicate_demo={"tag": ["a", "b"]})],
          "vLLM's minimax_m3 (test_non_streaming_nested_tool_call) and SGLang's minimax-m3: `{\"tag\": [\"a\", "
          "\"b\"]}` (both gather a name met again anywhere among its siblings; symphony, streaming, a repeat "
          "right after a member written whole)", tools=(ORDER,)),
    Quirk("minimax-m3-repeated-parameter-is-a-list", "minimax_m3",
          "]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"create_order\">]<]minimax[>[<user_id>1]<]minimax[>["
          "</user_id>\n]<]minimax[>[<user_id>2]<]minimax[>[</user_id>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>",
          None, [call("create_order", user_id=[1, 2])],
          "vLLM's minimax_m3 and SGLang's minimax-m3 whole: `{\"user_id\": [1, 2]}`; SGLang's streamed: "
          "`{\"user_id\": 1, \"user_id\": 2}`", tools=(ORDER,)),
    # MiniMax M2 writes a name's attribute single-quoted, unquoted or spaced around its `=`
    Quirk("minimax-m2-single-quoted-and-spaced-names", "minimax_m2",
          "<minimax:tool_call>\n<invoke name='get_weather'>\n<parameter name = city>Oslo</parameter>\n"
          "<parameter name = 'days' >3</parameter>\n</invoke>\n</minimax:tool_call>",
          None, [call("get_weather", city="Oslo", days=3)],
          "vLLM's minimax_m2: the call (its invoke prefixes `name=\"`, `name='`, `name=`, its parameter regex "
          "`name\\s*=\\s*` quoted either way or not, `\\s*>`); SGLang's minimax-m2: no call (it reads "
          "`name=\"` only) and no content"),
    Quirk("minimax-m2-unquoted-names", "minimax_m2",
          "<minimax:tool_call>\n<invoke name=get_weather>\n<parameter name=city>Oslo</parameter>\n</invoke>\n"
          "</minimax:tool_call>",
          None, [call("get_weather", city="Oslo")],
          "vLLM's minimax_m2: the call; SGLang's minimax-m2: no call"),
    Quirk("minimax-m2-spaced-invoke-name", "minimax_m2",
          '<minimax:tool_call>\n<invoke name = "get_weather" >\n<parameter name="city">Oslo</parameter>\n'
          "</invoke>\n</minimax:tool_call>",
          None, [call("get_weather", city="Oslo")],
          "vLLM's minimax_m2: no call (its invoke prefixes have no space around `=`), SGLang's neither; symphony "
          "reads whitespace around an attribute's `=` and before the tag's end as its parameters' regex does"),
    # a name or key quoted with blanks around it: read less them, as the tagged syntax reads one
    Quirk("minimax-m2-name-and-key-quoted-with-spaces", "minimax_m2",
          '<minimax:tool_call>\n<invoke name=" get_weather ">\n<parameter name="\tcity  ">Paris</parameter>\n'
          "</invoke>\n</minimax:tool_call>",
          None, [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: whole, the call, its name and key trimmed; streamed, no call (symphony read the name "
          "` get_weather `, refused where names are checked); SGLang's minimax-m2 whole the same as vLLM's"),
    Quirk("deepseek-v4-name-and-key-quoted-with-spaces", "deepseek_v4",
          '<｜DSML｜tool_calls>\n<｜DSML｜invoke name=" get_weather ">\n<｜DSML｜parameter name=" city " '
          'string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>',
          None, [call("get_weather", city="Paris")],
          "vLLM's deepseek_v4: whole, the call, its name trimmed; streamed, the name ` get_weather `; SGLang's "
          "deepseekv4: the call, its name trimmed, whole and streamed; both keep the key ` city ` (symphony trims "
          "it as it trims the tagged syntax's and MiniMax M2's, whose incumbents trim it too)"),
    # a name or key with a newline at its ends, in every syntax that reads one between delimiters
    Quirk("deepseek-v4-name-and-key-quoted-with-newlines", "deepseek_v4",
          '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="\nget_weather\n">\n<｜DSML｜parameter name="city\n" '
          'string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>',
          None, [call("get_weather", city="Paris")],
          "vLLM's deepseek_v4: the call, its name trimmed, the key `city\\n` as written; SGLang's deepseekv4: no "
          "call, the output as content (symphony read the name `\\nget_weather\\n`)"),
    Quirk("qwen3-name-and-key-with-newlines", "qwen3_tagged",
          "<tool_call>\n<function=\nget_weather>\n<parameter=city\n>\nParis\n</parameter>\n</function>\n</tool_call>",
          None, [call("get_weather", city="Paris")],
          "vLLM's qwen3_coder: the name trimmed, the key `city\\n` as written; SGLang's qwen3_coder: both as "
          "written (symphony read them as written)"),
    Quirk("step3p5-name-with-newlines-before-it", "step3p5",
          "<tool_call>\n<function=\n\nget_weather>\n<parameter=\ncity>\nParis\n</parameter>\n</function>\n"
          "</tool_call>",
          None, [call("get_weather", city="Paris")],
          "vLLM's step3p5: the name and the key trimmed; SGLang's step3p5: both as written (symphony read the "
          "name `\\n\\nget_weather` and the key `\\ncity`)"),
    Quirk("minicpm5-name-and-key-quoted-with-whitespace", "minicpm5",
          '<function name="\nget_weather "><param name=" city\n">Paris</param></function>',
          None, [call("get_weather", city="Paris")],
          "vLLM's and SGLang's minicpm5: no call (a name with whitespace around it is no tool), the output as "
          "content; `name=\"\\r\\nget_weather\"` they read trimmed (symphony read both as written)"),
    Quirk("kimi-k3-name-and-key-quoted-with-whitespace", "kimi_k3",
          '<|open|>tools<|sep|><|open|>call tool=" get_weather\n" index="1"<|sep|>'
          '<|open|>argument key="\ncity " type="string"<|sep|>Paris<|close|>argument<|sep|>'
          "<|close|>call<|sep|><|close|>tools<|sep|>",
          None, [call("get_weather", city="Paris")],
          "vLLM's kimi_k3: the call, its name and key as written; SGLang's kimi_k3: no call, the output as "
          "content (symphony read both as written)"),
    # the next call's opener inside a name: that call's opener, the cut call shown with its own
    Quirk("minimax-m2-invoke-opener-inside-a-name", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_<invoke name="get_weather">\n<parameter name="city">Paris'
          "</parameter>\n</invoke>\n</minimax:tool_call>",
          '<invoke name="get_', [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: a call named `get_<invoke name=\"get_weather`; SGLang's minimax-m2: no call, the "
          "output as content (symphony showed both openers: `<invoke name=\"get_<invoke name=\"`)"),
    Quirk("deepseek-v4-invoke-opener-twice", "deepseek_v4",
          '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter '
          'name="city" string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>',
          None, [call("get_weather", city="Paris")],
          "vLLM's deepseek_v4: a call named `<｜DSML｜invoke name=\"get_weather`; SGLang's deepseekv4: no call, "
          "the output as content (symphony showed both openers as content)"),
    Quirk("kimi-k3-call-opener-inside-a-name", "kimi_k3",
          '<|open|>tools<|sep|><|open|>call tool="get_<|open|>call tool="get_weather" index="1"<|sep|>'
          '<|open|>argument key="city" type="string"<|sep|>Paris<|close|>argument<|sep|><|close|>call<|sep|>'
          "<|close|>tools<|sep|>",
          '<|open|>call tool="get_', [call("get_weather", city="Paris")],
          "vLLM's kimi_k3: a call named `get_<|open|>call tool=`; SGLang's kimi_k3: no call, the output as "
          "content (symphony showed both openers)"),
    # a value whose close tag is missing, ended by the call's own end or the block's close: the value
    # is what arrived (the stream's end cuts it instead)
    Quirk("qwen3-value-ended-by-the-block-close", "qwen3_tagged",
          "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n<parameter=days>\n3\n</tool_call>",
          None, [call("get_weather", city="Paris", days=3)],
          "SGLang's qwen3_coder: the call with `city` and `days`, as symphony; vLLM's qwen3_coder: `city` only "
          "(symphony showed `<parameter=days>\\n3\\n` as content)"),
    Quirk("minimax-m2-value-ended-by-the-invoke-close", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n'
          '<parameter name="days">3</invoke>\n</minimax:tool_call>',
          None, [call("get_weather", city="Paris", days=3)],
          "SGLang's minimax-m2: the call with `city` and `days`, as symphony; vLLM's minimax_m2: `city` only "
          "(symphony showed `<parameter name=\"days\">3` as content)"),
    Quirk("deepseek-v4-value-ended-by-the-invoke-close", "deepseek_v4",
          '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="days" '
          'string="false">3</｜DSML｜invoke>\n</｜DSML｜tool_calls>',
          None, [call("get_weather", days=3)],
          "vLLM's deepseek_v4: the call with no arguments; SGLang's deepseekv4: no call (symphony showed the "
          "parameter as content)"),
    Quirk("glm-value-ended-by-the-call-close", "glm",
          "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value><arg_key>days</arg_key>"
          "<arg_value>3</tool_call>",
          None, [call("get_weather", city="Paris", days=3)],
          "vLLM's glm47 and SGLang's glm47: the call with `city` only (symphony showed "
          "`<arg_key>days</arg_key><arg_value>3` as content)"),
    Quirk("kimi-k3-value-ended-by-the-call-close", "kimi_k3",
          '<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|>'
          '<|open|>argument key="days" type="number"<|sep|>3<|close|>call<|sep|><|close|>tools<|sep|>',
          None, [call("get_weather", days=3)],
          "vLLM's and SGLang's kimi_k3: the call with no arguments (symphony showed the argument as content)"),
    Quirk("minimax-m3-leaf-ended-by-the-invoke-close", "minimax_m3",
          ']<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="get_weather">]<]minimax[>[<city>Paris]<]minimax[>['
          '</city>]<]minimax[>[<days>3]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>',
          None, [call("get_weather", city="Paris", days=3)],
          "vLLM's minimax_m3: the call with no arguments; SGLang's minimax-m3: `city` only (symphony showed "
          "`<days>3` with its separators as content)"),
    Quirk("minicpm5-value-ended-by-the-function-close", "minicpm5",
          '<function name="get_weather"><param name="days">3</function>',
          None, [call("get_weather", days=3)],
          "vLLM's and SGLang's minicpm5: the call with no arguments (symphony showed `<param name=\"days\">3` as "
          "content)"),
    # a table marker inside a CDATA section is the value's text, as every tag there is
    Quirk("minicpm5-call-close-inside-cdata", "minicpm5",
          '<function name="write_file"><param name="path">a.xml</param><param name="content">'
          "<![CDATA[<x></function></x>]]></param></function>",
          None, [call("write_file", path="a.xml", content="<x></function></x>")],
          "vLLM's and SGLang's minicpm5: no call, the output as content (symphony cut the value at "
          "`</function>` and showed `</x>]]></param></function>` as content)", tools=()),
    Quirk("minicpm5-call-opener-inside-cdata", "minicpm5",
          '<function name="write_file"><param name="content"><![CDATA[<function name="x"></param>]]>'
          "</param></function>",
          None, [call("write_file", content='<function name="x"></param>')],
          "vLLM's and SGLang's minicpm5: no call, the output as content", tools=()),
    # a Hy4 checkpoint whose tokenizer spells the markers with its own suffix (vLLM 0.34's hy_v4 test)
    Quirk("hy4-markers-spelled-with-a-checkpoints-suffix", hy4.suffixed(":6124c78e"),
          "Checking.<tool_calls:6124c78e><tool_call:6124c78e>get_weather<arg_key:6124c78e>city</arg_key:6124c78e>"
          "<arg_value:6124c78e>Paris</arg_value:6124c78e><arg_key>days</arg_key><arg_value>3</arg_value>"
          "</tool_call:6124c78e></tool_calls:6124c78e>",
          "Checking.", [call("get_weather", city="Paris", days=3)],
          "vLLM's hy_v4, its tokenizer's vocab spelling the suffix: the call (the `hy4` table reads it as text)"),
    Quirk("minimax-m2-invoke-without-its-block", "minimax_m2",
          "Checking. <invoke name='get_weather'>\n<parameter name=\"city\">Oslo</parameter>\n</invoke>",
          "Checking. ", [call("get_weather", city="Oslo")],
          "vLLM's minimax_m2: the call (an invoke prefix in the content opens one), content `Checking.`; "
          "SGLang's minimax-m2: no call, all of it content"),
    Quirk("minimax-m2-invoke-name-in-prose", "minimax_m2", "An <invoke name> tag names its tool.",
          "An <invoke name> tag names its tool.", [],
          "vLLM's minimax_m2: the text (a prefix with no name after it); symphony: a region with no call, "
          "shown as written"),
    Quirk("minimax-separators", "minimax_m3",
          "a ]<]minimax[>[ b]<]minimax[>[]<]minimax[>[\n]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke "
          'name="get_weather">]<]minimax[>[<city>Oslo]<]minimax[>[</city>]<]minimax[>[</invoke>]<]minimax[>['
          "</tool_call>]<]minimax[>[",
          "a ]<]minimax[>[ b]<]minimax[>[]<]minimax[>[\n]<]minimax[>[", [call("get_weather", city="Oslo")],
          "vLLM's minimax_m3: the call; a separator no tag follows stays in the content"),
    Quirk("minimax-m3-whitespace-after-the-separator", "minimax_m3",
          "Checking.]<]minimax[>[\n<tool_call>\n]<]minimax[>[<invoke name=\"get_weather\">]<]minimax[>[<city>Oslo"
          "]<]minimax[>[</city>]<]minimax[>[</invoke>]<]minimax[>[</tool_call> and ]<]minimax[>[ \n text",
          "Checking. and ]<]minimax[>[ \n text", [call("get_weather", city="Oslo")],
          "SGLang's minimax_m3: the whitespace between a separator and its tag dropped with the separator; "
          "a separator and whitespace no tag follows stay in the content"),
    Quirk("minimax-m3-whitespace-after-the-separator-in-values", "minimax_m3",
          "]<]minimax[>[\n<tool_call>]<]minimax[>[\n<invoke name=\"get_weather\">]<]minimax[>[\n<city>Oslo"
          "]<]minimax[>[\n</city>]<]minimax[>[ \t<days>3]<]minimax[>[ \t\r\n</days>]<]minimax[>[\n</invoke>"
          "]<]minimax[>[\n</tool_call>",
          None, [call("get_weather", city="Oslo", days=3)],
          "SGLang's minimax_m3 (whole and streamed): every separator's whitespace before a tag dropped with it, "
          "`city` is `Oslo` (symphony read `Oslo\\n`); vLLM's minimax_m3: no call"),
    Quirk("minimax-m3-whitespace-after-the-separator-then-text", "minimax_m3",
          "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"get_weather\">]<]minimax[>[<city>Oslo"
          "]<]minimax[>[ \n <b>]<]minimax[>[\n]<]minimax[>[\n</city>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>",
          None, [call("get_weather", city="Oslo \n <b>\n")],
          "SGLang's minimax_m3: no call whole; streamed, `Oslo]<]minimax[>[<b>]<]minimax[>[\\n` (the separators "
          "in the value, the whitespace before `<b>` dropped). symphony: whitespace no close tag follows is the "
          "value's text, and a tag in a value its text"),
    Quirk("minimax-m3-whitespace-after-the-separator-at-the-end", "minimax_m3",
          "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"get_weather\">]<]minimax[>[<city>Oslo]<]minimax[>[\n",
          None, [call("get_weather", city="Oslo\n")],
          "SGLang's minimax_m3: no call whole (all content); streamed, the call cut at `Oslo`. symphony: the cut "
          "call, the whitespace the end decides the value's text"),
    # K2-Horizon's other call forms (the request's `tool_call_format`): read whatever the request said
    Quirk("k2-horizon-json", "k2_horizon",
          'Looking.<ifm|tool_calls><ifm|tool_call>\n{"name": "search", "arguments": {"query": "a <ifm|arg_key>", '
          '"limit": 2}}\n</ifm|tool_call><ifm|tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}} '
          'then</ifm|tool_call></ifm|tool_calls>',
          "Looking.then", [call("search", query="a <ifm|arg_key>", limit=2), call("get_weather", city="Oslo")],
          "vLLM's k2_horizon (`json`): both calls (text after an object is no call: symphony shows it, "
          "Malformed)", tools=(WEATHER, SEARCH)),
    # ... its `json` form typed as its keyed values are: a member's string holding a value of the
    # member's declared type is that value (a boolean too, where the schema admits no string)
    Quirk("k2-horizon-json-typed", "k2_horizon",
          '<ifm|tool_calls><ifm|tool_call>{"name": "lookup", "arguments": {"query": "5", "limit": "007", '
          '"enabled": " False ", "tags": "[1, 2]", "ratio": "2.50", "maybe": "TRUE", "x": "3"}}</ifm|tool_call>'
          '<ifm|tool_call>[{"name": "lookup", "arguments": {"li\\u006dit": "-4", "enabled": "yes", '
          '"ratio": "five", "tags": "a\nb"}}]</ifm|tool_call></ifm|tool_calls>',
          None, [call("lookup", query="5", limit=7, enabled=False, tags=[1, 2], ratio=2.5, maybe=True, x="3"),
                 call("lookup", limit=-4, enabled="yes", ratio="five", tags="a\nb")],
          "vLLM's k2_horizon (`json`): the strings coerced by the schema (it also reads `1` and `0` as "
          "booleans, and turns values that are no string into the declared string; symphony keeps both as "
          "written)", tools=(LOOKUP,)),
    Quirk("k2-horizon-json-typed-cut", "k2_horizon",
          '<ifm|tool_calls><ifm|tool_call>{"name": "lookup", "arguments": {"query": "q", "limit": "5',
          ', "limit": "5', [call("lookup", query="q")],
          "vLLM's k2_horizon: no call (the object never closes); symphony's call ends with what arrived, "
          "the member whose string was held undecided (Malformed, shown as content)", tools=(LOOKUP,)),
    Quirk("k2-horizon-xml-typed", "k2_horizon",
          "<ifm|tool_calls><ifm|tool_call>search<ifm|arg_key>query</ifm|arg_key><ifm|arg_type>string"
          "</ifm|arg_type><ifm|arg_value>5</ifm|arg_value><ifm|arg_key>limit</ifm|arg_key><ifm|arg_type>integer"
          "</ifm|arg_type><ifm|arg_value>2</ifm|arg_value><ifm|arg_key>page</ifm|arg_key>\n<ifm|arg_type> integer "
          "</ifm|arg_type>\n<ifm|arg_value>07</ifm|arg_value><ifm|arg_key>note</ifm|arg_key><ifm|arg_type>string"
          "</ifm|arg_type><ifm|arg_value>07 <ifm|arg_type></ifm|arg_value></ifm|tool_call></ifm|tool_calls>",
          None, [call("search", query="5", limit=2, page=7, note="07 <ifm|arg_type>")],
          "vLLM's k2_horizon (`xml_typed`): the values typed by the declaration, else by their type tag",
          tools=(SEARCH,)),
    Quirk("k2-horizon-misplaced-type", "k2_horizon",
          "<ifm|tool_calls><ifm|tool_call>search<ifm|arg_type>string</ifm|arg_type><ifm|arg_key>query"
          "</ifm|arg_key><ifm|arg_value>x</ifm|arg_value></ifm|tool_call></ifm|tool_calls>",
          "<ifm|arg_type>string</ifm|arg_type>", [call("search", query="x")],
          "a type tag where no key was written is a tag out of place (Malformed, shown as content)",
          tools=(SEARCH,)),
    # gpt-oss writes a function call on the analysis channel at times: the call, as on commentary
    Quirk("gpt-oss-call-on-the-analysis-channel", "gpt_oss",
          "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>analysis "
          'to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
          None, [call("get_weather", city="Paris")],
          "vLLM's openai: the call, no content (symphony showed `<|channel|>analysis` as content)",
          reasoning="Need the weather."),
    Quirk("gpt-oss-recipient-before-the-analysis-channel", "gpt_oss",
          " to=functions.get_weather<|channel|>analysis json<|message|>{\"city\": \"Paris\"}<|call|>",
          None, [call("get_weather", city="Paris")],
          "vLLM's openai: the call, no content"),
    # gpt-oss's headers as a detokenizer writes them when it spaces special tokens (one space between
    # `<|channel|>`, `<|message|>`, `<|start|>` and each run of other text): read as the headers they
    # spell; the spaces it writes beside a message's text are the text's. vLLM's openai reads the
    # sampled token ids (openai_harmony; its text parsers are stubs), so the decoded spacing never
    # reaches it; harmony's parser fed the spaced text refuses it (no channel value in the header)
    Quirk("gpt-oss-spaced-thought-and-final", "gpt_oss",
          "<|channel|> analysis <|message|> plan <|end|> <|start|> assistant <|channel|> final <|message|> answer "
          "<|return|>",
          " answer ", [], "SGLang's gpt-oss reasoning parser (whole and streamed): the thought ` plan `, the content "
          "` answer ` (its content also the space between the messages)", reasoning=" plan ", tools=()),
    Quirk("gpt-oss-spaced-preamble", "gpt_oss",
          "<|channel|> commentary <|message|> Checking. <|end|> <|start|> assistant <|channel|> final <|message|> "
          "Done. <|return|>",
          " Checking.  Done. ", [], "SGLang's gpt-oss: the preamble and the answer as content (with the space "
          "between the messages)", tools=()),
    # a call's header spaced: the decoder joins `to=functions.NAME ` (its own space) and `<|constrain|>`
    # with one more; the rest of the header after the name is the call's head, spaced or not
    Quirk("gpt-oss-spaced-call", "gpt_oss",
          "<|channel|> analysis <|message|> plan <|end|> <|start|> assistant <|channel|> commentary "
          'to=functions.get_weather  <|constrain|> json <|message|> {"city": "Oslo"} <|call|>',
          None, [call("get_weather", city="Oslo")],
          "vLLM's openai: the call (read from the token ids); SGLang's gpt-oss: the thought, no call (its call "
          "pattern wants `<|constrain|>json<|message|>` unspaced: the header shown as content whole, lost streamed)",
          reasoning=" plan "),
    Quirk("gpt-oss-spaced-recipient-before-the-channel", "gpt_oss",
          "<|channel|> analysis <|message|> plan <|end|> <|start|> assistant to=functions.get_weather <|channel|> "
          'commentary  <|constrain|> json <|message|> {"city": "Oslo"} <|call|>',
          None, [call("get_weather", city="Oslo")],
          "vLLM's openai: the call (read from the token ids); SGLang's gpt-oss: no call, as above",
          reasoning=" plan "),
    Quirk("gpt-oss-spaced-call-on-the-analysis-channel", "gpt_oss",
          '<|channel|> analysis to=functions.get_weather  <|constrain|> json <|message|> {"city": "Oslo"} <|call|>',
          None, [call("get_weather", city="Oslo")],
          "vLLM's openai: the call (read from the token ids); SGLang's gpt-oss: no call (the header shown as "
          "content whole; streamed, the arguments as its thought)"),
    Quirk("gpt-oss-spaced-header-inside-a-message", "gpt_oss",
          "<|channel|> final <|message|> Write <|channel|> analysis <|message|> to think. <|return|>",
          " Write <|channel|> analysis <|message|> to think. ", [],
          "SGLang's gpt-oss whole: the final message runs to its `<|return|>`, the header in it its text (streamed, "
          "the text after the header its thought); symphony: a header inside a message is its text, spaced or not",
          tools=()),
    # Step 3's template writes each call's type, `function<｜tool_sep｜>`, before its invoke
    Quirk("step3-call-type", "step3",
          'I will check.<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather">'
          '<steptml:parameter name="city">Paris</steptml:parameter></steptml:invoke><｜tool_call_end｜>'
          '<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather">'
          '<steptml:parameter name="city">Rome</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>',
          "I will check.", [call("get_weather", city="Paris"), call("get_weather", city="Rome")],
          "vLLM's and SGLang's step3: both calls (each only after its `function` type), the text before the block",
          prompt="<|BOT|>assistant\n</think>"),
    # dots: tags written with a run of whitespace between the tag's name and its attribute
    Quirk("dots-spaced-tags", "dots3",
          'Sure.<dots_function_call>\n<invoke\n  name = \'get_weather\' >\n<parameter \t name="city" >\nParis\n'
          '</parameter>\n</invoke>\n<invoke  name="get_weather">\n<parameter\nname=city>\nOslo\n</parameter>\n'
          '</invoke>\n</dots_function_call>',
          "Sure.", [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's and SGLang's dots (`<invoke\\s+name\\s*=\\s*[^>]+>`, whole and streamed): both calls"),
    # dots: a call written in its block as a JSON call object, where a call may begin there
    Quirk("dots-json-call", "dots3",
          'Searching.<dots_function_call>\n{"name": "search", "arguments": {"query": "chairs <invoke"}}\n'
          '</dots_function_call>',
          "Searching.", [call("search", query="chairs <invoke")],
          "vLLM's and SGLang's dots (their test_streaming_emits_complete_json_before_end_marker…): the call",
          tools=(SEARCH,)),
    Quirk("dots-invokes-then-a-json-block", "dots3",
          '<dots_function_call><invoke name="search"><parameter name="query">chairs</parameter></invoke>'
          '<invoke name="open"><parameter name="id">7</parameter></invoke></dots_function_call>'
          '<dots_function_call>{"name":"search","arguments":{"query":"tables"}}</dots_function_call>',
          None, [call("search", query="chairs"), call("open", id=7), call("search", query="tables")],
          "vLLM's dots (its test_non_stream_supports_multiple_invokes_and_json_fallback): the three calls",
          tools=(SEARCH, OPEN)),
    Quirk("dots-objects-and-invokes-in-one-block", "dots3",
          '<dots_function_call>\n{"name": "search", "parameters": {"query": "a"}}\n{"name": "open", "arguments": '
          '{"id": 3}}\n<invoke name="search">\n<parameter name="query">\nb\n</parameter>\n</invoke>\n'
          '</dots_function_call>',
          None, [call("search", query="a"), call("open", id=3), call("search", query="b")],
          "vLLM's dots reads a block as invokes when it starts with one, else as one JSON object (here: no "
          "call); symphony reads a call wherever one may begin in the block, in either form",
          tools=(SEARCH, OPEN)),
    Quirk("dots-text-before-an-object", "dots3",
          'Sure.<dots_function_call>note {"name": "search", "arguments": {}}</dots_function_call>',
          'Sure.<dots_function_call>note {"name": "search", "arguments": {}}</dots_function_call>', [],
          "vLLM's dots: no call (the block is no JSON object), the output as content", tools=(SEARCH,)),
    Quirk("dots-object-that-is-no-call", "dots3",
          '<dots_function_call>{"query": "x"} </dots_function_call>',
          '<dots_function_call>{"query": "x"} </dots_function_call>', [],
          "vLLM's dots: no call (the object names none), the output as content", tools=(SEARCH,)),
    Quirk("dots-object-then-text", "dots3",
          '<dots_function_call>{"name": "search", "arguments": {"query": "x"}} and more</dots_function_call>',
          "and more", [call("search", query="x")],
          "vLLM's dots: no call (`json.loads` refuses the text after the object); symphony reads the call and "
          "shows the text after it (Malformed), as after any call object", tools=(SEARCH,)),
    Quirk("dots-object-cut-by-the-block-close", "dots3",
          '<dots_function_call>{"name": "search", "arguments": {"query": "ch</dots_function_call> done',
          " done", [call("search", query="ch")],
          "vLLM's dots: no call; symphony: a started call always ends, its arguments closed so they load",
          tools=(SEARCH,)),
    # a lone call object where a list of calls belongs
    Quirk("mistral-lone-object", "mistral",
          '[TOOL_CALLS] {"name": "get_weather", "arguments": {"city": "Paris"}}',
          None, [call("get_weather", city="Paris")],
          "vLLM's mistral (a pre-v11 tokenizer): the call, whole and streaming (SGLang's mistral reads none)"),
    Quirk("mistral-lone-object-then-text", "mistral",
          '[TOOL_CALLS]{"name": "get_weather", "arguments": {"city": "Rome"}} done',
          " done", [call("get_weather", city="Rome")],
          "vLLM's mistral: the call (text after it is no call: symphony shows it, Malformed)"),
    Quirk("mistral-v11-name-still-read", "mistral",
          '[TOOL_CALLS]get_weather{"city": "Oslo"}',
          None, [call("get_weather", city="Oslo")],
          "vLLM's mistral (v11): the call; a word before the `{` is still its name"),
    # text before a `[` that a call object follows is no v11 head: text where a call should begin, and the
    # list after it is read (a v11 head's `[` is `[CALL_ID]`'s, followed by its text; `[ARGS]` is a separator)
    Quirk("mistral-list-after-text-in-the-region", "mistral",
          '[TOOL_CALLS]  junk [{"name": "get_weather", "arguments": {"city": "Oslo"}}] trail',
          "junk  trail", [call("get_weather", city="Oslo")],
          "vLLM's mistral, a pre-v11 tokenizer: whole, the call, no content (its regex finds the list: vLLM's test "
          "test_extract_tool_calls_pre_v11_regex_fallback); streamed, no call; a v11 tokenizer: the call `junk [` "
          "with the object as its arguments; SGLang's mistral: no call and no content (symphony read the v11 call "
          "`junk`, the object its arguments, `] trail` shown)"),
    Quirk("mistral-list-after-words-in-the-region", "mistral",
          '[TOOL_CALLS] I will call [{"name": "get_weather", "arguments": {"city": "Oslo"}}, '
          '{"name": "search", "arguments": {"query": "x"}}]',
          "I will call ", [call("get_weather", city="Oslo"), call("search", query="x")],
          "vLLM's mistral, a pre-v11 tokenizer: whole, both calls, no content; streamed, no call; a v11 tokenizer: "
          "one call named `I will call [`; SGLang's mistral: no call and no content", tools=(WEATHER, SEARCH)),
    Quirk("mistral-text-before-a-list-of-no-call-is-the-region-as-written", "mistral",
          '[TOOL_CALLS] see [{"a": 1}]', '[TOOL_CALLS] see [{"a": 1}]', [],
          "vLLM's mistral, a pre-v11 tokenizer: whole, no call, `see [{\"a\": 1}]`; a v11 tokenizer: the call "
          "`see [`; SGLang's mistral: no call and no content (symphony read the v11 call `see`; now the list holds "
          "no call, so the region is the text the model wrote)"),
    Quirk("mistral-v11-call-id-head-still-read", "mistral",
          '[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Oslo"}',
          None, [call("get_weather", city="Oslo")],
          "vLLM's mistral (v11): one call, its arguments `{\"city\": \"Oslo\"}` (its name and id as its tokenizer "
          "decodes `[CALL_ID]`); symphony: the call `get_weather`, id `a1b2c3d4e`: that `[` opens no list"),
    # a v11 call after another with no `[TOOL_CALLS]` of its own is the text after the call: neither
    # engine reads it as a call
    Quirk("mistral-v11-second-call-without-its-marker-is-text", "mistral",
          '[TOOL_CALLS]get_weather[ARGS]{"city": "Oslo"}\nsearch[ARGS]{"query": "x"}',
          '\nsearch{"query": "x"}', [call("get_weather", city="Oslo")],
          "vLLM's mistral (v11): whole, the first call only; streamed, the first with the rest in its arguments; "
          "SGLang's mistral: the first call, `search[ARGS]{\"query\": \"x\"}` content (unspaced and without `[ARGS]`, "
          "`…}search{…}`: vLLM's the same, SGLang's no call); symphony: the rest is text after the call, its "
          "`[ARGS]` dropped", tools=(WEATHER, SEARCH)),
    Quirk("cohere-lone-object", "cohere_command4",
          '<|START_ACTION|>{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}'
          '<|END_ACTION|>',
          None, [call("get_weather", city="Paris")],
          "SGLang's cohere_command4: the object as a one-element list, whole and streaming"),
    Quirk("cohere-lone-object-spaced", "cohere_command3",
          '<|START_ACTION|>\n  {"tool_name": "get_weather", "parameters": {"city": "Oslo"}}\n<|END_ACTION|>',
          None, [call("get_weather", city="Oslo")],
          "SGLang's cohere_command4: the call (the whitespace around it wrapping)"),
    Quirk("apertus-lone-object", "apertus",
          'Checking.<|tools_prefix|>{"get_weather": {"city": "Paris"}}<|tools_suffix|>',
          "Checking.", [call("get_weather", city="Paris")],
          "vLLM's apertus: the object as a one-element list, whole and streaming (SGLang's apertus2509 reads "
          "no call)"),
    Quirk("apertus-lone-object-spaced-then-text", "apertus",
          '<|tools_prefix|>\n {"get_weather": {"city": "Oslo", "days": 2}} \n<|tools_suffix|>Done.',
          "Done.", [call("get_weather", city="Oslo", days=2)],
          "vLLM's apertus: the call (the whitespace around it wrapping), then `Done.` as content"),
    Quirk("apertus-list-still-read", "apertus",
          '<|tools_prefix|>[{"get_weather": {"city": "Rome"}}, {"get_weather": {"city": "Nice"}}]<|tools_suffix|>',
          None, [call("get_weather", city="Rome"), call("get_weather", city="Nice")],
          "vLLM's apertus: both calls"),
    # a call whose head names it and whose arguments were never written: a call with no arguments
    Quirk("kimi-empty-arguments", "kimi_k2",
          "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|> "
          "<|tool_call_end|><|tool_calls_section_end|>",
          None, [call("get_weather")],
          "vLLM's kimi_k2: the call, its arguments `` (no JSON); SGLang's: no call, the block dropped"),
    Quirk("deepseek-v3-1-empty-arguments", "deepseek_v3_1",
          "Now.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜><｜tool▁call▁end｜>"
          "<｜tool▁calls▁end｜>",
          "Now.", [call("get_weather")],
          "vLLM's deepseek_v31: the call, its arguments `` (no JSON); SGLang's: no call, the output as text"),
    # K2-Horizon's JSON form with a list of calls in one <ifm|tool_call>: each object a call
    Quirk("k2-horizon-json-list-in-one-call", "k2_horizon",
          'plan</ifm|think><ifm|tool_calls>\n<ifm|tool_call>[{"name": "get_weather", "arguments": {"city": "Paris"}}, '
          '{"name": "search", "arguments": {"query": "x"}}]</ifm|tool_call>\n</ifm|tool_calls>',
          None, [call("get_weather", city="Paris"), call("search", query="x")],
          "SGLang's k2_horizon (whole and streamed): both calls", tools=(WEATHER, SEARCH), reasoning="plan",
          prompt="<ifm|think>"),
    Quirk("k2-horizon-list-of-no-calls", "k2_horizon",
          'plan</ifm|think><ifm|tool_calls>\n<ifm|tool_call> [1, 2] </ifm|tool_call>\n</ifm|tool_calls>',
          '<ifm|tool_calls>\n<ifm|tool_call> [1, 2] </ifm|tool_call>\n</ifm|tool_calls>', [],
          "SGLang's k2_horizon: no call (symphony: the block held none, so it is the text the model wrote)",
          reasoning="plan", prompt="<ifm|think>"),
    # DSML's `string` attribute in another case: the same attribute
    Quirk("dsml-string-attribute-cased", "deepseek_v3_2",
          '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n'
          '<｜DSML｜parameter name="city" string="True">Paris</｜DSML｜parameter>\n'
          '<｜DSML｜parameter name="days" string="FALSE">3</｜DSML｜parameter>\n'
          '</｜DSML｜invoke>\n</｜DSML｜function_calls>',
          None, [call("get_weather", city="Paris", days=3)],
          "SGLang's deepseekv32: `True` is not `true`, so city is read as JSON, and being none, as its "
          "text (`Paris`), days 3; symphony: the attribute in any case"),
    # DSML tags written spaced: runs of whitespace between a tag's name and its attributes,
    # between attributes and before the tag's end
    Quirk("dsml-spaced-tags", "deepseek_v3_2",
          'Checking.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke  name="get_weather" >\n'
          '<｜DSML｜parameter\tname="city"  string="true"\n>Paris</｜DSML｜parameter>\n'
          '<｜DSML｜parameter name="days"\nstring="false" >3</｜DSML｜parameter>\n'
          '</｜DSML｜invoke>\n</｜DSML｜function_calls>',
          "Checking.\n\n", [call("get_weather", city="Paris", days=3)],
          "SGLang's deepseekv32 (`<｜DSML｜invoke\\s+name=\"…\"\\s*>`, `\\s+string=…\\s*>`, whole and streamed): "
          "the call; vLLM's deepseek_v32 reads the spaced parameter tags, not a spaced invoke tag"),
    Quirk("dsml-spaced-invoke-newline", "deepseek_v4",
          '<｜DSML｜tool_calls>\n<｜DSML｜invoke\nname="get_weather"\n>\n'
          '<｜DSML｜parameter name="city" string="true">Oslo</｜DSML｜parameter>\n</｜DSML｜invoke>\n'
          '<｜DSML｜invoke\r\n  name="get_weather" />\n</｜DSML｜tool_calls>',
          None, [call("get_weather", city="Oslo"), call("get_weather")],
          "SGLang's deepseekv4: both calls, the second self-closing (`\"\\s*/>`)"),
    Quirk("dsml-spaced-bare-invoke", "deepseek_v4_1",
          'Hi <｜DSML｜ invoke\tname="get_weather">\n<｜DSML｜ parameter  name="city" string="true" >Rome'
          '</｜DSML｜ parameter>\n</｜DSML｜ invoke>',
          "Hi ", [call("get_weather", city="Rome")],
          "SGLang's deepseekv41 (the V3.2 detector's `\\s+`, `\\s*`): the call, written without its block"),
    Quirk("dsml-attribute-spaced-around-equals", "deepseek_v3_2",
          '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n'
          '<｜DSML｜parameter name = "city" string="true">Paris</｜DSML｜parameter>\n'
          '<｜DSML｜parameter name="days"string="false">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
          '<｜DSML｜parameter name = "city" string="true">Paris</｜DSML｜parameter>\n'
          '<｜DSML｜parameter name="days"string="false">3</｜DSML｜parameter>', [call("get_weather")],
          "SGLang's deepseekv32: no call (it reads no space around `=` and none missing between attributes); "
          "vLLM's deepseek_v32: the call with neither parameter; symphony: the call, the two tags Malformed"),
    Quirk("gcml-spaced-tags", "gigachat35",
          'Sure.<｜GCML｜tool_calls>\n<｜GCML｜invoke   name="get_weather"\t>\n'
          '<｜GCML｜parameter name="city"\n string="true" >Paris</｜GCML｜parameter>\n'
          '</｜GCML｜invoke>\n</｜GCML｜tool_calls>',
          "Sure.", [call("get_weather", city="Paris")],
          "SGLang's gigachat35 (`<｜GCML｜invoke\\s+name=\"…\"\\s*>`, whole and streamed): the call"),
    # DSML's `string="false"` on a declared string's text: a JSON word its schema does not admit,
    # where it admits a string, is the text
    Quirk("dsml-json-scalar-for-a-declared-string", "deepseek_v3_2",
          '<｜DSML｜function_calls>\n<｜DSML｜invoke name="run">\n'
          '<｜DSML｜parameter name="cmd" string="false">null</｜DSML｜parameter>\n'
          '<｜DSML｜parameter name="n" string="false">3</｜DSML｜parameter>\n'
          '<｜DSML｜parameter name="label" string="false"> true </｜DSML｜parameter>\n'
          '<｜DSML｜parameter name="maybe" string="false">null</｜DSML｜parameter>\n'
          '<｜DSML｜parameter name="either" string="false">7</｜DSML｜parameter>\n'
          '<｜DSML｜parameter name="list" string="false">[1]</｜DSML｜parameter>\n'
          '<｜DSML｜parameter name="size" string="false">2.5</｜DSML｜parameter>\n'
          '</｜DSML｜invoke>\n</｜DSML｜function_calls>',
          None, [call("run", cmd="null", n=3, label="true", maybe=None, either=7, list=[1], size=2.5)],
          "vLLM's deepseek_v32 (its test_null_coerced_back_to_string_by_schema): `null`, `true` under a "
          "declared string are the text, the schema's own words and arrays stay JSON (it makes a number the "
          "text too; SGLang's deepseekv4 tests keep one a number, as symphony does). SGLang's deepseekv32 "
          "reads every `string=\"false\"` value as JSON (`null`, `true`)",
          tools=({"type": "function", "function": {"name": "run", "parameters": {"type": "object", "properties": {
              "cmd": {"type": "string"}, "n": {"type": "integer"}, "label": {"type": "string"},
              "maybe": {"type": ["string", "null"]}, "either": {"type": ["string", "integer"]},
              "list": {"type": "string"}, "size": {"type": "string"}}}}},)),
    # arguments written as `null`: no arguments, the object `{}`
    Quirk("cohere-null-parameters", "cohere_command4",
          '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", "parameters": null}]<|END_ACTION|>',
          None, [call("get_weather")],
          "SGLang's cohere_command4 (BaseFormatDetector: `parameters or arguments or {}`): `{}`; vLLM's: `null`"),
    Quirk("qwen3-null-arguments-then-more", "qwen3",
          '<tool_call>\n{"name": "get_weather", "arguments": null }\n</tool_call>'
          '<tool_call>\n{"name": "get_weather", "arguments": nul\n</tool_call>',
          "nul\n", [call("get_weather"), call("get_weather")],
          "vLLM's hermes: `null` (json.dumps of the value); symphony: `{}` either way, the cut word Malformed "
          "(shown) with the text after it"),
    Quirk("llama3-python-none-arguments", "llama3_json",
          "{'name': 'get_weather', 'parameters': None}; {\"name\": \"get_weather\", \"parameters\": Non",
          "Non", [call("get_weather"), call("get_weather")],
          "SGLang's llama3: the first call with `{}` (`parameters or arguments or {}`); symphony: `{}` for "
          "Python's word for no arguments as for JSON's `null`, the cut word Malformed (shown)"),
    Quirk("gpt-oss-empty-arguments", "gpt_oss",
          "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|><|call|>",
          None, [call("get_weather")],
          "SGLang's gpt-oss: no call, nothing shown (symphony: the header names the call, which has no arguments)"),
    # a keyed call's key with whitespace around it: the key is its text, the spaces in its source
    Quirk("glm-key-spaced", "glm",
          "<tool_call>search<arg_key> query </arg_key><arg_value>x y</arg_value>"
          "<arg_key>\nlimit\n</arg_key><arg_value>5</arg_value></tool_call>",
          None, [call("search", query="x y", limit=5)],
          "vLLM's glm47 and SGLang's glm47 (whole and streamed): the key trimmed, the declared types found",
          tools=(SEARCH,)),
    Quirk("ling-key-spaced", "ling",
          "<tool_call>search\n<arg_key>query  </arg_key>\n<arg_value>007</arg_value>\n"
          "<arg_key>\tlimit</arg_key>\n<arg_value>12</arg_value>\n</tool_call>",
          None, [call("search", query="007", limit=12)],
          "vLLM's and SGLang's ling3 and glm45 (whole and streamed): the key trimmed, the declared types found",
          tools=(SEARCH,)),
    # GigaChat 3: a call object with a name and no arguments member is no call
    Quirk("gigachat3-name-only-object", "gigachat3",
          'Saving.<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "get_weather"}',
          'Saving.function call<|role_sep|>\n{"name": "get_weather"}', [],
          "vLLM's and SGLang's gigachat3: no call (SGLang's test_detect_and_parse_missing_arguments)"),
    Quirk("gigachat3-empty-arguments-is-a-call", "gigachat3",
          '<|function_call|>{"name": "get_weather", "arguments": {}}', None, [call("get_weather")],
          "vLLM's and SGLang's gigachat3: the call, with {}"),
    # GLM-4.5's newlines written escaped, `\n` as two characters (its output escaped once more)
    Quirk("ling-escaped-newlines", "ling",
          "Sure.\n<tool_call>search\\n<arg_key>query</arg_key>\\n<arg_value>a\\nb</arg_value>\\n"
          "<arg_key>limit</arg_key>\\n \\n<arg_value>5</arg_value>\\n</tool_call>",
          "Sure.\n", [call("search", query="a\\nb", limit=5)],
          "SGLang's glm45 (its detector reads `\\n` or a newline after the name and between the tags; "
          "test_array_argument_with_escaped_json's raw variants); vLLM's glm45 reads no call",
          tools=(SEARCH,)),
    Quirk("ling-escaped-newline-is-text-elsewhere", "ling",
          "a\\nb <tool_call>f\\nx<arg_key>k</arg_key><arg_value>1</arg_value></tool_call>",
          "a\\nb <tool_call>f\\nx<arg_key>k</arg_key><arg_value>1</arg_value></tool_call>", [],
          "SGLang's glm45 reads the call `f` with `x<arg_key>…` its arguments' text (no pair): none; symphony: "
          "a name holds no whitespace, so `f\\nx` is no name and the block, holding no call, is its text"),
    Quirk("iquest-key-spaced", "iquest",
          "<iquest_tool_call>search<arg_key> query </arg_key><arg_value>x</arg_value>"
          "<arg_key> limit</arg_key><arg_value>5</arg_value></iquest_tool_call>",
          None, [call("search", query="x", limit=5)],
          "SGLang's iquest_q1 (whole and streamed): the key trimmed (vLLM has no IQuest parser)",
          tools=(SEARCH,)),
    # A table whose first state holds the calls: the marker back to it written twice in a row is one
    # (rule 2), not an empty region shown as text before the next
    Quirk("llama3-python-tag-twice", "llama3_json",
          '<|python_tag|><|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}',
          None, [call("get_weather", city="Paris")],
          "vLLM's llama3_json and SGLang's llama3: the call, no content (symphony showed the first tag, a region "
          "that held no call)"),
    Quirk("llama3-python-tag-twice-between-calls", "llama3_json",
          '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}<|python_tag|>\n<|python_tag|>'
          '{"name": "get_weather", "parameters": {"city": "Oslo"}}',
          None, [call("get_weather", city="Paris"), call("get_weather", city="Oslo")],
          "vLLM's llama3_json and SGLang's llama3: both calls, no content"),
    Quirk("llama3-python-tag-after-text-opens-the-next", "llama3_json",
          '<|python_tag|>x<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}',
          "<|python_tag|>x", [call("get_weather", city="Paris")],
          "vLLM's llama3_json and SGLang's llama3: the call, no content (symphony: after text the tag ends the "
          "region, which held no call and is text as written, rule 2)"),
    Quirk("inkling-header-opener-twice", "inkling",
          '<|message_model|><|message_model|>get_weather<|content_invoke_tool_json|>'
          '{"name":"get_weather","args":{"city":"Paris"}}<|end_message|>',
          None, [call("get_weather", city="Paris")],
          "vLLM's and SGLang's inkling: the call, no content (symphony showed the first `<|message_model|>`, a "
          "region that held no call)"),
    # A call's own opener, inside its block (no row for it in the call), written twice in a row,
    # whitespace aside: one (rule 2), where the second was read as the call's text
    Quirk("k2-horizon-call-opener-twice", "k2_horizon",
          "Before <ifm|tool_calls><ifm|tool_call>\n<ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key>"
          "<ifm|arg_value>Paris</ifm|arg_value></ifm|tool_call></ifm|tool_calls> after.",
          "Before  after.", [call("get_weather", city="Paris")],
          "SGLang's k2_horizon: no call, content `Before  after.`; vLLM's: no call, all content (symphony: all "
          "content, the second tag read as the name's text)"),
    Quirk("k2-horizon-call-opener-after-text-is-its-text", "k2_horizon",
          "<ifm|tool_calls><ifm|tool_call>x<ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key>"
          "<ifm|arg_value>Paris</ifm|arg_value></ifm|tool_call></ifm|tool_calls>",
          "<ifm|tool_calls><ifm|tool_call>x<ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key>"
          "<ifm|arg_value>Paris</ifm|arg_value></ifm|tool_call></ifm|tool_calls>", [],
          "vLLM's k2_horizon: all content; SGLang's: nothing (after text the tag is the call's text: no name)"),
    Quirk("hy3-call-opener-twice", "hy_v3", "<tool_calls><tool_call><tool_call>get_current_date<tool_sep></tool_call>"
          "</tool_calls>", None, [call("get_current_date")],
          "vLLM's hy_v3: a call named `<tool_call>get_current_date`; SGLang's hunyuan: no call, nothing shown "
          "(symphony: all content)"),
    Quirk("gigachat3-call-header-twice", "gigachat3",
          'function call<|role_sep|>function call<|role_sep|>\n{"name": "get_weather", "arguments": '
          '{"city": "Paris"}}', None, [call("get_weather", city="Paris")],
          "vLLM's and SGLang's gigachat3: the call, no content (symphony: all content)"),
    Quirk("lfm2-call-block-opener-twice", "lfm2_5",
          "<|tool_call_start|><|tool_call_start|>[get_weather(city='Paris')]<|tool_call_end|>",
          None, [call("get_weather", city="Paris")],
          "vLLM's lfm2: no call, all content; SGLang's lfm2: no call, nothing shown (symphony showed the first "
          "tag, the call read)"),
    # A call region's close written twice in a row, whitespace aside, after a call: one (rule 2)
    Quirk("qwen-call-close-twice", "qwen2_5",
          '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call></tool_call>',
          None, [call("get_weather", city="Paris")],
          "vLLM's hermes and SGLang's qwen25: the call, no content (symphony showed the second `</tool_call>`, "
          "a marker with no region open)"),
    Quirk("qwen3-coder-block-close-twice-then-prose", "qwen3_tagged",
          "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>"
          "\n</tool_call>\nDone.",
          "\n\nDone.", [call("get_weather", city="Paris")],
          "vLLM's qwen3_coder and SGLang's qwen3_coder: the call, no content (each drops the text after the "
          "block; prose kept here)"),
    Quirk("glm-call-close-twice", "ling",
          "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call></tool_call>",
          None, [call("get_weather", city="Paris")],
          "vLLM's glm45 and SGLang's glm45: the call, no content"),
    Quirk("minimax-block-close-twice", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n'
          "</minimax:tool_call>\n</minimax:tool_call>",
          None, [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: the call, no content; SGLang's minimax-m2: the call, the second close as content"),
    Quirk("qwen-call-close-again-after-text-is-text", "qwen2_5",
          '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call> ok </tool_call>',
          " ok </tool_call>", [call("get_weather", city="Paris")],
          "vLLM's hermes and SGLang's qwen25: the call, no content (both drop the text after it); symphony: after "
          "text the close is the text's, as written"),
    # A call's own close written twice in its block, whitespace aside: one, Dropped (rule 2); so is
    # its block's close written twice where the block closes into the turn's wrapping (Muse)
    Quirk("minimax-invoke-close-twice", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + "\n</invoke>\n</minimax:tool_call>",
          None, [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: the call, no content, as SGLang's minimax-m2 reads `</invoke></invoke>` (symphony "
          "showed the second `</invoke>`, text between the block's calls)"),
    Quirk("hy3-call-close-twice", "hy_v3",
          "<tool_calls>" + HY3_CALL + "</tool_call></tool_calls>",
          None, [call("get_weather", city="Paris")],
          "vLLM's hy_v3 and SGLang's hunyuan: the call, no content"),
    Quirk("kimi-k3-call-close-twice", "kimi_k3",
          "<|open|>tools<|sep|>" + K3_CALL + "<|close|>call<|sep|><|close|>tools<|sep|>",
          None, [call("get_weather", city="Paris")],
          "vLLM's and SGLang's kimi_k3: the call, no content"),
    Quirk("dsml-invoke-close-twice", "deepseek_v3_2",
          "<｜DSML｜function_calls>\n" + DSML_INVOKE + "\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
          None, [call("get_weather", city="Paris")],
          "vLLM's deepseek_v32: the call, no content"),
    Quirk("muse-block-close-twice-before-eom", "muse_glimmer",
          " to=get_weather<|message|><atem:function_calls>\n" + MUSE_INVOKE
          + "\n</atem:function_calls></atem:function_calls><|eom|>",
          None, [call("get_weather", city="Paris")],
          "vLLM's and SGLang's muse: the call, no content (symphony showed the second "
          "`</atem:function_calls>`)"),
    Quirk("qwen3-coder-function-close-twice", "qwen3_tagged",
          "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</function>\n"
          "</tool_call>",
          None, [call("get_weather", city="Paris")],
          "vLLM's qwen3_coder and SGLang's qwen3_coder, whole and streamed: the call, no content (symphony showed "
          "the second `</function>`, text between the block's calls)"),
    Quirk("qwen3-coder-function-close-again-after-text-is-text", "qwen3_tagged",
          "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\nok</function>\n"
          "</function\n</tool_call>",
          "ok</function>\n</function", [call("get_weather", city="Paris")],
          "vLLM's qwen3_coder and SGLang's qwen3_coder: the call, no content (both drop the block's text); "
          "symphony: after text the tag is the block's text, as is a tag cut short"),
    Quirk("llama4-python-end-twice", "pythonic",
          "<|python_start|>[get_weather(city='Paris')]<|python_end|><|python_end|>",
          None, [call("get_weather", city="Paris")],
          "vLLM's llama4_pythonic and SGLang's pythonic: the call, no content (symphony showed the second "
          "`<|python_end|>`)"),
    Quirk("llama4-python-end-twice-then-prose", "pythonic",
          "<|python_start|>[get_weather(city='Paris')]<|python_end|>\n<|python_end|> Done.",
          "\n Done.", [call("get_weather", city="Paris")],
          "SGLang's pythonic: the call, the text after it as content; vLLM's llama4_pythonic: streamed the call, "
          "whole no call (the list shown)"),
    Quirk("minimax-invoke-close-again-after-text-is-text", "minimax_m2",
          "<minimax:tool_call>\n" + MINIMAX_INVOKE + " ok </invoke>\n</minimax:tool_call>",
          "ok </invoke>", [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: the call, no content (it drops the text between the block's calls); symphony: "
          "after text the close is the block's text, as written"),
    # Llama 3.x writes a call object as a Python dict at times (single quotes, True/False/None)
    Quirk("llama3-python-dict", "llama3_json",
          "{'name': 'search', 'parameters': {'query': 'it\\'s \"new\"', 'limit': 5, 'exact': True}}",
          None, [call("search", query='it\'s "new"', limit=5, exact=True)],
          "SGLang's llama3: the call (whole: ast.literal_eval once json.loads refuses the object; streamed: its "
          "quote rewrite reads a plain dict, not the escaped quote); vLLM's llama3_json: no call, all content",
          tools=(SEARCH,)),
    Quirk("llama3-python-dicts-after-the-python-tag", "llama3_json",
          "<|python_tag|>{'name': 'search', 'parameters': {'query': 'a'}}; "
          "{'name': 'search', 'arguments': {'query': 'b', 'limit': None}}",
          None, [call("search", query="a"), call("search", query="b", limit=None)],
          "SGLang's llama3: both calls (streamed, the second with no arguments: its quote rewrite stops at "
          "`None`); vLLM's llama3_json: no call (streamed, nothing shown)", tools=(SEARCH,)),
    Quirk("llama3-python-dict-in-prose", "llama3_json",
          "Let me look that up. {'name': 'search', 'parameters': {'query': 'x'}}",
          "Let me look that up. ", [call("search", query="x")],
          "SGLang's llama3 streamed: the call, the prose before it content (its whole parse reads calls only in an "
          "output that starts with `{` or holds `<|python_tag|>`); vLLM's llama3_json: no call", tools=(SEARCH,)),
    Quirk("llama3-python-arguments-in-a-json-object", "llama3_json",
          "{\"name\": \"search\", \"parameters\": {'query': 'x'}}",
          None, [call("search", query="x")],
          "SGLang's llama3: the call; vLLM's llama3_json: none whole (streamed, the call with no arguments)",
          tools=(SEARCH,)),
    Quirk("llama3-single-quotes-in-prose", "llama3_json",
          "I'd say {'a': 'b'} is 'fine'.", "I'd say {'a': 'b'} is 'fine'.", [],
          "vLLM's llama3_json and SGLang's llama3 (whole): content (an object whose first key names no call is "
          "prose); SGLang's streamed shows only `I'd say `",
          tools=(SEARCH,)),
    # Apertus: a call object where its `{"NAME": {arguments}}` belongs, OpenAI's wrapped one or a plain one
    Quirk("apertus-openai-call-object", "apertus",
          '<|tools_prefix|>[{"type": "function", "function": {"name": "search", "arguments": {"query": "x"}}}]'
          "<|tools_suffix|>",
          None, [call("search", query="x")],
          "vLLM's apertus: a call named `type` with the arguments `\"function\"`; SGLang's apertus2509: no call "
          "(`type` is no declared tool). symphony read the call `type` too; a first member a call object writes "
          "makes it one, read by the rule of wrapped call objects", tools=(SEARCH,)),
    Quirk("apertus-openai-call-object-with-id-then-named", "apertus",
          '<|tools_prefix|>[{"id": "call_1", "type": "function", "function": {"name": "search", "arguments": '
          '"{\\"query\\": \\"a\\"}"}}, {"open": {"id": 3}}]<|tools_suffix|>',
          None, [call("search", query="a"), call("open", id=3)],
          "vLLM's apertus: calls named `id` (`\"call_1\"`) and `open`; SGLang's apertus2509: `open` only",
          tools=(SEARCH, OPEN)),
    Quirk("apertus-plain-call-object", "apertus",
          '<|tools_prefix|>[{"name": "search", "arguments": {"query": "x"}}]<|tools_suffix|>',
          None, [call("search", query="x")],
          "vLLM's apertus: a call named `name` with the arguments `\"search\"`; SGLang's apertus2509: no call",
          tools=(SEARCH,)),
    # an object with a name and no arguments in prose: a reply that is JSON, no call
    Quirk("llama3-name-only-object-is-text", "llama3_json", '{"name": "toolWithoutParams"}',
          '{"name": "toolWithoutParams"}', [],
          "vLLM's llama3_json: no call, the content as written (its test_extract_tool_calls_missing_parameters_"
          "and_arguments_key; streamed, the call with no arguments); SGLang's llama3: the call with `{}` where the "
          "request declares the tool, else nothing shown"),
    Quirk("llama3-json-reply-with-a-name", "llama3_json", 'Here it is: {"name": "Alice", "age": 30} Done.',
          'Here it is: {"name": "Alice", "age": 30} Done.', [],
          "vLLM's llama3_json: content as written, whole and streamed; SGLang's llama3: content as written whole "
          "(streamed, it drops `{\"name\": \"Alice\"`)"),
    Quirk("llama3-call-after-a-name-only-object", "llama3_json",
          '{"name": "get_weather"}; {"name": "get_weather", "parameters": {"city": "Oslo"}}',
          '{"name": "get_weather"}; ', [call("get_weather", city="Oslo")],
          "vLLM's llama3_json: no call whole, all content (streamed, both calls, the first with no arguments); "
          "SGLang's llama3: both calls whole, the first with `{}`; symphony: the first object ends before any "
          "arguments, text as written"),
    # a `;` outside an object's strings ends the object of a list: the model left out its `}` (or its
    # arguments' closers too) before the separator; the call is cut there, its arguments closed
    Quirk("llama3-call-object-cut-by-a-semicolon", "llama3_json",
          '{"name": "get_weather", "parameters": {"city": "Oslo"};{"name": "search", "parameters": {"query": "x"}}',
          None, [call("get_weather", city="Oslo"), call("search", query="x")],
          "SGLang's llama3: whole, the second call only (the first skipped, its text not shown); streamed, the first "
          "with its arguments cut (`{\"city\": \"Osl`) and no second; vLLM's llama3_json: whole, no call, all "
          "content; streamed, the first call only (symphony: both, the first cut at the `;` as a call cut short "
          "is)", tools=(WEATHER, SEARCH)),
    Quirk("llama3-arguments-cut-by-a-semicolon-then-a-third-call", "llama3_json",
          '<|python_tag|>{"name": "get_weather", "arguments": {"city": "Oslo", "days": 3 ; '
          '{"name": "search", "arguments": {}}; {"name": "search", "arguments": {"query": "y"}}',
          None, [call("get_weather", city="Oslo", days=3), call("search"), call("search", query="y")],
          "SGLang's llama3: whole, the second and third calls (the first skipped, not shown); streamed, the first, "
          "its arguments cut (`{\"city\": \"Oslo\"`); vLLM's llama3_json: whole, no call, all content; "
          "streamed, the first call only", tools=(WEATHER, SEARCH)),
    Quirk("llama3-call-cut-by-a-semicolon-then-prose", "llama3_json",
          'Checking. {"name": "get_weather", "parameters": {"city": "Oslo"} ; then more',
          "Checking. ; then more", [call("get_weather", city="Oslo")],
          "SGLang's llama3: whole, all content (an output that starts with text); streamed, `Checking. ` and the "
          "call, its arguments cut (`{\"city\": \"Osl`); vLLM's llama3_json: all content, whole and streamed "
          "(symphony: the call, and from the `;` on prose again, as after a call whose `}` was written)",
          tools=(WEATHER, SEARCH)),
    Quirk("llama3-semicolon-in-a-string-is-its-text", "llama3_json",
          '{"name": "search", "parameters": {"query": "a; {\\"name\\": \\"b\\"}"}}; '
          "{'name': 'search', 'parameters': {'query': 'it;s'}}",
          None, [call("search", query='a; {"name": "b"}'), call("search", query="it;s")],
          "SGLang's llama3: both calls, whole and streamed; vLLM's llama3_json: whole, no call, all content (the "
          "Python dict is no JSON); streamed, the first call", tools=(SEARCH,)),
    Quirk("xlam-call-object-cut-by-a-semicolon", "xlam",
          '[{"name": "get_weather", "arguments": {"city": "Oslo"}; {"name": "search", "arguments": {"query": "x"}}]',
          None, [call("get_weather", city="Oslo"), call("search", query="x")],
          "vLLM's xlam: streamed, both calls; whole, no call, all content (SGLang has no xlam detector)",
          tools=(WEATHER, SEARCH)),
    # whitespace separates a list's objects too: a `{` after whitespace where the object's `,` or `}`
    # belongs, its arguments whole, is the list's next object (the `}` left out, the call cut there)
    Quirk("llama3-call-object-without-its-brace-then-a-newline-and-the-next", "llama3_json",
          '{"name": "get_weather", "parameters": {"city": "Oslo"}\n{"name": "search", "parameters": {"query": "x"}}',
          None, [call("get_weather", city="Oslo"), call("search", query="x")],
          "SGLang's llama3: whole, the second call only (the first skipped, its text not shown); streamed, the first "
          "with its arguments cut (`{\"city\": \"Osl`) and no second; vLLM's llama3_json: whole, no call, all "
          "content; streamed, the first call only, its arguments cut (symphony: both, the first cut before the `{`)",
          tools=(WEATHER, SEARCH)),
    Quirk("llama3-tagged-call-object-without-its-brace-then-a-space-and-the-next", "llama3_json",
          '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo", "days": 2} '
          '{"name": "search", "parameters": {"query": "x"}}; {"name": "search", "parameters": {}}',
          None, [call("get_weather", city="Oslo", days=2), call("search", query="x"), call("search")],
          "SGLang's llama3: whole, the second and third calls (the first skipped, not shown); streamed, the first, its "
          "arguments cut (`{\"city\": \"Oslo\"`); vLLM's llama3_json: whole, no call, all content; streamed, the "
          "first call only, its arguments cut the same", tools=(WEATHER, SEARCH)),
    Quirk("llama3-call-object-without-its-brace-after-prose", "llama3_json",
          'Checking. {"name": "get_weather", "parameters": {"city": "Oslo"}\n{"name": "search", "parameters": {}}',
          "Checking. ", [call("get_weather", city="Oslo"), call("search")],
          "SGLang's llama3 and vLLM's llama3_json: all content whole (an output that starts with text); streamed, "
          "vLLM's all content, SGLang's the text up to the first object's `\"parameters\": ` and no call",
          tools=(WEATHER, SEARCH)),
    # a `{` after whitespace inside the arguments' value is the value's: no object of the list opens there
    Quirk("llama3-objects-side-by-side-in-the-arguments-are-the-arguments", "llama3_json",
          '{"name": "run", "parameters": {"opts": {"a": 1} {"b": 2}}}\n{"name": "run", "parameters": {"n": 1}}',
          '{"b": 2}}', [call("run", opts={"a": 1}), call("run", n=1)],
          "SGLang's llama3: whole, the second call only; streamed, the first, its arguments cut (`{\"opts\": {`); "
          "vLLM's llama3_json: whole, all content; streamed, as SGLang's (symphony: the arguments end where their "
          "validator refused the `{`, the rest of the object Malformed, then the next call)", tools=(RUN,)),
    # nothing need separate them: a `{` right after a member's value, where the `,` or `}` belongs, its
    # arguments whole, is the list's next object too (the `}` left out, the call cut there)
    Quirk("llama3-call-object-without-its-brace-then-the-next-unspaced", "llama3_json",
          '{"name": "get_weather", "parameters": {"city": "Oslo"}{"name": "search", "parameters": {"query": "x"}}',
          None, [call("get_weather", city="Oslo"), call("search", query="x")],
          "SGLang's llama3: whole, the second call only (the first skipped, not shown); streamed, the first, its "
          "arguments cut (`{\"city\": \"Osl`) and no second; vLLM's llama3_json: whole, no call, all "
          "content; streamed, the first call only (symphony read the second as the first's Malformed tail)",
          tools=(WEATHER, SEARCH)),
    Quirk("llama3-tagged-three-call-objects-without-their-braces-unspaced", "llama3_json",
          '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}{"name": "search", "parameters": '
          '{"query": "x"}{"name": "search", "parameters": {}}',
          None, [call("get_weather", city="Oslo"), call("search", query="x"), call("search")],
          "SGLang's llama3: whole, the last call only; streamed, the first, its arguments cut (`{\"city\": \"Osl`); "
          "vLLM's llama3_json: whole, no call, all content; streamed, the first call only", tools=(WEATHER, SEARCH)),
    Quirk("llama3-call-object-without-its-brace-after-another-member-then-the-next", "llama3_json",
          '{"name": "get_weather", "parameters": {"city": "Oslo"}, "id": 7{"name": "search", "parameters": {}}',
          None, [call("get_weather", city="Oslo"), call("search")],
          "SGLang's llama3: whole, the second call only; streamed, the first, its arguments cut (`{\"city\": \"Osl`); "
          "vLLM's llama3_json: whole, no call, all content; streamed, the first call only (symphony: a scalar's "
          "value ends at the `{` as at a `,`)", tools=(WEATHER, SEARCH)),
    Quirk("llama3-wrapped-call-object-without-its-brace-then-the-next", "llama3_json",
          '{"type": "function", "function": {"name": "get_weather", "parameters": {"city": "Oslo"}}'
          '{"name": "search", "parameters": {"query": "x"}}',
          None, [call("get_weather", city="Oslo"), call("search", query="x")],
          "SGLang's llama3: whole, an error (its object's `parameters` missing); streamed, no call and no content; "
          "vLLM's llama3_json: whole, no call, all content; streamed, no call (symphony: the wrapper's `}` left "
          "out, the `{` after the call object is the list's next)", tools=(WEATHER, SEARCH)),
    # only at the call object's level: inside the arguments the `{` is their value's (refused there), and
    # after a `,` a key belongs
    Quirk("llama3-objects-unspaced-in-the-arguments-are-the-arguments", "llama3_json",
          '{"name": "run", "parameters": {"opts": {"a": 1}{"b": 2}}}{"name": "run", "parameters": {"n": 1}}',
          '{"b": 2}}', [call("run", opts={"a": 1}), call("run", n=1)],
          "SGLang's llama3: whole, the second call only; streamed, the first, its arguments cut (`{\"opts\": {`); "
          "vLLM's llama3_json: whole, all content; streamed, the first, `{\"opts\": {\"a\": 1}}` (symphony: the "
          "arguments end where their validator refused the `{`, the rest of the object Malformed, then the "
          "next call after its `}`)", tools=(RUN,)),
    # a `,` after such a value, then (whitespace aside) a `{`, is the separator between the list's
    # objects written before the `}` was: the object ends before the `,`, which is dropped
    Quirk("llama3-call-object-without-its-brace-then-a-comma-and-the-next", "llama3_json",
          '{"name": "get_weather", "parameters": {"city": "Oslo"},{"name": "search", "parameters": {}}',
          None, [call("get_weather", city="Oslo"), call("search")],
          "SGLang's llama3: whole, the second call only; streamed, the first, its arguments cut (`{\"city\": \"Osl`); "
          "vLLM's llama3_json: whole, all content; streamed, the first call only (symphony: both, the `,` the "
          "separator between them)", tools=(WEATHER, SEARCH)),
    Quirk("llama3-tagged-call-objects-without-their-braces-then-a-comma-and-a-space", "llama3_json",
          '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}, {"name": "search", "parameters": '
          '{"query": "x"}, {"name": "search", "parameters": {}}',
          None, [call("get_weather", city="Oslo"), call("search", query="x"), call("search")],
          "SGLang's llama3: whole, the last call only; streamed, the first, its arguments cut (`{\"city\": \"Osl`); "
          "vLLM's llama3_json: whole, all content; streamed, the first call only", tools=(WEATHER, SEARCH)),
    Quirk("llama3-call-object-without-its-brace-then-a-comma-a-newline-and-the-next", "llama3_json",
          '{"name": "get_weather", "parameters": {"city": "Oslo"},\n{"name": "search", "parameters": {"query": "x"}}',
          None, [call("get_weather", city="Oslo"), call("search", query="x")],
          "SGLang's llama3: whole, the second call only; streamed, the first, its arguments cut (`{\"city\": \"Osl`); "
          "vLLM's llama3_json: whole, all content; streamed, the first call only", tools=(WEATHER, SEARCH)),
    Quirk("llama3-call-object-without-its-brace-after-another-member-then-a-comma-and-the-next", "llama3_json",
          '{"name": "get_weather", "parameters": {"city": "Oslo"}, "id": 7 ,{"name": "search", "parameters": {}}',
          None, [call("get_weather", city="Oslo"), call("search")],
          "SGLang's llama3: whole, the second call only; streamed, the first, its arguments cut (`{\"city\": \"Osl`); "
          "vLLM's llama3_json: whole, all content; streamed, the first call only (symphony: the `,` after the "
          "scalar member the separator)", tools=(WEATHER, SEARCH)),
    # only once the object has its name and its arguments whole, and only at its own level
    Quirk("llama3-comma-and-an-object-in-the-arguments-are-the-arguments", "llama3_json",
          '{"name": "run", "parameters": {"opts": {"a": 1},{"b": 2}}}; {"name": "run", "parameters": {"n": 1}}',
          ',{"b": 2}}', [call("run", opts={"a": 1}), call("run", n=1)],
          "SGLang's llama3: whole, the second call only; streamed, the first, its arguments cut (`{\"opts\": {`); "
          "vLLM's llama3_json: whole, all content; streamed, the first, `{\"opts\": {\"a\": 1}}` (symphony: the "
          "arguments end where their validator refused the `{`, the rest of the object Malformed)", tools=(RUN,)),
    Quirk("llama3-comma-and-an-object-before-the-arguments-is-text", "llama3_json",
          '{"name": "get_weather",{"name": "search", "parameters": {"query": "x"}}',
          '{"name": "get_weather",', [call("search", query="x")],
          "SGLang's llama3: whole, the second call only; streamed, the first with no arguments; vLLM's "
          "llama3_json: whole, all content; streamed, the first with no arguments (symphony: an object that "
          "stops before its arguments begin is the text it is)", tools=(WEATHER, SEARCH)),
    Quirk("xlam-call-object-without-its-brace-then-a-comma-and-the-next", "xlam",
          '[{"name": "get_weather", "arguments": {"city": "Oslo"}, {"name": "search", "arguments": {"query": "x"}}]',
          None, [call("get_weather", city="Oslo"), call("search", query="x")],
          "vLLM's xlam: streamed, both calls; whole, no call, all content (SGLang has no xlam detector)",
          tools=(WEATHER, SEARCH)),
    # a `]` there (after a `,` too) is the list's end, written before the last object's `}` was
    Quirk("xlam-last-call-object-without-its-brace-before-the-bracket", "xlam",
          '[{"name": "get_weather", "arguments": {"city": "Oslo"}] Done.',
          " Done.", [call("get_weather", city="Oslo")],
          "vLLM's xlam: streamed, the call; whole, no call, all content (SGLang has no xlam detector; symphony "
          "read `] Done.` as the call's Malformed tail)"),
    Quirk("xlam-second-call-object-without-its-brace-then-a-comma-and-the-bracket", "xlam",
          '[{"name": "get_weather", "arguments": {"city": "Oslo"}}, {"name": "search", "arguments": {"query": "x"}, '
          '] and then', " and then", [call("get_weather", city="Oslo"), call("search", query="x")],
          "vLLM's xlam: streamed, both calls; whole, no call, all content", tools=(WEATHER, SEARCH)),
    Quirk("llama3-list-in-prose-last-call-object-without-its-brace", "llama3_json",
          'Here: [{"name": "get_weather", "parameters": {"city": "Oslo"}}, '
          '{"name": "search", "parameters": {"query": "x"}] ok',
          "Here:  ok", [call("get_weather", city="Oslo"), call("search", query="x")],
          "SGLang's llama3: whole, no call; streamed, both, the second's arguments cut (`{\"query\": \"`), the "
          "content `Here: [, `; vLLM's llama3_json: all content, whole and streamed", tools=(WEATHER, SEARCH)),
    Quirk("qwen3-list-last-call-object-without-its-brace", "qwen3",
          '<tool_call>\n[{"name": "get_weather", "arguments": {"city": "Oslo"}}, '
          '{"name": "search", "arguments": {"query": "x"}]\n</tool_call>',
          None, [call("get_weather", city="Oslo"), call("search", query="x")],
          "SGLang's qwen25: no call and no content, whole and streamed; vLLM's hermes: whole, all content; "
          "streamed, the first, the rest in its arguments", tools=(WEATHER, SEARCH)),
    Quirk("llama3-bracket-after-a-bare-call-object-is-prose", "llama3_json",
          '{"name": "get_weather", "parameters": {"city": "Oslo"}] ok',
          "] ok", [call("get_weather", city="Oslo")],
          "SGLang's llama3 and vLLM's llama3_json: whole, no call, all content; streamed, the call (SGLang's, its "
          "arguments cut, `{\"city\": \"Osl`) (symphony: the object ends before the `]`, prose after the call, "
          "as after a call whose `}` was written; it was the call's Malformed tail)"),
    # a `<tool_call>` block holds one call object (no list of them): what follows its object is text
    Quirk("hermes-call-object-without-its-brace-then-a-comma-and-another-is-its-tail", "qwen3",
          '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}, '
          '{"name": "search", "arguments": {"query": "x"}}\n</tool_call>',
          ', {"name": "search", "arguments": {"query": "x"}}\n', [call("get_weather", city="Oslo")],
          "SGLang's qwen25: whole, no call and no content; streamed, the first, its arguments cut "
          "(`{\"city\": \"Osl`); vLLM's hermes: whole, all content; streamed, the first, the rest in its "
          "arguments", tools=(WEATHER, SEARCH)),
    # an object that opens a list in prose is a call once it is named and its arguments begin: one
    # with arguments and no name is text as written, fence and brackets included
    Quirk("llama3-fenced-object-with-arguments-and-no-name-is-text", "llama3_json",
          'The tool takes:\n```json\n{"parameters": {"type": "object"}}\n```\nThat is all.',
          'The tool takes:\n```json\n{"parameters": {"type": "object"}}\n```\nThat is all.', [],
          "vLLM's llama3_json: all content, whole and streamed; SGLang's llama3: whole, all content; streamed, "
          "the text up to the object only (symphony: a Malformed call with no name, its fence dropped)"),
    Quirk("xlam-list-of-an-object-with-arguments-and-no-name-is-text", "xlam",
          'Example: ```json\n[{"arguments": {"a": 1}}]\n```', 'Example: ```json\n[{"arguments": {"a": 1}}]\n```', [],
          "vLLM's xlam: whole, `Example:` only; streamed, all content but the last backtick (symphony: a "
          "Malformed call with no name, the fence and `[` dropped)"),
    Quirk("xlam-object-with-its-arguments-before-its-name-is-a-call", "xlam",
          '[{"arguments": {"city": "Oslo"}, "name": "get_weather"}]', None, [call("get_weather", city="Oslo")],
          "vLLM's xlam: whole, the call; streamed, the call with no arguments"),
    Quirk("xlam-call-object-without-its-brace-then-a-space-and-the-next", "xlam",
          '[{"name": "get_weather", "arguments": {"city": "Oslo"} {"name": "search", "arguments": {"query": "x"}}]',
          None, [call("get_weather", city="Oslo"), call("search", query="x")],
          "vLLM's xlam: streamed, both calls; whole, no call, all content (SGLang has no xlam detector)",
          tools=(WEATHER, SEARCH)),
    Quirk("xlam-call-object-without-its-brace-then-the-next-unspaced", "xlam",
          '[{"name": "get_weather", "arguments": {"city": "Oslo"}{"name": "search", "arguments": {"query": "x"}}]',
          None, [call("get_weather", city="Oslo"), call("search", query="x")],
          "vLLM's xlam: streamed, both calls (by three characters the second's arguments cut, `{`); whole, no call, "
          "all content (SGLang has no xlam detector)", tools=(WEATHER, SEARCH)),
    Quirk("minimax-m1-call-object-without-its-brace-then-the-next-line", "minimax",
          '<tool_calls>\n{"name": "get_weather", "arguments": {"city": "Oslo"}\n'
          '{"name": "search", "arguments": {"query": "x"}}\n</tool_calls>',
          None, [call("get_weather", city="Oslo"), call("search", query="x")],
          "neither engine has a MiniMax M1 parser (vLLM 0.33, SGLang 0.5.23); one object per line, as its template "
          "writes them, the first cut before the next line's `{`", tools=(WEATHER, SEARCH)),
    Quirk("xlam-name-only-list-is-text", "xlam", '[{"name": "Alice", "age": 30}]', '[{"name": "Alice", "age": 30}]', [],
          "vLLM's xlam: no call and no content (streamed, the call `Alice`); symphony: a list whose first object "
          "ends before its arguments is the text it is"),
    # Granite 3's opener written again after the list's `]` opens the next list, text between or none;
    # in the list it is the list's text, and a region it opens that holds no list is text (as written)
    Quirk("granite-second-list-after-the-first", "granite",
          'Sure.<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Oslo"}}]\n'
          '<|tool_call|>[{"name": "search", "arguments": {"query": "x"}}]',
          "Sure.", [call("get_weather", city="Oslo"), call("search", query="x")],
          "vLLM's granite: both calls, whole and streamed; symphony showed the second list as text",
          tools=(WEATHER, SEARCH)),
    Quirk("granite-second-list-spelled-as-text-right-after-the-first", "granite",
          '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Oslo"}}]'
          '<tool_call>[{"name": "search", "arguments": {"query": "x"}}]',
          None, [call("get_weather", city="Oslo"), call("search", query="x")],
          "vLLM's granite: both calls, whole and streamed", tools=(WEATHER, SEARCH)),
    Quirk("granite-second-list-after-prose", "granite",
          '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Oslo"}}] see '
          '<|tool_call|>[{"name": "search", "arguments": {"query": "x"}}]',
          " see ", [call("get_weather", city="Oslo"), call("search", query="x")],
          "vLLM's granite: both calls, whole and streamed; whole, no content; streamed, `see ` (symphony showed the "
          "second list as text after the first)", tools=(WEATHER, SEARCH)),
    Quirk("granite-second-list-after-lines-of-prose", "granite",
          'Sure.<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Oslo"}}]\nThen:\n'
          '<|tool_call|>[{"name": "search", "arguments": {"query": "x"}}] done',
          "Sure.\nThen:\n done", [call("get_weather", city="Oslo"), call("search", query="x")],
          "vLLM's granite: both calls, whole and streamed; whole, the content `Sure.`; streamed, `Sure.\nThen:\n "
          "done`", tools=(WEATHER, SEARCH)),
    Quirk("granite-list-after-an-opener-in-prose", "granite",
          'Use <|tool_call|> like: <|tool_call|>[{"name": "search", "arguments": {"query": "x"}}]',
          "Use <|tool_call|> like: ", [call("search", query="x")],
          "vLLM's granite: the call, whole (the content `Use like:`) and streamed (`Use like: `); symphony read no "
          "call (the opener, written again in a region that held no list, opens the next: rule 2)", tools=(SEARCH,)),
    Quirk("granite-opener-twice-is-one", "granite",
          '<|tool_call|> <|tool_call|>[{"name": "search", "arguments": {"query": "x"}}]',
          None, [call("search", query="x")],
          "vLLM's granite: whole, no call, the content from the second opener on; streamed, no call, or by three "
          "characters the call (symphony: an opener written twice with only whitespace between is one, rule 2)",
          tools=(SEARCH,)),
    Quirk("granite-opener-in-prose-between-lists-is-its-text", "granite",
          '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Oslo"}}] a <|tool_call|> b '
          '<|tool_call|>[{"name": "search", "arguments": {"query": "x"}}]',
          " a <|tool_call|> b ", [call("get_weather", city="Oslo"), call("search", query="x")],
          "vLLM's granite: both calls; whole, no content; streamed, `a b ` (symphony: the opener after ` a ` opens "
          "a region that holds no list, text as written, and the next opener the next list)", tools=(WEATHER, SEARCH)),
    Quirk("granite-opener-in-prose-after-the-list-is-its-text", "granite",
          '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Oslo"}}] Then <|tool_call|> is the marker.',
          " Then <|tool_call|> is the marker.", [call("get_weather", city="Oslo")],
          "vLLM's granite: the call; whole, no content; streamed, the text without the opener (symphony: the region "
          "the opener opens holds no list, so it is the text the model wrote, opener included)", tools=(WEATHER,)),
    Quirk("granite-opener-after-the-list-that-opens-no-list-is-text", "granite",
          '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Oslo"}}] <|tool_call|> not a list',
          " <|tool_call|> not a list", [call("get_weather", city="Oslo")],
          "vLLM's granite: the call; whole, no content; streamed, `not a list` (symphony: the region the opener "
          "opened holds no call, so it is the text the model wrote, opener included)", tools=(WEATHER,)),
    Quirk("granite-opener-between-the-lists-objects-is-its-text", "granite",
          '<|tool_call|>[{"name": "search", "arguments": {"query": "x"}} <|tool_call|>]',
          "<|tool_call|>", [call("search", query="x")],
          "vLLM's granite: the call; whole, no content; streamed, `<|tool_call|>]` (symphony: text between the "
          "list's objects, Malformed, shown)", tools=(SEARCH,)),
    Quirk("granite-opener-in-a-string-is-its-text", "granite",
          '<|tool_call|>[{"name": "search", "arguments": {"query": "<|tool_call|>"}}]',
          None, [call("search", query="<|tool_call|>")],
          "vLLM's granite: the call, its string as written, whole and streamed", tools=(SEARCH,)),
    # Hy4's markers spelled bare, as a tokenizer whose vocab has them unsuffixed writes them
    Quirk("hy4-unsuffixed-markers", "hy4",
          "Checking.<tool_calls><tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value>"
          "<arg_key>days</arg_key><arg_value>2</arg_value></tool_call><tool_call>get_weather<arg_key>city"
          "</arg_key><arg_value>Rome</arg_value></tool_call></tool_calls>",
          "Checking.", [call("get_weather", city="Paris", days=2), call("get_weather", city="Rome")],
          "vLLM's hy_v4 (a vocab with the unsuffixed markers): both calls, the text before the block as content"),
    Quirk("hy4-bare-thought-close-is-thought-text", "hy4",
          "I could write </think> here.</think:opensource>Sure.", "Sure.", [],
          "vLLM's hy_v4 reasoning parser (Hy4's vocab): the thought as written; Hy4 writes `</think>` as text "
          "in its thought (the hy4-preview fixture), so the bare thought markers are not read",
          reasoning="I could write </think> here.", prompt="<think:opensource>"),
    # a value whose close tag is missing, ended by the next parameter's tag when its key is new
    Quirk("glm-value-close-missing-before-a-new-key", "glm",
          "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Dallas<arg_key>days</arg_key><arg_value>3"
          "</arg_value></tool_call>",
          None, [call("get_weather", city="Dallas", days=3)],
          "vLLM's and SGLang's glm47: `city` = `Dallas<arg_key>days</arg_key><arg_value>3`, no `days`"),
    Quirk("glm-value-close-missing-a-number-before-a-new-key", "glm",
          "<tool_call>get_weather<arg_key>days</arg_key><arg_value>3<arg_key>city</arg_key><arg_value>Dallas"
          "</arg_value></tool_call>",
          None, [call("get_weather", days=3, city="Dallas")],
          "vLLM's and SGLang's glm47: `days` = `3<arg_key>city</arg_key><arg_value>Dallas`, no `city`"),
    Quirk("glm-key-tag-of-a-written-key-in-a-value-is-its-text", "glm",
          "<tool_call>get_weather<arg_key>city</arg_key><arg_value>a <arg_key>city</arg_key> b</arg_value>"
          "</tool_call>",
          None, [call("get_weather", city="a <arg_key>city</arg_key> b")],
          "vLLM's and SGLang's glm47: the same"),
    Quirk("glm-key-tag-of-an-undeclared-key-in-a-value-is-its-text", "glm",
          "<tool_call>get_weather<arg_key>city</arg_key><arg_value>a <arg_key>country</arg_key> b</arg_value>"
          "</tool_call>",
          None, [call("get_weather", city="a <arg_key>country</arg_key> b")],
          "vLLM's and SGLang's glm47: the same"),
    Quirk("glm-key-tag-cut-by-the-value-close-is-its-text", "glm",
          "<tool_call>get_weather<arg_key>city</arg_key><arg_value>a <arg_key>days</arg_value></tool_call>",
          None, [call("get_weather", city="a <arg_key>days")],
          "vLLM's and SGLang's glm47: the same"),
    Quirk("ling-value-close-missing-before-a-new-key", "ling",
          "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Dallas\n<arg_key>days</arg_key>\n"
          "<arg_value>3</arg_value>\n</tool_call>",
          None, [call("get_weather", city="Dallas", days=3)],
          "vLLM's glm45: `city` = `Dallas\n<arg_key>days</arg_key>\n<arg_value>3`, no `days`"),
    # the template's whitespace between pairs, before a key tag or the call's close that ends a value
    # whose close is missing, is no part of the value (its close tag makes it the value's)
    Quirk("glm-value-close-missing-before-the-call-close-less-the-template-indent", "glm",
          "<tool_call>get_weather\n    <arg_key>city</arg_key>\n    <arg_value>Dallas\n    </tool_call>",
          None, [call("get_weather", city="Dallas")],
          "vLLM's glm47: the call without `city`; SGLang's glm47: no call"),
    Quirk("glm-value-close-missing-keeps-the-whitespace-before-its-first-newline", "glm",
          "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Dallas  \n</tool_call>",
          None, [call("get_weather", city="Dallas  ")],
          "vLLM's glm47: the call without `city`; SGLang's glm47: no call"),
    Quirk("glm-whitespace-before-a-value-close-is-the-value", "glm",
          "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Dallas \n</arg_value>\n</tool_call>",
          None, [call("get_weather", city="Dallas \n")],
          "vLLM's glm47: the same; SGLang's glm47: no call"),
    Quirk("minimax-m3-leaf-close-missing-before-a-new-key", "minimax_m3",
          ']<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="get_weather">\n]<]minimax[>[<city>Beijing'
          ']<]minimax[>[<days>3]<]minimax[>[</days>\n]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>',
          None, [call("get_weather", city="Beijing", days=3)],
          "vLLM's minimax_m3: the call with no arguments; SGLang's minimax-m3: no call, the output as content"),
    Quirk("minimax-m3-tag-of-a-written-key-in-a-leaf-is-its-text", "minimax_m3",
          ']<]minimax[>[<tool_call>]<]minimax[>[<invoke name="get_weather">]<]minimax[>[<city>Bei <city>jing'
          ']<]minimax[>[</city>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>',
          None, [call("get_weather", city="Bei <city>jing")],
          "SGLang's minimax-m3: the same; vLLM's minimax_m3: the call with no arguments"),
    Quirk("hy4-value-close-missing-before-a-new-key", "hy4",
          "<tool_calls:opensource><tool_call:opensource>get_weather<arg_key:opensource>city</arg_key:opensource>"
          "<arg_value:opensource>Dallas<arg_key:opensource>days</arg_key:opensource><arg_value:opensource>3"
          "</arg_value:opensource></tool_call:opensource></tool_calls:opensource>",
          None, [call("get_weather", city="Dallas", days=3)],
          "vLLM's hy_v4: `city` = the rest of the call as text, no `days`"),
    Quirk("minimax-m2-value-close-missing-before-a-new-key", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Dallas<parameter name="days">3'
          "</parameter>\n</invoke>\n</minimax:tool_call>",
          None, [call("get_weather", city="Dallas", days=3)],
          "vLLM's minimax_m2: the same; SGLang's minimax-m2: `city` = the rest as text"),
    Quirk("minimax-m2-parameter-tag-of-a-written-key-in-a-value-is-its-text", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">a<parameter name="city">b'
          "</parameter>\n</invoke>\n</minimax:tool_call>",
          None, [call("get_weather", city='a<parameter name="city">b')],
          "SGLang's minimax-m2: the same; vLLM's minimax_m2: `city` = `b`"),
    Quirk("dsml-value-close-missing-before-a-new-key", "deepseek_v3_2",
          '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">'
          'Dallas<｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n'
          "</｜DSML｜function_calls>",
          None, [call("get_weather", city="Dallas", days=3)],
          "vLLM's deepseek_v32: the same; SGLang's deepseekv32: `city` = the rest as text"),
    Quirk("dots-value-close-missing-before-a-new-key-after-text", "dots3",
          '<dots_function_call><invoke name="get_weather">\n<parameter name="city">\nx<parameter name="days">\n3\n'
          "</parameter>\n</invoke></dots_function_call>",
          None, [call("get_weather", city="x", days=3)],
          "vLLM's and SGLang's dots: `city` = the rest as text"),
    Quirk("minicpm5-value-close-missing-before-a-new-key", "minicpm5",
          '<function name="get_weather"><param name="city">Dallas<param name="days">3</param></function>',
          None, [call("get_weather", city="Dallas", days=3)],
          "vLLM's and SGLang's minicpm5: `city` = `Dallas<param name=\"days\">3`, no `days`"),
    Quirk("step3-value-close-missing-before-a-new-key", "step3",
          '<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="get_weather"><steptml:parameter name="city">'
          'Tokyo<steptml:parameter name="days">3</steptml:parameter></steptml:invoke><｜tool_call_end｜>'
          "<｜tool_calls_end｜>",
          None, [call("get_weather", city="Tokyo", days=3)],
          "vLLM's step3: no call, the output as content; SGLang's step3: no call"),
    Quirk("kimi-k3-value-close-missing-before-a-new-key", "kimi_k3",
          '<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" '
          'type="string"<|sep|>Dallas<|open|>argument key="days" type="number"<|sep|>3<|close|>argument<|sep|>'
          "<|close|>call<|sep|><|close|>tools<|sep|>",
          None, [call("get_weather", city="Dallas", days=3)],
          "vLLM's and SGLang's kimi_k3: `city` = the rest as text, no `days`"),
    # a value's close misspelled or cut short, right before the next parameter's tag or the call's close:
    # the value's close; anything else after it makes it the value's text
    Quirk("minimax-m2-misspelled-value-close-before-a-new-key", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter1>\n'
          '<parameter name="days">3</parameter>\n</invoke>\n</minimax:tool_call>',
          None, [call("get_weather", city="Paris", days=3)],
          "vLLM's minimax_m2: `city` = `Paris</parameter1>\n`; SGLang's minimax-m2: `city` = the rest as text"),
    Quirk("minimax-m2-misspelled-value-close-before-the-call-close", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter_invoke>\n'
          "</invoke>\n</minimax:tool_call>",
          None, [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: the call with no arguments; SGLang's minimax-m2: `city` = `Paris</parameter_invoke>`"),
    Quirk("minimax-m2-value-close-cut-short-before-the-call-close", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter\n'
          "</invoke>\n</minimax:tool_call>",
          None, [call("get_weather", city="Paris")],
          "vLLM's minimax_m2: the call with no arguments; SGLang's minimax-m2: `city` = `Paris</parameter`"),
    # arguments written as a JSON string in the families whose head names the call: the object in
    # the string is the arguments, as a call object's string `arguments` is
    Quirk("kimi-k2-arguments-written-as-a-string", "kimi_k2",
          '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>'
          '"{\\"city\\": \\"Paris\\"}"<|tool_call_end|><|tool_calls_section_end|>',
          None, [call("get_weather", city="Paris")],
          "vLLM's kimi_k2: the call, its arguments the string; SGLang's kimi_k2: no call"),
    Quirk("deepseek-v3-1-arguments-written-as-a-string", "deepseek_v3_1",
          '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"{\\"city\\": \\"Paris\\"}"'
          "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
          None, [call("get_weather", city="Paris")],
          "vLLM's deepseek_v31 and SGLang's deepseekv31: the call, its arguments the string"),
    Quirk("mistral-v11-arguments-written-as-a-string", "mistral",
          '[TOOL_CALLS]get_weather[ARGS]"{\\"city\\": \\"Paris\\"}"',
          None, [call("get_weather", city="Paris")],
          "vLLM's mistral: the call, its arguments the string; SGLang's mistral: no call"),
    # text after a value's close, no later close before the call's end: the close was the value's
    Quirk("qwen3-coder-text-after-a-value-close", "qwen3_tagged",
          "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\nNote: metric\n</function>\n"
          "</tool_call>",
          "Note: metric", [call("get_weather", city="Paris")],
          "vLLM's and SGLang's qwen3_coder: `city` = `Paris`, the note dropped"),
    Quirk("step3p5-text-after-a-value-close-then-the-block-close", "step3p5",
          "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function >\n</tool_call>",
          "</function >", [call("get_weather", city="Paris")],
          "vLLM's and SGLang's step3p5: `city` = `Paris`, the misspelled close dropped"),
    # a Markdown fence around the arguments object after a head that names the call
    Quirk("deepseek-v3-1-fenced-arguments", "deepseek_v3_1",
          "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>```json\n{\"city\": \"Paris\"}\n```"
          "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
          None, [call("get_weather", city="Paris")],
          "vLLM's deepseek_v31 and SGLang's deepseekv31 (streamed): the call, its arguments the fence's text, "
          "which json.loads refuses"),
    Quirk("kimi-k2-fenced-arguments", "kimi_k2",
          "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>```\n"
          '{"city": "Paris"}\n```<|tool_call_end|><|tool_calls_section_end|>',
          None, [call("get_weather", city="Paris")],
          "vLLM's and SGLang's kimi_k2: the call, its arguments the fence's text, which json.loads refuses"),
    Quirk("gpt-oss-fenced-arguments", "gpt_oss",
          "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>```json\n"
          '{"city": "Paris"}\n```<|call|>',
          None, [call("get_weather", city="Paris")],
          "vLLM's gpt-oss: the call, its arguments the fence's text, which json.loads refuses"),
    # a keyed call's name the stream's end follows (its close left out, or taken as a stop string)
    Quirk("glm-name-then-the-end", "glm", "Checking.\n<tool_call>get_time",
          "Checking.\n", [call("get_time")],
          "vLLM's glm47: the same; SGLang's glm47: the output as content (whole), a call with no name (streamed)",
          tools=(TIME,)),
    Quirk("ling-name-and-newline-then-the-end", "ling", "<tool_call>get_time\n",
          None, [call("get_time")], "vLLM's glm45: the same; SGLang's glm45: the same (streamed)", tools=(TIME,)),
    # a marker inside a JSON string of a call: the string's text when the call's object closes
    # before a terminal comes; a terminal outside a string, or the end, first makes it a marker
    Quirk("qwen2_5-call-close-in-a-string-the-object-closes", "qwen2_5",
          'Sure.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "wrap in </tool_call> tags"}}\n</tool_call>',
          "Sure.\n", [call("get_weather", city="wrap in </tool_call> tags")],
          "SGLang's qwen25: the same; vLLM's hermes: no call, the output as content (whole), the arguments cut at "
          "the marker (streamed)"),
    Quirk("qwen3-call-open-and-close-in-a-string", "qwen3",
          '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Use <tool_call>{...}</tool_call> to call"}}\n'
          "</tool_call>",
          None, [call("get_weather", city="Use <tool_call>{...}</tool_call> to call")],
          "SGLang's qwen25: the same; vLLM's hermes: no call (whole), the arguments cut at the second marker "
          "(streamed)"),
    Quirk("qwen2_5-call-close-in-a-string-then-the-end", "qwen2_5",
          '<tool_call>\n{"name": "get_weather", "arguments": {"city": "x</tool_call>\nDone.',
          "\nDone.", [call("get_weather", city="x")],
          "SGLang's qwen25: nothing (whole), `x</tool_call>` and the rest lost (streamed); vLLM's hermes: the "
          "arguments cut at the marker, which json.loads refuses"),
    Quirk("qwen2_5-call-close-in-a-string-then-the-next-call", "qwen2_5",
          '<tool_call>\n{"name": "get_weather", "arguments": {"city": "x</tool_call>\nok <tool_call>{"name": '
          '"get_time", "arguments": {}}</tool_call>',
          "\nok ", [call("get_weather", city="x"), call("get_time")],
          "vLLM's hermes (streamed): both calls, the first's arguments cut at the marker, which json.loads "
          "refuses; SGLang's qwen25: no call (whole), the first call only (streamed)", tools=(WEATHER, TIME)),
    Quirk("kimi-k2-call-end-in-a-string", "kimi_k2",
          "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
          '{"city": "a <|tool_call_end|> b"}<|tool_call_end|><|tool_calls_section_end|>',
          None, [call("get_weather", city="a <|tool_call_end|> b")],
          "SGLang's kimi_k2: the same (whole); vLLM's kimi_k2: the arguments cut at the marker"),
    Quirk("deepseek-v3-1-call-end-in-a-string", "deepseek_v3_1",
          "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
          '{"city": "a <｜tool▁call▁end｜> b"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
          None, [call("get_weather", city="a <｜tool▁call▁end｜> b")],
          "vLLM's deepseek_v31 and SGLang's deepseekv31: the arguments cut at the marker (SGLang whole: no call)"),
    Quirk("deepseek-v3-call-end-in-a-string", "deepseek_v3",
          "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
          '{"city": "a <｜tool▁call▁end｜> b"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
          None, [call("get_weather", city="a <｜tool▁call▁end｜> b")],
          "vLLM's deepseek_v3: the same (whole), the arguments cut at the marker (streamed); SGLang's deepseekv3: "
          "the same (streamed), no call (whole)"),
    Quirk("nemotron-json-list-close-in-a-string", "nemotron_json",
          '<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "a </TOOLCALL> b"}}]</TOOLCALL>',
          None, [call("get_weather", city="a </TOOLCALL> b")],
          "no incumbent reads the family (vLLM 0.33 registers no nemotron_json, SGLang has no detector): a "
          "JSON string's text, as in every JSON family"),
    Quirk("hunyuan-a13b-block-close-in-a-string", "hunyuan_a13b",
          '<tool_calls>[{"name": "get_weather", "arguments": {"city": "a </tool_calls> b"}}]</tool_calls>',
          None, [call("get_weather", city="a </tool_calls> b")],
          "vLLM's hunyuan_a13b: no call, the output as content (whole)"),
    Quirk("internlm2-action-end-in-a-string", "internlm2",
          '<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"city": "a <|action_end|> b"}}'
          "<|action_end|>",
          None, [call("get_weather", city="a <|action_end|> b")],
          "vLLM's internlm: an error (whole), the arguments cut at the marker (streamed)"),
    Quirk("gpt-oss-call-in-a-string", "gpt_oss",
          '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "a <|call|> b"}<|call|>',
          None, [call("get_weather", city="a <|call|> b")],
          "vLLM's gpt-oss: the arguments cut at the marker; SGLang's gpt-oss: no call"),
    # a string where the schema declares a number, an integer or a boolean: that value
    Quirk("gemma4-declared-values-written-as-strings", "gemma4",
          '<|tool_call>call:lookup{limit:<|"|>5<|"|>,enabled:<|"|>true<|"|>,ratio:<|"|>0.5<|"|>,tags:<|"|>[1, 2]<|"|>,'
          'query:<|"|>7<|"|>}<tool_call|>',
          None, [call("lookup", limit=5, enabled=True, ratio=0.5, tags=[1, 2], query="7")],
          "vLLM's gemma4: the same; SGLang's gemma4: the strings", tools=(LOOKUP,)),
    Quirk("gemma4-declared-integer-string-that-is-no-number", "gemma4",
          '<|tool_call>call:lookup{limit:<|"|>five<|"|>}<tool_call|>',
          None, [call("lookup", limit="five")],
          "vLLM's and SGLang's gemma4: the string", tools=(LOOKUP,)),
    Quirk("gemma4-call-close-in-a-string", "gemma4",
          '<|tool_call>call:get_weather{city:<|"|>a <tool_call|> b<|"|>}<tool_call|>',
          None, [call("get_weather", city="a <tool_call|> b")],
          "SGLang's gemma4: the same (streamed), the string cut at the marker (whole); vLLM's gemma4: cut at the "
          "marker, the rest shown (streamed)"),
    Quirk("gemma4-call-opener-in-a-string-the-next-call", "gemma4",
          '<|tool_call>call:get_weather{city:<|"|>x<|tool_call>call:get_time{timezone:<|"|>UTC<|"|>}<tool_call|>',
          None, [call("get_weather", city="x"), call("get_time", timezone="UTC")],
          "the next call's string opening is no close of the first's: the opener was the next call's",
          tools=(WEATHER, TIME)),
    Quirk("mistral-v11-tool-calls-in-a-string", "mistral",
          '[TOOL_CALLS]get_weather[ARGS]{"city": "a [TOOL_CALLS] b"}',
          None, [call("get_weather", city="a [TOOL_CALLS] b")],
          "SGLang's mistral: the same"),
    # a call's opener inside a value: the value's own close after it makes it the value's text; a
    # terminal or the end first makes it the next call's (the value's close missing)
    Quirk("glm-call-opener-in-a-value-its-close-ends", "glm",
          "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Wrap it in `<tool_call>` tags.</arg_value>"
          "</tool_call>",
          None, [call("get_weather", city="Wrap it in `<tool_call>` tags.")],
          "vLLM's and SGLang's glm47: the same"),
    Quirk("ling-call-opener-on-a-line-of-a-value", "ling",
          "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>line1\n<tool_call>\nline3</arg_value>\n"
          "</tool_call>",
          None, [call("get_weather", city="line1\n<tool_call>\nline3")],
          "vLLM's and SGLang's glm45: the same"),
    Quirk("glm-call-opener-in-a-value-whose-close-is-missing", "glm",
          "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris<tool_call>get_time</tool_call>",
          None, [call("get_weather", city="Paris"), call("get_time")],
          "vLLM's and SGLang's glm47: get_weather with no arguments, no get_time"),
    Quirk("minimax-m2-invoke-opener-in-a-value-its-close-ends", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">s = \'<invoke name="f">\'\n'
          "</parameter>\n</invoke>\n</minimax:tool_call>",
          None, [call("get_weather", city="s = '<invoke name=\"f\">'\n")],
          "vLLM's minimax_m2: the same; SGLang's minimax-m2: the same less the last newline"),
    Quirk("minimax-m2-invoke-opener-in-a-value-whose-close-is-missing", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris\n<invoke name="get_time">\n'
          '<parameter name="zone">UTC</parameter>\n</invoke>\n</minimax:tool_call>',
          None, [call("get_weather", city="Paris\n"), call("get_time", zone="UTC")],
          "vLLM's minimax_m2: one call, `city` = the invoke tag's text and `zone`; SGLang's minimax-m2: "
          "`city` = the rest as text"),
    Quirk("deepseek-v3-2-invoke-opener-in-a-value-its-close-ends", "deepseek_v3_2",
          '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">'
          'a <｜DSML｜invoke name="f"> b</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
          None, [call("get_weather", city='a <｜DSML｜invoke name="f"> b')],
          "vLLM's deepseek_v32 and SGLang's deepseekv32: the same"),
    Quirk("minicpm5-function-opener-in-a-value-its-close-ends", "minicpm5",
          '<function name="get_weather"><param name="city">a <function name="f"> b</param></function>',
          None, [call("get_weather", city='a <function name="f"> b')],
          "vLLM's and SGLang's minicpm5: the same"),
    Quirk("minimax-m2-misspelled-value-close-then-text-is-the-value", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">a</parameter1> b</parameter>\n'
          "</invoke>\n</minimax:tool_call>",
          None, [call("get_weather", city="a</parameter1> b")],
          "vLLM's and SGLang's minimax-m2: the same"),
    Quirk("minimax-m2-misspelled-value-close-before-a-written-key-is-the-value", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">a</parameter1>'
          '<parameter name="city">b</parameter>\n</invoke>\n</minimax:tool_call>',
          None, [call("get_weather", city='a</parameter1><parameter name="city">b')],
          "SGLang's minimax-m2: the same; vLLM's minimax_m2: `city` = `b`"),
    Quirk("minimax-m2-misspelled-value-close-at-the-end-is-the-value", "minimax_m2",
          '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter1>',
          None, [call("get_weather", city="Paris</parameter1>")],
          "vLLM's minimax_m2: the call with no arguments; SGLang's minimax-m2: no call, the output as content"),
    Quirk("dsml-misspelled-value-close-before-a-new-key", "deepseek_v3_2",
          '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">'
          'Dallas</｜DSML｜parameter1>\n<｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>\n'
          "</｜DSML｜invoke>\n</｜DSML｜function_calls>",
          None, [call("get_weather", city="Dallas", days=3)],
          "vLLM's deepseek_v32: `city` = `Dallas</｜DSML｜parameter1>\n`; SGLang's deepseekv32: `city` = the rest as "
          "text, no `days`"),
    Quirk("glm-misspelled-value-close-before-a-new-key", "glm",
          "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value1>\n<arg_key>days</arg_key>\n"
          "<arg_value>3</arg_value>\n</tool_call>",
          None, [call("get_weather", city="Paris", days=3)],
          "vLLM's glm45 and SGLang's glm45: `city` = `Paris</arg_value1>\n<arg_key>days</arg_key>\n<arg_value>3`"),
    Quirk("glm-value-close-cut-short-before-the-call-close-keeps-its-spaces", "glm",
          "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris  </arg_value\n</tool_call>",
          None, [call("get_weather", city="Paris  ")],
          "vLLM's and SGLang's glm45: the call with no arguments"),
    Quirk("glm-misspelled-value-close-then-text-is-the-value", "glm",
          "<tool_call>get_weather<arg_key>city</arg_key><arg_value>a</arg_values> b</arg_value></tool_call>",
          None, [call("get_weather", city="a</arg_values> b")],
          "vLLM's glm45: the same; SGLang's glm45: no call"),
    Quirk("minicpm5-misspelled-value-close-before-a-new-key", "minicpm5",
          '<function name="get_weather"><param name="city">Paris</param1><param name="days">3</param></function>',
          None, [call("get_weather", city="Paris", days=3)],
          "vLLM's and SGLang's minicpm5: `city` = `Paris</param1><param name=\"days\">3`, no `days`"),
    Quirk("minicpm5-misspelled-value-close-in-cdata-is-its-text", "minicpm5",
          '<function name="get_weather"><param name="city"><![CDATA[a</param1>]]><param name="days">3</param>'
          "</function>",
          None, [call("get_weather", city="a</param1>", days=3)],
          "vLLM's and SGLang's minicpm5: `city` = the rest as text, its CDATA tags too, no `days`"),
    Quirk("hy4-unsuffixed-call-tag-in-prose", "hy4",
          "Write <tool_call>get_weather<arg_key>city</arg_key> like this.",
          "Write <tool_call>get_weather<arg_key>city</arg_key> like this.", [],
          "vLLM's hy_v4 (a vocab with the unsuffixed markers): content as written (no block open)"),
]


_TOKEN = re.compile(r"<\|[^|<>]{1,60}\|>|<[^<>\s]{1,60}>|<｜[^｜]{1,40}｜>|\s+|\w+|.", re.S)


def token_pieces(text):
    """The output cut as a tokenizer would roughly cut it: special tokens and tags whole, words,
    whitespace runs and single other characters."""
    return _TOKEN.findall(text)


def said(events):
    message = chat.message(events)["message"]
    return (message["content"], message["reasoning_content"],
            [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message["tool_calls"] or []])


def test_a_hy4_suffix_is_read_from_a_vocab_and_checked():
    from symphony.integrations.names import served_table

    class Tokenizer:
        def __init__(self, vocab):
            self.vocab, self.asked = vocab, 0

        def get_vocab(self):
            self.asked += 1
            return self.vocab
    suffixed = Tokenizer({"a": 0, "<tool_calls:6124c78e>": 1})
    assert served_table(hy4.HY4, suffixed) is hy4.suffixed(":6124c78e") is served_table(hy4.HY4, suffixed)
    assert suffixed.asked == 1 and hy4.suffixed(":6124c78e").name == "hy4:6124c78e"
    for vocab in ({"<tool_calls:opensource>": 1}, {"<tool_calls>": 1}, {"a": 1}):
        assert served_table(hy4.HY4, Tokenizer(vocab)) is hy4.HY4
    assert served_table(hy4.HY_V3, suffixed) is hy4.HY_V3 and served_table(hy4.HY4, object()) is hy4.HY4
    assert hy4.suffixed(":opensource") is hy4.HY4
    for bad in ("", "6124c78e", ": x", ":a>b", 7):
        with pytest.raises(ValueError, match="a Hy4 marker suffix"):
            hy4.suffixed(bad)


@pytest.mark.parametrize("quirk", QUIRKS, ids=[q.name for q in QUIRKS])
def test_quirk_read_at_every_chunking(quirk):
    tools = list(quirk.tools)
    events = symphony.parse(quirk.table, quirk.output, tools=tools, prompt=quirk.prompt)
    check_conservation(events, quirk.output)
    check_well_formed(events)
    assert said(events) == (quirk.content, quirk.reasoning, quirk.calls), quirk.incumbent
    for plan, pieces in chunkings(quirk.output):
        got = replay(symphony.parser(quirk.table, tools), pieces, quirk.prompt)
        check_conservation(got, quirk.output)
        check_well_formed(got)
        assert chat.message(got) == chat.message(events), plan
    pieces = token_pieces(quirk.output)
    assert "".join(pieces) == quirk.output
    ids = list(range(len(pieces)))
    got = replay_tokens(symphony.parser(quirk.table, tools), pieces, ids, [1] * len(pieces), quirk.prompt, "stop")
    assert chat.message(got) == chat.message(events), "one token at a time"
    assert _check_token_replay(got, pieces, ids, None) == []


# (table, prompt, the thought, the call) of each table whose call opener ends a thought left open
THOUGHT_THEN_CALL = [
    ("qwen3", None, "<think>plan", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>'),
    ("qwen3_tagged", "<|im_start|>assistant\n<think>\n", "plan\n",
     "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\n</tool_call>"),
    ("mimo", None, "<think>plan",
     "<tool_call>\n<function=get_weather>\n<parameter=city>Oslo</parameter>\n</function>\n</tool_call>"),
    ("step3p5", "<|im_start|>assistant\n<think>\n", "plan\n",
     "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\n</tool_call>"),
    ("glm", "<|assistant|><think>", "plan",
     "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Oslo</arg_value></tool_call>"),
    ("ling", "<role>ASSISTANT</role><think>\n", "plan\n",
     "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Oslo</arg_value>\n</tool_call>"),
    ("hunyuan_a13b", None, "<think>\nplan\n",
     '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Oslo"}}]</tool_calls>'),
    ("gemma4", None, "<|channel>thought\nplan", '<|tool_call>call:get_weather{city:<|"|>Oslo<|"|>}<tool_call|>'),
    ("deepseek_v3_1", "<｜Assistant｜><think>", "plan\n\n",
     '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Oslo"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'),
    ("deepseek_v3", "<｜Assistant｜><think>\n", "plan",
     '<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Oslo"}\n```<｜tool▁call▁end｜>'),
]


@pytest.mark.parametrize("table, prompt, thought, calls", THOUGHT_THEN_CALL, ids=[t[0] for t in THOUGHT_THEN_CALL])
def test_a_call_opener_in_a_thought_left_open_reads_as_if_the_thought_closed(table, prompt, thought, calls):
    """The thought ends at the call opener: content and calls as if the model had closed the
    thought before it, the reasoning the text before the opener; whole and at every chunking (the
    incumbents' reasoning parsers: see the quirks above)."""
    output = thought + " then more." + calls + "\nDone."
    closed = thought + " then more." + dict(format_table(table).terminals)["think_close"] + calls + "\nDone."
    events = symphony.parse(table, output, tools=[WEATHER], prompt=prompt)
    check_conservation(events, output)
    check_well_formed(events)
    assert said(events) == said(symphony.parse(table, closed, tools=[WEATHER], prompt=prompt))
    assert said(events)[2] == [call("get_weather", city="Oslo")]
    for plan, pieces in chunkings(output):
        assert chat.message(replay(symphony.parser(table, [WEATHER]), pieces, prompt)) == chat.message(events), plan


def control_cases():
    """(table, control token) for every control token of every table whose first state is content
    and has no row on it: a token no row reads."""
    for name in symphony.formats():
        fmt = format_table(name)
        first = fmt.states[0][0]
        if fmt.states[0][1] != Emits.CONTENT:
            continue
        for terminal, text in fmt.terminals:
            if terminal in fmt.controls and fmt.next(first, terminal) is None:
                yield name, text


@pytest.mark.parametrize("table, token", list(control_cases()))
def test_a_control_token_no_row_reads_is_dropped(table, token):
    """Where no region is open, a family's control token that drives no row is dropped
    (Dropped{ControlToken}) and the prose around it is content byte for byte."""
    output = f"Some prose {token} and more."
    events = symphony.parse(table, output)
    check_conservation(events, output)
    assert [e.text.text for e in events if type(e) is Dropped and e.why == DropReason.CONTROL_TOKEN] == [token]
    assert chat.message(events)["message"]["content"] == "Some prose  and more."
    for plan, pieces in chunkings(output):
        assert chat.message(replay(symphony.parser(table), pieces)) == chat.message(events), plan


def test_spaced_special_tokens_spell_each_marker_as_decoding_spaces_it():
    """shapes.spaced_special_tokens: each special token and each run of other text in a marker
    joined by one space, a spelling in every row of the marker (read, never written); a marker
    holding no special token beside other text is refused."""
    fmt = format_table("kimi_k3")
    texts = dict(fmt.terminals)
    assert texts["response_open_spaced"] == "<|open|> response <|sep|>"
    assert texts["think_close_unseparated_spaced"] == "<|close|> think"
    assert texts["call_open_spaced"] == '<|open|> call tool="'
    for name in ("think_close", "think_close_unseparated", "response_open", "tools_open", "call_close"):
        assert ({(a, b) for a, t, b in fmt.transitions if t == name + "_spaced"}
                == {(a, b) for a, t, b in fmt.transitions if t == name}), name
    assert not any(name.endswith("_spaced") for name, _ in fmt.written().terminals)
    toy = Format("t").terminal("open", "<o>").state("content", Emits.CONTENT)
    with pytest.raises(ValueError, match="no special token beside other text"):
        spaced_special_tokens(toy, ("<|open|>",), ("open",))


def test_gpt_oss_spells_each_header_spaced_in_its_rows_only():
    """gpt_oss: each header marker holding a special token beside a word has its spaced spelling in
    the rows of its unspaced one, read and never written; the markers that are one special token
    alone (`<|end|>`, `<|call|>`, `<|return|>`) and the recipient's ` to=` have none."""
    fmt = format_table("gpt_oss")
    texts = dict(fmt.terminals)
    assert texts["analysis_open_spaced"] == "<|channel|> analysis <|message|>"
    assert texts["call_open_spaced"] == "<|channel|> commentary to="
    assert texts["start_spaced"] == "<|start|> assistant"
    for name in ("analysis_open", "final_open", "preamble_open", "call_open", "analysis_call_open", "start"):
        assert ({(a, b) for a, t, b in fmt.transitions if t == name + "_spaced"}
                == {(a, b) for a, t, b in fmt.transitions if t == name}), name
    assert not any(name + "_spaced" in texts for name in ("end", "call", "return", "recipient_open"))
    assert not any(name.endswith("_spaced") for name, _ in fmt.written().terminals)


def test_xtml_reads_spaced_tags_only_where_its_syntax_says():
    """CallSyntax.xtml(spaced=True) reads the argument tags spaced; CallSyntax.xtml() reads them as
    the text between a call's tags."""
    output = ('<|open|>tools<|sep|><|open|>call tool="get_weather"<|sep|><|open|> argument key="city" type="string" '
              "<|sep|>Oslo<|close|> argument <|sep|><|close|>call<|sep|><|close|>tools<|sep|>")
    assert said(symphony.parse("kimi_k3", output, tools=[WEATHER]))[2] == [call("get_weather", city="Oslo")]
    table = format_table("kimi_k3")
    plain = table.with_opener(table.opener).calls(CallSyntax.xtml())     # (a copy: the table stays)
    assert table.syntax == CallSyntax.xtml(spaced=True)
    assert said(symphony.parse(plain, output, tools=[WEATHER]))[2] == [call("get_weather")]


def test_control_tokens_are_table_data():
    """`Format.control_tokens` marks terminals, `control_token` adds one no row reads; a spelling of
    a control token is one; a copy keeps them; a name that is no terminal is refused."""
    fmt = (Format("t").terminal("open", "<|o|>").terminal("close", "<|c|>").terminal("word", "<w>")
           .state("content", Emits.CONTENT).state("calls", Emits.ARGUMENTS)
           .transition("content", "open", "calls").transition("calls", "close", "content")
           .calls(CallSyntax.json()).control_tokens("open", "close").control_token("stray", "<|s|>")
           .spelled_also("close", "close_2", "<|C|>"))
    assert fmt.controls == {"open", "close", "stray", "close_2"}
    assert fmt.with_opener("x").controls == fmt.controls
    assert fmt.first_spellings().controls == {"open", "close", "stray"}
    with pytest.raises(FormatError):
        Format("u").terminal("a", "<a>").control_tokens("b")
    engine = _native.Engine(fmt.compile())
    events = engine.parse('a<|c|>b<|s|><w>c<|o|>{"name": "f", "arguments": {"q": "<|s|>"}}<|c|><|C|>d')
    message = chat.message(events)["message"]
    assert message["content"] == "ab<w>cd"          # a word-like tag that is no control token stays
    assert message["tool_calls"][0]["function"]["arguments"] == '{"q": "<|s|>"}'     # a call reads it
    dropped = [(e.text.text, e.why) for e in events if type(e) is Dropped]
    assert dropped == [("<|c|>", DropReason.CONTROL_TOKEN), ("<|s|>", DropReason.CONTROL_TOKEN),
                       ("<|o|>", DropReason.WRAPPER), ("<|c|>", DropReason.WRAPPER),
                       ("<|C|>", DropReason.CONTROL_TOKEN)]
