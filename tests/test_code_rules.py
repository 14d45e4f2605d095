"""The code rules of ARCHITECTURE.md, checked over the packages' import graph.

The graph is read from the source (`ast`), each file under its import name
(`tests/typecheck.py` maps `cli/main.py` to `baloot.cli.main`):
- each room imports only the rooms it may (the invariants of ARCHITECTURE.md);
- imports inside functions defer only an optional dependency;
- no module is imported by a name computed at run time;
- a handler of every exception binds it and uses it (reports it), never hides it.
Each rule is a function over parsed modules, and a test feeds it a module that
breaks it, so the rule is seen to fail.
"""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/ has no packages (pytest's importlib mode)

import typecheck  # noqa: E402

PATHS = {s.module: str(s.path) for s in typecheck.sources()
         if s.path and s.module.startswith("baloot.")}


@cache
def _parsed(module: str) -> ast.Module:
    return ast.parse((ROOT / PATHS[module]).read_text(encoding="utf-8"), PATHS[module])


def package_modules() -> dict[str, ast.Module]:
    """Every module of the installed packages, hand-written and generated, parsed."""
    return {module: _parsed(module) for module in PATHS}


def parsed(text: str) -> ast.Module:
    return ast.parse(text)


# ---- which room may import which ------------------------------------------------------

# Room -> the rooms of ours it may import besides itself (ARCHITECTURE.md, "Rooms"), from
# the floor up. A module's room is the longest prefix listed here; every module has one.
_LANGUAGE = "baloot.grammar"
_ENGINE = "baloot.reference_impl"
_BACKENDS = "baloot.backends"
_PROOFS = "baloot.proofs"
_PROTOCOL = "baloot.conformance.protocol"
_HARNESS = "baloot.conformance.harness"
_ADAPTERS = "baloot.conformance.adapters"
_EXPLORER = "baloot.explorer"
_PACK_TOOLS = "baloot.conformance.pack_tools"
MAY_IMPORT: dict[str, set[str]] = {
    "baloot.spec": set(),  # the rules, as data
    "baloot.docs": set(),  # the rules document, as data
    "baloot.conformance": set(),  # the pack's data, its docs, and the adapter template
    _LANGUAGE: set(),  # the rule language: parser, model, checks, analysis, evaluation
    _ENGINE: set(),  # the engine: the standard library only (see below)
    _BACKENDS: {_LANGUAGE},  # the emitter, the register, the z3 translation, the document
    _PROOFS: {_LANGUAGE, _BACKENDS, _ENGINE},
    _PROTOCOL: {_ENGINE},  # the protocol's schemas and fields, the reference's view
    _HARNESS: {_PROTOCOL},  # the runner stands alone (but for one crossing, below)
    _ADAPTERS: {_PROTOCOL, _HARNESS, _ENGINE},
    "baloot.conformance.results_page": {_PROTOCOL, _HARNESS},
    _PACK_TOOLS: {_LANGUAGE, _BACKENDS, _ENGINE, _PROTOCOL, _HARNESS, _ADAPTERS},
    "baloot.conformance.fuzz": {_ENGINE, _PROTOCOL, _HARNESS, _ADAPTERS, _PACK_TOOLS},
    "baloot.conformance.mutants": {_LANGUAGE, _BACKENDS, _ENGINE, _PROTOCOL, _HARNESS,
                                   _ADAPTERS, _PACK_TOOLS},
    # the search for situations where readings differ, and the cases it writes
    _EXPLORER: {_LANGUAGE, _BACKENDS, _PROOFS, _ENGINE, _PROTOCOL, _HARNESS, _PACK_TOOLS},
}
# On top, the application: the command line, the main job, the console. It may import
# every room, and no room imports it.
APPLICATION = "baloot.cli"
MAY_IMPORT[APPLICATION] = set(MAY_IMPORT)
# The one crossing the harness makes: the Hypothesis strategies for engine authors
# find legal positions by playing the reference engine.
ALLOWED_CROSSINGS = {("baloot.conformance.harness.strategies", _ENGINE)}


def room_of(module: str) -> str | None:
    rooms = [r for r in MAY_IMPORT if module == r or module.startswith(r + ".")]
    return max(rooms, key=len) if rooms else None


def is_package(module: str) -> bool:
    return PATHS.get(module, "").endswith("__init__.py")


def all_imports(module: str, tree: ast.Module) -> list[tuple[int, str]]:
    """(line, module) of every import, at the top or inside a function, relative ones
    resolved against `module`."""
    return [(node.lineno, name) for node in ast.walk(tree) if isinstance(node, ast.stmt)
            for name in imported_names(node, module)[:1]]


def room_edges(modules: dict[str, ast.Module]) -> dict[tuple[str, str], str]:
    """(room, imported room) -> the first import that makes the arrow, `module:line`."""
    edges: dict[tuple[str, str], str] = {}
    for module, tree in sorted(modules.items()):
        room = room_of(module)
        for line, imported in all_imports(module, tree):
            target = room_of(imported)
            if room and target and target != room:
                edges.setdefault((room, target), f"{module}:{line}")
    return edges


def room_crossings(modules: dict[str, ast.Module]) -> list[str]:
    wrong = []
    for module, tree in modules.items():
        room = room_of(module)
        if room is None:
            wrong.append(f"{module}: belongs to no room of MAY_IMPORT")
            continue
        for line, imported in all_imports(module, tree):
            target = room_of(imported)
            if target is None or target == room or (module, target) in ALLOWED_CROSSINGS:
                continue
            if target not in MAY_IMPORT[room]:
                wrong.append(f"{module}:{line}: {room} imports {imported}")
    return wrong


def cycles(arrows: set[tuple[str, str]]) -> list[list[str]]:
    """Each cycle of the graph, once, as the rooms around it (depth-first, by name)."""
    after: dict[str, list[str]] = {}
    for a, b in sorted(arrows):
        after.setdefault(a, []).append(b)
    found: list[list[str]] = []
    done: set[str] = set()

    def visit(room: str, path: list[str]) -> None:
        if room in path:
            loop = path[path.index(room):]
            if sorted(loop) not in [sorted(c) for c in found]:
                found.append(loop)
            return
        if room in done:
            return
        for nxt in after.get(room, []):
            visit(nxt, [*path, room])
        done.add(room)

    for room in sorted(after):
        visit(room, [])
    return found


def test_every_module_is_in_a_room() -> None:
    assert [m for m in package_modules() if room_of(m) is None] == []


def test_each_room_imports_only_what_it_may() -> None:
    assert room_crossings(package_modules()) == []


def test_the_rooms_import_each_other_without_a_cycle() -> None:
    """The arrows the code draws, and the arrows MAY_IMPORT allows, both without a
    cycle: the rooms stand in floors."""
    drawn = room_edges(package_modules())
    assert cycles(set(drawn)) == [], drawn
    allowed = {(room, other) for room, others in MAY_IMPORT.items() for other in others
               if other != room and not other.startswith(room + ".")}
    assert cycles(allowed) == []


def test_nothing_imports_the_application() -> None:
    drawn = room_edges(package_modules())
    assert [where for (room, target), where in drawn.items() if target == APPLICATION] == []


def test_a_cycle_is_found() -> None:
    assert cycles({("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}) == [["a", "b", "c"]]
    tree = {"baloot.grammar.x": parsed("from ..explorer import impact\n"),
            "baloot.explorer.impact": parsed("from ..grammar import x\n")}
    assert cycles(set(room_edges(tree))) == [["baloot.explorer", "baloot.grammar"]]


def test_the_engine_imports_only_the_standard_library() -> None:
    outside = [f"{PATHS[module]}:{line}: imports {imported}"
               for module, tree in package_modules().items()
               if room_of(module) == _ENGINE
               for line, imported in all_imports(module, tree)
               if imported.split(".")[0] not in sys.stdlib_module_names
               and room_of(imported) != _ENGINE]
    assert outside == []


@pytest.mark.parametrize("room", sorted(set(MAY_IMPORT) - {APPLICATION}))
def test_a_room_crossing_is_found_in_each_room(room: str) -> None:
    """Each room's rule fails on a module that breaks it: one that imports the
    application, by absolute and by relative name."""
    depth = room.count(".")  # `baloot.grammar.x` climbs one level to reach `baloot`
    module = f"{room}.planted"
    tree = parsed(f"from baloot.cli.main import main\n\n\n"
                  f"def f() -> None:\n    from {'.' * (depth + 1)}cli.suite import run\n")
    assert room_crossings({module: tree}) == [
        f"{module}:1: {room} imports baloot.cli.main",
        f"{module}:5: {room} imports baloot.cli.suite",
    ]


def test_a_room_crossing_is_found() -> None:
    renderer = parsed("from ...proofs.verify import run\n\n\n"
                      "def f() -> None:\n    import baloot.reference_impl\n")
    assert room_crossings({"baloot.backends.document.extras": renderer}) == [
        "baloot.backends.document.extras:1: baloot.backends imports baloot.proofs.verify",
        "baloot.backends.document.extras:5: baloot.backends imports baloot.reference_impl",
    ]
    page = parsed("from ..harness.pack import Pack\n")
    assert room_crossings({"baloot.conformance.results_page.page": page}) == []
    assert room_crossings({"baloot.elsewhere": parsed("")}) == [
        "baloot.elsewhere: belongs to no room of MAY_IMPORT"]


# ---- imports a tool can follow by path ---------------------------------------------

def unresolvable_by_path(modules: dict[str, ast.Module]) -> list[str]:
    """Imports of ours that a tool resolving imports by path (an IDE, pyright, a drawing of
    the imports) cannot follow from a plain checkout: an absolute `baloot.` name (the
    folders are mapped to `baloot.*` only on install), or a relative one that names no
    module or package under the checkout."""
    wrong = []
    for module, tree in modules.items():
        folder = (ROOT / PATHS[module]).parent
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                wrong += [f"{module}:{node.lineno}: import {a.name}" for a in node.names
                          if a.name.split(".")[0] == "baloot"]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                if (node.module or "").split(".")[0] == "baloot":
                    wrong.append(f"{module}:{node.lineno}: from {node.module} import")
            elif isinstance(node, ast.ImportFrom):
                base = folder.parents[node.level - 2] if node.level > 1 else folder
                target = base.joinpath(*(node.module or "").split(".")) if node.module else base
                names = [target / alias.name for alias in node.names]
                if not (target.with_suffix(".py").is_file()
                        or (target / "__init__.py").is_file()
                        or any(n.with_suffix(".py").is_file() for n in names)):
                    wrong.append(f"{module}:{node.lineno}: {'.' * node.level}"
                                 f"{node.module or ''} names no file under {base}")
    return wrong


def test_every_import_of_ours_resolves_by_path() -> None:
    assert (ROOT / "__init__.py").is_file()  # the root, as the package the names climb to
    assert unresolvable_by_path(package_modules()) == []


def test_an_import_a_tool_cannot_follow_is_found() -> None:
    module = "baloot.conformance.harness.runner"
    tree = parsed("from baloot.grammar import model\nimport baloot.proofs\n"
                  "from ...grammar import model as m\nfrom ...nowhere import x\n"
                  "from . import pack\n")
    assert unresolvable_by_path({module: tree}) == [
        f"{module}:1: from baloot.grammar import",
        f"{module}:2: import baloot.proofs",
        f"{module}:4: ...nowhere names no file under {ROOT}",
    ]


# ---- imports at the top --------------------------------------------------------------

# The optional dependencies (each an extra of pyproject.toml): a module may import
# one of them, or a module of ours that loads one, inside a function, so that a
# command that does not need it runs without it.
OPTIONAL = {"z3", "lark", "black", "hypothesis"}
# Modules that exist only at run time: a mutant engine's build, imported from its folder.
BUILT_AT_RUN_TIME = {"baloot_mutant"}


def imported_names(node: ast.stmt, module: str = "") -> list[str]:
    """The modules an import statement in `module` loads (for `from a.b import c`, `a.b`
    and `a.b.c`, since `c` may be a module); a relative import is resolved against
    `module`'s package, as Python does."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level == 0:
        base = node.module or ""
    else:
        package = module.split(".") if is_package(module) else module.split(".")[:-1]
        kept = package[:len(package) - (node.level - 1)]
        base = ".".join([*kept, *([node.module] if node.module else [])])
    if not base:
        return []
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def loads_an_optional_dependency(modules: dict[str, ast.Module]) -> set[str]:
    """Our modules whose top-level imports load an optional dependency, directly or
    through other modules of ours."""
    top = {name: [imported for node in tree.body
                 for imported in imported_names(node, name)]
           for name, tree in modules.items()}
    heavy = {name for name, imports in top.items()
             if any(i.split(".")[0] in OPTIONAL for i in imports)}
    grew = True
    while grew:
        more = {name for name, imports in top.items() if heavy.intersection(imports)}
        grew = not more <= heavy
        heavy |= more
    return heavy


def imports_inside_functions(
        modules: dict[str, ast.Module]) -> list[tuple[str, int, tuple[str, ...]]]:
    """(module, line, what the statement imports) for each import inside a function."""
    found = []
    for name, tree in modules.items():
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [(name, node.lineno, tuple(imported_names(node, name)))
                          for node in ast.walk(function)
                          if isinstance(node, ast.stmt) and imported_names(node, name)]
    return sorted(set(found))


def test_imports_inside_functions_are_only_of_optional_dependencies() -> None:
    """An import inside a function hides a dependency from the reader and the tools; it is
    kept only where it defers an optional dependency (directly, or a module of ours that
    loads one at its top)."""
    modules = package_modules()
    heavy = loads_an_optional_dependency(modules)
    assert {"baloot.grammar.parser", "baloot.backends.symbolic"} <= heavy
    assert "baloot.conformance.harness.runner" not in heavy
    wrong = [f"{PATHS[module]}:{line}: imports {imported[0]} inside a function"
             for module, line, imported in imports_inside_functions(modules)
             if not any(i.split(".")[0] in OPTIONAL | BUILT_AT_RUN_TIME or i in heavy
                        for i in imported)]
    assert not wrong, "\n".join(wrong)



def test_an_import_inside_a_function_is_found_unless_it_defers_an_optional_one() -> None:
    modules = {
        "baloot.x.heavy": parsed("import z3\n"),
        "baloot.x.user": parsed("def f() -> None:\n    import json\n"
                                "def g() -> None:\n    from baloot.x import heavy\n"
                                "def h() -> None:\n    import lark\n"),
    }
    assert loads_an_optional_dependency(modules) == {"baloot.x.heavy"}
    found = imports_inside_functions(modules)
    assert [(line, names[0]) for _, line, names in found] == [
        (2, "json"), (4, "baloot.x"), (6, "lark")]


# ---- no import by a computed name ------------------------------------------------------

def dynamic_imports(modules: dict[str, ast.Module]) -> list[str]:
    """Calls of `importlib.import_module(...)` or `__import__(...)`: an import the reader
    and the tools cannot see."""
    found = []
    for module, tree in modules.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            called = node.func
            name = (called.attr if isinstance(called, ast.Attribute)
                    else called.id if isinstance(called, ast.Name) else "")
            if name in {"import_module", "__import__"}:
                found.append(f"{module}:{node.lineno}: {name}")
    return found


def test_no_module_is_imported_by_a_computed_name() -> None:
    assert dynamic_imports(package_modules()) == []


def test_a_computed_import_is_found() -> None:
    tree = parsed("import importlib\nm = importlib.import_module('baloot.proofs')\n")
    assert dynamic_imports({"baloot.x": tree}) == ["baloot.x:2: import_module"]


# ---- no handler hides an error ---------------------------------------------------------

BROAD = {"Exception", "BaseException"}


def hiding_handlers(modules: dict[str, ast.Module]) -> list[str]:
    """`except:`, `except Exception:` and `except BaseException:` handlers that do not
    bind the exception and use it (to report it or pass it on)."""
    found = []
    for module, tree in modules.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ExceptHandler):
                continue
            caught = node.type
            names = ([e.id for e in caught.elts if isinstance(e, ast.Name)]
                     if isinstance(caught, ast.Tuple)
                     else [caught.id] if isinstance(caught, ast.Name) else [])
            if caught is not None and not BROAD.intersection(names):
                continue
            used = node.name is not None and any(
                isinstance(n, ast.Name) and n.id == node.name
                for statement in node.body for n in ast.walk(statement))
            reraised = any(isinstance(n, ast.Raise) and n.exc is None
                           for statement in node.body for n in ast.walk(statement))
            if not (used or reraised):
                found.append(f"{module}:{node.lineno}: a handler of every exception hides it")
    return found


def test_no_handler_of_every_exception_hides_it() -> None:
    assert hiding_handlers(package_modules()) == []


def test_a_hiding_handler_is_found() -> None:
    tree = parsed("try:\n    f()\nexcept Exception:\n    pass\n"
                  "try:\n    f()\nexcept Exception as e:\n    report(e)\n"
                  "try:\n    f()\nexcept:\n    cleanup()\n    raise\n"
                  "try:\n    f()\nexcept (ValueError, Exception) as e:\n    pass\n")
    assert hiding_handlers({"baloot.x": tree}) == [
        "baloot.x:3: a handler of every exception hides it",
        "baloot.x:16: a handler of every exception hides it",
    ]


def test_architecture_names_every_room() -> None:
    """ARCHITECTURE.md's room table has a row for each room of MAY_IMPORT (by folder), so
    the page and the rule cannot drift apart."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().strip("`") for line in text.splitlines()
            if line.startswith("| `")}
    folders = {room.removeprefix("baloot.").replace(".", "/") + "/" for room in MAY_IMPORT}
    assert folders - {"docs/", "conformance/"} <= rows, sorted(folders - rows)
