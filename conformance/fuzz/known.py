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

from ..harness.xfail import read_reason_file


class KnownFileError(ValueError):
    pass


def read_known_file(path: Path) -> dict[str, str]:
    """Signature -> reason."""
    return read_reason_file(path, "SIGNATURE", KnownFileError, check_key=_signature_problem)


def _signature_problem(signature: str) -> str | None:
    if signature.count(":") < 2:
        return (f"{signature!r} is not a signature; expected KIND:PHASE:WHAT[:CLAUSE], as "
                "the fuzzer's table shows it")
    return None
