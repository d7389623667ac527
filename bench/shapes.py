"""Synthetic outputs of a chosen length in the shapes that once made cost grow with length (issue
12): many small calls, one long xLAM list, many thoughts, separators among a call's tags and held
with its whitespace, arguments written before the name, escapes, near-miss marker prefixes, plain
content, a call region that holds no call (every record held to its end). Each shape is a table
and a function of the wanted size in bytes; bench/scaling.py and bench/test_bench_scaling.py time
them."""

QWEN_CALL = '<tool_call>\n{"name": "f", "arguments": {"a": 1, "b": "xy"}}\n</tool_call>\n'
CODER_CALL = ("<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n<parameter=b>\nxy\n</parameter>\n"
              "</function>\n</tool_call>\n")
GLM_CALL = "<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value><arg_key>b</arg_key><arg_value>xy</arg_value></tool_call>"
XLAM_OBJECT = '{"name": "f", "arguments": {"a": 1}}'
SEPARATOR = "]<]minimax[>["          # MiniMax M3's separator token, written before every tag
MINIMAX_INVOKE = (f'{SEPARATOR}<invoke name="f">{SEPARATOR}\n<a>{SEPARATOR}1{SEPARATOR}</a>{SEPARATOR}\n'
                  f'<b>  {SEPARATOR}xy{SEPARATOR}</b>{SEPARATOR}\n</invoke>\n')
ESCAPED = 'a \\"quoted\\" \\\\ \\n \\u00e9 '
BEFORE_NAME = '"k": "' + "v" * 50 + '", '


def _repeat(unit, size):
    return unit * max(1, size // len(unit))


def many_calls(size):
    return _repeat(QWEN_CALL, size)


def many_tagged_calls(size):
    return _repeat(CODER_CALL, size)


def many_keyed_calls(size):
    return _repeat(GLM_CALL, size)


def xlam_list(size):
    return "[" + ", ".join([XLAM_OBJECT] * max(1, size // (len(XLAM_OBJECT) + 2))) + "]"


def many_thoughts(size):
    return _repeat("<think>a short thought</think>then some text. ", size)


def separators(size):
    """MiniMax M3 calls, a separator before every tag, some among the whitespace a call holds."""
    return "<tool_call>" + _repeat(MINIMAX_INVOKE, size) + SEPARATOR + "</tool_call>"


def held_separators(size):
    """One M3 value after a run of whitespace and separators, all held until the value shows."""
    return ('<tool_call><invoke name="f"><a>' + _repeat(" " + SEPARATOR, size) + "1</a></invoke></tool_call>")


def arguments_before_name(size):
    return '<tool_call>\n{"arguments": {' + _repeat(BEFORE_NAME, size) + '"z": 1}, "name": "f"}\n</tool_call>'


def escapes(size):
    return '<tool_call>\n{"name": "f", "arguments": {"s": "' + _repeat(ESCAPED, size) + '"}}\n</tool_call>'


def near_misses(size):
    return _repeat("<tool_ca <thin </tool_cal <tool_call x ", size)


def held_region(size):
    """An LFM2 call region that never holds a call: its text, Malformed runs of two reasons one
    after another, is held to the region's end (it is the text as written if no call comes)."""
    return "<|tool_call_start|>" + _repeat("x<", size)


def plain(size):
    return _repeat("plain content words without markers. ", size)


# name -> (table, builder)
SHAPES = {
    "many_calls": ("qwen3", many_calls),
    "many_tagged_calls": ("qwen3_tagged", many_tagged_calls),
    "many_keyed_calls": ("glm", many_keyed_calls),
    "xlam_list": ("xlam", xlam_list),
    "many_thoughts": ("qwen3", many_thoughts),
    "separators": ("minimax_m3", separators),
    "held_separators": ("minimax_m3", held_separators),
    "arguments_before_name": ("qwen3", arguments_before_name),
    "escapes": ("qwen3", escapes),
    "near_misses": ("qwen3", near_misses),
    "held_region": ("lfm2_5", held_region),
    "plain": ("qwen3", plain),
}
