"""The spec model, as the conformance tooling reads it.

`baloot.grammar.parser.load_spec()` parses and checks every `.baloot` file of
the installed spec package; it is built once per process and cached. The
clause IDs (`clauses.py`) and the variant register (`variants.py`) come from
it, so the conformance tooling never reads spec text itself.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from baloot.grammar.model import Spec
from baloot.grammar.parser import load_spec


@cache
def spec_model(folder: Path | None = None) -> Spec:
    """The checked spec model of `folder` (default: the installed spec package)."""
    return load_spec(folder)
