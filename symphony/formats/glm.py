"""The keyed families under `<tool_call>`-shaped markers (SPEC §3 `glm`, `ling`, `iquest`): a
call is its name, then `<arg_key>K</arg_key><arg_value>V</arg_value>` pairs, and the block's
close marker is the call's end. GLM-5, GLM-5.3 and GLM-4.7 write no whitespace between the tags
(`glm`); Ling, and GLM-4.5/4.6, write a newline after the name and after each pair (`ling`: the
same parse, the spacing matters only to the grammar); IQuest has markers of its own and no turn
opener (`iquest`); IQuest-Coder-V2 (`iquest_coder_v2`, issue 11) writes the same calls in
`<iquestcoder_tool_call>` markers. Laguna (`laguna`, issue 10) writes Ling's spacing under GLM's
markers; its template writes no thought, but the model family's reasoning parser reads `<think>`
thoughts.
"""
from symphony.format import CallSyntax
from symphony.formats.qwen3 import THINK, TOOL_CALL
from symphony.formats.shapes import thought_and_calls
from symphony.syntax import Tags

GLM = thought_and_calls("glm", THINK, TOOL_CALL, CallSyntax.keyed(Tags.PLAIN), "<|assistant|>")
LING = thought_and_calls("ling", THINK, TOOL_CALL, CallSyntax.keyed(Tags.LING), "<role>ASSISTANT</role>")
IQUEST = thought_and_calls("iquest", THINK, ("<iquest_tool_call>", "</iquest_tool_call>"),
                           CallSyntax.keyed(Tags.PLAIN))
IQUEST_CODER_V2 = thought_and_calls("iquest_coder_v2", THINK, ("<iquestcoder_tool_call>", "</iquestcoder_tool_call>"),
                                    CallSyntax.keyed(Tags.PLAIN))

LAGUNA = thought_and_calls("laguna", THINK, TOOL_CALL, CallSyntax.keyed(Tags.LING))

TABLES = {"glm": GLM, "ling": LING, "iquest": IQUEST, "iquest_coder_v2": IQUEST_CODER_V2, "laguna": LAGUNA}
