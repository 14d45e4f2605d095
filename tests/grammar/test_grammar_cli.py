"""`baloot spec check | trace | show` on small specs written to a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from baloot.cli.main import main

GOOD = """\
clause DEAL.1 "Each player gets eight cards."
clause SCORE.1 "Cards have values."

enum Rank [DEAL.1] "Ranks." { ace "A", ten "T" }
table card_value [SCORE.1] "Bunts per card." : Rank -> int { ace: 11, ten: 10 }

variant A5 rounding [SCORE.1] "How bunts become points." {
  reading each_team "Each team on its own." source "SCORE.1, the literal words"
  reading bidder_takes_rest "The bidder takes the rest." source "federation"
  default each_team
}

profile literal "The page." { rounding = each_team }
profile federation "The common reading." { rounding = bidder_takes_rest }

rule points [SCORE.1] "Points for some bunts." (bunts: int) -> int {
  choose rounding {
    each_team { return bunts // 10 }
    bidder_takes_rest { return 16 - bunts // 10 }
  }
}
"""


@pytest.fixture
def spec_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty `spec` folder under a working folder; wide output, so no wrapping."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    folder = tmp_path / "spec"
    folder.mkdir()
    return folder


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# ----------------------------------------------------------------- check --


def test_check_a_good_spec(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (spec_dir / "game.baloot").write_text(GOOD)
    status, out, err = run(capsys, "spec", "check", "--spec", str(spec_dir))
    assert status == 0
    assert out.strip() == ("spec ok: 1 files, 2 clauses, 1 rules, 1 tables, 0 orders, "
                           "1 variants, 2 profiles")
    assert err == ""


def test_check_a_broken_spec(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (spec_dir / "game.baloot").write_text(GOOD)
    (spec_dir / "more.baloot").write_text(
        "# one mistake\nrule twice [SCORE.1] (x: int) -> int {\n  return x * tw0\n}\n")
    status, out, err = run(capsys, "spec", "check", "--spec", str(spec_dir))
    assert status == 1
    assert out == ""
    assert err.splitlines() == [
        "spec/more.baloot:3:14: error: unknown name 'tw0'",
        "    3 |   return x * tw0",
        "      |              ^",
        "      expected: a parameter, a `let` name, or a declared rule, table, order, const, "
        "enum, enum member or record",
        "",
        "1 error in the spec",
    ]


def test_check_a_spec_with_a_syntax_error(spec_dir: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    (spec_dir / "game.baloot").write_text(GOOD.replace("ace: 11,", "ace: 11;"))
    status, _, err = run(capsys, "spec", "check", "--spec", str(spec_dir))
    assert status == 1
    line = 'table card_value [SCORE.1] "Bunts per card." : Rank -> int { ace: 11; ten: 10 }'
    column = line.index(";") + 1
    assert err.splitlines()[:4] == [
        f"spec/game.baloot:5:{column}: error: unexpected character ';'",
        f"    5 | {line}",
        "      | " + " " * (column - 1) + "^",
        "      expected: one of: ',', '}'",
    ]


def test_check_an_empty_folder(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "spec", "check", "--spec", str(spec_dir))
    assert status == 1
    assert out == ""
    assert err.startswith("spec:1:1: error: no spec files in this folder\n")


def test_a_folder_of_empty_files_is_no_spec(
    spec_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (spec_dir / "a.baloot").write_text("")
    (spec_dir / "b.baloot").write_text("# only a comment\n")
    status, out, err = run(capsys, "spec", "check", "--spec", str(spec_dir))
    assert status == 1 and out == ""
    assert "a.baloot:1:1: error: the spec declares no clause" in err


def test_a_pipe_and_a_looping_link_are_errors_not_a_hang(
    spec_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    os.mkfifo(spec_dir / "pipe.baloot")
    (spec_dir / "loop.baloot").symlink_to(spec_dir / "loop.baloot")
    status, _, err = run(capsys, "spec", "check", "--spec", str(spec_dir))
    assert status == 1
    for name in ("pipe.baloot", "loop.baloot"):
        assert f"{name}:1:1: error: not a regular file" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("separator", ["\u2028", "\f", "\x85"])
def test_an_error_quotes_its_own_line_past_unusual_line_breaks(
    spec_dir: Path, capsys: pytest.CaptureFixture[str], separator: str
) -> None:
    # U+2028, a form feed or NEL inside a text is no line break for the parser
    (spec_dir / "a.baloot").write_text(
        f'clause X.1 "a{separator}b"\nclause Y.2 "c" ;\n', encoding="utf-8"
    )
    status, _, err = run(capsys, "spec", "check", "--spec", str(spec_dir))
    assert status == 1
    first, quoted = err.split("\n")[:2]
    assert first.endswith("a.baloot:2:16: error: unexpected character ';'")
    assert quoted == '    2 | clause Y.2 "c" ;'  # line 2 itself, not the text after U+2028


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("return " + " + ".join(["1"] * 500), "an expression nested deeper than 100 levels"),
        ("return " + "if true then " * 400 + "1" + " else 0" * 400,
         "an expression nested deeper than 100 levels"),
        ("return " + "9" * 4301, "a number of 4301 digits"),
    ],
)
def test_an_expression_too_big_to_build_is_a_positioned_error(
    spec_dir: Path, capsys: pytest.CaptureFixture[str], body: str, message: str
) -> None:
    (spec_dir / "a.baloot").write_text(
        f'clause X.1 "x"\nrule r [X.1] "r" () -> int {{\n  {body}\n}}\n', encoding="utf-8"
    )
    status, _, err = run(capsys, "spec", "check", "--spec", str(spec_dir))
    assert status == 1
    assert "a.baloot:3:" in err and message in err
    assert "Traceback" not in err and "internal:" not in err


# ----------------------------------------------------------------- trace --


def test_trace_a_covered_spec(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (spec_dir / "game.baloot").write_text(GOOD)
    status, out, _ = run(capsys, "spec", "trace", "--spec", str(spec_dir))
    assert status == 0
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:4]]
            for line in out.splitlines() if line.startswith("│")}
    assert rows == {
        "DEAL.1": ["enum Rank", ""],
        "SCORE.1": ["table card_value, rule points", "A5 rounding"],
    }
    assert out.rstrip().endswith("2 of 2 clauses covered; uncovered: none")


def test_trace_prints_every_clause_and_fails_on_an_uncovered_one(
        spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (spec_dir / "page.baloot").write_text(
        'clause END.1 "The first team to 152 wins."\n'
        'clause END.2 "Only a variant cites this."\n'
        'clause END.3 "A const covers this."\n')
    (spec_dir / "end.baloot").write_text(
        'const target [END.3] = 152\n'
        'variant A19 both_reach [END.2] "Both reach 152." {\n'
        '  reading higher "The higher total wins." source "notes"\n  default higher\n}\n'
        'profile literal "x" { both_reach = higher }\n')
    status, out, err = run(capsys, "spec", "trace", "--spec", str(spec_dir))
    assert status == 1
    assert err == ""
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:4]]
            for line in out.splitlines() if line.startswith("│")}
    assert rows == {
        "END.1": ["none", ""],
        "END.2": ["none", "A19 both_reach"],
        "END.3": ["const target", ""],
    }
    assert out.rstrip().endswith("1 of 3 clauses covered; uncovered: END.1, END.2")


def test_trace_still_fails_on_other_errors(spec_dir: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    (spec_dir / "game.baloot").write_text(GOOD + 'const hand [DEAL.7] = 8\n')
    status, out, err = run(capsys, "spec", "trace", "--spec", str(spec_dir))
    assert status == 1
    assert out == ""
    assert "error: clause 'DEAL.7' does not exist" in err


# ------------------------------------------------------------------ show --


def test_show_a_variant(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (spec_dir / "game.baloot").write_text(GOOD)
    expected = [
        "variant rounding  (spec/game.baloot:7:9)",
        "  How bunts become points.",
        "  clauses:",
        "    SCORE.1  Cards have values.",
        "  ambiguity A5; readings:",
        "    each_team (default): Each team on its own.",
        "      source: SCORE.1, the literal words",
        "      profiles: literal",
        "    bidder_takes_rest: The bidder takes the rest.",
        "      source: federation",
        "      profiles: federation",
        "  spec text:",
        *("    " + line for line in GOOD.splitlines()[6:11]),
    ]
    for name in ("rounding", "A5"):  # by its name or its ambiguity ID
        status, out, err = run(capsys, "spec", "show", name, "--spec", str(spec_dir))
        assert status == 0 and err == ""
        assert out.splitlines() == expected


EVIDENCE = GOOD.replace(
    'profile federation "The common reading." { rounding = bidder_takes_rest }',
    'profile federation "The common reading." {\n'
    '  rounding = bidder_takes_rest contested\n'
    '    source "a video: the bidder takes the rest"\n'
    '    against each_team "an app\'s data: each team rounded"\n'
    '    against "an engine: the other team takes the rest"\n'
    '    settled "The video states the rule of the table."\n}') + """
scope "In and out." {
  checks play "The legal cards."
  leaves sawa "Claims of the remaining tricks." protocol "Could become a capability."
}
"""


def test_show_a_variant_with_its_evidence(spec_dir: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Each profile's choice is shown with its status and the sources on each side."""
    (spec_dir / "game.baloot").write_text(EVIDENCE)
    status, out, err = run(capsys, "spec", "show", "rounding", "--spec", str(spec_dir))
    assert status == 0 and err == ""
    lines = out.splitlines()
    start = lines.index("  profile federation reads it as bidder_takes_rest: contested")
    assert lines[start + 1:start + 5] == [
        "    for: a video: the bidder takes the rest",
        "    against (each_team): an app's data: each team rounded",
        "    against (no reading yet): an engine: the other team takes the rest",
        "    where they disagree: The video states the rule of the table.",
    ]


def test_show_a_part_of_the_scope(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (spec_dir / "game.baloot").write_text(EVIDENCE)
    status, out, err = run(capsys, "spec", "show", "sawa", "--spec", str(spec_dir))
    assert status == 0 and err == ""
    assert out.splitlines()[1:] == [
        "  Claims of the remaining tricks.",
        "  the protocol: Could become a capability.",
    ]
    assert out.startswith("scope sawa: left to the table or the app  (spec/game.baloot:")


def test_show_a_rule(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (spec_dir / "game.baloot").write_text(GOOD)
    status, out, _ = run(capsys, "spec", "show", "points", "--spec", str(spec_dir))
    assert status == 0
    assert out.splitlines() == [
        "rule points  (spec/game.baloot:16:6)",
        "  Points for some bunts.",
        "  clauses:",
        "    SCORE.1  Cards have values.",
        "  depends on A5 rounding: each_team, bidder_takes_rest",
        "  spec text:",
        *("    " + line for line in GOOD.splitlines()[15:22]),
    ]
    assert out.splitlines()[-1] == "    }"


def test_show_a_table(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (spec_dir / "game.baloot").write_text(GOOD)
    status, out, _ = run(capsys, "spec", "show", "card_value", "--spec", str(spec_dir))
    assert status == 0
    assert out.splitlines() == [
        "table card_value  (spec/game.baloot:5:7)",
        "  Bunts per card.",
        "  clauses:",
        "    SCORE.1  Cards have values.",
        "  spec text:",
        "    " + GOOD.splitlines()[4],
    ]


def test_show_an_unknown_name(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (spec_dir / "game.baloot").write_text(GOOD)
    status, out, err = run(capsys, "spec", "show", "kaboot", "--spec", str(spec_dir))
    assert status == 1
    assert out == ""
    assert ("no rule, table, order, const, enum, record, variant or part of the scope "
            "named 'kaboot'") in err


def test_show_on_a_broken_spec(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (spec_dir / "game.baloot").write_text(GOOD.replace("default each_team", "default nearest"))
    status, out, err = run(capsys, "spec", "show", "rounding", "--spec", str(spec_dir))
    assert status == 1
    assert out == ""
    assert "spec/game.baloot:10:11: error: default 'nearest' is not a reading of rounding" in err


def test_spec_needs_a_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["spec"])
    assert info.value.code == 2
