"""bench/compare.py --markdown: the ratio tables written from one run's rows, and bench/RESULTS.md's
sections, each replaced in place by its bench's next run (rows made up here; nothing is timed)."""
from bench import compare, results


def row(slug, mode, tokens, symphony, sglang=None, vllm=None):
    """A compare row: each side (parse seconds, construction seconds)."""
    r = {"slug": slug, "mode": mode, "cases": 2, "tokens": tokens, "bytes": 4 * tokens,
         "symphony": {"seconds": symphony[0], "construct_seconds": symphony[1], "agree": 2}}
    for name, side in (("sglang", sglang), ("vllm", vllm)):
        if side is not None:
            r[name] = {"seconds": side[0], "construct_seconds": side[1], "agree": 1}
    return r


ROWS = [
    row("qwen3-8b", "whole", 1_000_000, (0.1, 0.02), sglang=(1.0, 0.5), vllm=(3.0, 1.0)),
    row("qwen3-8b", "stream", 1_000_000, (0.5, 0.02), sglang=(40.0, 0.5), vllm=(30.0, 1.0)),
    row("glm-5", "whole", 1_000_000, (0.1, 0.0), sglang=(1.0, 0.0)),
    row("glm-5", "stream", 1_000_000, (0.5, 0.0), sglang=(10.0, 0.0)),
]


def test_markdown_tables():
    text = compare.markdown([("json", ROWS[:2]), ("tagged", ROWS[2:]), ("overall", ROWS)], "a test box")
    lines = text.splitlines()
    assert lines[0].startswith("One run on a test box;")
    tables = [[line for line in block.splitlines() if line.startswith("|")] for block in text.split("\n\n")]
    tables = [t for t in tables if t]
    assert len(tables) == 2
    ratios, built = tables
    assert ratios[0] == "| family (checkpoints) | symphony streamed | SGLang | vLLM | symphony whole | SGLang | vLLM |"
    assert ratios[1] == "|---|---|---|---|---|---|---|"
    # streamed: 0.5 µs/token against 40 and 30 (80×, 60×); whole: 0.1 against 1 and 3 (10.0×, 30×)
    assert ratios[2] == "| JSON (1) | 0.5 | 40 (80×) | 30 (60×) | 0.1 | 1 (10.0×) | 3 (30×) |"
    # a peer without a parser for the family: "-"
    assert ratios[3] == "| tagged and keyed (1) | 0.5 | 10 (20×) | - | 0.1 | 1 (10.0×) | - |"
    # overall: symphony's totals over both, each peer's over the slugs it parses
    assert ratios[4] == "| all (2) | 0.5 | 25 (50×) | 30 (60×) | 0.1 | 1 (10.0×) | 3 (30×) |"
    assert built[0] == "| family (checkpoints) | streamed × SGLang | × vLLM | whole × SGLang | × vLLM |"
    # with construction: (40 + 0.5) / (0.5 + 0.02) = 77.9, (30 + 1) / 0.52 = 59.6, (1.5) / 0.12 = 12.5, 4 / 0.12 = 33.3
    assert built[2] == "| JSON (1) | 78× | 60× | 12.5× | 33× |"
    assert len(built) == 5 and all(line.count("|") == 6 for line in built)
    assert all(line.count("|") == 8 for line in ratios)


def test_machine_line_names_cores_and_python():
    line = compare.machine_line()
    assert "cores" in line and "Python" in line


def test_a_peers_ratio_is_against_symphony_on_the_slugs_that_peer_parses():
    rows = [row("qwen3-8b", "whole", 1_000_000, (0.1, 0.0), sglang=(1.0, 0.0), vllm=(2.0, 0.0)),
            row("qwen3-8b", "stream", 1_000_000, (0.5, 0.0), sglang=(10.0, 0.0), vllm=(20.0, 0.0)),
            # a slug only SGLang parses, where symphony is three times as slow per token
            row("glm-5", "whole", 1_000_000, (0.3, 0.0), sglang=(3.0, 0.0)),
            row("glm-5", "stream", 1_000_000, (1.5, 0.0), sglang=(30.0, 0.0))]
    ratios = [line for line in compare.markdown([("overall", rows)], "a box").splitlines() if line.startswith("| all")]
    # symphony's own cell is over both slugs (0.2, 1.0); vLLM's ratio over qwen3-8b alone (2 / 0.1, 20 / 0.5)
    assert ratios[0] == "| all (2) | 1 | 20 (20×) | 20 (40×) | 0.2 | 2 (10.0×) | 2 (20×) |"
    assert ratios[1] == "| all (2) | 20× | 40× | 10.0× | 20× |"


def test_rounds_keep_each_sides_best_pass_and_the_first_agreement():
    from bench.peers import harness

    def run(seconds, construct, agree):
        return {"status": "ok", "whole": {"cases": 2, "tokens": 10, "bytes": 40, "seconds": seconds,
                                          "construct_seconds": construct, "agree": agree}}
    best = harness.keep_best(None, run(2.0, 0.5, 2), ("whole",))
    best = harness.keep_best(best, run(1.0, 0.7, 1), ("whole",))
    assert {k: best["whole"][k] for k in ("seconds", "construct_seconds", "agree")} == \
        {"seconds": 1.0, "construct_seconds": 0.5, "agree": 2}
    assert best["whole"]["us_per_token"] == 1e5 and best["whole"]["mb_per_s"] == 40e-6
    # a side without a parser for the slug stays so
    none = {"status": "unsupported", "reason": "no parser"}
    assert harness.keep_best(harness.keep_best(None, none, ("whole",)), none, ("whole",)) == none


def test_the_totals_keep_the_ratio_with_the_clocks_cost_left_in(capsys):
    rows = [row("qwen3-8b", "stream", 1_000_000, (0.4, 0.0), sglang=(10.0, 0.0))]
    rows[0]["symphony"]["seconds_with_clock"] = 0.5
    rows[0]["sglang"]["seconds_with_clock"] = 10.1
    totals = compare.totals_of(rows)
    assert totals[("stream", "symphony")][6] == 0.5 and totals[("stream", "sglang")][6] == 10.1
    compare.print_totals("json", rows, ["stream"])
    line = next(line for line in capsys.readouterr().out.splitlines() if "sglang" in line)
    # 10 / 0.4 with the clock taken off, 10.1 / 0.5 with it left in
    assert "25.0x faster" in line and "20.2x faster" in line


# --- bench/RESULTS.md: a section per bench, replaced in place -----------------------------------

def test_markdown_without_a_machine_starts_with_the_table():
    assert compare.markdown([("json", ROWS[:2])]).startswith("| family (checkpoints) | symphony streamed |")


def test_a_section_names_its_date_machine_and_command():
    text = results.section("compare", "Title", "| a |\n|---|\n", "python3 bench/compare.py --markdown x.md",
                           date="2026-12-05", on="a test box")
    assert text == ("<!-- bench:compare -->\n## Title\n\n"
                    "Run 2026-12-05 on a test box: `python3 bench/compare.py --markdown x.md`\n\n"
                    "| a |\n|---|\n<!-- /bench:compare -->\n")
    assert results.command("bench/cli.py", ["--outputs", "20", "--markdown", "a b.md"]) == \
        "python3 bench/cli.py --outputs 20 --markdown 'a b.md'"


def test_a_run_replaces_its_own_section_in_place_and_leaves_the_rest(tmp_path):
    path = tmp_path / "RESULTS.md"

    def write(name, body, date):
        results.write_section(name, f"{name} bench", body, f"python3 bench/{name}.py", path=str(path), date=date,
                              on="a test box")
        return path.read_text(encoding="utf-8")

    first = write("compare", "ratios of the first run", "2026-12-04")
    assert first.startswith(results.HEAD) and first.count("<!-- bench:compare -->") == 1
    write("batch", "batch figures", "2026-12-04")
    both = write("cli", "cli figures", "2026-12-04")
    # a new bench's section goes at the end, after the others
    assert both.index("bench:compare") < both.index("bench:batch") < both.index("bench:cli")
    after = write("batch", "batch figures, again\n\nwith a second paragraph", "2026-12-05")
    # replaced where it stands, not appended: one batch section, the new one; the others byte for byte
    assert after.count("<!-- bench:batch -->") == after.count("<!-- /bench:batch -->") == 1
    assert "batch figures, again\n\nwith a second paragraph" in after and "batch figures\n" not in after
    assert "Run 2026-12-05 on a test box: `python3 bench/batch.py`" in after
    head, rest = both.split("<!-- bench:batch -->")
    tail = rest.split("<!-- /bench:batch -->\n", 1)[1]
    assert after.startswith(head) and after.endswith(tail)
    # the same run again gives the same file
    assert write("batch", "batch figures, again\n\nwith a second paragraph", "2026-12-05") == after


def test_section_names_are_checked():
    for bad in ("", "Compare", "a b", "x-->"):
        try:
            results.section(bad, "t", "b", "c")
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was taken")


def test_the_checked_in_results_file_has_one_section_per_bench():
    with open(results.RESULTS, encoding="utf-8") as f:
        text = f.read()
    assert text.startswith(results.HEAD)
    names = [line[len("<!-- bench:"):-len(" -->")] for line in text.splitlines() if line.startswith("<!-- bench:")]
    assert names and len(names) == len(set(names))
    for name in names:
        assert text.count(f"<!-- /bench:{name} -->") == 1
        assert results.replace_section(text, name, results.section(name, "t", "b", "c")).count("<!-- bench:") \
            == len(names)


def test_compare_writes_its_section_of_the_results_file(tmp_path, monkeypatch, capsys):
    def run(seconds, construct):
        return {"cases": 2, "tokens": 1000, "bytes": 4000, "seconds": seconds, "construct_seconds": construct,
                "agree": 2}

    def harness(slugs, repeat, rounds, plans, deltas=False):
        side = {slug: {"status": "ok", "whole": run(1e-4, 1e-5), "stream": run(5e-4, 1e-5)} for slug in slugs}
        peer = {slug: {"status": "ok", "whole": run(1e-3, 1e-4), "stream": run(5e-2, 1e-4)} for slug in slugs}
        return {"peers": {"symphony": side, "sglang": peer}}

    monkeypatch.setattr(compare, "run_harness", harness)
    path = tmp_path / "RESULTS.md"
    path.write_text(results.HEAD + "\n<!-- bench:batch -->\nkept as it was\n<!-- /bench:batch -->\n", encoding="utf-8")
    assert compare.main(["--markdown", str(path), "qwen3-8b", "glm-5"]) == 0
    capsys.readouterr()
    text = path.read_text(encoding="utf-8")
    assert "<!-- bench:batch -->\nkept as it was\n<!-- /bench:batch -->\n" in text
    section = text.split("<!-- bench:compare -->\n", 1)[1].split("<!-- /bench:compare -->", 1)[0]
    assert "`python3 bench/compare.py --markdown " in section and "qwen3-8b glm-5`" in section
    assert "| all (2) | 0.5 | 50 (100×) | - |" in section
    compare.main(["--markdown", str(path), "--deltas", "qwen3-8b"])
    text = path.read_text(encoding="utf-8")
    assert text.count("<!-- bench:compare -->") == text.count("<!-- bench:compare-deltas -->") == 1
