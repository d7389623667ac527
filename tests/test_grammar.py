"""The guided-decoding grammars (SPEC §8): the API, each table's payload against its
golden (tests/data/grammar/<table>.json), bad tool schemas, every output drawn from a grammar read
back by its table's parser as the calls it spells (tests/grammar_sampler.py), and the xgrammar
acceptance check over the fixtures
(tests/grammar_acceptance.py), in process where xgrammar imports, else through the Python named
by SYMPHONY_XGRAMMAR_PYTHON (CI: a venv with xgrammar), else skipped.

Regenerate the goldens (then review the diff against SPEC §8's shapes):

    python3 -m tests.test_grammar
"""
import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

import symphony
from symphony import tool_choice
from symphony.adapt.fold import fold
from symphony.events import Malformed
from symphony.formats import TABLES
from tests import grammar_sampler, tiers
from tests.corpus import roles
from tests.grammar_acceptance import TOOLS, VARIANTS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDENS = os.path.join(ROOT, "tests", "data", "grammar")

def golden(name):
    """Every tool in the plain payload; the flags' variants with the first tool only (small)."""
    table = TABLES[name]
    return {variant: symphony.grammar(table, TOOLS if not flags else TOOLS[:1], **flags)
            for variant, flags in VARIANTS.items()}


def constrained_golden():
    return {"required": symphony.grammar(None, TOOLS, tool_choice="required"),
            "forced": symphony.grammar(None, TOOLS, tool_choice={"type": "function",
                                                                 "function": {"name": "get_weather"}})}


def _golden_path(name):
    return os.path.join(GOLDENS, name + ".json")


@pytest.mark.parametrize("name", sorted(TABLES))
def test_payload_matches_its_golden(name):
    # a new table has no golden yet: write it with the command above and review it
    assert os.path.exists(_golden_path(name)), f"no golden for {name}: run `python3 -m tests.test_grammar`"
    with open(_golden_path(name), encoding="utf-8") as f:
        assert golden(name) == json.load(f), "regenerate with `python3 -m tests.test_grammar` and review the diff"


def test_constrained_payloads_match_their_golden():
    with open(_golden_path("constrained"), encoding="utf-8") as f:
        assert constrained_golden() == json.load(f)


# --- the API ----------------------------------------------------------------------------------

def test_every_payload_is_a_structural_tag_or_none():
    for name, table in TABLES.items():
        for flags in VARIANTS.values():
            payload = symphony.grammar(table, TOOLS, **flags)
            assert payload is None or (payload["type"] == "structural_tag" and "format" in payload), name


def test_none_where_spec_says_so():
    assert symphony.grammar("qwen3", []) is None
    assert symphony.grammar("qwen3", None) is None
    assert symphony.grammar("qwen3", [{"type": "function", "function": {"name": ""}}]) is None
    for name in ("plain", "xlam", "olmo3", "lfm2_5", "minimax_m3", "apertus", "hunyuan_a13b", "gemma4", "inkling",
                 "muse_glimmer", "muse_spark"):
        assert symphony.grammar(name, TOOLS) is None, name
    assert symphony.grammar(None, TOOLS, tool_choice={"type": "function", "function": {"name": "nope"}}) is None


def test_every_way_to_name_the_table_gives_the_same_payload():
    want = symphony.grammar("qwen3", TOOLS)
    assert want is not None
    assert symphony.grammar(TABLES["qwen3"], TOOLS) == want
    assert symphony.grammar(TABLES["qwen3"], TOOLS) == want
    assert symphony.grammar(TABLES["qwen3"].compile(), TOOLS) == want
    assert symphony.grammar("Qwen/Qwen3-8B", TOOLS) == want                  # through for_model
    assert symphony.grammar("qwen2.5", TOOLS) == symphony.grammar("qwen2_5", TOOLS)   # an alias
    with pytest.raises(KeyError):
        symphony.grammar("no-such-table-or-model", TOOLS)
    with pytest.raises(TypeError):
        symphony.grammar(42, TOOLS)


def test_constrained_tables_give_the_tool_choice_payloads():
    required = symphony.grammar(None, TOOLS, tool_choice="required")
    assert symphony.grammar(symphony.constrained(None).table, TOOLS) == required
    forced = symphony.grammar(symphony.constrained("get_weather").table, TOOLS)
    assert forced == {"type": "structural_tag",
                      "format": {"type": "json_schema", "json_schema": TOOLS[0]["function"]["parameters"]}}
    names = [item["properties"]["name"]["const"] for item in required["format"]["json_schema"]["items"]["anyOf"]]
    assert names == ["get_weather", "save_note", "ping"]


def test_tools_in_each_apis_shape_give_one_payload():
    # Anthropic's {name, input_schema} and MCP's {name, inputSchema} declare what OpenAI's
    # {"type": "function", "function": {name, parameters}} does
    anthropic = [{"name": t["function"]["name"], "input_schema": t["function"].get("parameters")} for t in TOOLS]
    mcp = [{"name": t["function"]["name"], "inputSchema": t["function"].get("parameters")} for t in TOOLS]
    for name in ("qwen3", "qwen3_tagged", "glm"):
        want = symphony.grammar(name, TOOLS)
        assert symphony.grammar(name, anthropic) == want and symphony.grammar(name, mcp) == want
    forced = {"type": "tool", "name": "get_weather"}
    assert symphony.grammar(None, anthropic, tool_choice=forced) == \
        symphony.grammar(None, TOOLS, tool_choice={"type": "function", "function": {"name": "get_weather"}})


def test_each_caller_gets_its_own_payload():
    first = symphony.grammar("glm", TOOLS)
    first["format"]["mutated"] = True
    assert "mutated" not in symphony.grammar("glm", TOOLS)["format"]


def test_a_table_built_elsewhere_gets_a_grammar_from_its_rows():
    # a table no family module knows, with markers of its own: derived from the rows alone
    table = (symphony.Format("mine")
             .terminal("open", "<<calls>>").terminal("close", "<</calls>>")
             .terminal("call", "<<call>>").terminal("call_end", "<</call>>")
             .state("content", symphony.Emits.CONTENT).state("calls", symphony.Emits.WRAPPER)
             .state("call", symphony.Emits.ARGUMENTS)
             .transition("content", "open", "calls").transition("calls", "call", "call")
             .transition("call", "call_end", "calls").transition("calls", "close", "content")
             .calls(symphony.CallSyntax.json()))
    payload = symphony.grammar(table, TOOLS[:1])
    assert payload["format"]["triggers"] == ["<<calls>>"]
    block = payload["format"]["tags"][0]
    assert (block["begin"], block["end"]) == ("<<calls>>", "<</calls>>")


# --- bad schemas --------------------------------------------------------------------------------

WITH_GRAMMAR = [name for name in sorted(TABLES) if symphony.grammar(TABLES[name], TOOLS) is not None]
CYCLE = {"type": "object"}
CYCLE["properties"] = {"self": CYCLE}

# A parameters schema no JSON Schema reader takes, and where in it (a JSON pointer) the grammar
# says so. The parser reads every one of them (it ignores what it cannot use).
BAD_SCHEMAS = [
    ({"type": "object", "properties": {"a": {"type": "string"}}, "required": 5}, "/required"),
    ({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", 3]}, "/required/1"),
    ({"type": "object", "properties": {"a": 5}}, "/properties/a"),
    ({"type": "object", "properties": {"a": None}}, "/properties/a"),
    ({"type": "object", "properties": {"a": {"type": "string", "enum": {"x", "y"}}}}, "/properties/a/enum"),
    ({"type": "object", "properties": {1: {"type": "string"}}}, "/properties"),
    ({"type": "object", "properties": {"a": {"type": "object", "properties": {(1, 2): {}}}}},
     "/properties/a/properties"),
    ({"type": "object", "properties": ["a"]}, "/properties"),
    ({"type": "object", "properties": {"a": {"type": 7}}}, "/properties/a/type"),
    ({"type": "object", "properties": {"a": {"type": ["string", None]}}}, "/properties/a/type/1"),
    ({"type": "object", "properties": {"a": {"type": "array", "items": 3}}}, "/properties/a/items"),
    ({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, "x"]}}}, "/properties/a/anyOf/1"),
    ({"type": "object", "properties": {"a": {"anyOf": {"type": "string"}}}}, "/properties/a/anyOf"),
    ({"type": "object", "properties": {"a": {"type": "string", "default": b"x"}}}, "/properties/a/default"),
    ({"type": "object", "properties": {"a": {"type": "number", "maximum": float("inf")}}}, "/properties/a/maximum"),
    ({"type": "object", "properties": {"a/b~c": {"enum": {1}}}}, "/properties/a~1b~0c/enum"),
    (CYCLE, "/properties/self"),
]


@pytest.mark.parametrize("schema, path", BAD_SCHEMAS, ids=[path for _, path in BAD_SCHEMAS])
def test_a_bad_schema_is_a_value_error_naming_the_tool_and_where(schema, path):
    tools = [{"type": "function", "function": {"name": "good", "parameters": {"type": "object"}}},
             {"type": "function", "function": {"name": "bad_tool", "parameters": schema}}]
    symphony.parse("qwen3", '<tool_call>\n{"name": "bad_tool", "arguments": {"a": "x"}}\n</tool_call>', tools)
    anthropic = [{"name": t["function"]["name"], "input_schema": t["function"]["parameters"]} for t in tools]
    for name in WITH_GRAMMAR:
        for given, flags in ((tools, {}), (anthropic, {"reasoning_open": True, "at_least_one": True})):
            with pytest.raises(ValueError) as raised:
                symphony.grammar(TABLES[name], given, **flags)
            assert "'bad_tool'" in str(raised.value) and f"at {path}:" in str(raised.value), (name, str(raised.value))
    for choice in ("required", {"type": "function", "function": {"name": "bad_tool"}}):
        with pytest.raises(ValueError, match="'bad_tool'"):
            symphony.grammar(None, tools, tool_choice=choice)


def test_what_the_parser_ignores_the_grammar_ignores():
    # parameters that are no object (the parser reads the tool as taking none), tools without a name
    for parameters in (5, "x", [1], None):
        tools = [{"type": "function", "function": {"name": "f", "parameters": parameters}}, {"function": 3}, 7]
        for name in WITH_GRAMMAR:
            assert symphony.grammar(TABLES[name], tools) == symphony.grammar(TABLES[name], [{"type": "function",
                                                                         "function": {"name": "f"}}]), name


# --- what the grammar admits, the parser reads as it is spelled --------------------------------

SAMPLED = WITH_GRAMMAR + ["(required)", "(forced)"]


def sampled_format(name, tools):
    """The Format drawn from: a table's, or a tool_choice's constrained one (forcing the first tool)."""
    if name == "(required)":
        return grammar_sampler.constrained_format(tool_choice.REQUIRED)
    if name == "(forced)":
        return grammar_sampler.constrained_format(tools[0]["function"]["name"])
    return TABLES[name]


def as_pairs(json_text):
    """A JSON text with every object as its [key, value] pairs in order (duplicate keys kept)."""
    return json.loads(json_text, object_pairs_hook=lambda pairs: [list(pair) for pair in pairs])


@pytest.mark.parametrize("name", SAMPLED)
def test_every_output_the_grammar_admits_is_read_as_the_calls_it_spells(name):
    # outputs drawn from the grammar (tests/grammar_sampler.py) for tool lists with every kind of
    # property, and names and keys some syntaxes cannot write: the grammar refuses such a tool
    # naming it, or the parser reads each output's calls exactly as spelled, with no Malformed byte
    draws = 300 if tiers.EXHAUSTIVE else tiers.examples(name, 40)
    for k in range(draws):
        rng = tiers.rng("grammar draws", name, k)
        tools = grammar_sampler.tool_list(rng)
        flags = {"at_least_one": rng.random() < 0.3, "reasoning_open": rng.random() < 0.3}
        fmt = sampled_format(name, tools)
        where = f"{name}, draw {k} (SYMPHONY_SEED={tiers.SEED}), flags {flags}, tools {tools}"
        try:
            drawn = grammar_sampler.draw(fmt, tools, rng, **flags)
        except ValueError as refused:
            named = grammar_sampler.hostile(tools)
            assert any(repr(n) in str(refused) for n in named), f"{where}: refused {refused}, naming no hostile name"
            continue
        assert drawn is not None, where
        text, spelled, _ = drawn
        prompt = roles(fmt).think_open if flags["reasoning_open"] and name in TABLES else None
        events = symphony.parse(fmt.compile(), text, tools, prompt=prompt)
        read = [(c.name, as_pairs(c.arguments or "{}")) for c in fold(events).calls.values()]
        want = [(c.name, [[key, as_pairs(value)] for key, value in c.pairs]) for c in spelled]
        assert read == want, f"{where}\n  output {text!r}"
        assert not [e for e in events if type(e) is Malformed], f"{where}\n  output {text!r}"


@pytest.mark.parametrize("name, key", [("qwen3_tagged", "a>b"), ("minimax_m2", 'q"k'), ("deepseek_v4", 'k">'),
                                       ("glm", ""), ("kimi_k3", "<|sep|>"), ("qwen3", "</tool_call>"),
                                       ("minimax_m2", " k"), ("deepseek_v4", "k\t"), ("qwen3_tagged", "k\n"),
                                       ("minicpm5", " k"), ("kimi_k3", "\nk")])
def test_a_key_the_syntax_cannot_write_is_refused_naming_it(name, key):
    tools = [{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {"ok": {"type": "string"}, key: {"type": "string"}}}}}]
    with pytest.raises(ValueError, match=re.escape(f"the key {key!r} cannot be written")):
        symphony.grammar(TABLES[name], tools)


@pytest.mark.parametrize("name, function", [("glm", "a b"), ("qwen3_tagged", "x>y"), ("step3", 'q"n'),
                                            ("gpt_oss", "get weather"), ("deepseek_v3_1", " f"),
                                            ("minimax_m2", "f "), ("deepseek_v3_2", " f"), ("minicpm5", "f\n"),
                                            ("kimi_k3", " f"), ("step3p5", "\nf")])
def test_a_name_the_syntax_cannot_write_is_refused_naming_it(name, function):
    with pytest.raises(ValueError, match=re.escape(f"tool {function!r}: its name cannot be written")):
        symphony.grammar(TABLES[name], [{"type": "function", "function": {"name": function}}])


def test_kimi_k3_writes_its_regions_and_no_text_between():
    # Kimi K3's message holds no content outside its regions (the parser marks it Malformed)
    payload = symphony.grammar(TABLES["kimi_k3"], TOOLS[:1])["format"]
    assert "triggered_tags" not in json.dumps(payload)
    begins = {t["begin"] for t in payload["elements"][1]["content"]["elements"][0]["elements"]}
    assert begins == {"<|open|>think<|sep|>", "<|open|>response<|sep|>", "<|open|>tools<|sep|>"}


# --- xgrammar ---------------------------------------------------------------------------------

FIXTURES = os.environ.get("SYMPHONY_FIXTURES", "")
XGRAMMAR_PYTHON = os.environ.get("SYMPHONY_XGRAMMAR_PYTHON", "")


@pytest.mark.skipif(not FIXTURES, reason="SYMPHONY_FIXTURES is not set")
@pytest.mark.skipif(importlib.util.find_spec("xgrammar") is None and not XGRAMMAR_PYTHON,
                    reason="xgrammar is not importable and SYMPHONY_XGRAMMAR_PYTHON is not set")
def test_xgrammar_accepts_the_fixtures_and_rejects_the_mutants():
    if importlib.util.find_spec("xgrammar") is not None:
        from tests import grammar_acceptance
        report = grammar_acceptance.check(FIXTURES)
    else:
        env = dict(os.environ, PYTHONPATH=ROOT)
        run = subprocess.run([XGRAMMAR_PYTHON, "-m", "tests.grammar_acceptance", "--json"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=900)
        assert run.returncode in (0, 1) and run.stdout, run.stderr
        report = json.loads(run.stdout)
    failures = [f for row in report.values() for f in row["failures"]]
    assert not failures, "\n".join(failures)
    with_grammar = {name: row for name, row in report.items()
                    if not row["none"] and row["cases"] and not name.startswith("(")}
    assert report["(peer cases)"]["accepted"] >= 250, report["(peer cases)"]
    assert report["(gpt_oss renderings)"]["accepted"] == report["(gpt_oss renderings)"]["cases"] > 0
    assert len(with_grammar) >= 15, sorted(with_grammar)
    assert all(row["mutants"] == 3 * row["accepted"] and row["rejected"] == row["mutants"]
               for row in with_grammar.values())


def _write_goldens():
    os.makedirs(GOLDENS, exist_ok=True)
    for name in sorted(TABLES):
        _dump(_golden_path(name), golden(name))
    _dump(_golden_path("constrained"), constrained_golden())


def _dump(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    _write_goldens()
    sys.exit(0)
