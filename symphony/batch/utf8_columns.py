"""Many outputs' texts as one buffer of UTF-8 bytes and n + 1 offsets (the core's `Utf8Texts`,
which the batch loop parses where the bytes lie): made of an Arrow string column's own buffers,
and written to a file (from a list of str or an Arrow column) that another process maps.

A chunk shipped to a worker this way costs a copy of its bytes on each side; pickled strs cost an
encode on the caller's side and a decode into new strs on the worker's, which the parser then
encodes again (bench/batch.py --join 20: about a fifth of a worker's parse, before this).

The file: the count n (int64), the n + 1 offsets (int64, from 0), then the texts' bytes.
"""
import errno
import mmap
import os
from collections import namedtuple

import numpy as np

from symphony.parser import Utf8Texts, utf8_copy, utf8_layout

_WORD = 8


def arrow_layout(column):
    """(data, offsets) of a pyarrow string or large_string Array or ChunkedArray without nulls:
    its UTF-8 bytes and n + 1 int64 positions of its texts in them (a lone array's own data
    buffer as it is; a chunked one's chunks joined)."""
    import pyarrow as pa
    if isinstance(column, pa.ChunkedArray):
        if column.num_chunks == 1:
            return arrow_layout(column.chunk(0))
        parts = [arrow_layout(chunk) for chunk in column.chunks]
        if not parts:
            return b"", np.zeros(1, np.int64)
        offsets = [np.zeros(1, np.int64)]
        data = bytearray()
        for bytes_, at in parts:
            offsets.append(at[1:] - at[0] + len(data))
            data += memoryview(bytes_)[at[0]:at[-1]]
        return data, np.concatenate(offsets)
    _, positions, data = column.buffers()[:3]
    width = 8 if pa.types.is_large_string(column.type) else 4
    offsets = np.frombuffer(positions, np.int64 if width == 8 else np.int32, len(column) + 1, column.offset * width)
    return (data if data is not None else b""), offsets.astype(np.int64)


def of_arrow(column):
    """An Arrow string column as Utf8Texts over its own bytes (each text checked as it is read:
    Arrow's producers need not have checked them)."""
    return Utf8Texts(*arrow_layout(column), checked=False)


Layout = namedtuple("Layout", "offsets data checked refused")
Layout.__doc__ = """Where texts go in the file: their n + 1 offsets from 0; their bytes when they are
an Arrow column's (None for strs, copied from each str); whether they are known to be UTF-8 (strs'
are); {index: error text} of the strs with no UTF-8 form (0 bytes)."""


def layout(texts):
    """The Layout of `texts` (a list of str, or an Arrow string column)."""
    if type(texts) is list:
        offsets = np.empty(len(texts) + 1, np.int64)
        return Layout(offsets, None, True, utf8_layout(texts, offsets))
    data, offsets = arrow_layout(texts)
    return Layout(offsets - offsets[0], memoryview(data).cast("B")[offsets[0]:offsets[-1]], False, {})


def size(laid):
    """The bytes a Layout's file takes."""
    return _WORD * (len(laid.offsets) + 1) + int(laid.offsets[-1])


def fill(into, laid, texts):
    """Writes the file of `texts` laid out as `laid` at the start of `into` (a writable buffer of
    at least `size(laid)` bytes)."""
    head = _WORD * (len(laid.offsets) + 1)
    header = np.frombuffer(into, np.int64, len(laid.offsets) + 1)
    header[0], header[1:] = len(laid.offsets) - 1, laid.offsets
    del header
    with memoryview(into) as view:
        if laid.data is None:
            utf8_copy(texts, laid.offsets, view[head:])
        else:
            view[head:size(laid)] = laid.data


def write(path, texts, laid=None):
    """Writes `texts` (a list of str, or an Arrow string column; `laid` its Layout when made
    already) to a new file at `path`; returns what `read` needs beside it: (checked, refused)."""
    laid = layout(texts) if laid is None else laid
    with open(path, "w+b") as f:
        allocate(f.fileno(), size(laid))
        with mmap.mmap(f.fileno(), size(laid)) as mapped:
            fill(mapped, laid, texts)
    return laid.checked, laid.refused


def allocate(fd, size):
    """The file `fd` made `size` bytes long with its space taken now, so that a full file system
    is an OSError here, not a SIGBUS when a map of it is written (where the system cannot take
    space ahead, it is only made that long)."""
    try:
        os.posix_fallocate(fd, 0, size)
    except (AttributeError, OSError) as e:
        if isinstance(e, OSError) and e.errno not in (errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
            raise
        os.ftruncate(fd, size)


def read(path, checked, refused):
    """The Utf8Texts of a file `write` wrote (mapped, not copied; the map lives while they do)."""
    with open(path, "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    n = int(np.frombuffer(mapped, np.int64, 1)[0])
    offsets = np.frombuffer(mapped, np.int64, n + 1, _WORD)
    return Utf8Texts(memoryview(mapped)[_WORD * (n + 2):], offsets, checked, refused)
