# Header-only: the byte values the state machines compare against, by name.

cdef enum:
    BELL = 7
    BACKSPACE = 8
    TAB = 9
    LF = 10
    VTAB = 11
    FF = 12
    CR = 13
    SPACE = 32
    QUOTE = 34            # "
    HASH = 35             # #
    AMPERSAND = 38        # &
    APOSTROPHE = 39       # '
    ASTERISK = 42         # *
    LPAREN = 40
    RPAREN = 41
    PLUS = 43
    COMMA = 44
    MINUS = 45
    DOT = 46
    SLASH = 47
    DIGIT_0 = 48
    DIGIT_7 = 55
    DIGIT_9 = 57
    COLON = 58
    SEMICOLON = 59        # ;
    LESS = 60             # <
    EQUALS = 61
    GREATER = 62          # >
    UPPER_E = 69
    UPPER_F = 70
    UPPER_I = 73
    UPPER_N = 78
    UPPER_T = 84
    UPPER_U = 85
    LBRACKET = 91
    BACKSLASH = 92
    RBRACKET = 93
    UNDERSCORE = 95
    BACKTICK = 96         # `
    LOWER_E = 101
    LOWER_N = 110
    LOWER_X = 120
    LBRACE = 123
    RBRACE = 125


cdef inline bint ascii_iequal(const unsigned char* p, const char* lower, Py_ssize_t n) noexcept nogil:
    """Whether p[0:n] is `lower` (lowercase ASCII, n bytes) in any case of its letters."""
    cdef Py_ssize_t i
    cdef unsigned char c
    for i in range(n):
        c = p[i]
        if 65 <= c <= 90:
            c += 32
        if c != <unsigned char>lower[i]:
            return False
    return True
