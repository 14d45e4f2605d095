"""Links from a case's clauses to the rules document (`docs/rules.html`).

A failure report names the clause a case tests; the link takes the reader to
that clause in the rendered rules, its text and the rules that formalise it.
The document's path and each clause's anchor come from the register data file
(`spec_register.py`), which `baloot gen` writes with the renderer's own anchors.

The document ships with the package (`baloot/docs/rules.html`, beside the
rooms, as `docs/` is in a checkout), so by default a link is the `file://`
address of that copy, which opens wherever the package is installed. A report
read on another machine (a CI artefact) wants a published copy instead: the
environment variable BALOOT_RULES_URL names the document's address
(`https://example.org/baloot/rules.html`), and every link is that address with
the clause's anchor.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from .spec_register import clause_entries, rules_document

# The environment variable naming the rules document's address for the links.
RULES_URL_VARIABLE = "BALOOT_RULES_URL"


@cache
def _anchors() -> dict[str, str]:
    return {clause.id: clause.anchor for clause in clause_entries()}


def clause_anchor(clause_id: str) -> str:
    """`SCORE.7` -> `clause-SCORE-7`, the clause's anchor in the rules document."""
    anchor = _anchors().get(clause_id)
    if anchor is None:
        raise ValueError(f"no clause {clause_id} in the spec register")
    return anchor


def shipped_document() -> Path:
    """The rules document beside the package's rooms: the checkout's docs/rules.html, or
    the copy an installed package ships."""
    return Path(__file__).resolve().parents[2] / rules_document()


def document_url() -> str:
    """The rules document's address: BALOOT_RULES_URL when set, else the `file://`
    address of the shipped copy, else (no copy there) its path in the project."""
    configured = os.environ.get(RULES_URL_VARIABLE, "").strip()
    if configured:
        return configured.split("#", 1)[0]
    document = shipped_document()
    if document.is_file():
        return document.as_uri()
    return rules_document()


def clause_link(clause_id: str) -> str:
    return f"{document_url()}#{clause_anchor(clause_id)}"
