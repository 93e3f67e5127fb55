"""A player's change form as corrections: once he has played, his identity and his prior grade are the record's.

For a player entered in a submitted or rated table (or migrated with a FESA opening state), a rating officer's
save of the change form does not save at once: before Django's save the form is validated as the admin does,
then the preview page of ratings/admin/corrections.py (``correction_response``) shows the change in words
(old → new) and, for a prior grade, every player whose rating, category or grade it would change, and asks for
the reason. Posting that page makes an ``IdentityChange`` and/or a ``PriorGradeChange`` through
``correction_submit`` (both with the same reason, in one transaction). A player who has not played yet is
simply edited.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from ratings.access import can_correct
from ratings.admin.corrections import CorrectionViews, form_version
from ratings.models import Player
from ratings.selectors.corrections import player_has_played
from ratings.services.corrections.facts import (
    IDENTITY_FIELDS,
    PRIOR_GRADE_FIELDS,
    Change,
    IdentityChange,
    PriorGradeChange,
    planned_lines,
)
from ratings.services.corrections.fingerprints import loaded_version
from ratings.services.fingerprints import VERSION_FIELD

FORM_PRIOR_FIELDS = tuple(f"prior_grade_{name}" for name in PRIOR_GRADE_FIELDS)


def player_correction_wanted(request: HttpRequest, player: Player) -> bool:
    """A rating officer's change to a player who has played: a correction."""
    return player.pk is not None and can_correct(request.user) and player_has_played(player)


def player_changes(player: Player, form: Any) -> list[Change]:
    """The identity change and the prior-grade change the validated form asks for (none, one or both)."""
    changed, data = set(form.changed_data), form.cleaned_data
    out: list[Change] = []
    identity = {name: data[name] for name in IDENTITY_FIELDS if name in changed and name in data}
    if identity:
        out.append(IdentityChange(player=player, values=identity))
    if changed & set(FORM_PRIOR_FIELDS):
        out.append(
            PriorGradeChange(
                player=player,
                kind=data.get("prior_grade_kind") or "",
                level=data.get("prior_grade_level"),
                source=data.get("prior_grade_source") or "",
                note=data.get("prior_grade_note") or "",
                date=data.get("prior_grade_date"),
            )
        )
    return [c for c in out if planned_lines(c)]


class PlayerCorrectionViews(CorrectionViews):
    """The change form of a player who has played goes through the correction's preview page."""

    def correction_wanted_for(self, request: HttpRequest, obj: Any) -> bool:
        return player_correction_wanted(request, obj)

    def correction_changes(self, request: HttpRequest, obj: Any, form: Any, formsets: list[Any]) -> list[Change]:
        return player_changes(obj, form)

    def correction_title(self, obj: Any) -> str:
        return _("Correct %(player)s") % {"player": Player.objects.get(pk=obj.pk)}

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        if object_id.isdigit():
            version = form_version(request, lambda: loaded_version(players=[Player(pk=int(object_id))]))
            extra_context = {**(extra_context or {}), "version_field": VERSION_FIELD, "version": version}
        if request.method == "POST" and object_id.isdigit():
            answer = self.correction_answer(request, object_id)
            if answer is not None:
                return answer
        return super().change_view(request, object_id, form_url, extra_context)
