"""Benchmark of the rating engine: rated games per second over a long synthetic history (one core).

    python bench/bench_engine.py --games 200000 [--repeat 3] [--digest] [--profile]

The history is the demo federation's (ratings/demo, the generator ``manage.py seed_demo`` and the other
benchmarks use), in the engine's terms and with no database: ``--players`` players (default: one per 30 games)
over ``--years`` years (default 10) up to the end of 2024, the calendar sized for about ``--games`` rated games,
deterministic by ``--seed``. Players on an opening list and newcomers, a third of them with a prior grade
(Kyu, Dan or professional); careers that end; European, national and local tournaments of 6..60 players,
3..7 Swiss rounds without rematches; results drawn from hidden strengths, about 2% draws, 3% handicap games.
Only the rating is timed (``rate_history``: validation, the sweeps, the outcomes with every GameDetail, the
promotions), not building the tables nor the benchmark's own counting. A table that does not settle (it
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
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ratings.demo.history import engine_history
from ratings.demo.sim import Knobs
from ratings.demo.world import world_build
from ratings.engine import PlayerState, TableInput, TableResult
from ratings.engine.history import HistoryResult, rate_history

UNTIL = dt.date(2024, 12, 31)  # fixed, so that the history (and its digest) does not move with the calendar
GAMES_PER_PLAYER = 30  # the default --players: about as many tables a year per player as the site's demo


def build_history(
    games_target: int, seed: int, *, players: int | None = None, years: int = 10
) -> tuple[dict[int, PlayerState], list[TableInput], dict[str, int]]:
    """The opening states and the tables, about ``games_target`` rated games in all, and what they hold."""
    players = players or max(12, round(games_target / GAMES_PER_PLAYER))
    world = world_build(players=players, years=years, games=games_target, seed=seed, until=UNTIL, knobs=Knobs(drafts=0))
    history = engine_history(world)
    games = [g for t in history.tables for g in t.games]
    stats = {
        "tables": len(history.tables),
        "games": len(games),
        "handicaps": sum(g.handicap is not None for g in games),
        "draws": sum(g.score == 0.5 for g in games),
        "newcomers": len({key for t in history.tables for key in t.states}),
    }
    return history.opening, history.tables, stats


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
    parser.add_argument("--players", type=int, default=None, help="players (default: one per 30 games)")
    parser.add_argument("--years", type=int, default=10, help="years of tournaments (default 10)")
    parser.add_argument("--repeat", type=int, default=1, help="rate the history this many times, back to back")
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile run instead")
    parser.add_argument(
        "--digest", action="store_true", help="print a SHA-256 of every result instead (to check a change alters none)"
    )
    args = parser.parse_args()

    opening, tables, stats = build_history(args.games, args.seed, players=args.players, years=args.years)
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
