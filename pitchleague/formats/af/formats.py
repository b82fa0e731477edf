"""Afrikaans, as written in South Africa: 29 November 2026, 2026-11-29, decimal comma, space between thousands."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
FIRST_DAY_OF_WEEK = 0  # Sunday
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%Y/%m/%d", "%d/%m/%Y"]
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"  # A no-break space: 1 234,5
NUMBER_GROUPING = 3
