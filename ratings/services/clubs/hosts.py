"""The club that hosted a tournament, named in a director's upload: matched by the one rule (``club_match``),
shown in the preview, and created only when the director kept "create it" ticked there."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from ratings.models import Club, Tournament
from ratings.services.clubs.matching import club_match


@dataclass(frozen=True)
class HostClubPlan:
    name: str
    club: Club | None  # the club the name matched; None: a new club


def host_club_plan(*, name: str, country: str = "") -> HostClubPlan | None:
    """What becomes of the host club ``name`` (None: no club named): the club it matched, or a new one."""
    name = " ".join(name.split())
    if not name:
        return None
    return HostClubPlan(name, club_match(name=name, country=country) or (club_match(name=name) if country else None))


@transaction.atomic
def tournament_host_club_set(*, tournament: Tournament, name: str, create: bool) -> Club | None:
    """``tournament`` was hosted by the club ``name``: the club matched, or a new one in the tournament's country
    when ``create`` (the director saw it in the preview). Returns the club set, or None (nothing changed)."""
    plan = host_club_plan(name=name, country=tournament.country.code or "")
    if plan is None:
        return None
    club = plan.club
    if club is None:
        if not create or not tournament.country:
            return None
        club = Club.objects.create(name=plan.name, country=tournament.country, city=tournament.city)
    tournament.host_club = club
    tournament.save(update_fields=["host_club"])
    return club
