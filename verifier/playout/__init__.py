"""Whole-game playouts: a variant's round model (``playout:`` in setup.yaml) played K times from fresh setups.

``play`` plays one game on the zones a setup left; ``runner`` seeds and splits the games into fixed
blocks for ``--jobs``; ``stats`` turns the games into run-out probabilities, rounds and game lengths.
"""
