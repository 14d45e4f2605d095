"""The spec text of a declaration, as written in its file.

A declaration runs from its first line to the line before the next
declaration of the same file, less the blank and comment lines at its end
(those introduce the next declaration). The model keeps each file's text.
"""

from __future__ import annotations

from pathlib import PurePath

from ...grammar import model as m


class Sources:
    """The spec's files, line by line, and where each declaration starts."""

    def __init__(self, spec: m.Spec) -> None:
        self._lines = {file: text.splitlines() for file, text in spec.sources}
        groups: tuple[tuple[m.Clause | m.Cited | m.Profile, ...], ...] = (
            spec.clauses, spec.enums, spec.records, spec.orders, spec.tables, spec.consts,
            spec.rules, spec.machines, spec.variants, spec.profiles,
        )
        starts: dict[str, set[int]] = {}
        for group in groups:
            for decl in group:
                starts.setdefault(decl.pos.file, set()).add(decl.pos.line)
        self._starts = {file: sorted(lines) for file, lines in starts.items()}

    def declaration_text(self, pos: m.Pos) -> str | None:
        """The text of the declaration that starts at `pos`, or None when unknown."""
        lines = self._lines.get(pos.file, [])
        if not 0 < pos.line <= len(lines):
            return None
        later = [line for line in self._starts.get(pos.file, []) if line > pos.line]
        end = (later[0] - 1) if later else len(lines)
        body = lines[pos.line - 1:end]
        while body and (not body[-1].strip() or body[-1].lstrip().startswith("#")):
            body.pop()
        return "\n".join(line.rstrip() for line in body)


def location(pos: m.Pos) -> str:
    """`spec/cards.baloot, line 12`, whatever folder the spec was loaded from."""
    return f"spec/{PurePath(pos.file).name}, line {pos.line}"
