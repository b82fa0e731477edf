from django.apps import AppConfig


class ScoresConfig(AppConfig):
    name = "scores"
    verbose_name = "Pitch scores"
