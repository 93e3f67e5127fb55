"""The crosstable page: a whole table entered, corrected and saved as directors write it, up to 500 games."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from ratings.models import Game, GameResult, Player, Table, TableStatus
from tests.admin.helpers import errors_of, post_page, set_row
from tests.factories import add_game, make_director, make_player, make_rating_officer, make_table, make_tournament

pytestmark = pytest.mark.django_db

DAY = dt.date(2024, 5, 12)


def grid_url(table: Table, **query: int) -> str:
    url = reverse("admin:ratings_table_grid", args=[table.pk])
    return url + "".join(f"?{k}={v}" for k, v in query.items())


def grid_data(response: Any) -> dict[str, str]:
    """The POST data of the crosstable page as shown: the rows' formset and the empty paste box."""
    rows = response.context["rows"]
    data = {f"row-{name}": str(rows.management_form[name].value()) for name in rows.management_form.fields}
    for form in rows:
        player = form["player"].value()
        data[form.add_prefix("player")] = "" if player is None else str(player)
        data[form.add_prefix("cells")] = form["cells"].value() or ""
    data["paste"] = ""
    if response.context.get("version"):  # the hidden version of what the page shows
        data[response.context["version_field"]] = response.context["version"]
    return data


def cells_of(data: dict[str, str], row: int) -> list[str]:
    return data[f"row-{row - 1}-cells"].split()


def set_cell(data: dict[str, str], row: int, round_: int, cell: str) -> None:
    cells = cells_of(data, row)
    cells[round_ - 1] = cell
    data[f"row-{row - 1}-cells"] = " ".join(cells)


def crosstable(players: int, rounds: int) -> list[list[str]]:
    """A Swiss-like table by the circle method (no pairing twice): mostly the lower number wins, some draws,
    some two-piece handicaps given by the lower number; with an odd count, a bye each round."""
    slots = list(range(1, players + 1)) + ([0] if players % 2 else [])
    cells: list[list[str]] = [[] for _ in range(players + 1)]
    for r in range(rounds):
        for i in range(len(slots) // 2):
            a, b = sorted((slots[i], slots[-1 - i]))
            if a == 0:
                cells[b].append("0+")
                continue
            mark = ("(-2p)", "(+2p)") if (a + r) % 11 == 0 else ("", "")
            sign = "=" if (a + b + r) % 7 == 0 else ("-" if (a * b + r) % 5 == 0 else "+")
            other = {"+": "-", "-": "+", "=": "="}[sign]
            cells[a].append(f"{b}{sign}{mark[0]}")
            cells[b].append(f"{a}{other}{mark[1]}")
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return cells[1:]


@pytest.fixture
def many() -> list[Player]:
    return [make_player(f"Big{n:03d}", "Pat") for n in range(1, 112)]


def enter_big_table(client: Client, table: Table, players: list[Player]) -> tuple[dict[str, str], float]:
    page = client.get(grid_url(table, rows=len(players)))
    assert page.status_code == 200
    data = grid_data(page)
    assert data["row-TOTAL_FORMS"] == str(len(players))
    for row, (player, cells) in enumerate(zip(players, crosstable(len(players), 9), strict=True), start=1):
        data[f"row-{row - 1}-player"], data[f"row-{row - 1}-cells"] = str(player.pk), " ".join(cells)
    assert len(data) + 2 < settings.DATA_UPLOAD_MAX_NUMBER_FIELDS // 4  # with the token and the button
    start = time.monotonic()
    response = client.post(grid_url(table), {**data, "_save": "Save"})
    elapsed = time.monotonic() - start
    assert response.status_code == 302, response.context["problems"]
    return data, elapsed


@pytest.mark.parametrize("role", ["director", "rating officer"])
@pytest.mark.slow
def test_grid_enters_edits_and_previews_a_500_game_table(client: Client, many: list[Player], role: str) -> None:
    user = make_director() if role == "director" else make_rating_officer()
    table = make_table([], tournament=make_tournament(date=DAY, directors=[user]), date=DAY)
    client.force_login(user)
    _data, saving = enter_big_table(client, table, many)
    games = Game.objects.filter(table=table)
    assert table.entries.count() == 111 and games.exclude(second=None).count() == 495 and games.count() == 504
    assert saving < 60, saving

    data = grid_data(client.get(grid_url(table)))  # the saved table, read back into the rows
    assert cells_of(data, 1)[:2] == crosstable(111, 9)[0][:2]
    # Round 1 (see crosstable): 1 has the bye, 2 beat 111, 3 lost to 110. The result of 2-111 is corrected
    # and the pairings swapped: 2 lost to 110, 3 lost to 111.
    assert [cells_of(data, row)[0] for row in (1, 2, 3)] == ["0+", "111+", "110-"]
    set_cell(data, 2, 1, "110-")
    set_cell(data, 110, 1, "2+")
    set_cell(data, 3, 1, "111-")
    set_cell(data, 111, 1, "3+")
    response = client.post(grid_url(table), {**data, "_preview": "Save and preview rating"})
    assert response.status_code == 302, response.context["problems"]
    assert response["Location"] == reverse("admin:ratings_table_preview", args=[table.pk])
    start = time.monotonic()
    preview = client.get(response["Location"])
    previewing = time.monotonic() - start
    assert preview.status_code == 200 and preview.context["problems"] == [] and previewing < 60
    assert len(preview.context["preview"].players) == 111
    two, three, p110, p111 = (many[i].pk for i in (1, 2, 109, 110))
    round_one = {(g.first_id, g.second_id): g.result for g in games.filter(round=1)}
    assert round_one[two, p110] == round_one[three, p111] == GameResult.SECOND_WON
    assert (two, p111) not in round_one and (three, p110) not in round_one and games.count() == 504

    change = client.get(reverse("admin:ratings_table_change", args=[table.pk]))
    assert change.status_code == 200 and not change.context["inline_admin_formsets"]
    _page, saved = post_page(client, reverse("admin:ratings_table_change", args=[table.pk]), {"name": "Open"})
    assert saved.status_code == 302 and Game.objects.filter(table=table).count() == 504


@pytest.fixture
def four(director: Any) -> tuple[Table, list[Player]]:
    players = [
        make_player("Abe", "Ken"),
        make_player("Berg", "Lena"),
        make_player("Cruz", "Marta"),
        make_player("Dahl"),
    ]
    return make_table([], tournament=make_tournament(date=DAY, directors=[director]), date=DAY), players


def post_rows(client: Client, table: Table, rows: list[tuple[Player | None, str]], paste: str = "") -> Any:
    data = grid_data(client.get(grid_url(table, rows=len(rows))))
    for i, (player, cells) in enumerate(rows):
        data[f"row-{i}-player"], data[f"row-{i}-cells"] = (str(player.pk) if player else ""), cells
    data["paste"] = paste
    return client.post(grid_url(table), {**data, "_save": "Save"})


def test_grid_errors_name_the_row_and_the_round(client: Client, four: tuple[Table, list[Player]]) -> None:
    table, (a, b, c, d) = four
    response = post_rows(client, table, [(a, "2+ 3+"), (b, "1- 4x"), (c, "4+ 1+"), (d, "3- 2+")])
    assert response.status_code == 200
    assert response.context["problems"] == ["Row 2 (Berg Lena): round 2: cannot read the cell '4x'"]
    response = post_rows(client, table, [(a, "2+ 3+"), (b, "1- 4-"), (c, "4+ 1+"), (d, "3- 2+")])
    (problem,) = response.context["problems"]
    assert problem.startswith("Row 1, round 2: Abe Ken (line 1) has '3+', Cruz Marta (line 3) has '1+'")
    response = post_rows(client, table, [(a, "2+ 3+"), (b, "1- 4-"), (c, "4+"), (None, "3- 2+")])
    assert response.context["problems"] == [
        "Row 4: choose the player, or empty the row.",
        "Row 3 (Cruz Marta): 1 round, the longest row has 2.",
    ]
    assert not Game.objects.filter(table=table).exists() and not table.entries.exists()


def test_grid_saves_a_small_table_and_keeps_a_forfeit_mark(client: Client, four: tuple[Table, list[Player]]) -> None:
    table, (a, b, c, d) = four
    response = post_rows(client, table, [(a, "2+ 3="), (b, "1- 0+"), (c, "0- 1="), (d, "")])
    assert response.context["problems"] == ["Row 4 (Dahl): 0 rounds, the longest row has 2."]
    response = post_rows(client, table, [(a, "2+ 3=(-L)"), (b, "1- 0+"), (c, "0- 1=(+L)")])
    assert response.status_code == 302
    Game.objects.filter(table=table, round=1, second__isnull=False).update(played=False)
    response = post_rows(client, table, [(a, "2= 3=(-L)"), (b, "1= 0+"), (c, "0- 1=(+L)")])
    assert response.status_code == 302
    game = Game.objects.get(table=table, round=1, second__isnull=False)
    assert (game.first_id, game.result, game.played) == (a.pk, GameResult.DRAW, False)
    handicapped = Game.objects.get(table=table, round=2, second__isnull=False)
    assert (handicapped.handicap, handicapped.handicap_giver) == ("L", "first")
    assert grid_data(client.get(grid_url(table)))["row-2-cells"] == "0- 1=(+L)"


def test_grid_takes_a_pasted_turnering_crosstable(client: Client, four: tuple[Table, list[Player]]) -> None:
    table, (a, b, c, d) = four
    pasted = "1 [Abe] [Ken] [2+ 3+]\n2 [Berg] [Lena] [1- 4+]\n3 [Cruz] [Marta] [4= 1-]\n4 [Dahl] [] [3= 2-]\n"
    response = post_rows(client, table, [], paste=pasted)
    assert response.status_code == 302
    assert dict(table.entries.values_list("seat", "player_id")) == {1: a.pk, 2: b.pk, 3: c.pk, 4: d.pk}
    assert Game.objects.filter(table=table).count() == 4
    response = post_rows(client, table, [], paste=pasted.replace("[Dahl] []", "[Dahl] [Nobody]"))
    # The lines as the officer counts those he pasted, though the table's name and date were put before them.
    assert response.context["problems"] == [
        "Line 4: Dahl Nobody is no player of the federation; enter the player in the row yourself, or upload the file."
    ]
    response = post_rows(client, table, [], paste=pasted.replace("[3= 2-]", "[3= 1x]"))
    [problem] = response.context["problems"]
    assert problem.startswith("line 4: ") and "'1x'" in problem, problem
    response = post_rows(client, table, [], paste=pasted.replace("[2+ 3+]", "[2+ 3=]"))
    [problem] = response.context["problems"]
    # The two lines a problem names besides its own are counted as pasted too.
    assert problem.startswith("line 1: round 2: Abe Ken (line 1) has '3=', Cruz Marta (line 3) has '1-'"), problem


def test_hand_entry_refuses_a_player_without_a_round(client: Client, four: tuple[Table, list[Player]]) -> None:
    table, (a, b, c, _d) = four
    table.entries.create(player=a, seat=1)
    table.entries.create(player=b, seat=2)
    table.entries.create(player=c, seat=3)
    add_game(table, 1, a, b)
    add_game(table, 1, c, None, GameResult.BYE)

    def round_two(data: dict[str, Any]) -> None:
        set_row(data, "games", 2, round=2, first=a, second=b, result=GameResult.FIRST_WON, played=True)

    _page, response = post_page(client, reverse("admin:ratings_table_change", args=[table.pk]), round_two)
    assert response.status_code == 200
    assert "Round 2: Cruz Marta has no game, bye or absence (an absence is “0-”)." in errors_of(response)
    assert Game.objects.filter(table=table).count() == 2


def test_upload_refuses_a_player_without_a_round(client: Client, director: Any) -> None:
    tournament = make_tournament(directors=[director])
    text = "[Short]\n[2024-05-12]\n1 [Abe] [Ken] [2+ 0+]\n2 [Berg] [Lena] [1-]\n"
    response = client.post(
        "/admin/ratings/table/upload/turnering/",
        {"file": SimpleUploadedFile("turnering.txt", text.encode()), "tournament": str(tournament.pk)},
    )
    page = response.content.decode()
    assert "line 4: uneven number of rounds: Berg Lena has 1" in page
    assert not Table.objects.filter(tournament=tournament).exists()


def test_table_list_and_small_change_page_link_to_the_crosstable(
    client: Client, four: tuple[Table, list[Player]]
) -> None:
    table, _players = four
    listing = client.get(reverse("admin:ratings_table_changelist")).content.decode()
    assert f'href="{grid_url(table)}"' in listing
    # The table's name, with its date once, in the Date column: not "name (date)" beside it
    assert f">{table.label}</a>" in listing and f">{table} </a>" not in listing and f">{table}</a>" not in listing
    change = client.get(reverse("admin:ratings_table_change", args=[table.pk]))
    assert f'href="{grid_url(table)}"' in change.content.decode()
    assert len(change.context["inline_admin_formsets"]) == 2  # a small table keeps its inlines


def test_grid_of_a_rated_or_another_directors_table_cannot_be_saved_by_a_director(
    client: Client, four: tuple[Table, list[Player]]
) -> None:
    table, (a, b, _c, _d) = four
    data = {"row-TOTAL_FORMS": "2", "row-INITIAL_FORMS": "0", "paste": "", "row-0-player": a.pk, "row-1-player": b.pk}
    Table.objects.filter(pk=table.pk).update(status=TableStatus.RATED)  # a state no service makes without games
    shown = client.get(grid_url(table))
    assert shown.status_code == 200 and not shown.context["can_change"] and 'name="_save"' not in shown.text
    assert client.post(grid_url(table), data).status_code == 403
    client.force_login(make_director())
    assert client.get(grid_url(table)).status_code == 403  # another's: refused as such
    assert client.post(grid_url(table), data).status_code == 403
    assert not table.entries.exists()
