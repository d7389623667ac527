"""Utf8Texts (many outputs' texts as one UTF-8 buffer and offsets, parsed where the bytes lie) and
symphony.batch.utf8_columns: the well-formedness check says what Python's decoder says, byte for byte;
strs and Arrow columns lay out and read back as they were (a str with no UTF-8 form refused with
the error parsing it gives); folding the texts from the buffer gives the rows folding the strs
gives, for every table's generated outputs; bad offsets are refused."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symphony
from symphony import batch
from symphony.batch import utf8_columns
from symphony.parser import Utf8Texts, first_not_str, fold_summaries, utf8_copy, utf8_layout
from tests.strategies import outputs


def laid(texts):
    """Utf8Texts of strs, through utf8_layout/utf8_copy into a bytearray."""
    offsets = np.empty(len(texts) + 1, np.int64)
    refused = utf8_layout(texts, offsets)
    data = bytearray(int(offsets[-1]))
    utf8_copy(texts, offsets, data)
    return Utf8Texts(data, offsets, True, refused)


def decode_error(raw):
    """Where Python's strict UTF-8 decoder stops on `raw`, or None when it decodes."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    return None


SHARP = [b"", b"a" * 9, "é€😀".encode(), b"\x80", b"\xc0\xaf", b"\xc2", b"\xe0\x80\xaf", b"\xed\xa0\x80",
         b"\xed\x9f\xbf", b"\xf0\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xf5\x80\x80\x80",
         b"\xff", b"abcdefgh\xe2\x82", b"abcdefg\xe2\x82\xac", "x" * 15 + "é"]


@pytest.mark.parametrize("raw", SHARP)
def test_the_check_stops_where_python_does_on_sharp_cases(raw):
    raw = raw.encode() if isinstance(raw, str) else raw
    check_like_python(raw)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=40) | st.text(max_size=20).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_the_check_stops_where_python_does(raw):
    check_like_python(raw)


def check_like_python(raw):
    texts = Utf8Texts(raw, np.array([0, len(raw)], np.int64))
    at = decode_error(raw)
    if at is None:
        assert texts[0] == raw.decode()
    else:
        with pytest.raises(ValueError, match=rf"output: not UTF-8 text \(an ill-formed character at byte {at}\)"):
            texts[0]
    assert Utf8Texts(raw, np.array([0, len(raw)], np.int64), checked=True).checked


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=12))
def test_strs_lay_out_and_read_back(texts):
    got = laid(texts)
    assert len(got) == len(texts) and [got[i] for i in range(len(got))] == texts
    assert bytes(got.data) == "".join(texts).encode()


def test_a_str_with_no_utf8_form_is_refused_as_parsing_it_refuses():
    texts = ["ok", "lone \udc80 surrogate", ""]
    got = laid(texts)
    with pytest.raises(ValueError) as parsed:
        symphony.parse("plain", texts[1])
    with pytest.raises(ValueError, match=str(parsed.value).replace("(", r"\(").replace(")", r"\)")):
        got[1]
    assert (got[0], got[2], int(got.offsets[2] - got.offsets[1])) == ("ok", "", 0)


def test_bad_offsets_and_arguments_are_refused():
    for offsets in ([], [1, 0], [0, 5], [-1, 2], [0, 3, 2]):
        with pytest.raises(ValueError, match="Utf8Texts: offsets"):
            Utf8Texts(b"abcd", np.array(offsets, np.int64))
    texts = laid(["a", "b"])
    with pytest.raises(IndexError):
        texts[2]
    with pytest.raises(ValueError, match="3 offsets for 1 texts"):
        utf8_layout(["a"], np.empty(3, np.int64))
    with pytest.raises(TypeError, match=r"outputs\[1\] must be a str, not int"):
        utf8_layout(["a", 5], np.empty(3, np.int64))
    with pytest.raises(ValueError, match="does not fit its slot"):
        utf8_copy(["abc"], np.array([0, 3], np.int64), bytearray(2))
    class Text(str):
        pass
    assert (first_not_str([]), first_not_str(["a", Text("b")]), first_not_str(["a", b"b", None])) == (-1, -1, 1)
    with pytest.raises(TypeError, match=r"outputs\[1\] must be a str, not bytes"):
        batch.parse_many("plain", ["a", b"b"])
    with pytest.raises(TypeError, match="texts must be a list of str or a Utf8Texts"):
        fold_summaries([], [], [], ("a",), [])


@settings(max_examples=settings.default.max_examples, deadline=None)
@given(st.sampled_from(symphony.formats()), st.data())
def test_folding_the_bytes_gives_what_folding_the_strs_gives(table, data):
    texts = data.draw(st.lists(outputs(table), min_size=1, max_size=4))
    n = len(texts)
    compiled = [batch._compiled(table)] * n
    args = (compiled, [None] * n, [None] * n)
    want = fold_summaries(*args, texts, ["stop"] * n, None, None, batch.error_text)
    assert fold_summaries(*args, laid(texts), ["stop"] * n, None, None, batch.error_text) == want
    unchecked = laid(texts)
    unchecked = Utf8Texts(unchecked.data, unchecked.offsets, False)
    assert fold_summaries(*args, unchecked, ["stop"] * n, None, None, batch.error_text) == want


pa = pytest.importorskip("pyarrow")


@pytest.mark.parametrize("make", [pa.array, lambda t: pa.array(t, type=pa.large_string()),
                                  lambda t: pa.chunked_array([t[:2], t[2:]]), lambda t: pa.chunked_array([t]),
                                  lambda t: pa.array(t)[1:4]])
def test_an_arrow_column_is_read_where_its_bytes_are(make, tmp_path):
    texts = ["<tool_call>", "", "caf\u00e9 \U0001f600", "x" * 100, "end"]
    column = make(texts)
    want = column.to_pylist()
    got = utf8_columns.of_arrow(column)
    assert [got[i] for i in range(len(got))] == want and not got.checked
    path = str(tmp_path / "texts")
    assert utf8_columns.write(path, column) == (False, {})
    again = utf8_columns.read(path, False, {})
    assert [again[i] for i in range(len(again))] == want


def test_an_arrow_output_that_is_not_utf8_is_its_own_error():
    data = b"good" + b"\xff\xfe" + b"fine"
    column = pa.Array.from_buffers(pa.string(), 3, [None, pa.py_buffer(np.array([0, 4, 6, 10], np.int32)),
                                                    pa.py_buffer(data)])
    got = batch.parse_many("plain", column, errors="keep")
    assert got[0]["message"]["content"] == "good" and got[2]["message"]["content"] == "fine"
    assert got[1] == {"error": "ValueError: output: not UTF-8 text (an ill-formed character at byte 0)"}
    table = batch.parse_many("plain", column, errors="keep", as_arrow=True, workers=2)
    assert table.column("error").to_pylist()[1] == got[1]["error"]
    with pytest.raises(ValueError, match="not UTF-8 text"):
        batch.parse_many("plain", column)


def test_a_file_is_given_its_space_ahead_or_only_its_length(tmp_path, monkeypatch):
    """Space taken up front (a full /dev/shm is an OSError, not a SIGBUS in the mapped write);
    where the file system cannot take it ahead, the file is only made that long; any other
    failure is raised."""
    import errno
    import os
    path = tmp_path / "f"
    with open(path, "w+b") as f:
        utf8_columns.allocate(f.fileno(), 5000)
    assert os.path.getsize(path) == 5000

    def refuse(code):
        def posix_fallocate(fd, offset, size):
            raise OSError(code, os.strerror(code))
        return posix_fallocate
    monkeypatch.setattr(os, "posix_fallocate", refuse(errno.EOPNOTSUPP))
    with open(path, "w+b") as f:
        utf8_columns.allocate(f.fileno(), 300)
    assert os.path.getsize(path) == 300
    monkeypatch.setattr(os, "posix_fallocate", refuse(errno.ENOSPC))
    with open(path, "w+b") as f, pytest.raises(OSError, match="No space left"):
        utf8_columns.allocate(f.fileno(), 300)
