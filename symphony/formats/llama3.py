"""Llama 3.1/3.2/3.3 JSON calls (`llama3_json`, issue 11): the output is, after an optional
`<|python_tag|>`, one or more `{"name", "parameters"}` call objects separated by `;` (a bare list:
no brackets), or it is content. No thought.
"""
from symphony.format import CallSyntax, Emits, Format

LLAMA3_JSON = (
    Format("llama3_json")
    .terminal("python_tag", "<|python_tag|>")
    .state("calls", Emits.ARGUMENTS)
    .transition("calls", "python_tag", "calls")
    .calls(CallSyntax.json_list(bare=True))
    .opens_turn("<|start_header_id|>assistant<|end_header_id|>")
)

TABLES = {"llama3_json": LLAMA3_JSON}
ALIASES = {"llama3": "llama3_json"}
