"""What a person meets on the site beyond the demo's rated history, added to a built demo by the site's own
services, each step as the role that does it:

* the season: tournaments registered with FESA and accepted (coming ones in three countries, recent ones
  rated, two ended without results, one awaited and one overdue), one waiting for review and one refused;
* a table of 13 rounds (a round robin of 14), where a player was entered a second time under his name written
  the other way round; the rating officer merges the two;
* a newcomers' table: an unrated newcomer, a newcomer who lost every game, and a near-duplicate of a listed
  player left for the officer's duplicates report;
* an official list published after those tables, then a correction of one of the 13-round table's games
  (so the published list and the list of its date today differ);
* a player's climb through several Dan grades found at once and waiting for the grade officer.

Deterministic: the players are chosen by rating and federation id, the results drawn from ``seed``, every date
counted from ``until``. Timestamps (registered, reviewed, published) are the moment the demo is built.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from ratings.models import (
    AnnouncementStatus,
    GameResult,
    Player,
    PriorGradeSource,
    Promotion,
    PromotionStatus,
    Table,
    Tournament,
    player_search_key,
)
from ratings.services.corrections.apply import correction_make
from ratings.services.corrections.facts import TableChange
from ratings.services.merge.apply import player_merge
from ratings.services.official_lists import official_list_publish
from ratings.services.rerate import rerate_pending
from ratings.services.tables.save import EntryFacts, GameEdit, table_save
from ratings.services.tables.submit import GameFacts, table_submit

MASTERS_SIZE = 14  # a round robin of 14: 13 rounds
DRAW_SHARE = 0.04
CLIMB_GRADES = 3  # Dan grades the climber's table finds at once

# (days from ``until`` to the start, days played, name, city, country, status, the demo director's)
SEASON: tuple[tuple[int, int, str, str, str, str, bool], ...] = (
    (12, 2, "Open de Lyon", "Lyon", "FR", AnnouncementStatus.ACCEPTED, True),
    (33, 1, "Kölner Shogi-Tag", "Köln", "DE", AnnouncementStatus.ACCEPTED, False),
    (61, 2, "Amsterdam Shogi Open", "Amsterdam", "NL", AnnouncementStatus.ACCEPTED, False),
    (96, 3, "European Shogi Championship", "Praha", "CZ", AnnouncementStatus.ACCEPTED, False),
    (40, 1, "Coupe d'automne de Nantes", "Nantes", "FR", AnnouncementStatus.PROPOSED, True),
    (26, 1, "Blitz night", "Bruxelles", "BE", AnnouncementStatus.REFUSED, False),
    (-6, 1, "Tournoi de Grenoble", "Grenoble", "FR", AnnouncementStatus.ACCEPTED, True),
    (-30, 1, "Torneo di Milano", "Milano", "IT", AnnouncementStatus.ACCEPTED, False),
)
REFUSAL = "The time control is below FESA's minimum (30 minutes + 30 seconds, or 20 minutes + 40 seconds byoyomi)."
RECENT_DAYS = 120  # the demo's tournaments that ended this recently were registered with FESA


@dataclass
class ShowcaseSummary:
    announced: Counter[str] = field(default_factory=Counter)  # tournaments by registration status
    tables: list[str] = field(default_factory=list)
    merged: str = ""
    duplicate_left: str = ""
    corrections: int = 0
    official_list: str = ""
    climb: str = ""


def demo_showcase(*, seed: int, until: dt.date, director: Any, officer: Any) -> ShowcaseSummary:
    """Add the showcase to a demo built up to ``until`` (``demo_build``), as ``director`` and ``officer``."""
    rng = random.Random(f"{seed}/showcase")
    summary = ShowcaseSummary()
    with transaction.atomic():
        _season(until, director, officer, summary)
    masters, duplicate, kept = _masters(rng, until, director)
    newcomers = _newcomers(rng, until, director, summary)
    climb = _climb(until, director)
    rerate_pending()
    summary.tables = [str(masters), str(newcomers), str(climb)]
    official = official_list_publish(
        date=until - dt.timedelta(days=4),
        user=officer,
        title=f"FESA {until:%Y-%m}",
        expected=None,
    )
    summary.official_list = official.title
    _correct_a_game(masters, officer)
    player_merge(
        user=officer,
        duplicate=duplicate,
        kept=kept,
        reason="The same person: his names were entered the other way round at the Masters.",
        expected=None,
    )
    rerate_pending()
    summary.corrections, summary.merged = 2, f"{duplicate.family_name} {duplicate.given_name} → {kept}"
    pending = Promotion.objects.filter(player=climb.entries.order_by("seat").first().player)  # type: ignore[union-attr]
    summary.climb = ", ".join(str(p.grade) for p in pending.filter(status=PromotionStatus.PENDING))
    return summary


def _aware(day: dt.date, hour: int = 12) -> dt.datetime:
    moment = timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))
    return min(moment, timezone.now())


def _announce(tournament: Tournament, status: str, officer: Any) -> None:
    tournament.main_time_minutes, tournament.increment_seconds = 30, 30
    tournament.time_control = tournament.time_control or "30 min + 30 s"
    tournament.mode = tournament.mode or "Swiss"
    tournament.contact = tournament.contact or "td@example.org"
    tournament.planned_tables = max(1, tournament.planned_tables or 1)
    tournament.registered_at = _aware(tournament.start_date - dt.timedelta(days=45))
    tournament.announcement = status
    if status != AnnouncementStatus.PROPOSED:
        tournament.reviewed_at = _aware(tournament.start_date - dt.timedelta(days=40))
        tournament.reviewed_by = officer
        tournament.review_reason = REFUSAL if status == AnnouncementStatus.REFUSED else ""


def _season(until: dt.date, director: Any, officer: Any, summary: ShowcaseSummary) -> None:
    """The registered tournaments: the demo's recent ones, and those of ``SEASON``."""
    recent = Tournament.objects.filter(end_date__gt=until - dt.timedelta(days=RECENT_DAYS)).order_by("pk")
    for tournament in recent:
        _announce(tournament, AnnouncementStatus.ACCEPTED, officer)
        tournament.save()
        summary.announced[AnnouncementStatus.ACCEPTED] += 1
    for days, length, name, city, country, status, directed in SEASON:
        start = until + dt.timedelta(days=days)
        tournament = Tournament(
            name=name,
            city=city,
            country=country,
            start_date=start,
            end_date=start + dt.timedelta(days=length - 1),
            contact=f"{city.lower()}@example.org",
            announcement_url=f"https://example.org/{city.lower()}",
            planned_tables=length,
            created_by=director,
        )
        _announce(tournament, status, officer)
        tournament.save()
        if directed:
            tournament.directors.add(director)
        summary.announced[status] += 1


def _round_robin(players: Sequence[Player], rng: random.Random) -> list[GameEdit]:
    """Every pair once (the circle method: n - 1 rounds for n players), the stronger player winning as often
    as Elo expects, a few draws."""
    seats = list(players)
    n = len(seats)
    games = []
    for round_ in range(1, n):
        for i in range(n // 2):
            first, second = seats[i], seats[n - 1 - i]
            if round_ % 2 == 0:
                first, second = second, first
            expected = 1 / (1 + 10 ** ((second.rating - first.rating) / 400))
            draw = rng.random()
            if draw < DRAW_SHARE:
                result = GameResult.DRAW
            else:
                result = GameResult.FIRST_WON if rng.random() < expected else GameResult.SECOND_WON
            games.append(GameEdit(facts=GameFacts(round=round_, first_id=first.pk, second_id=second.pk, result=result)))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return games


def _tournament(name: str, city: str, country: str, day: dt.date, director: Any) -> Tournament:
    tournament = Tournament.objects.create(
        name=name, city=city, country=country, start_date=day, end_date=day, created_by=director
    )
    tournament.directors.add(director)
    return tournament


def _table(tournament: Tournament, name: str, players: Sequence[Player], games: list[GameEdit], director: Any) -> Table:
    entries = [EntryFacts(player_id=p.pk, seat=i) for i, p in enumerate(players, 1)]
    saved = table_save(
        table=None,
        tournament=tournament,
        name=name,
        date=tournament.start_date,
        entries=entries,
        games=games,
        strict_dates=False,
    ).table
    table_submit(table=saved, user=director)
    return saved


def _newcomer(family_name: str, given_name: str, country: str, number: int) -> Player:
    player = Player(
        federation_id=f"DEMO{number:04d}",
        family_name=family_name,
        given_name=given_name,
        nationality=country,
        search_name=player_search_key(family_name, given_name),
    )
    player.save()
    return player


def _strongest(count: int, *, exclude: Sequence[int] = ()) -> list[Player]:
    return list(
        Player.objects.filter(merged_into=None, games__gt=0, is_professional=False)
        .exclude(pk__in=exclude)
        .order_by("-rating", "federation_id")[:count]
    )


def _masters(rng: random.Random, until: dt.date, director: Any) -> tuple[Table, Player, Player]:
    """The 13-round table; the duplicate entered in it and the player he is."""
    day = until - dt.timedelta(days=9)
    players = _strongest(MASTERS_SIZE)
    kept = players.pop()  # the 14th by rating plays under his name written the other way round
    duplicate = _newcomer(kept.given_name or kept.family_name, kept.family_name, kept.nationality.code or "", 1)
    players.append(duplicate)
    tournament = _tournament("FESA Masters", "Wien", "AT", day, director)
    _announce(tournament, AnnouncementStatus.ACCEPTED, director)
    tournament.save()
    return _table(tournament, "", players, _round_robin(players, rng), director), duplicate, kept


def _newcomers(rng: random.Random, until: dt.date, director: Any, summary: ShowcaseSummary) -> Table:
    """Six players, three of them new: one unrated with a few wins, one who loses every game, and one whose
    name is a letter away from a listed player's (not merged: the duplicates report shows the pair)."""
    day = until - dt.timedelta(days=7)
    regulars = list(
        Player.objects.filter(merged_into=None, games__gt=20, is_professional=False, nationality="FR").order_by(
            "rating", "federation_id"
        )[:4]
    )
    near = regulars.pop()
    unrated = _newcomer("Lemaire", "Zoé", "FR", 2)
    loser = _newcomer("Petitjean", "Hugo", "FR", 3)
    twin = _newcomer(near.family_name + "e", near.given_name, "FR", 4)
    summary.duplicate_left = f"{twin.family_name} {twin.given_name} ~ {near}"
    players = [unrated, *regulars, twin, loser]
    games = _round_robin(players, rng)
    fixed = []
    for game in games:  # the newcomer who loses every game
        facts = game.facts
        if loser.pk in (facts.first_id, facts.second_id):
            won = GameResult.SECOND_WON if facts.first_id == loser.pk else GameResult.FIRST_WON
            facts = GameFacts(round=facts.round, first_id=facts.first_id, second_id=facts.second_id, result=won)
        fixed.append(GameEdit(facts=facts))
    tournament = _tournament("Coupe des débutants", "Rennes", "FR", day, director)
    return _table(tournament, "", players, fixed, director)


def _climb(until: dt.date, director: Any) -> Table:
    """A player with a 1 Dan prior grade listed far below his strength wins a table of strong players: the
    rules find several Dan grades at once, each waiting for the grade officer."""
    day = until - dt.timedelta(days=6)
    climber = _newcomer("Takeda", "Kenji", "DE", 5)
    climber.prior_grade_kind, climber.prior_grade_level = "dan", 1
    climber.prior_grade_source, climber.prior_grade_date = PriorGradeSource.NSR, day
    climber.save()
    opponents = _strongest(CLIMB_GRADES * 2 + 1)
    tournament = _tournament("Berliner Dan-Turnier", "Berlin", "DE", day, director)
    games = []
    for round_, opponent in enumerate(opponents, 1):
        facts = GameFacts(round=round_, first_id=climber.pk, second_id=opponent.pk, result=GameResult.FIRST_WON)
        games.append(GameEdit(facts=facts))
    others = opponents[:]
    return _table(tournament, "", [climber, *others], games, director)


def _correct_a_game(table: Table, officer: Any) -> None:
    """One game of the rated table entered the wrong way round, corrected with a reason."""
    table.refresh_from_db()
    games = [GameEdit(facts=GameFacts.of(g), id=g.pk) for g in table.games.order_by("round", "id")]
    flip: dict[str, GameResult] = {
        GameResult.FIRST_WON: GameResult.SECOND_WON,
        GameResult.SECOND_WON: GameResult.FIRST_WON,
    }
    index = next(i for i, g in enumerate(games) if g.facts.result in flip and g.facts.round == 3)
    facts = games[index].facts
    games[index] = GameEdit(
        facts=GameFacts(
            round=facts.round, first_id=facts.first_id, second_id=facts.second_id, result=flip[facts.result]
        ),
        id=games[index].id,
    )
    entries = [EntryFacts(player_id=e.player_id, seat=e.seat) for e in table.entries.order_by("seat")]
    correction_make(
        user=officer,
        reason="The scoresheet of round 3 shows the other player won; entered the wrong way round.",
        change=TableChange.in_place(table, entries, games),
        expected=None,
    )
