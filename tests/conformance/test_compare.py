"""Comparing expectations with replies: subsets, sets by nature, and the extra
fields the protocol lets an engine add at any depth."""

from __future__ import annotations

from baloot.conformance.harness.compare import subset_matches


def test_extra_fields_inside_nested_objects_and_list_items_are_ignored() -> None:
    expected = {
        "contract": {"kind": "hokum", "trump": "H", "bidder": 0},
        "projects": [[{"seat": 0, "kind": "sira", "cards": ["9H", "8H", "7H"]}], []],
        "raises": [{"seat": 1, "action": "pass"}],
    }
    actual = {
        "contract": {"kind": "hokum", "trump": "H", "bidder": 0, "caller": 0},
        "projects": [[{"seat": 0, "kind": "sira", "cards": ["7H", "9H", "8H"], "value": 20}],
                     []],
        "raises": [{"seat": 1, "action": "pass", "at": "12:00"}],
        "engine_note": "anything",
    }
    assert subset_matches(actual, expected)


def test_lists_are_still_compared_whole() -> None:
    expected = {"raises": [{"seat": 1, "action": "pass"}], "trick_winners": [0, 2]}
    assert not subset_matches({"raises": [], "trick_winners": [0, 2]}, expected)
    assert not subset_matches(
        {"raises": [{"seat": 3, "action": "pass", "x": 1}], "trick_winners": [0, 2]}, expected
    )
    assert not subset_matches(
        {"raises": [{"seat": 1, "action": "pass"}], "trick_winners": [2, 0]}, expected
    )
    # a project's cards are a set; the teams' projects are not
    project = {"seat": 0, "kind": "sira", "cards": ["9H", "8H", "7H"]}
    assert not subset_matches({"projects": [[], [project]]}, {"projects": [[project], []]})
