"""Links from a case's clauses to the rules document (`docs/rules.html`).

A failure report names the clause a case tests; the link takes the reader to
that clause in the rendered rules, its text and the rules that formalise it.
Where the document is in the project next to this package (a checkout), the
link is a `file://` address that opens it; otherwise it is the document's
path in the project, with the anchor.
"""

from __future__ import annotations

from pathlib import Path

from baloot.grammar.render.anchors import DOCUMENT, clause_anchor, clause_id_anchor


def clause_link(clause_id: str) -> str:
    document = Path(__file__).resolve().parents[2] / DOCUMENT
    if document.is_file():
        return f"{document.as_uri()}#{clause_id_anchor(clause_id)}"
    return clause_anchor(clause_id)
