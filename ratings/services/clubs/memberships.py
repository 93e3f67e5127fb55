"""A player's club from a date on (ratings/models/clubs.py ``ClubMembership``)."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from ratings.models import Club, ClubMembership, Player


@transaction.atomic
def club_membership_set(*, player: Player, club: Club | None, since: dt.date) -> ClubMembership:
    """``player`` is in ``club`` (None: in none) from ``since`` on; a membership of the same date is replaced.
    Nothing is written when he is in that club already on that date."""
    current = ClubMembership.objects.filter(player=player, since__lte=since).order_by("-since").first()
    if current is not None and current.club_id == (club.pk if club else None):
        return current
    membership, _ = ClubMembership.objects.update_or_create(player=player, since=since, defaults={"club": club})
    return membership
