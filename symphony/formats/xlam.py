"""xLAM (SPEC §3 `xlam`): the output is a bare JSON list of calls, or it is content.

xLAM checkpoints also write the list in ways the rest of the output announces (issue 11, the
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
