"""Files in and out safely: inputs read only when they are files, outputs checked first and
written atomically in place.

`read_input(path)` reads a map, a save or a library only if it is a regular file of
sensible size (a device such as /dev/zero would be read until memory runs out).

`output_path(path)` is the check a command runs on every file it will write before it
writes any (so that `terrain -o a.toml --sheet /missing/s.md` writes nothing): the name
fits the file system, the folder exists, and the target, if it exists, is a regular file
(a symlink is followed to the file it names; a directory, a device such as /dev/full, a
pipe is refused). It returns the path the write will replace.

`write_text_atomic` / `write_bytes_atomic` write a temporary file next to that target,
give it the target's permission bits (or the usual 0666 less the umask for a new file;
`mkstemp` alone would leave 0600), flush it to disk and rename it over the target: a
reader sees the old file or the new one, never half of one, and a symlink stays a symlink.
A temporary file left by a process that was killed mid-write (its name carries the pid)
is removed by the next write to the same file. Every failure is a `UserError` naming the
file.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from tactical.errors import UserError

TEMP_SUFFIX = ".tmp"
MAX_INPUT_BYTES = 32 * 1024 * 1024  # a map or a save; the 200-ship stress map is 74 KB
_TEMP_NAME_PART = 96  # characters of the target's name kept in its temporary file's name
_UMASK: list[int] = []


def _fail(path: str | os.PathLike[str], reason: str) -> UserError:
    return UserError(f"{os.fspath(path)}: cannot write: {reason}")


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def output_path(path: str | os.PathLike[str]) -> Path:
    """The file a write to `path` replaces, after checking it can be written (see above)."""
    given = Path(path)
    if not os.fspath(given) or given.name in ("", ".", ".."):
        raise _fail(path, "expected a file name")
    try:
        target = Path(os.path.realpath(given))
    except (OSError, ValueError) as error:
        raise _fail(path, getattr(error, "strerror", None) or str(error)) from None
    folder = target.parent
    limit = _name_max(folder) if _is_dir(folder) else 255
    for part in (given.name, target.name):
        if len(os.fsencode(part)) > limit:
            raise _fail(
                path, f"the file name is too long ({len(os.fsencode(part))} bytes; at most {limit})"
            )
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:  # a file where a folder should be, a loop of links...
        raise _fail(path, error.strerror or str(error)) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        what = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise _fail(path, f"{target} is {what}")
    if not _is_dir(folder):
        raise _fail(path, f"folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _fail(path, f"folder {folder} is not writable")
    return target


def read_input(path: str | os.PathLike[str]) -> bytes:
    """The bytes of an input file (a map, a save, a library). Only a regular file of at
    most MAX_INPUT_BYTES is read: /dev/zero would never end. Problems are OSErrors (with
    `strerror`) as from `open`, for the caller to word."""
    info = os.stat(path)
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", os.fspath(path))
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "it is a device, a pipe or a socket")
    limit = f"larger than {MAX_INPUT_BYTES // 2**20} MB"
    if info.st_size > MAX_INPUT_BYTES:
        raise OSError(errno.EFBIG, limit)
    with open(path, "rb") as stream:
        data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise OSError(errno.EFBIG, limit)
    return data


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def is_file(path: str | os.PathLike[str]) -> bool:
    """Whether `path` is an existing regular file; False (never an error) for a name the
    file system cannot even look up (too long, a file where a folder should be)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def check_outputs(*paths: str | os.PathLike[str] | None) -> None:
    """Check every output a command will write before it writes any (None: not asked for)."""
    for path in paths:
        if path is not None:
            output_path(path)


def _umask() -> int:
    if not _UMASK:
        current = os.umask(0o022)
        os.umask(current)
        _UMASK.append(current)
    return _UMASK[0]


def _temp_prefix(target: Path) -> str:
    return f".{target.name[:_TEMP_NAME_PART]}."


_TEMP_PID = re.compile(r"\..*\.(\d+)\.[A-Za-z0-9_]+" + re.escape(TEMP_SUFFIX))


def remove_stale_temps(folder: Path, target: Path | None = None) -> list[Path]:
    """Remove the temporary files of writes whose process is gone (killed mid-write) from
    `folder`, or only those of writes to `target`; returns what was removed. A live
    writer's file is left alone."""
    removed: list[Path] = []
    prefix = _temp_prefix(target) if target is not None else "."
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        if not name.startswith(prefix):
            continue
        found = _TEMP_PID.fullmatch(name)
        if found is None or _alive(int(found.group(1))):
            continue
        leftover = folder / name
        try:
            leftover.unlink()
        except OSError:
            continue
        removed.append(leftover)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid() or os.name != "posix":
        return True  # (elsewhere os.kill(pid, 0) would end the process: keep the file)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write `data` to `path` atomically (see the module docstring); returns the file written."""
    import tempfile  # here: a command that reads a map writes nothing

    target = output_path(path)
    remove_stale_temps(target.parent, target)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    except OSError as error:
        raise _fail(path, error.strerror or str(error)) from None
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f"{_temp_prefix(target)}{os.getpid()}.", suffix=TEMP_SUFFIX, dir=target.parent
        )
    except OSError as error:
        raise _fail(path, error.strerror or str(error)) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            if hasattr(os, "fchmod"):
                os.fchmod(stream.fileno(), mode)
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise _fail(path, error.strerror or str(error)) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write UTF-8 `text` (newlines as written) to `path` atomically."""
    return write_bytes_atomic(path, text.encode("utf-8"))
