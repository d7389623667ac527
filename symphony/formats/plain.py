"""Models with no markup of their own (SPEC §3 `plain`): every byte is content."""
from symphony.format import Emits, Format

PLAIN = Format("plain").state("content", Emits.CONTENT)

TABLES = {"plain": PLAIN}
