"""``manage.py import_fesa_state ratingliste [--new-players nye-spillere]``: migrate the FESA program's state.

Every player of the list becomes a player of the site with his state as the opening balance (rating,
history, bonus count, FESA grade, prior grade, promotion runs, nationality, last played); tables imported
afterwards are rated from exactly that state (ratings/services/fesa/state.py). All or nothing: a bad record
stops the import with its file and line, and nothing is saved. A player the site has already (by name, with
no state yet) keeps his prior grade: a note names each one whose grade differs from the file's.

Afterwards ``manage.py rewrite_derived_files`` writes the downloads anew (docs/deploy.md), so they show the import
before the next re-rate does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.fesa_files.errors import FesaFileError
from ratings.services.fesa.state import fesa_state_import


def read_file(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror or exc}") from exc


class Command(BaseCommand):
    help = "Load the FESA program's state list (and new players) as the opening balance."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("ratingliste", help="the program's state list (ratingliste, ISO-8859-1)")
        parser.add_argument("--new-players", help="the program's nye-spillere file")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["ratingliste"])
        newcomers = Path(options["new_players"]) if options["new_players"] else None
        try:
            outcome = fesa_state_import(
                ratingliste=read_file(path),
                new_players=read_file(newcomers) if newcomers else None,
                source=path.name,
            )
        except FesaFileError as exc:
            raise CommandError(f"{exc}; nothing was imported") from exc
        for note in outcome.notes:
            self.stdout.write(self.style.WARNING(f"note: {note}"))
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {outcome.opening_states} opening states: {outcome.players_created} players created, "
                f"{outcome.players_matched} matched by name, {outcome.newcomers} new players."
            )
        )
