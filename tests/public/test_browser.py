"""The public pages in a real browser (headless Chromium): the rating list, a country filter, a player's chart.

Screenshots go to ``test-artifacts/`` at the repository's root (kept out of git) for a person to look at.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from ratings.models import Player
from ratings.services.tables.grid import GridRow, table_grid_save
from ratings.services.tables.submit import table_submit
from tests.admin.test_grid import crosstable
from tests.conftest import skip_or_fail
from tests.factories import make_player, make_table, round_robin
from tests.public.conftest import days_ago, seasoned

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="session")
def static_from_source() -> Iterator[None]:
    """Before the live server starts (it is session-wide): WhiteNoise reads the source folders, as in
    development, so the test needs no collectstatic."""
    from django.test.utils import override_settings

    with override_settings(WHITENOISE_AUTOREFRESH=True):
        yield


@pytest.fixture
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        skip_or_fail(f"headless Chromium needs {CHROMIUM} and {CHROMEDRIVER} (Debian: chromium, chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1280,1000",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, where CSP violations show
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def shoot(driver: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1280, min(max(int(height), 800), 4000))
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def test_browser_rating_list_filter_player_chart(static_from_source: None, live_server: Any, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.ui import WebDriverWait

    french = [seasoned(1700 - 50 * i, grade=18, nationality="FR", last_played=days_ago(400)) for i in range(3)]
    german = seasoned(
        1650, family_name="Wiethölter", given_name="Frederik", grade=18, nationality="DE", last_played=days_ago(400)
    )
    newcomer = Player.objects.create(family_name="Åberg", given_name="Nils", nationality="DE")
    for n, day in enumerate((90, 60, 30)):
        table = make_table([*french, german, newcomer], date=days_ago(day), sequence=n + 1)
        round_robin(table, [german, *french, newcomer][n:] + [german, *french, newcomer][:n])
        table_submit(table=table, user=None)  # committed: the re-rate runs in-process on commit

    wait = WebDriverWait(browser, 15)
    browser.get(live_server.url + "/")
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "table.rating-list tbody tr")))
    assert "Rating list" in browser.title
    rows = browser.find_elements(By.CSS_SELECTOR, "table.rating-list tbody tr")
    assert len(rows) == 5
    css = browser.execute_script("return getComputedStyle(document.querySelector('header.site')).borderBottomStyle")
    assert css == "solid"  # the local stylesheet was served and applied
    shoot(browser, "01-rating-list")

    Select(browser.find_element(By.ID, "id_country")).select_by_value("DE")
    browser.find_element(By.CSS_SELECTOR, "form.filters button[type=submit]").click()
    wait.until(ec.url_contains("country=DE"))
    rows = browser.find_elements(By.CSS_SELECTOR, "table.rating-list tbody tr")
    assert [r.find_element(By.CSS_SELECTOR, "td:nth-child(4)").text for r in rows] == ["DE", "DE"]
    # The rank on the whole list of five, and the rank in the country.
    overall = [int(r.find_element(By.CSS_SELECTOR, "td:nth-child(1)").text) for r in rows]
    assert overall == sorted(overall) and len(set(overall)) == 2 and max(overall) <= 5
    assert [r.find_element(By.CSS_SELECTOR, "td:nth-child(2)").text for r in rows] == ["1", "2"]
    shoot(browser, "02-filtered-by-country")

    browser.find_element(By.LINK_TEXT, "WIETHÖLTER").click()
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "svg.chart")))
    assert "Wiethölter" in browser.title
    drawn = browser.execute_script(
        "const line = document.querySelector('svg.chart path.line');"
        "const box = line.getBBox();"
        "return [box.width, box.height, document.querySelectorAll('svg.chart circle.point').length,"
        " document.querySelector('svg.chart').getBoundingClientRect().width];"
    )
    width, _height, points, shown_width = drawn
    assert points == 3 and width > 100 and shown_width > 300
    shoot(browser, "03-player-with-chart")
    # each table's change leads to its explanation, game by game, on the table's own page
    player_page = browser.current_url
    browser.find_element(By.CSS_SELECTOR, "table.history tbody tr td.explained a").click()
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "table.games")))
    assert "/tables/" in browser.current_url
    assert browser.find_element(By.CSS_SELECTOR, "table.games tbody tr").is_displayed()
    shoot(browser, "03b-player-table-explained")
    browser.get(player_page)

    browser.get(live_server.url + f"/players/{newcomer.federation_id}/")
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "svg.chart circle.point")))
    shoot(browser, "04-newcomer")
    browser.set_window_size(390, 900)
    browser.get(live_server.url + "/?country=FR")
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "table.rating-list")))
    browser.save_screenshot(str(ARTIFACTS / "05-phone-rating-list.png"))


def csp_violations(driver: Any) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"]]


def test_browser_pages_satisfy_the_content_security_policy(
    static_from_source: None, live_server: Any, browser: Any
) -> None:
    """The policy forbids inline style and script: the public pages and the admin's own must not need any."""
    from django.contrib.auth.models import User

    players = [seasoned(1700 - 40 * i, grade=18, nationality="FR", last_played=days_ago(400)) for i in range(4)]
    table = make_table(players, date=days_ago(30), sequence=1)
    round_robin(table, players)
    table_submit(table=table, user=None)
    User.objects.create_superuser("root", password="a-long-password-1")

    public = ["/", "/tournaments/", "/promotions/", f"/players/{players[0].federation_id}/", f"/tables/{table.pk}/"]
    for url in public:
        browser.get(live_server.url + url)
        assert csp_violations(browser) == [], url
    admin_login(browser, live_server, "root", "a-long-password-1")
    admin_pages = ["/admin/", "/admin/ratings/table/", f"/admin/ratings/table/{table.pk}/change/"]
    admin_pages += ["/admin/ratings/player/add/", "/admin/ratings/promotion/"]
    for url in admin_pages:
        browser.get(live_server.url + url)
        assert "Log in" not in browser.title, url
        assert csp_violations(browser) == [], url
        if "/change/" in url:
            shoot(browser, "06-admin-table-change")


def session_of(browser: Any, live_server: Any, user: Any) -> None:
    """Give the browser a session of ``user``, made by the test client: no login form, no second factor."""
    client = Client()
    client.force_login(user)
    browser.get(live_server.url + "/admin/login/")
    browser.add_cookie(
        {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    )


def admin_login(browser: Any, live_server: Any, username: str, password: str) -> None:
    """Log in to the admin and wait until the login has gone through: a page asked for before the answer to the
    login's POST is back is asked for without the session, and lands on the login page again."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(live_server.url + "/admin/login/")
    browser.find_element(By.NAME, "username").send_keys(username)
    browser.find_element(By.NAME, "password").send_keys(password)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    WebDriverWait(browser, 30).until(ec.presence_of_element_located((By.ID, "user-tools")))


def crosstable_page(browser: Any, live_server: Any, *, players: int, rounds: int, width: int) -> None:
    """Open, as a superuser, the crosstable page of a table of ``players`` who played ``rounds`` rounds, at
    ``width`` pixels, once its player autocompletes have started."""
    from django.contrib.auth.models import User
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    entered = [make_player(f"Grid{n:02d}", "Lee") for n in range(1, players + 1)]
    table = make_table([], date=days_ago(10))
    rows = [GridRow(p.pk, " ".join(cells)) for p, cells in zip(entered, crosstable(players, rounds), strict=True)]
    table_grid_save(table=table, rows=rows, strict_dates=True)
    User.objects.create_superuser("root", password="a-long-password-1")
    admin_login(browser, live_server, "root", "a-long-password-1")
    browser.set_window_size(width, 900)
    browser.get(live_server.url + f"/admin/ratings/table/{table.pk}/crosstable/")
    WebDriverWait(browser, 15).until(ec.presence_of_element_located((By.CSS_SELECTOR, "#grid .select2-container")))


def test_browser_crosstable_page_at_1366_pixels(static_from_source: None, live_server: Any, browser: Any) -> None:
    """A 30-player, 7-round table on the crosstable page of a laptop screen: every row fits the width, the
    player autocompletes work, and the page needs no inline style or script."""
    from selenium.webdriver.common.by import By

    crosstable_page(browser, live_server, players=30, rounds=7, width=1366)
    assert csp_violations(browser) == []
    cells = browser.find_elements(By.CSS_SELECTOR, "#grid input.grid-cells")
    assert len(cells) == 35 and cells[0].get_attribute("value") == " ".join(crosstable(30, 7)[0])
    assert len(browser.find_elements(By.CSS_SELECTOR, "#grid .select2-container")) == 35
    width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width  # no sideways scrolling
    font = browser.execute_script("return getComputedStyle(document.querySelector('input.grid-cells')).fontFamily")
    assert "monospace" in font  # the admin stylesheet was served and applied
    ARTIFACTS.mkdir(exist_ok=True)
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1366, min(int(height) + 200, 4000))  # the window holds its own bars too
    browser.save_screenshot(str(ARTIFACTS / "07-admin-crosstable-1366.png"))
