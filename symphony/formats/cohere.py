"""Cohere Command (`cohere_command3`, `cohere_command4`, issue 11): the thought between
`<|START_THINKING|>` and `<|END_THINKING|>`, the answer between `<|START_RESPONSE|>` and
`<|END_RESPONSE|>` (the markers are dropped, the answer is content), and calls as a JSON list of
`{"tool_call_id", "tool_name", "parameters"}` objects between `<|START_ACTION|>` and
`<|END_ACTION|>`. Both generations write the same markup (vLLM's two parser names differ only in
how they render requests); `<co>…</co: …>` citations stay in the content as written.
"""
from symphony.format import CallSyntax, Emits, Format


def _command(name):
    return (
        Format(name)
        .terminal("think_open", "<|START_THINKING|>")
        .terminal("think_close", "<|END_THINKING|>")
        .terminal("answer_open", "<|START_RESPONSE|>")
        .terminal("answer_close", "<|END_RESPONSE|>")
        .terminal("calls_open", "<|START_ACTION|>")
        .terminal("calls_close", "<|END_ACTION|>")
        .state("content", Emits.CONTENT)
        .state("reasoning", Emits.REASONING)
        .state("calls", Emits.ARGUMENTS)
        .transition("content", "think_open", "reasoning")
        .transition("reasoning", "think_close", "content")
        .transition("content", "answer_open", "content")
        .transition("content", "answer_close", "content")
        .transition("content", "calls_open", "calls")
        .transition("calls", "calls_close", "content")
        .calls(CallSyntax.json_list())
        .opens_turn("<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>")
    )


TABLES = {"cohere_command3": _command("cohere_command3"), "cohere_command4": _command("cohere_command4")}
