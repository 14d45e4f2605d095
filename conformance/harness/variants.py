"""The variant register, as the conformance tooling needs it: variant names,
their readings, and the profiles (a reading for every variant).

Read from the register data file `baloot gen` writes from the spec's `variant`
and `profile` declarations (`spec_register.py`), so the harness needs no spec
parser; `pack_tools/spec_model.py` builds one from another spec folder.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .spec_register import register_data


@dataclass
class VariantInfo:
    id: str  # A1 ... A22
    name: str
    readings: list[str] = field(default_factory=list)
    default: str | None = None
    clauses: list[str] = field(default_factory=list)  # the clauses the variant concerns


@dataclass
class Register:
    variants: dict[str, VariantInfo]  # by name, in the spec's order
    profiles: dict[str, dict[str, str]]  # profile -> variant name -> reading

    def variant(self, key: str) -> VariantInfo | None:
        """A variant by name (`rounding`) or by ambiguity ID (`A5`)."""
        if key in self.variants:
            return self.variants[key]
        for info in self.variants.values():
            if info.id == key:
                return info
        return None

    def readings_of(self, profile: str) -> dict[str, str]:
        return dict(self.profiles[profile])

    def moved_off(self, profile: str, moves: int, rng: random.Random) -> dict[str, str]:
        """`moves` variants drawn at random (in the register's order), each moved off the
        profile's reading to another of its readings drawn at random."""
        base = self.readings_of(profile)
        names = list(self.variants)
        moved = {}
        for variant in sorted(rng.sample(names, min(moves, len(names))), key=names.index):
            others = [r for r in self.variants[variant].readings if r != base[variant]]
            moved[variant] = rng.choice(others)
        return moved


def register_from_data(data: dict[str, Any]) -> Register:
    """The register of a spec-register data object (checked by `spec_register`)."""
    variants = {
        v["name"]: VariantInfo(v["id"], v["name"], list(v["readings"]), v["default"],
                               list(v["clauses"]))
        for v in data["variants"]
    }
    profiles = {name: dict(picks) for name, picks in data["profiles"].items()}
    return Register(variants, profiles)


@cache
def load_register() -> Register:
    """The register of the installed spec package, as `baloot gen` wrote it."""
    return register_from_data(register_data())
