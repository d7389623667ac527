# Declared (SPEC §5.1): the Kinds a request's tools declare for each function's parameters, read
# once per tool list from the JSON schemas (OpenAI's, Anthropic's, MCP's tool shapes).

# ---- Declared: the Kinds a request's tools declare

cdef object _VT_UNKNOWN_TYPE = object()     # a `type` entry that is not a string


cdef object vt_admitted(object schema):
    """The set of type names `schema` admits (SPEC §5.1): its `type`, the admitted types of its
    anyOf/oneOf members, and, without a `type`, `string` (and `null`) for an enum of strings.
    None when the members nest deeper than VT_SCHEMA_DEPTH or form a cycle: such a schema
    declares nothing. A non-dict admits nothing. Never raises on the schema's shape.

    A walk with an explicit stack. A dict shared by several members is read again only where it
    sits deeper than where it was read before (that is where it could be too deep), so the walk
    stays linear in the schema's size times the depth limit."""
    cdef set admitted = set()
    cdef set open_ids = set()     # the dicts on the path being walked (a cycle comes back to one)
    cdef dict read_at = {}        # id of a dict read whole -> the deepest level it was read at
    cdef list work = [(schema, 0, False)]
    cdef int depth
    cdef bint leaving, has_string, only_strings
    while work:
        node, depth, leaving = work.pop()
        if leaving:
            open_ids.discard(id(node))
            read_at[id(node)] = depth
            continue
        if not isinstance(node, dict):
            continue
        if id(node) in open_ids or depth > VT_SCHEMA_DEPTH:
            return None
        if read_at.get(id(node), -1) >= depth:
            continue
        open_ids.add(id(node))
        work.append((node, depth, True))
        if dict.__contains__(node, "type"):
            declared = dict.get(node, "type")
            if isinstance(declared, str):
                admitted.add(declared)
            elif isinstance(declared, (list, tuple)):
                for name in declared:
                    admitted.add(name if isinstance(name, str) else _VT_UNKNOWN_TYPE)
            else:
                admitted.add(_VT_UNKNOWN_TYPE)
        else:
            values = dict.get(node, "enum")
            if isinstance(values, (list, tuple)):
                has_string = False
                only_strings = True
                for value in values:
                    if isinstance(value, str):
                        has_string = True
                    elif value is not None:
                        only_strings = False
                        break
                if has_string and only_strings:
                    admitted.add("string")
                    if None in values:
                        admitted.add("null")
        for members in (dict.get(node, "oneOf"), dict.get(node, "anyOf")):   # anyOf is read first
            if isinstance(members, (list, tuple)):
                for member in reversed(members):
                    work.append((member, depth + 1, False))
    return admitted


# (codes as plain ints: a Kind member here would cost an enum conversion per lookup)
cdef dict _VT_TYPE_KINDS = {"string": <int>KIND_STRING, "integer": <int>KIND_INTEGER,
                            "number": <int>KIND_NUMBER, "array": <int>KIND_ARRAY, "object": <int>KIND_OBJECT}


cdef int vt_kind_of(object schema) except -1:
    """The Kind a parameter's schema declares (SPEC §5.1)."""
    if not isinstance(schema, dict):
        return KIND_NONE             # (a non-dict admits nothing)
    type_name = (<dict>schema).get("type")
    if isinstance(type_name, str) and "anyOf" not in <dict>schema and "oneOf" not in <dict>schema:
        # one type name and no members: most schemas (no walk needed)
        found = _VT_TYPE_KINDS.get(type_name)
        return KIND_NONE if found is None else <int>found
    admitted = vt_admitted(schema)
    if admitted is None:
        return KIND_NONE
    if "string" in admitted:
        return KIND_NULLABLE_STRING if "null" in admitted else KIND_STRING
    if len(admitted) == 1:
        if "integer" in admitted:
            return KIND_INTEGER
        if "number" in admitted:
            return KIND_NUMBER
        if "array" in admitted:
            return KIND_ARRAY
        if "object" in admitted:
            return KIND_OBJECT
    if len(admitted) == 2 and "integer" in admitted and "number" in admitted:
        return KIND_NUMBER           # (an integer is a number)
    return KIND_NONE


cdef object vt_member_search(object schema, str key, object segment):
    """Where a path step from `schema` lands: its `items` (segment None) or its
    `properties[segment]`, found in the schema itself or, outermost first, in its anyOf then
    oneOf members; a dict, or None when there is none. `$ref` is not followed."""
    cdef list level, below
    cdef set seen
    cdef int depth = 0
    if isinstance(schema, dict):      # found in the schema itself (most steps): no walk
        found = (<dict>schema).get(key)
        if segment is not None:
            found = (<dict>found).get(segment) if isinstance(found, dict) else None
        if isinstance(found, dict):
            return found
    level, seen = [schema], set()
    while level and depth <= VT_SCHEMA_DEPTH:
        below = []
        for node in level:
            if not isinstance(node, dict) or id(node) in seen:
                continue
            seen.add(id(node))
            found = dict.get(node, key)
            if segment is not None:
                found = dict.get(found, segment) if isinstance(found, dict) else None
            if isinstance(found, dict):
                return found
            for members in (dict.get(node, "anyOf"), dict.get(node, "oneOf")):
                if isinstance(members, (list, tuple)):
                    below.extend(members)
        level = below
        depth += 1
    return None


cdef int vt_read_as(int kind, object schema) except -1:
    """What a string written for a value of `schema` (of Kind `kind`) is read as (vt_string_read_as):
    its Kind where that is a number, an integer, an array or an object; VT_AS_BOOLEAN where the
    schema admits a boolean and no other type but null; else 0 (the string it is). `schema` is read
    only where `kind` is KIND_NONE."""
    if kind == KIND_INTEGER or kind == KIND_NUMBER or kind == KIND_ARRAY or kind == KIND_OBJECT:
        return kind
    if kind != KIND_NONE:
        return 0
    admitted = vt_admitted(schema)
    if admitted and "boolean" in admitted and admitted <= {"boolean", "null"}:
        return VT_AS_BOOLEAN
    return 0


cdef object vt_schema_step(object schema, str segment):
    """One step of a path below a schema (SPEC §5.1 kind_at): under a schema that admits `array`
    to its `items`, whatever the segment; else to `properties[segment]`. None: nowhere."""
    cdef bint array
    type_name = (<dict>schema).get("type") if isinstance(schema, dict) else None
    if isinstance(type_name, str) and "anyOf" not in <dict>schema and "oneOf" not in <dict>schema:
        array = type_name == "array"           # one type name and no members (as vt_kind_of)
    else:
        admitted = vt_admitted(schema)
        array = admitted is not None and "array" in admitted
    if array:
        return vt_member_search(schema, "items", None)
    return vt_member_search(schema, "properties", segment)


cdef object vt_tool_function(object tool):
    """A tool's function dict (`tool["function"]`, or the tool itself when it has none), or None
    when either is no dict."""
    if not isinstance(tool, dict):
        return None
    function = dict.get(tool, "function", tool)
    return function if isinstance(function, dict) else None


# where a tool's function gives its parameters schema, in the order they are looked for: OpenAI's,
# Anthropic's, MCP's (symphony.grammar reads tools by the same keys)
TOOL_SCHEMA_KEYS = ("parameters", "input_schema", "inputSchema")


cdef object vt_tool_parameters(dict function):
    """A function's parameters schema: the first of TOOL_SCHEMA_KEYS present and not None."""
    for key in TOOL_SCHEMA_KEYS:
        schema = dict.get(function, key)
        if schema is not None:
            return schema
    return None


cdef inline bytes vt_name_bytes(str name):
    """The UTF-8 of a declared or looked-up name (a lone surrogate kept, so it matches nothing
    the model writes)."""
    return name.encode("utf-8", "surrogatepass")


cdef object vt_kind_object(int kind):
    """A Kind code as symphony.value.Kind (None for KIND_NONE), the names the Python API uses."""
    from symphony.value import Kind as PublicKind     # (imported here: symphony.value imports us)
    return None if kind == KIND_NONE else PublicKind(kind)


cdef object vt_utf8_owner(str name, const char** utf8, Py_ssize_t* n):
    """What holds a declared name's UTF-8 (utf8[0:n]): the str itself, or for a name with a lone
    surrogate its surrogatepass bytes, which nothing the model writes can match."""
    utf8[0] = PyUnicode_UTF8_cached(name, n)
    if utf8[0] != NULL:
        return name
    PyErr_Clear()
    cdef bytes raw = vt_name_bytes(name)
    utf8[0] = <const char*>raw
    n[0] = len(raw)
    return raw


cdef inline Py_ssize_t vt_name_index(const char** names, const Py_ssize_t* lens, Py_ssize_t count,
                                     const unsigned char* name, Py_ssize_t n) noexcept:
    """The first of `count` UTF-8 names that is name[0:n], or -1."""
    cdef Py_ssize_t i
    for i in range(count):
        if lens[i] == n and memcmp(names[i], name, n) == 0:
            return i
    return -1


cdef enum:
    FK_SMALL = 32       # a schema of at most this many properties is read into C arrays


@cython.final
@cython.internal
cdef class FunctionKinds:
    """One declared function: its parameters schema, and the Kind of each parameter looked up so
    far (read from the schema the first time a call names it). A schema of few properties keeps
    their names' UTF-8 in C arrays, compared where they are (a lookup makes no object); a larger
    one is looked up by name in a dict."""
    cdef object parameters
    cdef object properties       # parameters["properties"] when it is a dict, else None
    cdef Py_ssize_t count        # the properties in the arrays below, or -1: too many (the dict)
    cdef const char* name_at[FK_SMALL]
    cdef Py_ssize_t name_len[FK_SMALL]
    cdef int kind_of[FK_SMALL]   # each one's Kind code, -1 until a call writes it
    cdef list held               # each one's name (the owner of the UTF-8)
    cdef list schemas            # and its schema
    cdef dict kinds              # (more properties) UTF-8 of a parameter name -> its Kind code

    @staticmethod
    cdef FunctionKinds of(object parameters):
        """The function whose parameters schema is `parameters` (made without an argument tuple)."""
        cdef FunctionKinds function = FunctionKinds.__new__(FunctionKinds)
        function.parameters = parameters
        if isinstance(parameters, dict):
            properties = dict.get(parameters, "properties")
            if isinstance(properties, dict):
                function.properties = properties
                if len(<dict>properties) <= FK_SMALL:
                    function.read_small(<dict>properties)
                else:
                    function.count = -1
                    function.kinds = {}
        return function

    cdef int read_small(self, dict properties) except -1:
        cdef const char* utf8
        cdef Py_ssize_t n
        self.held = []
        self.schemas = []
        for name, schema in properties.items():
            if not isinstance(name, str):
                continue                # (no text the model writes is such a key)
            self.held.append(vt_utf8_owner(name, &utf8, &n))
            self.schemas.append(schema)
            self.name_at[self.count] = utf8
            self.name_len[self.count] = n
            self.kind_of[self.count] = -1
            self.count += 1
        return 0

    cdef int kind(self, const unsigned char* key, Py_ssize_t n) except -1:
        """The Kind declared for parameter p[0:n] (KIND_NONE when none is)."""
        cdef Py_ssize_t i
        if self.count >= 0:
            i = vt_name_index(self.name_at, self.name_len, self.count, key, n)
            if i < 0:
                return KIND_NONE
            if self.kind_of[i] < 0:
                self.kind_of[i] = vt_kind_of(self.schemas[i])
            return self.kind_of[i]
        cdef bytes name = PyBytes_FromStringAndSize(<const char*>key, n)
        found = self.kinds.get(name)
        if found is not None:
            return <int>found
        kind = vt_kind_of(dict.get(self.properties, PyUnicode_DecodeUTF8(<const char*>key, n, "surrogatepass")))
        self.kinds[name] = kind
        return kind


    cdef bint declares(self, const unsigned char* key, Py_ssize_t n) except -1:
        """Whether the schema's properties name the parameter p[0:n]."""
        if self.count >= 0:
            return vt_name_index(self.name_at, self.name_len, self.count, key, n) >= 0
        return PyUnicode_DecodeUTF8(<const char*>key, n, "surrogatepass") in self.properties

    cdef int text_words(self, const unsigned char* key, Py_ssize_t n) except -1:
        """The JSON words (VT_WORD_* bits) the declared parameter p[0:n] does not admit where its
        schema admits a string: a value marked as JSON that is one of them is its text
        (vt_word_as_text). 0 when it is not declared, admits no string, or names a type it cannot
        be read by."""
        cdef int kind, words = 0
        if self.properties is None or not self.declares(key, n):
            return 0
        kind = self.kind(key, n)
        if kind != KIND_STRING and kind != KIND_NULLABLE_STRING:
            return 0
        admitted = self.admitted(key, n)
        if not admitted or _VT_UNKNOWN_TYPE in admitted:
            return 0
        if "null" not in admitted:
            words |= VT_WORD_NULL
        if "boolean" not in admitted:
            words |= VT_WORD_BOOLEAN
        return words

    cdef bint declares_keys(self, const unsigned char* obj, Py_ssize_t n, ByteBuf* scratch) except -1:
        """Whether the schema's properties name every own key of obj[0:n], one whole strict JSON
        object (`scratch` takes a key written with escapes, decoded)."""
        cdef Py_ssize_t at = 0, end, key_len
        cdef const unsigned char* key
        while True:
            at = jt_next_key(obj, n, at, &end)
            if at < 0:
                return True
            key, key_len = obj + at, end - at
            if memchr(key, BACKSLASH, key_len) != NULL:
                scratch.len = 0
                if jt_decode_string(key, key_len, scratch) != 0:
                    return False
                key, key_len = scratch.data, scratch.len
            if not self.declares(key, key_len):
                return False
            at = end + 1

    cdef int string_read_as(self, const unsigned char* key, Py_ssize_t n) except -1:
        """What a JSON string written for the declared parameter p[0:n] is read as (vt_read_as)."""
        if self.properties is None or not self.declares(key, n):
            return 0
        cdef int kind = self.kind(key, n)
        if kind != KIND_NONE:
            return vt_read_as(kind, None)       # (the schema is read only where no Kind is declared)
        return vt_read_as(kind, dict.get(self.properties, PyUnicode_DecodeUTF8(<const char*>key, n, "surrogatepass")))

    cdef bint admits_text(self, const unsigned char* key, Py_ssize_t n) except -1:
        """Whether a string is a value the parameter p[0:n] may take: it is not declared, or its
        schema admits `string`, or it names no type it can be read by (no `type`, a cycle)."""
        cdef int kind
        if not self.declares(key, n):
            return True
        kind = self.kind(key, n)
        if kind == KIND_STRING or kind == KIND_NULLABLE_STRING:
            return True
        if kind != KIND_NONE:
            return False
        admitted = self.admitted(key, n)
        return not admitted or "string" in admitted or _VT_UNKNOWN_TYPE in admitted

    cdef object admitted(self, const unsigned char* key, Py_ssize_t n):
        """The types the declared parameter p[0:n]'s schema admits (vt_admitted)."""
        return vt_admitted(dict.get(self.properties, PyUnicode_DecodeUTF8(<const char*>key, n, "surrogatepass")))


cdef inline object vt_tool_list(object tools):
    """The tools as a Declared reads them: a list or tuple as given, anything else as none."""
    return tools if isinstance(tools, (list, tuple)) else ()


@cython.final
cdef class Declared:
    """The parameter Kinds a request's tools declare, by function name (SPEC §5.1), from
    OpenAI-style tools (`{"type": "function", "function": {"name", "parameters"}}`, or the inner
    `{"name", "parameters"}` itself, as the Responses API writes it), Anthropic's
    `{"name", "input_schema"}` or MCP's `{"name", "inputSchema"}`; the first tool of a name wins;
    anything malformed is skipped and never raises. Read lazily: the tools' names when a call
    first names a function (each name's UTF-8 kept in a C array, compared where it is: a call's
    lookup makes no object), a function's parameters when a call first names it, a parameter's
    Kind when a call first writes it, so a parse pays only for what its calls use."""
    cdef object tools            # the tools as given (a list or tuple), or ()
    cdef bint compiled           # the names below are read
    cdef Py_ssize_t count
    cdef const char** name_at    # count UTF-8 names, in the tools' order (pointing into `held`)
    cdef Py_ssize_t* name_len
    cdef list held               # per name: its UTF-8 owner (the str, or its surrogatepass bytes)
    cdef list functions          # per name: its function dict
    cdef list kinds              # per name: its FunctionKinds once a call named it, else None

    def __cinit__(self, tools=None):
        self.tools = vt_tool_list(tools)
        self.name_at = NULL
        self.name_len = NULL

    @staticmethod
    cdef Declared of(object tools):
        """Declared(tools), made without an argument tuple (one per parser that opens a call)."""
        cdef Declared declared = Declared.__new__(Declared)
        declared.tools = vt_tool_list(tools)
        return declared

    def __dealloc__(self):
        free(self.name_at)
        free(self.name_len)

    cdef int compile(self) except -1:
        """Reads every tool's name (a tool without a str name is skipped). The arrays are filled
        aside and put in place last, in C: Python code the reading may run (a tools list's own
        __iter__, a name's own encode) cannot see, or free, half-made arrays."""
        cdef tuple tools = tuple(self.tools)
        cdef Py_ssize_t size = max(1, len(tools)), count = 0
        cdef const char** name_at = <const char**>malloc(size * sizeof(const char*))
        cdef Py_ssize_t* name_len = <Py_ssize_t*>malloc(size * sizeof(Py_ssize_t))
        cdef list held = [], functions = []
        try:
            if name_at == NULL or name_len == NULL:
                raise MemoryError()
            for tool in tools:
                function = vt_tool_function(tool)
                if function is None:
                    continue
                name = dict.get(function, "name")
                if not isinstance(name, str):
                    continue
                held.append(vt_utf8_owner(name, &name_at[count], &name_len[count]))
                functions.append(function)
                count += 1
        except BaseException:
            free(name_at)
            free(name_len)
            raise
        free(self.name_at)
        free(self.name_len)
        self.name_at = name_at
        self.name_len = name_len
        self.held = held
        self.functions = functions
        self.kinds = [None] * count
        self.count = count
        self.compiled = True
        return 0

    cdef Py_ssize_t find(self, const unsigned char* name, Py_ssize_t n) except -2:
        """The index of the first tool named name[0:n], or -1."""
        if not self.compiled:
            self.compile()
        return vt_name_index(self.name_at, self.name_len, self.count, name, n)

    cdef bint declares_any(self) except -1:
        """Whether a tool of the request has a name (a call's name can be checked against them)."""
        if not self.compiled:
            self.compile()
        return self.count > 0

    def refuses_none(self, names):
        """Whether checking call names against these tools (undeclared="malformed") refuses none
        of `names` (str): none is refused where no tool has a name."""
        cdef bytes b
        if not self.declares_any():
            return True
        for name in names:
            b = vt_name_bytes(name)
            if self.find(<const unsigned char*>(<char*>b), len(b)) < 0:
                return False
        return True

    cdef bint only_name(self, const unsigned char** name, Py_ssize_t* n) except -1:
        """Whether the request declares exactly one function (however many tools carry its
        name); if so, name[0][0:n[0]] is its name's UTF-8."""
        cdef Py_ssize_t i
        if not self.compiled:
            self.compile()
        if self.count == 0:
            return False
        for i in range(1, self.count):
            if self.name_len[i] != self.name_len[0] or memcmp(self.name_at[i], self.name_at[0], self.name_len[0]):
                return False
        name[0] = <const unsigned char*>self.name_at[0]
        n[0] = self.name_len[0]
        return True

    cdef bint fitting(self, const unsigned char* obj, Py_ssize_t n, ByteBuf* scratch,
                      const unsigned char** name, Py_ssize_t* name_len) except -1:
        """Whether exactly one declared function (the first tool of each name) has parameters that
        name every own key of obj[0:n], one whole strict JSON object; if so name[0][0:name_len[0]]
        is its name's UTF-8. `scratch` takes a key written with escapes, decoded."""
        cdef Py_ssize_t i, found = -1
        if not self.compiled:
            self.compile()
        for i in range(self.count):
            if vt_name_index(self.name_at, self.name_len, i, <const unsigned char*>self.name_at[i],
                             self.name_len[i]) >= 0:
                continue                # (a name seen already: its first function is the one)
            if self.function(<const unsigned char*>self.name_at[i], self.name_len[i]).declares_keys(obj, n, scratch):
                if found >= 0:
                    return False
                found = i
        if found < 0:
            return False
        name[0] = <const unsigned char*>self.name_at[found]
        name_len[0] = self.name_len[found]
        return True

    cdef FunctionKinds function(self, const unsigned char* name, Py_ssize_t n):
        """The declared function named p[0:n], or None (its values are then all inferred)."""
        cdef Py_ssize_t i = self.find(name, n)
        if i < 0:
            return None
        kinds = self.kinds[i]
        if kinds is None:
            kinds = FunctionKinds.of(vt_tool_parameters(self.functions[i]))
            self.kinds[i] = kinds
        return kinds

    cdef FunctionKinds lookup(self, bytes name):
        return self.function(<const unsigned char*>(<char*>name), len(name))

    def kind(self, str function not None, str param not None):
        """The Kind declared for `param` of `function`, or None when none is."""
        cdef bytes key = vt_name_bytes(param)
        found = self.lookup(vt_name_bytes(function))
        if found is None:
            return None
        return vt_kind_object((<FunctionKinds>found).kind(<const unsigned char*>(<char*>key), len(key)))

    def kind_at(self, str function not None, path):
        """The Kind declared at a path of keys below `function`'s parameters (SPEC §5.1): under a
        schema that admits `array` a step goes to `items` whatever its key, else to
        `properties[key]`. None when nothing is declared there or the path leads nowhere; the
        empty path gives the parameters schema's own Kind."""
        found = self.lookup(vt_name_bytes(function))
        if found is None:
            return None
        schema = (<FunctionKinds>found).parameters
        for segment in path:
            if not isinstance(segment, str):
                raise TypeError(f"a path holds str keys, not {type(segment).__name__}")
            schema = vt_schema_step(schema, segment)
            if schema is None:
                return None
        return vt_kind_object(vt_kind_of(schema))

    def kind_code(self, bytes function not None, bytes param not None):
        """The C-level lookup the call assemblers make, on the UTF-8 of the names: the Kind's
        code, KIND_NONE (0) for an undeclared function or parameter."""
        found = self.function(<const unsigned char*>(<char*>function), len(function))
        if found is None:
            return KIND_NONE
        return (<FunctionKinds>found).kind(<const unsigned char*>(<char*>param), len(param))

    cdef dict names(self):
        """Every declared name's UTF-8, the first function of each."""
        cdef dict first = {}
        cdef Py_ssize_t i
        if not self.compiled:
            self.compile()
        for i in range(self.count):
            key = PyBytes_FromStringAndSize(self.name_at[i], self.name_len[i])
            if key not in first:
                first[key] = self.functions[i]
        return first

    def __contains__(self, function):
        return isinstance(function, str) and vt_name_bytes(function) in self.names()

    def __len__(self):
        return len(self.names())

    def __repr__(self):
        names = [name.decode("utf-8", "surrogatepass") for name in self.names()]
        return f"Declared({names!r})"


cdef bint vt_undeclared(object declared, const unsigned char* name, Py_ssize_t n) except -1:
    """Whether no tool of `declared` (a Declared) is named name[0:n] (the Sink's check of a call
    that starts, for a parser that refuses calls to undeclared tools)."""
    return (<Declared>declared).find(name, n) < 0
