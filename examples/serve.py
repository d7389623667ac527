"""A small OpenAI- and Anthropic-compatible HTTP endpoint that replays recorded model outputs
through symphony: a template for wiring symphony between an inference engine and an API server.

    pip install -e '.[serve]'
    python examples/serve.py ../shared/fixtures/bellwether/qwen3-8b.jsonl --port 8000

Routes: POST /v1/chat/completions, POST /v1/responses, POST /v1/messages (each streamed with
server-sent events when the body says `"stream": true`), GET /v1/models.

The "engine" here is `Recordings`: it answers a request with the decoded deltas of a recorded
output (bellwether fixture lines, or {"model", "text", "messages"?, "output_pieces"?,
"output_ids"?, "finish_reason"?} lines), picked by the `x-replay-case` header (a recording's
"id") or else by the request's last user text. Swap it for a real engine's token stream: the rest
is what a server does with symphony — one parser per choice, fed each delta, its events turned
into the wire shapes by `symphony.adapt`.
"""
import argparse
import itertools
import json
import re
import time

from starlette.applications import Starlette
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

import symphony
from symphony import Delta, End, TokenSpan
from symphony.adapt import chat, messages, responses
from symphony.tool_choice import for_tool_choice


class ApiError(Exception):
    """A request the API refuses: HTTP status, error type, message."""

    def __init__(self, status, kind, message):
        super().__init__(message)
        self.status, self.kind, self.message = status, kind, message


# --- the stand-in engine -----------------------------------------------------------------------

class Recording:
    __slots__ = ("id", "model", "text", "pieces", "ids", "finish", "user_text")

    def __init__(self, record, number):
        self.id = str(record.get("id", number))
        self.model = record["model"]
        reference = record.get("reference", {})
        self.text = reference.get("text", record.get("text"))
        if not isinstance(self.text, str):
            raise ValueError(f"recording {self.id}: no output text")
        self.pieces = record.get("output_pieces")
        self.ids = record.get("output_ids")
        if self.pieces is None or self.ids is None or len(self.pieces) != len(self.ids) \
                or "".join(self.pieces) != self.text:
            self.pieces, self.ids = None, None
        finish = reference.get("finish_reason", record.get("finish_reason"))
        self.finish = finish if isinstance(finish, str) else "stop"
        request = record.get("request", record)
        self.user_text = last_user_text(request.get("messages") or [])

    def deltas(self):
        """What an engine hands the server: decoded deltas (one token each, counted, when the
        recording has its token ids; else pieces of a few characters, uncounted)."""
        if self.pieces is None:
            return [Delta(self.text[i:i + 4]) for i in range(0, len(self.text), 4)] or [Delta("")]
        return [Delta(piece, [token_id], [TokenSpan(token_id, 0, len(piece.encode("utf-8")))])
                for piece, token_id in zip(self.pieces, self.ids)]


class Recordings:
    def __init__(self, paths):
        self.by_id = {}
        self.by_prompt = {}
        number = itertools.count()
        for path in paths:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        r = Recording(json.loads(line), next(number))
                        self.by_id[r.id] = r
                        self.by_prompt.setdefault((r.model, r.user_text), r)
        self.models = sorted({r.model for r in self.by_id.values()})

    def find(self, model, user_text, case_id):
        if model not in self.models:
            raise ApiError(404, "not_found", f"The model `{model}` does not exist")
        r = self.by_id.get(case_id) if case_id else self.by_prompt.get((model, user_text))
        if r is None or r.model != model:
            raise ApiError(400, "invalid_request", "no recorded output for this request")
        return r


def last_user_text(items):
    """The text of the last user message (Chat/Anthropic messages or Responses input items); a
    content part whose text is not a string is the request's error."""
    for item in reversed(items):
        if isinstance(item, dict) and item.get("role") == "user":
            content = item.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                texts = [part.get("text", "") for part in content if isinstance(part, dict)]
                if not all(isinstance(text, str) for text in texts):
                    raise ApiError(400, "invalid_request", "a content part's `text` must be a string")
                return "".join(texts)
    return ""


# --- requests ----------------------------------------------------------------------------------

async def json_body(request):
    """The request's JSON object, with the fields every route reads checked: anything else a
    client can send is a 400 in the route's error shape, never a 500."""
    raw = await request.body()
    try:
        body = json.loads(raw)
    except ValueError as e:
        raise ApiError(400, "invalid_request", f"the body is not JSON: {e}") from None
    except RecursionError:
        raise ApiError(400, "invalid_request", "the body is nested too deeply") from None
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_request", "the body must be a JSON object")
    if LONE_SURROGATE.search(raw) and not is_text(body):
        raise ApiError(400, "invalid_request", "the body holds a lone surrogate (\\ud800-\\udfff), which is not text")
    if not isinstance(body.get("model"), str):
        raise ApiError(400, "invalid_request", "`model` must be a string")
    for name in ("chat_template_kwargs", "stream_options"):
        if body.get(name) is not None and not isinstance(body[name], dict):
            raise ApiError(400, "invalid_request", f"`{name}` must be an object")
    return body


# The escape of a UTF-16 surrogate: only a body holding one can hold a lone one (JSON reads a
# pair of them as the one character they spell).
LONE_SURROGATE = re.compile(rb"\\u[dD][89abcdefABCDEF]")


def is_text(body):
    """Whether every string of the body is text (a lone surrogate is not: no UTF-8 holds it, so no
    answer could echo it)."""
    try:
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def function_tools(tools, shape):
    """The request's tools as OpenAI Chat function tools, the shape symphony types values by;
    `shape` is "chat", "responses" (flat function tools) or "messages" (Anthropic input_schema)."""
    if tools is None:
        return None
    if not isinstance(tools, list):
        raise ApiError(400, "invalid_request", "`tools` must be a list")
    out = []
    for i, tool in enumerate(tools):
        spec = tool.get("function") if shape == "chat" and isinstance(tool, dict) else tool
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or not spec["name"]:
            raise ApiError(400, "invalid_request", f"tools[{i}]: a tool needs a function name")
        schema = spec.get("input_schema" if shape == "messages" else "parameters", {})
        if not isinstance(schema, dict):
            raise ApiError(400, "invalid_request", f"tools[{i}]: the parameters schema must be an object")
        out.append({"type": "function", "function": {"name": spec["name"], "parameters": schema}})
    return out


def new_parser(body, tools):
    """One parser for one choice: the checkpoint's table seeded with its generation prompt, or the
    constrained parser a forced tool_choice asks for."""
    try:
        model = symphony.for_model(body["model"], body.get("chat_template_kwargs"))
    except KeyError as e:
        raise ApiError(404, "not_found", str(e.args[0])) from None
    tool_choice = body.get("tool_choice")
    try:
        if for_tool_choice(tool_choice) is not None:
            return symphony.parser(None, tools, tool_choice)
    except ValueError as e:
        raise ApiError(400, "invalid_request", str(e)) from None
    return model.parser(tools)


def request_user_text(body):
    """The last user text of a Chat/Anthropic `messages` list or a Responses `input`."""
    source = body["input"] if "input" in body else body.get("messages")
    if isinstance(source, str):
        return source
    return last_user_text(source if isinstance(source, list) else [])


def replay(request, body, tools, choices=1):
    """A generator of steps for the request's recording: per step, one event list per choice (the
    recorded deltas fed to every choice's parser in lockstep, then the End)."""
    recording = request.app.state.recordings.find(body["model"], request_user_text(body),
                                                  request.headers.get("x-replay-case"))
    parsers = [new_parser(body, tools) for _ in range(choices)]

    def steps():
        for delta in recording.deltas():
            yield [p.feed(delta) for p in parsers]
        yield [p.feed(End(recording.finish)) for p in parsers]
    return steps()


def sse(writes):
    """A server-sent event stream of the writes (one per engine step; empty ones skipped). The
    replay engine is synchronous and quick, so it runs on the event loop; a real engine awaits its
    next tokens here."""
    async def body():
        for w in writes:
            if w:
                yield w
    return StreamingResponse(body(), media_type="text/event-stream")


def new_id(prefix):
    return f"{prefix}{time.time_ns():x}"


# --- Chat Completions --------------------------------------------------------------------------

async def chat_completions(request):
    body = await json_body(request)
    tools = function_tools(body.get("tools"), "chat")
    n = body.get("n")
    n = 1 if n is None else n
    if type(n) is not int or not 1 <= n <= 16:
        raise ApiError(400, "invalid_request", "`n` must be an integer from 1 to 16")
    steps = replay(request, body, tools, n)
    cid, created, model = new_id("chatcmpl-"), int(time.time()), body["model"]
    prompt_tokens = 0     # the replay does not tokenize the prompt; an engine passes its count
    if not body.get("stream"):
        runs = [[] for _ in range(n)]
        for step in steps:
            for run, events in zip(runs, step):
                run += events
        usage = chat.usage(*runs, prompt_tokens=prompt_tokens)
        return JSONResponse(chat.completion([chat.message(run, i) for i, run in enumerate(runs)],
                                            cid, created, model, usage))
    include_usage = (body.get("stream_options") or {}).get("include_usage")

    def lines():
        streams = [chat.Stream(i) for i in range(n)]
        runs = [[] for _ in range(n)]
        yield "".join(_data(chat.chunk(s.start(), cid, created, model)) for s in streams)
        for step in steps:
            out = []
            for s, run, events in zip(streams, runs, step):
                run += events
                out += [_data(chat.chunk([choice], cid, created, model)) for e in events for choice in s.feed(e)]
            yield "".join(out)
        if include_usage:
            yield _data(chat.chunk([], cid, created, model, chat.usage(*runs, prompt_tokens=prompt_tokens)))
        yield "data: [DONE]\n\n"
    return sse(lines())


def _data(obj):
    return f"data: {json.dumps(obj, ensure_ascii=False)}\n\n"


def _events(objs):
    """Server-sent events named by each object's type, as one write."""
    return "".join(f"event: {o['type']}\ndata: {json.dumps(o, ensure_ascii=False)}\n\n" for o in objs)


# --- Responses ---------------------------------------------------------------------------------

async def create_response(request):
    body = await json_body(request)
    tools = function_tools(body.get("tools"), "responses")
    steps = replay(request, body, tools)
    rid, created, model = new_id("resp_"), int(time.time()), body["model"]
    if not body.get("stream"):
        events = [e for step in steps for e in step[0]]
        return JSONResponse(responses.response(responses.output(events, rid), rid, created, model,
                                               responses.usage(events, 0)))

    def lines():
        stream = responses.Stream(rid, created, model)
        events = []
        yield _events(stream.start())
        for step in steps:
            events += step[0]
            yield _events(w for e in step[0] for w in stream.feed(e))
        yield _events(stream.close(responses.usage(events, 0)))
    return sse(lines())


# --- Anthropic Messages ------------------------------------------------------------------------

async def create_message(request):
    body = await json_body(request)
    tools = function_tools(body.get("tools"), "messages")
    steps = replay(request, body, tools)
    mid, model = new_id("msg_"), body["model"]
    if not body.get("stream"):
        events = [e for step in steps for e in step[0]]
        return JSONResponse(messages.message(messages.output(events), mid, model, _anthropic_usage(events)))

    def lines():
        stream = messages.Stream()
        events = []
        yield _events([messages.message_start(mid, model, 0)])
        for step in steps:
            events += step[0]
            yield _events(w for e in step[0] for w in stream.feed(e))
        yield _events(stream.close() + [messages.message_delta(stream.stop_reason,
                                                               _anthropic_usage(events)["output_tokens"]),
                                        messages.message_stop()])
    return sse(lines())


def _anthropic_usage(events):
    """Anthropic's schema requires counts: symphony's when the deltas were counted; a recording
    without token ids has none, and this replay then reports 0 rather than invent a number (a
    real engine knows how many tokens it generated)."""
    usage = messages.usage(events, 0)
    return usage if usage is not None else {"input_tokens": 0, "output_tokens": 0}


# --- the app -----------------------------------------------------------------------------------

async def list_models(request):
    return JSONResponse({"object": "list", "data": [
        {"id": m, "object": "model", "created": 0, "owned_by": "symphony-replay"}
        for m in request.app.state.recordings.models]})


class AsciiJSONResponse(JSONResponse):
    """An error's JSON as ASCII: its message may quote what the client sent."""

    def render(self, content):
        return json.dumps(content, separators=(",", ":")).encode("ascii")


def _openai_error(e):
    return AsciiJSONResponse({"error": {"message": e.message, "type": f"{e.kind}_error", "param": None,
                                        "code": e.kind}}, status_code=e.status)


def _anthropic_error(e):
    return AsciiJSONResponse({"type": "error", "error": {"type": f"{e.kind}_error", "message": e.message}},
                             status_code=e.status)


def _route(path, handler, error_shape):
    async def endpoint(request):
        try:
            return await handler(request)
        except ApiError as e:
            return error_shape(e)
    return Route(path, endpoint, methods=["POST"])


def make_app(recording_paths):
    app = Starlette(routes=[
        _route("/v1/chat/completions", chat_completions, _openai_error),
        _route("/v1/responses", create_response, _openai_error),
        _route("/v1/messages", create_message, _anthropic_error),
        Route("/v1/models", list_models, methods=["GET"]),
    ])
    app.state.recordings = Recordings(recording_paths)
    return app


def main(argv=None):
    import uvicorn

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("recordings", nargs="+", help="JSONL files of recorded outputs")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000)
    args = ap.parse_args(argv)
    uvicorn.run(make_app(args.recordings), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
