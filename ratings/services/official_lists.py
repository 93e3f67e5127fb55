"""Publishing an official rating list: the list of a date, frozen as it stands, with its all.txt.

The rating list of a date is computed from the rating history (ratings/selectors/lists.py), so a later
correction of the past moves it. ``official_list_publish`` writes what the list shows now — one entry per
player with his ranks and figures, and the all.txt file from the same rows — in one transaction; nothing
updates them afterwards (docs/official-lists.md), but for one thing: erasing a player's personal data
(ratings/services/privacy.py) puts his pseudonym in place of his name on the lists he was on
(``official_lists_erase``), in the entries and in each stored all.txt, every figure staying as published.
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
from ratings.models import Correction, OfficialList, OfficialListEntry, PendingRerate, Player, Table
from ratings.selectors.list_files import all_txt
from ratings.selectors.lists import ListRow, rating_list
from ratings.services.corrections.words import correction_text
from ratings.services.fingerprints import by, history_lines, version_check, version_of, when


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


def _entry(official: OfficialList, row: ListRow) -> OfficialListEntry:
    return OfficialListEntry(
        official_list=official,
        player_id=row.pk,
        rank=row.rank,
        country_rank=row.country_rank,
        federation_id=row.federation_id,
        family_name=row.family_name,
        given_name=row.given_name,
        nationality=row.nationality_code,
        rating=row.list_rating,
        games=row.list_games,
        grade=row.list_grade,
        fesa_grade=row.list_fesa_grade,
        pending_grade=row.list_pending_grade,
        prior_grade_kind=row.prior_grade_kind,
        prior_grade_level=row.prior_grade_level,
        category=row.list_category,
        last_played=row.list_last_played,
        list_order=row.list_order,
    )


def official_list_version(*, date: dt.date) -> str:
    """The version of the list of ``date`` as it stands (every row: ranks, figures, names), for the page that
    asks to publish it to carry (ratings/services/fingerprints.py)."""
    return version_of(list(rating_list(date=date, active=True)))


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
        rows = rating_list(date=date, active=True)
        version_check(expected, list(rows), changes=_changes_since)
        try:
            data = all_txt(rows, grades="public")
        except FesaFileError as exc:
            raise ListRefused(_("The list's all.txt cannot be written: %(error)s") % {"error": exc}) from None
        official = OfficialList(
            date=date,
            title=title.strip(),
            note=note.strip(),
            published_at=timezone.now(),
            published_by=user,
            all_txt=data,
            player_count=len(rows),
            country_count=len({r.nationality_code for r in rows}),
        )
        try:
            with transaction.atomic():
                official.save()
        except IntegrityError:  # another officer published the same date meanwhile
            raise ListRefused(
                _("The list of %(date)s has been published already.") % {"date": date.isoformat()}
            ) from None
        OfficialListEntry.objects.bulk_create((_entry(official, row) for row in rows), batch_size=1000)
    return official


def _all_txt_names(rank: int, family_name: str, given_name: str) -> str:
    """The start of a player's line in all.txt, up to his grade (ratings/fesa_files/alltxt.py's layout)."""
    return f"{rank:>3} {latin1_text(family_name):<17} {latin1_text(given_name):<15} "


def official_lists_erase(*, player: Player, latin_name: tuple[str, str] = ("", "")) -> int:
    """Erasure: the player's lines on the published lists take the name he has now (his pseudonym), in the
    entries and in each list's all.txt; nothing else of the lists changes. Called by ``player_erase`` in its
    transaction. ``latin_name``: the Latin form he had, which all.txt wrote in place of his name. Returns the
    number of lists changed."""
    entries = list(OfficialListEntry.objects.select_for_update().filter(player=player).select_related("official_list"))
    for entry in entries:
        official = entry.official_list
        olds = [_all_txt_names(entry.rank, entry.family_name, entry.given_name)]
        if latin_name[0]:
            olds.insert(0, _all_txt_names(entry.rank, *latin_name))
        new = _all_txt_names(entry.rank, player.family_name, player.given_name)
        lines = bytes(official.all_txt).decode(ENCODING).split("\n")
        for i, line in enumerate(lines):
            old = next((o for o in olds if line.startswith(o)), None)
            if old is not None:
                lines[i] = new + line[len(old) :]
                break
        official.all_txt = "\n".join(lines).encode(ENCODING)
        official.save(update_fields=["all_txt"])
        entry.family_name, entry.given_name = player.family_name, player.given_name
        entry.save(update_fields=["family_name", "given_name"])
    return len(entries)
