"""A league's pages (``leagues``), its members and invites (``members``), its public link (``public``)."""
