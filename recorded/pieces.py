"""Token bytes to the pieces of text an engine streams."""
import codecs


def streamed_pieces(token_bytes):
    """Each token's text as an engine streams it, from the tokens' bytes: "" while a character is
    incomplete, then the token that completes it brings the whole character (SPEC §1.5)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    pieces = tuple(decoder.decode(b) for b in token_bytes)
    decoder.decode(b"", final=True)      # raises where the tokens end inside a character
    return pieces
