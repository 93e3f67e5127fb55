"""What a correction would change, computed by replaying the history in memory; nothing is written.

The re-rate's own machinery (``History``, the engine, the stored rows that let it skip unchanged tables) runs
on the history as the correction would leave it: the corrected table moved to its new place with its new
entries and games, or a player starting from his new prior grade. ``SparseReplay`` reads only the tables the
change reaches (ratings/services/rerate/sparse.py). The players' derived columns and the
promotion records are then compared with the stored ones the way the re-rate's final passes
(``players_refresh``, ``promotions_sync``) would change them, so the preview is what saving stores.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.translation import gettext as _

from ratings import engine
from ratings.db import batched_load, gc_paused, id_batches, ids_in
from ratings.engine.scores import first_score
from ratings.engine.types import handicap_read, prior_grade_read
from ratings.models import (
    LIVE_PROMOTION_STATUSES,
    Category,
    OpeningState,
    Player,
    Promotion,
    PromotionStatus,
    RatingRow,
    Table,
)
from ratings.selectors.derived import category_of
from ratings.selectors.grades import public_grades
from ratings.selectors.players import player_names
from ratings.services.corrections.facts import Change, IdentityChange, PriorGradeChange, TableChange, table_change_check
from ratings.services.rerate.replay import (
    History,
    Position,
    TableInfo,
)
from ratings.services.rerate.sparse import SparseReplay
from ratings.services.tables.save import GameEdit, table_seats

BIG = 1 << 62  # a new game's place after every saved one of its round, as its id will put it


@dataclass(frozen=True)
class PlayerChange:
    """A player whose current rating, category or grade the correction changes."""

    player_id: int
    name: str
    rating: tuple[int, int]
    category: tuple[str, str]
    grade: tuple[int, int]

    @property
    def size(self) -> int:
        return abs(self.rating[1] - self.rating[0])

    @property
    def category_labels(self) -> tuple[str, str]:
        """The categories in the reader's language ("established", "confirmé"), not their stored values."""
        return str(Category(self.category[0]).label), str(Category(self.category[1]).label)

    @property
    def grade_labels(self) -> tuple[str, str]:
        return engine.grade_label(self.grade[0]), engine.grade_label(self.grade[1])

    @property
    def rating_change(self) -> int:
        return self.rating[1] - self.rating[0]


@dataclass(frozen=True)
class PromotionChange:
    """A promotion record that appears, is withdrawn, is flagged (an approved grade) or is supported again."""

    APPEARS = "appears"
    WITHDRAWN = "withdrawn"
    FLAGGED = "flagged"
    RESTORED = "restored"

    player_id: int
    name: str
    grade: int
    what: str

    @property
    def grade_label(self) -> str:
        return engine.grade_label(self.grade)

    @property
    def what_label(self) -> str:
        """What happens to the record, in words."""
        return {
            self.APPEARS: _("a promotion appears, waiting for a grade officer"),
            self.WITHDRAWN: _("the promotion is withdrawn"),
            self.FLAGGED: _("the approved grade is flagged: the ratings no longer support it"),
            self.RESTORED: _("the approved grade is supported again"),
        }.get(self.what, self.what)


@dataclass
class CorrectionPreview:
    players: list[PlayerChange] = field(default_factory=list)
    promotions: list[PromotionChange] = field(default_factory=list)
    errors: dict[int, str] = field(default_factory=dict)  # table -> why the replay could not rate it
    tables_redone: int = 0


def correction_preview(change: Change) -> CorrectionPreview:
    """Replay the history as ``change`` would leave it, in memory; raise TableRefused as saving would."""
    if isinstance(change, IdentityChange):
        return CorrectionPreview()  # a name or a birth date rates nothing
    overrides: dict[int, engine.PlayerState] = {}
    if isinstance(change, TableChange):
        start, history = _table_history(change)
    else:
        found = _prior_grade_history(change)
        if found is None:
            return _players_only(change)
        start, history, overrides = found
    return _replayed(start, history, overrides)


def _table_history(change: TableChange) -> tuple[Position, History]:
    table = change.table
    sequence = table_change_check(change)
    # The saved place and status: ``table`` may hold a form's new values already.
    old_date, old_sequence, status = Table.objects.values_list("date", "sequence", "status").get(pk=table.pk)
    new, old = (change.date, sequence), (old_date, old_sequence)
    start = min(new, old)
    history = History(start, load=False)
    history.tables = [t for t in history.tables if t.pk != table.pk]
    label = f"{Table.label_of(change.tournament.name, change.name)} ({change.date})"
    info = TableInfo(table.pk, change.date, sequence, status, True, label)
    bisect.insort(history.tables, info, key=lambda t: (t.date, t.sequence))
    history.entries[table.pk] = [e.player_id for e in sorted(table_seats(change.entries), key=lambda e: e.seat or 0)]
    history.games[table.pk] = _engine_games(change.games)
    history.loaded.add(table.pk)
    return start, history


def _engine_games(games: Sequence[GameEdit]) -> list[engine.Game]:
    """The rated games in the order the re-rate reads them back once saved: by round, then by id."""
    order = sorted(enumerate(games), key=lambda item: (item[1].facts.round, item[1].id or BIG + item[0]))
    out = []
    for _index, edit in order:
        g = edit.facts
        if g.second_id is None or not g.played:
            continue
        handicap = (
            None
            if not g.handicap
            else handicap_read(g.handicap, g.first_id if g.handicap_giver == "first" else g.second_id)
        )
        out.append(
            engine.Game(g.round, g.first_id, g.second_id, first_score(g.result, replay_draw=g.replay_draw), handicap)
        )
    return out


def _prior_grade_history(
    change: PriorGradeChange,
) -> tuple[Position, History, dict[int, engine.PlayerState]] | None:
    """From the player's first rated table, with his new prior grade; None if no rated table uses it."""
    player = change.player
    first = RatingRow.objects.filter(player=player).order_by("date", "sequence").first()
    if first is None or OpeningState.objects.filter(player=player).exists():
        return None
    start = (first.date, first.sequence)
    history = History(start, load=False)
    history.tables = [dataclasses.replace(t, flagged=True) if t.pk == first.table_id else t for t in history.tables]
    state = engine.PlayerState(prior_grade=_prior(change))
    return start, history, {player.pk: state}


def _prior(change: PriorGradeChange) -> engine.PriorGrade | None:
    return prior_grade_read(change.kind, change.level)


def _players_only(change: PriorGradeChange) -> CorrectionPreview:
    """A player no rated table rates from his prior grade: only his own columns may change."""
    player = change.player
    state = engine.PlayerState(prior_grade=_prior(change))
    if RatingRow.objects.filter(player=player).exists() or OpeningState.objects.filter(player=player).exists():
        return CorrectionPreview()  # his rating comes from his tables or his FESA opening state, not this grade
    return CorrectionPreview(players=_player_changes({player.pk: state}))


def _replayed(
    start: Position,
    history: History,
    overrides: dict[int, engine.PlayerState],
    *,
    also: Sequence[int] = (),
    owners: Mapping[int, int] | None = None,
    held: Mapping[tuple[str, int], int] | None = None,
) -> CorrectionPreview:
    """The replay of ``history`` from ``start``; ``also``: players whose columns may change though they play in
    none of its tables (a merged player), from their state at ``start`` with the overrides; ``owners``: the
    promotion records that change hands (record -> player), as a merge moves them; ``held``: the records that
    make a Dan grade public changing hands with them (``public_grades``)."""
    with gc_paused():  # the replay keeps 10^5 objects alive until the preview is made: not for the collector to walk
        replay = SparseReplay(history, start, fixed=set(also), overrides=overrides)
        replay.run()
        final = replay.final_state(replay.touched | set(also))
        return CorrectionPreview(
            players=_player_changes(final, held=held),
            promotions=_promotion_changes(replay, owners or {}),
            errors=dict(replay.errors),
            tables_redone=len(replay.redone),
        )


replay_preview = _replayed
"""The preview of a replay of a history built by another kind of change (ratings/services/merge/preview.py)."""


def _player_changes(
    final: dict[int, engine.PlayerState], *, held: Mapping[tuple[str, int], int] | None = None
) -> list[PlayerChange]:
    """The players whose stored rating, category or public grade differ from what ``final`` gives."""
    out = []
    ids = sorted(final)
    for chunk in id_batches(ids):
        grades = public_grades({pid: final[pid].grade for pid in chunk}, owners=held)
        stored = Player.objects.filter(pk__in=ids_in(chunk)).order_by().values_list("pk", "rating", "category", "grade")
        for pid, rating, category, grade in stored:
            s = final[pid]
            after = (s.rating, category_of(s), grades[pid])
            if (rating, category, grade) != after:
                out.append(PlayerChange(pid, "", (rating, after[0]), (category, after[1]), (grade, after[2])))
    names = player_names([c.player_id for c in out])
    out = [dataclasses.replace(c, name=names.get(c.player_id, "")) for c in out]
    out.sort(key=lambda c: (-c.size, c.name, c.player_id))  # the same order whatever order the rows came in
    return out


player_changes = _player_changes


def _promotion_changes(replay: SparseReplay, owners: Mapping[int, int]) -> list[PromotionChange]:
    """The records ``promotions_sync`` would create, withdraw, flag or support again for the redone tables."""
    redone = set(replay.redone)
    wanted = {(pid, p.grade) for pid, _table_id, p in replay.found}
    players = {pid for pid, _grade in wanted}
    live = Promotion.objects.filter(status__in=LIVE_PROMOTION_STATUSES).order_by()  # no join for the ordering
    in_redone = batched_load(
        lambda ids: dict(live.filter(table_id__in=ids_in(ids)).values_list("pk", "player_id")), redone
    )
    players |= set(in_redone.values()) | set(owners.values())
    records = live.filter(Q(player_id__in=ids_in(sorted(players))) | Q(pk__in=list(owners)))
    # (the players' records of other tables count too: a grade found again is not a new record)
    existing = {
        (owners.get(pk, pid), grade): (table_id, supported, status)
        for pk, pid, grade, table_id, supported, status in records.values_list(
            "pk", "player_id", "grade", "table_id", "supported", "status"
        )
    }
    out: list[tuple[int, int, str]] = []
    for key in wanted:
        record = existing.get(key)
        if record is None:
            out.append((*key, PromotionChange.APPEARS))
        elif not record[1]:
            out.append((*key, PromotionChange.RESTORED))
    for key, (table_id, supported, status) in existing.items():
        if key in wanted or table_id not in redone:
            continue
        if status in (PromotionStatus.PENDING, PromotionStatus.EFFECTIVE):
            out.append((*key, PromotionChange.WITHDRAWN))
        elif supported and status == PromotionStatus.APPROVED:
            out.append((*key, PromotionChange.FLAGGED))
    names = player_names([pid for pid, _grade, _what in out])
    return sorted(
        (PromotionChange(pid, names.get(pid, ""), grade, what) for pid, grade, what in out),
        key=lambda c: (c.name, c.grade),
    )
