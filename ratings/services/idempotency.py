"""Doing a thing at most once per key: the key is claimed in the transaction that does the thing.

Claiming inserts a row under a unique key, in a savepoint of the caller's transaction: work that is refused or
rolled back frees the key again, and a second attempt running at the same time waits on the unique index until
the first commits, then finds the key taken and gets the first one's row back, to answer as it did. The site has
two such keys: an admin upload's confirmation (``UploadConfirmation``: the random token its preview carries,
ratings/services/tables/uploads.py) and an API submit (``ApiSubmission``: the client's ``Idempotency-Key``, per
user, with the request's fingerprint and the answer given, ratings/services/tables/api_submissions.py).
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import IntegrityError, models, transaction

M = TypeVar("M", bound=models.Model)


def key_claim(model: type[M], *, key: dict[str, Any], related: tuple[str, ...] = (), **fields: Any) -> M | None:
    """Take ``key`` (the fields of ``model``'s unique constraint), recording ``fields`` with it: None when it was
    free, else the row of the attempt that took it (with ``related`` selected). Call it inside the transaction
    that does the work."""
    manager = model._default_manager
    try:
        with transaction.atomic():
            manager.create(**key, **fields)
    except IntegrityError:
        return manager.select_related(*related).get(**key)
    return None


def key_done(model: type[models.Model], *, key: dict[str, Any], **fields: Any) -> None:
    """Record what the work under ``key`` did (its table, its answer), for a repeated attempt to be given it."""
    model._default_manager.filter(**key).update(**fields)
