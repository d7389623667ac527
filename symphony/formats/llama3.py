"""Llama 3.1/3.2/3.3 JSON calls (`llama3_json`): `{"name", "parameters"}` call objects separated by
`;` (a bare list: no brackets), after an optional `<|python_tag|>`, as the whole output or in its
prose: after text, in a ```json fence, a `[` list of them too. An object opens a call where its
first key names the call or its arguments; any other object, `[1, 2]`, and a call written inside
Markdown code are content, every byte. No thought. A call object may be written as a Python
dict, as Llama 3.x models write one at times (`{'name': 'f', 'parameters': {'q': 'it\'s', 'x':
True}}`): single-quoted keys and strings and Python's `True`, `False`, `None`, written in the
arguments' JSON as JSON (SGLang's llama3 detector reads them; `python_literals`). An object is a
call only once it is named and its arguments (`parameters`) member begins: one with a name and no
arguments (`{"name": "Alice", "age": 30}`, a reply that is JSON) is the text it is, as vLLM's
llama3_json reads it (SGLang's llama3 reads a call with `{}`), and so is one with arguments and no
name (a schema shown in a fence); what follows it is prose again. A `;` outside an
object's strings ends the object there: one whose `}` the model left out before the `;` is a call
cut short, its arguments closed, and the object after the `;` the next call; so does a `{` where
the object's `,` or `}` belongs once its arguments are whole (`}` left out before a newline and the
next object, or right before the next object), and a `,` there that the next object's `{` follows
(`{"x": 1}, {"name": "b", …}`: the `,` the separator); a `]` there ends the object too (a `[` list's
end, or, in a bare list, prose after the call).
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import LLAMA3, NO_THOUGHT, Family, Row, checkpoints

LLAMA3_JSON = (
    Format("llama3_json")
    .terminal("python_tag", "<|python_tag|>")
    .state("calls", Emits.ARGUMENTS)
    .transition("calls", "python_tag", "calls")
    .control_tokens("python_tag")
    .calls(CallSyntax.json_list(bare=True, prose=True, python_literals=True))
    .opens_turn("<|start_header_id|>assistant<|end_header_id|>")
)

TABLES = {"llama3_json": LLAMA3_JSON}
ALIASES = {"llama3": "llama3_json"}


FAMILY = Family(
    tables=TABLES,
    aliases=ALIASES,
    rows=(
        Row(("llama3_json",),
            "`<|python_tag|>` (optional) + `{\"name\", \"parameters\"}` objects separated by `;`, as the whole output "
            "or in its prose (also fenced, or in a `[` list)",
            "Llama 3.1/3.2/3.3"),
    ),
    vllm={
        "llama3_json": "llama3_json",
        "llama4_json": "llama3_json",
    },
    sglang={
        "llama3": "llama3_json",
    },
    checkpoints=(
        checkpoints("llama-3.1-8b-instruct", "llama3_json", NO_THOUGHT, LLAMA3, None,
                    "meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-70B-Instruct",
                    "meta-llama/Llama-3.2-3B-Instruct", "meta-llama/Llama-3.3-70B-Instruct",
                    "meta-llama/Llama-3.2-1B-Instruct", "meta-llama/Llama-3.1-405B-Instruct",
                    "meta-llama/Meta-Llama-3.1-8B-Instruct", "meta-llama/Meta-Llama-3.1-70B-Instruct"),
    ),
)
