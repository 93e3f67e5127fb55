"""Benchmark of the rating engine: rated games per second over a long synthetic history (one core).

    python bench/bench_engine.py --games 200000 [--repeat 3] [--digest] [--profile]

The history is deterministic (``--seed``): an opening pool of 400 established players, then tables of 6..60
players and 3..8 Swiss-like rounds, about 8% newcomers per table (half of them with a prior grade: Kyu, Dan or
professional) and as many regulars stopping, results drawn from hidden strengths, about 2% draws and 3% handicap
games. Only the rating is timed (``rate_history``: validation, the sweeps, the outcomes with every GameDetail,
the promotions), not building the tables nor the benchmark's own counting. A table that does not settle (it
happens: a running rating crossing a K boundary can make two values flip for ever) is left unrated, as the site
does. On a shared machine compare the CPU seconds of runs made back to back (``--repeat``). ``--digest`` prints
a hash of every result instead: the check that a change made for speed changed no number.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import gc
import hashlib
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ratings.engine import Game, Handicap, PlayerState, PriorGrade, TableInput, TableResult
from ratings.engine.constants import lower_bound
from ratings.engine.history import HistoryResult, rate_history
from ratings.engine.types import HandicapCode

HANDICAP_CODES: tuple[HandicapCode, ...] = ("S", "L", "B", "R", "RL", "2p", "4p", "5p", "6p")
START = dt.date(2000, 1, 1)


def grade_for(rating: float) -> int:
    """A plausible FESA grade for an established player: the highest whose LB lies 60 points below."""
    grade = 0
    for g in range(1, 27):
        if lower_bound(g) + 60 <= rating:
            grade = g
    return grade


def prior_for(rng: random.Random, strength: float) -> PriorGrade:
    if rng.random() < 0.05:
        return PriorGrade("pro", rng.randint(1, 9))
    if strength >= 1700:
        return PriorGrade("dan", min(8, max(1, int((strength - 1600) / 150))))
    return PriorGrade("kyu", min(20, max(1, int((1700 - strength) / 80))))


def build_history(games_target: int, seed: int) -> tuple[dict[int, PlayerState], list[TableInput], dict[str, int]]:
    """The opening states and the tables, about ``games_target`` rated games in all."""
    rng = random.Random(seed)
    strength: dict[int, float] = {}
    opening: dict[int, PlayerState] = {}
    for key in range(400):
        s = min(2700.0, max(200.0, rng.gauss(1450, 380)))
        strength[key] = s
        rating = int(s + rng.gauss(0, 50))
        count = rng.randint(18, 400)
        opening[key] = PlayerState(
            rating=rating,
            result_list=None,
            game_count=count,
            bonus_count=min(100, count - rng.randint(0, 17)),
            grade=grade_for(rating),
            last_played=START,
        )
    active = list(opening)  # players who still come to tournaments
    tables: list[TableInput] = []
    stats = {"games": 0, "newcomers": 0, "handicaps": 0, "draws": 0, "byes": 0}
    date = START
    while stats["games"] < games_target:
        date += dt.timedelta(days=rng.randint(1, 6))
        size = rng.randint(6, 60)
        rounds = rng.randint(3, 8)
        newcomers = sum(rng.random() < 0.08 for _ in range(size))
        players = rng.sample(active, min(len(active), size - newcomers))
        states: dict[int, PlayerState] = {}
        for _ in range(newcomers):
            key = len(strength)
            s = min(2800.0, max(100.0, rng.gauss(1150, 450)))
            strength[key] = s
            states[key] = PlayerState(prior_grade=prior_for(rng, s) if rng.random() < 0.5 else None)
            players.append(key)
            active.append(key)
        stats["newcomers"] += newcomers
        for _ in range(newcomers):  # as many stop playing as join, so the active pool keeps its size
            active.pop(rng.randrange(len(active)))
        for key in players:
            strength[key] += rng.gauss(0, 8)
        points = dict.fromkeys(players, 0.0)
        games: list[Game] = []
        for rnd in range(1, rounds + 1):
            order = sorted(players, key=lambda k: (-points[k], rng.random()))
            if len(order) % 2:
                stats["byes"] += 1
                order.pop()  # the bye: never rated
            for a, b in zip(order[::2], order[1::2], strict=True):
                expected = 1.0 / (1.0 + 10.0 ** ((strength[b] - strength[a]) / 400.0))
                draw = rng.random()
                score = 0.5 if draw < 0.02 else (1.0 if rng.random() < expected else 0.0)
                stats["draws"] += score == 0.5
                handicap = None
                if rng.random() < 0.03:
                    giver = a if strength[a] >= strength[b] else b
                    handicap = Handicap(rng.choice(HANDICAP_CODES), giver)
                    stats["handicaps"] += 1
                points[a] += score
                points[b] += 1.0 - score
                games.append(Game(round=rnd, first=a, second=b, score=score, handicap=handicap))
        stats["games"] += len(games)
        tables.append(TableInput(name=f"T{len(tables) + 1}", date=date, players=players, states=states, games=games))
    stats["tables"] = len(tables)
    return opening, tables, stats


def digest(opening: dict[int, PlayerState], tables: list[TableInput]) -> str:
    """A SHA-256 over the repr of every table result, the unsettled tables and the final states.

    The reprs hold every field of every outcome, GameDetail and promotion, floats to the last bit, so two engines
    with the same digest gave the same results.
    """
    sha = hashlib.sha256()
    history = rate_history(
        tables, opening, skip_unsettled=True, keep_results=False, on_result=lambda r: sha.update(repr(r).encode())
    )
    sha.update(repr(history.unsettled).encode())
    sha.update(repr(sorted(history.states.items())).encode())
    return sha.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200_000, help="rated games in the history (default 200000)")
    parser.add_argument("--seed", type=int, default=2016)
    parser.add_argument("--repeat", type=int, default=1, help="rate the history this many times, back to back")
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile run instead")
    parser.add_argument(
        "--digest", action="store_true", help="print a SHA-256 of every result instead (to check a change alters none)"
    )
    args = parser.parse_args()

    opening, tables, stats = build_history(args.games, args.seed)
    if args.digest:
        print(digest(opening, tables))
        return
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(rate_history, tables, opening, keep_results=False, skip_unsettled=True)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return
    runs = [rate_once(tables, opening) for _ in range(args.repeat)]
    history, counts, elapsed, cpu = runs[0]
    print(
        f"{stats['tables']} tables, {stats['games']} rated games ({stats['handicaps']} handicap, {stats['draws']} "
        f"drawn), {len(history.states)} players ({stats['newcomers']} newcomers)"
    )
    print(
        f"{counts['outcomes']} player outcomes ({counts['performance']} by performance), {counts['promotions']} "
        f"promotions, {counts['sweeps'] / counts['tables']:.1f} sweeps per table on average; "
        f"{len(history.unsettled)} tables did not settle (left unrated, their sweeps counted in the time)"
    )
    for _, _, elapsed, cpu in runs:
        print(
            f"rated in {elapsed:.2f} s ({cpu:.2f} s of CPU): {stats['games'] / elapsed:,.0f} rated games per second "
            f"({stats['games'] / cpu:,.0f} per CPU second)"
        )
    if len(runs) > 1:
        cpus = sorted(cpu for _, _, _, cpu in runs)
        print(
            f"best of {len(runs)}: {stats['games'] / cpus[0]:,.0f} per CPU second; "
            f"median {stats['games'] / cpus[len(cpus) // 2]:,.0f}"
        )


def rate_once(
    tables: list[TableInput], opening: dict[int, PlayerState]
) -> tuple[HistoryResult, dict[str, int], float, float]:
    """Rate the history once: its result, the counts for the report, and the wall and CPU seconds of the rating.

    The counting callback's own time is measured and taken out, so only the engine is timed.
    """
    counts = {"outcomes": 0, "performance": 0, "promotions": 0, "sweeps": 0, "tables": 0}
    spent = [0.0, 0.0]  # wall, CPU seconds in count()

    def count(result: TableResult) -> None:
        # Streamed, not kept: holding every result alive would time the garbage collector walking them.
        wall, cpu = time.perf_counter(), time.process_time()
        counts["tables"] += 1
        counts["sweeps"] += result.sweeps
        for o in result.outcomes:
            counts["outcomes"] += 1
            counts["performance"] += o.method == "performance"
            counts["promotions"] += len(o.promotions)
        spent[0] += time.perf_counter() - wall
        spent[1] += time.process_time() - cpu

    gc.collect()  # start every run with the garbage of building the history (or of the run before) gone
    started, started_cpu = time.perf_counter(), time.process_time()
    history = rate_history(tables, opening, skip_unsettled=True, keep_results=False, on_result=count)
    elapsed, cpu = time.perf_counter() - started - spent[0], time.process_time() - started_cpu - spent[1]
    return history, counts, elapsed, cpu


if __name__ == "__main__":
    main()
