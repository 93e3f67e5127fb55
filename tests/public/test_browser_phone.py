"""A phone (390 px) and a grade officer's laptop (1366 px) in headless Chromium: the rating list, a player's
history and chart, and the tournaments fit the phone's width; the promotions' Approve and Reject links fit the
laptop's. Screenshots in ``test-artifacts/``."""

from __future__ import annotations

from typing import Any

import pytest

from ratings.models import Promotion, PromotionStatus
from ratings.services.tables.submit import table_submit
from tests.factories import add_game, make_table, round_robin
from tests.public.conftest import days_ago
from tests.public.test_browser import admin_login, browser, csp_violations, static_from_source
from tests.public.test_browser_pages import overflows, shoot_at, swiss

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below

PHONE = 390
LAPTOP = 1366

INSIDE = """
const box = arguments[0].getBoundingClientRect();
if (!(box.width > 0 && box.left >= 0 && box.right <= window.innerWidth + 0.5)) return false;
for (let up = arguments[0].parentElement; up; up = up.parentElement) {
  if (getComputedStyle(up).overflowX === 'visible') continue;
  const frame = up.getBoundingClientRect();
  if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5) return false;
}
return true;
"""


def wider_boxes(driver: Any) -> list[str]:
    """The page's table boxes whose table is wider than they are (scrolled sideways), by their labels."""
    return list(
        driver.execute_script(
            "return [...document.querySelectorAll('main .table-container')]"
            ".filter(c => c.scrollWidth > c.clientWidth + 0.5).map(c => c.getAttribute('aria-label'))"
        )
    )


def inside(driver: Any, element: Any) -> bool:
    """Whether the element is drawn within the window's width, not scrolled away in a box of its own."""
    return bool(driver.execute_script(INSIDE, element))


def test_browser_phone_rating_list_player_and_tournaments(
    static_from_source: None, live_server: Any, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    table, players = swiss()
    promoted = players[0]
    for n, day in enumerate((300, 150)):  # a history of three tables, the swiss one the latest
        earlier = make_table(players[:4], date=days_ago(day), sequence=n + 1)
        round_robin(earlier, players[n : n + 4] if n == 0 else players[:4])
        table_submit(table=earlier, user=None)
    pending = {"table": table, "game_number": 41, "route": "upper_bound", "status": PromotionStatus.PENDING}
    Promotion.objects.update_or_create(player=promoted, grade=19, defaults={**pending, "rating": 1900})
    browser.set_window_size(PHONE, 900)

    browser.get(live_server.url + "/")
    assert not overflows(browser)
    assert csp_violations(browser) == []
    shoot_at(browser, "20-phone-rating-list", PHONE)
    browser.set_window_size(PHONE, 900)
    rows = browser.find_elements(By.CSS_SELECTOR, "table.rating-list tbody tr")
    assert len(rows) == 6
    for row in rows:
        cells = row.find_elements(By.TAG_NAME, "td")
        rank, rating = cells[0], row.find_element(By.CSS_SELECTOR, "td.rating")
        name = next(c for c in cells if c.find_elements(By.TAG_NAME, "a"))  # the cell that links the player
        grade = next(c for c in cells if "Kyu" in c.text or "Dan" in c.text)
        for cell in (rank, name, rating, grade):
            assert inside(browser, cell), (row.text, cell.text)

    browser.set_window_size(PHONE, 900)
    browser.get(live_server.url + f"/players/{promoted.federation_id}/")
    assert not overflows(browser)
    assert csp_violations(browser) == []
    shoot_at(browser, "21-phone-player", PHONE)
    browser.set_window_size(PHONE, 900)
    labels = browser.execute_script(
        "return [...document.querySelectorAll('svg.chart text')]"
        ".filter(t => getComputedStyle(t).display !== 'none')"
        ".map(t => [t.getAttribute('class'), t.getBoundingClientRect().height,"
        " parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a])"
    )
    ticks = [label for label in labels if "label" in (label[0] or "")]
    assert {"xlabel", "ylabel"} <= {label[0].split()[0] for label in ticks}, labels
    for cls, height, font in ticks:
        assert font >= 10 and height >= 10, (cls, height, font)
    history = browser.find_element(By.CSS_SELECTOR, "table.history")
    for cell in history.find_elements(By.CSS_SELECTOR, "tbody td:nth-child(-n+2), tbody td.explained a"):
        assert inside(browser, cell), cell.text  # the date, the tournament and the link to the explanation
    # Each of the page's tables (best wins, tables, grade history, official lists) in the phone's width, none
    # scrolled sideways in its box: what a column leaves out on a phone goes under the row's name.
    assert wider_boxes(browser) == []

    browser.get(live_server.url + f"/players/{promoted.federation_id}/tables/{table.pk}/")
    assert not overflows(browser)
    assert csp_violations(browser) == []
    shoot_at(browser, "21b-phone-player-table", PHONE)
    browser.set_window_size(PHONE, 900)
    games = browser.find_element(By.CSS_SELECTOR, "table.games")
    for cell in games.find_elements(By.CSS_SELECTOR, "tbody td:nth-child(-n+4)"):
        assert inside(browser, cell), cell.text  # round, opponent, result and the game's change

    browser.set_window_size(PHONE, 900)
    browser.get(live_server.url + "/tournaments/")
    assert not overflows(browser)
    assert csp_violations(browser) == []
    name = browser.find_element(By.LINK_TEXT, "Paris Shogi Open")
    assert inside(browser, name)
    shoot_at(browser, "22-phone-tournaments", PHONE)

    for path in ("/calendar/results/", "/promotions/", "/statistics/"):  # a tournament's stage, the grades waiting
        browser.set_window_size(PHONE, 900)
        browser.get(live_server.url + path)
        assert browser.find_elements(By.CSS_SELECTOR, "main .table-container"), path
        assert wider_boxes(browser) == [], path


def test_browser_laptop_promotions_show_their_decisions(
    static_from_source: None, live_server: Any, browser: Any
) -> None:
    from django.contrib.auth.models import User
    from selenium.webdriver.common.by import By

    table, players = swiss()
    for n, player in enumerate(players[:3]):
        pending = {"table": table, "game_number": 41, "route": "upper_bound", "status": PromotionStatus.PENDING}
        Promotion.objects.update_or_create(player=player, grade=19, defaults={**pending, "rating": 1900 - 60 * n})
    User.objects.create_superuser("root", password="a-long-password-1")
    browser.set_window_size(LAPTOP, 900)
    admin_login(browser, live_server, "root", "a-long-password-1")

    browser.get(live_server.url + "/admin/ratings/promotion/")
    assert "Log in" not in browser.title
    assert csp_violations(browser) == []
    links = browser.find_elements(By.CSS_SELECTOR, "#result_list a[href*='/decide/']")
    shoot_at(browser, "23-laptop-admin-promotions", LAPTOP)
    browser.set_window_size(LAPTOP, 900)
    assert {link.text for link in links} == {"Approve", "Reject"} and len(links) >= 6
    for link in links:
        assert inside(browser, link), link.text


def test_browser_phone_head_to_head_and_a_player_in_every_language(
    static_from_source: None, live_server: Any, browser: Any
) -> None:
    """A long table name and the longest words of each language's headers ("Puntuaciones", "Verandering") and
    results ("unentschieden"): a player's tables and a head-to-head keep their figures in the phone's width."""
    from django.conf import settings
    from django.urls import reverse

    from ratings.models import GameResult, Tournament

    table, players = swiss()
    Tournament.objects.filter(pk=table.tournament_id).update(name="European Shogi Championship")
    table.name = "A group"
    table.save(update_fields=["name"])
    a, b = players[0], players[1]
    drawn = make_table([a, b], date=days_ago(5), sequence=2)
    add_game(drawn, 1, a, b, GameResult.DRAW)
    table_submit(table=drawn, user=None)
    pages = [reverse("ratings:player", args=[a.federation_id])]
    pages.append(reverse("ratings:head_to_head", args=[a.federation_id, b.federation_id]))
    # A phone's screen, with its scrollbars drawn over the page rather than taking 15 px of its width
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": PHONE, "height": 900, "deviceScaleFactor": 1, "mobile": True}
    )
    browser.get(live_server.url + pages[0])
    for code, _name in settings.LANGUAGES:
        browser.add_cookie({"name": "django_language", "value": code})
        for path in pages:
            browser.get(live_server.url + path)
            assert browser.find_element("tag name", "html").get_attribute("lang") == code
            assert not overflows(browser), (code, path)
            assert wider_boxes(browser) == [], (code, path)


def test_browser_tables_fit_laptops_and_tablets_in_every_language(
    static_from_source: None, live_server: Any, browser: Any
) -> None:
    """Between a phone and a wide screen the list's columns go a few at a time (the prior grade and the last
    played date, then the figures a phone leaves out, then the club), so that no column is scrolled out of its
    box; with a pending Dan grade and a long club's name, in the languages of the longest headers."""
    from django.conf import settings
    from selenium.webdriver.common.by import By

    from ratings.models import Club
    from ratings.services.clubs.memberships import club_membership_set

    table, players = swiss()
    munich = Club.objects.create(name="Shogi-Verein München-Schwabing", country="DE")
    club_membership_set(player=players[0], club=munich, since=days_ago(30))
    pending = {"table": table, "game_number": 41, "route": "upper_bound", "status": PromotionStatus.PENDING}
    Promotion.objects.update_or_create(player=players[0], grade=21, defaults={**pending, "rating": 1900})
    browser.get(live_server.url + "/")
    for code, _name in settings.LANGUAGES:
        browser.add_cookie({"name": "django_language", "value": code})
        for width in (LAPTOP, 1024, 800, 700):
            browser.set_window_size(width, 900)  # a desktop's scrollbar takes its part of the width
            browser.get(live_server.url + "/")
            assert wider_boxes(browser) == [], (code, width)
            first = browser.find_element(By.CSS_SELECTOR, "table.rating-list tbody tr")
            assert "Dan" in first.text, (code, width)  # the grade and its pending note stay in view
    browser.set_window_size(LAPTOP, 900)
    headers = browser.find_elements(By.CSS_SELECTOR, "table.rating-list thead th")
    assert len([h for h in headers if h.is_displayed()]) == 11  # at 1366 px nothing is left out

    # A player's tables and grades, the promotions and the tournaments on a small laptop and a tablet held
    # upright: a step between the laptop's columns and the phone's, none scrolled out of its box.
    pages = ["/", f"/players/{players[0].federation_id}/", "/promotions/", "/tournaments/"]
    for code in ("fr", "es", "de"):
        browser.add_cookie({"name": "django_language", "value": code})
        for width in (1024, 900, 834):
            browser.set_window_size(width, 900)
            for path in pages:
                browser.get(live_server.url + path)
                assert wider_boxes(browser) == [], (code, width, path)
