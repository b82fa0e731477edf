"""The layers of docs/architecture.md hold: the pure modules import nothing of the database, and SQL lives only beside
the models, in their documented QuerySet methods."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE = ["scores.rules", "scores.names", "scores.problems", "scores.charts", "scores.history.document", "scores.qr"]
# What a pure module may not bring in, even through another module.
# (django.apps comes with django.utils.translation, which the pure modules may use for their messages.)
DATABASE = ("django.db", "django.contrib", "scores.models", "scores.services", "scores.views", "scores.history.export")
SQL = re.compile(r"\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|BEGIN\s+IMMEDIATE)\b", re.IGNORECASE | re.DOTALL)
CURSOR = re.compile(r"\.cursor\(|\.raw\(|RawSQL|\.extra\(")


@pytest.mark.parametrize("module", PURE)
def test_a_pure_module_imports_nothing_of_the_database(module):
    """Imported alone, without Django's settings, a pure module loads no database code."""
    code = f"import importlib, json, sys; importlib.import_module({module!r}); print(json.dumps(sorted(sys.modules)))"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert [name for name in loaded if name.startswith(DATABASE)] == []


def _python_files() -> list[Path]:
    files = [*ROOT.glob("scores/**/*.py"), *ROOT.glob("pitchleague/**/*.py")]
    return [path for path in files if "migrations" not in path.parts]


def _strings(path: Path) -> list[tuple[int, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
    return [(token.start[0], token.string) for token in tokens if token.type in (tokenize.STRING, tokenize.FSTRING_MIDDLE)]


def test_sql_text_lives_only_beside_the_models():
    found = []
    for path in _python_files():
        if path == ROOT / "scores" / "models.py":
            continue
        found += [f"{path.relative_to(ROOT)}:{line}" for line, text in _strings(path) if SQL.search(text)]
        source = path.read_text()
        found += [f"{path.relative_to(ROOT)}: {match.group(0)}" for match in CURSOR.finditer(source)]
    assert found == []


def test_the_sql_check_finds_sql_where_it_is():
    """The check above looks at strings and cursors: it sees them in the models, where they are allowed."""
    models = ROOT / "scores" / "models.py"
    assert any(SQL.search(text) for _line, text in _strings(models))
    assert CURSOR.search(models.read_text())
