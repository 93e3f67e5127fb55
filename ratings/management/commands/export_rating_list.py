"""``manage.py export_rating_list --format all.txt|csv|json [--date D] [--grades fesa|public] [--output FILE]``.

The rating list of a date (default today): ``all.txt`` exactly as the FESA program writes it
(ISO-8859-1), or CSV/JSON (UTF-8), all from the stored rating list (ratings/services/lists.py, made now if it
is not there yet; ratings/selectors/list_files.py: the page's players, order and ranks). Grades are the computed
FESA grades by default, as the program prints them; ``--grades public`` shows Dan grades only once approved, as the
site does. Written to standard output unless ``--output`` is given. all.txt holds Latin letters only: the players
who have a name in another script and no Latin form are listed on standard error as a warning (the files write them
transliterated), each with a Japanese reading to check where the name has one.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from ratings.fesa_files.errors import FesaFileError
from ratings.management.commands.export_fesa_state import parse_date, write_output
from ratings.selectors import FORMATS, rating_list_file
from ratings.selectors.name_forms import names_transliterated
from ratings.services.lists import list_stored


class Command(BaseCommand):
    help = "Write the rating list of a date as all.txt, CSV or JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", choices=FORMATS, default="all.txt")
        parser.add_argument("--date", type=parse_date, help="the list's date (default: today)")
        parser.add_argument("--grades", choices=("fesa", "public"), default="fesa")
        parser.add_argument("--output", default="-", help="the file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        date = options["date"] or timezone.localdate()
        try:
            stored = list_stored(date, active=True)
            data, _content_type = rating_list_file(stored, format=options["format"], grades=options["grades"])
        except FesaFileError as exc:
            raise CommandError(str(exc)) from exc
        write_output(self, options["output"], data)
        if options["format"] == "all.txt":
            self._warn_transliterated()

    def _warn_transliterated(self) -> None:
        players = names_transliterated()
        if not players:
            return
        self.stderr.write(
            f"warning: {len(players)} player(s) have a name in another script and no Latin form; the files write "
            "them transliterated until a rating officer gives the form each uses (admin: Players, Latin form: missing):"
        )
        for found in players:
            reading = f"; a Japanese reading to check: {found.reading}" if found.reading else ""
            self.stderr.write(f"  #{found.player.federation_id} {found.player}: written {found.written}{reading}")
