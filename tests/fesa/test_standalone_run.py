"""``python -m ratings.fesa_files``: the same run, files and messages as ``manage.py fesa_run``, without Django."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

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
    assert helped.stdout.startswith("usage: python -m ratings.fesa_files [-h] DIR [DIR ...]")
    for args in [(), ("--bogus", "x")]:
        refused = standalone("-m", "ratings.fesa_files", *args)
        assert refused.returncode == 2
        assert refused.stderr.startswith("usage: python -m ratings.fesa_files")
    work = copy_inputs(case_dir("sample-2016-01-07"), tmp_path / "-work")
    dashed = standalone("-m", "ratings.fesa_files", "--", str(work.relative_to(tmp_path)))
    assert dashed.returncode == 1  # run from the repository, where there is no such folder
    assert dashed.stderr.startswith("-work: not a directory")


def test_standalone_run_does_not_load_what_a_run_does_not_need(tmp_path: Path) -> None:
    work = copy_inputs(case_dir("sample-2016-01-07"), tmp_path / "work")
    code = (
        "import sys; from ratings.fesa_files.__main__ import main; status = main([" + repr(str(work)) + "]); "
        "print(sorted({'argparse', 'pathlib', 'anyascii', 'calendar'} & set(sys.modules))); sys.exit(status)"
    )
    done = standalone("-c", code)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-1] == "[]"
