"""The rules a new game is played by, as the new-game form offers them: every variant of the Pitch family or a custom
set of points, the target, the house rules (minimum bid up to the total, no negative scores) and the team shapes."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scores.engine import rules
from scores.leagues.models import League
from scores.table import services
from scores.table.forms.games import NewGameForm, RulesForm
from scores.table.models import Game

pytestmark = pytest.mark.django_db

FOUR = {"new_1": "Ann", "new_2": "Bob", "new_3": "Cat", "new_4": "Dan"}
SIX = {**FOUR, "new_5": "Eve", "new_6": "Fay"}


SHEET = rules.Rules()


def chosen(post: dict, defaults: rules.Rules = SHEET) -> RulesForm:
    form = RulesForm(post, defaults=defaults)
    form.is_valid()
    return form


def new_game(league, **post) -> NewGameForm:
    form = NewGameForm({"mode": "solo", "first_dealer": "1", **FOUR, **post}, league=league)
    form.is_valid()
    return form


@pytest.mark.parametrize("variant", [*rules.VARIANTS])
def test_each_named_variant_plays_its_own_points_to_its_usual_target_and_minimum(variant):
    form = chosen({"variant": variant, "target": "usual", "min_bid": "usual"})

    assert form.errors == {}
    assert form.cleaned_data["rules"] == rules.Rules(variant=variant)
    assert form.cleaned_data["rules"].target == rules.VARIANTS[variant].target


def test_a_custom_game_plays_the_points_ticked_in_the_catalogues_order():
    form = chosen({"variant": "custom", "points": ["game", "five", "high", "low"], "target": "21"})

    assert form.cleaned_data["rules"] == rules.Rules(variant="custom", points=("high", "low", "five", "game"), target=21)
    assert form.cleaned_data["rules"].total == 8


def test_the_points_ticked_count_only_for_a_custom_game():
    form = chosen({"variant": "9-point", "points": ["ace"]})

    assert form.cleaned_data["rules"].points == rules.VARIANTS["9-point"].points


def test_a_custom_game_needs_a_point():
    form = chosen({"variant": "custom", "target": "usual"})

    assert form.errors == {"points": ["Tick at least one point for a custom game."]}


@pytest.mark.parametrize(
    ("post", "field", "message"),
    [
        ({"variant": "3-point"}, "variant", "Select a valid choice. 3-point is not one of the available choices."),
        ({"variant": "custom", "points": ["high", "trump"]}, "points", "Select a valid choice. trump is not one of the available choices."),
        ({"variant": "4-point", "min_bid": "5"}, "min_bid", "The minimum bid can be at most 4, the most a hand of this game awards."),
        ({"variant": "custom", "points": ["high", "low"], "min_bid": "3"}, "min_bid", "The minimum bid can be at most 2"),
        ({"variant": "4-point", "min_bid": "24"}, "min_bid", "Select a valid choice."),
        ({"target": "other", "other_target": "1000"}, "other_target", "Ensure this value is less than or equal to 999."),
        ({"target": "other"}, "other_target", "Type the target, or pick one."),
        ({"target": "8"}, "target", "Select a valid choice."),
        ({"negative": "maybe"}, "negative", "Select a valid choice."),
    ],
)
def test_a_choice_the_rules_do_not_allow_is_refused_on_its_field(post, field, message):
    form = chosen(post)

    assert list(form.errors) == [field]
    assert message in form.errors[field][0]
    assert "rules" not in form.cleaned_data


def test_the_minimum_bid_goes_up_to_the_total_and_below_the_variants_own():
    assert chosen({"variant": "13-point", "min_bid": "13"}).cleaned_data["rules"].min_bid == 13
    ten = chosen({"variant": "10-point", "min_bid": "1"}).cleaned_data["rules"]
    assert ten.min_bid == 1 and ten.house == {"min_bid": 1}


def test_any_target_to_999_and_no_negative_scores():
    form = chosen({"variant": "10-point", "target": "other", "other_target": "999", "negative": "no"})

    assert form.cleaned_data["rules"] == rules.Rules(variant="10-point", target=999, negative=False)


def test_what_a_post_leaves_out_is_the_defaults_and_their_target_and_minimum_go_with_their_own_game():
    usual = rules.Rules(variant="10-point", target=61, min_bid=6, steal=False, negative=False)

    assert chosen({}, usual).cleaned_data["rules"] == usual
    assert chosen({"variant": "10-point"}, usual).cleaned_data["rules"] == usual
    # Another game: its own target and minimum bid, the house rules kept.
    assert chosen({"variant": "5-point"}, usual).cleaned_data["rules"] == rules.Rules(variant="5-point", steal=False, negative=False)
    custom = rules.Rules(variant="custom", points=("high", "five"), target=30, min_bid=2)
    assert chosen({}, custom).cleaned_data["rules"] == custom
    assert chosen({"variant": "custom", "points": ["high", "five"]}, custom).cleaned_data["rules"] == custom
    assert chosen({"variant": "custom", "points": ["high", "low"]}, custom).cleaned_data["rules"] == rules.Rules(
        variant="custom", points=("high", "low")
    )


@pytest.mark.parametrize(
    ("usual", "initial"),
    [
        (rules.Rules(), {"variant": "4-point", "target": "usual", "min_bid": "usual", "negative": "yes"}),
        (rules.Rules(variant="10-point", min_bid=5, target=21, negative=False), {"target": "21", "min_bid": "5", "negative": "no"}),
        (rules.Rules(variant="9-point", target=60), {"target": "other", "other_target": 60}),
        (rules.Rules(variant="custom", points=("ace", "five")), {"variant": "custom", "points": ["ace", "five"], "target": "usual"}),
    ],
)
def test_the_form_starts_with_the_defaults(usual, initial):
    form = RulesForm(defaults=usual)

    assert {key: form[key].value() for key in initial} == initial
    assert form.chosen_rules() == usual


# The team shapes


@pytest.mark.parametrize(
    ("mode", "post", "teams"),
    [
        ("2x2", FOUR, [("Team 1", ("Ann", "Cat")), ("Team 2", ("Bob", "Dan"))]),
        ("3x2", SIX, [("Team 1", ("Ann", "Dan")), ("Team 2", ("Bob", "Eve")), ("Team 3", ("Cat", "Fay"))]),
        ("2x3", SIX, [("Team 1", ("Ann", "Cat", "Eve")), ("Team 2", ("Bob", "Dan", "Fay"))]),
    ],
)
def test_partners_sit_every_t_seats_under_their_team_names(league, mode, post, teams):
    names = {"team1": "Team 1", "team2": "Team 2", "team3": "Team 3"}
    form = new_game(league, mode=mode, **post, **names)

    assert form.errors == {}
    assert [(name, tuple(players)) for name, players in form.cleaned_data["teams"]] == teams


@pytest.mark.parametrize(
    ("mode", "post", "message"),
    [
        ("2x2", SIX, "2 teams of 2 need exactly 4 players; 6 are seated."),
        ("3x2", FOUR, "3 teams of 2 need exactly 6 players; 4 are seated."),
        ("2x3", {**FOUR, "new_5": "Eve"}, "2 teams of 3 need exactly 6 players; 5 are seated."),
        ("party", FOUR, "Select a valid choice."),
    ],
)
def test_a_team_shape_the_seats_do_not_fill_is_refused(league, mode, post, message):
    form = NewGameForm({"mode": mode, "first_dealer": "1", **post}, league=league)

    assert not form.is_valid()
    assert message in form.errors["mode"][0]


def test_every_team_played_needs_a_name_and_the_others_are_not_read(league):
    form = new_game(league, mode="3x2", **SIX, team1="Red", team2="", team3="Blue")
    assert form.errors == {"team2": ["Give the team a name."]}

    form = new_game(league, mode="2x3", **SIX, team1="Red", team2="Blue", team3="T" * 41)
    assert form.errors == {} and [name for name, _players in form.cleaned_data["teams"]] == ["Red", "Blue"]


def test_the_cleaned_data_is_what_start_game_takes(league):
    form = new_game(league, variant="10-point", target="usual", first_dealer="3", negative="no")

    assert form.errors == {}
    data = form.cleaned_data
    assert data["seats"] == ["Ann", "Bob", "Cat", "Dan"]
    assert data["rules"] == rules.Rules(variant="10-point", negative=False)
    assert data["teams"] == ()
    assert data["first_dealer"] == "Cat"


# The page


def new_game_url(league) -> str:
    return reverse("scores:game_new", args=[league.slug])


def test_the_page_shows_each_variants_points_as_players_name_them_and_its_usual_target(scorer, league):
    html = scorer.get(new_game_url(league)).content.decode()

    assert (
        "<strong>10-point:</strong> Ace, Jack, Off-jack, Big joker, Little joker, Ten, Three (3), Two (10 points in a hand). "
        "Usually to 52; the lowest bid is 4."
    ) in html
    assert "<strong>4-point:</strong> High, Low, Jack, Game (4 points in a hand). Usually to 7; the lowest bid is 1." in html
    for name, variant in rules.VARIANTS.items():
        assert f'value="{name}"' in html and f'data-total="{variant.total}"' in html
    # Custom: every point of the catalogue to tick, with its value for the page to add up.
    boxes = re.findall(r'name="points" id="[^"]+" value="([a-z_]+)" data-value="(\d+)"', html)
    assert boxes == [(key, str(point.value)) for key, point in rules.CATALOGUE.items()]
    # The minimum bids go up to the biggest total a custom game can have; the page hides those above the game's.
    assert re.findall(r'name="min_bid" id="[^"]+" value="([^"]+)"', html) == ["usual", *map(str, range(1, 24))]


def test_no_radio_or_checkbox_carries_autocomplete(scorer, league):
    html = scorer.get(new_game_url(league)).content.decode()

    inputs = re.findall(r'<input type="(?:radio|checkbox)"[^>]*>', html)
    assert len(inputs) > 40
    assert [tag for tag in inputs if "autocomplete" in tag] == []


def test_the_house_rules_summary_says_the_rules_chosen_and_htmx_asks_for_it_again(scorer, league):
    html = scorer.get(new_game_url(league)).content.decode()
    assert '<span class="rules-line"' in html and ">4-point · to 7</span></summary>" in html

    query = {"part": "rules", "variant": "10-point", "target": "21", "min_bid": "2", "negative": "no", "smudge": "yes"}
    response = scorer.get(new_game_url(league), query, headers={"HX-Request": "true"})
    assert response.content.decode() == "10-point · to 21 · minimum bid 2 · smudge wins · no negative scores"
    assert "HX-Request" in response["Vary"]
    custom = scorer.get(
        new_game_url(league), {"part": "rules", "variant": "custom", "points": ["five", "high"]}, headers={"HX-Request": "true"}
    )
    assert custom.content.decode() == "Custom: High, Five (5) · to 7"
    # Nothing ticked yet: no rules to say.
    assert scorer.get(new_game_url(league), {"part": "rules", "variant": "custom"}, headers={"HX-Request": "true"}).content == b""
    # Without htmx the address is the page.
    assert "Start game" in scorer.get(new_game_url(league), query).content.decode()


def test_a_refused_post_shows_the_rules_it_chose_in_the_summary(scorer, league):
    response = scorer.post(
        new_game_url(league), {"mode": "2x2", "first_dealer": "1", "new_1": "Ann", "new_2": "Bob", "variant": "7-point", "target": "52"}
    )

    assert response.status_code == 200 and not Game.objects.exists()
    assert "7-point · to 52</span></summary>" in response.content.decode()


# A league's usual rules


def settings_url(league) -> str:
    return reverse("scores:league_settings", args=[league.slug])


def test_the_owner_sets_the_leagues_usual_variant_and_rules_and_new_games_start_with_them(owner_client, league):
    post = {"form": "rules", "variant": "10-point", "target": "other", "other_target": "61", "going_out": "made_bid", "min_bid": "5"}
    response = owner_client.post(settings_url(league), {**post, "steal": "no", "smudge": "yes", "negative": "no"})

    assert response.status_code == 302
    league.refresh_from_db()
    usual = rules.Rules(variant="10-point", target=61, going_out="made_bid", min_bid=5, steal=False, smudge=True, negative=False)
    assert league.rules == usual
    form = NewGameForm(league=league)
    assert {key: form[key].value() for key in ("variant", "target", "other_target", "min_bid", "negative")} == {
        "variant": "10-point",
        "target": "other",
        "other_target": 61,
        "min_bid": "5",
        "negative": "no",
    }
    assert new_game(league).cleaned_data["rules"] == usual


def test_a_league_keeps_a_custom_set_of_points(owner_client, league):
    owner_client.post(settings_url(league), {"form": "rules", "variant": "custom", "points": ["five", "high", "low"], "target": "usual"})

    league.refresh_from_db()
    assert league.rules == rules.Rules(variant="custom", points=("high", "low", "five"))
    html = owner_client.get(settings_url(league)).content.decode()
    assert re.findall(r'name="points" id="[^"]+" value="([a-z_]+)" data-value="\d+" checked', html) == ["high", "low", "five"]


@pytest.mark.parametrize(
    ("post", "message"),
    [
        ({"target": "other", "other_target": "1000"}, "Ensure this value is less than or equal to 999."),
        ({"variant": "10-point", "min_bid": "11"}, "The minimum bid can be at most 10, the most a hand of this game awards."),
        ({"variant": "custom"}, "Tick at least one point for a custom game."),
        ({"variant": "12-point"}, "Select a valid choice."),
    ],
)
def test_bad_usual_rules_are_refused_on_their_field_and_change_nothing(owner_client, league, post, message):
    response = owner_client.post(settings_url(league), {"form": "rules", **post})

    assert response.status_code == 400
    assert message in response.content.decode()
    league.refresh_from_db()
    assert league.rules == rules.Rules()


# The pages that show a game say its variant


def test_the_game_watch_and_public_pages_say_the_variant_and_its_rules(scorer, league):
    League.objects.filter(pk=league.pk).update(public_token="pub")
    ten = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(variant="10-point", negative=False, min_bid=2))
    own = rules.Rules(variant="custom", points=("ace", "five"), target=15)
    custom = services.start_game(league=league, seats=["Ann", "Bob"], rules=own)
    lines = {
        ten: '<p class="small text-muted mb-2" id="house-rules">10-point · to 52 · minimum bid 2 · no negative scores</p>',
        custom: '<p class="small text-muted mb-2" id="house-rules">Custom: Ace, Five (5) · to 15</p>',
    }
    for game, line in lines.items():
        for url in (
            game.get_absolute_url(),
            reverse("scores:watch", args=[game.share_token]),
            reverse("scores:public_game", args=["pub", game.pk]),
        ):
            assert line in scorer.get(url).content.decode(), url
