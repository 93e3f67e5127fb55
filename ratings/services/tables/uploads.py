"""Single-use upload confirmations: a preview's token saves at most one table (ratings/admin/upload.py)."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import IntegrityError, transaction

from ratings.models import UploadConfirmation


def upload_token_new() -> str:
    """A fresh token for one upload's previews and its confirmation."""
    return secrets.token_urlsafe(32)


def upload_confirmation_claim(*, token: str, user: Any) -> UploadConfirmation | None:
    """Take ``token`` for this confirmation; the earlier confirmation when it was taken already, else None.

    Call inside the transaction that saves the table: a rolled-back save frees the token again, and a
    second confirmation running at the same time waits on the unique index and then finds it taken.
    """
    try:
        with transaction.atomic():
            UploadConfirmation.objects.create(token=token, user=user)
    except IntegrityError:
        return UploadConfirmation.objects.select_related("table").get(token=token)
    return None


def upload_confirmation_done(*, token: str, table_id: int | None) -> None:
    """Record the table the confirmation saved, for a replay to be sent to."""
    UploadConfirmation.objects.filter(token=token).update(table_id=table_id)
