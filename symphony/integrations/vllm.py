"""symphony as vLLM's tool parser and reasoning parser (the interfaces of vLLM 0.33).

Importing this module registers, with vLLM's parser managers, one tool parser and one reasoning
parser per table, named `symphony_<table>` (`symphony_qwen3`, `symphony_glm`, ...), and `symphony`,
which picks the table from the served model through `symphony.for_model`. Serve with both::

    vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice \\
        --tool-parser-plugin "$(python3 -m symphony.integrations.vllm)" --tool-call-parser symphony \\
        --reasoning-parser-plugin "$(python3 -m symphony.integrations.vllm)" --reasoning-parser symphony

(installed, symphony also registers through the `vllm.general_plugins` entry point, so the two
plugin flags can be left out).

vLLM runs the reasoning parser until the thought is over and then the tool parser on what
follows; both are "engine based" (fed each delta, never the accumulated text), each keeps one
symphony parser for the request (`symphony.integrations.stream`), read in the core into the
fields of vLLM's DeltaMessage, which is made once for a delta, only when it shows something.
With no `--reasoning-parser`, a thought is shown as content, verbatim, as vLLM does. For
`tool_choice` "required" or a named function the tool parser gives vLLM the table's own
structural tag (`symphony.grammar`), so the model writes its own call syntax, constrained, and
the same parser reads it; a table without a grammar leaves the output unconstrained.

The table reads the markers as the served tokenizer spells them (a Hy4 checkpoint's own marker
suffix, from its vocab: `names.served_table`).

Each name also has an `_append_think` sibling (`symphony_append_think`,
`symphony_minimax_m2_append_think`, ...; give it to both flags) that shows the thought in the
content, as the model wrote it, after the opener the prompt wrote (`<think>`), as vLLM's
minimax_m2_append_think reasoning parser does: its reasoning parser puts the opener in front of
the output and hands all of it on, and its tool parser shows each thought and its markers as
content.
"""
import itertools
import os

from vllm.entrypoints.generate.base.protocol import (
    DeltaFunctionCall,
    DeltaMessage,
    DeltaToolCall,
    ExtractedToolCallInformation,
    FunctionCall,
    ToolCall,
)
from vllm.reasoning import ReasoningParser, ReasoningParserManager
from vllm.tool_parsers import ToolParser, ToolParserManager

from symphony.integrations.names import (
    APPEND_THINK,
    AUTO,
    Bounded,
    declared,
    declared_later,
    named_classes,
    pydantic_maker,
    reads_types,
    served_table,
    structural_tag,
    table_for,
)
from symphony.integrations.stream import call_stream, parse_calls, split_thought, thought_stream
from symphony.models import thought_markers

PROMPT_TAIL_TOKENS = 64            # how much of the prompt is decoded to find where it leaves the output
DISTINCT_PROMPTS = 256             # prompt tails whose text is kept
IDS_DRAWN = 64                     # tool-call ids made from one read of the system's randomness


def _table(name, tokenizer, model_config):
    """The table a name parses with, as the served tokenizer spells its markers."""
    return served_table(table_for(name, _served_model(tokenizer, model_config), "vLLM"), tokenizer)


def _served_model(tokenizer, model_config):
    model = getattr(model_config, "model", None)
    return model or getattr(tokenizer, "name_or_path", None)


def _decode(tokenizer, ids):
    return tokenizer.decode(list(ids), skip_special_tokens=False)


def _prompt_text(tokenizer, prompt_token_ids):
    """The decoded tail of a prompt's ids, once per tokenizer and distinct tail (most requests of
    a server end their prompt alike: the generation prompt). The tokenizer is kept with its
    entry, so that its id names no other while the entry lives."""
    tail = tuple(prompt_token_ids[-PROMPT_TAIL_TOKENS:])
    kept = _TAILS.get((id(tokenizer), tail))
    if kept is None or kept[0] is not tokenizer:
        kept = _TAILS.keep((id(tokenizer), tail), (tokenizer, _decode(tokenizer, tail)))
    return kept[1]


_TAILS = Bounded(DISTINCT_PROMPTS)   # (id of the tokenizer, tail ids) -> (tokenizer, decoded text)


def make_tool_call_id():
    """A new tool-call id as vLLM's own `make_tool_call_id()` makes one: "chatcmpl-tool-" and the
    hex of a random (version 4) UUID from os.urandom, IDS_DRAWN of them drawn at a time (one read
    of the system's randomness, not one and a UUID object per call). Each id is handed out once;
    a forked worker draws its own."""
    try:
        return _IDS.pop()
    except IndexError:
        _IDS.extend(_drawn_ids())
        return _IDS.pop()


def served_id(call_id):
    """The id vLLM serves for a call of symphony's id `call_id`: the id the model wrote in the
    call's head (Kimi K2's `functions.NAME:N`, as vLLM's kimi_k2 parser serves it; Mistral v11's
    `[CALL_ID]`), else one drawn as vLLM draws them for symphony's own `call_<index>` (the core
    never gives a written id that form: `call_` and ASCII digits)."""
    digits = call_id[5:]
    if call_id.startswith("call_") and digits.isascii() and digits.isdigit():
        return make_tool_call_id()
    return call_id


def _drawn_ids():
    random = bytearray(os.urandom(16 * IDS_DRAWN))
    random[6::16] = random[6::16].translate(_UUID4_VERSION)
    random[8::16] = random[8::16].translate(_UUID4_VARIANT)
    text = random.hex()
    return ["chatcmpl-tool-" + text[at:at + 32] for at in range(0, len(text), 32)]


# uuid.UUID(bytes=..., version=4) over the random bytes: byte 6 takes the version nibble 4, byte 8
# the variant bits 10
_UUID4_VERSION = bytes(byte & 0x0f | 0x40 for byte in range(256))
_UUID4_VARIANT = bytes(byte & 0x3f | 0x80 for byte in range(256))
_IDS = []                          # ids drawn and not yet handed out (list.pop: one per call, any thread)
os.register_at_fork(after_in_child=_IDS.clear)


class SymphonyReasoningParser(ReasoningParser):
    """The reasoning role: reads from where the prompt leaves the output until the thought is
    over, then hands the raw rest to the tool parser (through `finish_streaming`)."""
    engine_based_streaming = True
    table_name = None              # None: the served model's table

    def __init__(self, tokenizer, *args, **kwargs):
        super().__init__(tokenizer, *args, **kwargs)
        table = _table(self.table_name, tokenizer, kwargs.get("model_config"))
        self._open, self._close = thought_markers(table)
        self._table = table.compile()
        self._typed = reads_types(self._table)
        self._prompt = None
        self._prompt_ids = None
        self._stream = None
        self._rest = None

    # -- the prompt ---------------------------------------------------------------------------
    def set_prompt_token_ids(self, prompt_token_ids):
        self._prompt_ids = prompt_token_ids
        self._prompt = _prompt_text(self.model_tokenizer, prompt_token_ids)

    def adjust_initial_state_from_prompt(self, prompt_token_ids):
        self.set_prompt_token_ids(prompt_token_ids)

    def is_reasoning_end(self, input_ids):
        """Whether the text of these ids (a prompt, or output so far) leaves no thought open: the
        last thought marker in their tail is a close, or there is none."""
        if input_ids is self._prompt_ids:
            text = self._prompt
        else:
            text = _decode(self.model_tokenizer, input_ids[-PROMPT_TAIL_TOKENS:])
        return text.rfind(self._open) <= text.rfind(self._close) if self._open else True

    def is_reasoning_end_streaming(self, input_ids, delta_ids):
        return self._close in _decode(self.model_tokenizer, input_ids[-(len(delta_ids) + 8):])

    def extract_content_ids(self, input_ids):
        """The ids after the thought's close when it is one token; else all of them."""
        close = self.vocab.get(self._close)
        if close is None or close not in input_ids:
            return input_ids
        return input_ids[len(input_ids) - input_ids[::-1].index(close):]

    @property
    def reasoning_start_str(self):
        return self._open

    @property
    def reasoning_end_str(self):
        return self._close

    def adjust_request(self, request):
        request.skip_special_tokens = False      # markers that are special tokens must reach the parser
        return request

    # -- parsing ------------------------------------------------------------------------------
    def extract_reasoning(self, model_output, request):
        """The thought and the rest, in one parse that also reads the rest's calls for the tool
        parser vLLM calls next (with the request's tools)."""
        tools = declared(getattr(request, "tools", None)) if self._typed else None
        return split_thought(self._table, model_output, self._prompt, hand_on=True, tools=tools)

    def extract_reasoning_streaming(self, previous_text, current_text, delta_text,
                                    previous_token_ids, current_token_ids, delta_token_ids):
        stream = self._stream
        if stream is None:
            stream = self._stream = thought_stream(self._table, self._prompt)
        fields = stream.feed(delta_text)
        if fields is None:
            return None
        if stream.ended and self._rest is None:
            self._rest = fields[0]
        return None if fields[1] is None else _message(None, fields[1])

    def has_engine_confirmed_reasoning_end(self):
        return self._stream is not None and self._stream.ended

    def finish_streaming(self):
        """After the thought: the raw text that followed it (for the tool parser). At the end of a
        stream still inside the thought: what the parser held."""
        if self._rest is not None:
            rest, self._rest = self._rest, ""
            return _message(rest) if rest else None
        if self._stream is None:
            return None
        fields = self._stream.end()
        return None if fields is None else _message(fields[0], fields[1])


class ThoughtInContentParser(SymphonyReasoningParser):
    """The reasoning role under an `_append_think` name: nothing is reasoning. Where the prompt
    leaves the output in a thought, the prompt's opener goes in front of the output's first byte
    (an output that writes nothing shows nothing), and all of it goes on to the tool parser of the
    name (ThoughtInContentToolParser), which shows the thought in the content as written; else the
    output goes on as it is."""

    def __init__(self, tokenizer, *args, **kwargs):
        super().__init__(tokenizer, *args, **kwargs)
        self._begun = False

    def _opener(self):
        """The prompt's thought opener, where the prompt leaves the output in a thought, else ""."""
        opened = self._prompt_ids is not None and not self.is_reasoning_end(self._prompt_ids)
        return self._open if opened else ""

    def extract_reasoning(self, model_output, request):
        return None, (self._opener() + model_output) if model_output else model_output

    def extract_reasoning_streaming(self, previous_text, current_text, delta_text,
                                    previous_token_ids, current_token_ids, delta_token_ids):
        """(Called while the prompt's thought is open, up to the first delta that writes text: the
        thought is over for vLLM there, and that delta and every later one go to the tool
        parser.)"""
        if not delta_text:
            return None
        self._begun = True
        return _message(self._open + delta_text)

    def has_engine_confirmed_reasoning_end(self):
        return self._begun


class SymphonyToolParser(ToolParser):
    """The tool role: content and calls (and a thought the model writes later) from the content
    state on, one symphony parser per request.

    A call to a tool the request does not declare is a call (`undeclared="call"`, SPEC §2.4), as
    vLLM's own parsers keep it in most families (its parser engine's default,
    validate_tool_names=False; only its GLM-4.5/4.7, MiniMax M2, dots, InternLM 2, K2-Horizon and
    MiniCPM5 parsers refuse it). A subclass with `undeclared = "malformed"` refuses it: its text
    is content, as the model wrote it."""
    engine_based_streaming = True
    supports_required_and_named = False      # required / named: the table's own syntax, constrained
    structural_tag_model = AUTO              # makes vLLM ask get_structural_tag below
    table_name = None
    undeclared = "call"
    thought_in_content = False               # each thought and its markers shown as content, as written

    def __init__(self, tokenizer, tools=None, **kwargs):
        super().__init__(tokenizer, tools)
        self._format = _table(self.table_name, tokenizer, kwargs.get("model_config"))
        self._table = self._format.compile()
        self._tools = declared_later(self.tools)
        self._typed = reads_types(self._table)
        self.skip_reasoning_parsing = False      # vLLM sets it when no reasoning parser is configured
        self._stream = None

    def adjust_request(self, request):
        request = super().adjust_request(request)
        request.skip_special_tokens = False
        return request

    def get_structural_tag(self, request, *, reasoning=False, strict_level=None):
        """The table's structural tag for the request's tools (only the named function for a named
        tool_choice), at least one call unless tool_choice is "auto"; None where the table has
        none."""
        return structural_tag(self._format, request.tools, request.tool_choice, reasoning)

    def extract_tool_calls(self, model_output, request):
        content, calls = parse_calls(self._table, model_output,
                                     declared(self.tools) if self._typed or self.undeclared != "call" else None,
                                     thought_as_content=self._thought_as_content(), undeclared=self.undeclared)
        return _new_extracted({"tools_called", "tool_calls", "content"}, tools_called=calls is not None,
                              content=content, tool_calls=[] if calls is None else [
                                  _new_call({"id", "function"}, id=served_id(id), type="function",
                                            function=_new_function({"name", "arguments"}, id=None, name=name,
                                                                   arguments=arguments))
                                  for id, name, arguments in calls])

    def extract_tool_calls_streaming(self, previous_text, current_text, delta_text, previous_token_ids,
                                     current_token_ids, delta_token_ids, request):
        stream = self._stream
        if stream is None:
            stream = self._stream = call_stream(self._table, self._tools, thought_as_content=self._thought_as_content(),
                                                undeclared=self.undeclared)
        fields = stream.feed(delta_text)
        return None if fields is None else _delta_message(fields)

    def finish_streaming(self):
        if self._stream is None:
            return None
        fields = self._stream.end()
        return None if fields is None else _delta_message(fields)

    def _thought_as_content(self):
        """Whether a thought is shown as content: with no reasoning parser (vLLM sets
        skip_reasoning_parsing then), or under an `_append_think` name."""
        return self.skip_reasoning_parsing or self.thought_in_content


class ThoughtInContentToolParser(SymphonyToolParser):
    """The tool role under an `_append_think` name (ThoughtInContentParser)."""
    thought_in_content = True


# Each model made without validation, naming the fields set as the constructor call would (a set
# of its own each: vLLM edits its models in place), so a chunk serialises the same (the serving
# layer dumps them with exclude_unset).
_new_message, _new_tool_call, _new_function_delta = (pydantic_maker(DeltaMessage), pydantic_maker(DeltaToolCall),
                                                     pydantic_maker(DeltaFunctionCall))
_new_extracted, _new_call, _new_function = (pydantic_maker(ExtractedToolCallInformation), pydantic_maker(ToolCall),
                                            pydantic_maker(FunctionCall))


def _delta_message(fields):
    """vLLM's DeltaMessage of a feed's fields (content, reasoning, [(index, name, arguments, id)])."""
    content, reasoning, calls = fields
    if calls is None:
        return _message(content, reasoning)
    tool_calls = []
    for index, name, arguments, id in calls:
        if name is not None:
            function = _new_function_delta({"name", "arguments"}, name=name, arguments=arguments)
            tool_calls.append(_new_tool_call({"index", "id", "type", "function"}, id=served_id(id),
                                             type="function", index=index, function=function))
        else:
            function = _new_function_delta({"arguments"}, name=None, arguments=arguments)
            tool_calls.append(_new_tool_call({"index", "function"}, id=None, type=None, index=index,
                                             function=function))
    return _message(content, reasoning, tool_calls)


def _message(content=None, reasoning=None, tool_calls=None):
    fields = {"content"} if content is not None else set()
    if reasoning is not None:
        fields.add("reasoning")
    if tool_calls:
        fields.add("tool_calls")
    return _new_message(fields, role=None, content=content, reasoning=reasoning, tool_calls=tool_calls or [])


def register():
    """Registers every symphony parser name with vLLM's tool and reasoning parser managers (the
    `vllm.general_plugins` entry point and the plugin flags call this on import)."""
    for name, (tool, reasoning) in itertools.chain(
            named_classes(SymphonyToolParser, SymphonyReasoningParser),
            named_classes(ThoughtInContentToolParser, ThoughtInContentParser, suffix=APPEND_THINK)):
        ToolParserManager.register_module(name=name, module=tool)
        ReasoningParserManager.register_module(name=name, module=reasoning)


register()

if __name__ == "__main__":
    print(__file__)              # the path vLLM's --tool-parser-plugin / --reasoning-parser-plugin take
