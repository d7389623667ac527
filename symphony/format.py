"""The format table builder (SPEC §2.1): a family's markers, states, transitions and call syntax
as data. A table is validated when compiled and compiled once into the flat arrays the native
engine runs; the same data later yields the guided-decoding grammar.
"""
import unicodedata
from enum import IntEnum

from symphony import _native
from symphony.errors import FormatError
from symphony.syntax import CallSyntax, ParamTags, Placement, Spelling, Tags  # noqa: F401  (re-exported)

# What text in a state becomes: CONTENT, REASONING, ARGUMENTS (fed to the call assembler),
# WRAPPER (whitespace Dropped{Wrapper}, anything else Malformed), and beyond SPEC §2.1 HIDDEN
# (all text Dropped{Wrapper}: a message the model writes for no one the client serves, Muse
# Spark's ` to=developer`) and DAMAGED_MARKER (held: a damaged marker of the family, dropped when
# the table goes on into a call or a block, else the text of the state it was written in; see
# shapes.damaged_openers). The codes are the native engine's own (declared once, in
# pyx/engine/table.pxi).
Emits = IntEnum("Emits", {member.name[len("EM_"):]: int(member) for member in _native.Emits})
Emits.__doc__ = "What text in a state becomes (SPEC §2.1)."


_NOT_PRINTABLE = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
_DEBUG_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0"}


def debug_quote(text):
    """Rust's `{:?}` rendering of a string (the quoting of the reference's messages): the usual
    backslash escapes, and `\\u{..}` for what Rust does not print (controls, format and private
    characters, unassigned ones, separators other than the space, a combining mark first)."""
    out = ['"']
    for i, ch in enumerate(text):
        category = unicodedata.category(ch)
        if ch in _DEBUG_ESCAPES:
            out.append(_DEBUG_ESCAPES[ch])
        elif (category in _NOT_PRINTABLE or (category == "Zs" and ch != " ")
              or (i == 0 and category in ("Mn", "Me"))):
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


class Format:
    """A format table under construction; methods chain. `compile()` validates and compiles."""

    def __init__(self, name):
        self.name = name
        self.terminals = []        # (name, text), in declaration order (the scanner's order)
        self.ignored = set()       # names of ignored terminals
        self.separators = set()    # ... of those that are separators (ignores(separator=True))
        self.controls = set()      # names of the terminals that are the family's control tokens
        self.states = []           # (name, Emits); the first is the initial state
        self.transitions = []      # (from, terminal, to) names, first matching row wins
        self.spellings = {}        # a terminal that spells another one otherwise: its name -> that one's
        self.returns = {}          # an arguments state -> where it goes once its call ended itself
        self.objects = {}          # a block -> the arguments state a JSON call object in it opens (reads_objects)
        self.recoveries = []       # rows read and never written (recovers), in `transitions` too
        self.names = {}            # a damaged-marker state that holds a name -> the name's characters (holds_name)
        self.prose = set()         # the prose after calls written without their block (prose_after_calls)
        self.closes = {}           # a damaged-marker state that may close its block -> where it leads (closes_block)
        self.syntax = None
        self.opener = None
        self._compiled = None

    # building

    def terminal(self, name, text):
        self.terminals.append((name, text))
        self._compiled = None
        return self

    def ignores(self, name, text, separator=False):
        """A terminal no row reads, Dropped wherever it stands; a `separator` (one the template
        writes before every tag: MiniMax M3's `]<]minimax[>[`) is Dropped where calls are read and
        before a marker with a row, and is the text it is where text follows it."""
        self.terminal(name, text)
        self.ignored.add(name)
        if separator:
            self.separators.add(name)
        return self

    def control_tokens(self, *names):
        """Marks terminals as the family's control tokens: markers that are each one special token
        of the family's tokenizer, never words a model writes in prose (Kimi K2's
        `<|tool_calls_section_end|>`; not Qwen's `<tool_call>`, a tag one writes in a code fence).
        Where one stands with no row from the current state (a closer with no region open, an
        opener where the table opens none) outside a call, it is Dropped{ControlToken}, not text:
        no reader meant to show it (a detokenizer that skips special tokens would not). Inside a
        call region the call's syntax reads it as it reads any text."""
        known = self._terminal_names()
        for name in names:
            if name not in known:
                raise FormatError(f"format {self.name}: no terminal named {debug_quote(name)}")
            self.controls.add(name)
        self._compiled = None
        return self

    def control_token(self, name, text):
        """A control token (control_tokens) that drives no row of the table: wherever it stands
        outside a call it is dropped (Kimi K2's `<|tool_call_argument_begin|>`, which only its call
        syntax reads, stray in the content)."""
        return self.terminal(name, text).control_tokens(name)

    def spelled_also(self, terminal, name, text):
        """Another spelling of the marker `terminal`: the terminal `name` (text `text`) in every row
        `terminal` is in so far, so it means the same (a family whose tokenizers spell a marker two
        ways); a row the table only reads (recovers) is one in its other spelling too."""
        self.terminal(name, text)
        for from_state, known, to_state in list(self.transitions):
            if known == terminal:
                self.transition(from_state, name, to_state)
                if (from_state, known, to_state) in self.recoveries:
                    self.recoveries.append((from_state, name, to_state))
        self.spellings[name] = terminal
        if terminal in self.controls:
            self.controls.add(name)
        return self

    def recovers(self, from_state, terminal, to_state):
        """A row the parser reads and the family's template never writes: a slip its model makes
        (a call written without its block's opener) read as what it meant. It runs like any row
        (declared after the family's own, it never shadows one); the grammar leaves it out
        (`written`)."""
        self.transition(from_state, terminal, to_state)
        self.recoveries.append((from_state, terminal, to_state))
        return self

    def holds_name(self, state, chars):
        """The damaged-marker state `state` (Emits.DAMAGED_MARKER) holds, after the mark that
        entered it, a name written in `chars` (ASCII), not a damaged tag: a row from it into a call
        or a block once the name has a character drops the mark and the name with that row's
        marker (Muse's ` to=NAME<|message|>` written in a message: a tool's header); any other
        character, a name of 128 bytes or more, another marker or the end shows them as the text
        they are, in the state the mark was written in (pyx/engine/engine.pxi)."""
        if dict(self.states).get(state) != Emits.DAMAGED_MARKER:
            raise FormatError(f"format {self.name}: state {debug_quote(state)} holds no damaged marker")
        if not chars or not chars.isascii():
            raise FormatError(f"format {self.name}: a name's characters are ASCII, not {debug_quote(chars)}")
        self.names[state] = chars
        self._compiled = None
        return self

    def closes_block(self, state, to_state):
        """The damaged-marker state `state` (Emits.DAMAGED_MARKER) holds a damaged close tag of the
        block it is entered from: its tag ended by its `>` or by the end of the stream after a call was
        read in the block is the block's close, Dropped, and the stream goes on in `to_state`, where
        the close leads (DSML's `</｜DSML｜toolcalls>`); a tag ended otherwise, or with no call read,
        shows as the block's text (pyx/engine/engine.pxi)."""
        states = dict(self.states)
        if states.get(state) != Emits.DAMAGED_MARKER or to_state not in states:
            raise FormatError(f"format {self.name}: state {debug_quote(state)} closes no block into "
                              f"{debug_quote(to_state)}")
        self.closes[state] = to_state
        self._compiled = None
        return self

    def prose_after_calls(self, state):
        """The content state `state` is the prose going on after a call written without its block
        (shapes.calls_without_block): a row that leads into it from a call region that held no call
        leads back to the state the region was opened from instead, as a call's own end does
        (after_call), so what follows the tag, text as the tag was, reads where the tag was written."""
        if dict(self.states).get(state) != Emits.CONTENT:
            raise FormatError(f"format {self.name}: state {debug_quote(state)} shows no prose")
        self.prose.add(state)
        self._compiled = None
        return self

    def state(self, name, emits):
        self.states.append((name, Emits(emits)))
        self._compiled = None
        return self

    def transition(self, from_state, terminal, to_state):
        for kind, name, known in (("state", from_state, self._state_names()),
                                  ("terminal", terminal, self._terminal_names()),
                                  ("state", to_state, self._state_names())):
            if name not in known:
                raise FormatError(f"format {self.name}: no {kind} named {debug_quote(name)}")
        self.transitions.append((from_state, terminal, to_state))
        self._compiled = None
        return self

    def after_call(self, state, to_state):
        """Where `state` (an arguments state) goes once its call has ended by its own end tag
        (its syntax's, not a marker of the table): what follows is read there. Without one, what
        follows in the state is the region's wrapping."""
        for name in (state, to_state):
            if name not in self._state_names():
                raise FormatError(f"format {self.name}: no state named {debug_quote(name)}")
        if dict(self.states)[state] != Emits.ARGUMENTS:
            raise FormatError(f"format {self.name}: state {debug_quote(state)} holds no call to end")
        self.returns[state] = to_state
        self._compiled = None
        return self

    def reads_objects(self, block, state):
        """The block `block` (a wrapper state) also reads a call written as a JSON call object
        (`{"name": .., "arguments" (or "parameters"): {..}}`, as CallSyntax.json reads it): where a
        call may begin in it (after the marker that entered it or after a call, whitespace aside)
        a `{` opens one, read in the arguments state `state`, which returns to the block once the
        object closes (after_call). Rows out of `state` are the table's to declare (the block's
        own, so its close ends an object cut short). A recovery: read, never written (`written`
        leaves it out with the rows only it uses)."""
        emits = dict(self.states)
        for name in (block, state):
            if name not in emits:
                raise FormatError(f"format {self.name}: no state named {debug_quote(name)}")
        if emits[block] != Emits.WRAPPER:
            raise FormatError(f"format {self.name}: state {debug_quote(block)} is no block of calls")
        self.after_call(state, block)
        self.objects[block] = state
        return self

    def calls(self, syntax):
        self.syntax = syntax
        self._compiled = None
        return self

    def opens_turn(self, text):
        self.opener = text
        self._compiled = None
        return self

    def with_opener(self, text):
        """A copy of this table whose turn opener is `text` (a checkpoint's own template)."""
        copy = self._copy()
        copy.opener = text
        return copy

    def first_spellings(self):
        """A copy of this table without the other spellings of its markers (spelled_also) and
        their rows: one spelling, the family's own."""
        copy = self._copy()
        copy.terminals = [(name, text) for name, text in self.terminals if name not in self.spellings]
        copy.transitions = [row for row in self.transitions if row[1] not in self.spellings]
        copy.controls = {name for name in self.controls if name not in self.spellings}
        copy.spellings = {}
        return copy

    def written(self):
        """A copy of this table as the family writes it, what a grammar writes: one spelling of
        each marker (first_spellings), none of the rows it only reads (recovers), and none of the
        terminals and states that only those rows use."""
        copy = self.first_spellings()
        copy.transitions = [row for row in copy.transitions if row not in self.recoveries]
        kept_states = {state for a, _, b in copy.transitions for state in (a, b)} | {name for name, _ in copy.states[:1]}
        kept_terminals = {terminal for _, terminal, _ in copy.transitions} | copy.ignored
        read_states = ({state for a, _, b in self.recoveries for state in (a, b)} | set(self.objects.values())) - kept_states
        read_terminals = {terminal for _, terminal, _ in self.recoveries} - kept_terminals
        copy.terminals = [(name, text) for name, text in copy.terminals if name not in read_terminals]
        copy.states = [(name, emits) for name, emits in copy.states if name not in read_states]
        copy.returns = {a: b for a, b in copy.returns.items() if a not in read_states and b not in read_states}
        copy.objects = {}
        copy.recoveries = []
        copy.names = {state: chars for state, chars in copy.names.items() if state not in read_states}
        copy.prose = copy.prose - read_states
        copy.closes = {state: to for state, to in copy.closes.items() if state not in read_states}
        return copy

    def _copy(self):
        copy = Format(self.name)
        copy.terminals = list(self.terminals)
        copy.ignored = set(self.ignored)
        copy.separators = set(self.separators)
        copy.controls = set(self.controls)
        copy.states = list(self.states)
        copy.transitions = list(self.transitions)
        copy.spellings = dict(self.spellings)
        copy.returns = dict(self.returns)
        copy.objects = dict(self.objects)
        copy.recoveries = list(self.recoveries)
        copy.names = dict(self.names)
        copy.prose = set(self.prose)
        copy.closes = dict(self.closes)
        copy.syntax = self.syntax
        copy.opener = self.opener
        return copy

    # reading

    def _state_names(self):
        return [name for name, _ in self.states]

    def _terminal_names(self):
        return [name for name, _ in self.terminals]

    def next(self, from_state, terminal):
        """The state a terminal leads to from a state (first matching row), or None: it is text."""
        for row_from, row_terminal, row_to in self.transitions:
            if row_from == from_state and row_terminal == terminal:
                return row_to
        return None

    def validate(self):
        """Raises FormatError with the reference's text when the table cannot run (the check the
        native Table makes too, on what it is built from)."""
        _native.check_table(self.name, [debug_quote(name) for name, _ in self.states],
                            [int(e) for _, e in self.states],
                            [debug_quote(name) for name, _ in self.terminals],
                            [text for _, text in self.terminals], self.syntax is not None, self.opener,
                            self._rows(), self._closes())

    def _closes(self):
        """Per state, the number of the state a damaged close tag it holds leads to, or -1."""
        state_index = {name: i for i, (name, _) in enumerate(self.states)}
        return [state_index[self.closes[state]] if state in self.closes else -1 for state, _ in self.states]

    def _rows(self):
        """Per state, per terminal, the number of the state its row leads to, or -1 (no row)."""
        state_index = {name: i for i, (name, _) in enumerate(self.states)}
        terminal_names = self._terminal_names()
        return [[state_index[self.next(state, t)] if self.next(state, t) is not None else -1 for t in terminal_names]
                for state, _ in self.states]

    def compile(self):
        """The native table (validated; compiled once and cached)."""
        if self._compiled is None:
            self.validate()
            state_index = {name: i for i, (name, _) in enumerate(self.states)}
            terminal_names = self._terminal_names()
            rows = self._rows()
            controls = {text for name, text in self.terminals if name in self.controls}
            syntax = (self.syntax.native(self.syntax.call_ends(self), self.syntax.header_ends(self), controls,
                                         self.syntax.call_starts(self), self.syntax.call_openers(self))
                      if self.syntax is not None else None)
            self._compiled = _native.Table(
                self.name,
                [text for _, text in self.terminals],
                [2 if name in self.separators else int(name in self.ignored) for name in terminal_names],
                [int(e) for _, e in self.states],
                rows,
                syntax,
                self.opener,
                controls=[name in self.controls for name in terminal_names],
                after_call=[state_index[self.returns[state]] if state in self.returns else -1
                            for state, _ in self.states],
                objects=[state_index[self.objects[state]] if state in self.objects else -1
                         for state, _ in self.states],
                names=[self.names.get(state) for state, _ in self.states],
                prose_after_calls=[state in self.prose for state, _ in self.states],
                closes=self._closes(),
                end_tag=self.syntax.own_end_tag(self) if self.syntax is not None and self.returns else None,
            )
        return self._compiled

    def __getstate__(self):
        # pickled without its compiled table (native, not picklable; the receiver compiles once)
        state = dict(self.__dict__)
        state["_compiled"] = None
        return state

    def __repr__(self):
        return f"Format({self.name!r})"
