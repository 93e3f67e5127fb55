"""The demo federation (manage.py seed_demo): deterministic, rated through the real engine, and realistic enough
to show every kind of game the site handles."""

from __future__ import annotations

import datetime as dt
import io
import re
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.demo.build import tables_replay
from ratings.demo.world import world_build
from ratings.models import (
    AnnouncementStatus,
    Correction,
    Game,
    GameResult,
    MistakeReport,
    OfficialList,
    Player,
    Promotion,
    PromotionStatus,
    RatingRow,
    Table,
    TableEntry,
    TableStatus,
    Tournament,
)
from ratings.services.rerate import rerate_check
from ratings.services.tables.submit import table_validate
from tests.factories import make_player

pytestmark = pytest.mark.django_db

# Small enough to take a second or two, big enough to hold draws, byes and handicap games.
SMALL = ["--players", "90", "--years", "2", "--tables-per-year", "12", "--until", "2024-06-30"]


def seed(*args: str) -> str:
    out = io.StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def snapshot() -> dict[str, Any]:
    """Everything the rating produced, keyed by what does not depend on database ids."""
    players = {
        p.federation_id: (str(p), p.nationality, p.rating, p.games, p.fesa_grade, p.grade, p.category)
        for p in Player.objects.all()
    }
    rows = sorted(
        RatingRow.objects.values_list("player__federation_id", "date", "sequence", "rating_after", "state_after")
    )
    return {"players": players, "rows": rows}


def test_seed_demo_same_seed_gives_identical_ratings() -> None:
    seed(*SMALL, "--seed", "7")
    first = snapshot()
    seed(*SMALL, "--seed", "7", "--flush")
    second = snapshot()
    assert first["rows"], "the demo rated nothing"
    assert first == second


def test_seed_demo_other_seed_gives_another_federation() -> None:
    seed(*SMALL, "--seed", "7")
    first = snapshot()
    seed(*SMALL, "--seed", "8", "--flush")
    assert snapshot()["players"].keys() != first["players"].keys()


def test_seed_demo_if_empty_is_a_no_op_on_a_populated_database() -> None:
    player = make_player("Existing")
    output = seed(*SMALL, "--if-empty")
    assert "no demo built" in output
    assert list(Player.objects.all()) == [player]
    assert not Tournament.objects.exists()


def test_seed_demo_refuses_a_populated_database_without_flush() -> None:
    make_player("Existing")
    with pytest.raises(CommandError, match="--flush"):
        seed(*SMALL)
    assert Player.objects.count() == 1


def test_seed_demo_if_empty_builds_on_an_empty_database() -> None:
    seed(*SMALL, "--if-empty")
    assert Player.objects.count() == 90


def test_seed_demo_rates_every_submitted_table_and_the_check_finds_nothing() -> None:
    seed(*SMALL)
    tables = list(Table.objects.all())
    drafts = [t for t in tables if t.status == TableStatus.DRAFT]
    rated = [t for t in tables if t.status == TableStatus.RATED]
    assert len(drafts) == 2  # the latest two: work in progress for the admin
    assert len(rated) == len(tables) - 2
    assert max(t.date for t in rated) <= min(t.date for t in drafts)
    assert not [t for t in tables if t.rating_error]
    assert set(RatingRow.objects.values_list("table_id", flat=True).distinct()) == {t.pk for t in rated}
    for table in tables:
        table_validate(table)  # the same checks as a director's submission
    assert rerate_check() == []


def test_seed_demo_holds_draws_byes_absences_handicaps_replays_and_prior_grades() -> None:
    seed(*SMALL)
    paired = Game.objects.filter(second__isnull=False)
    total = paired.count()
    draws = paired.filter(result=GameResult.DRAW).count()
    handicaps = paired.exclude(handicap="").count()
    # About 2% draws and 3% handicap games: wide bounds, the sample is small.
    assert 0.005 * total <= draws <= 0.05 * total
    assert 0.01 * total <= handicaps <= 0.07 * total
    assert Game.objects.filter(result=GameResult.BYE).exists()
    assert Game.objects.filter(result__in=[GameResult.ABSENT, GameResult.NO_SHOW]).exists()
    newcomers = Player.objects.filter(opening_state__isnull=True, is_professional=False)
    with_prior = newcomers.exclude(prior_grade_kind="").count()
    assert 0.15 * newcomers.count() <= with_prior <= 0.5 * newcomers.count()  # about 30%
    assert Player.objects.filter(opening_state__isnull=False).count() >= 20  # the list the site started from
    assert Player.objects.filter(is_professional=True, prior_grade_kind="pro").exists()
    assert len(set(Player.objects.values_list("nationality", flat=True))) >= 8
    # Tables on the same date are ordered 1, 2, ... with no gap.
    for date in set(Table.objects.values_list("date", flat=True)):
        assert sorted(Table.objects.filter(date=date).values_list("sequence", flat=True)) == list(
            range(1, Table.objects.filter(date=date).count() + 1)
        )


def test_seed_demo_results_follow_strength() -> None:
    """The stronger player, by the final rating, wins most unhandicapped games between established players."""
    seed(*SMALL)
    rating = dict(Player.objects.values_list("pk", "rating"))
    won = lost = 0
    for first, second, result in Game.objects.filter(
        result__in=[GameResult.FIRST_WON, GameResult.SECOND_WON], handicap="", played=True
    ).values_list("first_id", "second_id", "result"):
        if abs(rating[first] - rating[second]) < 300:
            continue
        stronger_first = rating[first] > rating[second]
        if stronger_first == (result == GameResult.FIRST_WON):
            won += 1
        else:
            lost += 1
    # A 300-point gap means an expected score above 85%; the ratings are estimates, hence the margin.
    assert won > 3 * lost


def test_seed_demo_creates_demo_logins_only_when_asked() -> None:
    user_model = get_user_model()
    seed(*SMALL)  # tests run with DEBUG off
    assert not user_model.objects.filter(username__in=["admin", "director", "officer", "grades"]).exists()
    output = seed(*SMALL, "--flush", "--demo-users")
    for username in ["admin", "director", "officer", "grades"]:
        assert user_model.objects.get(username=username).check_password("demo")
        assert user_model.objects.get(username=username).email == f"{username}@example.org"  # their mail is seen
        assert f"login {username}" in output
    assert user_model.objects.get(username="admin").is_superuser
    director = user_model.objects.get(username="director")
    assert director.groups.filter(name="Tournament directors").exists()
    directed = Table.objects.filter(tournament__directors=director)
    assert directed.filter(status=TableStatus.DRAFT).exists()


def test_seed_demo_replaying_a_table_rerates_what_follows() -> None:
    """What the build does with a table that does not settle (docs/rules.md §6): play it again, re-rate from it."""
    seed(*SMALL)
    world = world_build(players=90, years=2, tables_per_year=12, seed=1, until=dt.date(2024, 6, 30))
    rated = list(Table.objects.filter(status=TableStatus.RATED).order_by("date", "sequence"))
    table = rated[len(rated) // 2]
    before = list(Game.objects.filter(table=table).values_list("round", "first", "second", "result"))
    later_rows = {(r.table_id, r.player_id): r.state_after for r in RatingRow.objects.filter(date__gt=table.date)}
    outcome = tables_replay(world=world, table_ids=[table.pk], attempt=1)
    after = list(Game.objects.filter(table=table).values_list("round", "first", "second", "result"))
    assert after and after != before
    assert not outcome.errors
    table_validate(table)
    now_rows = {(r.table_id, r.player_id): r.state_after for r in RatingRow.objects.filter(date__gt=table.date)}
    assert now_rows != later_rows  # the history after it moved with it
    assert not Table.objects.filter(status=TableStatus.SUBMITTED).exists()
    assert rerate_check() == []


def test_seed_demo_pairs_no_one_twice_where_a_swiss_director_would_not() -> None:
    seed(*SMALL)
    meetings = Counter(
        (table, min(a, b), max(a, b))
        for table, a, b in Game.objects.filter(second__isnull=False).values_list("table_id", "first_id", "second_id")
    )
    players = Counter(TableEntry.objects.values_list("table_id", flat=True))
    rounds = {t: r for t, r in Game.objects.values_list("table_id", "round").order_by("table_id", "round")}
    # With fewer rounds than half the field, a pairing without rematches always exists.
    rematches = [key for key, n in meetings.items() if n > 1 and rounds[key[0]] * 2 < players[key[0]]]
    assert rematches == []


def test_seed_demo_with_its_logins_holds_every_kind_of_data_a_person_meets() -> None:
    seed(*SMALL, "--demo-users")
    first = snapshot()
    until = dt.date(2024, 6, 30)
    seasons = Counter(Tournament.objects.exclude(announcement="").values_list("announcement", flat=True))
    assert seasons[AnnouncementStatus.PROPOSED] == 1 and seasons[AnnouncementStatus.REFUSED] == 1
    coming = Tournament.objects.filter(announcement=AnnouncementStatus.ACCEPTED, start_date__gt=until)
    assert coming.values("start_date__month").distinct().count() >= 3  # several months ahead
    ended = Tournament.objects.filter(announcement=AnnouncementStatus.ACCEPTED, end_date__lte=until)
    assert ended.filter(tables__status=TableStatus.RATED).exists() and ended.filter(tables=None).count() == 2
    assert Tournament.objects.filter(directors__username="director", announcement=AnnouncementStatus.PROPOSED)
    thirteen = Table.objects.get(tournament__name="FESA Masters")
    assert thirteen.status == TableStatus.RATED and max(thirteen.games.values_list("round", flat=True)) == 13
    assert Player.objects.filter(merged_into__isnull=False).count() == 1
    assert Correction.objects.count() == 2  # a game of the 13-round table, and the merge
    # the season's list, published before the correction, and the last three 1 January lists (demo/official.py)
    assert OfficialList.objects.filter(title__startswith="FESA ").count() == 1
    assert OfficialList.objects.filter(date__month=1, date__day=1).count() == 3
    newcomers = Player.objects.filter(federation_id__startswith="DEMO", merged_into=None, category="unrated")
    assert newcomers.filter(games__gt=0).count() >= 3
    waiting = Promotion.objects.filter(status=PromotionStatus.PENDING, grade__gte=21)
    climbs = Counter(waiting.values_list("player_id", flat=True))
    assert max(climbs.values()) >= 3  # one player's climb through several Dan grades at once
    # a report that names a round names its game's round, as the officer's screen and the e-mail show the game
    reports = MistakeReport.objects.filter(game__isnull=False).select_related("game")
    named = [(r.what, r.game.round) for r in reports if re.search(r"(?i)\b(round|ronde) \d+", r.what)]
    assert len(named) >= 2 and all(re.search(rf"(?i)\b(round|ronde) {n}\b", what) for what, n in named)
    assert rerate_check() == []
    seed(*SMALL, "--demo-users", "--flush")
    assert snapshot() == first
