"""Errors in a spec, each pointing at a file, line and column."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .model import Pos


@dataclass(frozen=True)
class SpecProblem:
    """One thing wrong with a spec: where, what, and what was expected there."""

    pos: Pos
    message: str
    expected: str
    source_line: str | None = None

    def render(self) -> str:
        lines = [f"{self.pos}: error: {self.message}"]
        if self.source_line is not None:
            gutter = f"{self.pos.line:>5} | "
            lines.append(gutter + self.source_line.rstrip("\n"))
            caret_pad = " " * (len(gutter) - 2) + "| " + _caret_prefix(self.source_line, self.pos)
            lines.append(caret_pad + "^")
        lines.append(f"      expected: {self.expected}")
        return "\n".join(lines)


def _caret_prefix(line: str, pos: Pos) -> str:
    """Blank space up to the column, keeping tabs so the caret lines up."""
    head = line[: max(pos.column - 1, 0)]
    return "".join("\t" if ch == "\t" else " " for ch in head)


class SpecError(Exception):
    """A spec that does not parse or does not pass the semantic checks."""

    def __init__(self, problems: Iterable[SpecProblem]) -> None:
        self.problems = tuple(
            sorted(problems, key=lambda p: (p.pos.file, p.pos.line, p.pos.column)))
        super().__init__(self.render())

    def render(self) -> str:
        count = len(self.problems)
        body = "\n\n".join(p.render() for p in self.problems)
        return f"{body}\n\n{count} error{'s' if count != 1 else ''} in the spec"
