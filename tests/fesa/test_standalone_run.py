"""``python -m ratings.fesa_files``: the same run, files and messages as ``manage.py fesa_run``, without Django."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from ratings.fesa_files.run import rate_files

from .data import REPO, case_dir
from .test_fesa_run import INPUTS, OUTPUTS, copy_inputs


def standalone(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=REPO, env=env, check=False, timeout=60
    )


def folders(tmp_path: Path, prefix: str) -> tuple[Path, Path, Path]:
    """A good folder, one with an unknown player, one missing."""
    case = case_dir("nekomadoken-13")
    good = copy_inputs(case, tmp_path / f"{prefix}-good")
    bad = copy_inputs(case_dir("sample-2016-01-07"), tmp_path / f"{prefix}-bad")
    text = (bad / "turnering.txt").read_text(encoding="latin-1").replace("[Hebert]", "[Hébert]")
    (bad / "turnering.txt").write_text(text, encoding="latin-1")
    return good, bad, tmp_path / f"{prefix}-missing"


def test_standalone_run_writes_and_reports_as_fesa_run(tmp_path: Path) -> None:
    good, bad, missing = folders(tmp_path, "standalone")
    done = standalone("-m", "ratings.fesa_files", str(bad), str(good), str(missing))
    django_good, django_bad, django_missing = folders(tmp_path, "django")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as failure:
        call_command("fesa_run", str(django_bad), str(django_good), str(django_missing), stdout=out, stderr=err)

    assert done.returncode == 1
    assert done.stdout == out.getvalue().replace("django-", "standalone-")
    assert done.stderr == err.getvalue().replace("django-", "standalone-") + f"CommandError: {failure.value}\n"
    assert f"{bad}: turnering.txt, line 5: unknown player 'Hébert' 'Pascal'" in done.stderr
    for name in OUTPUTS:
        assert (good / name).read_bytes() == (django_good / name).read_bytes(), name
    assert (good / "ratingliste.post").read_bytes() == (case_dir("nekomadoken-13") / "ratingliste.post").read_bytes()
    assert sorted(p.name for p in bad.iterdir()) == sorted(INPUTS[:2])


def test_standalone_run_succeeds_quietly_on_stderr_and_never_imports_django(tmp_path: Path) -> None:
    work = copy_inputs(case_dir("sample-2016-01-07"), tmp_path / "work")
    code = (
        "import sys; from ratings.fesa_files.__main__ import main; "
        f"status = main([{str(work)!r}]); print(sorted(m for m in sys.modules if m.split('.')[0] == 'django')); "
        "sys.exit(status)"
    )
    done = standalone("-c", code)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [f"{work}: wrote all.txt, ratingliste.post, result.txt", "[]"]


def test_standalone_run_reads_options_and_mistakes_with_argparse(tmp_path: Path) -> None:
    # A plain list of folders is read without argparse (start-up speed); anything else goes to it.
    helped = standalone("-m", "ratings.fesa_files", "--help")
    assert (helped.returncode, helped.stderr) == (0, "")
    assert helped.stdout.startswith("usage: python -m ratings.fesa_files [-h] [-j N] DIR [DIR ...]")
    for args in [(), ("--bogus", "x"), ("--jobs", "-1", "x"), ("--jobs", "two", "x")]:
        refused = standalone("-m", "ratings.fesa_files", *args)
        assert refused.returncode == 2
        assert refused.stderr.startswith("usage: python -m ratings.fesa_files")
    work = copy_inputs(case_dir("sample-2016-01-07"), tmp_path / "-work")
    dashed = standalone("-m", "ratings.fesa_files", "--", str(work.relative_to(tmp_path)))
    assert dashed.returncode == 1  # run from the repository, where there is no such folder
    assert dashed.stderr.startswith("-work: not a directory")


def test_standalone_run_of_ratios_escapes_and_start_scores_writes_what_a_run_in_this_process_writes(
    tmp_path: Path,
) -> None:
    """Ratios, escaped strings and MacMahon start scores come out of a process of their own as out of this one."""
    work = copy_inputs(case_dir("nekomadoken-13"), tmp_path / "work")
    table = (work / "turnering.txt").read_text(encoding="latin-1").replace("[0- 12+ 2+]", "[0- 12+ 2+] [1.5]")
    (work / "turnering.txt").write_text(table, encoding="latin-1")
    newcomer = '("O\\"Neil" "A" (#S(HOME :list #\\E :nationality "JP" :residens "JP")) 1 "Kyu" 1500 '
    newcomer += '((1500 1/2 1) (1400 1 1) (1300 3/3 1)) "2017-01-01")\n)\n'
    (work / "nye-spillere").write_text(
        (work / "nye-spillere").read_text(encoding="latin-1").rstrip().removesuffix(")") + newcomer, encoding="latin-1"
    )
    expected = rate_files(*((work / name).read_bytes() for name in INPUTS)).files()
    assert b"MMS" in expected["result.txt"] and b':LAST-NAME "O\\"Neil"' in expected["ratingliste.post"]
    done = standalone("-m", "ratings.fesa_files", str(work))
    assert (done.returncode, done.stderr) == (0, "")
    assert {name: (work / name).read_bytes() for name in expected} == expected


def test_folders_shared_among_workers_are_reported_in_order_as_one_process_reports_them(tmp_path: Path) -> None:
    """``--jobs``: the same files, the same lines in the folders' order, the same status as a run in one process."""
    runs = {}
    for jobs in ("1", "2", "0"):
        good, bad, missing = folders(tmp_path, f"jobs{jobs}")
        more = [copy_inputs(case_dir("nekomadoken-13"), tmp_path / f"jobs{jobs}-more{i}") for i in range(5)]
        done = standalone("-m", "ratings.fesa_files", "-j", jobs, str(bad), *map(str, more), str(good), str(missing))
        runs[jobs] = (done.returncode, done.stdout.replace(f"jobs{jobs}-", ""), done.stderr.replace(f"jobs{jobs}-", ""))
        assert (good / "ratingliste.post").read_bytes() == (
            case_dir("nekomadoken-13") / "ratingliste.post"
        ).read_bytes()
        assert all((m / "all.txt").read_bytes() == (good / "all.txt").read_bytes() for m in more)
    assert runs["2"] == runs["1"] == runs["0"]
    assert runs["1"][0] == 1 and len(runs["1"][1].splitlines()) == 6
    assert runs["1"][2].endswith("CommandError: 2 of 8 directories failed\n")

    out, err = io.StringIO(), io.StringIO()
    good, bad, missing = folders(tmp_path, "command")
    with pytest.raises(CommandError, match="2 of 3 directories failed"):
        call_command("fesa_run", "--jobs", "2", str(bad), str(good), str(missing), stdout=out, stderr=err)
    assert out.getvalue() == f"{good}: wrote all.txt, ratingliste.post, result.txt\n"
    assert err.getvalue().splitlines()[-1] == f"{missing}: not a directory"


def test_a_worker_that_dies_fails_the_folders_it_left_and_the_run_ends(tmp_path: Path, monkeypatch) -> None:
    """A worker killed mid-run (out of memory, say) must not hang the run nor pass for a success: every folder
    not yet reported is reported as not run, and the folders before it are complete."""
    from ratings.fesa_files import folders as runner

    real = runner.run_directory

    def dying(directory: str | os.PathLike[str]) -> list[str]:
        if Path(directory).name == "dies":
            os._exit(9)  # the worker process ends at once, as a killed one would
        return real(directory)

    monkeypatch.setattr(runner, "run_directory", dying)  # the workers are forked: they run this one
    first = copy_inputs(case_dir("nekomadoken-13"), tmp_path / "first")
    dies = copy_inputs(case_dir("nekomadoken-13"), tmp_path / "dies")
    after = [copy_inputs(case_dir("nekomadoken-13"), tmp_path / f"after{i}") for i in range(3)]
    lines: list[tuple[str, str]] = []
    failed = runner.run_directories(
        [first, dies, *after], lambda s: lines.append(("out", s)), lambda s: lines.append(("err", s)), jobs=2
    )
    # Every folder is reported once, in order. Those whose worker's chunk was lost with it (``first`` may be,
    # run beside ``dies``) are not run to the end, whatever they had written: all their files or none.
    assert [line.split(": ")[0] for _, line in lines] == [str(f) for f in [first, dies, *after]]
    for (stream, line), folder in zip(lines, [first, dies, *after], strict=True):
        wrote = line.endswith(": wrote all.txt, ratingliste.post, result.txt")
        assert (stream, wrote) in {("out", True), ("err", False)}
        assert wrote or "not run to the end: a worker process stopped" in line
        assert len({(folder / name).exists() for name in ("all.txt", "ratingliste.post", "result.txt")}) == 1
    assert lines[1][0] == "err" and not (dies / "all.txt").exists()
    assert failed == sum(stream == "err" for stream, _ in lines) >= 4
