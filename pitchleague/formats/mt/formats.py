"""Maltese, as written in Malta: 29 ta\u2019 Novembru 2026, 29/11/2026, decimal point, comma between thousands."""

TA = "\\t\\a\u2019"  # "ta" and an apostrophe (of), escaped for Django's date format; the apostrophe is the typographic one.
DATE_FORMAT = f"j {TA} F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = f"j {TA} F Y H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = f"j {TA} F"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
FIRST_DAY_OF_WEEK = 0  # Sunday, as calendars in Malta start the week
DATE_INPUT_FORMATS = ["%d/%m/%Y", "%Y-%m-%d"]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
