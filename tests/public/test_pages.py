"""Player, table, tournament and promotion pages, built from tables rated by the real services."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from ratings.engine import grade_label
from ratings.models import GameResult, Player, Promotion, RatingRow, Table, TableStatus
from ratings.services.tables.submit import table_submit
from tests.factories import add_game, make_table, make_tournament
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_table(rate: Callable[[Table], Table]) -> tuple[Table, list[Player]]:
    """Four players, two rounds: a handicap game, a draw, a bye, an absence and a newcomer.

    Seats 1..4: A (1600), B (1500), N (new, rated by performance), D (1400).
    Round 1: A gives B a rook and wins; N beats D. Round 2: A and N draw; B has a bye; D is absent.
    """
    a = seasoned(1600, family_name="Alpha", grade=19)
    b = seasoned(1500, family_name="Bravo", grade=18)
    n = Player.objects.create(family_name="Newman", given_name="Nora", nationality="DE")
    d = seasoned(1400, family_name="Delta", grade=17)
    table = make_table([a, b, n, d], date=days_ago(20))
    add_game(table, 1, a, b, GameResult.FIRST_WON, handicap="R", giver="first")
    add_game(table, 1, n, d, GameResult.FIRST_WON)
    add_game(table, 2, a, n, GameResult.DRAW)
    add_game(table, 2, b, None, GameResult.BYE)
    add_game(table, 2, d, None, GameResult.ABSENT)
    return rate(table), [a, b, n, d]


def test_table_page_prints_the_crosstable_as_fesa_does(client: Client, small_table: tuple[Table, list[Player]]) -> None:
    table, (a, b, n, d) = small_table
    response = client.get(reverse("ratings:table", args=[table.pk]))
    assert response.status_code == 200
    rows = response.context["crosstable"].rows
    # docs/fesa-files.md: <opponent's number><sign>, the handicap with + for received and - for given; 0+ a bye,
    # 0- an absence. Points: a win 1, a draw ½, a bye 1.
    assert [[c.text for c in r.cells] for r in rows] == [["2+(-R)", "3="], ["1-(+R)", "0+"], ["4+", "1="], ["3-", "0-"]]
    assert [r.points for r in rows] == [1.5, 1.0, 1.5, 0.0]
    stored = {row.player_id: row for row in RatingRow.objects.filter(table=table)}
    assert [(r.rating, r.starred, r.change) for r in rows] == [
        (1600, False, stored[a.pk].change),
        (1500, False, stored[b.pk].change),
        (stored[n.pk].rating_after, True, None),  # performance-rated: his new rating, starred, no change
        (1400, False, stored[d.pk].change),
    ]
    html = response.content.decode()
    assert f"{stored[n.pk].rating_after}*" in html
    assert "2+(-R)" in html and "0+" in html
    # the FESA file of the table, where the site has that download (ratings/web/urls.py)
    assert response.context["result_txt_url"] in (None, f"/files/tables/{table.pk}/result.txt")
    assert ("Download FESA result table" in html) == (response.context["result_txt_url"] is not None)


def test_table_page_lists_the_promotions_it_caused(client: Client, small_table: tuple[Table, list[Player]]) -> None:
    table, (a, *_rest) = small_table
    for grade in (20, 21):
        Promotion.objects.create(
            player=a,
            grade=grade,
            table=table,
            game_number=41,
            route="upper_bound",
            rating=1700,
            status="effective" if grade < 21 else "pending",
        )
    response = client.get(reverse("ratings:table", args=[table.pk]))
    (line,) = response.context["crosstable"].promotions
    assert (line.player, line.grade_before, line.granted, line.pending) == (a, 19, 20, 21)
    html = response.content.decode()
    assert "promoted to 1 Kyu" in html and "1 Dan waiting for approval" in html


def test_table_waiting_to_be_rated_shows_no_change_and_no_download(client: Client) -> None:
    players = [seasoned(1500), seasoned(1400)]
    table = make_table(players, date=days_ago(3))
    add_game(table, 1, players[0], players[1])
    table_submit(table=table, user=None)  # the re-rate it queues runs on commit, which this test never reaches
    response = client.get(reverse("ratings:table", args=[table.pk]))
    assert response.status_code == 200
    assert [(r.rating, r.change) for r in response.context["crosstable"].rows] == [(1500, None), (1400, None)]
    assert response.context["result_txt_url"] is None
    assert "waits to be rated" in response.content.decode()


def test_draft_and_unknown_tables_are_not_found(client: Client) -> None:
    draft = make_table([seasoned(1500), seasoned(1400)], date=days_ago(3))
    assert draft.status == TableStatus.DRAFT
    assert client.get(reverse("ratings:table", args=[draft.pk])).status_code == 404
    assert client.get(reverse("ratings:table", args=[draft.pk + 1000])).status_code == 404
    assert client.get("/tables/abc/").status_code == 404


def test_player_page_shows_standing_chart_and_history(
    client: Client, small_table: tuple[Table, list[Player]], rated_round_robin: Callable[..., Table]
) -> None:
    table, (a, b, _n, d) = small_table
    later = rated_round_robin([a, b, d], days_ago(5))
    a.refresh_from_db()
    response = client.get(reverse("ratings:player", args=[a.federation_id]))
    assert response.status_code == 200
    html = response.content.decode()
    assert f">{a.rating}<" in html
    # the chart: one point per rated table, drawn as SVG on the server, each leading to the table's history row
    assert html.count('<circle class="point"') == 2
    assert '<path class="line"' in html
    assert f'href="#table-{table.pk}"' in html and f'id="table-{table.pk}"' in html
    assert [line.row.table_id for line in response.context["tables"]] == [later.pk, table.pk]
    # the games are explained on each table's own page, not written out (folded away) on this one
    assert "<details>" not in html and 'class="games"' not in html
    assert "Game by game" not in html


def test_player_page_links_each_history_row_to_its_explanation(
    client: Client, small_table: tuple[Table, list[Player]], rated_round_robin: Callable[..., Table]
) -> None:
    table, (a, b, _n, d) = small_table
    tables = [table, rated_round_robin([a, b, d], days_ago(10)), rated_round_robin([a, d], days_ago(5))]
    html = client.get(reverse("ratings:player", args=[a.federation_id])).content.decode()
    rows = re.findall(r'<tr id="table-(\d+)">(.*?)</tr>', html, flags=re.DOTALL)
    assert sorted(int(pk) for pk, _ in rows) == sorted(t.pk for t in tables)
    for pk, cells in rows:
        explanation = reverse("ratings:player_table", args=[a.federation_id, int(pk)])
        assert cells.count(f'href="{explanation}"') == 1, pk
        assert client.get(explanation).status_code == 200


def test_player_page_shows_the_grades_each_table_earned(
    client: Client, small_table: tuple[Table, list[Player]], rated_round_robin: Callable[..., Table]
) -> None:
    table, (a, b, _n, d) = small_table
    later = rated_round_robin([a, b, d], days_ago(5))
    Promotion.objects.create(
        player=a, grade=20, table=table, game_number=41, route="upper_bound", rating=1600, status="effective"
    )
    Promotion.objects.create(
        player=a, grade=21, table=later, game_number=44, route="upper_bound", rating=1620, status="pending"
    )
    html = client.get(reverse("ratings:player", args=[a.federation_id])).content.decode()
    rows = dict(re.findall(r'<tr id="table-(\d+)">(.*?)</tr>', html, flags=re.DOTALL))
    grades = {pk: re.search(r'<td class="extra grades">(.*?)</td>', cells).group(1) for pk, cells in rows.items()}
    assert grades[str(table.pk)] == "1 Kyu"
    assert "1 Dan" in grades[str(later.pk)] and "waiting for approval" in grades[str(later.pk)]


def test_player_page_of_a_newcomer_reads_with_one_point(
    client: Client, small_table: tuple[Table, list[Player]]
) -> None:
    _table, (_a, _b, n, _d) = small_table
    html = client.get(reverse("ratings:player", args=[n.federation_id.lower()])).content.decode()
    assert html.count('<circle class="point"') == 1
    assert '<path class="line"' not in html
    n.refresh_from_db()
    assert '<text class="value"' in html and f">{n.rating}</text>" in html


def test_player_table_page_explains_each_game(client: Client, small_table: tuple[Table, list[Player]]) -> None:
    table, (a, b, n, d) = small_table
    response = client.get(reverse("ratings:player_table", args=[a.federation_id, table.pk]))
    assert response.status_code == 200
    entry = response.context["entry"]
    row = RatingRow.objects.get(table=table, player=a)
    assert [(g.round, g.opponent, g.handicap, g.handicap_given, g.k) for g in entry.games] == [
        (1, b, "R", True, row.detail[0]["k"]),
        (2, n, "", False, row.detail[1]["k"]),
    ]
    html = response.content.decode()
    assert 'class="games"' in html and "gave R" in html
    # the table's change is every game's change and bonus added up, rounded once
    total = sum(d["change"] + (d.get("bonus") or 0.0) for d in row.detail)
    assert round(total) == row.change
    assert f"together: {total:+.2f}; rounded once, the table's change: <strong>{row.change:+d}</strong>" in html
    response = client.get(reverse("ratings:player_table", args=[b.federation_id, table.pk]))
    row = RatingRow.objects.get(table=table, player=b)
    assert [g.change for g in response.context["entry"].games] == [row.detail[0]["change"]]
    assert "received R" in response.content.decode()
    # D was absent in round 2 but played round 1: one explained game
    assert client.get(reverse("ratings:player_table", args=[d.federation_id, table.pk])).status_code == 200
    other = make_table([seasoned(1500), seasoned(1400)], date=days_ago(2))
    assert client.get(reverse("ratings:player_table", args=[b.federation_id, other.pk])).status_code == 404


def test_player_table_page_of_a_performance_rating_shows_the_performance(
    client: Client, small_table: tuple[Table, list[Player]]
) -> None:
    table, (_a, _b, n, _d) = small_table
    row = RatingRow.objects.get(table=table, player=n)
    assert row.performance is not None
    html = client.get(reverse("ratings:player_table", args=[n.federation_id, table.pk])).content.decode()
    assert f"<dt>Performance</dt><dd>{row.performance:.2f}</dd>" in html
    assert "Rated by performance" in html and "rounded once, the table's change" not in html


def test_player_table_page_leads_to_the_tables_before_and_after_it(
    client: Client, small_table: tuple[Table, list[Player]], rated_round_robin: Callable[..., Table]
) -> None:
    first, (a, b, _n, d) = small_table
    second = rated_round_robin([a, d], days_ago(10))
    third = rated_round_robin([a, b], days_ago(5))

    def page(table: Table) -> str:
        return client.get(reverse("ratings:player_table", args=[a.federation_id, table.pk])).content.decode()

    def link(table: Table) -> str:
        return reverse("ratings:player_table", args=[a.federation_id, table.pk])

    html = page(second)
    assert f'rel="prev" href="{link(first)}"' in html
    assert f'Earlier table, <span class="nowrap">{first.date:%Y-%m-%d}</span>' in html
    assert f'rel="next" href="{link(third)}"' in html
    assert f'Later table, <span class="nowrap">{third.date:%Y-%m-%d}</span>' in html
    assert 'rel="prev"' not in page(first) and f'rel="next" href="{link(second)}"' in page(first)
    assert 'rel="next"' not in page(third)
    assert reverse("ratings:player", args=[a.federation_id]) + f"#table-{third.pk}" in page(third)


def test_unknown_player_is_not_found(client: Client) -> None:
    response = client.get(reverse("ratings:player", args=["NOSUCH99"]))
    assert response.status_code == 404
    assert "Not found" in response.content.decode()


def test_player_page_groups_a_newcomers_promotions_by_table(
    client: Client, small_table: tuple[Table, list[Player]]
) -> None:
    table, (_a, _b, n, _d) = small_table
    for grade in range(1, 6):  # 20 Kyu .. 16 Kyu in one table
        Promotion.objects.create(
            player=n, grade=grade, table=table, game_number=2, route="provisional", rating=900, status="effective"
        )
    steps = client.get(reverse("ratings:player", args=[n.federation_id])).context["grade_steps"]
    assert [(s.low, s.high, s.status) for s in steps] == [(1, 5, "effective")]


def test_tournament_list_filters_by_year_and_country_and_hides_drafts(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    players = [seasoned(1500, last_played=days_ago(500)), seasoned(1400, last_played=days_ago(500))]
    paris = make_tournament("Paris Open", date=days_ago(400))
    rated_round_robin(players, days_ago(400), tournament=paris)
    berlin = make_tournament("Berlin Cup", date=days_ago(30))
    berlin.country = "DE"
    berlin.save()
    rated_round_robin(players, days_ago(30), tournament=berlin)
    hidden = make_tournament("Draft Only", date=days_ago(10))
    make_table(players, tournament=hidden, date=days_ago(10))
    url = reverse("ratings:tournaments")

    def shown(params: dict[str, str]) -> list[str]:
        return [row.record.name for row in client.get(url, params).context["table"].paginated_rows]

    assert shown({}) == ["Berlin Cup", "Paris Open"]
    assert shown({"country": "DE"}) == ["Berlin Cup"]
    assert shown({"year": str(days_ago(400).year)}) == (
        ["Paris Open"] if days_ago(400).year != days_ago(30).year else ["Berlin Cup", "Paris Open"]
    )
    html = client.get(url).content.decode()
    assert reverse("ratings:table", args=[paris.tables.get().pk]) in html


def test_promotions_page_shows_recent_and_waiting_promotions(
    client: Client, small_table: tuple[Table, list[Player]]
) -> None:
    table, (a, b, _n, _d) = small_table
    Promotion.objects.create(
        player=b, grade=19, table=table, game_number=41, route="midpoint_run", rating=1520, status="effective"
    )
    for grade in (21, 22):
        Promotion.objects.create(
            player=a, grade=grade, table=table, game_number=41, route="upper_bound", rating=1900, status="pending"
        )
    response = client.get(reverse("ratings:promotions"))
    assert response.status_code == 200
    [(shown_table, lines)] = response.context["recent"]
    assert shown_table == table
    assert [(line.player, line.granted) for line in lines if line.granted] == [(b, 19)]
    pending = [row.record for row in response.context["pending"].paginated_rows]
    assert [(p.player, p.grade, p.highest_pending) for p in pending] == [(a, 21, 22)]
    assert '1 Dan</span> – <span class="nowrap">2 Dan' in response.content.decode()  # no break inside a grade
    assert f'promoted to <span class="nowrap">{grade_label(19)}</span>' in response.content.decode()


def test_pages_name_their_icon_and_describe_themselves(client: Client) -> None:
    player = seasoned(1600, family_name="Alpha")
    for url in (reverse("ratings:rating_list"), reverse("ratings:player", args=[player.federation_id])):
        html = client.get(url).content.decode()
        assert '<link rel="icon" href="/static/favicon.svg"' in html
        assert '<meta name="description" content="' in html
    assert (
        "Alpha"
        in client.get(reverse("ratings:player", args=[player.federation_id]))
        .content.decode()
        .split('<meta name="description" content="')[1]
        .split('"')[0]
    )
    icon = client.get("/favicon.ico")
    assert icon.status_code == 301 and icon["Location"] == "/static/favicon.svg"


def test_player_page_shows_todays_ranks_and_what_the_next_grade_takes(client: Client) -> None:
    from ratings.engine.constants import lb_run_length, lower_bound, midpoint, mp_run_length, upper_bound
    from ratings.engine.grades import grade_of

    seasoned(1700, family_name="Top", grade=grade_of(1, "Kyu"))
    seasoned(1650, family_name="Other", nationality="DE", grade=grade_of(1, "Kyu"))
    me = seasoned(1500, family_name="Mine", grade=grade_of(3, "Kyu"))
    html = re.sub(r"\s+", " ", client.get(reverse("ratings:player", args=[me.federation_id])).content.decode())
    assert "<dt>Rank</dt><dd>3 " in html and "2 in France" in html  # the Top player is first in France
    x = grade_of(2, "Kyu")
    assert "Next grade: 2 Kyu." in html
    # Each way is a sentence of its own: no punctuation glued on between translated pieces.
    assert f"A rating of {upper_bound(x)} or more promotes at once. " in html
    assert f"Or {int(mp_run_length(x))} more games in a row rated {midpoint(x)} or more. " in html  # type: ignore[arg-type]
    assert f"Or {int(lb_run_length(x))} more games in a row rated {lower_bound(x)} or more, one of the run" in html  # type: ignore[arg-type]
    japanese = client.get(reverse("ratings:player", args=[me.federation_id]), HTTP_ACCEPT_LANGUAGE="ja").content
    outlook = japanese.decode().split('class="next-grade"')[1].split("</p>")[0]
    assert "; " not in outlook and f"{lower_bound(x)} 以上、うち 1 局は {midpoint(x)} 以上。" in outlook


def test_player_page_of_an_unranked_newcomer_says_when_he_is_tested(client: Client) -> None:
    newcomer = seasoned(900, family_name="Fresh", games=4, result_list=((900, 0.5),) * 4)
    html = re.sub(r"\s+", " ", client.get(reverse("ratings:player", args=[newcomer.federation_id])).content.decode())
    assert "<dt>Rank</dt>" not in html
    assert "Games are tested for a grade from the 9th on: after 4 more games" in html
    assert "Unrated: the rating is the performance over all the results so far" in html
    assert "from the 9th game: 5 more games to play" in html


@pytest.mark.parametrize(
    ("results", "said"),
    [
        (((1500, 1.0),) * 9, "Every result so far is a win, or every one a loss"),  # won all nine: not ranked next
        (((1500, 1.0), (1500, 0.0)) * 5, "The next rated table changes it game by game"),  # ten, mixed
        (((1500, 1.0), (1500, 0.0)) * 2, "from the 9th game: 5 more games to play"),
    ],
)
def test_an_unrated_players_page_says_what_his_next_tables_take(
    client: Client, results: tuple[tuple[int, float], ...], said: str
) -> None:
    player = seasoned(1500, family_name="Fresh", games=len(results), result_list=results)
    html = re.sub(r"\s+", " ", client.get(reverse("ratings:player", args=[player.federation_id])).content.decode())
    assert said in html
    assert "0 more games" not in html


def test_each_tables_box_is_named_for_a_screen_reader(client: Client, small_table: tuple[Table, list[Player]]) -> None:
    """A screen reader announces a table's scrolling box by its name: the list's, not "Table" on every page."""
    from django.utils import translation

    table, (a, _b, _n, _d) = small_table
    Promotion.objects.create(
        player=a, grade=21, table=table, game_number=41, route="upper_bound", rating=1900, status="pending"
    )
    named = {
        reverse("ratings:rating_list"): "Rating list",
        reverse("ratings:tournaments"): "Tournaments",
        reverse("ratings:promotions"): "Dan promotions waiting for approval",
    }
    for path, name in named.items():
        page = client.get(path).content.decode()
        assert f'class="table-container" role="region" tabindex="0" aria-label="{name}"' in page, path
    with translation.override("fr"):
        page = client.get(reverse("ratings:rating_list"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'aria-label="Liste de classement"' in page
