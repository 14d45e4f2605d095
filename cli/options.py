"""The options several commands share, and the reading of their values.

    --spec DIR     the spec folder (`spec check | trace | show | render`, `gen`,
                   `verify`, `explore`), and the spec it names, loaded
    --jobs N       worker processes; 0, where it is the default, is one per CPU
    --seed N       the seed of a command's random draws
    --shard K/N    the part of a run one machine plays (`fuzz`, `explore --impact`,
                   `conform mutants --spec`): one reading, one error message

The pack folder option of the pack tools (`--cases DIR`) is in `pack_folder.py`.
This module loads neither lark nor the harness: `spec render` imports it.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..grammar.errors import SpecError

if TYPE_CHECKING:
    from ..grammar import model as m

# ---------------------------------------------------------------------- --spec --


def add_spec_folder(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--spec", type=Path, default=None,
                        help="the spec folder (default: the project's spec/)")


def load_spec(args: argparse.Namespace, *, coverage: bool = True) -> m.Spec | None:
    """The spec in the folder `--spec` names, or None after printing its errors on stderr.
    Without `coverage`, a clause no rule cites is no error (a command that shows them)."""
    from ..grammar.parser import load_spec as parse  # lark: only the commands that parse

    try:
        return parse(args.spec, coverage=coverage)
    except SpecError as err:
        print(err.render(), file=sys.stderr)
        return None


# ---------------------------------------------------------------------- --jobs --


def add_jobs(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *, default: int = 0,
             dest: str = "jobs", metavar: str = "N") -> None:
    """`--jobs N`, worker processes; a default of 0 is one per CPU (`workers`)."""
    said = "default: one per CPU" if default == 0 else f"default {default}"
    parser.add_argument("--jobs", type=int, default=default, dest=dest, metavar=metavar,
                        help=f"worker processes ({said})")


def negative_jobs(command: str, jobs: int) -> bool:
    """True, after saying so on stderr, when `--jobs` of `baloot COMMAND` is below 0."""
    if jobs >= 0:
        return False
    print(f"baloot {command}: --jobs must be 0 (one per CPU) or more", file=sys.stderr)
    return True


def workers(jobs: int) -> int:
    """The worker processes `--jobs` asks for: 0 is one per CPU."""
    return jobs or os.cpu_count() or 1


# ---------------------------------------------------------------------- --seed --


def add_seed(parser: argparse.ArgumentParser, *, default: int, of: str) -> None:
    parser.add_argument("--seed", type=int, default=default, metavar="N",
                        help=f"seed of {of} (default {default})")


# --------------------------------------------------------------------- --shard --


def add_shard(parser: argparse.ArgumentParser | argparse._ArgumentGroup, help: str,
              default: str | None = None) -> None:
    """`--shard K/N`, kept as given: the command reads it with `parse_shard` when it runs,
    so that a bad value is reported as the command reports its other errors."""
    parser.add_argument("--shard", default=default, metavar="K/N", help=help)


def parse_shard(text: str) -> tuple[int, int]:
    """`K/N` with 1 <= K <= N, as (K, N): part K, from 1, of a run split in N; a ValueError
    that says what was expected otherwise."""
    found = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not found or not 1 <= int(found[1]) <= int(found[2]):
        raise ValueError(f"--shard {text!r}: expected K/N with 1 <= K <= N, such as 2/8")
    return int(found[1]), int(found[2])
