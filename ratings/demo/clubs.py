"""The demo's clubs, juniors and seniors, and its women's list, added to a built federation (ratings/demo/build.py).

Deterministic from the seed: a few clubs in each country's first cities, most amateurs in a club of their
country from the day they joined, some of them moving to another club later (so a past date's list shows the
club of that date), each tournament hosted by a club of its city where there is one, and about half of the
players whose given name is a woman's on the women's list, each with the date of her consent. The dates of
birth the demo players already have make the juniors and seniors.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from ratings.demo.names import BY_CODE
from ratings.models import Club, ClubMembership, Player, Tournament
from ratings.models.common import name_fold_key

CLUB_WORDS = ("Shogi Club", "Shogi-kai", "Cercle de shogi", "Shogi-Verein")
CLUBS_PER_COUNTRY = 3
MOVER_SHARE = 0.12  # players who change club once
IN_A_CLUB = 0.8
WOMENS_LIST_SHARE = 0.6


@dataclass
class DemoClubsSummary:
    clubs: int = 0
    memberships: int = 0
    hosted: int = 0
    womens_list: int = 0


def _club_name(rng: random.Random, code: str, city: str) -> str:
    word = {"FR": "Cercle de shogi", "DE": "Shogi-Verein", "JP": "Shogi-kai"}.get(code, rng.choice(CLUB_WORDS[:2]))
    return f"{word} {city}" if word != "Shogi-kai" else f"{city} {word}"


@transaction.atomic
def demo_clubs_build(*, seed: int = 1) -> DemoClubsSummary:
    """Clubs, memberships by date, host clubs and the women's list for the demo federation in the database."""
    rng = random.Random(seed * 7919 + 43)
    summary = DemoClubsSummary()
    players = list(
        Player.objects.filter(is_professional=False, merged_into__isnull=True)
        .order_by("pk")
        .values_list("pk", "nationality", "given_name", "created_at")
    )
    clubs_by_country: dict[str, list[Club]] = {}
    for code in sorted({nat for _pk, nat, _g, _c in players if nat}):
        country = BY_CODE.get(code)
        cities = country.cities[:CLUBS_PER_COUNTRY] if country else ()
        clubs = [
            Club(
                name=name,
                name_key=name_fold_key(name),
                country=code,
                city=city,
                website=f"https://shogi-{code.lower()}-{i + 1}.example.org/",
            )
            for i, city in enumerate(cities)
            for name in [_club_name(rng, code, city)]
        ]
        clubs_by_country[code] = Club.objects.bulk_create(clubs)
        summary.clubs += len(clubs)
    first_day = _first_table_day()
    today = timezone.localdate()
    memberships = []
    for pk, code, _given, _created in players:
        clubs = clubs_by_country.get(code) or []
        if not clubs or rng.random() > IN_A_CLUB:
            continue
        first = rng.choice(clubs)
        memberships.append(ClubMembership(player_id=pk, club=first, since=first_day))
        others = [c for c in clubs if c.pk != first.pk]
        if others and rng.random() < MOVER_SHARE:
            span = max(1, (today - first_day).days - 30)
            moved = first_day + dt.timedelta(days=rng.randint(30, span))
            memberships.append(ClubMembership(player_id=pk, club=rng.choice(others), since=moved))
    ClubMembership.objects.bulk_create(memberships)
    summary.memberships = len(memberships)
    summary.hosted = _hosts_set(clubs_by_country)
    summary.womens_list = _womens_list(rng, players, today)
    return summary


def _first_table_day() -> dt.date:
    first = Tournament.objects.order_by("start_date").values_list("start_date", flat=True).first()
    return first or timezone.localdate()


def _hosts_set(clubs_by_country: dict[str, list[Club]]) -> int:
    by_city = {(c.country.code, c.city): c for clubs in clubs_by_country.values() for c in clubs}
    hosted = 0
    for tournament in Tournament.objects.only("pk", "country", "city"):
        club = by_city.get((tournament.country.code, tournament.city))
        if club is not None:
            Tournament.objects.filter(pk=tournament.pk).update(host_club=club)
            hosted += 1
    return hosted


def _womens_list(rng: random.Random, players: list[tuple[int, str, str, dt.datetime]], today: dt.date) -> int:
    women = [
        pk
        for pk, code, given, _created in players
        if code in BY_CODE and given in BY_CODE[code].female and rng.random() < WOMENS_LIST_SHARE
    ]
    for pk in women:
        consent = today - dt.timedelta(days=rng.randint(10, 700))
        Player.objects.filter(pk=pk).update(on_womens_list=True, womens_list_consent=consent)
    return len(women)
