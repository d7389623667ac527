"""Nothing a batch makes outlives the process that asked for it.

Files: the files and directories symphony keeps while it works (a batch's chunk files on
/dev/shm or in the temporary directory, a kept pool's regions, the command line's output being
written) are held here while they exist. SIGTERM is what `timeout`, docker, systemd and Kubernetes
send: while any path is held, a process whose SIGTERM is at its default (death) gets a handler
that removes them and then dies of the signal as it would have; when none is held, the default
is back. A program with its own SIGTERM handler keeps it: ending through `sys.exit` from it runs
the with-blocks and exit handlers that remove them.

Processes: a pool's workers watch their parent (`watch_parent`) and exit once it is gone, however
it ended (SIGKILL too).
"""
import os
import shutil
import signal
import threading
import time

_held = {}       # path -> None, in the order held (dicts: adding and removing a key is atomic)

# rmtree of a directory a worker writes into can meet a file made after it listed the entries;
# a worker cannot make one in a directory already gone, so a few passes remove it.
REMOVE_PASSES = 3


def hold(path):
    """`path` (a file or a directory) removed if a SIGTERM ends this process before `release`."""
    _held[path] = None
    _install()


def release(path):
    """`path` no longer this module's to remove (it was removed, or it is the caller's now)."""
    _held.pop(path, None)
    if not _held:
        _uninstall()


def remove(path):
    """Removes a held file or directory, whichever it is, with all it holds; nothing if gone."""
    for _ in range(REMOVE_PASSES):
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
            except OSError:
                return
        if not os.path.lexists(path):
            return


def _on_sigterm(signum, frame):
    """Every held path removed, then death by the signal, as SIGTERM's default is."""
    for path in list(_held):
        remove(path)
    _held.clear()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _install():
    """The handler set where SIGTERM is at its default (a handler is set from the main thread only:
    from another, the next hold there sets it)."""
    if threading.current_thread() is threading.main_thread() and \
            signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_sigterm)


def _uninstall():
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) is _on_sigterm:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


# How often a worker looks for its parent (a worker gone within this once its parent is).
PARENT_CHECK_SECONDS = 0.1


def watch_parent(parent):
    """(A pool's worker initializer.) This process exits once `parent` (its parent's pid, given
    by the parent: a worker that looked itself could see its new parent) is no longer its parent.
    A thread that asks, not PR_SET_PDEATHSIG: that fires when the parent's *thread* that started
    the worker ends, and a pool's workers are started by whichever thread first submits to it."""
    threading.Thread(target=_exit_when_orphaned, args=(parent,), name="symphony-watch-parent", daemon=True).start()


def _exit_when_orphaned(parent):
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)
