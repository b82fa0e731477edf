"""Pitch League's data, each area's models in its own folder; Django finds an app's models here, so this module
imports them all, in the order they were first written (the tables and migrations do not depend on where a model
lives: the app label is ``scores`` for all).

The rules live in ``scores.engine.rules``; the models hold what was played and the engine's results for it, so pages
and standings read scores instead of replaying games. Writes that span models go through each area's services.
"""

# isort: skip_file
# The order is the models' order in the app registry (and so of the related objects Django deletes with a row).
from .leagues.models import *  # noqa: F403
from .table.models import *  # noqa: F403
from .standings.models import *  # noqa: F403
from .nights.models import *  # noqa: F403
from .people.models import *  # noqa: F403
from .accounts.models import *  # noqa: F403
from .history.models import *  # noqa: F403
