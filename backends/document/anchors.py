"""Stable anchors of the rules document, and links to them.

Every clause, declaration and variant of the spec has an anchor that depends
on its ID or name only, so links from elsewhere (the conformance runner's
failure reports, the README) keep working as the document grows.
"""

from __future__ import annotations

from ...grammar import model as m

DOCUMENT = "docs/rules.html"


def clause_id_anchor(clause_id: str) -> str:
    """`SCORE.7` -> `clause-SCORE-7`."""
    return "clause-" + clause_id.replace(".", "-")


def clause_anchor(clause_id: str) -> str:
    """The link to a clause in the rules document, relative to the project root:
    `docs/rules.html#clause-SCORE-7`."""
    return f"{DOCUMENT}#{clause_id_anchor(clause_id)}"


def variant_anchor(variant_id: str) -> str:
    """`A5` -> `variant-A5`."""
    return f"variant-{variant_id}"


def reading_anchor(variant_id: str, reading: str) -> str:
    return f"variant-{variant_id}-{reading}"


def profile_anchor(name: str) -> str:
    return f"profile-{name}"


def decl_kind(decl: m.Cited) -> str:
    """What a declaration is, in one lowercase word: rule, table, order ..."""
    return type(decl).__name__.lower()


def decl_anchor(decl: m.Cited) -> str:
    """`rule-card_value`, `table-sun_card_value`, `machine-bidding`, `variant-A5` ..."""
    if isinstance(decl, m.Variant):
        return variant_anchor(decl.id)
    return f"{decl_kind(decl)}-{decl.name}"


def rule_anchor(name: str) -> str:
    return f"rule-{name}"


def machine_anchor(name: str) -> str:
    return f"machine-{name}"


def state_anchor(machine: str, state: str) -> str:
    return f"state-{machine}-{state}"


def case_anchor(case_id: str) -> str:
    """`bid.legal.first-bidder` -> `case-bid.legal.first-bidder` (its row in the index of
    conformance cases)."""
    return f"case-{case_id}"
