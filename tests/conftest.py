"""Shared fixtures. Helpers that build data live in tests/factories.py."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import time_machine
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "") == "1"


def skip_or_fail(reason: str) -> None:
    """Skip a test whose service is missing; on CI (REQUIRE_SERVICES=1) fail it instead."""
    if REQUIRE_SERVICES:
        pytest.fail(f"required service missing: {reason}")
    pytest.skip(reason)


# The suite's "today": every test sees the clock start at this instant and run on from it, so the demo, the
# activity rule ("played in the last two years"), date checks and counts give the same answer on any day the
# suite runs. Processes the tests start (a Celery worker, the standalone FESA run) keep the real clock: what they
# compute never depends on the day. The instant lies in the past, so no date the tests make is in the future
# for those processes. FIXED_NOW is importable for tests that name the day.
FIXED_NOW = dt.datetime(2026, 6, 15, 10, 0, tzinfo=ZoneInfo("Europe/Paris"))
_CLOCK = time_machine.travel(FIXED_NOW, tick=True)


def pytest_configure(config: pytest.Config) -> None:
    _CLOCK.start()


def pytest_unconfigure(config: pytest.Config) -> None:
    _CLOCK.stop()


LOCALE = Path(__file__).resolve().parent.parent / "locale"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the translation catalogues that are missing or older than their .po, as `make test` does
    (`make messages-compile`), so that running pytest directly tests the pages in every language too.

    Under pytest-xdist the controller compiles them before it starts the workers, which only read them; each
    file is written beside its place and renamed into it, so no process ever reads half a catalogue."""
    if hasattr(session.config, "workerinput"):  # an xdist worker
        return
    for po in LOCALE.glob("*/LC_MESSAGES/django.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            partial = mo.with_name(f".{mo.name}.{os.getpid()}")
            with po.open("rb") as source, partial.open("wb") as target:
                write_mo(target, read_po(source, locale=po.parent.parent.name))
            partial.replace(mo)


@pytest.fixture(autouse=True)
def _fresh_shared_cache() -> None:
    """Each test starts with an empty shared cache (pages, and what is built once per data version): a
    rolled-back transaction may give a data version again. The test settings keep it in this process's memory,
    never in Redis."""
    from django.core.cache import caches  # imported here: Django is set up by pytest-django first

    from ratings.selectors.versions import CACHE  # imported here: Django is set up by pytest-django first

    caches[CACHE].clear()


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts and ends in the site's default language. A test client's request activates the language
    it asks for (LocaleMiddleware) and leaves it active in the thread, so a service's messages in the next test
    came in Japanese after a Japanese page."""
    from django.utils import translation  # imported here: Django is set up by pytest-django first

    translation.deactivate()
    yield
    translation.deactivate()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every transactional test restores the migrated data (groups, permissions, content types) afterwards.

    A transactional test ends by emptying the database. Without a serialized rollback Django then re-creates
    content types and permissions by its post_migrate signal, with new ids and without the groups the role
    migration made; a later test asking for a serialized rollback then fails to load the saved rows over them
    (UNIQUE constraint failed: django_content_type), and a later browser test finds no rating officers'
    group. With every transactional test rolled back the same way, each one starts from the migrated data.
    """
    for item in items:
        marker = item.get_closest_marker("django_db")
        transactional = bool(marker and marker.kwargs.get("transaction"))
        fixtures = getattr(item, "fixturenames", ())
        if transactional or "live_server" in fixtures or "transactional_db" in fixtures:
            kwargs = dict(marker.kwargs) if marker else {}
            kwargs.update(transaction=True, serialized_rollback=True)
            item.add_marker(pytest.mark.django_db(*(marker.args if marker else ()), **kwargs), append=False)
