"""xLAM (SPEC §3 `xlam`): the whole output is a bare JSON list of calls, or it is content."""
from symphony.format import CallSyntax, Emits, Format

XLAM = Format("xlam").state("calls", Emits.ARGUMENTS).calls(CallSyntax.json_list())

TABLES = {"xlam": XLAM}
