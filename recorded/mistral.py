"""Mistral outputs rendered at test time by Mistral's own `mistral-common` package (test-only, as
`openai-harmony` is for gpt-oss): the chat templates it generates for each tokenizer generation
(the templates the checkpoints ship on the Hub are made by it), and the tokenizer that encodes a
conversation for the generations it encodes, which must write the same text.

An output is what the model writes after the generation prompt (`...[/INST]`): the template's
rendering of a conversation ending in the assistant message, with the rendering of the same
conversation up to the generation prompt taken off, and the `</s>` the model samples to stop. Its
tokens are the Tekken vocabulary's (the one `mistral-common` bundles, Mistral NeMo's): special
tokens by their text, the rest encoded by the tokenizer, each token's piece its text as an engine
streams it. The generations, and the checkpoints that write them:

- `v3-spm`: Mistral 7B Instruct v0.3 (a space after `[/INST]` and `[TOOL_CALLS]`; its own
  vocabulary is SentencePiece, the pieces here are Tekken's);
- `v3`: Mistral NeMo; `v7`: Mistral Small 2501, Large 2411 (content and calls in one message);
- `v11`: Mistral Small 3.1/3.2, Devstral (`NAME[CALL_ID]ID[ARGS]{..}` calls);
- `v11-think`: Magistral Small 2506 (the thought in plain `<think>` tags);
- `v13`: Magistral Small 2507/2509, Ministral 3 (`[THINK]` tokens, `NAME[ARGS]{..}` calls);
- `v15`: Mistral Small 4 (v13's, after the request's `[MODEL_SETTINGS]` in the prompt).
"""
import atexit
import dataclasses
import functools
import json
import os
import re
import shutil
import tempfile

import jinja2
import mistral_common
from mistral_common.integrations.chat_templates.template_generator import (
    TemplateConfig,
    TokenizerVersion,
    build_chat_template,
)
from mistral_common.protocol.instruct.chunk import TextChunk, ThinkChunk
from mistral_common.protocol.instruct.messages import AssistantMessage, UserMessage
from mistral_common.protocol.instruct.request import ChatCompletionRequest
from mistral_common.protocol.instruct.tool_calls import Function, FunctionCall, Tool, ToolCall
from mistral_common.protocol.instruct.validator import ValidationMode
from mistral_common.tokens.tokenizers.base import SpecialTokenPolicy, SpecialTokens
from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

from recorded.pieces import streamed_pieces

EOS = "</s>"
TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "The weather in a city.",
                                           "parameters": {"type": "object", "properties": {
                                               "city": {"type": "string"}, "days": {"type": "integer"}}}}},
         {"type": "function", "function": {"name": "get_time", "description": "The time in a zone.",
                                           "parameters": {"type": "object", "properties": {"tz": {"type": "string"}}}}}]


@dataclasses.dataclass(frozen=True)
class Generation:
    name: str
    version: TokenizerVersion
    spm: bool = False
    thinking: bool = False           # [THINK] tokens
    plain_thinking: bool = False     # <think> text
    settings: bool = False           # [MODEL_SETTINGS] reasoning_effort in the prompt
    encodes: bool = True             # mistral-common's tokenizer encodes its conversations too

    @property
    def thinks(self):
        return self.thinking or self.plain_thinking

    @property
    def table(self):
        return "magistral_think" if self.plain_thinking else "mistral"

    @property
    def content_with_calls(self):
        return self.version != TokenizerVersion.v3      # v3 writes content or calls, not both


GENERATIONS = (
    Generation("v3-spm", TokenizerVersion.v3, spm=True, encodes=False),
    Generation("v3", TokenizerVersion.v3),
    Generation("v7", TokenizerVersion.v7),
    Generation("v11", TokenizerVersion.v11),
    Generation("v11-think", TokenizerVersion.v11, plain_thinking=True, encodes=False),
    Generation("v13", TokenizerVersion.v13, thinking=True),
    Generation("v15", TokenizerVersion.v15, thinking=True, settings=True, encodes=False),
)
BY_GENERATION = {g.name: g for g in GENERATIONS}


@dataclasses.dataclass(frozen=True)
class Call:
    name: str
    arguments: str          # as the model writes them: a JSON object's text


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    content: str = None
    thinking: str = None
    calls: tuple = ()
    # why symphony's message differs from the expectation (None: it must not)
    differs: str = None

    def fits(self, generation):
        if self.thinking is not None and not generation.thinks:
            return False
        return not (self.content and self.calls and not generation.content_with_calls)


UNICODE = "Ça marche — 🎉 日本語 ✓ 🫠 e\u0301 𝔘𝔫𝔦"
NESTED = json.dumps({"items": [{"sku": "a-1", "qty": 2, "tags": []}], "note": "日本 🎉 \"q\" <b>x</b> \\ back",
                     "meta": {"deep": [1, 2.5, -3e-07, True, False, None]}}, ensure_ascii=False)
CASES = (
    Case("content", content="It is sunny in Paris."),
    Case("one-call", calls=(Call("get_weather", '{"city": "Paris"}'),)),
    Case("two-calls", calls=(Call("get_weather", '{"city": "Paris", "days": 3}'), Call("get_time", '{"tz": "UTC"}'))),
    Case("call-without-arguments", calls=(Call("get_time", "{}"),)),
    Case("content-then-call", content="Let me check.", calls=(Call("get_weather", '{"city": "Rome"}'),)),
    Case("nested-arguments", calls=(Call("order", NESTED),)),
    Case("compact-arguments", calls=(Call("get_weather", '{"city":"Oslo","days":[1,2]}'),)),
    Case("unicode-content", content=UNICODE),
    # `[TOOL_CALLS]` and `[ARGS]` written as text are markers (SPEC §1.5): the calls region opens at
    # `[TOOL_CALLS]`, holds no call and so reads as written (docs/recovery.md)
    Case("markup-in-content", content="Write `[TOOL_CALLS]` as text? Use [ARGS] and {\"name\": \"f\"}, or <think>."),
    Case("thought-then-content", thinking="The user greets me. Reply briefly.", content="Hello! How can I help?"),
    Case("thought-then-call", thinking="I need the weather first.", calls=(Call("get_weather", '{"city": "Lyon"}'),)),
    Case("thought-content-calls", thinking="Two cities.", content="Checking both.",
         calls=(Call("get_weather", '{"city": "Paris"}'), Call("get_weather", '{"city": "Tokyo", "days": 2}'))),
    Case("unicode-thought", thinking="🦜 考虑一下 🤔 — 👩‍👩‍👧 " + UNICODE, content="Done ✓"),
    Case("long-thought", thinking="\n\n".join(f"Step {i}: check city #{i} (東京, Zürich), round to one decimal."
                                              for i in range(1, 30)), content="Here is the forecast."),
)


# --- the vocabulary ---------------------------------------------------------------------------

@functools.cache
def tokenizer():
    """The Tekken vocabulary mistral-common bundles, with every special token of its list."""
    source = os.path.join(os.path.dirname(mistral_common.__file__), "data", "tekken_240911.json")
    return MistralTokenizer.from_file(_with_specials(source, "v13"), mode=ValidationMode.finetuning)


@functools.cache
def tokenizer_of(generation):
    """mistral-common's tokenizer for a generation (the bundled vocabulary at that version)."""
    source = os.path.join(os.path.dirname(mistral_common.__file__), "data", "tekken_240911.json")
    return MistralTokenizer.from_file(_with_specials(source, generation.version.value),
                                      mode=ValidationMode.finetuning)


@functools.cache
def _vocabulary_directory():
    """A temporary directory for the vocabulary's copies (removed when the process exits)."""
    directory = tempfile.mkdtemp(prefix="symphony-tekken-")
    atexit.register(shutil.rmtree, directory, True)
    return directory


def _with_specials(source, version):
    """A copy of the Tekken file at `version`, its special tokens listed (the bundled file names
    none, which the tokenizers of v11 and later refuse)."""
    with open(source, encoding="utf-8") as f:
        data = json.load(f)
    data["config"] = dict(data["config"], version=version)
    data["special_tokens"] = [{"rank": i, "token_str": s.value, "is_control": True}
                              for i, s in enumerate(SpecialTokens)]
    path = os.path.join(_vocabulary_directory(), f"tekken-{version}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    return path


SPECIAL = re.compile("|".join(re.escape(s.value) for s in sorted(SpecialTokens, key=lambda s: -len(s.value))))


def token_ids(text):
    """`text` as the model's tokens: a special token's text is that token, the rest encoded."""
    tekken = tokenizer().instruct_tokenizer.tokenizer
    ids, at = [], 0
    for found in SPECIAL.finditer(text):
        ids += tekken.encode(text[at:found.start()], bos=False, eos=False)
        ids.append(tekken.get_special_token(found.group()))
        at = found.end()
    return ids + tekken.encode(text[at:], bos=False, eos=False)


# --- rendering --------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Rendered:
    text: str
    ids: tuple
    pieces: tuple


@functools.cache
def template(generation):
    config = TemplateConfig(version=generation.version, spm=generation.spm, thinking_support=generation.thinking,
                            plain_thinking_support=generation.plain_thinking,
                            reasoning_effort_values=("none", "high") if generation.settings else None,
                            reasoning_effort_default="high" if generation.settings else None)
    environment = jinja2.Environment()
    environment.globals["raise_exception"] = _raise
    return environment.from_string(build_chat_template(config))


def _raise(message):
    raise ValueError(message)


USER = {"role": "user", "content": "What is the weather?"}


def assistant_message(case):
    """The case's assistant message, as a chat request carries it."""
    message = {"role": "assistant"}
    if case.thinking is not None:
        message["content"] = [{"type": "thinking", "thinking": case.thinking}]
        if case.content:
            message["content"].append({"type": "text", "text": case.content})
    elif case.content is not None:
        message["content"] = case.content
    if case.calls:
        message["tool_calls"] = [{"id": f"call{i:05d}", "type": "function",
                                  "function": {"name": c.name, "arguments": c.arguments}}
                                 for i, c in enumerate(case.calls)]
    return message


def _render(generation, messages, **kwargs):
    return template(generation).render(messages=messages, tools=TOOLS, bos_token="<s>", eos_token=EOS,
                                       reasoning_effort="high", **kwargs)


def prompt(generation):
    """The generation prompt the template renders for the conversation's user turn."""
    return _render(generation, [USER], add_generation_prompt=True)


@functools.cache
def rendered(generation_name, case_name):
    """The output a model of `generation` writes for the case."""
    generation = BY_GENERATION[generation_name]
    case = next(c for c in CASES if c.name == case_name)
    head, whole = prompt(generation), _render(generation, [USER, assistant_message(case)])
    assert whole.startswith(head) and whole.endswith(EOS), whole
    text = whole[len(head):-len(EOS)]
    ids = token_ids(text)
    tekken = tokenizer().instruct_tokenizer.tokenizer
    pieces = streamed_pieces(tekken.id_to_byte_piece(t, SpecialTokenPolicy.KEEP) for t in ids)
    assert "".join(pieces) == text
    return Rendered(text, tuple(ids), pieces)


def encoded(generation_name, case_name):
    """The case's output as mistral-common's tokenizer encodes the conversation (for the
    generations it encodes), decoded with its special tokens: what follows the `[/INST]` that ends
    the generation prompt, without the `</s>`. (It writes the tools in the prompt in another key
    order than the template, and the arguments as json.dumps re-spells them.)"""
    generation = BY_GENERATION[generation_name]
    case = next(c for c in CASES if c.name == case_name)
    content = case.content
    if case.thinking is not None:
        content = [ThinkChunk(thinking=case.thinking)] + ([TextChunk(text=case.content)] if case.content else [])
    message = AssistantMessage(content=content, tool_calls=[
        ToolCall(id=f"call{i:05d}", function=FunctionCall(name=c.name, arguments=c.arguments))
        for i, c in enumerate(case.calls)] or None)
    tools = [Tool(function=Function(**t["function"])) for t in TOOLS]
    tok = tokenizer_of(generation)
    request = ChatCompletionRequest(messages=[UserMessage(content=USER["content"]), message], tools=tools)
    whole = tok.decode(tok.encode_chat_completion(request).tokens, special_token_policy=SpecialTokenPolicy.KEEP)
    head = whole.index("[/INST]", whole.index(USER["content"])) + len("[/INST]")
    assert whole.endswith(EOS), whole
    return whole[head:-len(EOS)]


def expected(generation, case):
    """(content, reasoning, [(name, arguments)]) of the message the output folds into (the
    SentencePiece template writes a space before the content)."""
    content = case.content and (" " + case.content if generation.spm else case.content)
    return content or None, case.thinking or None, [(c.name, json.loads(c.arguments)) for c in case.calls]


def outputs():
    """(generation, case) of every rendering."""
    return [(g, c) for g in GENERATIONS for c in CASES if c.fits(g)]
