"""symphony as SGLang's function-call detector and reasoning detector (the interfaces of SGLang
0.5.23).

Importing this module (or `register()`, which the `sglang.srt.plugins` entry point calls when
symphony is installed) adds, to `FunctionCallParser.ToolCallParserEnum` and
`ReasoningParser.DetectorMap`, one detector per table named `symphony_<table>`, and `symphony`,
which picks the table from the served model (the tokenizer's `name_or_path`) through
`symphony.for_model`::

    python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B \\
        --tool-call-parser symphony --reasoning-parser symphony

SGLang runs the reasoning detector on every delta and gives what it calls normal text to the
function-call detector. Each detector keeps one symphony parser for the request
(`symphony.integrations.stream`) and is fed each delta once. The reasoning detector starts
inside a thought when SGLang says the output does (`force_reasoning`, from the request and the
chat template) and passes everything after the thought through; the call detector shows a
thought that reaches it as content, as SGLang's detectors do. For `tool_choice` "required" or a
named function the call detector gives SGLang the table's own structural tag
(`symphony.grammar`); a table without a grammar parses SGLang's constrained JSON with symphony's
constrained parser instead (SPEC §6).
"""
from sglang.srt.function_call.base_format_detector import BaseFormatDetector
from sglang.srt.function_call.core_types import StreamingParseResult, ToolCallItem
from sglang.srt.function_call.function_call_parser import FunctionCallParser
from sglang.srt.parser import reasoning_parser as _reasoning
from sglang.srt.parser.reasoning_parser import ReasoningParser

from symphony.integrations.names import (
    has_grammar,
    named_classes,
    named_function,
    structural_tag,
    table_for,
    tool_dicts,
)
from symphony.integrations.stream import CallStream, ThoughtStream
from symphony.models import for_model, thought_markers

def _table(name, tokenizer):
    return table_for(name, getattr(tokenizer, "name_or_path", None), "SGLang's tokenizer (name_or_path)")


class SymphonyReasoningDetector(_reasoning.BaseReasoningFormatDetector):
    """The reasoning role for SGLang's ReasoningParser: every thought is reasoning; the rest is
    passed on as the raw text the call detector reads, or, when no call detector follows
    (`tool_call_parser_active` false), as what a client is shown."""
    table_name = None
    reasoning_default = None           # SGLang decides force_reasoning from the chat template

    def __init__(self, stream_reasoning=True, force_reasoning=False, tokenizer=None,
                 tool_call_parser_active=False, **kwargs):
        table = _table(self.table_name, tokenizer)
        think_open, think_close = thought_markers(table)
        super().__init__(think_open, think_close, force_reasoning=bool(force_reasoning),
                         stream_reasoning=stream_reasoning)
        self._table = table
        self._prompt = _prompt(self.table_name, table, tokenizer, bool(force_reasoning))
        self._clean = not tool_call_parser_active
        self._stream = None

    def detect_and_parse(self, text):
        reasoning, rest = ThoughtStream.split(self._table, text, None, self._prompt, self._clean)
        return _reasoning.StreamingParseResult(normal_text=rest, reasoning_text=reasoning)

    def parse_streaming_increment(self, new_text):
        if self._stream is None:
            self._stream = ThoughtStream(self._table, None, self._prompt, until_thought_ends=False,
                                         clean=self._clean)
        step = self._stream.feed(new_text)
        return _reasoning.StreamingParseResult(normal_text=step.content, reasoning_text=step.reasoning)

    def finish(self):
        if self._stream is None:
            return _reasoning.StreamingParseResult()
        step = self._stream.end()
        return _reasoning.StreamingParseResult(normal_text=step.content, reasoning_text=step.reasoning)


THINKING_ON = {"enable_thinking": True, "thinking": True, "thinking_mode": "enabled"}
THINKING_OFF = {"enable_thinking": False, "thinking": False, "thinking_mode": "disabled"}


def _prompt(name, table, tokenizer, thinking):
    """The generation-prompt tail SGLang does not show its detectors, rebuilt from what it does:
    the served model's own (thinking as SGLang's force_reasoning says), or for a table name the
    table's turn opener, then its thought opener when the output starts inside a thought."""
    if name is None:
        # (each template reads its own switch: enable_thinking, DeepSeek V3.1's thinking, MiniMax
        # M3's thinking_mode)
        model = for_model(tokenizer.name_or_path, THINKING_ON)
        if not thinking and ThoughtStream.prompt_opens_thought(table, model.prompt_tail):
            model = for_model(tokenizer.name_or_path, THINKING_OFF)
        return model.prompt_tail
    return (table.opener or "") + (thought_markers(table)[0] + "\n" if thinking else "")


class SymphonyDetector(BaseFormatDetector):
    """The tool role for SGLang's FunctionCallParser: normal text and calls (a call's index is its
    place in the output; its name comes on its first item, its arguments as they stream)."""
    table_name = None
    tool_choice = None                 # set on the detector get_required_tool_parser makes

    def __init__(self, tokenizer=None):
        super().__init__()
        self._table = _table(self.table_name, tokenizer)
        self._tokenizer = tokenizer
        self._stream = None

    def _call_stream(self, tools):
        return CallStream(self._table, tool_dicts(tools) or None, self.tool_choice, thought_as_content=True)

    def has_tool_call(self, text):
        return True                    # symphony's normal text is the output without its markup

    def detect_and_parse(self, text, tools):
        content, calls = self._call_stream(tools).parse(text)
        return StreamingParseResult(normal_text=content, calls=[
            ToolCallItem(tool_index=index, name=name, parameters=arguments)
            for index, (name, arguments) in enumerate(calls)])

    def parse_streaming_increment(self, new_text, tools):
        if self._stream is None:
            self._stream = self._call_stream(tools)
        return _result(self._stream.feed(new_text))

    def finish(self, tools):
        if self._stream is None:
            return StreamingParseResult()
        return _result(self._stream.end())

    def supports_structural_tag(self):
        return has_grammar(self._table)

    def structure_info(self):
        def info(name):
            raise NotImplementedError("symphony gives SGLang whole structural tags (get_structural_tag)")
        return info

    def get_structural_tag(self, tools=None, tool_choice="auto", thinking_mode=False, parallel_tool_calls=True):
        return structural_tag(self._table, tools, tool_choice, thinking_mode)

    def get_required_tool_parser(self, tool_choice):
        """For a table without a grammar: a detector for the constrained JSON SGLang makes the model
        write then (symphony's constrained parser); else None (the table's own syntax, tagged)."""
        if tool_choice in (None, "auto", "none") or has_grammar(self._table):
            return None
        named = named_function(tool_choice)
        detector = type(self)(self._tokenizer)
        detector.tool_choice = "required" if named is None else {"type": "function", "function": {"name": named}}
        return detector


def _result(step):
    return StreamingParseResult(normal_text=step.content, calls=[
        ToolCallItem(tool_index=index, name=name, parameters=arguments) for index, name, arguments in step.calls])


def register():
    """Adds every symphony name to SGLang's tool-call parser and reasoning parser tables."""
    for name, (detector, reasoning) in named_classes(SymphonyDetector, SymphonyReasoningDetector):
        FunctionCallParser.ToolCallParserEnum[name] = detector
        ReasoningParser.DetectorMap[name] = reasoning


register()
