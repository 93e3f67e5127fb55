"""``manage.py import_published_tables FILE [FILE ...]``: FESA's published result tables as history.

Each FILE is a result table as FESA's season pages publish it (text, UTF-8 or ISO-8859-1); each becomes a
historical table, shown on its players' pages and charts, marked as imported and never rated
(ratings/services/fesa/history.py). Give them oldest first; each is all or nothing, and the command stops
at the first that fails (exit status 1), keeping those before it.

Afterwards ``manage.py rewrite_derived_files`` writes the downloads anew (docs/deploy.md), so they show the import
before the next re-rate does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.fesa_files.errors import FesaFileError
from ratings.management.commands.import_fesa_state import read_file
from ratings.services.fesa.history import published_table_import


class Command(BaseCommand):
    help = "Import FESA's published result tables as historical tables (shown, not rated)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="published result tables, oldest first")

    def handle(self, *args: Any, **options: Any) -> None:
        for name in options["files"]:
            path = Path(name)
            try:
                outcome = published_table_import(data=read_file(path), file=path.name)
            except FesaFileError as exc:
                raise CommandError(f"{exc}; nothing of {path.name} was imported") from exc
            self.stdout.write(
                f"{path.name}: historical table {outcome.table_id} ({outcome.players_matched} players matched, "
                f"{outcome.players_created} created)"
            )
