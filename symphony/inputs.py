"""What a parser is fed (SPEC §1.5): Prompt, Delta, End, and TokenSpan (BYTE offsets)."""
from symphony._native import Delta, End, Prompt, TokenSpan

__all__ = ["Prompt", "Delta", "End", "TokenSpan"]
