"""vLLM's own tool-parser unit-test cases (`../shared/peer-cases/vllm.jsonl`, or the file named by
`SYMPHONY_PEER_CASES`, and the cases of vLLM 0.33.0's tests that file does not hold,
`tests/data/vllm_tool_cases_extra.jsonl`) for the families the tables parse, run as extra tests.

Each case is parsed whole with the table its vLLM parser name maps to (no prompt: vLLM's tests
feed none, so no thought is open at the start, even for tables whose generation prompt opens one)
and folded with `chat.message`; it is replayed with its literal `chunks` (when it has them) and at
every chunking (`tests.common.chunkings`, two-way splits bounded for long outputs): every replay
conserves the output's bytes, is well formed and gives the message of the whole parse. The
message is compared with the case's `expect` by the peer-cases README rules (content
whitespace-trimmed, None == "", arguments as parsed JSON values, "ANY" not asserted,
`args_match: subset` / "key by key", `tool_count_asserted`, the `content_*` and
`arguments_string*` checks, reasoning where asserted).

vLLM's expectations are another project's, not the contract. Where SPEC decides otherwise the
case is listed in DIFFERENCES with the reason, and PINNED holds what symphony gives today: a
listed case must give exactly its pinned message, and a listed case that starts agreeing with
vLLM fails (take it off the list), as `symphony.verify` does with its listed probes.

`python3 -m pytest -rA tests/test_peer_cases.py` prints the per-parser agreement table.
"""
import ast
import hashlib
import json
import os
import re

import pytest

import symphony
from symphony.adapt import chat
from symphony.formats.engine_names import VLLM_PARSERS
from tests import peer
from tests.peer import check_replays, check_verdict, summary

# --- where vLLM's parser names land ----------------------------------------------------------

PARSER_TABLES = dict(VLLM_PARSERS, muse="muse_spark")   # vLLM's `muse` is Muse Spark (SGLang's, Glimmer:
                                                       # so the name is no format alias)


# --- listed differences ----------------------------------------------------------------------
# Each reason is "<cause>: <why SPEC decides otherwise, for this case>"; the summary groups by
# the cause. What symphony gives for each is pinned in PINNED below.

MARKER_IN_VALUE = "marker-in-value"
PARAMETER_TAGS = "parameter-tags"
NAMES_NOT_CHECKED = "names-not-checked"
CALL_NEEDS_BLOCK = "call-needs-block"
VALUE_TYPING = "value-typing"
MALFORMED_KEPT = "malformed-kept"
THOUGHT = "thought"
PROSE_BETWEEN = "prose-between-calls"
FOREIGN_MARKERS = "foreign-markers"
REPEATED_KEY = "repeated-key"
VALUE_EXTENT = "value-extent"
SEPARATOR = "separator"
CALL_FORM = "other-call-form"
UNPAIRED_MARKER = "unpaired-marker"
HELD_RELEASED = "held-released"
CALL_IDS = "call-ids"
CITATIONS = "citations"
ATTRIBUTE_TEXT = "attribute-text"
MARKER_TEXT = "marker-text"
REQUEST_OPTIONS = "request-options"
CUT_OFF = "cut-off"

_CODER = "vllm:test_qwen3coder_tool_parser.py::"
_SHARED = "vllm:test_qwen3_xml_coder_shared.py::"
_STEP = "vllm:test_step3p5_tool_parser.py::"
_SEED = "vllm:test_seed_oss_tool_parser.py::"
_GLM45 = "vllm:test_glm4_moe_tool_parser.py::"
_HY = "vllm:test_hy_v4_tool_parser.py::"
_MINIMAX = "vllm:test_minimax_m3_tool_parser.py::"
_OLMO = "vllm:test_olmo3_tool_parser.py::"
_LFM2 = "vllm:test_lfm2_tool_parser.py::"
_DOTS = "vllm:test_dots_tool_parser.py::"
_M2 = "vllm:test_minimax_m2_tool_parser.py::"
_K2 = "vllm:test_k2_horizon_tool_parser.py::"
_MINICPM = "vllm:test_minicpm5xml_tool_parser.py::"
_KIMI_K2 = "vllm:test_kimi_k2_tool_parser.py::"
_DSV32 = "vllm:test_deepseekv32_tool_parser.py::"
_PYTHONIC = "vllm:test_pythonic_tool_parser.py::"
_M1 = "vllm:test_minimax_tool_parser.py::"
_LLAMA4 = "vllm:test_llama4_pythonic_tool_parser.py::"

_NESTED_TOOL_CALL = (
    f"{MARKER_IN_VALUE}: markers inside argument strings ARE markers (SPEC §2.4, bellwether #16): "
    "the `<tool_call>` written inside the string value is the table's call opener; the "
    "calls + call_open row ends the open call, closing its string and object (SPEC §2.4, §5.3 "
    "close()), and opens a new block; vLLM keeps the nested markup in the string")
_PARAMETER_CLOSE_IN_VALUE = (
    f"{PARAMETER_TAGS}: inside a value only `</parameter>` is a tag and it always closes the value "
    "(SPEC §5.4); the schema is not consulted, so the `</parameter>` written inside the string "
    "closes it there and what follows is read as the call's next tags; vLLM keeps the embedded "
    "markup in the string")
_MISSING_PARAMETER_CLOSE = (
    f"{PARAMETER_TAGS}: inside a value only `</parameter>` is a tag (SPEC §5.4): with `</parameter>` "
    "missing after `Dallas`, `<parameter=state>` is value text, so `city` runs to the next "
    "`</parameter>` (\"Dallas\\n<parameter=state>\\nTX\") and there is no `state`; vLLM recovers "
    "the missing close tag")
_PHANTOM = (
    f"{NAMES_NOT_CHECKED}: tool names are not checked against the request and function names are not "
    "validated (SPEC §2.4, §5.4): `<function={{ tc.name }}>` is a call named `{{ tc.name }}`, "
    "with a parameter `{{ k }}`; vLLM drops the unrendered-template call")
_NO_BLOCK = (
    f"{CALL_NEEDS_BLOCK}: a call is read only inside the table's `<tool_call>` block (SPEC §3 qwen3: "
    "content + call_open -> calls); a bare `<function=…>` with no block is content; vLLM falls back "
    "to parsing it as a call")
_DOUBLE_ENCODED = (
    f"{VALUE_TYPING}: `data` (declared object) is inferred from its trimmed text (SPEC §5.2): "
    "`\"{'key': 'value', 'n': 1}\"` is JSON that reads back (a string), so the model's JSON is kept "
    "verbatim and the value is that string; vLLM decodes the string a second time, as a Python repr")
_LITERAL = (
    f"{VALUE_TYPING}: a pythonic value is its Python literal when it is one that reads back as JSON, "
    "else the JSON string of its text (SPEC §5.9, §5.2)")
_CALL_STANDS = (
    "; the call started at its `(` (SPEC §5.9) and a started call always ends (SPEC §2.4 End), so it "
    "stands where vLLM drops it")
_BYTES = (
    _LITERAL + ": `b'z'` is a bytes literal, which the reader does not read (SPEC §5.2), so `bad` gets "
    "`{\"x\": \"b'z'\"}`" + _CALL_STANDS)
_LEADING_ZERO = (
    _LITERAL + ": `07` and `05` are no JSON numbers (the reader refuses leading zeros, SPEC §5.2: "
    "`007` fails), so they are the strings `\"07\"` and `\"05\"`; vLLM reads 7 and 5")
_EXTENT = (
    f"{VALUE_EXTENT}: a pythonic value ends at the first `,` or `)` outside quotes and brackets "
    "(SPEC §5.9), and a quote of the string's own kind closes the string")
_SEPARATOR_DROPPED = (
    f"{SEPARATOR}: the separator `]<]minimax[>[` the template writes before every tag is the "
    "minimax_m3 table's ignored terminal, Dropped wherever it stands (SPEC §3 minimax_m3, §2.4), so it "
    "is never content; here the output ends in `<tool_ca`, a prefix of `<tool_call>` released as "
    "content at the end (SPEC §2.3 finish()), and content is `plain <tool_ca`; vLLM keeps the "
    "separator in content")
_STRICT = (
    f"{MALFORMED_KEPT}: symphony reads what the model wrote and reports what it cannot read as "
    "Malformed, shown as content (SPEC §5.3, §7.1); a started call always ends with what arrived "
    "(SPEC §2.4 End, §5.3 finish()); it never turns a call it read back into raw content, which "
    "vLLM's Hy4 parser does with a block it cannot validate (tools_called False, content = the "
    "whole output)")
_M2_UNDECLARED = (
    f"{VALUE_TYPING}: the values of a function the request does not declare are inferred "
    "(SPEC §5.1 `kind` None, §5.2), as every tool-typed syntax does: `5` is the number 5; vLLM's "
    "minimax_m2 keeps undeclared values as text")
_DOTS_JSON = (
    f"{CALL_FORM}: dots writes a call as an `<invoke name=…>` in its `<dots_function_call>` block "
    "(issue 10, the dots3 fixtures), which is the one call form the dots3 table reads; a JSON object "
    "in the block is no invoke, so the block holds no call and is the text the model wrote, its "
    "markers included (a call region with no call, docs/recovery.md); vLLM also reads a JSON call "
    "there")
_K2_FORMS = (
    f"{CALL_FORM}: K2-Horizon's template writes a call in one of three forms the request picks "
    "(`tool_call_format`: keyed `xml`, the default its fixtures write; `json`; `xml_typed`, an "
    "`<ifm|arg_type>` tag before each value); the k2_horizon table reads the default keyed form "
    "whatever the request says (a parser does not see `chat_template_kwargs`)")
_THOUGHT = (
    f"{THOUGHT}: the seed_oss table reads `<seed:think>…</seed:think>` as the thought (SPEC §3 seed_oss): "
    "its text is reasoning_content, not content (SPEC §7.1), and the markers are dropped; vLLM's "
    "tool parser, run without a reasoning parser, leaves the thought in content")

_MINICPM_PROSE = (
    f"{PROSE_BETWEEN}: prose before, between and after calls is content (SPEC §2.4 engine-wide "
    "policies); vLLM's minicpm5 drops the text around the calls in a whole parse")
_TOKEN_SPACE = (
    f"{FOREIGN_MARKERS}: markers are matched by text (SPEC §1.5): `<functionĠname=\"` spells the "
    "space with the byte-level tokenizer's `Ġ` (what a detokenizer turns into a space), so it is not "
    "the table's `<function name=\"` and the whole output is content; vLLM maps the marker back")
_COLLAPSED = (
    f"{FOREIGN_MARKERS}: markers are matched by text (SPEC §1.5): `<functionname=\"` (the space "
    "dropped) is not the table's `<function name=\"`, so the whole output is content; vLLM accepts "
    "the collapsed tags")
_MINICPM_NAMES = (
    f"{NAMES_NOT_CHECKED}: tool names are not checked against the request (SPEC §2.4): the call keeps "
    "the name the model wrote and its arguments as written; vLLM drops calls to undeclared tools and "
    "maps known aliases to a declared tool (renaming or dropping arguments)")
_MINICPM_SCHEMA = (
    f"{NAMES_NOT_CHECKED}: calls are not checked against the request's schema (SPEC §2.4: names "
    "are not checked, values are typed, never validated): a call missing a required parameter is "
    "still the call the model wrote; vLLM drops it")
_WRAPPED = (
    f"{VALUE_TYPING}: a parameter named `properties` or `arguments` is a parameter like any other "
    "(SPEC §5.2 inference): its value is the object the model wrote under that key; vLLM unwraps it "
    "into the call's arguments")
_MINICPM_CUT = (
    f"{CUT_OFF}: a started call always ends with what arrived (SPEC §2.4 End, §5.3 finish()), and a "
    "call the end of the stream cuts short ends with arguments a client can load (docs/recovery.md): "
    "the stream ends before `</function>`, so the call keeps `{\"city\": \"北京\"}`; vLLM drops the "
    "call and shows the text as content")
_PARAM_WITHOUT_NAME = (
    f"{MALFORMED_KEPT}: `<param>` is no parameter tag (SPEC §5.6 shape: a tag out of place), so "
    "`<param>北京</param>` is Malformed \"text between a call's tags\" and \"a tag where the call's "
    "syntax has none\", shown as content, and the call keeps the parameters it could read; vLLM "
    "drops the whole call")

_CUT_CALL = (
    f"{MALFORMED_KEPT}: a started call always ends with what arrived (SPEC §2.4 End, §4.2 finish()): "
    "the stream ends before the object's `}`, so the call keeps the arguments it has; vLLM reports "
    "no call")
_XLAM_THOUGHT = (
    f"{THOUGHT}: the xlam table reads `<think>…</think>` as the thought (issue 11): its text is "
    "reasoning_content, not content (SPEC §7.1), and the markers are dropped; vLLM's tool parser, "
    "run without a reasoning parser, leaves the thought in content")
_XLAM_TOOL_CALL = (
    f"{CALL_NEEDS_BLOCK}: the xlam table reads a list that opens the output or follows a thought, a "
    "```json fence or `[TOOL_CALLS]` (SPEC §3 xlam, issue 11); `<tool_call>` is no marker there, "
    "because xLAM also writes `<tool_call>…</tool_call>` as text in its answers (the "
    "llama-xlam-2-8b-fc-r fixture content-with-marker-in-code-fence), so this output is content; "
    "vLLM reads the list in the tags")
_INTERNLM_UNKNOWN = (
    f"{NAMES_NOT_CHECKED}: tool names are not checked against the request (SPEC §2.4): "
    "`delete_everything` is a call like any other; vLLM drops a call to an undeclared tool")
_COHERE_IDS = (
    f"{CALL_IDS}: ids are `call_<index>` everywhere (SPEC §2.4); the model's `tool_call_id` is a "
    "member of the call object like any other, not the call's id; vLLM takes it as the id")
_COHERE_CITATIONS = (
    f"{CITATIONS}: `<co>…</co: 0:[1]>` citations are text, kept in the content as written (the "
    "closing tag holds the cited indexes, so it is no fixed marker, SPEC §2.3); vLLM strips them")
_MISTRAL_AFTER_LIST = (
    f"{PROSE_BETWEEN}: what follows a call list is the output's like any other text (SPEC §2.4 "
    "engine-wide policies): `\nextra trailing data` after the list's `]` is Malformed \"text after "
    "the list's end\" (SPEC §4.5), shown as content; vLLM drops it")
_MISTRAL_TWO_REGIONS = (
    f"{CALL_FORM}: each `[TOOL_CALLS]` opens a region of calls (SPEC §2.4: a marker is a marker "
    "wherever it stands), so the two lists are two calls; vLLM's pre-v11 parser refuses a second "
    "`[TOOL_CALLS]` with an error")
_MISTRAL_NOT_A_LIST = (
    f"{CALL_FORM}: a `[TOOL_CALLS]` region that does not open with a list holds one v11 call, "
    "`NAME{..}` (the mistral table reads both generations), so `junk`, the head's first word, is the "
    "name and the object its arguments; vLLM's pre-v11 parser searches the text for a list")
_LLAMA3_MID_TEXT = (
    f"{CALL_NEEDS_BLOCK}: Llama 3 writes its calls as the whole output (after an optional "
    "`<|python_tag|>`), so an output that opens with prose is content (the llama3_json table, like "
    "xlam, SPEC §4.5); vLLM searches the text for an object")
_LLAMA3_INVALID = (
    f"{MALFORMED_KEPT}: the call started once its name was whole (SPEC §4.2) and a started call "
    "always ends (SPEC §2.4 End); `{{invalid json}` is refused at `i`, so the arguments are `{`, "
    "closed for the client (`{}`, docs/recovery.md), and the rest Malformed(InvalidArguments), shown "
    "as content; vLLM reports no call")
_LLAMA3_NO_ARGUMENTS = (
    f"{CALL_FORM}: an object with a name and no arguments member is a call with no arguments, `{{}}` "
    "(SPEC §4.2: its start's source is the whole object; docs/recovery.md); vLLM reports no call")
_K2_ID = (
    f"{CALL_IDS}: ids are `call_<index>` everywhere (SPEC §2.4: no `functions.name:N` scheme): the "
    "head `functions.NAME:N` is the model's own call id, of which the call keeps the name (the "
    "`functions.` prefix and `:N` stay in the start's source); vLLM uses the model's id as the "
    "call's id")
_K2_BARE_COUNTER = (
    f"{NAMES_NOT_CHECKED}: tool names are not checked against the request, nor taken from it "
    "(SPEC §2.4): a head that is only the call number (`0`) names no call, so the call is Malformed "
    "\"a tool call without a name\" (SPEC §4.2) and the block, holding no call, is shown as the "
    "model wrote it (docs/recovery.md); vLLM infers the name from the request's tools")

_DSML_TYPED = (
    f"{VALUE_TYPING}: a DSML value is typed by its own `string` attribute, the request's tools "
    "are not consulted (SPEC §5.6): `string=\"true\"` streams the text as a string, "
    "`string=\"false\"` is json(text, None)")
_DSML_UNWRAP = (
    f"{VALUE_TYPING}: a parameter is a parameter whatever its name (SPEC §5.6): its value is what "
    "the model wrote under that key; vLLM unwraps a lone `arguments`/`input` parameter the schema "
    "does not declare into the call's arguments")

_V4_NO_BLOCK = (
    f"{CALL_NEEDS_BLOCK}: a DSML invoke is read only inside the table's `<｜DSML｜tool_calls>` block "
    "(SPEC §3 deepseek_v4_1's rows); a `<｜DSML｜invoke …>` outside it, or inside V3.2's "
    "`<｜DSML｜function_calls>`, is content, as the older vLLM case test_function_calls_block_is_not_accepted "
    "has it; vLLM 0.33 reads such an invoke as a call")
_KIMI_K3_ESCAPES = (
    f"{ATTRIBUTE_TEXT}: a call's name and an argument's key are the text up to their closing quote "
    "(SPEC §5.7), character references as written; vLLM unescapes `&amp;` and `&quot;`")
_KIMI_K3_SPACED = (
    f"{MARKER_TEXT}: markers are their exact texts (SPEC §2.3); `<|open|> response <|sep|>` is no "
    "response opener, so its text stays in the message region (Malformed, shown as content, spaces "
    "and all); vLLM's regex allows whitespace inside the marker")
_KIMI_K3_CUT = (
    f"{MALFORMED_KEPT}: a call cut off before its header's `<|sep|>` never started (no name is whole), "
    "so its tools block holds no call and is the text the model wrote, markers included "
    "(docs/recovery.md), shown as content; vLLM drops it")
_KIMI_K3_NONE = (
    f"{REQUEST_OPTIONS}: symphony reads the calls the model wrote; dropping them because the request "
    "said `tool_choice: none` is the server's, on the message")
_MUSE_NAME_IN_THOUGHT = (
    f"{THOUGHT}: a tool's header inside the thought (its `<|eom|>` left out): the tool's name is no "
    "fixed marker (SPEC §2.3: markers are texts), so ` to=time.now` stays the thought's text; the "
    "`<|message|>` after it lets the call be read (vLLM's thought stops before the name)")
_GLIMMER_STRING = (
    f"{VALUE_TYPING}: `text` is a declared string, so its value is its text, every byte (SPEC §5.2); "
    "vLLM's Glimmer profile JSON-decodes a value whatever the schema (its Spark profile, `muse`, keeps "
    "the text and agrees)")

DIFFERENCES = {
    # Qwen2.5-Coder, Llama-Nemotron, IQuest-Coder-V2
    "vllm:test_qwen25_coder_tool_parser.py::TestExtractToolCallsNonStreaming::test_malformed_json_returns_content": (
        f"{MALFORMED_KEPT}: the call started once its name was whole (SPEC §4.2) and a started call "
        "always ends (SPEC §2.4 End); `{invalid json` is refused at `i`, so the arguments are `{`, "
        "closed for the client (`{}`, docs/recovery.md), and the rest Malformed(InvalidArguments), "
        "shown as content; vLLM reports no call and the whole output as content"),
    "vllm:test_nemotron_json_tool_parser.py::test_extract_tool_calls_returns_original_for_malformed": (
        f"{MALFORMED_KEPT}: `{{\"name\": \"broken\", \"arguments\": {{}}}}` is a whole call object, so "
        "the call is read (SPEC §4.2) though the list around it never closes before `</TOOLCALL>` ends "
        "the region; a call read is never turned back into raw content; vLLM validates the whole "
        "list and reports no call, the output as content"),
    "vllm:test_nemotron_json_tool_parser.py::test_extract_tool_calls_keeps_think_block_as_content": (
        f"{THOUGHT}: the nemotron_json table reads `<think>…</think>` as the thought (Llama-Nemotron "
        "writes it with \"detailed thinking on\"): its text is reasoning_content, not content (SPEC "
        "§7.1), and the markers are dropped; vLLM's tool parser, run without a reasoning parser, "
        "leaves the thought in content"),
    "vllm:test_iquest_coder_v2_tool_parser.py::test_malformed_call_missing_value_end_is_skipped": (
        f"{MALFORMED_KEPT}: the block's close marker ends the call and cuts the value it finds open "
        "(SPEC §5.5 close(terminal)): the call keeps `{\"city\": \"Dallas\"}`, as a started call always "
        "ends with what arrived (SPEC §2.4 End); vLLM skips the call"),
    # MiniMax M1
    _M1 + "test_extract_tool_calls_missing_name_or_arguments": (
        f"{MALFORMED_KEPT}: a call object with a name and no arguments is a call with no arguments, "
        "`{}` (SPEC §4.2, docs/recovery.md), and one with no name is Malformed \"a tool call without a "
        "name\", shown as content; vLLM drops both"),
    _M1 + "test_extract_tool_calls_multiline_json_not_supported": (
        f"{CALL_FORM}: a call object is JSON however it is spaced (SPEC §4.1 outline): the object written "
        "over several lines is a call; vLLM reads one object per line only"),
    _M1 + "test_streaming_character_by_character_output": (
        f"{THOUGHT}: `<think>…</think>` is the minimax_m1 table's thought, its text reasoning_content, "
        "not content (SPEC §7.1), and the `<tool_calls>` block inside it is thought text; vLLM's tool "
        "parser, run without a reasoning parser, leaves the markers in content (its calls agree)"),
    # bare pythonic lists (Llama 4)
    _PYTHONIC + "test_bad_sibling_call_does_not_drop_good_calls[True]": _BYTES,
    _LLAMA4 + "test_bad_sibling_call_does_not_drop_good_calls[False]": _BYTES,
    _PYTHONIC + "test_streaming_mismatched_brackets_reported_once": _LITERAL
    + ": `1]` is no literal (its `]` closes no bracket, so the value runs to the `)`), and `foo` gets "
      "`{\"x\": \"1]\"}`" + _CALL_STANDS,
    _LLAMA4 + "test_streaming_mismatched_brackets_reported_once": _LITERAL
    + ": `1]` is no literal (its `]` closes no bracket, so the value runs to the `)`), and `foo` gets "
      "`{\"x\": \"1]\"}`" + _CALL_STANDS,
    _PYTHONIC + "test_good_call_survives_unparsable_sibling": _EXTENT
    + ": in `a='x 'y', b='z')]` the quotes pair up as `'x '`, `', b='` and `')]`, so the value never "
      "ends; the stream ends inside it, so `f`, started at its `(`, ends with nothing written (SPEC "
      "§5.9 finish()) and its text is Malformed(UnterminatedRegion), shown as content; vLLM drops `f`",
    _PYTHONIC + "test_unrecoverable_block_still_reports_no_tool_call": _EXTENT
    + ": `'x 'y' 'z` pairs its quotes as `'x '`, `' '`, so it ends at the `)` and is the string of its "
      "text (no literal), and so does `g`'s: two calls, each started at its `(`; vLLM, unable to parse "
      "the block, gives it back as content",
    # DeepSeek V3.2
    _DSV32 + "TestExtractToolCalls::test_string_attr_true_coerced_by_schema": _DSML_TYPED
    + ": `42` is the string \"42\"; vLLM coerces it to the declared integer",
    _DSV32 + "TestExtractToolCallsStreaming::test_string_attr_true_coerced_by_schema_streaming": _DSML_TYPED
    + ": `42` is the string \"42\"; vLLM coerces it to the declared integer",
    _DSV32 + "TestExtractToolCalls::test_string_attr_true_coerced_by_composed_schema": _DSML_TYPED
    + ": the JSON text is a string; vLLM reads it as the object the anyOf schema admits",
    _DSV32 + "TestExtractToolCalls::test_null_coerced_back_to_string_by_schema": _DSML_TYPED
    + ": `null` with `string=\"false\"` is null; vLLM turns it back into the string \"null\" for a "
      "declared string",
    _DSV32 + "TestExtractToolCallsStreaming::test_streaming_matches_non_streaming_conversion_fallbacks[streaming]":
    _DSML_TYPED + ": `null` with `string=\"false\"` is null and `3.0` the number as written; vLLM turns "
    "them into the declared string \"null\" and integer 3",
    _DSV32 + "TestExtractToolCalls::test_arguments_wrapper_repaired": _DSML_UNWRAP,
    _DSV32 + "TestExtractToolCalls::test_input_wrapper_repaired": _DSML_UNWRAP
    + " (here `string=\"true\"` also keeps the JSON text a string)",
    # Kimi K2
    _KIMI_K2 + "TestExtractToolCalls::test_invalid_funcall_id_skipped": (
        f"{NAMES_NOT_CHECKED}: function names are not validated (SPEC §2.4): the head "
        "`functions.invalid.0` has no `:N` number, so its name is what is left without the "
        "`functions.` prefix, `invalid.0`, a call like any other; vLLM skips a call whose id lacks "
        "`:N`"),
    _KIMI_K2 + "TestExtractToolCalls::test_native_id_extracted": _K2_ID,
    _KIMI_K2 + "TestStreamingHappyPath::test_multiple_tool_calls": _K2_ID,
    _KIMI_K2 + "TestStreamingEdgeCases::test_truncated_tool_call_no_end_marker": _K2_ID,
    _KIMI_K2 + "TestExtractToolCalls::test_bare_counter_single_tool_invalid_json_still_extracted": _K2_BARE_COUNTER,
    _KIMI_K2 + "TestStreamingHappyPath::test_bare_counter": _K2_BARE_COUNTER,
    _KIMI_K2 + "TestStreamingHappyPath::test_bare_counter_multiple_tools_infers_by_args": _K2_BARE_COUNTER,
    # `<tool_call>` inside a string value
    _SHARED + "test_content_with_xml_structural_tags_nonstreaming[xml]": _NESTED_TOOL_CALL
    + "; the rest of the value (`\\n\",` …) is a block with no function tag: no second call, its "
      "text Malformed, shown as content",
    _SHARED + "test_content_with_xml_structural_tags_nonstreaming[coder]": _NESTED_TOOL_CALL
    + "; the rest of the value (`\\n\",` …) is a block with no function tag: no second call, its "
      "text Malformed, shown as content",
    _SHARED + "test_content_with_full_nested_tool_call_streaming[xml]": _NESTED_TOOL_CALL
    + "; the nested block is a whole second call, and after its `</tool_call>` the rest of the "
      "outer value is content (the last `</tool_call>` has no row from content, so it is text too)",
    _SHARED + "test_content_with_full_nested_tool_call_streaming[coder]": _NESTED_TOOL_CALL
    + "; the nested block is a whole second call, and after its `</tool_call>` the rest of the "
      "outer value is content (the last `</tool_call>` has no row from content, so it is text too)",
    _SHARED + "test_two_tools_second_with_out_of_schema_nested_literal_nonstreaming[xml]": _NESTED_TOOL_CALL
    + "; the template block inside `content` is a third call, and after its `</tool_call>` the "
      "rest of the outer value is content (the last `</tool_call>` has no row from content, so it "
      "is text too)",
    _SHARED + "test_two_tools_second_with_out_of_schema_nested_literal_nonstreaming[coder]": _NESTED_TOOL_CALL
    + "; the template block inside `content` is a third call, and after its `</tool_call>` the "
      "rest of the outer value is content (the last `</tool_call>` has no row from content, so it "
      "is text too)",
    # `</parameter>` / `<parameter=…>` inside a value
    _SHARED + "test_content_with_param_like_lines_nonstreaming[xml]": _PARAMETER_CLOSE_IN_VALUE
    + "; `content` ends at `\"\"\"` and `<parameter=new_string>` is a parameter (the trailing "
      "`\"\"\"` between tags is Malformed, shown as content)",
    _SHARED + "test_content_with_param_like_lines_nonstreaming[coder]": _PARAMETER_CLOSE_IN_VALUE
    + "; `content` ends at `\"\"\"` and `<parameter=new_string>` is a parameter (the trailing "
      "`\"\"\"` between tags is Malformed, shown as content)",
    _SHARED + "test_content_with_param_like_lines_streaming[xml]": _PARAMETER_CLOSE_IN_VALUE
    + "; `content` ends at `\"\"\"` and `<parameter=new_string>` is a parameter (the trailing "
      "`\"\"\"` between tags is Malformed, shown as content)",
    _SHARED + "test_content_with_real_param_name_literal_nonstreaming[xml]": _PARAMETER_CLOSE_IN_VALUE
    + "; the embedded `<parameter=path>` stays text but the embedded `</parameter>` ends `content` "
      "at `literal/value` (the trailing `\"\"\"` between tags is Malformed, shown as content)",
    _SHARED + "test_content_with_real_param_name_literal_nonstreaming[coder]": _PARAMETER_CLOSE_IN_VALUE
    + "; the embedded `<parameter=path>` stays text but the embedded `</parameter>` ends `content` "
      "at `literal/value` (the trailing `\"\"\"` between tags is Malformed, shown as content)",
    _SHARED + "test_content_with_real_param_name_literal_streaming[coder]": _PARAMETER_CLOSE_IN_VALUE
    + "; the embedded `<parameter=path>` stays text but the embedded `</parameter>` ends `content` "
      "at `literal/value` (the trailing `\"\"\"` between tags is Malformed, shown as content)",
    _SHARED + "test_extract_tool_calls_missing_closing_parameter_tag[xml]": _MISSING_PARAMETER_CLOSE,
    _SHARED + "test_extract_tool_calls_missing_closing_parameter_tag[coder]": _MISSING_PARAMETER_CLOSE,
    _SHARED + "test_extract_tool_calls_streaming_missing_closing_tag[coder]": _MISSING_PARAMETER_CLOSE,
    _STEP + "test_extract_tool_calls_missing_closing_parameter_tag": _MISSING_PARAMETER_CLOSE,
    _STEP + "test_extract_tool_calls_streaming_missing_closing_tag": _MISSING_PARAMETER_CLOSE,
    # names
    _SHARED + "test_jinja_template_phantom_tool_call_is_rejected_nonstreaming[xml]": _PHANTOM,
    _SHARED + "test_jinja_template_phantom_tool_call_is_rejected_nonstreaming[coder]": _PHANTOM,
    # no call block
    _CODER + "test_extract_tool_calls_fallback_no_tags": _NO_BLOCK,
    _SHARED + "test_extract_tool_calls_fallback_no_tags[coder]": _NO_BLOCK,
    _STEP + "test_extract_tool_calls_fallback_no_tags": _NO_BLOCK,
    _LFM2 + "test_echoed_tool_call_body_not_leaked_to_content[#streaming]": (
        f"{CALL_NEEDS_BLOCK}: a call is read only inside the table's `<|tool_call_start|>` block "
        "(SPEC §3 lfm2_5: content + calls_open -> calls) and prose after calls is content (SPEC §2.4 "
        "engine-wide policies): the echoed `[grocery.orderIngredients(…)]` after the block's "
        "`<|tool_call_end|>` is content, and so is the second `<|tool_call_end|>` (no row from "
        "content); vLLM drops the echo"),
    # value typing
    _SHARED + "test_double_encoded_object_param_nonstreaming[coder]": _DOUBLE_ENCODED,
    _SHARED + "test_double_encoded_object_param_streaming[xml]": _DOUBLE_ENCODED,
    _SHARED + "test_double_encoded_object_param_streaming[coder]": _DOUBLE_ENCODED,
    _HY + 'TestArgumentValueTypes::test_value_coercion[17-any_of-["x"]]': (
        f"{VALUE_TYPING}: a schema that admits `string` is a declared string (SPEC §5.1: "
        "anyOf[string, array] is String), and a declared string is its text, every byte (SPEC §5.2): "
        "`[\"x\"]` is the string `'[\"x\"]'`; vLLM reads it as the array"),
    _HY + "TestArgumentValueTypes::test_unknown_tool_keeps_values_as_text": (
        f"{VALUE_TYPING}: the values of a function the request does not declare are inferred "
        "(SPEC §5.1 `kind` None, §5.2): `1` is the number 1; vLLM keeps undeclared values as text "
        "(`{\"x\": \"1\"}`)"),
    _OLMO + "test_bad_sibling_call_does_not_drop_good_calls[True]": _BYTES,
    _LFM2 + "test_bad_sibling_call_does_not_drop_good_calls[True]": _BYTES,
    _LFM2 + "test_bad_sibling_call_does_not_drop_good_calls[False]": _BYTES,
    _OLMO + "test_non_finite_argument_rejected": _LITERAL
    + ": `1e999` is a number out of a JSON reader's range, so it does not read back (SPEC §5.2), and "
      "`calc` gets `{\"x\": \"1e999\"}`" + _CALL_STANDS,
    _OLMO + "test_streaming_mismatched_brackets_reported_once": _LITERAL
    + ": `1]` is no literal (its `]` closes no bracket, so the value runs to the `)`), and `foo` gets "
      "`{\"x\": \"1]\"}`" + _CALL_STANDS,
    _LFM2 + "test_tool_call[leading_zero_int_streaming]": _LEADING_ZERO,
    _LFM2 + "test_tool_call[leading_zero_int_nonstreaming]": _LEADING_ZERO,
    _LFM2 + "test_tool_call[set_arg_nonstreaming]": _LITERAL
    + ": `{'urgent', 'bug'}` is a set, which the reader does not read (it reads lists, tuples and "
      "dicts, SPEC §5.2), so `tags` is the string `\"{'urgent', 'bug'}\"`; vLLM decodes the set as a "
      "list",
    _LFM2 + "test_tool_call[multiline_string_arg_nonstreaming]": _LITERAL
    + ": `'cat > f.py << EOF` … `EOF'` holds raw line breaks, which a Python string literal cannot "
      "(only a backslash-newline continues one, SPEC §5.2), so `command` is the string of its text, "
      "quotes included; vLLM recovers the string",
    # a block vLLM refuses or withdraws, kept as read (Hy4 strict / lenient, GLM, MiniMax M3)
    _HY + "TestStrictMode::test_strict_returns_raw_content[missing_tool_calls_end]": _STRICT
    + "; here the call is whole and the stream ends inside the `<tool_calls:opensource>` block, "
      "which is silent (SPEC §2.4 End: an unclosed wrapper block says nothing): one call, no content",
    _HY + "TestStrictMode::test_strict_returns_raw_content[unbalanced_tool_call]": _STRICT
    + "; here `</tool_calls:opensource>` arrives inside the call: the hy4 table's extra row (the "
      "block's close ends an open call, as DeepSeek's does) closes the call for the client, "
      "`{\"city\": \"X\"}`, where vLLM refuses the unbalanced block",
    _HY + "TestStrictMode::test_lenient_still_reports_unpairable_tags": _STRICT
    + "; here `</tool_calls:opensource>` arrives inside the call: the hy4 table's extra row (the "
      "block's close ends an open call, as DeepSeek's does) closes the call for the client, "
      "`{\"city\": \"X\"}`, where vLLM refuses the unbalanced block",
    _HY + "TestStrictMode::test_strict_returns_raw_content[unparsed_argument_payload]": _STRICT
    + "; here `JUNK` between the call's tags is Malformed (\"text between a call's tags\", SPEC §5.3), "
      "shown as content, and the call keeps `{\"city\": \"X\"}`",
    _HY + "TestToolParserWrapper::test_malformed_output_is_returned_as_content": _STRICT
    + "; here `JUNK` between the call's tags is Malformed (\"text between a call's tags\", SPEC §5.3), "
      "shown as content, and the call keeps `{\"city\": \"X\"}`",
    _MINIMAX + "test_streaming_error_recovery_keeps_committed_tool_call_structured": (
        f"{MALFORMED_KEPT}: the second `<invoke name=\"create_order\"` starts a call (SPEC §5.8) and a "
        "started call always ends with what arrived (SPEC §2.4 End, §5.3 finish()); the stream ends "
        "inside `<user_id>2`, a value written whole that never closed, so it and the held `>` and "
        "separator are Malformed(UnterminatedRegion), shown as content, and the call's arguments are "
        "`{}` (closed for the client, docs/recovery.md); the newline, separator and `<invoke name=\"` before the name are dropped (block "
        "wrapping and markers, SPEC §2.4); vLLM withdraws the unfinished call and gives its text back "
        "as content"),
    _MINIMAX + "test_streaming_parse_error_emits_buffer_and_later_deltas": (
        f"{MALFORMED_KEPT}: `<tool_call>` opens the calls block (SPEC §3 minimax_m3) and the block "
        "holds no call, so it is the text the model wrote from `<tool_call>` on, every byte (a call "
        "region with no call, docs/recovery.md); the separator before `<tool_call>` is dropped (SPEC §3 "
        "minimax_m3); vLLM gives back the text after `<tool_call>`, without it"),
    _GLM45 + "test_streaming_with_content_before_tool_calls": (
        f"{MARKER_TEXT}: the output ends right after `<tool_call>`: a call region in which no call "
        "started is the text the model wrote, its opener included (docs/recovery.md), so content "
        "ends with `<tool_call>`; vLLM's streaming test holds the opener back and never releases it"),
    # thoughts
    _SEED + "test_extract_tool_calls[tool_call_unlimited_thinking_budget]": _THOUGHT,
    _SEED + "test_streaming_tool_calls[tool_call_0_thinking_budget]": _THOUGHT,
    _SEED + "test_streaming_tool_calls[tool_call_512_thinkg_budget]": _THOUGHT,
    # dots and MiniMax M2
    _DOTS + "test_non_stream_supports_multiple_invokes_and_json_fallback": _DOTS_JSON
    + ": the two invokes are calls, the second block (the JSON object in its markers) is content",
    _DOTS + "test_streaming_emits_complete_json_before_end_marker_without_duplication": _DOTS_JSON
    + ": no call, the block is content as written",
    _DOTS + "test_non_stream_unknown_tool_is_left_as_content": (
        f"{NAMES_NOT_CHECKED}: tool names are not checked against the request (SPEC §2.4): `ghost` is "
        "a call like any other; vLLM gives a call to an undeclared tool back as content"),
    _DOTS + "test_streaming_strips_stray_end_marker": (
        f"{UNPAIRED_MARKER}: a marker with no row from the current state is text there (SPEC §2.1 "
        "next(), §2.4 terminal()): the dots3 table has no row from content on `</dots_function_call>`, "
        "so content keeps it; vLLM strips it"),
    _DOTS + "test_streaming_flushes_partial_opening_marker_at_eof": (
        f"{HELD_RELEASED}: a prefix of a marker is held until it is known not to be one, and End "
        "releases it as the text it is (SPEC §2.3 finish()), so content is `answer <dots_func`; vLLM's "
        "test checks the content before its parser's flush, which gives back `<dots_func` too"),
    _M2 + "TestSingleInvoke::test_multiple_params": _M2_UNDECLARED,
    _M2 + "TestInternalState::test_prev_tool_call_arr_single": _M2_UNDECLARED,
    _M2 + "TestLargeChunks::test_header_and_params_in_separate_chunks": _M2_UNDECLARED,
    # K2-Horizon's other call forms
    _K2 + "test_request_level_format_overrides[json]": _K2_FORMS
    + ": a JSON object where the name belongs is \"text where the call's name should be\" (SPEC "
      "§5.5), so no call, and the block is shown as written, its markers included",
    _K2 + "test_auto_required_and_named_use_ifm_parser[0]": _K2_FORMS
    + ": a JSON object where the name belongs is \"text where the call's name should be\" (SPEC "
      "§5.5), so no call, and the block is shown as written, its markers included",
    _K2 + "test_auto_required_and_named_use_ifm_parser[1]": _K2_FORMS
    + ": a JSON object where the name belongs is \"text where the call's name should be\" (SPEC "
      "§5.5), so no call, and the block is shown as written, its markers included",
    _K2 + "test_auto_required_and_named_use_ifm_parser[2]": _K2_FORMS
    + ": a JSON object where the name belongs is \"text where the call's name should be\" (SPEC "
      "§5.5), so no call, and the block is shown as written, its markers included",
    _K2 + "test_request_level_format_overrides[xml_typed]": _K2_FORMS
    + ": the `<ifm|arg_type>` tags are text where a value's tag belongs, so the keys' values are "
      "Malformed (\"text between a call's tags\", SPEC §5.5), shown as content, and `lookup` is `{}`",
    _K2 + "test_mismatched_formats_fail_closed[2]": _K2_FORMS
    + ": the `<ifm|arg_type>` tags are text where a value's tag belongs, so the pairs are Malformed, "
      "shown as content, and `lookup` is `{}`; vLLM refuses a form the request did not ask for",
    _K2 + "test_mismatched_formats_fail_closed[3]": _K2_FORMS
    + ": here the output is the default form, read as it is; vLLM refuses it because the request "
      "asked for `xml_typed`",
    # DeepSeek V3.1 and Hunyuan-A13B
    "vllm:test_deepseekv31_tool_parser.py::test_extract_tool_calls_with_multiple_tools": (
        f"{PROSE_BETWEEN}: prose before, between and after calls is content (SPEC §2.4 engine-wide "
        "policies), so ` some suffix text` after the block is kept; vLLM keeps only the text before "
        "the block"),
    "vllm:test_hunyuan_a13b_tool_parser.py::test_hunyuan_a13b_tool_parser_extract[4]": (
        f"{PROSE_BETWEEN}: prose before, between and after calls is content (SPEC §2.4 engine-wide "
        "policies), so `\\nThank you!` after the block is kept; vLLM drops text after the block"),
    # prose between calls
    _GLM45 + "test_extract_tool_calls_mixed_content": (
        f"{PROSE_BETWEEN}: prose before, between and after calls is content (SPEC §2.4 engine-wide "
        "policies), so the text between the two calls is kept; vLLM keeps only the text before the "
        "first call"),
    # markers the table does not have
    "vllm:test_hy_v4_duplicate_arg_key.py::test_streaming_duplicate_arg_key_matches_non_streaming[per_token]": (
        f"{FOREIGN_MARKERS}: the output is written with the unsuffixed markers `<tool_calls>`, "
        "`<tool_call>`, `<arg_key>`… (vLLM's hy_v4 takes whichever spelling the tokenizer's vocab has); "
        "Hy4 writes the `:opensource` markers and the hy4 table has only those (SPEC §3 hy4), so "
        "the whole output is content"),
    # a pythonic value's extent
    _LFM2 + "test_tool_call[nested_quote_streaming]": _EXTENT
    + ": the `'` before `360` closes `'sed -n '`, so the value is `'sed -n '360` (no literal: its "
      "text, SPEC §5.2), and `450p' /testbed/…'` stands where the next argument should: Malformed "
      "(\"a key without a value\", \"text where an argument should begin\"), shown as content; vLLM "
      "takes the unescaped quotes into the string",
    _LFM2 + "test_tool_call[nested_python_c_streaming]": _EXTENT
    + ": the `'` after `mul_symbol=` closes the string, so the value runs to the `,` after it, "
      "`'cd /testbed && … mul_symbol='\\` (no literal: its text, SPEC §5.2); the next `'` is "
      "Malformed, the `)` after it ends the call, and `)\"')` is Malformed \"text where a call should "
      "begin\", shown as content; vLLM takes the nested quotes into the string",
    # repeated elements
    _MINIMAX + "test_non_streaming_nested_tool_call": (
        f"{REPEATED_KEY}: each child element is a member written when it closes, and what is written "
        "is final (SPEC §5.8, §5.3, §1.3 ToolCallArguments): under `duplicate_demo` (declared object, "
        "no properties) the two `<tag>` leaves are two members, `{\"tag\": \"a\", \"tag\": \"b\"}`, "
        "which a JSON reader takes as `{\"tag\": \"b\"}`; vLLM gathers the repeated children into a "
        "list"),
    # the MiniMax M3 separator
    _MINIMAX + "test_streaming_flushes_partial_tool_start_as_text[nonstreaming]": _SEPARATOR_DROPPED,
    _MINIMAX + "test_streaming_flushes_partial_tool_start_as_text[streaming]": _SEPARATOR_DROPPED,
    _MINIMAX + "test_delegating_parser_flushes_partial_tool_start_on_finish": _SEPARATOR_DROPPED,
    # MiniCPM5
    _MINICPM + "test_single_call_with_surrounding_text": _MINICPM_PROSE,
    _MINICPM + "test_multiple_calls_interleaved_text": _MINICPM_PROSE,
    _MINICPM + "test_tokenizer_space_marker": _TOKEN_SPACE,
    _MINICPM + "test_extract_tool_calls_streaming_tokenizer_space_marker": _TOKEN_SPACE,
    _MINICPM + "test_extract_tool_calls_streaming_collapsed_tags_weather": _COLLAPSED,
    _MINICPM + "test_collapsed_tags_current_weather": _COLLAPSED,
    _MINICPM + "test_unknown_tool_block_preserved": _MINICPM_NAMES,
    _MINICPM + "test_alias_get_details_by_phone": _MINICPM_NAMES,
    _MINICPM + "test_alias_get_line_details": _MINICPM_NAMES,
    _MINICPM + "test_extra_arguments_do_not_satisfy_required": _MINICPM_SCHEMA,
    _MINICPM + "test_properties_wrapped_arguments": _WRAPPED,
    _MINICPM + "test_arguments_wrapped_arguments": _WRAPPED,
    _MINICPM + "test_incomplete_missing_function_end": _MINICPM_CUT,
    _MINICPM + "test_param_missing_name_invalid": _PARAM_WITHOUT_NAME,
    # JSON call objects and xLAM
    'vllm:test_hermes_tool_parser.py::test_hermes_parser_non_streaming_tool_call_invalid_json[llama]': _CUT_CALL,
    'vllm:test_hermes_tool_parser.py::test_hermes_parser_non_streaming_tool_call_invalid_json[granite4]': _CUT_CALL,
    'vllm:test_xlam_tool_parser.py::test_extract_tool_calls[single_tool_with_think_tag]': _XLAM_THOUGHT,
    'vllm:test_xlam_tool_parser.py::test_extract_tool_calls[single_tool_with_tool_call_xml_tags]': _XLAM_TOOL_CALL,
    'vllm:test_xlam_tool_parser.py::test_extract_tool_calls_streaming_incremental[single_tool_with_tool_call_xml_tags]': _XLAM_TOOL_CALL,
    'vllm:test_internlm2_tool_parser.py::test_extract_unknown_tool_name_not_emitted': _INTERNLM_UNKNOWN,
    'vllm:test_cohere_command_tool_parser.py::TestExtractToolCalls::test_streaming_content[cmd3-citations_no_tool_calls]': _COHERE_CITATIONS,
    'vllm:test_cohere_command_tool_parser.py::TestExtractToolCalls::test_streaming_content[cmd4-citations_no_tool_calls]': _COHERE_CITATIONS,
    'vllm:test_cohere_command_tool_parser.py::TestExtractToolCalls::test_streaming[cmd3-single_tool_call]': _COHERE_IDS,
    'vllm:test_cohere_command_tool_parser.py::TestExtractToolCalls::test_streaming[cmd4-single_tool_call]': _COHERE_IDS,
    'vllm:test_cohere_command_tool_parser.py::TestExtractToolCalls::test_streaming[cmd3-multiple_tool_calls]': _COHERE_IDS,
    'vllm:test_cohere_command_tool_parser.py::TestExtractToolCalls::test_streaming[cmd4-multiple_tool_calls]': _COHERE_IDS,
    'vllm:test_cohere_command_tool_parser.py::TestSpeculativeDecodingMultiTokenDelta::test_multi_token_chunks_still_produce_correct_tool_call[3-cmd3]': _COHERE_IDS,
    'vllm:test_cohere_command_tool_parser.py::TestSpeculativeDecodingMultiTokenDelta::test_multi_token_chunks_still_produce_correct_tool_call[3-cmd4]': _COHERE_IDS,
    'vllm:test_cohere_command_tool_parser.py::TestSpeculativeDecodingMultiTokenDelta::test_multi_token_chunks_still_produce_correct_tool_call[4-cmd3]': _COHERE_IDS,
    'vllm:test_cohere_command_tool_parser.py::TestSpeculativeDecodingMultiTokenDelta::test_multi_token_chunks_still_produce_correct_tool_call[4-cmd4]': _COHERE_IDS,
    'vllm:test_cohere_command_tool_parser.py::TestSpeculativeDecodingMultiTokenDelta::test_multi_token_chunks_still_produce_correct_tool_call[6-cmd4]': _COHERE_IDS,
    'vllm:test_mistral_tool_parser.py::test_extract_tool_calls_pre_v11_tokenizer[trailing_data_after_json]': _MISTRAL_AFTER_LIST,
    'vllm:test_mistral_tool_parser.py::test_extract_tool_calls_pre_v11_multiple_bot_tokens_raises': _MISTRAL_TWO_REGIONS,
    'vllm:test_mistral_tool_parser.py::test_extract_tool_calls_pre_v11_regex_fallback': _MISTRAL_NOT_A_LIST,
    'vllm:test_mistral_tool_parser.py::test_extract_tool_calls[complex]': (
        f"{CUT_OFF}: the output ends inside the call's arguments (the string is never closed), and a "
        "call the end of the stream cuts short ends with arguments a client can load, its string and "
        "object closed (docs/recovery.md; only a stream stopped for its length keeps them as written); "
        "vLLM gives the cut text"),
    'vllm:test_mistral_tool_parser.py::test_extract_tool_calls_pre_v11_regex_fallback_fails': (
        f"{MARKER_TEXT}: `[TOOL_CALLS]` followed by text that is no call: a call region in which no "
        "call started is the text the model wrote, its opener included (docs/recovery.md); vLLM drops "
        "the marker"),
    'vllm:test_llama3_json_tool_parser.py::test_extract_tool_calls_simple': _LLAMA3_MID_TEXT,
    'vllm:test_llama3_json_tool_parser.py::test_extract_tool_calls_invalid_json': _LLAMA3_INVALID,
    'vllm:test_llama3_json_tool_parser.py::test_extract_tool_calls_missing_parameters_and_arguments_key': _LLAMA3_NO_ARGUMENTS,
    # vLLM 0.33.0's cases beyond shared/ (tests/data/vllm_tool_cases_extra.jsonl)
    'vllm:test_kimi_k3_tool_parser.py::test_extract_tool_calls_unescapes_attributes': _KIMI_K3_ESCAPES,
    'vllm:test_kimi_k3_tool_parser.py::test_extract_content_from_whitespace_degraded_markers': _KIMI_K3_SPACED,
    'vllm:test_kimi_k3_tool_parser.py::test_delegating_parser_truncated_tools_do_not_leak_xtml': _KIMI_K3_CUT,
    'vllm:test_kimi_k3_tool_parser.py::test_delegating_parser_tool_choice_none_strips_xtml_and_suppresses_calls': _KIMI_K3_NONE,
    'vllm:test_muse.py::test_missing_eom_before_tool_header_keeps_tool_call': _MUSE_NAME_IN_THOUGHT,
    'vllm:test_muse.py::test_streaming_missing_eom_before_tool_header': _MUSE_NAME_IN_THOUGHT,
    'vllm:test_deepseekv4_tool_parser.py::test_function_calls_wrapper_is_not_recognized': _V4_NO_BLOCK,
    'vllm:test_deepseekv4_tool_parser.py::test_missing_tool_calls_wrapper_is_recovered[#whole]': _V4_NO_BLOCK,
    'vllm:test_deepseekv4_tool_parser.py::test_missing_tool_calls_wrapper_is_recovered[#streaming]': _V4_NO_BLOCK,
    'vllm:test_deepseekv4_tool_parser.py::test_extract_tool_calls_arguments_wrapper': _DSML_UNWRAP,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-25#whole]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-25#chunk=1]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-25#chunk=17]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-25#chunk=263]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-true#whole]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-true#chunk=1]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-true#chunk=17]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-true#chunk=265]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-null#whole]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-null#chunk=1]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-null#chunk=17]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-null#chunk=265]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-[1,2]#whole]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-[1,2]#chunk=1]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-[1,2]#chunk=17]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-[1,2]#chunk=266]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-{"x":1}#whole]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-{"x":1}#chunk=1]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-{"x":1}#chunk=17]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-{"x":1}#chunk=268]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat- 25 #whole]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat- 25 #chunk=1]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat- 25 #chunk=17]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat- 25 #chunk=265]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-25#whole]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-25#chunk=1]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-25#chunk=17]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-25#chunk=263]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-true#whole]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-true#chunk=1]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-true#chunk=17]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-true#chunk=265]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-null#whole]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-null#chunk=1]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-null#chunk=17]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-null#chunk=265]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-[1,2]#whole]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-[1,2]#chunk=1]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-[1,2]#chunk=17]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-[1,2]#chunk=266]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-{"x":1}#whole]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-{"x":1}#chunk=1]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-{"x":1}#chunk=17]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-{"x":1}#chunk=268]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses- 25 #whole]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses- 25 #chunk=1]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses- 25 #chunk=17]': _GLIMMER_STRING,
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses- 25 #chunk=265]': _GLIMMER_STRING,
}

# --- checks the vLLM tests make that only their notes spell out ------------------------------
# In the README's vocabulary (`content_contains`, `arguments_string`, …): each one is what the
# case's `notes` say the vLLM test asserts beyond `expect`.

_HY_STREAM = _HY + "TestExtractToolCallsStreaming::"
NOTED = {
    _SHARED + "test_extract_tool_calls_missing_closing_parameter_tag[xml]":
        {"content_contains": ["Let me check the weather for you:"]},
    _SHARED + "test_extract_tool_calls_missing_closing_parameter_tag[coder]":
        {"content_contains": ["Let me check the weather for you:"]},
    _SHARED + "test_extract_tool_calls_streaming_missing_closing_tag[coder]":
        {"content_contains": ["Let me check the weather for you:"]},
    _STEP + "test_extract_tool_calls_missing_closing_parameter_tag":
        {"content_contains": ["Let me check the weather for you:"]},
    _STEP + "test_extract_tool_calls_streaming_missing_closing_tag":
        {"content_contains": ["Let me check the weather for you:"]},
    _SHARED + "test_streaming_two_tool_calls_plus_trailing_text_one_delta[xml]": {"content_contains": ["All done!"]},
    _SHARED + "test_streaming_trailing_text_with_final_close_in_same_delta[xml]":
        {"content_contains": ["I hope this helps!"]},
    _SHARED + "test_streaming_trailing_text_with_final_close_in_same_delta[coder]":
        {"content_contains": ["I hope this helps!"]},
    _SHARED + "test_inline_empty_tool_call_preserves_content_before_real_call[xml]":
        {"content_contains": ["I'll show:", "Now real:"]},
    _SHARED + "test_inline_empty_tool_call_preserves_content_before_real_call[coder]":
        {"content_contains": ["I'll show:", "Now real:"]},
    _STEP + "test_extract_tool_calls_streaming_mixed_content_and_multiple_tool_calls":
        {"content_contains": ["hello", "hi"],
         "content_not_contains": ["<function=get_current_weather>", "<function=calculate_area>"]},
    _STEP + "test_extract_tool_calls_non_streaming_multiple_tool_calls_no_content_between":
        {"content_contains": ["hello"],
         "content_not_contains": ["<function=get_current_weather>", "<function=calculate_area>"]},
    "vllm:test_iquest_coder_tool_parser.py::test_streaming_partial_start_token_not_leaked_as_content[3]":
        {"content_not_contains": ["<tool_call"]},
    **{_GLM45 + f"test_stream_interval_content_then_tool_call[{n}]": {"content_contains": ["I will check the weather"]}
       for n in (1, 2, 3, 5)},
    _GLM45 + "test_stream_interval_extreme_single_chunk": {"content_contains": ["Here is the weather"]},
    **{_GLM45 + f"test_stream_interval_content_between_tool_calls[{n}]":
       {"content_contains": ["Checking Beijing", "Also Shanghai"]} for n in (1, 5)},
    _CODER + "test_no_double_serialization_string_args":
        {"arguments_string_not_contains": ['\\"hello world\\"']},
    _SHARED + "test_no_double_serialization_string_args[coder]":
        {"arguments_string_not_contains": ['\\"hello world\\"']},
    _GLM45 + "test_unicode_characters_preserved":
        {"arguments_string_contains": ["你好世界", "🎉"], "arguments_string_not_contains": ["\\u4f60"]},
    _GLM45 + "test_extract_tool_calls_empty_arguments": {"arguments_strings": ["{}"]},
    _SEED + "test_extract_tool_calls[tool_call_0_thinking_budget]":
        {"arguments_strings": ['{"location": "Barcelona, Spain"}']},
    _SEED + "test_extract_tool_calls[tool_call_unlimited_thinking_budget]":
        {"arguments_strings": ['{"location": "Barcelona, Spain", "unit": "celsius"}']},
    _HY + "TestArgumentValueTypes::test_unknown_tool_keeps_values_as_text": {"arguments_strings": ['{"x": "1"}']},
    _HY + "TestExtractToolCalls::test_values_typed_from_schema":
        {"arguments_strings": ['{"city": "Beijing", "days": 3}']},
    _HY + "TestExtractToolCalls::test_zero_arg_call": {"arguments_strings": ["{}"]},
    _HY + "TestExtractToolCalls::test_non_ascii_values_are_not_escaped": {"arguments_strings": ['{"city": "北京"}']},
    _HY_STREAM + "test_matches_non_streaming": {"arguments_strings": ['{"city": "Beijing", "days": 3}']},
    _HY_STREAM + "test_multiple_tool_calls": {"arguments_strings": ['{"city": "Beijing"}', "{}"]},
    _HY_STREAM + "test_zero_arg_call": {"arguments_strings": ["{}"]},
    _HY_STREAM + "test_structural_tokens_split_across_deltas": {"arguments_strings": ['{"city": "Beijing"}']},
    _HY_STREAM + "test_serving_state_is_updated": {"arguments_strings": ['{"city": "A"}', "{}"]},
    _HY + "TestToolParserWrapper::test_streaming_mirrors_serving_state": {"arguments_strings": ['{"city": "A"}']},
    _LFM2 + "test_streaming_full_block_and_trailing_in_single_delta": {"content_contains": ["Done."]},
    _LFM2 + "test_streaming_leading_content_and_full_block_in_single_delta": {"content_contains": ["Let me check."]},
}

# What the notes say about how much of `expect` a test asserts, and the exact arguments strings
# (Python-quoted) that some of them list.
SUBSET_NOTE = re.compile(r"ARGS_SUBSET|key[ -]by[ -]key|only args\[|only json\.loads\(arguments\)\[")
COUNT_FREE_NOTE = re.compile(r"count (?:is )?not asserted|does not assert the total number of calls"
                             r"|ONLY the first tool call")
NAMES_FREE_NOTE = re.compile(r"(?<!first )\bnames? (?:and [a-z ]+ )?not asserted|names/arguments not asserted"
                             r"|name shown for reference only")
_QUOTED = r"'(?:[^'\\]|\\.)*'"
STRINGS_NOTE = re.compile(rf"arguments strings: ({_QUOTED}(?:; {_QUOTED})*)")
ANY = "ANY"

# --- the cases -------------------------------------------------------------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES_FILE = os.environ.get("SYMPHONY_PEER_CASES") or os.path.join(ROOT, "..", "shared", "peer-cases", "vllm.jsonl")
TWO_WAY_SPLITS_UP_TO = 800     # characters; the two long Seed-OSS thoughts skip every-split plans


EXTRA_CASES_FILE = os.path.join(ROOT, "tests", "data", "vllm_tool_cases_extra.jsonl")


def _load():
    if not os.path.isfile(CASES_FILE):
        return []
    cases = []
    for path in (CASES_FILE, EXTRA_CASES_FILE):
        with open(path, encoding="utf-8") as f:
            cases += [json.loads(line) for line in f if line.strip()]
    return cases


ALL_CASES = _load()
CASES = [c for c in ALL_CASES if c["parser"] in PARSER_TABLES]
needs_cases = pytest.mark.skipif(not ALL_CASES, reason=f"no peer cases at {CASES_FILE} (SYMPHONY_PEER_CASES)")


# --- judging a message against vLLM's expectation --------------------------------------------

def _same(got, want):
    """JSON values equal, `ANY` matching anything; booleans are not numbers."""
    if want == ANY:
        return True
    if isinstance(want, bool) or isinstance(got, bool):
        return type(got) is type(want) and got == want
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        return got == want
    if isinstance(want, dict):
        return isinstance(got, dict) and set(got) == set(want) and all(_same(got[k], v) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_same, got, want))
    return type(got) is type(want) and got == want


def _json(text):
    try:
        return True, json.loads(text)
    except ValueError:
        return False, None


def _arguments_problem(want, raw, subset, raw_text):
    if want == ANY:
        return None
    if isinstance(want, str):
        parses, value = _json(want)
        if raw_text or not parses:
            if raw == want or (not raw_text and _json(raw) == (True, want)):
                return None      # the text itself, or (not raw text) the JSON string of it
            return f"arguments {raw!r}, want the text {want!r}"
        want = value
    parses, got = _json(raw)
    if not parses:
        return f"arguments {raw!r} are not JSON, want {json.dumps(want, ensure_ascii=False)}"
    if subset and isinstance(want, dict) and isinstance(got, dict):
        bad = [k for k, v in want.items() if k not in got or not _same(got[k], v)]
    else:
        bad = [] if _same(got, want) else ["(whole value)"]
    if bad:
        return (f"arguments {json.dumps(got, ensure_ascii=False)} differ at {bad} from "
                f"{json.dumps(want, ensure_ascii=False)}")
    return None


def _noted_strings(notes):
    found = STRINGS_NOTE.search(notes)
    return [ast.literal_eval(s) for s in re.findall(_QUOTED, found.group(1))] if found else None


def asserted(case):
    """The case's checks: `expect` with the README's fields and what the notes add (NOTED)."""
    notes = case.get("notes", "")
    extra = NOTED.get(case["id"], {})

    def field(name):
        return list(case.get(name) or ()) + list(extra.get(name) or ())

    return {
        "subset": case.get("args_match") == "subset" or bool(SUBSET_NOTE.search(notes)),
        "count": case.get("tool_count_asserted", True) is not False and not COUNT_FREE_NOTE.search(notes),
        "names": not NAMES_FREE_NOTE.search(notes),
        "content_contains": field("content_contains"),
        "content_not_contains": field("content_not_contains"),
        "reasoning_not_contains": field("reasoning_not_contains"),
        "forbidden_tool_names": field("forbidden_tool_names"),
        "arguments_string_contains": field("arguments_string_contains"),
        "arguments_string_not_contains": field("arguments_string_not_contains"),
        "arguments_strings": extra.get("arguments_strings") or _noted_strings(notes),
        "expects_error": "EXPECTS_ERROR" in notes,
    }


def judge(case, said):
    """Where the message `said` (a `summary`) differs from vLLM's expectation: [] when it agrees."""
    want = case["expect"]
    checks = asserted(case)
    problems = []
    if checks["expects_error"]:
        problems.append("vLLM's test expects its parser to raise; symphony never raises on model output "
                        "(SPEC §1.6: only lifecycle misuse raises)")
    content = said["content"] or ""
    if want.get("content", ANY) != ANY and content.strip() != (want["content"] or "").strip():
        problems.append(f"content {said['content']!r}, want {want['content']!r}")
    problems += [f"content {said['content']!r} lacks {s!r}" for s in checks["content_contains"] if s not in content]
    problems += [f"content {said['content']!r} holds {s!r}" for s in checks["content_not_contains"] if s in content]
    reasoning = said["reasoning"] or ""
    if want.get("reasoning", ANY) != ANY and reasoning.strip() != (want["reasoning"] or "").strip():
        problems.append(f"reasoning {said['reasoning']!r}, want {want['reasoning']!r}")
    problems += [f"reasoning holds {s!r}" for s in checks["reasoning_not_contains"] if s in reasoning]
    calls = said["calls"]
    problems += [f"a call named {name!r}" for name, _ in calls if name in checks["forbidden_tool_names"]]
    raws = [raw for _, raw in calls]
    for s in checks["arguments_string_contains"]:
        if not any(s in raw for raw in raws):
            problems.append(f"no call's arguments hold {s!r}: {raws}")
    problems += [f"arguments {raw!r} hold {s!r}" for s in checks["arguments_string_not_contains"] for raw in raws
                 if s in raw]
    expected = want.get("tool_calls", ANY)
    if expected != ANY:
        if checks["count"] and len(calls) != len(expected):
            problems.append(f"{len(calls)} calls {[name for name, _ in calls]}, want {len(expected)}")
        elif len(calls) < len(expected):
            problems.append(f"{len(calls)} calls, want at least {len(expected)}")
        strings = checks["arguments_strings"] or [None] * len(expected)
        for i, (w, (name, raw), string) in enumerate(zip(expected, calls, strings)):
            if checks["names"] and w.get("name", ANY) != ANY and name != w["name"]:
                problems.append(f"call {i} named {name!r}, want {w['name']!r}")
            if w.get("id", ANY) != ANY and f"call_{i}" != w["id"]:
                problems.append(f"call {i} id call_{i}, want {w['id']!r} (SPEC §2.4: ids are call_<index>)")
            problem = _arguments_problem(w.get("arguments", ANY), raw, checks["subset"], w.get("arguments_is_raw_text"))
            if problem:
                problems.append(f"call {i}: {problem}")
            string = w.get("arguments_string", string)
            if string not in (None, ANY) and raw != string:
                problems.append(f"call {i} arguments string {raw!r}, want exactly {string!r}")
    return problems


# --- parsing ---------------------------------------------------------------------------------

def parse(case):
    return symphony.parse(PARSER_TABLES[case["parser"]], case["output"], tools=case["tools"])


def _abbreviated(said):
    """`said` with texts longer than 200 characters replaced by their length and digest (pins)."""
    def short(text):
        if isinstance(text, str) and len(text) > 200:
            return f"<{len(text)} chars, sha256 {hashlib.sha256(text.encode()).hexdigest()[:16]}>"
        return text
    return {"content": short(said["content"]), "reasoning": short(said["reasoning"]),
            "calls": [[name, short(raw)] for name, raw in said["calls"]], "finish": said["finish"]}


def _id(case):
    return case["id"][len("vllm:"):] if case["id"].startswith("vllm:") else case["id"]


@needs_cases
@pytest.mark.parametrize("case", CASES, ids=_id)
def test_case(case):
    table = PARSER_TABLES[case["parser"]]
    whole = chat.message(parse(case))
    said = summary(whole)
    check_verdict(case, judge(case, said), said, DIFFERENCES, PINNED, pin=_abbreviated)
    check_replays(case, lambda: symphony.parser(table, case["tools"]), whole,
                  every_split_up_to=TWO_WAY_SPLITS_UP_TO)


@needs_cases
def test_every_parser_has_a_table():
    """Every vLLM parser the cases name reads with a table (engine_names.VLLM_PARSERS)."""
    unknown = {c["parser"] for c in ALL_CASES} - set(PARSER_TABLES)
    assert not unknown, f"peer cases of parsers no table reads: {sorted(unknown)} (map them in engine_names)"


@needs_cases
def test_the_lists_name_cases_that_exist():
    ids = [c["id"] for c in ALL_CASES]
    assert len(ids) == len(set(ids)), "case ids are not unique"
    known = {c["id"] for c in CASES}
    assert set(DIFFERENCES) <= known, f"listed but not a case of a mapped parser: {sorted(set(DIFFERENCES) - known)}"
    assert set(NOTED) <= known, f"noted but not a case of a mapped parser: {sorted(set(NOTED) - known)}"
    assert set(PINNED) == set(DIFFERENCES), "every listed case has a pin and every pin a listed case"
    for reason in DIFFERENCES.values():
        assert reason.split(":")[0] in CAUSES, f"reason with an unknown cause: {reason}"


def agreement_table():
    """Per vLLM parser: its table, cases, agreements, listed differences by cause (whole parses)."""
    return peer.agreement_table(CASES, lambda case: judge(case, summary(chat.message(parse(case)))), DIFFERENCES,
                                PARSER_TABLES.get)


@needs_cases
def test_agreement_table():
    """Prints the per-parser agreement table (shown with `pytest -rA`)."""
    table = agreement_table()
    print("\n" + table)
    assert "UNLISTED" not in table


CAUSES = (MARKER_IN_VALUE, PARAMETER_TAGS, NAMES_NOT_CHECKED, CALL_NEEDS_BLOCK, VALUE_TYPING, MALFORMED_KEPT,
          THOUGHT, PROSE_BETWEEN, FOREIGN_MARKERS, REPEATED_KEY, VALUE_EXTENT, SEPARATOR, CALL_FORM,
          UNPAIRED_MARKER, HELD_RELEASED, CALL_IDS, CITATIONS, ATTRIBUTE_TEXT, MARKER_TEXT, REQUEST_OPTIONS,
          CUT_OFF)

# --- what symphony gives for each listed case (texts over 200 characters by length and digest) --

PINNED = {
    'vllm:test_qwen25_coder_tool_parser.py::TestExtractToolCallsNonStreaming::test_malformed_json_returns_content': {'content': 'invalid json\n',
         'reasoning': None,
         'calls': [['broken', '{}']],
         'finish': 'tool_calls'},
    "vllm:test_nemotron_json_tool_parser.py::test_extract_tool_calls_returns_original_for_malformed": {
        'content': None, 'reasoning': None, 'calls': [['broken', '{}']], 'finish': 'tool_calls'},
    "vllm:test_nemotron_json_tool_parser.py::test_extract_tool_calls_keeps_think_block_as_content": {
        'content': None, 'reasoning': '\nI need the weather for Tokyo.\n',
        'calls': [['get_weather', '{"city": "Tokyo"}']], 'finish': 'tool_calls'},
    "vllm:test_iquest_coder_v2_tool_parser.py::test_malformed_call_missing_value_end_is_skipped": {
        'content': None, 'reasoning': None, 'calls': [['get_current_weather', '{"city": "Dallas"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_content_with_xml_structural_tags_nonstreaming[xml]': {'content': '\\n",\n'
                    '    "<parameter=query>\\n",\n'
                    '    "\\n</parameter>\\n",\n'
                    '    "</function>\\n",\n'
                    ']\n'
                    '</parameter>\n'
                    '</function>\n',
         'reasoning': None,
         'calls': [['write_file', '{"path": "test.py", "content": "char_deltas = [\\n    \\""}']],
         'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_content_with_xml_structural_tags_nonstreaming[coder]': {'content': '\\n",\n'
                    '    "<parameter=query>\\n",\n'
                    '    "\\n</parameter>\\n",\n'
                    '    "</function>\\n",\n'
                    ']\n'
                    '</parameter>\n'
                    '</function>\n',
         'reasoning': None,
         'calls': [['write_file', '{"path": "test.py", "content": "char_deltas = [\\n    \\""}']],
         'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_content_with_full_nested_tool_call_streaming[xml]': {
        'content': '\n\n"""\n</parameter>\n</function>\n</tool_call>',
        'reasoning': None,
        'calls': [['write_file', '{"path": "fixture.py", "content": "doc = \\"\\"\\""}'],
                   ['write_file', '{"path": "literal/value.txt", "content": "hello"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_content_with_full_nested_tool_call_streaming[coder]': {
        'content': '\n\n"""\n</parameter>\n</function>\n</tool_call>',
        'reasoning': None,
        'calls': [['write_file', '{"path": "fixture.py", "content": "doc = \\"\\"\\""}'],
                   ['write_file', '{"path": "literal/value.txt", "content": "hello"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_two_tools_second_with_out_of_schema_nested_literal_nonstreaming[xml]': {
        'content': '\n\n\n\n"""\n</parameter>\n</function>\n</tool_call>',
        'reasoning': None,
        'calls': [['foo', '{"bar": "baz"}'],
                   ['write_file', '{"path": "fixture.py", "content": "template = \\"\\"\\""}'],
                   ['foo', '{"bar": "baz"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_two_tools_second_with_out_of_schema_nested_literal_nonstreaming[coder]': {
        'content': '\n\n\n\n"""\n</parameter>\n</function>\n</tool_call>',
        'reasoning': None,
        'calls': [['foo', '{"bar": "baz"}'],
                   ['write_file', '{"path": "fixture.py", "content": "template = \\"\\"\\""}'],
                   ['foo', '{"bar": "baz"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_content_with_param_like_lines_nonstreaming[xml]': {'content': '"""\n</parameter>\n',
         'reasoning': None,
         'calls': [['write_file',
                    '{"path": "test_template.py", "content": "TOOL_CALL_TEMPLATE = \\"\\"\\"", '
                    '"new_string": "#!/usr/bin/env python3"}']],
         'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_content_with_param_like_lines_nonstreaming[coder]': {'content': '"""\n</parameter>\n',
         'reasoning': None,
         'calls': [['write_file',
                    '{"path": "test_template.py", "content": "TOOL_CALL_TEMPLATE = \\"\\"\\"", '
                    '"new_string": "#!/usr/bin/env python3"}']],
         'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_content_with_param_like_lines_streaming[xml]': {'content': '"""\n</parameter>\n',
         'reasoning': None,
         'calls': [['write_file',
                    '{"path": "test_template.py", "content": "TOOL_CALL_TEMPLATE = \\"\\"\\"", '
                    '"new_string": "#!/usr/bin/env python3"}']],
         'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_content_with_real_param_name_literal_nonstreaming[xml]': {'content': '"""\n</parameter>',
         'reasoning': None,
         'calls': [['write_file',
                    '{"path": "fixture.py", "content": "doc = '
                    '\\"\\"\\"\\n<parameter=path>\\nliteral/value"}']],
         'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_content_with_real_param_name_literal_nonstreaming[coder]': {'content': '"""\n</parameter>',
         'reasoning': None,
         'calls': [['write_file',
                    '{"path": "fixture.py", "content": "doc = '
                    '\\"\\"\\"\\n<parameter=path>\\nliteral/value"}']],
         'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_content_with_real_param_name_literal_streaming[coder]': {'content': '"""\n</parameter>',
         'reasoning': None,
         'calls': [['write_file',
                    '{"path": "fixture.py", "content": "doc = '
                    '\\"\\"\\"\\n<parameter=path>\\nliteral/value"}']],
         'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_extract_tool_calls_missing_closing_parameter_tag[xml]': {
        'content': 'Let me check the weather for you:\n',
        'reasoning': None,
        'calls': [['get_current_weather', '{"city": "Dallas\\n<parameter=state>\\nTX", "unit": "fahrenheit"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_extract_tool_calls_missing_closing_parameter_tag[coder]': {
        'content': 'Let me check the weather for you:\n',
        'reasoning': None,
        'calls': [['get_current_weather', '{"city": "Dallas\\n<parameter=state>\\nTX", "unit": "fahrenheit"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_extract_tool_calls_streaming_missing_closing_tag[coder]': {
        'content': 'Let me check the weather for you:\n',
        'reasoning': None,
        'calls': [['get_current_weather', '{"city": "Dallas\\n<parameter=state>\\nTX", "unit": "fahrenheit"}']],
        'finish': 'tool_calls'},
    'vllm:test_step3p5_tool_parser.py::test_extract_tool_calls_missing_closing_parameter_tag': {
        'content': 'Let me check the weather for you:\n',
        'reasoning': None,
        'calls': [['get_current_weather', '{"city": "Dallas\\n<parameter=state>\\nTX", "unit": "fahrenheit"}']],
        'finish': 'tool_calls'},
    'vllm:test_step3p5_tool_parser.py::test_extract_tool_calls_streaming_missing_closing_tag': {
        'content': 'Let me check the weather for you:\n',
        'reasoning': None,
        'calls': [['get_current_weather', '{"city": "Dallas\\n<parameter=state>\\nTX", "unit": "fahrenheit"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_jinja_template_phantom_tool_call_is_rejected_nonstreaming[xml]': {
        'content': None,
        'reasoning': None,
        'calls': [['{{ tc.name }}', '{"{{ k }}": "{{ v }}"}'],
                   ['write_file', '{"path": "out.txt", "content": "hello"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_jinja_template_phantom_tool_call_is_rejected_nonstreaming[coder]': {
        'content': None,
        'reasoning': None,
        'calls': [['{{ tc.name }}', '{"{{ k }}": "{{ v }}"}'],
                   ['write_file', '{"path": "out.txt", "content": "hello"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3coder_tool_parser.py::test_extract_tool_calls_fallback_no_tags': {
        'content': '<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n</function>',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_qwen3_xml_coder_shared.py::test_extract_tool_calls_fallback_no_tags[coder]': {
        'content': '<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n</function>',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_step3p5_tool_parser.py::test_extract_tool_calls_fallback_no_tags': {
        'content': '<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n</function>',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_lfm2_tool_parser.py::test_echoed_tool_call_body_not_leaked_to_content[#streaming]': {
        'content': "[grocery.orderIngredients(ingredientList=[{'name': 'apple', 'quantity': '2'}], deliveryAddress='123 Main St')]<|tool_call_end|>",
        'reasoning': None,
        'calls': [['grocery.orderIngredients', '{"ingredientList": [{"name": "apple", "quantity": "2"}], "deliveryAddress": "123 Main St"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_double_encoded_object_param_nonstreaming[coder]': {
        'content': None,
        'reasoning': None,
        'calls': [['process', '{"name": "hello", "data": "{\'key\': \'value\', \'n\': 1}"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_double_encoded_object_param_streaming[xml]': {
        'content': None,
        'reasoning': None,
        'calls': [['process', '{"name": "hello", "data": "{\'key\': \'value\', \'n\': 1}"}']],
        'finish': 'tool_calls'},
    'vllm:test_qwen3_xml_coder_shared.py::test_double_encoded_object_param_streaming[coder]': {
        'content': None,
        'reasoning': None,
        'calls': [['process', '{"name": "hello", "data": "{\'key\': \'value\', \'n\': 1}"}']],
        'finish': 'tool_calls'},
    'vllm:test_hy_v4_tool_parser.py::TestArgumentValueTypes::test_value_coercion[17-any_of-["x"]]': {
        'content': None,
        'reasoning': None,
        'calls': [['typed', '{"any_of": "[\\"x\\"]"}']],
        'finish': 'tool_calls'},
    'vllm:test_hy_v4_tool_parser.py::TestArgumentValueTypes::test_unknown_tool_keeps_values_as_text': {
        'content': None,
        'reasoning': None,
        'calls': [['mystery', '{"x": 1}']],
        'finish': 'tool_calls'},
    'vllm:test_olmo3_tool_parser.py::test_bad_sibling_call_does_not_drop_good_calls[True]': {
        'content': None,
        'reasoning': None,
        'calls': [['bad', '{"x": "b\'z\'"}'],
                   ['get_weather', '{"city": "San Francisco", "metric": "celsius"}']],
        'finish': 'tool_calls'},
    'vllm:test_lfm2_tool_parser.py::test_bad_sibling_call_does_not_drop_good_calls[True]': {
        'content': None,
        'reasoning': None,
        'calls': [['get_candidate_status', '{"candidate_id": "12345"}'],
                   ['bad', '{"x": "b\'z\'"}']],
        'finish': 'tool_calls'},
    'vllm:test_lfm2_tool_parser.py::test_bad_sibling_call_does_not_drop_good_calls[False]': {
        'content': None,
        'reasoning': None,
        'calls': [['get_candidate_status', '{"candidate_id": "12345"}'],
                   ['bad', '{"x": "b\'z\'"}']],
        'finish': 'tool_calls'},
    'vllm:test_olmo3_tool_parser.py::test_non_finite_argument_rejected': {
        'content': None,
        'reasoning': None,
        'calls': [['calc', '{"x": "1e999"}'],
                   ['get_weather', '{"city": "San Francisco", "metric": "celsius"}']],
        'finish': 'tool_calls'},
    'vllm:test_olmo3_tool_parser.py::test_streaming_mismatched_brackets_reported_once': {
        'content': None,
        'reasoning': None,
        'calls': [['foo', '{"x": "1]"}']],
        'finish': 'tool_calls'},
    'vllm:test_lfm2_tool_parser.py::test_tool_call[leading_zero_int_streaming]': {
        'content': None,
        'reasoning': None,
        'calls': [['set_date', '{"month": "07", "day": "05"}']],
        'finish': 'tool_calls'},
    'vllm:test_lfm2_tool_parser.py::test_tool_call[leading_zero_int_nonstreaming]': {
        'content': None,
        'reasoning': None,
        'calls': [['set_date', '{"month": "07", "day": "05"}']],
        'finish': 'tool_calls'},
    'vllm:test_lfm2_tool_parser.py::test_tool_call[set_arg_nonstreaming]': {
        'content': None,
        'reasoning': None,
        'calls': [['label', '{"tags": "{\'urgent\', \'bug\'}"}']],
        'finish': 'tool_calls'},
    'vllm:test_lfm2_tool_parser.py::test_tool_call[multiline_string_arg_nonstreaming]': {
        'content': None,
        'reasoning': None,
        'calls': [['exec', '{"command": "\'cat > f.py << EOF\\nimport csv\\nprint(1)\\nEOF\'"}']],
        'finish': 'tool_calls'},
    'vllm:test_hy_v4_tool_parser.py::TestStrictMode::test_strict_returns_raw_content[missing_tool_calls_end]': {
        'content': None,
        'reasoning': None,
        'calls': [['get_current_date', '{}']],
        'finish': 'tool_calls'},
    'vllm:test_hy_v4_tool_parser.py::TestStrictMode::test_strict_returns_raw_content[unbalanced_tool_call]': {
        'content': None,
        'reasoning': None,
        'calls': [['get_weather', '{"city": "X"}']],
        'finish': 'tool_calls'},
    'vllm:test_hy_v4_tool_parser.py::TestStrictMode::test_lenient_still_reports_unpairable_tags': {
        'content': None,
        'reasoning': None,
        'calls': [['get_weather', '{"city": "X"}']],
        'finish': 'tool_calls'},
    'vllm:test_hy_v4_tool_parser.py::TestStrictMode::test_strict_returns_raw_content[unparsed_argument_payload]': {
        'content': 'JUNK',
        'reasoning': None,
        'calls': [['get_weather', '{"city": "X"}']],
        'finish': 'tool_calls'},
    'vllm:test_hy_v4_tool_parser.py::TestToolParserWrapper::test_malformed_output_is_returned_as_content': {
        'content': 'JUNK',
        'reasoning': None,
        'calls': [['get_weather', '{"city": "X"}']],
        'finish': 'tool_calls'},
    'vllm:test_minimax_m3_tool_parser.py::test_streaming_error_recovery_keeps_committed_tool_call_structured': {'content': 'plain >]<]minimax[>[<user_id>2',
         'reasoning': None,
         'calls': [['create_order', '{"user_id": 1}'], ['create_order', '{}']],
         'finish': 'tool_calls'},
    'vllm:test_minimax_m3_tool_parser.py::test_streaming_parse_error_emits_buffer_and_later_deltas': {'content': '<tool_call>\n]<]minimax[>[</user_id> after error',
         'reasoning': None,
         'calls': [],
         'finish': 'stop'},
    'vllm:test_seed_oss_tool_parser.py::test_extract_tool_calls[tool_call_unlimited_thinking_budget]': {
        'content': None,
        'reasoning': '<1141 chars, sha256 4091b14ddb98d02b>',
        'calls': [['get_weather', '{"location": "Barcelona, Spain", "unit": "celsius"}']],
        'finish': 'tool_calls'},
    'vllm:test_seed_oss_tool_parser.py::test_streaming_tool_calls[tool_call_0_thinking_budget]': {
        'content': None,
        'reasoning': '\n</seed:cot_budget_reflect>\n</seed:cot_budget_reflect>\nThe current thinking budget is 0, so I will directly start answering the question.\n',
        'calls': [['get_weather', '{"location": "Barcelona, Spain"}']],
        'finish': 'tool_calls'},
    'vllm:test_seed_oss_tool_parser.py::test_streaming_tool_calls[tool_call_512_thinkg_budget]': {
        'content': None,
        'reasoning': '<1207 chars, sha256 ccf0f9e49f457137>',
        'calls': [['get_weather', '{"location": "Barcelona, Spain"}']],
        'finish': 'tool_calls'},
    'vllm:test_glm4_moe_tool_parser.py::test_extract_tool_calls_mixed_content': {
        'content': 'I will help you get the weather info.\n\n\n\nmeaningwhile, I will also check the weather in Shanghai.\n\n',
        'reasoning': None,
        'calls': [['get_weather', '{"city": "Beijing", "date": "2025-08-01"}'],
                   ['get_weather', '{"city": "Shanghai", "date": "2025-08-01"}']],
        'finish': 'tool_calls'},
    'vllm:test_hy_v4_duplicate_arg_key.py::test_streaming_duplicate_arg_key_matches_non_streaming[per_token]': {
        'content': '<290 chars, sha256 e4f0a32fc8b5dc75>',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_lfm2_tool_parser.py::test_tool_call[nested_quote_streaming]': {'content': ",450p' /testbed/sympy/matrices/common.py'",
         'reasoning': None,
         'calls': [['bash', '{"command": "\'sed -n \'360"}']],
         'finish': 'tool_calls'},
    'vllm:test_lfm2_tool_parser.py::test_tool_call[nested_python_c_streaming]': {
        'content': '\')"\')',
        'reasoning': None,
        'calls': [['bash', '{"command": "\'cd /testbed && python3 -c \\"from sympy import latex\\nprint(latex(3*x, mul_symbol=\'\\\\"}']],
        'finish': 'tool_calls'},
    'vllm:test_minimax_m3_tool_parser.py::test_non_streaming_nested_tool_call': {
        'content': 'I will create it.\n',
        'reasoning': None,
        'calls': [['create_order', '<295 chars, sha256 6d8c9f5ae055ec1b>']],
        'finish': 'tool_calls'},
    'vllm:test_minimax_m3_tool_parser.py::test_streaming_flushes_partial_tool_start_as_text[nonstreaming]': {
        'content': 'plain <tool_ca',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_minimax_m3_tool_parser.py::test_streaming_flushes_partial_tool_start_as_text[streaming]': {
        'content': 'plain <tool_ca',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_minimax_m3_tool_parser.py::test_delegating_parser_flushes_partial_tool_start_on_finish': {
        'content': 'plain <tool_ca',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_dots_tool_parser.py::test_non_stream_supports_multiple_invokes_and_json_fallback': {'content': '<dots_function_call>{"name":"search","arguments":{"query":"tables"}}</dots_function_call>',
         'reasoning': None,
         'calls': [['search', '{"query": "chairs"}'], ['open', '{"id": 7}']],
         'finish': 'tool_calls'},
    'vllm:test_dots_tool_parser.py::test_streaming_emits_complete_json_before_end_marker_without_duplication': {'content': '<dots_function_call>{"name":"search","arguments":{"query":"chairs"}}</dots_function_call>',
         'reasoning': None,
         'calls': [],
         'finish': 'stop'},
    'vllm:test_dots_tool_parser.py::test_non_stream_unknown_tool_is_left_as_content': {
        'content': None,
        'reasoning': None,
        'calls': [['ghost', '{"query": "chairs"}']],
        'finish': 'tool_calls'},
    'vllm:test_dots_tool_parser.py::test_streaming_strips_stray_end_marker': {
        'content': 'some text </dots_function_call>',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_dots_tool_parser.py::test_streaming_flushes_partial_opening_marker_at_eof': {
        'content': 'answer <dots_func',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_minimax_m2_tool_parser.py::TestSingleInvoke::test_multiple_params': {
        'content': None,
        'reasoning': None,
        'calls': [['get_weather', '{"city": "Seattle", "days": 5}']],
        'finish': 'tool_calls'},
    'vllm:test_minimax_m2_tool_parser.py::TestInternalState::test_prev_tool_call_arr_single': {
        'content': None,
        'reasoning': None,
        'calls': [['fn', '{"a": 1}']],
        'finish': 'tool_calls'},
    'vllm:test_minimax_m2_tool_parser.py::TestLargeChunks::test_header_and_params_in_separate_chunks': {
        'content': None,
        'reasoning': None,
        'calls': [['get_weather', '{"city": "Seattle", "days": 5}']],
        'finish': 'tool_calls'},
    'vllm:test_k2_horizon_tool_parser.py::test_request_level_format_overrides[json]': {'content': '<ifm|tool_calls><ifm|tool_call>{"name": "lookup", "arguments": {"limit": '
                    '"2"}}</ifm|tool_call></ifm|tool_calls>',
         'reasoning': None,
         'calls': [],
         'finish': 'stop'},
    'vllm:test_k2_horizon_tool_parser.py::test_request_level_format_overrides[xml_typed]': {
        'content': '<205 chars, sha256 827b7b064741f128>',
        'reasoning': None,
        'calls': [['lookup', '{}']],
        'finish': 'tool_calls'},
    'vllm:test_k2_horizon_tool_parser.py::test_mismatched_formats_fail_closed[2]': {
        'content': '<ifm|arg_key>query</ifm|arg_key><ifm|arg_type>string</ifm|arg_type><ifm|arg_value>x</ifm|arg_value>',
        'reasoning': None,
        'calls': [['lookup', '{}']],
        'finish': 'tool_calls'},
    'vllm:test_k2_horizon_tool_parser.py::test_mismatched_formats_fail_closed[3]': {
        'content': None,
        'reasoning': None,
        'calls': [['lookup', '{"query": "x"}']],
        'finish': 'tool_calls'},
    'vllm:test_k2_horizon_tool_parser.py::test_auto_required_and_named_use_ifm_parser[0]': {'content': '<ifm|tool_calls><ifm|tool_call>{"name": "lookup", "arguments": {"enabled": '
                    '"true"}}</ifm|tool_call></ifm|tool_calls>',
         'reasoning': None,
         'calls': [],
         'finish': 'stop'},
    'vllm:test_k2_horizon_tool_parser.py::test_auto_required_and_named_use_ifm_parser[1]': {'content': '<ifm|tool_calls><ifm|tool_call>{"name": "lookup", "arguments": {"enabled": '
                    '"true"}}</ifm|tool_call></ifm|tool_calls>',
         'reasoning': None,
         'calls': [],
         'finish': 'stop'},
    'vllm:test_k2_horizon_tool_parser.py::test_auto_required_and_named_use_ifm_parser[2]': {'content': '<ifm|tool_calls><ifm|tool_call>{"name": "lookup", "arguments": {"enabled": '
                    '"true"}}</ifm|tool_call></ifm|tool_calls>',
         'reasoning': None,
         'calls': [],
         'finish': 'stop'},
    'vllm:test_deepseekv31_tool_parser.py::test_extract_tool_calls_with_multiple_tools': {
        'content': 'some prefix text some suffix text',
        'reasoning': None,
        'calls': [['foo', '{"x":1}'], ['bar', '{"y":2}']],
        'finish': 'tool_calls'},
    'vllm:test_hunyuan_a13b_tool_parser.py::test_hunyuan_a13b_tool_parser_extract[4]': {
        'content': '\nThank you!',
        'reasoning': None,
        'calls': [['get_weather', '{"city": "Seattle"}']],
        'finish': 'tool_calls'},
    'vllm:test_minicpm5xml_tool_parser.py::test_single_call_with_surrounding_text': {
        'content': 'Intro before.\n\nOutro after.\n',
        'reasoning': None,
        'calls': [['get_weather', '{"city": "上海", "date": "2024-06-27"}']],
        'finish': 'tool_calls'},
    'vllm:test_minicpm5xml_tool_parser.py::test_tokenizer_space_marker': {
        'content': '<functionĠname="get_weather"><paramĠname="city">上海</param><paramĠname="date">2024-06-27</param></function>\n',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_minicpm5xml_tool_parser.py::test_extract_tool_calls_streaming_tokenizer_space_marker': {
        'content': '<functionĠname="get_weather"><paramĠname="city">上海</param><paramĠname="date">2024-06-27</param></function>\n',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_minicpm5xml_tool_parser.py::test_extract_tool_calls_streaming_collapsed_tags_weather': {
        'content': '<functionname="get_weather"><paramname="city">上海</param><paramname="date">2024-06-27</param></function>\n',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_minicpm5xml_tool_parser.py::test_collapsed_tags_current_weather': {
        'content': '<functionname="get_current_weather"><paramname="city">Dallas</param><paramname="state">TX</param><paramname="unit">fahrenheit</param></function>',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_minicpm5xml_tool_parser.py::test_unknown_tool_block_preserved': {
        'content': None,
        'reasoning': None,
        'calls': [['unknown', '{"x": 1}']],
        'finish': 'tool_calls'},
    'vllm:test_minicpm5xml_tool_parser.py::test_multiple_calls_interleaved_text': {
        'content': 'Head\n\nTXT\n\nTail\n',
        'reasoning': None,
        'calls': [['get_weather', '{"city": "北京"}'], ['sum_values', '{"nums": [7,8,9], "exact": false}']],
        'finish': 'tool_calls'},
    'vllm:test_minicpm5xml_tool_parser.py::test_incomplete_missing_function_end': {'content': None,
         'reasoning': None,
         'calls': [['get_weather', '{"city": "北京"}']],
         'finish': 'tool_calls'},
    'vllm:test_minicpm5xml_tool_parser.py::test_param_missing_name_invalid': {
        'content': '<param>北京</param>\n',
        'reasoning': None,
        'calls': [['get_weather', '{"date": "2024-06-27"}']],
        'finish': 'tool_calls'},
    'vllm:test_minicpm5xml_tool_parser.py::test_properties_wrapped_arguments': {
        'content': None,
        'reasoning': None,
        'calls': [['get_customer_by_phone', '{"properties": {"phone_number": "555-123-2002"}}']],
        'finish': 'tool_calls'},
    'vllm:test_minicpm5xml_tool_parser.py::test_arguments_wrapped_arguments': {
        'content': None,
        'reasoning': None,
        'calls': [['get_weather', '{"arguments": {"city": "上海", "date": "2024-06-27"}}']],
        'finish': 'tool_calls'},
    'vllm:test_minicpm5xml_tool_parser.py::test_extra_arguments_do_not_satisfy_required': {
        'content': None,
        'reasoning': None,
        'calls': [['get_weather', '{"unknown": "ignored"}']],
        'finish': 'tool_calls'},
    'vllm:test_minicpm5xml_tool_parser.py::test_alias_get_details_by_phone': {
        'content': None,
        'reasoning': None,
        'calls': [['get_details_by_phone', '{"phone_number": "555-123-2002"}']],
        'finish': 'tool_calls'},
    'vllm:test_minicpm5xml_tool_parser.py::test_alias_get_line_details': {
        'content': None,
        'reasoning': None,
        'calls': [['get_line_details', '{"customer_id": "C1001", "line_id": "L1001"}']],
        'finish': 'tool_calls'},
    'vllm:test_hermes_tool_parser.py::test_hermes_parser_non_streaming_tool_call_invalid_json[llama]': {
        'content': None,
        'reasoning': None,
        'calls': [['final_answer', '{"trigger": true}']],
        'finish': 'tool_calls'},
    'vllm:test_hermes_tool_parser.py::test_hermes_parser_non_streaming_tool_call_invalid_json[granite4]': {
        'content': None,
        'reasoning': None,
        'calls': [['final_answer', '{"trigger": true}']],
        'finish': 'tool_calls'},
    'vllm:test_xlam_tool_parser.py::test_extract_tool_calls[single_tool_with_think_tag]': {
        'content': None,
        'reasoning': "I'll help you with that.",
        'calls': [['get_current_weather', '{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}']],
        'finish': 'tool_calls'},
    'vllm:test_xlam_tool_parser.py::test_extract_tool_calls[single_tool_with_tool_call_xml_tags]': {
        'content': 'I\'ll help you check the weather.<tool_call>[{"name": "get_current_weather", "arguments": {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}]</tool_call>',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_xlam_tool_parser.py::test_extract_tool_calls_streaming_incremental[single_tool_with_tool_call_xml_tags]': {
        'content': 'I can help with that.<tool_call>[{"name": "get_current_weather", "arguments": {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}]</tool_call>',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_internlm2_tool_parser.py::test_extract_unknown_tool_name_not_emitted': {
        'content': None,
        'reasoning': None,
        'calls': [['delete_everything', '{"city": "Tokyo"}']],
        'finish': 'tool_calls'},
    'vllm:test_cohere_command_tool_parser.py::TestExtractToolCalls::test_streaming_content[cmd3-citations_no_tool_calls]': {
        'content': '\nfoo <co>bar</co: 0:[1,2],1:[3,4]>',
        'reasoning': 'This is a rainbow <co>emoji: 🌈</co: 0:[1]>',
        'calls': [],
        'finish': 'stop'},
    'vllm:test_cohere_command_tool_parser.py::TestExtractToolCalls::test_streaming_content[cmd4-citations_no_tool_calls]': {
        'content': '\nfoo <co>bar</co: 0:[1,2],1:[3,4]>',
        'reasoning': 'This is a rainbow <co>emoji: 🌈</co: 0:[1]>',
        'calls': [],
        'finish': 'stop'},
    'vllm:test_cohere_command_tool_parser.py::TestExtractToolCalls::test_streaming[cmd3-single_tool_call]': {
        'content': None,
        'reasoning': ' i will call foo with query1',
        'calls': [['foo', '{"query": "query1"}']],
        'finish': 'tool_calls'},
    'vllm:test_cohere_command_tool_parser.py::TestExtractToolCalls::test_streaming[cmd4-single_tool_call]': {
        'content': None,
        'reasoning': ' i will call foo with query1',
        'calls': [['foo', '{"query": "query1"}']],
        'finish': 'tool_calls'},
    'vllm:test_cohere_command_tool_parser.py::TestExtractToolCalls::test_streaming[cmd3-multiple_tool_calls]': {
        'content': None,
        'reasoning': 'first I think about foo',
        'calls': [['foo', '{"query": "query1"}'], ['bar', '{"x": 42}']],
        'finish': 'tool_calls'},
    'vllm:test_cohere_command_tool_parser.py::TestExtractToolCalls::test_streaming[cmd4-multiple_tool_calls]': {
        'content': None,
        'reasoning': 'first I think about foo',
        'calls': [['foo', '{"query": "query1"}'], ['bar', '{"x": 42}']],
        'finish': 'tool_calls'},
    'vllm:test_cohere_command_tool_parser.py::TestSpeculativeDecodingMultiTokenDelta::test_multi_token_chunks_still_produce_correct_tool_call[3-cmd3]': {
        'content': None,
        'reasoning': ' i will call foo with query1',
        'calls': [['foo', '{"query": "query1"}']],
        'finish': 'tool_calls'},
    'vllm:test_cohere_command_tool_parser.py::TestSpeculativeDecodingMultiTokenDelta::test_multi_token_chunks_still_produce_correct_tool_call[3-cmd4]': {
        'content': None,
        'reasoning': ' i will call foo with query1',
        'calls': [['foo', '{"query": "query1"}']],
        'finish': 'tool_calls'},
    'vllm:test_cohere_command_tool_parser.py::TestSpeculativeDecodingMultiTokenDelta::test_multi_token_chunks_still_produce_correct_tool_call[4-cmd3]': {
        'content': None,
        'reasoning': ' i will call foo with query1',
        'calls': [['foo', '{"query": "query1"}']],
        'finish': 'tool_calls'},
    'vllm:test_cohere_command_tool_parser.py::TestSpeculativeDecodingMultiTokenDelta::test_multi_token_chunks_still_produce_correct_tool_call[4-cmd4]': {
        'content': None,
        'reasoning': ' i will call foo with query1',
        'calls': [['foo', '{"query": "query1"}']],
        'finish': 'tool_calls'},
    'vllm:test_cohere_command_tool_parser.py::TestSpeculativeDecodingMultiTokenDelta::test_multi_token_chunks_still_produce_correct_tool_call[6-cmd4]': {
        'content': None,
        'reasoning': ' i will call foo with query1',
        'calls': [['foo', '{"query": "query1"}']],
        'finish': 'tool_calls'},
    'vllm:test_mistral_tool_parser.py::test_extract_tool_calls_pre_v11_tokenizer[trailing_data_after_json]': {
        'content': '\nextra trailing data',
        'reasoning': None,
        'calls': [['get_current_weather', '{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}']],
        'finish': 'tool_calls'},
    'vllm:test_mistral_tool_parser.py::test_extract_tool_calls_pre_v11_multiple_bot_tokens_raises': {
        'content': None,
        'reasoning': None,
        'calls': [['add', '{"a": 1}'], ['sub', '{"b": 2}']],
        'finish': 'tool_calls'},
    'vllm:test_mistral_tool_parser.py::test_extract_tool_calls_pre_v11_regex_fallback': {
        'content': '] trail',
        'reasoning': None,
        'calls': [['junk', '{"name": "add", "arguments":{"a": 1, "b": 2}}']],
        'finish': 'tool_calls'},
    'vllm:test_mistral_tool_parser.py::test_extract_tool_calls_pre_v11_regex_fallback_fails': {
        'content': '[TOOL_CALLS] not json at all', 'reasoning': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_mistral_tool_parser.py::test_extract_tool_calls[complex]': {
        'content': 'hi{hi', 'reasoning': None,
        'calls': [['bash', '{"command": "print(\\"hello world!\\")\\nre.compile(r\'{}\')"}']], 'finish': 'tool_calls'},
    'vllm:test_glm4_moe_tool_parser.py::test_streaming_with_content_before_tool_calls': {
        'content': 'I will help you get the weather.<tool_call>', 'reasoning': None, 'calls': [],
        'finish': 'stop'},
    'vllm:test_llama3_json_tool_parser.py::test_extract_tool_calls_simple': {
        'content': 'Here is the result: {"name": "getOpenIncidentsTool", "parameters": {}} Would you like to know more?',
        'reasoning': None,
        'calls': [],
        'finish': 'stop'},
    'vllm:test_llama3_json_tool_parser.py::test_extract_tool_calls_invalid_json': {'content': 'invalid json}',
         'reasoning': None,
         'calls': [['invalidTool', '{}']],
         'finish': 'tool_calls'},
    'vllm:test_llama3_json_tool_parser.py::test_extract_tool_calls_missing_parameters_and_arguments_key': {'content': None, 'reasoning': None, 'calls': [['toolWithoutParams', '{}']], 'finish': 'tool_calls'},
    'vllm:test_kimi_k2_tool_parser.py::TestExtractToolCalls::test_invalid_funcall_id_skipped': {
        'content': 'Help. ',
        'reasoning': None,
        'calls': [['invalid.0', '{"city": "Beijing"}'],
                   ['valid', '{"city": "Shanghai"}']],
        'finish': 'tool_calls'},
    'vllm:test_kimi_k2_tool_parser.py::TestExtractToolCalls::test_native_id_extracted': {
        'content': 'Checking weather. ',
        'reasoning': None,
        'calls': [['get_weather', '{"city": "Tokyo"}']],
        'finish': 'tool_calls'},
    'vllm:test_kimi_k2_tool_parser.py::TestExtractToolCalls::test_bare_counter_single_tool_invalid_json_still_extracted': {'content': 'Let me check. <|tool_calls_section_begin|><|tool_call_begin|>0 '
                    '<|tool_call_argument_begin|>{"city": '
                    '"Tokyo"<|tool_call_end|><|tool_calls_section_end|>',
         'reasoning': None,
         'calls': [],
         'finish': 'stop'},
    'vllm:test_kimi_k2_tool_parser.py::TestStreamingHappyPath::test_multiple_tool_calls': {
        'content': 'Compare weather. ',
        'reasoning': None,
        'calls': [['get_weather', '{"city": "Tokyo"}'],
                   ['get_weather', '{"city": "NYC"}']],
        'finish': 'tool_calls'},
    'vllm:test_kimi_k2_tool_parser.py::TestStreamingHappyPath::test_bare_counter': {'content': "I'll help. <|tool_calls_section_begin|><|tool_call_begin|>0 "
                    '<|tool_call_argument_begin|>{"city": "Beijing"} '
                    '<|tool_call_end|><|tool_calls_section_end|>',
         'reasoning': None,
         'calls': [],
         'finish': 'stop'},
    'vllm:test_kimi_k2_tool_parser.py::TestStreamingHappyPath::test_bare_counter_multiple_tools_infers_by_args': {'content': "I'll help. <|tool_calls_section_begin|><|tool_call_begin|>0 "
                    '<|tool_call_argument_begin|>{"city": "Beijing", "unit": "celsius"} '
                    '<|tool_call_end|><|tool_calls_section_end|>',
         'reasoning': None,
         'calls': [],
         'finish': 'stop'},
    'vllm:test_kimi_k2_tool_parser.py::TestStreamingEdgeCases::test_truncated_tool_call_no_end_marker': {'content': "I'll check. ",
         'reasoning': None,
         'calls': [['get_weather', '{"city": "Bei"}']],
         'finish': 'tool_calls'},
    'vllm:test_deepseekv32_tool_parser.py::TestExtractToolCalls::test_string_attr_true_coerced_by_schema': {
        'content': None,
        'reasoning': None,
        'calls': [['score', '{"value": "42"}']],
        'finish': 'tool_calls'},
    'vllm:test_deepseekv32_tool_parser.py::TestExtractToolCalls::test_string_attr_true_coerced_by_composed_schema': {
        'content': None,
        'reasoning': None,
        'calls': [['set_timer', '{"wait": "{\\"type\\":\\"for\\",\\"minutes\\":2880}"}']],
        'finish': 'tool_calls'},
    'vllm:test_deepseekv32_tool_parser.py::TestExtractToolCalls::test_arguments_wrapper_repaired': {
        'content': None,
        'reasoning': None,
        'calls': [['get_weather', '{"arguments": {"location":"Beijing"}}']],
        'finish': 'tool_calls'},
    'vllm:test_deepseekv32_tool_parser.py::TestExtractToolCalls::test_input_wrapper_repaired': {
        'content': None,
        'reasoning': None,
        'calls': [['get_weather', '{"input": "{\\"location\\":\\"Beijing\\"}"}']],
        'finish': 'tool_calls'},
    'vllm:test_deepseekv32_tool_parser.py::TestExtractToolCalls::test_null_coerced_back_to_string_by_schema': {
        'content': None,
        'reasoning': None,
        'calls': [['echo', '{"text": null}']],
        'finish': 'tool_calls'},
    'vllm:test_deepseekv32_tool_parser.py::TestExtractToolCallsStreaming::test_string_attr_true_coerced_by_schema_streaming': {
        'content': None,
        'reasoning': None,
        'calls': [['score', '{"value": "42"}']],
        'finish': 'tool_calls'},
    'vllm:test_deepseekv32_tool_parser.py::TestExtractToolCallsStreaming::test_streaming_matches_non_streaming_conversion_fallbacks[streaming]': {
        'content': None,
        'reasoning': None,
        'calls': [['coerce', '{"union_value": "hello", "bad_int": "abc", "nullable_string": null, "null_string": null, "whole_number": 3.0}']],
        'finish': 'tool_calls'},
    'vllm:test_pythonic_tool_parser.py::test_bad_sibling_call_does_not_drop_good_calls[True]': {
        'content': None,
        'reasoning': None,
        'calls': [['bad', '{"x": "b\'z\'"}'],
                   ['get_weather', '{"city": "San Francisco", "metric": "celsius"}']],
        'finish': 'tool_calls'},
    'vllm:test_pythonic_tool_parser.py::test_good_call_survives_unparsable_sibling': {'content': "a='x 'y', b='z')]",
         'reasoning': None,
         'calls': [['get_weather', '{"city": "San Francisco", "metric": "celsius"}'], ['f', '{}']],
         'finish': 'tool_calls'},
    'vllm:test_pythonic_tool_parser.py::test_unrecoverable_block_still_reports_no_tool_call': {
        'content': None,
        'reasoning': None,
        'calls': [['f', '{"a": "\'x \'y\' \'z"}'],
                   ['g', '{"b": "\'p \'q\' \'r"}']],
        'finish': 'tool_calls'},
    'vllm:test_pythonic_tool_parser.py::test_streaming_mismatched_brackets_reported_once': {
        'content': None,
        'reasoning': None,
        'calls': [['foo', '{"x": "1]"}']],
        'finish': 'tool_calls'},
    'vllm:test_llama4_pythonic_tool_parser.py::test_bad_sibling_call_does_not_drop_good_calls[False]': {
        'content': None,
        'reasoning': None,
        'calls': [['bad', '{"x": "b\'z\'"}'],
                   ['get_weather', '{"city": "LA", "metric": "C"}']],
        'finish': 'tool_calls'},
    'vllm:test_llama4_pythonic_tool_parser.py::test_streaming_mismatched_brackets_reported_once': {
        'content': None,
        'reasoning': None,
        'calls': [['foo', '{"x": "1]"}']],
        'finish': 'tool_calls'},
    'vllm:test_minimax_tool_parser.py::test_extract_tool_calls_missing_name_or_arguments': {'content': '{"arguments": {"city": "Portland"}}',
         'reasoning': None,
         'calls': [['valid_tool', '{"city": "Seattle"}'],
                   ['missing_args', '{}'],
                   ['another_valid_tool', '{"param": "value"}']],
         'finish': 'tool_calls'},
    'vllm:test_minimax_tool_parser.py::test_extract_tool_calls_multiline_json_not_supported': {
        'content': None,
        'reasoning': None,
        'calls': [['get_current_weather', '{\n    "city": "New York",\n    "state": "NY",\n    "unit": "celsius"\n  }']],
        'finish': 'tool_calls'},
    'vllm:test_minimax_tool_parser.py::test_streaming_character_by_character_output': {
        'content': "I'll help you with the weather analysis. \n\nNow I'll get the weather information for you. Here are the results.",
        'reasoning': 'Let me think about this. <tool_calls>\n{"name": "internal_analysis", "arguments": {"type": "thinking"}}\n</tool_calls>This tool should be ignored.',
        'calls': [['get_current_weather', '{"city": "Seattle", "state": "WA", "unit": "celsius"}'],
                   ['calculate_area', '{"shape": "rectangle", "dimensions": {"width": 10, "height": 5}}']],
        'finish': 'tool_calls'},
    'vllm:test_kimi_k3_tool_parser.py::test_extract_tool_calls_unescapes_attributes': {'content': None, 'reasoning': None, 'calls': [['a&amp;b&quot;c', '{"k&amp;q": "v"}']], 'finish': 'tool_calls'},
    'vllm:test_kimi_k3_tool_parser.py::test_extract_content_from_whitespace_degraded_markers': {'content': '<|open|> response <|sep|>answer<|close|> response <|sep|>',
         'reasoning': None,
         'calls': [],
         'finish': 'stop'},
    'vllm:test_kimi_k3_tool_parser.py::test_delegating_parser_truncated_tools_do_not_leak_xtml': {'content': '<|open|>tools<|sep|><|open|>call tool="calc" index="1"',
         'reasoning': None,
         'calls': [],
         'finish': 'stop'},
    'vllm:test_kimi_k3_tool_parser.py::test_delegating_parser_tool_choice_none_strips_xtml_and_suppresses_calls': {'content': 'answer', 'reasoning': None, 'calls': [['calc', '{"x": 1}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_missing_eom_before_tool_header_keeps_tool_call': {'content': 'It is noon.', 'reasoning': 'Need the time. to=time.now', 'calls': [['time.now', '{}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_streaming_missing_eom_before_tool_header': {'content': 'It is noon.', 'reasoning': 'Need the time. to=time.now', 'calls': [['time.now', '{}']], 'finish': 'tool_calls'},
    'vllm:test_deepseekv4_tool_parser.py::test_function_calls_wrapper_is_not_recognized': {'content': '<｜DSML｜function_calls>\n<｜DSML｜invoke name="search">\n<｜DSML｜parameter name="query" string="true">vllm</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>', 'reasoning': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_deepseekv4_tool_parser.py::test_missing_tool_calls_wrapper_is_recovered[#whole]': {'content': '<｜DSML｜invoke name="search">\n<｜DSML｜parameter name="query" string="true">vllm</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>', 'reasoning': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_deepseekv4_tool_parser.py::test_missing_tool_calls_wrapper_is_recovered[#streaming]': {'content': '<｜DSML｜invoke name="search">\n<｜DSML｜parameter name="query" string="true">vllm</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>', 'reasoning': None, 'calls': [], 'finish': 'stop'},
    'vllm:test_deepseekv4_tool_parser.py::test_extract_tool_calls_arguments_wrapper': {'content': None, 'reasoning': None, 'calls': [['get_weather', '{"arguments": {"location":"Beijing"}}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-25#whole]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "25", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-25#chunk=1]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "25", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-25#chunk=17]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "25", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-25#chunk=263]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "25", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-true#whole]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "true", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-true#chunk=1]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "true", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-true#chunk=17]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "true", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-true#chunk=265]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "true", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-null#whole]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "null", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-null#chunk=1]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "null", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-null#chunk=17]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "null", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-null#chunk=265]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "null", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-[1,2]#whole]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "[1,2]", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-[1,2]#chunk=1]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "[1,2]", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-[1,2]#chunk=17]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "[1,2]", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-[1,2]#chunk=266]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "[1,2]", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-{"x":1}#whole]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "{\\"x\\":1}", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-{"x":1}#chunk=1]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "{\\"x\\":1}", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-{"x":1}#chunk=17]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "{\\"x\\":1}", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat-{"x":1}#chunk=268]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "{\\"x\\":1}", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat- 25 #whole]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": " 25 ", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat- 25 #chunk=1]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": " 25 ", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat- 25 #chunk=17]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": " 25 ", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-chat- 25 #chunk=265]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": " 25 ", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-25#whole]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "25", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-25#chunk=1]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "25", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-25#chunk=17]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "25", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-25#chunk=263]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "25", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-true#whole]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "true", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-true#chunk=1]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "true", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-true#chunk=17]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "true", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-true#chunk=265]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "true", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-null#whole]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "null", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-null#chunk=1]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "null", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-null#chunk=17]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "null", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-null#chunk=265]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "null", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-[1,2]#whole]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "[1,2]", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-[1,2]#chunk=1]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "[1,2]", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-[1,2]#chunk=17]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "[1,2]", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-[1,2]#chunk=266]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "[1,2]", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-{"x":1}#whole]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "{\\"x\\":1}", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-{"x":1}#chunk=1]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "{\\"x\\":1}", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-{"x":1}#chunk=17]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "{\\"x\\":1}", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses-{"x":1}#chunk=268]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": "{\\"x\\":1}", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses- 25 #whole]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": " 25 ", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses- 25 #chunk=1]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": " 25 ", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses- 25 #chunk=17]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": " 25 ", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
    'vllm:test_muse.py::test_string_parameter_schema_preserves_raw_text[MuseGlimmerToolParser-responses- 25 #chunk=265]': {'content': None, 'reasoning': None, 'calls': [['echo', '{"text": " 25 ", "count": 25, "items": [1,2]}']], 'finish': 'tool_calls'},
}
