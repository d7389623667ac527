"""What a family module declares. Each module of symphony.formats ends with one `Family`: its
tables, the other names they answer to, the engines' parser names that read them, the
checkpoints whose output they parse (each group with how its generation prompt leaves the
output), how its recorded fixtures are judged (replay probes), the bench profile of its fixture
slugs, and its rows of the family table. Nothing about a family is written anywhere else:
symphony.formats builds the table registry, the engine-name aliases, the model registry's groups,
the CLI's format list and the family table from these declarations.
"""
from collections import namedtuple
import dataclasses

# How a checkpoint's generation prompt leaves the thought (fixtures README, "The prompt each
# case needs"). `off` below is the request turning the template's thinking off.
OPENS_THOUGHT = "opens_thought"                 # off: O\n\nC\n\n ; else O\n
ALWAYS_OPENS_THOUGHT = "always_opens_thought"   # O\n, whatever the request says
MODEL_WRITES_THOUGHT = "model_writes_thought"   # off: O\n\nC\n\n ; else nothing
NO_THOUGHT = "no_thought"                       # nothing
BEHAVIOURS = (OPENS_THOUGHT, ALWAYS_OPENS_THOUGHT, MODEL_WRITES_THOUGHT, NO_THOUGHT)
ENABLE_THINKING = (("enable_thinking",), True)   # (the kwargs the template reads, its default)

# Generation-prompt heads several families' templates share: the assistant turn opener exactly
# as each writes it (a family's own head is in its module).
CHATML = "<|im_start|>assistant\n"
DEEPSEEK = "<｜Assistant｜>"
LLAMA3 = "<|start_header_id|>assistant<|end_header_id|>\n\n"
MINIMAX = "]~b]ai\n"
ASSISTANT_TAG = "<|assistant|>"                  # GLM, K-EXAONE, Phi-4, Zephyr
GRANITE_HEAD = "<|start_of_role|>assistant<|end_of_role|>"

# The policy probes of the recorded fixtures (SPEC §9.3, fixtures README "listed").
REASONING_PROBE = "reasoning-with-marker-text"
FENCE_PROBE = "content-with-marker-in-code-fence"


class ByValue(namedtuple("ByValue", "kwarg tails otherwise")):
    """The thought part of a generation prompt chosen by the value of one of the template's
    kwargs (`tails`: value to tail; `otherwise` for any other value or none): MiniMax M3's
    `thinking_mode`, K2-Horizon's `reasoning_effort`."""

    def tail(self, chat_template_kwargs):
        value = chat_template_kwargs.get(self.kwarg) if chat_template_kwargs else None
        return self.tails.get(value, self.otherwise) if isinstance(value, str) else self.otherwise


Checkpoints = namedtuple("Checkpoints", "slug table behaviour head opener ids tails switch thinking_table")
Checkpoints.__doc__ = "A checkpoint group of the model registry (built with `checkpoints`)."


def checkpoints(slug, table, behaviour, head, opener, *ids, tails=None, switch=ENABLE_THINKING, thinking_table=None):
    """A checkpoint group: its slug, its table, how its generation prompt leaves the thought (one
    of BEHAVIOURS), the prompt's head (the turn opener as its template writes it), a turn-opener
    override for the table (None: the table's own), then the checkpoint ids (the group's own
    first, then its siblings).

    `tails` = (thinking, not thinking) spells the thought part of the generation prompt where the
    template writes it otherwise than `models.thought_tail` derives (or a `ByValue` where a kwarg's
    value picks it), and `switch` is (the kwargs its template turns thinking on or off by, their
    default): most read `enable_thinking`, on unless given False. `thinking_table` is the table of
    what the model writes when the switch is on, where that is markup the group's table does not
    read (Granite 3.2/3.3: the switch only adds a system prompt asking for a thought)."""
    if behaviour not in BEHAVIOURS:
        raise ValueError(f"checkpoints {slug}: unknown behaviour {behaviour!r}")
    return Checkpoints(slug, table, behaviour, head, opener, ids, tails, switch, thinking_table)


@dataclasses.dataclass(frozen=True)
class Row:
    """A row of the family table (README, docs): its tables, how they write calls, and the
    checkpoints they read, in words. The engines' parser names and the aliases come from the
    declaration."""
    tables: tuple
    calls: str
    checkpoints: str


@dataclasses.dataclass(frozen=True)
class Replay:
    """How the family's recorded fixtures are judged (symphony.verify, SPEC §9.3).

    `probes`: per table, the policy probes its reading differs from the reference on (case name
    -> (calls, finish reason)); `unrecorded`: per fixture slug, the listed probes its fixtures do
    not record; `rewritten_arguments`: per table, why its template rewrites a call's arguments
    (compared as JSON values); `sorted_arguments`: tables whose template sorts a call's members
    (a case differing only in member order is listed)."""
    probes: dict = dataclasses.field(default_factory=dict)
    unrecorded: dict = dataclasses.field(default_factory=dict)
    rewritten_arguments: dict = dataclasses.field(default_factory=dict)
    sorted_arguments: tuple = ()


@dataclasses.dataclass(frozen=True)
class Family:
    """Everything symphony knows of one model family.

    `tables`: name -> Format; `aliases`: other names of a table (`qwen2.5`); `vllm` and `sglang`:
    the engines' `--tool-call-parser` names -> the table that reads the same family (also format
    aliases where they are no table's name); `checkpoints`: the registry's groups; `rows`: the
    family table's rows; `replay`: how its fixtures are judged; `bench`: per fixture slug, the
    incumbents' configuration bench/peers/harness.py runs them with."""
    tables: dict
    rows: tuple
    aliases: dict = dataclasses.field(default_factory=dict)
    vllm: dict = dataclasses.field(default_factory=dict)
    sglang: dict = dataclasses.field(default_factory=dict)
    checkpoints: tuple = ()
    replay: Replay = Replay()
    bench: dict = dataclasses.field(default_factory=dict)

    def __post_init__(self):
        shown = [name for row in self.rows for name in row.tables]
        if sorted(shown) != sorted(self.tables):
            raise ValueError(f"family of {', '.join(self.tables)}: its rows show {', '.join(shown)}")
        for kind, names in (("alias", self.aliases), ("vLLM parser", self.vllm), ("SGLang detector", self.sglang)):
            for name, table in names.items():
                if table not in self.tables:
                    raise ValueError(f"{kind} {name!r} names {table!r}, no table of its family")
        for group in self.checkpoints:
            if group.table not in self.tables:
                raise ValueError(f"checkpoints {group.slug}: table {group.table!r} is no table of its family")
