"""The rules document: `baloot spec render` writes docs/rules.html and docs/rules.md
from the spec model (`document.render`). `clause_anchor("SCORE.7")` is the link to a
clause, `docs/rules.html#clause-SCORE-7`, for reports that cite clauses."""

from .anchors import clause_anchor, clause_id_anchor

__all__ = ["clause_anchor", "clause_id_anchor"]
