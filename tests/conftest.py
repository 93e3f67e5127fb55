"""Shared fixtures. Helpers that build data live in tests/factories.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "") == "1"


def skip_or_fail(reason: str) -> None:
    """Skip a test whose service is missing; on CI (REQUIRE_SERVICES=1) fail it instead."""
    if REQUIRE_SERVICES:
        pytest.fail(f"required service missing: {reason}")
    pytest.skip(reason)


LOCALE = Path(__file__).resolve().parent.parent / "locale"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the translation catalogues that are missing or older than their .po, as `make test` does
    (`make messages-compile`), so that running pytest directly tests the pages in every language too."""
    for po in LOCALE.glob("*/LC_MESSAGES/django.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            with po.open("rb") as source, mo.open("wb") as target:
                write_mo(target, read_po(source, locale=po.parent.parent.name))


@pytest.fixture(autouse=True)
def _fresh_rating_lists() -> None:
    """Each test reads its own rating lists: a rolled-back transaction may give a data version again."""
    from ratings.selectors import rating_list_forget  # imported here: Django is set up by pytest-django first

    rating_list_forget()
