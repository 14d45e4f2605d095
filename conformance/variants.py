"""The variant register, as the conformance tooling needs it: variant names,
their readings, and the profiles (a reading for every variant).

Read from the `.baloot` files of the spec package (`spec/variants.baloot`) by
a small line reader: the `variant`, `reading` and `profile` lines only.
Swap point: build `Register` from the spec model (`Variant`, `Profile`) once
the parser is in; nothing else in the conformance tooling reads spec text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

_VARIANT_RE = re.compile(r"^variant\s+(A\d+)\s+(\w+)")
_READING_RE = re.compile(r"^\s*reading\s+(\w+)")
_DEFAULT_RE = re.compile(r"^\s*default\s+(\w+)")
_PROFILE_RE = re.compile(r"^profile\s+(\w+)")
_PICK_RE = re.compile(r"^\s*(\w+)\s*=\s*(\w+)")


@dataclass
class VariantInfo:
    id: str  # A1 ... A22
    name: str
    readings: list[str] = field(default_factory=list)
    default: str | None = None


@dataclass
class Register:
    variants: dict[str, VariantInfo]  # by name
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


def parse_register(texts: list[str]) -> Register:
    variants: dict[str, VariantInfo] = {}
    profiles: dict[str, dict[str, str]] = {}
    current_variant: VariantInfo | None = None
    current_profile: dict[str, str] | None = None
    for text in texts:
        for line in text.splitlines():
            line = line.split("#", 1)[0].rstrip()
            if m := _VARIANT_RE.match(line):
                current_variant = VariantInfo(m.group(1), m.group(2))
                variants[current_variant.name] = current_variant
                current_profile = None
            elif m := _PROFILE_RE.match(line):
                current_profile = profiles.setdefault(m.group(1), {})
                current_variant = None
            elif current_variant is not None and (m := _READING_RE.match(line)):
                current_variant.readings.append(m.group(1))
            elif current_variant is not None and (m := _DEFAULT_RE.match(line)):
                current_variant.default = m.group(1)
            elif current_profile is not None and (m := _PICK_RE.match(line)):
                current_profile[m.group(1)] = m.group(2)
            elif line.startswith("}"):
                current_variant = None
                current_profile = None
    return Register(variants, profiles)


def _spec_texts() -> list[str]:
    folder = resources.files("baloot.spec")
    return [
        entry.read_text(encoding="utf-8")
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".baloot")
    ]


@cache
def load_register() -> Register:
    """The register of the installed spec package."""
    return parse_register(_spec_texts())


def register_from_folder(folder: Path) -> Register:
    return parse_register([p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.baloot"))])
