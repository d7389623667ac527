"""The `symphony` command line: `symphony parse` turns a JSONL or Parquet file of model outputs
into chat messages (or events), one output in, one line or row out, through symphony.batch; a line
that fails, for whatever reason, gets an error naming it and the run goes on. Exit status: 0 every
line parsed, 1 some lines failed, 2 a usage error (bad arguments, an unreadable input or tools file)."""
import argparse
import contextlib
import json
import os
import sys
import time
from collections import namedtuple

from symphony.batch import Result, arrow_schema, error_text, parse_many, pool, resolve, results, to_arrow
from symphony.formats import from_response_template
from symphony.formats import names as table_names

EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE = 0, 1, 2
CHUNK = 2048     # outputs handed to symphony.batch at once (and per progress step)


class LineError(Exception):
    """A line that cannot be parsed; the message says why."""


class UsageError(Exception):
    """A run that cannot start or go on (exit 2); the message says why."""


def _line_error(error):
    """The message of a line's failure: ours say what they are, the rest as symphony.batch says."""
    return str(error) if isinstance(error, LineError) else error_text(error)


def _load_tools(path):
    try:
        with open(path, encoding="utf-8") as f:
            tools = json.load(f)
    except RecursionError:
        raise UsageError(f"cannot read tools from {path}: nested too deeply") from None
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read tools from {path}: {e}") from None
    if isinstance(tools, dict) and "tools" in tools:
        tools = tools["tools"]
    if not isinstance(tools, list):
        raise UsageError(f"{path} must hold a JSON list of tools")
    return tools


def _load_response_template(path):
    """The table of the response_template in `path`: a tokenizer config holding one, or the
    template itself."""
    try:
        with open(path, encoding="utf-8") as f:
            template = json.load(f)
    except (OSError, ValueError, RecursionError) as e:
        raise UsageError(f"cannot read a response template from {path}: {e}") from None
    if isinstance(template, dict) and "response_template" in template:
        template = template["response_template"]
    try:
        return from_response_template(template, "response_template")
    except ValueError as e:
        raise UsageError(f"{path}: {e}") from None


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
        if not isinstance(finish, str):
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
                found = resolve(name if name is not None else model_id, kwargs)
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


@contextlib.contextmanager
def _open_lines(path):
    """The input's lines as bytes ("-": standard input); a file that cannot be opened is a usage error."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        yield stream if stream is not None else (line.encode("utf-8", "surrogatepass") for line in sys.stdin)
        return
    try:
        source = open(path, "rb")
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    with source:
        yield source


def _jsonl_rows(path, chunk, progress):
    """(line number, record or LineError) in chunks of `chunk` lines; blank lines skipped."""
    with _open_lines(path) as source:
        rows = []
        for number, raw in enumerate(source, 1):
            progress.update(len(raw))
            if not raw.strip():
                continue
            try:
                rows.append((number, _record(raw)))
            except LineError as e:
                rows.append((number, e))
            if len(rows) == chunk:
                yield rows
                rows = []
        if rows:
            yield rows


def _parquet_rows(path, chunk, progress):
    """(row number, record) in chunks: a row's columns are its fields (null: absent); a "tools" or
    "chat_template_kwargs" column may hold JSON text."""
    pq = _pyarrow_parquet()
    try:
        source = pq.ParquetFile(sys.stdin.buffer.read() if path == "-" else path)
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read {path} as Parquet: {e}") from None
    number = 0
    read = _JsonTexts()
    for part in source.iter_batches(batch_size=chunk):
        rows = []
        for row in part.to_pylist():
            number += 1
            record = {k: v for k, v in row.items() if v is not None}
            try:
                for name in ("tools", "chat_template_kwargs"):
                    if isinstance(record.get(name), str):
                        record[name] = read(record[name], name)
                rows.append((number, record))
            except LineError as e:
                rows.append((number, e))
        progress.update(len(rows))
        yield rows


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


def _pyarrow_parquet():
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise UsageError("Parquet needs pyarrow: pip install 'symphony-llm-parser[arrow]'") from None
    return pq


def _kind(path, given):
    if given is not None:
        return given
    if path is not None and path.lower().endswith((".parquet", ".pq")):
        return "parquet"
    return "jsonl"


class _Progress:
    """A tqdm bar on standard error when it is a terminal and tqdm is installed (the `cli`
    extra), shown only once a run lasts a second; otherwise nothing."""

    def __init__(self, total, unit, quiet):
        self.bar = None
        if quiet or not sys.stderr.isatty():
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        self.bar = tqdm(total=total, unit=unit, unit_scale=True, delay=1.0, file=sys.stderr, leave=False)

    def update(self, n):
        if self.bar is not None:
            self.bar.update(n)

    def close(self):
        if self.bar is not None:
            self.bar.close()


class _JsonlOut:
    """One JSON line per output: its message and finish reason (or its events), or its error."""
    arrow = False

    def __init__(self, path, events):
        self.events = events
        self.encode = json.JSONEncoder(ensure_ascii=False).encode
        self.out = sys.stdout
        self.own = None
        if path is not None:
            try:
                self.own = self.out = open(path, "w", encoding="utf-8", errors="backslashreplace")
            except OSError as e:
                raise UsageError(f"cannot write {path}: {e.strerror}") from None

    def write(self, numbers, results):
        lines = []
        for number, result in zip(numbers, results):
            if result.error is not None:
                record = {"line": number, "error": result.error}
            elif self.events:
                record = {"line": number, "events": result.value}
            else:
                record = {"line": number, "message": result.value["message"],
                          "finish_reason": result.value["finish_reason"]}
            lines.append(self.encode(record))
        lines.append("")
        self.out.write("\n".join(lines))

    def close(self):
        if self.own is not None:
            self.own.close()


class _ParquetOut:
    """One row per output: "line", then symphony.batch's Arrow columns (written by the core)."""
    arrow = True

    def __init__(self, path):
        import pyarrow as pa
        self.pq = _pyarrow_parquet()
        self.pa = pa
        self.schema = arrow_schema().insert(0, pa.field("line", pa.int64()))
        try:
            self.writer = self.pq.ParquetWriter(path, self.schema)
        except OSError as e:
            raise UsageError(f"cannot write {path}: {e}") from None

    def write(self, numbers, table):
        self.writer.write_table(table.add_column(0, "line", self.pa.array(numbers, self.pa.int64())))

    def close(self):
        self.writer.close()


def _usage_checks(args):
    if sum(x is not None for x in (args.format, args.model, args.response_template)) > 1:
        raise UsageError("give one of --format, --model and --response-template")
    if args.response_template is not None:
        args.format = _load_response_template(args.response_template)
    for name in (args.format, args.model):
        if name is not None:
            try:
                resolve(name)
            except KeyError as e:
                raise UsageError(e.args[0]) from None
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    args.input_kind = _kind(args.input, args.input_format)
    args.output_kind = _kind(args.output, args.output_format)
    if args.output_kind == "parquet":
        if args.output is None:
            raise UsageError("Parquet output needs --output FILE")
        if args.events:
            raise UsageError("--events writes JSONL")
    if "parquet" in (args.input_kind, args.output_kind):
        _pyarrow_parquet()


def _utf8_size(text):
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


class _Chunk(namedtuple("_Chunk", "numbers parsed failed calls malformed size")):
    """A chunk's outcome: its line numbers, what its writer writes (a Result per line, or, for
    Arrow, a table with a row per line), its failed lines as (number, error), its calls and
    malformed bytes, and the UTF-8 bytes of its outputs."""


def _parse_chunk(chunk, job_of, executor, events=False, arrow=False):
    """The _Chunk of (number, record or LineError) pairs: the records that make a job are parsed
    together through symphony.batch, the rest carry their line's error."""
    failed = {}
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
    columns = [list(c) for c in zip(*jobs)] or [[]] * 5
    formats, job_tools, prompts, finishes, texts = columns
    size = sum(map(_utf8_size, texts))
    batch_args = dict(tools=job_tools, prompts=prompts, finish=finishes, workers=executor or 1, errors="keep")
    if arrow:
        table = parse_many(formats, texts, as_arrow=True, **batch_args) if jobs else to_arrow([])
        table = _in_line_order(table, failed, len(chunk))
        calls, malformed, errors = _arrow_counts(table)
        return _Chunk(numbers, table, [(numbers[i], e) for i, e in errors], calls, malformed, size)
    parsed = results(formats, texts, as_events=events, **batch_args) if jobs else []
    done = [None] * len(chunk)
    for i, result in zip(where, parsed):
        done[i] = result
    for i, result in failed.items():
        done[i] = result
    return _Chunk(numbers, done, [(n, r.error) for n, r in zip(numbers, done) if r.error is not None],
                  sum(r.calls for r in done), sum(r.malformed_bytes for r in done), size)


def _in_line_order(table, failed, n):
    """The chunk's table: `table`'s rows (the parsed lines', in order) with the rows of the
    `failed` lines (position -> Result) put in their places, n rows in all."""
    if not failed:
        return table
    import pyarrow as pa
    pieces, start, taken = [], 0, 0
    for i in range(n):
        if i not in failed:
            taken += 1
            continue
        if taken > start:
            pieces.append(table.slice(start, taken - start))
            start = taken
        pieces.append(to_arrow([failed[i]]))
    if taken > start:
        pieces.append(table.slice(start, taken - start))
    return pa.concat_tables(pieces)


def _arrow_counts(table):
    """(calls, malformed bytes, [(row, error)]) of a table of arrow_schema()'s rows."""
    calls = sum(len(part.flatten()) for part in table.column("tool_calls").chunks)
    malformed = sum(n for n in table.column("malformed_bytes").to_pylist() if n)
    errors = [(i, e) for i, e in enumerate(table.column("error").to_pylist()) if e is not None]
    return calls, malformed, errors


class _Summary:
    """What the run did, for the line on stderr at its end."""

    def __init__(self):
        self.outputs = self.calls = self.malformed = self.failed = self.bytes = 0
        self.started = time.perf_counter()

    def add(self, chunk):
        self.outputs += len(chunk.numbers)
        self.calls += chunk.calls
        self.malformed += chunk.malformed
        self.failed += len(chunk.failed)
        self.bytes += chunk.size

    def line(self):
        seconds = time.perf_counter() - self.started
        return (f"symphony: {self.outputs} outputs, {self.calls} calls, {self.malformed} malformed bytes, "
                f"{self.failed} failed lines, {seconds:.2f} s, {self.bytes / 1e6 / max(seconds, 1e-9):.1f} MB/s")


def run_parse(args):
    _usage_checks(args)
    tools = _load_tools(args.tools) if args.tools else None
    if args.input_kind == "parquet":
        progress, rows = _Progress(None, "outputs", args.quiet), _parquet_rows
    else:
        size = os.path.getsize(args.input) if args.input != "-" and os.path.isfile(args.input) else None
        progress, rows = _Progress(size, "B", args.quiet), _jsonl_rows
    job_of = _Jobs(args.format, args.model, tools)
    summary = _Summary()
    out = None        # opened once the input has been read from (an unreadable input leaves no output)
    executor = pool(args.workers) if args.workers > 1 else None
    try:
        for chunk in rows(args.input, CHUNK, progress):
            out = out or _writer(args)
            done = _parse_chunk(chunk, job_of, executor, args.events, out.arrow)
            summary.add(done)
            for number, error in done.failed:
                print(f"symphony: {args.input}: line {number}: {error}", file=sys.stderr)
            out.write(done.numbers, done.parsed)
        out = out or _writer(args)
    finally:
        progress.close()
        if executor is not None:
            executor.shutdown()
        if out is not None:
            out.close()
    if not args.quiet:
        print(summary.line(), file=sys.stderr)
    return EXIT_SOME_FAILED if summary.failed else EXIT_OK


def _writer(args):
    return _ParquetOut(args.output) if args.output_kind == "parquet" else _JsonlOut(args.output, args.events)


def run_verify(args):
    from symphony import verify

    try:
        results = verify.verify_directory(args.directory, args.slug or None)
    except (OSError, ValueError) as e:
        raise UsageError(str(e)) from None
    print(verify.format_report(results, verbose=args.verbose))
    return EXIT_OK if all(r.ok or r.status == "unplaced" for r in results) else EXIT_SOME_FAILED


def _encode_output_safely():
    """Standard output is UTF-8 whatever the locale (JSON Lines are UTF-8); a lone surrogate, which
    UTF-8 cannot encode, can only sit inside a JSON string there, where backslashreplace writes
    exactly its JSON escape. Standard error keeps the locale's encoding, and backslashreplace
    (Python's default for it) for what that cannot encode."""
    for stream, encoding in ((sys.stdout, "utf-8"), (sys.stderr, None)):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding=encoding, errors="backslashreplace")


def main(argv=None):
    """Runs the command line and returns its exit status (0, 1 or 2), never raising SystemExit;
    it leaves standard output set to UTF-8."""
    parser = argparse.ArgumentParser(prog="symphony", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("parse", help="parse a JSONL file of model outputs into chat messages")
    p.add_argument("input", help='JSONL file, one {"text": ..., "prompt": ...} per line, or a Parquet file '
                   'with those columns ("-": stdin)')
    p.add_argument("--input-format", choices=("jsonl", "parquet"), help="default: by suffix (.parquet, .pq)")
    p.add_argument("--output", help="write here instead of standard output")
    p.add_argument("--output-format", choices=("jsonl", "parquet"),
                   help="default: by --output's suffix (.parquet, .pq), else JSONL")
    p.add_argument("--workers", type=int, default=1, help="processes to parse in (default 1)")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no summary on stderr")
    p.add_argument("--format", help=f"table name ({', '.join(table_names())}); a line's \"format\" wins")
    p.add_argument("--model", help="a Hugging Face checkpoint id: its table and generation-prompt tail "
                   "(symphony.for_model); a line's \"model\" wins")
    p.add_argument("--response-template", metavar="FILE",
                   help="a checkpoint's response_template (JSON: the template, or a tokenizer config holding one): "
                        "its table (what vLLM's hf and beam parsers read)")
    p.add_argument("--tools", help="JSON file with the request's tools (OpenAI function tools)")
    p.add_argument("--events", action="store_true", help="write the events instead of the chat message")
    p.set_defaults(run=run_parse)
    v = commands.add_parser("verify", help="replay a directory of recorded fixtures at every chunking "
                            "and print the verdict per checkpoint")
    v.add_argument("directory", help="a directory of <slug>.jsonl fixture files (bellwether format)")
    v.add_argument("--slug", action="append", help="only this slug (repeatable)")
    v.add_argument("--verbose", action="store_true", help="list every case's verdict")
    v.set_defaults(run=run_verify)
    _encode_output_safely()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:    # argparse's usage errors (2) and --help (0)
        return e.code
    try:
        return args.run(args)
    except UsageError as e:
        print(f"symphony: {e}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
