"""The engine compiled with mypyc (`baloot gen --compiled DIR`) plays as the interpreted
engine does: the same games, action for action, refusal for refusal, result for result.

The build takes about half a minute on two cores; it needs mypy (which brings mypyc),
setuptools and a C compiler, all of which the test install has.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mypy.version import __version__ as mypy_version

from baloot.backends.python import compiled_engine, generate
from baloot.conformance.harness import kept_results
from baloot.grammar.parser import load_spec
from baloot.reference_impl import is_compiled

SPEC = load_spec()
PLAYED_GAMES = Path(__file__).parent / "played_games.py"


def on_path(folder: Path | None) -> dict[str, str]:
    """The environment with `folder` first on PYTHONPATH (None: as it is, unset)."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if folder is not None:
        env["PYTHONPATH"] = str(folder)
    return env


def run(argv: list[str], folder: Path | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, env=on_path(folder), capture_output=True, text=True,
                          check=False, timeout=300)


def test_the_compiled_layout_changes_the_records_only() -> None:
    interpreted = generate.definitions_module(SPEC)
    compiled = generate.definitions_module(SPEC, compiled=True)
    assert "def _copy_with(self, changes: dict[str, Any]) -> Game:" in compiled
    assert "_copy_with" not in interpreted
    assert "FIELD_TYPES" in compiled
    assert "FIELD_TYPES" not in interpreted


def test_the_interpreted_engine_says_it_is_not_compiled() -> None:
    assert is_compiled() is False


def test_the_compiled_build_plays_as_the_interpreted_engine(tmp_path: Path) -> None:
    """One test for everything that needs the build, so it is built once (a module
    fixture would build it once on each test worker). Built unoptimised: the same C, made
    sooner (the benchmark builds it optimised). Built where the project keeps results
    between runs (`kept_results`, kind `compiled`), in a folder named by the compiler's
    version: a build of the same digest is kept there, as `build` keeps one anywhere."""
    kept = kept_results.cache_folder("compiled")
    folder = tmp_path / "engine" if kept is None else kept / f"mypyc-{mypy_version}-O0"
    build = compiled_engine.build(SPEC, folder, opt_level="0").folder
    assert_every_generated_module_is_compiled(build)
    assert_the_same_games_are_played(build)
    again = compiled_engine.build(SPEC, build, opt_level="0")  # nothing changed: kept
    assert again.digest == compiled_engine.built_digest(build)
    # an optimised build of the same engine is another build: it is not kept in its place
    assert compiled_engine.engine_digest({}, {}, "0") != compiled_engine.engine_digest({}, {})
    assert_the_tools_that_watch_the_readings_refuse_it(build)


def assert_every_generated_module_is_compiled(build: Path) -> None:
    package = build / "baloot" / "reference_impl"
    engine = generate.default_out_dir()
    differing = [p.name for p in sorted(engine.glob("*.py"))
                 if (package / p.name).read_text(encoding="utf-8") != p.read_text(encoding="utf-8")]
    assert differing == ["definitions.py"]  # the rules and the runtime as checked in
    record = json.loads((build / compiled_engine.BUILD_RECORD).read_text(encoding="utf-8"))
    assert sorted(record["compiled"]) == sorted([*generate.generate(SPEC), "runtime_support.py"])
    for name in record["compiled"]:
        stem = name.removesuffix(".py")
        assert list(package.glob(f"{stem}.*.so")) or list(package.glob(f"{stem}.*.pyd")), name
    assert not (build / "baloot" / "__init__.py").exists()  # baloot stays a namespace package


def assert_the_same_games_are_played(build: Path) -> None:
    argv = [sys.executable, str(PLAYED_GAMES), "60", "20261202"]
    compiled, interpreted = run(argv, build), run(argv, None)
    assert compiled.returncode == 0, compiled.stderr
    assert interpreted.returncode == 0, interpreted.stderr
    compiled_lines = compiled.stdout.splitlines()
    interpreted_lines = interpreted.stdout.splitlines()
    assert compiled_lines[0] == '["engine", "compiled"]'
    assert interpreted_lines[0] == '["engine", "interpreted"]'
    assert compiled_lines[1:] == interpreted_lines[1:]
    kinds = {json.loads(line)[0] for line in interpreted_lines[1:]}
    assert kinds >= {"game", "legal", "took", "refused", "result", "final"}
    finals = [json.loads(line) for line in interpreted_lines if line.startswith('["final"')]
    assert len(finals) == 60 and all(read_back for _, _, read_back in finals)


def assert_the_tools_that_watch_the_readings_refuse_it(build: Path) -> None:
    """`conform pins` and `explore --impact` watch the rules read the readings, which a
    compiled build does past them: each refuses it, naming the way out."""
    for command in (["conform", "pins"], ["explore", "--impact", "--rounds", "10", "--no-write"]):
        done = run([sys.executable, "-m", "baloot.cli.main", *command], build)
        assert done.returncode == 2, command
        assert done.stderr.startswith(f"baloot {command[0]} {command[1]}: "), done.stderr
        assert "compiled build" in done.stderr and "interpreted engine" in done.stderr


def test_a_folder_that_holds_something_else_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(compiled_engine.CompiledBuildError, match="holds no compiled engine"):
        compiled_engine.build(SPEC, tmp_path)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_stale_engine_is_not_built(tmp_path: Path) -> None:
    engine = tmp_path / "engine"
    engine.mkdir()
    for name, text in generate.generate(SPEC).items():
        (engine / name).write_text(text, encoding="utf-8")
    (engine / "play_rules.py").write_text("# edited by hand\n", encoding="utf-8")
    with pytest.raises(compiled_engine.CompiledBuildError, match="run `baloot gen` first"):
        compiled_engine.build(SPEC, tmp_path / "out", engine=engine)
    assert not (tmp_path / "out").exists()



def test_a_file_in_place_of_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "engine").write_text("", encoding="utf-8")
    with pytest.raises(compiled_engine.CompiledBuildError, match="is a file, not a folder"):
        compiled_engine.build(SPEC, tmp_path / "engine")


def test_a_failed_compile_shows_its_error_lines(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that fails (here: no C compiler) names the error lines, not the compiler
    commands before them (which carry -Werror), and leaves no finished build behind."""
    output = ("building 'baloot.reference_impl.play_rules' extension\n"
              "cc -O3 -Werror -c build/play_rules.c\n"
              "error: command 'cc' failed: No such file or directory\n")

    def failing(*args: object, **kwargs: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess([], 1, stdout=output, stderr="")

    monkeypatch.setattr(subprocess, "run", failing)  # the build compiles in a subprocess
    with pytest.raises(compiled_engine.CompiledBuildError) as caught:
        compiled_engine.build(SPEC, tmp_path / "engine")
    message = str(caught.value)
    assert message.endswith("its errors:\nerror: command 'cc' failed: No such file or directory")
    assert "a C compiler is needed" in message
    assert compiled_engine.built_digest(tmp_path / "engine") is None
