"""A correction as an officer posts it from a form: previewed until he confirms it with a reason, then made.

``correction_submit`` is the one entry the admin's forms call (a table's change form, its crosstable page, a
player's change form). It is given the change (a player's form may change his identity and his prior grade at
once: two changes, one reason), the version the page carried and the officer's confirmation with its reason.
Until he has confirmed with a reason it writes nothing and answers ``PreviewWanted``: the change in words, what
it would re-rate (computed in memory, ratings/services/corrections/preview.py) and the error to show. A stale
version is refused even then (ChangedMeanwhile), since a preview of a stale form would mislead too. Confirmed,
it makes every change through ``correction_make`` in one transaction and answers ``CorrectionsMade``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from ratings.models import Correction
from ratings.services.corrections.apply import NothingToCorrect, correction_make, correction_preview
from ratings.services.corrections.facts import Change, IdentityChange, planned_lines
from ratings.services.corrections.fingerprints import change_lock_check
from ratings.services.corrections.preview import CorrectionPreview


@dataclass(frozen=True)
class PreviewWanted:
    """Nothing was written: the page to show before the officer confirms, with ``error`` if his confirmation
    came without a reason. ``rates_nothing``: only a player's identity changes, which re-rates nothing."""

    lines: list[str]
    preview: CorrectionPreview
    rates_nothing: bool
    error: str


@dataclass(frozen=True)
class CorrectionsMade:
    """The corrections recorded; none when the facts were already as asked by the time it was confirmed."""

    corrections: list[Correction]

    @property
    def rerates(self) -> bool:
        return any(c.kind != Correction.Kind.IDENTITY for c in self.corrections)


def correction_lines(changes: Sequence[Change]) -> list[str]:
    """What ``changes`` would change, in the summary's words. Empty when they change no fact (a form saved as it
    was shown): that is no correction, and the form is saved as usual. Raises TableRefused for a table change
    that breaks a rule of tables."""
    return [line for change in changes for line in planned_lines(change)]


def correction_submit(
    *, user: Any, changes: Sequence[Change], expected: str, confirmed: bool, reason: str
) -> PreviewWanted | CorrectionsMade:
    """Preview ``changes`` until ``confirmed`` with a ``reason``, then make them; see the module's docstring.

    ``expected``: the version the page carried (``change_version``); "" (a page that carried none) is refused
    like a stale one. Raises PermissionDenied for a user who is not a rating officer, ChangedMeanwhile, and
    whatever ``correction_make`` raises but NothingToCorrect (a change found already made is left out).
    """
    if not changes:
        raise ValueError("a correction needs a change")
    reason = reason.strip()
    if not (confirmed and reason):
        change_lock_check(changes[0], expected, lock=False)
        rating = next((c for c in changes if not isinstance(c, IdentityChange)), None)
        return PreviewWanted(
            lines=correction_lines(changes),
            preview=correction_preview(rating) if rating is not None else CorrectionPreview(),
            rates_nothing=rating is None,
            error=_("Say why the correction is made.") if confirmed else "",
        )
    made: list[Correction] = []
    checked: str | None = expected
    with transaction.atomic():
        for change in changes:
            try:
                made.append(correction_make(user=user, reason=reason, change=change, expected=checked))
            except NothingToCorrect:
                continue
            # The first made checked the version and locked its rows for this transaction: the next starts
            # from what it left, which no one else can change in between.
            checked = None
    return CorrectionsMade(corrections=made)
