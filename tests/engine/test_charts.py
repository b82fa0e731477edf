"""The SVG chart helper, the game's score chart and the league's ratings chart."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scores.engine import charts
from tests import small_league as leagues


@pytest.mark.parametrize(("span", "step"), [(7, 2), (10, 2), (23, 5), (0.8, 0.2), (120, 50), (0, 1)])
def test_nice_step(span, step):
    assert charts.nice_step(span) == pytest.approx(step)


def test_line_chart_puts_the_points_in_the_box_with_zero_and_the_marker_in_view():
    chart = charts.line_chart([charts.Series("Ann", [(0, 0), (1, 3), (2, -2)])], marker=7, marker_label="7")
    xs = [dot.x for dot in chart.lines[0].dots]
    ys = [dot.y for dot in chart.lines[0].dots]
    assert xs == [chart.left, (chart.left + chart.right) / 2, chart.right]
    labels = [tick.label for tick in chart.y_ticks]
    assert labels[0] == "-2" and labels[-1] == "8"  # Round ticks from below -2 to above the target 7.
    zero = next(tick.at for tick in chart.y_ticks if tick.label == "0")
    assert ys[0] == zero
    assert ys[1] < zero < ys[2]  # Up is more.
    assert chart.top <= chart.marker.at < ys[1]
    assert chart.lines[0].points == " ".join(f"{d.x},{d.y}" for d in chart.lines[0].dots)


def test_score_chart_has_a_line_per_side_from_zero_through_each_hands_total():
    chart = charts.score_chart([(1, "Us"), (2, "Them")], [{1: 0, 2: 4}, {1: 1, 2: 7}], 7)
    assert [line.label for line in chart.lines] == ["Us", "Them"]
    assert [line.last for line in chart.lines] == [1, 7]
    assert [dot.title for dot in chart.lines[1].dots] == ["Them: 0", "Them: 4", "Them: 7"]
    assert chart.marker.label == "7"


def test_ratings_chart_moves_every_line_on_the_same_clock():
    chart = charts.ratings_chart([(10, "Bob", 1.0), (10, "Ann", 2.0), (11, "Ann", 3.0), (12, "Bob", -1.0)])
    ann, bob = chart.lines
    assert (ann.label, bob.label) == ("Ann", "Bob")
    assert [dot.title for dot in ann.dots] == ["Ann: 2", "Ann: 3"]
    assert [dot.x for dot in ann.dots] == [chart.left, (chart.left + chart.right) / 2]
    assert bob.dots[-1].x == chart.right  # Bob's second game is the league's third rated game.


@pytest.mark.django_db
def test_the_game_page_shows_its_score_chart_with_the_target(client, league, owner):
    g1, _g2, _g3 = leagues.build(league)
    client.force_login(owner)
    response = client.get(g1.get_absolute_url())
    svg = response.text[response.text.index("<svg") : response.text.index("</svg>")]
    assert "Score by hand" in svg
    assert svg.count("<polyline") == 3  # Ann, Bob, Cat.
    assert "target 7" in svg
    assert "Ann: 7" in svg and "Bob: -2" in svg and "Cat: 3" in svg
    # No script in the page for the chart: the only one is the scorer's data (json_script), which is never run.
    assert re.findall(r"<script[^>]*>", response.text.split("<main", 1)[1]) == ['<script id="scorer-state" type="application/json">']


@pytest.mark.django_db
def test_a_game_without_hands_has_no_chart(client, league, owner, four_player_game):
    client.force_login(owner)
    assert "<svg" not in client.get(four_player_game.get_absolute_url()).text


@pytest.mark.django_db
def test_the_league_page_shows_the_ratings_chart_of_its_players(client, league, owner):
    leagues.build(league)
    client.force_login(owner)
    response = client.get(reverse("scores:league_detail", args=[league.slug]))
    assert "Ratings over time" in response.text
    lines = re.findall(r'<g class="chart-line"[^>]*>', response.text)
    assert len(lines) == 4  # Ann, Bob, Cat, Dan; the game in progress rates no one.


@pytest.mark.django_db
def test_a_finished_game_shows_each_players_rating_change(client, league, owner):
    from scores.standings.models import PlayerRating

    g1, _g2, g3 = leagues.build(league)
    client.force_login(owner)
    text = client.get(g1.get_absolute_url()).text
    bob = PlayerRating.objects.get(game=g1, player__name="Bob")
    assert "Rating changes" in text
    assert f'Bob <span class="negative">{bob.change:+.1f}</span> → {bob.after:.1f}' in text
    assert "Rating changes" not in client.get(g3.get_absolute_url()).text


def test_the_league_page_charts_only_the_last_rated_games(client, league, owner, monkeypatch):
    from scores.standings.selectors import players as league_reads
    from tests import small_league as leagues

    leagues.build(league)
    leagues.grow(league, 3)
    monkeypatch.setattr(league_reads, "CHART_GAMES", 2)
    drawn = []
    monkeypatch.setattr(league_reads.charts, "ratings_chart", lambda points, **kwargs: drawn.extend(points))
    league_reads.ratings_chart(league)
    last_two = list(league.games.finished().order_by("-played_on", "-pk").values_list("pk", flat=True)[:2])
    assert {game for game, _name, _rating in drawn} == set(last_two)
