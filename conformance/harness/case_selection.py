"""Which cases of a pack a run takes, and which it skips.

`--only ID|GLOB` (and the pytest plugin's `--baloot-only`) keeps a case whose
id is one of them, matches an id glob, or cites a clause matching a clause glob
(`SCORE.*`). `--skip ID|GLOB` (`--baloot-skip`) and the lines of a skip file
(`--skip-file FILE`: `ID|GLOB REASON`, `#` comments) match the same way; the
cases they match are reported as skipped ("skipped by the user"), not run. A
skip that matches no case of the pack is an error: it is a typo, or names a
case the pack no longer has.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .clauses import matches_clause_glob
from .pack import Case, Pack
from .xfail import read_reason_lines

# The reason of a case skipped by --skip or a skip file (CaseOutcome.reason).
USER_SKIP = "skipped by the user"


class SkipFileError(ValueError):
    pass


def case_matches(case: Case, pattern: str) -> bool:
    """Whether `pattern` (an id, an id glob or a clause glob) names the case."""
    return (
        case.id == pattern
        or fnmatch.fnmatchcase(case.id, pattern)
        or matches_clause_glob(case.clauses, pattern)
    )


def select_cases(pack: Pack, only: list[str]) -> list[Case]:
    """The pack's cases that `only` names (every case when `only` is empty)."""
    if not only:
        return list(pack.cases)
    return [case for case in pack.cases if any(case_matches(case, p) for p in only)]


@dataclass(frozen=True)
class SkipEntry:
    """One `--skip` pattern, or one line of a skip file (`where` says which)."""

    pattern: str
    reason: str
    where: str

    @property
    def message(self) -> str:
        if not self.reason:
            return USER_SKIP
        return f"{USER_SKIP}: {self.reason} ({self.where})"


class SkipList:
    def __init__(self, entries: Sequence[SkipEntry] = ()) -> None:
        self.entries = tuple(entries)

    @classmethod
    def from_patterns(cls, patterns: Sequence[str]) -> SkipList:
        return cls([SkipEntry(p, "", f"--skip {p}") for p in patterns])

    def __len__(self) -> int:
        return len(self.entries)

    def __add__(self, other: SkipList) -> SkipList:
        return SkipList(self.entries + other.entries)

    def entry_for(self, case: Case) -> SkipEntry | None:
        return next((e for e in self.entries if case_matches(case, e.pattern)), None)

    def problems(self, pack: Pack) -> list[str]:
        """A message for each pattern that matches no case of the pack."""
        return [
            f"{e.where}: matches no case of the pack {pack.name} {pack.version} "
            "(by id, id glob or clause glob)"
            for e in self.entries
            if not any(case_matches(case, e.pattern) for case in pack.cases)
        ]


def read_skip_file(path: Path) -> SkipList:
    """The lines of a skip file (`ID|GLOB REASON`); a problem raises SkipFileError
    naming the file and the line."""
    lines = read_reason_lines(path, "ID|GLOB", SkipFileError)
    return SkipList([SkipEntry(key, reason, f"{path}:{n}") for n, key, reason in lines])
