"""What import-linter's layer contracts (pyproject.toml, `make check`) do not see: no import cycle between any two
modules. (An import inside a function is ruff's PLC0415: allowed only with a noqa comment saying why.)"""

from __future__ import annotations

import ast
from pathlib import Path

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


# --- The import graph ---------------------------------------------------------------------------------------

PACKAGES = ("ratings", "federation")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(RATINGS.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for name in PACKAGES for p in python_files(RATINGS.parent / name)}


def import_targets(path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules ``path`` imports, at module level or inside a function, relative imports resolved.

    ``from a import b`` is an import of the module ``a.b`` when there is one, else of ``a``.
    """
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                targets.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {t for t in targets if t in modules and t != here}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected group of modules that import each other (Tarjan), each as a path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_cycle_in(group, graph) for group in groups]


def _cycle_in(group: set[str], graph: dict[str, set[str]]) -> list[str]:
    """A path that starts and ends at the group's first module, through the group only (breadth first)."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node] & group):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    raise AssertionError(f"no cycle through {start}")  # a strongly connected group always has one


def test_import_graph_has_no_cycle() -> None:
    modules = project_modules()
    graph = {name: import_targets(path, modules) for name, path in modules.items()}
    cycles = import_cycles(graph)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_import_cycle_is_found_and_named() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c", "a"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_relative_imports_resolve_to_project_modules() -> None:
    modules = project_modules()
    targets = import_targets(RATINGS / "services" / "rerate" / "__init__.py", modules)
    assert {"ratings.services.rerate.check", "ratings.services.rerate.run"} <= targets


# --- Access rules -----------------------------------------------------------------------------------------------

ACCESS_RULE_PREFIXES = ("can_", "may_", "_can_", "_may_", "_check_access")


def access_rules_outside(folder: Path, home: Path) -> list[str]:
    """Functions under ``folder`` whose names say they decide who may do what, but ``home``'s (as file:name)."""
    found = []
    for path in python_files(folder):
        if path == home:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(ACCESS_RULE_PREFIXES):
                found.append(f"{path.relative_to(folder.parent)}:{node.name}")
    return found


def test_access_rules_live_in_access_py() -> None:
    """The admin, the API and the services ask ratings/access.py; none restates a rule of its own."""
    assert access_rules_outside(RATINGS, RATINGS / "access.py") == []


def test_access_rule_outside_access_py_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "services").mkdir(parents=True)
    (package / "access.py").write_text("def can_publish(user): ...\n", encoding="utf-8")
    (package / "services" / "lists.py").write_text(
        "def can_publish(user): ...\ndef list_publish(user): ...\nclass A:\n    def _may_submit(self): ...\n",
        encoding="utf-8",
    )
    assert access_rules_outside(package, package / "access.py") == [
        "pkg/services/lists.py:can_publish",
        "pkg/services/lists.py:_may_submit",
    ]
