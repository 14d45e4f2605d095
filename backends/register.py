"""The spec's clause list and variant register, as data for the conformance harness.

`baloot gen` writes `register_text(spec)` into the built-in case pack
(`conformance/cases/spec-register.json`, schema `conformance/schema/spec-register.json`)
and `baloot gen --check` compares it, so the harness learns the clause IDs, the
variants with their readings and the profiles (each choice with its evidence status and
sources) without parsing the spec: running a
pack needs neither the spec's parser nor its text. Each clause carries its anchor
in the rules document (`render.anchors`), from which the harness links a failing
case to its clause.
"""

from __future__ import annotations

import difflib
import importlib.util
import json
from pathlib import Path
from typing import Any

from ..grammar import model as m
from .document.anchors import DOCUMENT, clause_id_anchor

REGISTER_FORMAT = 1  # changes when a field is removed or changes meaning
GENERATED_BY = "baloot gen"
REGISTER_FILE = "spec-register.json"  # the name the harness reads (harness/pack.py)
PACK_PACKAGE = "baloot.conformance"  # the built-in pack is its `cases/` folder


def register_data(spec: m.Spec) -> dict[str, Any]:
    """The clauses, variants and profiles of `spec`, in the spec's order."""
    return {
        "format": REGISTER_FORMAT,
        "generated_by": GENERATED_BY,
        "document": DOCUMENT,
        "clauses": [
            {"id": clause.id, "family": clause.family, "anchor": clause_id_anchor(clause.id)}
            for clause in spec.clauses
        ],
        "variants": [
            {
                "id": variant.id,
                "name": variant.name,
                "readings": list(variant.reading_names),
                "default": variant.default,
                "clauses": [cite.clause for cite in variant.cites],
            }
            for variant in spec.variants
        ],
        "profiles": {profile.name: profile.readings() for profile in spec.profiles},
        "evidence": {profile.name: {pick.variant: pick_evidence(pick) for pick in profile.picks}
                     for profile in spec.profiles if profile.sourced},
    }


def pick_evidence(pick: m.Pick) -> dict[str, Any]:
    """A profile's choice held against its sources: its status (confirmed, contested or
    unsourced), the sources for it, those against it with the reading each supports
    (null where the register has none yet), where they disagree, or why none decides."""
    return {
        "status": pick.status,
        "for": list(pick.sources),
        "against": [{"reading": a.reading, "source": a.source} for a in pick.against],
        "disagree": pick.settled,
        "unsourced": pick.unsourced,
    }


def register_text(spec: m.Spec) -> str:
    """`register_data(spec)` as the file holds it: UTF-8 JSON, indent 1, a final newline."""
    return json.dumps(register_data(spec), indent=1, ensure_ascii=False) + "\n"


def default_register_folder() -> Path:
    """The built-in case pack's folder (`conformance/cases/`), found without importing
    the conformance package."""
    found = importlib.util.find_spec(PACK_PACKAGE)
    if found is None or not found.submodule_search_locations:
        raise FileNotFoundError(f"no package {PACK_PACKAGE} to hold {REGISTER_FILE}")
    return Path(next(iter(found.submodule_search_locations))) / "cases"


def register_differences(path: Path, text: str) -> list[str]:
    """How the register data file at `path` differs from `text` (empty when equal)."""
    if not path.exists():
        return [f"{path.name}: missing (the spec generates it)"]
    current = path.read_text(encoding="utf-8")
    if current == text:
        return []
    diff = list(difflib.unified_diff(current.splitlines(), text.splitlines(),
                                     f"checked-in {path.name}", f"generated {path.name}",
                                     lineterm="", n=1))
    shown = "\n".join(diff[:40]) + ("\n..." if len(diff) > 40 else "")
    return [f"{path.name}: differs from what the spec generates\n{shown}"]


def write_register(path: Path, text: str) -> bool:
    """Write the register data file when it differs; True when it was written."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True
