# Many outputs' texts as one buffer of UTF-8 bytes and n + 1 offsets into it: what an Arrow string
# column is, and what symphony.batch ships to a worker process in place of pickled strs. The
# batch loop (fold_summaries) parses each output from its bytes where they lie: no str is made of
# it on either side, and none is encoded back to UTF-8 for the parser.
#
# utf8_layout and utf8_copy lay a list of strs out that way (the caller's side of a shipped chunk).

cdef const unsigned char* U8_NOTHING = <const unsigned char*>""


@cython.final
cdef class Utf8Texts:
    """n texts: text i is data[offsets[i]:offsets[i + 1]], UTF-8.

    data      any buffer (bytes, an mmap, an Arrow buffer), held while this is
    offsets   n + 1 non-decreasing int64 positions within data
    checked   whether the bytes are known to be UTF-8 (laid out from strs); when not (an Arrow
              column: its producer may not have checked), each text is checked as it is read,
              and one that is not UTF-8 is that output's ValueError
    refused   {output index: error text} for texts that had no UTF-8 form when they were laid
              out (a str with a lone surrogate, 0 bytes here): reading one raises that ValueError
    """
    cdef readonly object data
    cdef readonly object offsets
    cdef readonly bint checked
    cdef dict refused
    cdef const unsigned char[::1] view
    cdef const int64_t[::1] at
    cdef Py_ssize_t n

    def __init__(self, data, offsets, bint checked=False, dict refused=None):
        cdef Py_ssize_t bad, size
        self.view = memoryview(data).cast("B")      # (an Arrow buffer's are signed chars)
        self.at = offsets
        self.data, self.offsets = data, offsets
        self.checked = checked
        self.refused = refused or {}
        self.n = self.at.shape[0] - 1
        size = self.view.shape[0]
        if self.n < 0:
            raise ValueError("Utf8Texts: offsets are n + 1 positions (at least one)")
        bad = offsets_out_of_order(<const unsigned char*>&self.at[0], self.n + 1, size)
        if bad >= 0:
            raise ValueError(f"Utf8Texts: offsets must be non-decreasing positions within the "
                             f"{size} bytes of data (offsets[{bad}] is {self.at[bad]})")

    def __len__(self):
        return self.n

    cdef const unsigned char* text_at(self, Py_ssize_t i, Py_ssize_t* n) except NULL:
        """Text i's bytes (n of them); its ValueError when it was refused or is not UTF-8."""
        cdef Py_ssize_t start = self.at[i], bad
        n[0] = self.at[i + 1] - start
        if self.refused and i in self.refused:
            raise ValueError(self.refused[i])
        if n[0] == 0:
            return U8_NOTHING
        if not self.checked:
            bad = u8_invalid_at(&self.view[start], n[0])
            if bad >= 0:
                raise ValueError(f"output: not UTF-8 text (an ill-formed character at byte {bad})")
        return &self.view[start]

    def __getitem__(self, Py_ssize_t i):
        """Text i as a str (its ValueError as `text_at` says)."""
        cdef Py_ssize_t n
        cdef const unsigned char* p
        if not 0 <= i < self.n:
            raise IndexError(f"Utf8Texts index {i} out of range for {self.n} texts")
        p = self.text_at(i, &n)
        return PyUnicode_DecodeUTF8(<const char*>p, n, NULL)


def utf8_layout(list texts, int64_t[::1] offsets):
    """Fills `offsets` (len(texts) + 1) with where each str's UTF-8 bytes would start and end laid
    one after another (an ASCII str's characters are its bytes; another's UTF-8 is made and kept
    on the str, as pickling it would); returns {index: error text} of the strs with no UTF-8 form,
    which take no bytes."""
    cdef Py_ssize_t i, n, count = len(texts)
    cdef dict refused = {}
    cdef object text
    if offsets.shape[0] != count + 1:
        raise ValueError(f"utf8_layout: {offsets.shape[0]} offsets for {count} texts (give n + 1)")
    offsets[0] = 0
    for i in range(count):
        text = texts[i]
        n = 0
        if not isinstance(text, str):
            raise TypeError(f"outputs[{i}] must be a str, not {type(text).__name__}")
        try:
            utf8_of(<str>text, &n, "output")
        except ValueError as e:
            refused[i] = str(e)
            n = 0
        offsets[i + 1] = offsets[i] + n
    return refused


def utf8_copy(list texts, const int64_t[::1] offsets, unsigned char[::1] into):
    """Copies each str's UTF-8 bytes to into[offsets[i]:offsets[i + 1]] (utf8_layout's offsets;
    a text whose length differs from its slot is a ValueError, as is a slot past `into`)."""
    cdef Py_ssize_t i, n, count = len(texts)
    cdef const unsigned char* p
    if offsets.shape[0] != count + 1:
        raise ValueError(f"utf8_copy: {offsets.shape[0]} offsets for {count} texts (give n + 1)")
    for i in range(count):
        if offsets[i + 1] == offsets[i]:
            continue
        if not isinstance(texts[i], str):
            raise TypeError(f"outputs[{i}] must be a str, not {type(texts[i]).__name__}")
        p = utf8_of(<str>texts[i], &n, "output")
        if n != offsets[i + 1] - offsets[i] or offsets[i] < 0 or offsets[i + 1] > into.shape[0]:
            raise ValueError(f"utf8_copy: text {i} does not fit its slot")
        memcpy(&into[offsets[i]], p, n)


def first_not_str(list values):
    """The index of the first item of `values` that is not a str, or -1 (a check of a batch's
    texts with no Python step per item)."""
    cdef Py_ssize_t i
    for i in range(len(values)):
        if not isinstance(values[i], str):
            return i
    return -1
