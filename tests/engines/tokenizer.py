"""A byte-level tokenizer built locally with `tokenizers` (one token per UTF-8 byte, no merges):
what the engines' parser interfaces need from a tokenizer (ids, decode, a vocabulary), without
downloading a model's."""
import functools


@functools.lru_cache(maxsize=None)
def byte_tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    tok = Tokenizer(models.BPE(vocab={c: i for i, c in enumerate(alphabet)}, merges=[]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tok.decoder = decoders.ByteLevel()
    return PreTrainedTokenizerFast(tokenizer_object=tok)


def encode(text):
    return byte_tokenizer().encode(text, add_special_tokens=False)
