"""deploy/fesa-manage with files on its command line: it changes to the code's folder and runs as the site's
user, so a relative path is made absolute first, and (from root) a file the site's user cannot read is refused
with a message that says where to put it."""

from __future__ import annotations

import getpass
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def fake_site(tmp_path: Path) -> tuple[Path, Path]:
    """A site folder whose "python" prints where it runs and what it was given; and its env file."""
    site = tmp_path / "site"
    python = site / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text('#!/bin/sh\necho "cwd=$PWD"\nfor a do echo "arg=$a"; done\n')
    python.chmod(0o755)
    env_file = tmp_path / "site.env"
    env_file.write_text("SECRET_KEY=x\n")
    env_file.chmod(0o644)
    return site, env_file


def run(site: Path, env_file: Path, cwd: Path, *args: str, user: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FESA_SITE_DIR": str(site), "FESA_ENV_FILE": str(env_file), "FESA_USER": user}
    return subprocess.run(
        [str(ROOT / "deploy" / "fesa-manage"), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=30
    )


def test_a_relative_file_is_found_from_where_the_command_was_typed(tmp_path: Path) -> None:
    site, env_file = fake_site(tmp_path)
    here = tmp_path / "import"
    here.mkdir()
    (here / "ratingliste.pre").write_text("x")
    (here / "nye-spillere").write_text("x")
    done = run(
        site, env_file, here, "import_fesa_state", "ratingliste.pre", "--new-players=nye-spillere", "--x", "3",
        user=getpass.getuser(),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"cwd={site}",
        "arg=manage.py",
        "arg=import_fesa_state",
        f"arg={here}/ratingliste.pre",
        f"arg=--new-players={here}/nye-spillere",
        "arg=--x",
        "arg=3",  # not a file here: left as it is
    ]


@pytest.mark.skipif(os.geteuid() != 0, reason="runs the command as root, as docs/deploy.md does")
def test_from_root_a_file_the_sites_user_cannot_read_is_refused_with_where_to_put_it(tmp_path: Path) -> None:
    site, env_file = fake_site(tmp_path)
    tmp_path.chmod(0o755)
    private = tmp_path / "root-home"
    private.mkdir(mode=0o700)
    (private / "ratingliste.pre").write_text("x")
    done = run(site, env_file, private, "import_fesa_state", "ratingliste.pre", user="nobody")
    assert done.returncode == 1
    assert f"nobody cannot read {private}/ratingliste.pre" in done.stderr
    assert "/var/lib/fesa-ratings/import" in done.stderr
