"""`baloot conform examples [--check] [--out FILE]`: record the rules document's worked
examples by playing them on the reference engine (`worked_examples.py`).

Without `--check` it writes docs/worked-examples.json; with `--check` it writes
nothing and exits 1 when the file differs from a fresh recording (then
`baloot conform examples` writes it again, and `baloot spec render` puts it in
the document).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..conformance.pack_tools.worked_examples import (
    COMMAND,
    default_path,
    file_text,
    record,
    staleness,
)
from .console import console as make_console
from .destinations import REFUSED, refuse
from .stored_files import report_differences, write_text


def register_examples(sub: Any) -> None:
    examples = sub.add_parser(
        "examples",
        help="play the rules document's worked examples on the reference engine",
        description="Play one round per contract on the reference engine, from a fixed deck "
        "and with a fixed policy, and write what the engine's rules return to "
        "docs/worked-examples.json, which `baloot spec render` reads. With --check, write "
        "nothing and exit 1 when the file is out of date.",
    )
    examples.add_argument("--out", dest="examples_out", type=Path, metavar="FILE",
                          help="the file (default: docs/worked-examples.json)")
    examples.add_argument("--check", dest="examples_check", action="store_true",
                          help="write nothing; exit 1 when the file differs from a fresh run")
    examples.set_defaults(run=run_examples)


def run_examples(args: argparse.Namespace) -> int:
    path: Path = args.examples_out or default_path()
    if not args.examples_check and refuse("conform examples", [args.examples_out],
                                          "pass --out FILE to write the examples there"):
        return REFUSED
    fresh = file_text(record())
    if args.examples_check:
        stale = staleness(path, fresh)
        again = COMMAND + (f" --out {path}" if args.examples_out else "")
        return report_differences(
            [stale.render()] if stale is not None else [],
            f"{COMMAND} --check: the worked examples are out of date; run `{again}`",
            f"{path} is up to date with the reference engine")
    write_text(make_console(), path, fresh)
    return 0
