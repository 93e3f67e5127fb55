"""Submits through the API (ratings/api/submit.py): one service saves a table under the client's
``Idempotency-Key``, and the answers a preview and a submit give are written here, once.

A retried submit saves at most one table, through the site's one idempotency mechanism
(ratings/services/idempotency.py), as an upload's confirmation token does in the admin (uploads.py). A retry is
given back the answer the first submit gave, stored with the key in the transaction that saves the table: a
crash never leaves a key without its answer. The service therefore builds that answer itself, from the plan the
import returns, and the answer's shape lives in this module rather than in the API's: storing a summary and
rendering it in the API each time would write the shape twice (the summary's and the answer's), and an answer
stored whole is replayed as it was given, whatever changes later to the table or the site.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db import transaction
from django.urls import reverse

from ratings.models import ApiSubmission, Player, Table
from ratings.services.fesa.turnering import (
    NEW,
    TurneringPlan,
    TurneringRejected,
    TurneringRequest,
    turnering_request_import,
)
from ratings.services.idempotency import key_claim, key_done

SAVED_STATUS = 201


class SubmitResult(StrEnum):
    SAVED = "saved"
    REPLAYED = "replayed"  # the key's earlier submit, of the same request: its answer again
    KEY_REUSED = "key_reused"  # the key's earlier submit was of another request
    IN_PROGRESS = "in_progress"  # the key's earlier submit is still saving
    REFUSED = "refused"  # the table has problems: nothing saved, the key free


@dataclass(frozen=True)
class ApiSubmitOutcome:
    """What a submit did: ``answer`` and ``status_code`` to give when saved or replayed; ``plan`` with its
    problems when refused."""

    result: SubmitResult
    answer: dict[str, Any] | None = None
    status_code: int = SAVED_STATUS
    plan: TurneringPlan | None = None


def api_table_submit(*, request: TurneringRequest, key: str, fingerprint: str) -> ApiSubmitOutcome:
    """Save and submit the table of ``request`` under ``key`` of ``request.user``, with ``fingerprint`` the
    request's (the same key with another fingerprint is another request, refused), in one transaction with the
    key's claim and the answer given (:func:`saved_answer`)."""
    try:
        with transaction.atomic():
            earlier = api_submission_claim(user=request.user, key=key, fingerprint=fingerprint)
            if earlier is not None:
                return _earlier_outcome(earlier, fingerprint)
            plan = turnering_request_import(request, commit=True, submit=True)
            answer = saved_answer(plan)
            api_submission_done(
                user=request.user, key=key, table_id=plan.table_id, status_code=SAVED_STATUS, answer=answer
            )
    except TurneringRejected as exc:
        return ApiSubmitOutcome(SubmitResult.REFUSED, plan=exc.plan)
    return ApiSubmitOutcome(SubmitResult.SAVED, answer=answer)


def _earlier_outcome(earlier: ApiSubmission, fingerprint: str) -> ApiSubmitOutcome:
    if earlier.fingerprint != fingerprint:
        return ApiSubmitOutcome(SubmitResult.KEY_REUSED)
    if earlier.answer is None:
        return ApiSubmitOutcome(SubmitResult.IN_PROGRESS)
    return ApiSubmitOutcome(
        SubmitResult.REPLAYED, answer=earlier.answer, status_code=earlier.status_code or SAVED_STATUS
    )


def api_submission_claim(*, user: Any, key: str, fingerprint: str) -> ApiSubmission | None:
    """Take ``key`` for this submit; the earlier submission when the user used it already, else None.
    Call inside the transaction that saves the table."""
    return key_claim(ApiSubmission, key={"user": user, "key": key}, fingerprint=fingerprint)


def api_submission_done(*, user: Any, key: str, table_id: int | None, status_code: int, answer: Any) -> None:
    """Record the answer the submit gave, for a retry to be given the same."""
    key_done(ApiSubmission, key={"user": user, "key": key}, table_id=table_id, status_code=status_code, answer=answer)


def plan_problems(plan: TurneringPlan, *, players_from_line: int | None = None) -> list[dict[str, Any]]:
    """Every problem with its file and line; for a table the client sent as a list of players (its player n on
    line ``players_from_line + n - 1``), the player a line's problem is about too."""
    out = []
    for p in plan.problems:
        item: dict[str, Any] = {"file": p.file, "line": p.line, "message": p.message}
        if players_from_line is not None and p.line is not None and p.line >= players_from_line:
            item["player"] = p.line - players_from_line + 1
        out.append(item)
    return out


def plan_answer(plan: TurneringPlan, *, players_from_line: int | None = None) -> dict[str, Any]:
    """The preview as JSON: what the admin's preview shows."""
    ids = {line.choice for line in plan.lines if isinstance(line.choice, int) and line.choice > 0}
    ids |= {c.player_id for line in plan.lines for c in line.match.candidates}
    federation_ids = dict(Player.objects.filter(pk__in=ids).values_list("pk", "federation_id"))
    turnering = plan.turnering
    return {
        "ok": plan.ok,
        "problems": plan_problems(plan, players_from_line=players_from_line),
        "notes": list(plan.notes),
        "table": None
        if turnering is None
        else {
            "name": turnering.name,
            "date": turnering.date.isoformat(),
            "rounds": turnering.rounds,
            "sequence": plan.sequence,
        },
        "players": [
            {
                "number": line.number,
                "line": line.line,
                "family_name": line.family_name,
                "given_name": line.given_name,
                "results": line.results,
                "points": line.points,
                "player": federation_ids.get(line.choice) if isinstance(line.choice, int) else None,
                "new_player": line.choice == NEW or line.from_new_players,
                "candidates": [
                    {"federation_id": federation_ids[c.player_id], "label": c.label}
                    for c in line.match.candidates
                    if c.player_id in federation_ids
                ],
            }
            for line in plan.lines
        ],
        "rating_effect": [
            {
                "number": e.number,
                "name": e.name,
                "method": e.method,
                "rating_before": e.rating_before,
                "rating_after": e.rating_after,
                "change": e.change,
                "games": e.games,
                "score": e.score,
                "new_player": e.new_player,
                "grade_before": e.grade_before,
                "promoted_to": e.promoted_to,
            }
            for e in plan.effects
        ],
    }


def saved_answer(plan: TurneringPlan) -> dict[str, Any]:
    """The answer to a submit that saved the table of ``plan`` (which has no problems, so none to number)."""
    assert plan.table_id is not None  # a saved plan has its table
    table = Table.objects.get(pk=plan.table_id)
    return {
        **plan_answer(plan),
        "table_id": table.pk,
        "table_url": reverse("api-v1:table", args=[table.pk]),
        "status": table.status,
        "created_players": plan.created_players,
    }
