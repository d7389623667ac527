"""symphony.formats.engine_names: vLLM's and SGLang's parser names are format aliases of the table
that reads their family, they agree where both engines use a name, and a conflicting or dangling
name is refused."""
import pytest

import symphony
from symphony.formats import ALIASES, TABLES, engine_names, table


@pytest.mark.parametrize("names", [engine_names.VLLM_PARSERS, engine_names.SGLANG_DETECTORS], ids=["vllm", "sglang"])
def test_every_engine_name_is_its_tables_format(names):
    for name, target in names.items():
        assert table(name) is TABLES[target], name


def test_a_name_that_is_a_table_stays_that_table():
    assert "kimi_k2" not in ALIASES and table("kimi_k2") is TABLES["kimi_k2"]
    assert table("hermes") is TABLES["qwen2_5"] and table("glm45") is TABLES["ling"]
    text = '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>'
    assert symphony.parse("hermes", text) == symphony.parse("qwen2_5", text)


def test_conflicts_and_dangling_names_are_refused(monkeypatch):
    monkeypatch.setitem(engine_names.SGLANG_DETECTORS, "hermes", "qwen3")
    with pytest.raises(ValueError, match="'hermes' is 'qwen2_5' and 'qwen3'"):
        engine_names.aliases(TABLES)
    monkeypatch.setitem(engine_names.SGLANG_DETECTORS, "hermes", "no_such_table")
    with pytest.raises(ValueError, match="names no table"):
        engine_names.aliases(TABLES)
