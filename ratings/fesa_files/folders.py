"""The FESA program's run over folders of files: what ``manage.py fesa_run`` and ``python -m
ratings.fesa_files`` both do.

Each folder holds ``turnering.txt``, ``ratingliste.pre`` and optionally ``nye-spillere``; the run writes
``ratingliste.post``, ``all.txt`` and ``result.txt`` beside them (:func:`ratings.fesa_files.run.rate_files`).
The three files are written to temporary files in the folder and renamed only once all are written, so a
folder that fails gets none of them. Folders are independent: a failure is reported with its folder and
the others go on. Many folders may be shared among worker processes (``jobs``), one per processor; the
reports come in the folders' order all the same.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator

from .errors import FesaFileError, FesaFileErrors
from .run import NYE_SPILLERE, RATINGLISTE_PRE, TURNERING, rate_files

Folder = str | os.PathLike[str]
"""A folder as a ``str`` or a ``Path``: handled with ``os`` alone, since importing ``pathlib`` (and with it
``urllib.parse`` and ``ipaddress``) would cost a per-folder process more than a few milliseconds."""


def _read_bytes(path: str) -> bytes:
    """The file's bytes, read with ``os`` calls, not ``open()``: a file object costs a few system calls more
    per file (its terminal test, its position, a second status) and Python layers of its own, paid three
    times a folder. OSError as ``open()`` raises it (FileNotFoundError when missing; a directory opens,
    and fails on reading)."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        data = os.read(fd, os.fstat(fd).st_size + 1)  # sized by the file, as open().read() sizes its read
        while chunk := os.read(fd, 1 << 16):  # until the end: a short read, or a file that grew meanwhile
            data += chunk
        return data
    finally:
        os.close(fd)


def _read(directory: Folder, name: str) -> bytes:
    try:
        return _read_bytes(os.path.join(directory, name))
    except OSError as exc:
        raise FesaFileError(name, None, f"cannot be read: {exc.strerror or exc}") from exc


def _read_optional(directory: Folder, name: str) -> bytes | None:
    """``_read``, or None for a missing file (without a status call first to ask)."""
    try:
        return _read_bytes(os.path.join(directory, name))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise FesaFileError(name, None, f"cannot be read: {exc.strerror or exc}") from exc


def _write_all(directory: Folder, files: dict[str, bytes]) -> None:
    """Write every file to a temporary file in ``directory``, then rename them all into place.

    The temporary files are opened exclusively under fresh names, so they get the usual permissions (the
    process's umask) rather than the private ones of ``tempfile.mkstemp``. Their names hold 128 random
    bits, as a uuid4 would (``uuid`` alone costs a per-folder process more than the rest of its imports),
    one draw for the folder's files (their names differ already). Written with ``os`` calls, as ``_read``
    reads.
    """
    temporary: dict[str, str] = {}
    token = os.urandom(16).hex()
    try:
        for name, data in files.items():
            tmp = os.path.join(directory, f".{name}.{token}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            temporary[name] = tmp
            try:
                view = memoryview(data)
                while view:  # a regular file takes all at once, but write() may say otherwise
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)
        for name, tmp in list(temporary.items()):
            os.replace(tmp, os.path.join(directory, name))
            del temporary[name]  # nothing left to remove: a failed unlink per file is a cost per folder
    finally:
        for tmp in temporary.values():
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def run_directory(directory: Folder) -> list[str]:
    """Rate the table in ``directory`` and write its files; the names written. Raises FesaFileError/OSError."""
    nye_spillere = _read_optional(directory, NYE_SPILLERE)
    output = rate_files(_read(directory, TURNERING), _read(directory, RATINGLISTE_PRE), nye_spillere)
    files = output.files()
    _write_all(directory, files)
    return sorted(files)


def _run_reported(directory: Folder) -> tuple[bool, list[str]]:
    """Run one folder and word what happened: (whether it succeeded, its lines). The same words in a worker
    process as in this one, and only strings cross between them."""
    if not os.path.isdir(directory):
        return False, [f"{directory}: not a directory"]
    try:
        written = run_directory(directory)
    except (FesaFileError, OSError) as exc:
        return False, [f"{directory}: {error}" for error in (exc.errors if isinstance(exc, FesaFileErrors) else [exc])]
    except Exception as exc:  # a fault of ours must not stop the other folders either
        return False, [f"{directory}: unexpected {type(exc).__name__}: {exc}"]
    return True, [f"{directory}: wrote {', '.join(written)}"]


JOBS_HELP = (
    "worker processes to share the folders among (default 1: all in this one; 0: one per processor); "
    "the reports keep the folders' order"
)


def available_cpus() -> int:
    """The processors this process may run on (``--jobs 0``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _reports(directories: list[Folder], jobs: int) -> Iterator[tuple[bool, list[str]]]:
    """Every folder's report, in the folders' order: here, or by ``jobs`` worker processes.

    Folders are independent, so workers take them in chunks (a few per worker, so that a slow one does not
    leave the others idle at the end) and the reports are given back in order. A worker that dies (killed,
    out of memory) fails every folder not yet reported, rather than hanging the run: each of them has
    either all its files or none (``_write_all``), and running them again is safe.
    """
    if jobs <= 1 or len(directories) <= 1:
        yield from map(_run_reported, directories)
        return
    from concurrent.futures import ProcessPoolExecutor  # here: a run of one folder per process must not pay
    from concurrent.futures.process import BrokenProcessPool  # for the workers' modules

    workers = min(jobs, len(directories))
    chunk = max(1, len(directories) // (workers * 4))
    done = 0
    try:
        with ProcessPoolExecutor(workers) as pool:
            for report in pool.map(_run_reported, directories, chunksize=chunk):
                done += 1
                yield report
    except BrokenProcessPool as exc:
        for directory in directories[done:]:
            yield False, [f"{directory}: not run to the end: a worker process stopped ({exc})"]


def run_directories(
    directories: Iterable[Folder], out: Callable[[str], None], err: Callable[[str], None], jobs: int = 1
) -> int:
    """Run every folder, reporting each on ``out`` (written) or ``err`` (its problems), in the folders' order;
    the number failed. ``jobs``: worker processes to share the folders (1: all in this process)."""
    failed = 0
    for succeeded, lines in _reports(list(directories), jobs):
        failed += not succeeded
        for line in lines:
            (out if succeeded else err)(line)
    return failed


def failure_summary(failed: int, total: int) -> str:
    return f"{failed} of {total} directories failed"
