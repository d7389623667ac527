"""The format tables, one module per family, the lookup of a table by name, and the table a
checkpoint's response_template describes (from_response_template)."""
from symphony.formats import (apertus, deepseek, dots, gemma, glm, hunyuan, hy4, inkling, k2_horizon, kimi, minicpm,
                               minimax, muse, plain, pythonic, qwen2_5, qwen3, seed_oss, trinity, xlam)
from symphony.formats import (cohere, engine_names, gigachat, granite, harmony, incumbents, internlm, jamba, llama3,
                               mistral, nemotron, phi4, plamo)
from symphony.formats.response_template import from_response_template  # noqa: F401  (vLLM's hf, beam)

_FAMILIES = (apertus, deepseek, dots, gemma, glm, hunyuan, hy4, inkling, k2_horizon, kimi, minicpm, minimax, muse,
             plain, pythonic, qwen2_5, qwen3, seed_oss, xlam, cohere, granite, internlm, jamba, llama3, mistral,
             nemotron, phi4, incumbents, harmony, gigachat, plamo, trinity)

TABLES = {}
ALIASES = {}
for _family in _FAMILIES:
    TABLES.update(_family.TABLES)
    ALIASES.update(getattr(_family, "ALIASES", {}))
for _name, _table in engine_names.aliases(TABLES).items():     # vLLM's and SGLang's parser names
    if ALIASES.setdefault(_name, _table) != _table:
        raise ValueError(f"format alias {_name!r} is {ALIASES[_name]!r} and, as an engine's parser, {_table!r}")


def names():
    """The table names, sorted."""
    return sorted(TABLES)


def table(name):
    """The Format named `name` (or one of its aliases); KeyError naming the known tables."""
    if isinstance(name, str):
        found = TABLES.get(ALIASES.get(name, name))
        if found is not None:
            return found
    raise KeyError(f"no format named {name!r}; known formats: {', '.join(names())}")
