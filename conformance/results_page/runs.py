"""The JSON reports of `baloot conform --json`, read for the results page.

A report is checked against its JSON Schema (`conformance/schema/report.json`)
and its format version before the page uses it; what the page shows of one
engine's run is an `EngineRun`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..harness.report_files import REPORT_FORMAT
from ..protocol.schemas import schema_errors

PASSED_STATUSES = ("passed", "xpassed")  # a badge counts these as passed
SHOWN_SCHEMA_ERRORS = 5


class ReportError(ValueError):
    """A report the page cannot use: unreadable, not JSON, another format, or off-schema."""


@dataclass(frozen=True)
class EngineRun:
    """One engine's run, as its JSON report gives it."""

    source: Path
    data: dict[str, Any]

    def with_rules_links_from(self, page_folder: Path) -> EngineRun:
        """The run with each relative link to the rules document (a report written without
        `BALOOT_RULES_URL` links to the copy beside it, `rules.html#clause-...`) made
        relative to the page's folder instead, so that it reaches the same copy."""
        def rebased(link: str) -> str:
            if not link or "://" in link or link.startswith(("/", "#")):
                return link
            path, hash_, fragment = link.partition("#")
            target = os.path.relpath(self.source.parent.resolve() / path, page_folder.resolve())
            return Path(target).as_posix() + hash_ + fragment

        cases = [{**case, "rules": [rebased(link) for link in case["rules"]]}
                 for case in self.data["cases"]]
        return EngineRun(self.source, {**self.data, "cases": cases})

    @property
    def name(self) -> str:
        """The engine's name from its hello, else the program of its command."""
        name = self.data["engine"]["name"]
        return name if name else Path(self.data["engine"]["command"][0]).name

    @property
    def version(self) -> str:
        return self.data["engine"]["version"] or "?"

    @property
    def profile(self) -> str:
        profile: str = self.data["profile"]
        return profile

    @property
    def pack(self) -> str:
        return f"{self.data['pack']['name']} {self.data['pack']['version']}"

    @property
    def checked(self) -> int:
        checked: int = self.data["checked"]
        return checked

    @property
    def errored(self) -> int:
        errored: int = self.data["summary"]["errored"]
        return errored

    @property
    def counted(self) -> int:
        """The cases a badge counts against the engine: those checked and those errored
        (an error is a case the engine did not get through, not one left out)."""
        return self.checked + self.errored

    @property
    def passed(self) -> int:
        return sum(self.data["summary"][s] for s in PASSED_STATUSES)

    @property
    def handshake_failed(self) -> bool:
        """Whether the engine never completed a hello that could be read."""
        return self.data["declared"] is None

    @property
    def cases(self) -> list[dict[str, Any]]:
        cases: list[dict[str, Any]] = self.data["cases"]
        return cases

    @property
    def declared(self) -> dict[str, Any] | None:
        declared: dict[str, Any] | None = self.data["declared"]
        return declared

    @property
    def label(self) -> str:
        """`<engine> <version> <profile>`, the left half of the badge."""
        return f"{self.name} {self.version} {self.profile}"


def read_run(path: Path) -> EngineRun:
    """Read one report; raises ReportError saying what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReportError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReportError(f"{path}: not a JSON file: {exc}") from None
    if not isinstance(data, dict):
        raise ReportError(f"{path}: not a report of `baloot conform --json` (not an object)")
    if data.get("format") != REPORT_FORMAT:
        raise ReportError(
            f"{path}: report format {data.get('format')!r}; this version of baloot reads "
            f"format {REPORT_FORMAT} (rerun `baloot conform --json` with it)"
        )
    problems = schema_errors("report", data)
    if problems:
        shown = "\n  ".join(problems[:SHOWN_SCHEMA_ERRORS])
        more = len(problems) - SHOWN_SCHEMA_ERRORS
        raise ReportError(
            f"{path}: does not match the report schema:\n  {shown}"
            + (f"\n  ... and {more} more" if more > 0 else "")
        )
    return EngineRun(path, data)
