"""Every button's words fit on the smallest phone (320 px wide), in every language: none is cut or wider than its
button, and no button runs off the screen. Run over the pages with the longest labels, as the league's owner sees them.

Sizes are compared with the device's width, not ``window.innerWidth`` (Chromium widens that to fit an over-wide page).
"""

from __future__ import annotations

import datetime

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from scores.engine import rules
from scores.models import Invite, Role
from scores.standings import services as standings_services
from scores.table import services as table_services
from tests.conftest import PASSWORD, hand
from tests.phone import SIZES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = SIZES["320x568"]
LANGUAGES = ["en", "af", "ceb", "it", "mt", "vi"]

# The labels that run longest in one language or another, each found on its page by the words a player reads (a
# disclosure's summary, which has no role, by its text).
LONGEST = {
    "game": [("button", "Undo last hand"), ("button", "Copy link"), ("button", "Replace the watch link"),
             ("button", "Turn the watch link off"), ("summary", "Delete this game")],
    "first hand": [("summary", "Change the rules (no hand yet)"), ("link", "Enter the auction")],
    "settings": [("button", "Turn off the public link"), ("button", "Make a new public link"), ("link", "Delete league…")],
    "league": [("link", "Download JSON with seasons"), ("link", "Start a card night")],
    "members": [("button", "Make an invite link")],
    "people": [("button", "Add a guest"), ("button", "Preview the merge")],
}  # fmt: skip

# Each button whose label is cut (its words wider than its box) or that reaches past either edge of the phone.
UNFIT = f"""() => [...document.querySelectorAll("button, a.btn, summary.btn, label.btn, input[type=submit], input[type=button]")]
    .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
    .map((el) => [el, el.getBoundingClientRect(), [el, ...el.querySelectorAll("*")].find((p) => p.scrollWidth > p.clientWidth + 1)])
    .filter(([, box, cut]) => cut || box.left < -1 || box.right > {WIDTH} + 1)
    .map(([el, box, cut]) => `${{location.pathname}} "${{(el.textContent || el.value).trim()}}" `
        + `${{Math.round(box.left)}}-${{Math.round(box.right)}} px`
        + (cut ? `, words ${{cut.scrollWidth}} in ${{cut.clientWidth}}` : ""))"""


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": WIDTH, "height": HEIGHT}}


@pytest.fixture
def owner_page(live_server, page: Page, make_user, league, owner) -> Page:
    make_user("sam", league, Role.SCORER)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="Thursday Pitch")).to_be_visible()
    return page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_button_label_is_cut_or_wider_than_the_phone(owner_page: Page, live_server, league, lang, owner, night_of_four):
    page = owner_page
    league.public_token = "public-token-for-the-test"
    league.save()
    standings_services.start_season(league=league, name="Spring", starts_on=datetime.date(2026, 3, 8), by=owner)
    game = table_services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], rules=rules.Rules())
    table_services.record_hand(game=game, hand=hand("Bob", 2, "Bob", "Bob"), number=1)
    fresh = table_services.start_game(league=league, seats=["Ann", "Bob", "Cat"], rules=rules.Rules())  # No hand yet.
    table_services.set_watch_link(game=game, on=True)
    Invite.objects.create(league=league, created_by=owner)
    slug = league.slug
    pages = {
        "game": game.get_absolute_url(),
        "settings": f"/leagues/{slug}/settings/",
        "first hand": fresh.get_absolute_url(),
        "import": f"/leagues/{slug}/import/",
        "members": f"/leagues/{slug}/members/",
        "league": league.get_absolute_url(),
        "games": f"/leagues/{slug}/games/",
        "people": f"/leagues/{slug}/people/",
        "seasons": f"/leagues/{slug}/seasons/",
        "new game": f"/leagues/{slug}/games/new/",
        "new night": f"/leagues/{slug}/nights/new/",
        "delete league": f"/leagues/{slug}/delete/",
        "auction": f"{game.get_absolute_url()}auction/",
        "hand edit": f"{game.get_absolute_url()}hands/1/edit/",
        "nights": f"/leagues/{slug}/nights/",
        "night": night_of_four.get_absolute_url(),
        "night printout": f"{night_of_four.get_absolute_url()}rounds/1/print/",
        "player": f"/leagues/{slug}/players/{game.seats.first().player.pk}/",
    }
    with translation.override(lang):
        menu = translation.gettext("Menu")
    page.set_extra_http_headers({"Accept-Language": lang})
    unfit: list[str] = []
    for name, url in pages.items():
        page.goto(live_server.url + url)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        with translation.override(lang):
            labels = [(role, translation.gettext(label)) for role, label in LONGEST.get(name, [])]
        for role, label in labels:
            found = page.get_by_text(label, exact=True) if role == "summary" else page.get_by_role(role, name=label, exact=True)
            expect(found.first).to_be_visible()
        page.get_by_role("navigation").first.get_by_text(menu, exact=True).click()  # The header's menu, open: its buttons too.
        unfit += [line for line in page.evaluate(UNFIT) if line not in unfit]
    assert unfit == [], "\n".join(unfit)
