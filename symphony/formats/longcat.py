"""LongCat (`longcat`): `<longcat_tool_call>` JSON objects, no thought."""
from symphony.format import CallSyntax
from symphony.formats.family import NO_THOUGHT, Family, Row, checkpoints
from symphony.formats.shapes import calls_only

LONGCAT = calls_only("longcat", ("<longcat_tool_call>", "</longcat_tool_call>"), CallSyntax.json(), "ASSISTANT:")

TABLES = {"longcat": LONGCAT}


FAMILY = Family(
    tables=TABLES,
    rows=(
        Row(("longcat",),
            "`<longcat_tool_call>` + a JSON object, no thought",
            "LongCat-Flash-Chat"),
    ),
    vllm={
        "longcat": "longcat",
    },
    checkpoints=(
        checkpoints("longcat-flash-chat", "longcat", NO_THOUGHT, "ASSISTANT:", None,
                    "meituan-longcat/LongCat-Flash-Chat"),
    ),
)
