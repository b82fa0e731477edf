"""What every area builds on: the forms' base (``forms.ShortRefusals``), the refusal a service raises
(``refusals.Refused``), the request as a view sees it (``requests``), and the id converter of the addresses
(``converters``)."""
