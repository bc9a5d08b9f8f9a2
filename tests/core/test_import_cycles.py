"""No module of ascend_reflint imports itself through others: the stages import only what comes before them.

Every import statement counts, at the top of a module, inside a function (a lazy import) or under
``TYPE_CHECKING``: a cycle that only a lazy import closes is still a cycle in the design.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "ascend_reflint"


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module name → the package's modules that it imports (``from pkg import mod`` names ``pkg.mod``)."""
    modules: dict[str, tuple[Path, bool]] = {}
    for path in package.rglob("*.py"):
        parts = [package.name, *path.relative_to(package).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names if alias.name in modules)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = name.split(".") if is_package else name.split(".")[:-1]
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in node.names:
                    target = f"{base}.{alias.name}"
                    imported.add(target if target in modules else base)
        graph[name] = {target for target in imported if target in modules and target != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_of_reflint_is_part_of_an_import_cycle() -> None:
    graph = import_graph(PACKAGE)
    assert len(graph) == len(list(PACKAGE.rglob("*.py")))  # every module was read
    # A lazy import (of check.fixes) and one under TYPE_CHECKING (of check.refnames) are edges too.
    assert (graph["ascend_reflint.check.rules.rl002_branch_pin"], graph["ascend_reflint.check.fixes"]) == (
        {
            "ascend_reflint.check.context",
            "ascend_reflint.check.fixes",
            "ascend_reflint.check.refnames",
            "ascend_reflint.check.suggest",
            "ascend_reflint.model",
        },
        {"ascend_reflint.check.refnames", "ascend_reflint.model"},
    )
    assert cycles(graph) == []


def test_a_cycle_closed_by_a_lazy_import_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "check").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "check" / "__init__.py").write_text("from pkg.check.engine import run\n")
    (package / "check" / "policy.py").write_text("from pkg.check import rules\n")
    (package / "check" / "rules.py").write_text("from .context import Context\n")
    (package / "check" / "context.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.check.policy import Policy\n"
    )
    (package / "check" / "engine.py").write_text("def run():\n    import pkg.check.policy\n")
    graph = import_graph(package)
    assert graph["pkg.check.policy"] == {"pkg.check.rules"}
    assert graph["pkg.check.rules"] == {"pkg.check.context"}
    assert cycles(graph) == [["pkg.check.context", "pkg.check.policy", "pkg.check.rules"]]
