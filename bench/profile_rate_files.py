"""CPU time of ``rate_files`` per table over the reference cases, and where it goes.

    python bench/profile_rate_files.py [--repeat 200] [--best 5] [--profile] [--top 40]

Every case's inputs are read once; then the cases are rated ``--repeat`` times in a row, ``--best`` times,
and the best CPU time (time.process_time) per table is printed; then the engine's call (``rate_table``) alone,
and the run with the engine's results looked up instead of computed: the FESA files' own share. With
``--profile``, a cProfile of the same loop sorted by internal time follows. No file system is timed: the
run's files are bytes in, bytes out.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ratings.fesa_files import run  # noqa: E402
from tests.fesa.data import case_dir, case_names  # noqa: E402  (the path above must be set first)

INPUTS = ("turnering.txt", "ratingliste.pre", "nye-spillere")


def load() -> list[tuple[bytes | None, ...]]:
    """Every case's inputs, as bytes (None for a missing nye-spillere)."""
    cases = []
    for name in case_names():
        folder = case_dir(name)
        cases.append(tuple((folder / f).read_bytes() if (folder / f).exists() else None for f in INPUTS))
    return cases


def best_cpu(cases: list[tuple[bytes | None, ...]], repeat: int, best: int) -> float:
    """The best CPU seconds per table of ``repeat`` runs over every case."""
    rate = run.rate_files
    seconds = float("inf")
    for _ in range(best):
        start = time.process_time()
        for _ in range(repeat):
            for args in cases:
                rate(*args)  # type: ignore[arg-type]
        seconds = min(seconds, time.process_time() - start)
    return seconds / (repeat * len(cases))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=200, help="runs over every case per measure")
    parser.add_argument("--best", type=int, default=5, help="measures; the best is kept")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the loop")
    parser.add_argument("--top", type=int, default=40, help="functions of the profile printed")
    args = parser.parse_args()
    cases = load()
    total = best_cpu(cases, args.repeat, args.best)
    engine_seconds = [0.0]
    rate_table = run.rate_table  # type: ignore[attr-defined]  # the engine's, as run.py calls it

    def timed_rate_table(*a, **k):  # type: ignore[no-untyped-def]
        start = time.process_time()
        try:
            return rate_table(*a, **k)
        finally:
            engine_seconds[0] += time.process_time() - start

    run.rate_table = timed_rate_table  # type: ignore[attr-defined]
    best_cpu(cases, args.repeat, 1)
    engine = engine_seconds[0] / (args.repeat * len(cases))
    # The files alone: the engine's results, computed above, looked up instead of computed again.
    results: dict[object, object] = {}

    def remembered_rate_table(table):  # type: ignore[no-untyped-def]
        key = (table.name, table.date, table.games)
        if key not in results:
            results[key] = rate_table(table)
        return results[key]

    run.rate_table = remembered_rate_table  # type: ignore[attr-defined,assignment]
    best_cpu(cases, 1, 1)
    files = best_cpu(cases, args.repeat, args.best)
    run.rate_table = rate_table  # type: ignore[attr-defined]
    print(f"{len(cases)} cases: rate_files {total * 1000:.3f} ms CPU a table (best of {args.best})")
    print(f"  rate_table about {engine * 1000:.3f} ms; the files alone (results looked up) {files * 1000:.3f} ms")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        best_cpu(cases, max(1, args.repeat // 4), 1)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
