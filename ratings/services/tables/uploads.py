"""The admin upload's confirmation (ratings/admin/upload.py): one service saves the table a director previewed,
under the token that preview carries, and sets the tournament's host club; the view only shows the outcome.

The token is single-use through the site's one idempotency mechanism (ratings/services/idempotency.py): a
replayed or double-clicked confirmation saves nothing and is sent to the table saved the first time.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from ratings.models import Table, UploadConfirmation
from ratings.services.clubs.hosts import tournament_host_club_set
from ratings.services.fesa.turnering import (
    TurneringPlan,
    TurneringRejected,
    TurneringRequest,
    turnering_request_import,
)
from ratings.services.idempotency import key_claim, key_done


@dataclass(frozen=True)
class UploadOutcome:
    """What a confirmation did. ``plan`` is the import's: saved (its ``table_id``) or refused (its problems,
    nothing saved, the token still free); None when the token was used already, ``earlier_table_id`` being the
    table that confirmation saved (None if it was deleted since). ``club_not_created``: the director asked for
    a new host club the tournament, having no country, could not get."""

    plan: TurneringPlan | None
    earlier_table_id: int | None = None
    club_not_created: bool = False

    @property
    def confirmed_before(self) -> bool:
        return self.plan is None


def upload_token_new() -> str:
    """A fresh token for one upload's previews and its confirmation."""
    return secrets.token_urlsafe(32)


def upload_confirm(
    *, request: TurneringRequest, token: str, submit: bool, host_club: str, create_club: bool
) -> UploadOutcome:
    """Save (and ``submit``) the table of ``request`` under ``token``, in one transaction with the token's claim
    and the host club: the club named ``host_club`` matched, or created when ``create_club``."""
    try:
        with transaction.atomic():
            earlier = upload_confirmation_claim(token=token, user=request.user)
            if earlier is not None:
                return UploadOutcome(plan=None, earlier_table_id=earlier.table_id)
            plan = turnering_request_import(request, commit=True, submit=submit)
            upload_confirmation_done(token=token, table_id=plan.table_id)
            club_not_created = _host_club_set(plan, name=host_club, create=create_club)
    except TurneringRejected as exc:
        return UploadOutcome(plan=exc.plan)
    return UploadOutcome(plan=plan, club_not_created=club_not_created)


def _host_club_set(plan: TurneringPlan, *, name: str, create: bool) -> bool:
    """Set the club named on the saved table's tournament (perhaps created with it); True when a club was to be
    created and could not be."""
    if not name or plan.table_id is None:
        return False
    tournament = Table.objects.select_related("tournament").get(pk=plan.table_id).tournament
    club = tournament_host_club_set(tournament=tournament, name=name, create=create)
    return club is None and create


def upload_confirmation_claim(*, token: str, user: Any) -> UploadConfirmation | None:
    """Take ``token`` for this confirmation; the earlier confirmation when it was taken already, else None.
    Call inside the transaction that saves the table."""
    return key_claim(UploadConfirmation, key={"token": token}, related=("table",), user=user)


def upload_confirmation_done(*, token: str, table_id: int | None) -> None:
    """Record the table the confirmation saved, for a replay to be sent to."""
    key_done(UploadConfirmation, key={"token": token}, table_id=table_id)
