"""The calendar and the registration form in headless Chromium at 1366 and 390 pixels, for a person to look at:
the page fits the phone's width, the form submits, no Content-Security-Policy violation. Screenshots go to
``test-artifacts/``."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse
from selenium.webdriver.support.ui import WebDriverWait

from ratings.access import ensure_roles
from ratings.models import AnnouncementStatus, Tournament
from ratings.services.season import tournament_accept, tournament_register
from tests.factories import make_director, make_rating_officer
from tests.public.test_browser import (  # noqa: F401 - fixtures
    ARTIFACTS,
    browser,
    csp_violations,
    session_of,
    static_from_source,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDTHS = (1366, 390)


def shots(driver: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for width in WIDTHS:
        driver.set_window_size(width, 900)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, min(max(int(height), 800), 3000))
        assert not driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth + 1"), width
        driver.save_screenshot(str(ARTIFACTS / f"season-{name}-{width}.png"))


def test_browser_calendar(static_from_source: None, live_server: Any, browser: Any) -> None:  # noqa: F811
    ensure_roles(Group, Permission)  # a transactional test before may have flushed the roles' groups
    start = dt.date.today() + dt.timedelta(days=20)  # the live server runs in this process, on its clock
    for n, (name, city, country) in enumerate(
        [("Open de Lyon", "Lyon", "FR"), ("Kölner Shogi-Turnier der Vereine", "Köln", "DE"), ("Torneo", "Roma", "IT")]
    ):
        tournament = tournament_register(
            tournament=None,
            user=make_director(),
            name=name,
            start_date=start + dt.timedelta(days=n),
            end_date=start + dt.timedelta(days=n + 1),
            city=city,
            country=country,
            main_time_minutes=20,
            increment_seconds=None,
            byoyomi_seconds=40,
            mode="Swiss",
            contact="td@example.org",
        )
        tournament_accept(tournament=tournament, user=make_rating_officer())
    browser.get(live_server.url + reverse("ratings:calendar") + f"?year={start.year}&month={start.month}")
    rows = browser.find_elements("css selector", "table.calendar tbody tr")
    assert len(rows) == 3
    assert csp_violations(browser) == []
    shots(browser, "calendar")


def test_browser_registration_form(static_from_source: None, live_server: Any, browser: Any) -> None:  # noqa: F811
    ensure_roles(Group, Permission)
    session_of(browser, live_server, make_director())
    browser.get(live_server.url + reverse("admin:ratings_tournament_add"))
    start = dt.date.today() + dt.timedelta(days=30)
    fill = {"name": "Open de Nice", "city": "Nice", "contact": "td@example.org", "main_time_minutes": "30"}
    fill |= {"increment_seconds": "30", "mode": "Swiss"}
    for field, value in fill.items():
        browser.find_element("name", field).send_keys(value)
    for field in ("start_date", "end_date"):  # the admin's date widget: set the value as a picker would
        element = browser.find_element("name", field)
        browser.execute_script("arguments[0].value = arguments[1]", element, start.isoformat())
    browser.find_element("css selector", "select[name=country] option[value=FR]").click()
    browser.find_element("name", "register").click()
    shots(browser, "registration-form")
    browser.find_element("name", "_save").click()
    WebDriverWait(browser, 30).until(lambda driver: "/add/" not in driver.current_url)
    assert Tournament.objects.get(name="Open de Nice").announcement == AnnouncementStatus.PROPOSED
