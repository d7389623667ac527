"""dots (`dots3`, issue 10): `<think>` thoughts the model writes itself, and each call in a
`<dots_function_call>` block of `<invoke name="…">` invokes whose `<parameter name="…">` values
sit on their own line (one newline after the opening tag and one before the close tag are the
template's), typed by the request's tools.
"""
from symphony.format import CallSyntax
from symphony.formats.shapes import thought_and_invokes
from symphony.syntax import XML_INVOKE_CLOSE, Placement

DOTS3 = thought_and_invokes("dots3", ("<dots_function_call>", "</dots_function_call>"),
                            ("<invoke name=\"", XML_INVOKE_CLOSE), CallSyntax.invoke(Placement.OWN_LINE))

TABLES = {"dots3": DOTS3}
