"""`make run` for development: the links of the e-mail it sends lead to the port it serves, and the messages are
kept where a person reads them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_gives_the_demo_and_the_server_the_address_of_its_port() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"SITE_URL", "MAKEFLAGS", "MAKELEVEL"}}
    dry = subprocess.run(
        ["make", "-n", "run", "PORT=8011"], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout
    commands = [line for line in dry.splitlines() if "seed_demo" in line or "runserver" in line]
    assert len(commands) == 2 and all(c.startswith("SITE_URL=http://127.0.0.1:8011 ") for c in commands), dry


def test_development_writes_each_message_to_a_file_a_person_reads(tmp_path: Path) -> None:
    clean = {
        k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "EMAIL_BACKEND"}
    }
    clean.pop("DJANGO_SETTINGS_MODULE", None)
    script = (
        "import django; django.setup(); from django.core.mail import send_mail; "
        "send_mail('Your table is rated', 'Body of the message', None, ['director@example.org'])"
    )
    env = {**clean, "DEBUG": "1", "EMAIL_FILE_PATH": str(tmp_path), "DJANGO_SETTINGS_MODULE": "federation.settings"}
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, capture_output=True)
    written = "".join(p.read_text() for p in tmp_path.iterdir())
    assert "Your table is rated" in written and "director@example.org" in written
