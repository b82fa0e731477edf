"""Vietnamese dates as they are written in a sentence: 8 tháng 12 năm 2026 (no leading zero, "tháng" in lower case, as
Django's own "Ngày 08 tháng 12" is not mid-sentence), 08/12/2026 in short.

Numbers: Django's decimal comma and dot between thousands, grouped by three (Django sets no grouping): 1.234,5.
"""

DATE_FORMAT = "j \\t\\h\\á\\n\\g n \\n\\ă\\m Y"
DATETIME_FORMAT = "H:i \\n\\g\\à\\y j \\t\\h\\á\\n\\g n \\n\\ă\\m Y"
YEAR_MONTH_FORMAT = "\\t\\h\\á\\n\\g n \\n\\ă\\m Y"
MONTH_DAY_FORMAT = "j \\t\\h\\á\\n\\g n"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "H:i d/m/Y"
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "."
NUMBER_GROUPING = 3
