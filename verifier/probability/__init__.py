"""Probability over the whole random setup: where randomness entered (origins), exact figures and the
Monte Carlo check of deal events, and the statistics both use."""
