# Reason codes the C side records, and the Python reason objects they stand for (SPEC §1.2).
# Free-text reasons (Other) are listed once here: the enum and the text table stay side by side.

cdef enum DropWhy:
    DR_CONTROL_TOKEN = 0
    DR_WRAPPER = 1
    DR_WHITESPACE = 2

cdef enum MalformedWhy:
    MW_UNTERMINATED = 0
    MW_INVALID_ARGUMENTS = 1
    MW_UNKNOWN_TOOL = 2
    MW_OTHER = 3

cdef enum OtherText:
    OT_NONE = -1
    OT_BLOCK_CLOSED_WITHOUT_CALL = 0
    OT_TEXT_AFTER_OBJECT = 1
    OT_TEXT_BETWEEN_BLOCK_CALLS = 2
    OT_CALL_WITHOUT_NAME = 3
    OT_TEXT_BETWEEN_LIST_CALLS = 4
    OT_TEXT_AFTER_LIST = 5
    OT_HELD_AT_FAILURE = 6
    OT_TEXT_BETWEEN_TAGS = 7
    OT_TAG_WITHOUT_NAME = 8
    OT_SECOND_FUNCTION_TAG = 9
    OT_TAG_OUT_OF_PLACE = 10
    OT_CALL_WITHOUT_FUNCTION_TAG = 11
    OT_TAG_CUT_SHORT = 12
    OT_CLOSED_BEFORE_FUNCTION_TAG = 13
    OT_TEXT_FOR_NAME = 14
    OT_KEY_WITHOUT_TEXT = 15
    OT_BLOCK_WITHOUT_NAME = 16
    OT_TEXT_AFTER_NAME = 17
    OT_INVOKE_CLOSED_EARLY = 18
    OT_CALL_CLOSED_EARLY = 19
    OT_INVOKE_WITHOUT_NAME = 20
    OT_INVOKE_BLOCK_WITHOUT_NAME = 21
    OT_NOT_A_CALL_START = 22
    OT_NAME_WITHOUT_CALL = 23
    OT_NOT_AN_ARGUMENT_START = 24
    OT_KEY_WITHOUT_VALUE = 25
    OT_ARGUMENT_CUT_SHORT = 26
    OT_AFTER_ARGUMENTS = 27
    OT_NOT_A_LIST = 28
    OT_WHERE_A_CALL_OR_END = 29
    OT_WHERE_A_CALL = 30
    OT_WHERE_A_COMMA_OR_END = 31
    OT_AFTER_LIST = 32
    OT_UNPACKED_NOT_A_DICT = 33
    OT_STRING_WITHOUT_ONE_READING = 34
    OT_REGION_WITHOUT_CALL = 35
    OT_NOT_A_LITERAL = 36
    OT_CALL_WITHOUT_ARGUMENTS = 37

_OTHER_TEXTS = (
    "a tool-call block that closed without a complete call",
    "text between a call's object and its closing marker",
    "text between a block's calls",
    "a tool call without a name",
    "text between a list's calls",
    "text after the list's end",
    "bytes held when the parser failed",
    "text between a call's tags",
    "a tag without a name",
    "a second function tag inside a call",
    "a tag where the call's syntax has none",
    "a tool call without a function tag",
    "a tag that another tag cut short",
    "a tool-call block that closed before its function tag closed",
    "text where the call's name should be",
    "a key with no text",
    "a call block without a name",
    "text after a tag's name",
    "an invoke that closed before its function name closed",
    "a call that closed before its function name closed",
    "an invoke with no name",
    "an invoke block without a name",
    "text where a call should begin",
    "a name without a call",
    "text where an argument should begin",
    "a key without a value",
    "an argument the call's end cut short",
    "bytes after the arguments",
    "the output is not a list of calls",
    "bytes where a call or the list's end should be",
    "bytes where a call should be",
    "bytes where a comma or the list's end should be",
    "bytes after the list",
    "an unpacked argument that is no dict",
    "a string that no one reading closes",
    "a tool-call region that held no call",
    "an argument whose value is no literal",
    "a tool call without arguments",
)

cdef tuple _DROP_REASONS = (DropReason.CONTROL_TOKEN, DropReason.WRAPPER, DropReason.WHITESPACE)
cdef tuple _MALFORMED_REASONS = (
    MalformedReason.UNTERMINATED_REGION, MalformedReason.INVALID_ARGUMENTS, MalformedReason.UNKNOWN_TOOL)
cdef tuple _OTHER_REASONS = tuple(Other(text) for text in _OTHER_TEXTS)


cdef inline object rs_malformed(int why, int other):
    if why == MW_OTHER:
        return _OTHER_REASONS[other]
    return _MALFORMED_REASONS[why]


cdef object _STOP = FinishReason.STOP      # looked up once (an Enum member goes through a __getattr__ hook)


cdef object rs_finish_text(object reason, uint32_t calls):
    """The Chat Completions finish_reason of a Finish reason (symphony.adapt.chat's rule): an
    Other's text, "tool_calls" for a plain stop with calls, else the reason's value; None for none."""
    if reason is None:
        return None
    if type(reason) is Other:
        return (<object>reason).text
    if reason is _STOP:
        return "tool_calls" if calls > 0 else "stop"
    return (<object>reason).value
