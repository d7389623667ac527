"""How a batch's chunk crosses to a worker process and back: its outputs' texts as UTF-8 bytes in
a file the worker maps and parses where they lie (symphony.utf8_columns), the rest of the job
(token spans, tables' names, tools, prompts) pickled to a file the worker reads, and the result
to a file the parent reads (an Arrow table as an IPC stream it maps, summary rows or Results
pickled), in a private directory on a memory-backed file system (/dev/shm where there is one with
room) that the batch removes when it ends; only the paths go through the process pool's pipe.

Pickled through that one pipe, chunks queue behind each other: on 13 MB over two workers the
second started 40-55 ms after the first and each result took 20-25 ms to come back, against
70-100 ms of parsing a chunk (bench/batch.py --join 20). Files rather than
`multiprocessing.shared_memory`: nothing to register with a resource tracker (which before Python
3.13 also claims segments a process only opens), and the directory is gone at the end even when a
chunk failed.
"""
import os
import pickle
import shutil
import tempfile
import time
from collections import namedtuple

from symphony import utf8_columns

Shipped = namedtuple("Shipped", "job texts result started")
Shipped.__doc__ = """A chunk in files, as a worker gets it: the path of its pickled job, of its
texts, the path the worker writes its result to, and the path of the empty file it makes once it
has begun."""

_MEMORY_BACKED = "/dev/shm"


class Scratch:
    """A private directory for one batch's chunk files, removed with all in it on leaving: on
    /dev/shm when it has room for `size` bytes three times over (a container's is often 64 MB),
    else in the temporary directory."""

    def __init__(self, size=0):
        self.size = size

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="symphony-batch-", dir=_MEMORY_BACKED if _room(3 * self.size) else None)
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)

    def ship(self, k, job, texts):
        """Chunk k's job and its texts (a list of str or an Arrow string column) written out; the
        Shipped handle a worker reads them by (`unpacked`)."""
        shipped = Shipped(*(os.path.join(self.path, f"{k}.{what}") for what in ("job", "texts", "out", "started")))
        laid = utf8_columns.layout(texts)
        utf8_columns.write(shipped.texts, texts, laid)
        with open(shipped.job, "wb") as f:
            pickle.dump((job, (laid.checked, laid.refused)), f, protocol=pickle.HIGHEST_PROTOCOL)
        return shipped

    def landed(self, shipped, arrow):
        """What the worker wrote for `shipped`: an Arrow table if `arrow` (write_result's
        answer), else the list; its files removed."""
        for done in (shipped.job, shipped.texts, shipped.started):
            if os.path.exists(done):
                os.unlink(done)
        try:
            if arrow:
                import pyarrow as pa
                return pa.ipc.open_stream(pa.memory_map(shipped.result)).read_all()
            with open(shipped.result, "rb") as f:
                return pickle.load(f)
        finally:
            os.unlink(shipped.result)


def _room(size):
    """Whether the memory-backed file system is there, writable, and has `size` bytes free."""
    try:
        free = os.statvfs(_MEMORY_BACKED)
    except OSError:
        return False
    return os.access(_MEMORY_BACKED, os.W_OK) and free.f_bavail * free.f_frsize >= size


def wait_started(shipped, future, patience=0.25):
    """Waits until the worker has begun `shipped`, its future has ended, or `patience` seconds
    have passed; asleep, so this process's threads that hand the chunk over to the worker run
    (a caller that went on parsing would hold them off)."""
    deadline = time.monotonic() + patience
    while not os.path.exists(shipped.started) and not future.done() and time.monotonic() < deadline:
        time.sleep(0.0005)


def unpacked(shipped):
    """(job, texts) of a shipped chunk, read in the worker (which says first that it has begun):
    the texts a Utf8Texts over the mapped file."""
    open(shipped.started, "wb").close()
    with open(shipped.job, "rb") as f:
        job, layout = pickle.load(f)
    return job, utf8_columns.read(shipped.texts, *layout)


def write_result(shipped, result):
    """The worker's result written where the parent looks for it: a list pickled, an Arrow table
    as an IPC stream; whether it was the table (what `landed` is told)."""
    if isinstance(result, list):
        with open(shipped.result, "wb") as f:
            pickle.dump(result, f, protocol=pickle.HIGHEST_PROTOCOL)
        return False
    import pyarrow as pa
    with pa.OSFile(shipped.result, "wb") as sink, pa.ipc.new_stream(sink, result.schema) as writer:
        writer.write_table(result)
    return True
