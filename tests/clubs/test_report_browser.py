"""In headless Chromium: what a reporter typed on the report form survives a switch of the site's language (the
footer's form reloads the page), and only that one reload."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.factories import add_game, make_player, make_table
from tests.public.test_browser import browser, static_from_source

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below


def test_the_report_form_keeps_its_text_across_a_language_switch(
    static_from_source: None, live_server: Any, browser: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select, WebDriverWait

    a, b = make_player("Ando"), make_player("Baba")
    table = make_table([a, b], status="rated")
    add_game(table, 1, a, b)
    second = add_game(table, 2, b, a)
    url = live_server.url + reverse("ratings:report_table", args=[table.pk])
    browser.get(url)
    Select(browser.find_element(By.NAME, "game")).select_by_value(str(second.pk))
    browser.find_element(By.NAME, "what").send_keys("Baba lost round 2, not won")
    browser.find_element(By.NAME, "email").send_keys("reporter@example.org")

    Select(browser.find_element(By.ID, "language")).select_by_value("fr")
    switch = browser.find_element(By.CSS_SELECTOR, "form.language button")
    switch.click()
    WebDriverWait(browser, 30).until(ec.staleness_of(switch))
    WebDriverWait(browser, 30).until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr")

    field = browser.find_element(By.NAME, "what")
    WebDriverWait(browser, 10).until(lambda _: field.get_attribute("value"))
    assert field.get_attribute("value") == "Baba lost round 2, not won"
    assert browser.find_element(By.NAME, "email").get_attribute("value") == "reporter@example.org"
    assert Select(browser.find_element(By.NAME, "game")).first_selected_option.get_attribute("value") == str(second.pk)
    # the language of the mails follows the page's new language, not the one the form was first shown in
    assert Select(browser.find_element(By.NAME, "language")).first_selected_option.get_attribute("value") == "fr"

    browser.get(url)  # opened again: the draft was put back once, and is gone
    assert browser.find_element(By.NAME, "what").get_attribute("value") == ""
