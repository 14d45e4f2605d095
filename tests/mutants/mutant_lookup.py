"""Finding one spec mutant by the start of its id and its description, for the tests."""

from __future__ import annotations

from baloot.conformance.mutants.operators import SpecMutant


def one(mutants: dict[str, SpecMutant], prefix: str, description: str) -> SpecMutant:
    """The one mutant whose id starts with `prefix` and that makes the change described."""
    found = [mut for i, mut in mutants.items() if i.startswith(prefix)
             and mut.description == description]
    assert len(found) == 1, (prefix, description, [f.id for f in found])
    return found[0]
