"""`python3 -m symphony.formats` prints the family table in Markdown (the README's and docs');
`--syntaxes`, the table of call syntaxes (docs/families.md)."""
import sys

from symphony.formats import family_table, syntax_table

print(syntax_table() if sys.argv[1:] == ["--syntaxes"] else family_table())
