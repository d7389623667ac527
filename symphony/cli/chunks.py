"""One chunk of `symphony parse`'s input, from its raw lines (or Parquet rows) to what is written
for it, in whichever process parses it (the command's own, or a worker of its pool): each line's
record read, its job made (the table, tools, prompt and finish it names), the jobs parsed together
through symphony.batch, and the lines' output made (JSON lines, or an Arrow table). A line that
fails, for whatever reason, carries its error; the rest of its chunk is parsed."""
import json
from collections import namedtuple

from symphony.batch import Result, error_text, json_lines, parse_many, results, to_arrow
from symphony.resolve import resolve

Settings = namedtuple("Settings", "run format model tools events arrow undeclared", defaults=("call",))
Settings.__doc__ = """What every chunk of a run is parsed with: the run's token (a process keeps
its memos for one run), --format or --model (None where not given), --tools, whether the output
is events, whether it is Arrow (Parquet) rather than JSON lines, and --undeclared."""

Chunk = namedtuple("Chunk", "numbers written failed calls malformed size")
Chunk.__doc__ = """A chunk's outcome: its line numbers, what is written for it (the JSON lines'
UTF-8 bytes, or an Arrow table with a row per line, in line order), its failed lines as (number,
error) in line order, its calls and malformed bytes, and the UTF-8 bytes of its outputs."""


class LineError(Exception):
    """A line that cannot be parsed; the message says why."""


def _line_error(error):
    """The message of a line's failure: ours say what they are, the rest as symphony.batch says."""
    return str(error) if isinstance(error, LineError) else error_text(error)


def _checked(value, kind, name):
    """`value` (not its field's default) when it is of `kind`; the line's error otherwise."""
    if not isinstance(value, kind):
        raise LineError(f'"{name}" must be {kind.__name__ if kind is not str else "a string"}')
    return value


def _kwargs_key(kwargs):
    """A hashable key for a line's chat_template_kwargs (None when they hold a list or an
    object, which a key cannot: such lines are resolved each time)."""
    if kwargs is None:
        return ()
    try:
        key = tuple(sorted((name, type(value), value) for name, value in kwargs.items()))
        hash(key)
    except TypeError:
        return None
    return key


class _Jobs:
    """The job of each line, (Format, tools, prompt, finish, text), from its record:
    {"text": ..., "prompt"?, "format"?, "model"?, "chat_template_kwargs"?, "tools"?, "finish"?},
    with --format/--model/--tools for what a line leaves out. The table and prompt of a
    (format, model, kwargs) are found once per run: through the registry a model id costs
    microseconds, more than a short line's parse. At `LIMIT` distinct ones the memo starts over."""
    LIMIT = 4096

    def __init__(self, default_format, default_model, default_tools):
        self.default_format, self.default_model, self.default_tools = default_format, default_model, default_tools
        self.known = {}

    def __call__(self, record):
        get = record.get
        text = get("text")
        if not isinstance(text, str):
            raise LineError('no "text" string')
        prompt, finish, tools = get("prompt"), get("finish", "stop"), get("tools", self.default_tools)
        if prompt is not None:
            _checked(prompt, str, "prompt")
        _checked(finish, str, "finish")
        if tools is not self.default_tools:
            _checked(tools, list, "tools")
        table, model_prompt = self.table_and_prompt(get("format"), get("model"), get)
        return table, tools, model_prompt if prompt is None else prompt, finish, text

    def table_and_prompt(self, name, model_id, get):
        """(table, prompt) of a line: its "format" or "model" wins over --format/--model; a
        model (via the registry) brings its checkpoint's generation-prompt tail, honouring the
        line's "chat_template_kwargs"."""
        if name is not None:
            _checked(name, str, "format")
        if model_id is not None:
            _checked(model_id, str, "model")
        if name is None and model_id is None:
            name, model_id = self.default_format, self.default_model
        if name is None and model_id is None:
            raise LineError('no format: give --format/--model or a "format"/"model" field')
        kwargs = get("chat_template_kwargs") if name is None else None
        if kwargs is not None:
            _checked(kwargs, dict, "chat_template_kwargs")
        kwargs_key = _kwargs_key(kwargs)
        key = (name, model_id, kwargs_key)
        found = self.known.get(key) if kwargs_key is not None else None
        if found is None:
            try:
                resolved = resolve(name if name is not None else model_id, kwargs)
                found = resolved.format, resolved.prompt_tail
            except KeyError as e:
                raise LineError(str(e.args[0])) from None
            if kwargs_key is not None:
                if len(self.known) >= self.LIMIT:
                    self.known.clear()
                self.known[key] = found
        return found


def _record(raw):
    """The JSON object of one input line (UTF-8 bytes)."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LineError(f"not UTF-8: {e.reason} at byte {e.start}") from None
    try:
        record = json.loads(line)
    except ValueError as e:
        raise LineError(f"not JSON: {e}") from None
    except RecursionError:
        raise LineError("JSON nested too deeply to read") from None
    if not isinstance(record, dict):
        raise LineError("a line must be a JSON object with a \"text\" field")
    return record


class _JsonTexts:
    """The value of a JSON column's text, read once per distinct text of the run (a data set's
    rows mostly repeat their tools): equal texts give the one object, whose schemas the batch
    then compiles once. At `LIMIT` distinct texts the memo starts over."""
    LIMIT = 256

    def __init__(self):
        self.known = {}

    def __call__(self, text, name):
        found = self.known.get(text)
        if found is None:
            try:
                found = json.loads(text)
            except (ValueError, RecursionError):
                raise LineError(f'"{name}" is not JSON') from None
            if len(self.known) >= self.LIMIT:
                self.known.clear()
            self.known[text] = found
        return found


def _utf8_size(text):
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


_memo = (None, None, None)       # (run, _Jobs, _JsonTexts): this process's memos, for one run at a time


def _memos(settings):
    global _memo
    if _memo[0] != settings.run:
        _memo = (settings.run, _Jobs(settings.format, settings.model, settings.tools), _JsonTexts())
    return _memo[1], _memo[2]


def jsonl_chunk(settings, lines):
    """The Chunk of raw JSONL lines: (line number, UTF-8 bytes) pairs, blank lines left out."""
    job_of, _ = _memos(settings)
    return _parsed(settings, job_of, [(number, _record_or_error(raw)) for number, raw in lines])


def parquet_chunk(settings, first, part):
    """The Chunk of a Parquet record batch whose first row is line `first`: a row's columns are
    its fields (null: absent); a "tools" or "chat_template_kwargs" column may hold JSON text."""
    job_of, read = _memos(settings)
    rows = []
    for number, row in enumerate(part.to_pylist(), first):
        record = {k: v for k, v in row.items() if v is not None}
        try:
            for name in ("tools", "chat_template_kwargs"):
                if isinstance(record.get(name), str):
                    record[name] = read(record[name], name)
            rows.append((number, record))
        except LineError as e:
            rows.append((number, e))
    return _parsed(settings, job_of, rows)


def _record_or_error(raw):
    try:
        return _record(raw)
    except LineError as e:
        return e


def _parsed(settings, job_of, chunk):
    """The Chunk of (number, record or LineError) pairs: the records that make a job are parsed
    together through symphony.batch, the rest carry their line's error."""
    failed = {}                  # position -> the Result of a line that makes no job
    jobs, where = [], []
    for i, (_, record) in enumerate(chunk):
        try:
            if isinstance(record, LineError):
                raise record
            jobs.append(job_of(record))
            where.append(i)
        except Exception as e:    # whatever one line does, the others are still parsed
            failed[i] = Result(None, None, None, 0, 0, _line_error(e))
    numbers = [number for number, _ in chunk]
    formats, tools, prompts, finishes, texts = [list(c) for c in zip(*jobs)] or [[]] * 5
    parse = _arrow_chunk if settings.arrow else _event_chunk if settings.events else _message_chunk
    done = parse(formats, texts, dict(tools=tools, prompts=prompts, finish=finishes, undeclared=settings.undeclared), numbers, where, failed)
    return done._replace(size=sum(map(_utf8_size, texts)))


def _arrow_chunk(formats, texts, batch_args, numbers, where, failed):
    """The lines' Arrow rows as the core writes them, the failed lines' put in their places."""
    table = parse_many(formats, texts, as_arrow=True, errors="keep", **batch_args)
    if failed:
        import pyarrow as pa
        table = pa.concat_tables([table.slice(piece[0], piece[1] - piece[0]) if type(piece) is tuple
                                  else to_arrow([failed[piece]]) for piece in _line_order(failed, len(numbers))])
    calls, malformed, errors = _arrow_counts(table)
    return Chunk(numbers, table, [(numbers[i], e) for i, e in errors], calls, malformed, 0)


def _message_chunk(formats, texts, batch_args, numbers, where, failed):
    """The lines' JSON lines as the core writes them (a JsonLines), the failed lines' put in
    their places."""
    written = json_lines(formats, texts, [numbers[i] for i in where], **batch_args)
    data, starts = written.lines()
    if failed:
        bounds = list(memoryview(starts).cast("q")) + [len(data)]
        data = b"".join(data[bounds[piece[0]]:bounds[piece[1]]] if type(piece) is tuple
                        else _error_line(numbers[piece], failed[piece].error)
                        for piece in _line_order(failed, len(numbers)))
    errors = sorted([(numbers[i], r.error) for i, r in failed.items()] +
                    [(numbers[where[row]], error) for row, error in written.failures])
    return Chunk(numbers, data, errors, written.calls, written.malformed, 0)


def _line_order(failed, n):
    """How a chunk's n lines interleave, in line order: each run of its parsed lines as (start,
    stop) among the parsed ones, and each of its `failed` lines as its position (an int)."""
    start = taken = 0
    for i in range(n):
        if i not in failed:
            taken += 1
            continue
        if taken > start:
            yield start, taken
            start = taken
        yield i
    if taken > start:
        yield start, taken


def _event_chunk(formats, texts, batch_args, numbers, where, failed):
    """The lines of the outputs' events (`--events`), made here of the events' wire dicts."""
    done = dict(failed)
    if where:
        done.update(zip(where, results(formats, texts, as_events=True, errors="keep", **batch_args)))
    done = [done[i] for i in range(len(numbers))]
    return Chunk(numbers, b"".join(_event_line(n, r) for n, r in zip(numbers, done)),
                 [(n, r.error) for n, r in zip(numbers, done) if r.error is not None],
                 sum(r.calls for r in done), sum(r.malformed_bytes for r in done), 0)


_encode = json.JSONEncoder(ensure_ascii=False).encode


def _line_bytes(record):
    """A JSON line's UTF-8 (a lone surrogate in it, which UTF-8 cannot hold, as its JSON escape)."""
    return (_encode(record) + "\n").encode("utf-8", "backslashreplace")


def _error_line(number, error):
    return _line_bytes({"line": number, "error": error})


def _event_line(number, result):
    """The JSON line of a Result of events (`--events`)."""
    if result.error is not None:
        return _error_line(number, result.error)
    return _line_bytes({"line": number, "events": result.value})


def _arrow_counts(table):
    """(calls, malformed bytes, [(row, error)]) of a table of arrow_schema()'s rows."""
    calls = sum(len(part.flatten()) for part in table.column("tool_calls").chunks)
    malformed = sum(n for n in table.column("malformed_bytes").to_pylist() if n)
    errors = [(i, e) for i, e in enumerate(table.column("error").to_pylist()) if e is not None]
    return calls, malformed, errors
