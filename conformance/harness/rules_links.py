"""Links from a case's clauses to the rules document (`docs/rules.html`).

A failure report names the clause a case tests; the link takes the reader to
that clause in the rendered rules, its text and the rules that formalise it.
The document's path and each clause's anchor come from the register data file
(`spec_register.py`), which `baloot gen` writes with the renderer's own anchors.

The document ships with the package (`baloot/docs/rules.html`, beside the
rooms, as `docs/` is in a checkout). Where a link goes depends on who reads it:

- the console, read on the machine that ran the pack, links to the `file://`
  address of that shipped copy;
- a report file (`--json`, `--junit`) is read elsewhere (a CI artifact), where
  that address is dead. Its links go to the published document when the
  environment variable BALOOT_RULES_URL names one
  (`https://example.org/baloot/rules.html`), and otherwise to a copy of the
  document the report writes beside itself (`rules.html`, `RULES_COPY`), by a
  relative link (`rules.html#clause-SCORE-7`), so that the folder of reports,
  uploaded as it is, holds everything its links need.
"""

from __future__ import annotations

import os
import shutil
from functools import cache
from pathlib import Path

from .spec_register import clause_entries, rules_document

# The environment variable naming the rules document's address for the links.
RULES_URL_VARIABLE = "BALOOT_RULES_URL"
# The name of the copy of the rules document a report writes beside itself.
RULES_COPY = "rules.html"


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


def configured_url() -> str | None:
    """BALOOT_RULES_URL without its fragment, or None when it is unset or blank."""
    configured = os.environ.get(RULES_URL_VARIABLE, "").strip()
    return configured.split("#", 1)[0] if configured else None


def document_url() -> str:
    """The rules document's address for the console: BALOOT_RULES_URL when set, else the
    `file://` address of the shipped copy, else (no copy there) its path in the project."""
    configured = configured_url()
    if configured:
        return configured
    document = shipped_document()
    if document.is_file():
        return document.as_uri()
    return rules_document()


def document_beside(folder: Path) -> str:
    """The rules document's address for a report written in `folder`: BALOOT_RULES_URL
    when set; else `rules.html`, relative, once the shipped copy is copied there (an
    existing copy of the same size and age is left as it is); else, when the package
    ships no copy, `document_url()`. Raises OSError when the copy cannot be written."""
    configured = configured_url()
    if configured:
        return configured
    document = shipped_document()
    if not document.is_file():
        return document_url()
    target = folder / RULES_COPY
    if not _same_copy(document, target):
        shutil.copyfile(document, target)
    return RULES_COPY


def _same_copy(document: Path, target: Path) -> bool:
    """Whether `target` is `document`, or a copy of it this module wrote (same size, not
    older)."""
    try:
        if target.samefile(document):
            return True
        source, copy = document.stat(), target.stat()
    except OSError:
        return False
    return copy.st_size == source.st_size and copy.st_mtime >= source.st_mtime


def clause_link(clause_id: str, document: str | None = None) -> str:
    """The link to a clause: in `document` (an address from `document_beside`), else in
    `document_url()`."""
    return f"{document if document is not None else document_url()}#{clause_anchor(clause_id)}"
