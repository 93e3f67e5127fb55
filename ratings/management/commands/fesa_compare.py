"""``manage.py fesa_compare PROGRAM_POST [--date D]``: the site's state beside a list the FESA program wrote.

Run after each table during the trial season: the program's ``ratingliste.post`` against the site's state
after the same tables (ratings/fesa_files/compare.py). Prints every difference by player and field, those that a
documented divergence explains (docs/rules.md: a player with only byes, an exact half performance root) apart
and named with it, and whether the list the site writes is the program's byte for byte. Exit status 1 only when
a difference is unexplained (or, with none at all, when the bytes differ): the known ones need no chasing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.fesa_files.compare import compare_lists, unexplained
from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.ratingliste import read_ratingliste, write_ratingliste
from ratings.management.commands.export_fesa_state import parse_date
from ratings.management.commands.import_fesa_state import read_file
from ratings.selectors.fesa_compare import players_with_only_byes
from ratings.services.fesa.state import fesa_state_records


class Command(BaseCommand):
    help = "Compare the site's state with a ratingliste the FESA program wrote; list every difference."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("program_post", metavar="PROGRAM_POST", help="the program's ratingliste.post")
        parser.add_argument("--date", type=parse_date, help="the site's state after the tables of this date")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["program_post"])
        data = read_file(path)
        try:
            program = read_ratingliste(data, path.name)
            site = [entry.record for entry in fesa_state_records(as_of=options["date"])]
            same_bytes = write_ratingliste(site, path.name) == data
        except FesaFileError as exc:
            raise CommandError(str(exc)) from exc
        differences = compare_lists(site, program, byes_only=players_with_only_byes(as_of=options["date"]))
        open_ones = unexplained(differences)
        for difference in open_ones:
            self.stdout.write(str(difference))
        known = [d for d in differences if d.explained]
        if known:
            self.stdout.write(f"{len(known)} differences explained by documented divergences:")
            for difference in known:
                self.stdout.write(f"  {difference}")
        if open_ones:
            raise CommandError(f"{len(open_ones)} unexplained differences with {path.name}")
        if known:
            self.stdout.write(self.style.SUCCESS(f"{len(program)} players, no unexplained difference"))
            return
        if not same_bytes:
            # Equal values and order, other spelling (the program's list was not written by the program?).
            raise CommandError(f"the same values and order as {path.name}, but not the same bytes")
        self.stdout.write(self.style.SUCCESS(f"{len(program)} players, identical to {path.name}"))
