"""The variant register, as the conformance tooling needs it: variant names,
their readings, and the profiles (a reading for every variant).

Built from the spec model (`Variant` and `Profile` declarations of
`spec/variants.baloot`, through `baloot.grammar.parser.load_spec`, cached).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from baloot.conformance.harness.spec_model import spec_model
from baloot.grammar.model import Spec


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


def register_from_spec(spec: Spec) -> Register:
    variants = {
        v.name: VariantInfo(
            v.id, v.name, list(v.reading_names), v.default, [c.clause for c in v.cites]
        )
        for v in spec.variants
    }
    profiles = {p.name: p.readings() for p in spec.profiles}
    return Register(variants, profiles)


@cache
def load_register() -> Register:
    """The register of the installed spec package."""
    return register_from_spec(spec_model())


def register_from_folder(folder: Path) -> Register:
    """The register of the spec in another folder."""
    return register_from_spec(spec_model(folder))
