"""Hunyuan-A13B (`hunyuan_a13b`, issue 10): the model writes `<think>` thoughts and wraps its
answer in `<answer>`…`</answer>` (the markers are dropped, the answer is content); calls are a
JSON list of `{"name", "arguments"}` objects between `<tool_calls>` and `</tool_calls>`.
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import THINK, thought_answer_and_calls

HUNYUAN_A13B = thought_answer_and_calls("hunyuan_a13b", THINK, ("<answer>", "</answer>"),
                                        ("<tool_calls>", "</tool_calls>"), CallSyntax.json_list())

TABLES = {"hunyuan_a13b": HUNYUAN_A13B}
