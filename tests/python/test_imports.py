"""mpgen's import graph, read from the sources with ast: no cycles, and no import of an mpgen
module inside a function or class (a lazy import that dodges a cycle) but the allowed ones.

An edge runs from a module to each mpgen module it imports at module level: `from .x import
y` to x, `from . import x` to the submodule x where x is one, else to the package (a name
its __init__ defines). Importing a.b.c also runs a and a.b: an edge to each of those that
is not one of the importer's own packages (their import is under way already). Imports under
`if TYPE_CHECKING:` never run: they are allowed, and make no edge. The allowed lazy imports
count as edges in the cycle check too, so that none of them is what keeps a cycle away."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "generator" / "mpgen"

# (importer, imported) -> why the import waits until it is used.
ALLOWED_LAZY = {
    ("mpgen", "mpgen.runtime"): "mpgen.compile and the rest load the runtime (NumPy) when first used, "
                                "not when the command line starts",
}


def _modules() -> dict[str, Path]:
    """Dotted name -> source, a package by its __init__.py."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = ("mpgen",) + path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _package(module: str) -> str:
    """The package a module's relative imports start from: its own where it is one."""
    return module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]


def _ancestors(module: str) -> set[str]:
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The mpgen modules an import statement names."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name.split(".")[0] == "mpgen"}
    if node.level:
        base = _package(module).split(".")
        base = ".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else []))
    elif (node.module or "").split(".")[0] == "mpgen":
        base = node.module
    else:
        return set()
    return {f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names}


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING" or
                                         isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(module: str, source: str | None = None) -> tuple[set[str], set[tuple[str, int]]]:
    """The modules `module` imports at module level, and those it imports inside a function
    or class body (with the line), TYPE_CHECKING blocks left out; source: its file's text."""
    top, nested = set(), set()

    def visit(node: ast.AST, inside: bool) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for target in _targets(module, node):
                if inside:
                    nested.add((target, node.lineno))
                else:
                    top.add(target)
        if _is_type_checking(node):
            children = node.orelse
        else:
            children = list(ast.iter_child_nodes(node))
        inside = inside or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
        for child in children:
            visit(child, inside)

    visit(ast.parse(MODULES[module].read_text(encoding="utf-8") if source is None else source), False)
    return top, nested


def _with_packages(module: str, targets: set[str]) -> set[str]:
    """targets and the packages importing each runs first, the importer's own left out."""
    run = set(targets)
    for target in targets:
        run |= _ancestors(target) - _ancestors(module) - {module}
    return run - {module}


def _graph(lazy: bool) -> dict[str, set[str]]:
    """module -> the modules it imports at module level (lazy: and the allowed lazy imports)."""
    graph = {}
    for module in MODULES:
        top, nested = _imports(module)
        allowed = {target for target, _ in nested if (module, target) in ALLOWED_LAZY} if lazy else set()
        graph[module] = _with_packages(module, top | allowed)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (a, b, ..., a) through each strongly connected component of several modules
    or of one that imports itself (Tarjan's algorithm, then a breadth-first path back)."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            components.append(component)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    cycles = []
    for component in components:
        start = min(component)
        paths, seen = {start: [start]}, set()
        frontier = [start]
        while frontier and start not in seen:
            step = []
            for node in frontier:
                for nxt in sorted(graph[node] & component):
                    if nxt == start:
                        seen.add(start)
                        cycles.append(paths[node] + [start])
                        break
                    if nxt not in paths:
                        paths[nxt] = paths[node] + [nxt]
                        step.append(nxt)
                if start in seen:
                    break
            frontier = step
    return cycles


def test_modules_found():
    assert {"mpgen", "mpgen.request", "mpgen.gf", "mpgen.thread", "mpgen.group.program"} <= set(MODULES)


def test_no_import_cycles():
    cycles = [" -> ".join(cycle) for cycle in _cycles(_graph(lazy=True))]
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_lazy_imports_of_mpgen():
    lazy = [f"{MODULES[module].relative_to(ROOT.parent)}:{line}: imports {target} inside a function or class"
            for module in MODULES for target, line in sorted(_imports(module)[1], key=lambda t: t[1])
            if (module, target) not in ALLOWED_LAZY]
    assert not lazy, "\n".join(lazy)


def test_allowed_lazy_imports_exist():
    """An allowance whose import is gone goes too."""
    nested = {(module, target) for module in MODULES for target, _ in _imports(module)[1]}
    assert set(ALLOWED_LAZY) <= nested


def test_the_checks_find_what_they_look_for():
    """The checks themselves: cycles, lazy imports, TYPE_CHECKING, the packages an import runs."""
    source = ("from typing import TYPE_CHECKING\nfrom ..errors import RequestError\nif TYPE_CHECKING:\n"
              "    from ..request import Request\ndef plan():\n    from . import lists, GfField\n")
    assert _imports("mpgen.gf", source) == ({"mpgen.errors"}, {("mpgen.gf.lists", 6), ("mpgen.gf", 6)})
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert _cycles({"a": {"a"}, "b": set()}) == [["a", "a"]]
    assert _with_packages("mpgen.group.division", {"mpgen.thread.columns"}) == {"mpgen.thread", "mpgen.thread.columns"}
    assert _with_packages("mpgen.thread.addsub", {"mpgen.thread.common"}) == {"mpgen.thread.common"}
