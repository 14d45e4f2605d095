"""Building mutant engines: patch the spec (or the runtime), generate, package.

`build_mutant(mutant)` copies the spec folder to a temporary folder, applies
the mutant's patch, parses and checks the patched spec, and generates the
engine into `CACHE/NAME/KEY/baloot_mutant/`, the hand-written runtime
files copied beside the generated modules (all imports there are relative, so
the folder is a package of its own). KEY hashes everything the mutants are
made of (the spec, the runtime files, the generator's source, the catalogue
entry), so a build is reused until one of them changes; builds of a mutant
under other keys are removed once they are an hour old. CACHE is
`$BALOOT_MUTANT_CACHE`, else `baloot-mutants` in the temporary folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from unittest import mock

from ...backends.python.generate import default_out_dir, generate
from ...grammar.errors import SpecError
from ...grammar.model import Spec
from .catalogue import MUTANTS, RUNTIME_FILES, Mutant

# Every build is a package of this name in a folder of its own, which the mutant
# adapter puts on its path and imports (`mutants/adapter.py`).
MUTANT_PACKAGE = "baloot_mutant"


class MutationError(RuntimeError):
    """A mutant whose snippet is gone, or whose patched spec does not build."""


@dataclass(frozen=True)
class BuiltMutant:
    mutant: Mutant
    package_dir: Path  # the folder to put on sys.path
    package: str  # the package name to import

    def adapter_argv(self, python: str | None = None) -> list[str]:
        """The command that serves this mutant over the protocol."""
        return [
            python or sys.executable,
            "-m",
            "baloot.conformance.mutants.adapter",
            "--package-dir",
            str(self.package_dir),
            "--name",
            f"{MUTANT_PACKAGE}_{self.mutant.name}",
        ]


def spec_dir() -> Path:
    return Path(str(resources.files("baloot.spec")))


def runtime_dir() -> Path:
    folder: Path = default_out_dir()
    return folder


def grammar_dir() -> Path:
    return Path(str(resources.files("baloot.grammar")))


def apply_patch(text: str, mutant: Mutant) -> str:
    """The text with the mutant's snippet replaced; MutationError unless found exactly once."""
    count = text.count(mutant.old)
    if count != 1:
        where = "not found" if count == 0 else f"found {count} times"
        raise MutationError(
            f"mutant {mutant.name}: its snippet is {where} in {mutant.file} "
            f"(the file changed under the mutant; update the catalogue):\n{mutant.old}"
        )
    return text.replace(mutant.old, mutant.new)


def _files_digest(folder: Path, patterns: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for pattern in patterns:
        for path in sorted(folder.glob(pattern)):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def sources_key() -> str:
    """A hash of everything every mutant is built from (without the catalogue)."""
    digest = hashlib.sha256()
    digest.update(_files_digest(spec_dir(), ["*.baloot"]).encode())
    digest.update(_files_digest(grammar_dir(), ["*.py", "*.lark"]).encode())
    rt = runtime_dir()
    for name in RUNTIME_FILES:
        digest.update(name.encode())
        digest.update((rt / name).read_bytes())
    return digest.hexdigest()


def mutant_key(mutant: Mutant, base: str) -> str:
    digest = hashlib.sha256(base.encode())
    for part in (mutant.name, mutant.file, mutant.old, mutant.new):
        digest.update(b"\0" + part.encode())
    return digest.hexdigest()[:20]


def default_cache_dir() -> Path:
    return Path(
        os.environ.get("BALOOT_MUTANT_CACHE") or Path(tempfile.gettempdir()) / "baloot-mutants"
    )


def generate_files(spec_folder: Path) -> dict[str, str]:
    """Parse, check and generate the engine modules of a spec folder."""
    from ...grammar.parser import load_spec  # lark: only a build parses the spec

    try:
        spec = load_spec(spec_folder, coverage=False)
    except SpecError as exc:
        raise MutationError(f"the patched spec does not check:\n{exc}") from None
    return generate_unformatted(spec)


def generate_unformatted(spec: Spec) -> dict[str, str]:
    """The engine modules of a spec model, as the generator writes them but unformatted."""
    # The generator formats each module with black, which costs ten times the rest of
    # the generation; a mutant is a throwaway build, so its modules stay unformatted
    # (black changes the layout only, never the meaning).
    import black

    with mock.patch.object(black, "format_str", _unformatted):
        files: dict[str, str] = generate(spec)
    return files


def _unformatted(text: str, *, mode: object = None) -> str:
    return text


def build_mutant(
    mutant: Mutant, cache: Path | None = None, base_key: str | None = None
) -> BuiltMutant:
    """Build one mutant (or reuse its cached build)."""
    cache = cache or default_cache_dir()
    key = mutant_key(mutant, base_key or sources_key())
    package = MUTANT_PACKAGE
    home = cache / mutant.name / key
    built = BuiltMutant(mutant, home, package)
    if (home / package / ".complete").exists():
        return built
    _prune(cache / mutant.name, keep=key)
    home.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{mutant.name}-", dir=home))
    try:
        spec_copy = staging / "spec"
        spec_copy.mkdir()
        for path in sorted(spec_dir().glob("*.baloot")):
            text = path.read_text(encoding="utf-8")
            if path.name == mutant.file:
                text = apply_patch(text, mutant)
            (spec_copy / path.name).write_text(text, encoding="utf-8")
        if not mutant.is_runtime and not (spec_dir() / mutant.file).exists():
            raise MutationError(f"mutant {mutant.name}: no spec file {mutant.file}")
        files = generate_files(spec_copy)
        target = staging / package
        target.mkdir()
        for name, text in files.items():
            (target / name).write_text(text, encoding="utf-8")
        for name in RUNTIME_FILES:
            text = (runtime_dir() / name).read_text(encoding="utf-8")
            if name == mutant.file:
                text = apply_patch(text, mutant)
            (target / name).write_text(text, encoding="utf-8")
        (target / ".complete").write_text(key, encoding="utf-8")
        final = home / package
        try:
            target.rename(final)
        except OSError:  # another process built it first
            if not (final / ".complete").exists():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return built


def _prune(folder: Path, keep: str, age: float = 3600.0) -> None:
    """Remove a mutant's stale builds (other keys), once they are `age` seconds old."""
    if not folder.is_dir():
        return
    for old in folder.iterdir():
        if old.name != keep and old.is_dir():
            with contextlib.suppress(OSError):
                if time.time() - old.stat().st_mtime > age:
                    shutil.rmtree(old, ignore_errors=True)


def _build_one(args: tuple[Mutant, Path, str]) -> BuiltMutant:
    return build_mutant(*args)


def build_all(
    mutants: Iterable[Mutant] = MUTANTS, cache: Path | None = None, jobs: int | None = None
) -> list[BuiltMutant]:
    """Build several mutants, in parallel processes; cached builds are reused."""
    cache = cache or default_cache_dir()
    base = sources_key()
    todo = list(mutants)
    missing = [
        m
        for m in todo
        if not (
            cache / m.name / mutant_key(m, base) / MUTANT_PACKAGE / ".complete"
        ).exists()
    ]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(missing)))
    if missing and jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            list(pool.map(_build_one, [(m, cache, base) for m in missing]))
    else:
        for m in missing:
            build_mutant(m, cache, base)
    return [build_mutant(m, cache, base) for m in todo]
