"""Building rating histories for the pipeline tests: random tables, and edits made the way the site makes them.

Every edit goes through the services (``table_submit``, ``table_save`` as a rating officer saves, ``table_delete``,
``player_set_prior_grade``), so the pending mark and the flags are what the admin leaves; an edit the rules
refuse (a submitted table left without a rated game, say) is skipped, as the admin would refuse it.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import replace

from ratings.models import Game, GameResult, Player, Table, TableEntry, TableStatus
from ratings.services.grades.prior import player_set_prior_grade
from ratings.services.tables.save import EntryFacts, GameEdit, TableRefused, table_save
from ratings.services.tables.submit import GameFacts, table_delete, table_submit
from tests.factories import add_game, make_player, make_table

HANDICAPS = ["S", "L", "B", "R", "2p"]
START = dt.date(2023, 1, 7)


def make_players(rng: random.Random, count: int) -> list[Player]:
    """Players, about a third with a prior grade (which decides a newcomer's first rating)."""
    players = []
    for _ in range(count):
        roll = rng.random()
        prior = ("kyu", rng.randint(1, 10)) if roll < 0.2 else ("dan", rng.randint(1, 4)) if roll < 0.33 else None
        players.append(make_player(prior=prior))
    return players


def random_games(rng: random.Random, table: Table, players: Sequence[Player], rounds: int) -> None:
    """Swiss-like rounds of random pairings: wins, losses, draws, some handicaps, forfeits, byes, replays."""
    for r in range(1, rounds + 1):
        order = list(players)
        rng.shuffle(order)
        if len(order) % 2:
            add_game(table, r, order.pop(), None, rng.choice([GameResult.BYE, GameResult.ABSENT]))
        for first, second in zip(order[::2], order[1::2], strict=True):
            result = rng.choices([GameResult.FIRST_WON, GameResult.SECOND_WON, GameResult.DRAW], [45, 45, 10])[0]
            handicap, giver = ("", "")
            if rng.random() < 0.1:
                handicap, giver = rng.choice(HANDICAPS), rng.choice(["first", "second"])
            add_game(
                table, r, first, second, result, handicap=handicap, giver=giver,
                played=rng.random() > 0.05, replay_draw=rng.random() < 0.03,
            )  # fmt: skip


def random_table(rng: random.Random, players: Sequence[Player], date: dt.date, sequence: int = 1) -> Table:
    chosen = rng.sample(list(players), rng.randint(3, min(7, len(players))))
    table = make_table(chosen, date=date, sequence=sequence)
    random_games(rng, table, chosen, rng.randint(2, 5))
    return table


def free_position(rng: random.Random, latest: dt.date) -> tuple[dt.date, int]:
    """A random date up to ``latest`` (plus a little) with a sequence number no table uses yet."""
    while True:
        date = START + dt.timedelta(days=rng.randint(0, (latest - START).days + 30))
        sequence = rng.randint(1, 2)
        if not Table.objects.filter(date=date, sequence=sequence).exists():
            return date, sequence


def submit(table: Table) -> None:
    table_submit(table=table, user=None)


def officer_save(
    table: Table,
    *,
    date: dt.date | None = None,
    sequence: int | None = None,
    entries: list[EntryFacts] | None = None,
    games: list[GameEdit] | None = None,
) -> str | None:
    """Save the table as a rating officer would; the refusal's problems, or None once saved."""
    try:
        table_save(
            table=table,
            tournament=table.tournament,
            name=table.name,
            date=date or table.date,
            sequence=sequence,
            entries=entries,
            games=games,
            strict_dates=False,
        )
    except TableRefused as refused:
        table.refresh_from_db()
        return "; ".join(refused.problems)
    return None


def correct_a_game(rng: random.Random, table: Table) -> str:
    """Change one game of a submitted or rated table: its result, whether it was played, or its handicap."""
    games = list(Game.objects.filter(table=table))
    game = rng.choice([g for g in games if g.second_id is not None] or [None])
    if game is None:
        return "nothing to correct"
    facts = GameFacts.of(game)
    what = rng.choice(["result", "played", "handicap"])
    if what == "result":
        others = [r for r in (GameResult.FIRST_WON, GameResult.SECOND_WON, GameResult.DRAW) if r != game.result]
        facts = replace(facts, result=rng.choice(others))
    elif what == "played":
        facts = replace(facts, played=not game.played)
    else:
        handicap, giver = ("", "") if game.handicap else (rng.choice(HANDICAPS), "second")
        facts = replace(facts, handicap=handicap, handicap_giver=giver)
    edits = [GameEdit(facts=facts if g.pk == game.pk else GameFacts.of(g), id=g.pk) for g in games]
    refused = officer_save(table, games=edits)
    return f"refused: {refused}" if refused else f"corrected {what} of a game of table {table.pk}"


def move_table(rng: random.Random, table: Table, latest: dt.date) -> str:
    """Give the table another date (and sequence): everything between its old and new place is re-rated."""
    old = table.date
    date, sequence = free_position(rng, latest)
    refused = officer_save(table, date=date, sequence=sequence)
    return f"refused: {refused}" if refused else f"moved table {table.pk} from {old} to {table.date}"


def withdraw_a_player(rng: random.Random, table: Table) -> str:
    """Take a player out of the table (his entry and games go): he no longer played there."""
    entries = list(TableEntry.objects.filter(table=table))
    if len(entries) <= 3:
        return "table too small to withdraw from"
    gone = rng.choice(entries).player_id
    games = [
        GameEdit(facts=GameFacts.of(g), id=g.pk)
        for g in Game.objects.filter(table=table)
        if gone not in (g.first_id, g.second_id)
    ]
    kept = [EntryFacts(player_id=e.player_id, seat=e.seat) for e in entries if e.player_id != gone]
    refused = officer_save(table, entries=kept, games=games)
    return f"refused: {refused}" if refused else f"withdrew player {gone} from table {table.pk}"


def change_prior_grade(rng: random.Random, player: Player) -> str:
    kind, level = rng.choice([("", None), ("kyu", rng.randint(1, 15)), ("dan", rng.randint(1, 5))])
    player_set_prior_grade(player=player, kind=kind, level=level, source="national" if kind else "")
    return f"prior grade of player {player.pk} set to {kind} {level}"


def random_edit(rng: random.Random, players: Sequence[Player], latest: dt.date) -> str:
    """One edit of the kinds a rating officer or a director makes, chosen at random."""
    rated = list(Table.objects.exclude(status=TableStatus.DRAFT))
    kind = rng.choices(["correct", "submit", "delete", "move", "withdraw", "prior"], [35, 20, 12, 13, 10, 10])[0]
    if kind == "submit" or not rated:
        date, sequence = free_position(rng, latest)
        table = random_table(rng, players, date, sequence)
        submit(table)
        return f"submitted table {table.pk} of {date}"
    table = rng.choice(rated)
    if kind == "correct":
        return correct_a_game(rng, table)
    if kind == "delete":
        table_delete(table=table)
        return f"deleted table {table.pk} of {table.date}"
    if kind == "move":
        return move_table(rng, table, latest)
    if kind == "withdraw":
        return withdraw_a_player(rng, table)
    return change_prior_grade(rng, rng.choice(list(players)))
