"""Date and number formats (FORMAT_MODULE_PATH): whole ones for the languages Django has none for (Cebuano, Maltese)
or writes otherwise (Afrikaans), and the dates Italian and Vietnamese write in a sentence; the rest is Django's."""
