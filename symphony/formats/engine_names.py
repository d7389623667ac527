"""The names the inference engines give their parsers, each to the table that reads the same
family: vLLM's `--tool-call-parser` names and SGLang's `--tool-call-parser` detector names. They
are format aliases too (`symphony.parse("hermes", ...)`, `symphony parse --format glm45`), so a
user moving from an engine flag passes the flag's value; a name that is already a table's stays
that table's (vLLM's `kimi_k2` is the `kimi_k2` table; SGLang's `glm`, its GLM-4.5 detector, is
the `glm` table, which reads that spacing too).
"""

VLLM_PARSERS = {
    # `<tool_call>` + `<function=…><parameter=…>`; IquestCoderToolParser subclasses qwen3_coder
    "qwen3_coder": "qwen3_tagged", "qwen3_xml": "qwen3_tagged", "mimo": "qwen3_tagged",
    "step3p5": "qwen3_tagged", "iquest_coder": "qwen3_tagged",
    "seed_oss": "seed_oss",
    "glm45": "ling",        # GLM-4.5/4.6 write a newline between tags (both tables read either spacing)
    "glm47": "glm",
    "hy_v4": "hy4",
    "kimi_k3": "kimi_k3",
    "minimax_m3": "minimax_m3",
    "olmo3": "olmo3",
    "gemma4": "gemma4",
    "minicpm5": "minicpm5",
    "lfm2": "lfm2_5",       # vLLM's lfm2 parser reads LFM2.5's `<|tool_call_start|>[…]<|tool_call_end|>`
    "minimax_m2": "minimax_m2",
    "dots": "dots3",
    "k2_horizon": "k2_horizon",
    "deepseek_v3": "deepseek_v3",
    "deepseek_v31": "deepseek_v3_1",
    "deepseek_v32": "deepseek_v3_2",
    "deepseek_v4": "deepseek_v4",
    "deepseek_v41": "deepseek_v4_1",
    "apertus": "apertus",
    "hunyuan_a13b": "hunyuan_a13b",
    # JSON call objects in `<tool_call>` (Hermes 2 Pro, Granite 4) and xLAM's bare list
    "hermes": "qwen2_5", "granite4": "qwen2_5",
    "xlam": "xlam",
    "jamba": "jamba",
    "granite": "granite",
    "internlm": "internlm2",
    "cohere_command3": "cohere_command3",
    "cohere_command4": "cohere_command4",
    "mistral": "mistral",
    "llama3_json": "llama3_json",
    "phi4_mini_json": "phi4_mini",
    "kimi_k2": "kimi_k2",
    "pythonic": "pythonic", "llama4_pythonic": "pythonic",
    "ernie45": "ernie45",
    "longcat": "longcat",
    "step3": "step3",
    "minimax": "minimax_m1",
    "qwen25_coder": "qwen2_5_coder", "qwen2_5_coder": "qwen2_5_coder",
    "nemotron_json": "nemotron_json",
    "iquest_coder_v2": "iquest_coder_v2",
    "inkling": "inkling",
    "muse_glimmer": "muse_glimmer",
    "musespark1x": "muse_spark",    # (its `muse` is the same parser: see SGLANG_DETECTORS' note)
    "openai": "gpt_oss",    # the harmony parser vLLM serves gpt-oss with
    # vLLM's other names for a family above: qwen3_json is hermes (Qwen3 writes its <think>: the
    # qwen3 table), llama4_json the llama3_json parser, step5 the qwen3_coder parser (with R1's
    # <think>), ling3 the GLM-4.7 parser, poolside_v1 Laguna's keyed calls
    "qwen3_json": "qwen3", "llama4_json": "llama3_json", "step5": "qwen3_tagged", "ling3": "ling",
    "poolside_v1": "laguna",
    "granite-20b-fc": "granite_20b_fc",
    "hy_v3": "hy_v3",
    "plamo3": "plamo3",
    "gigachat3": "gigachat3",
    "functiongemma": "functiongemma",
}

SGLANG_DETECTORS = {
    "hermes": "qwen2_5", "qwen": "qwen2_5", "qwen25": "qwen2_5",
    "qwen3_coder": "qwen3_tagged", "step3p5": "qwen3_tagged", "nanbeige": "qwen3_tagged", "mimo": "qwen3_tagged",
    "mistral": "mistral", "llama3": "llama3_json", "pythonic": "pythonic", "kimi_k2": "kimi_k2",
    "kimi_k3": "kimi_k3", "deepseekv3": "deepseek_v3", "deepseekv31": "deepseek_v3_1",
    "deepseekv32": "deepseek_v3_2", "deepseekv4": "deepseek_v4", "deepseekv41": "deepseek_v4_1",
    "step3": "step3", "interns1": "intern_s1", "cohere_command4": "cohere_command4",
    "glm": "glm", "glm45": "ling", "glm47": "glm", "minimax-m2": "minimax_m2", "minimax-m3": "minimax_m3",
    "lfm2": "lfm2_5", "gemma4": "gemma4", "minicpm5": "minicpm5", "dots": "dots3", "k2_horizon": "k2_horizon",
    "hunyuan": "hy_v3",      # SGLang's HunyuanDetector reads Hy3's keyed block, not Hunyuan-A13B's list
    "apertus2509": "apertus", "inkling": "inkling", "iquest_q1": "iquest", "gpt-oss": "gpt_oss",
    "ling3": "ling", "poolside_v1": "laguna", "gigachat3": "gigachat3", "gigachat35": "gigachat35",
    "trinity": "trinity",
    "spark25": "glm",        # Spark 2.5 writes GLM's keyed <tool_call>NAME<arg_key>…</tool_call>
    # (SGLang's `muse` is its Muse Glimmer detector, vLLM's `muse` the Muse Spark profile: the name
    # means two families, so it is no alias)
}


def aliases(tables):
    """Every engine name that is not itself a table's name, to its table (`tables` the table
    names); ValueError where the engines' names disagree or name a table that is not there."""
    found = {}
    for names in (VLLM_PARSERS, SGLANG_DETECTORS):
        for name, table in names.items():
            if table not in tables:
                raise ValueError(f"engine parser {name!r} names no table {table!r}")
            if found.setdefault(name, table) != table:
                raise ValueError(f"engine parser {name!r} is {found[name]!r} and {table!r}")
    return {name: table for name, table in found.items() if name not in tables}
