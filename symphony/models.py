"""The model registry (DESIGN §1, SPEC §3): a Hugging Face checkpoint id, or one of its siblings,
to the format table that parses its output and to how its chat template ends the generation
prompt (the turn opener, then whether the output starts inside a thought). The checkpoint groups
are declared by their families (symphony.formats, `checkpoints`); this module looks them up.
"""
import dataclasses
import difflib
import functools
import re

from symphony._native import Engine
from symphony.formats import ALIASES as _TABLE_ALIASES
from symphony.formats import GROUPS
from symphony.formats import table as _format_table
from symphony.formats.family import (ALWAYS_OPENS_THOUGHT, BEHAVIOURS, ENABLE_THINKING, MODEL_WRITES_THOUGHT,
                                     NO_THOUGHT, OPENS_THOUGHT, ByValue)
from symphony.inputs import Prompt

__all__ = ["ALWAYS_OPENS_THOUGHT", "BEHAVIOURS", "GROUPS", "MODEL_WRITES_THOUGHT", "NO_THOUGHT", "OPENS_THOUGHT",
           "Model", "for_model", "known_models", "models_for_format", "thought_markers", "thought_tail"]


def _thinking_off(chat_template_kwargs, switch=ENABLE_THINKING):
    """Whether the request turns the template's thinking off, as the template reads `switch`
    (the kwargs it reads, and its default): one on by default is off only when a kwarg is given
    as False (`enable_thinking is false`); one off by default is on when one is given true (`if
    thinking`)."""
    kwargs, default = switch
    given = [chat_template_kwargs.get(k) for k in kwargs] if chat_template_kwargs else []
    return any(g is False for g in given) if default else not any(given)


def thought_tail(behaviour, chat_template_kwargs=None, open_marker="<think>",
                 close_marker="</think>", switch=ENABLE_THINKING):
    """The thought part of a generation prompt (the tail without the turn opener), per the
    fixtures README: what a parser must see to start where the model's output starts; `switch`
    is the template's thinking switch (`symphony.formats.family.checkpoints`)."""
    off = _thinking_off(chat_template_kwargs, switch)
    if behaviour == OPENS_THOUGHT:
        return f"{open_marker}\n\n{close_marker}\n\n" if off else f"{open_marker}\n"
    if behaviour == ALWAYS_OPENS_THOUGHT:
        return f"{open_marker}\n"
    if behaviour == MODEL_WRITES_THOUGHT:
        return f"{open_marker}\n\n{close_marker}\n\n" if off else ""
    if behaviour == NO_THOUGHT:
        return ""
    raise ValueError(f"behaviour: {behaviour!r} is not one of {', '.join(BEHAVIOURS)}")


@functools.lru_cache(maxsize=None)
def _table(name, opener):
    """The Format for a table name, with a checkpoint's own turn opener (cached: one compile)."""
    table = _format_table(name)
    return table if opener is None else table.with_opener(opener)


def thought_markers(table):
    """A table's thought markers (its terminals `think_open`/`think_close`), else `<think>` ones."""
    texts = dict(table.terminals)
    return texts.get("think_open", "<think>"), texts.get("think_close", "</think>")


@dataclasses.dataclass(frozen=True, slots=True)
class Model:
    """A checkpoint resolved: its table, its prompt behaviour and its generation-prompt tail."""

    model_id: str         # as given to for_model
    hf_id: str            # the registry's spelling of the checkpoint
    slug: str             # the checkpoint group
    format: str           # the table name
    behaviour: str        # one of BEHAVIOURS
    opener: str | None    # the turn opener override, None = the table's own
    prompt_tail: str      # the end of the generation prompt, turn opener included
    thought_tail: str     # the same without the turn opener

    def table(self):
        """The `symphony.format.Format` to parse this checkpoint's output with."""
        return _table(self.format, self.opener)

    def start(self, tools=None, undeclared="call"):
        """A new parser already fed `prompt_tail` as its Prompt, and the events that feed gave
        (a `ReasoningStart` when the generation prompt leaves the output inside a thought).
        `undeclared`: `symphony.parser`'s."""
        parser = Engine(self.table().compile(), tools, undeclared=undeclared)
        events = parser.feed(Prompt(self.prompt_tail))
        return parser, events

    def parser(self, tools=None, undeclared="call"):
        """A new parser already fed `prompt_tail`. The events of that Prompt feed are not
        returned: use `start()` where a leading `ReasoningStart` matters."""
        return self.start(tools, undeclared)[0]


def _normalise(text):
    return text.strip().casefold()


def _name(hf_id):
    return hf_id.rsplit("/", 1)[-1]


def _index():
    """Lookup keys (case-folded) to (group, checkpoint id): full ids; names and slugs."""
    by_id, by_name = {}, {}

    def add(index, key, group, hf_id):
        known = index.setdefault(key, (group, hf_id))
        if known[0] is not group:
            raise ValueError(f"model key {key!r} is in groups {known[0].slug} and {group.slug}")

    for group in GROUPS:
        _format_table(group.table)              # every row names a table that exists
        if group.thinking_table is not None:
            _format_table(group.thinking_table)
        for hf_id in group.ids:
            add(by_id, _normalise(hf_id), group, hf_id)
            add(by_name, _normalise(_name(hf_id)), group, hf_id)
        add(by_name, _normalise(group.slug), group, group.ids[0])
    return by_id, by_name


_BY_ID, _BY_NAME = _index()
_HF_CACHE_DIR = re.compile(r"^models--(.+?)--(.+)$")
# One trailing word of a re-published copy's name that says how its weights are stored, not what
# model they are: quantisation schemes and precisions, weight-file formats, and the publishers'
# tags for them (Qwen3-8B-FP8, Qwen3-32B-AWQ, Qwen3-8B-GPTQ-Int4, Qwen3-8B-MLX-4bit,
# Qwen3-8B-unsloth-bnb-4bit, Qwen3-8B-quantized.w4a16, GLM-4.6-FP8-dynamic). Such a copy has
# the original's chat template, so it writes what the original writes.
_WEIGHTS_SUFFIX = re.compile(
    r"[-_.](?:fp8|fp4|nvfp4|mxfp4|int2|int3|int4|int8|awq|gptq|gguf|mlx|bnb|exl2|exl3|hqq|"
    r"dynamic|static|block|quantized|quant|unsloth|w\d+a\d+|\d+bit|bf16|fp16|f16|fp32|"
    r"q\d(?:_k)?(?:_[sml])?|q\d_\d)$")
_MOST_WEIGHTS_WORDS = 6


def _lookup(model_id):
    key = _normalise(model_id)
    if key in _BY_ID:
        return _BY_ID[key]
    parts = [part for part in re.split(r"[\\/]+", key) if part]
    for part in reversed(parts):                 # a Hugging Face cache dir names org and model
        cached = _HF_CACHE_DIR.match(part)
        if cached:
            found = _BY_ID.get(f"{cached[1]}/{cached[2]}") or _by_name(cached[2])
            if found is not None:
                return found
    return _by_name(parts[-1]) if parts else None     # no org, or a local path ending in the name


def _by_name(name):
    """The entry of a checkpoint name, or of a quantised copy's: its weights' words dropped (at
    most a few: no copy's name has more, and a long run of them costs a pass each)."""
    for _ in range(_MOST_WEIGHTS_WORDS):
        if name in _BY_NAME:
            return _BY_NAME[name]
        shorter = _WEIGHTS_SUFFIX.sub("", name)
        if shorter == name:
            return None
        name = shorter
    return _BY_NAME.get(name)


def _closest(model_id, n=5):
    """Known ids near an unknown one: names it extends or that extend it (a quantised or
    renamed copy, a dropped suffix), then difflib's closest spellings."""
    key = _normalise(model_id).rstrip("/\\")
    name = re.split(r"[\\/]", key)[-1]
    spellings = {}
    for hf_id in known_models():
        spellings.setdefault(hf_id.casefold(), hf_id)
        spellings.setdefault(_name(hf_id).casefold(), hf_id)
    found = [hf_id for hf_id in known_models() if len(name) >= 4 and (
        name.startswith(_name(hf_id).casefold()) or _name(hf_id).casefold().startswith(name))]
    found.sort(key=lambda hf_id: abs(len(_name(hf_id)) - len(name)))
    for probe in (key, name):
        for match in difflib.get_close_matches(probe, list(spellings), n=n, cutoff=0.6):
            found.append(spellings[match])
    return list(dict.fromkeys(found))[:n]


def for_model(model_id, chat_template_kwargs=None):
    """The `Model` for a Hugging Face id (any case; the org may be left out; a local path ending
    in the model's name works too, and so does a quantised or re-packed copy whose name is the
    model's followed by words of how its weights are stored: `-FP8`, `-AWQ`, `-GPTQ-Int4`,
    `-MLX-4bit`, `-GGUF`...; its `hf_id` is then the original's). `chat_template_kwargs` are the
    request's (only the template's thinking switch matters: `enable_thinking`, or DeepSeek
    V3.1's and V3.2's `thinking`, MiniMax M3's `thinking_mode`, K2-Horizon's `reasoning_effort`;
    Granite 3.2/3.3's `thinking` picks the table too). Unknown ids raise KeyError naming the
    closest known ids."""
    if not isinstance(model_id, str):
        raise TypeError(f"model_id: expected str, got {type(model_id).__name__}")
    if chat_template_kwargs is not None and not hasattr(chat_template_kwargs, "get"):
        raise TypeError("chat_template_kwargs: expected a mapping or None, "
                        f"got {type(chat_template_kwargs).__name__}")
    found = _lookup(model_id)
    if found is None:
        close = _closest(model_id)
        hint = (f"closest known: {', '.join(close)}" if close
                else "see symphony.models.known_models()")
        raise KeyError(f"no model {model_id!r} in the registry; {hint}")
    group, hf_id = found
    name = group.table
    if group.thinking_table is not None and not _thinking_off(chat_template_kwargs, group.switch):
        name = group.thinking_table
    table = _table(name, group.opener)
    if group.tails is None:
        tail = thought_tail(group.behaviour, chat_template_kwargs, *thought_markers(table),
                            switch=group.switch)
    elif isinstance(group.tails, ByValue):
        tail = group.tails.tail(chat_template_kwargs)
    else:
        tail = group.tails[_thinking_off(chat_template_kwargs, group.switch)]
    return Model(model_id=model_id, hf_id=hf_id, slug=group.slug, format=name,
                 behaviour=group.behaviour, opener=group.opener, prompt_tail=group.head + tail,
                 thought_tail=tail)


def known_models():
    """Every checkpoint id in the registry, sorted."""
    return sorted(hf_id for group in GROUPS for hf_id in group.ids)


def models_for_format(name):
    """The checkpoint ids parsed with the table `name` (or one of its aliases), sorted."""
    _format_table(name)                          # KeyError naming the known tables
    name = _TABLE_ALIASES.get(name, name)
    return sorted(hf_id for group in GROUPS if name in (group.table, group.thinking_table) for hf_id in group.ids)
