"""symphony through vLLM's own serving-layer parse calls (vLLM 0.33): the parser class vLLM
composes from `--tool-call-parser symphony --reasoning-parser symphony` (`ParserManager`), fed
every fixture case whole (`Parser.parse`, as the non-streaming chat path calls it) and one
recorded token piece per delta through `ChatStreamProcessor` (the streaming chat path), must say
what symphony's own chat adapter says: the same content, reasoning and calls."""
import copy

import pytest

pytest.importorskip("vllm")

from vllm.entrypoints.openai.chat_completion.protocol import ChatCompletionRequest  # noqa: E402
from vllm.entrypoints.openai.chat_completion.stream_processor import ChatStreamProcessor  # noqa: E402
from vllm.parser.parser_manager import ParserManager  # noqa: E402

import symphony  # noqa: E402
import symphony.integrations.vllm  # noqa: E402,F401  (registers the parsers)
from symphony.adapt import chat  # noqa: E402
from symphony.integrations.names import APPEND_THINK, parser_names, table_of  # noqa: E402
from symphony.models import thought_markers  # noqa: E402
from tests.engines.cases import fixture_cases, said  # noqa: E402
from tests.engines.tokenizer import byte_tokenizer, encode, marker_pieces  # noqa: E402

CASES = fixture_cases()
needs_cases = pytest.mark.skipif(not CASES, reason="SYMPHONY_FIXTURES is not set")


def _tokenizer(model_id, markers=()):
    tok = copy.copy(byte_tokenizer(markers))
    tok.name_or_path = model_id              # how the `symphony` name finds the served model
    return tok


def _parser_cls(name, tok, model_id, reasoning=None):
    return ParserManager.get_parser(tool_parser_name=name, reasoning_parser_name=reasoning or name,
                                    enable_auto_tools=True, model_name=model_id, tokenizer=tok)


def _request(case):
    return ChatCompletionRequest(model=case.model.hf_id, messages=[{"role": "user", "content": "hi"}],
                                 tools=case.tools or None)


def whole(case, name="symphony", reasoning_name=None, markers=()):
    """The case through vLLM's Parser.parse, `name` its tool parser (and its reasoning parser,
    unless `reasoning_name`); `markers` are tokens of their own."""
    tok = _tokenizer(case.model.hf_id, markers)
    cls = _parser_cls(name, tok, case.model.hf_id, reasoning_name)
    parser = cls(tok, _request(case).tools, model_config=None)
    parser.set_prompt_token_ids(tok.encode(case.model.prompt_tail, add_special_tokens=False))
    reasoning, content, calls = parser.parse(case.text, _request(case), enable_auto_tools=True,
                                             model_output_token_ids=tok.encode(case.text, add_special_tokens=False))
    return said({"content": content, "reasoning_content": reasoning,
                 "tool_calls": [{"function": {"name": c.name, "arguments": c.arguments}} for c in calls or ()]})


def streamed(case, name="symphony", reasoning_name=None, markers=()):
    """The case through vLLM's ChatStreamProcessor, one recorded piece a delta (with `markers`:
    each marker a piece, and a token)."""
    tok = _tokenizer(case.model.hf_id, markers)
    cls = _parser_cls(name, tok, case.model.hf_id, reasoning_name)
    request = _request(case)
    processor = ChatStreamProcessor(request, cls(tok, request.tools, model_config=None),
                                    enable_auto_tools=True, parser_cls=cls)
    prompt_ids = tok.encode(case.model.prompt_tail, add_special_tokens=False)
    content, reasoning, calls = [], [], {}
    pieces = (marker_pieces(case.text, markers) if markers else case.pieces) or [""]
    for i, piece in enumerate(pieces):
        step = processor.step(piece, tok.encode(piece, add_special_tokens=False),
                              case.finish if i == len(pieces) - 1 else None, prompt_ids)
        delta = step.delta
        if delta is None:
            continue
        content.append(delta.content or "")
        reasoning.append(delta.reasoning or "")
        for call in delta.tool_calls or ():
            entry = calls.setdefault(call.index, ["", ""])
            if call.function is not None:
                entry[0] += call.function.name or ""
                entry[1] += call.function.arguments or ""
    return said({"content": "".join(content), "reasoning_content": "".join(reasoning),
                 "tool_calls": [{"function": {"name": n, "arguments": a}} for n, a in calls.values()]})


def test_every_symphony_name_is_registered():
    from vllm.reasoning import ReasoningParserManager
    from vllm.tool_parsers import ToolParserManager
    for name in parser_names():
        assert ToolParserManager.get_tool_parser(name).table_name == (None if name == "symphony" else name[9:])
        assert ReasoningParserManager.get_reasoning_parser(name) is not None
    for name in parser_names(APPEND_THINK):
        assert ToolParserManager.get_tool_parser(name).table_name == table_of(name, APPEND_THINK)
        assert ToolParserManager.get_tool_parser(name).thought_in_content
        assert ReasoningParserManager.get_reasoning_parser(name).table_name == table_of(name, APPEND_THINK)
    assert table_of("symphony_minimax_m2_append_think", APPEND_THINK) == "minimax_m2"


@needs_cases
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_whole_output_through_vllm(case):
    assert whole(case) == case.expected


@needs_cases
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_streamed_one_piece_a_delta_through_vllm(case):
    assert streamed(case) == case.expected


def test_hy4_reads_the_marker_suffix_its_tokenizers_vocab_spells():
    # a Hy4 checkpoint whose tokenizer spells the markers `:6124c78e` (vLLM 0.34's hy_v4 test of it)
    suffix = ":6124c78e"
    markers = tuple(f"<{tag}{suffix}>" for tag in ("tool_calls", "tool_call", "arg_key", "arg_value")) + tuple(
        f"</{tag}{suffix}>" for tag in ("tool_calls", "tool_call", "arg_key", "arg_value"))
    text = (f"Checking.<tool_calls{suffix}><tool_call{suffix}>get_weather<arg_key{suffix}>city</arg_key{suffix}>"
            f"<arg_value{suffix}>Paris</arg_value{suffix}></tool_call{suffix}></tool_calls{suffix}>")
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}}}}]
    for tok, read in ((_tokenizer("tencent/Hy4-suffixed", markers), True), (_tokenizer("tencent/Hy4-preview"), False)):
        request = ChatCompletionRequest(model="m", messages=[{"role": "user", "content": "hi"}], tools=tools)
        parser = _parser_cls("symphony_hy4", tok, "m")(tok, request.tools, model_config=None)
        reasoning, content, calls = parser.parse(text, request, enable_auto_tools=True,
                                                 model_output_token_ids=tok.encode(text, add_special_tokens=False))
        if read:
            assert (content, [(c.name, c.arguments) for c in calls]) == ("Checking.", [("get_weather", '{"city": "Paris"}')])
        else:       # a vocab with no suffixed marker: `:opensource` and bare are read, the rest is text
            assert not calls and content == text


@needs_cases
def test_a_table_name_parses_as_the_model_name_does():
    case = next(c for c in CASES if c.model.format == "qwen3" and c.expected["calls"])
    assert whole(case, "symphony_qwen3") == case.expected
    assert streamed(case, "symphony_qwen3") == case.expected


def test_without_a_reasoning_parser_a_thought_is_content_verbatim():
    """vLLM with `--tool-call-parser symphony_qwen3` alone: the thought and its markers are
    content, as vLLM shows them then; the call is still a call."""
    tok = _tokenizer("Qwen/Qwen3-8B")
    cls = ParserManager.get_parser(tool_parser_name="symphony_qwen3", reasoning_parser_name=None,
                                   enable_auto_tools=True, model_name="Qwen/Qwen3-8B", tokenizer=tok)
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    request = ChatCompletionRequest(model="Qwen/Qwen3-8B", messages=[{"role": "user", "content": "hi"}], tools=tools)
    text = '<think>plan</think>\n\nok<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'
    reasoning, content, calls = cls(tok, request.tools).parse(text, request, enable_auto_tools=True)
    assert (reasoning, content) == (None, "<think>plan</think>\n\nok")
    assert [(c.name, c.arguments) for c in calls] == [("f", '{"a": 1}')]
    processor = ChatStreamProcessor(request, cls(tok, request.tools), enable_auto_tools=True, parser_cls=cls)
    shown = []
    for i in range(0, len(text), 2):
        delta = processor.step(text[i:i + 2], encode(text[i:i + 2]), "stop" if i + 2 >= len(text) else None,
                               encode("<|im_start|>assistant\n")).delta
        if delta is not None:
            assert not delta.reasoning
            shown.append(delta.content or "")
    assert "".join(shown) == "<think>plan</think>\n\nok"


def test_a_delta_serialises_as_vllm_builds_it():
    """The serving layer dumps chunks with exclude_unset: symphony's deltas name the fields a
    constructor call would set, no more."""
    from vllm.entrypoints.generate.base.protocol import DeltaMessage
    from symphony.integrations.vllm import _delta_message
    assert _delta_message(("hi", None, None)).model_dump(exclude_unset=True) == \
        DeltaMessage(content="hi").model_dump(exclude_unset=True)
    first, more = _delta_message((None, None, [(0, "f", "", "call_0"), (1, None, '{"a"', None)])).tool_calls
    assert first.model_dump(exclude_unset=True) == {"index": 0, "id": first.id, "type": "function",
                                                    "function": {"name": "f", "arguments": ""}}
    assert more.model_dump(exclude_unset=True) == {"index": 1, "function": {"arguments": '{"a"'}}


def test_a_delta_is_the_model_construct_of_its_fields():
    from vllm.entrypoints.generate.base.protocol import DeltaFunctionCall, DeltaMessage, DeltaToolCall
    from symphony.integrations.vllm import _delta_message
    got = _delta_message(("hi", "th", [(0, "f", "{", "call_0")]))
    call = got.tool_calls[0]
    want = DeltaMessage.model_construct(
        {"content", "reasoning", "tool_calls"}, role=None, content="hi", reasoning="th",
        tool_calls=[DeltaToolCall.model_construct({"index", "id", "type", "function"}, id=call.id, type="function",
                                                  index=0, function=DeltaFunctionCall(name="f", arguments="{"))])
    assert got == want and got.model_dump_json(exclude_unset=True) == want.model_dump_json(exclude_unset=True)
    got.content = "changed"                      # vLLM edits deltas in place: they stay pydantic models
    assert got.model_fields_set >= {"content"} and got.model_dump()["content"] == "changed"


def test_a_call_the_model_wrote_an_id_for_keeps_it():
    """Kimi K2's head `functions.NAME:N` is the model's call id, served as vLLM's kimi_k2 parser
    serves it, whole and streamed; a call whose id is symphony's `call_<index>` gets one drawn as
    vLLM draws them."""
    from vllm.tool_parsers import ToolParserManager
    from symphony.integrations.vllm import _delta_message, served_id
    tok = _tokenizer("moonshotai/Kimi-K2-Instruct")
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]
    request = ChatCompletionRequest(model="moonshotai/Kimi-K2-Instruct", messages=[{"role": "user", "content": "hi"}],
                                    tools=tools)
    text = ('<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:3<|tool_call_argument_begin|>'
            '{"city": "Tokyo"}<|tool_call_end|><|tool_calls_section_end|>')
    parser = ToolParserManager.get_tool_parser("symphony_kimi_k2")(tok, request.tools)
    calls = parser.extract_tool_calls(text, request).tool_calls
    assert [(c.id, c.function.name) for c in calls] == [("functions.get_weather:3", "get_weather")]
    assert _delta_message((None, None, [(0, "f", "", "functions.f:0")])).tool_calls[0].id == "functions.f:0"
    assert served_id("call_0").startswith("chatcmpl-tool-") and served_id("a1B2c3D4e") == "a1B2c3D4e"
    assert served_id("call_\u0663") == "call_\u0663" and served_id("call_") == "call_"   # (the core's: ASCII digits)


@pytest.mark.parametrize("choice", ["required", {"type": "function", "function": {"name": "get_weather"}}])
def test_a_forced_tool_choice_gets_the_tables_structural_tag(choice):
    """tool_choice "required" or a named function: vLLM's adjust_request asks symphony's tool
    parser for its structural tag, which is the table's own grammar (symphony.grammar) for the
    request's tools (only the named one when one is named), at least one call."""
    import json

    import symphony
    tools = [{"type": "function", "function": {"name": n, "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
        for n in ("get_weather", "get_time")]
    tok = _tokenizer("Qwen/Qwen3-8B")
    cls = _parser_cls("symphony_qwen3", tok, "Qwen/Qwen3-8B")
    request = ChatCompletionRequest(model="Qwen/Qwen3-8B", messages=[{"role": "user", "content": "hi"}],
                                    tools=tools, tool_choice=choice)
    request = cls(tok, request.tools).adjust_request(request)
    tag = json.loads(request.structured_outputs.structural_tag)
    names = ["get_weather"] if isinstance(choice, dict) else ["get_weather", "get_time"]
    want = symphony.grammar("qwen3", [t for t in tools if t["function"]["name"] in names], at_least_one=True)
    from xgrammar import StructuralTag                       # as vLLM serialises it (defaults filled in)
    assert tag == json.loads(json.dumps(StructuralTag.model_validate(want).model_dump()))


def test_a_prompts_tail_is_decoded_once_per_tokenizer_and_tail():
    from symphony.integrations.vllm import _prompt_text
    first, second = _tokenizer("Qwen/Qwen3-8B"), _tokenizer("Qwen/Qwen3-8B")
    ids = encode("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>\n")
    text = _prompt_text(first, ids)
    assert text.endswith("assistant\n<think>\n") and _prompt_text(first, list(ids)) is text
    assert _prompt_text(second, ids) == text and _prompt_text(second, ids) is not text
    assert _prompt_text(first, ids + encode("x")).endswith("<think>\nx")


def test_a_call_to_an_undeclared_tool_is_a_call_as_most_of_vllms_parsers_keep_it():
    """vLLM's parsers keep a call to a tool the request does not declare in most families (its
    parser engine's default): symphony's tool parser does too (undeclared="call"), and a subclass
    with undeclared="malformed" shows its text instead."""
    from vllm.tool_parsers import ToolParserManager
    tok = _tokenizer("Qwen/Qwen3-8B")
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]
    request = ChatCompletionRequest(model="Qwen/Qwen3-8B", messages=[{"role": "user", "content": "hi"}], tools=tools)
    text = ('<tool_call>\n{"name": "ghost", "arguments": {}}\n</tool_call>\n'
            '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>')
    cls = ToolParserManager.get_tool_parser("symphony_qwen3")
    assert cls.undeclared == "call"
    calls = cls(tok, request.tools).extract_tool_calls(text, request).tool_calls
    assert [c.function.name for c in calls] == ["ghost", "get_weather"]
    refusing = type("Refusing", (cls,), {"undeclared": "malformed"})
    extracted = refusing(tok, request.tools).extract_tool_calls(text, request)
    assert [c.function.name for c in extracted.tool_calls] == ["get_weather"]
    assert extracted.content == '<tool_call>\n{"name": "ghost", "arguments": {}}\n</tool_call>\n'


# ---- The `_append_think` names: the thought in the content, as written -------------------------

APPEND_THINK_CASES = [c for c in CASES if c.model.format == "minimax_m2"]
MINIMAX_MARKERS = ("<think>", "</think>", "<minimax:tool_call>", "</minimax:tool_call>")
# where the table reads otherwise than the incumbents, whole and streamed alike: the model wrote
# `</think>` in its thought as text, which closes the thought, and its real close after it is a
# closer with no thought open, dropped (docs/recovery.md, Family quirks read); both engines' own
# append-think parsers show every byte
TABLE_READS_OTHERWISE = {"reasoning-with-marker-text"}


def thought_in_content(case):
    """What symphony's chat adapter shows of the case with the prompt's thought in the content."""
    table = case.model.table()
    events = symphony.parse(table, case.text, tools=case.tools or None, prompt=case.model.prompt_tail,
                            finish=case.finish)
    return said(chat.message(events, thought_in_content=thought_markers(table)[0])["message"])


@needs_cases
@pytest.mark.parametrize("case", APPEND_THINK_CASES, ids=[c.id for c in APPEND_THINK_CASES])
def test_append_think_shows_the_thought_in_the_content_as_vllms_own_does(case):
    """`symphony_append_think` (both flags): the thought the prompt opened is content, as the model
    wrote it, after the prompt's `<think>`, whole and streamed alike: chat.message's
    thought_in_content. vLLM's minimax_m2 tool parser with its minimax_m2_append_think reasoning
    parser says the same where its whole and streamed readings agree; where they do not (a call
    after the thought: its tool parser cuts `\n</think>\n\n\n` off the content whole, and its
    reasoning end takes the `</think>` token streamed), the calls are the same and symphony keeps
    the thought's close as written, which is what MiniMax asks clients to send back."""
    want = thought_in_content(case)
    assert want["content"].startswith("<think>") and want["reasoning"] is None
    name = "symphony" + APPEND_THINK
    assert whole(case, name, markers=MINIMAX_MARKERS) == want
    assert streamed(case, name, markers=MINIMAX_MARKERS) == want
    incumbent = [read(case, "minimax_m2", "minimax_m2_append_think", MINIMAX_MARKERS) for read in (whole, streamed)]
    if case.id.rsplit("/", 1)[1] in TABLE_READS_OTHERWISE or incumbent[0] != incumbent[1]:
        assert all(i["calls"] == want["calls"] for i in incumbent)
    else:
        assert incumbent == [want, want]


def test_append_think_with_no_thought_opened_shows_the_output():
    """Where the prompt opens no thought, the `_append_think` names put nothing in front: a thought
    the output writes, and its markers, are content as written, and a call is a call."""
    from symphony import for_model
    from tests.engines.cases import Case
    model = for_model("Qwen/Qwen3-8B", {"enable_thinking": False})
    text = '<think>plan</think>\n\nok<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    case = Case({"id": "no-thought-opened", "request": {"tools": tools}, "reference": {"text": text}}, model)
    want = {"content": "<think>plan</think>\n\nok", "reasoning": None, "calls": [("f", {"a": 1})]}
    for name in ("symphony" + APPEND_THINK, "symphony_qwen3" + APPEND_THINK):
        assert whole(case, name) == want
        assert streamed(case, name) == want


def test_append_think_shows_nothing_of_an_output_that_writes_nothing():
    """The prompt's opener goes out with the output's first byte, as chat.message's
    thought_in_content does (vLLM's minimax_m2_append_think shows `<think>` alone)."""
    from symphony import for_model
    from tests.engines.cases import Case
    case = Case({"id": "empty", "request": {}, "reference": {"text": ""}}, for_model("MiniMaxAI/MiniMax-M2"))
    empty = {"content": None, "reasoning": None, "calls": []}
    assert whole(case, "symphony" + APPEND_THINK) == empty == thought_in_content(case)
    assert streamed(case, "symphony" + APPEND_THINK) == empty
