"""Seasons through their pages: an owner starts and renames them; the standings, the ratings chart and the player pages
show the current season unless another, or all time, is asked for."""

from __future__ import annotations

import datetime
import html

import pytest
from django.urls import reverse
from django.utils.formats import date_format

from scores.common.refusals import Refused
from scores.leagues.models import Player, Role
from scores.standings import services
from scores.standings.models import Season
from tests import small_league as leagues

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(league):
    return leagues.build(league)  # g1 10 Jan (Ann wins), g2 1 Feb (Bob and Dan win), g3 2 Feb in progress.


def _season(client, league, name, day):
    return client.post(reverse("scores:season_list", args=[league.slug]), {"name": name, "starts_on": day})


def _rows(response) -> dict:
    return {row.name: (row.games, row.wins) for row in response.context["rows"]}


def test_an_owner_starts_seasons_and_the_standings_show_the_current_one(owner_client, league, games):
    assert _season(owner_client, league, "Winter", "2026-01-01").status_code == 302
    assert _season(owner_client, league, "  February  ", "2026-02-01").status_code == 302
    assert list(Season.objects.values_list("name", flat=True)) == ["February", "Winter"]
    url = reverse("scores:league_detail", args=[league.slug])
    page = owner_client.get(url)
    assert _rows(page) == {"Ann": (1, 0), "Bob": (1, 1), "Cat": (1, 0), "Dan": (1, 1)}  # February: game 2 alone.
    assert "February: the games played since" in html.unescape(page.text)
    winter = Season.objects.get(name="Winter")
    page = owner_client.get(url, {"season": winter.pk})
    assert _rows(page) == {"Ann": (1, 1), "Bob": (1, 0), "Cat": (1, 0)}
    start, end = (date_format(datetime.date(2026, 1, day), "DATE_FORMAT") for day in (1, 31))
    assert f"Winter: the games played from {start} to {end}." in html.unescape(page.text)
    assert _rows(owner_client.get(url, {"season": "all"})) == {"Ann": (2, 1), "Bob": (2, 1), "Cat": (2, 0), "Dan": (1, 1)}
    assert '<option value="all">All time</option>' in page.text


def test_before_the_first_season_and_without_seasons_the_standings_are_all_time(owner_client, league, games):
    url = reverse("scores:league_detail", args=[league.slug])
    assert _rows(owner_client.get(url)) == {"Ann": (2, 1), "Bob": (2, 1), "Cat": (2, 0), "Dan": (1, 1)}
    future = datetime.date.today() + datetime.timedelta(days=30)
    assert _season(owner_client, league, "Next", future.isoformat()).status_code == 302
    page = owner_client.get(url)
    assert page.context["form"].chosen is None and _rows(page)["Ann"] == (2, 1)  # Not begun: all time still.
    assert _rows(owner_client.get(url, {"season": Season.objects.get().pk})) == {}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "Old", "starts_on": "2025-12-31"}, "A new season must start after Winter, which started on {day}."),
        ({"name": "Same day", "starts_on": "2026-01-01"}, "A new season must start after Winter, which started on {day}."),
        ({"name": "winter", "starts_on": "2026-03-01"}, "The league already has a season called “winter”."),
        ({"name": "", "starts_on": "2026-03-01"}, "This field is required."),
        ({"name": "Spring", "starts_on": "March"}, "Enter a valid date."),
        ({"name": "x" * 61, "starts_on": "2026-03-01"}, "The name is 61 characters long; at most 60 fit."),
    ],
)
def test_a_season_that_cannot_start_is_refused_with_why(owner_client, league, games, data, message):
    _season(owner_client, league, "Winter", "2026-01-01")
    response = owner_client.post(reverse("scores:season_list", args=[league.slug]), data)
    message = message.format(day=date_format(datetime.date(2026, 1, 1), "DATE_FORMAT"))
    assert response.status_code == 400 and message in html.unescape(response.text)
    assert list(Season.objects.values_list("name", flat=True)) == ["Winter"]


def test_an_owner_renames_a_season(owner_client, league):
    _season(owner_client, league, "Winter", "2026-01-01")
    _season(owner_client, league, "Spring", "2026-03-01")
    winter = Season.objects.get(name="Winter")
    url = reverse("scores:season_rename", args=[league.slug, winter.pk])
    response = owner_client.post(url, {f"s{winter.pk}-name": "spring"}, follow=True)
    assert "The league already has a season called “spring”." in html.unescape(response.text)
    response = owner_client.post(url, {f"s{winter.pk}-name": "Deep winter"}, follow=True)
    assert "“Winter” is now “Deep winter”." in html.unescape(response.text)
    assert sorted(Season.objects.values_list("name", flat=True)) == ["Deep winter", "Spring"]


def test_only_owners_start_or_rename_seasons(client, league, make_user):
    season = services.start_season(league=league, name="Winter", starts_on=datetime.date(2026, 1, 1), by=make_user("olive", league))
    for role in (Role.SCORER, Role.VIEWER):
        client.force_login(make_user(f"user-{role}", league, role))
        assert _season(client, league, "Spring", "2026-03-01").status_code == 404
        assert client.post(reverse("scores:season_rename", args=[league.slug, season.pk]), {f"s{season.pk}-name": "X"}).status_code == 404
    assert list(Season.objects.values_list("name", flat=True)) == ["Winter"]
    with pytest.raises(Refused, match="no longer an owner"):
        services.start_season(league=league, name="Spring", starts_on=datetime.date(2026, 3, 1), by=make_user("sam", league, Role.SCORER))


def test_the_ratings_chart_and_a_re_sort_follow_the_season(owner_client, league, games):
    _season(owner_client, league, "February", "2026-02-01")
    url = reverse("scores:league_detail", args=[league.slug])
    february = owner_client.get(url).context["chart"]
    every = owner_client.get(url, {"season": "all"}).context["chart"]
    assert len(february.lines[0].dots) == 1 and len(every.lines[0].dots) == 2  # Ann's ratings: one rated game in February.
    fragment = owner_client.get(url, {"season": "all", "sort": "name"}, headers={"HX-Request": "true"})
    assert '<div id="ratings-chart-box" hx-swap-oob="true">' in fragment.text and "<html" not in fragment.text


def test_the_player_page_shows_the_current_season_or_the_one_asked_for(owner_client, league, games):
    _season(owner_client, league, "February", "2026-02-01")
    ann = Player.objects.get(name="Ann")
    url = reverse("scores:player_detail", args=[league.slug, ann.pk])
    current = owner_client.get(url).context["games"]
    assert [item["game"].code for item in current] == ["g3", "g2"]
    assert [item["game"].code for item in owner_client.get(url, {"season": "all"}).context["games"]] == ["g3", "g2", "g1"]
    response = owner_client.get(url, {"season": "winter"})
    assert response.status_code == 400 and "Select a valid choice. winter is not one of the available choices." in response.text
