"""The families' declarations (symphony.formats.family) and what is built from them: vLLM's and
SGLang's parser names are format aliases of the table that reads their family, they agree where
both engines use a name, a conflicting or dangling name is refused, every table is shown in one
row of the family table, and the README carries that table as `python3 -m symphony.formats`
prints it."""
import dataclasses
import os

import pytest

import symphony
from symphony.formats import (ALIASES, FAMILIES, GROUPS, SGLANG_DETECTORS, TABLES, VLLM_PARSERS, aliases, family_table,
                              syntax_table, table)
from symphony.formats.family import Family, Row

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
FAMILIES_PAGE = os.path.join(ROOT, "docs", "families.md")


@pytest.mark.parametrize("names", [VLLM_PARSERS, SGLANG_DETECTORS], ids=["vllm", "sglang"])
def test_every_engine_name_is_its_tables_format(names):
    for name, target in names.items():
        if VLLM_PARSERS.get(name, target) != SGLANG_DETECTORS.get(name, target):
            assert name not in ALIASES, name            # the engines disagree: no alias
        else:
            assert table(name) is TABLES[target], name


def test_a_name_that_is_a_table_stays_that_table():
    assert "kimi_k2" not in ALIASES and table("kimi_k2") is TABLES["kimi_k2"]
    assert table("hermes") is TABLES["qwen2_5"] and table("glm45") is TABLES["ling"]
    text = '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>'
    assert symphony.parse("hermes", text) == symphony.parse("qwen2_5", text)


def test_conflicts_and_dangling_names_are_refused():
    qwen3 = next(f for f in FAMILIES if "qwen3" in f.tables)
    qwen2_5 = next(f for f in FAMILIES if "qwen2_5" in f.tables)
    # a name vLLM and SGLang give different tables is no alias
    assert "granite4" not in aliases([qwen2_5, dataclasses.replace(qwen3, sglang={"granite4": "qwen3"})])
    assert "granite4" in aliases([qwen2_5, qwen3])
    with pytest.raises(ValueError, match="engine parser 'hermes' is declared twice"):
        aliases([qwen2_5, dataclasses.replace(qwen3, vllm={"hermes": "qwen3"})])
    with pytest.raises(ValueError, match="'hermes' names 'no_such_table', no table of its family"):
        dataclasses.replace(qwen3, vllm={"hermes": "no_such_table"})
    with pytest.raises(ValueError, match="table 'qwen3' is declared twice"):
        aliases([qwen3, qwen3])
    with pytest.raises(ValueError, match="its rows show qwen3"):
        Family(tables=qwen3.tables, rows=(Row(("qwen3",), "", ""),))


def test_every_table_in_one_row_and_every_group_on_its_familys_table():
    shown = [name for family in FAMILIES for row in family.rows for name in row.tables]
    assert sorted(shown) == sorted(TABLES) == symphony.formats()
    for group in GROUPS:
        family = next(f for f in FAMILIES if group in f.checkpoints)
        assert group.table in family.tables


def test_the_readme_shows_the_family_table():
    with open(README, encoding="utf-8") as f:
        assert family_table() in f.read(), "README's family table is stale: python3 -m symphony.formats prints it"


def test_the_docs_show_the_syntax_table():
    with open(FAMILIES_PAGE, encoding="utf-8") as f:
        assert syntax_table() in f.read(), \
            "docs/families.md's syntax table is stale: python3 -m symphony.formats --syntaxes prints it"
