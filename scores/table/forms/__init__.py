"""The table's forms: a new game and its rules (``games``), the tap-to-score hand form and the auction (``hands``)."""
