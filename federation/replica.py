"""Public reads on a PostgreSQL replica (``DATABASE_REPLICA_URL``), with one rule for replica lag.

A request reads from the replica only when all of these hold: it is a GET or HEAD of an anonymous visitor (no
session cookie: staff read back what they just wrote from where it was written), outside the admin, and the
replica has reached the primary's data version (ratings/selectors/versions.py, asked of both; one small query
each). So a page is never made from data older than the version it is shown and kept under. The data version
itself, every write, the worker, beat and the commands always use the primary. Without a replica configured
nothing here runs.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse

from ratings.selectors.versions import data_version

log = logging.getLogger(__name__)

REPLICA = "replica"
_reads_on_replica: ContextVar[bool] = ContextVar("reads_on_replica", default=False)


class ReplicaRouter:
    """Reads go to the replica while a request allowed it (:func:`replica_reads`); everything else to the primary."""

    def db_for_read(self, model: Any, **hints: Any) -> str:
        return REPLICA if _reads_on_replica.get() else "default"

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return "default"

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # one database, two copies of it

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None, **hints: Any) -> bool:
        return db == "default"  # the replica follows the primary by itself


def replica_usable(request: HttpRequest) -> bool:
    """Whether this request may read from the replica (the rule of the module's docstring)."""
    if REPLICA not in settings.DATABASES or request.method not in {"GET", "HEAD"}:
        return False
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        return False
    if request.path_info.startswith("/" + settings.ADMIN_URL):
        return False
    try:
        return data_version(REPLICA).key == data_version("default").key
    except DatabaseError:
        log.warning("the replica does not answer: reading from the primary", exc_info=True)
        return False


def replica_reads(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        if not replica_usable(request):
            return get_response(request)
        token = _reads_on_replica.set(True)
        try:
            return get_response(request)
        finally:
            _reads_on_replica.reset(token)

    return middleware


@contextlib.contextmanager
def primary_reads() -> Iterator[None]:
    """Within the block, reads go to the primary whatever the request allowed: for what must be read as of the
    primary's newest data (a rating list made again after the data changed, ratings/services/lists.py)."""
    token = _reads_on_replica.set(False)
    try:
        yield
    finally:
        _reads_on_replica.reset(token)
