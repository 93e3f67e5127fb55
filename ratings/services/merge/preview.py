"""What a merge (or its undo) would change, replayed in memory as ``correction_preview`` does for a table.

The history from the earliest table the merge changes is loaded as it stands, then the moved tables' entries
and games are given to the new owner of the rows; the two players start from what their starting states
become (a moved prior grade or FESA opening state). Nothing is written.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from typing import Any

from ratings import engine
from ratings.models import LIVE_PROMOTION_STATUSES, Game, OpeningState, Player, Promotion, RatingRow, TableEntry
from ratings.models.states import state_from_json
from ratings.selectors.states import prior_grade_of, states_before
from ratings.services.corrections.preview import CorrectionPreview, player_changes, replay_preview
from ratings.services.merge.moves import MergeChange, MergeRefused, merge_facts, merge_refusal, merge_start
from ratings.services.rerate.replay import History, Position

LAST = 1 << 62  # a place after every table of a day


def merge_preview(change: MergeChange) -> CorrectionPreview:
    """The players whose rating, category or grade the merge (or the undo) changes; raise MergeRefused as
    saving would."""
    if change.facts is None:
        refusal = merge_refusal(change.duplicate, change.kept)
        if refusal:
            raise MergeRefused(refusal)
        facts: Mapping[str, Any] = merge_facts(change.duplicate, change.kept)[1]
    else:
        facts = change.facts
    moved, owner = facts["moved"], facts["owner"]
    other = facts["kept"] if owner == facts["duplicate"] else facts["duplicate"]
    start, _tables = merge_start(moved, kept=facts["kept"])
    starting = _starting_states(facts, owner, other)
    moving = _moving_promotions(moved["promotions"], owner)
    # The records that make a Dan grade public go with the rows (an approved promotion, the FESA opening state).
    held = {("promotion", pk): owner for pk in moving}
    if moved["opening_state"]:
        held[("opening", moved["opening_state"])] = owner
    if start is None:
        return CorrectionPreview(players=player_changes(_unreplayed(starting), held=held))
    history = History(start, load=False)
    tables = set(TableEntry.objects.filter(pk__in=moved["entries"]).values_list("table_id", flat=True))
    tables |= set(
        Game.objects.filter(pk__in=moved["games_first"] + moved["games_second"]).values_list("table_id", flat=True)
    )
    history.tables = [
        dataclasses.replace(t, flagged=True) if t.pk in tables or t.pk in _tables else t for t in history.tables
    ]
    history.load(tables)
    for table_id in tables:
        history.entries[table_id] = [owner if pid == other else pid for pid in history.entries.get(table_id, [])]
        history.games[table_id] = [_given(g, other, owner) for g in history.games.get(table_id, [])]
    overrides = {pid: state for pid, state in starting.items() if not _rows_before(pid, start)}
    owners = dict.fromkeys(moving, owner)
    return replay_preview(start, history, overrides, also=[owner, other], owners=owners, held=held)


def _unreplayed(starting: dict[int, engine.PlayerState]) -> dict[int, engine.PlayerState]:
    """The players' states when the merge redoes no rated table: a player with rated tables stays at his latest
    (``players_refresh`` reads it), whatever starting state moved; only one without takes his new starting
    state. (Comparing a player's opening balance with his current rating previewed a change the merge never
    makes.)"""
    played = set(RatingRow.objects.filter(player_id__in=list(starting)).values_list("player_id", flat=True))
    latest = states_before(date=dt.date.max, sequence=LAST, player_ids=played) if played else {}
    return {pid: latest.get(pid, state) for pid, state in starting.items()}


def _moving_promotions(ids: list[int], owner: int) -> list[int]:
    """The records ``merge_apply`` hands to ``owner``: all but a live one of a grade he holds a live one of."""
    live = Promotion.objects.filter(status__in=LIVE_PROMOTION_STATUSES)
    held = set(live.filter(player_id=owner).values_list("grade", flat=True))
    clash = set(live.filter(pk__in=ids, grade__in=held).values_list("pk", flat=True))
    return [pk for pk in ids if pk not in clash]


def _given(game: engine.Game, old: int, new: int) -> engine.Game:
    first = new if game.first == old else game.first
    second = new if game.second == old else game.second
    handicap = game.handicap
    if handicap is not None and handicap.giver == old:
        handicap = handicap._replace(giver=new)
    return game._replace(first=first, second=second, handicap=handicap)


def _rows_before(pid: int, start: Position) -> bool:
    return (
        RatingRow.objects.filter(player_id=pid, date__lte=start[0])
        .exclude(date=start[0], sequence__gte=start[1])
        .exists()
    )


def _starting_states(facts: Mapping[str, Any], owner: int, other: int) -> dict[int, engine.PlayerState]:
    """Each player's state before his first table once the rows moved (``starting_states`` after the merge)."""
    moved = facts["moved"]
    players = Player.objects.in_bulk([owner, other])
    openings = {o.player_id: o for o in OpeningState.objects.filter(player_id__in=[owner, other])}
    if moved["opening_state"]:
        opening = next(o for o in openings.values() if o.pk == moved["opening_state"])
        openings = {owner: opening}
    out = {}
    for pid, player in players.items():
        prior = prior_grade_of(player)
        if moved["prior_grade"]:
            grade = moved["prior_grade"]
            own = engine.PriorGrade(kind=grade["prior_grade_kind"], level=grade["prior_grade_level"])
            prior = own if pid == owner else None
        found = openings.get(pid)
        if found is None:
            out[pid] = engine.PlayerState(prior_grade=prior)
            continue
        state = state_from_json(found.state)
        out[pid] = state._replace(prior_grade=prior) if state.games == 0 else state
    return out
