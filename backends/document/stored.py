"""Reading the stored results the rules document shows: the proof outcomes, the
explorer's witnesses and the worked examples (JSON files other commands write).

The renderer never computes these itself. A file that is there but cannot be
read, or is not in the documented format, is an error (`StoredFileError`),
never skipped in silence; a file that is not there is for the caller to
mention in the document.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FORMAT = 1


class StoredFileError(ValueError):
    """A stored results file that is unreadable or not in its documented format."""


def read_stored(path: Path, command: str) -> dict[str, Any]:
    """The object stored at `path`, written by `command`, checked for format 1."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise StoredFileError(f"{path}: cannot read it ({err}); run `{command}`") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StoredFileError(f"{path}: not a results file of format {FORMAT}; run `{command}`")
    return data


class Fields:
    """Typed access to one JSON object of a stored file; a missing or mistyped field is a
    `StoredFileError` naming the file and the field."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise StoredFileError(f"{where}: expected an object")
        self.data: dict[str, Any] = data
        self.where = where

    def _get(self, key: str, kind: type | tuple[type, ...], what: str) -> Any:
        value = self.data.get(key)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            raise StoredFileError(f"{self.where}: field {key!r} should be {what}")
        return value

    def text(self, key: str) -> str:
        value: str = self._get(key, str, "a string")
        return value

    def number(self, key: str) -> int:
        value: int = self._get(key, int, "an integer")
        return value

    def flag(self, key: str) -> bool:
        value: bool = self._get(key, bool, "true or false")
        return value

    def items(self, key: str) -> list[Any]:
        value: list[Any] = self._get(key, list, "a list")
        return value

    def obj(self, key: str) -> dict[str, Any]:
        value: dict[str, Any] = self._get(key, dict, "an object")
        return value

    def optional(self, key: str) -> Fields | None:
        """A nested object, or None when the field is null (or absent)."""
        value = self.data.get(key)
        return None if value is None else Fields(value, f"{self.where}.{key}")

    def each(self, key: str) -> list[Fields]:
        """The objects of a list field."""
        return [Fields(x, f"{self.where}.{key}[{i}]") for i, x in enumerate(self.items(key))]

    def texts(self, key: str) -> list[str]:
        values = self.items(key)
        if not all(isinstance(x, str) for x in values):
            raise StoredFileError(f"{self.where}: field {key!r} should be a list of strings")
        return [str(x) for x in values]
