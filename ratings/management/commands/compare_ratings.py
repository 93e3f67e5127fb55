"""``manage.py compare_ratings``: how well FESA's ratings and the other rating systems predict the federation's
games (ratings/services/predictions.py). Prints the whole history's table and, with ``--csv``, writes every
figure (each system, the whole history and each year, even and handicap games) to a CSV file.

The report of the current data is computed unless it is stored already (``--force`` computes it again); the
page and the API show the same report.
"""

from __future__ import annotations

import csv
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ratings.engine.systems.compare import ALL, COLUMNS, EVEN, HANDICAP, report_rows
from ratings.selectors.spreadsheet import csv_cell
from ratings.services.predictions import prediction_compare


def _figure(value: float | None, digits: int = 4) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


class Command(BaseCommand):
    help = "Compare how well the rating systems predict the federation's games; print the table, write a CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--csv", metavar="PATH", help="Write every figure to this CSV file.")
        parser.add_argument("--force", action="store_true", help="Compute again even if the data's report is stored.")
        parser.add_argument(
            "--courier-refresh",
            choices=["table", "month"],
            help="Rate Game Courier afresh before every table or every month (default: by the history's size).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        report = prediction_compare(force=options["force"], courier_refresh=options["courier_refresh"])
        if report.result is None:
            self.stdout.write(f"the comparison of data version {report.version} is {report.status}; nothing to show")
            return
        result = report.result
        self.stdout.write(
            f"data version {report.version}: {result['tables']} tables, {result['games']} games counted "
            f"(Game Courier rated afresh every {result.get('courier_refresh', 'table')})"
        )
        rows = report_rows(result)
        for kind in (EVEN, HANDICAP):
            self.stdout.write(f"\n{kind} games, whole history")
            self.stdout.write(f"{'system':<14}{'games':>8}{'decisive':>10}{'hits':>9}{'brier':>9}{'log loss':>10}")
            for system, period, row_kind, games, decisive, hits, brier, log_loss in rows:
                if period != ALL or row_kind != kind:
                    continue
                hit = "–" if hits is None else f"{hits * 100:.1f}%"
                self.stdout.write(
                    f"{system:<14}{games:>8}{decisive:>10}{hit:>9}{_figure(brier):>9}{_figure(log_loss):>10}"
                )
        if options["csv"]:
            with open(options["csv"], "w", newline="", encoding="utf-8") as out:
                writer = csv.writer(out)
                writer.writerow(COLUMNS)
                writer.writerows([csv_cell(value) for value in row] for row in rows)
            self.stdout.write(f"\nwrote {len(rows)} rows to {options['csv']}")
