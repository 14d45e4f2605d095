"""The verdicts of `baloot conform pins`, kept between runs: a case is played again only
when it, the readings register or the code that plays it has changed.

Each case's `CaseCheck` (every run's verdict and message) is stored as JSON under a
key that hashes everything its runs depend on: the case as loaded (every field), the
profiles checked and the register's variants and profiles, and the source of the
reference engine, the harness that runs the case (and the protocol's schemas), the
in-process adapters and the pins check itself. A change to any of them is another
key, so a kept verdict is the one a fresh run would give.

The folder is `$BALOOT_CACHE_DIR/pins`, else `$XDG_CACHE_HOME/baloot/pins`, else
`~/.cache/baloot/pins`, never inside the package; `BALOOT_CACHE_DIR=off` keeps nothing.
A file that cannot be read is a miss, and is written again.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from ... import reference_impl as engine_package
from ..adapters import inprocess as inprocess_module
from ..harness import runner as runner_module
from ..harness.pack import Case
from ..harness.variants import Register

FORMAT = 1  # of the stored checks


def cache_folder() -> Path | None:
    """Where the checks are kept; None when keeping is off."""
    chosen = os.environ.get("BALOOT_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "0", "no") else Path(chosen) / "pins"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "baloot" / "pins"


@cache
def code_fingerprint() -> str:
    """A hash of the source of every module a case's runs go through."""
    folders = [Path(engine_package.__file__).parent, Path(runner_module.__file__).parent,
               Path(inprocess_module.__file__).parent]
    files = sorted(p for folder in folders for p in folder.glob("*.py"))
    files += sorted(Path(__file__).parent.glob("pins*.py"))
    files += sorted((Path(runner_module.__file__).parent.parent / "schema").glob("*.json"))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def check_key(case: Case, register: Register, profiles: list[str]) -> str:
    """The key of a case's check: its content, the register, the profiles, the code."""
    register_part = json.dumps(
        [[[name, info.readings] for name, info in register.variants.items()],
         sorted((name, sorted(picks.items())) for name, picks in register.profiles.items())])
    digest = hashlib.sha256()
    for part in (str(FORMAT), code_fingerprint(), register_part, json.dumps(profiles),
                 repr(case)):
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()


def _path(folder: Path, key: str) -> Path:
    return folder / key[:2] / f"{key}.json"


def load(folder: Path, key: str) -> dict[str, Any] | None:
    """The stored check of this key, or None."""
    try:
        data = json.loads(_path(folder, key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("format") == FORMAT else None


def store(folder: Path, key: str, data: dict[str, Any]) -> None:
    """Keep a check (written whole, then renamed: a reader never sees half a file)."""
    path = _path(folder, key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps({"format": FORMAT, **data}), encoding="utf-8")
        partial.replace(path)
    except OSError:
        return  # a cache that cannot be written is only slower
