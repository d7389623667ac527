"""The command line: `symphony parse` (JSONL in, one JSON line out per input line, a line that
fails for any reason reported and the run goes on; UTF-8 out whatever the locale; exit 0 / 1 some
lines failed / 2 usage) and `symphony verify` (fixture replay verdicts), run as
`python -m symphony` in a subprocess and as `symphony.cli.main([...])` in process.
"""
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys

import pytest

import symphony
from symphony import batch, cli
from symphony.cli import chunks as cli_chunks
from symphony.adapt import chat
from symphony.errors import InternalError, LifecycleError
from symphony.events import from_dict
from tests import processes

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))
EXAMPLES = os.path.join(ROOT, "examples", "qwen3.jsonl")
TOOLS = os.path.join(ROOT, "examples", "qwen3-tools.json")
FIXTURES = os.environ.get("SYMPHONY_FIXTURES")
FIXTURE_SLUG = "hermes-4-14b"     # small, placed (qwen2_5), calls and the listed policy probes
OTHER_SLUG = "phi-4-mini-instruct"


def run_cli(*args, stdin=None, cwd=ROOT, env=None):
    env = dict(os.environ, **(env or {}))
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "symphony", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", cwd=cwd, env=env, timeout=120)


SUMMARY = re.compile(r"symphony: (\d+) outputs, (\d+) calls, (\d+) malformed bytes, (\d+) failed lines, "
                     r"[\d.]+ s, [\d.]+ MB/s\n\Z")


def without_summary(stderr):
    """Standard error less the summary line a parse run ends with (when there is one)."""
    found = SUMMARY.search(stderr)
    return stderr[:found.start()] if found else stderr


def summary_of(stderr):
    """(outputs, calls, malformed bytes, failed lines) the summary line says."""
    found = SUMMARY.search(stderr)
    assert found, stderr
    return tuple(int(n) for n in found.groups())


def lines_of(stdout):
    """The JSON lines of an output, split at newlines only (not splitlines: a line's raw U+2028 or
    U+0085 is text inside its strings)."""
    return [json.loads(line) for line in stdout.split("\n") if line.strip()]


def example_records():
    with open(EXAMPLES, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def tools():
    with open(TOOLS, encoding="utf-8") as f:
        return json.load(f)


def expected_choice(record, default_format="qwen3", default_tools=None):
    events = symphony.parse(record.get("format", default_format), record["text"],
                            tools=record.get("tools", default_tools), prompt=record.get("prompt"),
                            finish=record.get("finish", "stop"))
    return chat.message(events), events


@pytest.fixture
def in_process(capsys, monkeypatch):
    """main([...]) in process: (exit code, stdout lines as JSON, stderr)."""
    def run(args, stdin=None):
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = cli.main(args)
        out, err = capsys.readouterr()
        return code, lines_of(out), without_summary(err)
    return run


# --- parse -------------------------------------------------------------------------------------

def test_readme_first_command_parse_part():
    r = run_cli("parse", "--format", "qwen3", "--tools", "examples/qwen3-tools.json", "examples/qwen3.jsonl")
    assert r.returncode == 0, r.stderr
    assert without_summary(r.stderr) == ""
    records = example_records()
    got = lines_of(r.stdout)
    assert len(got) == len(records) == len(r.stdout.splitlines())
    for number, (line, record) in enumerate(zip(got, records), 1):
        choice, _ = expected_choice(record, default_tools=tools())
        assert line == {"line": number, "message": choice["message"], "finish_reason": choice["finish_reason"]}


def test_parse_contents_of_a_few_lines(in_process):
    code, got, err = in_process(["parse", "--format", "qwen3", "--tools", TOOLS, EXAMPLES])
    assert code == 0 and err == ""
    assert got[0]["message"] == {"role": "assistant", "content": "\n\nHello! How can I help?",
                                 "reasoning_content": "\nThe user greets me.\n", "tool_calls": None}
    assert got[1]["finish_reason"] == "tool_calls"
    assert got[1]["message"]["tool_calls"] == [{"id": "call_0", "type": "function", "function": {
        "name": "get_weather", "arguments": '{"city": "Paris", "unit": "celsius"}'}}]
    assert [c["id"] for c in got[2]["message"]["tool_calls"]] == ["call_0", "call_1"]
    assert got[3]["message"]["reasoning_content"] == "I could write "      # the line's own prompt
    assert got[4]["message"]["tool_calls"][0]["function"]["arguments"] == \
        '{"title": "計画", "body": "今日は晴れ 🌤️", "tags": ["a"]}'
    assert got[5]["finish_reason"] == "length"                             # the line's own finish


def test_parse_writes_raw_unicode():
    r = run_cli("parse", "--format", "qwen3", EXAMPLES)
    assert r.returncode == 0
    assert "計画" in r.stdout and "🌤️" in r.stdout and "\\u" not in r.stdout


def test_events_are_wire_events(in_process):
    code, got, err = in_process(["parse", "--events", "--format", "qwen3", EXAMPLES])
    assert code == 0 and err == ""
    records = example_records()
    assert [line["line"] for line in got] == list(range(1, len(records) + 1))
    for line, record in zip(got, records):
        assert set(line) == {"line", "events"}
        events = [from_dict(d) for d in line["events"]]
        _, want = expected_choice(record)
        assert events == want
        assert [e.to_dict() for e in events] == line["events"]
        assert "".join(symphony.events.bytes_of(e) for e in events) == record["text"]


def test_events_in_a_subprocess():
    r = run_cli("parse", "--events", "--format", "qwen2.5", "-",
                stdin=json.dumps({"text": '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>'}) + "\n")
    assert r.returncode == 0, r.stderr
    [line] = lines_of(r.stdout)
    kinds = [d["kind"] for d in line["events"]]
    assert kinds == ["dropped", "tool_call_start", "tool_call_arguments", "tool_call_end", "dropped", "finish"]
    assert line["events"][-1] == {"kind": "finish", "reason": "stop", "tool_calls": 1, "reasoning_tokens": 0}


def test_per_line_fields(in_process):
    lines = [
        {"text": "<think>a</think>b"},                                                   # --format: qwen3
        {"text": "<think>a</think>b", "format": "qwen2.5"},                              # a line's format wins
        {"text": "<think>a</think>b", "format": "plain"},
        {"text": "a</think>b", "prompt": "<|im_start|>assistant\n<think>\n"},
        {"text": '<tool_call>{"name": "f", "arguments": {}}</tool_call>', "finish": "length"},
        {"text": '<tool_call>{"name": "f", "arguments": {}}</tool_call>', "finish": "content_filter"},
        {"text": "x", "tools": [{"type": "function", "function": {"name": "f"}}]},
        {"text": '[{"name": "f", "arguments": {"a": 1}}]', "format": "xlam"},
        {"text": "", "format": "plain"},
    ]
    code, got, err = in_process(["parse", "--format", "qwen3", "-"],
                                stdin="".join(json.dumps(line) + "\n" for line in lines))
    assert code == 0, err
    assert len(got) == len(lines)
    for n, (line, record) in enumerate(zip(got, lines), 1):
        choice, _ = expected_choice(record)
        assert line == {"line": n, "message": choice["message"], "finish_reason": choice["finish_reason"]}
    assert got[0]["message"]["reasoning_content"] == "a" and got[0]["message"]["content"] == "b"
    assert got[1]["message"]["content"] == "<think>a</think>b" and got[1]["message"]["reasoning_content"] is None
    assert got[2]["message"]["content"] == "<think>a</think>b"
    assert got[3]["message"]["reasoning_content"] == "a"
    assert got[4]["finish_reason"] == "length" and got[5]["finish_reason"] == "content_filter"
    assert got[7]["message"]["tool_calls"][0]["function"] == {"name": "f", "arguments": '{"a": 1}'}
    assert got[8]["message"]["content"] is None


def test_no_format_at_all_needs_a_line_format(in_process):
    code, got, err = in_process(["parse", "-"], stdin='{"text": "a", "format": "plain"}\n{"text": "b"}\n')
    assert code == 1
    assert got[0]["message"]["content"] == "a"
    assert got[1]["line"] == 2 and set(got[1]) == {"line", "error"} and "format" in got[1]["error"]
    assert "line 2" in err


BAD_LINES = [
    ("not json", "not JSON"),
    ('{"text": "a"', "not JSON"),
    ("[1, 2]", "object"),
    ('"text"', "object"),
    ("null", "object"),
    ('{"prompt": "x"}', "text"),
    ('{"text": 1}', "text"),
    ('{"text": null}', "text"),
    ('{"text": "a", "format": "nope"}', "nope"),
    ('{"text": "a", "format": 3}', "format"),
    ('{"text": "a", "finish": 3}', "finish"),
    ('{"text": "a", "prompt": 3}', "prompt"),
    ('{"text": "a", "tools": {}}', "tools"),
]


@pytest.mark.parametrize("bad,says", BAD_LINES, ids=[b for b, _ in BAD_LINES])
def test_a_bad_line_is_reported_and_the_run_goes_on(in_process, bad, says):
    stdin = '{"text": "first"}\n' + bad + '\n\n{"text": "last"}\n'
    code, got, err = in_process(["parse", "--format", "qwen3", "-"], stdin=stdin)
    assert code == 1
    assert [line["line"] for line in got] == [1, 2, 4]      # a blank line is skipped, not numbered away
    assert got[0]["message"]["content"] == "first" and got[2]["message"]["content"] == "last"
    assert set(got[1]) == {"line", "error"} and says in got[1]["error"]
    assert "line 2" in err and says in err
    assert err.count("\n") == 1


def test_bad_lines_in_a_subprocess():
    stdin = 'not json\n{"text": "ok"}\n{"text": "a", "format": "zzz"}\n{"nope": 1}\n'
    r = run_cli("parse", "--format", "plain", "-", stdin=stdin)
    assert r.returncode == 1
    got = lines_of(r.stdout)
    assert [line["line"] for line in got] == [1, 2, 3, 4]
    assert "error" in got[0] and "error" in got[2] and "error" in got[3]
    assert got[1]["message"]["content"] == "ok"
    for n in (1, 3, 4):
        assert f"line {n}" in r.stderr
    assert "line 2" not in r.stderr
    assert "known formats" in got[2]["error"] and "plain" in got[2]["error"]
    assert "Traceback" not in r.stderr


def test_no_format_anywhere_in_a_subprocess():
    r = run_cli("parse", "-", stdin='{"text": "a"}\n')
    assert r.returncode == 1
    [line] = lines_of(r.stdout)
    assert line["line"] == 1 and "format" in line["error"]
    assert "line 1" in r.stderr


def test_invalid_utf8_line_is_a_bad_line(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"text": "a"}\n\xff\xfe\n{"text": "b"}\n')
    r = run_cli("parse", "--format", "plain", str(path))
    got = lines_of(r.stdout)
    assert "Traceback" not in r.stderr
    assert r.returncode == 1
    assert got[0]["message"]["content"] == "a" and got[-1]["message"]["content"] == "b"


def test_a_line_with_a_lone_surrogate_is_a_bad_line():
    r = run_cli("parse", "--format", "plain", "-", stdin='{"text": "a\\ud800"}\n{"text": "b"}\n')
    got = lines_of(r.stdout)
    assert r.returncode == 1
    assert got[0]["line"] == 1 and "error" in got[0]
    assert got[1]["message"]["content"] == "b"
    assert "Traceback" not in r.stderr


def test_stdin_input():
    stdin = "".join(json.dumps(r) + "\n" for r in example_records())
    r = run_cli("parse", "--format", "qwen3", "--tools", TOOLS, "-", stdin=stdin)
    assert r.returncode == 0, r.stderr
    from_file = run_cli("parse", "--format", "qwen3", "--tools", TOOLS, EXAMPLES)
    assert r.stdout == from_file.stdout


def test_unknown_format_option_exits_with_a_message(in_process):
    code, got, err = in_process(["parse", "--format", "zz", EXAMPLES])
    assert code == 2 and got == []
    assert "zz" in err and "qwen3" in err
    r = run_cli("parse", "--format", "zz", "examples/qwen3.jsonl")
    assert r.returncode == 2 and r.stdout == ""
    assert "zz" in r.stderr and "known formats" in r.stderr and "Traceback" not in r.stderr


def test_the_alias_is_a_format_option(in_process):
    code, got, _ = in_process(["parse", "--format", "qwen2.5", "-"], stdin='{"text": "<think>x</think>"}\n')
    assert code == 0 and got[0]["message"]["content"] == "<think>x</think>"


def test_bad_tools_file_exits_with_a_message(tmp_path):
    bad = tmp_path / "tools.json"
    bad.write_text("{not json")
    r = run_cli("parse", "--format", "qwen3", "--tools", str(bad), EXAMPLES)
    assert r.returncode == 2 and "tools" in r.stderr and "Traceback" not in r.stderr
    r = run_cli("parse", "--format", "qwen3", "--tools", str(tmp_path / "absent.json"), EXAMPLES)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    obj = tmp_path / "obj.json"
    obj.write_text('{"tools": [{"type": "function", "function": {"name": "f"}}]}')
    assert run_cli("parse", "--format", "qwen3", "--tools", str(obj), EXAMPLES).returncode == 0
    scalar = tmp_path / "scalar.json"
    scalar.write_text("3")
    r = run_cli("parse", "--format", "qwen3", "--tools", str(scalar), EXAMPLES)
    assert r.returncode == 2 and "list" in r.stderr


def test_missing_input_file_exits_with_a_message(tmp_path):
    r = run_cli("parse", "--format", "qwen3", str(tmp_path / "absent.jsonl"))
    assert r.returncode == 2
    assert "absent.jsonl" in r.stderr and "Traceback" not in r.stderr


def deep_json(depth):
    return "[" * depth + "]" * depth


def test_a_deeply_nested_line_is_that_lines_error(in_process):
    lines = ['{"text": "first"}', '{"text": "a", "x": ' + deep_json(1000) + '}', deep_json(100_000),
             '{"text": "last"}']
    code, got, err = in_process(["parse", "--format", "plain", "-"], stdin="\n".join(lines) + "\n")
    assert code == 1
    assert [line["line"] for line in got] == [1, 2, 3, 4]
    assert got[0]["message"]["content"] == "first" and got[3]["message"]["content"] == "last"
    for line in got[1:3]:
        assert set(line) == {"line", "error"} and "nested too deeply" in line["error"]
    assert "line 2" in err and "line 3" in err and err.count("\n") == 2


def test_a_deeply_nested_line_in_a_subprocess():
    stdin = '{"text": "a", "x": ' + deep_json(1000) + '}\n{"text": "b"}\n'
    r = run_cli("parse", "--format", "plain", "-", stdin=stdin)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    got = lines_of(r.stdout)
    assert "nested too deeply" in got[0]["error"] and got[1]["message"]["content"] == "b"


LINE_FAILURES = [RecursionError("maximum recursion depth exceeded"), MemoryError(), ValueError("bad value"),
                 TypeError("bad type"), KeyError("k"), InternalError("a state it should not reach"),
                 LifecycleError("a delta after end")]


def core_failing_on(monkeypatch, word, failure):
    """batch.fold_summaries as the core's loop is, but an output holding `word` fails with `failure`
    (the core catches any Exception of one output and hands it to on_error; its row, or the
    `into` rows' failed one, is what on_error says). Outputs go through the real loop one by one:
    a failing one with no table, which fails in the core, its on_error saying `failure`."""
    real = batch.fold_summaries

    def shim(tables, tools, prompts, texts, finishes, spans=None, offsets=None, on_error=None, into=None,
             undeclared="call"):
        assert spans is None and offsets is None
        rows = []
        for i, text in enumerate(texts):
            if word in text:
                if on_error is None:
                    raise failure
                got = real([None], [None], [None], [text], [finishes[i]], None, None,
                           lambda _: on_error(failure), into, undeclared)
            else:
                got = real(tables[i:i + 1], tools[i:i + 1], prompts[i:i + 1], [text], finishes[i:i + 1], None, None,
                           on_error, into, undeclared)
            if into is None:
                rows += got
        return rows if into is None else into
    monkeypatch.setattr(batch, "fold_summaries", shim)


@pytest.mark.parametrize("failure", LINE_FAILURES, ids=[type(f).__name__ for f in LINE_FAILURES])
@pytest.mark.parametrize("where", ["messages", "events"])
def test_any_failure_of_a_line_is_that_lines_error(in_process, monkeypatch, failure, where):
    """Whatever one line raises, from the core's message loop or from the parse whose events
    `--events` writes, that line gets the error record and the next line is parsed."""
    flags = []
    if where == "events":
        real = batch.Engine

        class Failing:
            def __init__(self, *args, **options):
                self.engine = real(*args, **options)

            def parse(self, output, *rest):
                if "boom" in output:
                    raise failure
                return self.engine.parse(output, *rest)
        monkeypatch.setattr(batch, "Engine", Failing)
        flags = ["--events"]
    else:
        core_failing_on(monkeypatch, "boom", failure)
    stdin = '{"text": "first"}\n{"text": "boom"}\n{"text": "last"}\n'
    code, got, err = in_process(["parse", "--format", "plain", *flags, "-"], stdin=stdin)
    assert code == 1
    assert [line["line"] for line in got] == [1, 2, 3]
    if where == "events":
        assert got[0]["events"][0]["text"] == "first" and got[2]["events"][0]["text"] == "last"
    else:
        assert got[0]["message"]["content"] == "first" and got[2]["message"]["content"] == "last"
    assert set(got[1]) == {"line", "error"}
    said = got[1]["error"]
    if isinstance(failure, (InternalError, LifecycleError)):
        assert said == str(failure)
    else:
        assert said.startswith(type(failure).__name__) and str(failure) in said
    assert err == f"symphony: -: line 2: {said}\n"


def test_a_lone_surrogate_in_an_error_is_written_as_its_json_escape(in_process, monkeypatch):
    core_failing_on(monkeypatch, "a", ValueError("cannot take a\ud800"))
    code, got, err = in_process(["parse", "--format", "plain", "-"], stdin='{"text": "a\\ud800"}\n')
    assert code == 1 and got == [{"line": 1, "error": "ValueError: cannot take a\ud800"}]
    assert "line 1" in err


def test_a_deeply_nested_tools_file_is_a_usage_error(tmp_path, in_process):
    deep = tmp_path / "tools.json"
    deep.write_text(deep_json(100_000))
    code, got, err = in_process(["parse", "--format", "plain", "--tools", str(deep), EXAMPLES])
    assert code == 2 and got == []
    assert err == f"symphony: cannot read tools from {deep}: nested too deeply\n"
    r = run_cli("parse", "--format", "plain", "--tools", str(deep), EXAMPLES)
    assert r.returncode == 2 and r.stdout == "" and "nested too deeply" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"},
                                 {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
                                 {"PYTHONIOENCODING": "latin-1"}], ids=["ascii", "C-locale", "latin-1"])
def test_output_is_utf8_whatever_the_locale(env):
    stdin = '{"text": "今日は晴れ 🌤️"}\n{"text": "a", "format": "計画"}\n{"text": "b"}\n'
    r = run_cli("parse", "--format", "plain", "-", stdin=stdin,            # stdout read as UTF-8
                env=dict({"PYTHONIOENCODING": ""}, **env))
    assert "Traceback" not in r.stderr and r.returncode == 1
    got = lines_of(r.stdout)
    assert got[0]["message"]["content"] == "今日は晴れ 🌤️" and "\\u" not in r.stdout
    assert "計画" in got[1]["error"] and got[2]["message"]["content"] == "b"
    assert "line 2" in r.stderr and "\\u8a08" in r.stderr     # the locale's encoding, escaped where it cannot


def test_exit_codes(tmp_path, in_process):
    ok = '{"text": "a"}\n'
    assert in_process(["parse", "--format", "plain", "-"], stdin=ok)[0] == 0
    assert in_process(["parse", "--format", "plain", "-"], stdin=ok + "nope\n")[0] == 1
    usage = [
        ["parse"],                                                         # argparse's own
        ["parse", "--format", "plain", "--nope", "-"],
        ["nope"],
        ["parse", "--format", "plain", str(tmp_path / "absent.jsonl")],     # unreadable input
        ["parse", "--format", "plain", str(tmp_path)],
        ["parse", "--format", "plain", "--tools", str(tmp_path / "absent.json"), "-"],
        ["parse", "--format", "nope", "-"],
        ["parse", "--model", "nope/x", "-"],
        ["parse", "--format", "plain", "--model", "Qwen/Qwen3-8B", "-"],
        ["verify", str(tmp_path / "absent")],
        ["verify", str(tmp_path), "--slug", "no-such-slug"],
    ]
    for args in usage:
        code, got, err = in_process(args, stdin=ok)
        assert (code, got) == (2, []), args
        assert err.startswith(("symphony: ", "usage: ")) and "Traceback" not in err, args
    assert cli.main(["parse", "--help"]) == 0


CLI = "import sys\nfrom symphony.cli import main\nif __name__ == '__main__':\n    sys.exit(main(sys.argv[1:]))\n"


def test_a_sigterm_mid_run_leaves_no_worker_and_no_half_output(tmp_path):
    """`symphony parse --workers 2` killed while its worker has chunks and it waits for more input:
    it dies of the signal, its worker exits with it, and the output it was writing is gone."""
    shm, tmp, out = tmp_path / "shm", tmp_path / "tmp", tmp_path / "out"
    for directory in (shm, tmp, out):
        directory.mkdir()
    line = json.dumps({"text": '<think>a</think>b <tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>'})
    run = processes.python(CLI, "parse", "--format", "qwen3", "--workers", "2", "--quiet", "-", "--output",
                           str(out / "messages.jsonl"), shm=shm, tmp=tmp, stdin=subprocess.PIPE,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    with processes.ended(run):
        run.stdin.write((line + "\n").encode() * (3 * cli.CHUNK + 1))
        run.stdin.flush()                 # (and left open: the run waits for more)
        assert processes.wait_until(lambda: any(f.stat().st_size for f in out.iterdir()), 60), "nothing written"
        status, started, gone = processes.terminate(run)
    assert started and status == -signal.SIGTERM
    assert gone, "a worker outlived the run"
    assert processes.symphony_files(shm, tmp) == [] and list(out.iterdir()) == []      # no half output either


def one_error_line(err):
    """The one line a run that broke off says on stderr (after its summary, when it has one)."""
    lines = [line for line in err.splitlines() if not SUMMARY.match(line + "\n")]
    assert len(lines) == 1 and lines[0].startswith("symphony: ") and "Traceback" not in err, err
    return lines[0]


def test_parquet_from_standard_input(in_process, monkeypatch):
    with open(PARQUET, "rb") as f:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(f.read())))
    code, got, err = in_process(["parse", "--format", "qwen3", "--tools", TOOLS, "--input-format", "parquet", "-"])
    assert (code, err) == (0, "")
    assert got == in_process(["parse", "--format", "qwen3", "--tools", TOOLS, PARQUET])[1] and len(got) == 7


@pytest.mark.parametrize("input_format", ["jsonl", "parquet"])
def test_standard_input_closed_is_a_usage_error(in_process, monkeypatch, input_format):
    monkeypatch.setattr(sys, "stdin", None)          # what Python makes of a closed descriptor 0
    code, got, err = in_process(["parse", "--format", "qwen3", "--input-format", input_format, "-"])
    assert (code, got, err) == (2, [], "symphony: cannot read standard input: it is closed\n")


def corrupt_parquet(path, rows=8192, bad_group=2):
    """A Parquet file of `rows` outputs in row groups of 2,048 whose `bad_group`'s page header is
    garbage, its footer intact: the rows before that group read, the rest do not."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.table({"text": [f"<think>r{i}</think>answer {i}" for i in range(rows)]})
    pq.write_table(table, path, row_group_size=2048, compression="none")
    column = pq.ParquetFile(path).metadata.row_group(bad_group).column(0)
    start = column.dictionary_page_offset or column.data_page_offset
    with open(path, "r+b") as f:
        f.seek(start)
        f.write(b"\xff" * 40)
    return [{"text": t} for t in table.column("text").to_pylist()]


@pytest.mark.parametrize("output", ["jsonl", "parquet"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_corrupt_parquet_page_writes_what_was_parsed_and_exits_3(tmp_path, in_process, workers, output):
    records = corrupt_parquet(tmp_path / "in.parquet")
    out = tmp_path / f"messages.{output}"
    code, got, err = in_process(["parse", "--format", "qwen3", "--workers", workers, str(tmp_path / "in.parquet"),
                                 "--output", str(out)])
    assert code == cli.EXIT_BROKE_OFF == 3
    assert one_error_line(err).startswith(f"symphony: cannot read {tmp_path / 'in.parquet'} after line 4096: ")
    if output == "jsonl":
        written = lines_of(out.read_text(encoding="utf-8"))
        assert [w["line"] for w in written] == list(range(1, 4097))
        assert [w["message"]["content"] for w in written] == [expected_choice(r)[0]["message"]["content"]
                                                               for r in records[:4096]]
    else:
        import pyarrow.parquet as pq
        assert pq.read_table(out).column("line").to_pylist() == list(range(1, 4097))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["in.parquet", out.name])


def test_standard_output_on_a_full_disk_is_one_line_and_exit_3():
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "symphony", "parse", "--format", "qwen3", EXAMPLES], stdout=full,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                           timeout=120)
    assert r.returncode == 3
    assert one_error_line(r.stderr) == "symphony: cannot write standard output: No space left on device"


def incompressible_lines(n, width=3000):
    """JSON lines whose texts neither JSON nor Parquet's compression make much smaller."""
    import random
    draw = random.Random(7)
    return "".join(json.dumps({"text": "".join(draw.choice("abcdefghijklmnopqrstuvwxyz0123456789 ") for _ in
                                               range(width))}) + "\n" for _ in range(n))


@pytest.mark.parametrize("output", ["jsonl", "parquet"])
@pytest.mark.parametrize("full", ["a file size limit", "a full tmpfs"])
def test_output_that_cannot_be_written_leaves_no_half_file(tmp_path, output, full):
    """--output on a file system that fills up (a private 1 MB tmpfs) or past the process's file
    size limit (EFBIG): one line, exit 3, no file at --output and no partial one beside it; a file
    that was there before is as it was."""
    source = tmp_path / "in.jsonl"
    source.write_text(incompressible_lines(1000), encoding="utf-8")      # 3 MB
    target = tmp_path / "out"
    target.mkdir()
    wrap, limit = [], None
    if full == "a full tmpfs":
        wrap = processes.private_tmpfs(target, "1m")
        if wrap is None:
            pytest.skip("no private tmpfs here (unshare --mount needs CAP_SYS_ADMIN)")
    else:
        import resource

        def limit():
            resource.setrlimit(resource.RLIMIT_FSIZE, (512 * 1024, resource.RLIM_INFINITY))
    for before in (None, b"what was there\n"):
        args = ["parse", "--format", "qwen3", "--quiet", str(source), "--output", str(target / f"m.{output}")]
        script = CLI if before is None else f"open({str(target / f'm.{output}')!r}, 'wb').write({before!r})\n" + CLI
        r = subprocess.run([*wrap, sys.executable, "-c", script, *args], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                           preexec_fn=limit, timeout=120)
        assert r.returncode == 3, r.stderr
        assert one_error_line(r.stderr).startswith(f"symphony: cannot write {target / f'm.{output}'}: ")
        if full == "a file size limit":          # (a tmpfs goes with its namespace)
            assert [p.name for p in target.iterdir()] == ([] if before is None else [f"m.{output}"])
            if before is not None:
                assert (target / f"m.{output}").read_bytes() == before


def test_usage_errors():
    assert run_cli().returncode == 2
    assert run_cli("parse").returncode == 2
    assert run_cli("nope").returncode == 2
    r = run_cli("parse", "--help")
    assert r.returncode == 0 and "--format" in r.stdout and "--events" in r.stdout


# --- verify ------------------------------------------------------------------------------------

needs_fixtures = pytest.mark.skipif(not FIXTURES, reason="SYMPHONY_FIXTURES is not set (the bellwether "
                                    "fixture directory, e.g. ../shared/fixtures/bellwether)")


def fixture_copy(tmp_path, *slugs):
    for slug in slugs:
        source = os.path.join(FIXTURES, slug + ".jsonl")
        if not os.path.exists(source):
            pytest.skip(f"no {slug}.jsonl in {FIXTURES}")
        shutil.copy(source, tmp_path / (slug + ".jsonl"))
    return tmp_path


def table_rows(stdout):
    """The verdict table's rows: slug -> its columns."""
    lines = stdout.splitlines()
    assert lines[0].split()[:3] == ["slug", "table", "cases"]
    assert set(lines[1]) == {"-"}
    rows = {}
    for line in lines[2:]:
        if not line.strip():
            break
        cols = line.split()
        rows[cols[0]] = cols[1:]
    return rows


@needs_fixtures
def test_verify_prints_the_verdict_table(tmp_path):
    directory = fixture_copy(tmp_path, FIXTURE_SLUG)
    r = run_cli("verify", str(directory))
    assert r.returncode == 0, r.stdout + r.stderr
    header = r.stdout.splitlines()[0].split()
    assert header == ["slug", "table", "cases", "bitwise", "separators", "values", "listed", "allowed",
                      "DIFFERS", "replays", "failed"]
    rows = table_rows(r.stdout)
    assert list(rows) == [FIXTURE_SLUG]
    row = dict(zip(header[1:], rows[FIXTURE_SLUG]))
    with open(directory / (FIXTURE_SLUG + ".jsonl"), encoding="utf-8") as f:
        n_cases = sum(1 for line in f if line.strip())
    assert row["table"] == "qwen2_5" and int(row["cases"]) == n_cases
    assert row["DIFFERS"] == "0" and row["failed"] == "0"
    assert sum(int(row[c]) for c in ("bitwise", "separators", "values", "listed", "allowed")) == n_cases
    assert int(row["replays"]) > n_cases
    assert "DIFFERS" not in r.stdout.split("\n", 1)[1]


@needs_fixtures
def test_verify_in_process(tmp_path, capsys):
    directory = fixture_copy(tmp_path, FIXTURE_SLUG)
    assert cli.main(["verify", str(directory)]) == 0
    assert FIXTURE_SLUG in capsys.readouterr().out


@needs_fixtures
def test_verify_a_doctored_fixture_differs(tmp_path):
    directory = fixture_copy(tmp_path, FIXTURE_SLUG)
    path = directory / (FIXTURE_SLUG + ".jsonl")
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    doctored = None
    for case in cases:
        calls = case["reference"]["message"].get("tool_calls")
        if calls:
            arguments = json.loads(calls[0]["function"]["arguments"] or "{}")
            arguments["doctored"] = True
            calls[0]["function"]["arguments"] = json.dumps(arguments, ensure_ascii=False)
            doctored = case["id"]
            break
    assert doctored is not None
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    r = run_cli("verify", str(directory))
    assert r.returncode == 1
    assert "DIFFERS" in r.stdout
    row = dict(zip(r.stdout.splitlines()[0].split()[1:], table_rows(r.stdout)[FIXTURE_SLUG]))
    assert row["DIFFERS"] == "1" and row["failed"] == "1"
    assert f"{doctored}: DIFFERS" in r.stdout          # the failing case is listed with its details
    assert '"doctored": true' in r.stdout


@needs_fixtures
def test_verify_slug_and_verbose(tmp_path):
    directory = fixture_copy(tmp_path, FIXTURE_SLUG, OTHER_SLUG)
    both = run_cli("verify", str(directory))
    assert both.returncode == 0, both.stdout + both.stderr
    assert list(table_rows(both.stdout)) == sorted([FIXTURE_SLUG, OTHER_SLUG])
    one = run_cli("verify", str(directory), "--slug", OTHER_SLUG)
    assert one.returncode == 0
    assert list(table_rows(one.stdout)) == [OTHER_SLUG]
    two = run_cli("verify", str(directory), "--slug", OTHER_SLUG, "--slug", FIXTURE_SLUG)
    assert list(table_rows(two.stdout)) == sorted([FIXTURE_SLUG, OTHER_SLUG])
    # --verbose lists every case's verdict under the table
    assert f"{OTHER_SLUG}/parse/" not in one.stdout
    verbose = run_cli("verify", str(directory), "--slug", OTHER_SLUG, "--verbose")
    assert verbose.returncode == 0
    with open(directory / (OTHER_SLUG + ".jsonl"), encoding="utf-8") as f:
        ids = [json.loads(line)["id"] for line in f if line.strip()]
    for case_id in ids:
        assert any(line.startswith(case_id + ": ") for line in verbose.stdout.splitlines()), case_id
    # an unknown slug exits with a message naming it
    absent = run_cli("verify", str(directory), "--slug", "no-such-slug")
    assert absent.returncode == 2 and "no-such-slug" in absent.stderr and "Traceback" not in absent.stderr


def test_verify_a_missing_directory_exits_with_a_message(tmp_path):
    r = run_cli("verify", str(tmp_path / "absent"))
    assert r.returncode == 2 and "absent" in r.stderr and "Traceback" not in r.stderr


def test_verify_an_empty_directory(tmp_path):
    r = run_cli("verify", str(tmp_path))
    assert r.returncode == 0
    assert r.stdout.splitlines()[0].split()[0] == "slug"


# --- models ------------------------------------------------------------------------------------

def test_model_option_brings_the_table_and_the_prompt_tail(in_process):
    # Qwen3-4B-Thinking-2507's template opens the thought: the output starts inside it
    stdin = '{"text": "The user asks.\\n</think>\\n\\nHi"}\n'
    code, got, _ = in_process(["parse", "--model", "Qwen/Qwen3-4B-Thinking-2507", "-"], stdin=stdin)
    assert code == 0
    assert got[0]["message"]["reasoning_content"] == "The user asks.\n"
    assert got[0]["message"]["content"] == "\n\nHi"


def test_a_line_model_and_its_template_kwargs_win(in_process):
    lines = [
        {"text": "<think>\nplan\n</think>\n\nHi", "model": "Qwen/Qwen3-8B"},
        {"text": "Hi", "model": "LGAI-EXAONE/K-EXAONE-236B-A23B", "chat_template_kwargs": {"enable_thinking": False}},
        {"text": "Hi", "model": "LGAI-EXAONE/K-EXAONE-236B-A23B"},
        {"text": "Hi", "model": "LGAI-EXAONE/K-EXAONE-236B-A23B", "prompt": ""},
    ]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    code, got, _ = in_process(["parse", "--format", "plain", "-"], stdin=stdin)
    assert code == 0
    assert got[0]["message"]["reasoning_content"] == "\nplan\n"
    assert (got[1]["message"]["content"], got[1]["message"]["reasoning_content"]) == ("Hi", None)
    assert (got[2]["message"]["content"], got[2]["message"]["reasoning_content"]) == (None, "Hi")
    assert (got[3]["message"]["content"], got[3]["message"]["reasoning_content"]) == ("Hi", None)


def test_model_errors(in_process):
    code, got, err = in_process(["parse", "-"], stdin='{"text": "x", "model": "nope/x"}\n')
    assert code == 1 and "no model 'nope/x'" in got[0]["error"] and "line 1" in err
    code, got, err = in_process(["parse", "--model", "Qwen/Qwen3-8B", "--format", "qwen3", "-"], stdin="")
    assert code == 2 and got == [] and "give one of --format, --model and --response-template" in err
    code, got, err = in_process(["parse", "--model", "nope/x", "-"], stdin="")
    assert code == 2 and got == [] and "no model" in err
    code, got, _ = in_process(["parse", "--model", "Qwen/Qwen3-8B", "-"],
                              stdin='{"text": "x", "chat_template_kwargs": []}\n')
    assert code == 1 and "chat_template_kwargs" in got[0]["error"]


# --- Parquet, workers, the summary and the progress bar ------------------------------------------

PARQUET = os.path.join(ROOT, "examples", "qwen3.parquet")


def readme_first_command():
    """The symphony arguments of the README's first set-up command (`pip install ... && python3 -m symphony ...`)."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        block = f.read().split("```sh\n", 1)[1].split("```", 1)[0]
    install, run = block.strip().split(" && ")
    assert install == "python3 -m pip install -e '.[arrow]'"      # Parquet needs pyarrow: the extra brings it
    words = shlex.split(run)
    assert words[:3] == ["python3", "-m", "symphony"]
    return words[3:]


def test_readme_first_command_parquet_in_jsonl_out():
    """The README's first command: the bundled Parquet file gives what its JSONL twin gives."""
    args = readme_first_command()
    assert args == ["parse", "--format", "qwen3", "--tools", "examples/qwen3-tools.json", "examples/qwen3.parquet"]
    r = run_cli(*args)
    assert r.returncode == 0, r.stderr
    want = run_cli("parse", "--format", "qwen3", "--tools", "examples/qwen3-tools.json", "examples/qwen3.jsonl")
    assert lines_of(r.stdout) == lines_of(want.stdout) and len(lines_of(r.stdout)) == len(example_records())
    assert without_summary(r.stderr) == ""
    assert summary_of(r.stderr) == summary_of(want.stderr) == (7, 6, 4, 0)


def test_the_bundled_parquet_is_what_the_script_writes(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    import runpy
    runpy.run_path(os.path.join(ROOT, "examples", "write_parquet.py"))["main"](EXAMPLES, str(tmp_path / "q.parquet"))
    assert pq.read_table(tmp_path / "q.parquet").equals(pq.read_table(PARQUET))


@pytest.mark.parametrize("workers", ["1", "2"])
def test_parquet_out_holds_the_messages(tmp_path, in_process, workers):
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "messages.parquet"
    code, got, err = in_process(["parse", "--format", "qwen3", "--tools", TOOLS, "--workers", workers,
                                 PARQUET, "--output", str(out)])
    assert code == 0 and got == [] and err == ""
    rows = pq.read_table(out).to_pylist()
    assert [row["line"] for row in rows] == list(range(1, len(example_records()) + 1))
    for row, record in zip(rows, example_records()):
        choice, _ = expected_choice(record, default_tools=tools())
        m = choice["message"]
        calls = m["tool_calls"] and [{"id": c["id"], "name": c["function"]["name"],
                                      "arguments": c["function"]["arguments"]} for c in m["tool_calls"]]
        assert (row["content"], row["reasoning_content"], row["tool_calls"], row["finish_reason"], row["error"]) == \
            (m["content"], m["reasoning_content"], calls, choice["finish_reason"], None)


def test_jsonl_out_to_a_file_and_the_format_options(tmp_path, in_process):
    out = tmp_path / "messages.txt"
    code, got, err = in_process(["parse", "--format", "qwen3", "--input-format", "jsonl", EXAMPLES,
                                 "--output", str(out), "--output-format", "jsonl"])
    assert code == 0 and got == [] and err == ""
    code, want, _ = in_process(["parse", "--format", "qwen3", EXAMPLES])
    assert lines_of(out.read_text(encoding="utf-8")) == want
    renamed = tmp_path / "outputs.bin"
    shutil.copy(PARQUET, renamed)
    code, got, _ = in_process(["parse", "--format", "qwen3", "--input-format", "parquet", str(renamed)])
    assert code == 0 and got == want


def test_failed_parquet_rows_are_named_and_counted(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    source = tmp_path / "in.parquet"
    pq.write_table(pa.table({"text": ["a", "b", None, "d"], "format": [None, "nope", None, "qwen3"],
                             "tools": [None, None, None, '[{"type": "function", "function": {"name": "f"}}]']}),
                   source)
    r = run_cli("parse", "--format", "plain", str(source))
    assert r.returncode == 1
    got = lines_of(r.stdout)
    assert [line["line"] for line in got] == [1, 2, 3, 4]
    assert got[0]["message"]["content"] == "a" and got[3]["message"]["content"] == "d"
    assert "nope" in got[1]["error"] and "text" in got[2]["error"]
    assert "line 2" in r.stderr and "line 3" in r.stderr
    assert summary_of(r.stderr) == (4, 0, 0, 2)


def test_workers_give_the_same_lines(in_process):
    lines = [{"text": f'<think>{i}</think><tool_call>{{"name": "f", "arguments": {{"i": {i}}}}}</tool_call>'}
             for i in range(50)] + [{"text": "x", "format": "nope"}]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    one = in_process(["parse", "--format", "qwen3", "-"], stdin=stdin)
    two = in_process(["parse", "--format", "qwen3", "--workers", "2", "-"], stdin=stdin)
    assert one == two and one[0] == 1 and len(one[1]) == 51


def test_summary_counts():
    stdin = ('{"text": "<tool_call>{\\"name\\": \\"f\\", \\"arguments\\": {}}</tool_call>"}\n'
             '{"text": "<tool_call>{\\"name\\": \\"f\\", \\"arguments\\": {}}</tool_call><tool_call>{bad"}\n'
             'nope\n')
    r = run_cli("parse", "--format", "qwen3", "-", stdin=stdin)
    assert r.returncode == 1
    assert summary_of(r.stderr) == (3, 2, len("<tool_call>{bad"), 1)   # a region with no call: all text
    assert r.stderr.splitlines()[-1].startswith("symphony: 3 outputs")
    quiet = run_cli("parse", "--quiet", "--format", "qwen3", "-", stdin=stdin)
    assert quiet.stdout == r.stdout and SUMMARY.search(quiet.stderr) is None


def test_progress_only_on_a_terminal_and_only_with_tqdm(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setattr(sys, "stderr", Terminal())
    if importlib.util.find_spec("tqdm") is not None:
        bar = cli._Progress(100, "B", quiet=False)
        assert bar.bar is not None
        bar.update(100)
        bar.close()
    assert cli._Progress(100, "B", quiet=True).bar is None
    monkeypatch.setitem(sys.modules, "tqdm", None)          # not installed: no bar, the run goes on
    assert cli._Progress(100, "B", quiet=False).bar is None
    monkeypatch.setattr(sys, "stderr", io.StringIO())       # not a terminal
    monkeypatch.delitem(sys.modules, "tqdm")
    assert cli._Progress(100, "B", quiet=False).bar is None


def test_parquet_usage_errors(tmp_path, in_process):
    for args in (["parse", "--format", "plain", "--output-format", "parquet", EXAMPLES],
                 ["parse", "--format", "plain", "--events", EXAMPLES, "--output", str(tmp_path / "x.parquet")],
                 ["parse", "--format", "plain", "--workers", "0", EXAMPLES],
                 ["parse", "--format", "plain", "--input-format", "parquet", EXAMPLES],
                 ["parse", "--format", "plain", EXAMPLES, "--output", str(tmp_path / "absent" / "x.jsonl")]):
        code, got, err = in_process(args)
        assert (code, got) == (2, []), args
        assert err.startswith("symphony: ") and "Traceback" not in err, args


def test_response_template(in_process, tmp_path):
    """--response-template: the table a checkpoint's response_template describes, read from the
    template or from a tokenizer config holding it, also in worker processes; a template a
    table cannot say, or no JSON, is a usage error."""
    from tests.test_response_template import QWEN
    config = tmp_path / "tokenizer_config.json"
    config.write_text(json.dumps({"model_max_length": 8, "response_template": QWEN}))
    bare = tmp_path / "template.json"
    bare.write_text(json.dumps(QWEN))
    line = {"text": '<think>plan</think>Sure.<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'}
    stdin = json.dumps(line) + "\n"
    for path in (config, bare):
        for workers in ("1", "2"):
            code, got, _ = in_process(["parse", "--response-template", str(path), "--workers", workers, "-"],
                                      stdin=stdin * 3)
            assert code == 0, got
            message = got[0]["message"]
            assert (message["content"], message["reasoning_content"]) == ("Sure.", "plan")
            assert message["tool_calls"][0]["function"] == {"name": "f", "arguments": '{"a": 1}'}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"fields": {"content": {"open_pattern": "<a>"}}}))
    code, got, err = in_process(["parse", "--response-template", str(bad), "-"], stdin=stdin)
    assert code == 2 and got == [] and "regex open_pattern" in err
    code, got, err = in_process(["parse", "--response-template", str(tmp_path / "none.json"), "-"], stdin=stdin)
    assert code == 2 and "cannot read a response template" in err
    code, got, err = in_process(["parse", "--response-template", str(bare), "--format", "qwen3", "-"], stdin=stdin)
    assert code == 2 and "give one of" in err


# --- the run's memos and the Arrow path ----------------------------------------------------------

MIXED_LINES = [
    '{"text": "<tool_call>{\\"name\\": \\"f\\", \\"arguments\\": {\\"a\\": 1}}</tool_call>"}',
    "not json",
    '{"text": "<tool_call>{\\"name\\": \\"f\\", \\"arguments\\": {}}</tool_call><tool_call>{bad"}',
    '{"text": "a", "format": "nope"}',
    '{"text": "<think>r</think>c", "finish": "length"}',
    '{"text": "\\ud800"}',
    "[1]",
    '{"text": "plain", "format": "plain"}',
]


@pytest.mark.parametrize("chunk", [1, 2, 3, 100])
@pytest.mark.parametrize("order", ["as written", "reversed", "failed first"])
def test_parquet_out_and_jsonl_out_say_the_same_of_every_line(tmp_path, in_process, monkeypatch, capsys, chunk,
                                                              order):
    """The Arrow path (the core writes the parsed lines' rows; failed lines' rows are put in their
    places) gives, line for line, what the JSONL path gives, and the same summary, however the
    failed lines fall across chunks."""
    pq = pytest.importorskip("pyarrow.parquet")
    lines = {"as written": MIXED_LINES, "reversed": MIXED_LINES[::-1],
             "failed first": sorted(MIXED_LINES, key=lambda line: "text" in line and "nope" not in line)}[order]
    monkeypatch.setattr(cli, "CHUNK", chunk)
    stdin = "".join(line + "\n" for line in lines)
    code, want, _ = in_process(["parse", "--format", "qwen3", "-"], stdin=stdin)
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out = tmp_path / "out.parquet"
    assert cli.main(["parse", "--format", "qwen3", "-", "--output", str(out)]) == code == 1
    err = capsys.readouterr().err
    rows = pq.read_table(out).to_pylist()
    assert [row["line"] for row in rows] == [line["line"] for line in want] == list(range(1, len(lines) + 1))
    for row, line in zip(rows, want):
        if "error" in line:
            assert row["error"] == line["error"] and row["content"] is row["tool_calls"] is None
            continue
        m = line["message"]
        calls = m["tool_calls"] and [{"id": c["id"], "name": c["function"]["name"],
                                      "arguments": c["function"]["arguments"]} for c in m["tool_calls"]]
        assert (row["content"], row["reasoning_content"], row["tool_calls"], row["finish_reason"], row["error"]) == \
            (m["content"], m["reasoning_content"], calls, line["finish_reason"], None)
    r = run_cli("parse", "--format", "qwen3", "-", stdin=stdin)
    assert summary_of(err) == summary_of(r.stderr) == (8, 2, len("<tool_call>{bad"), 4)
    named = sorted(int(n) for n in re.findall(r"line (\d+):", err))
    assert named == [line["line"] for line in want if "error" in line]


def test_a_runs_tables_are_found_once_per_format_model_and_kwargs(in_process, monkeypatch):
    """Lines naming one model with different chat_template_kwargs keep their own prompts (the
    memo keys on the kwargs, their types too), unhashable kwargs are resolved each time, and a
    memo that starts over at its limit changes nothing."""
    found = []
    real = cli_chunks.resolve
    monkeypatch.setattr(cli_chunks, "resolve", lambda *a: found.append(a) or real(*a))
    model = "LGAI-EXAONE/K-EXAONE-236B-A23B"
    kwargs = [{"enable_thinking": False}, None, {"enable_thinking": False}, {"enable_thinking": 0},
              {"enable_thinking": False, "tools_hint": [1]}, None, {"enable_thinking": True}]
    stdin = "".join(json.dumps(dict({"text": "Hi", "model": model}, **({"chat_template_kwargs": k} if k else {})))
                    + "\n" for k in kwargs)
    code, got, _ = in_process(["parse", "-"], stdin=stdin)
    assert code == 0
    off = ("Hi", None)
    on = (None, "Hi")
    # 0 is not the template's `false`: the memo must not take it for False (0 == False in Python)
    assert [(g["message"]["content"], g["message"]["reasoning_content"]) for g in got] == \
        [off, on, off, on, off, on, on]
    assert len(found) == 5          # False, none, 0, the unhashable one, True
    found.clear()
    monkeypatch.setattr(cli_chunks._Jobs, "LIMIT", 1)
    assert in_process(["parse", "-"], stdin=stdin)[1] == got
    assert len(found) == len(kwargs)     # room for one: no two lines in a row share their key


def test_json_columns_are_read_once_per_distinct_text():
    read = cli_chunks._JsonTexts()
    tools_text = '[{"type": "function", "function": {"name": "f"}}]'
    first = read(tools_text, "tools")
    assert read("".join(tools_text), "tools") is first and first == json.loads(tools_text)
    for _ in range(2):
        with pytest.raises(cli_chunks.LineError, match='"tools" is not JSON'):
            read("[1,", "tools")
    for i in range(cli_chunks._JsonTexts.LIMIT + 1):
        assert read(f"[{i}]", "tools") == [i]
    assert len(read.known) <= cli_chunks._JsonTexts.LIMIT


def test_chunks_come_back_in_order_however_the_processes_share_them():
    """_in_order hands each chunk's outcome back in input order, whether a worker or the caller
    parsed it, and the caller parses some of them itself: it never holds more than 4P chunks."""
    import concurrent.futures
    import random
    import threading
    import time

    caller = threading.current_thread()
    where, running = [], []

    class Threads(concurrent.futures.ThreadPoolExecutor):
        processes = 3

    def parse(k):
        running.append(k)
        where.append(threading.current_thread() is caller)
        time.sleep(random.random() / 500)
        running.remove(k)
        return k

    read = []

    def chunks():
        for k in range(60):
            read.append(k)
            yield (k,)

    with Threads(2) as executor:
        handed = []
        for k in cli._in_order(parse, chunks(), executor):
            assert len(read) - len(handed) <= 4 * Threads.processes
            handed.append(k)
        assert handed == list(range(60))
    assert any(where) and not all(where)
    assert list(cli._in_order(parse, [(k,) for k in range(5)], None)) == list(range(5))


@pytest.mark.parametrize("output", ["jsonl", "parquet"])
def test_workers_and_small_chunks_give_the_same_lines(tmp_path, in_process, monkeypatch, output):
    """Chunks of 3 lines over 2 processes (failed lines among them) come out as one process
    writes them, in order."""
    pq = pytest.importorskip("pyarrow.parquet")
    monkeypatch.setattr(cli, "CHUNK", 3)
    lines = MIXED_LINES * 4
    stdin = "".join(line + "\n" for line in lines)
    outs = []
    for workers in ("1", "2"):
        target = tmp_path / f"{workers}.{output}"
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code, _, err = in_process(["parse", "--format", "qwen3", "--workers", workers, "-", "--output", str(target),
                                   "--output-format", output])
        assert code == 1
        outs.append((pq.read_table(target).to_pylist() if output == "parquet" else lines_of(target.read_text()), err))
    assert outs[0] == outs[1]
    assert [row["line"] for row in outs[0][0]] == list(range(1, len(lines) + 1))
