"""The pages' Bootstrap is built from assets/ (``make css``) with only the rules they use: a class a template or a
script uses that Bootstrap has must be in the built stylesheet, or a page would lose its look without a test failing."""

import re
from pathlib import Path

import bootstrap
import crispy_bootstrap5

ROOT = Path(__file__).resolve().parent.parent
BUILT = ROOT / "static" / "scores" / "bootstrap.min.css"
FULL = Path(bootstrap.__file__).parent / "static" / "bootstrap" / "css" / "bootstrap.min.css"


def classes_in(css: str) -> set[str]:
    return set(re.findall(r"\.(-?[A-Za-z_][\w-]*)", re.sub(r"url\([^)]*\)", "", css)))


def used_classes() -> set[str]:
    """Every class attribute's words in the templates (ours and crispy-bootstrap5's), and every quoted word in the scripts."""
    used = set()
    crispy = (Path(crispy_bootstrap5.__file__).parent / "templates").rglob("*.html")
    # Not the layout objects no form here uses (the accordion, the modal, the dismissible alert).
    unused = ("accordion", "modal", "alert.html")
    templates = [*(ROOT / "templates").rglob("*.html"), *(path for path in crispy if not path.name.startswith(unused))]
    for template in templates:
        for value in re.findall(r'class="([^"]*)"', template.read_text()):
            used.update(re.sub(r"{[%{].*?[%}]}", " ", value).split())
    for script in (ROOT / "static" / "scores").glob("*.js"):
        for text in re.findall(r"""["'`]([\w -]+)["'`]""", script.read_text()):
            used.update(text.split())
    return used


def test_every_bootstrap_class_the_pages_use_is_built():
    bootstraps = classes_in(FULL.read_text())
    missing = sorted((used_classes() & bootstraps) - classes_in(BUILT.read_text()))
    assert not missing, f"not in {BUILT.name}; run `make css`: {missing}"


def test_the_build_is_bootstraps_own_and_smaller():
    built = BUILT.read_text()
    assert "Bootstrap  v5.3.3" in built  # The licence banner, and the version django-bootstrap-static has.
    assert "Bootstrap  v5.3.3" in FULL.read_text()
    assert len(built) < len(FULL.read_text()) / 2
    assert '"bootstrap": "5.3.3"' in (ROOT / "assets" / "package.json").read_text()
