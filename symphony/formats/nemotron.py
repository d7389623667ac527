"""Llama-Nemotron (`nemotron_json`, issue 11; vLLM's `nemotron_json`): calls are a JSON list of
`{"name", "arguments"}` objects, or one such object, between `<TOOLCALL>` and `</TOOLCALL>`; with
"detailed thinking on" the model writes a `<think>` thought first.
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import THINK, thought_and_calls

NEMOTRON_JSON = thought_and_calls("nemotron_json", THINK, ("<TOOLCALL>", "</TOOLCALL>"),
                                  CallSyntax.json_list(otherwise=CallSyntax.json()),
                                  "<|start_header_id|>assistant<|end_header_id|>")

TABLES = {"nemotron_json": NEMOTRON_JSON}
ALIASES = {"nemotron": "nemotron_json", "llama_nemotron_json": "nemotron_json"}
