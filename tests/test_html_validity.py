"""The HTML of the main pages, as the test client gets them, keeps the rules of the HTML standard that a template can
break and a browser forgives silently (no validator is run here: the W3C's needs Java).

Checked on every page: the document parses with no stray or unclosed element; no attribute is given twice; every id is
unique; a label's ``for``, ``aria-labelledby`` and ``aria-describedby`` name ids that exist; no ``autocomplete`` on a
radio button or checkbox (not allowed there); every ``nav`` and ``role=region`` has a name, and no two navs the same
one, so a screen reader's list of landmarks says which is which."""

from __future__ import annotations

import datetime
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from scores.engine import planner, rules
from scores.leagues.models import League, Player
from scores.nights import services as nights_services
from scores.people import services
from scores.table.models import Game
from tests import small_league as leagues

# Elements that never have an end tag; p and li and the like may leave theirs out, which this check does not allow.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.open: list[str] = []
        self.elements: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = [name for name, _ in attrs]
        if len(names) != len(set(names)):
            self.problems.append(f"<{tag}> has an attribute twice: {names}")
        self.elements.append((tag, dict(attrs)))
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag not in VOID and "svg" not in self.open:
            self.problems.append(f"<{tag}/> is not a void element")  # Outside SVG, where <line/> closes itself.

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.problems.append(f"</{tag}> closes a void element")
        elif not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.open[-1] if self.open else 'nothing'}> (open: {self.open[-4:]})")
            if tag in self.open:
                del self.open[len(self.open) - 1 - self.open[::-1].index(tag) :]
        else:
            self.open.pop()


def problems(html: str) -> list[str]:
    page = Page()
    page.feed(html)
    page.close()
    found = list(page.problems)
    if page.open:
        found.append(f"never closed: {page.open}")
    ids = [attrs["id"] for _, attrs in page.elements if attrs.get("id")]
    found += [f'id "{i}" is used {ids.count(i)} times' for i in sorted(set(ids)) if ids.count(i) > 1]
    for tag, attrs in page.elements:
        for name in ("for", "aria-labelledby", "aria-describedby"):
            if name == "for" and tag != "label":
                continue
            for ref in (attrs.get(name) or "").split():
                if ref not in ids:
                    found.append(f'<{tag} {name}="{ref}"> names no element')
        if tag == "input" and attrs.get("type") in ("radio", "checkbox") and "autocomplete" in attrs:
            found.append(f'<input type="{attrs["type"]}" name="{attrs.get("name")}"> has autocomplete, not allowed there')
    landmarks = [(tag, attrs) for tag, attrs in page.elements if tag == "nav" or attrs.get("role") == "region"]
    names = [attrs.get("aria-label") or attrs.get("aria-labelledby") for _, attrs in landmarks]
    found += [f"<{tag} class={attrs.get('class')!r}> has no name" for (tag, attrs), name in zip(landmarks, names, strict=True) if not name]
    nav_names = [name for (tag, _), name in zip(landmarks, names, strict=True) if tag == "nav" and name]
    found += [f'two navs are named "{n}"' for n in sorted(set(nav_names)) if nav_names.count(n) > 1]
    return found


def test_the_checks_find_what_they_look_for():
    """Each rule above, broken once: the check must say so."""
    broken = """<!doctype html><html><body><nav></nav><div id="a"></div><div id="a"></div><label for="b">B</label>
    <input type="checkbox" autocomplete="off" name="c"><p class="x" class="y"></span></p><div></body></html>"""
    found = "\n".join(problems(broken))
    for expected in ('"a" is used 2 times', 'for="b"> names no element', "has autocomplete", "attribute twice", "</span> closes <p>",
                     "has no name", "</body> closes <div>"):  # fmt: skip
        assert expected in found, found
    assert (
        problems('<!doctype html><html lang="en"><body><nav aria-label="Site"><svg><line/></svg><br><img src="x"></nav></body></html>')
        == []
    )


@pytest.fixture
def pages(owner_client, league: League) -> dict[str, str]:
    g1, g2, g3 = leagues.build(league)
    for name in ("Eve", "Fay", "Gus", "Hal"):
        services.add_guest(league=league, name=name)
    night = nights_services.start_night(
        league=league, name="Friday", played_on=datetime.date(2026, 3, 6), seating=planner.Seating(), rounds=2,
        game_rules=rules.Rules(), players=list(Player.objects.filter(league=league)),
        by=None,
    )  # fmt: skip
    league.public_token = league.public_token or League.new_token()
    league.save(update_fields=["public_token"])
    g3.refresh_from_db()
    slug = league.slug
    ann = Player.objects.get(league=league, name="Ann")
    return {
        "home": reverse("scores:home"),
        "rules": reverse("scores:rules"),
        "standings": reverse("scores:league_detail", args=[slug]),
        "games": reverse("scores:game_list", args=[slug]),
        "new game": reverse("scores:game_new", args=[slug]),
        "game in progress": reverse("scores:game_detail", args=[slug, g3.pk]),
        "finished game": reverse("scores:game_detail", args=[slug, g1.pk]),
        "partnership game": reverse("scores:game_detail", args=[slug, g2.pk]),
        "hand edit": reverse("scores:hand_edit", args=[slug, g3.pk, 1]),
        "auction": reverse("scores:auction", args=[slug, g3.pk]),
        "watch": reverse("scores:watch", args=[g3.share_token]),
        "player": reverse("scores:player_detail", args=[slug, ann.pk]),
        "people": reverse("scores:people", args=[slug]),
        "seasons": reverse("scores:season_list", args=[slug]),
        "card nights": reverse("scores:night_list", args=[slug]),
        "new card night": reverse("scores:night_new", args=[slug]),
        "card night": reverse("scores:night_detail", args=[slug, night.pk]),
        "card night screen": reverse("scores:night_screen", args=[slug, night.pk]),
        "card night printout": reverse("scores:round_print", args=[slug, night.pk, 1]),
        "night table": Game.objects.filter(round__night=night).first().get_absolute_url(),
        "members": reverse("scores:member_list", args=[slug]),
        "settings": reverse("scores:league_settings", args=[slug]),
        "import": reverse("scores:league_import", args=[slug]),
        "new league": reverse("scores:league_new"),
        "public standings": reverse("scores:public_league", args=[league.public_token]),
        "public game": reverse("scores:public_game", args=[league.public_token, g1.pk]),
    }


def test_the_main_pages_keep_the_rules(owner_client, client, pages):
    found = {}
    for name, url in pages.items():
        response = owner_client.get(url)
        assert response.status_code == 200, (name, url, response.status_code)
        found[name] = problems(response.content.decode())
    owner_client.logout()
    for name in ("login", "scores:signup"):
        response = client.get(reverse(name))
        found[name] = problems(response.content.decode())
    assert found == {name: [] for name in found}, "\n".join(f"{n}: {p}" for n, p in found.items() if p)
