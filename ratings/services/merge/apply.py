"""Merging a player entered twice into the record that stays: a correction of kind ``merge``.

``player_merge`` is the one way in: it checks that the two may be one person (ratings/services/merge/moves.py
says when not), moves the duplicate's rows to the kept player, marks the duplicate as merged (hidden from
lists, search and the API; his page redirects) and asks for the re-rate, in one transaction, recorded as a
``Correction`` that ``correction_undo`` reverses through the same moves.
"""

from __future__ import annotations

from typing import Any

from ratings.models import Correction, Player
from ratings.services.corrections.apply import correction_make, correction_preview
from ratings.services.corrections.preview import CorrectionPreview
from ratings.services.merge.moves import MergeChange, MergeRefused, merge_refusal

__all__ = ["MergeChange", "MergeRefused", "merge_refusal", "player_merge", "player_merge_preview"]


def player_merge(*, user: Any, duplicate: Player, kept: Player, reason: str, expected: str | None) -> Correction:
    """Merge ``duplicate`` into ``kept`` as a rating officer's correction; raise MergeRefused (with the reason
    in people's words), PermissionDenied for anyone but a rating officer, ValidationError without a reason,
    ChangedMeanwhile when the two records are no longer as ``expected`` (the version its preview showed)."""
    change = MergeChange(duplicate=duplicate, kept=kept)
    return correction_make(user=user, reason=reason, change=change, expected=expected)


def player_merge_preview(*, duplicate: Player, kept: Player) -> CorrectionPreview:
    """What the merge would change: the players whose rating, category or grade move, biggest change first."""
    return correction_preview(MergeChange(duplicate=duplicate, kept=kept))
