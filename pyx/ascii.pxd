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
    APOSTROPHE = 39       # '
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
    UPPER_U = 85
    LBRACKET = 91
    BACKSLASH = 92
    RBRACKET = 93
    UNDERSCORE = 95
    BACKTICK = 96         # `
    LOWER_E = 101
    LBRACE = 123
    RBRACE = 125
