"""``python -m ratings.fesa_files DIR [DIR ...]``: the FESA program's run on files, without Django.

The same run, messages and exit status as ``manage.py fesa_run`` (ratings/fesa_files/folders.py), for a
federation that runs the program once per table: starting Django costs about a second, this costs little
more than starting Python: the usual command line, folders only, is read without ``argparse``, which is
imported only for an option (``--help``) or a mistake.
"""

from __future__ import annotations

import gc
import os
import sys

if __name__ == "__main__":
    # No garbage collection while the run's modules load: their objects live as long as the process, and the
    # collector's passes over them were a tenth of the imports' CPU. It is turned back on below, before main().
    gc.disable()

from .folders import JOBS_HELP, available_cpus, failure_summary, run_directories


def _parse(argv: list[str]) -> tuple[list[str], int]:
    """The folders and the number of worker processes of a command line that holds an option (or none):
    ``argparse`` answers ``--help``, refuses what it does not know and takes ``--`` before a folder whose
    name starts with ``-``."""
    import argparse  # imported here for start-up speed: a plain list of folders does not need it

    parser = argparse.ArgumentParser(
        prog="python -m ratings.fesa_files",
        description=(
            "Rate the table in each DIR (turnering.txt, ratingliste.pre, optional nye-spillere) as the FESA "
            "program does and write ratingliste.post, all.txt and result.txt there."
        ),
    )
    parser.add_argument("directories", nargs="+", metavar="DIR")
    parser.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help=JOBS_HELP)
    parsed = parser.parse_args(argv)
    if parsed.jobs < 0:
        parser.error("--jobs must be 0 (one per processor) or more")
    return parsed.directories, parsed.jobs or available_cpus()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    directories, jobs = _parse(args) if not args or any(a.startswith("-") for a in args) else (args, 1)

    def out(line: str) -> None:
        sys.stdout.write(line + "\n")

    def err(line: str) -> None:
        sys.stderr.write(line + "\n")

    failed = run_directories(directories, out, err, jobs)
    if failed:
        # Worded as manage.py fesa_run reports it, so scripts that read either see the same line.
        err(f"CommandError: {failure_summary(failed, len(directories))}")
        return 1
    return 0


if __name__ == "__main__":
    # The cyclic garbage collector, left as it is, would pass every few hundred objects made, and a run makes
    # them by the hundred thousand (a table's values are tuples): about 3% of a run's CPU. Collected
    # more rarely, as a run's objects are freed by their counts when each folder is done, and without the
    # modules' own objects, which live as long as the process (``freeze``). Set here, for the program only:
    # main() called from other code leaves its collector alone.
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    gc.enable()
    status = main()
    # End without the interpreter's teardown, which frees every module and object one by one: about a tenth
    # of a per-folder run's CPU, and nothing a finished run needs (its files are closed; the output is
    # flushed here).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
