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
"""A folder as a ``str`` or a ``Path``."""


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def _read(directory: Folder, name: str) -> bytes:
    try:
        return _read_bytes(os.path.join(directory, name))
    except OSError as exc:
        raise FesaFileError(name, None, f"cannot be read: {exc.strerror or exc}") from exc


def _read_optional(directory: Folder, name: str) -> bytes | None:
    """``_read``, or None for a missing file."""
    try:
        return _read_bytes(os.path.join(directory, name))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise FesaFileError(name, None, f"cannot be read: {exc.strerror or exc}") from exc


def _write_all(directory: Folder, files: dict[str, bytes]) -> None:
    """Write every file to a temporary file in ``directory``, then rename them all into place.

    The temporary files are created exclusively (``"xb"``) under fresh names, so they get the usual
    permissions (the process's umask) rather than the private ones of ``tempfile.mkstemp``.
    """
    temporary: dict[str, str] = {}
    token = os.urandom(16).hex()  # 128 random bits, as a uuid4's
    try:
        for name, data in files.items():
            tmp = os.path.join(directory, f".{name}.{token}.tmp")
            with open(tmp, "xb") as file:
                temporary[name] = tmp
                file.write(data)
        for name, tmp in list(temporary.items()):
            os.replace(tmp, os.path.join(directory, name))
            del temporary[name]
    finally:
        for tmp in temporary.values():
            with contextlib.suppress(FileNotFoundError):
                os.remove(tmp)


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
    # concurrent.futures loads logging and threading, and its pool multiprocessing: as much again as a
    # per-table run's own imports, for a run of many folders only (the budget of bench/README.md).
    import concurrent.futures  # noqa: PLC0415 - imported for --jobs only: see above

    workers = min(jobs, len(directories))
    chunk = max(1, len(directories) // (workers * 4))
    done = 0
    try:
        with concurrent.futures.ProcessPoolExecutor(workers) as pool:
            for report in pool.map(_run_reported, directories, chunksize=chunk):
                done += 1
                yield report
    except concurrent.futures.BrokenExecutor as exc:  # a worker process died: BrokenProcessPool
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
