"""symphony.batch.parse_many: the same messages as `chat.message(symphony.parse(...))` for every
recorded fixture case of every placed checkpoint, from a list, a pyarrow column and table, and
token arrays (counted), in one process and over two; the Arrow table; per-output arguments;
errors kept or raised."""
import json
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symphony
from symphony import batch
from symphony.adapt import chat
from symphony.models import for_model
from tests.test_fixtures import FIXTURES, PLACED

pa = pytest.importorskip("pyarrow")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))
EXAMPLES = os.path.join(ROOT, "examples", "qwen3.jsonl")


@pytest.fixture(scope="module")
def two_workers():
    """One pool of two processes (this one and a spawned worker) for the whole module (starting a
    worker costs ~1 s)."""
    with batch.pool(2) as pool:
        yield pool


def tokens_of(cases):
    """batch.Tokens from the recorded token pieces: each token's byte span in its output."""
    ids, starts, ends, offsets = [], [], [], [0]
    for case in cases:
        at = 0
        for token_id, piece in zip(case["output_ids"], case["output_pieces"]):
            width = len(piece.encode("utf-8"))
            ids.append(token_id)
            starts.append(at)
            ends.append(at + width)
            at += width
        offsets.append(len(ids))
    return batch.Tokens([c["reference"]["text"] for c in cases], np.array(ids, dtype=np.int64),
                        np.array(starts, dtype=np.int32), np.array(ends, dtype=np.int32), np.array(offsets))


def setups(cases):
    """Per case: (Format, tools, prompt tail, finish), from the registry as the fixtures say."""
    out = []
    for case in cases:
        model = for_model(case["model"], case["request"].get("chat_template_kwargs"))
        finish = "length" if case["reference"]["finish_reason"] == "length" else "stop"
        out.append((model.table(), case["request"].get("tools") or None, model.prompt_tail, finish))
    return out


def expected(cases):
    return [chat.message(symphony.parse(table, c["reference"]["text"], tools=tools, prompt=prompt, finish=finish))
            for c, (table, tools, prompt, finish) in zip(cases, setups(cases))]


def load(slug):
    path = os.path.join(FIXTURES, slug + ".jsonl")
    if not os.path.exists(path):
        pytest.skip(f"no {slug}.jsonl in {FIXTURES}")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


needs_fixtures = pytest.mark.skipif(not FIXTURES, reason="SYMPHONY_FIXTURES is not set")


@needs_fixtures
@pytest.mark.parametrize("slug", PLACED)
def test_every_fixture_case_as_parse_gives_it(slug, two_workers):
    cases = load(slug)
    want = expected(cases)
    formats, tools, prompts, finishes = (list(column) for column in zip(*setups(cases)))
    texts = [c["reference"]["text"] for c in cases]
    table = pa.table({"text": texts})
    inputs = {"list": texts, "array": pa.array(texts), "chunked": pa.chunked_array([texts[:1], texts[1:]]),
              "table": table, "tokens": tokens_of(cases)}
    for name, outputs in inputs.items():
        for workers in (1, two_workers):
            got = batch.parse_many(formats, outputs, tools=tools, prompts=prompts, finish=finishes,
                                   workers=workers, column="text")
            assert got == want, (name, workers)
    # Arrow: the same fields; counted from tokens, one token per recorded id
    rows = batch.parse_many(formats, inputs["tokens"], tools=tools, prompts=prompts, finish=finishes,
                            as_arrow=True).to_pylist()
    assert batch.parse_many(formats, inputs["tokens"], tools=tools, prompts=prompts, finish=finishes,
                            as_arrow=True, workers=two_workers).to_pylist() == rows
    for row, choice, case in zip(rows, want, cases):
        assert row == arrow_row(choice, len(case["output_ids"]), row["reasoning_tokens"], row["malformed_bytes"])
        assert 0 <= row["reasoning_tokens"] <= row["output_tokens"]


def arrow_row(choice, output_tokens=None, reasoning_tokens=None, row_malformed=0):
    m = choice["message"]
    calls = m["tool_calls"] and [{"id": c["id"], "name": c["function"]["name"],
                                  "arguments": c["function"]["arguments"]} for c in m["tool_calls"]]
    return {"content": m["content"], "reasoning_content": m["reasoning_content"], "tool_calls": calls,
            "finish_reason": choice["finish_reason"], "output_tokens": output_tokens,
            "reasoning_tokens": reasoning_tokens, "malformed_bytes": row_malformed, "error": None}


@needs_fixtures
def test_a_model_id_brings_its_table_and_prompt_tail():
    cases = [c for c in load("qwen3-4b-thinking-2507") if not c["request"].get("chat_template_kwargs")]
    assert cases
    texts = [c["reference"]["text"] for c in cases]
    tools = [c["request"].get("tools") or None for c in cases]
    finish = ["length" if c["reference"]["finish_reason"] == "length" else "stop" for c in cases]
    got = batch.parse_many(cases[0]["model"], texts, tools=tools, finish=finish)
    assert got == expected(cases)
    assert any(m["message"]["reasoning_content"] for m in got)


def example_records():
    with open(EXAMPLES, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_examples_one_for_all_and_per_output():
    records = example_records()
    texts = [r["text"] for r in records]
    prompts = [r.get("prompt") for r in records]
    finish = [r.get("finish", "stop") for r in records]
    want = [chat.message(symphony.parse("qwen3", r["text"], prompt=r.get("prompt"), finish=r.get("finish", "stop")))
            for r in records]
    assert batch.parse_many("qwen3", texts, prompts=prompts, finish=finish) == want
    assert batch.parse_many("qwen3", texts, prompts=prompts,
                            finish=finish, workers=2) == want
    plain = [chat.message(symphony.parse("qwen3", t)) for t in texts]
    assert batch.parse_many("qwen3", texts) == plain
    assert batch.parse_many(["qwen3"] * len(texts), texts, prompts=None, finish="stop") == plain
    assert batch.parse_many("qwen3", []) == []
    assert batch.parse_many("qwen3", [], as_arrow=True).num_rows == 0


def test_tools_one_for_all_or_per_output():
    tools = [{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {"n": {"type": "integer"}, "s": {"type": "string"}}}}}]
    text = "<tool_call>\n<function=f>\n<parameter=n>\n007\n</parameter>\n<parameter=s>\n7\n</parameter>\n</function>\n</tool_call>"
    typed = chat.message(symphony.parse("qwen3_tagged", text, tools=tools))
    untyped = chat.message(symphony.parse("qwen3_tagged", text))
    assert typed != untyped
    assert batch.parse_many("qwen3_tagged", [text, text], tools=tools) == [typed, typed]
    assert batch.parse_many("qwen3_tagged", [text, text], tools=[tools, None]) == [typed, untyped]
    assert batch.parse_many("qwen3_tagged", [text, text], tools=[]) == [untyped, untyped]


def test_arrow_schema_and_uncounted_rows():
    got = batch.parse_many("qwen3", ["<think>a</think>b", '<tool_call>{"name": "f", "arguments": {}}</tool_call>'],
                           as_arrow=True)
    assert got.schema == batch.arrow_schema()
    assert got.column("tool_calls").type == pa.list_(pa.struct([("id", pa.string()), ("name", pa.string()),
                                                                ("arguments", pa.string())]))
    rows = got.to_pylist()
    assert rows[0] == {"content": "b", "reasoning_content": "a", "tool_calls": None, "finish_reason": "stop",
                       "output_tokens": None, "reasoning_tokens": None, "malformed_bytes": 0, "error": None}
    assert rows[1]["tool_calls"] == [{"id": "call_0", "name": "f", "arguments": "{}"}]


def test_events_are_the_wire_events():
    text = '<think>a</think><tool_call>{"name": "f", "arguments": {}}</tool_call>'
    [got] = batch.parse_many("qwen3", [text], as_events=True)
    assert got == [e.to_dict() for e in symphony.parse("qwen3", text)]


def test_errors_kept_or_raised():
    # an output with no UTF-8 form makes that output's parse raise (in the core, as any failing output)
    bad = "ValueError: output: not UTF-8 text (surrogates not allowed at character 1)"
    with pytest.raises(ValueError, match="output: not UTF-8 text"):
        batch.parse_many("plain", ["a", "b\ud800"])
    got = batch.parse_many("plain", ["a", "b\ud800", "c"], errors="keep")
    assert got[1] == {"error": bad} and got[2]["message"]["content"] == "c"
    kept = batch.results("plain", ["a", "b\ud800"], errors="keep")
    assert kept[1] == batch.Result(None, None, None, 0, 0, bad) and kept[1].error == bad
    assert kept[0].value["message"]["content"] == "a" and type(kept[0]) is batch.Result
    rows = batch.parse_many("plain", ["a", "b\ud800"], errors="keep", as_arrow=True).to_pylist()
    assert rows[1] == {"content": None, "reasoning_content": None, "tool_calls": None, "finish_reason": None,
                       "output_tokens": None, "reasoning_tokens": None, "malformed_bytes": None,
                       "error": bad}
    events = batch.parse_many("plain", ["a", "b\ud800"], errors="keep", as_events=True)
    assert events[1] == {"error": bad}


def test_bad_arguments():
    with pytest.raises(ValueError, match="2 given for 3"):
        batch.parse_many("plain", ["a", "b", "c"], prompts=["x", "y"])
    with pytest.raises(KeyError, match="nope"):
        batch.parse_many("nope", ["a"])
    with pytest.raises(TypeError, match=r"outputs\[1\]"):
        batch.parse_many("plain", ["a", None])
    with pytest.raises(TypeError, match=r"outputs\[0\]"):
        batch.parse_many("plain", pa.array([None], type=pa.string()))
    with pytest.raises(KeyError, match="output"):
        batch.parse_many("plain", pa.table({"text": ["a"]}))
    with pytest.raises(ValueError, match="errors"):
        batch.parse_many("plain", ["a"], errors="ignore")
    with pytest.raises(ValueError, match="offsets"):
        batch.parse_many("plain", batch.Tokens(["a"], [1], [0], [1], [0, 2]))
    with pytest.raises(ValueError, match="as_arrow and as_events"):
        batch.parse_many("plain", ["a"], as_arrow=True, as_events=True)


def corrupt_offsets(texts, at, value):
    """A pyarrow string array of `texts` whose offset `at` is `value` (what a broken producer hands over)."""
    column = pa.array(texts)
    _, offsets, data = column.buffers()
    changed = np.frombuffer(offsets, np.int32).copy()
    changed[at] = value
    return pa.Array.from_buffers(pa.string(), len(texts), [None, pa.py_buffer(changed.tobytes()), data])


TOKENS = dict(text=["ab", "c"], ids=[1, 2, 3], starts=[0, 1, 0], ends=[1, 2, 1], offsets=[0, 2, 3])

# (the arguments changed from ["a", "b"] under "plain", the error, what it says), every one of which
# must be refused before any output is parsed or any process started, whatever `errors` says
BAD_ARGUMENTS = [
    (dict(outputs="ab"), TypeError, "outputs must be a list of str.*not one str"),
    (dict(outputs=b"ab"), TypeError, "not one bytes"),
    (dict(outputs=dict(TOKENS, ids=[1.5, 2.0, 3.0])), TypeError, r"Tokens\.ids must hold integers, not float64"),
    (dict(outputs=dict(TOKENS, starts=[0.0, 1.7, 0.0])), TypeError, r"Tokens\.starts must hold integers"),
    (dict(outputs=dict(TOKENS, ends=[True, True, True])), TypeError, r"Tokens\.ends must hold integers, not bool"),
    (dict(outputs=dict(TOKENS, offsets=[0.0, 2.0, 3.0])), TypeError, r"Tokens\.offsets must hold integers"),
    (dict(outputs=dict(TOKENS, id=[1])), ValueError, "outputs as a dict are Tokens: its keys are text, ids"),
    (dict(outputs=corrupt_offsets(["hello", "world", "abc"], 2, 1000)), ValueError,
     r"outputs: a corrupt Arrow string column \(.*offsets\[2\] is 1000\)"),
    (dict(outputs=pa.chunked_array([["a"], corrupt_offsets(["hello", "world"], 1, -4)])), ValueError,
     "outputs: a corrupt Arrow string column"),
    (dict(prompts=[None, 5]), TypeError, r"prompts\[1\] must be a str or None, not int"),
    (dict(prompts=5), TypeError, "prompts must be a str, None or a list of them"),
    (dict(prompts=["x"]), ValueError, "prompts: 1 given for 2 outputs"),
    (dict(finish=["stop", b"length"]), TypeError, r"finish\[1\] must be a str or None, not bytes"),
    (dict(finish=5), TypeError, "finish must be a str, None or a list of them"),
    (dict(finish=("stop",) * 3), ValueError, "finish: 3 given for 2 outputs"),
    (dict(tools=5), TypeError, "tools must be a list of OpenAI function tools"),
    (dict(tools=[None, "x"]), TypeError, r"tools\[1\] must be a list of tools or None, not str"),
    (dict(tools=[[]]), ValueError, "tools: 1 given for 2 outputs"),
    (dict(format_or_model=["plain", 5]), TypeError, "a format is a table name"),
    (dict(format_or_model=["plain"]), ValueError, "format_or_model: 1 given for 2 outputs"),
    (dict(errors="ignore"), ValueError, "errors must be one of"),
    (dict(workers=0), ValueError, "workers must be at least 1, not 0"),
    (dict(workers="2"), TypeError, "workers must be a number of processes"),
    (dict(workers=2.0), TypeError, "workers must be a number of processes"),
    (dict(chat_template_kwargs=["enable_thinking"]), TypeError, "chat_template_kwargs must be a dict"),
]


@pytest.mark.parametrize("changed,error,says", BAD_ARGUMENTS, ids=lambda v: repr(v)[:40])
@pytest.mark.parametrize("errors", ["raise", "keep"])
def test_every_argument_is_checked_before_any_work(monkeypatch, changed, error, says, errors):
    def no_work(*args, **kwargs):
        raise AssertionError("work began before the arguments were checked")
    monkeypatch.setattr(batch, "fold_summaries", no_work)
    monkeypatch.setattr(batch, "pool", no_work)
    arguments = dict(format_or_model="plain", outputs=["a", "b"], workers=2, errors=errors) | changed
    with pytest.raises(error, match=says):
        batch.parse_many(**arguments)
    with pytest.raises(error, match=says):
        batch.parse_many(**arguments, as_arrow=True)


def test_tokens_as_a_dict_and_spans_that_do_not_lay_out_the_text():
    text = "<think>ab</think>c"
    counted = {"text": [text], "ids": [1, 2, 3], "starts": [0, 7, 9], "ends": [7, 9, len(text)], "offsets": [0, 3]}
    [row] = batch.parse_many("qwen3", counted, as_arrow=True).to_pylist()
    assert (row["output_tokens"], row["reasoning_tokens"], row["content"]) == (3, 1, "c")
    gaps = dict(counted, starts=[0, 8, 9])
    [row] = batch.parse_many("qwen3", gaps, as_arrow=True).to_pylist()
    assert (row["output_tokens"], row["reasoning_tokens"], row["content"]) == (None, None, "c")


def test_fold_summaries_checks_its_lists_and_counts_token_rows():
    from symphony.parser import fold_summaries, summary_messages
    plain = batch.resolve("plain")[0].compile()
    with pytest.raises(ValueError, match="one per output"):
        fold_summaries([plain], [None], [None], ["a", "b"], ["stop", "stop"])
    with pytest.raises(TypeError, match="tuple type"):
        summary_messages([], list)
    with pytest.raises(TypeError):
        fold_summaries(["plain"], [None], [None], ["a"], ["stop"])
    [kept] = fold_summaries(["plain"], [None], [None], ["a"], ["stop"], on_error=lambda e: type(e).__name__)
    assert kept == (None, None, None, None, None, None, 0, 0, "TypeError")
    assert summary_messages([kept], batch.Result) == [batch.Result(None, None, None, 0, 0, "TypeError")]
    spans = np.array([[7, 0, 1, 0], [8, 1, 2, 0], [9, 0, 2, 0]], dtype=np.int64)
    rows = fold_summaries([plain, plain], [None, None], [None, None], ["ab", "cd"], ["stop", "length"], spans,
                          np.array([0, 2, 3]))
    assert [r[4] for r in rows] == [2, 1] and rows[1][3] == "length"
    assert summary_messages(rows)[0] == (chat.message(symphony.parse("plain", "ab")), 2, 0, 0, 0, None)


def test_fold_summaries_lets_other_threads_run():
    """A long batch hands the GIL over between outputs every few switch intervals, so a thread
    of the caller's (a pool's feeder, an event loop) is not held off for the whole batch."""
    import sys
    import threading
    import time
    from symphony.parser import fold_summaries
    plain = batch.resolve("qwen3")[0].compile()
    text = '<think>a</think>b <tool_call>{"name": "f", "arguments": {"x": [1, 2]}}</tool_call>' * 40
    texts = [(text + "#")[:-1] for _ in range(8000)]
    ran, done = [], threading.Event()

    def other():
        while not done.is_set():
            time.sleep(0.0005)           # waits for the GIL each time it wakes
            ran.append(time.monotonic())

    interval = sys.getswitchinterval()
    thread = threading.Thread(target=other)
    thread.start()
    try:
        time.sleep(0.01)
        before = len(ran)
        start = time.monotonic()
        fold_summaries([plain] * len(texts), [None] * len(texts), [None] * len(texts), texts, ["stop"] * len(texts))
        took = time.monotonic() - start
        during = len(ran) - before
    finally:
        done.set()
        thread.join()
    # a release every 2 intervals lets it in about took / (2 * interval) times; held off, it ran
    # 2 to 5 times in 0.5 s here. On a machine with more runnable threads than cores, a thread the
    # GIL is handed to may still wait for a core: the share it can expect shrinks with the load.
    crowding = max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    if took > 40 * interval:
        assert during >= took / (4 * interval) / crowding, f"{during} turns in {took:.2f} s, load x{crowding:.1f}"


HOSTILE = ['<think>a</think>x<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>'
           '<tool_call>{"name": "g", "arguments": {}}</tool_call>', "plain \ud800 text", "", "  \n ", "hi",
           '<tool_call>{"name": "h"', '\u00e9<think>\u00fc \U0001f600</think>', '<tool_call>{"arguments": {"x": 1}}',
           '<tool_call>{"name": "\u00f1", "arguments": "{\\"y\\": 2}"}</tool_call> tail',
           "".join(f'<tool_call>{{"name": "f{i}", "arguments": {{"i": {i}}}}}</tool_call>' for i in range(300))]


def old_table(formats, outputs, **kwargs):
    """The Arrow table made the way it was before the core wrote Arrow's buffers: the summary
    rows as Python objects, converted by pyarrow."""
    return batch._summary_table(batch._run(batch._chunked(formats, outputs, kwargs.get("tools"), kwargs.get("prompts"),
                                                          kwargs.get("finish"), 1, "output", None, "keep", False,
                                                          "call", run=lambda job: job)[0]))


@needs_fixtures
@pytest.mark.parametrize("slug", PLACED)
def test_the_core_writes_the_arrow_table_pyarrow_makes_of_the_rows(slug):
    cases = load(slug)
    formats, tools, prompts, finishes = (list(column) for column in zip(*setups(cases)))
    for outputs in ([c["reference"]["text"] for c in cases], tokens_of(cases)):
        got = batch.parse_many(formats, outputs, tools=tools, prompts=prompts, finish=finishes, as_arrow=True,
                               errors="keep")
        got.validate(full=True)
        assert got.equals(old_table(formats, outputs, tools=tools, prompts=prompts, finish=finishes))


@pytest.mark.parametrize("finish", ["stop", "length", "abort", "content_filter, of a kind"])
def test_arrow_rows_of_hostile_outputs_and_every_finish(finish):
    for k in range(len(HOSTILE) + 1):
        outputs = HOSTILE[:k] + HOSTILE[k:] * 2
        got = batch.parse_many("qwen3", outputs, finish=finish, as_arrow=True, errors="keep")
        got.validate(full=True)
        assert got.equals(old_table("qwen3", outputs, finish=finish)) and got.num_rows == len(outputs)
    empty = batch.parse_many("qwen3", [], as_arrow=True)
    assert empty.num_rows == 0 and empty.schema.equals(batch.arrow_schema())


def test_an_arrow_row_that_cannot_be_utf8_is_its_error():
    got = batch.parse_many("qwen3", ["a", "b"], finish=["stop", "bad \ud800"], as_arrow=True, errors="keep")
    assert got.column("finish_reason").to_pylist() == ["stop", None]
    assert got.column("error").to_pylist()[1] == ("ValueError: finish_reason: not UTF-8 text (surrogates not "
                                                  "allowed at character 4)")
    with pytest.raises(ValueError, match="finish_reason: not UTF-8"):
        batch.parse_many("qwen3", ["a", "b"], finish=["stop", "bad \ud800"], as_arrow=True)


@pytest.mark.parametrize("seal_bytes", [0, 1, 20, 300])
def test_arrow_rows_seal_a_batch_once_a_column_passes_its_bytes(seal_bytes):
    """However many rows are written, each record batch's strings stay within what Arrow's 32-bit
    offsets hold: past `seal_bytes` (1 GiB in use; tiny here) the rows so far become a batch."""
    from symphony.parser import ArrowRows, fold_summaries
    outputs = HOSTILE * 3
    n = len(outputs)
    compiled = batch.resolve("qwen3")[0].compile()
    args = ([compiled] * n, [None] * n, [None] * n, outputs, ["stop"] * n, None, None, batch.error_text)
    whole = batch._arrow_table(fold_summaries(*args, into=ArrowRows()))
    sealed = batch._arrow_table(fold_summaries(*args, into=ArrowRows(seal_bytes)))
    sealed.validate(full=True)
    assert sealed.equals(whole) and whole.equals(old_table("qwen3", outputs))
    batches = sealed.to_batches()
    assert len(batches) > 1 and sum(b.num_rows for b in batches) == n
    for b in batches[:-1]:
        biggest = max(len(b.column(name).buffers()[2] or b"") for name in ("content", "reasoning_content", "error"))
        calls = b.column("tool_calls").flatten()
        biggest = max([biggest] + [len(calls.field(k).buffers()[2] or b"") for k in range(3)])
        assert biggest > seal_bytes or b.num_rows == 1


@pytest.mark.parametrize("seal_bytes", [1 << 30, 0, 300])
@pytest.mark.parametrize("finish", ["stop", "length", "content_filter, of a kind"])
def test_rows_read_back_from_arrow_rows_are_the_rows_the_fold_gives(seal_bytes, finish):
    """What a worker's rows cross back as (an ArrowRows' buffers) read back into the rows
    fold_summaries gives, failed rows, calls, token counts and all (the dicts path over workers)."""
    from symphony.parser import ArrowRows, fold_summaries, summary_rows_of
    outputs = HOSTILE * 2
    n = len(outputs)
    compiled = batch.resolve("qwen3")[0].compile()
    for spans in (None, "counted"):
        args = ([compiled] * n, [None] * n, [None] * n, outputs, [finish] * n)
        if spans:
            args += (np.array([(7, 0, 1, 0)] * n, dtype=np.int64), np.arange(n + 1, dtype=np.int64))
        else:
            args += (None, None)
        want = fold_summaries(*args, batch.error_text)
        written = fold_summaries(*args, batch.error_text, into=ArrowRows(seal_bytes))
        assert [row for b in written.columns() for row in summary_rows_of(b)] == want


def test_rows_read_back_from_a_batch_that_does_not_hold_together_are_refused():
    from symphony.parser import ArrowRows, fold_summaries, summary_rows_of
    compiled = batch.resolve("qwen3")[0].compile()
    outputs = [HOSTILE[0], HOSTILE[8]]        # calls in both
    [good] = fold_summaries([compiled] * 2, [None] * 2, [None] * 2, outputs, ["stop"] * 2,
                            into=ArrowRows()).columns()
    rows, strings, ints, call_offsets, calls_valid = good

    def broken(k, column):
        changed = list(strings)
        changed[k] = column
        return (rows, tuple(changed), ints, call_offsets, calls_valid)

    data, offsets, valid = strings[0]
    past = np.frombuffer(offsets, np.int64).copy()
    past[-1] = len(data) + 1
    backwards = np.frombuffer(call_offsets, np.int64).copy()
    backwards[1] = backwards[2] + 1
    for bad in ((rows + 1, strings, ints, call_offsets, calls_valid), (-1, strings, ints, call_offsets, calls_valid),
                broken(0, (data, offsets[:-8], valid)), broken(0, (data, past.tobytes(), valid)),
                broken(0, (data, offsets, b"")), (rows, strings[:-1], ints, call_offsets, calls_valid),
                (rows, strings, ints, backwards.tobytes(), calls_valid),
                (rows, strings, ((b"", b""),) + ints[1:], call_offsets, calls_valid)):
        with pytest.raises(ValueError, match="summary_rows_of"):
            summary_rows_of(bad)
    assert summary_rows_of(good) == fold_summaries([compiled] * 2, [None] * 2, [None] * 2, outputs, ["stop"] * 2)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_rows_read_back_from_a_batch_with_any_bytes_changed_are_rows_or_refused(data):
    """Whatever bytes of a batch's buffers are changed (what the checked build runs under the
    address sanitizer), reading it back gives rows or a ValueError, never a read past them."""
    from symphony.parser import ArrowRows, fold_summaries, summary_rows_of
    compiled = batch.resolve("qwen3")[0].compile()
    outputs = [HOSTILE[0], HOSTILE[4], HOSTILE[8], HOSTILE[3]]
    [good] = fold_summaries([compiled] * 4, [None] * 4, [None] * 4, outputs, ["stop"] * 4,
                            into=ArrowRows()).columns()
    buffers = [good[3], good[4]] + [b for column in good[1] + good[2] for b in column]
    k = data.draw(st.integers(0, len(buffers) - 1))
    raw = bytearray(buffers[k])
    if raw and data.draw(st.booleans()):
        for _ in range(data.draw(st.integers(1, 4))):
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    else:
        raw = raw[:data.draw(st.integers(0, len(raw)))]
    buffers[k] = bytes(raw)
    strings = tuple(tuple(buffers[2 + 3 * i:5 + 3 * i]) for i in range(7))
    ints = tuple(tuple(buffers[23 + 2 * i:25 + 2 * i]) for i in range(3))
    try:
        rows = summary_rows_of((good[0], strings, ints, buffers[0], buffers[1]))
    except (ValueError, UnicodeDecodeError):
        return
    assert len(rows) == 4


def test_an_arrow_batch_column_past_32_bit_offsets_is_refused():
    with pytest.raises(ValueError, match="more than an Arrow string array holds"):
        batch._offsets32(np.array([0, 2 ** 31], dtype=np.int64).tobytes())


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def python_json_lines(formats, outputs, numbers, **kwargs):
    """The JSON lines as Python writes them of the messages (`symphony parse`'s lines before the
    core wrote them): json.dumps(..., ensure_ascii=False) of each line's dict."""
    lines = []
    for number, message in zip(numbers, batch.parse_many(formats, outputs, errors="keep", **kwargs)):
        record = ({"line": number, "error": message["error"]} if "error" in message else
                  {"line": number, "message": message["message"], "finish_reason": message["finish_reason"]})
        lines.append((_ENCODE(record) + "\n").encode("utf-8", "backslashreplace"))
    return lines


def json_lines_of(written):
    data, starts = written.lines()
    bounds = list(np.frombuffer(starts, np.int64)) + [len(data)]
    assert bounds[0] == 0 and len(bounds) == written.rows + 1
    return [data[a:b] for a, b in zip(bounds, bounds[1:])]


@needs_fixtures
@pytest.mark.parametrize("slug", PLACED)
def test_the_core_writes_the_json_lines_python_writes(slug):
    cases = load(slug)
    formats, tools, prompts, finishes = (list(column) for column in zip(*setups(cases)))
    outputs = [c["reference"]["text"] for c in cases]
    numbers = [3 * i + 7 for i in range(len(cases))]
    written = batch.json_lines(formats, outputs, numbers, tools=tools, prompts=prompts, finish=finishes)
    assert json_lines_of(written) == python_json_lines(formats, outputs, numbers, tools=tools, prompts=prompts,
                                                       finish=finishes)
    messages = batch.parse_many(formats, outputs, tools=tools, prompts=prompts, finish=finishes)
    assert written.calls == sum(len(m["message"]["tool_calls"] or ()) for m in messages)
    assert written.failures == []


@pytest.mark.parametrize("finish", ["stop", "length", "abort", "content_filter, of a kind", "bad \ud800"])
def test_json_lines_of_hostile_outputs_and_every_finish(finish):
    outputs = HOSTILE + ['"quoted" \\ back\x00slash \x1f\x7f\t\b\f\r\n \u2028 \U0001f600 </think>',
                         '<tool_call>{"name": "q\\"\\u0001", "arguments": {"s": "\\\\ \\" \\n \\u00e9"}}</tool_call>']
    numbers = list(range(1, len(outputs) + 1))
    written = batch.json_lines("qwen3", outputs, numbers, finish=finish)
    want = python_json_lines("qwen3", outputs, numbers, finish=finish)
    assert json_lines_of(written) == want
    assert [row for row, _ in written.failures] == [i for i, line in enumerate(want) if b'"error"' in line]
    assert written.malformed == sum(r.malformed_bytes for r in batch.results("qwen3", outputs, finish=finish,
                                                                             errors="keep"))
    assert json_lines_of(batch.json_lines("qwen3", [], [])) == []


def test_a_json_line_needs_its_number():
    with pytest.raises(IndexError):
        batch.json_lines("qwen3", ["a", "b"], [1])


ODD_FINISH = "bad \ud800 end"


@pytest.mark.parametrize("errors", ["raise", "keep"])
def test_a_finish_with_no_utf8_form_gives_the_same_batch_over_any_workers(two_workers, errors):
    """Only that output's row is affected, the same way in one process and over two: its message
    keeps the finish as given, as `chat.message(symphony.parse(...))` does; its Arrow row (Arrow
    holds UTF-8 only) is its error. The odd finish falls in the caller's chunk and in a worker's."""
    outputs = [f'a{i} <tool_call>{{"name": "f", "arguments": {{"x": {i}}}}}</tool_call>' if i % 3 else f"b{i}"
               for i in range(40)]
    finishes = ["stop"] * 40
    for i in (0, 17, 39):
        finishes[i] = ODD_FINISH
    want = [chat.message(symphony.parse("qwen3", o, finish=f)) for o, f in zip(outputs, finishes)]
    assert want[17]["finish_reason"] == ODD_FINISH
    for workers in (1, two_workers):
        assert batch.parse_many("qwen3", outputs, finish=finishes, workers=workers, errors=errors) == want
        assert [r.value for r in batch.results("qwen3", outputs, finish=finishes, workers=workers,
                                               errors=errors)] == want
        events = batch.parse_many("qwen3", outputs, finish=finishes, workers=workers, errors=errors, as_events=True)
        assert [e[-1]["reason"] for e in events[16:18]] == ["stop", {"other": ODD_FINISH}]
        rows = batch.parse_many("qwen3", outputs, finish=finishes, workers=workers, errors="keep",
                                as_arrow=True).to_pylist()
        assert [i for i, r in enumerate(rows) if r["error"] is not None] == [0, 17, 39]
        assert "finish_reason: not UTF-8 text" in rows[17]["error"] and rows[18]["content"] == "b18"


def test_rows_that_cross_keep_a_finish_with_no_utf8_form():
    from symphony.parser import ArrowRows, fold_summaries, summary_rows_of
    qwen3 = batch.resolve("qwen3")[0].compile()
    args = ([qwen3] * 2, [None] * 2, [None] * 2, ["a", "b"], ["stop", ODD_FINISH])
    want = fold_summaries(*args)
    assert want[1][3] == ODD_FINISH
    assert [row for columns in fold_summaries(*args, into=ArrowRows(crossing=True)).columns()
            for row in summary_rows_of(columns)] == want
    with pytest.raises(ValueError, match="finish_reason: not UTF-8 text"):
        fold_summaries(*args, into=ArrowRows())
