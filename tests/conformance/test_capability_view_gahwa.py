"""Without `raise_gahwa`, a four ends the raising (RAISE.1): the bidder's turn to call
gahwa, and the pass that answers it, is not expected of such an engine."""

from __future__ import annotations

from baloot.conformance.harness.declared import CAPABILITIES
from baloot.conformance.protocol.capability_view import CapabilityView

LADDER = [{"seat": 1, "action": "double"}, {"seat": 0, "action": "triple"},
          {"seat": 1, "action": "four"}, {"seat": 0, "action": "pass"}]


def test_the_pass_answering_a_four_is_not_expected_without_gahwa() -> None:
    without = CapabilityView([c for c in CAPABILITIES if c != "raise_gahwa"])
    assert without.state({"raises": LADDER, "phase": "playing"}) == {
        "raises": LADDER[:3], "phase": "playing"}


def test_every_pass_is_expected_of_an_engine_with_gahwa() -> None:
    assert CapabilityView(None).state({"raises": LADDER}) == {"raises": LADDER}
    # a pass that answers a double (no four before it) stays expected without gahwa too
    short = [{"seat": 1, "action": "double"}, {"seat": 0, "action": "pass"}]
    without = CapabilityView([c for c in CAPABILITIES if c != "raise_gahwa"])
    assert without.state({"raises": short}) == {"raises": short}
