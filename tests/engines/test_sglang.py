"""symphony through SGLang's own parse calls (SGLang 0.5.23): `ReasoningParser` and
`FunctionCallParser` built with the `symphony` name, as SGLang's chat serving builds them, fed every
fixture case whole (`parse_non_stream`) and one recorded token piece per delta
(`parse_stream_chunk`, then `parse_stream_end`), reasoning first and its normal text to the call
parser, must say what symphony's own chat adapter says."""
import importlib.util

import pytest

if importlib.util.find_spec("sglang") is None:
    pytest.skip("SGLang is not installed (the peers venv has it)", allow_module_level=True)

from recorded.engines import import_sglang  # noqa: E402

sgl = import_sglang()                           # the one import stub of the peers README

import symphony.integrations.sglang  # noqa: E402,F401  (registers the detectors)
from symphony.integrations.names import APPEND_THINK, parser_names, table_of  # noqa: E402
from symphony.integrations.stream import prompt_opens_thought  # noqa: E402
from tests.engines.cases import fixture_cases, said  # noqa: E402
from tests.engines.test_vllm import _tokenizer  # noqa: E402

CASES = fixture_cases()
needs_cases = pytest.mark.skipif(not CASES, reason="SYMPHONY_FIXTURES is not set")


def _parsers(case, name="symphony", reasoning_name=None):
    tok = _tokenizer(case.model.hf_id)
    request = sgl.ChatCompletionRequest(model=case.model.hf_id, messages=[{"role": "user", "content": "hi"}],
                                        tools=case.tools or None)
    thinking = prompt_opens_thought(case.model.table(), case.model.prompt_tail)
    reasoning = sgl.ReasoningParser(reasoning_name or name, stream_reasoning=True, force_reasoning=thinking,
                                    request=request, tokenizer=tok, tool_call_parser_active=bool(case.tools))
    calls = sgl.FunctionCallParser([sgl.Tool(**t) for t in case.tools], name, tokenizer=tok)
    return reasoning, calls


def _said(content, reasoning, calls):
    return said({"content": content, "reasoning_content": reasoning,
                 "tool_calls": [{"function": {"name": n, "arguments": a}} for n, a in calls]})


def whole(case, name="symphony", reasoning_name=None):
    reasoning_parser, call_parser = _parsers(case, name, reasoning_name)
    reasoning, text = reasoning_parser.parse_non_stream(case.text)
    calls = []
    if case.tools and call_parser.has_tool_call(text):
        text, items = call_parser.parse_non_stream(text)
        calls = [(item.name, item.parameters) for item in items]
    return _said(text, reasoning, calls)


def streamed(case, name="symphony", reasoning_name=None):
    reasoning_parser, call_parser = _parsers(case, name, reasoning_name)
    content, reasoning, calls = [], [], {}

    def show(thought, text, end=False):
        reasoning.append(thought or "")
        if not case.tools:
            content.append(text or "")
            return
        pieces = [call_parser.parse_stream_chunk(text or "")] + ([call_parser.parse_stream_end()] if end else [])
        for normal, items in pieces:
            content.append(normal or "")
            for item in items:
                entry = calls.setdefault(item.tool_index, ["", ""])
                entry[0] += item.name or ""
                entry[1] += item.parameters or ""

    for piece in case.pieces:
        show(*reasoning_parser.parse_stream_chunk(piece))
    show(*reasoning_parser.parse_stream_end(), end=True)
    return _said("".join(content), "".join(reasoning), calls.values())


def test_every_symphony_name_is_registered():
    for name in parser_names():
        assert sgl.FunctionCallParser.ToolCallParserEnum[name].table_name == (None if name == "symphony" else name[9:])
        assert name in sgl.ReasoningParser.DetectorMap
    for name in parser_names(APPEND_THINK):
        assert sgl.FunctionCallParser.ToolCallParserEnum[name].table_name == table_of(name, APPEND_THINK)
        assert sgl.ReasoningParser.DetectorMap[name].table_name == table_of(name, APPEND_THINK)


@needs_cases
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_whole_output_through_sglang(case):
    assert whole(case) == case.expected


@needs_cases
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_streamed_one_piece_a_delta_through_sglang(case):
    assert streamed(case) == case.expected


def test_required_gets_the_tables_structural_tag():
    """SGLang's get_structure_constraint for tool_choice "required" takes symphony's structural
    tag (the table's grammar) rather than a JSON schema."""
    import symphony
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
    parser = sgl.FunctionCallParser([sgl.Tool(**t) for t in tools], "symphony_qwen3", tool_choice="required")
    kind, tag = parser.get_structure_constraint("required")
    assert kind == "structural_tag"
    from xgrammar import StructuralTag
    assert tag.model_dump() == StructuralTag.model_validate(symphony.grammar("qwen3", tools, at_least_one=True)).model_dump()


class _Written:
    """A case written here (no fixture): a model, the request's tools, the output and its pieces."""

    def __init__(self, model_id, tools, text, piece_chars=3):
        from symphony import for_model
        self.model = for_model(model_id)
        self.tools = tools
        self.text = text
        self.pieces = [text[i:i + piece_chars] for i in range(0, len(text), piece_chars)]


UNDECLARED_CALLS = {
    "qwen3": ('Checking. <tool_call>\n{"name": "ghost", "arguments": {"a": 1}}\n</tool_call>\n'
              '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'),
    "qwen3_tagged": ("Checking. <tool_call>\n<function=ghost>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>\n"
                     "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n"
                     "</tool_call>"),
}
WEATHER_TOOL = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}}}}]


@pytest.mark.parametrize("name, model", [("symphony", "Qwen/Qwen3-8B"), ("symphony_qwen3_tagged", "Qwen/Qwen3.5-9B")])
def test_a_call_to_an_undeclared_tool_is_normal_text_as_sglangs_detectors_drop_it(name, model):
    """SGLang's detectors drop a call to a tool the request does not declare in most families;
    symphony's detector refuses it too (undeclared="malformed") and shows its text, whole and
    streamed, for a table whose values take no types (the reasoning role's hand-off is taken
    only where it read no call) and for one whose values do."""
    import symphony
    from symphony.adapt import chat
    m = symphony.for_model(model)
    prefix = "plan\n</think>\n\n" if prompt_opens_thought(m.table(), m.prompt_tail) else ""
    case = _Written(model, WEATHER_TOOL, prefix + UNDECLARED_CALLS[m.format])
    want = said(chat.message(symphony.parse(m.table(), case.text, tools=WEATHER_TOOL, prompt=m.prompt_tail,
                                            undeclared="malformed"))["message"])
    assert [n for n, _ in want["calls"]] == ["get_weather"] and "ghost" in want["content"]
    assert whole(case, name) == want
    assert streamed(case, name) == want
    plain = _Written(model, WEATHER_TOOL, prefix + "No call here.")
    assert whole(plain, name)["content"].strip() == "No call here."


def test_hy4_reads_the_marker_suffix_its_tokenizers_vocab_spells():
    """A Hy4 checkpoint whose tokenizer spells the markers `:6124c78e`: SGLang gives the detector
    its tokenizer, whose vocab names the suffix (names.served_table), as in symphony's vLLM parser."""
    suffix = ":6124c78e"
    tags = ("tool_calls", "tool_call", "arg_key", "arg_value")
    markers = tuple(f"<{tag}{suffix}>" for tag in tags) + tuple(f"</{tag}{suffix}>" for tag in tags)
    text = (f"Checking.<tool_calls{suffix}><tool_call{suffix}>get_weather<arg_key{suffix}>city</arg_key{suffix}>"
            f"<arg_value{suffix}>Paris</arg_value{suffix}></tool_call{suffix}></tool_calls{suffix}>")
    for tok, read in ((_tokenizer("tencent/Hy4-suffixed", markers), True), (_tokenizer("tencent/Hy4-preview"), False)):
        parser = sgl.FunctionCallParser([sgl.Tool(**t) for t in WEATHER_TOOL], "symphony_hy4", tokenizer=tok)
        content, items = parser.parse_non_stream(text)
        if read:
            assert (content, [(i.name, i.parameters) for i in items]) == ("Checking.", [("get_weather", '{"city": "Paris"}')])
        else:       # a vocab with no suffixed marker: `:opensource` and bare are read, the rest is text
            assert not items and content == text


# ---- The `_append_think` names: the thought in the content, as written -------------------------

APPEND_THINK_CASES = [c for c in CASES if c.model.format == "minimax_m2"]


@needs_cases
@pytest.mark.parametrize("case", APPEND_THINK_CASES, ids=[c.id for c in APPEND_THINK_CASES])
def test_append_think_shows_the_thought_in_the_content_as_sglangs_own_does(case):
    """`symphony_append_think` (both flags): the thought the prompt opened is content, as the model
    wrote it, after `<think>`, whole and streamed alike (chat.message's thought_in_content), as
    SGLang's minimax-m2 detector with its minimax-append-think reasoning detector shows it, but
    where the table reads the output otherwise (TABLE_READS_OTHERWISE)."""
    from tests.engines.test_vllm import TABLE_READS_OTHERWISE, thought_in_content
    want = thought_in_content(case)
    name = "symphony" + APPEND_THINK
    assert whole(case, name) == want
    assert streamed(case, name) == want
    incumbent = [read(case, "minimax-m2", "minimax-append-think") for read in (whole, streamed)]
    if case.id.rsplit("/", 1)[1] in TABLE_READS_OTHERWISE:
        assert all(i["calls"] == want["calls"] and i["content"] != want["content"] for i in incumbent)
    else:
        assert incumbent == [want, want]


def test_append_think_without_a_call_detector_passes_the_output_on():
    """With no call detector (no tools), what the reasoning detector passes on is what the client
    sees: the prompt's opener, then the output as written, as SGLang's minimax-append-think does."""
    text = "plan\n</think>\n\nHello."
    case = _Written("MiniMaxAI/MiniMax-M2", [], text)
    want = {"content": "<think>" + text, "reasoning": None, "calls": []}
    assert whole(case, "symphony" + APPEND_THINK) == want == whole(case, "minimax-m2", "minimax-append-think")
    assert streamed(case, "symphony" + APPEND_THINK) == want == streamed(case, "minimax-m2", "minimax-append-think")


def test_append_think_shows_nothing_of_an_output_that_writes_nothing():
    """The prompt's opener goes out with the output's first byte, as chat.message's
    thought_in_content does (SGLang's minimax-append-think shows `<think>` alone)."""
    case = _Written("MiniMaxAI/MiniMax-M2", WEATHER_TOOL, "")
    empty = {"content": None, "reasoning": None, "calls": []}
    assert whole(case, "symphony" + APPEND_THINK) == empty
    assert streamed(case, "symphony" + APPEND_THINK) == empty
