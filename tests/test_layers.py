"""The house of docs/architecture.md holds. By area: the engine imports no area and nothing of Django but its
translation and number formats; each area imports the engine and the areas under it, and an arrow up is one listed
here with its reason. By kind, across the areas: models, reads, writes, forms, views, each importing only the kinds
under it; no view module imports another (but the access, answer and presentation helpers), views take only writes
from the services and write nothing themselves; the selectors return data, never words. The only SQL written by
hand is the history import's bulk inserts, in one module that only the import uses. HTML is left to the templates,
which cache nothing between requests."""

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
# The areas from the bottom up: each may import the engine and the areas before it in this list, never one after it.
AREAS = ["engine", "common", "accounts", "leagues", "table", "standings", "nights", "people", "history"]
# Arrows that run up today, each with its reason: a module of an area (or a whole area) and the area above it that it
# imports. A new arrow up fails the test below; an arrow that is gone must be struck from here.
UPWARD = {
    ("scores.leagues.models", "table"): "a membership is read beside a league or a game (Membership.read's type only)",
    ("scores.leagues.forms.leagues", "table"): "the house rules form is the new game's rules form; the games filter",
    ("scores.leagues.forms.leagues", "standings"): "the standings' and seasons' filters live with the league's forms",
    ("scores.leagues.selectors", "table"): "a league's games a page at a time",
    ("scores.leagues.services", "table"): "a league deleted with its games; a renamed player's games shown again",
    ("scores.leagues.views.leagues", "standings"): "the league's page shows its standings",
    ("scores.table.services", "standings"): "a hand that ends a game rates it and counts it in the season, in its transaction",
    ("scores.standings.views.players", "people"): "a player's page offers a claim of a guest's games",
}
# The engine and the history document are pure Python: what they may import of Django, and nothing of the database.
ENGINE_DJANGO = ("django.utils.translation", "django.utils.formats")
PURE = [
    "scores.engine.rules",
    "scores.engine.names",
    "scores.engine.problems",
    "scores.engine.charts",
    "scores.engine.qr",
    "scores.engine.planner",
    "scores.engine.whist",
    "scores.history.document",
    "scores.history.document.format",
    "scores.history.document.reader",
    "scores.history.document.writers",
    "scores.history.document.csv_rows",
    "scores.common.refusals",
]
PURE_PACKAGES = ("scores", "scores.engine", "scores.history", "scores.common")
# By kind, from the bottom up: a module may import its own kind and those before it. Modules of none (the admin, the
# commands, the demo, the project's settings and URLs) stand above them all. The longest prefix decides.
KINDS = [
    [*PURE, "scores.engine"],
    ["scores.models", *(f"scores.{area}.models" for area in AREAS)],
    [*(f"scores.{area}.selectors" for area in AREAS), "scores.table.scorer", "scores.history.export"],
    [*(f"scores.{area}.services" for area in AREAS), "scores.history.bulk", "scores.history.tasks", "scores.accounts"],
    [*(f"scores.{area}.forms" for area in AREAS)],
    [
        *(f"scores.{area}.{kind}" for area in AREAS for kind in ("views", "access", "answers", "presentation", "urls")),
        "scores.accounts.install",
        "scores.common.requests",
        "scores.common.converters",
        "scores.urls",
        "scores.templatetags",
    ],
]
SQL = re.compile(r"\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|BEGIN\s+IMMEDIATE)\b", re.IGNORECASE | re.DOTALL)
CURSOR = re.compile(r"\.cursor\(|\.raw\(|RawSQL|\.extra\(")


@pytest.mark.parametrize("module", PURE)
def test_a_pure_module_imports_nothing_of_the_database(module):
    """Imported alone, without Django's settings, a pure module loads no database code and no area."""
    code = f"import importlib, json, sys; importlib.import_module({module!r}); print(json.dumps(sorted(sys.modules)))"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert [name for name in loaded if name.startswith(("django.db", "django.contrib"))] == []
    assert [name for name in loaded if name.split(".")[0] == "scores" and name not in PURE and name not in PURE_PACKAGES] == []


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
    assert users == ["scores/history/services.py"]


def _kind(name: str) -> int | None:
    """The kind of a module (or of a name in one, ``scores.table.models.Game``): the longest listed prefix decides."""
    found = [(len(prefix), i) for i, kind in enumerate(KINDS) for prefix in kind if name == prefix or name.startswith(prefix + ".")]
    return max(found)[1] if found else None


def _area(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "scores" and parts[1] in AREAS else None


def _is_package(name: str) -> bool:
    return (ROOT.joinpath(*name.split(".")) / "__init__.py").exists()


def _arrows_up() -> dict[tuple[str, str], list[str]]:
    """Each import from an area to one above it, under the listed module (or area) it comes from."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in _python_files():
        module = _module(path)
        area = _area(module)
        if area is None:
            continue
        for name in sorted(_imported(path)):
            target = _area(name)
            if target is None or AREAS.index(target) <= AREAS.index(area):
                continue
            listed = [prefix for prefix, up in UPWARD if up == target and (module == prefix or module.startswith(prefix + "."))]
            found.setdefault((max(listed, key=len) if listed else module, target), []).append(f"{module} imports {name}")
    return found


def test_each_area_imports_only_the_engine_and_the_areas_under_it():
    """A new arrow up (an area importing one above it) fails here; those listed in ``UPWARD`` say why they stand."""
    arrows = _arrows_up()
    assert [line for key, lines in sorted(arrows.items()) if key not in UPWARD for line in lines] == []
    assert [key for key in UPWARD if key not in arrows] == [], "an arrow listed in UPWARD is gone: strike it"


def test_the_area_check_sees_an_arrow_up():
    assert _area("scores.table.views.games") == "table" and _area("scores.engine.rules.Rules") == "engine"
    assert _area("scores.admin") is None and _area("scores.models") is None
    assert AREAS.index("engine") < AREAS.index("leagues") < AREAS.index("table") < AREAS.index("nights")


def test_the_engine_imports_no_area_and_nothing_of_django_but_its_words():
    found = []
    for path in (ROOT / "scores" / "engine").glob("*.py"):
        for name in sorted(_imported(path)):
            allowed = name.startswith(ENGINE_DJANGO) or any(module.startswith(name + ".") for module in ENGINE_DJANGO)
            if name.split(".")[0] == "django" and not allowed:
                found.append(f"{_module(path)} imports {name}")
            if _area(name) not in (None, "engine") or name in ("scores.models", "scores.urls"):
                found.append(f"{_module(path)} imports {name}")
    assert found == []


def test_each_kind_imports_only_the_kinds_below_it():
    found = []
    for path in _python_files():
        kind = _kind(_module(path))
        if kind is None:
            continue
        for name in sorted(_imported(path)):
            if not name.startswith("scores.") or (_is_package(name) and _kind(name) is None):
                continue
            if _kind(name) is None or _kind(name) > kind:
                found.append(f"{_module(path)} imports {name}")
    assert found == []


def test_the_kind_check_sees_an_import_from_above():
    assert _kind("scores.table.models.Game") == 1 and _kind("scores.history.document.read") == 0
    assert _kind("scores.history.bulk") == 3 and _kind("scores.table.views.games") == 5 and _kind("scores.admin") is None
    assert _kind("scores.standings.selectors.standings") == 2 and _kind("scores.leagues.forms.members") == 4


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


def _view_files() -> list[Path]:
    """Every module of views: an area's ``views`` (a module or a package), the installable app's, the access helpers."""
    files = [path for path in _python_files() if _kind(_module(path)) == len(KINDS) - 1 and _area(_module(path))]
    return [path for path in files if path.name != "__init__.py" and not _module(path).endswith(".urls")]


def test_no_view_module_imports_another_but_the_access_helpers():
    views = {_module(path) for path in _view_files()}
    helpers = {name for name in views if name.endswith((".access", ".answers", ".presentation"))} | {
        "scores.common.requests",
        "scores.common.converters",
    }
    found = []
    for path in _view_files():
        found += [f"{_module(path)} imports {name}" for name in _imported(path) if name in views - helpers]
    assert found == []


def test_the_view_check_sees_a_relative_import():
    assert "scores.table.views.offline" in _imports("from . import offline", "scores.table.views.games")
    assert "scores.history.bulk" in _imports("from . import bulk", "scores.history.services")
    assert {path.relative_to(ROOT).as_posix() for path in _view_files()} >= {"scores/table/views/games.py", "scores/nights/views.py"}


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


def _service_files() -> list[Path]:
    return [path for path in _python_files() if _kind(_module(path)) == 3 and ".services" in _module(path) + "."]


def test_views_take_only_writes_from_the_services():
    """Reads live in each area's ``selectors``: what a view uses from a ``services`` is a write, or a refusal it raises."""
    defined: dict[str, tuple[dict[str, ast.FunctionDef], str]] = {}
    errors: set[str] = {"Refused"}
    for path in _service_files():
        source = path.read_text()
        tree = ast.parse(source)
        functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
        defined.update(dict.fromkeys(functions, (functions, source)))
        errors.update(node.name for node in tree.body if isinstance(node, ast.ClassDef))
    used = set()
    forms = [path for path in _python_files() if _kind(_module(path)) == 4]
    for path in [*_view_files(), *(ROOT / "scores" / "templatetags").glob("*.py"), *forms]:
        tree = ast.parse(path.read_text())
        used |= {
            node.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id.endswith("services")
        }
    assert used, "the views use the services through ``services.<name>``"
    reads = []
    for name in sorted(used - errors):
        functions, source = defined[name]
        if not _writes(functions, name, source, set()):
            reads.append(name)
    assert reads == []


# A write called in a view: a model's ``save`` or ``delete``, a manager's or QuerySet's ``create``, ``update``, ``delete``.
VIEW_WRITE_CALLS = {"save", "delete", "create", "update", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}


def _view_writes(source: str, module: str) -> set[str]:
    """The functions of a view module that write, as "module:function". ``update`` counts on a manager or QuerySet
    (``objects``, ``filter``, ``exclude``, ``all``), not on a dict (a page's context)."""
    found = set()
    for function in ast.parse(source).body:
        if not isinstance(function, ast.FunctionDef):
            continue
        for call in ast.walk(function):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in VIEW_WRITE_CALLS):
                continue
            receiver = ast.unparse(call.func.value)
            if call.func.attr == "update" and not re.search(r"\bobjects\b|\.(filter|exclude|all)\(", receiver):
                continue
            found.add(f"{module}:{function.name}")
    return found


def test_no_view_writes():
    """A write belongs in a service: a view that saves, creates, updates or deletes anything itself fails."""
    found = set()
    for path in _view_files():
        found |= _view_writes(path.read_text(), _module(path))
    assert sorted(found) == []


def test_the_view_write_check_tells_a_write_from_a_context():
    source = """
def page(request, game):
    context = {}
    context.update(game=game)
    return context

def rename(request, league):
    league.save(update_fields=["name"])

def clear(request, league):
    Invite.objects.filter(league=league).update(revoked=True)
"""
    assert _view_writes(source, "m") == {"m:rename", "m:clear"}


def test_no_markup_is_marked_safe_by_hand():
    """HTML lives in templates; a few tags in Python are built with ``format_html``, which escapes what it is given."""
    marked = re.compile(r"\bmark_safe\b|\bSafeString\(")
    assert [str(path.relative_to(ROOT)) for path in _python_files() if marked.search(path.read_text())] == []


def test_no_template_caches_a_fragment():
    """A page is rendered for each request: no fragment is kept from one request for another."""
    cached = re.compile(r"{%\s*(cache\b|load\b[^%]*\bcache\b)")
    assert [str(path.relative_to(ROOT)) for path in ROOT.glob("templates/**/*.html") if cached.search(path.read_text())] == []


TRANSLATION = "django.utils.translation"


def _selector_files() -> list[Path]:
    """Every module of an area's ``selectors`` (a module or a package)."""
    return [path for path in _python_files() if _area(_module(path)) and ".selectors" in _module(path) + "."]


def _words(source: str, module: str) -> set[str]:
    """The translation names a module imports: what would put words in what it returns."""
    return {name for name in _imports(source, module) if name == TRANSLATION or name.startswith(TRANSLATION + ".")}


def test_no_selector_says_words():
    """Selectors return data (QuerySets, dataclasses, numbers, a reason's code); what a player reads is written in the
    templates, or in a presentation module or a refusal where a message needs the same sentence."""
    found = []
    for path in _selector_files():
        found += [f"{_module(path)} imports {name}" for name in sorted(_words(path.read_text(), _module(path)))]
    assert found == []


def test_the_words_check_sees_a_translation_import():
    assert _words("from django.utils.translation import gettext as _", "m") == {TRANSLATION, f"{TRANSLATION}.gettext"}
    assert _words("from django.utils import translation", "m") == {f"{TRANSLATION}"}
    assert _words("import django.utils.translation", "m") == {TRANSLATION}
    assert _words("from django.utils.formats import date_format", "m") == set()
    selectors = {path.relative_to(ROOT).as_posix() for path in _selector_files()}
    assert {"scores/people/selectors.py", "scores/standings/selectors/standings.py", "scores/table/selectors.py"} <= selectors
