"""Where the protocol's JSON Schemas are read from: `conformance/schema/`, or for a while
another folder (`reading_from`: a test's copy of the schemas with a field added). The
schemas (`schemas.py`) and the field lists (`fields.py`) both read them here, each keeping
what it derives per folder, so that both follow a change of folder together."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

SCHEMA_FOLDER: Traversable = resources.files("baloot.conformance") / "schema"
_folders: list[Traversable] = [SCHEMA_FOLDER]  # the folder read now is the last


def folder() -> str:
    """The folder the schemas are read from now (a key for what is derived from them)."""
    return str(_folders[-1])


def loaded() -> dict[str, dict[str, Any]]:
    """Every schema of the folder read now, by name (`state.reply`, `common`, ...)."""
    key = folder()
    known = _READ.get(key)
    if known is None:
        known = _READ[key] = {
            entry.name.removesuffix(".json"): json.loads(entry.read_text(encoding="utf-8"))
            for entry in _folders[-1].iterdir() if entry.name.endswith(".json")
        }
    return known


_READ: dict[str, dict[str, dict[str, Any]]] = {}  # folder -> its schemas, read once


@contextmanager
def reading_from(where: Path | Traversable) -> Iterator[None]:
    """Read the schemas from `where` inside the block (its files named as in
    `conformance/schema/`), and from where they were read before after it."""
    _folders.append(where)
    try:
        yield
    finally:
        _folders.pop()
