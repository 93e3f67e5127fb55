"""``manage.py fesa_compare PROGRAM_POST [--date D | --files DIR]``: the site's state, or the standalone run of a
table, beside a list the FESA program wrote.

Run after each table during the trial season: the program's ``ratingliste.post`` against the site's state
after the same tables, or (``--files``) against the standalone run on the folder the program read
(ratings/fesa_files/compare.py). Prints every difference by player and field, those that a documented
divergence or one of its consequences explains (docs/rules.md §5, §9: a player with only byes, an exact half
performance root) apart and named with it, and whether the list the site writes is the program's byte for
byte. Exit status 1 only when a difference is unexplained (or, with none at all, when the bytes differ): the
known ones need no chasing.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.engine import EngineError, PlayerState
from ratings.fesa_files.compare import compare_lists, unexplained
from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.program_model import Name, ProgramModel, files_span, program_model
from ratings.fesa_files.ratingliste import ListRecord, read_ratingliste, write_ratingliste
from ratings.fesa_files.run import NYE_SPILLERE, RATINGLISTE_PRE, TURNERING, rate_files
from ratings.management.commands.export_fesa_state import parse_date
from ratings.management.commands.import_fesa_state import read_file
from ratings.selectors.fesa_compare import rated_span
from ratings.services.fesa.state import fesa_state_records


class Command(BaseCommand):
    help = "Compare the site's state with a ratingliste the FESA program wrote; list every difference."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("program_post", metavar="PROGRAM_POST", help="the program's ratingliste.post")
        where = parser.add_mutually_exclusive_group()
        where.add_argument("--date", type=parse_date, help="the site's state after the tables of this date")
        where.add_argument(
            "--files",
            metavar="DIR",
            help=f"instead of the site's state, the standalone run of DIR's {TURNERING} on its {RATINGLISTE_PRE} "
            f"(and {NYE_SPILLERE}), the folder the program read; no database",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["program_post"])
        data = read_file(path)
        try:
            program = read_ratingliste(data, path.name)
            expected = {record.name: record.state for record in program}
            if options["files"]:
                site, model = self._files(Path(options["files"]), expected)
            else:
                site = [entry.record for entry in fesa_state_records(as_of=options["date"])]
                span = rated_span(as_of=options["date"])
                model = program_model(span.start, span.tables, expected, span.names)
            same_bytes = write_ratingliste(site, path.name) == data
        except FesaFileError as exc:
            raise CommandError(str(exc)) from exc
        except EngineError as exc:
            raise CommandError(f"the program's list cannot be modelled: {exc}") from exc
        differences = compare_lists(site, program, model=model)
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

    @staticmethod
    def _files(folder: Path, expected: Mapping[Name, PlayerState]) -> tuple[list[ListRecord], ProgramModel]:
        turnering = read_file(folder / TURNERING)
        pre = read_file(folder / RATINGLISTE_PRE)
        newcomers = read_file(folder / NYE_SPILLERE) if (folder / NYE_SPILLERE).exists() else None
        run = rate_files(turnering, pre, newcomers)
        start, tables = files_span(turnering, pre, newcomers)
        return list(run.records), program_model(start, tables, expected, {name: name for name in start})
