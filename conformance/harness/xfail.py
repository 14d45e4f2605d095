"""The expected-failure list (`--xfail FILE`).

One line per case, or per glob of case ids: the id or glob, whitespace, and
the reason (required). Blank lines and lines starting with `#` are ignored:

    round.hokum.fail-literal   rounding each_team not implemented yet
    var.kaboot.*               no kaboot yet

A case takes the line naming its id, else the first glob (in the file's order)
that matches its id (`fnmatch`, case-sensitive; globs match case ids, not
clauses). A glob that matches no case of the pack is an error naming its line;
an id the pack does not hold is only reported (a newer pack may drop a case).
A line is *stale* in a run when every case it applied to that ran to a verdict
passed, and there was at least one: the engine was fixed, the line can go.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


class XfailFileError(ValueError):
    pass


GLOB_CHARACTERS = frozenset("*?[")
# A case id (`^[a-z0-9][a-z0-9._-]*$`, schema/case-file.json) or a glob of them.
_PATTERN = re.compile(r"[a-z0-9._\-*?\[\]!]+")


def is_glob(pattern: str) -> bool:
    return any(c in GLOB_CHARACTERS for c in pattern)


@dataclass(frozen=True)
class XfailEntry:
    """One line of an xfail file."""

    pattern: str
    reason: str
    file: str
    line: int

    @property
    def is_glob(self) -> bool:
        return is_glob(self.pattern)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def matches(self, case_id: str) -> bool:
        if self.is_glob:
            return fnmatch.fnmatchcase(case_id, self.pattern)
        return case_id == self.pattern


@dataclass(frozen=True)
class StaleXfail:
    """A line that applied, in a run, only to cases that passed (`passed`, their ids)."""

    entry: XfailEntry
    passed: tuple[str, ...]


class XfailList:
    """The lines of an xfail file, and which line a case takes."""

    def __init__(self, entries: Sequence[XfailEntry] = ()) -> None:
        self.entries = tuple(entries)
        self._exact = {e.pattern: e for e in self.entries if not e.is_glob}
        self._globs = [e for e in self.entries if e.is_glob]

    @classmethod
    def from_reasons(cls, reasons: Mapping[str, str], file: str = "xfails") -> XfailList:
        """A list from `pattern -> reason` (lines numbered in the mapping's order)."""
        return cls([XfailEntry(p, r, file, n) for n, (p, r) in enumerate(reasons.items(), 1)])

    def __len__(self) -> int:
        return len(self.entries)

    def entry_for(self, case_id: str) -> XfailEntry | None:
        """The line a case takes: its id's, else the first glob matching it."""
        exact = self._exact.get(case_id)
        if exact is not None:
            return exact
        return next((e for e in self._globs if e.matches(case_id)), None)

    def unknown_ids(self, pack_ids: Iterable[str]) -> list[str]:
        """The ids (not globs) listed that are not case ids of the pack, sorted."""
        known = set(pack_ids)
        return sorted(p for p in self._exact if p not in known)

    def problems(self, pack_ids: Iterable[str], pack: str) -> list[str]:
        """A message for each glob that matches no case id of the pack (`pack` names it)."""
        ids = list(pack_ids)
        return [
            f"{e.where}: the glob {e.pattern!r} matches no case id of the pack {pack} "
            "(xfail globs match case ids, not clauses)"
            for e in self._globs
            if not any(e.matches(i) for i in ids)
        ]

    def stale(self, verdicts: Iterable[tuple[str, bool]]) -> list[StaleXfail]:
        """The stale lines, in the file's order, from `(case id, failed)` for each case
        that ran to a verdict with a line of this list (failed: it failed or errored)."""
        applied: dict[XfailEntry, list[tuple[str, bool]]] = {}
        for case_id, failed in verdicts:
            entry = self.entry_for(case_id)
            if entry is not None:
                applied.setdefault(entry, []).append((case_id, failed))
        return [
            StaleXfail(entry, tuple(case_id for case_id, _ in applied[entry]))
            for entry in self.entries
            if entry in applied and not any(failed for _, failed in applied[entry])
        ]


def _pattern_problem(key: str) -> str | None:
    if _PATTERN.fullmatch(key):
        return None
    return (
        f"{key!r} is neither a case id nor a glob of case ids (lower-case letters, digits, "
        "'.', '_', '-', and the glob characters '*', '?', '[...]')"
    )


def read_xfail_list(path: Path) -> XfailList:
    """The lines of an xfail file; every problem raises XfailFileError naming file and line."""
    lines = read_reason_lines(path, "CASE-ID|GLOB", XfailFileError, what="case ",
                              check_key=_pattern_problem)
    return XfailList([XfailEntry(key, reason, str(path), n) for n, key, reason in lines])


def read_xfail_file(path: Path) -> dict[str, str]:
    """Case id (or glob) -> reason."""
    return {e.pattern: e.reason for e in read_xfail_list(path).entries}


def read_reason_file(
    path: Path,
    key_name: str,
    error: type[ValueError],
    *,
    what: str = "",
    check_key: Callable[[str], str | None] | None = None,
) -> dict[str, str]:
    """Key -> reason, from a file of `KEY REASON` lines (`#` comments, blank lines). Every
    problem raises `error` naming the file and the line; `check_key` may return what is
    wrong with a key."""
    lines = read_reason_lines(path, key_name, error, what=what, check_key=check_key)
    return {key: reason for _, key, reason in lines}


def read_reason_lines(
    path: Path,
    key_name: str,
    error: type[ValueError],
    *,
    what: str = "",
    check_key: Callable[[str], str | None] | None = None,
    reason_required: bool = True,
) -> list[tuple[int, str, str]]:
    """`(line number, key, reason)` for each `KEY REASON` line, as `read_reason_file`
    reads them; without `reason_required` a line may be a key alone (reason "")."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start})") from exc
    entries: list[tuple[int, str, str]] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2 and reason_required:
            raise error(
                f"{path}:{number}: expected '{key_name} REASON', got {line!r} "
                "(the reason is required)"
            )
        key = parts[0]
        problem = check_key(key) if check_key else None
        if problem:
            raise error(f"{path}:{number}: {problem}")
        if key in seen:
            raise error(f"{path}:{number}: {what}{key!r} is listed twice")
        seen.add(key)
        entries.append((number, key, parts[1].strip() if len(parts) > 1 else ""))
    return entries
