"""The kinds of data the demo may lack, added to a demo federation through the services, so that the walking
check meets every kind of page: a 13-round table and a second table on the same day, a correction and a merge
(made by an officer who reads English: their words must not reach a French or German page), a published
official list, a registered and an accepted tournament.

Idempotent enough for a development database too:
``manage.py shell -c "from tests.pagewalk.data import enrich; enrich()"``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone, translation

from ratings.models import Correction, GameResult, Player, Table, TableStatus
from ratings.services.corrections.apply import correction_make
from ratings.services.merge.apply import player_merge
from ratings.services.official_lists import official_list_publish
from ratings.services.rerate import rerate_pending
from ratings.services.season import tournament_accept, tournament_register
from ratings.services.tables.submit import table_submit
from tests.corrections.helpers import result_flipped
from tests.factories import add_game, make_table, make_tournament

ROUNDS = 13


@dataclass
class Enriched:
    long_table: Table
    same_day: Table
    correction: Correction
    merge: Correction
    registered: int


def circle_rounds(size: int) -> list[list[tuple[int, int]]]:
    """A round robin of ``size`` (even) seats in ``size - 1`` rounds, by the circle method."""
    seats = list(range(size))
    rounds = []
    for _round in range(size - 1):
        rounds.append([(seats[i], seats[size - 1 - i]) for i in range(size // 2)])
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def enrich() -> Enriched:
    """Add what ``Enriched`` holds to the federation the demo built; every table rated in-process."""
    users = get_user_model().objects
    director, officer = users.get(username="director"), users.get(username="officer")
    today = timezone.localdate()
    day = today - dt.timedelta(days=3)
    regulars = list(Player.objects.filter(games__gte=20, merged_into=None).order_by("-rating")[: ROUNDS + 1 + 6])
    tournament = make_tournament("Grand Prix des treize rondes", date=day)
    tournament.directors.add(director)
    long_table = make_table(regulars[: ROUNDS + 1], tournament=tournament, date=day, sequence=1)
    for number, pairs in enumerate(circle_rounds(ROUNDS + 1), 1):
        for n, (a, b) in enumerate(pairs):
            result = (GameResult.FIRST_WON, GameResult.SECOND_WON, GameResult.DRAW)[(number + n) % 3]
            add_game(long_table, number, long_table.entries.get(seat=a + 1).player,
                     long_table.entries.get(seat=b + 1).player, result)  # fmt: skip
    same_day = make_table(regulars[ROUNDS + 1 :], tournament=tournament, date=day, sequence=2)
    for number, pairs in enumerate(circle_rounds(6), 1):
        for a, b in pairs:
            add_game(same_day, number, regulars[ROUNDS + 1 + a], regulars[ROUNDS + 1 + b])
    # A person entered twice: a second record of the weakest regular, who plays one table without him.
    kept = regulars[-1]
    duplicate = Player.objects.create(
        family_name=kept.family_name, given_name=kept.given_name, nationality=kept.nationality
    )
    others = [p for p in Player.objects.filter(games__gte=5, merged_into=None).order_by("rating")[:3]]
    twice = make_table([duplicate, *others], date=day - dt.timedelta(days=30), sequence=9)
    for number, pairs in enumerate(circle_rounds(4), 1):
        for a, b in pairs:
            add_game(twice, number, [duplicate, *others][a], [duplicate, *others][b])
    for table in (twice, long_table, same_day):
        with transaction.atomic():
            table_submit(table=table, user=None)
        rerate_pending()
    with translation.override("en"):  # the officer reads English; his words must not reach other languages
        long_table.refresh_from_db()
        correction = correction_make(
            user=officer, reason="Result swapped on the sheet", change=result_flipped(long_table), expected=None
        )
        rerate_pending()
        merge = player_merge(user=officer, duplicate=duplicate, kept=kept, reason="Entered twice", expected=None)
        rerate_pending()
    official_list_publish(date=today, user=officer, title="", note="", expected=None)
    registered = register_two(director=director, officer=officer, today=today)
    assert Table.objects.filter(status=TableStatus.RATED, pk__in=[long_table.pk, same_day.pk]).count() == 2
    return Enriched(long_table, same_day, correction, merge, registered)


def register_two(*, director: object, officer: object, today: dt.date) -> int:
    """Two tournaments registered by the director, the first accepted: long names, a long contact."""
    registered = 0
    for n, (name, city, country) in enumerate(
        (("Open de Lyon", "Lyon", "FR"), ("Kölner Shogi-Turnier der Vereine und Freunde des Spiels", "Köln", "DE"))
    ):
        tournament = tournament_register(
            tournament=None,
            user=director,
            name=name,
            start_date=today + dt.timedelta(days=40 + 7 * n),
            end_date=today + dt.timedelta(days=41 + 7 * n),
            city=city,
            country=country,
            main_time_minutes=20,
            increment_seconds=None,
            byoyomi_seconds=40,
            mode="Swiss",
            contact="tournoi.directeur.principal@association-shogi-exemple.org",
            announcement_url="https://www.association-shogi-exemple.org/tournois/2026/open-de-lyon/inscription",
        )
        if n == 0:
            tournament_accept(tournament=tournament, user=officer)
        registered += 1
    return registered
