"""``manage.py compare_ratings``: how well FESA's ratings and the other rating systems predict the federation's
games (ratings/services/predictions.py). Prints the whole history's table and, with ``--csv``, writes every
figure (each system, the whole history and each year, even and handicap games) to a CSV file.

The report of the current data is computed unless it is stored already (``--force`` computes it again); the
page and the API show the same report.

``--what-if NAME=VALUE`` (repeated) replays FESA's rules with other constants instead (ratings/services/whatif.py)
and prints its figures beside the stored ratings' and the players it would move most; the rating officers' page
shows the same what-if. NAME is one of ``k`` (the seven K, highest band first), ``k_from`` (where the bands
start), ``bonus_ceiling``, ``bonus_divisor``, ``bonus_games`` or ``handicap.CODE`` (a handicap in grades):
``--what-if k=32,40,48,56,64,72,80 --what-if handicap.L=0.8``.
"""

from __future__ import annotations

import csv
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.engine.errors import InvalidRules
from ratings.engine.rules import RuleConstants
from ratings.engine.systems.compare import ALL, COLUMNS, EVEN, FESA, HANDICAP, report_rows
from ratings.selectors.spreadsheet import csv_cell
from ratings.services.predictions import prediction_compare
from ratings.services.whatif import whatif_compute, whatif_request

WHAT_IF_NAMES = ("k", "k_from", "bonus_ceiling", "bonus_divisor", "bonus_games")


def what_if_rules(pairs: list[str]) -> RuleConstants:
    """The constants of ``NAME=VALUE`` pairs, FESA's for every name not given; CommandError for a bad one."""
    data: dict[str, Any] = {}
    handicaps: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep or not value.strip():
            raise CommandError(f"--what-if {pair!r}: expected NAME=VALUE")
        if name.startswith("handicap."):
            handicaps[name.removeprefix("handicap.")] = value
        elif name in WHAT_IF_NAMES:
            data[name] = value
        else:
            raise CommandError(f"--what-if {pair!r}: NAME is one of {', '.join(WHAT_IF_NAMES)} or handicap.CODE")
    if handicaps:
        data["handicaps"] = handicaps
    try:
        return RuleConstants.from_json(data)
    except InvalidRules as exc:
        raise CommandError(f"--what-if: {exc}") from exc


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
        parser.add_argument(
            "--what-if",
            action="append",
            metavar="NAME=VALUE",
            help="Replay FESA's rules with this constant changed instead (repeatable; see the module's help).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["what_if"]:
            self._what_if(what_if_rules(options["what_if"]))
            return
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

    def _what_if(self, rules: RuleConstants) -> None:
        report = whatif_compute(report_id=whatif_request(rules=rules, queue=False).pk)
        if report.result is None:
            self.stdout.write(f"the what-if {report.rules_key} on data version {report.version} is {report.status}")
            return
        result = report.result
        changes = "; ".join(f"{name}: {fesa} -> {mine}" for name, (fesa, mine) in result["differences"].items())
        self.stdout.write(f"what-if on data version {report.version}: {changes or 'FESA constants'}")
        self.stdout.write(f"{result['whatif']['tables']} tables, {result['unrated']} not rated with these constants")
        for kind in (EVEN, HANDICAP):
            self.stdout.write(f"\n{kind} games, whole history")
            self.stdout.write(f"{'ratings':<14}{'games':>8}{'decisive':>10}{'hits':>9}{'brier':>9}{'log loss':>10}")
            for side in ("actual", "whatif"):
                f = result[side]["figures"][FESA][ALL][kind]
                hit = "–" if f["hits"] is None else f"{f['hits'] * 100:.2f}%"
                self.stdout.write(
                    f"{side:<14}{f['games']:>8}{f['decisive']:>10}{hit:>9}{_figure(f['brier']):>9}"
                    f"{_figure(f['log_loss']):>10}"
                )
        self.stdout.write(f"\nplayers whose rating would differ most today (of {len(result['players'])} shown)")
        for row in result["players"]:
            self.stdout.write(
                f"  player {row['player']}: {row['rating']} -> {row['whatif_rating']} ({row['change']:+d})"
            )
        self.stdout.write(f"players whose grade would differ: {result['grades_count']}")
