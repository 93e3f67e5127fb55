"""``manage.py seed_demo``: build the demo federation (ratings/demo), rated by the real engine.

    manage.py seed_demo                      # default size on an empty database
    manage.py seed_demo --if-empty           # what ``make run`` calls: nothing if there are players already
    manage.py seed_demo --flush --players 20000 --years 10     # a large one for benchmarks
    manage.py seed_demo --flush --players 20000 --years 8 --careers-end 0.9 --no-dan-approvals   # harsher

A database that already holds a federation is refused unless ``--flush`` (which deletes it first) or
``--if-empty`` (which then does nothing) is given. The demo logins (password ``demo``) are created only with
DEBUG on or ``--demo-users``, never over an existing user of the same name.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from ratings.demo.build import DemoSummary, demo_build, demo_flush, demo_users_ensure, federation_is_empty
from ratings.demo.clubs import demo_clubs_build
from ratings.demo.official import demo_official_lists
from ratings.demo.reports import demo_reports
from ratings.demo.showcase import demo_showcase
from ratings.demo.sim import Knobs
from ratings.demo.world import default_tables_per_year
from ratings.models import Player
from ratings.services.predictions import prediction_compare

DEFAULT_KNOBS = Knobs()


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


class Command(BaseCommand):
    help = "Build a deterministic, realistic demo federation and rate it through the real engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=_positive, default=400, help="number of players (default 400)")
        parser.add_argument("--years", type=_positive, default=4, help="years of tournaments (default 4)")
        parser.add_argument(
            "--tables-per-year", type=_positive, default=None, help="tables a year (default: players / 10, >= 6)"
        )
        parser.add_argument(
            "--games", type=_positive, default=None, help="about this many rated games (sizes the tables a year)"
        )
        parser.add_argument("--seed", type=int, default=1, help="random seed: the same seed builds the same demo")
        parser.add_argument(
            "--careers-end",
            type=float,
            default=DEFAULT_KNOBS.careers_end,
            help=f"share of amateurs who stop playing during the period (default {DEFAULT_KNOBS.careers_end})",
        )
        parser.add_argument("--drafts", type=int, default=DEFAULT_KNOBS.drafts, help="latest tables left as drafts")
        parser.add_argument(
            "--no-dan-approvals", action="store_true", help="no grade officer approves any Dan promotion"
        )
        parser.add_argument(
            "--until",
            type=dt.date.fromisoformat,
            default=None,
            help="last day of the period, YYYY-MM-DD (default: today)",
        )
        parser.add_argument("--if-empty", action="store_true", help="do nothing if the federation has players")
        parser.add_argument("--flush", action="store_true", help="delete the federation there is first")
        parser.add_argument(
            "--no-showcase",
            action="store_true",
            help="without the season, corrections, merge, official list and Dan climb added to the demo logins' demo",
        )
        parser.add_argument(
            "--demo-users", action="store_true", help="create the demo logins even with DEBUG off (password demo)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["players"] < 12:
            raise CommandError("--players must be at least 12")
        try:
            knobs = Knobs(
                careers_end=options["careers_end"],
                drafts=options["drafts"],
                dan_approvals=not options["no_dan_approvals"],
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if not federation_is_empty():
            if options["if_empty"]:
                count = Player.objects.count()
                self.stdout.write(f"The federation already has {count} players: no demo built.")
                return
            if not options["flush"]:
                raise CommandError("The database already holds a federation; use --flush to replace it.")
            started = time.perf_counter()
            demo_flush()
            self.stdout.write(f"Deleted the federation there was ({time.perf_counter() - started:.1f} s).")

        director = None
        if settings.DEBUG or options["demo_users"]:
            for username, role, created in demo_users_ensure():
                note = "password 'demo'" if created else "already there, password unchanged"
                self.stdout.write(f"  login {username:<9} {role:<21} {note}")
            director = get_user_model().objects.get(username="director")

        if options["tables_per_year"] is not None:
            size = f"{options['tables_per_year']} tables a year"
        elif options["games"] is not None:
            size = f"tables sized for about {options['games']} rated games"
        else:
            size = f"{default_tables_per_year(options['players'])} tables a year"
        self.stdout.write(
            f"Building the demo federation: {options['players']} players, {options['years']} years, "
            f"{size}, seed {options['seed']}."
        )
        summary = demo_build(
            players=options["players"],
            years=options["years"],
            tables_per_year=options["tables_per_year"],
            games=options["games"],
            seed=options["seed"],
            knobs=knobs,
            until=options["until"],
            director=director,
            progress=lambda message: self.stdout.write(f"  {message}"),
        )
        self._report(summary)
        if summary.rating_errors:
            raise CommandError(f"{summary.rating_errors} tables could not be rated; see their rating error.")
        if director is not None and not options["no_showcase"]:
            officer = get_user_model().objects.get(username="officer")
            until = options["until"] or timezone.localdate()
            shown = demo_showcase(seed=options["seed"], until=until, director=director, officer=officer)
            announced = ", ".join(f"{n} {status}" for status, n in sorted(shown.announced.items()))
            self.stdout.write(
                self.style.SUCCESS(
                    f"Showcase: tournaments registered ({announced}); tables {', '.join(shown.tables)}; "
                    f"merged {shown.merged}; left for the duplicates report {shown.duplicate_left}; "
                    f"{shown.corrections} corrections; published {shown.official_list}; "
                    f"Dan grades waiting for the grade officer: {shown.climb or 'none'}."
                )
            )
        self._clubs(options["seed"])
        # The demo shows how well the ratings predict at once, not after the first night (docs/rules.md §11).
        started = time.perf_counter()
        report = prediction_compare()
        games = report.result["games"] if report.result else 0
        self.stdout.write(
            f"Compared the rating systems on {games} games in {time.perf_counter() - started:.1f} s "
            "(/statistics/predictions/)."
        )

    def _clubs(self, seed: int) -> None:
        """The clubs, the women's list (and what builds on them) of the demo: ratings/demo/clubs.py."""
        clubs = demo_clubs_build(seed=seed)
        self.stdout.write(
            f"  {clubs.clubs} clubs, {clubs.memberships} memberships, {clubs.hosted} tournaments with a host club, "
            f"{clubs.womens_list} players on the women's list"
        )
        lists = demo_official_lists()
        self.stdout.write(f"  official lists published: {', '.join(d.isoformat() for d in lists) or 'none'}")
        self.stdout.write(f"  reported mistakes: {demo_reports()}, one in each state")

    def _report(self, s: DemoSummary) -> None:
        promotions = ", ".join(f"{n} {status}" for status, n in sorted(s.promotions.items())) or "none"
        timings = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in s.seconds.items())
        self.stdout.write(
            self.style.SUCCESS(
                f"Built {s.players} players from {s.countries} countries ({s.listed} on the opening list, "
                f"{s.professionals} professionals, {s.prior_grades} with a prior grade), {s.tournaments} tournaments, "
                f"{s.tables_rated} rated tables and {s.tables_draft} drafts, {s.games} rated games "
                f"({s.draws} draws, {s.handicap_games} handicap games, {s.replays} sennichite replays), "
                f"{s.byes} byes, {s.absences} absences.\n"
                f"Promotions: {promotions}.\nTime: {timings}."
            )
        )
