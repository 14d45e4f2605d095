"""The spec, its live reference engine and every spec mutant, shared by the spec-wide
mutation tests (built once per module); and `mutant_lookup` made importable (tests/ has no
packages)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from baloot.conformance.harness.pack import Case
from baloot.conformance.mutants.live import LiveSpec
from baloot.conformance.mutants.operators import SpecMutant, spec_mutants
from baloot.conformance.mutants.run import load_cases
from baloot.conformance.pack_tools.spec_model import spec_model
from baloot.grammar import model as m

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="module")
def spec() -> m.Spec:
    return spec_model()


@pytest.fixture(scope="module")
def live(spec: m.Spec) -> LiveSpec:
    return LiveSpec(spec)


@pytest.fixture(scope="module")
def mutants(spec: m.Spec) -> dict[str, SpecMutant]:
    return {mut.id: mut for mut in spec_mutants(spec)}


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    """The pack's cases of the top-level files and the game-target boundaries: enough to
    reach every rule these tests mutate, and quick to run on the reference first."""
    kept = ("bidding.json", "play.json", "projects.json", "scoring.json",
            "boundaries/game_target.json")
    chosen = [c for c in load_cases()[1] if c.file.replace("\\", "/").endswith(kept)]
    assert len(chosen) > 100
    return chosen
