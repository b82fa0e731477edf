"""Card nights through their pages: an owner starts one for the players present, seats each round from the rounds
stored, and everyone follows every table and the night's standings live; each table is an ordinary game."""

from __future__ import annotations

import datetime
import html
import json

import pytest
from django.db.models import F
from django.urls import reverse

from scores.common.refusals import Refused
from scores.engine import planner, rules
from scores.leagues.models import Player, Role
from scores.nights import selectors as nights_selectors
from scores.nights import services
from scores.nights.models import Bye, Night, Round
from scores.people import services as people_services
from scores.standings.selectors.standings import standings
from scores.table import selectors
from scores.table import services as table_services
from scores.table.models import Game, Seat
from tests.conftest import hand

pytestmark = pytest.mark.django_db

EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def _players(league, names) -> list[Player]:
    return [people_services.add_guest(league=league, name=name) for name in names]


def _start(owner_client, league, **fields):
    data = {"name": "Friday", "played_on": "2026-03-06", "mode": "partnership", "solo_size": "4", "leftover": "solo"}
    data |= {"rounds": "3", "target": "7"} | fields
    return owner_client.post(reverse("scores:night_new", args=[league.slug]), data)


def _night(league, names=EIGHT, *, rounds=3, seating=None, owner=None) -> Night:
    return services.start_night(
        league=league,
        name="Friday",
        played_on=datetime.date(2026, 3, 6),
        seating=seating or planner.Seating(),
        rounds=rounds,
        game_rules=rules.Rules(),
        players=list(Player.objects.filter(league=league, name__in=names)) or _players(league, names),
        by=owner,
    )


def _sweep(game: Game) -> None:
    """The table's first side bids 4 and takes all four points."""
    state = selectors.load_game(game, hands=False)
    first_side = state.table.sides[0]
    pitcher = next(seat for seat in state.table.seats if state.table.side(seat) == first_side)
    table_services.record_hand(game=game, hand=hand(pitcher, 4, first_side, first_side, first_side, first_side))


def _finish(game: Game) -> None:
    """The table's first side sweeps two hands: it reaches 8 and wins."""
    _sweep(game)
    _sweep(game)


def _tables(night: Night, number: int) -> list[Game]:
    return list(Game.objects.filter(round__night=night, round__number=number).order_by("table"))


def test_an_owner_starts_a_night_of_eight_at_two_partnership_tables(owner_client, league):
    _players(league, EIGHT[:6])
    ticked = list(Player.objects.filter(league=league).values_list("pk", flat=True))
    response = _start(owner_client, league, players=ticked, guests="Gus\nHal\n")
    night = Night.objects.get()
    assert response.status_code == 302 and response["Location"] == night.get_absolute_url()
    tables = _tables(night, 1)
    assert [game.table for game in tables] == [1, 2]
    for game in tables:
        state = selectors.load_game(game)
        assert game.partnership and game.league == league and game.played_on == datetime.date(2026, 3, 6)
        assert len(state.table.seats) == 4 and [len(team.players) for team in state.table.teams] == [2, 2]
        # Partners opposite: seats 1 and 3, 2 and 4; the team is named after its partners.
        assert state.table.teams[0].players == (state.table.seats[0], state.table.seats[2])
        assert state.table.teams[0].name == f"{state.table.seats[0]} & {state.table.seats[2]}"
        assert game.rules == rules.Rules(target=7)
    seated = sorted(Seat.objects.filter(game__in=tables).values_list("player__name", flat=True))
    assert seated == sorted(EIGHT)  # The two guests typed are players now.
    page = owner_client.get(night.get_absolute_url())
    assert "Round 1 of 3" in page.text and "Table 2" in page.text and "Tonight's standings" in page.text


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"guests": "Ann\nBob\nCat"}, "players", "A card night seats 4 to 28 players: 3 are ticked or typed."),
        ({"guests": "\n".join(f"P{i}" for i in range(29))}, "players", "A card night seats 4 to 28 players: 29 are ticked or typed."),
        ({"guests": "Ann\nBob\nCat\nDan", "rounds": "28"}, "rounds", "Ensure this value is less than or equal to 27."),
        ({"guests": "Ann\nBob\nCat\nDan", "rounds": ""}, "rounds", "This field is required."),
        (
            {"guests": "\n".join(f"P{i}" for i in range(10)), "rotation": "on"},
            "rotation",
            "A full rotation needs 4k or 4k+1 players (4, 5, 8, 9, 12, 13, …, 28): 10 are ticked or typed.",
        ),
        (
            {"guests": "\n".join(f"P{i}" for i in range(7)), "rotation": "on", "rounds": ""},
            "rotation",
            "A full rotation needs 4k or 4k+1 players (4, 5, 8, 9, 12, 13, …, 28): 7 are ticked or typed.",
        ),
        (
            {"guests": "\n".join(f"P{i}" for i in range(8)), "rotation": "on", "mode": "solo"},
            "rotation",
            "A full rotation seats partnership tables of four: choose those, or no full rotation.",
        ),
        ({"guests": "Ann\nBob\nCat\nDan", "rounds": "0"}, "rounds", "Ensure this value is greater than or equal to 1."),
        ({"guests": "Ann\nBob\nCat\nDan", "solo_size": "8"}, "solo_size", "Select a valid choice. 8 is not one of the available choices."),
        ({"guests": "Ann\nBob\nCat\nDan", "leftover": "tea"}, "leftover", "Select a valid choice. tea is not one of the"),
        ({"guests": "Ann\nBob\nCat\nDan", "mode": "teams"}, "mode", "Select a valid choice. teams is not one of the available choices."),
        ({"guests": "Ann\nBob\nCat\nDan", "played_on": "Friday"}, "played_on", "Enter a valid date."),
        ({"guests": "Ann\nBob\nCat\nDan", "target": "0"}, "target", f"Ensure this value is greater than or equal to {rules.MIN_TARGET}."),
        ({"guests": "Ann\n" + "x" * 41 + "\nCat\nDan"}, "guests", "at most 40 fit"),
        ({"guests": "Ann\nBob\nCat\nDan", "players": ["999999"]}, "players", "Select a valid choice. 999999 is not one of the"),
    ],
)
def test_a_bad_night_is_refused_with_what_is_wrong_and_nothing_is_started(owner_client, league, fields, field, message):
    response = _start(owner_client, league, **fields)
    assert response.status_code == 400
    assert any(message in error for error in response.context["form"].errors[field]), response.context["form"].errors
    assert not Night.objects.exists() and not Game.objects.exists() and not Player.objects.exists()


def test_the_preview_says_how_the_tables_fall_and_starts_nothing(owner_client, league):
    guests = "\n".join([*EIGHT, "Ivy"])
    response = _start(owner_client, league, guests=guests, preview="1")
    assert response.status_code == 200 and "Each round: 9 players: 1 table of four and 1 solo table of 5." in response.text
    response = _start(owner_client, league, guests=guests, preview="1", leftover="byes")
    assert "Each round: 9 players: 2 tables of four and 1 sitting out." in response.text
    response = _start(owner_client, league, guests="\n".join([*EIGHT, "Ivy", "Jo"]), preview="1", mode="solo")
    assert "Each round: 10 players: 1 solo table of 4 and 2 solo tables of 3." in response.text
    assert not Night.objects.exists() and not Player.objects.exists()


def test_a_full_rotation_sets_the_rounds_and_the_page_says_how_the_players_have_mixed(owner_client, league):
    """Nine players: nine rounds, one sitting out each; after the first, 4 of the 36 pairs have partnered."""
    guests = "\n".join([*EIGHT, "Ivy"])
    preview = _start(owner_client, league, guests=guests, rotation="on", rounds="", preview="1")
    assert "Each round: 9 players: 2 tables of four and 1 sitting out. A full rotation of 9 rounds." in preview.text
    response = _start(owner_client, league, guests=guests, rotation="on", rounds="5")  # The rounds typed give way.
    night = Night.objects.get()
    assert response.status_code == 302 and night.rotation and night.rounds == 9 and night.leftover == "byes"
    assert Bye.objects.filter(round__night=night).count() == 1
    text = owner_client.get(night.get_absolute_url()).text
    assert "A full rotation: every pair partners once and opposes twice." in text
    assert "4 of 36 pairs have partnered." in text
    assert "No partner has repeated, and no pair has opposed more than twice." in text


def test_a_late_arrival_in_a_full_rotation_is_seated_by_search_and_the_page_says_so(owner_client, league, owner):
    night = _night(league, owner=owner, rounds=7)
    Night.objects.filter(pk=night.pk).update(rotation=True)
    assert _next_round(owner_client, night, 2, unfinished="on").status_code == 302
    text = owner_client.get(night.get_absolute_url()).text
    assert "A full rotation: every pair partners once and opposes twice." in text and "8 of 28 pairs have partnered." in text
    present = [p.pk for p in Player.objects.filter(league=league)]
    assert _next_round(owner_client, night, 3, players=present, guests="Ivy", unfinished="on").status_code == 302
    seated = set(Seat.objects.filter(game__round__night=night, game__round__number=3).values_list("player__name", flat=True))
    assert seated | set(Bye.objects.filter(round__number=3, round__night=night).values_list("player__name", flat=True)) == {*EIGHT, "Ivy"}
    text = owner_client.get(night.get_absolute_url()).text
    assert "The players changed in round 3: from there on the rounds are seated by search, not by the full rotation." in text
    assert "A full rotation: every pair" not in text and "of 36 pairs have partnered." in text


def test_a_quality_line_counts_the_repeats(owner_client, league, owner):
    """Four players partner three ways; a fourth round must repeat a partnership, and the page counts it."""
    night = _night(league, EIGHT[:4], owner=owner, rounds=4)
    for number in (2, 3, 4):
        assert _next_round(owner_client, night, number, unfinished="on").status_code == 302
    text = owner_client.get(night.get_absolute_url()).text
    assert "6 of 6 pairs have partnered." in text
    assert "2 pairs have partnered more than once." in text and "4 pairs have opposed more than twice." in text


def _next_round(client, night, number, players=None, **fields):
    present = players if players is not None else [p.pk for p in nights_selectors.night_context(night)["present"]]
    return client.post(reverse("scores:round_new", args=[night.league.slug, night.pk]), {"number": number, "players": present, **fields})


def test_the_next_round_waits_for_every_table_unless_the_owner_starts_it_anyway(owner_client, league, owner):
    night = _night(league, owner=owner)
    first, second = _tables(night, 1)
    _finish(first)
    response = _next_round(owner_client, night, 2)
    assert response.status_code == 302
    assert "Table 2 of round 1 is still playing" in owner_client.get(night.get_absolute_url()).text
    assert not Round.objects.filter(night=night, number=2).exists()
    assert _next_round(owner_client, night, 2, unfinished="on").status_code == 302
    assert len(_tables(night, 2)) == 2 and not Game.objects.get(pk=second.pk).is_finished


def test_round_two_seats_everyone_with_new_partners(owner_client, league, owner):
    night = _night(league, owner=owner)
    for game in _tables(night, 1):
        _finish(game)
    assert _next_round(owner_client, night, 2).status_code == 302

    def partners(number):
        pairs = set()
        for game in _tables(night, number):
            for team in selectors.load_game(game).table.teams:
                pairs.add(frozenset(team.players))
        return pairs

    assert len(partners(2)) == 4 and not partners(1) & partners(2)


def test_a_second_press_of_next_round_seats_nothing_twice(owner_client, league, owner):
    night = _night(league, owner=owner)
    assert _next_round(owner_client, night, 2, unfinished="on").status_code == 302
    response = _next_round(owner_client, night, 2, unfinished="on")
    assert response.status_code == 302
    assert "Round 2 was started already" in owner_client.get(night.get_absolute_url()).text
    assert Game.objects.filter(round__night=night).count() == 4


def test_a_night_has_only_its_rounds(owner_client, league, owner):
    night = _night(league, rounds=1, owner=owner)
    response = _next_round(owner_client, night, 2, unfinished="on")
    assert "The night has had all its 1 rounds." in owner_client.get(night.get_absolute_url()).text and response.status_code == 302
    assert Round.objects.filter(night=night).count() == 1


def test_someone_leaves_and_someone_arrives_between_rounds(owner_client, league, owner):
    night = _night(league, owner=owner)
    present = [p.pk for p in Player.objects.filter(league=league).exclude(name="Hal")]
    response = _next_round(owner_client, night, 2, players=present, guests="Ivy", unfinished="on")
    assert response.status_code == 302
    seated = set(Seat.objects.filter(game__round__night=night, game__round__number=2).values_list("player__name", flat=True))
    assert seated == {*EIGHT, "Ivy"} - {"Hal"}


def test_a_round_out_of_turn_is_refused_and_the_next_round_is_still_offered(owner_client, league, owner):
    night = _night(league, owner=owner)
    response = _next_round(owner_client, night, 3, unfinished="on")
    assert response.status_code == 409 and "Round 3 cannot start before round 2." in response.text
    assert list(Round.objects.filter(night=night).values_list("number", flat=True)) == [1]
    assert response.context["round_form"]["number"].value() == 2
    assert _next_round(owner_client, night, 2, unfinished="on").status_code == 302
    assert list(Round.objects.filter(night=night).order_by("number").values_list("number", flat=True)) == [1, 2]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"number": "x"}, "The page did not say which round it starts: reload it and try again."),
        ({"players": 2, "guests": ""}, "A card night seats 4 to 28 players: 2 are ticked or typed."),
    ],
)
def test_a_bad_next_round_is_refused_and_seats_nothing(owner_client, league, owner, fields, message):
    night = _night(league, owner=owner)
    if "players" in fields:  # So many of the night's players ticked.
        fields = fields | {
            "players": [str(pk) for pk in Player.objects.filter(league=league).values_list("pk", flat=True)[: fields["players"]]]
        }
    response = owner_client.post(reverse("scores:round_new", args=[league.slug, night.pk]), {"number": 2, "unfinished": "on", **fields})
    assert response.status_code == 400 and message in response.text
    assert Round.objects.filter(night=night).count() == 1


def test_byes_go_round_and_the_page_says_who_sits_out(owner_client, league, owner):
    night = _night(league, [*EIGHT, "Ivy"], seating=planner.Seating(leftover="byes"), owner=owner)
    [bye] = Bye.objects.filter(round__night=night)
    text = owner_client.get(night.get_absolute_url()).text
    assert f"{bye.player.name} sits out this round: the tables of four leave one player over." in text
    _next_round(owner_client, night, 2, unfinished="on")
    second = Bye.objects.get(round__night=night, round__number=2)
    assert second.player != bye.player  # Nobody sits out twice before everyone present has once.


def test_the_nights_standings_credit_partners_and_count_in_the_league(owner_client, league, owner):
    night = _night(league, owner=owner)
    for game in _tables(night, 1):
        _finish(game)
    context = nights_selectors.night_context(night)
    won = Seat.objects.filter(game__round__night=night, side=F("game__winner"))
    winners = set(won.values_list("player__name", flat=True))
    rows = {row["name"]: row for row in context["standings"]}
    assert {name for name, row in rows.items() if row["wins"] == 1} == winners and len(winners) == 4
    assert all(row["rank"] == 1 and row["points"] == 8 for name, row in rows.items() if name in winners)
    league_rows = {row.name: row for row in standings(league)}
    assert {name: league_rows[name].wins for name in EIGHT} == {name: int(name in winners) for name in EIGHT}


def test_the_live_part_answers_304_until_a_table_changes(owner_client, league, owner, django_assert_num_queries):
    night = _night(league, owner=owner)
    url = night.get_absolute_url()
    first = owner_client.get(url, headers={"HX-Request": "true"})
    assert first.status_code == 200 and '<div id="night-live"' in first.text and "<html" not in first.text
    with django_assert_num_queries(2 + 1 + 1 + 1):  # Session and user, membership, the night, its version.
        assert owner_client.get(url, headers={"HX-Request": "true", "If-None-Match": first["ETag"]}).status_code == 304
    _sweep(_tables(night, 1)[0])
    again = owner_client.get(url, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert again.status_code == 200 and again["ETag"] != first["ETag"] and "1 hand" in again.text
    assert "HX-Request" in again["Vary"]


def test_the_big_screen_shows_the_tables_and_standings(client, league, owner, make_user):
    night = _night(league, owner=owner)
    client.force_login(make_user("vic", league, Role.VIEWER))
    page = client.get(reverse("scores:night_screen", args=[league.slug, night.pk]))
    assert page.status_code == 200 and 'class="big-screen"' in page.text and "Table 2" in page.text
    assert "Seat round" not in page.text
    live = client.get(reverse("scores:night_screen", args=[league.slug, night.pk]), headers={"HX-Request": "true"})
    assert live.status_code == 200 and "<html" not in live.text and "Tonight's standings" in live.text


def test_the_night_is_exported_as_its_games(owner_client, league, owner):
    night = _night(league, owner=owner)
    table_services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(), code="not-tonight")
    response = owner_client.get(reverse("scores:night_export_json", args=[league.slug, night.pk]))
    document = json.loads(b"".join(response.streaming_content))
    assert sorted(game["id"] for game in document["games"]) == sorted(game.code for game in _tables(night, 1))
    assert response["Content-Disposition"].endswith('.json"')


@pytest.mark.parametrize("tables", [2, 6])
def test_the_nights_page_needs_the_same_queries_however_many_tables_and_rounds(
    client, league, owner, make_user, django_assert_num_queries, tables
):
    night = _night(league, [f"P{i}" for i in range(4 * tables)], owner=owner)
    services.start_round(night=night, number=2, players=list(Player.objects.filter(league=league)), unfinished=True)
    client.force_login(make_user("vic", league, Role.VIEWER))
    # Session and user, membership, the night, night_context's six queries.
    with django_assert_num_queries(2 + 1 + 1 + 6):
        response = client.get(night.get_absolute_url())
    assert response.content.count(b'class="night-table card') == 2 * tables


def _hand_post(client, game: Game):
    state = selectors.load_game(game, hands=False)
    side = state.table.sides[0]
    pitcher = next(seat for seat in state.table.seats if state.table.side(seat) == side)
    data = {"number": 1, "key": "8a6e0804-2bd0-4672-b79a-4d5b9f0ad1b1", "pitcher": pitcher, "bid": 2, "high": side, "low": side}
    return client.post(reverse("scores:hand_create", args=[game.league.slug, game.pk]), data | {"jack": "-", "game": "-"})


def test_a_tables_scorer_and_the_owners_record_it_and_the_leagues_other_scorers_only_watch(client, league, owner, make_user):
    sam, sue, vic = make_user("sam", league, Role.SCORER), make_user("sue", league, Role.SCORER), make_user("vic", league, Role.VIEWER)
    night = _night(league, owner=owner)
    first, second = _tables(night, 1)
    client.force_login(owner)
    response = client.post(reverse("scores:table_scorer", args=[league.slug, night.pk, first.pk]), {f"t{first.pk}-scorer": sam.pk})
    assert response.status_code == 302 and Game.objects.get(pk=first.pk).scorer == sam
    for user in (sue, vic):
        client.force_login(user)
        assert _hand_post(client, first).status_code == 404
        page = client.get(first.get_absolute_url())
        assert page.status_code == 200 and page.context["form"] is None and 'id="hand"' not in page.text
    client.force_login(sue)
    assert "sam and the owners record this table." in client.get(first.get_absolute_url()).text
    assert not first.hands.exists()
    client.force_login(sam)
    assert _hand_post(client, first).status_code == 302 and first.hands.count() == 1
    assert _hand_post(client, second).status_code == 404 and not second.hands.exists()  # Sam scores his table only.
    client.force_login(owner)
    assert _hand_post(client, second).status_code == 302 and second.hands.count() == 1
    client.force_login(sue)
    assert "The owners record this table." in client.get(second.get_absolute_url()).text


def test_the_table_of_a_player_whose_account_scores_has_them_as_its_scorer(league, owner, make_user):
    sam = make_user("sam", league, Role.SCORER)
    vic = make_user("vic", league, Role.VIEWER)
    _players(league, EIGHT)
    Player.objects.filter(league=league, name="Cat").update(user=sam)
    Player.objects.filter(league=league, name="Eve").update(user=vic)  # A viewer never scores.
    night = _night(league, owner=owner)
    scorers = {game.table: game.scorer for game in _tables(night, 1)}
    cats = Seat.objects.get(game__round__night=night, player__name="Cat").game.table
    assert scorers[cats] == sam and list(scorers.values()).count(None) == 1


def test_only_a_scorer_or_an_owner_can_be_a_tables_scorer(owner_client, league, owner, make_user):
    vic = make_user("vic", league, Role.VIEWER)
    night = _night(league, owner=owner)
    first = _tables(night, 1)[0]
    url = reverse("scores:table_scorer", args=[league.slug, night.pk, first.pk])
    response = owner_client.post(url, {f"t{first.pk}-scorer": vic.pk}, follow=True)
    assert "Scorer of table 1: Select a valid choice." in response.text
    assert Game.objects.get(pk=first.pk).scorer is None
    with pytest.raises(Refused, match=r"Only a scorer or an owner of the league can score a table\."):
        services.set_table_scorer(game=first, user_id=vic.pk)


def test_only_owners_start_nights_and_rounds_and_pick_scorers(client, league, owner, make_user):
    night = _night(league, owner=owner)
    first = _tables(night, 1)[0]
    for user in (make_user("sam", league, Role.SCORER), make_user("vic", league, Role.VIEWER)):
        client.force_login(user)
        assert _start(client, league, guests="W\nX\nY\nZ").status_code == 404
        assert _next_round(client, night, 2, unfinished="on").status_code == 404
        url = reverse("scores:table_scorer", args=[league.slug, night.pk, first.pk])
        assert client.post(url, {f"t{first.pk}-scorer": user.pk}).status_code == 404
        page = client.get(night.get_absolute_url())
        assert page.status_code == 200 and "Seat round" not in page.text and "Who records each table" not in page.text
    assert Night.objects.count() == 1 and Round.objects.count() == 1 and Game.objects.get(pk=first.pk).scorer is None


def test_a_nights_table_has_no_rematch(owner_client, league, owner):
    night = _night(league, owner=owner)
    first = _tables(night, 1)[0]
    _finish(first)
    page = owner_client.get(first.get_absolute_url())
    assert "Rematch" not in page.text and "Card night: round 1, table 1" in page.text
    response = owner_client.post(reverse("scores:rematch", args=[league.slug, first.pk]), follow=True)
    assert "A card night's table plays the night's rounds" in html.unescape(response.text)
    assert Game.objects.count() == 2
