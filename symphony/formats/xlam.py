"""xLAM (SPEC §3 `xlam`): the output is prose, and the lists of calls xLAM writes in it are its
calls: as the whole output, after text, several, in a ```json (or ```) fence, `;` or `,` between
their objects (the ways vLLM's xlam parser reads, and more; a `;` outside an object's strings ends
the object, and so does a `{` where its `,` or `}` belongs once its arguments are whole, after
whitespace, a `,` or none, and a `]` there is the list's: one whose `}` was left out is a call cut
short, as in `llama3_json`). A list opens where it is written: `[`, `{` and a first key that names a
call or its arguments (`"name"`, `"arguments"`, …); the fence around it, and the one after its `]`,
are wrapping. Anything else is content, every byte: "[1, 2] are the numbers", `[]`, `[{"a": 1}]`, a
list whose first object ends before it is named and its arguments member begins (`[{"name": "Alice",
"age": 30}]`, a reply that is JSON; vLLM's xlam shows nothing of it; `[{"arguments": {"a": 1}}]`),
and a list inside Markdown code (an example, not a call). Each a rule here:
- after a thought `<think>…</think>`: the thought is reasoning, and what follows it is read as the
  output is;
- after `[TOOL_CALLS]`: the marker is dropped and what follows it is read as the output is;
- between `<tool_call>` and `</tool_call>` (a recovery: xLAM's template writes no such tags, and
  vLLM's xlam reads a list there): the tags are dropped where the region holds a call. xLAM also
  writes `<tool_call>…</tool_call>` as text in its answers (the llama-xlam-2-8b-fc-r fixture
  `content-with-marker-in-code-fence`, a call object in the tags, which is no list): a region that
  holds no call is the text it is, tags included (docs/recovery.md, prose is never garbled).
Each marker is a marker wherever it stands (SPEC §2.4), as in every table; `</tool_call>` with no
region open is text.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import LLAMA3, NO_THOUGHT, Family, Row, checkpoints

XLAM = (
    Format("xlam")
    .terminal("think", "<think>")
    .terminal("think_close", "</think>")
    .terminal("tool_calls", "[TOOL_CALLS]")
    .terminal("tool_call", "<tool_call>")
    .terminal("tool_call_close", "</tool_call>")
    .state("calls", Emits.ARGUMENTS)
    .state("thought", Emits.REASONING)
    .state("tagged", Emits.ARGUMENTS)
    .transition("calls", "think", "thought")
    .transition("thought", "think_close", "calls")
    .transition("calls", "tool_calls", "calls")
    .recovers("calls", "tool_call", "tagged")
    .recovers("tagged", "tool_call_close", "calls")
    .calls(CallSyntax.json_list(prose=True))
)

TABLES = {"xlam": XLAM}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("xlam",),
            "JSON lists of calls in its prose: whole, after text, in a ```json fence, after a `<think>` thought or "
            "`[TOOL_CALLS]`, between `<tool_call>` tags; a list of no call, or in Markdown code, is content",
            "xLAM"),
    ),
    vllm={
        "xlam": "xlam",
    },
    checkpoints=(
        # xlam: a bare JSON list of calls
        checkpoints("llama-xlam-2-8b-fc-r", "xlam", NO_THOUGHT, LLAMA3, None,
                    "Salesforce/Llama-xLAM-2-8b-fc-r"),
    ),
    bench={
        # xLAM: bare JSON list; only vLLM has a parser.
        "llama-xlam-2-8b-fc-r": {
            "thinking_default": None,
            "markers": ["<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"],
            "sglang": None,
            "vllm": {"tool": "xlam", "reasoning": None,
                     "tail_on": "<|start_header_id|>assistant<|end_header_id|>\n\n"},
        },
    },
)
