"""Table shapes several families share, with their own marker texts: the common one is a thought
and call blocks, each between an open and a close marker (SPEC §3 `qwen3`: content, reasoning
and calls states, five rows; the call opener inside a block opens the next call); the other a
thought and a block of invokes (SPEC §3 `deepseek_v4_1`: DeepSeek V4.1, MiniMax M2, dots); the
third a thought and a block of calls each in its own markers (SPEC §3 `hy4`: Hy4, K2-Horizon); the
fourth calls in their markers and no thought (SPEC §3 `qwen2_5`, LongCat); the last a thought, an
answer whose markers are dropped and a block holding a JSON list of calls (Hunyuan-A13B, Cohere
Command).

In each shape with a thought, its opener written inside the thought is dropped: the generation
prompt of many of these checkpoints opens the thought, and a model that writes the opener again
(trained on, or served with, a template that did not) means the same thought, not the markup as
its text (vLLM's and SGLang's reasoning parsers strip it too)."""
import re

from symphony import _native
from symphony.format import Emits, Format

THINK = ("<think>", "</think>")


def calls_only(name, call, syntax, opener=None, also=()):
    """`call` is the (open, close) marker texts, `also` more such pairs that work alike (any
    opener opens a call, any closer ends it); no thought: any thought markup is content. A call
    opener inside a call opens the next call."""
    table = Format(name).state("content", Emits.CONTENT).state("calls", Emits.ARGUMENTS)
    for k, (open_text, close_text) in enumerate((call,) + tuple(also)):
        suffix = f"_{k + 1}" if k else ""
        table = (table
                 .terminal("call_open" + suffix, open_text)
                 .terminal("call_close" + suffix, close_text)
                 .transition("content", "call_open" + suffix, "calls")
                 .transition("calls", "call_close" + suffix, "content")
                 .transition("calls", "call_open" + suffix, "calls"))
    table = table.calls(syntax)
    return table.opens_turn(opener) if opener is not None else table


def thought_and_calls(name, think, call, syntax, opener=None):
    """`think` and `call` are (open, close) marker texts. No row from the thought on the call
    opener: a call marker inside a thought is reasoning text (where a family's model leaves its
    thought unclosed before a call, call_ends_thought adds that row); a thought closer in content
    is content (a family whose tokenizer makes it one token marks it a control token, dropped)."""
    table = (
        Format(name)
        .terminal("think_open", think[0])
        .terminal("think_close", think[1])
        .terminal("call_open", call[0])
        .terminal("call_close", call[1])
        .state("content", Emits.CONTENT)
        .state("reasoning", Emits.REASONING)
        .state("calls", Emits.ARGUMENTS)
        .transition("content", "think_open", "reasoning")
        .transition("reasoning", "think_open", "reasoning")
        .transition("reasoning", "think_close", "content")
        .transition("content", "call_open", "calls")
        .transition("calls", "call_close", "content")
        .transition("calls", "call_open", "calls")
        .calls(syntax)
    )
    return table.opens_turn(opener) if opener is not None else table


def bare_calls(table):
    """A `thought_and_calls` table of a tagged syntax whose models also write a call without its
    block (Qwen3-Coder, Step-3.5: `<function=NAME>…</function>` in content, `</tool_call>` after it
    or not): the function tag in content opens a call of its own (the tag is the call's, and the
    call is one only if a tag follows it); once its `</function>` ends it, what follows is content,
    where a `</tool_call>` the model closes it with is dropped. Its template never writes this,
    so the grammar leaves it out (`Format.recovers`)."""
    table = (_with_function_open(table)
             .state("bare_call", Emits.ARGUMENTS)
             .recovers("content", "function_open", "bare_call")
             .recovers("bare_call", "call_close", "content")
             .recovers("bare_call", "call_open", "calls"))
    table = _prose_after_bare_calls(table, "after_bare_call", ("call_close",))
    return table.after_call("bare_call", "after_bare_call")


def _prose_after_bare_calls(table, after, closes, content="content"):
    """`table` with the content state `after`, the prose going on after a call written without its
    block (Format.prose_after_calls): read as `content` reads (its rows, the opener of such a call
    among them), but where the block's close the model may still write after the call (the
    terminals `closes`) is dropped."""
    table = table.state(after, Emits.CONTENT).prose_after_calls(after)
    for src, terminal, dst in list(table.transitions):
        if src == content:
            table = table.recovers(after, terminal, dst)
    for terminal in closes:
        table = table.recovers(after, terminal, content)
    return table


def _with_function_open(table):
    """`table` with the tagged syntax's function tag as its terminal `function_open`."""
    if "function_open" in dict(table.terminals):
        return table
    return table.terminal("function_open", _native.TAGGED_TAGS[0])


def functions_in_block(table):
    """A `thought_and_calls` table of a tagged syntax whose block holds several calls: its template
    writes one `<function=…>` per block, and its models at times write more (vLLM's and SGLang's
    parsers read every one). Once a call's `</function>` ends it, the block goes on (state
    `between_calls`, a block's wrapping, as between a block's invokes: whitespace Dropped, other text
    Malformed); a function tag there opens the next call (the tag is the call's; where the syntax
    reads broken tags, so does one spelled without its `=`, `<function NAME>`, which the call reads
    as it reads one that opens a block), the block's close ends the block, its opener opens the next
    call, as in a call. Read, never written (`Format.recovers`)."""
    table = (_with_function_open(table)
             .state("between_calls", Emits.WRAPPER)
             .after_call("calls", "between_calls")
             .recovers("between_calls", "function_open", "calls")
             .recovers("between_calls", "call_close", "content")
             .recovers("between_calls", "call_open", "calls"))
    if not table.syntax.reads_broken_tags():
        return table
    return (table.terminal("function_open_unequal", _native.TAGGED_TAGS[0][:-1])
            .recovers("between_calls", "function_open_unequal", "calls"))


def call_ends_thought(table, opener="call_open", region="calls"):
    """`table` (a thought and call regions) also ends its thought at the family's call `opener`
    written inside it, the thought left unclosed (Qwen3 and Qwen 3.5, GLM, Ling, Hunyuan-A13B,
    Gemma 4: `<think>plan<tool_call>…`, no `</think>`): the opener opens the call `region` as if
    the thought's close had been written before it, as the incumbents' reasoning parsers read it.
    The row Kimi K2's section and DeepSeek's DSML block have from the thought, here a recovery:
    the family's template always closes the thought first, so the grammar leaves it out
    (Format.recovers). A region it opens that holds no call is the text the model wrote, shown as
    content (docs/recovery.md, rule 2)."""
    return table.recovers("reasoning", opener, region)


def calls_in_thought(table):
    """A `thought_and_calls` table whose calls are read inside its thought too (Trinity, Apertus):
    a call opened there returns to the thought at its close, the next opener opens the next call,
    and the thought's close ends a call left open."""
    return (table
            .state("thought_calls", Emits.ARGUMENTS)
            .transition("reasoning", "call_open", "thought_calls")
            .transition("thought_calls", "call_close", "reasoning")
            .transition("thought_calls", "call_open", "thought_calls")
            .transition("thought_calls", "think_close", "content"))


def thought_and_invokes(name, block, invoke, syntax, opener=None, think=THINK):
    """`block` and `invoke` are (open, close) marker texts. A block ends the thought; the block's
    close ends an invoke left open, and an invoke opener inside an invoke opens the next one."""
    table = (
        Format(name)
        .terminal("think_open", think[0])
        .terminal("think_close", think[1])
        .terminal("calls_open", block[0])
        .terminal("calls_close", block[1])
        .terminal("invoke_open", invoke[0])
        .terminal("invoke_close", invoke[1])
        .state("content", Emits.CONTENT)
        .state("reasoning", Emits.REASONING)
        .state("calls", Emits.WRAPPER)
        .state("invoke", Emits.ARGUMENTS)
        .transition("content", "think_open", "reasoning")
        .transition("reasoning", "think_open", "reasoning")
        .transition("reasoning", "think_close", "content")
        .transition("content", "calls_open", "calls")
        .transition("reasoning", "calls_open", "calls")
    )
    table = invoke_rows(table).calls(syntax)
    return table.opens_turn(opener) if opener is not None else table


def invoke_rows(table):
    """The rows of a block of invokes (states `calls` and `invoke`, terminals `calls_open`/`_close`
    and `invoke_open`/`_close`), back to `content`: an invoke opener inside an invoke opens the
    next one, and the block's close ends an invoke left open."""
    return (table
            .transition("calls", "invoke_open", "invoke")
            .transition("invoke", "invoke_close", "calls")
            .transition("invoke", "invoke_open", "invoke")
            .transition("invoke", "calls_close", "content")
            .transition("calls", "calls_close", "content"))


def objects_in_block(table, block="calls", state="object_call"):
    """`table` (a block of calls: the wrapper state `block`) also reads a call its model writes
    in the block as a JSON call object, `{"name": .., "arguments": {..}}` (dots, whose incumbents
    read one where the block holds no invoke): where a call may begin in the block (after its
    opener or after a call, whitespace aside) a `{` opens the object, read in the arguments state
    `state`, which returns to the block once the object closes (Format.reads_objects). The block's
    rows are the object's too: its close ends an object cut short, and so does the opener of its
    next call. A recovery: read, never written (Format.recovers)."""
    table = table.state(state, Emits.ARGUMENTS)
    for src, terminal, dst in list(table.transitions):
        if src == block:
            table = table.recovers(state, terminal, dst)
    return table.reads_objects(block, state)


def calls_without_block(table, opener, call, block="calls", content="content"):
    """`table` (a block of calls: the wrapper state `block`, whose rows open each call in state
    `call`) also reads a call its model writes without the block's opener, prose before it or not:
    the call's `opener` in `content` opens the call in a state of its own (`bare_` + call) that
    reads it as `call` does (`call`'s rows declared so far), but ends it in the prose
    (`after_bare_` + call) where `call` ends in the block. No block was written, so the text around
    the call is the prose's, whitespace included (none of it is the block's wrapping): the prose
    after the call reads as `content` reads, its opener opens the next such call, and the block's
    close the model may still write after the call is dropped. A recovery: read, never written
    (Format.recovers)."""
    bare, after = "bare_" + call, "after_bare_" + call
    closes = [terminal for src, terminal, dst in table.transitions if src == block and dst == content]
    rows = [row for row in table.transitions if row[0] == call]
    table = table.state(bare, Emits.ARGUMENTS).recovers(content, opener, bare)
    table = _prose_after_bare_calls(table, after, closes, content)
    instead = {block: after, call: bare}
    for _, terminal, dst in rows:
        table = table.recovers(bare, terminal, instead.get(dst, dst))
    if call in table.returns:
        table = table.after_call(bare, instead.get(table.returns[call], table.returns[call]))
    return table


def loose_invokes(table, opener="invoke_open"):
    """`table` (a block of invokes whose syntax reads names loosely, CallSyntax.invoke(loose=True))
    also opens an invoke whose `name` attribute is written single-quoted, unquoted or with
    whitespace around its `=` (`<invoke name='f'>`, `<invoke name=f>`): the invoke's `opener`
    (`<invoke name="`) is also spelled up to the attribute's name (`<invoke name`, the shorter
    marker: the scanner still takes the whole opener where it is written), in every row the
    opener is in so far; its bytes are the call's, whose assembler reads the rest of the attribute
    (attribute_call.pxi). Read, never written (a grammar writes the first spelling)."""
    text = dict(table.terminals)[opener]
    if not text.endswith('="'):
        raise ValueError(f"loose_invokes: the opener {text!r} does not run to its attribute's `=\"`")
    return table.spelled_also(opener, opener + "_loose", text[:-2])


def spaced_invokes(table, opener="invoke_open"):
    """`table` (a block of invokes whose syntax reads its tags spaced, CallSyntax.dsml(spaced=True),
    CallSyntax.invoke(spaced=True))
    also opens an invoke whose tag holds more whitespace than one space between its tag name and
    its `name` attribute (`<｜DSML｜invoke  name="f">`, a tab or a newline there): the invoke's
    `opener` (`<｜DSML｜invoke name="`) is also spelled up to its tag name and one whitespace byte
    (a space, a tab, a newline, a carriage return: shorter markers, so the scanner still takes the
    whole opener where it is written), in every row the opener is in so far; its bytes are the
    call's, whose assembler reads the rest of the tag (attribute_call.pxi). Read, never written (a
    grammar writes the first spelling)."""
    text = dict(table.terminals)[opener]
    if not text.endswith(' name="'):
        raise ValueError(f"spaced_invokes: the opener {text!r} does not run to its ` name=\"`")
    for k, space in enumerate(_native.AT_SPACES):
        table = table.spelled_also(opener, f"{opener}_spaced_{k}", text[:-len(' name="')] + space)
    return table


def spaced_special_tokens(table, tokens, terminals):
    """`table` (a family whose markers are special tokens and the words between them: Kimi K3's
    `<|open|>response<|sep|>`, gpt-oss's `<|channel|>final<|message|>`, from the special tokens
    `tokens`) also reads each marker of `terminals` as a detokenizer writes it when it decodes with
    spaces between special tokens (vLLM's and transformers' `spaces_between_special_tokens`): each
    special token and each run of other text between them joined by one space (`<|open|> response
    <|sep|>`). The spaced spelling is a marker in every row its terminal is in so far
    (Format.spelled_also); read, never written (a grammar writes the first spelling)."""
    special = re.compile("(" + "|".join(map(re.escape, tokens)) + ")")
    for name in terminals:
        text = dict(table.terminals)[name]
        spaced = " ".join(piece for piece in special.split(text) if piece)
        if spaced == text:
            raise ValueError(f"spaced_special_tokens: the marker {text!r} is no special token beside other text")
        table = table.spelled_also(name, name + "_spaced", spaced)
    return table


def damaged_openers(table, mark, opens=(("calls_open", "calls"), ("invoke_open", "invoke"))):
    """`table` (a block of invokes whose markers all begin `<` + `mark`, DSML's `<｜DSML｜`) also
    drops the model's damaged attempts at its block's opener, the misspelled block tags its model
    writes before the real block or invoke (`<｜DSML｜toolcalls>`, `<｜DSML｜tool_calls` with no
    `>`, `<｜DSML｜tool_calls...`): `<` + `mark` where none of the table's markers starts is a
    damaged tag, which runs to its `>` or the end of its line (within 128 bytes); damaged tags
    followed by nothing but whitespace and then one of `opens` (terminal, state: the block's
    opener first, then an invoke) are Dropped with that whitespace, as the block's opener they
    stand for (read where the real one is: content, and a thought the block's opener ends);
    anything else (other text, another marker, the end) shows them as the text they are
    (Emits.DAMAGED_MARKER, pyx/engine/engine.pxi). Read, never written (Format.recovers)."""
    block_opener, block = opens[0]
    homes = [src for src, terminal, dst in table.transitions if terminal == block_opener and dst == block]
    table = table.terminal("damaged_mark", "<" + mark).state("damaged_opener", Emits.DAMAGED_MARKER)
    for home in homes:
        table = table.recovers(home, "damaged_mark", "damaged_opener")
    table = table.recovers("damaged_opener", "damaged_mark", "damaged_opener")
    for terminal, state in opens:
        table = table.recovers("damaged_opener", terminal, state)
    return table


def damaged_closers(table, mark, block="calls", close="calls_close", opener="calls_open"):
    """`table` (a block of calls, the wrapper state `block`, whose `close` begins `</` + `mark`)
    also drops the model's damaged attempts at the block's `close`, the misspelled close tags its
    model writes after the calls (`</｜DSML｜toolcalls>`, `</｜DSML｜tool>`, MiniMax M2's
    `</minimax_tool_call>`): in the block, `</` + `mark` where none of the table's markers starts
    is a damaged close tag, which runs to its `>` or the end of its line within 128 bytes. Ended
    by its `>` or by the end of the stream after a call was read in the block, it is Dropped as the
    block's close, and what follows reads where the close leads (prose after it is content).
    Followed, whitespace aside, by the block's `opener`, it is Dropped with that whitespace, the
    opener going on with the block (`</minimax:tool_call`, a newline, `<minimax:tool_call>`: the
    close and the next block's opener). Anything else before its `>` (other text, another marker), or no call
    read, shows it as the block's text (Format.closes_block, pyx/engine/engine.pxi). Read, never
    written (Format.recovers)."""
    to = table.next(block, close)
    table = table.terminal("damaged_close_mark", "</" + mark).state("damaged_closer", Emits.DAMAGED_MARKER)
    table = table.recovers(block, "damaged_close_mark", "damaged_closer").recovers("damaged_closer", opener, block)
    return table.closes_block("damaged_closer", to)


def opener_again_in_block(table, block="calls", opener="calls_open"):
    """`table` (a block of calls, the wrapper state `block`, which its `opener` opens) also reads the
    opener written again in the block after a call, before the block's close (`</invoke>\n
    <minimax:tool_call><invoke …>`, as vLLM's minimax_m2 and deepseek_v32/deepseek_v4 and SGLang's
    minimax-m2 and deepseekv32/deepseekv4 read the calls after it, and the incumbents of GigaChat 3.5,
    Hy3/Hy4, Kimi K3, MiniMax M3 and Muse theirs): right after a call, whitespace aside, it is the
    block's wrapping, Dropped, and the block goes on. Written after other text it is that text's
    (the block's text after a call; before a call, rule 2's next region: pyx/engine/engine.pxi). A
    recovery: read, never written (Format.recovers)."""
    return table.recovers(block, opener, block)


def thought_and_call_block(name, think, block, call, syntax, block_ends_thought=False, also_think=()):
    """`think`, `block` and `call` are (open, close) marker texts, `also_think` more thought
    pairs that work alike (any opener opens the thought, any closer ends it). No row from a call
    to the next call's opener (it is text there); the block's close also ends a call left open.
    Where `block_ends_thought`, the block's opener in the thought ends it (K2-Horizon; not Hy4)."""
    table = (
        Format(name)
        .terminal("think_open", think[0])
        .terminal("think_close", think[1])
        .terminal("calls_open", block[0])
        .terminal("calls_close", block[1])
        .terminal("call_open", call[0])
        .terminal("call_close", call[1])
        .state("content", Emits.CONTENT)
        .state("reasoning", Emits.REASONING)
        .state("calls", Emits.WRAPPER)
        .state("call", Emits.ARGUMENTS)
        .transition("content", "think_open", "reasoning")
        .transition("reasoning", "think_open", "reasoning")
        .transition("reasoning", "think_close", "content")
    )
    for k, (open_text, close_text) in enumerate(also_think, 2):
        table = (table
                 .terminal(f"think_open_{k}", open_text)
                 .terminal(f"think_close_{k}", close_text)
                 .transition("content", f"think_open_{k}", "reasoning")
                 .transition("reasoning", f"think_open_{k}", "reasoning")
                 .transition("reasoning", f"think_close_{k}", "content"))
    table = table.transition("content", "calls_open", "calls")
    if block_ends_thought:
        table = table.transition("reasoning", "calls_open", "calls")
    return (
        table
        .transition("calls", "call_open", "call")
        .transition("call", "call_close", "calls")
        .transition("call", "calls_close", "content")
        .transition("calls", "calls_close", "content")
        .calls(syntax)
    )


def thought_answer_and_calls(name, think, answer, calls, syntax, opener=None):
    """`think`, `answer` and `calls` are (open, close) marker texts. The answer's markers are
    dropped and its text is content; a block of calls returns to content."""
    table = (
        Format(name)
        .terminal("think_open", think[0])
        .terminal("think_close", think[1])
        .terminal("answer_open", answer[0])
        .terminal("answer_close", answer[1])
        .terminal("calls_open", calls[0])
        .terminal("calls_close", calls[1])
        .state("content", Emits.CONTENT)
        .state("reasoning", Emits.REASONING)
        .state("calls", Emits.ARGUMENTS)
        .transition("content", "think_open", "reasoning")
        .transition("reasoning", "think_open", "reasoning")
        .transition("reasoning", "think_close", "content")
        .transition("content", "answer_open", "content")
        .transition("content", "answer_close", "content")
        .transition("content", "calls_open", "calls")
        .transition("calls", "calls_close", "content")
        .calls(syntax)
    )
    return table.opens_turn(opener) if opener is not None else table
