"""The `symphony` command line: `symphony parse` turns a JSONL or Parquet file of model outputs
into chat messages (or events), one output in, one line or row out; a line that fails, for
whatever reason, gets an error naming it and the run goes on. The input is read in chunks of lines,
each parsed whole (symphony.cli.chunks) here or, with --workers, in a pool's workers, and written
in order. Exit status: 0 every line parsed, 1 some lines failed, 2 a usage error (bad arguments,
an unreadable input or tools file), 3 the run broke off (the input could not be read to its end:
what was parsed before is written; or the output could not be written: no file is left at
--output, which is written beside it and renamed into place once whole). On SIGTERM the output
being written is removed (symphony.batch.teardown)."""
import argparse
import collections
import concurrent.futures
import contextlib
import json
import os
import re
import sys
import tempfile
import time
import uuid

import symphony.batch.teardown as teardown
from symphony import verify
from symphony.batch import arrow_schema, pool
from symphony.cli.chunks import Settings, jsonl_chunk, parquet_chunk
from symphony.formats import from_response_template
from symphony.formats import names as table_names
from symphony.resolve import resolve

EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, EXIT_BROKE_OFF = 0, 1, 2, 3
CHUNK = 2048     # lines parsed together (in one process), and per progress step


class UsageError(Exception):
    """A run that cannot start or go on (exit 2); the message says why."""


class BrokeOff(Exception):
    """A run that could not go on part way (exit 3): the input could not be read on, or the
    output could not be written; the message says which."""


def _said(error):
    """An OSError's or a reader's error as one line."""
    text = error.strerror if isinstance(error, OSError) and error.strerror else str(error) or type(error).__name__
    return re.sub(r"[\s\x00-\x1f\x7f]+", " ", text).strip()


def _standard_input():
    """Standard input's binary stream (a text-only stand-in's lines as UTF-8); a usage error when
    it is closed."""
    if sys.stdin is None or sys.stdin.closed:
        raise UsageError("cannot read standard input: it is closed")
    stream = getattr(sys.stdin, "buffer", None)
    return stream if stream is not None else (line.encode("utf-8", "surrogatepass") for line in sys.stdin)


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


@contextlib.contextmanager
def _open_lines(path):
    """The input's lines as bytes ("-": standard input); a file that cannot be opened is a usage error."""
    if path == "-":
        yield _standard_input()
        return
    try:
        source = open(path, "rb")
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    with source:
        yield source


def _jsonl_chunks(path, chunk, progress):
    """The input's lines in chunks of `chunk`, each a list of (line number, raw bytes); blank
    lines skipped."""
    with _open_lines(path) as source:
        lines = []
        for number, raw in enumerate(source, 1):
            progress.update(len(raw))
            if not raw.strip():
                continue
            lines.append((number, raw))
            if len(lines) == chunk:
                yield lines
                lines = []
        if lines:
            yield lines


def _parquet_chunks(path, chunk, progress):
    """The input's rows in record batches of `chunk`, each with its first row's line number."""
    pq = _pyarrow_parquet()
    try:
        source = pq.ParquetFile(_read_whole(_standard_input()) if path == "-" else path)
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read {path} as Parquet: {_said(e)}") from None
    first = 1
    for part in source.iter_batches(batch_size=chunk):
        progress.update(part.num_rows)
        yield first, part
        first += part.num_rows


def _read_whole(stream):
    """A stream's bytes as a reader pyarrow takes (a Parquet file's footer is at its end: standard
    input is read whole first)."""
    import pyarrow as pa
    data = stream.read() if hasattr(stream, "read") else b"".join(stream)
    return pa.BufferReader(data)


def _until_unreadable(chunks, path, broke_off):
    """The chunks, until one cannot be read: then its error is put in `broke_off` and they end
    (the chunks before are parsed and written as usual)."""
    last = 0
    while True:
        try:
            chunk = next(chunks)
        except StopIteration:
            return
        except (OSError, ValueError) as e:        # (pyarrow's read errors are of these)
            broke_off.append(f"cannot read {'standard input' if path == '-' else path} after line {last}: "
                             f"{_said(e)}")
            return
        last = chunk[0] + chunk[1].num_rows - 1 if isinstance(chunk, tuple) else chunk[-1][0]
        yield chunk


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


class _Beside:
    """Where --output is written: a new file beside it, renamed onto it once whole, so that no half
    file is ever at --output (a target that is there and is no regular file, /dev/stdout say, is
    written as it is). Held for symphony.batch.teardown until then."""

    def __init__(self, path):
        self.name = path
        self.target = os.path.realpath(path)
        self.temporary = not os.path.exists(self.target) or os.path.isfile(self.target)
        if not self.temporary:
            self.path = self.target
            return
        directory, name = os.path.split(self.target)
        try:
            fd, self.path = tempfile.mkstemp(prefix=f".{name}.", suffix=".partial", dir=directory)
        except OSError as e:
            raise UsageError(f"cannot write {path}: {e.strerror}") from None
        teardown.hold(self.path)
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)         # (what open() would have made)
        os.close(fd)

    def commit(self):
        if self.temporary:
            os.replace(self.path, self.target)
            teardown.release(self.path)

    def discard(self):
        if self.temporary:
            teardown.remove(self.path)
            teardown.release(self.path)


def _written(write, name, failed=None):
    """write()'s value; an OSError of it (a full disk, say) the run's BrokeOff, once `failed()` (if
    given) has run. A broken pipe stays what it is: whoever read standard output has stopped,
    which is no error of the run."""
    try:
        return write()
    except OSError as e:
        if failed is not None:
            failed()
        if isinstance(e, BrokenPipeError):
            raise
        raise BrokeOff(f"cannot write {name}: {_said(e)}") from None


class _JsonlOut:
    """The JSON lines (UTF-8 bytes), to a file or standard output."""
    arrow = False

    def __init__(self, path):
        self.file = None
        if path is not None:
            self.file = _Beside(path)
            self.name = path
            try:
                self.out = open(self.file.path, "wb")
            except OSError as e:
                self.file.discard()
                raise UsageError(f"cannot write {path}: {e.strerror}") from None
            return
        self.name = "standard output"
        sys.stdout.flush()
        self.out = getattr(sys.stdout, "buffer", None)
        if self.out is None:        # a text-only stream standing in for standard output
            self.out = _Decoded(sys.stdout)

    def write(self, chunk):
        _written(lambda: self.out.write(chunk.written), self.name, self.failed)

    def close(self):
        """Everything written: the file renamed onto --output, or standard output flushed."""
        if self.file is None:
            return _written(self.out.flush, self.name, self.failed)
        _written(self.out.close, self.name)
        self.file.commit()

    def failed(self):
        """(Standard output that could not be written) pointed at /dev/null: what the failed write
        left in its buffer goes there as Python exits, rather than failing again."""
        if self.file is None:
            _silence_stdout()

    def discard(self):
        """(After a failure) no file left at --output."""
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.out.close()
            self.file.discard()


def _silence_stdout():
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


class _Decoded:
    """A text stream taking UTF-8 bytes."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, data):
        self.stream.write(data.decode("utf-8"))

    def flush(self):
        self.stream.flush()


class _ParquetOut:
    """One row per output: "line", then symphony.batch's Arrow columns (written by the core)."""
    arrow = True

    def __init__(self, path):
        import pyarrow as pa
        self.pq = _pyarrow_parquet()
        self.pa = pa
        self.schema = arrow_schema().insert(0, pa.field("line", pa.int64()))
        self.file = _Beside(path)
        self.name = path
        try:
            self.writer = self.pq.ParquetWriter(self.file.path, self.schema)
        except OSError as e:
            self.file.discard()
            raise UsageError(f"cannot write {path}: {_said(e)}") from None

    def write(self, chunk):
        table = chunk.written.add_column(0, "line", self.pa.array(chunk.numbers, self.pa.int64()))
        _written(lambda: self.writer.write_table(table), self.name)

    def close(self):
        """Its footer written and the file renamed onto --output."""
        _written(self.writer.close, self.name)
        self.file.commit()

    def discard(self):
        with contextlib.suppress(OSError):
            self.writer.close()
        self.file.discard()


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


def _in_order(parse, chunks, executor):
    """parse(*chunk) of each chunk, in order. With a pool of P processes, this process parses a
    chunk itself after handing the ones that follow it to the P - 1 workers, two each at most
    (one under way, one waiting: a worker that finishes has its next), so the workers start (a
    spawned worker takes a moment) while this one parses; a chunk's outcome is handed back once
    every chunk before it has been: at most 2(P - 1) in the workers and 4P held in all."""
    if executor is None:
        for chunk in chunks:
            yield parse(*chunk)
        return
    chunks = iter(chunks)
    most = 2 * (executor.processes - 1)
    queue = collections.deque()           # a worker's Future, or a list holding this process's outcome
    for own in chunks:
        mine = []
        queue.append(mine)
        while sum(isinstance(item, concurrent.futures.Future) for item in queue) < most:
            following = next(chunks, None)
            if following is None:
                break
            queue.append(executor.submit(parse, *following))
        mine.append(parse(*own))
        while queue and (_ready(queue[0]) or len(queue) > 2 * executor.processes):
            yield _result(queue.popleft())
    while queue:
        yield _result(queue.popleft())


def _ready(item):
    return item.done() if isinstance(item, concurrent.futures.Future) else True


def _result(item):
    return item.result() if isinstance(item, concurrent.futures.Future) else item[0]


def run_parse(args):
    _usage_checks(args)
    tools = _load_tools(args.tools) if args.tools else None
    settings = Settings(uuid.uuid4().hex, args.format, args.model, tools, args.events, args.output_kind == "parquet",
                        args.undeclared)
    if args.input_kind == "parquet":
        progress, chunks, parse = _Progress(None, "outputs", args.quiet), _parquet_chunks, parquet_chunk
    else:
        size = os.path.getsize(args.input) if args.input != "-" and os.path.isfile(args.input) else None
        progress, chunks, parse = _Progress(size, "B", args.quiet), _jsonl_chunks, jsonl_chunk
    summary = _Summary()
    out = None        # opened once the input has been read from (an unreadable input leaves no output)
    broke_off = []    # why the input could not be read to its end, once it could not
    executor = pool(args.workers) if args.workers > 1 else None
    try:
        readable = _until_unreadable(chunks(args.input, CHUNK, progress), args.input, broke_off)
        for done in _in_order(parse, _with(settings, readable), executor):
            out = out or _writer(args)
            summary.add(done)
            for number, error in done.failed:
                print(f"symphony: {args.input}: line {number}: {error}", file=sys.stderr)
            out.write(done)
        out = out or _writer(args)
        out.close()
    except BaseException:
        if out is not None:
            out.discard()
        raise
    finally:
        progress.close()
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    if not args.quiet:
        print(summary.line(), file=sys.stderr)
    if broke_off:
        raise BrokeOff(broke_off[0])
    return EXIT_SOME_FAILED if summary.failed else EXIT_OK


def _with(settings, chunks):
    """Each chunk as the arguments of its parse: the run's settings first."""
    for chunk in chunks:
        yield (settings,) + (chunk if isinstance(chunk, tuple) else (chunk,))


def _writer(args):
    return _ParquetOut(args.output) if args.output_kind == "parquet" else _JsonlOut(args.output)


def run_verify(args):
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
    p.add_argument("--undeclared", choices=("call", "malformed"), default="call",
                   help="a call to a tool the line's tools do not declare: a call (default: names are not "
                        "checked) or malformed, shown as content as the engines' parsers that check names refuse it")
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
    except BrokeOff as e:
        print(f"symphony: {e}", file=sys.stderr)
        return EXIT_BROKE_OFF
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
