"""examples/serve.py over a real socket: the official `openai` and `anthropic` clients consume it,
streamed and whole, and what they assemble equals symphony's whole form of each recorded output;
bad requests get the API's error shape with a 4xx."""
import importlib.util
import json
import os
import socket
import threading
import time

import pytest

import symphony
from symphony.adapt import chat, messages, responses
from tests.streams import FIXTURES

uvicorn = pytest.importorskip("uvicorn")
openai = pytest.importorskip("openai")
anthropic = pytest.importorskip("anthropic")

ROOT = os.path.join(os.path.dirname(__file__), os.pardir)
EXAMPLE = os.path.join(ROOT, "examples", "qwen3.jsonl")


def _load_serve():
    spec = importlib.util.spec_from_file_location("serve", os.path.join(ROOT, "examples", "serve.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


serve = _load_serve()


def recording_files():
    if FIXTURES and os.path.isdir(FIXTURES):
        return sorted(os.path.join(FIXTURES, f) for f in os.listdir(FIXTURES) if f.endswith(".jsonl"))
    return []


def recorded_cases(paths):
    """Every recording a placed checkpoint's table parses: (case id, model, tools, kwargs, text, finish)."""
    cases = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                c = json.loads(line)
                try:
                    symphony.for_model(c["model"])
                except KeyError:
                    continue
                cases.append(c)
    return cases


# calls whose arguments hold numbers no JSON decoder keeps (README, wire adapters): each API answers
NUMBERS = ('<tool_call>\n{"name": "f", "arguments": {"a": 1, "b": 1e999, "c": 2}}\n</tool_call>\n'
           '<tool_call>\n{"name": "g", "arguments": {"x": "y", "n": ' + "9" * 4301 + '}}\n</tool_call>')


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    own = tmp_path_factory.mktemp("rec") / "own.jsonl"
    with open(own, "w", encoding="utf-8") as f:
        f.write(json.dumps({"id": "own-1", "model": "Qwen/Qwen3-8B", "messages": [{"role": "user", "content": "hi"}],
                            "text": "<think>\nhm\n</think>\n\nHello <tool_call>\n"
                                    '{"name": "f", "arguments": {"x": 1}}\n</tool_call>'}) + "\n")
        f.write(json.dumps({"id": "own-numbers", "model": "Qwen/Qwen3-8B",
                            "messages": [{"role": "user", "content": "numbers"}], "text": NUMBERS}) + "\n")
    app = serve.make_app([str(own)] + recording_files())
    sock = socket.socket()
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)    # else each keep-alive reply waits ~40 ms for a delayed ACK
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not srv.started:
        assert time.time() < deadline, "server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", app
    srv.should_exit = True
    thread.join(timeout=10)


def whole_events(app, case_id, tools=None):
    r = app.state.recordings.by_id[case_id]
    parser = symphony.for_model(r.model).parser(tools)
    events = []
    for d in r.deltas():
        events += parser.feed(d)
    return events + parser.feed(symphony.End(r.finish))


_CLIENTS = {}
SDK_ADDED = ("parsed", "parsed_arguments")


def openai_client(base):
    if base not in _CLIENTS:
        _CLIENTS[base] = openai.OpenAI(base_url=base + "/v1", api_key="unused", max_retries=0)
    return _CLIENTS[base]


def chat_tools(case):
    return (case.get("request") or {}).get("tools") or case.get("tools") or None


def check_chat(base, app, case_id, model, tools):
    client = openai_client(base)
    want = chat.message(whole_events(app, case_id, tools))
    headers = {"x-replay-case": case_id}
    kwargs = {"model": model, "messages": [{"role": "user", "content": "-"}], "extra_headers": headers}
    if tools:
        kwargs["tools"] = tools
    got = client.chat.completions.create(**kwargs)
    m = got.choices[0].message
    assert (m.content, getattr(m, "reasoning_content", None)) == (want["message"]["content"],
                                                                  want["message"]["reasoning_content"])
    calls = [(t.id, t.function.name, t.function.arguments) for t in m.tool_calls or []]
    assert calls == [(t["id"], t["function"]["name"], t["function"]["arguments"])
                     for t in want["message"]["tool_calls"] or []]
    assert got.choices[0].finish_reason == want["finish_reason"]
    with client.chat.completions.stream(**kwargs, stream_options={"include_usage": True}) as stream:
        for _ in stream:
            pass
        snapshot = stream.current_completion_snapshot
    s = snapshot.choices[0].message
    assert (s.content, getattr(s, "reasoning_content", None)) == (m.content, getattr(m, "reasoning_content", None))
    assert [(t.id, t.function.name, t.function.arguments) for t in s.tool_calls or []] == calls
    assert snapshot.choices[0].finish_reason == want["finish_reason"]
    assert snapshot.usage == got.usage


def wire(model):
    """What a client-side SDK object holds, as wire dicts: the keys it was given (the SDK's stream
    helpers add `parsed`, `parsed_arguments` to what they assemble, which no server sends)."""
    def clean(v):
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items() if not (k in SDK_ADDED and x is None)}
        if isinstance(v, list):
            return [clean(x) for x in v]
        return v
    return clean(model.model_dump(exclude_unset=True))


def check_responses(base, app, case_id, model, tools):
    client = openai_client(base)
    events = whole_events(app, case_id, tools)
    kwargs = {"model": model, "input": "-", "extra_headers": {"x-replay-case": case_id}}
    if tools:
        kwargs["tools"] = [{"type": "function", **t["function"]} for t in tools]
    got = client.responses.create(**kwargs)
    want = responses.output(events, got.id)
    assert [wire(i) for i in got.output] == want["output"]
    assert got.status == want["status"]
    with client.responses.stream(**kwargs) as stream:
        for _ in stream:
            pass
        final = stream.get_final_response()
    want = responses.output(events, final.id)
    assert [wire(i) for i in final.output] == want["output"]
    assert final.status == want["status"] and final.usage == got.usage


def anthropic_client(base):
    if ("anthropic", base) not in _CLIENTS:
        _CLIENTS["anthropic", base] = anthropic.Anthropic(base_url=base, api_key="unused", max_retries=0)
    return _CLIENTS["anthropic", base]


def check_messages(base, app, case_id, model, tools):
    client = anthropic_client(base)
    want = messages.output(whole_events(app, case_id, tools))
    kwargs = {"model": model, "max_tokens": 4096, "messages": [{"role": "user", "content": "-"}],
              "extra_headers": {"x-replay-case": case_id}}
    if tools:
        kwargs["tools"] = [{"name": t["function"]["name"],
                            "input_schema": t["function"].get("parameters") or {"type": "object"}} for t in tools]
    got = client.messages.create(**kwargs)
    assert [wire(b) for b in got.content] == want["content"]
    assert got.stop_reason == want["stop_reason"]
    with client.messages.stream(**kwargs) as stream:
        for _ in stream:
            pass
        final = stream.get_final_message()
    assert [wire(b) for b in final.content] == want["content"]
    assert final.stop_reason == want["stop_reason"]
    assert final.usage.output_tokens == got.usage.output_tokens


CHECKS = {"chat": check_chat, "responses": check_responses, "messages": check_messages}


@pytest.mark.parametrize("api", sorted(CHECKS))
def test_clients_over_a_socket_on_the_example_recording(server, api):
    base, app = server
    CHECKS[api](base, app, "own-1", "Qwen/Qwen3-8B", None)


@pytest.mark.parametrize("api", sorted(CHECKS))
def test_numbers_no_decoder_keeps_are_answered(server, api):
    base, app = server
    CHECKS[api](base, app, "own-numbers", "Qwen/Qwen3-8B", None)


def test_chat_n_choices(server):
    base, _ = server
    got = openai_client(base).chat.completions.create(model="Qwen/Qwen3-8B", n=3,
                                                      messages=[{"role": "user", "content": "hi"}])
    assert [c.index for c in got.choices] == [0, 1, 2]
    assert len({c.message.tool_calls[0].function.arguments for c in got.choices}) == 1


@pytest.mark.skipif(not FIXTURES, reason="SYMPHONY_FIXTURES is not set")
@pytest.mark.parametrize("api", sorted(CHECKS))
def test_clients_over_a_socket_on_every_recorded_output(server, api):
    base, app = server
    cases = recorded_cases(recording_files())
    assert cases
    for c in cases:
        CHECKS[api](base, app, c["id"], c["model"], chat_tools(c))


@pytest.mark.parametrize("path,body,status,kind", [
    ("/v1/chat/completions", b"{not json", 400, "invalid_request_error"),
    ("/v1/chat/completions", json.dumps({"model": "no/such-model", "messages": []}).encode(), 404, "not_found_error"),
    ("/v1/chat/completions", json.dumps({"model": "Qwen/Qwen3-8B", "messages": [{"role": "user", "content": "hi"}],
                                         "tools": [{"type": "function", "function": {"name": "f",
                                                                                     "parameters": "x"}}]}).encode(),
     400, "invalid_request_error"),
    ("/v1/chat/completions", json.dumps({"model": "Qwen/Qwen3-8B", "messages": [{"role": "user", "content": "hi"}],
                                         "n": 0}).encode(), 400, "invalid_request_error"),
    ("/v1/responses", b"[]", 400, "invalid_request_error"),
    ("/v1/responses", json.dumps({"model": "nope", "input": "hi"}).encode(), 404, "not_found_error"),
])
def test_bad_requests_get_the_openai_error_shape(server, path, body, status, kind):
    import httpx
    base, _ = server
    r = httpx.post(base + path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == status
    assert r.json()["error"]["type"] == kind and r.json()["error"]["message"]


@pytest.mark.parametrize("body,status,kind", [
    (b"\xff", 400, "invalid_request_error"),
    (json.dumps({"model": "nope", "max_tokens": 5, "messages": []}).encode(), 404, "not_found_error"),
    (json.dumps({"model": "Qwen/Qwen3-8B", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}],
                 "tools": [{"name": "", "input_schema": {}}]}).encode(), 400, "invalid_request_error"),
])
def test_bad_requests_get_the_anthropic_error_shape(server, body, status, kind):
    import httpx
    base, _ = server
    r = httpx.post(base + "/v1/messages", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status
    assert r.json()["type"] == "error" and r.json()["error"]["type"] == kind


# A well-formed request per API, which each bad body below changes (a dict merged in) or replaces
# (raw bytes); every one must be a 4xx in that API's error shape, streamed or not.
GOOD = {"chat": ("/v1/chat/completions", {"model": "Qwen/Qwen3-8B", "messages": [{"role": "user", "content": "hi"}]}),
        "responses": ("/v1/responses", {"model": "Qwen/Qwen3-8B", "input": "hi"}),
        "messages": ("/v1/messages", {"model": "Qwen/Qwen3-8B", "max_tokens": 5,
                                      "messages": [{"role": "user", "content": "hi"}]})}
FORCED_ODD_NAME = {"tools": [{"type": "function", "name": "\ud800", "function": {"name": "\ud800"},
                              "input_schema": {}}],
                   "tool_choice": {"type": "function", "function": {"name": "\ud800"}, "name": "\ud800"}}
BAD_BODIES = {
    "not JSON": b"{not json",
    "not UTF-8": b"\xff\xfe{",
    "a JSON list": b"[]",
    "nested past the reader": b"[" * 100_000 + b"]" * 100_000,
    "a field nested past the reader": b'{"model": "Qwen/Qwen3-8B", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "an integer past the reader": b'{"model": 1' + b"0" * 5000 + b"}",
    "a model that is not text": json.dumps({"model": "Qwen/Qwen3-8B\ud800"}).encode(),
    "a model that is a number": {"model": 5},
    "an unknown model": {"model": "no/such-model"},
    "a content part whose text is a number": {"messages": [{"role": "user", "content": [{"type": "text", "text": 5}]}],
                                              "input": [{"role": "user", "content": [{"type": "text", "text": 5}]}]},
    "a content that is not text": {"messages": [{"role": "user", "content": "\udfff"}], "input": "\udfff"},
    "template kwargs that are a list": {"chat_template_kwargs": ["enable_thinking"]},
    "template kwargs that are a string": {"chat_template_kwargs": ""},
    "stream options that are a list": {"stream_options": [True]},
    "tools that are an object": {"tools": {"f": {}}},
    "a tool that is a number": {"tools": [5]},
    "a tool choice that is a number": {"tool_choice": 5},
    "a tool choice naming nothing": {"tool_choice": {"type": "function"}},
    "a forced tool whose name is not text": FORCED_ODD_NAME,
}


@pytest.fixture(scope="module")
def http():
    """One keep-alive client for the module's many small requests."""
    import httpx
    with httpx.Client() as client:
        yield client


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("api", sorted(GOOD))
@pytest.mark.parametrize("bad", sorted(BAD_BODIES))
def test_every_malformed_body_gets_a_4xx_in_the_apis_error_shape(server, http, api, stream, bad):
    base, _ = server
    path, good = GOOD[api]
    body = BAD_BODIES[bad]
    raw = body if isinstance(body, bytes) else json.dumps(dict(good, stream=stream, **body)).encode()
    r = http.post(base + path, content=raw, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:200])
    error = r.json()["error"]
    if api == "messages":
        assert r.json()["type"] == "error" and set(error) == {"type", "message"}
    else:
        assert set(error) == {"message", "type", "param", "code"}
    assert error["type"].endswith("_error") and error["message"]
