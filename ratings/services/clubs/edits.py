"""The rating officers' edits of a club (its facts and who was in it from when) and of a player's place on the
women's list: each saves only onto the state its page loaded (ratings/services/fingerprints.py), so that a tab
left open never overwrites another officer's edit made since.

A club's page carries the version of the club's facts and of its memberships, which the page edits together; the
women's list's page the version of the player's place on it and consent. A page posted without its version is
refused, as every edit that starts from a loaded state is.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction

from ratings.models import Club, ClubMembership, Player, WomensListEntry
from ratings.services.fingerprints import history_lines, version_check, version_of


def _club_facts(club_id: int) -> dict[str, Any]:
    club = Club.objects.filter(pk=club_id).values_list("name", "country", "city", "website").get()
    memberships = ClubMembership.objects.filter(club_id=club_id).order_by("player_id", "since")
    return {"club": list(club), "memberships": list(memberships.values_list("player_id", "since"))}


def club_version(club: Club) -> str:
    """The version of the club and its members as its page shows them, for the page to carry."""
    return version_of(_club_facts(club.pk))


def club_edit_check(*, club: Club, expected: str | None) -> None:
    """Lock the club's row and raise ChangedMeanwhile unless the club and its memberships are those of
    ``expected`` (None: no page was shown). Called inside the transaction that saves the edit: the lock holds
    until it commits, so a second officer's edit waits for the first and then finds the club changed."""
    Club.objects.select_for_update().filter(pk=club.pk).values_list("pk").get()
    version_check(expected, _club_facts(club.pk), changes=lambda since: _club_changes(club, since))


def _club_changes(club: Club, since: dt.datetime | None) -> list[str]:
    records = Club.history.filter(id=club.pk).select_related("history_user").order_by("history_date")
    memberships = ClubMembership.history.filter(club_id=club.pk).select_related("history_user").order_by("history_date")
    if since is not None:
        records, memberships = records.filter(history_date__gte=since), memberships.filter(history_date__gte=since)
    # The models' own names say what changed: "club", "club memberships".
    lines = history_lines(list(records)[-10:], what=lambda record: str(Club._meta.verbose_name))
    return lines + history_lines(
        list(memberships)[-10:], what=lambda record: str(ClubMembership._meta.verbose_name_plural)
    )


def _womens_list_facts(player_id: int) -> dict[str, Any]:
    on_list, consent = Player.objects.filter(pk=player_id).values_list("on_womens_list", "womens_list_consent").get()
    return {"on_womens_list": on_list, "womens_list_consent": consent}


def womens_list_version(player: Player) -> str:
    """The version of the player's place on the women's list as its page shows it, for the page to carry."""
    return version_of(_womens_list_facts(player.pk))


@transaction.atomic
def womens_list_set(*, player: Player, on_list: bool, consent: dt.date | None, expected: str | None) -> None:
    """Put ``player`` on the women's list with the date of the consent, or take the player off it: these two
    facts only (a player's other facts change through corrections). Raises ChangedMeanwhile, saving nothing,
    unless the place on the list is still that of ``expected`` (None: no page was shown)."""
    Player.objects.select_for_update().filter(pk=player.pk).values_list("pk").get()
    version_check(expected, _womens_list_facts(player.pk), changes=lambda since: _womens_list_changes(player, since))
    player.on_womens_list, player.womens_list_consent = on_list, consent
    player.save(update_fields=["on_womens_list", "womens_list_consent"])


def _womens_list_changes(player: Player, since: dt.datetime | None) -> list[str]:
    records = Player.history.filter(id=player.pk).select_related("history_user").order_by("history_date")
    if since is not None:
        records = records.filter(history_date__gte=since)
    return history_lines(list(records)[-10:], what=lambda record: str(WomensListEntry._meta.verbose_name))
