"""What a merge of two player records moves, as facts a correction stores and an undo hands back.

A merge's ``before`` and ``after`` (``Correction.before``/``after``) name the duplicate, the kept player and
exactly the rows that moved, by id: table entries, games (as first and as second player), historical rows,
promotion records, prior-grade proposals, the list arrival and the opening state, and the prior grade if it
moved. They differ only in ``owner`` (whose rows they are) and ``merged_into`` (the duplicate's mark), so
applying ``before`` moves the same rows back and shows the duplicate again (``merge_apply``). Rating rows are
derived: the re-rate this asks for replaces them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.models import (
    LIVE_PROMOTION_STATUSES,
    Game,
    HistoricalRow,
    ListArrival,
    OpeningState,
    Player,
    PriorGradeProposal,
    Promotion,
    ProposalStatus,
    TableEntry,
)
from ratings.services.players import players_refresh
from ratings.services.rerate import rerate_request
from ratings.services.rerate.replay import RATED_STATUSES

PRIOR = ("prior_grade_kind", "prior_grade_level", "prior_grade_source", "prior_grade_note", "prior_grade_date")


class MergeRefused(ValueError):
    """The two records cannot be merged as they stand; the message says why, with names."""


@dataclass(frozen=True)
class MergeChange:
    """Merge ``duplicate`` into ``kept``, or (``facts`` given: an undo) make the records what ``facts`` say."""

    duplicate: Player
    kept: Player
    facts: Mapping[str, Any] | None = field(default=None)


def _prior(player: Player) -> dict[str, Any] | None:
    if not player.prior_grade_kind:
        return None
    values = {name: getattr(player, name) for name in PRIOR}
    values["prior_grade_date"] = values["prior_grade_date"] and values["prior_grade_date"].isoformat()
    return values


def merge_refusal(duplicate: Player, kept: Player) -> str:
    """Why the two cannot be merged, in people's words; "" when they can."""
    names = {"duplicate": duplicate, "kept": kept}
    if duplicate.pk == kept.pk:
        return _("A player cannot be merged into himself.")
    if duplicate.merged_into_id or kept.merged_into_id:
        return _("%(duplicate)s or %(kept)s is merged already; undo that merge first.") % names
    together = set(TableEntry.objects.filter(player=duplicate).values_list("table_id", flat=True))
    together &= set(TableEntry.objects.filter(player=kept).values_list("table_id", flat=True))
    published = set(HistoricalRow.objects.filter(player=duplicate).values_list("table_id", flat=True))
    published &= set(HistoricalRow.objects.filter(player=kept).values_list("table_id", flat=True))
    if together or published:
        return (
            _("%(duplicate)s and %(kept)s both played in one table, so they are two people: they are not merged.")
            % names
        )
    if _prior(duplicate) and _prior(kept) and _prior(duplicate) != _prior(kept):
        return (
            _(
                "%(duplicate)s and %(kept)s have different prior grades: correct one of them first (clear the "
                "wrong one, or make them agree), then merge."
            )
            % names
        )
    if OpeningState.objects.filter(player__in=[duplicate, kept]).count() == 2:
        return _("%(duplicate)s and %(kept)s were both brought over from the FESA list: they are not merged.") % names
    pending = PriorGradeProposal.objects.filter(player__in=[duplicate, kept], status=ProposalStatus.PENDING)
    if pending.count() == 2:
        return _("Both have a prior grade waiting for confirmation: decide one of them first.")
    return ""


def merge_facts(duplicate: Player, kept: Player) -> tuple[dict[str, Any], dict[str, Any]]:
    """The facts before and after merging ``duplicate`` into ``kept``: what would move, by id."""
    live = set(
        Promotion.objects.filter(player=kept, status__in=LIVE_PROMOTION_STATUSES).values_list("grade", flat=True)
    )
    promotions = Promotion.objects.filter(player=duplicate).exclude(
        Q(status__in=LIVE_PROMOTION_STATUSES) & Q(grade__in=live)
    )
    moved: dict[str, Any] = {
        "entries": sorted(TableEntry.objects.filter(player=duplicate).values_list("pk", flat=True)),
        "games_first": sorted(Game.objects.filter(first=duplicate).values_list("pk", flat=True)),
        "games_second": sorted(Game.objects.filter(second=duplicate).values_list("pk", flat=True)),
        "historical_rows": sorted(HistoricalRow.objects.filter(player=duplicate).values_list("pk", flat=True)),
        "promotions": sorted(promotions.values_list("pk", flat=True)),
        "proposals": sorted(PriorGradeProposal.objects.filter(player=duplicate).values_list("pk", flat=True)),
        "list_arrival": None,
        "opening_state": None,
        "prior_grade": None,
    }
    if not ListArrival.objects.filter(player=kept).exists():
        moved["list_arrival"] = ListArrival.objects.filter(player=duplicate).values_list("pk", flat=True).first()
    if not OpeningState.objects.filter(player=kept).exists():
        moved["opening_state"] = OpeningState.objects.filter(player=duplicate).values_list("pk", flat=True).first()
    if _prior(duplicate) and not _prior(kept):
        moved["prior_grade"] = _prior(duplicate)
    common = {"duplicate": duplicate.pk, "kept": kept.pk, "moved": moved}
    return {**common, "owner": duplicate.pk, "merged_into": None}, {**common, "owner": kept.pk, "merged_into": kept.pk}


def merge_still_holds(facts: Mapping[str, Any]) -> bool:
    """Whether the database is still as the merge left it (``facts``: its ``after``): the duplicate marked, the
    kept player not merged since, and every moved entry and game still the kept player's. A later correction
    of one of those tables, or a later merge, is to be undone first."""
    moved, owner = facts["moved"], facts["owner"]
    marks = dict(Player.objects.filter(pk__in=[facts["duplicate"], facts["kept"]]).values_list("pk", "merged_into_id"))
    if marks.get(facts["duplicate"]) != facts["merged_into"] or marks.get(facts["kept"]) is not None:
        return False
    checks = (
        (TableEntry.objects.filter(pk__in=moved["entries"], player_id=owner), moved["entries"]),
        (Game.objects.filter(pk__in=moved["games_first"], first_id=owner), moved["games_first"]),
        (Game.objects.filter(pk__in=moved["games_second"], second_id=owner), moved["games_second"]),
    )
    return all(queryset.count() == len(ids) for queryset, ids in checks)


def merge_apply(facts: Mapping[str, Any]) -> None:
    """Make the records what ``facts`` say: the moved rows the owner's, the duplicate's mark as given; then ask
    for the re-rate from the earliest rated table the moved rows are in (the kept player's first, if his
    starting state moved)."""
    moved, owner = facts["moved"], facts["owner"]
    other = facts["kept"] if owner == facts["duplicate"] else facts["duplicate"]
    TableEntry.objects.filter(pk__in=moved["entries"]).update(player_id=owner)
    Game.objects.filter(pk__in=moved["games_first"]).update(first_id=owner)
    Game.objects.filter(pk__in=moved["games_second"]).update(second_id=owner)
    HistoricalRow.objects.filter(pk__in=moved["historical_rows"]).update(player_id=owner)
    _move_promotions(moved["promotions"], owner)
    PriorGradeProposal.objects.filter(pk__in=moved["proposals"]).update(player_id=owner)
    if moved["list_arrival"]:
        ListArrival.objects.filter(pk=moved["list_arrival"]).update(player_id=owner)
    if moved["opening_state"]:
        OpeningState.objects.filter(pk=moved["opening_state"]).update(player_id=owner)
    if moved["prior_grade"]:
        values = dict(moved["prior_grade"])
        values["prior_grade_date"] = values["prior_grade_date"] and dt.date.fromisoformat(values["prior_grade_date"])
        Player.objects.filter(pk=owner).update(**values)
        Player.objects.filter(pk=other).update(
            prior_grade_kind="",
            prior_grade_level=None,
            prior_grade_source="",
            prior_grade_note="",
            prior_grade_date=None,
        )
    duplicate = Player.objects.get(pk=facts["duplicate"])
    duplicate.merged_into_id = facts["merged_into"]
    duplicate.save(update_fields=["merged_into"])
    _rerate(moved, kept=facts["kept"])
    players_refresh([facts["duplicate"], facts["kept"]])


def _move_promotions(ids: list[int], owner: int) -> None:
    """Hand the records to ``owner``; a live one whose grade he holds a live record of by now stays."""
    live = set(
        Promotion.objects.filter(player_id=owner, status__in=LIVE_PROMOTION_STATUSES).values_list("grade", flat=True)
    )
    clash = Q(status__in=LIVE_PROMOTION_STATUSES) & Q(grade__in=live)
    Promotion.objects.filter(pk__in=ids).exclude(clash).update(player_id=owner)


def merge_start(moved: Mapping[str, Any], *, kept: int) -> tuple[tuple[dt.date, int] | None, list[int]]:
    """The earliest rated table the merge changes, and the tables to redo."""
    entries = TableEntry.objects.filter(pk__in=moved["entries"], table__status__in=RATED_STATUSES)
    places = list(entries.values_list("table__date", "table__sequence", "table_id"))
    if moved["prior_grade"] or moved["opening_state"]:
        first = (
            TableEntry.objects.filter(player_id=kept, table__status__in=RATED_STATUSES)
            .exclude(pk__in=moved["entries"])
            .order_by("table__date", "table__sequence")
            .values_list("table__date", "table__sequence", "table_id")
            .first()
        )
        if first is not None:
            places.append(first)
    if not places:
        return None, []
    date, sequence, _table = min(places)
    return (date, sequence), sorted({table for *_place, table in places})


def _rerate(moved: Mapping[str, Any], *, kept: int) -> None:
    start, tables = merge_start(moved, kept=kept)
    if start is not None:
        rerate_request(date=start[0], sequence=start[1], table_ids=tables)


def describe_merge(before: Mapping[str, Any], after: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    """The merge (or its undo) in people's words; ``names`` by player id, with what tells namesakes apart
    ("Novák Tomáš (F123) merged into Novák Tomáš (F456)")."""
    moved = after["moved"]
    counts: dict[str, Any] = {
        "duplicate": names.get(after["duplicate"], "?"),
        "kept": names.get(after["kept"], "?"),
        "tables": len(moved["entries"]),
        "published": len(moved["historical_rows"]),
    }
    if after["merged_into"]:
        lines = [_("%(duplicate)s merged into %(kept)s") % counts]
    else:
        lines = [_("%(duplicate)s separated again from %(kept)s") % counts]
    moved_tables = ngettext("%(tables)s table moved", "%(tables)s tables moved", counts["tables"]) % counts
    published = ngettext(
        "%(published)s published result moved", "%(published)s published results moved", counts["published"]
    )
    lines.append(f"{moved_tables}; {published % counts}")
    if moved["prior_grade"]:
        lines.append(_("the prior grade moved with them"))
    if moved["opening_state"]:
        lines.append(_("the state from the FESA list moved with them"))
    return lines
