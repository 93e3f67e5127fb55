"""Django set up for a benchmark script run as ``python bench/<script>.py``: the repository on the path, the
script's own SQLite database under bench/out unless DATABASE_URL names another, DEBUG off (no query log), a
secret key good only here, and no Redis (caches and locks in the process)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"


def django_setup(database: Path, **environ: str) -> None:
    """Set Django up on ``database`` (or the caller's DATABASE_URL); ``environ`` adds variables the caller did
    not set."""
    sys.path.insert(0, str(ROOT))
    OUT.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{database}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "k" * 20 + "-not-a-secret-used-anywhere-else")
    for name, value in environ.items():
        os.environ.setdefault(name, value)
    os.environ.pop("REDIS_URL", None)

    import django

    django.setup()
