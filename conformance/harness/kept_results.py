"""Results kept between runs: a check that replays cases, or lints them, stores what it
found under a key that hashes everything the result depends on, and a later run with the
same key reads it instead of working it out again.

- The folder of a kind of result (`pins`, `needs`, `lint`) is `$BALOOT_CACHE_DIR/KIND`,
  else `$XDG_CACHE_HOME/baloot/KIND`, else `~/.cache/baloot/KIND`, never inside the
  package; `BALOOT_CACHE_DIR=off` keeps nothing.
- The code a result depends on is named by `source_fingerprint`: the source of some
  modules of the package and of every module of the package they import, followed
  import by import (`from .x import y`, `from ...reference_impl import z`), plus
  whole folders and data files named outright (the engine's modules, which a module
  may load by name; the protocol's schemas). A change to a module the check never
  imports (a report, the linter for the pins check) keeps the key.
- A file that cannot be read is a miss, and is written again; a file is written whole,
  then renamed, so a reader never sees half of one.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from .variants import Register

PACKAGE_ROOT = Path(__file__).resolve().parent.parent.parent  # the folder of `baloot`
PACKAGE_NAME = "baloot"


def cache_folder(kind: str) -> Path | None:
    """Where results of this kind are kept; None when keeping is off."""
    chosen = os.environ.get("BALOOT_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "0", "no") else Path(chosen) / kind
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "baloot" / kind


def _package_parts(path: Path) -> list[str]:
    """`conformance/harness/runner.py` -> ["conformance", "harness"] (its package)."""
    return list(path.resolve().relative_to(PACKAGE_ROOT).parent.parts)


def _module_file(parts: list[str]) -> Path | None:
    """The file of module `parts` inside the package (a package's `__init__.py`)."""
    base = PACKAGE_ROOT.joinpath(*parts)
    for found in (base.with_suffix(".py"), base / "__init__.py"):
        if found.is_file():
            return found
    return None


def _imported_files(path: Path) -> set[Path]:
    """The package's modules that `path` imports (at any level of its code)."""
    found: set[Path] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _package_parts(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)] if node.level > 1 else here
            elif node.module and node.module.split(".")[0] == PACKAGE_NAME:
                base = []
            else:
                continue
            module = [p for p in (node.module or "").split(".") if p]
            if not node.level:
                module = module[1:]  # without `baloot`
            parts = [*base, *module]
            for candidate in ([*parts], *([*parts, alias.name] for alias in node.names)):
                file = _module_file(candidate)
                if file is not None:
                    found.add(file)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                names = alias.name.split(".")
                if names[0] == PACKAGE_NAME and (file := _module_file(names[1:])) is not None:
                    found.add(file)
    return found


def import_closure(roots: list[Path]) -> list[Path]:
    """`roots` and every module of the package they import, directly or not, sorted."""
    seen: set[Path] = set()
    todo = [p.resolve() for p in roots]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(_imported_files(path) - seen)
    return sorted(seen)


def source_fingerprint(modules: list[Path], *, folders: tuple[Path, ...] = (),
                       files: tuple[Path, ...] = ()) -> str:
    """A hash of the source of `modules` and of the modules they import (`import_closure`),
    of every `*.py` in `folders`, and of `files`."""
    paths = set(import_closure(modules))
    paths.update(p.resolve() for folder in folders for p in folder.glob("*.py"))
    paths.update(p.resolve() for p in files)
    digest = hashlib.sha256()
    for path in sorted(paths):
        name = str(path.relative_to(PACKAGE_ROOT)) if path.is_relative_to(PACKAGE_ROOT) \
            else path.name
        digest.update(name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def register_part(register: Register) -> str:
    """The register's variants, readings and profiles, as one part of a key."""
    return json.dumps(
        [[[name, info.readings] for name, info in register.variants.items()],
         sorted((name, sorted(picks.items())) for name, picks in register.profiles.items())])


def key_of(*parts: str) -> str:
    """One key for the parts a result depends on, in order."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()


def _path(folder: Path, key: str) -> Path:
    return folder / key[:2] / f"{key}.json"


def load(folder: Path, key: str, fmt: int) -> dict[str, Any] | None:
    """The stored result of this key in format `fmt`, or None."""
    try:
        data = json.loads(_path(folder, key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("format") == fmt else None


def store(folder: Path, key: str, fmt: int, data: dict[str, Any]) -> None:
    """Keep a result (written whole, then renamed: a reader never sees half a file)."""
    path = _path(folder, key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps({"format": fmt, **data}), encoding="utf-8")
        partial.replace(path)
    except OSError:
        return  # a store that cannot be written is only slower
