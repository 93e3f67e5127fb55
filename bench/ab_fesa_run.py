"""The FESA program's run on files, this checkout against another one, measured alternately.

    git worktree add /tmp/before REV
    python bench/bench_fesa_run.py --copies 10     # makes the folders under bench/out/fesa-run/
    python bench/ab_fesa_run.py /tmp/before [--rounds 6]

On a shared machine whose speed drifts, figures taken minutes apart cannot be compared; here every round runs,
back to back: ``python -c pass`` and ``python -m`` of a module that does nothing (the floors), then for the
other checkout and this one, ``python -m ratings.fesa_files DIR`` once per folder of ``bench/out/fesa-run/000``
and once over every folder of ``bench/out/fesa-run``, and for this one the same with ``--jobs 0``. Each row
gives the minimum and the median over the rounds, per table, of the CPU time of the processes started (user +
system) and of the wall clock, in folders cleared of the outputs of the run before (untimed). Modules are
byte-compiled under ``bench/out/pycache`` as bench_fesa_run.py does. Last, each checkout against the budgets of
bench/README.md, by the median CPU: one process per table against ``python -c pass`` measured in the same
rounds, and one call over every folder against the official program.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_fesa_run import (  # noqa: E402  (the path above must be set first)
    MANY_FOLDERS_BUDGET,
    OFFICIAL_SECONDS_PER_TABLE,
    START_BUDGET,
    clear_outputs,
)

FOLDERS = ROOT / "bench" / "out" / "fesa-run"
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPYCACHEPREFIX"] = str(ROOT / "bench" / "out" / "pycache")


def timed(commands: Sequence[Sequence[str]], cwd: Path, fresh: Sequence[str] = ()) -> tuple[float, float]:
    """CPU seconds of the processes started and wall-clock seconds, running ``commands`` one after another,
    in ``fresh`` folders cleared of an earlier run's outputs first (untimed: bench_fesa_run.clear_outputs)."""
    clear_outputs(fresh)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    for command in commands:
        subprocess.run(command, env=ENV, cwd=cwd, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("other", type=Path, help="the other checkout (e.g. a worktree of the commit before)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--where", type=Path, default=FOLDERS, help="the folders bench_fesa_run.py made there")
    args = parser.parse_args()
    single = sorted(str(p) for p in (args.where / "000").iterdir())
    every = sorted(str(p) for p in args.where.glob("*/*") if p.is_dir())
    if not single:
        sys.exit(f"no folders under {args.where}: run bench/bench_fesa_run.py first")
    python = sys.executable
    noop = Path(tempfile.mkdtemp())
    (noop / "noop.py").write_text("")
    run = [python, "-m", "ratings.fesa_files"]
    measures: dict[str, tuple[Callable[[], tuple[float, float]], int]] = {
        "python -c pass": (lambda: timed([[python, "-c", "pass"]] * len(single), ROOT), len(single)),
        "python -m (a module that does nothing)": (
            lambda: timed([[python, "-m", "noop"]] * len(single), noop),
            len(single),
        ),
    }
    for name, tree in (("other", args.other.resolve()), ("this", ROOT)):
        measures[f"{name}: one process per folder"] = (
            lambda tree=tree: timed([[*run, d] for d in single], tree, single),
            len(single),
        )
        measures[f"{name}: one call for {len(every)} folders"] = (
            lambda tree=tree: timed([[*run, *every]], tree, every),
            len(every),
        )
    measures["this: one call, --jobs 0"] = (lambda: timed([[*run, "-j", "0", *every]], ROOT, every), len(every))
    for measure, _ in measures.values():  # warm-up: writes the compiled modules of both checkouts
        measure()
    results: dict[str, list[tuple[float, float]]] = {label: [] for label in measures}
    for _ in range(args.rounds):
        for label, (measure, tables) in measures.items():
            cpu, wall = measure()
            results[label].append((cpu / tables * 1000, wall / tables * 1000))
    median_cpu: dict[str, float] = {}
    for label, values in results.items():
        cpu = sorted(v[0] for v in values)
        wall = sorted(v[1] for v in values)
        median_cpu[label] = cpu[len(cpu) // 2]
        print(
            f"{label:<40} CPU min {cpu[0]:7.2f} median {cpu[len(cpu) // 2]:7.2f} | "
            f"wall min {wall[0]:7.2f} median {wall[len(wall) // 2]:7.2f} ms a table"
        )
    bare = median_cpu["python -c pass"]
    for name in ("other", "this"):
        start = median_cpu[f"{name}: one process per folder"] / bare
        many = OFFICIAL_SECONDS_PER_TABLE * 1000 / median_cpu[f"{name}: one call for {len(every)} folders"]
        print(
            f"{name}: one process per table {start:.2f}x python -c pass (budget at most {START_BUDGET:g}x"
            f"{'' if start <= START_BUDGET else ', NOT MET'}); one call {many:.0f}x faster than the official "
            f"program (budget at least {MANY_FOLDERS_BUDGET:g}x{'' if many >= MANY_FOLDERS_BUDGET else ', NOT MET'})"
        )


if __name__ == "__main__":
    main()
