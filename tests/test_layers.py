"""The layers of docs/architecture.md hold: each imports only the layers below it, the pure modules nothing of the
database, no view module another (but the access helper), views take only writes from the services, and the only SQL
written by hand is the history import's bulk inserts, in one module that only the import uses. HTML is left to the
templates, which cache nothing between requests."""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE = [
    "scores.rules",
    "scores.names",
    "scores.problems",
    "scores.charts",
    "scores.history.document",
    "scores.qr",
    "scores.nights",
    "scores.whist",
]
# What a pure module may not bring in, even through another module.
# (django.apps comes with django.utils.translation, which the pure modules may use for their messages.)
DATABASE = ("django.db", "django.contrib", "scores.models", "scores.selectors", "scores.services", "scores.views", "scores.history.export")
# From the bottom up: a module may import its own layer and those before it. Modules in none (the admin, the
# commands, the demo, the project's settings and URLs) stand above them all.
LAYERS = [
    PURE,
    ["scores.models"],
    ["scores.selectors", "scores.history.export"],
    ["scores.services", "scores.history.bulk", "scores.tasks", "scores.accounts"],
    ["scores.forms"],
    ["scores.views", "scores.urls", "scores.templatetags"],
]
VIEWS = ROOT / "scores" / "views"
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


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _imported(path: Path) -> set[str]:
    """The modules a file imports, by their full names; ``from a import b`` counts as ``a`` and ``a.b``."""
    return _imports(path.read_text(), _module(path), package=path.name == "__init__.py")


def _imports(source: str, module: str, *, package: bool = False) -> set[str]:
    parts = module.split(".") if package else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join([*(parts[: len(parts) - node.level + 1] if node.level else []), *([node.module] if node.module else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _strings(path: Path) -> list[tuple[int, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
    return [(token.start[0], token.string) for token in tokens if token.type in (tokenize.STRING, tokenize.FSTRING_MIDDLE)]


BULK = ROOT / "scores" / "history" / "bulk.py"


def test_sql_text_lives_only_in_the_bulk_module():
    found = []
    for path in _python_files():
        if path == BULK:
            continue
        found += [f"{path.relative_to(ROOT)}:{line}" for line, text in _strings(path) if SQL.search(text)]
        source = path.read_text()
        found += [f"{path.relative_to(ROOT)}: {match.group(0)}" for match in CURSOR.finditer(source)]
    assert found == []


def test_the_sql_check_finds_sql_where_it_is():
    """The check above looks at strings and cursors: it sees them in the bulk module, where they are allowed."""
    assert any(SQL.search(text) for _line, text in _strings(BULK))
    assert CURSOR.search(BULK.read_text())


def test_only_the_import_uses_the_bulk_module():
    users = [path.relative_to(ROOT).as_posix() for path in _python_files() if "scores.history.bulk" in _imported(path) and path != BULK]
    assert users == ["scores/services/imports.py"]


def _layer(name: str) -> int | None:
    """The layer of a module (or of a name in one, ``scores.models.Game``): the longest listed prefix decides."""
    found = [(len(prefix), i) for i, layer in enumerate(LAYERS) for prefix in layer if name == prefix or name.startswith(prefix + ".")]
    return max(found)[1] if found else None


def _is_package(name: str) -> bool:
    return (ROOT.joinpath(*name.split(".")) / "__init__.py").exists()


def test_each_layer_imports_only_the_layers_below_it():
    found = []
    for path in _python_files():
        layer = _layer(_module(path))
        if layer is None:
            continue
        for name in sorted(_imported(path)):
            if not name.startswith("scores.") or (_is_package(name) and _layer(name) is None):
                continue
            if _layer(name) is None or _layer(name) > layer:
                found.append(f"{_module(path)} imports {name}")
    assert found == []


def test_the_layer_check_sees_an_import_from_above():
    assert _layer("scores.models.Game") == 1 and _layer("scores.history.document.read") == 0
    assert _layer("scores.history.bulk") == 3 and _layer("scores.views.games") == 5 and _layer("scores.admin") is None


def test_the_write_check_tells_a_read_from_a_write():
    source = """
from django.db import transaction

def _store(game):
    game.save()

def finish(game):
    _store(game)

@transaction.atomic
def start(league):
    pass

def count(league):
    return league.games.count()
"""
    functions = {node.name: node for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}
    assert [name for name in ("finish", "start", "count") if _writes(functions, name, source, set())] == ["finish", "start"]


def test_no_view_module_imports_another_but_the_access_helper():
    views = {_module(path) for path in VIEWS.glob("*.py") if path.name != "__init__.py"}
    found = []
    for path in VIEWS.glob("*.py"):
        found += [f"{_module(path)} imports {name}" for name in _imported(path) if name in views - {"scores.views.access"}]
    assert found == []


def test_the_view_check_sees_a_relative_import():
    assert "scores.views.offline" in _imports("from . import offline", "scores.views.games")
    assert "scores.history.bulk" in _imports("from ..history import bulk", "scores.services.imports")


# A service writes: in a transaction, or through a model's manager or instance.
WRITES = re.compile(r"\.(save|update|delete|create|bulk_create|bulk_update|get_or_create|update_or_create|insert_rows)\(")


def _writes(functions: dict[str, ast.FunctionDef], name: str, source: str, seen: set[str]) -> bool:
    """Whether the service function ``name`` writes, itself or through the functions of its module it calls."""
    seen.add(name)
    node = functions[name]
    if any(ast.unparse(decorator) == "transaction.atomic" for decorator in node.decorator_list):
        return True
    if WRITES.search(ast.get_source_segment(source, node)):
        return True
    called = {call.func.id for call in ast.walk(node) if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)}
    return any(_writes(functions, other, source, seen) for other in called & functions.keys() - seen)


def test_views_take_only_writes_from_the_services():
    """Reads live in ``scores.selectors``: what a view uses from ``scores.services`` is a write, or a refusal it raises."""
    defined: dict[str, tuple[dict[str, ast.FunctionDef], str]] = {}
    errors: set[str] = set()
    for path in (ROOT / "scores" / "services").glob("*.py"):
        source = path.read_text()
        tree = ast.parse(source)
        functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
        defined.update(dict.fromkeys(functions, (functions, source)))
        errors.update(node.name for node in tree.body if isinstance(node, ast.ClassDef))
    used = set()
    for path in [*VIEWS.glob("*.py"), *(ROOT / "scores" / "templatetags").glob("*.py"), *(ROOT / "scores" / "forms").glob("*.py")]:
        tree = ast.parse(path.read_text())
        used |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute) and ast.unparse(node.value) == "services"}
    assert used, "the views use the services through ``services.<name>``"
    reads = []
    for name in sorted(used - errors):
        functions, source = defined[name]
        if not _writes(functions, name, source, set()):
            reads.append(name)
    assert reads == []


def test_no_markup_is_marked_safe_by_hand():
    """HTML lives in templates; a few tags in Python are built with ``format_html``, which escapes what it is given."""
    marked = re.compile(r"\bmark_safe\b|\bSafeString\(")
    assert [str(path.relative_to(ROOT)) for path in _python_files() if marked.search(path.read_text())] == []


def test_no_template_caches_a_fragment():
    """A page is rendered for each request: no fragment is kept from one request for another."""
    cached = re.compile(r"{%\s*(cache\b|load\b[^%]*\bcache\b)")
    assert [str(path.relative_to(ROOT)) for path in ROOT.glob("templates/**/*.html") if cached.search(path.read_text())] == []
