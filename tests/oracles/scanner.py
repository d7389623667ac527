"""Whole-buffer oracle of the Scanner (SPEC §2.3) at the end of the stream: walk the text a
character at a time; where some non-empty marker starts, take the longest (ties: first listed);
text between markers comes out as one piece."""


def scan(text, markers):
    pieces = []
    run = []
    i = 0
    while i < len(text):
        best = None
        for index, marker in enumerate(markers):
            if marker and text.startswith(marker, i) and (best is None or len(marker) > len(markers[best])):
                best = index
        if best is None:
            run.append(text[i])
            i += 1
            continue
        if run:
            pieces.append(("text", "".join(run)))
            run = []
        pieces.append(("marker", best))
        i += len(markers[best])
    if run:
        pieces.append(("text", "".join(run)))
    return pieces


def merge_text(pieces):
    """Adjacent text pieces joined (a chunked scan may cut text anywhere)."""
    merged = []
    for kind, value in pieces:
        if kind == "text" and merged and merged[-1][0] == "text":
            merged[-1] = ("text", merged[-1][1] + value)
        elif kind == "text" and value == "":
            continue
        else:
            merged.append((kind, value))
    return merged
