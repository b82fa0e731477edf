"""Phone-sized Chromium plays a hand with the Vietnamese and the Maltese interface, by the labels a player reads."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scores.leagues.models import Role
from scores.table.models import Game
from tests.conftest import PASSWORD, scripts_catalog

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What each interface says, as its players read it.
WORDS = {
    "vi": {
        "language": "Tiếng Việt", "menu": "Trình đơn", "username": "Tên đăng nhập", "password": "Mật khẩu",
        "log_in": "Đăng nhập", "new_game": "Trận mới", "new_player": "Người chơi mới {}", "play_to": "Chơi đến",
        "start": "Bắt đầu trận", "hand_1": "Vòng 1", "pitcher": "Người thắng thầu", "bid": "Giá thầu", "high": "Cao",
        "low": "Thấp", "jack": "Bồi", "not_in_play": "Không được chia", "game": "Điểm trò chơi", "tied": "Hòa",
        "save": "Lưu vòng", "result": "Vòng 1: Bob bị trừ 3", "deals": "Bob chia bài, Cat đấu thầu trước", "rules": "Luật chơi",
        "rules_title": "Luật chơi Pitch",
    },
    "mt": {
        "language": "Malti", "menu": "Menù", "username": "Isem tal-utent", "password": "Password",
        "log_in": "Idħol", "new_game": "Partita ġdida", "new_player": "Plejer ġdid {}", "play_to": "Nilagħbu sa",
        "start": "Ibda l-partita", "hand_1": "Rawnd 1", "pitcher": "Pitcher", "bid": "Offerta", "high": "Għoli",
        "low": "Baxx", "jack": "Jack", "not_in_play": "Mhux fil-logħob", "game": "Logħba", "tied": "Indaqs",
        "save": "Aħżen ir-rawnd", "result": "Rawnd 1: Lura b'3 għal Bob", "deals": "Iqassam Bob, joffri l-ewwel Cat",
        "rules": "Regoli", "rules_title": "Ir-regoli tal-Pitch",
    },
}  # fmt: skip


def tap(page: Page, group: str, label: str) -> None:
    page.get_by_role("group", name=group, exact=True).get_by_text(label, exact=True).click()


@pytest.mark.parametrize("lang", ["vi", "mt"])
def test_a_hand_is_played_with_the_interface_in_the_language(live_server, page: Page, make_user, league, lang):
    words = WORDS[lang]
    make_user("sam", league, Role.SCORER)
    page.goto(live_server.url + "/accounts/login/")
    # The switcher, in the menu on the login page as on every page: one tap; the choice is kept for the pages after it.
    page.get_by_text("Menu", exact=True).click()
    page.get_by_role("button", name=words["language"]).click()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.get_by_label(words["username"]).fill("sam")
    page.get_by_label(words["password"]).fill(PASSWORD)
    page.get_by_role("button", name=words["log_in"]).click()
    page.get_by_role("link", name="Thursday Pitch").click()

    page.get_by_role("link", name=words["new_game"]).click()
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"], start=1):
        page.get_by_label(words["new_player"].format(i), exact=True).fill(name)
    page.get_by_role("group", name=words["play_to"]).get_by_text("7", exact=True).click()
    page.get_by_role("button", name=words["start"]).click()
    expect(page.get_by_text(words["hand_1"], exact=True)).to_be_visible()

    tap(page, words["pitcher"], "Bob")
    tap(page, words["bid"], "3")
    tap(page, words["high"], "Bob")
    tap(page, words["low"], "Ann")
    tap(page, words["jack"], words["not_in_play"])
    tap(page, words["game"], words["tied"])
    page.get_by_role("button", name=words["save"]).click()

    expect(page.locator(".result-line")).to_have_text(words["result"])  # Bob won 1 of a bid of 3: set back.
    expect(page.get_by_text(words["deals"])).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # The phone needs no sideways scroll.
    game = Game.objects.get()
    assert [(s.side.name, s.total) for s in game.hands.get().scores.order_by("side__position")] == [
        ("Ann", 1),
        ("Bob", -3),
        ("Cat", 0),
        ("Dan", 0),
    ]

    page.get_by_text(words["menu"], exact=True).click()  # The rules are in the header's menu.
    page.get_by_role("link", name=words["rules"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["rules_title"])


SCRIPT_PLURALS = """(counts) => counts.map((count) =>
  interpolate(ngettext("%(count)s hand waiting to sync", "%(count)s hands waiting to sync", count), { count }, true))"""


@pytest.mark.parametrize("lang", ["en", "af", "ceb", "it", "mt", "vi"])
def test_the_scripts_count_with_the_languages_own_plural_forms(live_server, page: Page, lang):
    """Django's JavaScript catalog in the page's language: for every count, what Python's gettext says (Maltese has
    four forms, Vietnamese one), so a long queue never reads as a shorter one."""
    page.set_extra_http_headers({"Accept-Language": lang})
    page.goto(live_server.url + "/rules/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    counts = [*range(121), 1001, 1011, 1111]
    said = page.evaluate(SCRIPT_PLURALS, counts)
    catalog = scripts_catalog(lang)
    assert said == [catalog.ngettext("%(count)s hand waiting to sync", "%(count)s hands waiting to sync", n) % {"count": n} for n in counts]
    assert len(set(said)) == len(counts)  # Each count says its own number.
