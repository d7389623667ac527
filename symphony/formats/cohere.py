"""Cohere Command (`cohere_command3`, `cohere_command4`): the thought between
`<|START_THINKING|>` and `<|END_THINKING|>`, the answer between `<|START_RESPONSE|>` and
`<|END_RESPONSE|>` (the markers are dropped, the answer is content), and calls as a JSON list of
`{"tool_call_id", "tool_name", "parameters"}` objects between `<|START_ACTION|>` and
`<|END_ACTION|>`; a call's `tool_call_id`, written before its parameters, is its id (the template
writes it back with the tool's result). Both generations write the same markup (vLLM's two parser names differ only in
how they render requests); `<co>…</co: …>` citations stay in the content as written.
"""
from symphony.format import CallSyntax
from symphony.formats.family import NO_THOUGHT, Family, Row, checkpoints
from symphony.formats.shapes import thought_answer_and_calls

COHERE_HEAD = "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>"      # the generation prompt's head


def _command(name):
    return thought_answer_and_calls(name, ("<|START_THINKING|>", "<|END_THINKING|>"),
                                    ("<|START_RESPONSE|>", "<|END_RESPONSE|>"),
                                    ("<|START_ACTION|>", "<|END_ACTION|>"), CallSyntax.json_list(or_object=True),
                                    opener="<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>").control_tokens(
        "think_open", "think_close", "answer_open", "answer_close", "calls_open", "calls_close")


TABLES = {"cohere_command3": _command("cohere_command3"), "cohere_command4": _command("cohere_command4")}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("cohere_command3", "cohere_command4"),
            "`<|START_ACTION|>` + a JSON list of `{\"tool_call_id\", \"tool_name\", \"parameters\"}` + `<|END_ACTION|>`; "
            "`<|START_THINKING|>` thought, `<|START_RESPONSE|>` answer",
            "Command R7B, Command A; Command A Reasoning"),
    ),
    vllm={
        "cohere_command3": "cohere_command3",
        "cohere_command4": "cohere_command4",
    },
    sglang={
        "cohere_command4": "cohere_command4",
    },
    checkpoints=(
        checkpoints("c4ai-command-r7b-12-2024", "cohere_command3", NO_THOUGHT, COHERE_HEAD, None,
                    "CohereLabs/c4ai-command-r7b-12-2024", "CohereLabs/c4ai-command-a-03-2025"),
        checkpoints("command-a-reasoning-08-2025", "cohere_command4", NO_THOUGHT, COHERE_HEAD, None,
                    "CohereLabs/command-a-reasoning-08-2025"),
    ),
)
