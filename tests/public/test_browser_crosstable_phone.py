"""A 13-round crosstable in headless Chromium: on a phone (390 px) its rounds scroll under the number and name
columns, which stay in view with their headers above them; on a laptop (1366 px) it needs no scrolling."""

from __future__ import annotations

from typing import Any

import pytest

from ratings.models import GameResult
from ratings.services.tables.submit import table_submit
from tests.factories import add_game, make_table, make_tournament
from tests.pagewalk.data import circle_rounds
from tests.public.conftest import days_ago, seasoned
from tests.public.test_browser import browser, static_from_source
from tests.public.test_browser_pages import shoot_at

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below

SCROLLED = """
const box = document.querySelector(arguments[0]);
box.scrollLeft = box.scrollWidth;
const frame = box.getBoundingClientRect();
const at = (selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return [r.left, r.right];
};
return {frame: [frame.left, frame.right], scrolls: box.scrollWidth > box.clientWidth + 1,
        seat: at(arguments[1]), seatHead: at(arguments[2]), name: at(arguments[3]), nameHead: at(arguments[4])};
"""


def thirteen_rounds() -> Any:
    players = [seasoned(2000 - 30 * i, family_name=f"Spieler{i:02d}", given_name="Maximilian") for i in range(14)]
    tournament = make_tournament("Grand Prix des treize rondes", date=days_ago(10))
    table = make_table(players, tournament=tournament, date=days_ago(10))
    for number, pairs in enumerate(circle_rounds(14), 1):
        for n, (a, b) in enumerate(pairs):
            result = (GameResult.FIRST_WON, GameResult.SECOND_WON, GameResult.DRAW)[(number + n) % 3]
            add_game(table, number, players[a], players[b], result)
    table_submit(table=table, user=None)  # committed: the re-rate runs in-process on commit
    return table


@pytest.mark.parametrize(
    ("page", "box", "seat", "name"),
    [
        ("table", "table.cross", "tbody tr td.seat", "tbody tr th[scope=row]"),
        ("tournament", "table.standings", "tbody tr td.seat", "tbody tr th[scope=row]"),
    ],
)
def test_browser_thirteen_rounds_keep_number_and_name_in_view_on_a_phone(
    static_from_source: None, live_server: Any, browser: Any, page: str, box: str, seat: str, name: str
) -> None:
    table = thirteen_rounds()
    url = f"/tables/{table.pk}/" if page == "table" else f"/tournaments/{table.tournament_id}/"
    browser.set_window_size(390, 900)
    browser.get(live_server.url + url)
    container = f"div.table-container:has(> {box})"
    found = browser.execute_script(
        SCROLLED, container, f"{box} {seat}", f"{box} thead th.seat", f"{box} {name}", f"{box} thead th.who"
    )
    shoot_at(browser, f"crosstable-13-rounds-{page}-390", 390)
    assert found["scrolls"]
    left, right = found["frame"]
    for column in ("seat", "seatHead", "name", "nameHead"):
        assert left - 0.5 <= found[column][0] and found[column][1] <= right + 0.5, (column, found)
    assert abs(found["name"][0] - found["nameHead"][0]) < 1 and abs(found["seat"][0] - found["seatHead"][0]) < 1

    browser.set_window_size(1366, 900)
    browser.get(live_server.url + f"/tables/{table.pk}/")
    overflow = "const b = document.querySelector(arguments[0]); return b.scrollWidth - b.clientWidth;"
    wide = browser.execute_script(overflow, "div.table-container:has(> table.cross)")
    assert wide <= 1
