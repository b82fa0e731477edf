"""Italian dates as Italians write them: 1 dicembre 2026 (no leading zero; the catalog writes the months in lower case).

Only what differs from Django's Italian formats; the rest (short dates, numbers, input formats) is Django's.
"""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y H:i"
MONTH_DAY_FORMAT = "j F"
