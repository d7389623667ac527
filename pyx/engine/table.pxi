# A format table compiled into the flat arrays the engine runs (built by symphony.format).

cdef enum Ignored:
    IG_NOT = 0
    IG_DROPPED = 1       # dropped wherever it stands
    IG_SEPARATOR = 2     # written before tags: dropped there and where calls are read, else text


cpdef enum Emits:
    # What text in a state becomes (SPEC §2.1); symphony.format.Emits names them for Python.
    EM_CONTENT = 0
    EM_REASONING = 1
    EM_ARGUMENTS = 2     # fed to the call assembler
    EM_WRAPPER = 3       # whitespace Dropped{Wrapper}, anything else Malformed
    EM_HIDDEN = 4        # all text Dropped{Wrapper}: a message not for the user (Muse Spark's to=developer)
    EM_DAMAGED_MARKER = 5  # held: a damaged marker (Engine.damaged_text), dropped if the table goes on
                           # into a call or a block, else the text of the state it was written in


def check_table(str name, state_labels, emits, terminal_labels, terminal_texts, bint has_syntax, opener,
                transitions=(), closes=()):
    """Raises FormatError (the reference's texts, SPEC §2.1) when a table cannot run; the one
    check behind both `Format.validate` and the native `Table` (labels: how the messages name
    states and terminals; transitions: per state, per terminal, the next state or -1; closes: per
    state, where a damaged close tag it holds leads, or -1: a block leads into it)."""
    if len(emits) == 0:
        raise FormatError(f"format {name}: a table with no state")
    if emits[0] == EM_REASONING:
        raise FormatError(f"format {name}: the first state {state_labels[0]} emits reasoning; "
                          "a thought the output starts inside is entered by the prompt")
    if emits[0] == EM_DAMAGED_MARKER:
        raise FormatError(f"format {name}: the first state {state_labels[0]} holds a damaged marker; "
                          "only content or a thought leads into one")
    if not has_syntax and any(e == EM_ARGUMENTS for e in emits):
        raise FormatError(f"format {name}: an arguments state with no call syntax")
    for label, text in zip(terminal_labels, terminal_texts):
        if not text:
            raise FormatError(f"format {name}: terminal {label} has no text")
    for s, row in enumerate(transitions):
        for nxt in row:
            if (0 <= nxt < len(emits) and emits[nxt] == EM_DAMAGED_MARKER and nxt != s
                    and emits[s] != EM_CONTENT and emits[s] != EM_REASONING
                    and not (emits[s] == EM_WRAPPER and nxt < len(closes) and closes[nxt] >= 0)):
                raise FormatError(f"format {name}: a row from {state_labels[s]} into the damaged-marker state "
                                  f"{state_labels[nxt]}; only content or a thought leads into one")
    if opener is not None and (type(opener) is not str or not opener):
        raise FormatError(f"format {name}: an empty turn opener" if type(opener) is str
                          else f"format {name}: the turn opener must be a str, not {type(opener).__name__}")


@cython.final
@cython.no_gc
cdef class Table:
    """A compiled format: markers, what each state emits, transitions, call syntax, turn opener."""
    cdef readonly str name
    cdef readonly MarkerSet markers
    cdef readonly int n_states
    cdef readonly int n_terminals
    cdef int* emits                 # per state
    cdef int* next_state            # [state * n_terminals + terminal] -> state, -1 if no row
    cdef int* ignored               # per terminal: an Ignored
    cdef bint* control              # per terminal: a control token of the family (dropped where no row reads it)
    cdef int* after_call            # per state: where an arguments state goes once its call ended
                                    # by its own end tag, or -1 (it stays: what follows is wrapping)
    cdef bint* in_region            # per state: part of a call region (see call_region_state)
    cdef int* objects               # per state: for a block (a wrapper state), the arguments state a
                                    # `{` opens where a call may begin in it, or -1 (see Format.reads_objects)
    cdef bint* object_call          # per state: its call is a JSON call object (some block opens it)
    cdef unsigned char* name_bytes  # per state, 256 entries: the bytes of the name a damaged-marker state
                                    # holds after its mark (Format.holds_name); NULL where none holds one
    cdef bint* holds_name           # per state: it holds a mark and a name, not a damaged tag
    cdef int* closes                # per state: where a damaged close tag it holds leads as its block's
                                    # close (Format.closes_block), or -1
    cdef bint* prose_after_calls    # per state: the prose after calls written without their block, which
                                    # a region that held no call does not enter (Format.prose_after_calls)
    cdef readonly Syntax syntax     # None when no state emits arguments
    cdef readonly bytes end_tag     # the tag a call's assembler reads as its end where no marker
                                    # spells it (a tagged call's `</function>`), or b""
    cdef readonly object opener     # str or None
    cdef str seed_text              # the last short prompt tail replayed (Engine.seed), or None
    cdef int seed_state             # and the state it seeds
    cdef str seed_prompt            # the last short prompt seeded, as given (before its tail is cut)
    cdef int seed_prompt_state      # and the state it seeds

    def __cinit__(self, str name, terminals, ignored, emits, transitions, Syntax syntax, opener, controls=None,
                  after_call=None, objects=None, names=None, prose_after_calls=None,
                  closes=None, end_tag=None):
        cdef int s, t
        self.name = name
        self.markers = MarkerSet(terminals)
        self.n_terminals = len(terminals)
        self.n_states = len(emits)
        for s in range(self.n_states):
            if not EM_CONTENT <= emits[s] <= EM_DAMAGED_MARKER:
                raise ValueError(f"table {name}: state {s} emits {emits[s]!r}")
        if controls is None:
            controls = [False] * self.n_terminals
        if (len(ignored) != self.n_terminals or len(controls) != self.n_terminals
                or len(transitions) != self.n_states):
            raise ValueError(f"table {name}: arrays of the wrong size")
        check_table(name, [f"#{s}" for s in range(self.n_states)], emits,
                    [f"#{t}" for t in range(self.n_terminals)], terminals, syntax is not None, opener, transitions,
                    closes or ())
        self.emits = <int*>malloc(self.n_states * sizeof(int))
        self.next_state = <int*>malloc((self.n_states * self.n_terminals + 1) * sizeof(int))
        self.ignored = <int*>malloc((self.n_terminals + 1) * sizeof(int))
        self.control = <bint*>malloc((self.n_terminals + 1) * sizeof(bint))
        self.after_call = <int*>malloc(self.n_states * sizeof(int))
        self.in_region = <bint*>malloc(self.n_states * sizeof(bint))
        self.objects = <int*>malloc(self.n_states * sizeof(int))
        self.object_call = <bint*>malloc(self.n_states * sizeof(bint))
        self.holds_name = <bint*>calloc(self.n_states, sizeof(bint))
        self.prose_after_calls = <bint*>calloc(self.n_states, sizeof(bint))
        self.closes = <int*>malloc(self.n_states * sizeof(int))
        if (self.holds_name == NULL or self.closes == NULL or self.prose_after_calls == NULL or self.emits == NULL
                or self.next_state == NULL or self.ignored == NULL or self.control == NULL or self.after_call == NULL
                or self.in_region == NULL or self.objects == NULL or self.object_call == NULL):
            raise MemoryError()
        if after_call is None:
            after_call = [-1] * self.n_states
        if objects is None:
            objects = [-1] * self.n_states
        if prose_after_calls is None:
            prose_after_calls = [False] * self.n_states
        if closes is None:
            closes = [-1] * self.n_states
        if (len(after_call) != self.n_states or len(objects) != self.n_states
                or len(prose_after_calls) != self.n_states or len(closes) != self.n_states):
            raise ValueError(f"table {name}: arrays of the wrong size")
        for s in range(self.n_states):
            self.emits[s] = emits[s]
            self.after_call[s] = after_call[s]
            self.prose_after_calls[s] = bool(prose_after_calls[s])
            self.closes[s] = closes[s]
            if not -1 <= closes[s] < self.n_states or (closes[s] >= 0 and emits[s] != EM_DAMAGED_MARKER):
                raise ValueError(f"table {name}: state {s} closes no block into {closes[s]!r}")
            if self.prose_after_calls[s] and emits[s] != EM_CONTENT:
                raise ValueError(f"table {name}: state {s} shows no prose to go on after calls")
            if not -1 <= after_call[s] < self.n_states or (after_call[s] >= 0 and emits[s] != EM_ARGUMENTS):
                raise ValueError(f"table {name}: state {s} returns to {after_call[s]!r}")
            row = transitions[s]
            if len(row) != self.n_terminals:
                raise ValueError(f"table {name}: transition row {s} of the wrong size")
            for t in range(self.n_terminals):
                self.next_state[s * self.n_terminals + t] = row[t]
                if not -1 <= row[t] < self.n_states:
                    raise ValueError(f"table {name}: transition to no state {row[t]!r}")
        for t in range(self.n_terminals):
            self.ignored[t] = IG_SEPARATOR if ignored[t] == IG_SEPARATOR else IG_DROPPED if ignored[t] else IG_NOT
            self.control[t] = bool(controls[t])
        for s in range(self.n_states):
            self.in_region[s] = self.call_region_state(s)
            self.object_call[s] = False
        for s in range(self.n_states):
            self.objects[s] = objects[s]
            if objects[s] == -1:
                continue
            if (not 0 <= objects[s] < self.n_states or emits[s] != EM_WRAPPER or not self.in_region[s]
                    or emits[objects[s]] != EM_ARGUMENTS or after_call[objects[s]] != s):
                raise ValueError(f"table {name}: state {s} opens no JSON call object in {objects[s]!r} (a block "
                                 "opens one in an arguments state that returns to it)")
            self.object_call[objects[s]] = True
        if names is None:
            names = [None] * self.n_states
        if len(names) != self.n_states:
            raise ValueError(f"table {name}: arrays of the wrong size")
        if any(chars is not None for chars in names):
            self.name_bytes = <unsigned char*>calloc(self.n_states * 256, 1)
            if self.name_bytes == NULL:
                raise MemoryError()
        for s in range(self.n_states):
            if names[s] is None:
                continue
            chars = names[s].encode("ascii") if isinstance(names[s], str) and names[s].isascii() else b""
            if emits[s] != EM_DAMAGED_MARKER or not chars:
                raise ValueError(f"table {name}: state {s} holds no name of ASCII bytes {names[s]!r}")
            self.holds_name[s] = True
            for c in chars:
                self.name_bytes[s * 256 + c] = 1
        self.syntax = syntax
        self.opener = opener
        self.end_tag = end_tag.encode() if end_tag else b""

    def __dealloc__(self):
        free(self.emits)
        free(self.next_state)
        free(self.ignored)
        free(self.control)
        free(self.after_call)
        free(self.in_region)
        free(self.objects)
        free(self.object_call)
        free(self.holds_name)
        free(self.closes)
        free(self.prose_after_calls)
        free(self.name_bytes)

    cdef bint call_region_state(self, int start) except -1:
        """Whether state `start` is part of a call region: the stretch a marker opens from the
        content, the thought or the first state to hold calls. That is an arguments state, or a
        block of calls: a wrapper state from which the rows reach an arguments state without
        passing through content, a thought or the first state, and which a row closes back to one
        of them (a wrapper with no way back, such as GigaChat 3's after `<|message_sep|>`, is the
        output's tail, not a block). The first state is never a region's: where the output starts
        among the calls (xLAM, Llama 3) the call syntax itself says what is text."""
        cdef list stack = [start]
        cdef set seen = {start}
        cdef int s, t, nxt
        if start == 0 or self.emits[start] != EM_WRAPPER:
            return start != 0 and self.emits[start] == EM_ARGUMENTS
        for t in range(self.n_terminals):
            nxt = self.next_state[start * self.n_terminals + t]
            if nxt == 0 or (nxt > 0 and self.emits[nxt] != EM_WRAPPER and self.emits[nxt] != EM_ARGUMENTS):
                break
        else:
            return False
        while stack:
            s = stack.pop()
            if self.emits[s] == EM_ARGUMENTS:
                return True
            if self.emits[s] != EM_WRAPPER:
                continue
            for t in range(self.n_terminals):
                nxt = self.next_state[s * self.n_terminals + t]
                if nxt > 0 and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return False

    @property
    def call_region_states(self):
        """The states (their numbers) that make up the table's call regions (`call_region_state`)."""
        return tuple(s for s in range(self.n_states) if self.in_region[s])

    cdef inline int next(self, int state, int terminal) noexcept:
        return self.next_state[state * self.n_terminals + terminal]

    def reads_as_content(self, str text not None):
        """Whether a parser of this table, from its first state, reads all of `text` as content:
        that state shows content and no marker of the table occurs in the text (so the text is
        one run of content, and nothing else). What an engine's "does this hold a call" asks."""
        cdef Py_ssize_t n, where, length
        cdef const unsigned char* p = utf8_of(text, &n, "text")
        if self.emits[0] != EM_CONTENT:
            return False
        return sc_search(&self.markers.t, p, 0, n, n, False, &where, &length) == SC_TEXT
