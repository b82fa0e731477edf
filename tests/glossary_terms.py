"""The game's words in each language, as the players' own rule sheets name them: the data of ``test_glossary.py``.

For each language and each part of the game (pitcher, bid, pass, dealer, trump, High, Low, Jack, Game, game points,
set back, target, team, hand, trick, steal), the word the app uses and several catalog entries that must use it:
a button or label, a message, and the Rules page's long paragraphs, where an old word hides most easily.
``OLD_WORDS`` are the words the glossary replaced (a coined word, a mistranslation, another term's word, a word no
table uses): no translation may use them any more.

A key is a msgid, or (msgctxt, msgid) for an entry with a context.
"""

from __future__ import annotations

# Entries named more than once below.
POINT = "card game point"
PITCHER_SEATED = "the pitcher must be a seated player, got %(value)s"
ONLY_PITCHER = "Only the pitcher can go out, so the winner can have fewer points than a player who lost."
FORGET_AUCTION = "Forget the auction entered for this hand (to change the pitcher or the bid)"
RULES_PITCHER = (
    "Whoever wins the bid is the pitcher. The pitcher leads the first card, and its suit is trump for all six tricks of the hand."
)
RULES_SET_BACK = (
    "If the pitcher won at least as many points as the bid, the pitcher scores every point won. If not, the pitcher is set back: "
    "the bid is taken off the pitcher's score. Scores can go below zero."
)
RULES_BIDDING = (
    "Bidding starts with the player on the dealer's left and goes round clockwise. Everyone bids once: pass, 1, 2, 3 or 4, "
    "the number of points they expect to win. A bid must be higher than the best bid so far."
)
RULES_STUCK = "If everyone before the dealer passes, the dealer is stuck and must bid at least 2."
RULES_STEAL = "If the best bid is 1, 2 or 3, the dealer may steal it by bidding the same number."
RULES_DEAL = "The deal moves one seat to the left (clockwise) after every hand."
RULES_TRICK = (
    "The highest trump takes the trick; with no trump in it, the highest card of the suit led. Whoever takes the trick leads the next one."
)
RULES_HIGH = "<strong>High</strong>: for taking the highest trump in play."
RULES_LOW = "<strong>Low</strong>: for taking the lowest trump in play."
RULES_JACK = "<strong>Jack</strong>: for taking the Jack of trumps. If the Jack was not in play, nobody gets it."
RULES_GAME = (
    "<strong>Game</strong>: for the most game points in the cards you took: each 10 counts 10, each ace 4, each king 3, "
    "each queen 2, each jack 1. Most means more than anyone else, not necessarily half. If it is tied, nobody gets Game."
)
RULES_ONE_TRUMP = (
    "If only one trump is in play, it is both High and Low: 2 points to whoever takes it. If that one trump is the Jack, "
    "it is worth 3 (High, Low and Jack)."
)
RULES_TAP = (
    "In the app you tap who was the pitcher, the bid, and who won each point (High, Low, Jack and Game here); it works out the rest, "
    "like paper or poker chips would."
)
RULES_SEATS = (
    "Players sit clockwise by seat number: picking a player gives them the next free seat, and you can change it. Players "
    "without a seat number sit after the others, in list order. Seat 1 deals first unless you pick someone else below."
)
TAP_LOW = "Tap who won Low (the same as High if only one trump was out)."
TAP_JACK = "Tap who won the Jack, or Not in play."
STEAL_REFUSED = "This game's house rules do not let the dealer steal the bid; start again."

# Each term with the entries that carry it, the same in every language: (term, [keys]).
ENTRIES: dict[str, list] = {
    "pitcher": ["Pitcher", PITCHER_SEATED, ONLY_PITCHER, FORGET_AUCTION, RULES_PITCHER, RULES_SET_BACK, RULES_TAP],
    "bid": ["Bid", "Tap the bid.", "Minimum bid", "bid must be %(min)s-%(max)s, got %(value)s", RULES_SET_BACK, RULES_BIDDING, RULES_STEAL],
    "pass": [("bid", "Pass"), ("bid", "pass"), RULES_BIDDING],
    "dealer": ["the dealer must be a seated player, got %(value)s", "the first dealer must be a seated player", RULES_STUCK, RULES_BIDDING],
    "trump": [RULES_PITCHER, RULES_TRICK, RULES_HIGH, RULES_LOW, RULES_ONE_TRUMP, TAP_LOW],
    "High": [(POINT, "High"), "Tap who won High.", RULES_HIGH, RULES_ONE_TRUMP, RULES_TAP],
    "Low": [(POINT, "Low"), TAP_LOW, RULES_LOW, RULES_ONE_TRUMP, RULES_TAP],
    "Jack": [(POINT, "Jack"), TAP_JACK, RULES_JACK, RULES_ONE_TRUMP, RULES_TAP],
    "Game": [(POINT, "Game"), "Tap who won Game, or Tied.", RULES_GAME, RULES_TAP],
    "game points": [RULES_GAME],
    "set back": ["%(pitcher)s was set back %(bid)s", RULES_SET_BACK],
    "target": ["target", "Other target", "Type the target, or pick one.", "target %(target)s",
               "target must be a whole number %(min)s-%(max)s, got %(value)s"],
    "team": ["Team %(number)s", "Give the team a name.", "every team needs a name", "a team"],
    "hand": ["Hand", "Save hand", "Hand %(number)s was already recorded.", "4. Scoring a hand", "Undo last hand"],
    "trick": [RULES_TRICK],
    "steal": ["Dealer's steal", "the dealer may steal the bid", STEAL_REFUSED, RULES_STEAL],
}  # fmt: skip

# The word each language uses for each term (the players' rule sheet, or the card table's word where the sheet
# mistranslates). A term missing from a language's table has no word fixed there. Where one entry needs another
# form of the word (a plural, a verb), EXCEPTIONS names it.
WORDS: dict[str, dict[str, str]] = {
    "it": {
        "pitcher": "lanciatore", "bid": "offerta", "pass": "passo", "dealer": "mazziere", "trump": "briscola",
        "High": "Alta", "Low": "Bassa", "Jack": "Fante", "Game": "Gioco", "game points": "punti delle prese",
        "set back": "va sotto", "target": "punteggio da raggiungere", "team": "squadra", "hand": "mano",
        "trick": "presa", "steal": "rubare",
    },
    "af": {
        "pitcher": "bodwenner", "bid": "bod", "pass": "pas", "dealer": "gewer", "trump": "troef", "High": "Hoog",
        "Low": "Laag", "Jack": "Boer", "Game": "Spel", "game points": "slagpunte", "team": "span", "hand": "hand",
        "trick": "slag", "steal": "steel",
    },
    "vi": {
        "pitcher": "người thắng thầu", "bid": "giá thầu", "pass": "bỏ", "dealer": "người chia bài", "trump": "lá chủ",
        "High": "Cao", "Low": "Thấp", "Jack": "Bồi", "Game": "Điểm trò chơi", "game points": "điểm bài",
        "set back": "bị trừ", "target": "mức điểm", "team": "đội", "hand": "vòng", "trick": "nước bài", "steal": "cướp",
    },
    "mt": {
        "pitcher": "pitcher", "bid": "offerta", "pass": "pass", "dealer": "min iqassam", "trump": "trump",
        "High": "Għoli", "Low": "Baxx", "Jack": "Jack", "Game": "Logħba", "team": "tim", "hand": "rawnd",
        "trick": "trick", "steal": "jisraq",
    },
    "ceb": {
        "pitcher": "pitcher", "bid": "bid", "pass": "pas", "dealer": "dealer", "trump": "trump", "High": "Taas",
        "Low": "Ubos", "Jack": "Jack", "Game": "Game", "team": "team", "hand": "hugna", "trick": "trick", "steal": "kawaton",
    },
}  # fmt: skip

# (language, term, key) → the form of the word that entry uses.
EXCEPTIONS: dict[tuple[str, str, object], str] = {
    # Italian: the verb where the English has a verb.
    ("it", "bid", RULES_STEAL): "offrendo",
    ("it", "steal", "Dealer's steal"): "ruba",
    ("it", "steal", RULES_STEAL): "rubarla",
    # Afrikaans joins words: "minimumbod", "troefkaart"; "bie" is the verb.
    ("af", "bid", "Minimum bid"): "minimumbod",
    ("af", "bid", RULES_STEAL): "bie",
    ("af", "trump", TAP_LOW): "troefkaart",
    # Vietnamese: the trump suit is "chất chủ", a trump card "lá chủ".
    ("vi", "trump", RULES_PITCHER): "chất chủ",
    # Maltese and Cebuano: the verb, with its object or prefix.
    ("mt", "steal", RULES_STEAL): "jisraqha",
    ("ceb", "steal", "Dealer's steal"): "pagkawat",
    ("ceb", "steal", "the dealer may steal the bid"): "makakawat",
}

# Words the glossary replaced, as regular expressions (matched case-insensitively, as whole words).
OLD_WORDS: dict[str, list[str]] = {
    "it": [r"puntat\w*", r"puntare", r"punta", r"dichiarant\w*", r"obiettivo", r"punti di gioco", r"punti trucco", r"abilità"],
    "af": [r"gebruikernaam", r"spelpunte", r"truukpunte", r"kruik", r"handelaar", r"u", r"grapjas\w*"],
    "vi": [r"người gọi", r"mức gọi", r"phần gọi", r"ván", r"mục tiêu", r"đại lý", r"kèn", r"người ném bóng", r"tổng thể", r"bấm",
           r"yêu cầu\."],
    "mt": [r"offerent", r"fanti", r"fil-logħba", r"dawra", r"dawriet", r"ngħaddi", r"briskla", r"lemin tal-arloġġ", r"konċessjonarju",
           r"rawnds", r"\w*klassifikazzjoni\w*", r"tlugħ"],
    "ceb": [r"tig-pitch", r"nag-pitch", r"tawag", r"tawagay", r"motawag", r"makatawag", r"sota", r"tuyok(?! sa orasan)",
            r"triyunpo", r"trumpeta", r"geym", r"grupo", r"tigbaligya", r"tig-apod", r"patay", r"buhi", r"lagda sa balay", r"kilid",
            r"usab nga dula"],
}  # fmt: skip
