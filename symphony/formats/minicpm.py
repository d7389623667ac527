"""MiniCPM5 (`minicpm5`): the model writes its own `<think>` and its calls bare in the content,
each `<function name="NAME"><param name="KEY">value</param>…</function>`; strings with special
characters in a CDATA section, other values as Python literals, typed by the request's tools.
`</function>` is the call's end.
"""
from symphony.format import CallSyntax
from symphony.formats.qwen3 import THINK
from symphony.formats.shapes import thought_and_calls
from symphony.syntax import ParamTags

MINICPM5 = thought_and_calls("minicpm5", THINK, ('<function name="', ParamTags.MINICPM.call_close),
                             CallSyntax.param_xml(ParamTags.MINICPM), "<|im_start|>assistant")

TABLES = {"minicpm5": MINICPM5}
