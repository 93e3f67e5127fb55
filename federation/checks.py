"""The site's deployment checks (``manage.py check --deploy``; the install's first start runs it): what the
federation must decide itself, said before the site publishes anything in its name."""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security, deploy=True)
def check_deploy_choices(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    found: list[checks.CheckMessage] = []
    if not settings.DATA_LICENCE_CHOSEN:
        found.append(
            checks.Warning(
                f"DATA_LICENCE_NAME is not set: every download, feed and the API say the ratings are published "
                f"under {settings.DATA_LICENCE_NAME}, a licence the federation has not chosen",
                hint="choose the licence of the federation's data and set DATA_LICENCE_NAME and DATA_LICENCE_URL "
                "(docs/deploy.md, step 3)",
                id="federation.W001",
            )
        )
    if "PROXY_COUNT" in os.environ:
        found.append(
            checks.Warning(
                "PROXY_COUNT is no longer read: the login throttling takes the client's address by the same rule "
                "as the rest of the site",
                hint="list your proxies' addresses in TRUSTED_PROXIES instead (docs/deploy.md)",
                id="federation.W002",
            )
        )
    if settings.PAGE_CACHE_URL and settings.REDIS_URL and _same_database(settings.PAGE_CACHE_URL, settings.REDIS_URL):
        found.append(
            checks.Error(
                "PAGE_CACHE_URL and REDIS_URL name the same Redis database: pages are dropped past maxmemory and "
                "cleared by rewrite_derived_files, and the broker's queue and beat's lock must not be",
                hint="give the page cache a database of its own, e.g. redis://127.0.0.1:6379/1 (docs/deploy.md)",
                id="federation.E002",
            )
        )
    return found


def _same_database(a: str, b: str) -> bool:
    """redis://host:6379 and redis://host:6379/0 are one database."""

    def normal(url: str) -> str:
        url = url.split("?", 1)[0].rstrip("/")
        head, _, last = url.rpartition("/")
        return url + "/0" if not last.isdigit() or head.endswith(":/") else url

    return normal(a) == normal(b)
