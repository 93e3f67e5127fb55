"""The fingerprint of a promotion a grade officer decides on (ratings/services/fingerprints.py).

The decision page carries the version of the record it showed: its status, whether the history still
supports it, the table and route that reached it and every decision on it. A decision is saved only onto
exactly that record; the compare-and-set of each decision (ratings/services/grades/promotions.py) still guards the
status itself.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext as _

from ratings import engine
from ratings.models import Promotion
from ratings.services.fingerprints import by, history_lines, version_check, version_of, when

FIELDS = (
    "player_id",
    "grade",
    "status",
    "supported",
    "flag_reason",
    "table_id",
    "route",
    # Not the rating the promotion was reached at: a re-rate moves it, without an audit line, whenever a
    # correction before it changes the player's path; the decision is about the grade, table and route.
    "decided_at",
    "reviewed_at",
)


def _facts(promotion_id: int, *, lock: bool) -> dict[str, Any] | None:
    # No ordering: the model's orders by the table's date, an outer join PostgreSQL cannot lock.
    records = Promotion.objects.filter(pk=promotion_id).order_by()
    return (records.select_for_update(of=("self",)) if lock else records).values(*FIELDS).first()


def promotion_version(promotion: Promotion) -> str:
    """The version of the promotion as it is now, for the decision page to carry."""
    return version_of(_facts(promotion.pk, lock=False))


def promotion_lock_check(promotion: Promotion, expected: str | None, *, lock: bool = True) -> None:
    """Lock the promotion and raise ChangedMeanwhile unless it is the one of ``expected``."""
    if expected is None:
        return
    facts = _facts(promotion.pk, lock=lock)
    version_check(expected, facts, changes=lambda since: _changes_since(promotion, since))


def _changes_since(promotion: Promotion, since: dt.datetime | None) -> list[str]:
    records = Promotion.history.filter(id=promotion.pk).select_related("history_user").order_by("history_date")
    if since is not None:
        records = records.filter(history_date__gte=since)
    grade = engine.grade_label(promotion.grade)

    def what(record: Any) -> str:
        said = record.history_change_reason or _("changed")
        return f"{grade}: {record.get_status_display()} ({said})"

    lines = history_lines(list(records)[-10:], what=what)
    if not lines and since is not None:  # a change that left no history row: say when it was decided last
        record = Promotion.objects.filter(pk=promotion.pk).select_related("decided_by").first()
        if record is not None and record.decided_at is not None and record.decided_at >= since:
            lines = [f"{when(record.decided_at)}, {by(record.decided_by)}: {grade}: {record.get_status_display()}"]
    return lines
