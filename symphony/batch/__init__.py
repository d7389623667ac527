"""Many recorded outputs at once: `parse_many` turns a list of strings, a pyarrow string column or
table, or token data in numpy arrays into chat messages (or an Arrow table of them), over one or
more processes; `ray_map` is the same as a Ray Data `map_batches` step.

Each chunk of outputs is one call into the core (`fold_summaries`), which parses every output on
a fresh Engine into a flat summary row (from its str, or where its UTF-8 bytes lie: an Arrow
column's buffers, or the file a chunk's texts crossed to a worker in), from a table compiled once
per batch and tools compiled once per batch (when they are one for all); the rows become message
dicts (`summary_messages`, also in the core) where they are wanted, so workers send back rows,
not dicts, or, for `as_arrow`, the core writes them into Arrow's buffers (`ArrowRows`) and the
table is made of those.
Wire events (`as_events`) are built here.
"""
import concurrent.futures
import contextlib
import functools
import gc
import multiprocessing
import operator
import os
from collections import namedtuple

import numpy as np

from symphony.adapt.fold import fold
from symphony.batch.files import Regions, Scratch, unpacked, wait_started, write_result
from symphony.errors import ParseError
from symphony.events import Malformed
from symphony.formats import TABLES
from symphony.inputs import Delta
from symphony.parser import (ArrowRows, Engine, JsonLines, Utf8Texts, first_not_str, fold_summaries,
                             summary_messages, summary_rows_of)
from symphony.resolve import resolve
from symphony.batch.teardown import watch_parent
from symphony.batch.utf8_columns import of_arrow
from symphony.value import Declared

Tokens = namedtuple("Tokens", "text ids starts ends offsets")
Tokens.__doc__ = """Token data of many outputs, in flat arrays (what an inference engine records).

    text     the outputs' text: a list of str or a pyarrow string array, n long
    ids      every output's token ids, concatenated (1-D integer array)
    starts   each token's first UTF-8 BYTE in its own output's text (as long as `ids`)
    ends     each token's end byte, exclusive (as long as `ids`)
    offsets  n + 1 positions in `ids`: output i's tokens are ids[offsets[i]:offsets[i + 1]]

A dict with these keys is taken too. Tokens that lay the text out in bytes make every message
counted (the Arrow table's `output_tokens` and `reasoning_tokens`); spans that do not leave that
output uncounted, as a Delta's would (README, token counting)."""

ERRORS = ("raise", "keep")
UNDECLARED = ("call", "malformed")     # symphony.parser's `undeclared` values

Result = namedtuple("Result", "value output_tokens reasoning_tokens calls malformed_bytes error")
Result.__doc__ = """One output's outcome (`results`): the message (or wire events), its output and
reasoning token counts (None uncounted), how many calls it made, how many UTF-8 bytes of it were
malformed, and the error text when it failed (value None then)."""


def error_text(error):
    """What a failed output's error says: the parser's errors say what they are, anything else (a
    RecursionError, a MemoryError, a TypeError) is named by its type."""
    if isinstance(error, ParseError):
        return str(error)
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _events(table, tools, prompt, output, finish, spans=None, undeclared="call"):
    """One output's Result with its events' wire dicts (`as_events`): `table` compiled and `tools`
    a Declared, both shared across the batch; `spans` an (n, 4) array of its tokens, or None."""
    whole = output if spans is None else Delta(output, spans[:, 0], spans)
    events = Engine(table, tools, undeclared=undeclared).parse(whole, prompt, finish)
    f = fold(events)
    malformed = sum(len(e.text.text.encode("utf-8")) for e in events if type(e) is Malformed)
    return Result([e.to_dict() for e in events], f.output_tokens, f.reasoning_tokens, events[-1].tool_calls,
                  malformed, None)


def _per_output(value, n, name, kind):
    """`value` as n values: a list or tuple of n is one per output, anything else one for all."""
    if isinstance(value, (list, tuple)) and not (kind is dict and (not value or isinstance(value[0], dict))):
        if len(value) != n:
            raise ValueError(f"{name}: {len(value)} given for {n} outputs (give one, or one per output)")
        return list(value)
    return [value] * n


def _checked_texts(values, name):
    """`values` (a prompt or finish for all, or one per output) when each is a str or None; the
    TypeError naming the first that is not otherwise."""
    if values is None or isinstance(values, str):
        return values
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"{name} must be a str, None or a list of them (one per output), not {type(values).__name__}")
    _check_each(values, name, (str, type(None)), "a str or None")
    return values


def _checked_tools(tools):
    """`tools` when they are None, one tool list (or Declared) for all, or a list of those, one per
    output; the TypeError naming what is not otherwise (the tools themselves are the parser's to
    read: it ignores what it cannot use)."""
    if tools is None or isinstance(tools, Declared):
        return tools
    if not isinstance(tools, (list, tuple)):
        raise TypeError(f"tools must be a list of OpenAI function tools, a list of them per output, or None, "
                        f"not {type(tools).__name__}")
    if tools and not isinstance(tools[0], dict):
        _check_each(tools, "tools", (list, tuple, Declared, type(None)), "a list of tools or None")
    return tools


def _check_each(values, name, kinds, says):
    """A TypeError naming the first of `values` that is none of `kinds` (the types are told apart
    in C: no Python step per value unless one is a subclass)."""
    if set(map(type, values)) <= set(kinds):
        return
    for i, value in enumerate(values):
        if not isinstance(value, kinds):
            raise TypeError(f"{name}[{i}] must be {says}, not {type(value).__name__}")


def _checked_workers(workers):
    """`workers` when it is a number of processes (1 or more) or an Executor; the error otherwise."""
    if isinstance(workers, concurrent.futures.Executor):
        return workers
    if not isinstance(workers, int) or isinstance(workers, bool):
        raise TypeError(f"workers must be a number of processes, a pool or an Executor, not {type(workers).__name__}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    return workers


def _text_list(values, name):
    """The outputs' texts: a pyarrow string array or chunked array without nulls as it is (made
    into strs in whichever process parses it; its offsets checked here), anything else as a list
    of Python strs."""
    if isinstance(values, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"{name} must be a list of str, a pyarrow string column or table, or Tokens, "
                        f"not one {type(values).__name__}")
    if hasattr(values, "to_pylist"):
        import pyarrow as pa
        if values.null_count == 0 and (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
            return _checked_arrow(values, name)
        values = values.to_pylist()
    values = values if type(values) is list else list(values)
    i = first_not_str(values)
    if i >= 0:
        raise TypeError(f"{name}[{i}] must be a str, not {type(values[i]).__name__}")
    return values


def _checked_arrow(column, name):
    """An Arrow string column whose offsets lie within its bytes, each chunk's (Utf8Texts checks
    them, in C); a ValueError saying the column is corrupt otherwise."""
    for chunk in getattr(column, "chunks", [column]):
        try:
            of_arrow(chunk)
        except ValueError as e:
            raise ValueError(f"{name}: a corrupt Arrow string column ({e})") from None
    return column


def _source(texts):
    """A chunk's texts as the core reads them: a list of str, or Utf8Texts (a shipped chunk's,
    or an Arrow column's own bytes: no str made of them)."""
    return texts if type(texts) is list or type(texts) is Utf8Texts else of_arrow(texts)


def _inputs(outputs, column):
    """(texts, spans or None): spans is one (tokens, 4) int64 array for all outputs with the
    row offsets of each output's tokens."""
    if isinstance(outputs, dict):
        if set(outputs) != set(Tokens._fields):
            raise ValueError(f"outputs as a dict are Tokens: its keys are {', '.join(Tokens._fields)}, "
                             f"not {', '.join(map(str, outputs))}")
        outputs = Tokens(**outputs)
    if isinstance(outputs, Tokens):
        texts = _text_list(outputs.text, "text")
        ids, starts, ends, offsets = (_integers(getattr(outputs, f), f) for f in Tokens._fields[1:])
        if not (ids.ndim == starts.ndim == ends.ndim == offsets.ndim == 1) or not len(ids) == len(starts) == len(ends):
            raise ValueError("Tokens: ids, starts and ends are 1-D arrays of one length, offsets 1-D")
        if len(offsets) != len(texts) + 1 or offsets[0] != 0 or offsets[-1] != len(ids) or np.any(np.diff(offsets) < 0):
            raise ValueError("Tokens: offsets are n + 1 non-decreasing positions from 0 to len(ids)")
        spans = np.zeros((len(ids), 4), dtype=np.int64)
        spans[:, 0], spans[:, 1], spans[:, 2] = ids, starts, ends
        return texts, (spans, offsets.astype(np.int64))
    if hasattr(outputs, "column_names"):         # a pyarrow Table
        if column not in outputs.column_names:
            raise KeyError(f"no column {column!r} in the table (columns: {', '.join(outputs.column_names)})")
        outputs = outputs.column(column)
    return _text_list(outputs, "outputs"), None


def _integers(values, field):
    """A Tokens field as an integer array; a TypeError for floats, booleans or objects (a token id
    or a byte offset is a whole number: a Delta refuses the rest too), unless it is empty."""
    array = np.asarray(values)
    if array.size and array.dtype.kind not in "iu":
        raise TypeError(f"Tokens.{field} must hold integers, not {array.dtype}")
    return array if array.size else array.astype(np.int64)


def _run(job, into=None):
    """The outcome of one contiguous chunk (in this process or a worker): tables compiled and tools
    read once per chunk for all its outputs. Messages: each output's flat summary row, folded in
    the core (fold_summaries; rows cross processes more cheaply than the dicts made of them);
    with `as_events`, Results of the events' wire dicts; with `into` (an ArrowRows), the rows
    written there (what `_run_arrow` makes its table of)."""
    formats, tools, prompts, finishes, texts, spans, offsets, as_events, errors, undeclared = job
    texts = _source(texts)
    tables = _once_each(formats, _compiled)
    declared = _once_each(tools, lambda t: t if t is None or isinstance(t, Declared) else Declared(t))
    with _no_collection():
        if not as_events:
            return fold_summaries(tables, declared, prompts, texts, finishes, spans, offsets,
                                  error_text if errors == "keep" else None, into, undeclared)
        results = []
        for i in range(len(texts)):
            try:
                own = None if spans is None else spans[offsets[i]:offsets[i + 1]]
                results.append(_events(tables[i], declared[i], prompts[i], texts[i], finishes[i], own, undeclared))
            except Exception as e:
                if errors == "raise":
                    raise
                results.append(Result(None, None, None, 0, 0, error_text(e)))
        return results


def _once_each(values, make):
    """[make(v) for v in values], made once per distinct object (most batches share one), with
    no Python step per value (the values, which `values` keeps alive, are told apart by id)."""
    made = {key: make(v) for key, v in dict(zip(map(id, values), values)).items()}
    return list(map(made.__getitem__, map(id, values)))


@contextlib.contextmanager
def _no_collection():
    """The cyclic garbage collector off while a chunk's messages are built: they hold no cycles,
    and with it on every pass walks the growing heap of them (a third of the batch's
    instructions at 4,000 outputs); the caller's setting is restored."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _run_arrow(job):
    """The Arrow table of a chunk: its rows written by the core into Arrow's buffers."""
    return _arrow_table(_run(job, ArrowRows()))


def _run_columns(job):
    """A chunk's summary rows, parsed in a worker, as the buffers an ArrowRows wrote them into
    (`columns()`): a few bytes objects cross back, where rows of strs cost the worker an encode
    of each str as it pickles them and the caller a decode; the caller makes rows of them
    (`_rows_of_columns`), a finish reason as given (lone surrogates too, as in one process)."""
    return _run(job, ArrowRows(crossing=True)).columns()


def _rows_of_columns(columns):
    return [row for batch in columns for row in summary_rows_of(batch)]


def _chunks(n, parts, first=1.0):
    """Contiguous [start, end) ranges splitting n into `parts` pieces (none empty), the first
    `first` times as large as each of the others."""
    parts = max(1, min(parts, n))
    total = first + parts - 1
    bounds = [0] + [min(n - parts + k, max(k, round(n * (first + k - 1) / total))) for k in range(1, parts)] + [n]
    return list(zip(bounds, bounds[1:]))


# The caller's own chunk against a shipped one's size. A shipped chunk costs its worker a little
# (its texts mapped, its result written), and the caller parses more slowly than a worker (the
# pool's threads run in it, its heap holds the batch), so the caller takes a little more than a
# worker's share. bench/batch.py --join N measures the split (bench/RESULTS.md).
CALLER_SHARE = 1.2

# Where the caller makes messages (dicts, Results) of the rows, it makes those of every worker's
# rows too, and the cyclic collector's first pass over them all after the batch is its as well:
# work no other process can take. So its own chunk is smaller, and each worker's is sent in
# ROW_PIECES pieces, so that it makes the messages of one while the worker parses the next.
CALLER_SHARE_ROWS = 0.6
ROW_PIECES = 4


class Pool(concurrent.futures.ProcessPoolExecutor):
    """Processes to parse in, counting the caller's: `processes` - 1 spawned workers (spawn: safe
    whatever the parent holds), and the calling process, which parses the first chunk of each
    batch itself while the others are parsed in the workers (it would only wait otherwise, and
    its chunk does not cross between processes). The files its chunks' texts cross in are kept
    for its next batches (batch_files.Regions: on /dev/shm, as many as a batch ships at most)
    until it shuts down. Its workers exit once this process is gone, and a SIGTERM removes its
    files (symphony.batch.teardown)."""

    def __init__(self, processes):
        if processes < 2:
            raise ValueError(f"a Pool is at least 2 processes (the caller and a worker), not {processes}")
        super().__init__(processes - 1, mp_context=multiprocessing.get_context("spawn"),
                         initializer=watch_parent, initargs=(os.getpid(),))
        self.processes = processes
        self.regions = Regions((processes - 1) * ROW_PIECES)

    def shutdown(self, wait=True, *, cancel_futures=False):
        super().shutdown(wait, cancel_futures=cancel_futures)
        self.regions.close()


def pool(workers):
    """A `Pool` of `workers` processes (the caller's among them), to keep across calls."""
    return Pool(workers)


def parse_many(format_or_model, outputs, tools=None, prompts=None, finish=None, workers=1, as_arrow=False,
               column="output", chat_template_kwargs=None, errors="raise", as_events=False, undeclared="call"):
    """Chat messages of many whole outputs, in order: the dicts `chat.message(symphony.parse(...))`
    gives, or with `as_arrow` a pyarrow Table (`arrow_schema()`), one row per output.

    format_or_model  a table name, a Format, or a checkpoint id (its table, and its generation-
                     prompt tail as the prompt where `prompts` gives none); or a list, one per output
    outputs          a list of str; a pyarrow string Array/ChunkedArray; a pyarrow Table (its
                     `column`); or `Tokens` (or a dict of its fields) for counted messages
    tools            OpenAI function tools: one list for all, or a list of lists (None: none)
    prompts, finish  a str for all or a list, one per output (finish None: "stop")
    workers          processes to spread the outputs over, this one among them (contiguous
                     chunks, order kept); or a `pool(N)` kept across calls, or any other
                     concurrent.futures Executor (which then gets every chunk)
    errors           "raise" (an output's error propagates) or "keep" (a failed output is
                     {"error": text}, in Arrow a row with only `error`)
    as_events        each output's events as wire dicts instead (`Event.to_dict()`)
    undeclared       what a call to a tool `tools` do not declare is: "call" (the default) or
                     "malformed" (`symphony.parser`'s option)
    """
    if as_arrow and as_events:
        raise ValueError("as_arrow and as_events: give one")
    args = (format_or_model, outputs, tools, prompts, finish, workers, column, chat_template_kwargs, errors,
            as_events, undeclared)
    if as_arrow:         # each chunk's table made where it was parsed: Arrow crosses processes cheaply
        import pyarrow as pa
        return pa.concat_tables(_chunked(*args, run=_run_arrow))
    if as_events:
        return [r.value if r.error is None else {"error": r.error} for r in results(*args)]
    with _no_collection():
        return _joined(_chunked(*args, run=_run, finish_rows=_messages))


def results(format_or_model, outputs, tools=None, prompts=None, finish=None, workers=1, column="output",
            chat_template_kwargs=None, errors="raise", as_events=False, undeclared="call"):
    """`parse_many`'s work as one `Result` per output, in order (what `symphony parse` counts)."""
    with _no_collection():
        return _joined(_chunked(format_or_model, outputs, tools, prompts, finish, workers, column,
                                chat_template_kwargs, errors, as_events, undeclared, run=_run,
                                finish_rows=None if as_events else _results))


def _messages(rows):
    """parse_many's dicts of a chunk's summary rows: the chat message, or {"error": text}."""
    return [choice if choice is not None else {"error": error} for choice, _, _, _, _, error in summary_messages(rows)]


def _results(rows):
    """The Results of a chunk's summary rows."""
    return summary_messages(rows, Result)


def json_lines(format_or_model, outputs, numbers, tools=None, prompts=None, finish=None, undeclared="call"):
    """The JSON lines `symphony parse` writes for the outputs, parsed in this process: a
    JsonLines whose `lines()` hold, a line per output, {"line": numbers[i], "message": ...,
    "finish_reason": ...} as json.dumps(..., ensure_ascii=False) writes chat.message's dict
    (or {"line": numbers[i], "error": ...}), with the calls and malformed bytes counted and the
    failed outputs listed. The arguments are parse_many's; a failed output is kept."""
    numbers = list(numbers)
    [written] = _chunked(format_or_model, outputs, tools, prompts, finish, 1, "output", None, "keep", False,
                         undeclared, run=lambda job: _run(job, JsonLines(numbers)))
    return written


def _joined(chunks):
    return chunks[0] if len(chunks) == 1 else [row for chunk in chunks for row in chunk]


def _chunked(format_or_model, outputs, tools, prompts, finish, workers, column, chat_template_kwargs, errors,
             as_events, undeclared, run, finish_rows=None):
    """`run` of each contiguous chunk of the outputs, in order: one chunk in this process, or one
    per worker (a few per worker where the caller makes messages of their rows: `finish_rows` of
    each chunk's, made as each lands while the workers parse on)."""
    if errors not in ERRORS:
        raise ValueError(f"errors must be one of {ERRORS}, not {errors!r}")
    if undeclared not in UNDECLARED:
        raise ValueError(f"undeclared must be one of {UNDECLARED}, not {undeclared!r}")
    if chat_template_kwargs is not None and not isinstance(chat_template_kwargs, dict):
        raise TypeError(f"chat_template_kwargs must be a dict or None, not {type(chat_template_kwargs).__name__}")
    workers = _checked_workers(workers)
    texts, token_data = _inputs(outputs, column)
    n = len(texts)
    formats, tails, resolved = _resolved(_per_output(format_or_model, n, "format_or_model", str),
                                         chat_template_kwargs)
    prompts = _per_output(_checked_texts(prompts, "prompts"), n, "prompts", str)
    finish = _checked_texts(finish, "finish")
    tools = _checked_tools(tools)
    if any(tail is not None for _, tail in resolved.values()):
        prompts = [p if p is not None else tail for p, tail in zip(prompts, tails)]
    finishes = [finish or "stop"] * n if finish is None or isinstance(finish, str) else \
        [f or "stop" for f in _per_output(finish, n, "finish", str)]
    tools = _per_output(tools, n, "tools", dict)
    spans, offsets = token_data if token_data is not None else (None, None)

    def job(start, end):
        if spans is None:
            own_spans, own_offsets = None, None
        else:
            own_spans = spans[offsets[start]:offsets[end]]
            own_offsets = offsets[start:end + 1] - offsets[start]
        return (formats[start:end], tools[start:end], prompts[start:end], finishes[start:end], texts[start:end],
                own_spans, own_offsets, as_events, errors, undeclared)

    def done(result):
        return result if finish_rows is None else finish_rows(result)

    if isinstance(workers, concurrent.futures.Executor):     # the caller's: left running
        executor, scope = workers, contextlib.nullcontext(workers)
    elif workers > 1 and n > 1:
        executor = scope = pool(workers)
    else:
        return [done(run(job(0, n)))]
    here = isinstance(executor, Pool)       # the caller parses the first chunk itself
    crossing = isinstance(executor, concurrent.futures.ProcessPoolExecutor)
    rows = run is _run and not as_events and crossing
    others = executor.processes - 1 if here else getattr(executor, "_max_workers", 2)
    pieces = ROW_PIECES if rows else 1
    share = (CALLER_SHARE_ROWS if rows else CALLER_SHARE) * pieces if here else 1.0
    chunks = _chunks(n, others * pieces + here, share)
    # a registered table crosses as its name: the worker compiles it once for all its calls
    by_name = _registered(resolved)
    if by_name:
        formats = list(map(by_name.get, map(id, formats), formats))
    outgoing = texts[chunks[0][1]:] if here else texts
    size = sum(map(len, outgoing)) if type(outgoing) is list else outgoing.nbytes     # about the bytes to ship
    # rows cross back as an ArrowRows' buffers, made rows again here
    remote, back = (_run_columns, _rows_of_columns) if rows else (run, None)
    with Scratch(size, executor.regions if here else None) as scratch, scope:
        sent = []
        try:
            for k, (start, end) in enumerate(chunks[1:] if here else chunks):     # each sent once written
                chunk = job(start, end)
                shipped = scratch.ship(k, chunk[:4] + (None,) + chunk[5:], chunk[4])
                sent.append((executor.submit(_remote, remote, shipped), shipped))
            own = []
            if here:
                for future, shipped in sent[:others]:        # (the next pieces wait for these)
                    wait_started(shipped, future)
                own.append(done(run(job(*chunks[0]))))
            for future, shipped in sent:
                landed = scratch.landed(shipped, future.result())
                own.append(done(landed if back is None else back(landed)))
            return own
        finally:     # on a failure, the chunks still running end before their directory goes
            concurrent.futures.wait([future for future, _ in sent if not future.cancel()])


def _remote(run, shipped):
    """A worker's part of a chunk: read it, `run` it, write the result; whether that is an Arrow
    table (batch_files.write_result)."""
    job, texts = unpacked(shipped)
    return write_result(shipped, run(job[:4] + (texts,) + job[5:]))


def _resolved(given, chat_template_kwargs):
    """(formats, tails, resolved): each output's Format and generation-prompt tail, every
    distinct format given resolved once (a str by its value, anything else by identity), and
    {key: (Format, tail)} of them; no Python step per output but a lookup in C."""
    resolved, found = {}, {}
    for i, f in dict(zip(map(id, given), given)).items():
        key = f if isinstance(f, str) else i
        if key not in resolved:
            found_format = resolve(f, chat_template_kwargs)
            resolved[key] = found_format.format, found_format.prompt_tail
        found[i] = resolved[key]
    pairs = list(map(found.__getitem__, map(id, given)))
    return list(map(operator.itemgetter(0), pairs)), list(map(operator.itemgetter(1), pairs)), resolved


def _registered(resolved):
    """id(Format) -> its table name, for the resolved formats that are the registry's own."""
    return {id(f): f.name for f, _ in resolved.values() if TABLES.get(f.name) is f}


def _compiled(format):
    """A chunk's format compiled: a Format, or the name of a registered table (from a parent)."""
    return (TABLES[format] if type(format) is str else format).compile()


def arrow_schema():
    """The Arrow table `parse_many(..., as_arrow=True)` returns: the message's fields, the token
    counts (null where uncounted), the malformed bytes and the error (null where it parsed)."""
    import pyarrow as pa
    call = pa.struct([("id", pa.string()), ("name", pa.string()), ("arguments", pa.string())])
    return pa.schema([("content", pa.string()), ("reasoning_content", pa.string()),
                      ("tool_calls", pa.list_(call)), ("finish_reason", pa.string()),
                      ("output_tokens", pa.int64()), ("reasoning_tokens", pa.int64()),
                      ("malformed_bytes", pa.int64()), ("error", pa.string())])


def to_arrow(results):
    """The Arrow table (`arrow_schema()`) of message Results."""
    rows = []
    for choice, output_tokens, reasoning_tokens, calls, malformed, error in results:
        if choice is None:
            rows.append((None, None, None, None, None, None, 0, 0, error))
            continue
        message = choice["message"]
        tool_calls = message.get("tool_calls")
        if tool_calls is not None:
            tool_calls = [(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in tool_calls]
        rows.append((message.get("content"), message.get("reasoning_content"), tool_calls, choice["finish_reason"],
                     output_tokens, reasoning_tokens, calls, malformed, error))
    return _summary_table(rows)


def _summary_table(rows):
    """The Arrow table (`arrow_schema()`) of summary rows (fold_summaries'), a column at a time."""
    import pyarrow as pa
    schema = arrow_schema()
    columns = [[r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows],
               [r[4] for r in rows], [r[5] for r in rows], [None if r[8] is not None else r[7] for r in rows],
               [r[8] for r in rows]]
    return pa.Table.from_arrays([pa.array(c, type=f.type) for c, f in zip(columns, schema)], schema=schema)


def _arrow_table(written):
    """The Arrow table (`arrow_schema()`) of what an ArrowRows wrote: a record batch per batch of
    its (`columns()`), made of the buffers as they are."""
    import pyarrow as pa
    schema = arrow_schema()
    return pa.Table.from_batches([_record_batch(schema, *batch) for batch in written.columns()], schema=schema)


def _record_batch(schema, rows, strings, ints, call_offsets, calls_valid):
    """The record batch (of `schema`, arrow_schema()'s) of one batch of an ArrowRows' buffers
    (Array.from_buffers: no str, no conversion; the texts' bytes wrapped as they are)."""
    import pyarrow as pa
    content, reasoning, finish, error, ids, names, arguments = (_strings(*column) for column in strings)
    listed = schema.field("tool_calls").type
    struct = pa.Array.from_buffers(listed.value_type, len(ids), [None], children=[ids, names, arguments])
    calls = pa.Array.from_buffers(listed, rows, [_bitmap(calls_valid), _offsets32(call_offsets)], children=[struct])
    tokens, reasoning_tokens, malformed = (pa.Array.from_buffers(pa.int64(), rows, [_bitmap(valid), pa.py_buffer(values)])
                                           for values, valid in ints)
    return pa.RecordBatch.from_arrays([content, reasoning, calls, finish, tokens, reasoning_tokens, malformed, error],
                                      schema=schema)


def _bitmap(valid):
    """Arrow's validity bitmap of a validity byte per row."""
    import pyarrow as pa
    return pa.py_buffer(np.packbits(np.frombuffer(valid, np.uint8), bitorder="little"))


def _offsets32(offsets):
    """Arrow's 32-bit offsets of int64 ones; a ValueError past what they hold (one output longer
    than 2 GiB: an ArrowRows seals its batches long before that otherwise)."""
    import pyarrow as pa
    offsets = np.frombuffer(offsets, np.int64)
    if len(offsets) and offsets[-1] >= 2 ** 31:
        raise ValueError(f"a batch's column holds {offsets[-1]} bytes: more than an Arrow string array holds")
    return pa.py_buffer(offsets.astype(np.int32))


def _strings(data, offsets, valid):
    """A string array from its UTF-8 bytes, int64 offsets and a validity byte per row."""
    import pyarrow as pa
    return pa.Array.from_buffers(pa.string(), len(valid), [_bitmap(valid), _offsets32(offsets), pa.py_buffer(data)])


def ray_map(dataset, format_or_model, column="output", tools=None, prompt_column=None, finish_column=None,
            keep=(), errors="keep", batch_size=1024, undeclared="call", **map_batches_args):
    """A Ray Data step: `dataset.map_batches` parsing each batch's `column` into the rows of
    `arrow_schema()` (`parse_many(..., as_arrow=True)`), the `keep` columns carried in front
    (an id, say). Prompts and finish reasons come from `prompt_column`/`finish_column` when given
    (null: none / "stop"); a failed output is a row with its `error` unless `errors="raise"`.
    Needs Ray (the `ray` extra); the step runs as Ray tasks, one table compile per batch.
    `undeclared`: `parse_many`'s."""
    step = functools.partial(_ray_batch, format_or_model=format_or_model, column=column, tools=tools,
                             prompt_column=prompt_column, finish_column=finish_column, keep=tuple(keep),
                             errors=errors, undeclared=undeclared)
    return dataset.map_batches(step, batch_format="pyarrow", batch_size=batch_size, **map_batches_args)


def _ray_batch(table, format_or_model, column, tools, prompt_column, finish_column, keep, errors, undeclared="call"):
    def values(name):
        return None if name is None else table.column(name).to_pylist()
    parsed = parse_many(format_or_model, table, tools=tools, prompts=values(prompt_column),
                        finish=values(finish_column), column=column, as_arrow=True, errors=errors,
                        undeclared=undeclared)
    for i, name in enumerate(keep):
        parsed = parsed.add_column(i, name, table.column(name))
    return parsed
