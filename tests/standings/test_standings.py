"""Standings figures against a league worked out by hand (tests/small_league.py), filters, sorting and query counts."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from scores.standings.models import PlayerRating
from scores.standings.selectors.standings import standings
from tests import small_league as leagues

pytestmark = pytest.mark.django_db

FIELDS = ("games", "wins", "points", "hands", "pitched", "made", "set", "won.high", "won.low", "won.jack", "won.game", "streak")
# Worked out by hand from the hands in tests/small_league.py; partners share their team's points and wins.
BOTH_GAMES = {
    "Ann": (2, 1, 8, 6, 3, 3, 0, 3, 1, 2, 2, -1),
    "Bob": (2, 1, 5, 6, 2, 1, 1, 3, 4, 1, 2, 1),
    "Cat": (2, 0, 4, 6, 0, 0, 0, 0, 1, 2, 1, -2),
    "Dan": (1, 1, 7, 2, 1, 1, 0, 2, 2, 1, 2, 1),
}
SOLO_ONLY = {
    "Ann": (1, 1, 7, 4, 3, 3, 0, 3, 1, 1, 2, 1),
    "Bob": (1, 0, -2, 4, 1, 0, 1, 1, 2, 0, 0, -1),
    "Cat": (1, 0, 3, 4, 0, 0, 0, 0, 1, 1, 1, -1),
}
PARTNERSHIP_ONLY = {
    "Ann": (1, 0, 1, 2, 0, 0, 0, 0, 0, 1, 0, -1),
    "Bob": (1, 1, 7, 2, 1, 1, 0, 2, 2, 1, 2, 1),
    "Cat": (1, 0, 1, 2, 0, 0, 0, 0, 0, 1, 0, -1),
    "Dan": (1, 1, 7, 2, 1, 1, 0, 2, 2, 1, 2, 1),
}


@pytest.fixture
def games(league):
    return leagues.build(league)


def _figure(row, field: str) -> int:
    """A row's figure; ``won.<key>``: the hands its side won that point in."""
    return row.won[field.removeprefix("won.")] if field.startswith("won.") else getattr(row, field)


def _figures(rows) -> dict:
    return {row.name: tuple(_figure(row, f) for f in FIELDS) for row in rows}


def test_standings_match_the_hand_worked_league(games, league):
    assert _figures(standings(league)) == BOTH_GAMES


def test_derived_columns(games, league):
    rows = {row.name: row for row in standings(league)}
    assert rows["Ann"].win_percent == 50
    assert rows["Ann"].points_per_hand == pytest.approx(8 / 6)
    assert rows["Bob"].made_percent == 50
    assert rows["Cat"].made_percent is None  # Never pitched.
    assert (rows["Cat"].streak, rows["Cat"].streak_length) == (-2, 2)
    assert (rows["Bob"].streak, rows["Bob"].streak_length) == (1, 1)


@pytest.mark.parametrize(
    ("language", "won", "lost", "heading", "title"),
    [
        ("en", "W1", "L2", ">GP<", 'title="Hands where their side won Jack"'),
        ("it", "V1", "S2", ">PG<", 'title="Mani in cui la sua parte ha vinto il punto Fante"'),
    ],
)
def test_the_table_says_the_streaks_and_the_columns_in_the_players_language(
    games, league, owner_client, settings, language, won, lost, heading, title
):
    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = owner_client.get(reverse("scores:league_detail", args=[league.slug])).text
    cells = {name: re.findall(r"<td[^>]*>([^<]*)</td>", row) for name, row in re.findall(r">(\w+)</a></th>(.*?)</tr>", page, re.DOTALL)}
    assert (cells["Bob"][-2], cells["Cat"][-2]) == (won, lost)  # The streak, before the rating.
    assert heading in page and title in page


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"mode": "solo"}, SOLO_ONLY),
        ({"mode": "partnership"}, PARTNERSHIP_ONLY),
        ({"end": datetime.date(2026, 1, 31)}, SOLO_ONLY),
        ({"start": datetime.date(2026, 1, 11)}, PARTNERSHIP_ONLY),
        ({"start": datetime.date(2026, 1, 10), "end": datetime.date(2026, 2, 1)}, BOTH_GAMES),
        ({"start": datetime.date(2026, 3, 1)}, {}),
    ],
)
def test_filters_by_season_and_kind_of_game(games, league, kwargs, expected):
    assert _figures(standings(league, **kwargs)) == expected


def test_the_rating_is_the_latest_stored_rating_up_to_the_seasons_end(games, league):
    g1, g2, _g3 = games
    rows = {row.name: row for row in standings(league)}
    after_g2 = {r.player.name: r.after for r in PlayerRating.objects.filter(game=g2).select_related("player")}
    assert {name: rows[name].rating for name in after_g2} == pytest.approx(after_g2)
    rows = {row.name: row for row in standings(league, mode="solo")}  # Still the rating after every kind of game.
    assert {name: rows[name].rating for name in rows} == pytest.approx({name: after_g2[name] for name in rows})
    rows = {row.name: row for row in standings(league, end=datetime.date(2026, 1, 31))}
    after_g1 = {r.player.name: r.after for r in PlayerRating.objects.filter(game=g1).select_related("player")}
    assert {row: rows[row].rating for row in rows} == pytest.approx(after_g1)


@pytest.mark.parametrize(
    ("sort", "descending", "order"),
    [
        ("points", True, ["Ann", "Dan", "Bob", "Cat"]),
        ("points", False, ["Cat", "Bob", "Dan", "Ann"]),
        ("name", False, ["Ann", "Bob", "Cat", "Dan"]),
        ("made_percent", True, ["Ann", "Dan", "Bob", "Cat"]),  # Ann and Dan 100% (by name), Cat never pitched: last.
        ("made_percent", False, ["Bob", "Ann", "Dan", "Cat"]),
        ("streak", True, ["Bob", "Dan", "Ann", "Cat"]),
        ("games", True, ["Ann", "Bob", "Cat", "Dan"]),
    ],
)
def test_sorting_by_a_column(games, league, sort, descending, order):
    assert [row.name for row in standings(league, sort=sort, descending=descending)] == order


def test_the_league_page_shows_the_standings_sorted_as_asked(games, league, owner, client):
    client.force_login(owner)
    response = client.get(reverse("scores:league_detail", args=[league.slug]), {"sort": "points", "order": "asc"})
    assert response.status_code == 200
    assert [row.name for row in response.context["rows"]] == ["Cat", "Bob", "Dan", "Ann"]
    assert "Pts ▲" in response.text


def test_the_league_page_filters_by_kind_of_game(games, league, owner, client):
    client.force_login(owner)
    response = client.get(reverse("scores:league_detail", args=[league.slug]), {"mode": "solo"})
    assert _figures(response.context["rows"]) == SOLO_ONLY


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"sort": "favourite"}, "The standings have no column “favourite” to sort by."),
        ({"order": "sideways"}, "The standings cannot be sorted “sideways”, only high to low or low to high."),
        ({"mode": "teams"}, "Select a valid choice. teams is not one of the available choices."),
        ({"season": "spring"}, "Select a valid choice. spring is not one of the available choices."),
        ({"season": "99999"}, "Select a valid choice. 99999 is not one of the available choices."),
    ],
)
def test_a_bad_query_parameter_is_a_400_with_a_message(games, league, owner, client, params, message):
    client.force_login(owner)
    response = client.get(reverse("scores:league_detail", args=[league.slug]), params)
    assert response.status_code == 400
    assert message in response.text
    assert _figures(response.context["rows"]) == BOTH_GAMES  # The default standings, nothing hidden.


@pytest.mark.parametrize(
    ("lang", "first", "last"),
    [
        ("en", "Tap a column's heading to sort by it: Player, GP, W, Pts, Pts/hand, Win %", "Streak or Rating."),
        ("it", "per ordinare secondo quella: Giocatore, PG", " o Merito."),
    ],
)
def test_a_bad_sort_names_the_columns_as_the_page_shows_them(games, league, owner, client, lang, first, last):
    """Not the query's field names (sort, order): the headings a player taps, in the page's language."""
    client.force_login(owner)
    response = client.get(reverse("scores:league_detail", args=[league.slug]), {"sort": "favourite"}, headers={"accept-language": lang})
    alert = response.text.split('<div class="alert alert-danger py-1 small" role="alert">')[1].split("</div>")[0]
    assert first in alert and alert.endswith(last) and "sort)" not in alert


def test_an_htmx_request_gets_only_the_standings(games, league, owner, client):
    client.force_login(owner)
    response = client.get(reverse("scores:league_detail", args=[league.slug]), {"sort": "name"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert '<div id="standings">' in response.text
    assert "<html" not in response.text
    assert "HX-Request" in response["Vary"]


HISTORY_RESTORE = {"HX-Request": "true", "HX-History-Restore-Request": "true"}


@pytest.mark.parametrize("public", [False, True], ids=["league page", "public link"])
def test_back_to_sorted_standings_htmx_no_longer_keeps_gets_the_whole_page(games, league, owner, client, public):
    """A re-sort pushes its address; Back to it after htmx's history cache dropped it asks again with
    HX-History-Restore-Request, and the answer replaces the whole page: the page, not the table alone."""
    league.public_token = "pub"
    league.save(update_fields=["public_token"])
    client.force_login(owner)
    url = "/p/pub/" if public else reverse("scores:league_detail", args=[league.slug])
    response = client.get(url, {"sort": "name", "order": "asc"}, headers=HISTORY_RESTORE)
    assert response.status_code == 200
    assert response.text.lstrip().lower().startswith("<!doctype html>") and "<title>" in response.text
    assert '<div id="standings">' in response.text and [row.name for row in response.context["rows"]] == ["Ann", "Bob", "Cat", "Dan"]
    # Cached apart from the table alone, which the same address answers to a plain htmx request.
    assert {"HX-Request", "HX-History-Restore-Request"} <= {name.strip() for name in response["Vary"].split(",")}
    fragment = client.get(url, {"sort": "name", "order": "asc"}, headers={"HX-Request": "true"})
    assert "<html" not in fragment.text and '<div id="standings">' in fragment.text


def test_the_public_link_shows_the_same_standings(games, league, client):
    league.public_token = "pub"
    league.save()
    response = client.get("/p/pub/", {"mode": "partnership"})
    assert _figures(response.context["rows"]) == PARTNERSHIP_ONLY


# A season or all time, of every kind of game or of one: the totals kept per player, season and kind, with the streaks and ratings.
STANDINGS_QUERIES = 1
SEASON_QUERIES = 3  # A range of days or one variant: the figures, the players with the rating at the range's end, the streaks.
COLUMNS_QUERIES = 2  # The variants the league plays (for the filter), the points its games counted play (the columns).
# Session and user, membership, the seasons, the standings and their columns, the ratings chart, the latest games and their seats.
LEAGUE_PAGE_QUERIES = 2 + 1 + 1 + COLUMNS_QUERIES + STANDINGS_QUERIES + 1 + 2


@pytest.mark.parametrize("size", [3, 12])
def test_the_number_of_queries_does_not_grow_with_games_or_players(league, owner, client, django_assert_num_queries, size):
    leagues.grow(league, size)
    with django_assert_num_queries(STANDINGS_QUERIES):
        rows = standings(league)
    assert sum(row.games for row in rows) == 4 * size
    with django_assert_num_queries(SEASON_QUERIES):
        solo = standings(league, mode="solo", end=datetime.date(2026, 12, 31))
    assert sum(row.games for row in solo) == 4 * ((size + 1) // 2)  # grow() plays solo games at even numbers.
    client.force_login(owner)
    with django_assert_num_queries(LEAGUE_PAGE_QUERIES):
        response = client.get(reverse("scores:league_detail", args=[league.slug]))
    assert len(response.context["rows"]) == len(rows)
    # The table alone (htmx), of one kind of game: session and user, membership, the seasons, the standings (kept
    # per kind too) and their columns, the chart out of band.
    with django_assert_num_queries(2 + 1 + 1 + COLUMNS_QUERIES + STANDINGS_QUERIES + 1):
        response = client.get(reverse("scores:league_detail", args=[league.slug]), {"mode": "solo"}, headers={"HX-Request": "true"})
    assert response.context["rows"] == standings(league, mode="solo", sort="points") == solo != rows
