"""A league's people: guests, claims of a guest's games, renames, archiving and merges."""
