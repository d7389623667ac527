"""For tests that kill a real process: its child processes, waiting for processes to be gone, and
the symphony files left in a directory."""
import contextlib
import glob
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))


def children_of(pid):
    """The pids whose parent is `pid` (from /proc)."""
    found = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat, "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.split("/")[2]))
    return found


def alive(pid):
    """Whether `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def wait_until(check, seconds, step=0.01):
    """Whether `check()` came true within `seconds`."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(step)
    return True


def symphony_files(*directories):
    """What symphony left in the directories: its batch and region directories, and every file in
    them."""
    left = []
    for directory in directories:
        for made in glob.glob(os.path.join(directory, "symphony-*")):
            left.append(made)
            left += glob.glob(os.path.join(made, "*"))
    return left


def python(code, *args, shm, tmp, wrap=(), **popen):
    """A Python process running `code` with this tree's symphony, its memory-backed directory at
    `shm` (symphony.batch.files) and its temporary directory at `tmp`; `wrap` the command it runs
    under (its arguments then this one)."""
    setup = f"from symphony.batch import files as batch_files\nbatch_files._MEMORY_BACKED = {str(shm)!r}\n"
    env = dict(os.environ, PYTHONPATH=ROOT, TMPDIR=str(tmp))
    return subprocess.Popen([*wrap, sys.executable, "-c", setup + code, *args], cwd=ROOT, env=env, **popen)


def private_tmpfs(directory, size):
    """The command prefix that runs a command with a tmpfs of `size` (e.g. "16m") mounted at
    `directory`, in a mount namespace of its own (gone with it); None where that is not allowed
    (unshare --mount needs CAP_SYS_ADMIN)."""
    wrap = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
            f'mount -t tmpfs -o size={size} tmpfs "{directory}" && exec "$@"', "sh"]
    if shutil.which("unshare") is None or subprocess.run(wrap + ["true"], capture_output=True).returncode != 0:
        return None
    return wrap


@contextlib.contextmanager
def ended(run):
    """`run` (a Popen) killed on leaving, if it still runs (a test that failed leaves nothing)."""
    try:
        yield run
    finally:
        run.kill()
        run.wait()


def terminate(run, seconds=10):
    """SIGTERM to `run`: (its exit status, the pids of the processes it had started, whether all
    of those were gone within `seconds`); any of them still running then is killed, the resource
    tracker last (once the others are gone it unlinks the semaphores they leaked, and exits)."""
    started = children_of(run.pid)
    try:
        run.send_signal(signal.SIGTERM)
        status = run.wait(timeout=30)
        return status, started, wait_until(lambda: not any(map(alive, started)), seconds)
    finally:
        for pid in filter(alive, started):
            if not _resource_tracker(pid):
                os.kill(pid, signal.SIGKILL)
        wait_until(lambda: not any(map(alive, started)), 5)
        for pid in filter(alive, started):
            os.kill(pid, signal.SIGKILL)


def _resource_tracker(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"resource_tracker" in f.read()
    except OSError:
        return False
