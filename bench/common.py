"""Shared bench inputs: the recorded fixtures, turned into the deltas an engine would stream."""
import symphony
from recorded.fixtures import FIXTURES, case_setup, load_cases  # noqa: F401  (the benches' inputs)
from symphony import Delta, TokenSpan

JSON_SLUGS = ("qwen3-8b", "qwen3-4b-thinking-2507", "qwen3-30b-a3b-instruct-2507", "k-exaone-236b-a23b",
              "qwen2.5-7b-instruct-1m", "hermes-4-14b", "granite-4.1-3b", "llama-xlam-2-8b-fc-r",
              "phi-4-mini-instruct")
TAGGED_SLUGS = ("qwen3-coder-30b-a3b-instruct", "qwen3-coder-next", "qwen3.5-27b", "qwen3.8-27b", "mimo-v2.5",
                "step-3.5-flash", "nanbeige4.2-3b", "seed-oss-36b-instruct", "glm-5.3-flash", "glm-5", "glm-4.6",
                "glm-4.7-flash", "ling-3.0-flash", "iquest-q1", "hy4-preview")
OTHER_SLUGS = ("deepseek-v4.1-flash", "kimi-k3", "minimax-m3", "lfm2.5-1.2b-instruct", "olmo-3-7b-instruct")
PENDING_SLUGS = ("minimax-m2", "minimax-m2.7", "dots3-note-prev", "k2-horizon-36b", "laguna-xs.2", "inkling",
                 "deepseek-v3-0324", "deepseek-v3.1", "apertus-8b-instruct-2509", "hunyuan-a13b-instruct",
                 "gemma-4-e4b-it", "minicpm5-2b", "muse-glimmer-30b")     # the families added after the reference
FAMILIES = {"json": JSON_SLUGS, "tagged": TAGGED_SLUGS, "other": OTHER_SLUGS, "pending": PENDING_SLUGS,
            "all": JSON_SLUGS + TAGGED_SLUGS + OTHER_SLUGS + PENDING_SLUGS}


def token_deltas(case, sizes=None, counted=True):
    """The deltas of a token replay: one token per delta, or chunks of `sizes` tokens."""
    pieces, ids = case["output_pieces"], case["output_ids"]
    sizes = sizes or [1] * len(ids)
    deltas = []
    at = 0
    for size in sizes:
        chunk, chunk_ids = pieces[at:at + size], ids[at:at + size]
        if counted:
            spans, offset = [], 0
            for token_id, piece in zip(chunk_ids, chunk):
                width = len(piece.encode("utf-8"))
                spans.append(TokenSpan(token_id, offset, offset + width))
                offset += width
            deltas.append(("".join(chunk), chunk_ids, spans))
        else:
            deltas.append(("".join(chunk), (), ()))
        at += size
    return deltas


def stream(table, tools, prompt, deltas, finish):
    """One streamed parse: Prompt, a Delta per chunk (built here, as a worker would), End."""
    return stream_on(symphony.Engine(table, tools), prompt, deltas, finish)


def stream_on(engine, prompt, deltas, finish):
    """The streamed parse on a new engine: Prompt, a Delta per chunk (built here), End."""
    events = engine.feed(symphony.Prompt(prompt))
    for text, ids, spans in deltas:
        events += engine.feed(Delta(text, ids, spans))
    events += engine.feed(symphony.End(finish))
    return events
