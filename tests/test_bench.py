"""CI lints as `make lint` does: the two lists of lint commands cannot drift apart again."""

from __future__ import annotations

import re

from tests.markdown_files import ROOT


def lint_commands(makefile: str) -> list[str]:
    """The commands of the Makefile's ``lint`` target, with the virtualenv's path written out."""
    recipe = re.search(r"^lint:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe, "the Makefile has no lint target"
    return [line.strip().replace("$(VENV)", ".venv") for line in recipe.group(1).splitlines()]


def test_ci_runs_every_lint_command_of_the_makefile():
    commands = lint_commands((ROOT / "Makefile").read_text())
    ci = {line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()}

    assert ".venv/bin/ruff format --check ." in commands
    assert [command for command in commands if command not in ci] == []
