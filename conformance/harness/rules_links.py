"""Links from a case's clauses to the rules document (`docs/rules.html`).

A failure report names the clause a case tests; the link takes the reader to
that clause in the rendered rules, its text and the rules that formalise it.
The document's path and each clause's anchor come from the register data file
(`spec_register.py`), which `baloot gen` writes with the renderer's own anchors.
Where the document is in the project next to this package (a checkout), the
link is a `file://` address that opens it; otherwise it is the document's
path in the project, with the anchor.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from baloot.conformance.harness.spec_register import clause_entries, rules_document


@cache
def _anchors() -> dict[str, str]:
    return {clause.id: clause.anchor for clause in clause_entries()}


def clause_anchor(clause_id: str) -> str:
    """`SCORE.7` -> `clause-SCORE-7`, the clause's anchor in the rules document."""
    anchor = _anchors().get(clause_id)
    if anchor is None:
        raise ValueError(f"no clause {clause_id} in the spec register")
    return anchor


def clause_link(clause_id: str) -> str:
    document = Path(__file__).resolve().parents[2] / rules_document()
    anchor = clause_anchor(clause_id)
    if document.is_file():
        return f"{document.as_uri()}#{anchor}"
    return f"{rules_document()}#{anchor}"
