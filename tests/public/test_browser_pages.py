"""Search, a tournament page, the calculator and the statistics in headless Chromium, on a desktop (1366 px)
and a phone (390 px): screenshots in ``test-artifacts/``, no Content-Security-Policy violation."""

from __future__ import annotations

from typing import Any

import pytest

from ratings.models import GameResult
from ratings.services.tables.submit import table_submit
from tests.factories import add_game, make_table, make_tournament
from tests.public.conftest import days_ago, seasoned
from tests.public.test_browser import ARTIFACTS, browser, csp_violations, static_from_source

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below

WIDTHS = {"desktop": 1366, "phone": 390}


def shoot_at(driver: Any, name: str, width: int) -> None:
    """A full-page screenshot at ``width``: the window grows to the page's height (at most 4000 px)."""
    ARTIFACTS.mkdir(exist_ok=True)
    driver.set_window_size(width, 900)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(max(int(height), 800), 4000))
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def overflows(driver: Any) -> bool:
    """Whether the page itself is wider than the window (wide tables must scroll in their own box)."""
    return bool(driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth + 1"))


def swiss() -> tuple[Any, list[Any]]:
    names = [("Müller", "Anna", "DE"), ("Mueller", "Jan", "DE"), ("Martin", "Paul", "FR"), ("Martin", "Paul", "BE")]
    names += [("Åberg", "Nils", "SE"), ("Rossi", "Marco", "IT")]
    players = [
        seasoned(1900 - 60 * i, grade=18, family_name=f, given_name=g, nationality=n, last_played=days_ago(400))
        for i, (f, g, n) in enumerate(names)
    ]
    tournament = make_tournament("Paris Shogi Open", date=days_ago(20))
    table = make_table(players, tournament=tournament, date=days_ago(20))
    pairs = [[(0, 5), (1, 4), (2, 3)], [(5, 3), (4, 2), (0, 1)], [(1, 5), (2, 0), (3, 4)]]
    results = [GameResult.FIRST_WON, GameResult.SECOND_WON, GameResult.DRAW]
    for rnd, round_pairs in enumerate(pairs, 1):
        for n, (a, b) in enumerate(round_pairs):
            handicap = {"handicap": "L", "giver": "first"} if (rnd, n) == (2, 1) else {}
            add_game(table, rnd, players[a], players[b], results[(rnd + n) % 3], **handicap)
    table_submit(table=table, user=None)  # committed: the re-rate runs in-process on commit
    table.refresh_from_db()
    return table, players


def test_browser_search_tournament_calculator_statistics(
    static_from_source: None, live_server: Any, browser: Any
) -> None:
    from selenium.webdriver.common.by import By  # optional dependency: only the browser tests need it
    from selenium.webdriver.support.ui import WebDriverWait  # likewise

    table, players = swiss()
    for device, width in WIDTHS.items():
        browser.set_window_size(width, 900)
        browser.get(live_server.url + "/")
        box = browser.find_element(By.ID, "site-search")
        assert box.is_displayed()
        box.send_keys("mueller")
        box.submit()
        # submit() may return before the results page has replaced the front page: wait for it.
        WebDriverWait(browser, 15).until(lambda driver: "/search/" in driver.current_url)
        rows = browser.find_elements(By.CSS_SELECTOR, "table.results tbody tr")
        assert len(rows) == 2, device  # Müller and Mueller
        assert csp_violations(browser) == []
        shoot_at(browser, f"10-{device}-search-results", width)

        browser.get(live_server.url + "/search/?q=aberg")
        assert "Åberg" in browser.title  # one match: straight to his page

        browser.get(live_server.url + "/search/?q=martin+paul")
        assert len(browser.find_elements(By.CSS_SELECTOR, "table.results .namesake")) == 2

        browser.get(live_server.url + f"/tournaments/{table.tournament_id}/")
        standings = browser.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
        assert len(standings) == 6
        assert browser.find_element(By.CSS_SELECTOR, "section.legend").is_displayed()
        assert not overflows(browser), device
        assert csp_violations(browser) == []
        shoot_at(browser, f"11-{device}-tournament", width)
        browser.set_window_size(width, 900)
        browser.find_element(By.CSS_SELECTOR, "table.standings td.cell a").click()
        assert "#t" in browser.current_url

        query = f"player={players[2].federation_id}&form-TOTAL_FORMS=10&form-INITIAL_FORMS=0"
        query += f"&form-0-opponent={players[0].federation_id}&form-0-result=1"
        query += "&form-1-opponent_rating=1500&form-1-result=0.5&form-1-handicap=L&form-1-side=received"
        browser.get(live_server.url + "/calculator/?" + query)
        assert browser.find_element(By.CSS_SELECTOR, "section.calculation dd.big").text.isdigit()
        assert not overflows(browser), device
        assert csp_violations(browser) == []
        shoot_at(browser, f"12-{device}-calculator", width)

        browser.get(live_server.url + "/statistics/")
        assert len(browser.find_elements(By.CSS_SELECTOR, "svg.chart rect.bar")) >= 4
        assert not overflows(browser), device
        assert csp_violations(browser) == []
        shoot_at(browser, f"13-{device}-statistics", width)
