"""The verdicts of `baloot conform pins`, kept between runs (`harness/kept_results.py`): a
case is played again only when it, the readings register or the code that plays it has
changed.

Each case's `CaseCheck` (every run's verdict and message) is stored as JSON under a
key that hashes everything its runs depend on: the case as loaded (every field), the
profiles checked and the register's variants and profiles, and the source of the
reference engine, of the pins check (`pins.py`, this module) and of every module of the
package they import (the harness that runs the case, the in-process adapters, the noting
readings), and the protocol's schemas. The report and the fixes made from the verdicts
are no part of it. A change to any of them is another key, so a kept verdict is the one a
fresh run would give.

The folder is `$BALOOT_CACHE_DIR/pins`, else `$XDG_CACHE_HOME/baloot/pins`, else
`~/.cache/baloot/pins`; `BALOOT_CACHE_DIR=off` keeps nothing.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ... import reference_impl as engine_package
from ..adapters import inprocess as inprocess_module
from ..harness import kept_results
from ..harness import runner as runner_module
from ..harness.pack import Case
from ..harness.variants import Register

FORMAT = 1  # of the stored checks


def cache_folder() -> Path | None:
    """Where the checks are kept; None when keeping is off."""
    return kept_results.cache_folder("pins")


@cache
def code_fingerprint() -> str:
    """A hash of the source of every module a case's runs go through: the check
    (`pins.py`, which plays them) and the modules it imports, not the report or the fixes
    made from its verdicts."""
    here = Path(__file__).parent
    return kept_results.source_fingerprint(
        [Path(runner_module.__file__), Path(inprocess_module.__file__), here / "pins.py",
         Path(__file__)],
        folders=(Path(engine_package.__file__).parent,),
        files=tuple(sorted((Path(runner_module.__file__).parent.parent / "schema")
                           .glob("*.json"))))


def check_key(case: Case, register: Register, profiles: list[str]) -> str:
    """The key of a case's check: its content, the register, the profiles, the code."""
    return kept_results.key_of(str(FORMAT), code_fingerprint(),
                               kept_results.register_part(register), json.dumps(profiles),
                               repr(case))


def load(folder: Path, key: str) -> dict[str, Any] | None:
    """The stored check of this key, or None."""
    return kept_results.load(folder, key, FORMAT)


def store(folder: Path, key: str, data: dict[str, Any]) -> None:
    """Keep a check."""
    kept_results.store(folder, key, FORMAT, data)
