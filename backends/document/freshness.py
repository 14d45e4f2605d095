"""`baloot spec render --check`: is the checked-in rules document what the spec and the
stored results (worked examples, witnesses, proof outcomes) and the pack's cases render
now?

Every section is compared, line for line: the renderer reads only the spec and
files that regenerate byte for byte, so the document does too. `proof_rows`
reads back the rows of the z3 results, for the tests that compare them with a
fresh `baloot verify` run."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...grammar import model as m
from . import blocks as d
from . import html, markdown
from .document import Options, build_document, default_out_dir

PROOFS = "proofs"  # the anchor of the z3 results section


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
        start = _first_differing_column(self.expected, self.found)
        return (f"{self.path}:{self.line}: differs from what the spec renders now\n"
                f"  expected: {_clip(self.expected, start)}\n"
                f"  found:    {_clip(self.found, start)}")


def _first_differing_column(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                min(len(a), len(b)))


def _clip(line: str, column: int, width: int = 110) -> str:
    """The part of a long line around `column` (where it differs), at most `width` long."""
    start = max(0, min(column - width // 3, len(line) - width))
    head = "… " if start > 0 else ""
    tail = " …" if start + width < len(line) else ""
    return head + line[start:start + width] + tail


FORMATS: tuple[tuple[str, Callable[[d.Document], str]], ...] = (
    ("rules.html", html.render_html),
    ("rules.md", markdown.render_markdown),
)


def stale_files(spec: m.Spec, out_dir: Path | None = None,
                pack: Path | None = None) -> list[Stale]:
    """The files of the document in `out_dir` (default docs/) that are missing or differ
    from a fresh rendering (of the cases in `pack`, default conformance/cases); an empty
    list when all are up to date."""
    out_dir = out_dir or default_out_dir()
    document = build_document(spec, out_dir, Options(pack=pack))
    stale = []
    for name, render in FORMATS:
        path = out_dir / name
        if not path.is_file():
            stale.append(Stale(path, 0, "", ""))
            continue
        difference = _line_difference(render(document).splitlines(),
                                      path.read_text(encoding="utf-8").splitlines())
        if difference is not None:
            stale.append(Stale(path, *difference))
    return stale


def _line_difference(fresh: list[str], found: list[str]) -> tuple[int, str, str] | None:
    """The first line (1-based) where `found` differs from `fresh`, and both lines."""
    for number, (want, have) in enumerate(zip(fresh, found, strict=False), start=1):
        if want != have:
            return number, want, have
    if len(fresh) == len(found):
        return None
    shorter = min(len(fresh), len(found))
    return (shorter + 1, fresh[shorter] if shorter < len(fresh) else "(end of file)",
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
