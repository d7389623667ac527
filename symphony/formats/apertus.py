"""Apertus (`apertus`, issue 10): calls are a JSON list of `{"NAME": {arguments}}` objects between
`<|tools_prefix|>` and `<|tools_suffix|>`. A thought sits between `<|inner_prefix|>` and
`<|inner_suffix|>` (SGLang's apertus2509 reasoning detector; the model writes it, several per
turn), and calls written inside a thought are calls, the thought going on after them. A call
opener inside a call opens the next one.
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import calls_in_thought, thought_and_calls
from symphony.syntax import CallObject

APERTUS = calls_in_thought(thought_and_calls("apertus", ("<|inner_prefix|>", "<|inner_suffix|>"),
                                             ("<|tools_prefix|>", "<|tools_suffix|>"),
                                             CallSyntax.json_list(CallObject.NAMED), "<|assistant_start|>"))

TABLES = {"apertus": APERTUS}
