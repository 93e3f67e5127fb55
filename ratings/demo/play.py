"""The games of one table of the demo federation: Swiss-like pairings and results drawn from hidden strengths.

Top half against bottom half in round 1, then by score without rematches; a bye for an odd number present;
absences, withdrawals, no-shows and rare forfeits; results drawn from the Elo expectation of the players'
strengths that day, about 2% draws, a few sennichite replays, and about 3% handicap games, where the stronger
player gives the handicap that fits the rank gap (and the expectation is taken with the handicap).

Pure Python; each table draws from its own random stream, so tables can be played in any order.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict

from ratings.engine.constants import HANDICAPS, handicap_shift, rank_of
from ratings.engine.scores import FIRST_SCORES, STANDING_POINTS

from .sim import SimGame, SimTable, World

# Per game: forfeits and draws among all pairings, replays among decisive games (docs/rules.md §1: a replay after
# sennichite counts as a draw). Handicaps only for a rank gap that a handicap can even out; the chance is tuned
# so that about 3% of all games end up with one.
FORFEIT_CHANCE = 0.003
DRAW_CHANCE = 0.02
REPLAY_CHANCE = 0.005
HANDICAP_STEPS = (0.5, 5.5)  # rank gap; beyond that nobody would play the game as a rated one
HANDICAP_CHANCE = 0.05
# Per player and table / per player and round (from round 2).
NO_SHOW_CHANCE = 0.005
WITHDRAW_CHANCE = 0.02
ABSENT_CHANCE = 0.012


def table_games(world: World, table: SimTable, *, attempt: int = 0) -> list[SimGame]:
    """The games of one table, from its own random stream (so tables can be generated in any order);
    another ``attempt`` plays the table again differently."""
    rng = random.Random(f"{world.seed}/table/{table.index}" + (f"/{attempt}" if attempt else ""))
    seats = table.players
    n = len(seats)
    form = {p: world.players[p].strength(table.date) + rng.gauss(0, 40) for p in seats}
    rounds = min(n - 1, max(3, min(7, math.ceil(math.log2(n)) + rng.choice((0, 1, 1, 2)))))
    entered = rounds if table.complete else max(1, rounds - 1)
    no_show = {p for p in seats if rng.random() < NO_SHOW_CHANCE}
    withdraws = {p: rng.randint(1, rounds - 1) for p in seats if p not in no_show and rng.random() < WITHDRAW_CHANCE}
    seed_rank = {p: k for k, p in enumerate(seats)}
    score = dict.fromkeys(seats, 0.0)
    met: dict[int, set[int]] = defaultdict(set)
    had_bye: set[int] = set()
    games: list[SimGame] = []
    for rnd in range(1, entered + 1):
        present: list[int] = []
        for p in seats:
            if p in no_show:
                games.append(SimGame(rnd, p, None, "no_show"))
            elif p in withdraws and rnd > withdraws[p]:
                games.append(SimGame(rnd, p, None, "absent"))
            elif rnd > 1 and rng.random() < ABSENT_CHANCE:
                result = "half_bye" if rng.random() < 0.3 else "absent"
                score[p] += STANDING_POINTS[result]
                games.append(SimGame(rnd, p, None, result))
            else:
                present.append(p)
        order = sorted(present, key=lambda p: (-score[p], seed_rank[p]))
        if len(order) % 2:
            bye = next((p for p in reversed(order) if p not in had_bye), order[-1])
            order.remove(bye)
            had_bye.add(bye)
            score[bye] += STANDING_POINTS["bye"]
            games.append(SimGame(rnd, bye, None, "bye"))
        for a, b in _pairings(order, met, first_round=rnd == 1):
            game = _play(rng, rnd, a, b, form)
            met[a].add(b)
            met[b].add(a)
            first_score = FIRST_SCORES[game.result]
            score[game.first] += first_score
            score[game.second] += 1.0 - first_score  # type: ignore[index]
            games.append(game)
    return games


def _pairings(order: list[int], met: dict[int, set[int]], *, first_round: bool) -> list[tuple[int, int]]:
    """Top half against bottom half in the first round; then each player, from the top of the standings, meets
    the next one he has not met yet (a rematch only when nobody else is left)."""
    if first_round:
        half = len(order) // 2
        return list(zip(order[:half], order[half:], strict=True))
    found = _pair_without_rematch(list(order), met, budget=[2000])
    if found is not None:
        return found
    pool = list(order)
    pairs: list[tuple[int, int]] = []
    while pool:
        a = pool.pop(0)
        k = next((k for k, b in enumerate(pool) if b not in met[a]), 0)
        pairs.append((a, pool.pop(k)))
    return pairs


def _pair_without_rematch(
    pool: list[int], met: dict[int, set[int]], *, budget: list[int]
) -> list[tuple[int, int]] | None:
    """Pair the top player with the nearest one he has not met, backtracking when that leaves the rest
    unpairable, as a Swiss director would; None when no such pairing turns up within ``budget`` steps."""
    if not pool:
        return []
    a, rest = pool[0], pool[1:]
    for k, b in enumerate(rest):
        if b in met[a]:
            continue
        budget[0] -= 1
        if budget[0] < 0:
            return None
        tail = _pair_without_rematch(rest[:k] + rest[k + 1 :], met, budget=budget)
        if tail is not None:
            return [(a, b), *tail]
    return None


HANDICAP_LADDER = sorted(((v, c) for c, v in HANDICAPS.items() if c != "M"), reverse=True)


def handicap_for(steps: float) -> str:
    """The largest handicap no bigger than the rank gap ``steps`` (sente, "S", at least)."""
    return next((code for value, code in HANDICAP_LADDER if value <= steps), "S")


def _play(rng: random.Random, rnd: int, a: int, b: int, form: dict[int, float]) -> SimGame:
    if rng.random() < 0.5:  # who plays first is not the seeding's business
        a, b = b, a
    sa, sb = form[a], form[b]
    handicap, giver = "", ""
    strong_first = sa > sb
    strong, weak = (sa, sb) if strong_first else (sb, sa)
    steps = rank_of(strong) - rank_of(weak)
    if HANDICAP_STEPS[0] <= steps <= HANDICAP_STEPS[1] and rng.random() < HANDICAP_CHANCE:
        handicap = handicap_for(steps)
        given = handicap_shift(strong, HANDICAPS[handicap])  # type: ignore[index]
        sa, sb = (given, sb) if strong_first else (sa, given)
        giver = "first" if strong_first else "second"
    expected = 1.0 / (1.0 + 10.0 ** ((sb - sa) / 400.0))
    u = rng.random()
    if u < FORFEIT_CHANCE:
        return SimGame(rnd, a, b, rng.choice(("first", "second")), handicap, giver, played=False)
    if u < FORFEIT_CHANCE + DRAW_CHANCE:
        return SimGame(rnd, a, b, "draw", handicap, giver)
    result = "first" if rng.random() < expected else "second"
    return SimGame(rnd, a, b, result, handicap, giver, replay_draw=rng.random() < REPLAY_CHANCE)
