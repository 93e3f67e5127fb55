"""Single-use upload confirmations: a preview's token saves at most one table (ratings/admin/upload.py), through
the site's one idempotency mechanism (ratings/services/idempotency.py)."""

from __future__ import annotations

import secrets
from typing import Any

from ratings.models import UploadConfirmation
from ratings.services.idempotency import key_claim, key_done


def upload_token_new() -> str:
    """A fresh token for one upload's previews and its confirmation."""
    return secrets.token_urlsafe(32)


def upload_confirmation_claim(*, token: str, user: Any) -> UploadConfirmation | None:
    """Take ``token`` for this confirmation; the earlier confirmation when it was taken already, else None.
    Call inside the transaction that saves the table."""
    return key_claim(UploadConfirmation, key={"token": token}, related=("table",), user=user)


def upload_confirmation_done(*, token: str, table_id: int | None) -> None:
    """Record the table the confirmation saved, for a replay to be sent to."""
    key_done(UploadConfirmation, key={"token": token}, table_id=table_id)
