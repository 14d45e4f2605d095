"""Where the commands that write files may write: never into an installed package.

In a checkout the commands that regenerate the project's files (`baloot gen`,
`spec render`, `verify --write`, `explore`, `conform golden | examples |
pins --fix | needs --fix`) write the project's own files, as their defaults say.
An installed package (a wheel in site-packages) is read-only: there a command
refuses a destination inside the package's folder, before any work, and names
the option that writes elsewhere (`refuse`). It imports only the standard library.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

# Exit status of a command refused a destination, as of a bad command line.
REFUSED = 2

# The folder that holds the rooms: the project folder in a checkout (the package-dir
# mapping of pyproject.toml puts grammar/ there), site-packages/baloot in an install.
ROOMS_FOLDER = Path(__file__).resolve().parents[1]


def is_checkout(rooms: Path = ROOMS_FOLDER) -> bool:
    """True when the package runs from the project's own folder (a checkout, installed
    editable): the folder holding the rooms holds pyproject.toml, which no wheel ships."""
    return (rooms / "pyproject.toml").is_file()


def installed_package_folder(rooms: Path = ROOMS_FOLDER) -> Path | None:
    """The installed package's folder (site-packages/baloot), or None in a checkout."""
    return None if is_checkout(rooms) else rooms


def refusal(command: str, targets: Iterable[Path | None], elsewhere: str,
            rooms: Path = ROOMS_FOLDER) -> str | None:
    """The message refusing `baloot COMMAND` the first of `targets` that lies inside the
    installed package, or None when every target may be written (always in a checkout).
    A target of None stands for a default destination, one of the project's own files,
    so inside the package. `elsewhere` says how to write somewhere else (`pass --out DIR`)."""
    package = installed_package_folder(rooms)
    if package is None:
        return None
    for target in targets:
        if target is None:
            what = "its default destination, the project's own files,"
        elif target.resolve().is_relative_to(package):
            what = str(target)
        else:
            continue
        return (f"baloot {command}: will not write {what} inside the installed package "
                f"({package}), which stays as installed; {elsewhere}")
    return None


def refuse(command: str, targets: Iterable[Path | None], elsewhere: str,
           rooms: Path = ROOMS_FOLDER) -> bool:
    """True, after printing the `refusal` on stderr, when `baloot COMMAND` may not write one
    of `targets`; the command then exits with REFUSED, before any work."""
    message = refusal(command, targets, elsewhere, rooms)
    if message is not None:
        print(message, file=sys.stderr)
    return message is not None
