"""What every test module shares: under pytest-xdist (`-n auto`), the tests of a module
whose expensive fixture is built once per module (or per session) run on one worker,
so that no second worker builds it again (the README's command distributes with
`--dist loadgroup`; the other tests go wherever a worker is free)."""

from __future__ import annotations

import pytest

# Modules whose tests share a fixture that takes many seconds to build: the whole pack
# run on an engine, `baloot verify`, the catalogue's mutants, the report runs.
ONE_WORKER = (
    "tests/proofs/test_invariants.py",
    "tests/conformance/test_independent_majlis.py",
    "tests/conformance/test_independent_diwaniya.py",
    "tests/conformance/test_independent_qahwa.py",
    "tests/mutants/test_mutants.py",
    "tests/mutants/test_call_traces.py",
    "tests/report/test_report_files.py",
    "tests/report/test_counts_and_words.py",
    "tests/fuzz/test_fuzz.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = config.rootpath
    for item in items:
        module = item.path.relative_to(root).as_posix()
        if module in ONE_WORKER:
            item.add_marker(pytest.mark.xdist_group(module))
