import unicodedata

from django.apps import AppConfig

# Languages of settings.LANGUAGES that Django's own list lacks (django.conf.locale.LANG_INFO).
EXTRA_LANG_INFO = {
    "ceb": {"bidi": False, "code": "ceb", "name": "Cebuano", "name_local": "Cebuano"},
    "mt": {"bidi": False, "code": "mt", "name": "Maltese", "name_local": "Malti"},
}


class ScoresConfig(AppConfig):
    name = "scores"
    verbose_name = "Pitch scores"

    def ready(self) -> None:
        from django.conf import settings
        from django.conf.locale import LANG_INFO
        from django.contrib.auth.signals import user_logged_in

        from .accounts import language

        user_logged_in.connect(language.apply_on_login, dispatch_uid="scores.accounts.language")

        # get_language_info() (the language switcher, {% get_language_info %}) needs an entry for every language.
        for code, info in EXTRA_LANG_INFO.items():
            LANG_INFO.setdefault(code, info)
        # Django writes "Tiếng Việt" with some accents as separate characters; the switcher shows the usual (NFC) form,
        # the one a player's keyboard, search and screen reader use. Each name stands at the start of its button, where
        # its language writes a capital: "Italiano", as Django's "italiano" is written mid-sentence.
        for code, _name in settings.LANGUAGES:
            name = unicodedata.normalize("NFC", LANG_INFO[code]["name_local"])
            LANG_INFO[code]["name_local"] = name[:1].upper() + name[1:]
