"""Values from outside that once escaped as other exceptions: a spec text's lone
surrogate escape, a fuzz timeout of inf or nan, a profile or overrides of another type."""

from __future__ import annotations

import re
from typing import Any

import pytest

from baloot.cli.main import main as cli_main
from baloot.grammar.errors import SpecError
from baloot.grammar.parser import parse_text
from baloot.reference_impl import new_game
from baloot.reference_impl.runtime import SetupError


# A text is read as a Python string literal, where even a pair of surrogate escapes stays two
# halves: a character beyond U+FFFF is written \U0001f0a1.
@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "\\U0000dc00", "\\ud83c\\udca1"])
def test_a_lone_surrogate_escape_in_a_spec_text_is_a_positioned_error(escape: str) -> None:
    with pytest.raises(SpecError) as refused:
        parse_text(f'clause X.1 "x"\nclause Y.1 "a{escape}b"\n', "f.baloot")
    (problem,) = refused.value.problems
    assert (problem.pos.line, problem.pos.column) == (2, 12)
    assert problem.message == "bad escape in a quoted text"


def test_a_character_beyond_the_basic_plane_is_one_escape() -> None:
    assert parse_text('clause X.1 "\\U0001f0a1"\n', "f.baloot")


@pytest.mark.parametrize("option", ["--timeout", "--start-timeout"])
@pytest.mark.parametrize("value", ["inf", "nan", "0", "-1"])
def test_a_fuzz_timeout_that_is_no_number_of_seconds_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    status = cli_main(["fuzz", "--engine", "unused", "--rounds", "1", option, value])
    err = capsys.readouterr().err
    assert status == 2, err
    assert f"{option} must be a number of seconds more than 0" in err
    assert "Traceback" not in err


def test_a_fuzz_profile_the_spec_lacks_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A usage error (2), found before any engine starts: the engine is never asked."""
    status = cli_main(["fuzz", "--engine", "no-such-engine-binary", "--rounds", "1",
                       "--profile", "nope"])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    assert "--profile 'nope' is not a profile of the spec" in err


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"profile": ["literal"]}, "unknown profile ['literal']"),
        ({"profile": None}, "unknown profile None"),
        ({"overrides": ["rounding"]}, "overrides ['rounding']: expected an object"),
    ],
)
def test_a_setup_value_of_another_type_is_a_setup_error(kwargs: dict[str, Any],
                                                        expected: str) -> None:
    with pytest.raises(SetupError, match=re.escape(expected)):
        new_game(**kwargs)
