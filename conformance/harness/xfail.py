"""The expected-failure list (`--xfail FILE`).

One case per line: the case id, whitespace, and the reason (required).
Blank lines and lines starting with `#` are ignored:

    round.hokum.fail-literal   rounding each_team not implemented yet
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


class XfailFileError(ValueError):
    pass


def read_xfail_file(path: Path) -> dict[str, str]:
    """Case id -> reason."""
    return read_reason_file(path, "CASE-ID", XfailFileError, what="case ")


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
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start})") from exc
    entries: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2:
            raise error(
                f"{path}:{number}: expected '{key_name} REASON', got {line!r} "
                "(the reason is required)"
            )
        key = parts[0]
        problem = check_key(key) if check_key else None
        if problem:
            raise error(f"{path}:{number}: {problem}")
        if key in entries:
            raise error(f"{path}:{number}: {what}{key!r} is listed twice")
        entries[key] = parts[1].strip()
    return entries
