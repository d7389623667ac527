"""A byte-level tokenizer built locally with `tokenizers` (one token per UTF-8 byte, no merges):
what the engines' parser interfaces need from a tokenizer (ids, decode, a vocabulary), without
downloading a model's; and one that also has a family's markers as special tokens, for the
incumbents' parsers that find a marker by its token id."""
import functools
import re


@functools.lru_cache(maxsize=None)
def byte_tokenizer(markers=()):
    """The byte-level tokenizer; each of `markers` (a tuple) one special token of its own."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    tok = Tokenizer(models.BPE(vocab={c: i for i, c in enumerate(alphabet)}, merges=[]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tok.decoder = decoders.ByteLevel()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok)
    if markers:
        fast.add_special_tokens({"additional_special_tokens": list(markers)})
    return fast


def marker_pieces(text, markers, chars=3):
    """`text` cut as a tokenizer with `markers` as tokens streams it: each marker a piece, the text
    between them `chars` characters a piece."""
    pieces, at = [], 0
    for found in re.finditer("|".join(re.escape(m) for m in markers), text):
        pieces += [text[i:min(i + chars, found.start())] for i in range(at, found.start(), chars)]
        pieces.append(found.group())
        at = found.end()
    return pieces + [text[i:i + chars] for i in range(at, len(text), chars)]


def encode(text):
    return byte_tokenizer().encode(text, add_special_tokens=False)
