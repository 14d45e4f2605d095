"""The known-differences file (`baloot fuzz --known FILE`).

One disagreement signature per line, whitespace, and the reason it is
accepted (required). Blank lines and lines starting with `#` are ignored:

    # baloot fuzz known differences
    legal:bidding:missing-ashkal:BID.2    ashkal is not offered to the dealer yet
    result:round_over:points:SCORE.8      we round hokum points our own way

A signature is `KIND:PHASE:WHAT[:CLAUSE]`, as the fuzzer's table prints it.
A listed group is still played, counted and shown, but it is not shrunk and
does not make the run fail.
"""

from __future__ import annotations

from pathlib import Path


class KnownFileError(ValueError):
    pass


def read_known_file(path: Path) -> dict[str, str]:
    """Signature -> reason."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise KnownFileError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    entries: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2:
            raise KnownFileError(
                f"{path}:{number}: expected 'SIGNATURE REASON', got {line!r} "
                "(the reason is required)"
            )
        signature, reason = parts[0], parts[1].strip()
        if signature.count(":") < 2:
            raise KnownFileError(
                f"{path}:{number}: {signature!r} is not a signature; expected "
                "KIND:PHASE:WHAT[:CLAUSE], as the fuzzer's table shows it"
            )
        if signature in entries:
            raise KnownFileError(f"{path}:{number}: {signature!r} is listed twice")
        entries[signature] = reason
    return entries
