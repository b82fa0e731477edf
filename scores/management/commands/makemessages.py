"""``makemessages`` that also collects the rules engine's messages, marked with ``N_`` in ``scores/engine/rules.py``."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
