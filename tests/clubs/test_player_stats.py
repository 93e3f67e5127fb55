"""A player's page answers what players ask: best wins, peak rank, percentiles, longest run of months played."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import GameResult, Player, Table
from ratings.selectors.player_stats import Run, best_wins, longest_run
from ratings.selectors.standing import Standing, player_standing
from ratings.services.lists import list_stored
from ratings.services.official_lists import official_list_publish
from ratings.templatetags.ratings_public import percent_below
from tests.factories import add_game, make_rating_officer, make_table
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def standing(player: Player) -> Standing:
    """His standing on today's list, as his page reads it."""
    return player_standing(player, list_stored())


def test_longest_run_counts_consecutive_months() -> None:
    d = dt.date
    dates = [d(2024, 1, 5), d(2024, 1, 20), d(2024, 2, 3), d(2024, 4, 1), d(2024, 5, 1), d(2024, 6, 9), d(2025, 1, 1)]
    assert longest_run(dates) == Run(3, d(2024, 4, 1), d(2024, 6, 1))
    assert longest_run([d(2023, 12, 1), d(2024, 1, 1)]) == Run(2, d(2023, 12, 1), d(2024, 1, 1))
    assert longest_run([]) is None


def test_best_wins_and_percentiles(rate: Callable[[Table], Table], client: Client) -> None:
    me = seasoned(1700, family_name="Me", nationality="DE")
    strong, weak, lost_to = seasoned(1900, family_name="Strong"), seasoned(1200), seasoned(2000)
    seasoned(1000, nationality="DE")
    table = make_table([me, strong, weak, lost_to], date=days_ago(10))
    add_game(table, 1, me, weak)
    add_game(table, 2, strong, me, GameResult.SECOND_WON)
    add_game(table, 3, me, lost_to, GameResult.SECOND_WON)
    rate(table)
    me.refresh_from_db()
    assert [(w.opponent, w.rating) for w in best_wins(me)] == [(strong, 1900), (weak, 1200)]
    shares = standing(me)
    # ranked today: me, strong, weak, lost_to and the other German: two of the five rated below him
    assert shares.percentile == pytest.approx(40.0)
    assert shares.country_percentile == pytest.approx(50.0)
    page = client.get(reverse("ratings:player", args=[me.federation_id])).content.decode()
    assert "Best wins" in page and "STRONG" in page.upper() and "above 40% of the federation" in page
    assert "Longest run" in page
    assert "* rated by performance" not in page  # no starred rating: no footnote for it
    newcomer = seasoned(1500, family_name="New", games=2, result_list=((1500, 1.0), (1500, 0.0)))
    later = make_table([newcomer, weak], date=days_ago(5))
    add_game(later, 1, newcomer, weak)
    rate(later)
    newcomers_page = client.get(reverse("ratings:player", args=[newcomer.federation_id])).content.decode()
    assert "* rated by performance" in newcomers_page
    # the best wins' table and the chart's points: the date once, beside the table's name, not in it as well
    assert f">{table.label}</a>" in page and f">{table.label} ({table.date:%Y-%m-%d})</a>" not in page
    assert f"{table.date:%Y-%m-%d}: {me.rating} – {table.label}</title>" in page


def test_best_wins_keep_the_strongest_the_earlier_first_on_a_tie(rate: Callable[[Table], Table]) -> None:
    me = seasoned(1700)
    opponents = [seasoned(1500 + 100 * (i % 2)) for i in range(8)]  # 1500, 1600, 1500, ...
    for day, pair in ((30, opponents[:4]), (20, opponents[4:])):
        table = make_table([me, *pair], date=days_ago(day))
        for seat, opponent in enumerate(pair, start=1):
            add_game(table, seat, me, opponent)  # every game won
        rate(table)
    me.refresh_from_db()
    wins = best_wins(me, limit=3)
    # four wins over a 1600 (each opponent plays one table): the earlier table's two first, then the later's
    earlier, later = days_ago(30), days_ago(20)
    assert [(w.rating, w.table.date) for w in wins] == [(1600, earlier), (1600, earlier), (1600, later)]


def test_an_inactive_player_has_no_percentile() -> None:
    seasoned(1600)
    away = standing(seasoned(1700, last_played=days_ago(800)))
    assert (away.percentile, away.country_percentile) == (None, None)


def test_equal_ratings_are_not_below_each_other_and_no_nationality_has_no_country_share() -> None:
    first, second = seasoned(1700, nationality="FR"), seasoned(1700, nationality="")
    seasoned(1500, nationality="FR")
    seasoned(1800, nationality="FR")
    assert (standing(first).percentile, standing(first).country_percentile) == (25.0, pytest.approx(100 / 3))
    assert (standing(second).percentile, standing(second).country_percentile) == (25.0, None)


def test_a_share_is_shown_in_whole_percent_rounded_down() -> None:
    # The best of 3,000 has 99.97% below him: above 99%, never above 100%.
    assert [percent_below(v) for v in (99.97, 40.0, 33.4, 0.0)] == [99, 40, 33, 0]


def peak_shown(client: Client, player: Player) -> str:
    """The peak rank's card on his page, as text."""
    page = client.get(reverse("ratings:player", args=[player.federation_id])).content.decode()
    shown = page.split("Peak rank</dt><dd>", 1)[1]
    return re.sub(r"<[^>]+>", "", shown.split("</dd>", 1)[0])


def test_peak_rank_is_today_for_a_player_who_climbed_since_the_official_list(
    rate: Callable[[Table], Table], client: Client
) -> None:
    leader = seasoned(1710, family_name="Leader", last_played=days_ago(60))
    climber = seasoned(1700, family_name="Climber", last_played=days_ago(60))
    official = official_list_publish(date=days_ago(30), user=make_rating_officer(), expected=None)
    table = make_table([climber, leader], date=days_ago(10))
    add_game(table, 1, climber, leader)
    rate(table)
    assert standing(climber).rank == 1
    # second on the official list, first today: his peak is today's, never worse than the rank beside it
    assert peak_shown(client, climber) == "1 today"
    # first on the official list, second today: his peak is the list's, linked
    assert peak_shown(client, leader) == f"1 {official.date:%Y-%m-%d}"
