"""The rules engine and what else is pure Python (no Django but its translation of messages): the rules and the
variants (``rules``), player names in their normal form (``names``), a card night's seating planner and standings
(``seating``), problems and notes in words (``problems``), chart geometry (``charts``) and QR codes (``qr``)."""
