"""A player's change form as corrections: once he has played, his identity and his prior grade are the record's.

For a player entered in a submitted or rated table (or migrated with a FESA opening state), a rating officer's
save of the change form does not save at once: the form is validated as always, then the preview page of
ratings/admin/corrections.py shows the change in words (old → new) and, for a prior grade, every player whose
rating, category or grade it would change, and asks for the reason. Posting that page saves an
``IdentityChange`` and/or a ``PriorGradeChange`` through ``correction_make`` (both with the same reason, in the
admin's one transaction). A player who has not played yet is simply edited.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from ratings.access import can_correct
from ratings.admin.corrections import (
    CARRIED_NOT,
    CONFIRM,
    REASON,
    PreviewNeeded,
    changed_meanwhile,
    form_version,
    posted_version,
    preview_page,
)
from ratings.models import Player
from ratings.selectors.corrections import player_has_played
from ratings.services.corrections.apply import NothingToCorrect, correction_make, correction_preview
from ratings.services.corrections.facts import (
    IDENTITY_FIELDS,
    PRIOR_GRADE_FIELDS,
    Change,
    IdentityChange,
    PriorGradeChange,
    planned_lines,
)
from ratings.services.corrections.fingerprints import change_lock_check, loaded_version
from ratings.services.corrections.preview import CorrectionPreview
from ratings.services.fingerprints import VERSION_FIELD, ChangedMeanwhile

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
    return [c for c in out if planned_lines(c)]  # type: ignore[arg-type]


def player_correction_save(request: HttpRequest, changes: list[Change]) -> bool:
    """Save ``changes`` as corrections once the officer confirmed them with a reason; else ask for the preview.
    Returns False, doing nothing, when there is nothing to correct (the caller saves as usual)."""
    if not changes:
        return False
    expected: str | None = posted_version(request)  # None after the first: it checked and locked
    reason = request.POST.get(REASON, "").strip()
    if request.POST.get(CONFIRM) != "yes" or not reason:
        change_lock_check(changes[0], expected, lock=False)  # a preview of a stale form would mislead too
        error = _("Say why the correction is made.") if request.POST.get(CONFIRM) == "yes" else ""
        raise PreviewNeeded(changes[0], error, *changes[1:])
    for change in changes:
        try:
            # The first checks the version and locks the player for the admin's transaction: the second
            # starts from what the first left, which no one else can change in between.
            correction_make(user=request.user, reason=reason, change=change, expected=expected)
        except NothingToCorrect:
            continue
        expected = None
    rerates = any(isinstance(c, PriorGradeChange) for c in changes)
    messages.info(
        request,
        _("The correction is recorded; the player's tables will be re-rated.")
        if rerates
        else _("The correction is recorded."),
    )
    return True


def player_preview_response(request: HttpRequest, needed: PreviewNeeded) -> HttpResponse:
    """The preview page of a player's correction, the change form's data carried along."""
    changes = needed.changes
    player = changes[0].player  # type: ignore[union-attr]
    lines = [line for change in changes for line in planned_lines(change)]  # type: ignore[arg-type]
    prior = next((c for c in changes if isinstance(c, PriorGradeChange)), None)
    carried = [(k, v) for k in request.POST for v in request.POST.getlist(k) if k not in CARRIED_NOT]
    return preview_page(
        request,
        title=_("Correct %(player)s") % {"player": Player.objects.get(pk=player.pk)},
        lines=lines,
        preview=correction_preview(prior) if prior is not None else CorrectionPreview(),
        rates_nothing=prior is None,
        carried=carried,
        error=needed.error,
        reason=request.POST.get(REASON, ""),
        cancel_url=request.path,
    )


class PlayerCorrectionViews(admin.ModelAdmin):
    """The change form of a player who has played goes through the correction's preview page."""

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        if object_id.isdigit():
            version = form_version(request, lambda: loaded_version(players=[Player(pk=int(object_id))]))
            extra_context = {**(extra_context or {}), "version_field": VERSION_FIELD, "version": version}
        try:
            return super().change_view(request, object_id, form_url, extra_context)
        except PreviewNeeded as needed:
            return player_preview_response(request, needed)
        except ChangedMeanwhile as exc:
            return changed_meanwhile(request, exc, request.path)
