"""Corrections tests: changes built from saved tables, and what a re-rate stored, in the preview's terms."""

from __future__ import annotations

import datetime as dt
import html
import re
from dataclasses import replace
from typing import Any

from ratings.models import LIVE_PROMOTION_STATUSES, Player, Promotion, PromotionStatus, Table
from ratings.services.corrections.facts import TableChange
from ratings.services.corrections.preview import CorrectionPreview, PromotionChange
from ratings.services.rerate import rerate_check, rerate_pending
from ratings.services.tables.save import EntryFacts, GameEdit
from ratings.services.tables.submit import GameFacts

DAY = dt.date(2024, 3, 2)
"""The date of the corrections tests' rated table (the ``rated`` fixture)."""


def result_flipped(table: Table, *, game_index: int = 0) -> TableChange:
    """The table with the result of one of its games (round order) reversed."""
    games = [GameEdit(facts=GameFacts.of(g), id=g.pk) for g in table.games.order_by("round", "id")]
    flip = {"first": "second", "second": "first"}
    chosen = [i for i, g in enumerate(games) if g.facts.result in flip][game_index]
    facts = games[chosen].facts
    games[chosen] = GameEdit(facts=replace(facts, result=flip[facts.result]), id=games[chosen].id)
    return table_change(table, games=games)


def table_change(table: Table, **overrides: Any) -> TableChange:
    saved = TableChange.in_place(
        table,
        [EntryFacts(player_id=e.player_id, seat=e.seat) for e in table.entries.order_by("seat")],
        [GameEdit(facts=GameFacts.of(g), id=g.pk) for g in table.games.order_by("round", "id")],
    )
    return replace(saved, **overrides)


def player_columns() -> dict[int, tuple[int, str, int]]:
    return {pid: (r, c, g) for pid, r, c, g in Player.objects.values_list("pk", "rating", "category", "grade")}


def promotion_records() -> dict[int, tuple[int, int, str, bool]]:
    """Every promotion record by id: (player, grade, status, supported)."""
    return {
        pk: (pid, grade, status, supported)
        for pk, pid, grade, status, supported in Promotion.objects.values_list(
            "pk", "player_id", "grade", "status", "supported"
        )
    }


def stored_changes(
    before_players: dict[int, tuple[int, str, int]], before_promotions: dict[int, tuple[int, int, str, bool]]
) -> tuple[set[tuple[Any, ...]], set[tuple[int, int, str]]]:
    """What the re-rate changed since the snapshots, as (player, before, after) and (player, grade, what).

    Promotion records are followed by id, under the player who holds them now: a record a merge hands to the
    kept player has not appeared, it changed hands (the preview says the same).
    """
    players = {(pid, before_players[pid], now) for pid, now in player_columns().items() if before_players[pid] != now}
    live = set(LIVE_PROMOTION_STATUSES)
    promotions: set[tuple[int, int, str]] = set()
    for pk, (pid, grade, status, supported) in promotion_records().items():
        old = before_promotions.get(pk)
        if old is None or old[2] not in live:
            if status in live:
                promotions.add((pid, grade, PromotionChange.APPEARS))
        elif status == PromotionStatus.WITHDRAWN:
            promotions.add((pid, grade, PromotionChange.WITHDRAWN))
        elif old[3] and not supported and old[2] == PromotionStatus.APPROVED:
            promotions.add((pid, grade, PromotionChange.FLAGGED))
        elif not old[3] and supported:
            promotions.add((pid, grade, PromotionChange.RESTORED))
    return players, promotions


def previewed(preview: CorrectionPreview) -> tuple[set[tuple[Any, ...]], set[tuple[int, int, str]]]:
    players = {
        (c.player_id, (c.rating[0], c.category[0], c.grade[0]), (c.rating[1], c.category[1], c.grade[1]))
        for c in preview.players
    }
    return players, {(c.player_id, c.grade, c.what) for c in preview.promotions}


def rerate_and_check() -> None:
    """Run the pending re-rate as the worker would, and require the database to be what the history gives."""
    rerate_pending()
    assert rerate_check() == []


def hidden(response: Any, name: str) -> str:
    """The value of a hidden field of a page, read from its HTML as a browser posts it."""
    found = re.search(rf'<input type="hidden" name="{re.escape(name)}" value="([^"]*)"', response.content.decode())
    assert found, f"no hidden field {name}"
    return html.unescape(found[1])
