"""The version of the public data: what changes whenever a page could (ETags, the shared cache's keys).

Every change the public pages show adds a row to one of a few tables: a re-rate logs a
``RerateRun`` (in the same transaction as the rows it writes), publishing an official list an ``OfficialList``,
and an edit or a decision on a player, a promotion, a table, a tournament, a club or a club membership writes
an audit history row (django-simple-history; the grade decisions' compare-and-set updates write theirs by hand).
The newest id and time of each, read in one query from the primary keys, are the version (``_sources``).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.cache import caches
from django.db import connection, connections
from django.utils import timezone

from ratings.models import Club, ClubMembership, OfficialList, Player, Promotion, RerateRun, Table, Tournament

EPOCH = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
T = TypeVar("T")
logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class DataVersion:
    key: str  # changes with every change of the public data
    modified: dt.datetime  # when the latest of them landed


def _sources() -> list[tuple[str, str, str]]:
    """(table, id column, time column) of the append-only tables."""
    out = [(RerateRun._meta.db_table, "id", "finished_at"), (OfficialList._meta.db_table, "id", "published_at")]
    for model in (Player, Promotion, Table, Tournament, Club, ClubMembership):
        history = model.history.model
        out.append((history._meta.db_table, "history_id", "history_date"))
    return out


def _as_datetime(value: Any) -> dt.datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    return value if timezone.is_aware(value) else timezone.make_aware(value, dt.UTC)


@functools.cache
def _query(vendor: str) -> str:
    """The version's query for a database of ``vendor`` (made once: every public request asks it)."""
    quote = connection.ops.quote_name
    parts = []
    for table, pk, at in _sources():
        newest = f"FROM {quote(table)} ORDER BY {quote(pk)} DESC LIMIT 1"
        parts += [f"(SELECT {quote(pk)} {newest})", f"(SELECT {quote(at)} {newest})"]
    return "SELECT " + ", ".join(parts)


def data_version(using: str = "default") -> DataVersion:
    """The version of everything the public pages show. One query, each part read from a primary key's end.
    ``using`` names another database (a replica, federation/replica.py, compares its version with this one)."""
    db = connections[using]
    with db.cursor() as cursor:
        cursor.execute(_query(db.vendor))
        values = cursor.fetchone()
    times = [t for t in (_as_datetime(v) for v in values[1::2]) if t is not None]
    key = hashlib.sha1(repr(values).encode(), usedforsecurity=False).hexdigest()[:16]
    return DataVersion(key=key, modified=max(times, default=EPOCH))


CACHE = "pages"
"""The site's one shared cache (settings.CACHES): Redis shared by every web process when configured, else each
process's memory. The public pages are kept in it (ratings/page_cache.py), and so is what a page needs built
once per data version (``version_cached``)."""


class CacheOutage:
    """Whether this process found the shared cache down: one WARNING when it first fails (with the cause, not
    a traceback: a page is made without it, which is no error), one INFO when it answers again. Every page
    reads and writes it several times; logging each failure wrote megabytes of tracebacks per outage."""

    def __init__(self) -> None:
        self.down = False
        self._lock = threading.Lock()

    def failed(self, what: str, exc: Exception) -> None:
        with self._lock:
            if self.down:
                return
            self.down = True
        logger.warning(
            "shared cache: %s failed (%s: %s); pages are made without it until it answers again",
            what,
            type(exc).__name__,
            exc,
        )

    def answered(self) -> None:
        if not self.down:  # the usual case, without the lock
            return
        with self._lock:
            if not self.down:
                return
            self.down = False
        logger.info("shared cache: it answers again")


CACHE_OUTAGE = CacheOutage()
"""This process's view of the shared cache (the page cache shares it: ratings/web/caching.py)."""


def version_cached(name: str, version: DataVersion | None, make: Callable[[], T]) -> T:
    """What ``make`` returns for the data ``version``, built once for every process: kept in the shared cache
    under ``name`` and the version, so a change of the data makes it afresh and nothing is ever invalidated
    by hand. Without a version (a caller that read none) it is made every time. A cache that fails (Redis
    down) is told once per outage (``CACHE_OUTAGE``) and the value made as if it missed."""
    if version is None:
        return make()
    key = f"version:{version.key}:{name}"
    try:
        value = caches[CACHE].get(key)
    except Exception as exc:  # a cache that is down must not take the pages with it
        CACHE_OUTAGE.failed("read", exc)
        value = None
    else:
        CACHE_OUTAGE.answered()
    if value is None:
        value = make()
        try:
            caches[CACHE].set(key, value)
        except Exception as exc:  # the value was made; not keeping it only costs the next request
            CACHE_OUTAGE.failed("write", exc)
    return value
