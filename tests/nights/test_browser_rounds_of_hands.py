"""A progressive card night on phones (390x844): eight players, rounds of 4 hands, two rounds. At each round one table
scores on a phone, its page counting the hands left until the side ahead wins, and the other table keeps score on
paper and its scorer records the final scores afterwards; the night's standings rank by points."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from scores.nights.models import Night
from scores.standings.selectors.standings import standings
from scores.table import selectors
from scores.table.models import Game
from tests.nights.test_browser_nights import EIGHT, PHONE, _give_scorers, _log_in, fill_night_of_eight, league  # noqa: F401  (the league fixture)
from tests.table.test_browser_scoring import enter_hand, save_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _open_table(phone: Page, url: str, night: Night, number: int, table: int) -> Game:
    phone.goto(url + night.get_absolute_url())
    phone.get_by_role("link", name=f"Table {table}, round {number}").click()
    expect(phone.get_by_text(f"Card night: round {number}, table {table}")).to_be_visible()
    return Game.objects.get(round__night=night, round__number=number, table=table)


def _play_four_hands(phone: Page, game: Game) -> str:
    """The first team bids 2 and takes High and Low each hand, the other team Game: 2 to 1 a hand. It passes the target
    of 7 on hand 4 of 4, and wins only because the hands are played, with 8 to 4."""
    team, other = selectors.load_game(game, hands=False).table.teams
    expect(phone.get_by_text("4 hands left")).to_be_visible()
    for number in (1, 2, 3, 4):
        enter_hand(phone, team.players[0], 2, team.name, team.name, game=other.name)
        save_hand(phone, number)
        if number < 4:
            left = 4 - number
            expect(phone.locator(".hands-left")).to_have_text(f"{left} hand left" if left == 1 else f"{left} hands left")
    expect(phone.get_by_role("status").filter(has_text="won!")).to_contain_text(f"{team.name} won!")
    expect(phone.locator(".scoreboard")).to_contain_text("8")
    return team.name


def _record_on_paper(phone: Page, game: Game, scores: tuple[int, int]) -> str:
    """The table kept score on paper: its scorer records the final scores and the 4 hands."""
    teams = selectors.load_game(game, hands=False).table.teams
    phone.get_by_text("Record the result from paper").click()
    for team, score in zip(teams, scores, strict=True):
        phone.get_by_label(f"Final score of {team.name}").fill(str(score))
    phone.get_by_label("Hands played, if known").fill("4")
    phone.get_by_role("button", name="Save the result from paper").click()
    expect(phone.get_by_text("The result from paper was recorded.")).to_be_visible()
    winner = teams[0].name if scores[0] > scores[1] else teams[1].name
    expect(phone.get_by_role("status").filter(has_text="won!")).to_contain_text(f"{winner} won!")
    expect(phone.get_by_text("Recorded from paper, after 4 hands.")).to_be_visible()
    expect(phone.get_by_text("No hands: the game was recorded from paper")).to_be_visible()
    return winner


@pytest.mark.console_errors_expected("400 (Bad Request)")  # The night refused first, which the browser logs.
def test_a_progressive_night_of_rounds_of_four_hands_with_a_table_on_paper(live_server, page: Page, browser: Browser, league):  # noqa: F811
    url = live_server.url
    fill_night_of_eight(page, url)
    page.get_by_label("Or a round is this many hands").fill("31")
    page.get_by_role("button", name="Start the night").click()
    expect(page.get_by_text("A round is 1 to 30 hands; leave it empty to play to the target.")).to_be_visible()
    assert not Night.objects.exists()
    page.get_by_label("Or a round is this many hands").fill("4")
    page.get_by_role("button", name="Start the night").click()
    expect(page.get_by_role("heading", name="Round 1 of 2")).to_be_visible()
    night = Night.objects.get()
    assert night.hands_per_round == 4
    expect(page.get_by_text("4 hands left")).to_have_count(2)  # Each table's card on the night's page.
    _give_scorers(page)  # sam records table 1, sue table 2.

    phones = {}
    for name in ("sam", "sue"):
        phones[name] = browser.new_context(**PHONE).new_page()
        _log_in(phones[name], url, name)
    # Round 1: table 1 on sam's phone, table 2 on paper, recorded by sue.
    played = _play_four_hands(phones["sam"], _open_table(phones["sam"], url, night, 1, 1))
    on_paper = _record_on_paper(phones["sue"], _open_table(phones["sue"], url, night, 1, 2), (3, 9))

    page.reload()
    expect(page.get_by_text("recorded from paper")).to_be_visible()
    tonight = page.get_by_role("table", name="Tonight's standings")
    # By points: the paper table's winners (9) first, then the phone table's (8), then the others (4 and 3).
    expect(tonight.get_by_role("row").nth(1)).to_contain_text("9")
    expect(tonight.get_by_role("row").nth(3)).to_contain_text("8")
    page.get_by_role("button", name="Seat round 2").click()
    expect(page.get_by_role("heading", name="Round 2 of 2")).to_be_visible()
    _give_scorers(page)
    # Round 2: the other way round, table 1 on paper (sam), table 2 on sue's phone.
    _record_on_paper(phones["sam"], _open_table(phones["sam"], url, night, 2, 1), (10, 2))
    _play_four_hands(phones["sue"], _open_table(phones["sue"], url, night, 2, 2))
    page.reload()
    expect(page.get_by_text("the night is over")).to_be_visible()
    points = [int(cell) for cell in tonight.locator("tbody tr td:nth-child(5)").all_inner_texts()]
    assert len(points) == 8 and points == sorted(points, reverse=True)  # Ranked by points.

    # Every player has two games in the league's standings; the paper games count no hand.
    rows = {row.name: row for row in standings(league)}
    assert {name: row.games for name, row in rows.items()} == dict.fromkeys(EIGHT, 2)
    assert sum(row.hands for row in rows.values()) == 32  # 4 hands at 4 seats of one table a round: the paper tables have none.
    assert sum(row.wins for row in rows.values()) == 8 and {played, on_paper} <= {team.name for team in _teams(night)}


def _teams(night: Night):
    return [team for game in Game.objects.filter(round__night=night) for team in selectors.load_game(game, hands=False).table.teams]
