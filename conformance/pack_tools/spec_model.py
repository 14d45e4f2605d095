"""The spec model, for the pack tools that read the rules themselves.

`baloot.grammar.parser.load_spec()` parses and checks every `.baloot` file of
the installed spec package (or another spec folder); it is built once per
process and cached. The harness never parses the spec: it reads the register
data file `baloot gen` writes (`harness/spec_register.py`). The pack tools that
need the rules (boundaries, boundary mutants) read the model here, and
`register_from_folder` gives the register of another spec folder, made the way
`baloot gen` makes the data file.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ...backends.register import register_data
from ...grammar.model import Spec
from ...grammar.parser import load_spec
from ..harness.variants import Register, register_from_data


@cache
def spec_model(folder: Path | None = None) -> Spec:
    """The checked spec model of `folder` (default: the installed spec package)."""
    return load_spec(folder)


def register_from_folder(folder: Path) -> Register:
    """The register of the spec in another folder."""
    return register_from_data(register_data(spec_model(folder)))
