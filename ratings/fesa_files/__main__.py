"""``python -m ratings.fesa_files DIR [DIR ...]``: the FESA program's run on files, without Django.

The same run, messages and exit status as ``manage.py fesa_run`` (ratings/fesa_files/folders.py), for a
federation that runs the program once per table.
"""

from __future__ import annotations

import sys

from .folders import JOBS_HELP, available_cpus, failure_summary, run_directories


def _parse(argv: list[str]) -> tuple[list[str], int]:
    """The folders and the number of worker processes of a command line with an option (or none): ``argparse``
    answers ``--help``, refuses what it does not know and takes ``--`` before a folder whose name starts with
    ``-``."""
    import argparse  # noqa: PLC0415 - only a command line with an option needs it: see main()

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
    # FESA runs the program with one folder and no option, once per table: such a run, whose start has a budget
    # (bench/README.md), needs neither argparse (with the gettext and locale it imports) nor a parser.
    options = not args or any(arg.startswith("-") for arg in args)
    directories, jobs = _parse(args) if options else (args, 1)
    failed = run_directories(directories, print, lambda line: print(line, file=sys.stderr), jobs)
    if failed:
        # Worded as manage.py fesa_run reports it, so scripts that read either see the same line.
        print(f"CommandError: {failure_summary(failed, len(directories))}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
