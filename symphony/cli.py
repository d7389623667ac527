"""The `symphony` command line: `symphony parse` turns a JSONL file of model outputs into chat
messages (or events), one output line in, one line out; a line that fails, for whatever reason,
gets an error naming it and the run goes on. Exit status: 0 every line parsed, 1 some lines
failed, 2 a usage error (bad arguments, an unreadable input or tools file)."""
import argparse
import contextlib
import json
import sys

from symphony.formats import names as table_names
from symphony.formats import table as find_table
from symphony.models import for_model
from symphony.adapt import chat
from symphony.errors import ParseError
from symphony.parser import parse

EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE = 0, 1, 2


class LineError(Exception):
    """A line that cannot be parsed; the message says why."""


class UsageError(Exception):
    """A run that cannot start or go on (exit 2); the message says why."""


def _line_error(error):
    """The message of a line's failure: ours and the parser's say what they are, anything else
    (a RecursionError, a MemoryError, a TypeError) is named by its type."""
    if isinstance(error, (LineError, ParseError)):
        return str(error)
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


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


def _field(record, name, kind, default):
    value = record.get(name, default)
    if value is not default and not isinstance(value, kind):
        raise LineError(f'"{name}" must be {kind.__name__ if isinstance(kind, type) else "a string"}')
    return value


def _table_and_prompt(record, default_format, default_model):
    """The table a line is parsed with, and the prompt to seed it with when the line has none: a
    line's "format" or "model" wins over --format/--model; a model (via the registry) brings
    its checkpoint's generation-prompt tail, honouring the line's "chat_template_kwargs"."""
    name = _field(record, "format", str, None)
    model_id = _field(record, "model", str, None)
    if name is None and model_id is None:
        name, model_id = default_format, default_model
    if name is not None:
        try:
            return find_table(name), None
        except KeyError as e:
            raise LineError(str(e.args[0])) from None
    if model_id is None:
        raise LineError('no format: give --format/--model or a "format"/"model" field')
    kwargs = _field(record, "chat_template_kwargs", dict, None)
    try:
        model = for_model(model_id, kwargs)
    except KeyError as e:
        raise LineError(str(e.args[0])) from None
    return model.table(), model.prompt_tail


def parse_line(raw, default_format, default_tools, default_model=None):
    """The events of one input line (UTF-8 bytes): {"text": ..., "prompt"?, "format"?, "model"?,
    "chat_template_kwargs"?, "tools"?, "finish"?}."""
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
    text = record.get("text")
    if not isinstance(text, str):
        raise LineError('no "text" string')
    prompt = _field(record, "prompt", str, None)
    finish = _field(record, "finish", str, "stop")
    tools = _field(record, "tools", list, default_tools)
    table, model_prompt = _table_and_prompt(record, default_format, default_model)
    if prompt is None:
        prompt = model_prompt
    return parse(table, text, tools=tools, prompt=prompt, finish=finish)


def _output_line(raw, number, args, tools):
    """The JSON output line for one input line."""
    events = parse_line(raw, args.format, tools, args.model)
    if args.events:
        record = {"line": number, "events": [e.to_dict() for e in events]}
    else:
        choice = chat.message(events)
        record = {"line": number, "message": choice["message"], "finish_reason": choice["finish_reason"]}
    return json.dumps(record, ensure_ascii=False)


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


def run_parse(args):
    tools = _load_tools(args.tools) if args.tools else None
    if args.format is not None and args.model is not None:
        raise UsageError("give --format or --model, not both")
    try:
        if args.format is not None:
            find_table(args.format)
        if args.model is not None:
            for_model(args.model)
    except KeyError as e:
        raise UsageError(e.args[0]) from None
    failed = 0
    out = sys.stdout
    with _open_lines(args.input) as source:
        for number, raw in enumerate(source, 1):
            if not raw.strip():
                continue
            try:
                line = _output_line(raw, number, args, tools)
            except Exception as e:    # whatever one line does, the others are still parsed
                failed += 1
                reason = _line_error(e)
                print(f"symphony: {args.input}: line {number}: {reason}", file=sys.stderr)
                line = json.dumps({"line": number, "error": reason}, ensure_ascii=False)
            out.write(line + "\n")
    return EXIT_SOME_FAILED if failed else EXIT_OK


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
    p.add_argument("input", help='JSONL file, one {"text": ..., "prompt": ...} per line ("-": stdin)')
    p.add_argument("--format", help=f"table name ({', '.join(table_names())}); a line's \"format\" wins")
    p.add_argument("--model", help="a Hugging Face checkpoint id: its table and generation-prompt tail "
                   "(symphony.for_model); a line's \"model\" wins")
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
