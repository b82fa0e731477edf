"""Phone-sized Chromium plays a game under a house rule chosen on the new-game form, by the visible labels."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scores.engine import rules
from scores.table.models import Game
from tests.table.test_browser_scoring import enter_hand, save_hand, score, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_under_made_bid_a_set_pitcher_at_the_target_plays_on_and_wins_by_making_the_bid(scorer_page: Page):
    page = scorer_page
    page.get_by_role("link", name="New game").click()
    page.get_by_label("New player 1", exact=True).fill("Ann")
    page.get_by_label("New player 2", exact=True).fill("Bob")
    page.get_by_text(re.compile(r"^House rules")).click()
    tap(page, "Going out", "The pitcher goes out only by making the bid")
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("4-point · to 7 · set pitcher can't go out", exact=True)).to_be_visible()

    enter_hand(page, "Ann", 3, "Ann", "Ann", jack="Ann", game="Ann")
    save_hand(page, 1)
    enter_hand(page, "Bob", 2, "Ann", "Ann", jack="Ann", game="Ann")
    save_hand(page, 2)
    expect(score(page, "Ann")).to_have_text("8")
    # Ann bids 1 and wins nothing: set back to 7, at the target, and the game goes on.
    enter_hand(page, "Ann", 1, "Bob", "Bob")
    save_hand(page, 3)
    expect(score(page, "Ann")).to_have_text("7")
    expect(page.get_by_text("Ann won!")).to_have_count(0)
    expect(page.get_by_role("button", name="Save hand")).to_be_visible()
    enter_hand(page, "Bob", 1, "Bob", "Bob")
    save_hand(page, 4)
    # Two hands after the set, Ann makes her bid and goes out.
    enter_hand(page, "Ann", 2, "Ann", "Ann")
    save_hand(page, 5)
    expect(page.get_by_role("status")).to_contain_text("Ann won!")
    expect(page.get_by_role("status")).to_contain_text("Final scores: Ann 9, Bob 2")
    game = Game.objects.get()
    assert game.is_finished and game.rules == rules.Rules(going_out="made_bid")
