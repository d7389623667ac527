"""symphony.formats.from_response_template: tables from a checkpoint's `response_template` (what
vLLM's `hf` and `beam` parsers read). The outputs below were also read with transformers'
`parse_response` (its content region implicit where vLLM's serving makes it so): the calls and
the regions agree, but for what SPEC decides otherwise: text keeps its whitespace (the template's
parser strips each region), and the content is all the text outside the regions (the template's
parser keeps only the last run of it, "Sure." lost in the first case). Each at every chunking,
conserving every byte. Templates a table cannot say are refused with the reason."""
import json

import pytest

import symphony
from symphony.adapt import chat
from symphony.formats import from_response_template
from tests.common import check_conservation, check_well_formed, chunkings, replay

QWEN = {"start_anchor": "<|im_start|>assistant\n", "fields": {
    "thinking": {"open": "<think>", "close": "</think>"},
    "content": {},
    "tool_calls": {"open": "<tool_call>", "close": "</tool_call>", "content": "json", "repeats": True,
                   "transform": {"type": "function",
                                 "function": {"name": "{content.name}", "arguments": "{content.arguments}"}}}}}
LIST = {"start_anchor": "[/INST]", "fields": {
    "tool_calls": {"open": "[TOOL_CALLS]", "content": "json", "transform_each": True,
                   "transform": {"type": "function", "function": {"name": "{name}", "arguments": "{arguments}"}}}}}
EXPLICIT = {"start_anchor": "<start_of_turn>model\n", "fields": {
    "thinking": {"open": ["<thought>", "<think>"], "close": "</thought>"},
    "content": {"open": "<answer>", "close": "</answer>"},
    "tool_calls": {"open": "<call>", "close": "</call>", "content": "json", "repeats": True,
                   "transform": {"function": {"name": "{content.name}", "arguments": "{content.parameters}"}}}}}

# (template, prompt, output, content, reasoning, calls)
CASES = [
    (QWEN, "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>\n",
     'plan it\n</think>\n\nSure.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n'
     '</tool_call>\n<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>',
     "\n\nSure.\n\n", "plan it\n", [("get_weather", {"city": "Paris", "days": 3}), ("get_time", {})]),
    (QWEN, "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", "<think>\nx\n</think>\n\nHello there.",
     "\n\nHello there.", "\nx\n", []),
    (QWEN, "<|im_start|>assistant\n", "Just text, <b>bold</b> </think>.", "Just text, <b>bold</b> </think>.", None,
     []),
    (LIST, "[INST]hi[/INST]", '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}, '
     '{"name": "get_time", "arguments": {"tz": "UTC"}}]', None, None,
     [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "UTC"})]),
    (LIST, "[INST]hi[/INST]", 'Let me see. [TOOL_CALLS][{"name": "get_time", "arguments": {}}]', "Let me see. ",
     None, [("get_time", {})]),
    (EXPLICIT, "<start_of_turn>model\n", '<thought>plan</thought>\n<call>{"name": "get_weather", "parameters": '
     '{"city": "Oslo"}}</call>\n<answer>Done.</answer>', "Done.", "plan", [("get_weather", {"city": "Oslo"})]),
    # text outside every region is dropped where no region holds it (an explicit content)
    (EXPLICIT, "<start_of_turn>model\n", "<think>plan</thought>stray <answer>Fine.</answer>", "Fine.", "plan", []),
]


def said(events):
    message = chat.message(events)["message"]
    return (message["content"], message["reasoning_content"],
            [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message["tool_calls"] or []])


@pytest.mark.parametrize("template, prompt, output, content, reasoning, calls", CASES,
                         ids=[f"case{i}" for i in range(len(CASES))])
def test_the_message_the_template_describes(template, prompt, output, content, reasoning, calls):
    table = from_response_template(template, "hf")
    events = symphony.parse(table, output, prompt=prompt)
    assert said(events) == (content, reasoning, calls)
    for plan, pieces in chunkings(output):
        got = replay(symphony.parser(table), pieces, prompt)
        check_conservation(got, output)
        check_well_formed(got)
        assert said(got) == said(events), plan


def test_the_table_is_the_region_machine():
    table = from_response_template(QWEN, "hf")
    assert table.states[0][0] == "content" and table.opener == "<|im_start|>assistant\n"
    assert table.syntax == symphony.format.CallSyntax.json()
    assert from_response_template(LIST).syntax == symphony.format.CallSyntax.json_list()
    # an explicit content: the text outside is held by a hidden state
    assert from_response_template(EXPLICIT).states[0] == ("outside", symphony.format.Emits.HIDDEN)


def _with(template, field, **changes):
    changed = json.loads(json.dumps(template))
    changed["fields"][field].update(changes)
    return changed


@pytest.mark.parametrize("template, why", [
    (_with(QWEN, "thinking", open_pattern=r"<think\s*>"), "regex open_pattern"),
    (_with(QWEN, "tool_calls", content="xml-inline", content_args={"tag_pattern": "x"}), "'xml-inline' content parser"),
    (_with(QWEN, "tool_calls", content_args={"string_delims": [["<|\"|>", "<|\"|>"]]}), "JSON dialect"),
    (_with(QWEN, "tool_calls", transform={"function": {"name": "{content.tool}", "arguments": "{content.arguments}"}}),
     "name and arguments"),
    (_with(QWEN, "tool_calls", transform={"function": {"name": "{name}", "arguments": "{content.arguments}"}}),
     "name and arguments"),
    (_with(QWEN, "content", transform={"text": "{content}"}), "not plain text"),
    ({"start_anchor": "x", "fields": {"thinking": {"close": "</think>"}, "content": {"open": "<a>"}}},
     "only content can hold"),
    ({"start_anchor": "x", "fields": {"summary": {"open": "<s>"}}}, "none of thinking"),
    (dict(QWEN, start_anchor=["a", "b"]), "one non-empty literal"),
    ({"start_anchor_pattern": "x", "fields": {"content": {}}}, "regex"),
])
def test_what_a_table_cannot_say_is_refused(template, why):
    with pytest.raises(ValueError, match=why):
        from_response_template(template)


def test_not_a_template():
    with pytest.raises(ValueError, match="must be a dict"):
        from_response_template("qwen3")
    with pytest.raises(ValueError, match="version"):
        from_response_template({"version": 2, "fields": {"content": {}}})
    with pytest.raises(ValueError, match="non-empty dict"):
        from_response_template({"fields": {}})
    with pytest.raises(ValueError, match="at most one field"):
        from_response_template({"fields": {"content": {}, "thinking": {"close": "</think>"}}})
    with pytest.raises(ValueError, match="non-empty string"):
        from_response_template({"fields": {"content": {}, "thinking": {"open": [], "close": "</think>"}}})
