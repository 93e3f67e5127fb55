"""The version of the public data: what changes whenever a page could (ETags, the rating list's memo).

Every change the public pages show leaves a row in one of a few append-only tables: a re-rate logs a
``RerateRun`` (in the same transaction as the rows it writes), publishing an official list an ``OfficialList``
(never changed nor deleted), and an edit or a decision on a player, a
promotion, a table or a tournament writes an audit history row (django-simple-history; the grade decisions'
compare-and-set updates write theirs by hand). The newest id and time of each, read in one query from the
primary keys, are the version.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
from dataclasses import dataclass
from typing import Any

from django.db import connection, connections
from django.utils import timezone

from ratings.models import OfficialList, Player, Promotion, RerateRun, Table, Tournament

EPOCH = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)


@dataclass(frozen=True, slots=True)
class DataVersion:
    key: str  # changes with every change of the public data
    modified: dt.datetime  # when the latest of them landed


def _sources() -> list[tuple[str, str, str]]:
    """(table, id column, time column) of the append-only tables."""
    out = [(RerateRun._meta.db_table, "id", "finished_at"), (OfficialList._meta.db_table, "id", "published_at")]
    for model in (Player, Promotion, Table, Tournament):
        history = model.history.model  # type: ignore[attr-defined]
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
