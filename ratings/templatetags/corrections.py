"""``{% corrections_log table=... %}`` / ``player=...`` / ``tournament=...``: the public corrections log of a table,
a player or a tournament page."""

from __future__ import annotations

from typing import Any

from django import template

from ratings import access
from ratings.models import Player, Table, Tournament
from ratings.selectors.corrections import corrections_of
from ratings.services.corrections.words import with_lines

register = template.Library()


@register.inclusion_tag("ratings/corrections_log.html", takes_context=True)
def corrections_log(
    context: Any, table: Table | None = None, player: Player | None = None, tournament: Tournament | None = None
) -> dict[str, Any]:
    """Date and reason for everybody; the officer's name only for staff."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return {
        "corrections": with_lines(corrections_of(table=table, player=player, tournament=tournament).distinct()),
        "staff": access.is_staff(user),
    }
