"""``manage.py export_fesa_state FILE [--date D] [--result-tables DIR]``: the state in the FESA program's format.

Writes every player's current state (or as of the end of date D) as the program's state list
(ISO-8859-1), readable by the FESA program, so a federation can run both side by side
(ratings/services/fesa/state.py). ``FILE`` ``-`` writes to standard output. ``--result-tables DIR``
also writes each rated table's result table as ``DIR/<date>-<sequence>-<table id>.txt``.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.fesa_files.errors import FesaFileError
from ratings.models import Table
from ratings.selectors.fesa_records import table_has_result, table_result_txt
from ratings.services.fesa.state import fesa_state_export


def parse_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError as exc:
        raise CommandError(f"not a date (YYYY-MM-DD): {text!r}") from exc


def write_output(command: BaseCommand, target: str, data: bytes) -> None:
    """Write ``data`` to the file ``target``, or to standard output for ``-``."""
    if target == "-":
        buffer = getattr(getattr(command.stdout, "_out", None), "buffer", None)
        if buffer is not None and command.stdout._out is sys.stdout:
            buffer.write(data)
            buffer.flush()
        else:  # a text stream (call_command with stdout=StringIO): the bytes are ISO-8859-1 or UTF-8 text
            command.stdout.write(
                data.decode("utf-8", errors="strict") if _is_utf8(data) else data.decode("latin-1"), ending=""
            )
        return
    try:
        Path(target).write_bytes(data)
    except OSError as exc:
        raise CommandError(f"{target}: {exc.strerror or exc}") from exc


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class Command(BaseCommand):
    help = "Write the current state as the FESA program's state list."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="where to write the list (- for standard output)")
        parser.add_argument("--date", type=parse_date, help="the state after the tables of this date")
        parser.add_argument("--result-tables", metavar="DIR", help="also write every rated table's result table")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = fesa_state_export(as_of=options["date"], file=options["file"])
        except FesaFileError as exc:
            raise CommandError(str(exc)) from exc
        write_output(self, options["file"], data)
        if options["result_tables"]:
            self._result_tables(Path(options["result_tables"]), options["date"])

    def _result_tables(self, directory: Path, as_of: dt.date | None) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        tables = Table.objects.select_related("tournament").order_by("date", "sequence")
        if as_of is not None:
            tables = tables.filter(date__lte=as_of)
        written = 0
        for table in tables:
            if not table_has_result(table):
                continue
            name = f"{table.date.isoformat()}-{table.sequence}-{table.pk}.txt"
            try:
                (directory / name).write_bytes(table_result_txt(table))
            except FesaFileError as exc:
                raise CommandError(f"table {table.pk}: {exc}") from exc
            written += 1
        self.stderr.write(f"{written} result tables written to {directory}")
