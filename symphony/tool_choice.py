"""Parsers for outputs a request's `tool_choice` constrained (SPEC §6): a forced function (the
whole output is its arguments) or a required call (the whole output is a JSON list of
`{"name", "parameters"}` objects), as an engine writes them under a JSON-schema constraint, with
no markers. Each is a one-state table run by the same engine as every family, so it has the same
lifecycle, token counting and failed state. `for_tool_choice` reads an OpenAI (or Anthropic)
`tool_choice` value into what to parse with.
"""
import functools

from symphony.format import Emits, Format
from symphony.syntax import CallSyntax

REQUIRED = "required"       # what for_tool_choice returns for a call the request requires


@functools.lru_cache(maxsize=1024)
def table(function=None):
    """The compiled table for a forced function (its name) or, with None, a required call."""
    syntax = CallSyntax.required() if function is None else CallSyntax.forced(function)
    return Format("constrained").state("output", Emits.ARGUMENTS).calls(syntax).compile()


def for_tool_choice(tool_choice):
    """What a `tool_choice` value asks the output to be: None (the model's own markup: "auto",
    "none", or no choice), REQUIRED, or the name of the forced function. Accepts the OpenAI shapes
    (`"required"`, `{"type": "function", "function": {"name": ...}}`, `{"type": "allowed_tools",
    "allowed_tools": {"mode": ...}}`, the Responses API's `{"type": "function", "name": ...}`)
    and Anthropic's (`{"type": "any" | "tool" | "auto" | "none"}`)."""
    if tool_choice is None or tool_choice in ("auto", "none"):
        return None
    if tool_choice == "required":
        return REQUIRED
    if isinstance(tool_choice, dict):
        kind = tool_choice.get("type")
        if kind in ("auto", "none"):
            return None
        if kind == "any":
            return REQUIRED
        if kind in ("function", "tool"):
            function = tool_choice.get("function")
            name = function.get("name") if isinstance(function, dict) else tool_choice.get("name")
            if isinstance(name, str) and name:
                return name
            raise ValueError(f"tool_choice: a {kind!r} choice names no function: {tool_choice!r}")
        if kind == "allowed_tools":
            allowed = tool_choice.get("allowed_tools", tool_choice)
            mode = allowed.get("mode", "auto") if isinstance(allowed, dict) else None
            if mode == "required":
                return REQUIRED
            if mode == "auto":
                return None
            raise ValueError(f"tool_choice: allowed_tools mode must be 'auto' or 'required', got {mode!r}")
    raise ValueError(f"tool_choice: not a tool choice: {tool_choice!r}")
