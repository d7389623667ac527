"""How a batch's chunk crosses to a worker process and back: its outputs' texts as UTF-8 bytes in
a file the worker maps and parses where they lie (symphony.batch.utf8_columns), the rest of the job
(token spans, tables' names, tools, prompts) pickled to a file the worker reads, and the result
to a file the parent reads (an Arrow table as an IPC stream it maps, summary rows or Results
pickled), in a private directory on a memory-backed file system (/dev/shm where there is one with
room) that the batch removes when it ends; only the paths go through the process pool's pipe.
Each file is unlinked as soon as its reader has it open or mapped, and the directories are held
for symphony.batch.teardown while they exist: a SIGTERM leaves none of them behind. Where the file
system fills up as a chunk's files are written (a container's /dev/shm is often 64 MB, and a
batch's events take several times its texts), that chunk, or its result, crosses through the
pool's pipe instead, pickled: slower, never an error.

Pickled through that one pipe, chunks queue behind each other, and a worker waits for its chunk
for a time of the order of parsing it. Files rather than
`multiprocessing.shared_memory`: nothing to register with a resource tracker (which before Python
3.13 also claims segments a process only opens), and the directory is gone at the end even when a
chunk failed.
"""
import contextlib
import errno
import itertools
import mmap
import os
import pickle
import shutil
import tempfile
import threading
import time
import weakref
from collections import namedtuple

import symphony.batch.teardown as teardown
import symphony.batch.utf8_columns as utf8_columns

Shipped = namedtuple("Shipped", "job texts result started kept")
Shipped.__doc__ = """A chunk in files, as a worker gets it: the path of its pickled job, of its
texts, the path the worker writes its result to, the path of the empty file it makes once it has
begun, and whether its texts are in a pool's kept region (which the worker leaves in place; it
unlinks the others once it has them)."""

Carried = namedtuple("Carried", "job texts")
Carried.__doc__ = """A chunk that crosses through the pool's pipe, its texts with it (where its files
found no room)."""

Returned = namedtuple("Returned", "value")
Returned.__doc__ = """A worker's result that crosses back through the pool's pipe (where its file
found no room)."""

_MEMORY_BACKED = "/dev/shm"

# The errors of a write that found the file system full.
_FULL = (errno.ENOSPC, errno.EDQUOT)


class Scratch:
    """A private directory for one batch's chunk files, removed with all in it on leaving: on
    /dev/shm when it has room for `size` bytes three times over (a container's is often 64 MB),
    else in the temporary directory. With `regions` (a Pool's), a chunk's texts go to a region
    taken from them where one fits, given back once the chunk has landed or the batch ends."""

    def __init__(self, size=0, regions=None):
        self.size = size
        self.regions = regions
        self.lent = {}          # texts path -> the region it is

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="symphony-batch-", dir=_MEMORY_BACKED if _room(3 * self.size) else None)
        teardown.hold(self.path)
        return self

    def __exit__(self, *exc):
        for region in self.lent.values():
            self.regions.give(region)
        self.lent.clear()
        shutil.rmtree(self.path, ignore_errors=True)
        teardown.release(self.path)

    def ship(self, k, job, texts):
        """Chunk k's job and its texts (a list of str or an Arrow string column) written out; the
        Shipped handle a worker reads them by (`unpacked`), or, where the file system has no
        room for them, the Carried chunk (its files removed)."""
        shipped = Shipped(*(os.path.join(self.path, f"{k}.{what}") for what in ("job", "texts", "out", "started")),
                          False)
        laid = utf8_columns.layout(texts)
        region = self.regions.take(utf8_columns.size(laid)) if self.regions is not None else None
        try:
            if region is None:
                utf8_columns.write(shipped.texts, texts, laid)
            else:
                utf8_columns.fill(region.mapped, laid, texts)
                shipped = shipped._replace(texts=region.path, kept=True)
                self.lent[region.path] = region
            with open(shipped.job, "wb") as f:
                pickle.dump((job, (laid.checked, laid.refused)), f, protocol=pickle.HIGHEST_PROTOCOL)
        except OSError as e:
            if e.errno not in _FULL:
                raise
            self.dropped(shipped)
            return Carried(job, texts)
        return shipped

    def dropped(self, shipped):
        """The files of `shipped` removed (its region given back), whichever of them there are."""
        region = self.lent.pop(shipped.texts, None)
        if region is not None:
            self.regions.give(region)
        for done in (shipped.job, shipped.started) + (() if shipped.kept else (shipped.texts,)):
            with contextlib.suppress(FileNotFoundError):     # (the worker unlinks what it read)
                os.unlink(done)

    def landed(self, shipped, answer):
        """What the worker made of `shipped` (a Shipped or Carried chunk), from its `answer`
        (write_result's): a Returned result, else the Arrow table it wrote if `answer`, else the
        list; the chunk's files removed (its region given back)."""
        if type(shipped) is Shipped:
            self.dropped(shipped)
        if type(answer) is Returned:
            return answer.value
        if answer:
            import pyarrow as pa
            return pa.ipc.open_stream(_unlinked(pa.memory_map, shipped.result)).read_all()
        with _unlinked(open, shipped.result, "rb") as f:
            return pickle.load(f)


def _unlinked(opener, path, *args):
    """opener(path, *args) with `path` unlinked at once: what is open or mapped stays readable until
    it is closed, and nothing is left on the file system however the read ends."""
    try:
        return opener(path, *args)
    finally:
        os.unlink(path)


class Region:
    """A file on the memory-backed file system and this process's writable map of it."""

    def __init__(self, path, capacity):
        self.path, self.capacity = path, capacity
        with open(path, "w+b") as f:
            utf8_columns.allocate(f.fileno(), capacity)
            self.mapped = mmap.mmap(f.fileno(), capacity)

    def close(self):
        self.mapped.close()
        with contextlib.suppress(FileNotFoundError):     # (its directory went first at exit)
            os.unlink(self.path)


# A region past this is removed once used rather than kept for the next batch.
KEPT_BYTES = 256 << 20


class Regions:
    """Files a Pool keeps across its batches for the texts of the chunks it ships. Writing into a
    new file on /dev/shm costs several times writing into one whose pages are there (every fresh
    page is faulted in), and that write is the one part of a batch no process can do beside
    another. A batch takes the smallest free
    region that fits, or makes one (a quarter larger than asked, so that batches of about one size
    share it), and gives it back; at most `kept` stay free. A chunk whose region would pass
    KEPT_BYTES gets a file of its own instead. They are removed with their directory on `close`
    or when the process exits."""

    def __init__(self, kept):
        self.kept = kept
        self.free = []
        self.lock = threading.Lock()
        self.names = itertools.count()
        self.path = None
        self.closed = False
        self._cleanup = None

    def take(self, size):
        """A region of at least `size` bytes, or None when the memory-backed file system has no
        room for one, or the regions are closed."""
        with self.lock:
            if self.closed:
                return None
            fits = [r for r in self.free if r.capacity >= size]
            if fits:
                region = min(fits, key=lambda r: r.capacity)
                self.free.remove(region)
                return region
            capacity = size + size // 4
            if capacity > KEPT_BYTES or not _room(2 * capacity):
                return None
            if self.path is None:
                self.path = tempfile.mkdtemp(prefix="symphony-regions-", dir=_MEMORY_BACKED)
                teardown.hold(self.path)
                self._cleanup = weakref.finalize(self, _remove_held, self.path)
            path = os.path.join(self.path, f"{next(self.names)}.texts")
        try:
            return Region(path, capacity)
        except OSError as e:
            if e.errno not in _FULL:
                raise
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            return None

    def give(self, region):
        """A region back, free for the next batch (the smallest dropped past `kept`)."""
        with self.lock:
            self.free.append(region)
            self.free.sort(key=lambda r: r.capacity, reverse=True)
            keep = 0 if self.closed else self.kept
            dropped, self.free = self.free[keep:], self.free[:keep]
        for region in dropped:
            region.close()

    def close(self):
        """Every region removed, and their directory."""
        with self.lock:
            free, self.free = self.free, []
            self.closed = True
        for region in free:
            region.close()
        if self._cleanup is not None:
            self._cleanup()


def _remove_held(path):
    shutil.rmtree(path, ignore_errors=True)
    teardown.release(path)


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
    if type(shipped) is Carried:
        return
    deadline = time.monotonic() + patience
    while not os.path.exists(shipped.started) and not future.done() and time.monotonic() < deadline:
        time.sleep(0.0005)


def unpacked(shipped):
    """(job, texts) of a shipped chunk, read in the worker (which says first that it has begun):
    the texts a Utf8Texts over the mapped file. The job's file and the texts' (unless a kept
    region's) are unlinked once read or mapped. A Carried chunk is its own (job, texts)."""
    if type(shipped) is Carried:
        return shipped
    open(shipped.started, "wb").close()
    with _unlinked(open, shipped.job, "rb") as f:
        job, layout = pickle.load(f)
    if shipped.kept:
        return job, utf8_columns.read(shipped.texts, *layout)
    return job, _unlinked(utf8_columns.read, shipped.texts, *layout)


def write_result(shipped, result):
    """The worker's result written where the parent looks for it: a list pickled, an Arrow table
    as an IPC stream; whether it was the table (what `landed` is told), or the Returned result
    itself when the chunk was Carried or its file found no room (the partial file removed)."""
    if type(shipped) is Carried:
        return Returned(result)
    try:
        return _write_result(shipped.result, result)
    except OSError as e:
        if e.errno not in _FULL:
            raise
        with contextlib.suppress(FileNotFoundError):
            os.unlink(shipped.result)
        return Returned(result)


def _write_result(path, result):
    if isinstance(result, list):
        with open(path, "wb") as f:
            pickle.dump(result, f, protocol=pickle.HIGHEST_PROTOCOL)
        return False
    import pyarrow as pa
    with pa.OSFile(path, "wb") as sink, pa.ipc.new_stream(sink, result.schema) as writer:
        writer.write_table(result)
    return True
