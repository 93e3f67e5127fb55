"""``manage.py import_turnering FILE [--new-players NYE] [--tournament ID] [--submit]``: a director's table
from the command line.

The same service as the admin upload (ratings/services/fesa/turnering.py), with the command line's rules:
only exact names are taken; ``--new-players`` creates the players of the program's ``nye-spillere`` file
with the table, as the program reads them (names, nationality, prior grade, any stored rating and games),
and takes those the site has already as they are (given to ``import_fesa_state`` too, say); a name
nobody has is an error unless ``--create-new`` (new players get the nationality the file gives, no prior
grade); namesakes and close names are errors naming the line (the
admin upload lets a director choose). Without ``--tournament`` a tournament named after the file is
created. ``--dry-run`` shows the rating effect and saves nothing. Exit status 1 on any problem; then
nothing is saved.

Afterwards ``manage.py rewrite_derived_files`` writes the downloads anew (docs/deploy.md), so they show the import
before the next re-rate does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.management.commands.import_fesa_state import read_file
from ratings.models import Tournament
from ratings.services.fesa.turnering import TurneringPlan, TurneringRejected, turnering_import


class Command(BaseCommand):
    help = "Import a turnering.txt as a table (and submit it for rating with --submit)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the turnering.txt (ISO-8859-1 or UTF-8)")
        parser.add_argument("--tournament", type=int, help="id of the tournament the table belongs to")
        parser.add_argument("--submit", action="store_true", help="submit the table for rating once saved")
        parser.add_argument("--new-players", metavar="NYE", help="the nye-spillere file that comes with the table")
        parser.add_argument("--create-new", action="store_true", help="create players whose name nobody has")
        parser.add_argument("--sequence", type=int, help="order among the tables of the date (default: next free)")
        parser.add_argument("--name", default="", help="the table's name within its tournament")
        parser.add_argument("--dry-run", action="store_true", help="show what would happen, save nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        data = read_file(path)
        newcomers = Path(options["new_players"]) if options["new_players"] else None
        tournament = None
        if options["tournament"] is not None:
            tournament = Tournament.objects.filter(pk=options["tournament"]).first()
            if tournament is None:
                raise CommandError(f"no tournament with id {options['tournament']}")
        commit = not options["dry_run"]
        try:
            plan = turnering_import(
                data=data,
                file=path.name,
                tournament=tournament,
                create_new=options["create_new"],
                nye_spillere=read_file(newcomers) if newcomers else None,
                nye_spillere_file=newcomers.name if newcomers else "nye-spillere",
                sequence=options["sequence"],
                table_name=options["name"],
                commit=commit,
                submit=options["submit"] and commit,
            )
        except TurneringRejected as exc:
            self._report(exc.plan)
            raise CommandError(f"{path.name}: {len(exc.plan.problems)} problem(s); nothing was saved") from exc
        self._report(plan)
        if not plan.ok:
            raise CommandError(f"{path.name}: {len(plan.problems)} problem(s)")
        if plan.table_id is None:
            self.stdout.write("Dry run: nothing was saved.")
        else:
            done = "saved and submitted for rating" if options["submit"] else "saved as a draft"
            self.stdout.write(self.style.SUCCESS(f"Table {plan.table_id} {done} ({plan.created_players} new players)."))

    def _report(self, plan: TurneringPlan) -> None:
        if plan.turnering is not None:
            t = plan.turnering
            self.stdout.write(f"{t.name} — {t.date.isoformat()} (sequence {plan.sequence}), {len(t.players)} players")
        for note in plan.notes:
            self.stdout.write(f"note: {note}")
        for effect in plan.effects:
            change = f"{effect.rating_after}*" if effect.method == "performance" else f"{effect.change:+d}"
            promoted = f"  promoted to {effect.promoted_to}" if effect.promoted_to else ""
            new = " (new)" if effect.new_player else ""
            ratings = f"{effect.rating_before} -> {effect.rating_after} ({change})"
            self.stdout.write(f"{effect.number:>3} {effect.name}{new}: {ratings}{promoted}")
        for problem in plan.problems:
            self.stderr.write(f"{problem.file or plan.file}: {problem}")
        if any(line.choice is None and not line.match.candidates for line in plan.lines):
            self.stderr.write("(--create-new creates the players nobody has)")
