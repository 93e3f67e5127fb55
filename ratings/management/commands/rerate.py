"""``manage.py rerate --pending | --from TABLE | --all | --check``: the re-rating service by hand.

``--pending`` serves the pending request, as the task does; ``--from TABLE`` rates every table again from
that table's position (a table id); ``--all`` rates the whole history again from scratch; ``--check``
re-rates from scratch in memory and lists every stored row or player column that differs (exit status 1 if
any; it writes nothing). A run that finds the lock taken waits ``--lock-timeout`` seconds, then fails.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.models import Table
from ratings.services.rerate import RerateBusy, RerateOutcome, rerate_check, rerate_from, rerate_pending


class Command(BaseCommand):
    help = "Re-rate the pending request, from a table, or everything; or check the stored ratings."

    def add_arguments(self, parser: CommandParser) -> None:
        what = parser.add_mutually_exclusive_group(required=True)
        what.add_argument("--pending", action="store_true", help="serve the pending re-rate request, if any")
        what.add_argument("--from", dest="table", type=int, metavar="TABLE", help="rate again from this table id")
        what.add_argument("--all", action="store_true", help="rate the whole history again from scratch")
        what.add_argument("--check", action="store_true", help="compare the stored ratings with a from-scratch run")
        parser.add_argument("--lock-timeout", type=float, default=None, help="seconds to wait for another re-rate")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"]:
            self._check()
            return
        timeout = options["lock_timeout"]
        try:
            if options["pending"]:
                outcome = rerate_pending(lock_timeout=timeout)
                if outcome is None:
                    self.stdout.write("Nothing is pending.")
                    return
            elif options["all"]:
                outcome = rerate_from(date=None, lock_timeout=timeout)
            else:
                try:
                    table = Table.objects.get(pk=options["table"])
                except Table.DoesNotExist:
                    raise CommandError(f"no table {options['table']}") from None
                outcome = rerate_from(date=table.date, sequence=table.sequence, lock_timeout=timeout)
            self._report(outcome)
            if not options["pending"] and not outcome.cleared:
                follow = rerate_pending(lock_timeout=timeout)  # a request that came in meanwhile
                if follow is not None:
                    self._report(follow)
        except RerateBusy as exc:
            raise CommandError(f"{exc}; try again later") from exc
        if outcome.errors:
            raise CommandError(f"{len(outcome.errors)} table(s) could not be rated")

    def _report(self, outcome: RerateOutcome) -> None:
        start = "scratch" if outcome.start is None else f"{outcome.start[0]} #{outcome.start[1]}"
        self.stdout.write(
            f"Re-rated from {start}: {outcome.tables_rated} tables rated, {outcome.tables_unchanged} unchanged, "
            f"{outcome.rows_written} rating rows written in {outcome.seconds.get('total', 0):.2f} s."
        )
        for table_id, message in outcome.errors.items():
            self.stderr.write(f"table {table_id} could not be rated: {message}")

    def _check(self) -> None:
        differences = rerate_check()
        players = sorted({d.player_id for d in differences})
        for difference in differences:
            self.stdout.write(str(difference))
        if differences:
            raise CommandError(f"{len(differences)} difference(s) for {len(players)} player(s)")
        self.stdout.write("The stored ratings are exactly what re-rating the whole history gives.")
