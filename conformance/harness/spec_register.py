"""The spec's clause list and variant register, read from the data file `baloot gen` writes.

`conformance/cases/spec-register.json` (schema `spec-register`) holds every clause
ID with its family and its anchor in the rules document, every variant with its
readings, default and clauses, and every profile's readings. The harness reads
it here, once per process, so that running a pack needs neither the spec's
parser nor its text; `baloot gen --check` fails when the file no longer says
what the spec does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..protocol.schemas import schema_errors
from .pack import REGISTER_FILE, default_pack_folder


@dataclass(frozen=True)
class ClauseEntry:
    id: str  # SCORE.7
    family: str  # SCORE
    anchor: str  # clause-SCORE-7, in the rules document


class RegisterFileError(Exception):
    """The register data file is missing, not JSON, or breaks its schema; the
    message names the file."""


def register_file() -> Path:
    """The register data file of the built-in pack."""
    return default_pack_folder() / REGISTER_FILE


def read_register_data(path: Path) -> dict[str, Any]:
    """The register data in `path`, checked against its schema and for consistency
    (unique clause and variant IDs; defaults and profile picks among the readings)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RegisterFileError(f"{path}: cannot read the spec register ({exc.strerror}); "
                                "`baloot gen` writes it") from exc
    except ValueError as exc:
        raise RegisterFileError(f"{path}: not JSON: {exc}; `baloot gen` rewrites it") from exc
    problems = schema_errors("spec-register", data) or consistency_problems(data)
    if problems:
        raise RegisterFileError(f"{path}: not a valid spec register (`baloot gen` rewrites "
                                "it): " + "; ".join(problems[:5]))
    return dict(data)


def consistency_problems(data: dict[str, Any]) -> list[str]:
    """What a schema cannot say about a register: IDs are unique, and every default
    and profile pick names a variant and one of its readings."""
    problems = []
    for kind in ("clauses", "variants"):
        ids = [entry["id"] for entry in data[kind]]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        problems += [f"{kind}: {i} listed twice" for i in twice]
    readings = {variant["name"]: variant["readings"] for variant in data["variants"]}
    for variant in data["variants"]:
        if variant["default"] is not None and variant["default"] not in variant["readings"]:
            problems.append(f"variant {variant['name']}: default {variant['default']!r} "
                            "is none of its readings")
    for profile, picks in data["profiles"].items():
        for name, reading in picks.items():
            if reading not in readings.get(name, ()):
                problems.append(f"profile {profile}: {name}={reading} is no variant's reading")
    return problems


@cache
def register_data() -> dict[str, Any]:
    """The built-in pack's register data (read once per process)."""
    return read_register_data(register_file())


@cache
def clause_entries() -> tuple[ClauseEntry, ...]:
    """Every clause of the spec, in the spec's order."""
    return tuple(ClauseEntry(c["id"], c["family"], c["anchor"])
                 for c in register_data()["clauses"])


def rules_document() -> str:
    """The rules document's path in the project: `docs/rules.html`."""
    document: str = register_data()["document"]
    return document
