"""The FESA program's run over folders of files: what ``manage.py fesa_run`` and ``python -m
ratings.fesa_files`` both do.

Each folder holds ``turnering.txt``, ``ratingliste.pre`` and optionally ``nye-spillere``; the run writes
``ratingliste.post``, ``all.txt`` and ``result.txt`` beside them (:func:`ratings.fesa_files.run.rate_files`).
The three files are written to temporary files in the folder and renamed only once all are written, so a
folder that fails gets none of them. Folders are independent: a failure is reported with its folder and
the others go on.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable

from .errors import FesaFileError, FesaFileErrors
from .run import NYE_SPILLERE, RATINGLISTE_PRE, TURNERING, rate_files

Folder = str | os.PathLike[str]
"""A folder as a ``str`` or a ``Path``: handled with ``os`` alone, since importing ``pathlib`` (and with it
``urllib.parse`` and ``ipaddress``) would cost a per-folder process more than a few milliseconds."""


def _read(directory: Folder, name: str) -> bytes:
    try:
        with open(os.path.join(directory, name), "rb") as f:
            return f.read()
    except OSError as exc:
        raise FesaFileError(name, None, f"cannot be read: {exc.strerror or exc}") from exc


def _write_all(directory: Folder, files: dict[str, bytes]) -> None:
    """Write every file to a temporary file in ``directory``, then rename them all into place.

    The temporary files are opened exclusively under fresh names, so they get the usual permissions (the
    process's umask) rather than the private ones of ``tempfile.mkstemp``. Their names hold 128 random
    bits, as a uuid4 would (``uuid`` alone costs a per-folder process more than the rest of its imports).
    """
    temporary: dict[str, str] = {}
    try:
        for name, data in files.items():
            tmp = os.path.join(directory, f".{name}.{os.urandom(16).hex()}.tmp")
            temporary[name] = tmp
            with open(tmp, "xb") as f:
                f.write(data)
        for name, tmp in list(temporary.items()):
            os.replace(tmp, os.path.join(directory, name))
            del temporary[name]  # nothing left to remove: a failed unlink per file is a cost per folder
    finally:
        for tmp in temporary.values():
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def run_directory(directory: Folder) -> list[str]:
    """Rate the table in ``directory`` and write its files; the names written. Raises FesaFileError/OSError."""
    nye_spillere = _read(directory, NYE_SPILLERE) if os.path.exists(os.path.join(directory, NYE_SPILLERE)) else None
    output = rate_files(_read(directory, TURNERING), _read(directory, RATINGLISTE_PRE), nye_spillere)
    files = output.files()
    _write_all(directory, files)
    return sorted(files)


def run_directories(directories: Iterable[Folder], out: Callable[[str], None], err: Callable[[str], None]) -> int:
    """Run every folder, reporting each on ``out`` (written) or ``err`` (its problems); the number failed."""
    failed = 0
    for directory in directories:
        if not os.path.isdir(directory):
            failed += 1
            err(f"{directory}: not a directory")
            continue
        try:
            written = run_directory(directory)
        except (FesaFileError, OSError) as exc:
            failed += 1
            for error in exc.errors if isinstance(exc, FesaFileErrors) else [exc]:
                err(f"{directory}: {error}")
            continue
        except Exception as exc:  # a fault of ours must not stop the other folders either
            failed += 1
            err(f"{directory}: unexpected {type(exc).__name__}: {exc}")
            continue
        out(f"{directory}: wrote {', '.join(written)}")
    return failed


def failure_summary(failed: int, total: int) -> str:
    return f"{failed} of {total} directories failed"
