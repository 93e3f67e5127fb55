"""A what-if's page and its form in headless Chromium, on a laptop (1366 px) and a phone (390 px), in English and
French: the two calibration charts drawn beside the table of numbers, the page never wider than the window, nothing
axe objects to."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from ratings.engine.rules import FESA_RULES
from ratings.models import WhatIfReport
from ratings.services.whatif import whatif_compute, whatif_request
from tests.factories import make_player
from tests.public.test_axe import AXE, violations
from tests.public.test_browser import admin_login, browser, csp_violations, static_from_source
from tests.public.test_browser_pages import overflows, shoot_at

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below

# Each chart's drawn width and its number of points, as the page lays them out.
CHARTS = """
return [...document.querySelectorAll('.whatif-charts svg.chart.calibration')].map(
  svg => [svg.getBoundingClientRect().width, svg.querySelectorAll('circle.point').length]);
"""


@pytest.mark.parametrize("language", ["en", "fr"])
def test_browser_whatif_page_draws_its_calibration_on_a_laptop_and_a_phone(
    language: str, rated_round_robin: Any, static_from_source: None, live_server: Any, browser: Any
) -> None:
    players = [make_player(f"Family{n}") for n in range(6)]
    for month in (1, 2, 3, 4):
        rated_round_robin(players, dt.date(2024, month, 10))
    rules = dataclasses.replace(
        FESA_RULES, k=tuple(2 * k for k in FESA_RULES.k), k_from=(2240, 1920, 1600, 1280, 1040, 720)
    )
    report = whatif_compute(report_id=whatif_request(rules=rules, queue=False).pk)
    axe = AXE.read_text() if AXE.exists() else None
    browser.set_script_timeout(60)
    User.objects.create_superuser("root", password="a-long-password-1")
    admin_login(browser, live_server, "root", "a-long-password-1")
    browser.add_cookie({"name": "django_language", "value": language})
    for width in (1366, 390):
        browser.set_window_size(width, 900)
        browser.get(live_server.url + reverse("admin:ratings_whatifreport_change", args=[report.pk]))
        charts = browser.execute_script(CHARTS)
        shoot_at(browser, f"admin-whatif-{language}-{width}", width)
        assert len(charts) == 2 and all(drawn > 200 and points > 0 for drawn, points in charts), charts
        assert not overflows(browser)
        if axe is not None:
            assert violations(browser, axe) == [], width
        browser.get(live_server.url + reverse("admin:ratings_whatifreport_add"))
        shoot_at(browser, f"admin-whatif-form-{language}-{width}", width)
        assert not overflows(browser)
    # A band that starts above the band before it: the refusal stands on that band's field, nothing is queued.
    start = browser.find_element(By.NAME, "k_from_2")
    start.clear()
    start.send_keys("2000")
    browser.find_element(By.CSS_SELECTOR, "input[type=submit].default").click()
    WebDriverWait(browser, 30).until(ec.presence_of_element_located((By.CSS_SELECTOR, ".form-row.errors")))
    shoot_at(browser, f"admin-whatif-form-refused-{language}-390", 390)
    rows = browser.find_elements(By.CSS_SELECTOR, ".form-row.errors")
    assert len(rows) == 1 and rows[0].find_element(By.NAME, "k_from_2")
    assert WhatIfReport.objects.count() == 1
    assert csp_violations(browser) == []
