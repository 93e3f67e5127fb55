"""Where the shared FESA reference data is (``<repo>/../shared/fesa-data``), and skipping without it."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FESA_DATA = REPO.parent / "shared" / "fesa-data"
MISSING = "<shared fesa-data missing>"


def fesa_data() -> Path:
    """The reference data folder; skips the calling test when it is not there."""
    if not FESA_DATA.is_dir():
        pytest.skip(f"the shared FESA reference data is not at {FESA_DATA}")
    return FESA_DATA


def case_names() -> list[str]:
    """Every case folder (one with a turnering.txt), or one placeholder that makes the tests skip."""
    cases = FESA_DATA / "cases"
    names = sorted(p.name for p in cases.glob("*") if (p / "turnering.txt").is_file()) if cases.is_dir() else []
    return names or [MISSING]


def case_dir(name: str) -> Path:
    """The folder of case ``name``; skips when the shared data is missing."""
    path = fesa_data() / "cases" / name
    if name == MISSING or not path.is_dir():
        pytest.skip(f"no FESA case {name!r} under {FESA_DATA / 'cases'}")
    return path
