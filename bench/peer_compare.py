"""symphony against the incumbents on the families they parse that have no recorded fixtures
the outputs of vLLM's own tool-parser unit tests (`../shared/peer-cases/vllm.jsonl`)
stand in for recorded outputs, and for gpt-oss the outputs `openai-harmony` renders.

    python3 bench/peer_compare.py [--repeat 3] [--rounds 3] [--markdown FILE] [vllm parser names ...]

Each vLLM parser name that symphony maps to a table (recorded.peer_cases.VLLM_TABLES) becomes
a pseudo-slug `peer-<name>`: its cases' outputs are cut into tokens (the table's markers whole,
other text four characters a token), written in the fixture format to a temporary directory, and
run through the same harness as `bench/compare.py`: vLLM's parser of that name and SGLang's
detector for the family (where it has one, `SGLANG_NAMES`) and symphony, all three in the peers
venv, taking turns per name (the best pass of each kept).
gpt-oss (vLLM's parser name `openai`) has no unit-test outputs there: its pseudo-slug
`gpt-oss-harmony` holds the outputs recorded/harmony.py renders with `openai-harmony`, cut
into their real o200k tokens (vLLM's HarmonyParser reads token ids, not text), each with the
message it was rendered from as its reference, and `gpt-oss-channel-first` those that call,
their call headers written channel first as the model writes them (the renderer writes the
recipient first, which SGLang's detector does not read). vLLM runs them as its server runs
gpt-oss (the `openai` tool and `openai_gptoss` reasoning parsers composed into its
HarmonyParser), SGLang with its `gpt-oss` tool and reasoning detectors; both read the vocabulary
the rendering wrote (TIKTOKEN_ENCODINGS_BASE, inherited by the harness).
Printed per family: µs per token streamed (one token a delta) and whole, and how many times
slower each incumbent is. Speed only for the unit-test outputs: they have no reference messages
(the tests' expectations are partial), so agreement is what tests/test_peer_cases.py measures;
for gpt-oss each side's agreement with the rendered messages is printed after the table.
--markdown FILE (bench/RESULTS.md) replaces this bench's section of that file with the same.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from bench import results  # noqa: E402
from bench.compare import PEERS_VENV  # noqa: E402
from symphony.formats import table as format_table  # noqa: E402
from symphony.models import models_for_format  # noqa: E402
from recorded.peer_cases import VLLM_FILES, VLLM_TABLES, load_jsonl  # noqa: E402

HARMONY_NAME = "openai"            # vLLM's tool parser name for gpt-oss
# slug: the variant of recorded/harmony.py's outputs it holds (None: as rendered)
HARMONY_SLUGS = {"gpt-oss-harmony": None, "gpt-oss-channel-first": "channel first"}
HARMONY_PROFILE = {
    "thinking_default": None, "markers": [],
    "vllm": {"tool": "openai", "reasoning": "openai_gptoss", "tail_on": "<|start|>assistant", "harmony": True},
    "sglang": {"tool": "gpt-oss", "reasoning": "gpt-oss", "force": True},
}

# SGLang's detector for the family of a vLLM parser name, where SGLang has one (its `hunyuan`
# reads Hy3/Hy4's keyed block, not Hunyuan-A13B's list)
SGLANG_NAMES = {
    "hermes": "hermes", "qwen25_coder": "qwen25", "mistral": "mistral", "llama3_json": "llama3",
    "pythonic": "pythonic", "llama4_pythonic": "pythonic", "kimi_k2": "kimi_k2", "deepseek_v32": "deepseekv32",
    "deepseek_v4": "deepseekv4", "deepseek_v3": "deepseekv3", "deepseek_v31": "deepseekv31", "step3": "step3",
    "internlm": "interns1", "cohere_command4": "cohere_command4", "glm45": "glm45",
    "glm47": "glm47", "qwen3_coder": "qwen3_coder", "minimax_m2": "minimax-m2", "minimax_m3": "minimax-m3",
    "kimi_k3": "kimi_k3", "lfm2": "lfm2", "gemma4": "gemma4", "minicpm5": "minicpm5", "dots": "dots",
    "k2_horizon": "k2_horizon", "mimo": "mimo", "hy_v4": "hunyuan", "apertus": "apertus2509",
    "inkling": "inkling", "step3p5": "step3p5",
}
PIECE = 4


def _tokens(text, markers):
    """(pieces, ids): the table's markers one token each, other text PIECE characters a token."""
    pattern = re.compile("|".join(re.escape(m) for m in sorted(markers, key=len, reverse=True))) if markers else None
    pieces, at = [], 0
    for found in (pattern.finditer(text) if pattern else ()):
        pieces += [text[i:i + PIECE] for i in range(at, found.start(), PIECE)]
        pieces.append(found.group())
        at = found.end()
    pieces += [text[i:i + PIECE] for i in range(at, len(text), PIECE)]
    vocab = {}
    ids = [vocab.setdefault(p, 1000 + len(vocab)) for p in pieces]
    return pieces, ids


def _tools(case):
    """The case's tools, else one permissive tool per function the test expects called (else a
    placeholder): the engines parse calls only for a request that declares tools, as a real one
    that expects calls does."""
    if case.get("tools"):
        return case["tools"]
    listed = (case.get("expect") or {}).get("tool_calls")
    names = [c["name"] for c in listed if isinstance(c, dict) and isinstance(c.get("name"), str)] \
        if isinstance(listed, list) else []
    return [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}
            for name in dict.fromkeys(names or ["lookup"])]


def _reference(expect):
    content = expect.get("content")
    calls = []
    listed = expect.get("tool_calls")
    for call in listed if isinstance(listed, list) else ():
        if not isinstance(call, dict):
            continue
        arguments = call.get("arguments")
        calls.append({"function": {"name": call.get("name"),
                                   "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments)}})
    return {"content": content if isinstance(content, str) and content != "ANY" else "",
            "reasoning_content": "", "tool_calls": calls}


def pseudo_fixtures(names, directory):
    """Writes `peer-<name>.jsonl` per vLLM parser name; returns {slug: profile}."""
    by_name = {}
    for case in load_jsonl(VLLM_FILES[0]):
        if case["parser"] in names and isinstance(case.get("output"), str) and case["output"]:
            by_name.setdefault(case["parser"], []).append(case)
    profiles = {}
    for name, cases in sorted(by_name.items()):
        table = VLLM_TABLES[name]
        models = models_for_format(table)
        if not models:
            continue
        markers = [text for _, text in format_table(table).terminals]
        slug = f"peer-{name}"
        with open(os.path.join(directory, slug + ".jsonl"), "w", encoding="utf-8") as out:
            for i, case in enumerate(cases):
                pieces, ids = _tokens(case["output"], markers)
                out.write(json.dumps({
                    "id": f"{slug}/{i}", "model": models[0],
                    "request": {"messages": [{"role": "user", "content": "hi"}], "tools": _tools(case),
                                "chat_template_kwargs": {"enable_thinking": False}},
                    "reference": {"text": case["output"], "finish_reason": "stop",
                                  "message": _reference(case.get("expect") or {})},
                    "output_pieces": pieces, "output_ids": ids, "chunk_plans": {}}) + "\n")
        sglang = SGLANG_NAMES.get(name)
        profiles[slug] = {"thinking_default": None, "markers": markers,
                          "vllm": {"tool": name, "reasoning": None, "tail_on": ""},
                          "sglang": {"tool": sglang, "reasoning": None, "force": False} if sglang else None}
    return profiles


def harmony_fixtures(directory):
    """Writes a file per HARMONY_SLUGS: the outputs recorded/harmony.py renders (of that
    variant), their real o200k ids and per-token pieces, the message each was rendered from as
    the reference and one permissive tool per function it calls (else a placeholder). Returns
    {slug: profile}."""
    from recorded.harmony import encoding, expected, outputs, rendered
    encoding()       # writes the vocabulary and sets TIKTOKEN_ENCODINGS_BASE for the harness too
    model = models_for_format("gpt_oss")[0]
    for slug, wanted in HARMONY_SLUGS.items():
        with open(os.path.join(directory, slug + ".jsonl"), "w", encoding="utf-8") as out:
            for case, variant in outputs():
                if variant != wanted:
                    continue
                output = rendered(case.name, variant)
                content, reasoning, calls = expected(case.messages)
                tools = [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}
                         for name in dict.fromkeys([name for name, _ in calls] or ["lookup"])]
                out.write(json.dumps({
                    "id": f"{slug}/{case.name}", "model": model,
                    "request": {"messages": [{"role": "user", "content": "hi"}], "tools": tools},
                    "reference": {"text": output.text, "finish_reason": "stop", "message": {
                        "content": content or "", "reasoning_content": reasoning or "",
                        "tool_calls": [{"function": {"name": name, "arguments": json.dumps(arguments)}}
                                       for name, arguments in calls]}},
                    "output_pieces": list(output.pieces), "output_ids": list(output.ids), "chunk_plans": {}}) + "\n")
    return dict.fromkeys(HARMONY_SLUGS, HARMONY_PROFILE)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="vLLM parser names (default: every one with a table, and "
                                             f"{HARMONY_NAME!r}, gpt-oss)")
    ap.add_argument("--repeat", type=int, default=3, help="passes per round (the best kept)")
    ap.add_argument("--rounds", type=int, default=3, help="turns the sides take per name (the best kept)")
    ap.add_argument("--markdown", metavar="FILE", help="also write the tables as this bench's section of FILE "
                                                       "(bench/RESULTS.md), replacing its last run's")
    args = ap.parse_args(argv)
    names = set(args.names or [*VLLM_TABLES, HARMONY_NAME])
    python = os.path.join(PEERS_VENV, "bin", "python")
    with tempfile.TemporaryDirectory() as directory:
        profiles = pseudo_fixtures(names, directory)
        rows = {slug: f"{slug[len('peer-'):]} ({VLLM_TABLES[slug[len('peer-'):]]})" for slug in profiles}
        if HARMONY_NAME in names:
            profiles.update(harmony_fixtures(directory))
            rows.update((slug, f"{HARMONY_NAME} (gpt_oss; {slug})") for slug in HARMONY_SLUGS)
        with open(os.path.join(directory, "profiles.json"), "w", encoding="utf-8") as f:
            json.dump(profiles, f)
        out = os.path.join(directory, "peers.json")
        subprocess.run([python, os.path.join(HERE, "peers", "harness.py"), "--repeat", str(args.repeat),
                        "--rounds", str(args.rounds), "--peers", "sglang,vllm,symphony", "--no-cases",
                        "--fixtures", directory, "--profiles", f.name, "--out", out, *profiles],
                       check=True, stderr=subprocess.DEVNULL)
        with open(out, encoding="utf-8") as f:
            peers = json.load(f)["peers"]
        report = ["| vLLM parser (table) | symphony streamed | vLLM | SGLang | symphony whole | vLLM | SGLang |",
                  "|---|---|---|---|---|---|---|"]
        for slug in profiles:
            cells = []
            for mode in ("stream", "whole"):
                ours = peers["symphony"][slug][mode]["us_per_token"]
                cells.append(f"{ours:.3f}")
                for peer in ("vllm", "sglang"):
                    run = peers.get(peer, {}).get(slug, {})
                    theirs = run[mode]["us_per_token"] if run.get("status") == "ok" else None
                    cells.append("-" if theirs is None else f"{theirs:.2f} ({theirs / ours:.0f}×)")
            report.append(f"| {rows[slug]} | " + " | ".join(cells) + " |")
        for slug in HARMONY_SLUGS:
            if slug not in profiles:
                continue
            report += ["", f"{slug}: agreement with the rendered messages (whole, streamed):", ""]
            for peer in ("symphony", "vllm", "sglang"):
                run = peers.get(peer, {}).get(slug, {})
                said = [f"{run[mode]['agree']}/{run[mode]['cases']}" for mode in ("whole", "stream")] \
                    if run.get("status") == "ok" else [run.get("status", "not run"), run.get("reason", "")]
                report.append(f"- {peer}: " + ", ".join(said))
    print("\n".join(report))
    if args.markdown:
        results.write_section("peer-compare", "Families without recorded outputs, on vLLM's unit-test outputs "
                                              "(bench/peer_compare.py)",
                              "µs per token; in brackets how many times slower the incumbent is; `-`: no such "
                              "parser under that name.\n\n" + "\n".join(report),
                              results.command("bench/peer_compare.py", argv), path=args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
