"""The subscription form in headless Chromium at 1366 and 390 pixels, for a person to look at: reached from the
player's page, filled and sent, then the confirmation and unsubscribe pages; each fits the phone's width, breaks
no Content-Security-Policy rule and has no accessibility violation (axe-core, when installed). Screenshots go to
``test-artifacts/subscribe-*.png``."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.core.cache import caches
from selenium.webdriver.support.ui import WebDriverWait

from ratings.models import Subscription
from ratings.services.season.subscriptions import unsubscribe_url
from tests.factories import make_player
from tests.public.test_axe import AXE, violations
from tests.public.test_browser import browser, csp_violations, static_from_source
from tests.public.test_browser_pages import overflows, shoot_at

__all__ = ["browser", "static_from_source"]  # fixtures used by name
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDTHS = (1366, 390)


def look(driver: Any, name: str, axe: str | None) -> None:
    """At both widths: no sideways scrolling, no CSP violation, nothing axe objects to; a screenshot of each."""
    for width in WIDTHS:
        driver.set_window_size(width, 900)
        assert not overflows(driver), (name, width)
        if axe is not None:
            assert violations(driver, axe) == [], (name, width)
        shoot_at(driver, f"subscribe-{name}-{width}", width)
    assert csp_violations(driver) == []


def test_browser_subscribe_form(static_from_source: None, live_server: Any, browser: Any) -> None:
    caches["api-throttle"].clear()
    axe = AXE.read_text() if AXE.exists() else None
    browser.set_script_timeout(60)
    player = make_player("Martin", "Élodie")
    browser.get(f"{live_server.url}/players/{player.federation_id}/")
    browser.find_element("css selector", f"a[href$='/players/{player.federation_id}/subscribe/']").click()
    WebDriverWait(browser, 30).until(lambda driver: driver.find_elements("name", "email"))
    look(browser, "form", axe)

    browser.find_element("name", "email").send_keys("fan@example.org")
    browser.find_element("css selector", "select[name=language] option[value=fr]").click()
    browser.find_element("name", "on_grades").click()  # only the tables
    browser.find_element("css selector", "form.subscribe button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda driver: "/subscribe/sent/" in driver.current_url)
    look(browser, "sent", axe)
    subscription = Subscription.objects.get()
    assert (subscription.language, subscription.on_tables, subscription.on_grades) == ("fr", True, False)
    assert subscription.confirmed_at is None

    [confirmation] = mail.outbox
    [link] = [u for u in re.findall(r"https?://\S+", confirmation.body) if "/subscriptions/confirm/" in u]
    browser.get(live_server.url + urlsplit(link).path)
    look(browser, "confirm", axe)
    browser.find_element("css selector", "form.confirm button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda driver: driver.find_elements("css selector", "[role=status]"))
    subscription.refresh_from_db()
    assert subscription.confirmed_at is not None
    look(browser, "confirmed", axe)


def test_browser_unsubscribe_page(static_from_source: None, live_server: Any, browser: Any) -> None:
    axe = AXE.read_text() if AXE.exists() else None
    browser.set_script_timeout(60)
    subscription = Subscription.objects.create(player=make_player(), email="fan@example.org", language="de")
    browser.get(live_server.url + urlsplit(unsubscribe_url(subscription)).path)
    look(browser, "unsubscribe", axe)
    browser.find_element("css selector", "form.confirm button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda driver: driver.find_elements("css selector", "[role=status]"))
    assert not Subscription.objects.exists()
    assert json.dumps(csp_violations(browser)) == "[]"
