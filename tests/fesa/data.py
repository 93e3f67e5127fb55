"""Where the FESA reference data is: ``tests/data/fesa`` (its README.md says where each file comes from).

Every test finds the golden files through this module. The data is part of the repository, so a missing file or
case is a failure, never a skip: a checkout without it must not pass with fewer tests.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FESA_DATA = REPO / "tests" / "data" / "fesa"
CASES = FESA_DATA / "cases"


def fesa_data() -> Path:
    """The reference data folder."""
    if not FESA_DATA.is_dir():
        raise FileNotFoundError(f"the FESA reference data is not at {FESA_DATA}")
    return FESA_DATA


def case_names() -> list[str]:
    """Every case folder (one with a turnering.txt), in name order."""
    names = sorted(p.name for p in CASES.glob("*") if (p / "turnering.txt").is_file())
    if not names:
        raise FileNotFoundError(f"no FESA case (a folder with a turnering.txt) under {CASES}")
    return names


def case_dir(name: str) -> Path:
    """The folder of case ``name``."""
    path = CASES / name
    if not (path / "turnering.txt").is_file():
        raise FileNotFoundError(f"no FESA case {name!r} under {CASES}")
    return path


def published_result_table(name: str = "fesa-result-CdF-2025.txt") -> Path:
    """A published FESA result table of the reference data."""
    path = fesa_data() / name
    if not path.is_file():
        raise FileNotFoundError(f"no published result table {name!r} under {FESA_DATA}")
    return path
