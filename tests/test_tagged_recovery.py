"""What the tagged family's models write against their template, read as they meant it
(`qwen3_tagged`, and `seed_oss` where the same rule applies): a call without its block, several
calls in one block, a value whose close is missing or misspelled, Step-3.5's broken tags (its own
table's, `step3p5`: the others read them as written), and a call opener written inside a value.
Each output is read whole, at every chunking (tests.common.chunkings: per character and split) and
one synthetic token per delta, counted; every replay conserves the output and says what the whole
parse says. Each test's docstring says what the incumbents read: vLLM's
qwen3_coder / step3p5 parsers (one Qwen3 engine in vLLM 0.33) and SGLang's qwen3_coder / step3p5
detectors, after their unit tests (`../shared/peer-cases/`).

The rules (pyx/assemblers/assemble_tagged.pxi, symphony/formats/shapes.bare_calls and
functions_in_block):
- a function tag in content opens a call of its own, which is a call once a tag follows the
  function tag (or the block's marker closes it), and content, every byte, otherwise; after its
  `</function>` what follows is content, and a `</tool_call>` closing it is dropped;
- in a block a call's `</function>` ends the call, not the block: a function tag after it opens the
  next call, whitespace between is the block's, other text "text between a block's calls";
- markup inside a value is the value's text when the value's own structure goes on after it
  (docs/recovery.md): openers inside a value nest with their closes; a `</parameter>` with none
  open is the value's close when the call goes on after it (a parameter tag, `</function>`, the
  block's close, the end), its text when text follows; a parameter tag after it whose key the call
  wrote or the schema does not name waits for what follows its own value;
- a value whose close is missing ends at the first held tag when the call's close, the block's
  close or the stream's end comes while a parameter tag is held (a misspelled close there is its
  close), and what was held is read again;
- a function name ends at a close (`</function>`, the block's) on its own line;
- `step3p5` only (CallSyntax.tagged(broken_tags=True)): a name or key ends at a newline too where
  it is a declared one; `<function NAME>` and `<functionNAME>` are a function tag for a declared
  NAME; `<parameter=parameter=KEY>` is KEY.
"""
import json

import pytest

import symphony
from symphony import Delta, End
from symphony.adapt import chat
from symphony.formats.qwen3 import OPENER, QWEN3_TAGGED, THINK, TOOL_CALL
from symphony.formats.shapes import thought_and_calls
from tests.common import (check_conservation, check_well_formed, chunkings, counted_deltas, replay, said,
                          synthetic_token_bounds)
from tests.peer import summary
from tests.wire import arguments, check, content, dropped, end, finish, malformed, start, tokens


def tool(name, **properties):
    return {"type": "function", "function": {"name": name, "parameters": {
        "type": "object", "properties": properties}}}


STRING = {"type": "string"}
INTEGER = {"type": "integer"}
TOOLS = [tool("bash", command=STRING, timeout=INTEGER), tool("weather", city=STRING, state=STRING, days=INTEGER),
         tool("write_file", path=STRING, content=STRING)]
BASH = "<function=bash><parameter=command>pwd</parameter></function>"


def reads(output, text, calls, table="qwen3_tagged", tools=TOOLS):
    """`output` reads as content `text` (None: none; whitespace around it not compared, as the
    incumbents' tests compare it) and `calls` ([(name, arguments as a value)]), whole, at every
    chunking and one counted token per delta."""
    whole = symphony.parse(table, output, tools=tools)
    message = summary(chat.message(whole))
    assert (message["content"] or "").strip() == (text or "").strip(), message
    assert [(name, json.loads(args)) for name, args in message["calls"]] == calls, message
    check_conservation(whole, output)
    check_well_formed(whole)
    for plan, pieces in chunkings(output):
        events = replay(symphony.parser(table, tools), pieces)
        check_conservation(events, output)
        check_well_formed(events)
        assert summary(chat.message(events)) == message, plan
    bounds = synthetic_token_bounds(output, 0)
    tokens = [output[a:b] for a, b in bounds]
    parser = symphony.parser(table, tools)
    events = [e for d in counted_deltas(tokens, bounds) for e in parser.feed(d)] + parser.feed(End("stop"))
    check_conservation(events, output)
    check_well_formed(events)
    assert said(events).calls == said(whole).calls and said(events).arguments == said(whole).arguments
    assert summary(chat.message(events)) == message
    return whole


# -- a call without its block ----------------------------------------------------------------------

@pytest.mark.parametrize("after,text", [("", None), ("</tool_call>", None), ("\n</tool_call>", "\n"),
                                        ("\n  </tool_call>\n", "\n  \n")])
def test_a_call_without_its_block_is_read_and_a_close_after_it_dropped(after, text):
    """vLLM (content + `<function=` -> a call; `</tool_call>` after `</function>` consumed) and
    SGLang's step3p5 (test_redundant_close_after_synthetic_wrapper_is_consumed) read the call
    and show no markup."""
    reads(BASH + after, text, [("bash", {"command": "pwd"})])


def test_prose_around_a_call_without_its_block_is_content():
    """vLLM reads the call and the prose before it (vLLM's test_extract_tool_calls_fallback_no_tags
    checks the call)."""
    reads("Let me look.\n" + BASH + "\nDone.</tool_call> Bye.", "Let me look.\n\nDone. Bye.",
          [("bash", {"command": "pwd"})])


def test_the_events_of_a_call_without_its_block():
    output = "Ok.\n<function=bash>\n<parameter=command>\npwd\n</parameter>\n</function>\n</tool_call>\nDone."
    check("qwen3_tagged", output, [
        content("Ok.\n"),
        start(0, "bash", "<function=bash>"),
        arguments(0, '{"command": "', "\n<parameter=command>"),
        arguments(0, "pwd", "\npwd"),
        arguments(0, '"', "\n</parameter>"),
        arguments(0, "}", "\n"),
        end(0, "</function>"),
        content("\n"),
        dropped("</tool_call>"),
        content("\nDone."),
        finish(tool_calls=1),
    ], tools=TOOLS)


@pytest.mark.parametrize("output", [
    "Write <function=NAME> to call a tool.",
    "The tag <function=f>, then its parameters.",
    "Unfinished: <function=get_weather",
    "Now: <function=bash>\n",
    "<function=> is empty",
    "A cut <function=bash<parameter=x> tag",
])
def test_a_function_tag_no_tag_follows_is_content_every_byte(output):
    """vLLM starts a call at any `<function=` in content (and SGLang's qwen3_coder streaming
    detector at any it sees); a function tag is a call here only once a tag follows it, so prose
    that shows one keeps every byte."""
    reads(output, output, [])


def test_a_function_tag_the_block_close_follows_is_a_call_without_arguments():
    """vLLM reads such a call too (TOOL_NAME + TOOL_END ends it)."""
    reads("<function=bash>\n</tool_call>", None, [("bash", {})])


def test_calls_without_blocks_and_with_them_in_one_output():
    output = (BASH + "\n" + "<tool_call>\n<function=weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n"
              "</tool_call>\n" + BASH.replace("pwd", "ls"))
    reads(output, "\n", [("bash", {"command": "pwd"}), ("weather", {"city": "Paris"}), ("bash", {"command": "ls"})])


def test_a_function_tag_inside_a_thought_is_the_thought():
    events = reads("<think>I could write " + BASH + "</think>Hi", "Hi", [])
    assert said(events).reasoning == ("I could write " + BASH,)


def test_seed_oss_reads_a_call_without_its_block():
    """vLLM's seed_oss parser is the Qwen3 engine with Seed's wrappers: it reads it too."""
    reads("<function=bash>\n<parameter=command>pwd</parameter>\n</function></seed:tool_call>", None,
          [("bash", {"command": "pwd"})], table="seed_oss")


# -- several functions in one block ----------------------------------------------------------------

TWO_IN_A_BLOCK = ("<tool_call>\n<function=a>\n<parameter=x>\n1\n</parameter>\n</function>\n<function=b>\n"
                  "<parameter=y>\n2\n</parameter>\n</function>\n</tool_call>")
A_AND_B = [tool("a", x=INTEGER), tool("b", y=INTEGER)]
BLOCK_CALLS = "text between a block's calls"
# the events of TWO_IN_A_BLOCK's calls: the first's source takes the newline after the block's
# opener, the second's begins at its tag (the newline before it is the block's)
CALL_A = [start(0, "a", "\n<function=a>"), arguments(0, '{"x": 1', "\n<parameter=x>\n1\n</parameter>"),
          arguments(0, "}", "\n"), end(0, "</function>")]
CALL_B = [start(1, "b", "<function=b>"), arguments(1, '{"y": 2', "\n<parameter=y>\n2\n</parameter>"),
          arguments(1, "}", "\n"), end(1, "</function>")]


def reads_by_tokens(table, output, tools):
    """`output` cut as a tokenizer cuts it (each marker one token, tests.wire.tokens) says what
    the whole parse says."""
    events = replay(symphony.parser(table, tools), tokens(table, output))
    check_conservation(events, output)
    check_well_formed(events)
    assert said(events) == said(symphony.parse(table, output, tools=tools))


def test_two_functions_in_one_block_are_two_calls():
    """The template writes one function per `<tool_call>`; a model that writes two in one block
    means two calls. vLLM's qwen3_coder and qwen3_xml parsers and SGLang's qwen3_coder detector
    read both (a, then b); the whitespace between them is the block's, as between a block's
    invokes."""
    check("qwen3_tagged", TWO_IN_A_BLOCK, [dropped("<tool_call>"), *CALL_A, dropped("\n"), *CALL_B, dropped("\n"),
                                           dropped("</tool_call>"), finish(tool_calls=2)], tools=A_AND_B)
    reads(TWO_IN_A_BLOCK, None, [("a", {"x": 1}), ("b", {"y": 2})], tools=A_AND_B)
    reads_by_tokens("qwen3_tagged", TWO_IN_A_BLOCK, A_AND_B)


def test_text_between_two_functions_of_a_block_is_malformed():
    """vLLM and SGLang read both calls and show none of the text between them (their regexes skip
    it); here it is the block's text, Malformed as between a block's invokes (which the Chat
    adapter shows, as it shows every Malformed byte)."""
    output = TWO_IN_A_BLOCK.replace("</function>\n<function=b>", "</function>\nand then\n<function=b>")
    check("qwen3_tagged", output, [dropped("<tool_call>"), *CALL_A, dropped("\n"), malformed("and then", BLOCK_CALLS),
                                   dropped("\n"), *CALL_B, dropped("\n"), dropped("</tool_call>"),
                                   finish(tool_calls=2)], tools=A_AND_B)
    reads(output, "and then", [("a", {"x": 1}), ("b", {"y": 2})], tools=A_AND_B)
    reads_by_tokens("qwen3_tagged", output, A_AND_B)


@pytest.mark.parametrize("output", [
    TWO_IN_A_BLOCK[:-len("</tool_call>")],                           # the stream ends in the block
    TWO_IN_A_BLOCK.replace("</function>\n<function=b>", "</function><function=b>"),
    TWO_IN_A_BLOCK.replace("</function>\n<function=b>", "</function>\n<tool_call>\n<function=b>"),
])
def test_the_block_goes_on_after_a_function_until_its_own_close(output):
    """vLLM's qwen3_coder and qwen3_xml and SGLang's qwen3_coder read both calls however the block
    ends, and with no whitespace between."""
    reads(output, None, [("a", {"x": 1}), ("b", {"y": 2})], tools=A_AND_B)


def test_a_function_after_a_stray_function_close_in_a_block_is_a_call():
    """vLLM's qwen3_coder and qwen3_xml and SGLang's qwen3_coder read b and drop the stray close;
    here the `</function>` before any function is Malformed (shown) and ends nothing: the block
    goes on, and b is its call."""
    output = "<tool_call>\n</function>\n<function=b>\n<parameter=y>\n2\n</parameter>\n</function>\n</tool_call>"
    reads(output, "</function>", [("b", {"y": 2})], tools=A_AND_B)


def test_a_function_tag_after_a_call_in_a_block_reads_as_the_blocks_first_does():
    """In a block a function tag starts its call at once (text after it is Malformed, between the
    call's tags), not as a call without its block, which text after the tag would make content."""
    output = TWO_IN_A_BLOCK.replace("<function=b>\n", "<function=b> hello\n")
    events = reads(output, "hello", [("a", {"x": 1}), ("b", {"y": 2})], tools=A_AND_B)
    assert said(events).malformed == (('{"other": "text between a call\'s tags"}', "hello"),)


@pytest.mark.parametrize("tag", ["<function b>", "<functionb>"])
def test_a_function_tag_without_its_equals_after_a_call_in_a_block_is_the_next_call(tag):
    """Step-3.5's repair (`<function NAME>`, `<functionNAME>` for a declared NAME) holds for the
    block's later functions as for its first, one rule wherever the tag stands. SGLang's step3p5
    and qwen3_coder detectors read only the first call here, and show nothing of the second. A
    tag that names no declared tool leaves the rest of the block its text, as the first does; so
    does any such tag for qwen3_tagged, which reads no broken tag."""
    output = TWO_IN_A_BLOCK.replace("<function=b>", tag)
    reads(output, None, [("a", {"x": 1}), ("b", {"y": 2})], table="step3p5", tools=A_AND_B)
    reads_by_tokens("step3p5", output, A_AND_B)
    rest = f"{tag}\n<parameter=y>\n2\n</parameter>\n</function>"
    reads(output, rest, [("a", {"x": 1})], tools=A_AND_B)
    events = reads(output.replace(tag, "<function c>"), rest.replace(tag, "<function c>"), [("a", {"x": 1})],
                   table="step3p5", tools=A_AND_B)
    assert "c" not in [e.name for e in events if type(e) is symphony.ToolCallStart]


def test_seed_oss_reads_two_functions_in_one_block():
    """vLLM's seed_oss parser (the Qwen3 engine with Seed's wrappers) reads both."""
    output = ("<seed:tool_call>\n<function=a>\n<parameter=x>1</parameter>\n</function>\n<function=b>\n"
              "<parameter=y>2</parameter>\n</function>\n</seed:tool_call>")
    reads(output, None, [("a", {"x": 1}), ("b", {"y": 2})], table="seed_oss", tools=A_AND_B)
    reads_by_tokens("seed_oss", output, A_AND_B)


# -- a value whose close is missing or misspelled ---------------------------------------------------

@pytest.mark.parametrize("body,arguments", [
    # SGLang step3p5 test_missing_parameter_close_before_next_parameter; vLLM the same
    ("<parameter=city>Dallas<parameter=state>TX</parameter>", {"city": "Dallas", "state": "TX"}),
    # vLLM test_extract_tool_calls_missing_closing_parameter_tag (the template's newlines)
    ("\n<parameter=city>\nDallas\n<parameter=state>\nTX\n</parameter>\n", {"city": "Dallas", "state": "TX"}),
    # SGLang qwen3_coder test_streaming_strips_drifted_end_marker
    ("\n<parameter=city>\nShanghai\n</parameter1>\n<parameter=days>\n3\n</parameter>\n",
     {"city": "Shanghai", "days": 3}),
    ("\n<parameter=city>\nShanghai\n</parameter_function>\n", {"city": "Shanghai"}),
    # whitespace before the misspelled close's `>` is the close's (as in the other tag syntaxes)
    ("\n<parameter=city>\nShanghai\n</parameter >\n<parameter=days>\n3\n</parameter>\n",
     {"city": "Shanghai", "days": 3}),
    ("\n<parameter=city>\nShanghai\n</parameter1 \t>\n", {"city": "Shanghai"}),
    ("<parameter=city>Shanghai</parameter<parameter=days>3</parameter>", {"city": "Shanghai", "days": 3}),
    ("<parameter=city>Shanghai</parameter\n<parameter=days>3</parameter>", {"city": "Shanghai", "days": 3}),
    # a function close ends an open value (vLLM: TOOL_ARGS + FUNC_END; SGLang: `</function>` ends it)
    ("<parameter=city>Shanghai\n", {"city": "Shanghai"}),
])
def test_the_next_parameter_or_function_tag_ends_a_value_its_close_missed(body, arguments):
    reads(f"<tool_call><function=weather>{body}</function></tool_call>", None, [("weather", arguments)])


def test_the_block_close_ends_a_value_and_its_call():
    """SGLang step3p5 test_tool_close_repairs_open_parameter_and_function."""
    reads("<tool_call><function=bash><parameter=command>pwd</tool_call>", None, [("bash", {"command": "pwd"})])


@pytest.mark.parametrize("value", ["<config>\n  <p>1</p>\n</parameters>", "x </parameterList>", "a</parameter_b> c",
                                   "a</parameter > c"])
def test_a_value_its_close_ends_keeps_what_looks_like_a_close(value):
    """SGLang qwen3_coder test_closed_value_ending_like_a_marker_is_kept."""
    output = f"<tool_call>\n<function=weather>\n<parameter=city>\n{value}\n</parameter>\n</function>\n</tool_call>"
    reads(output, None, [("weather", {"city": value})])


@pytest.mark.parametrize("between,text,city", [
    # no close after the text before the call's end: the close was the value's, the text between tags
    ("Note: metric\n", "Note: metric", "Paris"),
    ("</func>\n", "</func>", "Paris"),
    ("<|im_end|>\n", "<|im_end|>", "Paris"),
    # a later close: the first one was the value's text (rule 3)
    ("more\n</parameter>\n", None, "Paris\n</parameter>\nmore"),
])
def test_text_after_a_close_waits_for_a_later_close_or_the_calls_end(between, text, city):
    """vLLM's and SGLang's qwen3_coder read `city` = `Paris` in the first three (and drop the text)."""
    reads(f"<tool_call>\n<function=weather>\n<parameter=city>\nParis\n</parameter>\n{between}</function>\n"
          "</tool_call>", text, [("weather", {"city": city})])


def test_text_after_a_close_then_the_next_parameter():
    reads("<tool_call>\n<function=weather>\n<parameter=city>\nParis\n</parameter>\nNote\n<parameter=days>\n3\n"
          "</parameter>\n</function>\n</tool_call>", "Note", [("weather", {"city": "Paris", "days": 3})])
    reads("<tool_call>\n<function=weather>\n<parameter=city>\nParis\n</parameter>\nNote", "Note",
          [("weather", {"city": "Paris"})])


def test_the_events_of_a_misspelled_close():
    """The misspelled close is the value's close: its bytes are the closing fragment's source."""
    output = ("<tool_call>\n<function=weather>\n<parameter=city>\nParis\n</parameter1>\n<parameter=days>\n3\n"
              "</parameter>\n</function>\n</tool_call>")
    check("qwen3_tagged", output, [
        dropped("<tool_call>"),
        start(0, "weather", "\n<function=weather>"),
        arguments(0, '{"city": "', "\n<parameter=city>"),
        arguments(0, "Paris", "\nParis"),
        arguments(0, '"', "\n</parameter1>"),
        arguments(0, ', "days": 3', "\n<parameter=days>\n3\n</parameter>"),
        arguments(0, "}", "\n"),
        end(0, "</function>"),
        dropped("\n</tool_call>"),
        finish(tool_calls=1),
    ], tools=TOOLS)


def test_a_stream_cut_after_a_cut_close_ends_the_value_not_the_call():
    output = "<tool_call>\n<function=weather>\n<parameter=city>\nParis\n</parameter"
    events = symphony.parse("qwen3_tagged", output, tools=TOOLS)
    assert said(events).arguments == ((0, '{"city": "Paris"}'),)      # (closed: the arguments load)
    for plan, pieces in chunkings(output):
        assert said(replay(symphony.parser("qwen3_tagged", TOOLS), pieces)) == said(events), plan


# -- Step-3.5's broken tags (step3p5), and the tags as written (qwen3_tagged) ----------------------

BROKEN_TAGS = ["<tool_call><function bash><parameter=command>pwd</parameter></function></tool_call>",
               "<tool_call><functionbash><parameter=command>pwd</parameter></function></tool_call>",
               "<tool_call><function  bash><parameter=command>pwd</parameter></function></tool_call>",
               "<tool_call><function=bash\n<parameter=command\npwd</parameter></function></tool_call>",
               "<tool_call>\r\n<function=bash\r\n<parameter=command\r\npwd</parameter></function></tool_call>"]


@pytest.mark.parametrize("output", BROKEN_TAGS + [
    "<tool_call><function=function=bash><parameter=command>pwd</parameter></function></tool_call>",
    "<tool_call><function=bash><parameter=parameter=command\npwd</parameter></function></tool_call>",
])
def test_step3p5_reads_its_broken_tags_as_the_tags_it_meant(output):
    """SGLang step3p5 test_missing_equals_in_known_function_tag,
    test_missing_right_angle_in_function_and_parameter_tags and
    test_duplicate_parameter_prefix_is_repaired_when_boundary_is_known: the call. vLLM's step3p5
    parser (the Qwen3 engine) reads none of them."""
    reads(output, None, [("bash", {"command": "pwd"})], table="step3p5")


@pytest.mark.parametrize("output", BROKEN_TAGS)
def test_qwen3_tagged_reads_a_broken_tag_as_written(output):
    """SGLang's qwen3_coder detector reads no call for `<function bash>`
    (test_qwen_parser_does_not_gain_step_repair[qwen3_coder]); vLLM's qwen3_coder, qwen3_xml and
    step3p5 none either, and for a name a newline ends one named `bash\n<parameter=command…` with
    no arguments. No function tag opens a call here, so the block is the text the model wrote,
    every byte of it (docs/recovery.md)."""
    reads(output, output, [])


@pytest.mark.parametrize("output, key", [
    ("<tool_call><function=bash><parameter=parameter=command>pwd</parameter></function></tool_call>",
     "parameter=command"),
    ("<tool_call><function=bash><parameter=command\npwd</parameter></function></tool_call>", None),
])
def test_qwen3_tagged_reads_a_key_as_written(output, key):
    """vLLM's qwen3_coder, qwen3_xml and step3p5 and SGLang's qwen3_coder: the key
    `parameter=command`, and for a key its `</parameter>` cuts short (no `>`) a call without
    arguments; here that key's tag is Malformed, shown."""
    shown = None if key else "<parameter=command\npwd</parameter>"
    reads(output, shown, [("bash", {key: "pwd"} if key else {})])


def test_a_function_tag_without_its_equals_and_an_undeclared_name_is_no_call():
    """SGLang step3p5 test_unknown_malformed_function_is_not_repaired: no call, so the block is
    the text the model wrote, its markers included (docs/recovery.md)."""
    output = "<tool_call><function unknown><parameter=command>pwd</parameter></function></tool_call>"
    events = reads(output, output, [], table="step3p5")
    first = next(e.to_dict() for e in events if type(e) is symphony.events.Malformed
                 and e.text.text.startswith("<function unknown>"))
    assert first["why"] == malformed("", "a tag where the call's syntax has none")["why"]


@pytest.mark.parametrize("table", ["qwen3_tagged", "step3p5"])
def test_a_name_the_tools_do_not_declare_runs_past_a_newline(table):
    """vLLM test_none_tool_calls_filtered: `<function=bad_func_no_gt` (no `>`) is no call, the next
    block's is."""
    output = ("<tool_call>\n<function=bad_func_no_gt\n</function>\n</tool_call>\n<tool_call>\n<function=weather>\n"
              "<parameter=city>Dallas</parameter>\n</function>\n</tool_call>")
    events = symphony.parse(table, output, tools=TOOLS)
    assert [name for name, _ in summary(chat.message(events))["calls"]] == ["weather"]
    check(table, output, [e.to_dict() for e in events], tools=TOOLS)



@pytest.mark.parametrize("table,block", [("qwen3_tagged", ("<tool_call>", "</tool_call>")),
                                         ("seed_oss", ("<seed:tool_call>", "</seed:tool_call>"))])
@pytest.mark.parametrize("close", ["</function>\n", ""])
def test_a_close_cutting_a_function_name_ends_it(table, block, close):
    """`<function=bash</function>`, `<function=bash</tool_call>`: the close ends the name, a call
    without arguments (vLLM's qwen3_coder and seed_oss parsers read `bash {}`).
    `</function>` ends any name, the block's close one the tools declare (vLLM reads any); a name
    that ran past a newline stays a tag cut short (above)."""
    output = block[0] + "\n<function=bash" + close + block[1]
    reads(output, None, [("bash", {})], table=table)
    if close:
        reads(block[0] + "\n<function=ls" + close + block[1], None, [("ls", {})], table=table)
    else:
        # the block's close ends only a declared name: another is a function tag closed early
        output = block[0] + "\n<function=ls" + block[1]
        reads(output, output, [], table=table)


@pytest.mark.parametrize("table", ["qwen3_tagged", "step3p5"])
@pytest.mark.parametrize("text", ["printf '<function bash>'", "printf '&lt;function bash&gt;'",
                                  "echo '<function=bash\n'"])
def test_tags_inside_a_value_are_not_repaired(table, text):
    """SGLang step3p5 test_function_like_text_inside_parameter_is_not_repaired."""
    reads(f"<tool_call><function=bash><parameter=command>{text}</parameter></function></tool_call>", None,
          [("bash", {"command": text})], table=table)


# -- a call opener inside a delimited value --------------------------------------------------------

@pytest.mark.parametrize("text", [
    "printf '<tool_call>'",
    "x = '<tool_call>\\n<function=f>'\ny = '</function>'",
    "<tool_call>",
    "a\n<tool_call>\n<function=write_file>\n</function>\n",
])
def test_an_opener_inside_a_value_its_close_ends_is_its_text(text):
    """vLLM (test_content_with_xml_structural_tags: the opener inside a string is text) and
    SGLang's qwen3_coder (a value runs to `</parameter>` unless a parameter tag or `</function>`
    comes first) keep it in the value."""
    output = f"<tool_call>\n<function=bash>\n<parameter=command>\n{text}\n</parameter>\n</function>\n</tool_call>"
    reads(output, None, [("bash", {"command": text})])


def test_an_opener_inside_a_value_whose_close_never_comes_opens_the_next_call():
    output = ("<tool_call>\n<function=bash>\n<parameter=command>\nls\n<tool_call>\n<function=weather>\n"
              "<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>")
    reads(output, None, [("bash", {"command": "ls"}), ("weather", {"city": "Paris"})])


def test_a_function_tag_the_block_close_reads_again_keeps_what_follows_it():
    """The block's close ends a value holding a function tag: that tag starts the next call, and
    the whitespace after its name is that call's (no byte is lost)."""
    output = "<tool_call>\n<function=write_file>\n<parameter=content>\n<function=foo> </tool_call>after"
    reads(output, "after", [("write_file", {"content": ""}), ("foo", {})])


def test_what_an_opener_inside_a_value_holds_streams_at_the_close():
    """The value streams up to the opener; the rest waits for the value's close, which sends it."""
    parser = symphony.parser("qwen3_tagged", TOOLS)
    sent = []
    for piece in ["<tool_call>\n<function=bash>\n<parameter=command>\nprintf '", "<tool_call>", "'", "\n"]:
        sent += [e.json for e in parser.feed(Delta(piece)) if type(e) is symphony.events.ToolCallArguments]
    assert "".join(sent) == '{"command": "printf \''
    sent = [e.json for e in parser.feed(Delta("</parameter>\n</function>\n</tool_call>"))
            if type(e) is symphony.events.ToolCallArguments]
    assert "".join(sent) == '<tool_call>\'"}'


def test_seed_oss_holds_its_own_opener_inside_a_value():
    output = ("<seed:tool_call>\n<function=bash>\n<parameter=command>echo '<seed:tool_call>'</parameter>\n"
              "</function>\n</seed:tool_call>")
    reads(output, None, [("bash", {"command": "echo '<seed:tool_call>'"})], table="seed_oss")


# -- markup inside a value: the value's text while the value goes on --------------------------------

def write_file(content, path="fixture.py"):
    return (f"<tool_call>\n<function=write_file>\n<parameter=path>\n{path}\n</parameter>\n<parameter=content>\n"
            f"{content}\n</parameter>\n</function>\n</tool_call>")


@pytest.mark.parametrize("content", [
    # vLLM test_content_with_real_param_name_literal_*: a declared key the call already wrote
    'doc = """\n<parameter=path>\nliteral/value\n</parameter>\n"""',
    # vLLM test_content_with_xml_structural_tags_nonstreaming: quoted tags, a close among them
    'char_deltas = [\n    "<tool_call>\\n",\n    "<parameter=query>\\n",\n    "\\n</parameter>\\n",\n'
    '    "</function>\\n",\n]',
    # vLLM test_content_with_full_nested_tool_call_streaming: a whole call, its block included
    'doc = """\n<tool_call>\n<function=write_file>\n<parameter=path>\nliteral/value.txt\n</parameter>\n'
    '<parameter=content>\nhello\n</parameter>\n</function>\n</tool_call>\n"""',
    # a function tag and its close without the block, then text
    "<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\nafter",
])
def test_markup_inside_a_value_its_own_close_confirms_is_its_text(content):
    """vLLM reads one call, the markup in its content as written: the value's `</parameter>` comes
    with no tag held open inside it, and the call goes on after it."""
    reads(write_file(content), None, [("write_file", {"path": "fixture.py", "content": content})])


@pytest.mark.parametrize("content", [
    # vLLM test_content_with_param_like_lines_*: a close, then a key the schema does not name, then
    # text after that key's close
    'TOOL_CALL_TEMPLATE = """\n</parameter>\n<parameter=new_string>\n#!/usr/bin/env python3\n</parameter>\n"""',
    # a close, then a key the call already wrote, then text
    "a\n</parameter>\n<parameter=path>\nb\n</parameter>\nc",
    # a close followed by text
    'x = """\n</parameter>\n"""',
    "a</parameter>b",
    # two closes: the first is followed by a tag, but one that is no call's
    "a\n</parameter>\n</parameter>\nb",
])
def test_a_close_text_follows_is_the_values_text(content):
    """vLLM: the `</parameter>` that text follows does not end the value."""
    reads(write_file(content), None, [("write_file", {"path": "fixture.py", "content": content})])


def test_seed_oss_keeps_markup_inside_a_value_placed_between_its_tags():
    """vLLM's seed_oss parser is the Qwen3 engine: the same reading, values between the tags."""
    content = "doc <parameter=path>x</parameter> y</parameter> z"
    output = (f"<seed:tool_call>\n<function=write_file>\n<parameter=path>p</parameter>\n<parameter=content>{content}"
              "</parameter>\n</function>\n</seed:tool_call>")
    reads(output, None, [("write_file", {"path": "p", "content": content})], table="seed_oss")


def test_a_key_the_schema_does_not_name_after_a_close_is_a_parameter_when_the_call_goes_on():
    """The call goes on after the undeclared key's value: both tags were the call's (vLLM's
    test_content_with_param_like_lines reads such a key as the value's text only where text
    follows its close)."""
    output = ("<tool_call>\n<function=write_file>\n<parameter=content>\na\n</parameter>\n<parameter=mode>\nw\n"
              "</parameter>\n<parameter=path>\np\n</parameter>\n</function>\n</tool_call>")
    reads(output, None, [("write_file", {"content": "a", "mode": "w", "path": "p"})])


def test_a_written_key_after_a_close_is_a_parameter_when_the_block_closes():
    """The block's close after the second value says the key written twice was the call's: both
    members are written, as the model wrote them (a JSON reader keeps the last, as vLLM's dict
    does)."""
    output = ("<tool_call>\n<function=write_file>\n<parameter=path>\na\n</parameter>\n<parameter=path>\nb\n"
              "</parameter>\n</tool_call>")
    events = symphony.parse("qwen3_tagged", output, tools=TOOLS)
    assert said(events).arguments == ((0, '{"path": "a", "path": "b"}'),)
    for plan, pieces in chunkings(output):
        assert said(replay(symphony.parser("qwen3_tagged", TOOLS), pieces)) == said(events), plan


def test_two_calls_the_second_holding_the_first_as_text():
    """vLLM test_two_tools_second_with_out_of_schema_nested_literal_nonstreaming: two calls, the
    second's content the first call as written."""
    content = ('template = """\n<tool_call>\n<function=foo>\n<parameter=bar>baz</parameter>\n</function>\n'
               '</tool_call>\n"""')
    output = "<tool_call>\n<function=foo>\n<parameter=bar>baz</parameter>\n</function>\n</tool_call>\n\n" + write_file(content)
    reads(output, "\n\n", [("foo", {"bar": "baz"}), ("write_file", {"path": "fixture.py", "content": content})])


@pytest.mark.parametrize("body,arguments", [
    ("<parameter=command>x<parameter=timeout>5</parameter>\n</function>", {"command": "x", "timeout": 5}),
    ("<parameter=command>x\n<parameter=timeout>\n5\n</parameter>\n</function>\n", {"command": "x", "timeout": 5}),
    ("<parameter=command>x<parameter=timeout>5\n</function>", {"command": "x", "timeout": 5}),
    ("<parameter=command>x<parameter=timeout>5</parameter>\n", {"command": "x", "timeout": 5}),
    ("<parameter=timeout>5<parameter=command>x", {"timeout": 5, "command": "x"}),
])
def test_a_parameter_tag_held_in_a_value_is_the_calls_when_the_call_ends(body, arguments):
    """vLLM (test_extract_tool_calls_missing_closing_parameter_tag) ends a value at the next
    parameter tag: the call's close, the block's close or the end says the held tag was the call's."""
    reads(f"<tool_call>\n<function=bash>\n{body}</tool_call>", None, [("bash", arguments)])


def test_a_call_as_the_template_writes_it_streams_as_it_comes():
    """A value streams byte by byte; a declared key not yet written decides the close before it at
    its `>`: nothing is held but the close and the whitespace after it."""
    parser = symphony.parser("qwen3_tagged", TOOLS)
    sent = []

    def feed(piece):
        sent.extend(e.json for e in parser.feed(Delta(piece)) if type(e) is symphony.events.ToolCallArguments)
        return "".join(sent)

    feed("<tool_call>\n<function=write_file>\n<parameter=content>\n")
    assert feed("a") == '{"content": "a'
    assert feed("b") == '{"content": "ab'
    assert feed("\n</parameter>\n") == '{"content": "ab'
    assert feed("<parameter=path>") == '{"content": "ab", "path": "'
    assert feed("\nx") == '{"content": "ab", "path": "x'
    assert feed("\n</parameter>\n</function>") == '{"content": "ab", "path": "x"}'


def test_a_key_held_after_a_close_counts_against_the_buffer_limit():
    parser = symphony.parser("qwen3_tagged", TOOLS, buffer_limit=96)
    parser.feed(Delta("<tool_call>\n<function=write_file>\n<parameter=content>\na\n</parameter>\n<parameter=other>\n"))
    with pytest.raises(symphony.BufferOverflowError):
        parser.feed(Delta("y" * 100))


def test_held_bytes_count_against_the_buffer_limit():
    parser = symphony.parser("qwen3_tagged", TOOLS, buffer_limit=64)
    parser.feed(Delta("<tool_call>\n<function=bash>\n<parameter=command>\nx<tool_call>"))
    with pytest.raises(symphony.BufferOverflowError):
        parser.feed(Delta("y" * 100))
    events = parser.feed(End("stop"))
    assert events[-1].tool_calls == 1


def test_the_grammar_writes_what_the_template_does_without_the_recoveries():
    """The grammar writes the template's calls, not the recovery's; the text it writes around them
    holds no `<function=` (the parser would read it as a call without its block), and a thought
    it writes after a call no `<tool_call>` (which the parser reads as ending the thought)."""
    written = thought_and_calls("qwen3_tagged", THINK, TOOL_CALL, QWEN3_TAGGED.syntax, OPENER)
    for flags in ({}, {"reasoning_open": True}):
        recovering, plain = symphony.grammar(QWEN3_TAGGED, TOOLS, **flags), symphony.grammar(written, TOOLS, **flags)
        calls = recovering["format"]
        calls = calls["elements"][-1] if calls["type"] == "sequence" else calls
        assert calls["type"] == "triggered_tags" and calls.pop("excludes") == ["<function="]
        (thought,) = [t for t in calls["tags"] if t["begin"] == THINK[0]]
        assert thought["content"]["excludes"].pop() == TOOL_CALL[0]
        assert recovering == plain
