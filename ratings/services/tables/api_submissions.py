"""Submits through the API under an ``Idempotency-Key``: a retried submit saves at most one table
(ratings/api/submit.py), through the site's one idempotency mechanism (ratings/services/idempotency.py), as an
upload's confirmation token does in the admin (uploads.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

from ratings.models import ApiSubmission
from ratings.services.fesa.turnering import TurneringPlan, turnering_import
from ratings.services.idempotency import key_claim, key_done


def api_submission_claim(*, user: Any, key: str, fingerprint: str) -> ApiSubmission | None:
    """Take ``key`` for this submit; the earlier submission when the user used it already, else None.
    Call inside the transaction that saves the table."""
    return key_claim(ApiSubmission, key={"user": user, "key": key}, fingerprint=fingerprint)


def api_submission_done(*, user: Any, key: str, table_id: int | None, status_code: int, answer: Any) -> None:
    """Record the answer the submit gave, for a retry to be given the same."""
    key_done(ApiSubmission, key={"user": user, "key": key}, table_id=table_id, status_code=status_code, answer=answer)


def api_table_submit(
    *, key: str, fingerprint: str, answer: Callable[[TurneringPlan], Any], import_kwargs: dict[str, Any]
) -> tuple[ApiSubmission | None, Any]:
    """Save and submit a table under ``key``, in one transaction: ``(None, answer(plan))`` for a new key, or
    ``(earlier, None)`` for a key the user has used already (its answer, or None while that submit is saving).

    ``import_kwargs`` are ``turnering_import``'s, its ``user`` the key's owner; its ``TurneringRejected`` leaves
    nothing saved and the key free.
    """
    user = import_kwargs["user"]
    with transaction.atomic():
        earlier = api_submission_claim(user=user, key=key, fingerprint=fingerprint)
        if earlier is not None:
            return earlier, None
        plan = turnering_import(**import_kwargs, commit=True, submit=True)
        result = answer(plan)
        api_submission_done(user=user, key=key, table_id=plan.table_id, status_code=201, answer=result)
        return None, result
