"""The tournaments' and the promotions' lists on a 1366 px laptop in headless Chromium: beside the admin's two
sidebars each list's table fits its box without scrolling sideways, in English and in the two languages whose
words are the longest there (German, Polish). On a phone the list scrolls in its own box."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from ratings.models import AnnouncementStatus, Promotion, PromotionStatus, Tournament
from tests.factories import make_player, make_table, make_tournament
from tests.public.test_browser import admin_login, browser, static_from_source
from tests.public.test_browser_pages import overflows, shoot_at

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below

DAY = dt.date(2026, 5, 23)
# The list's box and its table's width, as the page lays them out.
MEASURE = """
const box = document.querySelector('#changelist .results');
return [box.scrollWidth, box.clientWidth];
"""


def long_lists() -> None:
    """Tournaments and promotions with the longest texts the lists meet: names, places, statuses and routes."""
    directors = [User.objects.create_user(name) for name in ("alessandro.mancini", "marie-laure.dubois")]
    places = [("Birmingham", "GB"), ("Saint-Étienne-du-Rouvray", "FR"), ("Kraków", "PL")]
    for n, (city, country) in enumerate(places):
        tournament = make_tournament(
            "Kölner Shogi-Turnier der Vereine und Freunde des Spiels" if n == 0 else f"European Shogi Championship {n}",
            date=DAY + dt.timedelta(days=7 * n),
            until=DAY + dt.timedelta(days=7 * n + 2),
            directors=directors,
        )
        Tournament.objects.filter(pk=tournament.pk).update(
            city=city, country=country, announcement=AnnouncementStatus.PROPOSED
        )
    climber, other = make_player("Hoffmann-Schwarzenberg", "Maximilian"), make_player("Zieliński", "Tomasz")
    table = make_table([climber, other], tournament=make_tournament("European Shogi Championship, A group"), date=DAY)
    routes = ["midpoint_run", "lower_bound_run", "upper_bound"]
    for grade, route in zip((21, 22, 23), routes, strict=True):  # a climb of three Dan grades
        Promotion.objects.create(
            player=climber, grade=grade, table=table, game_number=41, route=route, rating=2100, status="pending"
        )
    Promotion.objects.create(  # approved, then flagged: to decide again
        player=other,
        grade=22,
        table=table,
        game_number=212,
        route="lower_bound_run",
        rating=2050,
        status=PromotionStatus.APPROVED,
        supported=False,
        flag_reason="a later correction took the run away",
        decided_at=timezone.now(),
        decided_by=User.objects.create_user("grade.officer.of.the.federation"),
    )


@pytest.mark.parametrize("language", ["en", "de", "pl"])
def test_browser_tournaments_and_promotions_lists_fit_a_laptop(
    language: str, static_from_source: None, live_server: Any, browser: Any
) -> None:
    long_lists()
    User.objects.create_superuser("root", password="a-long-password-1")  # decides grades: the widest list
    admin_login(browser, live_server, "root", "a-long-password-1")
    browser.add_cookie({"name": "django_language", "value": language})
    for name, path in [
        ("tournaments", "/admin/ratings/tournament/"),
        ("promotions", "/admin/ratings/promotion/"),
        ("promotions-all", "/admin/ratings/promotion/?status=all"),
    ]:
        browser.set_window_size(1366, 900)
        browser.get(live_server.url + path)
        table, box = browser.execute_script(MEASURE)
        shoot_at(browser, f"admin-{name}-{language}-1366", 1366)
        assert table <= box + 1, f"{name} ({language}): {table} px in a {box} px box"
        assert not overflows(browser)
        if language == "en":
            browser.set_window_size(390, 900)
            browser.get(live_server.url + path)
            assert not overflows(browser)  # the list scrolls in its own box, not the page
            shoot_at(browser, f"admin-{name}-{language}-390", 390)
