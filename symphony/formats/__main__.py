"""`python3 -m symphony.formats` prints the family table in Markdown (the README's and docs')."""
from symphony.formats import family_table

print(family_table())
