"""Writes tests/data/gpt_oss_harmony.jsonl: gpt-oss outputs rendered with OpenAI's `openai-harmony`
package (a test-only dependency; symphony never imports it), each with the message it must fold
into. Run it once with the package installed (the bench's peers venv has it) and its o200k vocab
reachable (`TIKTOKEN_ENCODINGS_BASE` naming a folder with `o200k_base.tiktoken`, or the network):

    bench/.peers-venv/bin/python tests/render_harmony.py

An output is what the model writes after the generation prompt `<|start|>assistant`: the rendered
conversation of its messages with that prompt taken off, and the last message's stop token as the
model samples it (`<|return|>` after a final answer, `<|call|>` after a call).
"""
import json
import os

from openai_harmony import Conversation, HarmonyEncodingName, Message, Role, load_harmony_encoding

PROMPT = "<|start|>assistant"
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "gpt_oss_harmony.jsonl")


def analysis(text):
    return Message.from_role_and_content(Role.ASSISTANT, text).with_channel("analysis")


def final(text):
    return Message.from_role_and_content(Role.ASSISTANT, text).with_channel("final")


def preamble(text):
    return Message.from_role_and_content(Role.ASSISTANT, text).with_channel("commentary")


def call(name, arguments):
    return (Message.from_role_and_content(Role.ASSISTANT, json.dumps(arguments, ensure_ascii=False))
            .with_channel("commentary").with_recipient("functions." + name).with_content_type("<|constrain|>json"))


# name, messages, expected message (content, reasoning, [(name, arguments)])
CASES = [
    ("final-only", [final("It is sunny in Tokyo.")], ("It is sunny in Tokyo.", None, [])),
    ("thought-then-final", [analysis("The user greets me."), final("Hello! How can I help?")],
     ("Hello! How can I help?", "The user greets me.", [])),
    ("thought-then-call", [analysis("I need the weather."), call("get_weather", {"city": "Tokyo"})],
     (None, "I need the weather.", [("get_weather", {"city": "Tokyo"})])),
    ("preamble-then-call", [analysis("Two steps."), preamble("Let me look that up."),
                            call("search", {"q": "harmony format", "n": 3})],
     ("Let me look that up.", "Two steps.", [("search", {"q": "harmony format", "n": 3})])),
    ("call-without-thought", [call("get_time", {})], (None, None, [("get_time", {})])),
    ("nested-arguments", [analysis("Build the order."),
                          call("order", {"items": [{"sku": "a-1", "qty": 2}], "note": "日本 🎉 \"quoted\" <b>x</b>"})],
     (None, "Build the order.", [("order", {"items": [{"sku": "a-1", "qty": 2}], "note": "日本 🎉 \"quoted\" <b>x</b>"})])),
    ("thought-with-markup", [analysis("Maybe <tool_call> or to=functions.x later."), final("Done.")],
     ("Done.", "Maybe <tool_call> or to=functions.x later.", [])),
]


def output(encoding, messages):
    text = encoding.decode_utf8(encoding.render_conversation(Conversation.from_messages(messages)))
    assert text.startswith(PROMPT), text
    text = text[len(PROMPT):]
    if messages[-1].channel == "final" and text.endswith("<|end|>"):
        text = text[:-len("<|end|>")] + "<|return|>"
    return text


def main():
    encoding = load_harmony_encoding(HarmonyEncodingName.HARMONY_GPT_OSS)
    with open(DATA, "w", encoding="utf-8") as f:
        for name, messages, (content, reasoning, calls) in CASES:
            f.write(json.dumps({"name": name, "output": output(encoding, messages), "rendered_by": "openai-harmony",
                                "expect": {"content": content, "reasoning": reasoning,
                                           "calls": [[n, a] for n, a in calls]}}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
