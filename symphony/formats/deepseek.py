"""DeepSeek V4.1 (SPEC §3 `deepseek_v4_1`, also `deepseek_v4.1`): `<think>` thoughts (the
generation prompt opens one) and a `<｜DSML｜ calls>` block of DSML invokes. A calls block ends
the thought. `｜` is U+FF5C; the space after `DSML｜` is part of every marker.

DeepSeek V3 and V3.1 (`deepseek_v3`, `deepseek_v3_1`): a `<｜tool▁calls▁begin｜>` block
of calls, each between `<｜tool▁call▁begin｜>` and `<｜tool▁call▁end｜>` (`▁` is U+2581). V3 (and
R1) write `function<｜tool▁sep｜>NAME`, then the arguments in a ```json fence (the type word is
always `function`, so it is part of the call's marker); V3.1 writes `NAME<｜tool▁sep｜>` and the
arguments object bare. Both read `<think>` thoughts (R1 and V3.1's thinking mode write them);
the block's opener, or a call's written without it, in a thought left open ends the thought.

DeepSeek V3.2 and V4 (`deepseek_v3_2`, `deepseek_v4`): V4.1's DSML invokes and thought,
spelled without the space after `DSML｜` (`<｜DSML｜invoke name="`, `<｜DSML｜parameter …>`), in a
`<｜DSML｜function_calls>` block (V3.2) or a `<｜DSML｜tool_calls>` block (V4).

Every DeepSeek model from V3 on sometimes writes a call without its block's opener: an invoke,
or a `<｜tool▁call▁begin｜>` call, straight after prose. Each table reads it as the call, read in
the prose, whose text around it is content byte for byte, and where the block's close after it is
dropped (shapes.calls_without_block); the grammar writes the block. The DSML
models also write damaged block tags before the real block or invoke (`<｜DSML｜toolcalls>`):
those are dropped (shapes.damaged_openers), and shown as written when no call follows them;
so are damaged block closers after the calls (`</｜DSML｜toolcalls>`, shapes.damaged_closers), and
the block's opener written again right after a call (shapes.opener_again_in_block).
The DSML tags are also read spaced, as SGLang's DSML detectors read them (vLLM's read the
parameter tags so): a run of whitespace between a tag's name and its first attribute
(`<｜DSML｜invoke  name="f">`, a tab or a newline there), between a parameter's attributes, and
before a tag's `>` or `/>` (CallSyntax.dsml(spaced=True), shapes.spaced_invokes); spaces around an
`=` or single quotes are not (no incumbent reads them). A `string="false"` value that is a JSON word
(`null`, `true`, `false`) its declared schema does not admit, where the schema admits a string, is
the word as a string (`"null"`), as vLLM's deepseek_v32 reads it (assemble_invoke.pxi).
"""
from symphony.format import CallSyntax
from symphony.formats.family import (ALWAYS_OPENS_THOUGHT, DEEPSEEK, NO_THOUGHT, OPENS_THOUGHT, REASONING_PROBE, Family,
                                     Replay, Row, checkpoints)
from symphony.formats.shapes import (THINK, call_ends_thought, calls_without_block, damaged_closers, damaged_openers,
                                     opener_again_in_block, spaced_invokes, thought_and_call_block,
                                     thought_and_invokes)
from symphony.syntax import DSML_V3_2, CallObject

DSML_MARK = DSML_V3_2       # what every DSML tag begins with after its `<` (V4.1's adds a space)


def dsml_table(name, block, invoke_open, syntax):
    """V4.1's shape (a thought, a block of DSML invokes), reading an invoke written without the
    block, dropping damaged block openers and closers and the block's opener written again after a
    call, and reading tags written spaced."""
    table = thought_and_invokes(name, block, (invoke_open, syntax.dsml_tags()[2]), syntax, "<｜Assistant｜>")
    table = damaged_openers(calls_without_block(table, "invoke_open", "invoke"), DSML_MARK)
    return spaced_invokes(opener_again_in_block(damaged_closers(table, DSML_MARK)))


def tool_call_table(name, call, syntax):
    """V3's shape (a thought, a `<｜tool▁calls▁begin｜>` block of calls), reading a call written
    without the block. Where the syntax's head restarts (V3, V3.1), a call's opener written again in
    the call is read (a recovery): after the arguments' object the next call begins (the model
    left out `<｜tool▁call▁end｜>`), before the head's separator the head begins anew; inside the
    arguments it is their text. The block's opener, or a call's written without it, in a thought
    left open ends the thought (a recovery, as the later DeepSeek tables' block does: SGLang's
    deepseek-v3 reasoning parser ends it there)."""
    table = thought_and_call_block(name, THINK, CALLS, call, syntax).opens_turn("<｜Assistant｜>")
    if dict(syntax.params).get("head_restarts"):
        table = table.recovers("call", "call_open", "call")
    table = calls_without_block(call_ends_thought(table, "calls_open", "calls"), "call_open", "call")
    return call_ends_thought(table, "call_open", "bare_call")


DEEPSEEK_V4_1 = dsml_table("deepseek_v4_1", ("<｜DSML｜ calls>", "</｜DSML｜ calls>"), '<｜DSML｜ invoke name="',
                           CallSyntax.dsml(spaced=True))

CALLS = ("<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>")
SEP = "<｜tool▁sep｜>"
CALL_END = "<｜tool▁call▁end｜>"

DEEPSEEK_V3 = tool_call_table("deepseek_v3", ("<｜tool▁call▁begin｜>function" + SEP, CALL_END),
                              CallSyntax.json(CallObject.ARGUMENTS, head="\n```json\n", tail="\n```",
                                              head_restarts=True))
DEEPSEEK_V3_1 = tool_call_table("deepseek_v3_1", ("<｜tool▁call▁begin｜>", CALL_END),
                                CallSyntax.json(CallObject.ARGUMENTS, head=SEP, head_restarts=True))

# DeepSeek's block and call markers are each one special token (V3's call opener is three); so is
# V3.1's head separator, which only its call syntax reads; `</think>` is one token of V3.1's and later
# tokenizers (V3.2, V4, V4.1): with no thought open it is dropped, as vLLM's and SGLang's reasoning
# parsers drop it
DEEPSEEK_V3 = DEEPSEEK_V3.control_tokens("calls_open", "calls_close", "call_close")
DEEPSEEK_V3_1 = (DEEPSEEK_V3_1.control_tokens("calls_open", "calls_close", "call_open", "call_close", "think_close")
                 .control_token("call_sep", SEP))

DEEPSEEK_V3_2 = dsml_table("deepseek_v3_2", ("<｜DSML｜function_calls>", "</｜DSML｜function_calls>"),
                           '<｜DSML｜invoke name="', CallSyntax.dsml(DSML_V3_2, spaced=True))
DEEPSEEK_V4 = dsml_table("deepseek_v4", ("<｜DSML｜tool_calls>", "</｜DSML｜tool_calls>"), '<｜DSML｜invoke name="',
                         CallSyntax.dsml(DSML_V3_2, spaced=True))
DEEPSEEK_V4_1 = DEEPSEEK_V4_1.control_tokens("think_close")
DEEPSEEK_V3_2 = DEEPSEEK_V3_2.control_tokens("think_close")
DEEPSEEK_V4 = DEEPSEEK_V4.control_tokens("think_close")

TABLES = {"deepseek_v4_1": DEEPSEEK_V4_1, "deepseek_v3": DEEPSEEK_V3, "deepseek_v3_1": DEEPSEEK_V3_1,
          "deepseek_v3_2": DEEPSEEK_V3_2, "deepseek_v4": DEEPSEEK_V4}
ALIASES = {"deepseek_v4.1": "deepseek_v4_1", "deepseek_v3.1": "deepseek_v3_1", "deepseek_v3.2": "deepseek_v3_2"}


FAMILY = Family(
    tables=TABLES,
    aliases=ALIASES,
    rows=(
        Row(("deepseek_v4_1",),
            "`<｜DSML｜ calls>` block of DSML invokes, typed by their `string` attribute",
            "DeepSeek V4.1"),
        Row(("deepseek_v3",),
            "`<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME` + the arguments in a ```json fence",
            "DeepSeek V3, R1 and its distilled checkpoints"),
        Row(("deepseek_v3_1",),
            "`<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>` + the arguments object",
            "DeepSeek V3.1, V3.1-Terminus, V3.2-Exp"),
        Row(("deepseek_v3_2",),
            "`<｜DSML｜function_calls>` block of DSML invokes spelled without the space after `DSML｜`",
            "DeepSeek V3.2, V3.2-Speciale"),
        Row(("deepseek_v4",),
            "`<｜DSML｜tool_calls>` block of the same invokes",
            "DeepSeek V4 Flash, V4 Pro"),
    ),
    vllm={
        "deepseek_v3": "deepseek_v3",
        "deepseek_v31": "deepseek_v3_1",
        "deepseek_v32": "deepseek_v3_2",
        "deepseek_v4": "deepseek_v4",
        "deepseek_v41": "deepseek_v4_1",
    },
    sglang={
        "deepseekv3": "deepseek_v3",
        "deepseekv31": "deepseek_v3_1",
        "deepseekv32": "deepseek_v3_2",
        "deepseekv4": "deepseek_v4",
        "deepseekv41": "deepseek_v4_1",
    },
    checkpoints=(
        # deepseek_v4_1: <｜DSML｜ calls> blocks of DSML invokes; the prompt opens the thought
        checkpoints("deepseek-v4.1-flash", "deepseek_v4_1", OPENS_THOUGHT, DEEPSEEK, None,
                    "deepseek-ai/DeepSeek-V4.1-Flash", tails=("<think>", "</think>"),
                    switch=(("thinking", "enable_thinking"), True)),
        # deepseek_v4: V4.1's invokes in a <｜DSML｜tool_calls> block; thinking on unless `thinking`
        # or `enable_thinking` is given false, as vLLM's parser serves it
        checkpoints("deepseek-v4-flash", "deepseek_v4", OPENS_THOUGHT, DEEPSEEK, None,
                    "deepseek-ai/DeepSeek-V4-Flash", "deepseek-ai/DeepSeek-V4-Pro", tails=("<think>", "</think>"),
                    switch=(("thinking", "enable_thinking"), True)),
        # deepseek_v3: <｜tool▁calls▁begin｜> blocks, `function<｜tool▁sep｜>NAME` and fenced JSON
        # arguments. V3-0324 writes no thought; R1's template (revised) opens one.
        checkpoints("deepseek-v3-0324", "deepseek_v3", NO_THOUGHT, DEEPSEEK, None,
                    "deepseek-ai/DeepSeek-V3-0324", "deepseek-ai/DeepSeek-V3"),
        checkpoints("deepseek-r1", "deepseek_v3", ALWAYS_OPENS_THOUGHT, DEEPSEEK, None,
                    "deepseek-ai/DeepSeek-R1", "deepseek-ai/DeepSeek-R1-0528",
                    # the distilled checkpoints carry R1's chat template
                    "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
                    "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
                    "deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "deepseek-ai/DeepSeek-R1-Distill-Llama-70B"),
        # deepseek_v3_1: `NAME<｜tool▁sep｜>{json}` calls; the template's `thinking` switch (not
        # enable_thinking) defaults to off, when the prompt ends `</think>`, and `thinking: True`
        # ends it `<think>`
        checkpoints("deepseek-v3.1", "deepseek_v3_1", NO_THOUGHT, DEEPSEEK, None,
                    "deepseek-ai/DeepSeek-V3.1", "deepseek-ai/DeepSeek-V3.1-Terminus",
                    "deepseek-ai/DeepSeek-V3.2-Exp",        # V3.1-Terminus's template (DSML came with V3.2)
                    tails=("<think>", "</think>"), switch=(("thinking",), False)),
        # deepseek_v3_2: V4.1's DSML invokes spelled without the space after `DSML｜`, in a
        # <｜DSML｜function_calls> block; its encoder ends the prompt `<think>` in thinking mode and
        # `</think>` in chat mode, which the engines serve unless `thinking` or `enable_thinking` is
        # true. Speciale is served in thinking mode only.
        checkpoints("deepseek-v3.2", "deepseek_v3_2", NO_THOUGHT, DEEPSEEK, None,
                    "deepseek-ai/DeepSeek-V3.2", tails=("<think>", "</think>"),
                    switch=(("thinking", "enable_thinking"), False)),
        checkpoints("deepseek-v3.2-speciale", "deepseek_v3_2", ALWAYS_OPENS_THOUGHT, DEEPSEEK, None,
                    "deepseek-ai/DeepSeek-V3.2-Speciale", tails=("<think>", "<think>")),
    ),
    replay=Replay(
        probes={"deepseek_v4_1": {REASONING_PROBE: (0, "stop")}},
    ),
    bench={

        # -- other families (bench/common.py OTHER_SLUGS)
        # DeepSeek-V4.1-Flash: DSML with spaced tag names (<｜DSML｜ calls>, which
        # the real vocab splits into "<", "｜DSML｜", " calls", ">"). The generation
        # prompt ends "<｜Assistant｜><think>" (no newline), "<｜Assistant｜></think>"
        # when thinking is off. SGLang: the architecture / "<｜DSML｜ calls>"
        # template rules pick deepseekv41 + deepseek-v41 (DeepSeekV4Detector,
        # reasoning_default explicit_thinking: force only for an explicit
        # `thinking: true`, SGLANG_DEFAULT_THINKING is off). The fixtures say
        # enable_thinking (the checkpoint template's switch, default on), so force
        # follows the case's thinking state: the request a SGLang client must send
        # to get the prompt these outputs came from. CAVEAT: with these names the
        # 0.5.23 server sets chat_encoding_spec dsv41 and parses chat output with
        # deepseek-recipe (serving_deepseek_recipe.py), not with these detectors;
        # that path needs the deepseek-recipe package and the checkpoint's
        # tokenizer.json (recipe ships none), neither of which is here, so the
        # detector pair is what is measured. vLLM: deepseek_v41/deepseek_v41
        # (DeepSeek-V4 engine; thinking unless thinking/enable_thinking is false
        # or reasoning_effort is none).
        "deepseek-v4.1-flash": {
            "thinking_default": True,
            "markers": ["<｜Assistant｜>", "<think>", "</think>"],
            "sglang": {"tool": "deepseekv41", "reasoning": "deepseek-v41", "force": "thinking",
                       "caveat": "served chat path is deepseek-recipe (chat_encoding_spec dsv41), "
                                 "not drivable here; these are SGLang's DSML detectors"},
            "vllm": {"tool": "deepseek_v41", "reasoning": "deepseek_v41",
                     "tail_on": "<｜Assistant｜><think>", "tail_off": "<｜Assistant｜></think>"},
        },
        # DeepSeek V3-0324 / V3.1 (content-only fixtures): V3.1's prompt ends </think> by default.
        "deepseek-v3-0324": {
            "thinking_default": None,
            "markers": ["<｜Assistant｜>", "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>",
                        "<｜tool▁call▁end｜>", "<｜tool▁sep｜>"],
            "sglang": {"tool": "deepseekv3", "reasoning": None, "force": False},
            "vllm": {"tool": "deepseek_v3", "reasoning": None, "tail_on": "<｜Assistant｜>"},
        },
        "deepseek-v3.1": {
            "thinking_default": False,
            "markers": ["<｜Assistant｜>", "<think>", "</think>", "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>",
                        "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>"],
            "sglang": {"tool": "deepseekv31", "reasoning": "deepseek-v3", "force": False},
            "vllm": {"tool": "deepseek_v31", "reasoning": "deepseek_v3", "tail_on": "<｜Assistant｜></think>"},
        },
    },
)
