"""A card night of eight on phones (390x844), through two rounds: the owner starts it from the players present and
gives each table its scorer, two scorers record their tables on their own phones, and a big screen across the room
follows every table and the night's standings without a reload."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from scores.leagues.models import League, Membership, Role
from scores.nights.models import Night
from scores.people import services
from scores.standings.selectors.standings import standings
from scores.table import selectors
from scores.table.models import Game, Seat
from tests.table.test_browser_scoring import enter_hand, save_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-browser-password"
EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "service_workers": "block"}
POLLED = 15_000  # The big screen asks every 5 s: a change shows within one or two polls.


def _log_in(page: Page, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="Kitchen Table")).to_be_visible()


@pytest.fixture
def league(db) -> League:
    league = League.objects.create(name="Kitchen Table", slug="kitchen-table")
    for name, role in [("olive", Role.OWNER), ("sam", Role.SCORER), ("sue", Role.SCORER), ("vic", Role.VIEWER)]:
        Membership.objects.create(league=league, user=get_user_model().objects.create_user(username=name, password=PASSWORD), role=role)
    for name in EIGHT:
        services.add_guest(league=league, name=name)
    return league


def _play_table(page: Page, game: Game) -> None:
    """On the table's page, the first team takes all four points twice (bids 4): it reaches 8 of 7 and wins."""
    state = selectors.load_game(game, hands=False)
    team = state.table.teams[0]
    pitcher = team.players[0]
    for number in (1, 2):
        enter_hand(page, pitcher, 4, team.name, team.name, jack=team.name, game=team.name)
        save_hand(page, number)
    expect(page.get_by_role("status").filter(has_text="won!")).to_contain_text(f"{team.name} won!")


def _give_scorers(page: Page) -> None:
    for table, scorer in ((1, "sam"), (2, "sue")):
        page.get_by_label(f"Scorer of table {table}").select_option(label=scorer)
        page.get_by_role("button", name=f"Save the scorer of table {table}").click()
        expect(page.get_by_text(f"{scorer} records table {table}.")).to_be_visible()


def _score_round(url: str, phones: dict[str, Page], night: Night, number: int) -> None:
    """Each scorer opens their table from the night's page and plays it out."""
    for table, name in ((1, "sam"), (2, "sue")):
        phone = phones[name]
        phone.goto(url + night.get_absolute_url())
        phone.get_by_role("link", name=f"Table {table}, round {number}").click()
        _play_table(phone, Game.objects.get(round__night=night, round__number=number, table=table))


def fill_night_of_eight(page: Page, url: str) -> None:
    """The owner, signed in, fills the new-night page: the eight players present, two rounds to 7."""
    _log_in(page, url, "olive")
    page.get_by_role("link", name="Kitchen Table").click()
    page.get_by_role("link", name="Start a card night").first.click()
    for name in EIGHT:
        page.get_by_role("group", name="Players present").get_by_text(name, exact=True).click()
    page.get_by_label("Rounds").fill("2")
    page.get_by_label("Play to").fill("7")


def test_a_card_night_of_eight_through_two_rounds_on_phones(live_server, page: Page, browser: Browser, league):
    url = live_server.url
    fill_night_of_eight(page, url)
    page.get_by_role("button", name="Preview the tables").click()
    expect(page.get_by_text("Each round: 8 players: 2 tables of four.")).to_be_visible()
    page.get_by_role("button", name="Start the night").click()
    expect(page.get_by_role("heading", name="Round 1 of 2")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # Nothing wider than the phone.
    night = Night.objects.get()
    _give_scorers(page)

    screen_context = browser.new_context(viewport={"width": 1280, "height": 720})
    screen = screen_context.new_page()
    _log_in(screen, url, "vic")
    screen.goto(url + f"/leagues/kitchen-table/nights/{night.pk}/screen/")
    expect(screen.get_by_role("heading", name="Round 1 of 2")).to_be_visible()
    expect(screen.get_by_text("not started")).to_have_count(2)

    phones = {}
    for name in ("sam", "sue"):
        phones[name] = browser.new_context(**PHONE).new_page()
        _log_in(phones[name], url, name)
    _score_round(url, phones, night, 1)
    # The big screen followed both tables by itself: two winners, and four players with a win each.
    expect(screen.get_by_text(re.compile(r" won$"))).to_have_count(2, timeout=POLLED)
    tonight = screen.get_by_role("table", name="Tonight's standings")
    expect(tonight.get_by_role("row", name=re.compile(r"^1 \S+ 1 1 "))).to_have_count(4, timeout=POLLED)  # Rank 1, 1 game, 1 win.

    page.reload()
    page.get_by_role("button", name="Seat round 2").click()
    expect(page.get_by_text("Round 2 is seated.")).to_be_visible()
    expect(page.get_by_role("heading", name="Round 2 of 2")).to_be_visible()
    _give_scorers(page)
    expect(screen.get_by_role("heading", name="Round 2 of 2")).to_be_visible(timeout=POLLED)
    _score_round(url, phones, night, 2)
    expect(screen.get_by_text("the night is over")).to_be_visible(timeout=POLLED)

    # Everyone played both rounds with a new partner, and the night counts in the league's standings.
    partners = [
        {
            frozenset(team.players)
            for game in Game.objects.filter(round__night=night, round__number=n)
            for team in selectors.load_game(game).table.teams
        }
        for n in (1, 2)
    ]
    assert not partners[0] & partners[1]
    assert Seat.objects.filter(game__round__night=night).count() == 16
    assert {row.name: row.games for row in standings(league)} == dict.fromkeys(EIGHT, 2)
    for name in EIGHT:
        row = tonight.get_by_role("row", name=re.compile(rf"\b{name}\b"))
        expect(row).to_contain_text(f"{name} 2")  # Two games played.
    page.goto(url + night.get_absolute_url())
    expect(page.get_by_text("the night is over")).to_be_visible()
    # Two rounds of eight at tables of four: 8 of the 28 pairs have partnered, none twice, none opposed three times.
    expect(page.get_by_text("8 of 28 pairs have partnered.")).to_contain_text(
        "No partner has repeated, and no pair has opposed more than twice."
    )
    expect(page.get_by_role("button", name=re.compile("Seat round"))).to_have_count(0)
    screen.screenshot(path="/tmp/night-big-screen.png", full_page=True)
    page.screenshot(path="/tmp/night-phone.png", full_page=True)


def test_the_night_form_shows_each_choice_whole_on_a_phone(live_server, browser: Browser, league):
    """The choices of how the tables sit are sentences: each shows whole at 390 px, wrapped, never cut short."""
    phone = browser.new_context(**PHONE).new_page()
    _log_in(phone, live_server.url, "olive")
    phone.goto(f"{live_server.url}/leagues/{league.slug}/nights/new/")
    for group in ("Tables", "When the tables of four leave one or two players over"):
        choices = phone.get_by_role("group", name=group).locator("label")
        expect(choices.first).to_be_visible()
        for choice in choices.all():
            text = choice.inner_text()
            assert choice.locator(".tap-text").evaluate("(span) => span.scrollWidth <= span.clientWidth"), f"{group}: {text!r} is cut short"
