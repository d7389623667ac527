"""The README's table of families says what the code does: every table has one row, and each
row's vLLM and SGLang parser names are the ones symphony.formats.engine_names maps to its
tables (and its other names are its aliases), so a user coming from an engine flag finds the
right table."""
import os
import re

import symphony
from symphony.formats import ALIASES
from symphony.formats.engine_names import SGLANG_DETECTORS, VLLM_PARSERS

README = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")
HEADER = "| table | calls written as | checkpoints | vLLM `--tool-call-parser` | SGLang `--tool-call-parser` |"


def family_rows():
    with open(README, encoding="utf-8") as f:
        lines = f.read().split("\n")
    at = lines.index(HEADER) + 2
    rows = []
    while at < len(lines) and lines[at].startswith("| `"):
        cells = [c.strip() for c in lines[at].strip().strip("|").split(" | ")]
        assert len(cells) == 5, lines[at]
        rows.append(cells)
        at += 1
    return rows


def names(cell):
    return set() if cell == "—" else set(re.findall(r"`([^`]+)`", cell))


def test_every_table_has_one_row():
    listed = [t for cells in family_rows() for t in re.findall(r"`([a-z0-9_]+)`", cells[0].split("(also")[0])]
    assert sorted(listed) == sorted(symphony.formats())


def test_each_row_names_the_engines_parsers_of_its_tables():
    for cells in family_rows():
        tables = set(re.findall(r"`([a-z0-9_]+)`", cells[0].split("(also")[0]))
        assert names(cells[3]) == {n for n, t in VLLM_PARSERS.items() if t in tables}, cells[0]
        assert names(cells[4]) == {n for n, t in SGLANG_DETECTORS.items() if t in tables}, cells[0]
        for alias in names(cells[0].split("(also")[1]) if "(also" in cells[0] else ():
            assert ALIASES[alias] in tables, alias
