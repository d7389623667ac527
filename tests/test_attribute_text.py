"""Attribute text: Kimi K3's template writes a call's name and an argument's key XML-escaped, and
its parser reads them unescaped; the other attribute-written syntaxes' templates write them raw,
and a character reference there is text. Each output whole, per character, at the tier's splits
and plans and one synthetic token per delta (tests/test_value_recovery.read)."""
import json
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import symphony
from symphony.adapt import chat
from tests.test_value_recovery import NS, read

# The rule, as a whole-buffer oracle: a reference is `&`, at most 10 characters, `;`, and names
# one of the five XML entities or (in decimal or hex) a Unicode scalar value other than U+0000.
REFERENCE = re.compile(r"&([^;&]{1,10});")
NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def unescaped(text):
    def character(match):
        body = match.group(1)
        if body in NAMED:
            return NAMED[body]
        digits = re.fullmatch(r"#([0-9]+)|#[xX]([0-9a-fA-F]+)", body)
        if digits is None:
            return match.group(0)
        cp = int(digits.group(1), 10) if digits.group(1) is not None else int(digits.group(2), 16)
        return chr(cp) if 0 < cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF else match.group(0)
    out, at = [], 0
    while at < len(text):
        match = REFERENCE.match(text, at)
        if match and character(match) != match.group(0):
            out.append(character(match))
            at = match.end()
        else:
            out.append(text[at])
            at += 1
    return "".join(out)

# --- Kimi K3's escaped attribute text -------------------------------------------------------
# The template writes `&` as `&amp;` and `"` as `&quot;` in the `tool` and `key` attributes. vLLM
# and SGLang replace `&quot;` then `&amp;` and nothing else (`&lt;`, `&#65;` stay as written).

K3_PROMPT = '<|open|>message role="assistant"<|sep|><|open|>think<|sep|>'
K3_TOOLS = "<|close|>think<|sep|><|open|>tools<|sep|>"


def k3_call(name, key, value="v", kind="string"):
    return (f'<|open|>call tool="{name}" index="1"<|sep|><|open|>argument key="{key}" type="{kind}"<|sep|>'
            f"{value}<|close|>argument<|sep|><|close|>call<|sep|>")


def k3_read(name, key, value="v", kind="string"):
    message = read("kimi_k3", K3_TOOLS + k3_call(name, key, value, kind) + "<|close|>tools<|sep|>", tools=None,
                   prompt=K3_PROMPT)
    (call,) = message["tool_calls"]
    return call["function"]["name"], json.loads(call["function"]["arguments"])


@pytest.mark.parametrize("written, meant", [
    ("a&amp;b&quot;c", 'a&b"c'), ("&lt;tag&gt;", "<tag>"), ("it&apos;s", "it's"), ("&#65;&#x42;&#X43;", "ABC"),
    ("&#x1F600;", "😀"), ("&#0000065;", "A"), ("&amp;amp;", "&amp;"), ("&amp;quot;", "&quot;"),
    # what names no character stays as written
    ("a & b", "a & b"), ("&amp", "&amp"), ("&nbsp;", "&nbsp;"), ("&#0;", "&#0;"), ("&#xD800;", "&#xD800;"),
    ("&#x110000;", "&#x110000;"), ("&#;", "&#;"), ("&#x;", "&#x;"), ("&#12a;", "&#12a;"), ("&;", "&;"),
    ("&#00000000065;", "&#00000000065;"), ("&&amp;;", "&&;"),
])
def test_kimi_k3_reads_a_name_and_a_key_unescaped(written, meant):
    assert k3_read("f" + written, "k" + written) == ("f" + meant, {"k" + meant: "v"})


def test_kimi_k3_values_are_their_text():
    # the template writes an argument's value raw: `&amp;` there is text (vLLM and SGLang agree)
    assert k3_read("f", "k", "a &amp; b &lt;") == ("f", {"k": "a &amp; b &lt;"})
    assert k3_read("f", "k", '{"q": "&amp;"}', "object") == ("f", {"k": {"q": "&amp;"}})


@pytest.mark.parametrize("table, output", [
    ("minimax_m2", '<minimax:tool_call>\n<invoke name="a&amp;b">\n<parameter name="k&amp;q">v</parameter>\n'
                   "</invoke>\n</minimax:tool_call>"),
    ("minimax_m3", NS + "<tool_call>\n" + NS + '<invoke name="a&amp;b">' + NS + "<k>v&amp;" + NS + "</k>" + NS
     + "</invoke>\n" + NS + "</tool_call>"),
    ("deepseek_v4", '<｜DSML｜tool_calls><｜DSML｜invoke name="a&amp;b"><｜DSML｜parameter name="k&amp;q" string="true">'
                    "v</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>"),
    ("minicpm5", '<function name="a&amp;b"><param name="k&amp;q">v</param></function>'),
])
def test_where_a_template_writes_names_raw_a_reference_is_text(table, output):
    # MiniMax M2/M3's, DeepSeek's and MiniCPM's templates write names, keys and values raw, and
    # vLLM's and SGLang's parsers of those families read them raw
    (call,) = read(table, output, tools=None)["tool_calls"]
    assert call["function"]["name"] == "a&amp;b"
    assert "&amp;" in call["function"]["arguments"]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["&", ";", "#", "x", "X", "amp", "lt", "gt", "quot", "apos", "0", "65", "1F600",
                                 "10FFFF", "110000", "D800", "00000", "a", "é", " ", "<"]), max_size=14).map("".join))
@example("&#0000000065;")
@example("&#00000000065;")
@example("&#x0010FFFF;")
def test_kimi_k3_reads_character_references_as_the_oracle_does(text):
    # a name and a key read whole (no chunking changes them: read() checks every chunking above),
    # less the whitespace written at their ends (a reference to whitespace is no such whitespace)
    output = K3_TOOLS + k3_call("f" + text, "k" + text) + "<|close|>tools<|sep|>"
    (call,) = chat.message(symphony.parse("kimi_k3", output, prompt=K3_PROMPT))["message"]["tool_calls"]
    meant = unescaped(text.rstrip(" \t\n\v\f\r"))
    assert call["function"]["name"] == "f" + meant
    assert json.loads(call["function"]["arguments"]) == {"k" + meant: "v"}
