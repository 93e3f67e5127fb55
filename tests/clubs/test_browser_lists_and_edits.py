"""In headless Chromium, in English and French, at 1366 and 390 px: the official list and its revised page with the
club and category filters, the predictions page, and the admin's club, women's list and reported mistake pages
refusing a save from a stale page. No page wider than its window; screenshots in ``test-artifacts/clubs2-*.png``
for a person to look at."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from ratings.models import Club, MistakeReport, Player, ReportStatus
from ratings.services.clubs.edits import womens_list_set
from ratings.services.clubs.memberships import club_membership_set
from ratings.services.official_lists import official_list_publish
from ratings.services.reports import report_decide, report_request
from tests.factories import make_rating_officer
from tests.predictions.test_pages import stored as stored_report
from tests.public.test_axe import federation
from tests.public.test_browser import admin_login, browser, static_from_source
from tests.public.test_browser_pages import overflows, shoot_at

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below

WIDTHS = (1366, 390)
LANGUAGES = ("en", "fr")
REFUSED = {"en": "nothing was saved", "fr": "donc été enregistré"}


def in_language(browser: Any, live_server: Any, lang: str) -> None:
    browser.get(live_server.url + reverse("ratings:tournaments"))
    browser.add_cookie({"name": "django_language", "value": lang})


def look(browser: Any, live_server: Any, url: str, name: str, width: int, lang: str) -> list[str]:
    """Open ``url`` at ``width`` and shoot it; the page's name if it is wider than the window."""
    browser.set_window_size(width, 900)
    browser.get(live_server.url + url)
    assert browser.find_element("tag name", "html").get_attribute("lang") == lang, url
    wide = [f"{name} at {width} px"] if overflows(browser) else []
    shoot_at(browser, f"clubs2-{lang}-{name}-{width}", width)
    return wide


def refused_save(
    browser: Any, live_server: Any, url: str, meanwhile: Callable[[], None], name: str, width: int, lang: str
) -> list[str]:
    """Open an admin change page, let another officer change the object meanwhile, save: only the refusal."""
    browser.set_window_size(width, 900)
    browser.get(live_server.url + url)
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    meanwhile()
    save = browser.find_element("css selector", "input[name=_save]")
    save.click()
    WebDriverWait(browser, 30).until(ec.staleness_of(save))  # the answer's page, not the one posted
    messages = [m.text for m in browser.find_elements("css selector", "ul.messagelist li")]
    assert len(messages) == 1 and REFUSED[lang] in messages[0], messages
    wide = [f"{name} at {width} px"] if overflows(browser) else []
    shoot_at(browser, f"clubs2-{lang}-{name}-{width}", width)
    return wide


def test_the_changed_pages_fit_and_refuse_stale_saves_in_english_and_french(
    static_from_source: None, live_server: Any, browser: Any
) -> None:
    table, players = federation()
    stored_report()
    lyon = Club.objects.create(name="Cercle de shogi de Lyon-Villeurbanne", country="FR", city="Lyon")
    for player in players[:3]:
        club_membership_set(player=player, club=lyon, since=dt.date(2020, 1, 1))
    officer = make_rating_officer()
    official = official_list_publish(date=table.date, user=officer, expected=None)
    Player.objects.filter(pk=players[2].pk).update(date_of_birth=dt.date(1950, 3, 1))  # 50 and over
    report = report_request(
        player=players[0], table=table, game=None, what="Round 2", email="r@example.org", language="en"
    )
    report.confirmed_at = report.created_at
    report.save()
    User.objects.create_superuser("clubs2", "clubs2@example.org", "clubs2-password")
    iso = official.date.isoformat()
    public = {
        "official-list": reverse("ratings:official_list", args=[iso]) + f"?group=S50&club={lyon.pk}",
        "revised": reverse("ratings:official_list_revised", args=[iso]) + f"?club={lyon.pk}",
        "predictions": reverse("ratings:predictions"),
    }
    too_wide: list[str] = []
    toggles = iter(range(1000))

    def club_changed() -> None:
        Club.objects.filter(pk=lyon.pk).update(city=f"Lyon {next(toggles)}")

    def womens_list_changed() -> None:
        day = dt.date(2025, 1, 1) + dt.timedelta(days=next(toggles))
        womens_list_set(player=players[1], on_list=True, consent=day, expected=None)

    def report_decided() -> None:
        now = MistakeReport.objects.get(pk=report.pk)
        status = ReportStatus.NEW if now.status == ReportStatus.IN_PROGRESS else ReportStatus.IN_PROGRESS
        report_decide(report=now, status=status, user=officer, expected=None)

    admin_pages = {
        "admin-club": (reverse("admin:ratings_club_change", args=[lyon.pk]), club_changed),
        "admin-womens-list": (
            reverse("admin:ratings_womenslistentry_change", args=[players[1].pk]),
            womens_list_changed,
        ),
        "admin-report": (reverse("admin:ratings_mistakereport_change", args=[report.pk]), report_decided),
    }
    admin_login(browser, live_server, "clubs2", "clubs2-password")
    for lang in LANGUAGES:
        in_language(browser, live_server, lang)
        for width in WIDTHS:
            for name, url in public.items():
                too_wide += look(browser, live_server, url, name, width, lang)
            for name, (url, meanwhile) in admin_pages.items():
                too_wide += refused_save(browser, live_server, url, meanwhile, name, width, lang)
    assert not too_wide, f"wider than the window: {too_wide}"
