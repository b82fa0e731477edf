"""Card nights: several tables at once, round after round; the seating planner is ``scores.engine.planner``."""
