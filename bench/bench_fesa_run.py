"""Benchmark of the FESA program's run on files (``python -m ratings.fesa_files``) against the official program.

    python bench/bench_fesa_run.py [--copies 20] [--repeat 5] [--django]

Every reference case (tests/fesa/data.py finds them) is copied, inputs only, into ``bench/out/fesa-run/``
``--copies`` times, then timed by wall clock:

- starting Python alone (``python -c pass``), and starting it as the run starts, ``python -m`` with a module
  that does nothing (``-m`` imports runpy, importlib.util and contextlib): the floors of one process per table;
- one process per folder, as FESA runs its program (``python -m ratings.fesa_files DIR``), per table;
- one call over all the folders, per table, in one process and with ``--jobs 0`` (a worker per processor);
- ``rate_files`` in this process on the cases' bytes (the run without the file system), by CPU time;
- with ``--django``, the same two through ``manage.py fesa_run`` (Django's start-up included).

Before each timed run the folders' outputs are removed (untimed), so every run finds its folder as FESA
gets it, with the inputs only.

Each output is written to a new temporary file and renamed, three files a folder; ``--where
/dev/shm/fesa-run`` makes the folders in memory, which leaves the disk out of the figures.

Modules are byte-compiled (under ``bench/out/pycache``) as in an installed program. Each figure is printed as
a ratio to the official program's time a table (``OFFICIAL_SECONDS_PER_TABLE``). The best of ``--repeat`` runs
is kept, as the machine is shared, by wall clock and by CPU time (the steadier figure on a loaded machine).
The budgets are in bench/README.md; bench/ab_fesa_run.py checks them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ratings.fesa_files.run import rate_files  # noqa: E402
from tests.fesa.data import FESA_DATA  # noqa: E402  (the path above must be set first)

OFFICIAL_SECONDS_PER_TABLE = 0.2
"""What the official CLISP program takes a table (bench/README.md)."""
START_BUDGET = 5.0
"""One process per table: at most this many times the CPU of a bare ``python -c pass``, with plain code."""
MANY_FOLDERS_BUDGET = 50.0
"""One call over many folders: at least this many times faster than the official program, by CPU."""
INPUTS = ("turnering.txt", "ratingliste.pre", "nye-spillere")
OUTPUTS = ("ratingliste.post", "all.txt", "result.txt")
OUT = ROOT / "bench" / "out" / "fesa-run"
# An installed program has its modules byte-compiled; a checkout run with PYTHONDONTWRITEBYTECODE compiles
# every module on every start, which would be most of a short run. Compiled files go under bench/out/.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPYCACHEPREFIX"] = str(ROOT / "bench" / "out" / "pycache")


def prepare(copies: int, out: Path = OUT) -> list[Path]:
    """Fresh folders under ``out`` holding only the cases' inputs, ``copies`` of each case."""
    shutil.rmtree(out, ignore_errors=True)
    cases = sorted(p for p in (FESA_DATA / "cases").glob("*") if (p / "turnering.txt").is_file())
    if not cases:
        sys.exit(f"no reference cases under {FESA_DATA / 'cases'}")
    folders = []
    for copy in range(copies):
        for case in cases:
            folder = out / f"{copy:03d}" / case.name
            folder.mkdir(parents=True)
            for name in INPUTS:
                if (case / name).exists():
                    shutil.copy(case / name, folder / name)
            folders.append(folder)
    return folders


def clear_outputs(folders: Sequence[Path | str]) -> None:
    """Remove what an earlier run wrote, untimed, so that every timed run finds a folder as FESA gets it
    (the inputs only). Replacing the outputs of an earlier run costs the kernel more (freeing the old files'
    blocks), which a real run does not pay."""
    for folder in folders:
        for name in OUTPUTS:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(os.path.join(folder, name))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_of(repeat: int, commands: Sequence[Sequence[str]], fresh: Sequence[Path | str] = ()) -> tuple[float, float]:
    """The best wall-clock time and the best CPU time (user + system, of the processes started) of running
    ``commands`` one after the other, over ``repeat`` tries, the ``fresh`` folders' outputs removed before
    each. On a loaded machine the CPU time is the steadier figure: waiting for a core counts in the wall
    clock only."""
    for command in commands[:1]:  # warm-up: writes the compiled modules
        subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL, env=ENV)
    wall = cpu = float("inf")
    for _ in range(repeat):
        clear_outputs(fresh)
        start, start_cpu = time.perf_counter(), _children_cpu()
        for command in commands:
            subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL, env=ENV)
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, _children_cpu() - start_cpu)
    return wall, cpu


def in_process(repeat: int, folders: Sequence[Path]) -> tuple[float, float]:
    """The best wall-clock and CPU time of ``rate_files`` over every folder's inputs, read beforehand."""
    inputs = [tuple((f / name).read_bytes() if (f / name).exists() else None for name in INPUTS) for f in folders]
    for args in inputs:  # warm-up
        rate_files(*args)  # type: ignore[arg-type]
    wall = cpu = float("inf")
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        for args in inputs:
            rate_files(*args)  # type: ignore[arg-type]
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def report(label: str, seconds: tuple[float, float], tables: int) -> None:
    wall, cpu = (s / tables for s in seconds)
    print(
        f"{label:<46} wall {wall * 1000:8.2f} ms a table ({OFFICIAL_SECONDS_PER_TABLE / wall:6.1f}x)   "
        f"CPU {cpu * 1000:8.2f} ms ({OFFICIAL_SECONDS_PER_TABLE / cpu:6.1f}x the official program)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=20, help="copies of every case (default 20)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each measure; the best is kept")
    parser.add_argument("--django", action="store_true", help="also time manage.py fesa_run")
    parser.add_argument(
        "--where",
        type=Path,
        default=OUT,
        help=f"where to make the folders (default {OUT.relative_to(ROOT)}; /dev/shm/fesa-run leaves the disk out)",
    )
    args = parser.parse_args()
    folders = prepare(args.copies, args.where.resolve())
    python = sys.executable
    names = [str(f) for f in folders]
    single = folders[: len(folders) // args.copies]  # one copy of each case, for the per-process figures
    print(
        f"{len(folders)} tables ({len(single)} cases x {args.copies}); official program: "
        f"{OFFICIAL_SECONDS_PER_TABLE} s a table"
    )
    report("python -c pass", best_of(args.repeat, [[python, "-c", "pass"]] * 10), 10)
    (args.where / "noop.py").write_text('"""Nothing: the floor of ``python -m``."""\n')
    noop = [python, "-c", "import runpy, sys; sys.path.insert(0, sys.argv[1]); runpy._run_module_as_main('noop')"]
    report("python -m (a module that does nothing)", best_of(args.repeat, [[*noop, str(args.where)]] * 10), 10)
    report(
        "python -c 'import ratings.fesa_files.run'",
        best_of(args.repeat, [[python, "-c", "import ratings.fesa_files.run"]] * 10),
        10,
    )
    per_folder = [[python, "-m", "ratings.fesa_files", str(f)] for f in single]
    report("python -m ratings.fesa_files, one per table", best_of(args.repeat, per_folder, single), len(single))
    report(
        "python -m ratings.fesa_files, one call for all",
        best_of(args.repeat, [[python, "-m", "ratings.fesa_files", *names]], names),
        len(folders),
    )
    report(
        "python -m ratings.fesa_files -j 0, one call",
        best_of(args.repeat, [[python, "-m", "ratings.fesa_files", "-j", "0", *names]], names),
        len(folders),
    )
    report("rate_files in process (no file system)", in_process(args.repeat, folders), len(folders))
    if args.django:
        manage = [python, str(ROOT / "manage.py"), "fesa_run"]
        report("manage.py fesa_run, one per table", best_of(1, [[*manage, str(f)] for f in single]), len(single))
        report("manage.py fesa_run, one call for all", best_of(args.repeat, [[*manage, *names]]), len(folders))


if __name__ == "__main__":
    main()
