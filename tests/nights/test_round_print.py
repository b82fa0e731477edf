"""A round's table cards and score sheets, printed for the tables that score on paper: each table's seats, partners
and first dealer, and a sheet with a row a hand, a column for each of the variant's points and each side."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.urls import reverse

from scores.engine import planner, rules
from scores.leagues.models import League, Player, Role
from scores.nights import selectors, services
from scores.nights.models import Night
from scores.people import services as people_services
from scores.table.models import Game

pytestmark = pytest.mark.django_db

EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def _night(league, names=EIGHT, *, game_rules=None, seating=None, owner=None) -> Night:
    return services.start_night(
        league=league,
        name="Friday",
        played_on=datetime.date(2026, 3, 6),
        seating=seating or planner.Seating(),
        rounds=3,
        game_rules=game_rules or rules.Rules(),
        players=[people_services.add_guest(league=league, name=name) for name in names],
        by=owner,
    )


def _url(night: Night, number: int = 1) -> str:
    return reverse("scores:round_print", args=[night.league.slug, night.pk, number])


def _sheets(text: str) -> list[str]:
    """Each score sheet's HTML, table by table."""
    return re.findall(r'<section class="printout-page score-sheet".*?</section>', text, re.S)


def _hand_rows(sheet: str) -> list[str]:
    """The sheet's rows for hands: each a number, then who deals it."""
    body = re.search(r"<tbody>(.*?)</tbody>", sheet, re.S)
    assert body is not None
    return re.findall(r'<tr>\s*<th scope="row">(\d+)</th><td>([^<]*)</td>', body.group(1))


def _headers(sheet: str) -> list[str]:
    head = re.search(r"<thead>(.*?)</thead>", sheet, re.S)
    assert head is not None
    return [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<th[^>]*>(.*?)</th>", head.group(1), re.S)]


def test_each_table_has_its_card_and_a_sheet_for_the_variants_points_and_its_sides(owner_client, league, owner):
    night = _night(league, owner=owner)
    page = owner_client.get(_url(night))
    assert page.status_code == 200
    text = page.text
    sheets = _sheets(text)
    assert len(sheets) == 2 and text.count('class="printout-page table-card"') == 2
    for game, sheet in zip(Game.objects.filter(round__night=night).order_by("table"), sheets, strict=True):
        seats = [seat.player.name for seat in game.seats.select_related("player").order_by("position")]
        sides = [side.name for side in game.sides.order_by("position")]
        assert f"Table {game.table}" in text and f"Score sheet, table {game.table}" in sheet
        assert _headers(sheet) == ["Hand", "Dealer", "Pitcher", "Bid", "High", "Low", "Jack", "Game", f"A: {sides[0]}", f"B: {sides[1]}"]
        # Seat 1 deals the first hand and the deal passes to the left: the rules engine's rotation, down the sheet.
        rows = _hand_rows(sheet)
        assert len(rows) == selectors.score_sheet_rows(night) == selectors.LONG_GAME_HANDS
        assert [dealer for _number, dealer in rows[:5]] == [*seats, seats[0]]
        assert f"{seats[0]} deals, {seats[1]} bids first" in text
        # The partners sit opposite: seats 1 and 3 are one team.
        assert f"<li>{seats[0]} &amp; {seats[2]}</li>" in text and f"<li>{seats[1]} &amp; {seats[3]}</li>" in text
        assert "Final score" in sheet and "4-point · to 7" in sheet
        assert all(f"Signed for {html.escape(side)}<" in sheet for side in sides)
    assert "Round 1 of 3" in text and "Friday" in text


def test_a_bigger_variants_points_and_a_solo_tables_column_for_each_player(owner_client, league, owner):
    nine = [*EIGHT, "Ivy"]
    night = _night(league, nine, game_rules=rules.Rules(variant="10-point"), owner=owner)
    partnership, solo = Game.objects.filter(round__night=night).order_by("-partnership")
    text = owner_client.get(_url(night)).text
    sheets = dict(zip(sorted([partnership.table, solo.table]), _sheets(text), strict=True))  # Table by table.
    points = ["Ace", "Jack", "Off-jack", "Big joker", "Little joker", "Ten", "Three", "Two"]
    assert points == [rules.CATALOGUE[key].name for key in rules.VARIANTS["10-point"].points]
    teams = [f"{letter}: {side.name}" for letter, side in zip("AB", partnership.sides.order_by("position"), strict=True)]
    assert _headers(sheets[partnership.table])[4:] == [*points, *teams]
    players = [seat.player.name for seat in solo.seats.select_related("player").order_by("position")]
    assert len(players) == 5
    # Five names do not fit above their columns: each is headed by its letter, and the names are said above the sheet.
    assert _headers(sheets[solo.table])[4:] == [*points, *"ABCDE"]
    assert re.findall(r"<span>(\w): ([^<]*)</span>", sheets[solo.table]) == list(zip("ABCDE", players, strict=True))
    assert "No partners: each player scores alone." in text and "10-point · to 52" in text


def test_the_sheets_rows_are_the_one_number_the_view_is_given(owner_client, league, owner, monkeypatch):
    night = _night(league, EIGHT[:4], owner=owner)
    monkeypatch.setattr(selectors, "score_sheet_rows", lambda night: 8)
    rows = _hand_rows(_sheets(owner_client.get(_url(night)).text)[0])
    assert [int(number) for number, _dealer in rows] == list(range(1, 9))


def test_a_round_of_a_number_of_hands_prints_a_row_for_each_and_for_a_play_off(owner_client, league, owner):
    night = _night(league, EIGHT[:4], game_rules=rules.Rules(hands=6), owner=owner)
    assert night.hands_per_round == 6
    rows = _hand_rows(_sheets(owner_client.get(_url(night)).text)[0])
    assert [int(number) for number, _dealer in rows] == list(range(1, 6 + selectors.PLAY_OFF_ROWS + 1))


def test_who_sits_out_the_round_is_said(owner_client, league, owner):
    night = _night(league, [*EIGHT, "Ivy"], seating=planner.Seating(leftover="byes"), owner=owner)
    bye = Player.objects.get(byes__round__night=night)
    assert re.search(rf"Sitting out: {bye.name}</p>", owner_client.get(_url(night)).text)


def test_the_nights_page_links_each_rounds_printout(owner_client, client, league, owner, make_user):
    night = _night(league, owner=owner)
    services.start_round(night=night, number=2, players=list(Player.objects.filter(league=league)), unfinished=True)
    text = owner_client.get(night.get_absolute_url()).text
    for number in (1, 2):
        assert re.search(rf'href="{_url(night, number)}"\s+aria-label="Print table cards and score sheets, round {number}"', text)
    client.force_login(make_user("vic", league, Role.VIEWER))
    assert client.get(night.get_absolute_url()).text.count(">Print table cards and score sheets</a>") == 2


@pytest.mark.parametrize("role", [Role.OWNER, Role.SCORER, Role.VIEWER])
def test_every_member_prints_it(client, league, owner, make_user, role):
    night = _night(league, owner=owner)
    client.force_login(make_user("member", league, role))
    assert client.get(_url(night)).status_code == 200


def test_outsiders_are_sent_to_log_in_or_find_nothing(client, league, owner, make_user):
    night = _night(league, owner=owner)
    response = client.get(_url(night))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    other = League.objects.create(name="Elsewhere", slug="elsewhere")
    client.force_login(make_user("stranger", other, Role.OWNER))
    assert client.get(_url(night)).status_code == 404
    # The night through another league's address: not there either.
    assert client.get(reverse("scores:round_print", args=[other.slug, night.pk, 1])).status_code == 404


def test_a_round_the_night_has_not_played_is_not_found(owner_client, league, owner):
    night = _night(league, owner=owner)
    assert owner_client.get(_url(night, 2)).status_code == 404
    assert owner_client.get(f"/leagues/{league.slug}/nights/{night.pk}/rounds/0/print/").status_code == 404
    assert owner_client.post(_url(night)).status_code == 405


@pytest.mark.parametrize("tables", [2, 6])
def test_the_printout_needs_the_same_queries_however_many_tables(client, league, owner, make_user, django_assert_num_queries, tables):
    night = _night(league, [f"P{i}" for i in range(4 * tables)], owner=owner)
    client.force_login(make_user("vic", league, Role.VIEWER))
    # Session and user, membership, the night, the round, its games, their seats, its byes.
    with django_assert_num_queries(2 + 1 + 1 + 1 + 1 + 1 + 1):
        response = client.get(_url(night))
    assert len(_sheets(response.text)) == tables


def test_the_printout_speaks_the_players_language(owner_client, league, owner):
    night = _night(league, EIGHT[:4], owner=owner)
    owner_client.cookies["django_language"] = "af"
    text = owner_client.get(_url(night)).text
    sheet = _sheets(text)[0]
    assert _headers(sheet)[:8] == ["Hand", "Gewer", "Bodwenner", "Bod", "Hoog", "Laag", "Boer", "Spel"]
    assert "Tafel 1" in text and "Eindtelling" in sheet
