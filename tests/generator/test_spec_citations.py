"""The generated engine cites its spec: each function and definition names the spec file
and line it comes from, each branch on a reading says what the reading means, and the
readings are typed, so a misspelled reading fails the type check."""

from __future__ import annotations

import ast
import re
import shutil
import sys
from pathlib import Path

import pytest

from baloot.backends.python import generate
from baloot.backends.python.pyemit import constant_name
from baloot.grammar import model as m
from baloot.grammar.parser import load_spec
from baloot.grammar.walk import walk_body
from baloot.reference_impl import readings as generated_readings

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # tests/ has no packages (pytest's importlib mode)

import typecheck  # noqa: E402

SPEC = load_spec()
FILES = generate.generate(SPEC)
SPEC_CITE = re.compile(r"^Spec: (spec/[a-z_]+\.baloot):(\d+)\.$", re.MULTILINE)
COMMENT_CITE = re.compile(r"# Spec: (spec/[a-z_]+\.baloot):(\d+)\.$")


def spec_line(file: str, line: int) -> str:
    """A line of a spec file, read from the disk (not from the model)."""
    lines = (ROOT / file).read_text(encoding="utf-8").split("\n")
    assert 0 < line <= len(lines), f"{file} has no line {line}"
    return lines[line - 1]


def declares(text: str, keyword: str, name: str) -> bool:
    """Whether a spec line starts the declaration `keyword name`."""
    return re.match(rf"\s*{keyword}\s+{re.escape(name)}\b", text) is not None


def functions(module: str) -> list[ast.FunctionDef]:
    return [n for n in ast.parse(FILES[module]).body if isinstance(n, ast.FunctionDef)]


def test_every_generated_function_cites_the_line_its_rule_starts_on() -> None:
    rule_modules = [name for name in FILES if name.endswith("_rules.py")]
    cited = 0
    for module in rule_modules:
        for func in functions(module):
            doc = ast.get_docstring(func) or ""
            found = SPEC_CITE.findall(doc)
            assert len(found) == 1, f"{module}:{func.name} cites its spec {len(found)} times"
            file, line = found[0]
            assert (ROOT / file).is_file(), file
            assert generate.module_of(file) + ".py" == module, (func.name, file)
            text = spec_line(file, int(line))
            assert declares(text, "rule", func.name), (
                f"{func.name} cites {file}:{line}, which reads {text!r}")
            assert doc.rstrip().endswith(f"Spec: {file}:{line}."), func.name
            cited += 1
    assert cited == len(SPEC.rules)


def test_the_citation_is_a_project_relative_path() -> None:
    for text in FILES.values():
        for line in text.splitlines():
            if "Spec: " in line:
                assert re.search(r"Spec: spec/[a-z_]+\.baloot:\d+\.", line), line
                assert str(ROOT) not in line
    # a spec read from another folder is cited by the same name
    elsewhere = m.Pos(str(ROOT / "spec" / "play.baloot"), 13, 6)
    assert generate.spec_place(elsewhere) == "spec/play.baloot:13"


def test_definitions_cite_where_they_start() -> None:
    """Enums and records in their docstrings, orders, tables, constants and machines' tables
    of transitions in a comment: each names a line that declares it."""
    tree = ast.parse(FILES["definitions.py"])
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    keyword = {**{e.name: "(enum|machine)" for e in SPEC.enums},
               **{r.name: "record" for r in SPEC.records}}
    for name, word in keyword.items():
        (file, line), = SPEC_CITE.findall(ast.get_docstring(classes[name]) or "")
        assert declares(spec_line(file, int(line)), word, name), (name, file, line)
    lines = FILES["definitions.py"].splitlines()
    valued: list[tuple[str, str]] = [
        *((o.name, "order") for o in SPEC.orders), *((t.name, "table") for t in SPEC.tables),
        *((c.name, "const") for c in SPEC.consts),
        *((f"{mc.name}_transitions", "machine") for mc in SPEC.machines)]
    for name, word in valued:
        at = next(i for i, line in enumerate(lines)
                  if re.match(rf"{constant_name(name)}\b.*=", line))
        if lines[at].endswith("{"):  # a table: the comment opens its entries
            block = lines[at + 1:lines.index("}", at)]
        else:  # a constant: the comment stands above it
            start = max(i for i in range(at) if not lines[i].startswith("#")) + 1
            block = lines[start:at]
        found = [c.groups() for c in map(COMMENT_CITE.search, block) if c]
        assert len(found) == 1, (name, block)
        (file, line), = found
        spec_name = name.removesuffix("_transitions")
        assert declares(spec_line(file, int(line)), word, spec_name), (name, file, line)


def choose_branches(rule: m.Rule) -> list[tuple[str, tuple[str, ...]]]:
    """(variant, readings) of each `choose` case in a rule's body, in order."""
    return [(node.variant, case.readings) for node in walk_body(rule.body)
            if isinstance(node, m.Choose) for case in node.cases]


def comment_block(lines: list[str], at: int) -> str:
    """The comment lines right under the branch that opens on line `at` (black may have
    spread its test over several lines), joined as one text (wrapped lines rejoined)."""
    end = next(i for i in range(at, len(lines)) if lines[i].endswith(":"))
    texts = []
    for line in lines[end + 1:]:
        stripped = line.strip()
        if not stripped.startswith("#"):
            break
        texts.append(stripped[1:].strip())
    return " ".join(texts)


def test_each_reading_branch_says_what_the_reading_means() -> None:
    branches = 0
    for rule in SPEC.rules:
        cases = choose_branches(rule)
        if not cases:
            continue
        module = FILES[generate.module_of(rule.pos.file) + ".py"]
        func = next(f for f in ast.parse(module).body
                    if isinstance(f, ast.FunctionDef) and f.name == rule.name)
        lines = module.splitlines()[func.lineno - 1:func.end_lineno]
        heads = [i for i, line in enumerate(lines)
                 if re.match(r"\s*(if|elif) readings\.\w+ (==|in) ", line)]
        assert len(heads) == len(cases), rule.name
        for at, (variant_name, readings) in zip(heads, cases, strict=True):
            variant = SPEC.variant(variant_name)
            assert f"readings.{variant_name} " in lines[at], (rule.name, lines[at])
            comment = comment_block(lines, at)
            for reading in readings:
                meaning = next(r.text for r in variant.readings if r.name == reading)
                assert f"{reading}: {meaning}" in comment, (rule.name, reading, comment)
            branches += 1
    assert branches > 20


def test_an_if_that_asks_a_reading_says_what_it_means() -> None:
    """`variant is reading` in an `if` condition: the branch carries the meaning too."""
    text = FILES["game_rules.py"]
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if 'readings.gahwa == "round_decides_game"' in line)
    meaning = next(r.text for r in SPEC.variant("gahwa").readings if r.name == "round_decides_game")
    assert f"round_decides_game: {meaning}" in comment_block(lines, at)


def test_reading_comments_keep_the_line_length() -> None:
    for name, text in FILES.items():
        for line in text.splitlines():
            if line.lstrip().startswith("#"):
                assert len(line) <= 99, (name, line)


def test_a_rule_written_to_run_at_once_carries_no_comments() -> None:
    modules = generate.RuleModules(SPEC)
    source = generate.rule_source(SPEC, SPEC.rule("first_trick_leader"), modules)
    assert "#" not in source
    assert 'readings.first_leader == "bid_winner"' in source


# -- the readings are typed --------------------------------------------------------------------


def test_each_variant_is_a_literal_of_its_readings() -> None:
    tree = ast.parse(FILES["readings.py"])
    aliases = {n.target.id: ast.unparse(n.value) for n in tree.body
               if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
               and n.value is not None and ast.unparse(n.annotation) == "TypeAlias"}
    readings = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Readings")
    fields = {n.target.id: ast.unparse(n.annotation) for n in readings.body
              if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    assert list(fields) == [v.name for v in SPEC.variants]
    for v in SPEC.variants:
        alias = generate.literal_name(v.name)
        assert fields[v.name] == alias
        assert aliases[alias] == f"Literal[{', '.join(repr(r) for r in v.reading_names)}]"


def test_readings_stay_plain_strings_at_run_time() -> None:
    literal = generated_readings.PROFILES["literal"]
    assert type(literal.first_leader) is str and literal.first_leader == "bid_winner"
    same = generated_readings.readings_from(
        {v.name: (v.default or v.reading_names[0]) for v in SPEC.variants})
    assert same is literal


def test_readings_from_plain_text_are_checked() -> None:
    plain = {v.name: v.reading_names[0] for v in SPEC.variants}
    with pytest.raises(ValueError, match="'bid_winer' is not a reading of first_leader"):
        generated_readings.readings_from({**plain, "first_leader": "bid_winer"})
    with pytest.raises(ValueError, match="unknown variant 'first_leader_'"):
        generated_readings.readings_from({**plain, "first_leader_": "bid_winner"})
    del plain["gahwa"]
    with pytest.raises(ValueError, match="None is not a reading of gahwa"):
        generated_readings.readings_from(plain)


MISSPELT = '''\
from baloot.reference_impl.readings import PROFILES, Readings


def leads(readings: Readings) -> bool:
    return readings.first_leader == "bid_winer"


def built() -> Readings:
    return Readings(**{{**{plain}, "first_leader": "bid_winner"}})


def made() -> Readings:
    return Readings({keywords})


def profile() -> Readings:
    return PROFILES["literal"]
'''


def scratch_project(root: Path, use: str) -> None:
    """A project mapped as ours is, with the generated readings module and a module of
    hand-written code using it."""
    (root / "pyproject.toml").write_text(
        '[tool.setuptools]\npackage-dir = { "baloot.reference_impl" = "reference_impl", '
        '"baloot.scratch" = "scratch" }\n'
        # mypy's own settings as the project has them
        + "[tool.mypy]" + (ROOT / "pyproject.toml").read_text(encoding="utf-8")
        .split("[tool.mypy]", 1)[1], encoding="utf-8")
    for room in ("reference_impl", "scratch", "tests"):
        (root / room).mkdir(exist_ok=True)
        (root / room / "__init__.py").write_text("", encoding="utf-8")
    (root / "reference_impl" / "readings.py").write_text(FILES["readings.py"], encoding="utf-8")
    (root / "scratch" / "use.py").write_text(use, encoding="utf-8")


def run_typecheck(root: Path) -> int:
    shutil.rmtree(root / "cache", ignore_errors=True)
    return typecheck.main(["--no-incremental", "--cache-dir", str(root / "cache")], root=root)


def test_a_misspelled_reading_fails_the_type_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    literal = SPEC.profile("literal").readings()
    keywords = ", ".join(f"{k}={v!r}" for k, v in literal.items())
    misspelt = keywords.replace("first_leader='bid_winner'", "first_leader='bid_winer'")
    assert misspelt != keywords
    use = MISSPELT.format(plain={k: v for k, v in literal.items() if k != "first_leader"},
                          keywords=misspelt)
    scratch_project(tmp_path, use)
    assert run_typecheck(tmp_path) == 1
    out = capsys.readouterr().out
    errors = [line for line in out.splitlines() if ": error:" in line]
    # a comparison with a reading the variant does not have
    assert any(line.startswith("scratch/use.py:5: error: Non-overlapping equality check")
               and "bid_winer" in line for line in errors), out
    # a readings object built with a reading the variant does not have
    assert any(line.startswith("scratch/use.py:13: error:") and "bid_winer" in line
               for line in errors), out
    # readings built from plain text, unchecked: each value a plain str, not a reading
    assert any(line.startswith("scratch/use.py:9: error:") and "dict[str, str]" in line
               for line in errors), out

    fixed = (use.replace('"bid_winer"', '"bid_winner"')
             .replace("first_leader='bid_winer'", "first_leader='bid_winner'"))
    fixed = re.sub(r"def built\(\) -> Readings:\n    return .*\n", "def built() -> Readings:\n"
                   "    return PROFILES['literal']\n", fixed)
    scratch_project(tmp_path, fixed)
    assert run_typecheck(tmp_path) == 0, capsys.readouterr().out
