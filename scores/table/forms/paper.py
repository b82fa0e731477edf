"""A game's result recorded from paper: each side's final score and, if known, how many hands it had."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ...common.forms import ShortRefusals
from ...engine import rules

MAX_SCORE = 9999  # Far past any score a game reaches; the engine checks the scores against the hands when given.


class PaperResultForm(ShortRefusals, forms.Form):
    """The final scores of a game played on paper, a field a side (``side_0``, ``side_1``, ... in the sides' order),
    the number of hands if known, and the game's version when the page was shown. Whether the scores could end the
    game is the engine's to say (``rules.paper_winner``)."""

    hands = forms.IntegerField(label=_("Hands played, if known"), required=False, min_value=1, max_value=rules.MAX_PAPER_HANDS)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, required=False)

    def __init__(self, *args, table: rules.Table, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        for i, side in enumerate(table.sides):
            words = {"side": side}
            self.fields[f"side_{i}"] = forms.IntegerField(
                label=gettext("Final score of %(side)s") % words,
                min_value=-MAX_SCORE,
                max_value=MAX_SCORE,
                error_messages={
                    "required": gettext("Give the final score of %(side)s.") % words,
                    **{
                        key: gettext("The final score of %(side)s is a whole number from %(min)s to %(max)s.")
                        % {**words, "min": -MAX_SCORE, "max": MAX_SCORE}
                        for key in ("invalid", "min_value", "max_value")
                    },
                },
                widget=forms.NumberInput(attrs={"class": "form-control", "inputmode": "numeric"}),
            )
        hands = self.fields["hands"]
        hands.widget.attrs.update({"class": "form-control", "inputmode": "numeric"})
        out_of_range = gettext("The number of hands is a whole number from 1 to %(max)s, or leave it empty.")
        out_of_range %= {"max": rules.MAX_PAPER_HANDS}
        hands.error_messages.update(dict.fromkeys(("invalid", "min_value", "max_value"), out_of_range))
        self.order_fields([*(f"side_{i}" for i in range(len(table.sides))), "hands", "version"])

    @property
    def side_fields(self) -> list[forms.BoundField]:
        return [self[f"side_{i}"] for i in range(len(self.table.sides))]

    @property
    def problem_fields(self) -> dict[str, str]:
        """The form's field for each field the engine's problems name: a side's score, the number of hands."""
        return {side: f"side_{i}" for i, side in enumerate(self.table.sides)}

    def totals(self) -> dict[str, int]:
        return {side: self.cleaned_data[f"side_{i}"] for i, side in enumerate(self.table.sides)}
