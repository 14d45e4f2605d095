"""Every folder the wheel ships is named in pyproject's `packages`: a folder of data left
out is still shipped by its package-data glob, but setuptools warns once for each such
folder on every build (some 30 warnings before they were listed)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_folder_of_packaged_data_is_a_listed_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    conformance = ROOT / "conformance"
    shipped = {"schema"} | {
        str(folder.relative_to(conformance)).replace("/", ".")
        for folder in (conformance / "cases").glob("**/")
        if any(folder.glob("*.json"))
    }
    missing = sorted({f"baloot.conformance.{name}" for name in shipped} - listed)
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {missing}"


def test_the_license_is_an_spdx_expression_without_a_classifier() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]
