"""Hy4 (SPEC §3 `hy4`): `:opensource` markers. The turn's calls sit in a
`<tool_calls:opensource>` block, each in `<tool_call:opensource>`, keyed with `:opensource` tags;
the generation prompt always opens the thought. No row from a call to the next call's opener and
none from the thought to the calls block: those markers are text there. Beyond SPEC §3's rows,
the block's close also ends a call the model left open (as DeepSeek's table does), so the client
gets the call's arguments closed rather than the block's marker as argument text. The call
markers and tags are also read spelled bare (`<tool_calls><tool_call>NAME<arg_key>k</arg_key>
<arg_value>v</arg_value></tool_call></tool_calls>`), as vLLM's hy_v4 reads whichever spelling its
tokenizer's vocab has; the grammar writes `:opensource`. A bare `<tool_call>` with no block open is
text, as the suffixed one is. The thought's markers are not: Hy4 writes `</think>` in its thought
as text (the hy4-preview fixture `reasoning-with-marker-text`).

Hy3 (`hy_v3`, vLLM's `hy_v3`, SGLang's `hunyuan`) writes the same block with a
`<tool_sep:opensource>` after each call's name (dropped); its thought is `<think:opensource>`.
Its preview tokenizer (tencent/Hy3-preview) spells every one of these markers and tags bare
(`<tool_calls>`, `<tool_call>`, `<tool_sep>`, `<arg_key>`, `<think>`...); the table reads both
spellings, as SGLang's detector does (vLLM's reads the one its tokenizer has).
"""
import re

from symphony.format import CallSyntax
from symphony.formats.family import ALWAYS_OPENS_THOUGHT, MODEL_WRITES_THOUGHT, ByValue, Family, Row, checkpoints
from symphony.formats.shapes import opener_again_in_block, thought_and_call_block
from symphony.syntax import Tags

SUFFIX = ":opensource"      # the released tokenizers' marker suffix, which the preview's leave out

# a tokenizer's structural token, with the suffix its checkpoint spells them with (vLLM's hy_v4
# reads the suffix from the vocab so)
_STRUCTURAL_TOKEN = re.compile(r"<(?:think|tool_calls|tool_call|arg_key|arg_value)(:[^\s>]+)?>")

MARKERS = ("think_open", "think_close", "calls_open", "calls_close", "call_open", "call_close")


def _spelled(suffix):
    """The thought's, the block's and a call's markers, and the keyed tags, spelled with `suffix`."""
    return ((f"<think{suffix}>", f"</think{suffix}>"), (f"<tool_calls{suffix}>", f"</tool_calls{suffix}>"),
            (f"<tool_call{suffix}>", f"</tool_call{suffix}>"),
            Tags(f"<arg_key{suffix}>", f"</arg_key{suffix}>", f"<arg_value{suffix}>", f"</arg_value{suffix}>"))


THINK, BLOCK, CALL, _ = _spelled(SUFFIX)       # (the tags: Tags.HY4)


def _table(name, suffix, markers, extra=lambda table: table):
    """Hy4's block of keyed calls (`name`'s) spelled with `suffix`, the block's opener written again
    right after a call its wrapping (shapes.opener_again_in_block); `extra` adds rows before each of
    `markers` is also read spelled bare (`<tool_calls>`, `<think>`..., in every row its suffixed
    spelling is in: the grammar writes the first spelling), as are the keyed tags."""
    think, block, call, tags = _spelled(suffix)
    table = extra(opener_again_in_block(thought_and_call_block(name, think, block, call,
                                                               CallSyntax.keyed(tags, also=(Tags.PLAIN,)))))
    for marker, text in zip(MARKERS, think + block + call):
        if marker in markers:
            table = table.spelled_also(marker, marker + "_bare", text.replace(suffix, ""))
    return table


# the call markers only: Hy4 writes `</think>` as text in its thought (a model's own words)
HY4 = _table("hy4", SUFFIX, MARKERS[2:])

HY_V3 = _table("hy_v3", SUFFIX, MARKERS, lambda table: table.ignores("tool_sep", "<tool_sep:opensource>")
               .ignores("tool_sep_bare", "<tool_sep>"))

_SUFFIXED = {}              # suffix -> its Format, once per suffix (a server compiles each once)


def suffixed(suffix):
    """Hy4's table for a checkpoint whose tokenizer spells the markers with its own `suffix`
    (`:6124c78e`: `<tool_calls:6124c78e>`, `<arg_key:6124c78e>`...), reading them so and bare, as
    `hy4` reads `:opensource`; named `hy4` + the suffix. `hy4` itself for `:opensource`."""
    if not isinstance(suffix, str) or not suffix or not _STRUCTURAL_TOKEN.fullmatch(f"<think{suffix}>"):
        raise ValueError(f"a Hy4 marker suffix is `:` and one or more characters but whitespace and `>`, "
                         f"not {suffix!r}")
    if suffix == SUFFIX:
        return HY4
    found = _SUFFIXED.get(suffix)
    if found is None:
        found = _SUFFIXED.setdefault(suffix, _table("hy4" + suffix, suffix, MARKERS[2:]))
    return found


def vocab_suffix(vocab):
    """The suffix a tokenizer's vocab spells Hy4's structural tokens with (`:opensource`,
    `:6124c78e`), "" where they are bare, None where it holds none."""
    for token in vocab:
        match = _STRUCTURAL_TOKEN.fullmatch(token)
        if match:
            return match.group(1) or ""
    return None

TABLES = {"hy4": HY4, "hy_v3": HY_V3}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("hy4",),
            "`<tool_calls:opensource>` block of keyed `:opensource` calls",
            "Hy4"),
        Row(("hy_v3",),
            "Hy4's `:opensource` block, a `<tool_sep:opensource>` after each name (dropped); the preview tokenizer's "
            "bare `<tool_calls>`, `<arg_key>`… too; a `<think>` thought the request's `reasoning_effort` opens",
            "Hy3 (tencent/Hy3-preview)"),
    ),
    vllm={
        "hy_v4": "hy4",
        "hy_v3": "hy_v3",
    },
    sglang={
        "hunyuan": "hy_v3",  # SGLang's HunyuanDetector reads Hy3's keyed block, not Hunyuan-A13B's list
    },
    checkpoints=(
        checkpoints("hy4-preview", "hy4", ALWAYS_OPENS_THOUGHT, "", None,
                    "tencent/Hy4-preview"),
        # hy_v3: Hy4's block with a tool_sep, bare markers in the preview's tokenizer; the request's
        # reasoning_effort (the template's `<｜reasoning_mode｜>reasoning_effort:…` line) opens the
        # thought, and `no_think` or none leaves it shut (vLLM's hy_v3 parser, and the prompts of its
        # test: `…<｜hy_Assistant｜>` then `<think>`)
        checkpoints("hy3-preview", "hy_v3", MODEL_WRITES_THOUGHT, "<｜hy_Assistant｜>", None,
                    "tencent/Hy3-preview", tails=ByValue("reasoning_effort", {
                        "high": "<think>", "medium": "<think>", "low": "<think>"}, "")),
    ),
    bench={
        # Hy4-preview: every marker carries the ":opensource" suffix; the prompt
        # always opens <think:opensource> (enable_thinking is not a switch; only
        # reasoning_effort=no_think is). SGLang: hunyuan/hunyuan, which read the
        # suffixed names from the vocab; the Hy4 template gives the hunyuan_effort
        # config, so force = reasoning_effort not in (none, no_think) = True here.
        # vLLM: hy_v4/hy_v4 (suffix read from the vocab; thinking unless
        # reasoning_effort is no_think).
        "hy4-preview": {
            "thinking_default": True,
            "markers": ["<think:opensource>", "</think:opensource>",
                        "<tool_calls:opensource>", "</tool_calls:opensource>",
                        "<tool_call:opensource>", "</tool_call:opensource>",
                        "<arg_key:opensource>", "</arg_key:opensource>",
                        "<arg_value:opensource>", "</arg_value:opensource>"],
            "sglang": {"tool": "hunyuan", "reasoning": "hunyuan", "force": True},
            "vllm": {"tool": "hy_v4", "reasoning": "hy_v4",
                     "tail_on": "<think:opensource>\n"},
        },
    },
)
