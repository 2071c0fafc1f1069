"""Child processes that end when their parent does, however it ends.

The play screen computes odds and the computer's moves in spawned children. Closing the
window or a signal stops them (tactical.ui.stopping), but a parent killed outright
(SIGKILL, the out-of-memory killer, a crash) runs no code at all: its children used to
stay behind, parentless, each holding the multiprocessing resource tracker open too.

Two guards, both set up in the child by `watch_parent` as it starts:

- a lifeline: a pipe whose writing end only this process holds (never inherited: pipes
  are opened close-on-exec and children are spawned, not forked). Each child watches
  the reading end on a thread and leaves at once when it reads end-of-file, which the
  kernel gives as soon as the parent is gone. This works on every platform.
- on Linux, `prctl(PR_SET_PDEATHSIG, SIGKILL)`: the kernel kills the child even if it
  is stuck in code that never lets the watching thread run. Linux sends that signal when
  the *thread* that started the child ends, so it is asked for only when the main thread
  starts it (the main thread ends with the process).

Children ignore Ctrl+C. A terminal sends its SIGINT to the whole foreground group, the
children too, where it raised KeyboardInterrupt and printed a traceback; the parent
stops them itself (tactical.ui.stopping). The starting thread blocks SIGINT while it
starts a child, which inherits the block across exec and so never sees it, from its
first instruction on; the parent loses no Ctrl+C (a blocked signal waits, or another
thread takes it).

With every child gone, nothing holds the resource tracker's pipe any more: it reads
end-of-file, unlinks the semaphores the killed parent left, and exits by itself. It is
started here without its warning about those semaphores: after a killed game, a Python
warning on the player's terminal would only puzzle them (the clean-up still happens).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# the tracker's only warning at its end: "resource_tracker: There appear to be N leaked
# semaphore objects to clean up at shutdown"
QUIET_TRACKER = "ignore:resource_tracker:UserWarning"
ORPHANED = 1  # a child's exit status when it left because its parent had gone

_lock = threading.Lock()
_lifeline: tuple[Connection, Connection] | None = None  # (reading, writing) ends


def lifeline() -> Connection:
    """The reading end of this process's lifeline: readable (end-of-file) only once the
    process has ended. Made on first use; the writing end stays open until the process
    ends (the kernel closes it), so nothing is ever written on it."""
    global _lifeline
    with _lock:
        if _lifeline is None:
            _lifeline = multiprocessing.get_context("spawn").Pipe(duplex=False)
        return _lifeline[0]


def child_pool(start_method: str = "spawn") -> ProcessPoolExecutor:
    """A pool of one child process that ends with this process (see the module docstring).

    The child is started now, on the calling thread, so that the kernel's guard is tied
    to the thread that really started it."""
    context = multiprocessing.get_context(start_method)
    _start_tracker_quietly()
    from_main = threading.current_thread() is threading.main_thread()
    pool = ProcessPoolExecutor(
        max_workers=1,
        mp_context=context,
        initializer=watch_parent,
        initargs=(lifeline(), os.getpid() if from_main else None),
    )
    with _ctrl_c_blocked():  # the child inherits the block
        pool.submit(_started)  # the pool starts its child on the first submit
    return pool


def manager_of(pool: ProcessPoolExecutor) -> threading.Thread | None:
    """The pool's manager thread, asked for before the pool is shut down (shutting down
    lets go of it)."""
    return getattr(pool, "_executor_manager_thread", None)


def manager_stopped(thread: threading.Thread | None, timeout: float) -> None:
    """Wait (at most `timeout` seconds) for the manager thread of a pool shut down and its
    children killed (`manager_of`) to end. Left running at the interpreter's exit, the
    thread can close its wake-up pipe while the exit handler writes to it, and Python 3.11
    then prints an ignored "Bad file descriptor" traceback as the window closes."""
    if thread is not None and thread is not threading.current_thread():
        thread.join(timeout)


def watch_parent(line: Connection, parent: int | None = None) -> None:
    """Runs in the child as it starts: leave as soon as the parent has gone.

    `line` is the parent's `lifeline()`. `parent`, the parent's pid, asks Linux to kill
    this process when the thread that started it ends (given only when that is the
    parent's main thread); a parent that ended before that was asked is seen at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops its children
    _drop_inherited_writer()
    if parent is not None and die_with_parent() and os.getppid() != parent:
        os._exit(ORPHANED)  # gone already: the kernel will send no signal for it
    threading.Thread(
        target=_leave_at_end_of_file, args=(line,), name="tactical-lifeline", daemon=True
    ).start()


def die_with_parent() -> bool:
    """Linux only: the kernel sends SIGKILL to this process when its parent ends. Whether
    that was set (False elsewhere, or where libc has no prctl)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


@contextmanager
def _ctrl_c_blocked() -> Iterator[None]:
    """SIGINT blocked for the calling thread within the block (where threads have signal
    masks: not on Windows)."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None:
        yield
        return
    previous = block(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, previous)


def _start_tracker_quietly() -> None:
    """Start the resource tracker (if it is not running yet) with its leaked-semaphore
    warning off: it takes its warning options from this process's, as it starts."""
    if os.name != "posix":  # only POSIX semaphores are tracked
        return
    from multiprocessing import resource_tracker

    with _lock:
        saved = list(sys.warnoptions)
        sys.warnoptions.append(QUIET_TRACKER)
        try:
            resource_tracker.ensure_running()
        finally:
            sys.warnoptions[:] = saved


def _leave_at_end_of_file(line: Connection) -> None:
    # nothing is ever written: the pipe becomes readable only at end-of-file (the parent
    # has gone), and then there is nobody left to hand a result to
    wait([line])
    os._exit(ORPHANED)


def _drop_inherited_writer() -> None:
    """A forked child inherits its parent's writing end, which would keep the lifeline
    open for it and its siblings: it closes it (a spawned child has none)."""
    global _lifeline
    if _lifeline is not None:  # no lock: the child has no other thread yet
        _lifeline[1].close()
        _lifeline = None


def _started() -> None:
    """Submitted once so that the pool starts its child at once."""
