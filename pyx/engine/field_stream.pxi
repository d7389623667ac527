# One stream read into an inference engine's delta fields (fields.pxi): what a serving role of
# symphony.integrations keeps per request, fed each delta once, one call per delta.


@cython.final
cdef class FieldStream:
    """An Engine (its table, tools and prompt given already) read delta by delta into an
    inference engine's delta fields by `routes`. `feed(text)` and `end(finish)` give
    (content, reasoning, calls), a field None where nothing shows, calls a list of (index, name,
    arguments, id) per call the feed touched (the name and id in the feed that started the call,
    else None),
    or None when the feed shows nothing: Sink.fields, with no event made. Once a FIELD_REST route
    is met (`ended`), the rest of that feed and what the parser held are content, and every
    later delta's text is passed on as content unread."""
    cdef Engine engine
    cdef FieldRoutes routes
    cdef readonly bint ended

    def __cinit__(self, Engine engine not None, FieldRoutes routes not None):
        self.engine = engine
        self.routes = routes

    @cython.binding(False)      # a plain METH_O method: the per-delta call parses no arguments
    def feed(self, text):
        """The fields of one delta's text (a str; fed as `Engine.feed_token` feeds one token)."""
        cdef str piece = <str>text if type(text) is str else text_of(text, "FieldStream.feed: text")
        if self.ended:
            return (piece, None, None) if piece else None
        return self.engine.piece_fields(piece, self.routes, &self.ended)

    def end(self, str finish="stop"):
        """The fields of the end of the stream (what the parser still held)."""
        if self.ended:
            return None
        return self.engine.end_fields(finish, self.routes, &self.ended)
