#!/usr/bin/env python3
"""Drive the incumbent parsers (SGLang, vLLM), and symphony, over the bellwether fixtures.

Runs INSIDE the peers venv (see install.sh), with symphony importable from this repository (each
family declares the profile of its fixture slugs, below); symphony is timed when it is one of
--peers:

    $PEERS_VENV/bin/python bench/peers/harness.py [--repeat N] [--rounds R] [--peers sglang,vllm,symphony]
                                                  [--out FILE] SLUG...

For every (peer, slug, mode) it replays each fixture case the way the peer's
server does (shared/peers/README.md §3, §5), compares the message with
``reference.message`` and times only the peer's parsing calls. symphony goes
through the same loop (its driver below): one timing rule for every side.

Per slug the sides take turns --rounds times, each round --repeat passes, and
each side keeps its best pass: on a shared machine a neighbour's burst lasts
seconds, and sides timed one after the other over minutes can land one side
inside a burst and the other outside it.

Modes:
  whole   the whole output at once. SGLang: ReasoningParser(stream_reasoning=
          False).parse_non_stream, then FunctionCallParser.has_tool_call /
          parse_non_stream. vLLM: set_prompt_token_ids, then Parser.parse.
  stream  one output_pieces element (with its id) per call. SGLang:
          parse_stream_chunk (+ parse_stream_end on the last chunk) for the
          reasoning and the tool-call parser, then the unstreamed-args top-up.
          vLLM: Parser.parse_delta, finished=True on the last chunk.
          symphony: Prompt, then per chunk feed(Delta(text, ids, spans)), the
          Delta built inside the timing as a worker builds it, then End.
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import importlib.metadata
import importlib.util
import json
import logging
import os
import platform
import sys
import time
import types
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
from recorded.engines import import_sglang  # noqa: E402

# ---------------------------------------------------------------------------
# PROFILES: everything the harness knows about a slug (declared by the slug's family).
#
#   thinking_default  the template's enable_thinking when the request omits it
#                     (None: the template has no thought or no switch for it)
#   markers           single tokens of the real vocab that the parsers look up
#                     or the prompt tail uses; given synthetic ids when the
#                     fixture's outputs never contain them
#   sglang            None = unsupported, else
#                       tool       FunctionCallParser name (or None)
#                       reasoning  ReasoningParser name (or None)
#                       force      force_reasoning as the server derives it from
#                                  template + request: True / False / "thinking"
#                                  (= the case's thinking state) / "explicit"
#                                  (= the request sets enable_thinking true)
#                       caveat     optional note carried into the JSON (what the
#                                  measured parsers are, when not the served path)
#   unsupported_reason  optional {peer: why} for a peer that is None
#   vllm              None = unsupported, else
#                       tool, reasoning  ParserManager.get_parser names
#                       tail_on / tail_off  the prompt tail (generation prompt)
#                                  for thinking on / off (tail_off defaults to
#                                  tail_on); prompt token ids = encode(tail)
#                       harmony    True for gpt-oss (the server's is_harmony): its
#                                  HarmonyParser reads the output's token ids,
#                                  which must then be the real o200k ones
#   chat_template     stub template text exposed by the FixtureTokenizer
# ---------------------------------------------------------------------------

# Each family declares the profiles of its fixture slugs (symphony.formats.family.Family.bench):
# what is measured of a family is written with the family. Read on first use, not at import:
# install.sh's import check runs this module while CI may still be building symphony.
_PROFILES = None


def profiles():
    """PROFILES (slug -> profile), read from the family declarations once."""
    global _PROFILES
    if _PROFILES is None:
        from symphony.formats import BENCH_PROFILES
        _PROFILES = dict(BENCH_PROFILES)
    return _PROFILES


def __getattr__(name):
    if name == "PROFILES":          # harness.PROFILES, as the benches and their tests read it
        return profiles()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

PEERS = ("sglang", "vllm")
MODES = ("whole", "stream")
DEFAULT_CHAT_TEMPLATE = "{# symphony bench stub: no template markers #}"


# ---------------------------------------------------------------------------
# Fixtures and the tokenizer built from them
# ---------------------------------------------------------------------------

def load_cases(fixtures: str, slug: str) -> list[dict]:
    path = os.path.join(fixtures, slug + ".jsonl")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def thinking_state(profile: dict, case: dict) -> bool | None:
    """enable_thinking of the request, else the template default."""
    ctk = case["request"].get("chat_template_kwargs") or {}
    value = ctk.get("enable_thinking")
    if value is None:
        return profile.get("thinking_default")
    return bool(value)


class FixtureTokenizer:
    """A tokenizer good enough for parsers, built from a fixture's own tokens.

    vocab keys are the decoded pieces (exact for marker tokens); decode joins
    pieces; encode is a greedy longest match; tokens that only occur in a
    prompt get synthetic ids; no special tokens are declared (nothing dropped).
    """

    SYNTHETIC_BASE = 50_000_000

    def __init__(self, cases: list[dict], markers: list[str], extra_texts: list[str],
                 chat_template: str = DEFAULT_CHAT_TEMPLATE, name: str = "fixture"):
        self.name_or_path = name
        self.chat_template = chat_template
        self._vocab: dict[str, int] = {}
        self._pieces: dict[int, str] = {}
        self._next = self.SYNTHETIC_BASE
        for case in cases:
            for piece, tid in zip(case["output_pieces"], case["output_ids"]):
                self._pieces.setdefault(tid, piece)
                if piece:
                    self._vocab.setdefault(piece, tid)
        for marker in markers:
            self._add(marker)
        self._maxlen = max((len(k) for k in self._vocab), default=1)
        for text in extra_texts:   # prompt-only characters get ids up front
            self.encode(text)

    def _add(self, piece: str) -> int:
        tid = self._vocab.get(piece)
        if tid is None:
            tid = self._next
            self._next += 1
            self._vocab[piece] = tid
            self._pieces[tid] = piece
            self._maxlen = max(getattr(self, "_maxlen", 1), len(piece))
        return tid

    # -- the HF-ish surface the parsers use ---------------------------------
    def get_vocab(self) -> dict[str, int]:
        return self._vocab

    @property
    def vocab(self) -> dict[str, int]:
        return self._vocab

    def get_added_vocab(self) -> dict[str, int]:
        return {}

    @property
    def vocab_size(self) -> int:
        return len(self._vocab)

    def __len__(self) -> int:
        return len(self._vocab)

    @property
    def max_token_id(self) -> int:
        return max(self._pieces)

    all_special_tokens: list = []
    all_special_ids: list = []
    special_tokens_map: dict = {}
    additional_special_tokens: list = []
    added_tokens_decoder: dict = {}
    added_tokens_encoder: dict = {}
    bos_token = eos_token = pad_token = unk_token = None
    bos_token_id = eos_token_id = pad_token_id = unk_token_id = None
    is_fast = True
    truncation_side = "left"
    padding_side = "left"
    model_max_length = 1 << 30
    max_chars_per_token = 64

    def num_special_tokens_to_add(self) -> int:
        return 0

    def encode(self, text: str, add_special_tokens: bool = False, **_kw) -> list[int]:
        ids = []
        i, n = 0, len(text)
        vocab = self._vocab
        while i < n:
            for length in range(min(self._maxlen, n - i), 0, -1):
                tid = vocab.get(text[i:i + length])
                if tid is not None:
                    ids.append(tid)
                    i += length
                    break
            else:
                ids.append(self._add(text[i]))
                i += 1
        return ids

    def __call__(self, text, add_special_tokens: bool = False, **_kw):
        if isinstance(text, list):
            return {"input_ids": [self.encode(t) for t in text]}
        return {"input_ids": self.encode(text)}

    def decode(self, ids, skip_special_tokens: bool = False, **_kw) -> str:
        if isinstance(ids, int):
            ids = [ids]
        pieces = self._pieces
        return "".join(pieces.get(i, "") for i in ids)

    def batch_decode(self, seqs, **kw) -> list[str]:
        return [self.decode(s, **kw) for s in seqs]

    def convert_ids_to_tokens(self, ids, skip_special_tokens: bool = False):
        if isinstance(ids, int):
            return self._pieces.get(ids)
        return [self._pieces.get(i) for i in ids]

    def convert_tokens_to_ids(self, tokens):
        if isinstance(tokens, str):
            return self._vocab.get(tokens)
        return [self._vocab.get(t) for t in tokens]

    def convert_tokens_to_string(self, tokens) -> str:
        return "".join(t for t in tokens if t)

    def tokenize(self, text: str, **_kw) -> list[str]:
        return [self._pieces[i] for i in self.encode(text)]

    def apply_chat_template(self, *a, **kw):
        raise NotImplementedError("FixtureTokenizer has no chat template")

    def __hash__(self) -> int:
        return id(self)


# ---------------------------------------------------------------------------
# Comparison (README §5): calls count/order/names equal, arguments equal as
# parsed JSON, content and reasoning equal after strip, None == "".
# ---------------------------------------------------------------------------

def _text(value) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def _args(value):
    if isinstance(value, (dict, list)):
        return value
    try:
        return json.loads(value) if value not in (None, "") else {}
    except (TypeError, ValueError):
        return ("<unparsable>", value)


def reference_message(case: dict) -> dict:
    msg = case["reference"]["message"]
    return {
        "content": _text(msg.get("content")),
        "reasoning": _text(msg.get("reasoning_content")),
        "tool_calls": [(c["function"]["name"], c["function"]["arguments"])
                       for c in msg.get("tool_calls") or []],
    }


def compare(got: dict, want: dict) -> tuple[bool, bool, str]:
    """-> (agree with trimmed whitespace, agree exactly, first difference)."""
    gc_, wc = got["tool_calls"], want["tool_calls"]
    if len(gc_) != len(wc):
        return False, False, f"calls: {len(gc_)} vs {len(wc)}"
    for i, ((gn, ga), (wn, wa)) in enumerate(zip(gc_, wc)):
        if gn != wn:
            return False, False, f"call {i} name: {gn!r} vs {wn!r}"
        if _args(ga) != _args(wa):
            return False, False, f"call {i} arguments: {ga!r} vs {wa!r}"
    exact, reason = True, ""
    for field in ("content", "reasoning"):
        g, w = _text(got[field]), _text(want[field])
        if g.strip() != w.strip():
            return False, False, f"{field}: {g!r} vs {w!r}"
        if g != w:
            exact, reason = False, f"{field} whitespace: {g!r} vs {w!r}"
    return True, exact, reason


class Accumulator:
    """Fold streamed deltas like the OpenAI SDK: strings concatenated, tool
    calls keyed by index (their string fields concatenated as well)."""

    def __init__(self):
        self.content = ""
        self.reasoning = ""
        self.calls: dict[int, dict] = {}

    def add(self, content=None, reasoning=None):
        if content:
            self.content += content
        if reasoning:
            self.reasoning += reasoning

    def call(self, index, name=None, arguments=None):
        entry = self.calls.setdefault(index, {"name": "", "arguments": ""})
        if name:
            entry["name"] += name
        if arguments:
            entry["arguments"] += arguments

    def message(self) -> dict:
        return {"content": self.content, "reasoning": self.reasoning,
                "tool_calls": [(c["name"], c["arguments"])
                               for _, c in sorted(self.calls.items())]}


class Timer:
    """Seconds spent in timed intervals, and how many intervals (laps) they were: each lap also
    holds the clock's own cost once (see timer_overhead), which run_slug takes off."""
    __slots__ = ("seconds", "laps")

    def __init__(self):
        self.seconds = 0.0
        self.laps = 0


def timer_overhead(laps: int = 20000, rounds: int = 7) -> float:
    """What one timed interval costs when it times nothing: `t0 = pc()` then `spent += pc() - t0`,
    the drivers' own shape, measured here (the least of `rounds` means, so the figure taken off is
    the clock's cost at its cheapest, never more). A streamed side times every delta this way; at
    well under a microsecond per delta the clock's cost (about 0.07 us here) is a third of a fast
    parser's figure and a hundredth of a slow one's, so left in it pulls every ratio toward 1."""
    pc = time.perf_counter
    best = float("inf")
    for _ in range(rounds):
        spent = 0.0
        for _ in range(laps):
            t0 = pc()
            spent += pc() - t0
        best = min(best, spent / laps)
    return best


# ---------------------------------------------------------------------------
# Peer drivers
# ---------------------------------------------------------------------------

def import_vllm():
    os.environ.setdefault("VLLM_CONFIGURE_LOGGING", "0")
    from vllm.entrypoints.openai.chat_completion.message_assembly import (
        assemble_chat_message_fields, keeps_tool_calls)
    from vllm.entrypoints.openai.chat_completion.protocol import ChatCompletionRequest
    from vllm.entrypoints.serve.utils.tool_calls_utils import (
        maybe_filter_parallel_tool_calls)
    from vllm.parser.parser_manager import ParserManager
    from vllm.reasoning import ReasoningParserManager
    from vllm.tool_parsers import ToolParserManager
    return types.SimpleNamespace(
        ChatCompletionRequest=ChatCompletionRequest, ParserManager=ParserManager,
        ToolParserManager=ToolParserManager, ReasoningParserManager=ReasoningParserManager,
        assemble=assemble_chat_message_fields, keeps_tool_calls=keeps_tool_calls,
        filter_parallel=maybe_filter_parallel_tool_calls)


def _registered(manager, name: str) -> bool:
    for attr in ("tool_parsers", "reasoning_parsers", "lazy_parsers", "_lazy_parsers"):
        table = getattr(manager, attr, None)
        if isinstance(table, dict) and name in table:
            return True
    for getter in ("get_tool_parser", "get_reasoning_parser"):
        fn = getattr(manager, getter, None)
        if fn is not None:
            try:
                return fn(name) is not None
            except Exception:
                return False
    return False


class SGLangDriver:
    peer = "sglang"

    def __init__(self, slug: str, profile: dict, tok: FixtureTokenizer):
        self.m = import_sglang()
        self.p = profile["sglang"]
        self.profile = profile
        self.tok = tok
        fcp = self.m.FunctionCallParser
        if self.p["tool"] and self.p["tool"] not in fcp.ToolCallParserEnum:
            raise LookupError(f"sglang has no tool parser {self.p['tool']!r}")
        if self.p["reasoning"] and \
                self.p["reasoning"].lower() not in self.m.ReasoningParser.DetectorMap:
            raise LookupError(f"sglang has no reasoning parser {self.p['reasoning']!r}")

    def describe(self) -> dict:
        out = {"tool_parser": self.p["tool"], "reasoning_parser": self.p["reasoning"],
               "force_reasoning": self.p["force"]}
        if self.p.get("caveat"):
            out["caveat"] = self.p["caveat"]
        return out

    def prepare(self, case: dict) -> dict:
        """Per-case inputs that a server has before parsing (not timed)."""
        req = dict(case["request"], model="bench")
        request = self.m.ChatCompletionRequest.model_validate(req)
        tools = list(request.tools or [])
        force = self.p["force"]
        if force == "thinking":
            force = bool(thinking_state(self.profile, case))
        elif force == "explicit":   # template default off: only an explicit true
            force = (case["request"].get("chat_template_kwargs") or {}) \
                .get("enable_thinking") is True
        name = self.p["tool"]
        if not name:
            active = False
        elif not tools:   # serving_chat._tool_call_parsing_active
            active = self.m.FunctionCallParser.ToolCallParserEnum[name].parses_without_tools()
        else:
            active = request.tool_choice != "none"
        return {"request": request, "tools": tools, "force": force, "active": active}

    def _reasoning(self, prep, stream: bool):
        return self.m.ReasoningParser(
            self.p["reasoning"], stream_reasoning=stream, force_reasoning=prep["force"],
            request=prep["request"], tokenizer=self.tok,
            tool_call_parser_active=prep["active"])

    def _tools(self, prep, with_choice: bool):
        req = prep["request"]
        return self.m.FunctionCallParser(
            prep["tools"], self.p["tool"], tokenizer=self.tok,
            tool_choice=req.tool_choice if with_choice else None,
            prefix=req._response_parser_prefix, constrained=False)

    def whole(self, case, prep, timer: Timer, ctimer: Timer, _chunks=None) -> dict:
        pc = time.perf_counter
        text = case["reference"]["text"]
        reasoning = None
        t0 = pc()
        rp = self._reasoning(prep, stream=False) if self.p["reasoning"] else None
        fp = self._tools(prep, with_choice=True) if prep["active"] else None
        ctimer.seconds += pc() - t0
        ctimer.laps += 1
        calls = []
        t0 = pc()
        try:
            if rp is not None:
                reasoning, text = rp.parse_non_stream(text)
            if fp is not None and fp.has_tool_call(text):
                text, calls = fp.parse_non_stream(text)
        finally:
            timer.seconds += pc() - t0
            timer.laps += 1
        # the server renumbers calls by enumerate (tool_index = tool position)
        return {"content": _text(text), "reasoning": _text(reasoning),
                "tool_calls": [(c.name, c.parameters) for c in calls]}

    def stream(self, case, prep, timer: Timer, ctimer: Timer, chunks) -> dict:
        pc = time.perf_counter
        t0 = pc()
        rp = self._reasoning(prep, stream=True) if self.p["reasoning"] else None
        fp = self._tools(prep, with_choice=False) if prep["active"] else None
        ctimer.seconds += pc() - t0
        ctimer.laps += 1
        acc = Accumulator()
        last = len(chunks) - 1
        spent = 0.0
        laps = 0
        try:
            for i, (delta, _ids) in enumerate(chunks):
                finishing = i == last
                t0 = pc()
                r = None
                if rp is not None:
                    r, delta = rp.parse_stream_chunk(delta)
                    if finishing:
                        er, en = rp.parse_stream_end()
                        if er:
                            r = (r or "") + er
                        if en:
                            delta = (delta or "") + en
                calls = ()
                if fp is not None:
                    delta, calls = fp.parse_stream_chunk(delta or "")
                    if finishing:
                        et, ec = fp.parse_stream_end()
                        delta = (delta or "") + et
                        calls = list(calls) + ec
                spent += pc() - t0
                laps += 1
                acc.add(delta, r)
                for item in calls:
                    acc.call(item.tool_index, item.name, item.parameters)
            if fp is not None:   # serving_chat._check_for_unstreamed_tool_args
                t0 = pc()
                topup = self._unstreamed(fp)
                spent += pc() - t0
                laps += 1
                if topup:
                    acc.call(*topup)
        finally:
            timer.seconds += spent
            timer.laps += laps
        return acc.message()

    @staticmethod
    def _unstreamed(fp):
        det = getattr(fp, "detector", fp)
        prev = getattr(det, "prev_tool_call_arr", None)
        streamed = getattr(det, "streamed_args_for_tool", None)
        if not prev or not streamed:
            return None
        idx = len(prev) - 1
        if idx < 0 or idx >= len(streamed):
            return None
        expected = prev[idx].get("arguments", {})
        if not isinstance(expected, str):
            expected = json.dumps(expected, ensure_ascii=False)
        actual = streamed[idx]
        rest = expected[len(actual):] if expected.startswith(actual) else ""
        return (idx, None, rest) if rest else None


class VLLMDriver:
    peer = "vllm"

    def __init__(self, slug: str, profile: dict, tok: FixtureTokenizer):
        self.m = import_vllm()
        self.p = profile["vllm"]
        self.profile = profile
        self.tok = tok
        if self.p["tool"] and not _registered(self.m.ToolParserManager, self.p["tool"]):
            raise LookupError(f"vllm has no tool parser {self.p['tool']!r}")
        if self.p["reasoning"] and \
                not _registered(self.m.ReasoningParserManager, self.p["reasoning"]):
            raise LookupError(f"vllm has no reasoning parser {self.p['reasoning']!r}")
        t0 = time.perf_counter()
        self.cls = self.m.ParserManager.get_parser(
            tool_parser_name=self.p["tool"], reasoning_parser_name=self.p["reasoning"],
            enable_auto_tools=True, model_name=profile.get("model"),
            is_harmony=bool(self.p.get("harmony")), tokenizer=tok)
        self.startup_seconds = time.perf_counter() - t0
        self.prompt_ids = {}
        for state in (True, False, None):
            self.prompt_ids[state] = tok.encode(self.tail(state))

    def tail(self, thinking) -> str:
        if thinking is False and "tail_off" in self.p:
            return self.p["tail_off"]
        return self.p["tail_on"]

    def describe(self) -> dict:
        return {"tool_parser": self.p["tool"], "reasoning_parser": self.p["reasoning"],
                "parser_class": getattr(self.cls, "__mro__", [self.cls])[1].__name__,
                "prompt_tail": {"on": self.tail(True), "off": self.tail(False)},
                "startup_seconds": self.startup_seconds}

    def prepare(self, case: dict) -> dict:
        req = dict(case["request"], model="bench", stream=False)
        request = self.m.ChatCompletionRequest.model_validate(req)
        ctk = dict(request.chat_template_kwargs or {})
        prompt_ids = self.prompt_ids[thinking_state(self.profile, case)]
        keep = self.m.keeps_tool_calls(request, enable_auto_tools=True,
                                       parser_cls=self.cls)
        return {"request": request, "ctk": ctk, "prompt_ids": prompt_ids, "keep": keep}

    def _make(self, prep):
        """What the server does per request before any output arrives: the
        renderer's parser runs adjust_request, the handler makes its own."""
        request = prep["request"].model_copy(deep=True)
        cls = self.cls
        if (cls.always_adjust_request or cls.reasoning_parser_cls is not None
                or request.tool_choice != "none"):
            adj = cls(self.tok, request.tools, model_config=None,
                      chat_template_kwargs=prep["ctk"])
            adj.set_prompt_token_ids(prep["prompt_ids"])
            request = adj.adjust_request(request=request)
        parser = cls(self.tok, request.tools, chat_template_kwargs=prep["ctk"],
                     model_config=None)
        return parser, request

    def whole(self, case, prep, timer: Timer, ctimer: Timer, _chunks=None) -> dict:
        pc = time.perf_counter
        t0 = pc()
        parser, request = self._make(prep)
        ctimer.seconds += pc() - t0
        ctimer.laps += 1
        text, ids = case["reference"]["text"], case["output_ids"]
        t0 = pc()
        try:
            parser.set_prompt_token_ids(prep["prompt_ids"])
            reasoning, content, calls = parser.parse(
                text, request, enable_auto_tools=True, model_output_token_ids=ids)
        finally:
            timer.seconds += pc() - t0
            timer.laps += 1
        fields = self.m.assemble(request, reasoning, content, calls,
                                 enable_auto_tools=True, parser_cls=self.cls)
        return {"content": _text(fields.content), "reasoning": _text(fields.reasoning),
                "tool_calls": [(c.function.name, c.function.arguments)
                               for c in fields.tool_calls]}

    def stream(self, case, prep, timer: Timer, ctimer: Timer, chunks) -> dict:
        pc = time.perf_counter
        t0 = pc()
        parser, request = self._make(prep)
        ctimer.seconds += pc() - t0
        ctimer.laps += 1
        prompt_ids = prep["prompt_ids"]
        keep = prep["keep"]
        acc = Accumulator()
        last = len(chunks) - 1
        parse_delta = parser.parse_delta
        spent = 0.0
        laps = 0
        try:
            for i, (text, ids) in enumerate(chunks):
                t0 = pc()
                delta = parse_delta(text, ids, request, prompt_token_ids=prompt_ids,
                                    finished=i == last)
                spent += pc() - t0
                laps += 1
                if delta is None:
                    continue
                # ChatStreamProcessor.step: drop calls the request does not keep
                if delta.tool_calls and not keep:
                    delta.tool_calls = []
                delta = self.m.filter_parallel(delta, request)
                acc.add(delta.content, delta.reasoning)
                for tc in delta.tool_calls or ():
                    fn = tc.function
                    acc.call(tc.index, fn.name if fn else None,
                             fn.arguments if fn else None)
        finally:
            timer.seconds += spent
            timer.laps += laps
        return acc.message()


class SymphonyDriver:
    """symphony, timed by the same rule as the peers: its parser built per request (an Engine
    for the table and tools the model registry gives the case), then its parsing calls. Streamed
    one token a delta, each token goes in as a worker that streams tokens feeds it:
    `feed_token(text, id)`; chunks of several tokens (and every chunk with `deltas_only`, the
    harness's --symphony-deltas) as a `Delta(text, ids, spans)` built inside the timing."""
    peer = "symphony"
    deltas_only = False

    def __init__(self, slug: str, profile: dict, tok=None):
        import symphony
        from bench import common
        from symphony.adapt import chat
        self.s, self.common, self.chat = symphony, common, chat

    def describe(self) -> dict:
        return {"version": self.s.__version__, "module": self.s.__file__}

    def prepare(self, case: dict) -> dict:
        table, tools, prompt, finish = self.common.case_setup(case)
        return {"table": table, "tools": tools, "prompt": prompt, "finish": finish, "deltas": {}}

    def message(self, events) -> dict:
        m = self.chat.message(events)["message"]
        return {"content": m["content"] or "", "reasoning": m["reasoning_content"] or "",
                "tool_calls": [(c["function"]["name"], c["function"]["arguments"])
                               for c in m["tool_calls"] or []]}

    def whole(self, case, prep, timer: Timer, ctimer: Timer, _chunks=None) -> dict:
        pc = time.perf_counter
        text = case["reference"]["text"]
        t0 = pc()
        engine = self.s.Engine(prep["table"], prep["tools"])
        t1 = pc()
        events = engine.parse(text, prep["prompt"], prep["finish"])
        t2 = pc()
        ctimer.seconds += t1 - t0
        timer.seconds += t2 - t1
        ctimer.laps += 1
        timer.laps += 1
        return self.message(events)

    def stream(self, case, prep, timer: Timer, ctimer: Timer, chunks) -> dict:
        sizes = tuple(len(ids) for _, ids in chunks)
        deltas = prep["deltas"].get(sizes)
        if deltas is None:     # the token data an engine hands over: text, ids, TokenSpans
            deltas = prep["deltas"][sizes] = self.common.token_deltas(case, list(sizes))
        s, pc = self.s, time.perf_counter
        Delta = s.Delta
        t0 = pc()
        engine = s.Engine(prep["table"], prep["tools"])
        ctimer.seconds += pc() - t0
        ctimer.laps += 1
        feed = engine.feed
        t0 = pc()
        events = feed(s.Prompt(prep["prompt"]))
        spent = pc() - t0
        if not self.deltas_only and all(len(ids) == 1 for _, ids, _ in deltas):
            feed_token = engine.feed_token
            for text, ids, _ in deltas:
                token = ids[0]
                t0 = pc()
                got = feed_token(text, token)
                spent += pc() - t0
                events += got
        else:
            for text, ids, spans in deltas:
                t0 = pc()
                got = feed(Delta(text, ids, spans))
                spent += pc() - t0
                events += got
        t0 = pc()
        got = feed(s.End(prep["finish"]))
        spent += pc() - t0
        timer.seconds += spent
        timer.laps += len(deltas) + 2
        return self.message(events + got)


DRIVERS = {"sglang": SGLangDriver, "vllm": VLLMDriver, "symphony": SymphonyDriver}


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------

def make_chunks(case: dict, plan: str) -> list[tuple[str, list[int]]]:
    """The engine chunks of a replay: (text, token ids) per parser call."""
    pieces, ids = case["output_pieces"], case["output_ids"]
    if plan == "per_token":
        return [(p, [i]) for p, i in zip(pieces, ids)]
    sizes = case["chunk_plans"].get(plan)
    if plan == "whole" or (sizes is None and plan.startswith("size-")):
        return [("".join(pieces), list(ids))]   # size-s is only recorded when s < n
    if sizes is None:
        raise KeyError(f"{case['id']} has no chunk plan {plan!r}")
    out, at = [], 0
    for size in sizes:
        out.append(("".join(pieces[at:at + size]), list(ids[at:at + size])))
        at += size
    return out


def mode_plan(mode: str) -> str | None:
    """'whole' -> None; 'stream' -> 'per_token'; 'stream@PLAN' -> PLAN."""
    if mode == "whole":
        return None
    if mode == "stream":
        return "per_token"
    if mode.startswith("stream@"):
        return mode[len("stream@"):]
    raise ValueError(f"unknown mode {mode!r}")


def run_slug(peer: str, slug: str, cases: list[dict], profile: dict,
             repeat: int, modes=MODES) -> dict:
    tok = None
    if peer != "symphony":     # symphony reads the case through its own model registry
        if profile.get(peer) is None:
            reason = (profile.get("unsupported_reason") or {}).get(peer)
            return {"status": "unsupported", "reason": reason or f"{peer} has no parser for {slug}"}
        tails = []
        if profile.get("vllm"):
            tails = [profile["vllm"]["tail_on"], profile["vllm"].get("tail_off", "")]
        tok = FixtureTokenizer(cases, profile.get("markers", []), tails,
                               profile.get("chat_template", DEFAULT_CHAT_TEMPLATE), slug)
    try:
        driver = DRIVERS[peer](slug, profile, tok)
    except (LookupError, ImportError) as e:   # no such parser, or one whose extra is not installed
        return {"status": "unsupported", "reason": f"{type(e).__name__}: {e}"}
    preps = [driver.prepare(c) for c in cases]
    wants = [reference_message(c) for c in cases]
    tokens = sum(len(c["output_ids"]) for c in cases)
    nbytes = sum(len(c["reference"]["text"].encode("utf-8")) for c in cases)
    out = {"status": "ok", "parsers": driver.describe()}
    # What is alive now (the libraries, the fixtures, the driver) is set aside from the
    # collector, as a serving process does with its start-up heap (vLLM's gc.freeze): the
    # collection before each pass then sweeps only what the passes made. Else it walks the
    # whole heap (600,000 objects with both peers loaded) and leaves the caches cold for the
    # pass it precedes, which costs a short pass (a few hundred microseconds, symphony's)
    # several times its own work and a long one almost nothing.
    gc.collect()
    gc.freeze()
    clock = timer_overhead()
    out["timer_overhead_s"] = clock
    for mode in modes:
        plan = mode_plan(mode)
        fn = driver.whole if plan is None else driver.stream
        chunks = [None if plan is None else make_chunks(c, plan) for c in cases]
        best = best_construct = best_raw = None
        results = None
        for _ in range(repeat):
            gc.collect()
            timer, ctimer = Timer(), Timer()
            pass_results = []
            for case, prep, want, chunk in zip(cases, preps, wants, chunks):
                got, error = None, None
                try:
                    got = fn(case, prep, timer, ctimer, chunk)
                except Exception as e:   # a peer error counts as disagreement
                    error = f"{type(e).__name__}: {e}"
                if got is None:
                    agree, exact, why = False, False, error
                else:
                    agree, exact, why = compare(got, want)
                pass_results.append({"id": case["id"], "agree": agree,
                                     "agree_exact": exact, "diff": why or None,
                                     "error": error, "message": got})
            if results is None:
                results = pass_results
            # the clock's own cost taken off each lap (the same laps every pass)
            seconds = max(timer.seconds - timer.laps * clock, 0.0)
            construct = max(ctimer.seconds - ctimer.laps * clock, 0.0)
            best = seconds if best is None else min(best, seconds)
            best_raw = timer.seconds if best_raw is None else min(best_raw, timer.seconds)
            best_construct = construct if best_construct is None else min(best_construct, construct)
        out[mode] = {
            "cases": len(cases),
            "agree": sum(r["agree"] for r in results),
            "agree_exact": sum(r["agree_exact"] for r in results),
            "errors": sum(r["error"] is not None for r in results),
            "tokens": tokens,
            "bytes": nbytes,
            "seconds": best,
            "seconds_with_clock": best_raw,
            "laps": timer.laps,
            "us_per_token": best * 1e6 / tokens if tokens else None,
            "mb_per_s": nbytes / best / 1e6 if best else None,
            "construct_seconds": best_construct,
            "results": results,
        }
    return out


def keep_best(best: dict | None, result: dict, modes) -> dict:
    """One more round of run_slug merged into the best so far: per mode the least parse and
    construction seconds (the first round's agreement and results kept: every round parses
    alike)."""
    if best is None or best.get("status") != "ok" or result.get("status") != "ok":
        return result if best is None else best
    for mode in modes:
        b, r = best[mode], result[mode]
        b["seconds"] = min(b["seconds"], r["seconds"])
        b["seconds_with_clock"] = min(b.get("seconds_with_clock", b["seconds"]),
                                      r.get("seconds_with_clock", r["seconds"]))
        b["construct_seconds"] = min(b["construct_seconds"], r["construct_seconds"])
        b["us_per_token"] = b["seconds"] * 1e6 / b["tokens"] if b["tokens"] else None
        b["mb_per_s"] = b["bytes"] / b["seconds"] / 1e6 if b["seconds"] else None
    return best


def versions() -> dict:
    v = {"python": platform.python_version()}
    for dist in ("sglang", "vllm", "torch", "transformers", "openai", "pydantic",
                 "partial_json_parser", "xgrammar"):
        try:
            v[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            v[dist] = None
    return v


def summary_lines(doc: dict) -> list[str]:
    modes = doc["modes"]
    w = max(6, *(len(m) for m in modes))
    lines = [f"{'peer':7} {'slug':28} {'mode':{w}} {'agree':>7} {'us/tok':>8} {'MB/s':>7}"]
    for peer, slugs in doc["peers"].items():
        tot = {m: [0, 0, 0.0, 0] for m in modes}
        for slug, res in slugs.items():
            if res.get("status") != "ok":
                lines.append(f"{peer:7} {slug:28} {'-':{w}} {res.get('status')}")
                continue
            for m in modes:
                r = res[m]
                lines.append(f"{peer:7} {slug:28} {m:{w}} "
                             f"{r['agree']:>3}/{r['cases']:<3} "
                             f"{r['us_per_token']:8.2f} {r['mb_per_s']:7.2f}")
                t = tot[m]
                t[0] += r["agree"]
                t[1] += r["cases"]
                t[2] += r["seconds"]
                t[3] += r["tokens"]
        for m, (a, c, s, n) in tot.items():
            if c:
                lines.append(f"{peer:7} {'ALL (supported slugs)':28} {m:{w}} "
                             f"{a:>3}/{c:<3} {s * 1e6 / n:8.2f}"
                             f"         {100 * a / c:.0f}% agree")
    return lines


def check_imports() -> int:
    with contextlib.redirect_stdout(sys.stderr):
        import_sglang()
        import_vllm()
    print(json.dumps(versions()))
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("slugs", nargs="*", help="fixture slugs (default: all in PROFILES)")
    ap.add_argument("--fixtures", default=os.environ.get(
        "SYMPHONY_FIXTURES", "/work/shared/fixtures/bellwether"))
    ap.add_argument("--repeat", type=int, default=5, help="passes per round (the best kept)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="turns the sides take per slug, each round --repeat passes (the best kept)")
    ap.add_argument("--peers", default=",".join(PEERS), help=f"sides, of {', '.join(DRIVERS)}")
    ap.add_argument("--plans", default="",
                    help="extra streaming chunk plans from the fixtures' chunk_plans, "
                         "comma-separated (e.g. whole,size-5,random-1); each adds a "
                         "mode 'stream@PLAN' next to whole and stream (= per_token)")
    ap.add_argument("--out", help="write the JSON here instead of stdout")
    ap.add_argument("--no-cases", action="store_true",
                    help="omit per-case results from the JSON")
    ap.add_argument("--symphony-deltas", action="store_true",
                    help="feed symphony every streamed chunk as a Delta, one-token chunks too "
                         "(by default a single token goes in through feed_token)")
    ap.add_argument("--check-imports", action="store_true",
                    help="import both peers, print versions, exit")
    ap.add_argument("--profiles", help="a JSON file of more PROFILES entries (slug -> profile), "
                                       "for cases that are not bellwether fixtures (bench/peer_compare.py)")
    args = ap.parse_args(argv)
    if args.check_imports:
        return check_imports()
    SymphonyDriver.deltas_only = args.symphony_deltas
    if args.profiles:
        with open(args.profiles, encoding="utf-8") as f:
            profiles().update(json.load(f))
    slugs = args.slugs or list(profiles())
    unknown = [s for s in slugs if s not in profiles()]
    if unknown:
        ap.error(f"no PROFILES entry for {', '.join(unknown)}")
    peers = [p for p in args.peers.split(",") if p]
    strangers = sorted(set(peers) - set(DRIVERS))
    if strangers:
        ap.error(f"unknown side {', '.join(strangers)}; the sides are {', '.join(DRIVERS)}")
    modes = list(MODES) + [f"stream@{p}" for p in args.plans.split(",") if p]
    logging.disable(logging.ERROR)   # peers log each failed parse (olmo3 with a traceback)
    warnings.simplefilter("ignore")
    doc = {"peers": {p: {} for p in peers}, "versions": {}, "modes": modes,
           "repeat": args.repeat, "rounds": args.rounds, "fixtures": args.fixtures}
    with contextlib.redirect_stdout(sys.stderr):   # keep stdout for the JSON
        for slug in slugs:
            cases = load_cases(args.fixtures, slug)
            for _ in range(max(1, args.rounds)):
                for peer in peers:
                    doc["peers"][peer][slug] = keep_best(
                        doc["peers"][peer].get(slug),
                        run_slug(peer, slug, cases, profiles()[slug], max(1, args.repeat), modes), modes)
        doc["versions"] = versions()
    if args.no_cases:
        for slugs_ in doc["peers"].values():
            for res in slugs_.values():
                for m in modes:
                    if m in res:
                        res[m].pop("results", None)
    doc["summary"] = summary_lines(doc)
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)
    print("\n".join(doc["summary"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
