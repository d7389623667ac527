"""xLAM (SPEC §3 `xlam`): the output is a bare JSON list of calls, or it is content.

xLAM checkpoints also write the list in ways the rest of the output announces (the
ways vLLM's xlam parser reads), each a rule here:
- in a ```json (or ```) fence: the list assembler reads a fence that opens the output and the
  closing fence after the list as wrapping (a fence not followed by a list is content);
- after a thought `<think>…</think>`: the thought is reasoning, and what follows it is read as the
  output is (a list, or content);
- after `[TOOL_CALLS]`: the marker is dropped and what follows it is read as the output is, so
  prose before it stays content.
Each marker is a marker wherever it stands (SPEC §2.4), as in every table. `<tool_call>` is not
one here: xLAM also writes `<tool_call>…</tool_call>` as text in its answers (the
llama-xlam-2-8b-fc-r fixture `content-with-marker-in-code-fence`), which a marker would misread.
"""
from symphony.format import CallSyntax, Emits, Format
from symphony.formats.family import LLAMA3, NO_THOUGHT, Family, Row, checkpoints

XLAM = (
    Format("xlam")
    .terminal("think", "<think>")
    .terminal("think_close", "</think>")
    .terminal("tool_calls", "[TOOL_CALLS]")
    .state("calls", Emits.ARGUMENTS)
    .state("thought", Emits.REASONING)
    .transition("calls", "think", "thought")
    .transition("thought", "think_close", "calls")
    .transition("calls", "tool_calls", "calls")
    .calls(CallSyntax.json_list())
)

TABLES = {"xlam": XLAM}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("xlam",),
            "a bare JSON list of calls, also in a ```json fence, after a `<think>` thought or after `[TOOL_CALLS]`",
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
