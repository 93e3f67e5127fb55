"""``manage.py fesa_run DIR [DIR ...]``: the FESA program's run on files, without the database.

Each DIR holds ``turnering.txt``, ``ratingliste.pre`` and optionally ``nye-spillere``; the run writes
``ratingliste.post``, ``all.txt`` and ``result.txt`` beside them (ratings/fesa_files/folders.py). The three
files are written to temporary files in DIR and renamed only once all are written, so a DIR that fails
gets none of them. DIRs are independent: a failure is reported on stderr with its DIR and the others go
on; the command fails (exit status 1) if any DIR failed. ``--jobs N`` shares the DIRs among N worker
processes (0: one per processor), reporting them in their order all the same. ``python -m
ratings.fesa_files`` is the same run without starting Django.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.fesa_files.folders import JOBS_HELP, available_cpus, failure_summary, run_directories


class Command(BaseCommand):
    help = (
        "Rate the table in each DIR (turnering.txt, ratingliste.pre, optional nye-spillere) as the FESA "
        "program does and write ratingliste.post, all.txt and result.txt there. No database is touched."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("directories", nargs="+", metavar="DIR", type=Path)
        parser.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help=JOBS_HELP)

    def handle(self, *args: Any, **options: Any) -> None:
        directories: list[Path] = options["directories"]
        if options["jobs"] < 0:
            raise CommandError("--jobs must be 0 (one per processor) or more")
        jobs = options["jobs"] or available_cpus()
        failed = run_directories(directories, self.stdout.write, self.stderr.write, jobs)
        if failed:
            raise CommandError(failure_summary(failed, len(directories)))
