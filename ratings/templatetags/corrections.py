"""``corrections_log(request, table=...)`` / ``player=...`` / ``tournament=...``: the public corrections log of a
table, a player or a tournament page (templates/jinja2/ratings/corrections_log.html)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django_jinja import library

from ratings import access
from ratings.models import Player, Table, Tournament
from ratings.selectors.corrections import corrections_of
from ratings.services.corrections.words import with_lines


@library.global_function
def corrections_log(
    request: object, table: Table | None = None, player: Player | None = None, tournament: Tournament | None = None
) -> SafeString:
    """Date and reason for everybody; the officer's name only for staff."""
    context = {
        "corrections": with_lines(corrections_of(table=table, player=player, tournament=tournament).distinct()),
        "staff": access.is_staff(getattr(request, "user", None)),
    }
    return render_to_string("ratings/corrections_log.html", context)
