"""The conformance cases that test each clause, read from the pack as data.

The pack is a folder of JSON case files (conformance/cases: every `*.json` at any
depth but the top `pack.json` and `spec-register.json`); each case has an `id`, a
`kind`, a `title`, the `clauses` it cites and, optionally, its `origin`. The
renderer reads only those fields, with the standard library: it does not import
the harness. Regression snapshots (`"origin": "regression_snapshot"`, the golden
playthroughs recorded from the reference engine) are listed apart, as
`baloot conform coverage` counts them apart.

Each clause of the document lists the cases citing it (folded in HTML when there
are many), and the index of cases at the end gives each case an anchor
(`#case-ID`) with its file and its clauses, linked back. A case file that cannot
be read, or a case without those fields, is a `StoredFileError`; a missing pack
folder is for the document to mention.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ...grammar import model as m
from . import anchors as a
from . import blocks as d
from .stored import Fields, StoredFileError

PACK = Path("conformance/cases")
TOP_FILES = ("pack.json", "spec-register.json")  # data beside the cases, not case files
LINT = "baloot conform lint"
SNAPSHOT = "regression_snapshot"
ORIGINS = {"hand_worked": "worked out", SNAPSHOT: "regression snapshot",
           "witness": "witness (explorer)", "synthesised": "synthesised (spec mutant)"}
FOLD_OVER = 8  # a clause with more cases than this shows a count and folds the list


@dataclass(frozen=True)
class PackCase:
    id: str
    kind: str
    title: str
    clauses: tuple[str, ...]
    file: str  # the case file, relative to the pack folder, with forward slashes
    origin: str  # hand_worked, regression_snapshot or witness

    @property
    def snapshot(self) -> bool:
        return self.origin == SNAPSHOT


@dataclass(frozen=True)
class Pack:
    folder: Path
    cases: tuple[PackCase, ...]  # by file (sorted), then in the file's order

    def citing(self, clause_id: str) -> tuple[list[str], list[str]]:
        """The ids of the cases citing `clause_id`, sorted: those that count, and the
        regression snapshots."""
        found = [c for c in self.cases if clause_id in c.clauses]
        return (sorted(c.id for c in found if not c.snapshot),
                sorted(c.id for c in found if c.snapshot))

    def files(self) -> list[str]:
        return list(dict.fromkeys(c.file for c in self.cases))


def case_files(folder: Path) -> list[Path]:
    """The case files of the pack folder, sorted."""
    top = {folder / name for name in TOP_FILES}
    return sorted(p for p in folder.rglob("*.json") if p not in top)


def _case(f: Fields, file: str) -> PackCase:
    origin = f.data.get("origin", "hand_worked")
    if origin not in ORIGINS:
        raise StoredFileError(f"{f.where}: unknown origin {origin!r} (expected one of "
                              f"{', '.join(ORIGINS)}); run `{LINT}`")
    return PackCase(f.text("id"), f.text("kind"), f.text("title"), tuple(f.texts("clauses")),
                    file, str(origin))


def read_pack(folder: Path) -> Pack | None:
    """The cases of the pack in `folder`, or None when there is no such folder."""
    if not folder.is_dir():
        return None
    cases: list[PackCase] = []
    seen: dict[str, str] = {}
    for path in case_files(folder):
        label = path.relative_to(folder).as_posix()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as err:
            raise StoredFileError(f"{path}: not a readable case file ({err}); "
                                  f"run `{LINT}`") from err
        for case in Fields(data, str(path)).each("cases"):
            found = _case(case, label)
            if found.id in seen:
                raise StoredFileError(f"{path}: case {found.id!r} is also in {seen[found.id]}; "
                                      f"run `{LINT}`")
            seen[found.id] = label
            cases.append(found)
    return Pack(folder, tuple(cases))


# ------------------------------------------------------------------ blocks --


def case_link(case_id: str) -> d.Link:
    return d.Link(case_id, "#" + a.case_anchor(case_id), code=True)


def _links(ids: Iterable[str]) -> d.Inlines:
    return d.joined([case_link(c) for c in ids])


def clause_cases(pack: Pack, clause_id: str) -> d.Box:
    """The cases citing one clause: those that count, then the regression snapshots apart;
    with more than `FOLD_OVER`, a count and the list folded (in HTML)."""
    counted, snapshots = pack.citing(clause_id)
    blocks: list[d.Block] = []
    if counted:
        blocks.append(d.Para((d.Em(f"Tested by {len(counted)} case(s): "), *_links(counted))))
    else:
        blocks.append(d.Para((d.Em("Tested by no case of the pack "
                                   "(regression snapshots aside)." if snapshots else
                                   "Tested by no case of the pack."),)))
    if snapshots:
        blocks.append(d.Box(None, "snapshots", (d.Para((
            d.Em(f"Regression snapshots ({len(snapshots)}, recorded from the reference engine, "
                 "not counted): "), *_links(snapshots))),)))
    if len(counted) + len(snapshots) <= FOLD_OVER:
        return d.Box(None, "cases", tuple(blocks))
    summary = f"Tested by {len(counted)} cases" + (
        f", and {len(snapshots)} regression snapshot(s)" if snapshots else "")
    return d.Box(None, "cases", (d.Details(summary, tuple(blocks), plain_markdown=True),))


def _clause_cell(spec: m.Spec, ids: Iterable[str]) -> d.Inlines:
    known = {c.id for c in spec.clauses}
    return d.joined([d.Link(c, "#" + a.clause_id_anchor(c)) if c in known else d.Code(c)
                     for c in ids])


def cases_section(spec: m.Spec, pack: Pack | None, where: str,
                  file_href: dict[str, str]) -> d.Section:
    """The index of the pack's cases, by file: each case's anchor, kind, origin, title and
    clauses. `where` names the pack folder; `file_href` links each case file."""
    title = "Index of conformance cases"
    if pack is None:
        return d.Section("cases", title, (d.Note(d.inlines(
            f"No pack of conformance cases at {where}: the clauses list no cases.")),))
    snapshots = sum(1 for c in pack.cases if c.snapshot)
    blocks: list[d.Block] = [d.Para(d.inlines(
        f"The {len(pack.cases)} cases of the pack ({where}, read as data), by file, with the "
        f"clauses each cites; {snapshots} are regression snapshots (golden playthroughs "
        "recorded from the reference engine), which `baloot conform coverage` does not "
        "count. `baloot conform` runs them against an engine. Anchors are #case-ID."))]
    for file in pack.files():
        rows = [c for c in pack.cases if c.file == file]
        heading: d.Inline = d.Link(file, file_href[file], code=True) if file in file_href \
            else d.Code(file)
        blocks.append(d.Heading(2, (heading, d.Str(f" ({len(rows)})"))))
        blocks.append(d.Table(
            (d.inlines("case"), d.inlines("kind"), d.inlines("origin"), d.inlines("title"),
             d.inlines("clauses")),
            tuple(((d.Code(c.id),), d.inlines(c.kind), (d.Strong(ORIGINS[c.origin]),)
                   if c.snapshot else d.inlines(ORIGINS[c.origin]), (d.Str(c.title),),
                   _clause_cell(spec, c.clauses)) for c in rows),
            anchors=tuple(a.case_anchor(c.id) for c in rows)))
    return d.Section("cases", title, tuple(blocks))
