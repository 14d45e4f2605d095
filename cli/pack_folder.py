"""`--cases DIR`, the case pack a command reads (default: the built-in pack), and the pack
it names, linted; and where a pack tool that rewrites the pack writes from an install.

Each subcommand of `baloot conform` keeps its `--cases` under a name of its own
(`pins_cases`, ...), beside the `cases` of `baloot conform` itself.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from ..conformance.harness.lint import lint_pack
from ..conformance.harness.pack import Pack, default_pack_folder
from ..conformance.harness.variants import Register, load_register

PACK_FOLDER = "a case pack folder (default: the built-in pack)"

# How a pack tool that rewrites the pack (needs --fix, pins --fix, golden, derive,
# refusals --synthesise) writes elsewhere than into an installed package's pack.
ON_A_COPY = "copy the pack folder and pass --cases DIR to work on the copy"


def add_pack_folder(parser: argparse.ArgumentParser, dest: str = "cases",
                    help: str = PACK_FOLDER) -> None:
    parser.add_argument("--cases", metavar="DIR", type=Path, dest=dest, help=help)


def linted_pack(folder: Path | None, console: Console) -> tuple[Pack, Register] | None:
    """The pack in `folder` (default: the built-in one) and the register, or None after
    printing its lint problems: commands that read a pack need one that lints clean."""
    register = load_register()
    pack, problems = lint_pack(folder or default_pack_folder(), register)
    if not problems:
        return pack, register
    for problem in problems:
        console.print(f"error {problem}", markup=False, highlight=False)
    console.print(f"{len(problems)} problem(s): run `baloot conform lint` and fix them first")
    return None
