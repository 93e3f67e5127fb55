"""The walking check: every page the site links to, as each role, in English, French and German, at 1366 and 390
pixels, in headless Chromium, on the demo federation with every kind of data (tests/pagewalk/data.py).

Each role logs in with the demo's login (password ``demo``); its pages are found by following the links from the
front page (a visitor) or from the admin's index (each role), same origin, one URL per kind of URL
(tests/pagewalk/walker.py). A page fails on: the page wider than the window, an element drawn outside the window
with no scroll box around it, text cut or spilling out of a table cell (or a term, a label, a heading), an English
text of the catalogues or a correction's stored English words on a French or German page, a duplicate heading or
landmark; and any link of the pages answering 4xx or 5xx. Every page's screenshot is kept in
``test-artifacts/walk/`` with ``report.txt``, the pages walked and what was found.
"""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.urls import reverse

from ratings.access import ensure_roles
from ratings.models import Correction, Tournament
from tests.pagewalk.data import Enriched, enrich
from tests.pagewalk.walker import (
    ARTIFACTS,
    MEASURE,
    STATUSES,
    THIRD_PARTY,
    Crawl,
    Finding,
    english_texts,
    links_to_ask,
    page_findings,
    screenshot,
    shot_name,
)
from tests.public.test_browser import browser, static_from_source

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below

ROLES = ("visitor", "admin", "director", "officer", "grades")
LANGUAGES = ("en", "fr", "de")
WIDTHS = (1366, 390)
PAGES = {"visitor": 30, "admin": 34, "director": 16, "officer": 24, "grades": 16}  # the walk's bounds, per role


@pytest.fixture
def federation() -> Iterator[Enriched]:
    ensure_roles(Group, Permission)  # a transactional test before may have flushed the roles' groups
    call_command("seed_demo", "--demo-users", stdout=io.StringIO())
    yield enrich()


def seeds(role: str, data: Enriched) -> list[str]:
    """Where a role's walk starts: the front page or the admin's index, and the pages of the kinds the demo may
    hold only once (so that one URL of their kind is theirs, not a plainer one's)."""
    registered = Tournament.objects.filter(announcement="accepted", tables=None).order_by("start_date").first()
    if role == "visitor":
        pages = [reverse("ratings:rating_list"), reverse("ratings:table", args=[data.long_table.pk])]
        pages.append(reverse("ratings:tournament", args=[data.long_table.tournament_id]))
        pages += [reverse("ratings:tournament", args=[registered.pk])] if registered else []
        return pages
    pages = ["/admin/", reverse("admin:ratings_correction_change", args=[data.merge.pk])]
    pages.append(reverse("admin:ratings_table_change", args=[data.long_table.pk]))
    pages += [reverse("admin:ratings_tournament_change", args=[registered.pk])] if registered else []
    return pages


def log_in(driver: Any, origin: str, role: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(origin + "/robots.txt")  # on the origin, whose cookies are set next
    driver.delete_all_cookies()
    if role == "visitor":
        return
    driver.get(origin + "/admin/login/")
    driver.find_element(By.NAME, "username").send_keys(role)
    driver.find_element(By.NAME, "password").send_keys("demo")
    driver.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "user-tools")))


def test_walk_every_page_as_every_role_in_three_languages_at_two_widths(
    static_from_source: None, live_server: Any, browser: Any, federation: Enriched
) -> None:
    origin = live_server.url
    english = {language: english_texts(language) for language in LANGUAGES if language != "en"}
    stored = {line for c in Correction.objects.all() for line in c.summary.splitlines() if len(line.split()) >= 3}
    for language in english:
        english[language] = sorted(set(english[language]) | stored)
    findings: list[Finding] = []
    walked: list[str] = []
    started = time.monotonic()
    browser.set_script_timeout(300)
    for role in ROLES:
        log_in(browser, origin, role)
        crawl = Crawl(origin, limit=PAGES[role], inside="/" if role == "visitor" else "/admin/")
        crawl.offer(origin + url for url in seeds(role, federation))
        for language in LANGUAGES:
            browser.add_cookie({"name": "django_language", "value": language})
            index = 0
            while index < len(crawl.pages):  # the first language follows the links; the others walk its pages
                url, index = crawl.pages[index], index + 1
                path = url[len(origin) :]
                texts = () if THIRD_PARTY.match(path) else english.get(language, ())
                browser.set_window_size(WIDTHS[0], 900)
                browser.get(url)
                for width in WIDTHS:  # one load, measured at each width
                    if width != WIDTHS[0]:
                        browser.set_window_size(width, 900)
                    measured = browser.execute_script(MEASURE)
                    if language == LANGUAGES[0] and width == WIDTHS[0]:
                        crawl.offer(measured["links"])
                    for what in page_findings(measured, english=texts, language=language):
                        findings.append(Finding(role, language, width, path, what))
                    screenshot(browser, shot_name(role, url, origin, language, width), width=width)
        for url, status in browser.execute_async_script(STATUSES, links_to_ask(crawl.links, origin)):
            if status >= 400 or status == 0:
                findings.append(Finding(role, "", 0, url[len(origin) :], f"the link answers {status}"))
        walked += [f"{role} {url[len(origin) :]}" for url in crawl.pages]
    report = [f"{len(walked)} pages in {len(LANGUAGES)} languages at {WIDTHS} px, {time.monotonic() - started:.0f} s"]
    report += walked + ["", f"{len(findings)} findings"] + [str(f) for f in findings]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "report.txt").write_text("\n".join(report) + "\n")
    assert not findings, "\n".join(str(f) for f in findings[:60])
