"""The expected-failure list (`--xfail FILE`).

One case per line: the case id, whitespace, and the reason (required).
Blank lines and lines starting with `#` are ignored:

    round.hokum.fail-literal   rounding each_team not implemented yet
"""

from __future__ import annotations

from pathlib import Path


class XfailFileError(ValueError):
    pass


def read_xfail_file(path: Path) -> dict[str, str]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise XfailFileError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    entries: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2:
            raise XfailFileError(
                f"{path}:{number}: expected 'CASE-ID REASON', got {line!r} (the reason is required)"
            )
        if parts[0] in entries:
            raise XfailFileError(f"{path}:{number}: case {parts[0]!r} is listed twice")
        entries[parts[0]] = parts[1].strip()
    return entries
