"""Exact events of the engine (SPEC §1.7, §2.4, §4.2, §4.5): the worked examples, prompt seeding,
End inside a thought or a call, the finish mapping, xLAM lists and `plain`, as `to_dict()` lists.
"""
import pytest

import symphony
from symphony import Delta, End, Prompt, TokenSpan
from symphony.adapt import chat
from tests.wire import (END_THOUGHT, NO_CALL, START_THOUGHT, arguments, check, content, dropped, end, finish,
                        malformed, parsed, reasoning, start)

BLOCK_CLOSED = {"other": "a tool-call block that closed without a complete call"}
AFTER_OBJECT = {"other": "text between a call's object and its closing marker"}
NAMELESS = {"other": "a tool call without a name"}
BETWEEN_LIST = {"other": "text between a list's calls"}
AFTER_LIST = {"other": "text after the list's end"}


WEATHER = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
HEAD = '\n{"name": "get_weather", "arguments": '


# ---------------------------------------------------------------------------------------------
# §4.2 worked examples (qwen3 JSON, and qwen2_5 which shares the call syntax)

@pytest.mark.parametrize("table", ["qwen3", "qwen2_5"])
def test_engine_usage_example(table):
    check(table, f"<tool_call>\n{WEATHER}\n</tool_call>", [
        dropped("<tool_call>"),
        start(0, "get_weather", HEAD),
        arguments(0, '{"city": "Paris"}'),
        end(0, "}"),
        dropped("\n"),
        dropped("</tool_call>"),
        finish("stop", 1),
    ])


def test_text_after_object():
    check("qwen3", f"<tool_call>\n{WEATHER}\n x\n</tool_call>", [
        dropped("<tool_call>"),
        start(0, "get_weather", HEAD),
        arguments(0, '{"city": "Paris"}'),
        end(0, "}"),
        dropped("\n "),
        malformed("x", AFTER_OBJECT),
        dropped("\n"),
        dropped("</tool_call>"),
        finish("stop", 1),
    ])


def test_cut_short():
    check("qwen3", '<tool_call>{"name": "f", "arguments": {},</tool_call>', [
        dropped("<tool_call>"),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, "{}"),
        malformed(",", BLOCK_CLOSED),
        end(0, ""),
        dropped("</tool_call>"),
        finish("stop", 1),
    ])


def test_junk_block_uses_no_index():
    # a region that held no call is the text the model wrote, its markers included
    check("qwen3", '<tool_call>junk</tool_call>', [
        malformed("<tool_call>", NO_CALL),
        malformed("junk", BLOCK_CLOSED),
        malformed("</tool_call>", NO_CALL),
        finish("stop", 0),
    ])
    check("qwen3", '<tool_call>junk</tool_call><tool_call>{"name": "f"}</tool_call>', [
        malformed("<tool_call>", NO_CALL),
        malformed("junk", BLOCK_CLOSED),
        malformed("</tool_call>", NO_CALL),
        dropped("<tool_call>"),
        start(0, "f", '{"name": "f"}'),
        arguments(0, "{}", ""),
        end(0, ""),
        dropped("</tool_call>"),
        finish("stop", 1),
    ])


# A call that never started, in a block that holds the calls, is shown with its own opener there
# (docs/recovery.md, "Prose is never garbled", rule 6): `<invoke name="a</invoke>`, never the
# headless `a</invoke>`; the block's markers are the template's where another call started in it.
NEVER_STARTED = [
    ("deepseek_v3_2", '<｜DSML｜function_calls>\n<｜DSML｜invoke name="a</｜DSML｜invoke>\n<｜DSML｜invoke name="b">\n'
                      '</｜DSML｜invoke>\n</｜DSML｜function_calls> after', 'Hi<｜DSML｜invoke name="a</｜DSML｜invoke> after'),
    ("minimax_m2", '<minimax:tool_call>\n<invoke name="">\n</invoke>\n<invoke name="b">\n</invoke>\n'
                   '</minimax:tool_call> after', 'Hi<invoke name="">\n</invoke> after'),
    ("kimi_k2", '<|tool_calls_section_begin|><|tool_call_begin|>functions.a<|tool_call_end|><|tool_call_begin|>'
                'functions.b:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|> after',
     "Hi<|tool_call_begin|>functions.a after"),
    # (vLLM 0.34's test_streaming_call_boundaries[close-in-attributes]: vLLM drops the broken call)
    ("kimi_k3", '<|open|>tools<|sep|><|open|>call tool="a<|close|>call<|sep|>b"<|sep|><|close|>call<|sep|>'
                '<|open|>call tool="b" index="2"<|sep|><|close|>call<|sep|><|close|>tools<|sep|>',
     'Hi<|open|>call tool="a<|close|>call<|sep|>b"<|sep|><|close|>call<|sep|>'),
]


@pytest.mark.parametrize("table, output, content", NEVER_STARTED, ids=[t for t, _, _ in NEVER_STARTED])
def test_a_call_that_never_started_is_shown_with_its_opener(table, output, content):
    output = "Hi" + output
    events = symphony.parse(table, output)
    check(table, output, events)
    message = chat.message(events)["message"]
    assert message["content"] == content
    assert [(c["function"]["name"], c["function"]["arguments"]) for c in message["tool_calls"]] == [("b", "{}")]


def test_a_list_that_reports_text_before_its_call_keeps_its_opener_wrapping():
    # a region's opener again in it holds for the call after it; the list reports `junk` and then
    # reads a call, so the opener is the template's (decided at the call's start, at every chunking)
    output = '[TOOL_CALLS][TOOL_CALLS]  junk [{"name": "add", "arguments": {"a": 1}}] trail'
    check("mistral", output, [
        dropped("[TOOL_CALLS][TOOL_CALLS]  "), malformed("junk ", {"other": "text where a call should begin"}),
        dropped("["), start(0, "add", '{"name": "add", "arguments": '), arguments(0, '{"a": 1}'), end(0, "}"),
        dropped("]"), malformed(" trail", {"other": "text after the list's end"}), finish("stop", 1)])


def test_a_syntax_that_holds_its_calls_holds_no_opener_for_them():
    # a pythonic call is a call once its `)` reads it whole (Sink.hold_call): the engine holds no
    # opener for it, so a call the end cuts short is still no call (hypothesis found the opener's
    # hold releasing the held call at its start)
    output = "<function_calls>get_weather()<function_calls>get_weather()<function_calls>get_weather("
    check("olmo3_think", output, [
        dropped("<function_calls>"), start(0, "get_weather", "get_weather("), arguments(0, "{}", ""), end(0, ")"),
        dropped("<function_calls>"), start(1, "get_weather", "get_weather("), arguments(1, "{}", ""), end(1, ")"),
        dropped("<function_calls>"), malformed("get_weather(", "unterminated_region"), finish("stop", 2)])


def test_a_call_that_reported_nothing_leaves_its_opener_with_the_wrapping():
    output = ("<|tool_calls_section_begin|><|tool_call_begin|><|tool_call_end|><|tool_call_begin|>functions.b:0"
              "<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>")
    check("kimi_k2", output, [
        dropped("<|tool_calls_section_begin|><|tool_call_begin|><|tool_call_end|><|tool_call_begin|>"),
        start(0, "b", "functions.b:0<|tool_call_argument_begin|>", id="functions.b:0"), arguments(0, "{}", "{}"),
        end(0, ""), dropped("<|tool_call_end|><|tool_calls_section_end|>"), finish("stop", 1)])


def test_nameless_and_non_string_names_use_no_index():
    check("qwen3", '<tool_call>\n{"name": 5, "arguments": {"a": 1}}\n</tool_call>', [
        malformed("<tool_call>", NO_CALL),
        malformed('\n{"name": 5, "arguments": {"a": 1}}', NAMELESS),
        malformed("\n</tool_call>", NO_CALL),
        finish("stop", 0),
    ])
    check("qwen3", '<tool_call>{"arguments": {}}</tool_call><tool_call>{"name": "g"}</tool_call>', [
        malformed("<tool_call>", NO_CALL),
        malformed('{"arguments": {}}', NAMELESS),
        malformed("</tool_call>", NO_CALL),
        dropped("<tool_call>"),
        start(0, "g", '{"name": "g"}'),
        arguments(0, "{}", ""),
        end(0, ""),
        dropped("</tool_call>"),
        finish("stop", 1),
    ])


def test_call_without_arguments():
    check("qwen3", '<tool_call>{"name": "ping"}</tool_call>', [
        dropped("<tool_call>"),
        start(0, "ping", '{"name": "ping"}'),
        arguments(0, "{}", ""),
        end(0, ""),
        dropped("</tool_call>"),
        finish("stop", 1),
    ])


def test_arguments_before_name():
    check("qwen3", '<tool_call>\n{"arguments": {"city": "Paris"}, "name": "get_weather"}\n</tool_call>', [
        dropped("<tool_call>"),
        start(0, "get_weather", '\n{"arguments": '),
        arguments(0, '{"city": "Paris"}'),
        end(0, ', "name": "get_weather"}'),
        dropped("\n"),
        dropped("</tool_call>"),
        finish("stop", 1),
    ])


def test_tool_name_and_parameters_and_a_second_call_in_one_block():
    output = ('<tool_call>\n{"tool_name": "f", "parameters": [1]}\n'
              '<tool_call>\n{"name": "日本", "arguments": {"é": "\\ud83c\\udf89"}}\n</tool_call>')
    check("qwen3", output, [
        dropped("<tool_call>"),
        start(0, "f", '\n{"tool_name": "f", "parameters": '),
        arguments(0, "[1]"),
        end(0, "}"),
        dropped("\n"),
        dropped("<tool_call>"),
        start(1, "日本", '\n{"name": "日本", "arguments": '),
        arguments(1, '{"é": "\\ud83c\\udf89"}'),
        end(1, "}"),
        dropped("\n"),
        dropped("</tool_call>"),
        finish("stop", 2),
    ])


def test_invalid_arguments_from_the_first_refused_byte():
    check("qwen3", '<tool_call>\n{"name": "f", "arguments": 12abc}\n</tool_call>', [
        dropped("<tool_call>"),
        start(0, "f", '\n{"name": "f", "arguments": '),
        arguments(0, "12"),
        malformed("abc", "invalid_arguments"),
        end(0, "}"),
        dropped("\n"),
        dropped("</tool_call>"),
        finish("stop", 1),
    ])


def test_invalid_word_whole():
    assert parsed("qwen3", '<tool_call>{"name": "f", "arguments": {"a": tru e}}</tool_call>') == [
        dropped("<tool_call>"),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, '{'),                              # the member whose value is no JSON is left out
        malformed('"a": tru e}', "invalid_arguments"),
        arguments(0, "}", ""),                          # ... and the arguments closed for the client
        end(0, "}"),
        dropped("</tool_call>"),
        finish("stop", 1),
    ]


def test_lone_surrogate_whole():
    assert parsed("qwen3", '<tool_call>{"name": "f", "arguments": {"t": "\\udf89"}}</tool_call>') == [
        dropped("<tool_call>"),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, '{"t": "'),
        malformed('\\udf89"}', "invalid_arguments"),
        arguments(0, '"}', ""),
        end(0, "}"),
        dropped("</tool_call>"),
        finish("stop", 1),
    ]


def test_a_marker_inside_an_argument_string_is_its_text_when_the_object_closes():
    # held from the marker until the object closes, then sent at once (docs/recovery.md)
    check("qwen3", '<tool_call>{"name": "f", "arguments": {"c": "</tool_call>"}}</tool_call>', [
        dropped("<tool_call>"),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, '{"c": "'),
        arguments(0, '</tool_call>"}'),
        end(0, "}"),
        dropped("</tool_call>"),
        finish("stop", 1),
    ])


def test_a_marker_inside_an_argument_string_is_a_marker_when_no_close_follows():
    check("qwen3", '<tool_call>{"name": "f", "arguments": {"c": "</tool_call>"}', [
        dropped("<tool_call>"),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, '{"c": "'),
        arguments(0, '"}', ""),       # the marker closed the call: its arguments are closed for the client
        end(0, ""),
        dropped("</tool_call>"),
        content('"}'),                # no row from content on the closer: it is text
        finish("stop", 1),
    ])


def test_a_marker_inside_a_string_of_a_list_object_a_comma_ends():
    # (found by probing) the `,` a list may hold after the object keeps what was held after the marker
    from tests.wire import shown_and_calls
    head = '<TOOLCALL>[{"name": "f", "arguments": {"a": "x</TOOLCALL>y"},'
    assert shown_and_calls("nemotron_json", head) == ('y"},', [("f", '{"a": "x"}')])   # (the marker closed the region)
    assert shown_and_calls("nemotron_json", head + " </TOOLCALL>") == ('y"}, </TOOLCALL>', [("f", '{"a": "x"}')])
    assert shown_and_calls("nemotron_json", head + ' {"name": "g", "arguments": {}}]</TOOLCALL>') == (
        "", [("f", '{"a": "x</TOOLCALL>y"}'), ("g", "{}")])


def test_fenced_call_is_a_call():
    check("qwen3", f"```\n<tool_call>\n{WEATHER}\n</tool_call>\n```", [
        content("```\n"),
        dropped("<tool_call>"),
        start(0, "get_weather", HEAD),
        arguments(0, '{"city": "Paris"}'),
        end(0, "}"),
        dropped("\n"),
        dropped("</tool_call>"),
        content("\n```"),
        finish("stop", 1),
    ])


def test_prose_around_calls():
    check("qwen3", f"Sure.\n<tool_call>\n{WEATHER}\n</tool_call>\nthen<tool_call>{{\"name\": \"g\"}}</tool_call>bye", [
        content("Sure.\n"),
        dropped("<tool_call>"),
        start(0, "get_weather", HEAD),
        arguments(0, '{"city": "Paris"}'),
        end(0, "}"),
        dropped("\n"),
        dropped("</tool_call>"),
        content("\nthen"),
        dropped("<tool_call>"),
        start(1, "g", '{"name": "g"}'),
        arguments(1, "{}", ""),
        end(1, ""),
        dropped("</tool_call>"),
        content("bye"),
        finish("stop", 2),
    ])


# ---------------------------------------------------------------------------------------------
# §2.4 thoughts

def test_event_order_around_think_markers():
    check("qwen3", "<think>\nplan\n</think>\n\nHi", [
        dropped("<think>"),
        START_THOUGHT,
        reasoning("\nplan\n"),
        dropped("</think>"),
        END_THOUGHT,
        content("\n\nHi"),
        finish(),
    ])


def test_call_marker_inside_a_thought_is_reasoning_and_close_in_content_is_dropped():
    # SPEC §3: no row from the thought on the call opener (seed_oss keeps it so: its model writes
    # call markup in its thought as it plans); `</seed:think>`, one token of Seed-OSS's tokenizer,
    # is a control token: with no thought open it is dropped (issue 37)
    check("seed_oss", "<seed:think>a<seed:tool_call>b</seed:think>c</seed:think>", [
        dropped("<seed:think>"),
        START_THOUGHT,
        reasoning("a<seed:tool_call>b"),
        dropped("</seed:think>"),
        END_THOUGHT,
        content("c"),
        dropped("</seed:think>", "control_token"),
        finish(),
    ])


def test_call_marker_inside_a_thought_ends_it_where_the_table_reads_so():
    # qwen3's recovery (shapes.call_ends_thought): the opener ends the thought and opens a region;
    # holding no call, the region is the text the model wrote, its `</think>`s included
    check("qwen3", "<think>a<tool_call>b</think>c</think>", [
        dropped("<think>"),
        START_THOUGHT,
        reasoning("a"),
        malformed("<tool_call>", NO_CALL),
        END_THOUGHT,
        malformed("b</think>c</think>", "unterminated_region"),
        finish(),
    ])


def test_think_open_inside_a_thought_is_dropped():
    # the thought's opener written again (SPEC's table keeps it as reasoning text; see shapes)
    check("qwen3", "<think>a<think>b</think>", [
        dropped("<think>"), START_THOUGHT, reasoning("a"), dropped("<think>"), reasoning("b"), dropped("</think>"),
        END_THOUGHT, finish(),
    ])


def test_content_does_not_merge_across_dropped():
    check("qwen3", "a<think>b</think>c<think>d</think>e", [
        content("a"),
        dropped("<think>"), START_THOUGHT, reasoning("b"), dropped("</think>"), END_THOUGHT,
        content("c"),
        dropped("<think>"), START_THOUGHT, reasoning("d"), dropped("</think>"), END_THOUGHT,
        content("e"),
        finish(),
    ])


def test_qwen2_5_think_markers_are_content():
    check("qwen2_5", "<think>\nplan\n</think>\n\nHi", [content("<think>\nplan\n</think>\n\nHi"), finish()])


@pytest.mark.parametrize("reason", ["stop", "length"])
def test_end_inside_reasoning_ends_the_thought(reason):
    check("qwen3", "<think>abc", [
        dropped("<think>"), START_THOUGHT, reasoning("abc"), END_THOUGHT, finish(reason),
    ], finish=reason)


def test_end_right_after_think_open():
    check("qwen3", "<think>", [dropped("<think>"), START_THOUGHT, END_THOUGHT, finish()])


# ---------------------------------------------------------------------------------------------
# prompt seeding

def feed_all(table, prompt, output, finish="stop"):
    parser = symphony.parser(table)
    at_prompt = [e.to_dict() for e in parser.feed(Prompt(prompt))]
    rest = [e.to_dict() for e in parser.feed(Delta(output)) + parser.feed(End(finish))]
    return at_prompt, rest


def test_prompt_that_opens_a_thought_pushes_reasoning_start_during_the_prompt():
    at_prompt, rest = feed_all("qwen3", "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>\n",
                               "plan\n</think>\n\nanswer")
    assert at_prompt == [START_THOUGHT]
    assert rest == [reasoning("plan\n"), dropped("</think>"), END_THOUGHT, content("\n\nanswer"), finish()]


def test_prompt_opened_thought_left_open_is_ended_at_end():
    at_prompt, rest = feed_all("qwen3", "<|im_start|>assistant\n<think>\n", "still thinking")
    assert at_prompt == [START_THOUGHT]
    assert rest == [reasoning("still thinking"), END_THOUGHT, finish()]


def test_prompt_opened_thought_empty_output():
    at_prompt, rest = feed_all("qwen3", "<|im_start|>assistant\n<think>\n", "")
    assert at_prompt == [START_THOUGHT]
    assert rest == [END_THOUGHT, finish()]


def test_thinking_off_prompt_tail_leaves_content():
    at_prompt, rest = feed_all("qwen3", "<|im_start|>assistant\n<think>\n\n</think>\n\n", "answer")
    assert at_prompt == []
    assert rest == [content("answer"), finish()]


def test_only_the_last_turn_opener_counts():
    earlier_open = ("<|im_start|>assistant\n<think>\nold<|im_end|>\n"
                    "<|im_start|>user\nq<|im_end|>\n<|im_start|>assistant\n")
    at_prompt, rest = feed_all("qwen3", earlier_open, "hello")
    assert at_prompt == []
    assert rest == [content("hello"), finish()]
    earlier_closed = "<|im_start|>assistant\n<think>\n</think>\nold<|im_end|>\n<|im_start|>assistant\n<think>\n"
    at_prompt, rest = feed_all("qwen3", earlier_closed, "x")
    assert at_prompt == [START_THOUGHT]
    assert rest == [reasoning("x"), END_THOUGHT, finish()]


def test_the_kept_generation_prompt_never_seeds_another_prompt():
    # a table keeps the last short prompt tail it replayed, and the last short prompt as given:
    # prompts that alternate, that differ only in their last character, that share a tail after
    # other turns (one whose earlier turn closed a thought the tail then opens), and that are too
    # long to keep each seed their own state
    opened, closed = "<|im_start|>assistant\n<think>\n", "<|im_start|>assistant\n<think>\n\n</think>\n\n"
    long_open = "<|im_start|>assistant\n" + "x" * 300 + "<think>\n"
    long_closed = long_open + "</think>"
    turns = "<|im_start|>user\nq<|im_end|>\n<|im_start|>assistant\n<think>\n</think>a<|im_end|>\n"
    for prompt, thinking in [(opened, True), (closed, False), (opened, True), (opened, True), (closed, False),
                             (opened[:-2] + "\n", False), (long_open, True), (long_closed, False), (long_open, True),
                             (opened, True), (turns + opened, True), (turns + closed, False), (turns + opened, True),
                             (turns, False), (opened, True), ("x" * 300 + turns + opened, True), (closed, False),
                             ("".join(["<|im_start|>", "assistant\n<think>\n"]), True)]:
        at_prompt, rest = feed_all("qwen3", prompt, "x")
        assert at_prompt == ([START_THOUGHT] if thinking else []), prompt
        assert rest == ([reasoning("x"), END_THOUGHT] if thinking else [content("x")]) + [finish()], prompt


def test_prompt_without_the_opener_is_read_whole():
    at_prompt, rest = feed_all("qwen3", "<|assistant|>\n<think>\n", "x</think>y")
    assert at_prompt == [START_THOUGHT]
    assert rest == [reasoning("x"), dropped("</think>"), END_THOUGHT, content("y"), finish()]


def test_prompt_text_and_unmatched_markers_are_ignored():
    # </tool_call> has no row from reasoning: the replay stays in the thought
    at_prompt, rest = feed_all("qwen3", "<think>\n</tool_call>", "x")
    assert at_prompt == [START_THOUGHT]
    assert rest == [reasoning("x"), END_THOUGHT, finish()]
    # a whole call block then a thought opener
    at_prompt, rest = feed_all(
        "qwen3", "<|im_start|>assistant\n<tool_call>\n{}</tool_call><think>\n", "x")
    assert at_prompt == [START_THOUGHT]


def test_prompt_ending_inside_a_call_stays_in_the_initial_state():
    at_prompt, rest = feed_all("qwen3", "<|im_start|>assistant\n<tool_call>\n", WEATHER + "</tool_call>")
    assert at_prompt == []
    assert rest == [content(WEATHER + "</tool_call>"), finish()]
    at_prompt, rest = feed_all("qwen3", "<think>\n</think><tool_call>", "x")
    assert at_prompt == []
    assert rest == [content("x"), finish()]


def test_qwen2_5_with_a_thought_opening_prompt_emits_nothing():
    at_prompt, rest = feed_all("qwen2_5", "<|im_start|>assistant\n<think>\n", "abc</think>")
    assert at_prompt == []
    assert rest == [content("abc</think>"), finish()]


@pytest.mark.parametrize("table", ["plain"])
def test_tables_without_thought_ignore_the_prompt(table):
    at_prompt, rest = feed_all(table, "<|im_start|>assistant\n<think>\n", "abc")
    assert at_prompt == []
    assert rest == [content("abc"), finish()]


# ---------------------------------------------------------------------------------------------
# End inside a call

def test_end_inside_arguments_leaves_them_open():
    check("qwen3", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par', [
        dropped("<tool_call>"),
        start(0, "get_weather", HEAD),
        arguments(0, '{"city": "Par'),
        end(0, ""),
        finish("length", 1),
    ], finish="length")


def test_end_inside_a_call_after_its_arguments():
    check("qwen3", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"} , ', [
        dropped("<tool_call>"),
        start(0, "get_weather", HEAD),
        arguments(0, '{"city": "Paris"}'),
        malformed(" , ", "unterminated_region"),
        end(0, ""),
        finish("stop", 1),
    ])


def test_end_before_the_name():
    check("qwen3", '<tool_call>\n{"name": "get_weather"', [
        malformed("<tool_call>", NO_CALL),
        malformed('\n{"name": "get_weather"', "unterminated_region"),
        finish(),
    ])


def test_end_after_a_bare_call_opener():
    check("qwen3", "<tool_call>", [malformed("<tool_call>", NO_CALL), finish()])


def test_end_after_a_complete_object_without_close():
    check("qwen3", f"<tool_call>\n{WEATHER}", [
        dropped("<tool_call>"),
        start(0, "get_weather", HEAD),
        arguments(0, '{"city": "Paris"}'),
        end(0, "}"),
        finish("stop", 1),
    ])


def test_end_inside_a_block_of_whitespace():
    check("qwen3", "<tool_call>\n", [malformed("<tool_call>", NO_CALL), malformed("\n", "unterminated_region"),
                                      finish()])


def test_whitespace_block_closed_by_its_marker():
    check("qwen3", "<tool_call>\n</tool_call>", [
        malformed("<tool_call>", NO_CALL), malformed("\n", BLOCK_CLOSED), malformed("</tool_call>", NO_CALL),
        finish(),
    ])


def test_a_new_opener_ends_an_unfinished_call():
    check("qwen3", '<tool_call>{"name": "f", "arguments": {"a": 1<tool_call>{"name": "g"}</tool_call>', [
        dropped("<tool_call>"),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, '{"a": 1'),
        arguments(0, "}", ""),
        end(0, ""),
        dropped("<tool_call>"),
        start(1, "g", '{"name": "g"}'),
        arguments(1, "{}", ""),
        end(1, ""),
        dropped("</tool_call>"),
        finish("stop", 2),
    ])


# ---------------------------------------------------------------------------------------------
# finish

@pytest.mark.parametrize("given,wire", [
    ("stop", "stop"),
    ("length", "length"),
    ("abort", "abort"),
    ("content_filter", {"other": "content_filter"}),
    ("tool_calls", {"other": "tool_calls"}),
])
def test_finish_reason_mapping(given, wire):
    assert parsed("qwen3", "x", finish=given) == [content("x"), finish(wire)]


def test_engine_does_not_refine_stop_to_tool_calls():
    events = parsed("qwen3", '<tool_call>{"name": "f"}</tool_call>', finish="stop")
    assert events[-1] == finish("stop", 1)


# ---------------------------------------------------------------------------------------------
# token counting (§1.7)

def test_ledger_example():
    pieces = ["<think>", "\nplan", "\n</think>", "\n\nHi"]
    text = "".join(pieces)
    spans = []
    at = 0
    for i, piece in enumerate(pieces):
        n = len(piece.encode())
        spans.append(TokenSpan(100 + i, at, at + n))
        at += n
    parser = symphony.parser("qwen3")
    events = parser.feed(Delta(text, [100 + i for i in range(len(pieces))], spans)) + parser.feed(End("stop"))
    assert [e.to_dict() for e in events] == [
        dropped("<think>", tokens=1),
        START_THOUGHT,
        reasoning("\nplan\n", 2),
        dropped("</think>", tokens=0),
        END_THOUGHT,
        content("\n\nHi", 1),
        finish("stop", 0, 2),
    ]


def test_zero_width_tokens_count_into_the_next_run_and_the_trailer():
    parser = symphony.parser("qwen3")
    events = parser.feed(Delta("ab", [1, 2, 3], [TokenSpan(1, 0, 0), TokenSpan(2, 0, 2), TokenSpan(3, 2, 2)]))
    events += parser.feed(End("stop"))
    assert [e.to_dict() for e in events] == [content("ab", 2), dropped("", "control_token", tokens=1), finish()]


def test_continued_spans_count_once():
    parser = symphony.parser("qwen3")
    events = parser.feed(Delta("ab", [7], [TokenSpan(7, 0, 2)]))
    events += parser.feed(Delta("c", [], [TokenSpan(7, 0, 1, continued=True)]))
    events += parser.feed(End("stop"))
    assert [e.to_dict() for e in events] == [content("ab", 1), content("c", 0), finish()]


def test_a_delta_without_spans_makes_the_stream_uncounted():
    parser = symphony.parser("qwen3")
    events = parser.feed(Delta("<think>", [1], [TokenSpan(1, 0, 7)]))
    events += parser.feed(Delta("x", [2], [TokenSpan(2, 0, 1)]))
    events += parser.feed(Delta("y</think>z"))
    events += parser.feed(Delta("w", [3], [TokenSpan(3, 0, 1)]))
    events += parser.feed(End("stop"))
    assert [e.to_dict() for e in events] == [
        dropped("<think>", tokens=1),
        START_THOUGHT,
        reasoning("x", 1),
        reasoning("y"),
        dropped("</think>"),
        END_THOUGHT,
        content("z"),
        content("w"),
        finish("stop", 0, 0),
    ]


def test_spans_that_do_not_partition_make_the_stream_uncounted():
    parser = symphony.parser("plain")
    events = parser.feed(Delta("abc", [1], [TokenSpan(1, 0, 2)]))
    events += parser.feed(End("stop"))
    assert [e.to_dict() for e in events] == [content("abc"), finish()]


# ---------------------------------------------------------------------------------------------
# xLAM (§4.5; the output is prose in which lists of calls open, tests/test_json_leniency.py)

CALL_F = '{"name": "f", "arguments": {"a": 1}}'


def test_xlam_list_of_calls():
    check("xlam", f' [{CALL_F} , {{"name": "g", "arguments": {{}}}}]', [
        content(" "),
        dropped("["),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, '{"a": 1}'),
        end(0, "}"),
        dropped(" , "),
        start(1, "g", '{"name": "g", "arguments": '),
        arguments(1, "{}"),
        end(1, "}"),
        dropped("]"),
        finish("stop", 2),
    ])


def test_xlam_a_list_of_no_call_is_text():
    check("xlam", "[]", [content("[]"), finish()])
    check("xlam", "[5, {}]", [content("[5, {}]"), finish()])


def test_xlam_content():
    check("xlam", "  Hello [1]", [content("  Hello [1]"), finish()])
    check("xlam", " \n ", [content(" \n "), finish()])
    check("xlam", "", [finish()])


def test_xlam_junk_between_and_prose_after():
    check("xlam", '[{"name": "f", "arguments": {}} x]tail ', [
        dropped("["),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, "{}"),
        end(0, "}"),
        dropped(" "),
        malformed("x", BETWEEN_LIST),
        dropped("]"),
        content("tail "),
        finish("stop", 1),
    ])


def test_xlam_items_that_are_no_calls():
    check("xlam", '[{"name": "f", "arguments": {}}, 5, {}]', [
        dropped("["),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, "{}"),
        end(0, "}"),
        dropped(", "),
        malformed("5", BETWEEN_LIST),
        dropped(", "),
        malformed("{}", NAMELESS),
        dropped("]"),
        finish("stop", 1),
    ])


def test_xlam_a_list_of_anything_but_objects_is_content():
    # `[` opens a list of calls only before `{` (or its `]`): any other list is text as written
    check("xlam", "[5, {}]", [content("[5, {}]"), finish()])
    check("xlam", "[1, 2] are the numbers I picked.", [content("[1, 2] are the numbers I picked."), finish()])
    check("xlam", '[ {"a": 1}]', [content('[ {"a": 1}]'), finish()])      # (a list of no call: prose)


def test_xlam_unterminated_list_between_items():
    check("xlam", '[{"name": "f", "arguments": {}}, ', [
        dropped("["),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, "{}"),
        end(0, "}"),
        malformed(", ", "unterminated_region"),
        finish("stop", 1),
    ])


def test_xlam_unterminated_object():
    check("xlam", '[{"name": "f", "arguments": {"a": 1', [
        dropped("["),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, '{"a": 1'),
        arguments(0, "}", ""),          # the end cut the call: its arguments are closed for the client
        end(0, ""),
        finish("stop", 1),
    ])
    # stopped for its length, a call keeps its arguments as far as they were written
    check("xlam", '[{"name": "f", "arguments": {"a": 1', [
        dropped("["),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, '{"a": 1'),
        end(0, ""),
        finish("length", 1),
    ], finish="length")


def test_xlam_open_bracket_only():
    check("xlam", " [ ", [content(" [ "), finish()])
    # (a first object is a call only once it is named and its arguments begin: before, the text it is)
    check("xlam", '[ {"name": ', [content('[ {"name": '), finish()])
    check("xlam", '[ {"arguments": ', [content('[ {"arguments": '), finish()])
    check("xlam", '[ {"arguments": {"a": 1}}]', [content('[ {"arguments": {"a": 1}}]'), finish()])


def test_xlam_extra_closer_after_an_object():
    check("xlam", '[{"name": "f", "arguments": {}}}]', [
        dropped("["),
        start(0, "f", '{"name": "f", "arguments": '),
        arguments(0, "{}"),
        end(0, "}"),
        malformed("}", BETWEEN_LIST),
        dropped("]"),
        finish("stop", 1),
    ])


# ---------------------------------------------------------------------------------------------
# plain

def test_plain_is_all_content():
    text = '<think>a</think><tool_call>\n{"name": "f"}\n</tool_call>[{"name": "g"}] 🎉'
    check("plain", text, [content(text), finish()])
    check("plain", "", [finish()])
    check("plain", "x", [content("x"), finish("length")], finish="length")
