"""Publishing an official rating list: the list of a date, frozen as it stands, with its all.txt.

The rating list of a date is computed from the rating history (ratings/services/lists.py), so a later
correction of the past moves it. ``official_list_publish`` copies the stored list of the date as it stands —
one entry per player with his ranks and figures — under the official list, with the all.txt file written from
the same entries, in one transaction; nothing updates them afterwards (docs/official-lists.md), but for one
thing: erasing a player's personal data (ratings/services/privacy.py) puts his pseudonym in place of his name on
the lists he was on (``official_lists_erase``), in the entries and in each stored all.txt, every figure staying
as published.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.access import can_publish
from ratings.fesa_files.encoding import ENCODING, latin1_text
from ratings.fesa_files.errors import FesaFileError
from ratings.models import (
    Correction,
    ListEntry,
    OfficialList,
    PendingRerate,
    Player,
    StoredList,
    Table,
    player_search_key,
)
from ratings.selectors.list_files import all_txt
from ratings.selectors.lists import list_entries
from ratings.services.corrections.words import correction_text
from ratings.services.fesa.messages import error_text
from ratings.services.fingerprints import by, history_lines, version_check, version_of, when
from ratings.services.lists import list_stored, official_list_store

_FACTS = (
    "player_id", "position", "country_position", "rank", "country_rank", "federation_id", "family_name",
    "given_name", "latin_family_name", "latin_given_name", "nationality", "rating", "games", "grade", "fesa_grade",
    "pending_grade", "prior_grade_kind", "prior_grade_level", "category", "last_played",
)  # fmt: skip
"""What a list's version is made of: every figure of every line that the official list would freeze."""


class ListRefused(ValueError):
    """The list of that date cannot be published now; the message says why, in the officer's words."""


def official_list_check(*, date: dt.date) -> None:
    """Raise ListRefused if the list of ``date`` cannot be published now: a future date, a date published
    already, or a re-rate waiting to be done that reaches the date (the list would freeze stale figures)."""
    if date > timezone.localdate():
        raise ListRefused(_("The list of %(date)s cannot be published before that day.") % {"date": date.isoformat()})
    if OfficialList.objects.filter(date=date).exists():
        raise ListRefused(_("The list of %(date)s has been published already.") % {"date": date.isoformat()})
    pending = PendingRerate.objects.filter(pk=1).values_list("from_date", flat=True).first()
    if pending is not None and pending <= date:
        raise ListRefused(
            _(
                "A re-rate from %(from)s is waiting to be done, so the list of %(date)s would show figures that are "
                "about to change. Publish it once the re-rate has run (Re-rating in the admin)."
            )
            % {"from": pending.isoformat(), "date": date.isoformat()}
        )


def official_list_version(*, date: dt.date) -> str:
    """The version of the list of ``date`` as it stands (every row: ranks, figures, names), for the page that
    asks to publish it to carry (ratings/services/fingerprints.py)."""
    return version_of(_facts(list_stored(date, active=True)))


def _facts(stored: StoredList) -> list[tuple[object, ...]]:
    return list(list_entries(stored).values_list(*_FACTS))


def _changes_since(since: dt.datetime | None) -> list[str]:
    """The corrections made since the list was shown, else the tables entered or changed since."""
    corrections = Correction.objects.select_related("made_by").order_by("made_at")
    tables = Table.history.select_related("history_user").order_by("history_date")
    if since is not None:
        corrections, tables = corrections.filter(made_at__gte=since), tables.filter(history_date__gte=since)
    lines = [f"{when(c.made_at)}, {by(c.made_by)}: {correction_text(c)}" for c in corrections[:10]]
    return lines or history_lines(tables[:10], what=lambda record: str(record.instance))


def official_list_publish(
    *, date: dt.date, user: Any, title: str = "", note: str = "", expected: str | None
) -> OfficialList:
    """Publish the (active) rating list of ``date`` as it stands: its entries and its all.txt, frozen.

    ``expected``: the version of the list the officer was shown (``official_list_version``): the rows
    published are exactly those, or nothing is.
    Raises PermissionDenied for a user who is not a rating officer, ListRefused for a future date, a date
    published already, a re-rate pending that reaches the date, or an all.txt that cannot be written,
    ChangedMeanwhile when the list is no longer the one of ``expected``.
    """
    if not can_publish(user):
        raise PermissionDenied(_("Only rating officers publish official lists."))
    with transaction.atomic():
        official_list_check(date=date)
        source = list_stored(date, active=True)
        version_check(expected, _facts(source), changes=_changes_since)
        try:
            data = all_txt(list_entries(source), grades="public", date=date)
        except FesaFileError as exc:
            message = _("The list's all.txt cannot be written: %(error)s") % {"error": error_text(exc)}
            raise ListRefused(message) from None
        official = OfficialList(
            date=date,
            title=title.strip(),
            note=note.strip(),
            published_at=timezone.now(),
            published_by=user,
            all_txt=data,
            player_count=source.player_count,
            country_count=list_entries(source).order_by().values("nationality").distinct().count(),
        )
        try:
            with transaction.atomic():
                official.save()
        except IntegrityError:  # another officer published the same date meanwhile
            raise ListRefused(
                _("The list of %(date)s has been published already.") % {"date": date.isoformat()}
            ) from None
        official_list_store(official, source)
    return official


def _all_txt_names(rank: int, family_name: str, given_name: str) -> str:
    """The start of a player's line in all.txt, up to his grade (ratings/fesa_files/alltxt.py's layout)."""
    return f"{rank:>3} {latin1_text(family_name):<17} {latin1_text(given_name):<15} "


def official_lists_erase(*, player: Player, latin_name: tuple[str, str] = ("", "")) -> int:
    """Erasure: the player's lines on the published lists take the name he has now (his pseudonym), in the
    entries and in each list's all.txt; nothing else of the lists changes. Called by ``player_erase`` in its
    transaction. ``latin_name``: the Latin form he had, which all.txt wrote in place of his name. Returns the
    number of lists changed."""
    entries = list(
        ListEntry.objects.select_for_update()
        .filter(player=player, stored_list__kind=StoredList.Kind.OFFICIAL)
        .select_related("stored_list")
    )
    # Read apart: an official list through its stored list's nullable link would be an outer join, which
    # PostgreSQL does not lock.
    officials = OfficialList.objects.select_for_update().in_bulk({e.stored_list.official_id for e in entries})
    for entry in entries:
        official = officials[entry.stored_list.official_id]
        olds = [_all_txt_names(entry.position, entry.family_name, entry.given_name)]
        if latin_name[0]:
            olds.insert(0, _all_txt_names(entry.position, *latin_name))
        new = _all_txt_names(entry.position, player.family_name, player.given_name)
        lines = bytes(official.all_txt).decode(ENCODING).split("\n")
        for i, line in enumerate(lines):
            old = next((o for o in olds if line.startswith(o)), None)
            if old is not None:
                lines[i] = new + line[len(old) :]
                break
        official.all_txt = "\n".join(lines).encode(ENCODING)
        official.save(update_fields=["all_txt"])
        entry.family_name, entry.given_name = player.family_name, player.given_name
        entry.latin_family_name, entry.latin_given_name = player.latin_family_name, player.latin_given_name
        entry.search_name = player_search_key(
            player.family_name, player.given_name, player.latin_family_name, player.latin_given_name
        )  # the old name no longer finds the line
        entry.save(update_fields=["family_name", "given_name", "latin_family_name", "latin_given_name", "search_name"])
    return len(entries)
