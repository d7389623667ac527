"""Cohere Command (`cohere_command3`, `cohere_command4`, issue 11): the thought between
`<|START_THINKING|>` and `<|END_THINKING|>`, the answer between `<|START_RESPONSE|>` and
`<|END_RESPONSE|>` (the markers are dropped, the answer is content), and calls as a JSON list of
`{"tool_call_id", "tool_name", "parameters"}` objects between `<|START_ACTION|>` and
`<|END_ACTION|>`. Both generations write the same markup (vLLM's two parser names differ only in
how they render requests); `<co>…</co: …>` citations stay in the content as written.
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import thought_answer_and_calls


def _command(name):
    return thought_answer_and_calls(name, ("<|START_THINKING|>", "<|END_THINKING|>"),
                                    ("<|START_RESPONSE|>", "<|END_RESPONSE|>"),
                                    ("<|START_ACTION|>", "<|END_ACTION|>"), CallSyntax.json_list(),
                                    opener="<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>")


TABLES = {"cohere_command3": _command("cohere_command3"), "cohere_command4": _command("cohere_command4")}
