"""The `symphony` command line: `symphony parse` turns a JSONL file of model outputs into chat
messages (or events), one output line in, one line out; a bad line gets an error naming it and
the run goes on."""
import argparse
import contextlib
import json
import sys

from symphony.formats import names as table_names
from symphony.formats import table as find_table
from symphony.models import for_model
from symphony.adapt import chat
from symphony.parser import parse


class LineError(Exception):
    """A line that cannot be parsed; the message says why."""


def _load_tools(path):
    try:
        with open(path, encoding="utf-8") as f:
            tools = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"symphony: cannot read tools from {path}: {e}")
    if isinstance(tools, dict) and "tools" in tools:
        tools = tools["tools"]
    if not isinstance(tools, list):
        raise SystemExit(f"symphony: {path} must hold a JSON list of tools")
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
    try:
        return parse(table, text, tools=tools, prompt=prompt, finish=finish)
    except ValueError as e:    # text a parser cannot take (a lone surrogate escape)
        raise LineError(str(e)) from None


@contextlib.contextmanager
def _open_lines(path):
    """The input's lines as bytes ("-": standard input); a file that cannot be read ends the run."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        yield stream if stream is not None else (line.encode("utf-8", "surrogatepass") for line in sys.stdin)
        return
    try:
        source = open(path, "rb")
    except OSError as e:
        raise SystemExit(f"symphony: cannot read {path}: {e.strerror}")
    with source:
        yield source


def run_parse(args):
    tools = _load_tools(args.tools) if args.tools else None
    if args.format is not None and args.model is not None:
        raise SystemExit("symphony: give --format or --model, not both")
    try:
        if args.format is not None:
            find_table(args.format)
        if args.model is not None:
            for_model(args.model)
    except KeyError as e:
        raise SystemExit(f"symphony: {e.args[0]}")
    failed = 0
    out = sys.stdout
    with _open_lines(args.input) as source:
        for number, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                events = parse_line(line, args.format, tools, args.model)
            except LineError as e:
                failed += 1
                print(f"symphony: {args.input}: line {number}: {e}", file=sys.stderr)
                out.write(json.dumps({"line": number, "error": str(e)}, ensure_ascii=False) + "\n")
                continue
            if args.events:
                record = {"line": number, "events": [e.to_dict() for e in events]}
            else:
                choice = chat.message(events)
                record = {"line": number, "message": choice["message"], "finish_reason": choice["finish_reason"]}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return 1 if failed else 0


def run_verify(args):
    from symphony import verify

    try:
        results = verify.verify_directory(args.directory, args.slug or None)
    except (OSError, ValueError) as e:
        raise SystemExit(f"symphony: {e}")
    print(verify.format_report(results, verbose=args.verbose))
    return 0 if all(r.ok or r.status == "unplaced" for r in results) else 1


def main(argv=None):
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
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
