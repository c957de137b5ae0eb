"""Setup and deal simulation. Reads the punchboard model; never imports the generator."""
