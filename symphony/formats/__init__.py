"""The format tables, one module per family, and what is built from the families' declarations
(`FAMILY` in each module, symphony.formats.family): the tables by name, their aliases (the
engines' parser names among them), the model registry's checkpoint groups, the replay probes,
the bench profiles and the family table. Also the table a checkpoint's response_template
describes (from_response_template).

A family is a module here that declares `FAMILY`: the modules are found, not listed, so a new
family is its module (and its tests) alone."""
import importlib
import pkgutil

from symphony.syntax import CallSyntax

from symphony.formats.response_template import from_response_template  # noqa: F401  (vLLM's hf, beam)


def _family_modules():
    """The modules of this package that declare a family, by name."""
    for found in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if found.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{found.name}")
        if hasattr(module, "FAMILY"):
            yield module


FAMILIES = tuple(module.FAMILY for module in _family_modules())


def collect(families, part, what):
    """One mapping of every family's `part`; ValueError where two families name the same key."""
    found = {}
    for family in families:
        for key, value in getattr(family, part).items():
            if key in found:
                raise ValueError(f"{what} {key!r} is declared twice")
            found[key] = value
    return found


TABLES = collect(FAMILIES, "tables", "table")
VLLM_PARSERS = collect(FAMILIES, "vllm", "vLLM parser")
SGLANG_DETECTORS = collect(FAMILIES, "sglang", "SGLang detector")
GROUPS = tuple(group for family in FAMILIES for group in family.checkpoints)
PROBES = {table: probes for family in FAMILIES for table, probes in family.replay.probes.items()}
UNRECORDED_PROBES = {slug: names for family in FAMILIES for slug, names in family.replay.unrecorded.items()}
REWRITTEN_ARGUMENTS = {table: why for family in FAMILIES
                       for table, why in family.replay.rewritten_arguments.items()}
SORTED_ARGUMENTS = tuple(table for family in FAMILIES for table in family.replay.sorted_arguments)
BENCH_PROFILES = collect(FAMILIES, "bench", "bench profile of slug")


def aliases(families):
    """Every other name of a table: the families' own aliases, then each engine parser name that
    is no table's name. A name the two engines give different tables (`muse`: vLLM's Muse Spark,
    SGLang's Muse Glimmer) is no alias; each engine's map keeps it."""
    tables = collect(families, "tables", "table")
    found = collect(families, "aliases", "format alias")
    engine, ambiguous = {}, set()
    for part in ("vllm", "sglang"):
        for name, table in collect(families, part, "engine parser").items():
            if engine.setdefault(name, table) != table:
                ambiguous.add(name)
    for name in ambiguous:
        del engine[name]
    for name, table in engine.items():
        if name not in tables and found.setdefault(name, table) != table:
            raise ValueError(f"format alias {name!r} is {found[name]!r} and, as an engine's parser, {table!r}")
    return found


ALIASES = aliases(FAMILIES)


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


def syntax_table():
    """The call syntaxes in Markdown (docs/families.md): each kind, what a call looks like, and the
    tables that write it, in the families' order; then the tables with no calls.
    `python3 -m symphony.formats --syntaxes` prints it."""
    by_kind = {kind: [] for kind in CallSyntax.SHAPES}
    no_calls = []
    for name, fmt in TABLES.items():
        (no_calls if fmt.syntax is None else by_kind[fmt.syntax.kind]).append(f"`{name}`")
    lines = ["| syntax | what a call looks like | tables |", "|---|---|---|"]
    lines += [f"| `{kind}` | {shape} | {', '.join(by_kind[kind])} |" for kind, shape in CallSyntax.SHAPES.items()]
    lines.append("| `forced`, `required` | the bare JSON of a constrained output | `symphony.constrained(...)` |")
    return "\n".join(lines) + f"\n\n{' and '.join(no_calls)} have no calls."


def family_table():
    """The family table in Markdown (README, docs): a row per declared row, its tables and their
    aliases, how they write calls, their checkpoints, and the engines' parser names that read
    them. `python3 -m symphony.formats` prints it."""
    def names_of(mapping, tables):
        found = sorted(name for name, table in mapping.items() if table in tables)
        return ", ".join(f"`{name}`" for name in found) or "—"

    lines = ["| table | calls written as | checkpoints | vLLM `--tool-call-parser` | SGLang `--tool-call-parser` |",
             "|---|---|---|---|---|"]
    for family in FAMILIES:
        for row in family.rows:
            shown = ", ".join(f"`{name}`" for name in row.tables)
            also = sorted(alias for alias, table in family.aliases.items() if table in row.tables)
            if also:
                shown += " (also " + ", ".join(f"`{alias}`" for alias in also) + ")"
            lines.append(f"| {shown} | {row.calls} | {row.checkpoints} | {names_of(VLLM_PARSERS, row.tables)} | "
                         f"{names_of(SGLANG_DETECTORS, row.tables)} |")
    return "\n".join(lines)
