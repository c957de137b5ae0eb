"""Preflight: what a print shop and a colour-blind player would find on each piece, checked on the drawing itself."""
