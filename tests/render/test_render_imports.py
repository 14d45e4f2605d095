"""The renderer reads the spec model and stored files only: its imports reach neither the
prover (baloot.proofs, z3) nor the engine (baloot.reference_impl), it imports nothing
by name at run time (importlib), every import stands at the top of its module, and no
`except Exception:` hides an error."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RENDER = ROOT / "backends" / "document"
FORBIDDEN = ("baloot.proofs", "baloot.reference_impl", "baloot.conformance", "z3")


# imported inside a function, where only a command needs them: lark (by the spec parser)
HEAVY = ("lark", "baloot.grammar.parser")


def _forbidden(module: str) -> bool:
    """A module of the prover or the engine, z3, or importing by name (importlib itself,
    or its import_module; importlib.resources reads package data and is fine)."""
    return module in ("importlib", "importlib.import_module") or \
        any(_is(module, p) for p in FORBIDDEN)


def package_of(path: Path) -> str:
    """The import name of the package a project file sits in (`backends/document/x.py`:
    `baloot.backends.document`)."""
    return ".".join(["baloot", *path.parent.relative_to(ROOT).parts])


def _imported(tree: ast.Module, package: str = "baloot") -> list[tuple[int, str, bool]]:
    """(line, module, at the top level) of every import of a module in `package`, relative
    imports resolved."""
    top = {id(node) for node in tree.body}
    found: list[tuple[int, str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name, id(node) in top) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = ".".join([*parts[:len(parts) - node.level + 1], *filter(None, [node.module])]) \
                if node.level else (node.module or "")
            found.extend((node.lineno, f"{base}.{a.name}", id(node) in top)
                         for a in node.names)
    return found


def _is(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def problems(source: str, name: str, package: str = "baloot.backends.document") -> list[str]:
    """What breaks the renderer's rules in one module's source."""
    tree = ast.parse(source)
    found = []
    for line, module, at_top in _imported(tree, package):
        if _forbidden(module):
            found.append(f"{name}:{line}: imports {module}")
        if not at_top and not any(_is(module, p) for p in HEAVY):
            found.append(f"{name}:{line}: imports {module} inside a function")
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler) and (
                node.type is None or (isinstance(node.type, ast.Name)
                                      and node.type.id in ("Exception", "BaseException"))):
            found.append(f"{name}:{node.lineno}: catches every exception")
    return found


def _file_of(module: str) -> Path | None:
    """The project file of a `baloot...` module (or of the package it names)."""
    if not _is(module, "baloot"):
        return None
    parts = module.split(".")[1:]
    for n in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:n])
        for candidate in (base.with_suffix(".py") if n else None, base / "__init__.py"):
            if candidate is not None and candidate.is_file():
                return candidate
    return None


def test_the_checker_finds_each_kind_of_problem() -> None:
    bad = ("import importlib\nfrom ...proofs import verify\n"
           "def f():\n    from ...grammar import model\n"
           "    try:\n        pass\n    except Exception:\n        pass\n")
    assert problems(bad, "bad.py") == [
        "bad.py:1: imports importlib", "bad.py:2: imports baloot.proofs.verify",
        "bad.py:4: imports baloot.grammar.model inside a function",
        "bad.py:7: catches every exception"]
    assert problems("from baloot.reference_impl.runtime import card_text\n", "x.py")
    assert problems("from baloot.backends.document import blocks\n", "ok.py") == []


def test_render_modules_keep_the_rules() -> None:
    files = sorted(RENDER.glob("*.py"))
    assert len(files) > 5
    found = [p for f in files
             for p in problems(f.read_text(encoding="utf-8"), f.name, package_of(f))]
    assert found == []


def test_the_project_modules_the_renderer_reaches_keep_clear_of_prover_and_engine() -> None:
    """Every module of ours the renderer imports, directly or not: none imports the
    prover, the engine, z3 or importlib."""
    todo = sorted(RENDER.glob("*.py"))
    seen: set[Path] = set()
    found = []
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, module, _ in _imported(tree, package_of(path)):
            if _forbidden(module):
                found.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
            target = _file_of(module)
            if target is not None:
                todo.append(target)
    assert ROOT / "grammar" / "model.py" in seen
    assert found == []


def test_importing_the_renderer_loads_neither_prover_nor_engine() -> None:
    probe = ("import sys\nimport baloot.cli.render_command\n"
             "print([m for m in sys.modules if m.split('.')[0] == 'z3' or "
             "m.startswith(('baloot.proofs', 'baloot.reference_impl', 'baloot.conformance'))])")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
