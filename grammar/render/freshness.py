"""`baloot spec render --check`: is the checked-in rules document what the spec renders now?

Every section is compared byte for byte, except the z3 results: they take a z3 run, and a
counterexample's values may differ from one z3 version to another. The rows of that
section (check, contract, result) are compared with a fresh `baloot verify` run by the
test suite instead (`proof_rows`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from baloot.grammar import model as m
from baloot.grammar.render import blocks as d
from baloot.grammar.render import html, markdown
from baloot.grammar.render.document import Options, build_document, default_out_dir

PROOFS = "proofs"  # the anchor of the section left out of the comparison


@dataclass(frozen=True)
class Stale:
    """A file of the document that differs from what the spec renders now."""

    path: Path
    line: int  # 1-based, in the file on disk; 0 when the file is missing
    expected: str
    found: str

    def render(self) -> str:
        if self.line == 0:
            return f"{self.path}: missing"
        return (f"{self.path}:{self.line}: differs from what the spec renders now\n"
                f"  expected: {_clip(self.expected)}\n"
                f"  found:    {_clip(self.found)}")


def _clip(line: str, width: int = 110) -> str:
    return line if len(line) <= width else line[:width] + " …"


FORMATS: tuple[tuple[str, Callable[[d.Document], str],
                     Callable[[d.Section], list[str]]], ...] = (
    ("rules.html", html.render_html, html.section_opening),
    ("rules.md", markdown.render_markdown, markdown.section_opening),
)


def stale_files(spec: m.Spec, out_dir: Path | None = None) -> list[Stale]:
    """The files of the document in `out_dir` (default docs/) that are missing or differ
    from a fresh rendering, z3 results aside; an empty list when all are up to date."""
    out_dir = out_dir or default_out_dir()
    document = build_document(spec, out_dir, Options(proofs="none"))
    index = [s.anchor for s in document.sections].index(PROOFS)
    proofs, after = document.sections[index], document.sections[index + 1]
    stale = []
    for name, render, opening in FORMATS:
        path = out_dir / name
        if not path.is_file():
            stale.append(Stale(path, 0, "", ""))
            continue
        fresh = render(document)
        found = path.read_text(encoding="utf-8")
        # a section's first line (its anchor) marks where it starts
        difference = _first_difference(fresh, found, opening(proofs)[0], opening(after)[0])
        if difference is not None:
            stale.append(Stale(path, *difference))
    return stale


def _first_difference(fresh: str, found: str, start: str, end: str
                      ) -> tuple[int, str, str] | None:
    """The first line where `found` differs from `fresh`, outside the span from `start` to
    `end` (the section not compared); None when they agree."""
    fresh_from, fresh_to = fresh.index(start), fresh.index(end)
    found_from, found_to = found.find(start), found.find(end)
    if found_from < 0 or found_to < found_from:  # the section is missing: compare it all
        return _line_difference(fresh.splitlines(), found.splitlines(), 0)
    head = _line_difference(fresh[:fresh_from].splitlines(),
                            found[:found_from].splitlines(), 0)
    if head is not None:
        return head
    return _line_difference(fresh[fresh_to:].splitlines(), found[found_to:].splitlines(),
                            found[:found_to].count("\n"))


def _line_difference(fresh: list[str], found: list[str], offset: int
                     ) -> tuple[int, str, str] | None:
    for number, (want, have) in enumerate(zip(fresh, found, strict=False), start=1):
        if want != have:
            return offset + number, want, have
    if len(fresh) == len(found):
        return None
    shorter = min(len(fresh), len(found))
    return (offset + shorter + 1, fresh[shorter] if shorter < len(fresh) else "(end of file)",
            found[shorter] if shorter < len(found) else "(end of file)")


_CELL = re.compile(r"(?<!\\)\|")  # a column bar; an escaped one (\\|) is text


def proof_rows(markdown_text: str) -> list[tuple[str, str, str]]:
    """(check, contract, result) of each row of the z3 results in rules.md, in order."""
    start = markdown_text.find(f'<a id="{PROOFS}"></a>')
    if start < 0:
        return []
    end = markdown_text.find('<a id="', start + 1)
    rows = []
    for line in markdown_text[start:end if end >= 0 else None].splitlines():
        cells = [c.strip() for c in _CELL.split(line)[1:-1]]
        if len(cells) == 7 and cells[0].startswith("`") and cells[4].startswith("**"):
            rows.append((cells[0].strip("`"), cells[2], cells[4].strip("*")))
    return rows
