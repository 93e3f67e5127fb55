"""``manage.py fesa_run DIR [DIR ...]``: the FESA program's run on files, without the database.

Each DIR holds ``turnering.txt``, ``ratingliste.pre`` and optionally ``nye-spillere``; the run writes
``ratingliste.post``, ``all.txt`` and ``result.txt`` beside them (ratings/fesa_files/run.py). The three
files are written to temporary files in DIR and renamed only once all are written, so a DIR that fails
gets none of them. DIRs are independent: a failure is reported on stderr with its DIR and the others go
on; the command fails (exit status 1) if any DIR failed.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.fesa_files.errors import FesaFileError, FesaFileErrors
from ratings.fesa_files.run import NYE_SPILLERE, RATINGLISTE_PRE, TURNERING, rate_files


def _read(directory: Path, name: str) -> bytes:
    try:
        return (directory / name).read_bytes()
    except OSError as exc:
        raise FesaFileError(name, None, f"cannot be read: {exc.strerror or exc}") from exc


def _write_all(directory: Path, files: dict[str, bytes]) -> None:
    """Write every file to a temporary file in ``directory``, then rename them all into place.

    The temporary files are opened exclusively under fresh names, so they get the usual permissions (the
    process's umask) rather than the private ones of ``tempfile.mkstemp``.
    """
    temporary: dict[str, Path] = {}
    try:
        for name, data in files.items():
            tmp = directory / f".{name}.{uuid.uuid4().hex}.tmp"
            temporary[name] = tmp
            with tmp.open("xb") as f:
                f.write(data)
        for name, tmp in temporary.items():
            os.replace(tmp, directory / name)
    finally:
        for tmp in temporary.values():
            tmp.unlink(missing_ok=True)


def run_directory(directory: Path) -> list[str]:
    """Rate the table in ``directory`` and write its files; the names written. Raises FesaFileError/OSError."""
    nye_spillere = _read(directory, NYE_SPILLERE) if (directory / NYE_SPILLERE).exists() else None
    output = rate_files(_read(directory, TURNERING), _read(directory, RATINGLISTE_PRE), nye_spillere)
    files = output.files()
    _write_all(directory, files)
    return sorted(files)


class Command(BaseCommand):
    help = (
        "Rate the table in each DIR (turnering.txt, ratingliste.pre, optional nye-spillere) as the FESA "
        "program does and write ratingliste.post, all.txt and result.txt there. No database is touched."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("directories", nargs="+", metavar="DIR", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        directories: list[Path] = options["directories"]
        failed = 0
        for directory in directories:
            if not directory.is_dir():
                failed += 1
                self.stderr.write(f"{directory}: not a directory")
                continue
            try:
                written = run_directory(directory)
            except (FesaFileError, OSError) as exc:
                failed += 1
                for error in exc.errors if isinstance(exc, FesaFileErrors) else [exc]:
                    self.stderr.write(f"{directory}: {error}")
                continue
            except Exception as exc:  # a fault of ours must not stop the other directories either
                failed += 1
                self.stderr.write(f"{directory}: unexpected {type(exc).__name__}: {exc}")
                continue
            self.stdout.write(f"{directory}: wrote {', '.join(written)}")
        if failed:
            raise CommandError(f"{failed} of {len(directories)} directories failed")
