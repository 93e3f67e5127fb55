"""The import direction of STYLE.md: engine -> models -> services/selectors -> interfaces (views, admin, tasks)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RATINGS = Path(__file__).resolve().parent.parent / "ratings"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative import inside the same package
                names.add("." * node.level + (node.module or ""))
            else:
                names.add(node.module or "")
    return names


def python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py"))


@pytest.mark.parametrize("path", python_files(RATINGS / "engine"), ids=lambda p: p.name)
def test_engine_module_imports_nothing_of_django_or_the_site(path: Path) -> None:
    bad = {m for m in imported_modules(path) if m.split(".")[0] in {"django", "ratings", "federation", "celery"}}
    assert not bad, f"{path.name} imports {sorted(bad)}: the engine must stay pure Python"


@pytest.mark.parametrize("path", python_files(RATINGS / "fesa_files"), ids=lambda p: p.name)
def test_fesa_files_module_imports_no_django(path: Path) -> None:
    bad = {m for m in imported_modules(path) if m.split(".")[0] in {"django", "federation", "celery"}}
    assert not bad, f"{path.name} imports {sorted(bad)}: the file formats must stay pure Python"


LOWER_LAYERS = {
    "ratings/models.py": {"ratings.services", "ratings.selectors", "ratings.views", "ratings.admin", "ratings.tasks"},
    "ratings/selectors": {"ratings.services", "ratings.views", "ratings.admin", "ratings.tasks"},
}


@pytest.mark.parametrize("relative", sorted(LOWER_LAYERS))
def test_lower_layer_does_not_import_upper_layers(relative: str) -> None:
    path = RATINGS.parent / relative
    forbidden = LOWER_LAYERS[relative]
    for module in python_files(path) if path.is_dir() else [path]:
        bad = {m for m in imported_modules(module) if any(m == f or m.startswith(f + ".") for f in forbidden)}
        assert not bad, f"{module.relative_to(RATINGS.parent)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", python_files(RATINGS / "services"), ids=lambda p: p.name)
def test_services_do_not_import_interfaces(path: Path) -> None:
    interfaces = ("ratings.views", "ratings.admin", "ratings.tables", "ratings.filters", "ratings.forms")
    bad = {m for m in imported_modules(path) if m.startswith(interfaces)}
    assert not bad, f"{path.name} imports {sorted(bad)}: services sit below the interfaces"
