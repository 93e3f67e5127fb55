"""Shared fixtures. Helpers that build data live in tests/factories.py."""

from __future__ import annotations

import os

import pytest

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "") == "1"


def skip_or_fail(reason: str) -> None:
    """Skip a test whose service is missing; on CI (REQUIRE_SERVICES=1) fail it instead."""
    if REQUIRE_SERVICES:
        pytest.fail(f"required service missing: {reason}")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _fresh_rating_lists() -> None:
    """Each test reads its own rating lists: a rolled-back transaction may give a data version again."""
    from django.core.cache import caches  # imported here: Django is set up by pytest-django first

    from ratings.page_cache import PAGE_CACHE  # imported here: Django is set up by pytest-django first
    from ratings.selectors import rating_list_forget  # imported here: Django is set up by pytest-django first
    from ratings.selectors.official_lists import official_list_forget  # imported here: as above
    from ratings.selectors.search import search_index_forget  # imported here: Django is set up first
    from ratings.selectors.stats import federation_by_year_forget  # imported here: Django is set up first

    rating_list_forget()
    official_list_forget()
    federation_by_year_forget()
    search_index_forget()
    caches[PAGE_CACHE].clear()  # the test settings keep pages in this process's memory, never in Redis
