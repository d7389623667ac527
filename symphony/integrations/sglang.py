"""symphony as SGLang's function-call detector and reasoning detector (the interfaces of SGLang
0.5.23).

Importing this module (or `register()`, which the `sglang.srt.plugins` entry point calls when
symphony is installed) adds, to `FunctionCallParser.ToolCallParserEnum` and
`ReasoningParser.DetectorMap`, one detector per table named `symphony_<table>`, and `symphony`,
which picks the table from the served model (the tokenizer's `name_or_path`) through
`symphony.for_model`, reading the markers as the tokenizer spells them (`names.served_table`)::

    python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B \\
        --tool-call-parser symphony --reasoning-parser symphony

SGLang runs the reasoning detector on every delta and gives what it calls normal text to the
function-call detector. Each detector keeps one symphony parser for the request
(`symphony.integrations.stream`), is fed each delta once and reads it in the core into the
fields of SGLang's StreamingParseResult, which is made once for a delta that shows calls (one
shared empty result for a delta that shows nothing, and one result per call detector, its text
replaced, for a delta that shows text only: SGLang reads a detector's result before it calls the
detector again, and keeps only the calls it copies out of it). The reasoning detector starts
inside a thought when SGLang says the output does (`force_reasoning`, from the request and the
chat template) and passes everything after the thought through; the call detector shows a
thought that reaches it as content, as SGLang's detectors do. For `tool_choice` "required" or a
named function the call detector gives SGLang the table's own structural tag
(`symphony.grammar`); a table without a grammar parses SGLang's constrained JSON with symphony's
constrained parser instead (SPEC §6).

Each name also has an `_append_think` sibling (`symphony_append_think`, ...) whose reasoning
detector shows the thought in the content, as the model wrote it, after the opener the prompt
wrote (`<think>`), as SGLang's minimax-append-think does: it passes the output on with that opener
in front, and the call detector shows the thought as content.
"""
import functools
import itertools

from sglang.srt.function_call.base_format_detector import BaseFormatDetector
from sglang.srt.function_call.core_types import StreamingParseResult, ToolCallItem
from sglang.srt.function_call.function_call_parser import FunctionCallParser
from sglang.srt.parser import reasoning_parser as _reasoning
from sglang.srt.parser.reasoning_parser import ReasoningParser

from symphony.integrations.names import (
    APPEND_THINK,
    THINKING_OFF,
    THINKING_ON,
    declared_later,
    has_grammar,
    named_classes,
    named_function,
    pydantic_maker,
    reads_types,
    served_table,
    structural_tag,
    table_for,
)
from symphony.integrations.stream import (
    call_stream,
    parse_calls,
    prompt_opens_thought,
    split_thought,
    thought_stream,
)
from symphony.models import for_model, thought_markers

DISTINCT_PROMPTS = 256             # (table, model, thinking) whose generation-prompt tail is kept

_NOTHING_SAID = _reasoning.StreamingParseResult()      # the results of a delta that shows nothing
_NO_CALLS = StreamingParseResult()
_new_result, _new_call = pydantic_maker(StreamingParseResult), pydantic_maker(ToolCallItem)


def _table(name, tokenizer):
    """The table a name parses with, as the served tokenizer spells its markers (SGLang hands its
    detectors the tokenizer where their constructor takes one)."""
    return served_table(table_for(name, getattr(tokenizer, "name_or_path", None),
                                  "SGLang's tokenizer (name_or_path)"), tokenizer)


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
        self._table = table.compile()
        self._prompt = _prompt(self.table_name, getattr(tokenizer, "name_or_path", None), bool(force_reasoning))
        self._clean = not tool_call_parser_active
        self._hand_on = not reads_types(self._table)      # (the call detector's tools are not known here)
        self._stream = None

    def detect_and_parse(self, text):
        reasoning, rest = split_thought(self._table, text, self._prompt, self._clean, self._hand_on)
        return _reasoning.StreamingParseResult(rest, reasoning)

    def parse_streaming_increment(self, new_text):
        stream = self._stream
        if stream is None:
            stream = self._stream = thought_stream(self._table, self._prompt, until_thought_ends=False,
                                                   clean=self._clean)
        fields = stream.feed(new_text)
        return _NOTHING_SAID if fields is None else _reasoning.StreamingParseResult(fields[0], fields[1])

    def finish(self):
        fields = None if self._stream is None else self._stream.end()
        return _NOTHING_SAID if fields is None else _reasoning.StreamingParseResult(fields[0], fields[1])


class ThoughtInContentDetector(SymphonyReasoningDetector):
    """The reasoning role under an `_append_think` name: nothing is reasoning. The output is passed
    on as written, with the prompt's thought opener in front of its first byte where the prompt
    leaves the output in a thought; the call detector (or the client, with no call detector) shows
    the thought as content."""

    def __init__(self, stream_reasoning=True, force_reasoning=False, tokenizer=None,
                 tool_call_parser_active=False, **kwargs):
        # (SGLang hands a detector the arguments its signature names)
        super().__init__(stream_reasoning, force_reasoning, tokenizer, tool_call_parser_active, **kwargs)
        self._opener = self.think_start_token if prompt_opens_thought(self._table, self._prompt) else ""

    def detect_and_parse(self, text):
        return _reasoning.StreamingParseResult((self._opener + text) if text else text)

    def parse_streaming_increment(self, new_text):
        if self._opener and new_text:
            new_text, self._opener = self._opener + new_text, ""
        return _reasoning.StreamingParseResult(new_text) if new_text else _NOTHING_SAID

    def finish(self):
        return _NOTHING_SAID


@functools.lru_cache(maxsize=DISTINCT_PROMPTS)
def _prompt(name, model_id, thinking):
    """The generation-prompt tail SGLang does not show its detectors, rebuilt from what it does:
    the served model's own (thinking as SGLang's force_reasoning says), or for a table name the
    table's turn opener, then its thought opener when the output starts inside a thought. Once
    per (name, model, thinking)."""
    table = table_for(name, model_id, "SGLang's tokenizer (name_or_path)")
    if name is None:
        model = for_model(model_id, THINKING_ON)
        if not thinking and prompt_opens_thought(table, model.prompt_tail):
            model = for_model(model_id, THINKING_OFF)
        return model.prompt_tail
    return (table.opener or "") + (thought_markers(table)[0] + "\n" if thinking else "")


class SymphonyDetector(BaseFormatDetector):
    """The tool role for SGLang's FunctionCallParser: normal text and calls (a call's index is its
    place in the output; its name comes on its first item, its arguments as they stream).

    A call to a tool the request does not declare is no call (`undeclared="malformed"`): its text
    is normal text, as the model wrote it. SGLang's own detectors drop such a call in most
    families (BaseFormatDetector.parse_base_json, and each JSON, DSML, GLM, MiniMax, pythonic,
    LFM2, Step-3 detector's own check; Gemma 4, Inkling, Kimi K2/K3 and Qwen3-Coder keep it), and
    no client of an OpenAI-compatible server can run it; symphony shows its bytes instead of
    dropping them. A subclass with `undeclared = "call"` keeps such calls (SPEC §2.4)."""
    table_name = None
    tool_choice = None                 # set on the detector get_required_tool_parser makes
    undeclared = "malformed"

    def __init__(self, tokenizer=None):
        super().__init__()
        self._format = _table(self.table_name, tokenizer)
        self._table = self._format.compile()
        self._tokenizer = tokenizer
        self._typed = reads_types(self._table)    # else the tools go to the parser only for a forced call
        self._stream = None
        self._said = None                # this detector's text-only result

    def _declared(self, tools):
        """The request's tools for the parser, where it may ask for them: a table whose calls type
        their values, a forced call, or names to check."""
        return declared_later(tools) if self._typed or self.tool_choice is not None or self.undeclared != "call" \
            else None

    def has_tool_call(self, text):
        """Whether the text may hold a call, as SGLang asks before it parses a whole output: not
        when the table reads all of it as content (no marker in it), where the parse would give
        the text back as it is. (For a forced tool_choice the constrained parser reads it.)"""
        return self.tool_choice is not None or not self._table.reads_as_content(text)

    def detect_and_parse(self, text, tools):
        content, calls = parse_calls(self._table, text, self._declared(tools), self.tool_choice,
                                     thought_as_content=True, undeclared=self.undeclared)
        return _new_result({"normal_text", "calls"}, normal_text=content or "", calls=[] if calls is None else [
            _new_call({"tool_index", "name", "parameters"}, tool_index=index, name=name, parameters=arguments)
            for index, (_, name, arguments) in enumerate(calls)])

    def parse_streaming_increment(self, new_text, tools):
        stream = self._stream
        if stream is None:
            stream = self._stream = call_stream(self._table, self._declared(tools), self.tool_choice,
                                                thought_as_content=True, undeclared=self.undeclared)
        fields = stream.feed(new_text)
        return _NO_CALLS if fields is None else self.shown(fields[0], _calls(fields[2]))

    def finish(self, tools):
        fields = None if self._stream is None else self._stream.end()
        return _NO_CALLS if fields is None else self.shown(fields[0], _calls(fields[2]))

    def shown(self, text, calls):
        """The detector's result for a delta that shows something: one StreamingParseResult per
        detector, made on the first such delta, its normal text and calls replaced on each later
        one."""
        said = self._said
        if said is None:
            said = self._said = _new_result({"normal_text", "calls"}, normal_text=text or "", calls=calls)
        else:
            values = said.__dict__
            values["normal_text"] = text or ""
            values["calls"] = calls
        return said

    def supports_structural_tag(self):
        return has_grammar(self._format)

    def structure_info(self):
        def info(name):
            raise NotImplementedError("symphony gives SGLang whole structural tags (get_structural_tag)")
        return info

    def get_structural_tag(self, tools=None, tool_choice="auto", thinking_mode=False, parallel_tool_calls=True):
        return structural_tag(self._format, tools, tool_choice, thinking_mode)

    def get_required_tool_parser(self, tool_choice):
        """For a table without a grammar: a detector for the constrained JSON SGLang makes the model
        write then (symphony's constrained parser); else None (the table's own syntax, tagged)."""
        if tool_choice in (None, "auto", "none") or has_grammar(self._format):
            return None
        named = named_function(tool_choice)
        detector = type(self)(self._tokenizer)
        detector.tool_choice = "required" if named is None else {"type": "function", "function": {"name": named}}
        return detector


def _result(fields):
    """A new StreamingParseResult of a feed's fields (content, reasoning, [(index, name,
    arguments, id)]), made as its constructor would make it, without validation."""
    return _new_result({"normal_text", "calls"}, normal_text=fields[0] or "", calls=_calls(fields[2]))


def _calls(calls):
    """New ToolCallItems, made without validation, of a feed's [(index, name, arguments, id)] (or
    None: none). A ToolCallItem has no id: SGLang's serving layer makes the calls' ids."""
    return [] if calls is None else [
        _new_call({"tool_index", "name", "parameters"}, tool_index=index, name=name, parameters=arguments)
        for index, name, arguments, _ in calls]


def register():
    """Adds every symphony name to SGLang's tool-call parser and reasoning parser tables."""
    for name, (detector, reasoning) in itertools.chain(
            named_classes(SymphonyDetector, SymphonyReasoningDetector),
            named_classes(SymphonyDetector, ThoughtInContentDetector, suffix=APPEND_THINK)):
        FunctionCallParser.ToolCallParserEnum[name] = detector
        ReasoningParser.DetectorMap[name] = reasoning


register()
