"""Tables: validation, the engine's view of a table, the preview, submission and deletion.

Every way into the site (the admin, an uploaded turnering.txt, the command line) goes through these, so the
same rules and messages apply everywhere.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings import engine
from ratings.engine.constants import HANDICAP_CODES, SCALE_END
from ratings.engine.scores import PAIRED_RESULTS, first_score
from ratings.engine.types import handicap_read
from ratings.models import Game, Table, TableEntry, TableStatus
from ratings.selectors.players import player_names
from ratings.selectors.states import states_before
from ratings.services.grades.promotions import promotions_table_deleted
from ratings.services.rerate import rerate_request


class TableInvalid(Exception):
    """A table that cannot be submitted or rated; ``problems`` are messages for a person."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class GameFacts:
    """What validation needs of a game, whether it is saved yet or still in a form."""

    round: int
    first_id: int
    second_id: int | None
    result: str
    handicap: str = ""
    handicap_giver: str = ""
    played: bool = True
    replay_draw: bool = False

    @classmethod
    def of(cls, game: Game) -> GameFacts:
        return cls(
            round=game.round,
            first_id=game.first_id,
            second_id=game.second_id,
            result=game.result,
            handicap=game.handicap,
            handicap_giver=game.handicap_giver,
            played=game.played,
            replay_draw=game.replay_draw,
        )


def _name(names: Mapping[int, str], player_id: int | None) -> str:
    return names.get(player_id or 0, f"#{player_id}")


def table_problems(
    *,
    table_date: dt.date,
    entry_player_ids: Sequence[int],
    games: Iterable[GameFacts],
    names: Mapping[int, str],
    last_played: Mapping[int, dt.date | None],
) -> list[str]:
    """Every reason the table cannot be rated, each naming the round and the players.

    Checks: a player twice in a round, a game against oneself, a player not entered in the table, a result
    missing or not fitting the pairing, a handicap code unknown or without its giver, a table date before a
    player's last rated table (``last_played`` holds the last rated table *before* this one).
    """
    problems: list[str] = []
    entered = set(entry_player_ids)
    seen: dict[tuple[int, int], int] = {}
    players_with_games: set[int] = set()
    for game in sorted(games, key=lambda g: g.round):
        where = _("Round %(round)s") % {"round": game.round}
        first, second = game.first_id, game.second_id
        pair = f"{_name(names, first)}" + (f" – {_name(names, second)}" if second else "")
        if game.round < 1:
            problems.append(_("%(where)s, %(pair)s: the round must be 1 or more.") % {"where": where, "pair": pair})
        if second is not None and first == second:
            problems.append(
                _("%(where)s: %(player)s cannot play against himself.")
                % {"where": where, "player": _name(names, first)}
            )
            continue
        for pid in (first, second):
            if pid is None:
                continue
            if pid not in entered:
                problems.append(
                    _("%(where)s: %(player)s plays but is not entered in the table.")
                    % {"where": where, "player": _name(names, pid)}
                )
            key = (game.round, pid)
            if key in seen:
                problems.append(
                    _("%(where)s: %(player)s appears twice in the round.")
                    % {"where": where, "player": _name(names, pid)}
                )
            seen[key] = 1
            players_with_games.add(pid)
        paired = second is not None
        if not game.result:
            problems.append(_("%(where)s, %(pair)s: the result is missing.") % {"where": where, "pair": pair})
        elif paired and game.result not in PAIRED_RESULTS:
            problems.append(
                _("%(where)s, %(pair)s: a game needs a win, a loss or a draw, not “%(result)s”.")
                % {"where": where, "pair": pair, "result": game.result}
            )
        elif not paired and game.result in PAIRED_RESULTS:
            problems.append(
                _("%(where)s, %(pair)s: without an opponent the result must be a bye, an absence or a no-show.")
                % {"where": where, "pair": pair}
            )
        if game.handicap and game.handicap not in HANDICAP_CODES:
            problems.append(
                _("%(where)s, %(pair)s: unknown handicap code “%(code)s” (known: %(known)s).")
                % {"where": where, "pair": pair, "code": game.handicap, "known": ", ".join(sorted(HANDICAP_CODES))}
            )
        if bool(game.handicap) != bool(game.handicap_giver):
            problems.append(
                _("%(where)s, %(pair)s: a handicap needs both its code and who gave it.")
                % {"where": where, "pair": pair}
            )
        if game.handicap and not paired:
            problems.append(_("%(where)s, %(pair)s: a handicap needs an opponent.") % {"where": where, "pair": pair})
    for pid in sorted(players_with_games & entered):
        last = last_played.get(pid)
        if last is not None and table_date < last:
            problems.append(
                _("%(player)s: the table's date %(date)s is before his last rated table (%(last)s).")
                % {"player": _name(names, pid), "date": table_date.isoformat(), "last": last.isoformat()}
            )
    return problems


def missing_rounds(
    *, entry_player_ids: Sequence[int], games: Iterable[GameFacts], names: Mapping[int, str]
) -> list[str]:
    """Every entered player without a row (game, bye, absence or no-show) in a round of the table, by round.

    A turnering.txt cannot leave a round out (every line has as many cells as the others); neither can hand
    entry. One exception: a simultaneous display's games are stored one per round (ratings/services/
    fesa_tables.py), so a round holding a single game whose player plays in no other kind of round (the
    giver) expects nobody else, and the giver is expected in no other round.
    """
    rows: dict[int, list[GameFacts]] = defaultdict(list)
    for game in games:
        rows[game.round].append(game)
    present = {r: {pid for g in gs for pid in (g.first_id, g.second_id) if pid is not None} for r, gs in rows.items()}
    single = {r for r, gs in rows.items() if len(gs) == 1 and gs[0].second_id is not None}
    in_full = {pid for r, players in present.items() if r not in single for pid in players}
    givers = {pid for r in single for pid in present[r]} - in_full
    problems: list[str] = []
    for r in sorted(rows):
        if r in single and present[r] & givers:
            continue
        problems.extend(
            _("Round %(round)s: %(player)s has no game, bye or absence (an absence is “0-”).")
            % {"round": r, "player": _name(names, pid)}
            for pid in entry_player_ids
            if pid not in present[r] and pid not in givers
        )
    return problems


def engine_games(games: Iterable[GameFacts]) -> list[engine.Game]:
    """The rated games as the engine sees them: played pairings only, replays as draws (R4)."""
    out: list[engine.Game] = []
    for g in games:
        if g.second_id is None or not g.played:
            continue
        score = first_score(g.result, replay_draw=g.replay_draw)
        handicap = None
        if g.handicap:
            giver = g.first_id if g.handicap_giver == "first" else g.second_id
            handicap = handicap_read(g.handicap, giver)
        out.append(engine.Game(round=g.round, first=g.first_id, second=g.second_id, score=score, handicap=handicap))
    out.sort(key=lambda game: game.round)
    return out


def table_facts(table: Table) -> tuple[list[int], list[GameFacts], dict[int, str]]:
    """The saved entries (in seat order), games and player names of a table."""
    entries = list(TableEntry.objects.filter(table=table).select_related("player").order_by("seat"))
    games = [GameFacts.of(g) for g in Game.objects.filter(table=table).order_by("round", "id")]
    names = {e.player_id: str(e.player) for e in entries}
    # A player who plays without being entered must still be named in the messages.
    strangers = {pid for g in games for pid in (g.first_id, g.second_id) if pid is not None and pid not in names}
    names.update(player_names(strangers))
    return [e.player_id for e in entries], games, names


def _validated(table: Table) -> tuple[list[int], list[GameFacts], dict[int, engine.PlayerState]]:
    """The saved table's players (seat order), games and the players' states before it; TableInvalid if it
    cannot be rated."""
    player_ids, games, names = table_facts(table)
    states = states_before(date=table.date, sequence=table.sequence, player_ids=player_ids)
    problems = table_problems(
        table_date=table.date,
        entry_player_ids=player_ids,
        games=games,
        names=names,
        last_played={pid: s.last_played for pid, s in states.items()},
    )
    if not player_ids:
        problems.append(_("The table has no players."))
    if player_ids and not engine_games(games):
        problems.append(_("The table has no rated game."))
    if problems:
        raise TableInvalid(problems)
    return player_ids, games, states


def table_validate(table: Table) -> None:
    """Raise TableInvalid with every problem of the saved table."""
    _validated(table)


def table_preview(table: Table) -> engine.TableResult:
    """What rating the table would do now, computed on the current states; saves nothing.

    Raises TableInvalid for a table that cannot be rated, including one that does not settle.
    """
    player_ids, games, states = _validated(table)
    try:
        return engine.rate_table(
            engine.TableInput(
                name=str(table),
                date=table.date,
                players=player_ids,
                # Keyed as the engine keys players, by anything hashable: a mapping's key type cannot be widened
                # in place, its pairs can.
                states=dict(states.items()),
                games=engine_games(games),
            )
        )
    except engine.RatingOffScale as exc:  # named, not by the engine's key (a player's id)
        pid = exc.player
        name = player_names({pid}).get(pid, str(pid)) if isinstance(pid, int) else str(pid)
        raise TableInvalid([off_scale_message(name=name, rating=exc.rating)]) from exc
    except engine.EngineError as exc:
        raise TableInvalid([str(exc)]) from exc


def off_scale_message(*, name: str, rating: float) -> str:
    """Why a table cannot be rated when ``name``'s rating would run off the handicap scale (docs/rules.md §3)."""
    return _(
        "The table cannot be rated: %(player)s's rating would reach %(rating)s, at or above the end of the "
        "handicap scale (%(end)s), where the rules give no grade to convert a handicap from."
    ) % {"player": name, "rating": f"{rating:g}", "end": SCALE_END}


def table_submit(*, table: Table, user: object | None) -> None:
    """Validate, move the table to submitted and ask for re-rating from it, in one transaction.

    The re-rate is enqueued after commit (ratings/services/rerate.py); if the broker is down the pending
    mark stays and the beat or the next submission picks it up.
    """
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        table_validate(locked)
        locked.status = TableStatus.SUBMITTED
        locked.submitted_at = timezone.now()
        locked.submitted_by = user if isinstance(user, get_user_model()) and user.pk else None
        locked.rating_error = ""
        locked.save(update_fields=["status", "submitted_at", "submitted_by", "rating_error", "updated_at"])
        rerate_request(date=locked.date, sequence=locked.sequence, table_ids=[locked.pk])
    table.refresh_from_db()


def table_changed(*, table: Table, old_position: tuple[dt.date, int] | None = None) -> None:
    """Call inside the transaction of any edit of a submitted or rated table: re-rate from it.

    ``old_position`` is the table's (date, sequence) before the edit, if it moved: re-rating starts at
    the earlier of the two, since tables between them now come in another order.
    """
    if table.status == TableStatus.DRAFT:
        return
    date, sequence = table.date, table.sequence
    if old_position is not None and old_position < (date, sequence):
        date, sequence = old_position
    rerate_request(date=date, sequence=sequence, table_ids=[table.pk])


def table_delete(*, table: Table) -> None:
    """Delete a table and everything in it; what followed it is re-rated.

    The later tables of the same day that its players played are flagged: their stored rows start from the
    deleted table's, and a preview that reads only the tables a change reaches (``SparseReplay``) tells a
    broken link between two rows by their dates alone, which a table of the same day does not show.
    """
    with transaction.atomic():
        if table.status != TableStatus.DRAFT:
            same_day = Table.objects.order_by().filter(
                date=table.date, sequence__gt=table.sequence, entries__player__in=table.entries.values("player")
            )
            rerate_request(
                date=table.date,
                sequence=table.sequence,
                table_ids=list(same_day.values_list("pk", flat=True).distinct()),
            )
        promotions_table_deleted(table=table)
        table.delete()
